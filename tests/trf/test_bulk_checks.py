"""Issue 23: the fast paths of the reader and the engine give what the general ones give.

The reader checks a large event's games in bulk, a round at a time, before the
cell-by-cell check (``xl_fide.trf._sides_agree``); the engine sums a usual edition's
games by one table look-up each (``rated_sums``). Each test compares the fast path with
the general one on inputs made to hit every branch: a fast path that misses a problem,
or sums one game differently, fails here.
"""

import random

import pytest

from tests.harness.trf_lines import player_line, trf
from xl_fide import trf as trf_module
from xl_fide.rules import rating as rating_module
from xl_fide.rules.editions import EDITIONS
from xl_fide.trf import parse_trf

PLAYERS = 240          # over trf._BULK_PLAYERS: the bulk check runs first
ROUNDS = 3


def _swiss(players: int = PLAYERS, rounds: int = ROUNDS) -> list[list[tuple[int, str, str]]]:
    """Round cells of an event where every game agrees: i against i + 1 in round 1,
    i against i + 2 ... (pairs within blocks), white the lower number, results by turns."""
    cells: list[list[tuple[int, str, str]]] = [[] for _ in range(players + 1)]
    results = (("1", "0"), ("=", "="), ("0", "1"), ("+", "-"), ("W", "L"), ("D", "D"))
    for r in range(rounds):
        step = 1 << r
        for i in range(1, players + 1):
            if cells[i][r:]:
                continue
            j = i + step
            a, b = results[(i + r) % len(results)]
            cells[i].append((j, "w", a))
            cells[j].append((i, "b", b))
    return cells


def _text(cells: list[list[tuple[int, str, str]]]) -> str:
    lines = [player_line(i, f"Player {i}", 1500 + i, rounds=cells[i])
             for i in range(1, len(cells))]
    return trf({"012": "Bulk", "XXR": str(ROUNDS)}, lines)


def _warnings(text: str, monkeypatch: pytest.MonkeyPatch, bulk: bool) -> list[str]:
    with monkeypatch.context() as m:
        if not bulk:
            m.setattr(trf_module, "_BULK_PLAYERS", 10**9)
        return [str(w) for w in parse_trf(text).warnings]


def test_the_usual_large_event_passes_the_bulk_check():
    t = parse_trf(_text(_swiss()))
    assert len(t.players) >= trf_module._BULK_PLAYERS
    assert trf_module._sides_agree(t.players)
    assert t.warnings == ()


@pytest.mark.parametrize("change", [
    ("opponent", 2, 0, (5, "b", "0")),          # player 2 names 5, who names 6
    ("result", 1, 0, (2, "w", "1"), (1, "b", "1")),   # both won
    ("result", 1, 0, (2, "w", "1"), (1, "b", "=")),   # a win against a draw
    ("colour", 1, 0, (2, "w", "1"), (1, "w", "0")),   # both white
    ("bye", 3, 1, (0, "-", "1")),               # a played result without an opponent
    ("bye", 3, 1, (0, "-", "U")),               # a bye on one side of a game
    # paired with himself: refused (tests/trf/test_trf_self_pairing.py)
    ("colour", 9, 2, (13, "b", "1"), (9, "b", "0")),  # both black, in the last round
])
def test_the_bulk_check_misses_no_problem(change, monkeypatch):
    cells = _swiss()
    _, player, r, cell, *other = change
    cells[player][r] = cell
    if other:
        cells[cell[0]][r] = other[0]
    text = _text(cells)
    t = parse_trf(text)
    assert not trf_module._sides_agree(t.players)
    slow = _warnings(text, monkeypatch, bulk=False)
    assert slow                     # the change is a problem the reader words
    assert _warnings(text, monkeypatch, bulk=True) == slow


def test_the_bulk_check_leaves_unusual_numbering_to_the_cell_check(monkeypatch):
    # start ranks not 1..n in order: the bulk check says nothing, the loop checks
    cells = _swiss()
    lines = [player_line(i, f"Player {i}", 1500 + i, rounds=cells[i])
             for i in reversed(range(1, len(cells)))]
    t = parse_trf(trf({"012": "Bulk", "XXR": str(ROUNDS)}, lines))
    assert not trf_module._sides_agree(t.players)
    assert t.warnings == ()


def _lines_sums(Ro, pairs, edition):
    lines = [g for g in rating_module._lines(Ro, pairs, edition) if g.rated]
    return (len(lines), sum(g.score_half for g in lines), sum(g.PD for g in lines),
            sum(g.R_opp for g in lines))


@pytest.mark.parametrize("edition", EDITIONS,
                         ids=lambda e: e.id)
def test_rated_sums_are_the_sums_of_the_lines(edition):
    # every edition (each 400-point rule, the floor, the 2650 exemption, the 600-point
    # rule): the sums of rated_sums are those of the calculation lines, game for game
    rng = random.Random(edition.id)
    for _ in range(400):
        Ro = rng.choice([rng.randint(0, 4000), rng.randint(900, 2900), 2650, 2649, 2601])
        pairs = [(rng.choice([rng.randint(0, 4000), rng.randint(900, 2900), Ro + 400,
                              Ro - 401, edition.rating_floor, edition.rating_floor - 1]),
                  rng.randint(0, 2)) for _ in range(rng.randint(0, 12))]
        pairs = [(min(max(r, 0), 4000), s) for r, s in pairs]
        assert rating_module.rated_sums(Ro, pairs, edition) == _lines_sums(Ro, pairs, edition)


def test_the_bulk_opponent_check_refuses_a_stranger_as_before(monkeypatch):
    # an opponent that is no player: the same located refusal with or without bulk
    cells = _swiss()
    cells[5][1] = (PLAYERS + 7, "w", "1")
    text = _text(cells)
    with pytest.raises(trf_module.TrfError) as bulk:
        parse_trf(text)
    monkeypatch.setattr(trf_module, "_BULK_PLAYERS", 10**9)
    with pytest.raises(trf_module.TrfError) as slow:
        parse_trf(text)
    assert "is not a player" in str(slow.value)
    assert str(bulk.value) == str(slow.value)


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.id)
def test_effective_ratings_are_effective_rating_of_each(edition):
    # the whole event's ratings at once (the period's path) as one by one
    from xl_fide.rules.event import effective_rating, effective_ratings
    rng = random.Random(edition.id)
    floor = edition.rating_floor
    ratings = [rng.choice([None, floor, floor - 1, rng.randint(0, 4000)]) for _ in range(300)]
    standards = [rng.choice([None, floor, floor - 1, rng.randint(0, 4000)]) for _ in range(300)]
    assert effective_ratings(ratings, edition) == [
        effective_rating(R, edition)[0] for R in ratings]
    assert effective_ratings(ratings, edition, standards) == [
        effective_rating(R, edition, s)[0] for R, s in zip(ratings, standards)]


def test_no_adjustment_between_dates_leaves_every_rating_as_it_is():
    # the period skips adjusted_for_rules when adjustment_between says no adjustment
    # falls between the dates: then it must leave every rating (and note) unchanged
    import datetime as dt

    from xl_fide.rules.adjustments import adjusted_for_rules, adjustment_between
    from xl_fide.rules.editions import TimeControl

    days = [dt.date(2022, 9, 30), dt.date(2022, 10, 1), dt.date(2023, 6, 1),
            dt.date(2024, 2, 29), dt.date(2024, 3, 1), dt.date(2025, 11, 1), None]
    skipped = 0
    for list_date in days:
        for rules_date in days:
            if adjustment_between(list_date, rules_date):
                continue
            skipped += 1
            for tc in TimeControl:
                for R in (1000, 1401, 1650, 1999, 2000, 2500):
                    for standard in (None, 1500, 2100):
                        assert adjusted_for_rules(R, list_date, rules_date, tc, standard) == (R, "")
    assert skipped > len(days)          # the dates without an adjustment between were tried
    assert adjustment_between(dt.date(2024, 2, 29), dt.date(2024, 3, 1))
    assert adjustment_between(dt.date(2022, 9, 30), dt.date(2022, 10, 1))


def test_a_file_without_control_characters_reads_as_one_looked_at_line_by_line(monkeypatch):
    # the reader skips the per-line search for control characters when the whole text
    # has none: the same tournament and warnings as looking at every line
    lines = [player_line(i, f"Player {i}", 1500 + i, points="1",
                         rounds=[(i + 1 if i % 2 else i - 1, "w" if i % 2 else "b", "1")])
             for i in range(1, 9)]
    clean = trf({"012": "Clean", "XXR": "1"}, lines)
    dirty = clean.replace("Player 3", "Player\x073")
    fast = [parse_trf(text) for text in (clean, dirty, clean.replace("\n", "\r\n"))]
    monkeypatch.setattr(trf_module, "_CONTROL_IN_TEXT", trf_module.re.compile("\n|$"))
    slow = [parse_trf(text) for text in (clean, dirty, clean.replace("\n", "\r\n"))]
    assert fast == slow
    assert [[w.message for w in t.warnings] for t in fast] == \
        [[w.message for w in t.warnings] for t in slow]
    assert any("U+0007" in w.message for w in fast[1].warnings)


def _read(text: str, monkeypatch: pytest.MonkeyPatch, fast: bool, strict: bool = False
          ) -> tuple[object, ...]:
    """The tournament and warnings (or the refusal) of ``text``, with or without the
    reader's one pass over a small event's games (``_Reader._games_agree``)."""
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(trf_module._Reader, "_games_agree", lambda self, rounds: False)
        try:
            t = parse_trf(text, strict=strict)
        except trf_module.TrfError as exc:
            return ("refused", str(exc))
        return (t, [str(w) for w in t.warnings])


@pytest.mark.parametrize("change", [
    ("opponent", 2, 0, (5, "b", "0")),
    ("result", 1, 0, (2, "w", "1"), (1, "b", "1")),
    ("result", 1, 0, (2, "w", "1"), (1, "b", "=")),
    ("colour", 1, 0, (2, "w", "1"), (1, "w", "0")),
    ("bye", 3, 1, (0, "-", "1")),
    ("bye", 3, 1, (0, "-", "U")),
    ("self", 7, 2, (7, "w", "=")),
    ("stranger", 5, 1, (40, "w", "1")),
    ("colour", 9, 2, (13, "b", "1"), (9, "b", "0")),
])
def test_the_small_event_pass_misses_no_problem(change, monkeypatch):
    # a small event (under _BULK_PLAYERS) whose games all agree skips check_opponents
    # and the cell-by-cell consistency check: any problem sends it to both, which word it
    cells = _swiss(16)
    _, player, r, cell, *other = change
    cells[player][r] = cell
    if other:
        cells[cell[0]][r] = other[0]
    text = _text(cells)
    slow = _read(text, monkeypatch, fast=False)
    assert slow[0] == "refused" or slow[1]          # the change is a problem the reader words
    assert _read(text, monkeypatch, fast=True) == slow
    assert _read(text, monkeypatch, fast=True, strict=True) == \
        _read(text, monkeypatch, fast=False, strict=True)


def test_the_small_event_pass_is_the_two_checks_on_random_events(monkeypatch):
    # random small events, most cells agreeing, some changed at random (opponent,
    # colour, result, a short line, more rounds declared than cells): the same
    # tournament, warnings and refusals with the one pass as without it
    rng = random.Random(23)
    codes = ["1", "0", "=", "+", "-", "W", "D", "L", "H", "F", "U", "Z"]
    agreeing = 0
    for _ in range(600):
        n, rounds = rng.randint(2, 14), rng.randint(1, 5)
        cells = [[] for _ in range(n + 1)]
        for r in range(rounds):
            order = list(range(1, n + 1))
            rng.shuffle(order)
            if len(order) % 2:
                cells[order.pop()].append((0, "-", rng.choice(["U", "H", "F", "Z"])))
            for a, b in zip(order[::2], order[1::2]):
                x, y = rng.choice([("1", "0"), ("=", "="), ("0", "1"), ("+", "-"), ("D", "D")])
                cells[a].append((b, "w", x))
                cells[b].append((a, "b", y))
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            i = rng.randint(1, n)
            r = rng.randrange(rounds)
            cells[i][r] = (rng.choice([0, rng.randint(1, n), i, n + 1]),
                           rng.choice(["w", "b", "-"]), rng.choice(codes))
        if rng.random() < 0.1:
            i = rng.randint(1, n)
            cells[i] = cells[i][:rng.randrange(rounds)]
        lines = [player_line(i, f"Player {i}", 1500 + i, rounds=cells[i])
                 for i in range(1, n + 1)]
        declared = rounds + (1 if rng.random() < 0.1 else 0)
        text = trf({"012": "Small", "XXR": str(declared)}, lines)
        fast = _read(text, monkeypatch, fast=True)
        assert fast == _read(text, monkeypatch, fast=False)
        assert _read(text, monkeypatch, fast=True, strict=True) == \
            _read(text, monkeypatch, fast=False, strict=True)
        agreeing += fast[0] != "refused" and not fast[1]
    assert 100 < agreeing < 600          # both paths were taken


def test_the_agreeing_tables_are_never_looser_than_pair_problem():
    # the reader's one-pass check takes a game as agreeing from two tables (codes, then
    # colours taken from a draw); for every pair of codes they let through, every pair of
    # colours they let through must be one pair_problem lets through too (TRF16 results)
    from xl_fide.rules.results import pair_problem
    from xl_fide.trf import _AGREEING_CODES, _AGREEING_COLOURS
    looser = [(a, b, c, d) for a, b in _AGREEING_CODES if b is not None
              for c, d in _AGREEING_COLOURS if pair_problem(a, b, c, d) is not None]
    assert looser == []
    assert ("1", "1") not in _AGREEING_CODES and ("1", "0") in _AGREEING_CODES
    assert ("w", "w") not in _AGREEING_COLOURS and ("w", "b") in _AGREEING_COLOURS
