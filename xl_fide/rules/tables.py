"""The two tables of FIDE B.02 §8.1, each written once, as the Handbook prints them.

Source: FIDE Handbook B.02 (Rating Regulations effective 1 March 2024, amended
1 October 2025), tables 8.1.1 and 8.1.2, checked against FIDE's published calculations.
The known typos of one public copy (D = 411 -> .93 and D = 610 -> .99) are *not*
reproduced: 411 is .92 and 610 is .98.

Values are integer hundredths: PD .64 is ``64``; dp is whole rating points. Every
other module (and the workbook's Tables sheet) reads these tables; none retypes them.
"""

from __future__ import annotations

from bisect import bisect_left

from xl_fide.errors import InputError

# Table 8.1.2: (highest D of the band, H = higher-rated player's PD in hundredths).
# Bands are inclusive; D above the last bound (735) gives 1.00.
PD_TABLE: tuple[tuple[int, int], ...] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57),
    (61, 58), (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65),
    (121, 66), (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72),
    (179, 73), (188, 74), (197, 75), (206, 76), (215, 77), (225, 78), (235, 79),
    (245, 80), (256, 81), (267, 82), (278, 83), (290, 84), (302, 85), (315, 86),
    (328, 87), (344, 88), (357, 89), (374, 90), (391, 91), (411, 92), (432, 93),
    (456, 94), (484, 95), (517, 96), (559, 97), (619, 98), (735, 99),
)
PD_MAX_BAND = 735  # D > 735 -> H = 1.00

# Table 8.1.1: dp for p = .50, .51, ..., 1.00 (index = p in hundredths - 50).
# dp(1.00) = +800 by the table's convention; dp(p) = -dp(1 - p) below .50.
DP_TABLE: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,               # .50 - .59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,       # .60 - .69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,   # .70 - .79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,   # .80 - .89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,   # .90 - .99
    800,                                                # 1.00
)

_PD_BOUNDS = tuple(bound for bound, _ in PD_TABLE)


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be a whole number, got {value!r}")
    return value


def pd_higher(D: int) -> int:
    """PD of the higher-rated player for a rating difference ``D`` >= 0, in hundredths.

    FIDE B.02 §8.1.2. ``D`` is an int (the difference after any 400-point rule).
    ``pd_higher(3) == 50``, ``pd_higher(4) == 51``, ``pd_higher(736) == 100``.
    Raises :class:`InputError` for a negative or non-integer ``D``.
    """
    D = _whole(D, "D")
    if D < 0:
        raise InputError(f"D must be 0 or more, got {D}")
    i = bisect_left(_PD_BOUNDS, D)
    return PD_TABLE[i][1] if i < len(PD_TABLE) else 100


def pd_for_difference(D: int) -> int:
    """PD (hundredths) of a player whose rating exceeds the opponent's by ``D`` (signed).

    FIDE B.02 §8.1.2: the higher-rated player gets H, the lower-rated ``100 - H``.
    ``pd_for_difference(-130) == 32``; ``pd_for_difference(130) == 68``.
    """
    D = _whole(D, "D")
    return pd_higher(D) if D >= 0 else 100 - pd_higher(-D)


def dp_for_p(p: int) -> int:
    """dp (rating points) for a fractional score ``p`` given in integer hundredths (0..100).

    FIDE B.02 §8.1.1; dp(p) = -dp(100 - p); dp(100) = 800, dp(0) = -800.
    Round p half up to hundredths *before* calling (see :func:`p_hundredths`).
    ``dp_for_p(67) == 125``; ``dp_for_p(29) == -158``.
    """
    p = _whole(p, "p")
    if not 0 <= p <= 100:
        raise InputError(f"p must be between 0 and 100 hundredths, got {p}")
    return DP_TABLE[p - 50] if p >= 50 else -DP_TABLE[50 - p]


def p_hundredths(W_half: int, N: int) -> int:
    """Fractional score p = W / N in hundredths, rounded half up (FIDE B.02 §8.1.1).

    ``W_half`` is the score in half points (2.5 points -> 5), ``N`` the number of games.
    ``p_hundredths(3, 4) == 38`` (1.5 / 4 = .375 -> .38). Raises :class:`InputError`
    when ``N`` < 1 or the score is outside 0..N.
    """
    if N < 1:
        raise InputError(f"N (games) must be at least 1, got {N}")
    if not 0 <= W_half <= 2 * N:
        raise InputError(f"score must be between 0 and {N}, got {W_half / 2:g}")
    # p = W_half / (2 N); in hundredths: 100 W_half / (2 N), half up.
    return (2 * 100 * W_half + 2 * N) // (4 * N)


#: PD (hundredths) for D = -PD_SPAN .. PD_SPAN at index ``D + PD_SPAN``, from
#: :func:`pd_for_difference` (table 8.1.2); beyond, PD is 100 (D > 0) or 0 (D < 0).
PD_SPAN = PD_MAX_BAND + 1
PD_BY_DIFFERENCE: tuple[int, ...] = tuple(pd_for_difference(D) for D in range(-PD_SPAN, PD_SPAN + 1))


def pd_rows() -> list[tuple[int, int | None, int]]:
    """Table 8.1.2 as rows ``(D from, D to or None for 'and above', H in hundredths)``."""
    rows: list[tuple[int, int | None, int]] = []
    low = 0
    for bound, H in PD_TABLE:
        rows.append((low, bound, H))
        low = bound + 1
    rows.append((low, None, 100))
    return rows


def dp_rows() -> list[tuple[int, int]]:
    """Table 8.1.1 as rows ``(p in hundredths, dp)`` for p = 0 .. 100."""
    return [(p, dp_for_p(p)) for p in range(0, 101)]
