"""Rounding edges the mutation run found unchecked (benchmarks/README.md, "Mutation run").

FIDE B.02 §8.3.4: the period's change is rounded .5 away from zero (-2.50 -> -3);
averages and p are rounded half up (B.01 §1.4; §8.1.1 "1.5/4 = .375 -> .38").
Each value below is the exact fraction worked out by hand.
"""

import pytest

from xl_fide.rules.rounding import round_half_away, round_half_up, round_hundredths_half_away


def test_whole_numbers_by_default():
    # no denominator: the number itself (n / 1)
    assert [round_half_away(n) for n in (5, -5, 0, 1)] == [5, -5, 0, 1]
    assert [round_half_up(n) for n in (7, -7, 0, 1)] == [7, -7, 0, 1]


@pytest.mark.parametrize("n,d,away,up", [
    (250, -100, -3, -2),      # 250 / -100 = -2.5: away -> -3, half up -> -2
    (-250, -100, 3, 3),       # +2.5
    (-249, -100, 2, 2),       # +2.49
    (5, 1, 5, 5),
    (-5, 1, -5, -5),
    (3, 2, 2, 2),             # 1.5
    (-3, 2, -2, -1),          # -1.5: away -> -2, half up -> -1
    (1, -2, -1, 0),           # -0.5
])
def test_exact_fractions_with_any_sign(n, d, away, up):
    assert round_half_away(n, d) == away
    assert round_half_up(n, d) == up


@pytest.mark.parametrize("fn", [round_half_away, round_half_up])
def test_zero_denominator_is_named(fn):
    with pytest.raises(ZeroDivisionError, match="^denominator is zero$"):
        fn(1, 0)


def test_hundredths_list_edges():
    # 0 and ±1 hundredth round to 0; ±50 away from zero; ±49 towards it
    assert round_hundredths_half_away([0, 1, -1, 50, -50, 49, -49, 150, -150]) == \
        [0, 0, 0, 1, -1, 0, 0, 2, -2]
