"""A value typed over a computed cell of the Crosstable (user trial, readtext #2).

The sheet rates with what its cells hold, ``xl-fide report BOOK.xlsx`` from the typed
inputs: a number typed over Ro used (a formula) changed nine players' New in the sheet
and nothing in the report. Now the report refuses it in one line naming the cell
("a computed cell ...: restore its formula"). K is the exception the docs promise (a K
typed over K is the K used, docs/reference/files.md): still read in an event rated as
one, but refused, pointing to K set, in an event rated month by month, whose month
blocks take K set and not the K column (the sheet and the report would differ).
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from tests.excel.test_workbook import swiss_example
from tests.excel.test_workbook_lo import columns
from tests.excel.test_workbook_months import long_event
from xl_fide.cli._main import main
from xl_fide.event.report import build_report
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS
from xl_fide.trf import parse_trf


def _edited(tmp_path, event, formulas, name, value, row=6):
    """The book of ``event`` with ``value`` typed in column ``name`` of ``row``; the
    column's letter and number."""
    path = save_workbook(fill_workbook(build_report(event), formulas=formulas),
                         tmp_path / f"book_{formulas}.xlsx")
    wb = load_workbook(path)
    col, = columns(wb, (name,))
    wb[CROSS].cell(row, col).value = value
    edited = tmp_path / f"edited_{formulas}.xlsx"
    wb.save(edited)
    return edited, wb, get_column_letter(col), col


def _report(capsys, path):
    capsys.readouterr()
    code = main(["report", str(path), "--format", "csv"])
    return code, capsys.readouterr().err.strip().splitlines()


@pytest.mark.parametrize("name, value", [("RatingUsed", 1900), ("NewRating", 1500),
                                         ("KRule", 40), ("RatedGames", 3)])
def test_a_value_over_a_computed_cell_is_refused_naming_it(name, value, tmp_path, capsys):
    edited, wb, letter, col = _edited(tmp_path, swiss_example(), "native", name, value)
    header = wb[CROSS].cell(4, col).value
    code, err = _report(capsys, edited)
    assert code == 2 and len(err) == 1, err
    assert f"Crosstable!{letter}6: a computed cell ({header})" in err[0]
    assert "restore its formula" in err[0]


def test_a_per_row_formula_of_a_udf_book_too(tmp_path, capsys):
    # Rank is a plain formula on each row in both modes
    edited, _, letter, _ = _edited(tmp_path, swiss_example(), "udf", "Ranking", 1)
    code, err = _report(capsys, edited)
    assert code == 2 and f"Crosstable!{letter}6: a computed cell" in err[0]


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_a_k_typed_over_k_is_read_in_an_event_rated_as_one(formulas, tmp_path, capsys):
    edited, _, _, _ = _edited(tmp_path, swiss_example(), formulas, "KFactor", 40)
    code, err = _report(capsys, edited)
    assert code == 0, err


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_a_k_typed_over_k_is_refused_when_rated_by_month(formulas, tmp_path, capsys):
    # long_event: 5 Oct - 9 Nov 2025, rated month by month; its month blocks read K set
    event = parse_trf(long_event(), source="long.trf")
    edited, _, letter, _ = _edited(tmp_path, event, formulas, "KFactor", 40)
    code, err = _report(capsys, edited)
    assert code == 2 and len(err) == 1, err
    assert f"Crosstable!{letter}6: a K typed over the computed K cell" in err[0]
    assert "K set" in err[0]
