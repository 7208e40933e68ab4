"""A workbook's planned rows as cells. Issue 32's memory step holds the native helper
sheet's players' rows and the Swiss checks as a plan, made into cells only as
save_workbook writes them: the command line asks for that (``planned=True``). The
Python API's fill_workbook and build_template give every cell by default, so that a
caller that reads the cells or saves the book another way (xlwings Lite's copy,
openpyxl's own save: a user trial found its book without its checks and helper rows)
sees every formula save_workbook writes; complete_cells does it for a planned book."""
from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import rr_example, swiss_example
from xl_fide.event.report import build_report
from xl_fide.excel import complete_cells, fill_workbook, save_workbook


def _cells(path):
    wb = load_workbook(path)
    return {(ws.title, c.coordinate): getattr(c.value, "text", c.value)
            for ws in wb.worksheets for row in ws.iter_rows() for c in row
            if c.value is not None}


@pytest.mark.parametrize("formulas", ["native", "udf"])
@pytest.mark.parametrize("event", [swiss_example, rr_example], ids=["swiss", "rr"])
def test_openpyxls_own_save_after_complete_cells_has_every_cell(event, formulas, tmp_path):
    report = build_report(event())
    ours = save_workbook(fill_workbook(report, formulas=formulas), tmp_path / "ours.xlsx")
    wb = complete_cells(fill_workbook(report, formulas=formulas, planned=True))
    wb.save(tmp_path / "theirs.xlsx")
    fill_workbook(report, formulas=formulas).save(tmp_path / "default.xlsx")
    assert _cells(tmp_path / "default.xlsx") == _cells(tmp_path / "theirs.xlsx")
    a, b = _cells(ours), _cells(tmp_path / "theirs.xlsx")
    # every cell openpyxl wrote is ours, and every formula of ours is there (ours adds
    # the cached values of an array formula's other cells, which openpyxl reads back as
    # values)
    assert {k: a.get(k) for k in b} == b
    formulas = {k: v for k, v in a.items() if isinstance(v, str) and v.startswith("=")}
    assert {k: b.get(k) for k in formulas} == formulas
    if formulas == "native":
        assert any(sheet.startswith("Calc") for sheet, _ in a)
