"""Tables 8.1.1 and 8.1.2 (FIDE B.02 §8.1), checked against the reference's printed tables."""

import pytest

from xl_fide.errors import InputError
from xl_fide.rules.tables import DP_TABLE, PD_TABLE, dp_for_p, p_hundredths, pd_for_difference, pd_higher

# Every band edge of table 8.1.2 as printed in the reference (§1): (lowest D, highest D, H).
BANDS = [
    (0, 3, 50), (4, 10, 51), (11, 17, 52), (18, 25, 53), (26, 32, 54), (33, 39, 55),
    (40, 46, 56), (47, 53, 57), (54, 61, 58), (62, 68, 59), (69, 76, 60), (77, 83, 61),
    (84, 91, 62), (92, 98, 63), (99, 106, 64), (107, 113, 65), (114, 121, 66),
    (122, 129, 67), (130, 137, 68), (138, 145, 69), (146, 153, 70), (154, 162, 71),
    (163, 170, 72), (171, 179, 73), (180, 188, 74), (189, 197, 75), (198, 206, 76),
    (207, 215, 77), (216, 225, 78), (226, 235, 79), (236, 245, 80), (246, 256, 81),
    (257, 267, 82), (268, 278, 83), (279, 290, 84), (291, 302, 85), (303, 315, 86),
    (316, 328, 87), (329, 344, 88), (345, 357, 89), (358, 374, 90), (375, 391, 91),
    (392, 411, 92), (412, 432, 93), (433, 456, 94), (457, 484, 95), (485, 517, 96),
    (518, 559, 97), (560, 619, 98), (620, 735, 99),
]


@pytest.mark.parametrize("low,high,H", BANDS)
def test_pd_band_edges(low, high, H):
    assert pd_higher(low) == H
    assert pd_higher(high) == H
    # the lower-rated player gets 1 - H (§8.1.2)
    assert pd_for_difference(-low) == 100 - H
    assert pd_for_difference(-high) == 100 - H


@pytest.mark.parametrize("D,H", [(3, 50), (4, 51), (735, 99), (736, 100), (10_000, 100),
                                 (411, 92), (412, 93), (610, 98)])
def test_pd_named_edges(D, H):
    # 3/4 and 735/736 are the brief's edges; 411 and 610 are the typos of a public copy.
    assert pd_higher(D) == H


def test_pd_bands_cover_every_difference_once():
    bounds = [b for b, _ in PD_TABLE]
    assert bounds == sorted(bounds) and bounds[-1] == 735
    assert [h for _, h in PD_TABLE] == list(range(50, 100))


def test_pd_rejects_non_integers():
    with pytest.raises(InputError, match="D must be a whole number, got 3.5"):
        pd_for_difference(3.5)


# Table 8.1.1, upper half as printed in the reference (§1).
DP_UPPER = {
    50: 0, 51: 7, 52: 14, 53: 21, 54: 29, 55: 36, 56: 43, 57: 50, 58: 57, 59: 65,
    60: 72, 61: 80, 62: 87, 63: 95, 64: 102, 65: 110, 66: 117, 67: 125, 68: 133, 69: 141,
    70: 149, 71: 158, 72: 166, 73: 175, 74: 184, 75: 193, 76: 202, 77: 211, 78: 220, 79: 230,
    80: 240, 81: 251, 82: 262, 83: 273, 84: 284, 85: 296, 86: 309, 87: 322, 88: 336, 89: 351,
    90: 366, 91: 383, 92: 401, 93: 422, 94: 444, 95: 470, 96: 501, 97: 538, 98: 589, 99: 677,
    100: 800,
}


@pytest.mark.parametrize("p,dp", sorted(DP_UPPER.items()))
def test_dp_upper_half_and_antisymmetry(p, dp):
    assert dp_for_p(p) == dp
    assert dp_for_p(100 - p) == -dp     # dp(p) = -dp(1 - p)


def test_dp_extremes():
    assert dp_for_p(0) == -800 and dp_for_p(100) == 800
    assert len(DP_TABLE) == 51


@pytest.mark.parametrize("W_half,N,p", [
    (3, 4, 38),     # 1.5/4 = .375 -> .38 (reference §1: half up before the look-up)
    (8, 6, 67),     # 4/6 = .6667 -> .67
    (13, 9, 72),    # 6.5/9 = .7222 -> .72
    (0, 7, 0), (14, 7, 100),
    (2, 7, 14),     # 1/7 = .142857 -> .14
    (23, 20, 58),   # 11.5/20 = .575 -> .58 (the float trap of one peer: .57)
])
def test_p_rounded_half_up(W_half, N, p):
    assert p_hundredths(W_half, N) == p


def test_p_rejects_bad_counts():
    with pytest.raises(InputError):
        p_hundredths(1, 0)
    with pytest.raises(InputError):
        p_hundredths(9, 4)
    with pytest.raises(InputError):
        dp_for_p(101)
