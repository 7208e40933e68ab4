"""Workbook inputs read as the sheet uses them (issue 10 #3, #5): a FIDE id on two rows
is a warning naming both rows (an error with --strict); a K typed over the K cell is the
K that `report BOOK.xlsx` uses, as the sheet's own rating block does."""
from __future__ import annotations

import re

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import rr_example, saved, swiss_example
from xl_fide.cli._main import main
from xl_fide.errors import WorkbookError
from xl_fide.event.report import build_report
from xl_fide.excel._layout import CROSS
from xl_fide.excel._fill import fill_workbook
from xl_fide.excel._read import read_workbook, read_workbook_event


def edited(tmp_path, make, edits):
    path = saved(fill_workbook(build_report(make())), tmp_path)
    wb = load_workbook(path)
    for coord, value in edits.items():
        wb[CROSS][coord] = value
    wb.save(path)
    return path


def test_duplicate_fide_ids_warn_and_fail_when_strict(tmp_path, capsys):
    # FIDE id column E: rows 6 (player 2) and 8 (player 4) get the same id
    path = edited(tmp_path, swiss_example, {"E6": 4100018, "E8": 4100018})
    t = read_workbook(path)
    msg = "Crosstable!E8: FIDE id 4100018 is on two rows: 6 (player 2) and 8 (player 4)"
    assert [w.message for w in t.warnings] == [msg]
    with pytest.raises(WorkbookError, match=re.escape(msg)):
        read_workbook(path, strict=True)
    assert main(["report", str(path)]) == 0
    assert msg in capsys.readouterr().err
    assert main(["report", "--strict", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and msg in err[0]
    # id 0 / blank twice is no duplicate
    path = edited(tmp_path, swiss_example, {"E6": 0, "E8": 0})
    assert read_workbook(path, strict=True).warnings == ()


def test_a_k_typed_over_the_k_cell_is_the_k_used(tmp_path):
    """rr_example, player 1 (2000, born 1980, K 20 by the rule): 40 typed over L5.
    By hand: W 1.5 against 1950 (PD .57), 2050 (.43), 1810 (.75): ΣPD 1.75, ΣΔR -0.25;
    K 40 -> -10.00 -> Δ -10 (K 20 would give -5)."""
    path = edited(tmp_path, rr_example, {"L5": 40})
    book = read_workbook_event(path)
    assert book.player_inputs[1].k == 40
    row = build_report(book.tournament, inputs=book.player_inputs).rows[0]
    assert (row.result.K, row.result.rating_change) == (40, -10)
    # the K set column (K) still works, and the typed K wins over it as in the sheet
    path = edited(tmp_path, rr_example, {"K5": 10, "L5": 30})
    assert read_workbook_event(path).player_inputs[1].k == 30
    path = edited(tmp_path, rr_example, {"K5": 10})
    assert read_workbook_event(path).player_inputs[1].k == 10
    path = edited(tmp_path, rr_example, {"L5": 400})
    with pytest.raises(WorkbookError, match=r"Crosstable!L5: K must be a whole number from 1 "
                                            r"to 100, got 400"):
        read_workbook(path)
