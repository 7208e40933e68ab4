"""The seam from a tournament to the engine (xl_fide.event.resolve) and the presenters.

The 222 files (tests/data/trf/mini_trf2026_*_222.trf) state their time control only
in the TRF-2026 coded field: 222 180+2 is 3 min + 60 x 2 s = 5 min for 60 moves
(blitz: more than 3, at most 10 minutes), 222 900+10 is 15 + 10 = 25 min (rapid:
more than 10, less than 60). Each has one game a GM (2700 / 2650) wins against a
player 700 / 850 points lower. FIDE B.02, Rapid & Blitz from 1 Dec 2024: a game
600 or more points apart with a player rated above 2600 is not rated; so N = 0
for both players. In standard the game would be rated (N = 1).
"""

from pathlib import Path

import pytest

from xl_fide.rules.editions import EventOptions
from xl_fide.cli._main import main
from xl_fide.event.resolve import KSource, TimeControlSource, crosstable, event_time_control
from xl_fide.rules.editions import TimeControl
from xl_fide.event.period import build_period
from xl_fide.lists._model import PlayerData, PlayerDirectory
from xl_fide.cli._presenters import escape_controls, format_report
from xl_fide.event.report import build_report
from xl_fide.trf import parse_trf, read_trf

DATA = Path(__file__).parents[1] / "data" / "trf"
BLITZ = DATA / "mini_trf2026_blitz_222.trf"
RAPID = DATA / "mini_trf2026_rapid_222.trf"


@pytest.mark.parametrize("path,tc", [(BLITZ, TimeControl.BLITZ), (RAPID, TimeControl.RAPID)])
def test_222_is_the_source(path, tc):
    assert event_time_control(read_trf(path)) == (tc, TimeControlSource.CODED)


def test_222_reaches_the_period():
    period = build_period([read_trf(BLITZ)])
    assert period.events[0][2] == "FIDE-2024-12-01-blitz"
    assert [p.change.N for p in period.players if p.Ro is not None] == [0, 0]


def test_given_time_control_beats_the_file():
    report = build_report(read_trf(BLITZ), EventOptions(time_control="standard"))
    assert report.time_control is TimeControl.STANDARD
    # standard: 2700 - 2000 = 700, 400-point rule: D 400 -> PD .92; the 2650 exemption
    # (from 1 Oct 2025) uses the real 700 -> PD .99 for the GM; the 2000 gets 1 - .92 = .08
    assert [r.result.N for r in report.rows] == [1, 1, 0]
    assert [r.result.sum_PD for r in report.rows] == [99, 8, None]


_EVENT = """012 Mini
042 2025/11/01
001    1      Alpha, Anna                       2000 SUI     1000001 2012        1.0    1     2 w 1
001    2      Beta, Bert                        1900 GER     2000002 1980        0.0    2     1 b 0
"""


def test_k_source_is_an_enum_with_precedence():
    t = parse_trf(_EVENT)
    # rule: player 1 born 2012, 2025 - 2012 = 13 <= 18 and below 2300 -> K 40 (B.02 §8.3.3);
    # player 2 born 1980, no games known -> 20
    table = crosstable(t)
    assert [(pk.K, pk.source) for pk in table.k] == [(40, KSource.RULE), (20, KSource.RULE)]
    listed = PlayerDirectory([PlayerData(2000002, "Beta, Bert", rating=1900, k=10)])
    table = crosstable(t, players=listed)
    assert [(pk.K, pk.source) for pk in table.k] == [(40, KSource.RULE), (10, KSource.LIST)]
    sheet = {1: PlayerData(None, "Alpha, Anna", k=20)}
    table = crosstable(t, players=listed, inputs=sheet)
    assert [pk.source for pk in table.k] == [KSource.SHEET, KSource.LIST]
    table = crosstable(t, EventOptions(k=15), players=listed, inputs=sheet)
    assert [(pk.K, pk.source) for pk in table.k] == [(15, KSource.GIVEN), (15, KSource.GIVEN)]


def test_no_date_no_clock_in_the_library():
    # without a date and without today, birth years are not used (no hidden clock)
    t = parse_trf(_EVENT.replace("042 2025/11/01\n", ""))
    assert [pk.K for pk in crosstable(t).k] == [20, 20]
    assert any("birth years not used" in n for n in crosstable(t).notes)
    import datetime
    assert [pk.K for pk in crosstable(t, EventOptions(today=datetime.date(2025, 6, 1))).k] == [40, 20]


def test_library_notes_name_no_cli_option():
    t = parse_trf(_EVENT.replace("042 2025/11/01\n", ""))
    notes = " ".join(build_report(t).notes)
    assert "--" not in notes


def test_escape_controls():
    assert escape_controls("Dvořák, Jiří") == "Dvořák, Jiří"
    assert escape_controls("a\x1b[31mb\rc\x9bd\u202ee\tf\n") == "a\\x1b[31mb\\x0dc\\x9bd\\u202ee\tf\n"


def test_222_reaches_the_player_list(tmp_path, capsys):
    # combined_foa.txt: 9900011 SRtng 2612, BRtng 2601; 9900033 SRtng 1720, BRtng 1650.
    # The event is blitz by its 222 only (180+2): the blitz ratings are the ones used.
    import json
    from xl_fide.cli._main import main
    trf = tmp_path / "blitz.trf"
    from tests.harness.trf_lines import player_line
    # (the lines in TRF16's columns: written by hand they were four columns right, a
    # round cell the reader took as garbage and now refuses, issue 32's user trial)
    trf.write_text(
        "012 Blitz\n042 2026/01/10\n142 1\n222 180+2\n"
        + player_line(1, "Alvarez, Bruno", "0000", fed="ESP", fide_id=9900011, birth="1988",
                      points="1.0", rounds=[(2, "w", "1")]) + "\n"
        + player_line(2, "Chen, Daniel", "0000", fed="CAN", fide_id=9900033, birth="2011",
                      points="0.0", rounds=[(1, "b", "0")]) + "\n")
    code = main(["report", str(trf), "--player-data",
                 str(Path(__file__).parents[1] / "data" / "players" / "combined_foa.txt"),
                 "--format", "json", "-q"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["time_control"] == "blitz"
    assert [p["rating"] for p in doc["players"]] == [2601, 1650]


def test_player_result_holds_each_number_once():
    # the rated numbers are read from the EventChange, never stored twice
    import dataclasses
    from xl_fide.rules.event import PlayerResult
    names = {f.name for f in dataclasses.fields(PlayerResult)}
    assert not names & {"K", "K_given", "sum_PD", "change", "rating_change", "new_rating"}
    r = build_report(parse_trf(_EVENT)).rows[0].result
    # player 1: 2000, K 40 (junior), beats 1900: D 100 -> PD .64, +.36 x 40 = +14.40 -> +14
    assert (r.K, r.sum_PD, r.change, r.rating_change, r.new_rating) == (40, 64, 1440, 14, 2014)
    assert r.calc is not None and r.change == r.calc.change


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_crosstable_refuses_too_many_players_before_parsing(tmp_path, capsys, monkeypatch,
                                                             newline):
    # A workbook holds at most 2,000 players (xl_fide.excel.MAX_PLAYERS): a TRF of 2,001
    # is refused on its 001 lines alone, before the TRF is parsed or the event rated.
    from tests.harness.trf_lines import player_line, trf
    import xl_fide.trf

    def never(*args, **kwargs):
        raise AssertionError("the event was parsed before the size check")

    monkeypatch.setattr(xl_fide.trf, "read_trf", never)
    monkeypatch.setattr(xl_fide.trf, "parse_trf", never)
    lines = [player_line(i, f"Player {i}", 1800, rounds=[(i + 1 if i % 2 else i - 1, "w", "=")])
             for i in range(1, 2002)]
    path = tmp_path / "big.trf"
    path.write_bytes(trf({"012": "Big"}, lines).replace("\n", newline).encode())
    code = main(["crosstable", str(path), "-o", str(tmp_path / "big.xlsx")])
    err = capsys.readouterr().err
    assert code == 2
    assert "2001 players: a cross-table workbook holds at most 2000" in err
    assert not (tmp_path / "big.xlsx").exists()


def test_escape_controls_of_latin_text_is_the_pattern_substitution():
    # a Latin-1 text (the usual output) is looked at as bytes first: the same result as
    # the pattern's substitution on every mix of controls, kept characters, Latin-1,
    # wider characters and bidirectional overrides
    import random

    from xl_fide.cli._presenters import _escape_one, _escaped
    rng = random.Random(23)
    pool = ["a", " ", "\n", "\t", "\r", "\x00", "\x1b", "\x7f", "\x85", "\x9f", "\xa0", "½",
            "·", "ÿ", "ř", "\u202e", "\u2066", "€"]
    for _ in range(2000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 12)))
        for keep in ("\n\t", "", "\n", "\x1b"):
            assert escape_controls(text, keep) == _escaped(keep).sub(_escape_one, text)
