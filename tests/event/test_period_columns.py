"""Issue 35: a period keeps each event it reads by column (the players' fields one
tuple each, their round cells one array and two strings), not one object a player,
and reads each player's rated games from its event when the player is rated. The
numbers are the ones worked out by hand in test_period.py (FIDE B.02 §8.3.3, §8.3.4)."""

import gc

from tests.event.test_period_streaming import first_event, junior, second_event
from xl_fide.event import period as period_module
from xl_fide.event.period import PeriodBuilder
from xl_fide.tournament import TrfPlayer


def objects_of(kind):
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is kind)


def test_the_period_keeps_no_object_for_each_player_of_an_event():
    before = objects_of(period_module._PlayerFacts), objects_of(TrfPlayer)
    builder = PeriodBuilder()
    for make in (second_event, first_event):
        builder.add(make())
    # ten players an event, two events: nothing of them kept as a per-player object
    assert (objects_of(period_module._PlayerFacts), objects_of(TrfPlayer)) == before
    # Junior (1600, born 2010: K 40): A 6.5/9 against 1600s, ΣΔR +2.00; B 5/9, +0.50;
    # n = 18, 40 x 18 = 720 > 700 -> K 38 (B.02 §8.3.3); 38 x 2.50 = 95.00 -> 1695
    c = junior(builder.build().players).change
    assert [e.name for e in c.events] == ["A", "B"]
    assert (c.K_given, c.K, c.N) == (40, 38, 18)
    assert [e.sum_delta_R for e in c.events] == [200, 50]
    assert [e.rated_results() for e in c.events][1][-1] == (1600, 0)
    assert (c.change, c.rating_change, c.new_rating) == (9500, 95, 1695)


def test_an_event_kept_by_column_still_shows_each_player():
    builder = PeriodBuilder()
    builder.add(first_event())
    (kept,) = builder.events
    people = kept.players                   # made when asked for
    assert [p.start_rank for p in people] == list(range(1, 11))
    (j,) = [p for p in people if p.name == "Junior"]
    # A: Junior (white, rank 1) meets ranks 2..10 in rounds 1..9: six wins, a draw,
    # two losses
    assert (j.rating, j.birth_year, j.fide_id) == (1600, 2010, None)
    assert tuple(j.opponents) == tuple(range(2, 11))
    assert (j.codes, j.colours) == ("111111=00", "w" * 9)
    assert (tuple(j.counted_opponents), j.counted_codes) == (tuple(range(2, 11)), "111111=00")
    # Opp 2 met Junior in round 1 only (black, lost); no other game: no opponent
    (o2,) = [p for p in people if p.name == "Opp 2"]
    assert tuple(o2.opponents)[0] == 1 and o2.codes[0] == "0" and o2.colours[0] == "b"
    assert set(tuple(o2.opponents)[1:]) <= {None}
