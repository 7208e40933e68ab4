"""The two one-off rating adjustments FIDE made to its lists, for historical data.

* 1 March 2024 (FIDE B.02 as in force from 1 March 2024; FIDE Council decision of
  December 2023): every rating below 2000, in all three lists, became
  R + round(0.4 x (2000 - R)). 0.4 x (2000 - R) is a multiple of 0.2, so it is
  never exactly halfway and the rounding cannot be ambiguous: 1000 -> 1400,
  1001 -> 1401, 1500 -> 1700, 1950 -> 1970, 1999 -> 1999.
* 1 October 2022 (FIDE Rapid & Blitz Rating Regulations from 1 October 2022): a
  rapid or blitz rating more than 100 below the player's standard rating was raised
  to the standard rating - 100.

A rating read from a list published before the date, used for an event rated by the
rules after it, must be adjusted first (:func:`adjusted_for_rules`), or the
1000-1399 players of a February-2024 list would fall below the 1400 floor and be
taken as unrated. Ratings are ``int``; nothing here uses a float.
"""

from __future__ import annotations

import datetime as _dt

from xl_fide.rules.editions import TimeControl
from xl_fide.errors import InputError
from xl_fide.rules.rounding import round_half_up
from xl_fide.rules.values import as_rating

ADJUST_2024_DATE = _dt.date(2024, 3, 1)     # the March 2024 list
ADJUST_2024_LIMIT = 2000                    # ratings below 2000 were raised
ADJUST_2024_SHARE = (4, 10)                 # by 0.4 x (2000 - R), rounded
OLD_FLOOR = 1000                            # the floor before 1 March 2024
ADJUST_RB_2022_DATE = _dt.date(2022, 10, 1)  # the October 2022 rapid and blitz lists
ADJUST_RB_2022_GAP = 100                    # at most 100 below the standard rating
# looked up once (on Python 3.11 each look-up of an Enum member runs Python code)
_STANDARD = TimeControl.STANDARD


def adjust_2024(rating: int) -> int:
    """The rating after the one-off adjustment of 1 March 2024: R + round(0.4 x (2000 - R))
    below 2000, unchanged from 2000 (FIDE, March 2024 lists, all three time controls).

    ``rating``: an int from the list before March 2024 (1000 or more: the floor then).
    ``adjust_2024(1000) == 1400``, ``adjust_2024(1001) == 1401``,
    ``adjust_2024(1500) == 1700``, ``adjust_2024(1999) == 1999``. The raise is a
    multiple of 0.2 before rounding, never a tie. Raises :class:`InputError` for a
    value that is not a whole rating, or below 1000 (no such rating was published).
    """
    R = as_rating(rating, "rating")
    if R < OLD_FLOOR:
        raise InputError(f"rating {R} is below {OLD_FLOOR}: no such rating was published "
                         "before 1 March 2024, so there is nothing to adjust")
    if R >= ADJUST_2024_LIMIT:
        return R
    num, den = ADJUST_2024_SHARE
    return R + round_half_up(num * (ADJUST_2024_LIMIT - R), den)


def adjust_rb_2022(rapid_or_blitz: int, standard: int) -> int:
    """A rapid or blitz rating after the adjustment of 1 October 2022: raised to
    ``standard - 100`` when it was more than 100 below ``standard``, else unchanged
    (FIDE Rapid & Blitz Rating Regulations from 1 October 2022).

    Both arguments are ints (ratings). ``adjust_rb_2022(1500, 1800) == 1700``,
    ``adjust_rb_2022(1700, 1800) == 1700``, ``adjust_rb_2022(1750, 1800) == 1750``,
    ``adjust_rb_2022(1900, 1800) == 1900``. Raises :class:`InputError` for bad values.
    """
    rb = as_rating(rapid_or_blitz, "rapid_or_blitz")
    std = as_rating(standard, "standard")
    return max(rb, std - ADJUST_RB_2022_GAP)


def adjustment_between(list_date: _dt.date | None, rules_date: _dt.date | None) -> bool:
    """Whether a one-off adjustment falls in ``list_date`` < date <= ``rules_date``: the
    rapid and blitz one of 1 October 2022 (FIDE Rapid & Blitz Rating Regulations from
    1 October 2022) or the one of 1 March 2024 (FIDE B.02 as in force from 1 March
    2024). Else :func:`adjusted_for_rules` leaves every rating as it is (``None``
    dates: never)."""
    return (list_date is not None and rules_date is not None
            and (list_date < ADJUST_RB_2022_DATE <= rules_date
                 or list_date < ADJUST_2024_DATE <= rules_date))


def adjusted_for_rules(rating: int | None, list_date: _dt.date | None,
                       rules_date: _dt.date | None, time_control: TimeControl,
                       standard_rating: int | None = None) -> tuple[int | None, str]:
    """``rating`` as a list after the adjustments would show it, and a note ("" if none).

    ``list_date``: when the list the rating comes from was in force (a TRF: the
    event's start date); ``rules_date``: the date whose rules rate the event. When a
    one-off adjustment falls in between (``list_date`` < date <= ``rules_date``) it is
    applied: :func:`adjust_2024` (1 March 2024) to any rating, :func:`adjust_rb_2022`
    (1 October 2022) to a rapid or blitz rating when ``standard_rating`` is known.
    ``None`` dates or rating: nothing is adjusted.
    """
    if rating is None or list_date is None or rules_date is None:
        return rating, ""
    notes = []
    R = rating
    if (time_control is not _STANDARD and standard_rating is not None
            and list_date < ADJUST_RB_2022_DATE <= rules_date):
        new = adjust_rb_2022(R, standard_rating)
        if new != R:
            notes.append(f"{R} -> {new} (rapid/blitz raised to standard {standard_rating} - "
                         "100, 1 Oct 2022)")
            R = new
    if list_date < ADJUST_2024_DATE <= rules_date and OLD_FLOOR <= R < ADJUST_2024_LIMIT:
        new = adjust_2024(R)
        if new != R:
            notes.append(f"{R} -> {new} (R + 0.4 x (2000 - R), 1 Mar 2024)")
            R = new
    if not notes:
        return rating, ""
    return R, ("rating from a list of " + list_date.isoformat() + " adjusted for the rules of "
               + rules_date.isoformat() + ": " + "; ".join(notes))
