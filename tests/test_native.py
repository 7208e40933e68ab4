"""Native workbooks (issue 14): the rating block computed with the spreadsheet's own
functions, proven by LibreOffice with NO add-in registered and by the ``formulas``
package. Every rating cell (N, W, ΣPD, W−ΣPD, K used, K×ΣΔR, change, new rating, Rp,
Ru) must equal the engine's report (xl_fide.report.build_report), no cell may show an
error the engine does not, blank rows stay blank.

The events and their hand-computed values are described in test_workbook.py; the
values checked by hand here are worked out in comments from FIDE B.02 §8.1-§8.3.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.formula import Tokenizer
from openpyxl.utils import FORMULAE

import lo_calc
from conftest import require_libreoffice
from test_workbook import (
    TEMPLATES, TRF_FILES, _round_robin, formula_text, function_names, name_range,
    rr_example, rr_pair, swiss_example,
)
from test_workbook_lo import (
    RATING_NAMES, assert_blank_rows, assert_checks_clean, assert_matches_report,
    assert_no_bad_cells, columns, sheet_row,
)
from xl_fide import native
from xl_fide.editions import EDITIONS, Cap400, rules_for
from xl_fide.errors import InputError
from xl_fide.report import build_report
from xl_fide.tables import dp_rows
from xl_fide.trf import Game, Tournament, TrfPlayer, read_trf
from xl_fide.workbook import (
    CROSS, EVENT, EVENT_ROW, build_template, fill_workbook, save_workbook,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def plain_office():
    """Headless LibreOffice with NO add-in: a FIDE_* call would show #NAME?."""
    require_libreoffice()
    o = lo_calc.Office(None)
    yield o
    o.close()


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
        for row in ws.iter_rows():
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
    report = build_report(t, k=10)
    wb = fill_workbook(t, report=report, rows=6, formulas="native")
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
    wb = fill_workbook(t, report=report, formulas="native")
    _, values, formulas = recalc_native(plain_office, wb, tmp_path, "pair")
    got = [sheet_row(values, formulas, r)[4:8] for r in (5, 6)]
    assert got == [[40, 27.2, 27, 1919], [20, -13.6, -14, 2008]]
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas, report)


def test_plain_office_has_no_functions(plain_office, tmp_path):
    """The proof is real: the same workbook with FIDE_* formulas shows #NAME? there."""
    t = rr_example()
    _, values, formulas = recalc_native(plain_office, fill_workbook(t), tmp_path, "rr_udf")
    assert sheet_row(values, formulas, 5)[0] == "#NAME?"


# ----------------------------------------------------------------------------- Swiss

def test_native_swiss_example(plain_office, tmp_path):
    """Unrated player 1: five draws with 1400s -> 2024 rule: Ra (7000 + 3600) / 7 =
    1514.29, p = (2.5 + 1) / 7 = .50 -> dp 0 -> Ru 1514. Round 6: player 4 beats player 5
    (both 1400, K 20 by the rule): PD .50, +10.00 / -10.00; forfeits and byes not rated."""
    t = swiss_example()
    report = build_report(t)
    wb = fill_workbook(t, report=report, rows=8, rounds=7, formulas="native")
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
        plain_office, fill_workbook(t, report=report, formulas="native"), tmp_path, trf.stem)
    assert_like_engine(values, formulas, report)
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == report.edition.id


@pytest.mark.parametrize("layout,players,rounds", [("roundrobin", 10, 9), ("swiss", 60, 9)])
def test_native_templates_stay_blank(plain_office, layout, players, rounds, tmp_path):
    wb = build_template(layout, players, rounds, formulas="native")
    assert no_udfs(wb) == []
    _, values, formulas = recalc_native(plain_office, wb, tmp_path, "template")
    assert_no_bad_cells(values)
    assert_blank_rows(values, formulas, range(5, 5 + players))
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == rules_for(None).id
