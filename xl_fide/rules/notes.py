"""Short codes for "not published" in one cross-table cell, and their key.

A cross-table cell is a few characters wide; the sentences of the report ("not
published: only 3 games against rated opponents; at least 5 are needed") wrapped it
into rows five lines high. The cross-table shows a code instead, its key printed once
under the table (:data:`KEY`); the report, its CSV and JSON keep the sentences.

* ``NP 1395``: the rating computed is 1395, below the rating floor: not published
  (FIDE B.02 §7.2.1); the same code in the New column (a rated player) and in Ru (an
  unrated player's initial rating, §8.2).
* ``NP 3g``: an unrated player with only 3 games against rated opponents, fewer than
  the edition's minimum (§8.2).
* ``NP 0g``: no games against rated opponents (§8.2).
* ``NP 0pt``: a zero score against rated opponents; a first event without a point is
  ignored (§8.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xl_fide.rules.editions import RuleEdition
    from xl_fide.rules.initial import InitialRating
    from xl_fide.rules.rating import EventChange, PeriodChange

__all__ = ["NP", "KEY", "KEY_TITLE", "WIDEST", "below_floor_code", "games_code",
           "NO_GAMES", "ZERO_SCORE", "initial_code", "new_rating_code"]

NP = "NP"
#: an unrated player without a game against a rated opponent (§8.2)
NO_GAMES = f"{NP} 0g"
#: a zero score against rated opponents: a first event without a point is ignored (§8.2)
ZERO_SCORE = f"{NP} 0pt"
#: the widest code a cell shows (a four-digit rating below the floor; 99 games at most)
WIDEST = f"{NP} 1399"

KEY_TITLE = "NP = not published:"
#: The key of the codes, one line each (printed once under a cross-table), each short
#: enough for the narrowest first page of a printed cross-table (at most 85 characters:
#: the longest lines were cut by the page edge of a portrait page, issue 34).
KEY: tuple[str, ...] = (
    f"{NP} 1395 = the rating computed, 1395, is below the rating floor (FIDE B.02 §7.2.1)",
    f"{NP} 3g = only 3 games against rated opponents, too few for a rating (FIDE B.02 §8.2)",
    f"{NO_GAMES} = no games against rated opponents (FIDE B.02 §8.2)",
    f"{ZERO_SCORE} = zero score against rated opponents: the event is ignored "
    "(FIDE B.02 §8.2)",
)


def below_floor_code(value: int) -> str:
    """``NP 1395``: a computed rating below the floor, not published (B.02 §7.2.1)."""
    return f"{NP} {value}"


def games_code(n: int) -> str:
    """``NP 3g``: too few games against rated opponents for an initial rating (§8.2)."""
    return f"{NP} {n}g"


def initial_code(init: InitialRating, edition: RuleEdition) -> int | str:
    """Ru as a cross-table cell shows it: the published initial rating (int), else the
    code of why it is not published (FIDE B.02 §8.2, §7.2.1; see :data:`KEY`)."""
    if init.Ru is not None:
        return init.Ru
    if init.N == 0:
        return ZERO_SCORE if init.ignored_first_event else NO_GAMES
    if init.N < edition.initial_min_games or init.value is None:
        return games_code(init.N)
    return below_floor_code(init.value)


def new_rating_code(calc: EventChange | PeriodChange) -> int | str:
    """The new rating (int), or below the floor ``NP 1395`` (FIDE B.02 §7.2.1): the
    short form of :func:`xl_fide.rules.rating.new_rating_or_note`."""
    if calc.published:
        return calc.new_rating
    return below_floor_code(calc.new_rating)
