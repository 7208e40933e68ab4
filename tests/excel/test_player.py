"""A player's own rating period (issue 21): the games CSV, `xl-fide rate`, and the player
sheet recalculated by LibreOffice with no add-in.

Every expected number is worked by hand in a comment from FIDE B.02 (table 8.1.2 for
PD, §8.3.3 for K and the K x n <= 700 cap, §8.3.4 one rounding .5 away from zero,
§7.2.1 the floor 1400, §8.2 the initial rating with two hypothetical 1800 draws), or is
the README's / the regulations' worked example.
"""

from __future__ import annotations

import json
import os

import pytest
from openpyxl import load_workbook
from openpyxl.formula import Tokenizer

from tests.event.test_period import event
from xl_fide._games import parse_games
from xl_fide.event.player_period import PlayerInputs, rate_player
from xl_fide.cli import main
from xl_fide.errors import PlayerFileError
from xl_fide.excel import save_workbook
from xl_fide.excel._player import MAX_EVENTS, MAX_GAMES, NAMES, build_player_sheet
from xl_fide.rules.editions import EventOptions
from xl_fide.event.period import build_period

HEAD = "event,event_start,event_end,opponent_rating,result"


def csv_of(*rows: str, head: str = HEAD) -> str:
    return "\n".join((head,) + rows) + "\n"


# README: 1892, K 40, beats 2025: D = 133 -> PD .32 for the lower-rated player (table
# 8.1.2: 130-137 -> .68 / .32); ΔR = 1 - .32 = .68; K 40: 27.20 -> +27 -> 1919;
# K 20: 13.60 -> +14 -> 1906.
README = csv_of("Open,2025-11-01,2025-11-03,2025,1")

# One rounding (§8.3.4): Ro 2000, K 10. Event A: draw vs 1810 (D 190 -> PD .75, ΔR -.25)
# -> -2.50; event B: win vs 1950 (D 50 -> PD .57, ΔR .43) -> +4.30. The period: +1.80 ->
# +2 -> 2002. Rounding each event would give -3 + 4 = +1.
ONE_ROUNDING = csv_of("A,2025-11-01,2025-11-02,1810,½", "B,2025-11-15,2025-11-16,1950,1")

# The cap over the period (§8.3.3): Ro 1500, K 40, two events of 10 games, 10/10 each
# against 1500s (PD .50, ΔR .50): n = 20, 40 x 20 = 800 > 700 -> K = 700 // 20 = 35.
# Each event: 35 x 5.00 = 175.00; the period 350.00 -> +350 -> 1850. Per event alone
# (n = 10, 400 <= 700) K would stay 40: 200 + 200.
CAP = csv_of(*[f"A,2025-11-01,2025-11-05,1500,1" for _ in range(10)],
             *[f"B,2025-11-20,2025-11-25,1500,1-0" for _ in range(10)])

# Below the floor (§7.2.1): Ro 1410, K 40, loses to a 1410 (PD .50, ΔR -.50) -> -20.00
# -> 1390 < 1400: not published, listed as unrated.
FLOOR = csv_of("A,2025-11-01,2025-11-01,1410,0")

# Unrated (§8.2): event "Late" (listed first, starts later): five draws against 1400s;
# event "Early": 0/2 against 1600s, a first event without a point: ignored. Pooled:
# N 5, W 2.5; Ra = (5 x 1400 + 3600) / 7 = 1514.29; p = (2.5 + 1) / 7 = .50 -> dp 0;
# Ru = 1514 (reference §9, "5 draws vs five 1400s").
UNRATED = csv_of(*[f"Late,2025-11-20,2025-11-22,1400,=" for _ in range(5)],
                 "Early,2025-11-02,2025-11-03,1600,0", "Early,2025-11-02,2025-11-03,1600,0",
                 "Late,2025-11-20,2025-11-22,unrated,1")

# An event with its own Ro and K (started before the last list): Ro 1892 K 20 on the
# list; event "Old" was rated with Ro 1850 and K 40: win vs 1850 (D 0, PD .50, ΔR .50)
# -> 40 x .50 = 20.00; event "New": win vs 2025 (PD .32, ΔR .68) -> 20 x .68 = 13.60.
# Total 33.60 -> +34 -> 1926.
OWN = csv_of("Old,2025-10-28,2025-11-02,1850,1,1850,40", "New,2025-11-10,2025-11-12,2025,1,,",
             head=HEAD + ",Ro,K")


ONCE_2023 = csv_of("A,2023-05-01,2023-05-03,1500,1", "A,2023-05-01,2023-05-03,1550,1",
                   "A,2023-05-01,2023-05-03,2000,½")


def rate(text: str, **player):
    return rate_player(parse_games(text, "games.csv"), PlayerInputs(**player))


# ------------------------------------------------------------------------------ the engine

def test_readme_example():
    p = rate(README, Ro=1892, K=40)
    (ev,) = p.events
    (g,) = ev.games
    assert (g.calc.D, g.calc.PD, g.calc.delta_R) == (-133, 32, 68)
    assert (ev.change, p.rating_change, p.new_rating) == (2720, 27, 1919)
    p20 = rate(README, Ro=1892, K=20)
    assert (p20.events[0].change, p20.new_rating) == (1360, 1906)


def test_one_rounding_over_the_period():
    p = rate(ONE_ROUNDING, Ro=2000, K=10)
    assert [e.change for e in p.events] == [-250, 430]
    assert (p.change, p.rating_change, p.new_rating) == (180, 2, 2002)


def test_k_capped_over_the_period():
    p = rate(CAP, Ro=1500, K=40)
    assert (p.N, p.K) == (20, 35)
    assert [e.change for e in p.events] == [17500, 17500]
    assert p.new_rating == 1850


def test_below_the_floor_is_not_published():
    p = rate(FLOOR, Ro=1410, K=40)
    assert (p.computed_rating, p.new_rating, p.published) == (1390, None, False)
    assert "below 1400" in p.publication


def test_unrated_initial_rating_pooled_first_zero_event_ignored():
    p = rate(UNRATED)
    assert p.initial is not None and p.initial.ignored_first_event
    assert (p.N, p.new_rating) == (5, 1514)
    assert [e.name for e in p.events] == ["Late", "Early"]      # CSV order kept


def test_events_own_ro_and_k():
    p = rate(OWN, Ro=1892, K=20)
    assert [(e.Ro, e.K, e.change) for e in p.events] == [(1850, 40, 2000), (1892, 20, 1360)]
    assert p.new_rating == 1926


def test_equals_xl_fide_period_on_the_same_games():
    # The same games as TRF files: `period` (build_period) and `rate` agree per event
    # (K x ΣΔR) and on the new rating. Player 1 rated 2000, K 10, events A and B of
    # ONE_ROUNDING.
    a = event("A", "2025/11/01", {1: ("Me", 2000, ""), 2: ("X", 1810, "")},
              [(1, 1, 2, "=")], end="2025/11/02")
    b = event("B", "2025/11/15", {1: ("Me", 2000, ""), 2: ("Y", 1950, "")},
              [(1, 1, 2, "1")], end="2025/11/16")
    rep = build_period([a, b], EventOptions(k=10))
    (me,) = [x for x in rep.players if x.name == "Me"]
    mine = rate(ONE_ROUNDING, Ro=2000, K=10)
    assert [me.change.event_change(i) for i in range(2)] == [e.change for e in mine.events]
    assert me.change.new_rating == mine.new_rating == 2002


def test_cli_period_prints_what_rate_prints(tmp_path, capsys):
    from xl_fide.trf import encode_trf
    files = []
    for name, start, end, opp, res in (("A", "2025/11/01", "2025/11/02", 1810, "="),
                                       ("B", "2025/11/15", "2025/11/16", 1950, "1")):
        t = event(name, start, {1: ("Me", 2000, ""), 2: ("X", opp, "")}, [(1, 1, 2, res)],
                  end=end)
        f = tmp_path / f"{name}.trf"
        f.write_bytes(encode_trf(t))
        files.append(str(f))
    code, out, _ = run(capsys, "period", *files, "--k", "10")
    me = out.split("Me", 1)[1].split("\nX", 1)[0]
    # ONE_ROUNDING by hand: -2.50, +4.30; +1.80 -> +2 -> 2002
    assert "K×ΣΔR -2.50" in me and "K×ΣΔR +4.30" in me and "new rating 2002" in me


def test_unrated_equals_xl_fide_period():
    # UNRATED as TRF files: "Early" 0/2 against 1600s (ignored), "Late" five draws
    # against 1400s: Ru 1514 by hand above, in `period` as in `rate`.
    early = event("Early", "2025/11/02", {1: ("Me", None, ""), 2: ("P", 1600, ""),
                                          3: ("Q", 1600, "")},
                  [(1, 1, 2, "0"), (2, 1, 3, "0")], end="2025/11/03")
    late_players = {1: ("Me", None, ""), **{i: (f"O{i}", 1400, "") for i in range(2, 7)}}
    late = event("Late", "2025/11/20", late_players,
                 [(r, 1, r + 1, "=") for r in range(1, 6)], end="2025/11/22")
    rep = build_period([late, early])
    (me,) = [x for x in rep.players if x.name == "Me"]
    assert me.initial.Ru == rate(UNRATED).new_rating == 1514


# -------------------------------------------------------------------------------- the CSV

def test_headers_any_case_and_order_optional_columns_and_unrated_words():
    text = ("Result;Opponent_Rating;EVENT;Event_End;event_start;Opponent;colour\n"
            "1;2025;Open;2025-11-03;2025-11-01;Smith;w\n"
            "½;unrated;Open;2025-11-03;2025-11-01;Doe;b\n")
    g = parse_games(text, "g.csv")
    (ev,) = g.events
    assert [x.R_opp for x in ev.games] == [2025, None]
    assert [x.opponent for x in ev.games] == ["Smith", "Doe"]
    assert g.ignored == ("colour",)


@pytest.mark.parametrize("text,where", [
    (csv_of("Open,2025-11-01,2025-11-03,2025,x"), "g.csv:2:5: result"),
    (csv_of("Open,2025-11-01,2025-11-03,2025,1", "Open,2025-11-01,2025-11-03,20x5,1"),
     "g.csv:3:4: opponent_rating"),
    (csv_of("Open,2025-11-01,2025-11-03,2025,1", "Open,2025-11-02,2025-11-03,2025,1"),
     "g.csv:3:2: event_start"),
    (csv_of("Open,2025-11-05,2025-11-03,2025,1"), "g.csv:2:3: event_end"),
    (csv_of("Open,2025-11-01,,2025,1"), "g.csv:2:3: event_end"),
    ("event,event_start,opponent_rating,result\n", "g.csv:1: missing column event_end"),
    (csv_of("Open,2025-11-01,2025-11-03,2025,1,300", head=HEAD + ",K"), "g.csv:2:6: K"),
])
def test_bad_rows_name_file_line_and_column(text, where):
    with pytest.raises(PlayerFileError) as e:
        parse_games(text, "g.csv")
    assert str(e.value).startswith(where)


# ------------------------------------------------------------------------------ the command

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_rate_game_json_contract(capsys):
    code, out, _ = run(capsys, "rate", "--rating", "1892", "--k", "40", "--game", "2025:1",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["new_rating"] == 1919
    assert [(e["event"], e["change"]) for e in data["events"]] == [("games", 27.2)]
    code, out, _ = run(capsys, "rate", "--rating", "1892", "--k", "20", "--game", "2025:1",
                       "--format", "json")
    assert json.loads(out)["events"][0]["change"] == 13.6


def test_cli_rate_csv_file_and_errors(capsys, tmp_path):
    f = tmp_path / "games.csv"
    f.write_text(ONE_ROUNDING, encoding="utf-8")
    code, out, _ = run(capsys, "rate", str(f), "--rating", "2000", "--k", "10")
    assert code == 0 and "-> +2" in out and "2002" in out
    f.write_text(csv_of("A,2025-11-01,2025-11-02,1810,½", "A,2025-11-01,2025-11-02,1810,y"),
                 encoding="utf-8")
    code, out, err = run(capsys, "rate", str(f), "--rating", "2000")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"{f}:3:5: result" in err
    f.write_text(ONE_ROUNDING, encoding="utf-8")
    code, _, err = run(capsys, "rate", str(f))
    assert code == 2 and "--rating" in err


def test_cli_rate_writes_csv_and_reads_windows_1252(capsys, tmp_path):
    f = tmp_path / "games.csv"
    f.write_bytes(csv_of("Café,2025-11-01,2025-11-02,1810,½",
                         "B,2025-11-15,2025-11-16,1950,1").encode("cp1252"))
    out = tmp_path / "out.csv"
    code, _, _ = run(capsys, "rate", str(f), "--rating", "2000", "--k", "10", "-o", str(out))
    assert code == 0
    # the CSV has the JSON's fields (a user trial: K and K_used, by name, not position)
    import csv
    import io
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    # ONE_ROUNDING's numbers: -2.50, +4.30, the period +1.80 -> +2 -> 2002
    assert (rows[0]["event"], rows[0]["change"], rows[0]["rating_change"]) == ("Café", "-2.50", "")
    period = rows[-1]
    assert (period["event"], period["change"], period["rating_change"], period["new_rating"],
            period["published"], period["K"], period["K_used"]) == (
        "period", "1.80", "2", "2002", "yes", "10", "10")
    code, _, err = run(capsys, "rate", str(f), "--rating", "2000", "-o", str(f), "--force")
    assert code == 2 and f.read_bytes().startswith(b"event")      # never over an input


def test_cli_rate_infers_rating_from_the_csv_ro(capsys, tmp_path):
    f = tmp_path / "games.csv"
    f.write_text(csv_of("A,2025-11-01,2025-11-02,2025,1,1892,40", head=HEAD + ",Ro,K"),
                 encoding="utf-8")
    code, out, _ = run(capsys, "rate", str(f), "--format", "json")
    assert code == 0 and json.loads(out)["new_rating"] == 1919


# ---------------------------------------------------------------------------- the sheet

def formula_functions(wb):
    names = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    for t in Tokenizer(c.value).items:
                        if t.type == "FUNC" and t.subtype == "OPEN":
                            names.add(t.value.rstrip("(").upper())
    return names


def test_native_sheet_uses_only_builtin_functions_and_has_the_names():
    from openpyxl.utils import FORMULAE
    wb = build_player_sheet(formulas="native")
    used = formula_functions(wb)
    assert used <= set(FORMULAE) and not {"N", "TEXT"} & used
    assert {"NewRating", "EventChange"} <= set(NAMES) <= set(wb.defined_names)
    ws = wb["Player"]
    assert ws.page_setup.fitToWidth == 1 and ws.page_setup.fitToHeight == 1
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert MAX_GAMES >= 60 and MAX_EVENTS >= 8
    udf = formula_functions(build_player_sheet(formulas="udf"))
    assert {"FIDE_EXPECTED", "FIDE_K"} <= udf


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_player_sheet_keeps_excel_limits(formulas):
    """Excel's limits (8192 characters, 64 levels, 255 arguments, 255-character texts,
    functions of Excel 2010) on every formula, validation and format of the sheet."""
    from tests.harness.excel_limits import check
    assert check(build_player_sheet(formulas=formulas), {"FIDE_EXPECTED", "FIDE_K"}) == []


CASES = {   # name -> (CSV, rate options, new rating by hand, K x ΣΔR per event by hand)
    "readme": (README, ["--rating", "1892", "--k", "40"], 1919, [27.2]),
    "one_rounding": (ONE_ROUNDING, ["--rating", "2000", "--k", "10"], 2002, [-2.5, 4.3]),
    "cap": (CAP, ["--rating", "1500", "--k", "40"], 1850, [175.0, 175.0]),
    "floor": (FLOOR, ["--rating", "1410", "--k", "40"], None, [-20.0]),
    "unrated": (UNRATED, ["--rating", "unrated"], 1514, [None, None]),
    "own": (OWN, ["--rating", "1892", "--k", "20"], 1926, [20.0, 13.6]),
    # K by rule in the sheet as in the engine: born 2010, the period's year 2025: 15 <= 18
    # and under 2300 -> K 40 (§8.3.3): the README example, 1919
    # 2023 (B.02 2022 §8.3.1: the 400-point rule in one game per event, the one of
    # largest difference): Ro 2000, K 20, wins vs 1500 (D 500 -> 400: PD .92, ΔR .08),
    # wins vs 1550 (D 450, not capped: 433-456 -> .94, ΔR .06), draws vs 2000 (PD .50,
    # ΔR 0). ΣΔR .14 x 20 = 2.80 -> +3 -> 2003 (capping both would give 3.20).
    "once_2023": (ONCE_2023, ["--rating", "2000", "--k", "20"], 2003, [2.8]),
    # a tie in 2023: wins vs 1500 (D 500) and vs 2500 (D -500): the first is the capped
    # one (400: PD .92, ΔR .08), the second not (|D| 500: 485-517 -> .96 / .04, ΔR .96).
    # ΣΔR 1.04 x 20 = 20.80 -> +21 -> 2021 (capping the second instead: 19.20).
    "once_tie": (csv_of("A,2023-05-01,2023-05-03,1500,1", "A,2023-05-01,2023-05-03,2500,1"),
                 ["--rating", "2000", "--k", "20"], 2021, [20.8]),
    # FIDE's page style: Ro and K and the dates on the event's first line only, w printed
    # 1.00 / 0.50 / 0.00, no --rating (the CSV's Ro). Ro 1892, K 40: beats 2025 (ΔR .68),
    # draws a 1892 (D 0, PD .50, ΔR 0), loses to 1700 (D 192: 189-197 -> .75, ΔR -.75).
    # ΣΔR -.07 x 40 = -2.80 -> -3 -> 1889.
    "fide_style": (csv_of("A,2025-11-01,2025-11-05,2025,1.00,1892,40", "A,,,1892,0.50,,",
                          "A,,,1700,0.00,,", head=HEAD + ",Ro,K"), [], 1889, [-2.8]),
    "junior": (README, ["--rating", "1892", "--birth-year", "2010"], 1919, [27.2]),
}


def test_native_sheet_recalculated_by_libreoffice_equals_rate(plain_office, tmp_path, capsys):
    """CLI: CSV -> native player sheet -> LibreOffice (no add-in) -> NewRating and
    EventChange equal `xl-fide rate --format json` and the hand-worked numbers."""
    for name, (text, opts, new, changes) in CASES.items():
        f = tmp_path / f"{name}.csv"
        f.write_text(text, encoding="utf-8")
        code, out, _ = run(capsys, "rate", str(f), *opts, "--format", "json")
        assert code == 0
        data = json.loads(out)
        assert data["new_rating"] == new, name
        assert [e["change"] for e in data["events"]] == changes, name
        src, dst = tmp_path / f"{name}.xlsx", tmp_path / f"{name}.recalc.xlsx"
        code, _, _ = run(capsys, "template", "--layout", "player", "--formulas", "native",
                         "--games", str(f), *opts, "-o", str(src))
        assert code == 0
        plain_office.recalc(src, dst, xlwings_blanks=False)
        wb = load_workbook(dst, data_only=True)
        ws = wb["Player"]

        def named(n, wb=wb):
            (sheet, ref), = wb.defined_names[n].destinations
            cells = wb[sheet][ref.replace("$", "")]
            return [c.value for row in cells for c in row] if isinstance(cells, tuple) \
                else cells.value

        got_new = named("NewRating")
        if new is None:
            assert isinstance(got_new, str) and got_new.startswith("not published"), name
            assert named("ComputedRating") == data["computed_rating"]
        else:
            assert got_new == new, name
        got = named("EventChange")[:len(changes)]
        assert [None if x is None else round(x, 2) for x in got] == changes, name
        # every other figure as `rate` prints it: per event N and K used, per game (the
        # sheet lists them event by event) PD and ΔR, the period's n and rounding
        k = len(changes)
        assert named("EventN")[:k] == [e["N"] for e in data["events"]], name
        assert named("EventKUsed")[:k] == [e["K_used"] for e in data["events"]], name
        games = [g for e in data["events"] for g in e["games"]]
        for key, field in (("GamePD", "PD"), ("GameDeltaR", "delta_R")):
            shown = [None if x is None else round(x, 2) for x in named(key)[:len(games)]]
            assert shown == [g[field] for g in games], (name, key)
        assert named("PeriodGames") == data["N"], name
        assert named("RatingChange") == data["rating_change"], name
        errors = [f"{s.title}!{c.coordinate}={c.value}" for s in wb.worksheets
                  for row in s.iter_rows() for c in row
                  if isinstance(c.value, str) and c.value.startswith("#")]
        assert errors == [], name
        if name == "readme":
            row = ws[27]
            assert (row[7].value, row[8].value) == (0.32, 0.68)     # PD, ΔR of the game


def test_template_player_refuses_too_many_games_and_keeps_inputs(tmp_path, capsys):
    f = tmp_path / "many.csv"
    f.write_text(csv_of(*["A,2025-11-01,2025-11-30,1500,1"] * (MAX_GAMES + 1)),
                 encoding="utf-8")
    out = tmp_path / "p.xlsx"
    code, _, err = run(capsys, "template", "--layout", "player", "--games", str(f), "-o", str(out))
    assert code == 2 and "holds" in err and not out.exists()
    code, _, _ = run(capsys, "template", "--layout", "player", "-o", str(out))
    assert code == 0 and out.exists()
    code, _, err = run(capsys, "template", "--layout", "player", "-o", str(out))
    assert code == 2 and "exists" in err


def test_empty_native_sheet_is_blank_and_prints_on_one_page(plain_office, tmp_path):
    import shutil
    src, dst = tmp_path / "blank.xlsx", tmp_path / "blank.recalc.xlsx"
    save_workbook(build_player_sheet(formulas="native"), src)
    plain_office.recalc(src, dst, xlwings_blanks=False)
    if shutil.which("pdfinfo"):
        from tests.excel.test_workbook_print import pages
        pdf = tmp_path / "player.pdf"
        plain_office.to_pdf(src, pdf, sheet="Player", fit_width=False, xlwings_blanks=False)
        assert pages(pdf)[0] == 1
    wb = load_workbook(dst, data_only=True)
    ws = wb["Player"]
    assert ws["K8"].value is None and ws["K16"].value is None
    assert not [c.coordinate for row in ws.iter_rows() for c in row
                if isinstance(c.value, str) and c.value.startswith("#")]


def test_readme_prints_the_worked_example(capsys):
    from pathlib import Path
    section = (Path(__file__).parents[2] / "docs" / "guides" / "player.md").read_text(
        encoding="utf-8")
    for text in ("1892", "K 40", "2025", "D = 133", "0.32", "+27.2", "1919", "+13.6"):
        assert text in section, text
    code, out, _ = run(capsys, "rate", "--rating", "1892", "--k", "40", "--game", "2025:1")
    assert code == 0 and "PD 0.32" in out and "27.20 -> +27" in out and "1919" in out


def test_udf_sheet_recalculated_with_the_functions_equals_rate(office, tmp_path, capsys):
    """The UDF variant (PD by FIDE_EXPECTED, K rule by FIDE_K) in LibreOffice with the
    add-in: the one-rounding case as `rate` gives it."""
    f = tmp_path / "g.csv"
    f.write_text(ONE_ROUNDING, encoding="utf-8")
    src, dst = tmp_path / "udf.xlsx", tmp_path / "udf.recalc.xlsx"
    code, _, _ = run(capsys, "template", "--layout", "player", "--formulas", "udf",
                     "--games", str(f), "--rating", "2000", "--k", "10", "-o", str(src))
    assert code == 0
    office.recalc(src, dst)
    ws = load_workbook(dst, data_only=True)["Player"]
    # by hand (ONE_ROUNDING): -2.50 and +4.30, +1.80 -> +2 -> 2002; K by rule for a
    # 2000 player with no birth year or games: 20
    assert (ws["K16"].value, ws["K17"].value, ws["K8"].value) == (-2.5, 4.3, 2002)
    assert ws["D10"].value == 20


FORMULAS = (os.environ.get("CI", "").lower() == "true"
            or "1" in (os.environ.get("XL_FIDE_FORMULAS"), os.environ.get("XL_FIDE_FORMULAS_ALL")))


@pytest.mark.slow
@pytest.mark.skipif(not FORMULAS, reason="slow: CI=true or XL_FIDE_FORMULAS=1")
def test_formulas_package_computes_the_player_sheet(tmp_path):
    """A second engine with Excel's semantics (the `formulas` package) on the native
    sheet: the one-rounding case (by hand above: -2.50, +4.30, 2002)."""
    from tests.excel.test_native import formulas_values
    path = tmp_path / "f.xlsx"
    p = rate(ONE_ROUNDING, Ro=2000, K=10)
    save_workbook(build_player_sheet(formulas="native", games=parse_games(ONE_ROUNDING, "g"),
                                     player=PlayerInputs(Ro=2000, K=10)), path)
    v = formulas_values(path)
    assert [v[("PLAYER", "K16")], v[("PLAYER", "K17")]] == [-2.5, 4.3]
    assert v[("PLAYER", "K8")] == p.new_rating == 2002
    assert not [k for k, x in v.items() if isinstance(x, str) and x.startswith("#")]


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
@pytest.mark.parametrize("name", ["one_rounding", "unrated", "once_tie", "fide_style"])
def test_gnumeric_recalculates_the_native_sheet_as_rate(name, tmp_path, capsys):
    """A third engine (Gnumeric's ssconvert --recalc) on the native sheet: NewRating and
    EventChange as `xl-fide rate` and the hand-worked numbers of CASES."""
    import shutil
    import subprocess
    if not shutil.which("ssconvert"):
        pytest.skip("Gnumeric (ssconvert) missing")
    text, opts, new, changes = CASES[name]
    f = tmp_path / "g.csv"
    f.write_text(text, encoding="utf-8")
    src, dst = tmp_path / "p.xlsx", tmp_path / "p.gnumeric.xlsx"
    code, _, _ = run(capsys, "template", "--layout", "player", "--formulas", "native",
                     "--games", str(f), *opts, "-o", str(src))
    assert code == 0
    subprocess.run(["ssconvert", "--recalc", str(src), str(dst)], capture_output=True,
                   check=True, timeout=120)
    ws = load_workbook(dst, data_only=True)["Player"]
    assert ws["K8"].value == new
    got = [ws.cell(16 + i, 11).value for i in range(len(changes))]
    assert [None if x in (None, "") else round(x, 2) for x in got] == changes   # "" kept


# ------------------------------------------------------------------ rate = period, always

from hypothesis import given, settings, strategies as st  # noqa: E402

from tests.harness.trf_lines import player_line, trf  # noqa: E402
from xl_fide.trf import parse_trf  # noqa: E402

_OTHER = {"1": "0", "=": "=", "0": "1", "+": "-", "-": "+"}
_CSV_RESULT = {"1": "1", "=": "½", "0": "0", "+": "+", "-": "-"}

game_st = st.tuples(st.one_of(st.none(), st.integers(1000, 2900)),
                    st.sampled_from(["1", "=", "0", "+", "-"]))
event_st = st.tuples(st.sampled_from(["2023-05", "2025-11"]), st.integers(1, 20),
                     st.lists(game_st, min_size=1, max_size=12))


@settings(max_examples=60)
@given(Ro=st.one_of(st.none(), st.integers(1400, 2800)), K=st.sampled_from([10, 20, 40]),
       # events on different days: the same games on the same dates would be one event
       # exported twice (period refuses that, issue 22 #4)
       events=st.lists(event_st, min_size=1, max_size=3, unique_by=lambda e: e[1]))
def test_rate_equals_period_on_any_games(Ro, K, events):
    """The same games as TRF files (one per event, the player against one opponent a
    round) and as a games CSV: `period` and `rate` give the same K×ΣΔR per event and the
    same new rating (or initial rating) — whatever the ratings, results, forfeits,
    unrated opponents, and the 2022 rule of the 400-point rule once per event."""
    month = events[0][0]                      # one rating period: one month for all
    tournaments, rows = [], []
    for i, (_, day, games) in enumerate(events):
        start = f"{month}-{day:02d}"
        name = f"E{i}"
        lines = [player_line(1, "Me", Ro, rounds=[(r + 2, "w", c) for r, (_, c) in
                                                   enumerate(games)])]
        for r, (R_opp, c) in enumerate(games):
            rounds = [(0, "-", "Z")] * len(games)
            rounds[r] = (1, "b", _OTHER[c])
            lines.append(player_line(r + 2, f"{name} opponent {r}", R_opp, rounds=rounds))
        head = {"012": name, "042": start.replace("-", "/"), "052": start.replace("-", "/"),
                "122": "90 min + 30 sec"}
        tournaments.append(parse_trf(trf(head, lines), source=name + ".trf"))
        rows += [f"{name},{start},{start},{'' if R is None else R},{_CSV_RESULT[c]}"
                 for R, c in games]
    rep = build_period(tournaments, EventOptions(k=K))
    (me,) = [p for p in rep.players if p.name == "Me"]
    mine = rate(csv_of(*rows), Ro=Ro, K=K)
    if me.change is None:
        assert Ro is None or Ro < 1400
        assert (mine.initial.Ru, mine.initial.value) == (me.initial.Ru, me.initial.value)
        return
    order = sorted(range(len(events)), key=lambda i: (events[i][1], i))
    by_name = {e.name: e.change for e in mine.events}
    assert [me.change.event_change(j) for j in range(len(events))] == \
        [by_name[f"E{i}"] for i in order]
    assert me.change.new_rating == mine.computed_rating
