"""The one-off adjustments of 1 March 2024 (ratings below 2000) and 1 October 2022 (rapid
and blitz at most 100 below standard). Expected values by hand from the rule
R + round(0.4 x (2000 - R)); 0.4 x d is a multiple of 0.2, never a tie."""

import datetime as dt

import pytest

import xl_fide
from xl_fide.rules.adjustments import adjusted_for_rules
from xl_fide.rules.editions import TimeControl
from xl_fide.errors import InputError


@pytest.mark.parametrize("R,adjusted", [
    (1000, 1400),   # 0.4 x 1000 = 400
    (1001, 1401),   # 0.4 x 999 = 399.6 -> 400
    (1500, 1700),   # 0.4 x 500 = 200
    (1950, 1970),   # 0.4 x 50 = 20
    (1997, 1998),   # 0.4 x 3 = 1.2 -> 1
    (1998, 1999),   # 0.4 x 2 = 0.8 -> 1
    (1999, 1999),   # 0.4 x 1 = 0.4 -> 0
    (2000, 2000),   # not below 2000: unchanged
    (2350, 2350),
])
def test_adjust_2024(R, adjusted):
    assert xl_fide.adjust_2024(R) == adjusted


def test_adjust_2024_refuses_what_was_never_a_rating():
    with pytest.raises(InputError, match="below 1000"):
        xl_fide.adjust_2024(999)
    with pytest.raises(InputError, match="whole number"):
        xl_fide.adjust_2024(1500.5)


@pytest.mark.parametrize("rb,std,adjusted", [
    (1500, 1800, 1700),   # 300 below -> standard - 100
    (1699, 1800, 1700),   # 101 below -> raised
    (1700, 1800, 1700),   # exactly 100 below: not "more than 100"
    (1750, 1800, 1750),
    (1900, 1800, 1900),   # above standard: unchanged
])
def test_adjust_rb_2022(rb, std, adjusted):
    assert xl_fide.adjust_rb_2022(rb, std) == adjusted


def test_exported():
    assert {"adjust_2024", "adjust_rb_2022"} <= set(xl_fide.__all__)


def test_a_february_2024_rating_rated_by_the_march_rules_is_adjusted():
    feb, mar = dt.date(2024, 2, 20), dt.date(2024, 3, 1)
    R, note = adjusted_for_rules(1200, feb, mar, TimeControl.STANDARD)
    assert R == 1520                                   # 1200 + 0.4 x 800 = 1520
    assert "1200 -> 1520" in note and "2024-02-20" in note
    assert adjusted_for_rules(1200, mar, mar, TimeControl.STANDARD) == (1200, "")
    assert adjusted_for_rules(1200, feb, feb, TimeControl.STANDARD) == (1200, "")
    assert adjusted_for_rules(2100, feb, mar, TimeControl.STANDARD) == (2100, "")
    # rapid from a September 2022 list rated in 2025: first +100 rule (1500 -> 1700 with
    # standard 1800), then the 2024 one: 1700 + 0.4 x 300 = 1820
    R, note = adjusted_for_rules(1500, dt.date(2022, 9, 1), dt.date(2025, 1, 1),
                                 TimeControl.RAPID, standard_rating=1800)
    assert R == 1820 and "1500 -> 1700" in note and "1700 -> 1820" in note
