"""A new rating below the floor is marked, as FIDE_NEW_RATING marks it (issue 20, #6).

FIDE B.02 §7.2.1: a rating under the floor (1400 from 1 Mar 2024) is not published; the
player is listed as unrated. The cross-table's NewRating cell (both formula modes) and the
Report sheet's New column say "not published: below 1400 (1395)", never a bare 1395.

The event, by hand (rules of 1 Oct 2025, standard; both born 1980, no games count given:
K 20 by §8.3.3): 1405 (player 2) beats 1405 (player 1). D = 0 -> PD .50 (table 8.1.2).
Player 1: W 0, ΣPD .50, W−ΣPD −.50, K×ΣΔR = −10.00 -> Δ −10 -> 1395 < 1400: not published.
Player 2: +10.00 -> 1415.
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.harness import gnumeric
from tests.excel.test_workbook import _round_robin
from tests.excel.test_workbook_lo import sheet_row
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import REPORT
from xl_fide.event.report import build_report

BELOW = "not published: below 1400 (1395)"
#: the cross-table's New cell: the code NP and the rating computed (issue 34; its key
#: under the table), the Report sheet keeps the sentence
CODE = "NP 1395"
#: N, W, ΣPD, W−ΣPD, K used, K×ΣΔR, Δ, New, Rp, Ru  (Rp: Ra 1405 + dp(0) −800 = 605;
#: 1405 + dp(1.00) 800 = 2205, §8.1.1)
ROWS = [[1, 0, 0.5, -0.5, 20, -10, -10, CODE, 605, None],
        [1, 1, 0.5, 0.5, 20, 10, 10, 1415, 2205, None]]


def _event():
    return _round_robin([1405, 1405], {(1, 2): "0"}, name="Floor")


def test_the_engine_agrees_by_hand():
    report = build_report(_event())
    r1, r2 = (row.result for row in report.rows)
    assert (r1.new_rating, r1.publication, r2.new_rating) == (1395, "not published: below 1400",
                                                              1415)


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_new_rating_cell_marks_below_the_floor_in_an_excel_engine(formulas, tmp_path):
    xl_formulas = pytest.importorskip("tests.harness.xl_formulas")
    t = _event()
    path = save_workbook(fill_workbook(build_report(t), formulas=formulas), tmp_path / f"{formulas}.xlsx")
    values, _ = xl_formulas.recalc(path)
    book = load_workbook(path)
    assert [sheet_row(values, book, r) for r in (5, 6)] == ROWS


def test_new_rating_cell_marks_below_the_floor_in_gnumeric(tmp_path):
    gnumeric.require()
    path = save_workbook(fill_workbook(build_report(_event()), formulas="native"), tmp_path / "native.xlsx")
    values = gnumeric.recalc(path, tmp_path / "gnumeric.xlsx")
    assert [sheet_row(values, load_workbook(path), r) for r in (5, 6)] == ROWS


def test_report_sheet_says_not_published():
    wb = fill_workbook(build_report(_event()))
    ws = wb[REPORT]
    heads = [c.value for c in ws[5]]
    new = heads.index("New") + 1
    assert [ws.cell(r, new).value for r in (6, 7)] == [BELOW, 1415]
