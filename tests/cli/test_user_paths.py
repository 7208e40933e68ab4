"""Issue 23: what users run does no work twice and imports only what it uses.

No timing here (speed is measured in benchmarks/user_paths.py): each test pins one
cause of slowness found by profiling, in a way that fails when the cause comes back.
The numbers themselves are pinned by the engine's tests (test_rating, test_report,
test_period...); here only who does the work.
"""

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness.trf_lines import player_line, trf
from xl_fide import trf as trf_module
from xl_fide.cli._main import main
from xl_fide.cli._presenters import escape_controls
from xl_fide.event.period import build_period
from xl_fide.rules import rating as rating_module
from xl_fide.rules import values
from xl_fide.rules.rating import rate_event
from xl_fide.trf import parse_trf
from xl_fide.tournament import Game

DATA = Path(__file__).parents[1] / "data" / "trf"

_IMPORTS_OF = """
import sys
before = set(sys.modules)
from xl_fide.cli._main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(sorted(set(sys.modules) - before))
"""


def _imported(*argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", _IMPORTS_OF, *argv], capture_output=True,
                          text=True, check=True)
    return eval(done.stdout.strip().splitlines()[-1])   # a list of module names we printed


def test_help_imports_no_engine_no_list_store():
    # --help only builds the parser: argparse, not the rules, the TRF reader, the list
    # store (sqlite3), importlib.resources or typing
    new = _imported("--help")
    assert "argparse" in new or "argparse" in sys.modules
    for name in ("xl_fide.lists", "xl_fide.lists._store", "sqlite3", "xl_fide.rules",
                 "xl_fide.rules.values", "xl_fide.trf", "importlib.resources", "typing"):
        assert name not in new, name


def test_report_imports_neither_lists_nor_the_writer(tmp_path):
    new = _imported("report", str(DATA / "mini_trf2026.trf"))
    assert "xl_fide.event.report" in new
    for name in ("xl_fide.lists", "sqlite3", "xl_fide.excel", "openpyxl", "xl_fide._files",
                 "tempfile", "zipfile", "importlib.resources"):
        assert name not in new, name


def test_as_int_of_an_int_builds_no_fraction(monkeypatch):
    # a checked int (or a score of 0, 0.5, 1) is taken as it is, never through Fraction
    def no_fraction(value):
        raise AssertionError("Fraction built for a plain number")

    monkeypatch.setattr(values, "_exact", no_fraction)
    assert values.as_int(2000, "rating", minimum=0, maximum=4000) == 2000
    assert values.as_rating(1400) == 1400
    assert [values.as_half_points(s) for s in (0, 0.5, 1, 1.0)] == [0, 1, 2, 2]
    with pytest.raises(values.InputError, match="rating must be at most 4000, got 4001"):
        values.as_rating(4001)


def test_event_change_keeps_its_rated_games():
    # reference §9: 2000, K 10, games vs 1950 (1), 2050 (0), 1810 (½) -> change -2.50;
    # the rated games are worked out once, not on every read of N, W, ΣPD, ΣΔR
    calc = rate_event(2000, [(1950, 1), (2050, 0), (1810, .5)], 10)
    assert calc.rated_games is calc.rated_games
    assert (calc.N, calc.change, calc.rating_change) == (3, -250, -3)


def test_period_does_not_check_every_game_again(monkeypatch):
    # the reader checked the games: build_period rates its ints without _game_pairs
    def again(games):
        raise AssertionError("the period's games were checked a second time")

    monkeypatch.setattr(rating_module, "_game_pairs", again)
    t = trf_module.read_trf(DATA / "gros_2010_swiss_after_round4.trf")
    report = build_period([t])
    assert any(p.change is not None and p.change.N for p in report.players)


def test_reader_builds_no_checked_game_per_cell(monkeypatch):
    # 40 players x 9 rounds = 360 round cells; the reader checks each cell once, while
    # reading it, and does not build a checked Game (Game.__post_init__) for it again
    calls = []
    original = Game.__post_init__

    def counted(self):
        calls.append(self)
        original(self)

    monkeypatch.setattr(Game, "__post_init__", counted)
    lines = [player_line(i, f"Player {i}", 1500 + i, points="4.5",
                         rounds=[(i + 1 if i % 2 else i - 1, "w" if i % 2 else "b", "=")] * 9)
             for i in range(1, 41)]
    t = parse_trf(trf({"012": "Cells", "XXR": "9"}, lines))
    assert len(t.players) == 40 and all(len(p.games) == 9 for p in t.players)
    assert len(calls) < 40          # a few for the scoring table, none per cell


def test_reader_keeps_round_cells_compact_across_files():
    # 1,000 events of a period repeat the same round cells: the reader keeps each
    # player's cells compact (opponents, codes, colours round by round; one int object
    # per opponent number, shared by every cell that names it) and makes the Games of
    # ``games`` only when they are read, each cell's Game shared (issue 35)
    lines = [player_line(i, f"Player {i}", 1500 + i, points="4.5",
                         rounds=[(i + 1 if i % 2 else i - 1, "w" if i % 2 else "b", "=")] * 9)
             for i in range(1, 41)]
    a = parse_trf(trf({"012": "One", "XXR": "9"}, lines), source="a.trf")
    b = parse_trf(trf({"012": "Other", "XXR": "9"}, lines), source="b.trf")
    for pa, pb in zip(a.players, b.players):
        assert all(oa is ob for oa, ob in zip(pa.round_opponents, pb.round_opponents))
        assert (pa.round_codes, pa.round_colours) == (pb.round_codes, pb.round_colours)
        # the Games, made when read, one immutable object per round cell across files
        assert all(ga is gb for ga, gb in zip(pa.games, pb.games))
    # each the Game the cell means, round by round
    p3 = a.players[2]
    assert (p3.round_opponents, p3.round_codes, p3.round_colours) == ((4,) * 9, "=" * 9, "w" * 9)
    assert p3.games == tuple(Game(r, 4, "w", "=") for r in range(1, 10))
    assert all(g.explicit for g in p3.games)


def test_reader_looks_up_no_pattern_by_text_per_line(monkeypatch):
    # each line's record id and ruler test, and the file's line breaks, use patterns
    # compiled once (re.fullmatch(text, ...) looks the pattern up in re's cache each time)
    import re

    def by_text(*args, **kwargs):
        raise AssertionError("a pattern looked up by its text while reading")

    lines = [player_line(i, f"Player {i}", 1500 + i, points="1",
                         rounds=[(i + 1 if i % 2 else i - 1, "w" if i % 2 else "b", "1")])
             for i in range(1, 5)]
    text = trf({"012": "Lines", "042": "2024/01/01", "052": "2024/01/02", "XXR": "1"}, lines)
    for name in ("fullmatch", "match", "split", "search"):
        monkeypatch.setattr(re, name, by_text)
    for t in (parse_trf(text), parse_trf(text.replace("\n", "\r\n"))):
        assert [p.name for p in t.players] == [f"Player {i}" for i in range(1, 5)]
        assert t.name == "Lines" and t.rounds == 1


def test_period_builds_each_change_in_one_step(monkeypatch):
    # the period's 11,000 changes: their sums are added up while the events are rated,
    # not a second time by PeriodChange.__post_init__ (the numbers: test_period)
    def again(self):
        raise AssertionError("a period change added up its events a second time")

    monkeypatch.setattr(rating_module.PeriodChange, "__post_init__", again)
    t = trf_module.read_trf(DATA / "gros_2010_swiss_after_round4.trf")
    report = build_period([t])
    changes = [p.change for p in report.players if p.change is not None and p.change.N]
    assert changes
    for c in changes:
        assert c.N == sum(e.N for e in c.events)
        assert c.sum_delta_R == sum(e.sum_delta_R for e in c.events)
        assert c.new_rating == c.Ro + c.rating_change


def test_escape_controls_with_line_breaks_needs_no_loop(monkeypatch):
    # text with line breaks (every report) is not printable(); it is still returned as
    # it is, found clean at C speed, without a look at each character
    import unicodedata

    def per_character(ch):
        raise AssertionError("escape_controls looked at each character")

    monkeypatch.setattr(unicodedata, "category", per_character)
    text = "Rating period\nDvořák, Jiří\t2000\n" * 100
    assert escape_controls(text) is text
    assert escape_controls("a\x1b[31mb\u202ec\n") == "a\\x1b[31mb\\u202ec\n"


def _gc_seen_by(monkeypatch, module, name) -> list[bool]:
    """Whether the cyclic collector was on at each call of ``module.name`` (a spy)."""
    seen: list[bool] = []
    original = getattr(module, name)

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return seen


def test_cli_rates_with_the_cyclic_gc_paused_and_restores_it(monkeypatch, capsys):
    # a CLI-level decision (documented in xl_fide/cli/_main.py): the rating phase of
    # report/period runs with the cyclic collector paused; it is on again afterwards
    import xl_fide.event.report
    seen = _gc_seen_by(monkeypatch, xl_fide.event.report, "build_report")
    assert gc.isenabled()
    code = main(["report", str(DATA / "mini_trf2026.trf"), "--format", "json", "-q"])
    assert code == 0 and json.loads(capsys.readouterr().out)["players"]
    assert seen and seen[0] is False
    assert gc.isenabled()


def test_crosstable_fills_with_the_cyclic_gc_paused_and_restores_it(monkeypatch, tmp_path):
    # the same decision for crosstable (issue 23: the collector cost about 0.6 s of a
    # 2,000-player workbook); it is on again afterwards, also when the command fails
    import xl_fide.excel
    seen = _gc_seen_by(monkeypatch, xl_fide.excel, "fill_workbook")
    out = tmp_path / "mini.xlsx"
    assert main(["crosstable", str(DATA / "mini_trf2026.trf"), "-o", str(out), "-q"]) == 0
    assert out.exists() and seen == [False]
    assert gc.isenabled()
    # given again without --force: refused, and the collector is on again
    assert main(["crosstable", str(DATA / "mini_trf2026.trf"), "-o", str(out), "-q"]) != 0
    assert gc.isenabled()


def _no_lines(monkeypatch):
    """Make building a calculation line (a GameCalc) fail."""
    def line(*args):
        raise AssertionError("a calculation line was built")

    monkeypatch.setattr(rating_module, "_line", line)


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_report_builds_no_calculation_line_it_does_not_print(monkeypatch, fmt):
    # the report prints each player's sums (N, W, ΣPD, K x ΣΔR, Rp), never a game's
    # line: the engine rates from the sums and makes the lines only when read
    from xl_fide.cli._presenters import format_report
    from xl_fide.event.report import build_report
    t = trf_module.read_trf(DATA / "san_viator_2018_swiss.trf")
    with monkeypatch.context() as m:
        _no_lines(m)
        report = build_report(t)
        assert format_report(report, fmt)
    # read afterwards, the lines are those of the engine's one-by-one path
    from xl_fide.rules.editions import edition
    from xl_fide.rules.rating import EventChange, game_lines
    # (San Viator runs over 30 days: the engine's changes are those of the one period,
    # report.comparison, and of each month; the rows sum the months, issue 32 #1)
    rows = report.comparison + tuple(r for m in report.months for r in m.rows)
    rated = [r.result for r in rows if r.result.calc is not None and r.result.N]
    assert len(rated) > 20 and report.comparison
    for res in rated:
        calc = res.calc
        ed = edition(calc.edition_id)
        lines = calc.games
        full = EventChange(calc.Ro, calc.K_given, calc.K,
                           game_lines(calc.Ro, [(g.R_opp, g.score_half) for g in lines], ed),
                           calc.edition_id)
        assert calc == full
        assert (calc.N, calc.W_half, calc.sum_PD, calc.sum_delta_R) == \
            (full.N, full.W_half, full.sum_PD, full.sum_delta_R)


def test_period_page_builds_no_calculation_line(monkeypatch):
    # the period's page lists each rated game's opponent and score, not its line
    from xl_fide.cli._presenters import format_period
    t = trf_module.read_trf(DATA / "gros_2010_swiss_after_round4.trf")
    _no_lines(monkeypatch)
    text = format_period(build_period([t]))
    assert "games [" in text and "new rating" in text


def test_period_works_out_event_identities_only_for_events_that_could_match(monkeypatch):
    # the same event twice has the same name, dates and players; the same games the
    # same players and results: events that differ there are never compared in full
    import xl_fide.event.period as period_module
    calls = []
    for name in ("event_identity", "games_identity", "_games_by_rank"):
        original = getattr(period_module, name)
        monkeypatch.setattr(period_module, name,
                            lambda t, _f=original, _n=name: calls.append(_n) or _f(t))
    events = [trf_module.read_trf(DATA / name) for name in (
        "gros_2010_swiss_after_round4.trf", "san_viator_2018_swiss.trf",
        "roundrobin_12_synthetic.trf", "swissmanager_cp1252.trf")]
    assert build_period(events, span=True).players
    assert calls == []
    with pytest.raises(values.InputError, match="the same event as"):
        build_period([events[0], trf_module.read_trf(DATA / "gros_2010_swiss_after_round4.trf")],
                     span=True)


def test_sums_without_lines_are_the_sums_of_the_lines():
    # the report's sums (rated_sums) and the calculation page's lines (_lines) apply the
    # same rules: every edition (400-point rule in every game or once per event, the
    # 2650 exemption, the floor of 1000 or 1400, the R&B 600-point rule)
    import random

    from xl_fide.rules.editions import EDITIONS
    rng = random.Random(23)
    for ed in EDITIONS:
        for _ in range(60):
            Ro = rng.choice((rng.randint(900, 2900), 2650, 2700, 1400, 1000))
            pairs = [(rng.choice((rng.randint(800, 2900), Ro + 401, Ro - 401, Ro + 600,
                                  Ro - 600, 999, 1399)), rng.randint(0, 2))
                     for _ in range(rng.randint(0, 12))]
            pairs = [(min(max(r, 0), 4000), s) for r, s in pairs]
            lines = [g for g in rating_module._lines(Ro, pairs, ed) if g.rated]
            assert rating_module.rated_sums(Ro, pairs, ed) == (
                len(lines), sum(g.score_half for g in lines), sum(g.PD for g in lines),
                sum(g.R_opp for g in lines)), (ed.id, Ro, pairs)
            assert rating_module.rated_pairs(Ro, pairs, ed) == [(g.R_opp, g.score_half)
                                                               for g in lines]


def test_rate_crosstable_names_the_round_of_an_opponent_that_is_no_player():
    # the loop over round cells keeps no round counter; the error still names the round
    from xl_fide.rules.event import Entrant, rate_crosstable
    from xl_fide.rules.results import GameResult
    win, bye = GameResult(2, True, "1"), GameResult(1, False, "H")
    entrants = [Entrant(1, 2000, 20, ((None, bye), (2, win), (9, win))),
                Entrant(2, 1900, 20, ((None, bye), (1, GameResult(0, True, "0")), (None, None)))]
    with pytest.raises(values.InputError, match=r"^player 1, round 3: opponent 9 is not a player$"):
        rate_crosstable(entrants)


def test_records_made_when_read_are_the_lines_of_the_file():
    # the reader keeps each line's (kind, tag, text, line), a 001 line's in its player,
    # and makes the Records when first read (a period never reads them): the records
    # of every kind of line, in file order, and the 222 code found before them
    import dataclasses

    lines = [player_line(i, f"Player {i}", 1500 + i,
                         rounds=[(i + 1 if i % 2 else i - 1, "w" if i % 2 else "b", "1")])
             for i in range(1, 5)]
    text = "\n".join(["012 Records", "222 5400+30", "", "DDD SSSS sTTT NNNN", lines[0],
                      "### a comment", lines[1], "XXR 1", "9ab not a record", lines[2],
                      "   1234", lines[3], "122 90 min"]) + "\n"
    t = parse_trf(text)
    assert parse_trf(text).time_control_code == "5400+30"     # before the records are made
    kinds = ["header", "header", "blank", "ruler", "player", "comment", "player",
             "extension", "unknown", "player", "ruler", "player", "header"]
    tags = ["012", "222", "", "", "001", "###", "001", "XXR", "9ab", "001", "", "001", "122"]
    assert [(r.kind, r.tag, r.text, r.line) for r in t.records] == [
        (kind, tag, line, n) for n, (kind, tag, line) in
        enumerate(zip(kinds, tags, text.split("\n")), start=1)]
    assert t.records is t.records                               # made once
    assert all(type(r) is trf_module.Record for r in t.records)
    copy = dataclasses.replace(t)                               # holds its records itself
    assert copy == t and copy.records == t.records and copy.time_control_code == "5400+30"
    assert t.time_control_code == "5400+30"
    assert trf_module.write_trf(parse_trf(text)) == trf_module.write_trf(copy)
