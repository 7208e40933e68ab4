"""Native workbooks (issue 14): the rating block computed with the spreadsheet's own
functions, proven by LibreOffice with NO add-in registered and by the ``formulas``
package. Every rating cell (N, W, ΣPD, W−ΣPD, K used, K×ΣΔR, change, new rating, Rp,
Ru) must equal the engine's report (xl_fide.event.report.build_report), no cell may show an
error the engine does not, blank rows stay blank.

The events and their hand-computed values are described in test_workbook.py; the
values checked by hand here are worked out in comments from FIDE B.02 §8.1-§8.3.
"""

from __future__ import annotations

import datetime as _dt
import os
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.formula import Tokenizer
from openpyxl.utils import FORMULAE

from tests.harness.excel_limits import nesting, sheet_rows
from tests.excel.test_workbook import (
    TEMPLATES, TRF_FILES, formula_text, function_names, name_range,
    rr_example, rr_pair, swiss_example,
)
from tests.excel.test_workbook_lo import (
    RATING_NAMES, assert_blank_rows, assert_checks_clean, assert_matches_report,
    assert_no_bad_cells, columns, sheet_row,
)
from xl_fide.rules.editions import EventOptions
from xl_fide.excel import _native as native
from xl_fide.rules.editions import EDITIONS, Cap400, rules_for
from xl_fide.errors import InputError
from xl_fide.event.report import build_report
from xl_fide.rules.tables import dp_rows
from xl_fide.trf import read_trf
from xl_fide.tournament import Game, Tournament, TrfPlayer
from xl_fide.excel._layout import CROSS, EVENT, EVENT_ROW, NATIVE_TEMPLATES
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._read import read_workbook_event

ROOT = Path(__file__).resolve().parents[2]


def recalc_native(office, wb, tmp_path, name):
    src = tmp_path / f"{name}.xlsx"
    save_workbook(wb, src, force=True)
    dst = tmp_path / f"{name}.recalc.xlsx"
    res = office.recalc(src, dst, xlwings_blanks=False)
    return res, load_workbook(dst, data_only=True), load_workbook(src)


def no_udfs(wb):
    """No formula of the workbook calls anything but Excel 2007 built-in functions."""
    bad = []
    for ws in wb.worksheets:
        for row in sheet_rows(ws):
            for c in row:
                f = formula_text(c)
                if c.data_type == "f" and isinstance(f, str):
                    bad += [f"{ws.title}!{c.coordinate}: {n}" for n in function_names(f)
                            if n not in FORMULAE or n.startswith("FIDE_")]
    return bad


# ----------------------------------------------------------------------------- round robin

def assert_like_engine(values, formulas, report, blank_rows=()):
    """What every native workbook must show: the engine's numbers, no error, blank rows
    blank, a clean Check column."""
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas, report)
    assert_blank_rows(values, formulas, blank_rows)
    assert_checks_clean(values, formulas, len(report.rows))


def test_native_round_robin_example(plain_office, tmp_path):
    """2000 K 10: W vs 1950 (.57), L vs 2050 (.43), D vs 1810 (.75): ΣPD 1.75, W 1.5,
    ΣΔR -.25 -> K x ΣΔR -2.50 -> -3 (.5 away from zero) -> 1997; Rp: Ra 5810/3 = 1936.67
    + dp(.50) 0 -> 1937."""
    t = rr_example()
    report = build_report(t, EventOptions(k=10))
    wb = fill_workbook(report, rows=6, formulas="native")
    assert no_udfs(wb) == []
    res, values, formulas = recalc_native(plain_office, wb, tmp_path, "rr_native")
    assert (res.errors, sum(res.calls.values())) == ([], 0)
    first = sheet_row(values, formulas, 5)
    assert first == [3, 1.5, 1.75, -0.25, 10, -2.5, -3, 1997, 1937, None]
    assert_like_engine(values, formulas, report, (9, 10))
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == "FIDE-2025-10-01-standard"


def test_native_round_robin_pair_k_rule(plain_office, tmp_path):
    """1892 (born 2010: junior in 2025, K 40 by the K rule) beats 2022 (K 20): PD .32/.68;
    +40 x .68 = +27.20 -> +27 -> 1919 and -20 x .68 = -13.60 -> -14 -> 2008."""
    t = rr_pair()
    report = build_report(t)
    wb = fill_workbook(report, formulas="native")
    _, values, formulas = recalc_native(plain_office, wb, tmp_path, "pair")
    got = [sheet_row(values, formulas, r)[4:8] for r in (5, 6)]
    assert got == [[40, 27.2, 27, 1919], [20, -13.6, -14, 2008]]
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas, report)


def test_plain_office_has_no_functions(plain_office, tmp_path):
    """The proof is real: the same workbook with FIDE_* formulas shows #NAME? there."""
    t = rr_example()
    _, values, formulas = recalc_native(plain_office, fill_workbook(build_report(t)), tmp_path, "rr_udf")
    assert sheet_row(values, formulas, 5)[0] == "#NAME?"


# ----------------------------------------------------------------------------- Swiss

def test_native_swiss_example(plain_office, tmp_path):
    """Unrated player 1: five draws with 1400s -> 2024 rule: Ra (7000 + 3600) / 7 =
    1514.29, p = (2.5 + 1) / 7 = .50 -> dp 0 -> Ru 1514. Round 6: player 4 beats player 5
    (both 1400, K 20 by the rule): PD .50, +10.00 / -10.00; forfeits and byes not rated."""
    t = swiss_example()
    report = build_report(t)
    wb = fill_workbook(report, rows=8, rounds=7, formulas="native")
    assert no_udfs(wb) == []
    _, values, formulas = recalc_native(plain_office, wb, tmp_path, "swiss_native")
    rows = {r: sheet_row(values, formulas, r) for r in (5, 8, 9)}
    assert (rows[5][0], rows[5][9]) == (5, 1514)
    assert (rows[8][5:7], rows[9][5:7]) == ([10, 10], [-10, -10])
    assert_like_engine(values, formulas, report, (11, 12))


@pytest.mark.parametrize("trf", TRF_FILES, ids=lambda p: p.stem)
def test_native_filled_from_trf(plain_office, trf, tmp_path):
    t = read_trf(trf)
    report = build_report(t)
    _, values, formulas = recalc_native(
        plain_office, fill_workbook(report, formulas="native"), tmp_path, trf.stem)
    assert_like_engine(values, formulas, report)
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == report.edition.id


@pytest.mark.parametrize("filename", sorted(NATIVE_TEMPLATES))
def test_committed_native_templates_are_what_the_code_builds(filename, tmp_path):
    from tests.excel.test_workbook import reloaded, signature
    committed = TEMPLATES / filename
    assert committed.is_file(), f"run: python -m xl_fide.excel._layout templates  ({filename} missing)"
    built = reloaded(build_template(*NATIVE_TEMPLATES[filename], formulas="native"), tmp_path)
    assert signature(load_workbook(committed)) == signature(built), (
        f"{committed} is stale: regenerate with  python -m xl_fide.excel._layout templates")


@pytest.mark.parametrize("filename", sorted(NATIVE_TEMPLATES))
def test_native_templates_stay_blank(plain_office, filename, tmp_path):
    players = NATIVE_TEMPLATES[filename][1]
    wb = load_workbook(TEMPLATES / filename)
    assert no_udfs(wb) == []
    _, values, formulas = recalc_native(plain_office, wb, tmp_path, "template")
    assert_no_bad_cells(values)
    assert_blank_rows(values, formulas, range(5, 5 + players))
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == rules_for(None).id


# ----------------------------------------------------------------------------- edges by hand

_OTHER = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


def _swiss(ratings, rounds, *, births=None, date=_dt.date(2025, 11, 1), byes=None):
    """A Swiss event: ``ratings`` per start rank (1..n; None = unrated), ``rounds`` a list
    (round 1 first) of games ``(white, black, white's TRF code)``, ``byes`` {(rnd, p): code}."""
    n = len(ratings)
    cells = {p: {} for p in range(1, n + 1)}
    for rnd, games in enumerate(rounds, 1):
        for a, b, code in games:
            cells[a][rnd] = Game(rnd, b, "w", code)
            cells[b][rnd] = Game(rnd, a, "b", _OTHER[code])
    for (rnd, p), code in (byes or {}).items():
        cells[p][rnd] = Game(rnd, None, None, code)
    R = len(rounds)
    players = [TrfPlayer(start_rank=p, name=f"Player {p}", rating=ratings[p - 1],
                         birth_year=(births or {}).get(p, 1980),
                         games=tuple(cells[p].get(rnd, Game(rnd)) for rnd in range(1, R + 1)))
               for p in range(1, n + 1)]
    return Tournament.build(name="Edges", players=players, rounds=R, start_date=date,
                            time_control="90 min + 30 s")


def edges_event():
    """Players 1-9: the 400-point rule at its edges. 10-30: initial ratings.

    1 2650, 2 2150, 3 2649, 4 2149, 5 1915, 6 1914, 7 2000, 8 1997, 9 1996.
    R1: 1-2 1-0, 3-4 1-0, 7-8 ½, 5-6 1-0, 9 H. R2: 1-5 1-0, 3-8 0-1, 7-9 ½, 2-4 ½, 6 U.
    R3: 1-6 1-0, 3-9 1-0, 2-5 0-1, 4-8 +/- (forfeit), 7 F.
    U10 (unrated) beats 11-15 (1400, 2000, 2100, 2200, 2300) in R1-R5; U16 scores 1/5
    against 17-21 (1400 each, beats 17); U22 draws 23-26 (1400) in R1-R4 (4 games);
    U27 loses to 28-30 (1400) in R1-R3 (zero score).
    """
    ratings = [2650, 2150, 2649, 2149, 1915, 1914, 2000, 1997, 1996,
               None, 1400, 2000, 2100, 2200, 2300, None, 1400, 1400, 1400, 1400, 1400,
               None, 1400, 1400, 1400, 1400, None, 1400, 1400, 1400]
    rounds = [[(1, 2, "1"), (3, 4, "1"), (7, 8, "="), (5, 6, "1")],
              [(1, 5, "1"), (3, 8, "0"), (7, 9, "="), (2, 4, "=")],
              [(1, 6, "1"), (3, 9, "1"), (2, 5, "0"), (4, 8, "+")], [], []]
    for k in range(5):
        rounds[k] += [(10, 11 + k, "1"), (16, 17 + k, "1" if k == 0 else "0")]
        if k < 4:
            rounds[k].append((22, 23 + k, "="))
        if k < 3:
            rounds[k].append((27, 28 + k, "0"))
    return _swiss(ratings, rounds, byes={(1, 9): "H", (2, 6): "U", (3, 7): "F"})


def _edited(wb, **event):
    for key, value in event.items():
        wb[EVENT].cell(EVENT_ROW[key], 2).value = value
    return wb


def test_native_edges_by_hand(plain_office, tmp_path):
    """K 10 for every rated player (report k=10, written as K set). Rules of 2025-10-01:

    1 (2650, exempt): D 500 -> .96, D 735 -> .99, D 736 -> 1.00: ΣPD 2.95, W 3, ΣΔR +.05,
      K x ΣΔR +0.50 -> +1 (.5 away from zero) -> 2651; Rp Ra 5979/3 = 1993 + 800 = 2793.
    3 (2649, capped): 2149 D 500 -> 400 .92 (W), 1997 D 652 -> .92 (L), 1996 -> .92 (W):
      ΣPD 2.76, W 2, ΣΔR -.76, -7.60 -> -8 -> 2641; Rp 6142/3 = 2047.33, p .67 -> +125 ->
      2172.33 -> 2172.
    7 (2000): D 3 -> .50 (½), D 4 -> .51 (½), bye F not rated: ΣPD 1.01, ΣΔR -.01, -0.10
      -> 0; Rp 3993/2 = 1996.5 + 0 -> 1997 (half up).
    U10: 5/5 vs 1400 2000 2100 2200 2300: Ra (10000 + 3600)/7 = 1942.86, p 6/7 .86 ->
      +309 -> 2251.86 -> 2252 -> 2200 (maximum).
    U16: 1/5 vs 1400s: Ra 10600/7 = 1514.29, p 2/7 .29 -> -158 -> 1356 < 1400: not
      published. U22: 4 games; U27: zero score."""
    t = edges_event()
    report = build_report(t, EventOptions(k=10))
    wb = fill_workbook(report, formulas="native")
    _, values, formulas = recalc_native(plain_office, wb, tmp_path, "edges")
    row = {p: sheet_row(values, formulas, 4 + p) for p in (1, 3, 7, 10, 16, 22, 27)}
    assert row[1] == [3, 3, 2.95, 0.05, 10, 0.5, 1, 2651, 2793, None]
    assert row[3] == [3, 2, 2.76, -0.76, 10, -7.6, -8, 2641, 2172, None]
    assert row[7] == [2, 1, 1.01, -0.01, 10, -0.1, 0, 2000, 1997, None]
    assert (row[10][:2], row[10][9]) == ([5, 5], 2200)
    # the codes of issue 34 (the key under the table): 1356 below the floor, 4 games,
    # a zero score
    assert (row[16][9], row[22][9], row[27][9]) == ("NP 1356", "NP 4g", "NP 0pt")
    assert_like_engine(values, formulas, report)


def test_native_follows_the_rule_edition_of_the_event_sheet(plain_office, tmp_path):
    """The same sheet, rules date and time control changed on the Event sheet:

    2024-06-01 standard (no 2650 exemption): player 1 capped in all three games, .92 each:
      ΣPD 2.76, ΣΔR +.24 -> +2.40 -> +2 -> 2652.
    2025-01-01 rapid (600-point rule, no exemption): player 1 (2650 > 2600) vs 1915 and
      1914 (600+ apart) not rated: N 1, .92 -> +0.80 -> +1 -> 2651, Rp 2150 + 800 = 2950.
    2023-05-01: 400-point rule once per event: the native formulas say so, no numbers."""
    t = edges_event()
    cases = [(_dt.date(2024, 6, 1), "standard"), (_dt.date(2025, 1, 1), "rapid")]
    for date, tc in cases:
        report = build_report(t, EventOptions(k=10, event_date=date, time_control=tc))
        wb = _edited(fill_workbook(build_report(t, EventOptions(k=10)), formulas="native"),
                     rules_date=date, tc=tc)
        _, values, formulas = recalc_native(plain_office, wb, tmp_path, f"ed_{tc}")
        assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == report.edition.id
        first = sheet_row(values, formulas, 5)
        assert first == ([3, 3, 2.76, 0.24, 10, 2.4, 2, 2652, 2793, None] if tc == "standard"
                         else [1, 1, 0.92, 0.08, 10, 0.8, 1, 2651, 2950, None])
        assert_like_engine(values, formulas, report)
    wb = _edited(fill_workbook(build_report(t, EventOptions(k=10)), formulas="native"),
                 rules_date=_dt.date(2023, 5, 1))
    _, values, formulas = recalc_native(plain_office, wb, tmp_path, "ed_2022")
    why = native.unsupported(rules_for(_dt.date(2023, 5, 1)))
    assert why and "FIDE-2022-01-01-standard" in why
    assert sheet_row(values, formulas, 5) == [None] * 9 + [why]
    assert_no_bad_cells(values)


def k_cap_event():
    """A-B meet 18 times, C-D 17 times, E-F 36 times, G-H 35 times; all 1500, the first
    of each pair wins every game. A and C are juniors (born 2010: K 40), the rest K 20.

    A: 18 x (1 - .50) = ΣΔR 9.00; 40 x 18 = 720 > 700 -> K 700 // 18 = 38 -> +342 -> 1842.
    C: ΣΔR 8.50, 40 x 17 = 680 <= 700 -> K 40 -> +340 -> 1840.
    E: ΣΔR 18.00, 20 x 36 = 720 -> K 19 -> +342 -> 1842. G: 20 x 35 = 700 -> K 20 -> +350.
    """
    rounds = []
    for k in range(36):
        games = [(5, 6, "1")]
        if k < 18:
            games.append((1, 2, "1"))
        if k < 17:
            games.append((3, 4, "1"))
        if k < 35:
            games.append((7, 8, "1"))
        rounds.append(games)
    return _swiss([1500] * 8, rounds, births={1: 2010, 3: 2010})


def test_native_k_cap_by_hand(plain_office, tmp_path):
    t = k_cap_event()
    report = build_report(t)
    _, values, formulas = recalc_native(
        plain_office, fill_workbook(report, formulas="native"), tmp_path, "kcap")
    got = {p: sheet_row(values, formulas, 4 + p)[4:8] for p in (1, 3, 5, 7)}
    assert got == {1: [38, 342, 342, 1842], 3: [40, 340, 340, 1840],
                   5: [19, 342, 342, 1842], 7: [20, 350, 350, 1850]}
    assert_like_engine(values, formulas, report)


# ----------------------------------------------------------------------------- K rule

def test_native_k_rule_equals_the_engine_at_its_edges(plain_office, tmp_path):
    """The K rule column against xl_fide.rules.rating.k_factor over the edges of FIDE B.02
    §8.3.3: Ro 2299/2300/2399/2400, peak 2299/2300/2400, born 18/19 years before the event
    (2025), games 29/30, blanks, birth years that cannot be (after 2025, more than 120
    years before: #N/A where the engine raises); and in rapid before 1 Oct 2022 (20 for
    everyone)."""
    from itertools import product
    from xl_fide.rules.rating import k_factor
    cases = list(product((1500, 2299, 2300, 2399, 2400), (None, 2007, 2006, 2026, 1904),
                         (None, 29, 30), (None, 2299, 2300, 2400)))
    for tc, date in (("standard", _dt.date(2025, 11, 1)), ("rapid", _dt.date(2021, 5, 1))):
        wb = _edited(build_template("swiss", len(cases), 1, formulas="native"),
                     start=date, tc=tc)
        ws = wb[CROSS]
        _, (ro, _, _, _) = name_range(wb, "Rating")
        for i, values in enumerate(cases):
            for offset, v in enumerate(values):     # Ro, Born, Games, Peak are adjacent
                ws.cell(5 + i, ro + offset).value = v
        _, vals, formulas = recalc_native(plain_office, wb, tmp_path, f"k_{tc}")
        (kr,) = columns(formulas, ("KRule",))
        got = [vals[CROSS].cell(5 + i, kr).value for i in range(len(cases))]
        edition = rules_for(date, tc)

        def engine(r, b, g, p):
            try:
                return k_factor(r, birth_year=b, career_games=g, peak_rating=p,
                                period_year=date.year, edition=edition)
            except InputError:
                return "#N/A"

        assert got == [engine(*case) for case in cases], tc


# ----------------------------------------------------------------------------- limits

def _depth(formula):
    """Nesting of functions; also checks Excel's 255 characters per text constant."""
    for t in Tokenizer(formula).items:
        assert not (t.type == "OPERAND" and t.subtype == "TEXT" and len(t.value) > 257)
    return nesting(formula)


@pytest.mark.parametrize("layout,players,rounds", [("roundrobin", 60, 59), ("swiss", 2000, 99),
                                                   ("swiss", 2, 1), ("roundrobin", 2, 1)])
def test_native_formulas_keep_excel_limits(layout, players, rounds):
    """Excel: a formula holds at most 8,192 characters and 64 nested functions, and the
    sheet at most 16,384 columns. Checked on every native cell of the first and last
    player rows (their references are the longest) and the event cells, at the largest
    sizes the CLI accepts."""
    from xl_fide.excel import _layout as workbook
    geo = workbook._Geometry(layout, players, rounds, "native")
    lay = workbook._native_layout(geo)
    longest = deepest = widest = 0
    for sheet, r, c, value in native.cells(lay):
        widest = max(widest, c)
        if isinstance(value, str) and value.startswith("=") and r not in range(
                lay.first + 1, lay.last):
            longest = max(longest, len(value))
            deepest = max(deepest, _depth(value))
            names = function_names(value)
            assert not (names - set(FORMULAE)), value
            # no rounding of a float decides anything: integer formulas only
            assert not names & {"ROUND", "ROUNDUP", "ROUNDDOWN", "MROUND", "FLOOR",
                                "CEILING", "TRUNC", "FIXED", "TEXT"}, value
    assert longest <= 8192 and deepest <= 64 and widest <= 16384
    assert longest < 1000 and deepest < 12      # and far from them: no size makes them grow


def test_the_dp_column_is_indexed_by_p_in_hundredths():
    """INDEX(dp, p + 1) needs table 8.1.1 as rows p = 0, 1, ..., 100 in order."""
    assert [p for p, _ in dp_rows()] == list(range(101))


def test_tables_hold_pd_in_integer_hundredths(tmp_path):
    from xl_fide.rules.tables import pd_rows
    ws = build_template("roundrobin", 4, formulas="native")["Tables"]
    assert [ws.cell(5 + i, 5).value for i in range(len(pd_rows()))] == [H for *_, H in pd_rows()]
    assert all(isinstance(ws.cell(5 + i, 5).value, int) for i in range(len(pd_rows())))


# ----------------------------------------------------------------------------- editions, CLI

def test_editions_the_native_formulas_refuse():
    """Only the once-per-event 400-point rule (1 Jan 2022 - 29 Feb 2024) is refused."""
    refused = {e.id for e in EDITIONS if native.unsupported(e)}
    assert refused == {e.id for e in EDITIONS if e.cap400 is Cap400.ONCE_PER_EVENT}
    assert refused and all(native.unsupported(e).count("\n") == 0 for e in EDITIONS
                           if e.id in refused)
    with pytest.raises(InputError, match="FIDE-2022-01-01-standard"):
        fill_workbook(build_report(rr_example(), EventOptions(event_date=_dt.date(2023, 1, 1))),
                      formulas="native")
    with pytest.raises(InputError, match="udf or native"):
        build_template("swiss", 4, 1, formulas="vba")


def test_cli_formulas_native(tmp_path, capsys):
    from xl_fide.cli._main import main
    out = tmp_path / "native.xlsx"
    assert main(["crosstable", "--example", "-o", str(out), "--formulas", "native"]) == 0
    wb = load_workbook(out)
    assert no_udfs(wb) == [] and "Calc" in wb.sheetnames
    assert wb["Calc"].sheet_state == "hidden"
    words = " ".join(str(c.value) for row in wb["Help"].iter_rows() for c in row if c.value)
    words += " ".join(c.comment.text for row in wb[CROSS].iter_rows(max_row=4) for c in row
                      if c.comment)
    assert "FIDE_" not in words and "nothing installed" in words
    tpl = tmp_path / "tpl.xlsx"
    assert main(["template", "--layout", "roundrobin", "--players", "6", "-o", str(tpl),
                 "--formulas", "native"]) == 0
    assert no_udfs(load_workbook(tpl)) == []
    # the default stays udf
    udf = tmp_path / "udf.xlsx"
    assert main(["template", "--layout", "swiss", "--players", "6", "-o", str(udf)]) == 0
    assert "Calc" not in load_workbook(udf).sheetnames
    capsys.readouterr()
    # an event under the once-per-event rule: one line, exit 2, no file
    trf = tmp_path / "e2023.trf"
    trf.write_text("012 Test 2023\n042 2023/05/01\n"
                   "001    1      Player A                          2000"
                   "                             1.0    1     2 w 1\n"
                   "001    2      Player B                          1500"
                   "                             0.0    2     1 b 0\n")
    bad = tmp_path / "bad.xlsx"
    assert main(["crosstable", str(trf), "-o", str(bad), "--formulas", "native"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "FIDE-2022-01-01-standard" in err and "udf" in err
    assert not bad.exists()


# ----------------------------------------------------------------------------- formulas

SLOW = os.environ.get("XL_FIDE_FORMULAS_ALL", "") == "1"


def formulas_values(path):
    """Every cell of ``path`` as the ``formulas`` package computes it: {(SHEET, A1): value},
    blank as None, errors as their text ('#N/A')."""
    import builtins
    formulas = pytest.importorskip("formulas")
    import schedula
    from formulas.tokens.operand import XlError
    # LibreOffice's in-process UNO replaces __import__ with a hook that turns a
    # ModuleNotFoundError into a plain ImportError, which breaks tqdm's optional import
    # inside `formulas`: use Python's own import while `formulas` works
    uno = sys.modules.get("uno")
    saved = builtins.__import__
    if uno is not None and hasattr(uno, "_builtin_import"):
        builtins.__import__ = uno._builtin_import
    try:
        solution = formulas.ExcelModel().loads(str(path)).finish().calculate()
    finally:
        builtins.__import__ = saved
    out = {}
    for key, v in solution.items():
        where, _, cell = key.rpartition("!")
        if ":" in cell:
            continue
        x = v.value[0, 0] if hasattr(v, "value") else v
        if x is schedula.EMPTY or (isinstance(x, str) and x == ""):
            x = None
        elif isinstance(x, XlError):
            x = str(x)
        elif hasattr(x, "item"):
            x = x.item()
        out[(where.split("]")[-1].strip("'").upper(), cell.upper())] = x
    return out


def assert_formulas_match(wb, report, tmp_path, name):
    from tests.excel.test_workbook_lo import engine_cells, rating_names
    path = tmp_path / f"{name}.xlsx"
    save_workbook(wb, path, force=True)
    values = formulas_values(path)
    errors = sorted(f"{s}!{c}={v}" for (s, c), v in values.items()
                    if isinstance(v, str) and v.startswith("#"))
    assert errors == []
    cols = [name_range(wb, n)[1][0] for n in rating_names(wb)]
    for i, row in enumerate(report.comparison or report.rows):   # the one-period block
        got = [values.get((CROSS.upper(), f"{wb[CROSS].cell(5 + i, c).column_letter}{5 + i}"))
               for c in cols]
        assert got == engine_cells(row), f"row {5 + i}"


EXAMPLES = {"rr_example": lambda: (rr_example(), {"k": 10}),
            "swiss_example": lambda: (swiss_example(), {}),
            "mini_trf2026": lambda: (read_trf(ROOT / "tests/data/trf/mini_trf2026.trf"), {})}
if SLOW:
    EXAMPLES.update({p.stem: (lambda p=p: (read_trf(p), {})) for p in TRF_FILES})
    EXAMPLES["edges"] = lambda: (edges_event(), {"k": 10})


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_formulas_package_computes_the_engines_numbers(name, tmp_path):
    """The pip-only engine `formulas` (no LibreOffice) agrees cell by cell. It is slow
    (minutes for 50 players): the TRF files of tests/data and the hand-checked edges run
    with XL_FIDE_FORMULAS_ALL=1."""
    t, options = EXAMPLES[name]()
    report = build_report(t, EventOptions(**options))
    assert_formulas_match(fill_workbook(report, formulas="native"), report,
                          tmp_path, name)


@pytest.mark.slow
@pytest.mark.skipif(not SLOW, reason="slow: XL_FIDE_FORMULAS_ALL=1")
@pytest.mark.parametrize("layout,players,rounds", [("roundrobin", 10, 9), ("swiss", 60, 9)])
def test_formulas_package_native_templates_stay_blank(layout, players, rounds, tmp_path):
    path = tmp_path / "tpl.xlsx"
    save_workbook(build_template(layout, players, rounds, formulas="native"), path)
    values = formulas_values(path)
    assert not [v for v in values.values() if isinstance(v, str) and v.startswith("#")]
    wb = load_workbook(path)
    cols = [name_range(wb, n)[1][0] for n in RATING_NAMES]
    assert all(values.get((CROSS.upper(), f"{wb[CROSS].cell(r, c).column_letter}{r}")) is None
               for r in range(5, 5 + players) for c in cols)


# ----------------------------------------------------------------------------- picture

def test_render_native_png(plain_office, artifacts_dir):
    """A native cross-table as LibreOffice shows it with nothing installed, in
    artifacts/workbook/native_*.png (look at it)."""
    import shutil
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm missing (apt: poppler-utils)")
    from tests.excel.test_workbook_lo import _render
    out = artifacts_dir / "workbook"
    out.mkdir(exist_ok=True)
    gros = read_trf(next(p for p in TRF_FILES if p.stem.startswith("gros")))
    made = _render(plain_office, fill_workbook(build_report(gros), formulas="native"), CROSS, out,
                   "native_gros")
    made += _render(plain_office, fill_workbook(build_report(rr_example(), EventOptions(k=10)), rows=6, formulas="native"), CROSS, out, "native_rr_example")
    assert made and all(p.stat().st_size > 1000 for p in made)


@pytest.mark.parametrize("layout,players,rounds", [("roundrobin", 60, 59), ("swiss", 3, 99)])
def test_every_formula_of_a_native_workbook_keeps_excel_limits(layout, players, rounds):
    """The whole workbook (standings, Event and the native block) at the most columns
    the CLI accepts; rows only change row numbers. The Check column is left to the
    tests of the Check column (tests/excel/test_workbook_truth.py)."""
    wb = build_template(layout, players, rounds, formulas="native")
    assert no_udfs(wb) == []
    _, (check, _, _, _) = name_range(wb, "ResultCheck")
    texts = [formula_text(c) for ws in wb.worksheets for row in sheet_rows(ws) for c in row
             if c.data_type == "f" and not (ws.title == CROSS and c.column == check)]
    assert max(len(f) for f in texts) <= 8192
    assert max(_depth(f) for f in texts) <= 64


def test_native_workbook_reads_back(tmp_path):
    """`xl-fide report OUT.xlsx` on a native cross-table: the same report as the TRF."""
    t = swiss_example()
    path = tmp_path / "native.xlsx"
    save_workbook(fill_workbook(build_report(t), formulas="native"), path)
    back = read_workbook_event(path)
    from xl_fide.cli._presenters import row_dict
    assert ([row_dict(r) for r in build_report(back.tournament, inputs=back.player_inputs).rows]
            == [row_dict(r) for r in build_report(t).rows])



def test_native_rows_whose_results_disagree_show_na(plain_office, tmp_path):
    """1 in (1, 2) with ½ in (2, 1): the Check column flags rows 1 and 2; their rating
    cells show #N/A (as FIDE_EVENT refuses the event), rows 3 and 4, whose games are
    not in question, keep the engine's numbers."""
    t = rr_example()
    report = build_report(t, EventOptions(k=10))
    wb = fill_workbook(report, rows=5, formulas="native")
    _, (g1, _, _, _) = name_range(wb, "Results")
    wb[CROSS].cell(6, g1).value = "½"
    _, values, formulas = recalc_native(plain_office, wb, tmp_path, "asymmetric")
    from tests.excel.test_workbook_lo import engine_cells, rating_names
    assert [sheet_row(values, formulas, r) for r in (5, 6)] == [["#N/A"] * 10] * 2
    assert [sheet_row(values, formulas, r) for r in (7, 8)] == [
        engine_cells(row) for row in report.rows[2:]]
    block = {f"{CROSS}!{values[CROSS].cell(r, c).coordinate}"
             for c in columns(formulas, RATING_NAMES + ("OpponentAverage",)) for r in (5, 6)}
    assert_no_bad_cells(values, designed=block)
