"""Issue 35: a rating period read one event at a time (``PeriodBuilder``): each event
added and dropped, the period holding what its output needs of it, not the tournament;
the players rated one by one as they are read (``PeriodParts``). The numbers are the
ones worked out by hand in test_period.py (FIDE B.02 §8.3.3, §8.3.4)."""

import gc
import weakref

from tests.event.test_period import event
from xl_fide.cli._presenters import period_table, period_table_parts
from xl_fide.event.period import PeriodBuilder, build_period

OTHERS = {i: (f"Opp {i}", 1600, "") for i in range(2, 11)}
PLAYERS = {1: ("Junior", 1600, 2010), **OTHERS}


def nine_games(results):
    return [(r, 1, r + 1, res) for r, res in enumerate(results, 1)]


def first_event():
    return event("A", "2025/11/03", PLAYERS,
                 nine_games(["1", "1", "1", "1", "1", "1", "=", "0", "0"]))


def second_event():
    return event("B", "2025/11/17", PLAYERS,
                 nine_games(["1", "1", "1", "1", "=", "=", "0", "0", "0"]))


def junior(players):
    (p,) = [p for p in players if p.name == "Junior"]
    return p


def test_the_period_does_not_hold_the_tournaments_it_was_given():
    builder = PeriodBuilder()
    made = []
    # the later event first: the period sorts them by start date
    for make in (second_event, first_event):
        t = make()
        made.append(weakref.ref(t))
        builder.add(t)
        del t
    gc.collect()
    assert [ref() for ref in made] == [None, None]
    # Junior (1600, born 2010: K 40): A 6.5/9 against 1600s, ΣΔR +2.00; B 5/9, +0.50;
    # n = 18, 40 x 18 = 720 > 700 -> K 38 (B.02 §8.3.3); 38 x 2.50 = 95.00 -> 1695
    report = builder.build()
    c = junior(report.players).change
    assert [e.name for e in c.events] == ["A", "B"]
    assert (c.K_given, c.K, c.N) == (40, 38, 18)
    assert [e.sum_delta_R for e in c.events] == [200, 50]
    assert (c.change, c.rating_change, c.new_rating) == (9500, 95, 1695)


def test_the_players_are_rated_as_they_are_read():
    builder = PeriodBuilder()
    for make in (first_event, second_event):
        builder.add(make())
    parts = builder.parts()
    assert builder.events == ()             # handed over: the builder keeps nothing
    assert [n for n, _, _ in parts.events] == ["A", "B"]
    first = next(parts.players)             # rated now, one player at a time
    rest = list(parts.players)
    assert len([first, *rest]) == 10
    c = junior([first, *rest]).change
    assert (c.K, c.change, c.new_rating) == (38, 9500, 1695)


def test_the_table_in_parts_is_the_table():
    report = build_period([first_event(), second_event()])
    builder = PeriodBuilder()
    for make in (second_event, first_event):
        builder.add(make())
    parts = builder.parts()
    pieces = list(period_table_parts(parts.events, parts.players, parts.notes))
    assert len(pieces) == 1 + 10 + (1 if report.notes else 0)
    assert all(piece.endswith("\n") for piece in pieces)
    assert "".join(pieces) == period_table(report)
    assert "  total: K×ΣΔR +95.00 -> +95, new rating 1695" in pieces[1]


def test_the_json_in_parts_is_what_json_dumps_writes():
    import json
    from xl_fide.cli._presenters import period_csv, period_json
    report = build_period([first_event(), second_event()])
    text = period_json(report)
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2)
    assert len(json.loads(text)["players"]) == 10
    # no event at all: the empty lists as json.dumps writes them
    empty = PeriodBuilder().build()
    text = period_json(empty)
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2)
    assert json.loads(text) == {"events": [], "players": [], "notes": []}
    assert period_csv(empty).count("\n") == 1      # the header alone
