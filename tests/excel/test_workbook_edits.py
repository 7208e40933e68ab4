"""A cross-table a user edited: formulas typed in input cells, K inputs, the rules date."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import pytest
from openpyxl import load_workbook

from xl_fide.errors import WorkbookError
from xl_fide.event.report import build_report
from xl_fide.trf import read_trf
from xl_fide.excel._layout import CROSS, EVENT, EVENT_ROW
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._read import read_workbook, read_workbook_event

MINI = Path(__file__).parents[1] / "data" / "trf" / "mini_trf2026.trf"


def _filled(tmp_path: Path) -> Path:
    t = read_trf(MINI)
    return save_workbook(fill_workbook(build_report(t)), tmp_path / "mini.xlsx")


def _ro_cell(ws) -> str:
    head = [c.value for c in ws[4]]
    return f"{chr(ord('A') + head.index('Ro'))}5"


def test_a_formula_without_a_saved_result_is_named(tmp_path):
    path = _filled(tmp_path)
    wb = load_workbook(path)
    cell = _ro_cell(wb[CROSS])
    wb[CROSS][cell] = "=2300+10"           # openpyxl saves no result for it
    wb.save(path)
    with pytest.raises(WorkbookError, match=f"{CROSS}!{cell}: a formula whose result is not saved"):
        read_workbook(path)


def test_a_formula_with_a_saved_result_is_read_as_its_value(tmp_path, office):
    # LibreOffice computes =2300+10 and saves 2310 beside the formula, as Excel does
    path = _filled(tmp_path)
    wb = load_workbook(path)
    cell = _ro_cell(wb[CROSS])
    wb[CROSS][cell] = "=2300+10"
    wb.save(path)
    done = tmp_path / "done.xlsx"
    office.recalc(path, done)
    assert read_workbook(done).players[0].rating == 2310


def test_rules_date_and_time_control_are_read_from_the_event_sheet(tmp_path):
    path = _filled(tmp_path)
    wb = load_workbook(path)
    wb[EVENT].cell(EVENT_ROW["rules_date"], 2).value = _dt.date(2024, 1, 1)
    wb[EVENT].cell(EVENT_ROW["tc"], 2).value = "rapid"
    wb.save(path)
    book = read_workbook_event(path)
    assert book.rules_date.isoformat() == "2024-01-01" and book.time_control == "rapid"


@pytest.mark.parametrize("key, what", [("start", "start date"), ("rules_date", "rules date"),
                                       ("end", "end date")])
def test_a_date_typed_as_text_is_refused(tmp_path, capsys, key, what):
    # issue 22 #5: the sheet's formulas take no text for a date (ISNUMBER): a start date
    # typed as text made the sheet rate by today's rules and the CLI by the date's
    from xl_fide.cli._main import main
    path = _filled(tmp_path)
    wb = load_workbook(path)
    wb[EVENT].cell(EVENT_ROW[key], 2).value = "2024-02-15"
    wb.save(path)
    cell = f"{EVENT}!B{EVENT_ROW[key]}"
    with pytest.raises(WorkbookError, match=f"{cell}: {what} '2024-02-15' is text, which the "
                                            "sheet's formulas do not take for a date"):
        read_workbook_event(path)
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and cell in err[0]


def test_a_bad_date_names_its_cell(tmp_path):
    path = _filled(tmp_path)
    wb = load_workbook(path)
    wb[EVENT].cell(EVENT_ROW["start"], 2).value = "next tuesday"
    wb.save(path)
    with pytest.raises(WorkbookError, match=f"{EVENT}!B{EVENT_ROW['start']}: start date must be a date"):
        read_workbook(path)
