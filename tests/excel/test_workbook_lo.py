"""Workbooks recalculated by a real spreadsheet engine: headless LibreOffice Calc with
the xl_fide.udfs functions served by the test add-in (fixture ``office``, see
conftest.py and lo_calc.py). Skipped without LibreOffice, except under CI=true.

Every computed rating cell must equal the engine's value (xl_fide.event.report), no cell may
show #NAME?, blank rows stay blank and the only error cells are the designed ones.
The events and their hand-computed values are described in test_workbook.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import (
    NASTY_NAMES, TEMPLATES, TRF_FILES, name_range, nasty_names_event, rr_example, rr_pair,
    swiss_example,
)
from xl_fide.rules.editions import EventOptions
from xl_fide._version import __version__
from xl_fide.rules.editions import rules_for
from xl_fide.event.report import build_report
from xl_fide.trf import read_trf
from xl_fide.excel._layout import CROSS, DEFAULT_TEMPLATES, EVENT, EVENT_ROW
from tests.harness.synthetic import synthetic_swiss
from xl_fide.excel._fill import fill_workbook, save_workbook

ROOT = Path(__file__).resolve().parents[2]
RATING_NAMES = ("RatedGames", "RatedScore", "Expected", "ScoreMinusExpected", "KUsed",
                "Change", "RatingChange", "NewRating", "Performance", "InitialRating")
COMPUTED_NAMES = RATING_NAMES + ("KRule", "KFactor", "Points", "Ranking")
EXPECTED_UDF_CALLS = {"FIDE_ADJUST_2024": 1, "FIDE_K": 1, "FIDE_VERSION": 1}


def recalc(office, wb, tmp_path, name):
    """Save ``wb`` (an openpyxl workbook) and recalculate it: (RecalcResult, values, formulas)."""
    src = tmp_path / f"{name}.xlsx"
    save_workbook(wb, src, force=True)
    return recalc_file(office, src, tmp_path, name)


def recalc_file(office, src, tmp_path, name):
    dst = tmp_path / f"{name}.recalc.xlsx"
    res = office.recalc(src, dst)
    return res, load_workbook(dst, data_only=True), load_workbook(src)


def blank(v):
    return v is None or v == ""


def shown_new(calc):
    """The New cell of a cross-table: the rating, or below the floor ``NP`` and the rating
    computed (issue 34: the code, its key under the table; B.02 §7.2.1)."""
    return calc.new_rating if calc.published else f"NP {calc.new_rating}"


def shown_ru(init):
    """The Ru cell of a cross-table: the initial rating, or the code of the engine's
    reason (issue 34): read from the reason's words, so code and sentence agree."""
    if init.Ru is not None:
        return init.Ru
    why = init.reason
    if why.startswith("no games against rated opponents"):
        return "NP 0g"
    if why.startswith("zero score against rated opponents"):
        return "NP 0pt"
    if why.startswith(f"only {init.N} game"):
        return f"NP {init.N}g"
    assert why == f"{init.value} is below the rating floor {why.split()[-1]}", why
    return f"NP {init.value}"


def engine_cells(row):
    """The 10 rating-block values of a report row, as FIDE_EVENT lays them out (over 30
    days the one-period block: the report's comparison row, its own New)."""
    r = row.result
    if r.rated:
        return [r.N, r.W_half / 2, r.sum_PD / 100, r.calc.sum_delta_R / 100, r.K,
                r.change / 100, r.rating_change, shown_new(r.calc), r.Rp, None]
    ru = shown_ru(r.initial)
    return [r.N, r.W_half / 2, None, None, None, None, None, None, r.Rp, ru]


def rating_names(formulas, names=RATING_NAMES):
    """The defined names of the one-period rating block: over 30 days ``Comparison<name>``
    (the block is the comparison only; RatingChange and NewRating cover the Result over
    the months, issue 32)."""
    if "ComparisonNewRating" in formulas.defined_names:
        return tuple(("Comparison" + n) if n in RATING_NAMES else n for n in names)
    return names


def result_over_months(report):
    """(RatingChange, NewRating) per player in start-rank order as the Result columns of
    an event over 30 days show them: the report's rows (the months together)."""
    out = []
    for row in sorted(report.rows, key=lambda r: r.result.start_rank):
        calc = row.result.calc
        out.append((None, None) if calc is None else (calc.rating_change, shown_new(calc)))
    return out


def columns(formulas, names):
    return [name_range(formulas, n)[1][0] for n in names]


def sheet_row(values, formulas, r, names=RATING_NAMES):
    ws = values[CROSS]
    return [None if blank(v) else v
            for v in (ws.cell(r, c).value for c in columns(formulas, rating_names(formulas,
                                                                               names)))]


def assert_no_bad_cells(values, designed=()):
    """No #NAME? anywhere; error cells only at the ``designed`` coordinates."""
    errors = []
    for ws in values.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.value == "#NAME?" or (c.data_type == "e" and
                                           f"{ws.title}!{c.coordinate}" not in designed):
                    errors.append(f"{ws.title}!{c.coordinate}={c.value!r}")
    assert errors == []


def assert_matches_report(values, formulas, report, first=5):
    """Every player's rating block, points and K rule equal the engine's."""
    (kr,) = columns(formulas, ("KRule",))
    (pts,) = columns(formulas, ("Points",))
    ws = values[CROSS]
    # the sheet's block rates the event as one period: over 30 days the comparison rows
    for i, row in enumerate(report.comparison or report.rows):
        r = first + i
        assert sheet_row(values, formulas, r) == engine_cells(row), f"row {r}"
        assert float(ws.cell(r, pts).value) == float(row.points), f"points row {r}"
        if row.k_source in ("rating", "rating and birth year"):
            assert ws.cell(r, kr).value == row.result.K_given, f"K rule row {r}"
    if report.months:           # the Result over the months: the report's rows
        chg, new = columns(formulas, ("RatingChange", "NewRating"))
        got = [tuple(None if blank(v) else v for v in (ws.cell(first + i, chg).value,
                                                        ws.cell(first + i, new).value))
               for i in range(len(report.rows))]
        assert got == result_over_months(report)


def assert_blank_rows(values, formulas, rows):
    for r in rows:
        assert all(blank(v) for v in sheet_row(values, formulas, r, COMPUTED_NAMES)), f"row {r}"
        (chk,) = columns(formulas, ("ResultCheck",))
        assert values[CROSS].cell(r, chk).value in (0, None)


def assert_checks_clean(values, formulas, n):
    (chk,) = columns(formulas, ("ResultCheck",))
    assert [values[CROSS].cell(5 + i, chk).value for i in range(n)] == [0] * n


# ----------------------------------------------------------------------------- small events

def test_round_robin_example(office, tmp_path):
    t = rr_example()
    report = build_report(t, EventOptions(k=10))
    res, values, formulas = recalc(office, fill_workbook(report, rows=6), tmp_path,
                                   "rr_example")
    assert res.errors == []
    assert dict(res.calls) == {**EXPECTED_UDF_CALLS, "FIDE_EVENT": 1}
    assert_no_bad_cells(values)
    # 2000 K 10: W vs 1950 (.57), L vs 2050 (.43), D vs 1810 (.75): ΣPD 1.75, W 1.5,
    # ΣΔR -.25 -> K x ΣΔR -2.50 -> -3 -> 1997
    assert sheet_row(values, formulas, 5) == [3, 1.5, 1.75, -0.25, 10, -2.5, -3, 1997, 1937,
                                              None]
    assert_matches_report(values, formulas, report)
    assert_blank_rows(values, formulas, (9, 10))
    assert_checks_clean(values, formulas, 4)
    # standings: all 1.5 points; SB 2.25 each, rank 1 shared
    sb, rank = columns(formulas, ("SonnebornBerger", "Ranking"))
    assert [values[CROSS].cell(r, sb).value for r in range(5, 9)] == [2.25] * 4
    assert [values[CROSS].cell(r, rank).value for r in range(5, 9)] == [1] * 4
    ev = values[EVENT]
    assert ev.cell(EVENT_ROW["edition"], 2).value == "FIDE-2025-10-01-standard"
    assert ev.cell(EVENT_ROW["version"], 2).value == __version__


def test_round_robin_pair(office, tmp_path):
    t = rr_pair()
    report = build_report(t)
    _, values, formulas = recalc(office, fill_workbook(report), tmp_path, "pair")
    assert_no_bad_cells(values)
    # 1892 (born 2010: junior, K 40) beats 2022 (K 20): PD .32 / .68
    assert sheet_row(values, formulas, 5)[4:8] == [40, 27.2, 27, 1919]
    assert sheet_row(values, formulas, 6)[4:8] == [20, -13.6, -14, 2008]
    assert_matches_report(values, formulas, report)


def test_swiss_example(office, tmp_path):
    t = swiss_example()
    report = build_report(t)
    res, values, formulas = recalc(office, fill_workbook(report, rows=8, rounds=7),
                                   tmp_path, "swiss_example")
    assert dict(res.calls) == {**EXPECTED_UDF_CALLS, "FIDE_EVENT_SWISS": 1}
    assert_no_bad_cells(values)
    # unrated player 1: five draws with 1400s -> Ru 1514 (two hypothetical 1800 draws)
    assert sheet_row(values, formulas, 5)[9] == 1514
    # round 6: player 4 beats player 5 (both 1400, K 20): +10.00 / -10.00
    assert sheet_row(values, formulas, 8)[5:7] == [10, 10]
    assert sheet_row(values, formulas, 9)[5:7] == [-10, -10]
    assert_matches_report(values, formulas, report)
    assert_blank_rows(values, formulas, (11, 12))
    assert_checks_clean(values, formulas, 6)


def test_results_that_do_not_match_are_flagged(office, tmp_path):
    """1 in (1, 2) with ½ in (2, 1): the Check column and the cell colours show it, and
    FIDE_EVENT answers its message (as classic Excel shows it) in the rating block."""
    wb = fill_workbook(build_report(rr_example()), rows=5)
    _, (g1, _, _, _) = name_range(wb, "Results")
    wb[CROSS].cell(6, g1).value = "½"
    _, values, formulas = recalc(office, wb, tmp_path, "asymmetric")
    (chk,) = columns(formulas, ("ResultCheck",))
    assert [values[CROSS].cell(r, chk).value for r in range(5, 9)] == [1, 1, 0, 0]
    block = set()
    for c in columns(formulas, RATING_NAMES):
        for r in range(5, 10):
            block.add(f"{CROSS}!{values[CROSS].cell(r, c).coordinate}")
    assert_no_bad_cells(values, designed=block)
    errors = [values[CROSS].cell(5, c).value for c in columns(formulas, RATING_NAMES)]
    assert set(errors) == {"results row 1 column 2 is 1.0 but row 2 column 1 is '½': "
                           "results '1' and '½' do not match"}


def test_text_that_looks_like_a_formula_stays_text(office, tmp_path):
    _, values, _ = recalc(office, fill_workbook(build_report(nasty_names_event())), tmp_path, "nasty")
    assert [values[CROSS].cell(r, 3).value for r in range(5, 9)] == list(NASTY_NAMES)
    assert_no_bad_cells(values)


# ----------------------------------------------------------------------------- TRF files

@pytest.mark.parametrize("trf", TRF_FILES, ids=lambda p: p.stem)
def test_filled_from_trf(office, trf, tmp_path):
    t = read_trf(trf)
    report = build_report(t)
    res, values, formulas = recalc(office, fill_workbook(report), tmp_path, trf.stem)
    assert res.errors == []
    # FIDE_ADJUST_2024, FIDE_K, the rating block, FIDE_VERSION; over 30 days FIDE_K and the block per month
    assert sum(res.calls.values()) == 4 + 2 * len(report.months)
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas, report)
    assert_checks_clean(values, formulas, len(t.players))
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == report.edition.id


# ----------------------------------------------------------------------------- templates

@pytest.mark.parametrize("filename", sorted(DEFAULT_TEMPLATES))
def test_empty_templates_stay_blank(office, filename, tmp_path):
    res, values, formulas = recalc_file(office, TEMPLATES / filename, tmp_path, "template")
    assert res.errors == []
    assert_no_bad_cells(values)
    players = DEFAULT_TEMPLATES[filename][1]
    assert_blank_rows(values, formulas, range(5, 5 + players))
    ev = values[EVENT]
    assert ev.cell(EVENT_ROW["edition"], 2).value == rules_for(None).id    # no date: today's
    assert ev.cell(EVENT_ROW["version"], 2).value == __version__


# ----------------------------------------------------------------------------- speed

def test_big_swiss_costs_a_few_udf_calls(office, tmp_path, artifacts_dir):
    """500 players x 11 rounds: one full recalculation = FIDE_K once, FIDE_EVENT_SWISS once,
    FIDE_VERSION once (independent of the number of rounds and players)."""
    t = synthetic_swiss(500, 11)
    report = build_report(t)
    res, values, formulas = recalc(office, fill_workbook(report), tmp_path, "big")
    assert res.errors == []
    assert dict(res.calls) == {**EXPECTED_UDF_CALLS, "FIDE_EVENT_SWISS": 1}
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas, report)
    assert_checks_clean(values, formulas, 500)
    out = artifacts_dir / "workbook"
    out.mkdir(exist_ok=True)
    (out / "udf_calls_500x11.json").write_text(json.dumps(
        {"calls": dict(res.calls), "total": res.total_calls,
         "calc_seconds": round(res.calc_seconds, 3)}, indent=2))
    print(f"\n500x11 Swiss: UDF calls {dict(res.calls)}, calculateAll {res.calc_seconds:.2f} s")


# ----------------------------------------------------------------------------- pictures

def _render(office, wb_or_path, sheet, out, stem):
    """PNGs of one sheet. The other sheets are hidden in a copy first, and their print
    areas removed: LibreOffice exports a hidden sheet that has a print area."""
    from tests.harness import render
    wb = load_workbook(wb_or_path) if isinstance(wb_or_path, Path) else wb_or_path
    for ws in wb.worksheets:
        ws.sheet_view.tabSelected = ws.title == sheet
    wb.active = wb.sheetnames.index(sheet)
    for ws in wb.worksheets:
        ws.sheet_state = "visible" if ws.title == sheet else "hidden"
        if ws.title != sheet:
            ws.print_area = None
    src = out / f"{stem}.xlsx"
    save_workbook(wb, src, force=True)
    try:
        pngs, _ = render.render(office, src, out, dpi=110)
    finally:
        src.unlink()
        (out / f"{stem}.recalc.xlsx").unlink(missing_ok=True)
    return pngs


def test_render_pngs(office, artifacts_dir):
    """Pictures of what a user sees, in artifacts/workbook/ (look at them)."""
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm missing (apt: poppler-utils)")
    out = artifacts_dir / "workbook"
    out.mkdir(exist_ok=True)
    made = []
    for filename in sorted(DEFAULT_TEMPLATES):
        made += _render(office, TEMPLATES / filename, CROSS, out, Path(filename).stem)
    made += _render(office, fill_workbook(build_report(rr_example(), EventOptions(k=10)),
                                          rows=6), CROSS, out, "filled_rr_example")
    gros = read_trf(next(p for p in TRF_FILES if p.stem.startswith("gros")))
    for sheet in (CROSS, EVENT, "Report", "Tables", "Help"):
        made += _render(office, fill_workbook(build_report(gros)), sheet, out, f"filled_gros-{sheet}")
    assert made and all(p.stat().st_size > 1000 for p in made)


def test_a_swiss_pairing_on_one_side_only_is_an_error_in_the_live_block(office, tmp_path):
    """Issue 22 #7: player 2's round 1 (against player 1) cleared: player 1 still has
    player 2 as opponent. FIDE_EVENT_SWISS refuses it as the workbook reader does (its
    designed error: its message in the cell with the LibreOffice extension), instead of
    rating player 1's side alone."""
    from tests.excel.test_workbook_truth import round_cell
    wb = fill_workbook(build_report(swiss_example()))
    for part in ("opp", "col", "res"):
        wb[CROSS][round_cell(1, part, 2)].value = None
    _, values, formulas = recalc(office, wb, tmp_path, "one_side")
    errors = {values[CROSS].cell(r, c).value for r in range(5, 11)
              for c in columns(formulas, RATING_NAMES)}
    assert errors == {"opponents row 1 round 1 is 2 but row 2 round 1 is blank: enter the "
                      "pairing on both rows"}


def test_a_result_on_the_diagonal_is_an_error_in_the_live_block(office, tmp_path):
    """Issue 22 #6: "1" typed in player 2's own column is refused by FIDE_EVENT (its
    designed error) as by the reader, never dropped unseen; a marker (x) is ignored."""
    wb = fill_workbook(build_report(rr_example()), rows=5)
    _, (g1, _, _, _) = name_range(wb, "Results")
    wb[CROSS].cell(6, g1 + 1).value = "1"
    _, values, formulas = recalc(office, wb, tmp_path, "diagonal")
    errors = {values[CROSS].cell(r, c).value for r in range(5, 9)
              for c in columns(formulas, RATING_NAMES)}
    assert errors == {"results row 2 column 2 is '1': a result on the diagonal (a player "
                      "does not play himself)"}
    wb[CROSS].cell(6, g1 + 1).value = "x"
    _, values, formulas = recalc(office, wb, tmp_path, "marker")
    assert values[CROSS].cell(5, columns(formulas, ("NewRating",))[0]).value == \
        build_report(rr_example()).rows[0].result.new_rating
