"""The rating report of a real tournament, checked by hand against the reference.

Players of tests/data/trf/san_viator_2018_swiss.trf (ratings read from the file):
player 1 (1750) beat player 76 (1405); player 2 (1731, born 1957) met 65 (1451),
40 (1540), 33 (1555), 39 (1540), 36 (1544), 53 (1496), 29 (1563) with 1 1 1 1 = = 0.
"""

import json
from pathlib import Path

import pytest

from xl_fide.rules.editions import EventOptions
from xl_fide.event.report import build_report, guess_time_control
from xl_fide.cli._presenters import format_report
from xl_fide.rules.editions import TimeControl
from xl_fide.trf import read_trf

DATA = Path(__file__).parents[1] / "data" / "trf"
SAN_VIATOR = DATA / "san_viator_2018_swiss.trf"


@pytest.fixture(scope="module")
def report():
    return build_report(read_trf(SAN_VIATOR))


def test_player_1_by_hand(report):
    # 1750 vs 1405: D 345 -> PD .89; win: +.11 x K 20 = +2.20 -> +2 -> 1752
    r = report.rows[0].result
    assert (r.rating, r.K, r.N, r.W_half, r.sum_PD, r.change, r.rating_change, r.new_rating) == \
        (1750, 20, 1, 2, 89, 220, 2, 1752)
    assert float(report.rows[0].points) == 2.0   # + the F bye (1 point) in round 2


def test_player_2_by_hand(report):
    # The event as one rating period (San Viator runs over 30 days: since issue 32 #1 the
    # one-period figure is the comparison, the rows carry the month-by-month result).
    # PDs: D 280 .84, 191 .75, 176 .73, 191 .75, 187 .74, 235 .79, 168 .72 -> ΣPD 5.32
    # W 5 -> ΣΔR -.32 x 20 = -6.40 -> -6 -> 1725.
    # Rp: Ra 10689/7 = 1527.0, p 5/7 = .71 -> +158 -> 1685
    r = report.comparison[1].result
    assert (r.N, r.W_half, r.sum_PD, r.change, r.rating_change, r.new_rating, r.Rp) == \
        (7, 10, 532, -640, -6, 1725, 1685)


def test_rules_follow_the_start_date(report):
    assert report.event_date.isoformat() == "2018-04-08"
    assert report.edition.id == "FIDE-2017-07-01-standard"
    assert report.time_control is TimeControl.STANDARD    # "90 minutes + 30 seconds per move"


def test_unrated_players_have_no_change_but_an_initial_rating_line(report):
    unrated = [r.result for r in report.rows if r.result.rating is None]
    assert len(unrated) == 20                            # the data README: 20 unrated
    assert all(r.change is None and r.new_rating is None for r in unrated)
    assert all(r.initial is not None for r in unrated)


def test_json_keys(report):
    doc = json.loads(format_report(report, "json"))
    keys = {"start_rank", "name", "rating", "k", "points", "games_rated", "score_rated",
            "expected", "change", "rating_change", "new_rating", "published", "performance",
            "initial_rating", "k_source", "fide_id", "average_opponent_rating"}
    assert all(set(p) == keys for p in doc["players"])
    assert all(set(p) == keys for p in doc["comparison"])
    # the one period by hand (test_player_2_by_hand): the comparison since issue 32 #1
    p2 = doc["comparison"][1]
    assert (p2["expected"], p2["change"], p2["rating_change"]) == (5.32, -6.4, -6)
    # Rc as one period: 10689 / 7 = 1527.0 -> 1527
    assert p2["average_opponent_rating"] == 1527


def test_csv_and_table(report):
    csv_text = format_report(report, "csv")
    # San Viator runs over 30 days: a leading month column (the interim reports)
    assert csv_text.splitlines()[0].startswith("month,No,Name,FIDE id,Ro,K,Pts,N,W,Rc")
    table = format_report(report, "table")
    assert "-6.40" in table and "FIDE-2017-07-01-standard" in table


def test_k_forced(report):
    rep = build_report(read_trf(SAN_VIATOR), EventOptions(k=40))
    # player 2 at K 40 as one period (the comparison since issue 32 #1): -.32 x 40 = -12.80
    # -> -13
    r = rep.comparison[1].result
    assert r.change == -1280 and r.rating_change == -13


@pytest.mark.parametrize("path", sorted(DATA.glob("*.trf")), ids=lambda p: p.name)
def test_every_shared_file_reports(path):
    t = read_trf(path)
    rep = build_report(t)
    assert [r.result.start_rank for r in rep.rows] == [p.start_rank for p in t.players]
    for row, player in zip(rep.rows, t.players):
        # byes and forfeits are never rated: N never exceeds the games played (1 = 0)
        played = sum(1 for g in player.games if g.code in "1=0" and g.opponent is not None)
        assert row.result.N <= played


@pytest.mark.parametrize("text,coded,expected", [
    ("90 minutes + 30 seconds per move", "", TimeControl.STANDARD),
    ("", "5400+30", TimeControl.STANDARD),
    ("15 min + 10 sec", "", TimeControl.RAPID),       # 15 + 10 = 25 min for 60 moves
    ("3 min + 2 sec", "", TimeControl.BLITZ),         # 3 + 2 = 5
    ("Rapid 10+5", "", TimeControl.RAPID),
    ("", "180+2", TimeControl.BLITZ),                 # 3 + 2 = 5 min
    ("standard", "", TimeControl.STANDARD),          # what `xl-fide trf` writes from a workbook
    ("whatever", "", None),
])
def test_time_control_guess(text, coded, expected):
    assert guess_time_control(text, coded) is expected


# Issue 10 finding 10: the TRF-2026 222 coded time control was never read.
# 222 180+2 = 3 min + 60 x 2 s = 5 min for 60 moves: blitz (more than 3, at most 10);
# 222 900+10 = 15 + 10 = 25 min: rapid. Each file has one game a GM (2700 / 2650) wins
# against a player 700 / 850 lower: rapid & blitz from 1 Dec 2024, a game 600+ apart
# with a player above 2600 is not rated, so N = 0 (in standard it would be 1).
BLITZ = DATA / "mini_trf2026_blitz_222.trf"
RAPID = DATA / "mini_trf2026_rapid_222.trf"


@pytest.mark.parametrize("path,tc,edition", [
    (BLITZ, TimeControl.BLITZ, "FIDE-2024-12-01-blitz"),
    (RAPID, TimeControl.RAPID, "FIDE-2024-12-01-rapid"),
])
def test_222_time_control_is_read(path, tc, edition):
    t = read_trf(path)
    assert t.version == "TRF-2026"
    report = build_report(t)
    assert report.time_control is tc and report.edition.id == edition
    # not rated: 600+ apart with a player above 2600 (rapid & blitz rule from 1 Dec 2024)
    assert [r.result.N for r in report.rows] == [0, 0, 0]    # 3: unrated, a bye
    assert [r.result.new_rating for r in report.rows[:2]] == [r.result.rating for r in report.rows[:2]]
    assert not any("time control not recognised" in n for n in report.notes)
