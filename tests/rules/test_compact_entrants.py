"""Entrants given compact (one opponent and one result code a round, issue 35): rated
as their cells are, the cells made only when read. Expected values by hand from
FIDE B.02 table 8.1.2 and §8.3."""

from __future__ import annotations

import pytest

from xl_fide.errors import InputError
from xl_fide.rules.editions import rules_for
from xl_fide.rules.event import CellCodes, Entrant, rate_crosstable
from xl_fide.rules.results import GameResult

WIN, DRAW, LOSS = GameResult(2, True, "1"), GameResult(1, True, "="), GameResult(0, True, "0")
PLAYED = {"1": WIN, "=": DRAW, "0": LOSS}
made: list[tuple[object, str]] = []


def _cells(opponents, codes):
    made.append((opponents, codes))
    return tuple((o, PLAYED[c]) if o is not None and c in PLAYED
                 else (None, GameResult(2 if c == "+" else 0, False, c))
                 for o, c in zip(opponents, codes))


DECODE = CellCodes({"1": 2, "=": 1, "0": 0}, lambda c: 2 if c == "+" else 0, _cells)


def _event():
    # 1 (2000, K 20) beats 2 (1900, K 20), draws 3 (unrated), wins by forfeit against 4;
    # 2 has a bye (U) in round 2 and a "0" without an opponent (points only) in round 3
    return [Entrant.of_codes(1, 2000, 20, (2, 3, 4), "1=+", "A", DECODE),
            Entrant.of_codes(2, 1900, 20, (1, None, None), "0U0", "B", DECODE),
            Entrant.of_codes(3, None, None, (None, 1, None), "U=U", "C", DECODE),
            Entrant.of_codes(4, 1950, 20, (None, None, 1), "UU-", "D", DECODE)]


def test_rated_as_the_cells_say_without_making_them():
    made.clear()
    a, b, c, d = rate_crosstable(_event(), rules_for(None))
    assert made == []                       # no cell made to rate the event
    # D = 100: PD .64 (table 8.1.2, 99-106); A: 20 x (1 - .64) = 7.2 -> +7
    assert (a.N, a.W_half, a.change, a.new_rating) == (1, 2, 720, 2007)
    assert (b.N, b.W_half, b.change, b.new_rating) == (1, 0, -720, 1893)
    assert a.points_half == 2 + 1 + 2       # the win, the draw, the forfeit win
    assert c.N == 1 and c.W_half == 1       # the unrated player's game against A
    assert d.N == 0 and d.new_rating == 1950


def test_rounds_made_when_read():
    made.clear()
    e = _event()[0]
    assert e.rounds == ((2, WIN), (3, DRAW), (None, GameResult(2, False, "+")))
    assert len(made) == 1
    assert e.rounds is e.rounds and len(made) == 1      # made once


def test_opponent_not_a_player_named_with_its_round():
    entrants = [Entrant.of_codes(1, 2000, 20, (None, 9), "U1", "A", DECODE)]
    with pytest.raises(InputError, match="player 1, round 2: opponent 9 is not a player"):
        rate_crosstable(entrants, rules_for(None))
