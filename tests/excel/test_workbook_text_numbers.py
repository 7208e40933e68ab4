"""A number typed as text in K set, Born, Games, Peak or a round's opponent (user trial,
readtext #1 and #3): the native sheet's formulas do not read it (ISNUMBER is false, MATCH
finds no text among numbers: K set ignored, the K rule without the birth year, #N/A in
other rows), so ``xl-fide report BOOK.xlsx`` refuses it in one line naming the cell,
rather than rating by a number the sheet does not use. A real number there is read as
before; a blank cell (or spaces) is blank.
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import rr_example, swiss_example
from tests.excel.test_workbook_lo import columns
from xl_fide.cli._main import main
from xl_fide.event.report import build_report
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS


def _edited(tmp_path, event, formulas, edits):
    path = save_workbook(fill_workbook(build_report(event), formulas=formulas),
                         tmp_path / f"book_{formulas}.xlsx")
    wb = load_workbook(path)
    for (row, col), value in edits.items():
        wb[CROSS].cell(row, col).value = value
    edited = tmp_path / f"edited_{formulas}.xlsx"
    wb.save(edited)
    return edited, wb


def _one_error(capsys, path):
    capsys.readouterr()
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize("formulas", ["native", "udf"])
@pytest.mark.parametrize("name, text", [("KOverride", "40"), ("BirthYear", "2005 "),
                                        ("CareerGames", "12"), ("PeakRating", "1990")])
def test_text_in_a_k_input_is_refused_naming_the_cell(formulas, name, text, tmp_path, capsys):
    probe = save_workbook(fill_workbook(build_report(rr_example()), formulas=formulas),
                          tmp_path / "probe.xlsx")
    col, = columns(load_workbook(probe), (name,))
    edited, _ = _edited(tmp_path, rr_example(), formulas, {(6, col): text})
    err = _one_error(capsys, edited)
    assert f"Crosstable!{chr(64 + col)}6: " in err and "typed as text" in err


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_the_same_cells_as_numbers_are_read(formulas, tmp_path, capsys):
    probe = save_workbook(fill_workbook(build_report(rr_example()), formulas=formulas),
                          tmp_path / "probe.xlsx")
    k_set, = columns(load_workbook(probe), ("KOverride",))
    edited, _ = _edited(tmp_path, rr_example(), formulas, {(6, k_set): 40})
    capsys.readouterr()
    assert main(["report", str(edited), "--format", "csv"]) == 0


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_an_opponent_typed_as_text_is_refused_on_its_own_cell(formulas, tmp_path, capsys):
    # swiss_example: player 1 (row 5) meets player 2 in round 1; the first round's
    # opponent column is M (13), after No, Title, Name, Fed, FIDE id, Ro, Born, Games,
    # Peak, K rule, K set, K.
    edited, wb = _edited(tmp_path, swiss_example(), formulas, {(5, 13): "2 "})
    assert wb[CROSS].cell(4, 13).value not in (None, "")      # a header over the column
    err = _one_error(capsys, edited)
    assert "Crosstable!M5: opponent typed as text" in err
