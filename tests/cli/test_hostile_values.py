"""Huge numbers in result cells and FIDE ids (issue 22, #12 and #13): one line and exit 2
from the command line, a short message from the functions, never an internal error."""
from __future__ import annotations

import re

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import saved, swiss_example
from tests.excel.test_workbook_truth import round_cell
from xl_fide.cli._main import main
from xl_fide.errors import InputError
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report
from xl_fide.excel._layout import CROSS
from xl_fide.rules.results import parse_result
from xl_fide.rules.values import FIDE_ID_MAX, as_fide_id
from xl_fide.tournament import TrfPlayer
from xl_fide.udfs import FIDE_EVENT_SWISS, FIDE_SCORE


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    return saved(fill_workbook(build_report(swiss_example())), tmp_path_factory.mktemp("values"))


def edited(book, tmp_path, cell, value):
    wb = load_workbook(book)
    wb[CROSS][cell] = value
    path = tmp_path / "edited.xlsx"
    wb.save(path)
    return path


def one_line_exit_2(argv, capsys, pattern):
    assert main(argv) == 2, argv
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and re.search(pattern, err[0]) and "internal" not in err[0], err


@pytest.mark.parametrize("value", [1e30, -1e30, 5e40, 1e300])
def test_a_huge_result_is_one_line_exit_2(book, tmp_path, capsys, value):
    # 1e30 is past the 30-digit budget of rules.values: it raised the private _TooLarge
    cell = round_cell(1, "res", 2)
    path = edited(book, tmp_path, cell, value)
    for argv in (["report", str(path)], ["trf", str(path), "-o", str(tmp_path / "o.trf")]):
        one_line_exit_2(argv, capsys, rf"Crosstable!{cell}: result must be 1, ½, 0")
    assert not (tmp_path / "o.trf").exists()


@pytest.mark.parametrize("value", [1e30, 10 ** 40, float("inf"), float("nan")])
def test_a_huge_result_is_a_short_message_in_a_cell(value):
    with pytest.raises(InputError, match="result must be 1, ½, 0"):
        parse_result(value)
    with pytest.raises(InputError, match="^result must be 1, ½, 0") as exc:
        FIDE_SCORE(value)
    assert len(str(exc.value)) <= 255
    with pytest.raises(InputError, match=r"^results row 1 round 1 must be"):
        FIDE_EVENT_SWISS([2000, 2000], [20, 20], [[2], [1]], [[value], ["0"]])


@pytest.mark.parametrize("value", [2 ** 63, 2 ** 64, 10 ** 20])
def test_a_fide_id_past_11_digits_is_one_line_exit_2(book, tmp_path, capsys, value):
    # 2**63 went to SQLite with --lists: OverflowError, exit 3
    path = edited(book, tmp_path, "E6", value)
    for argv in (["report", str(path)], ["report", str(path), "--lists"],
                 ["crosstable", str(path), "-o", str(tmp_path / "o.xlsx")]):
        one_line_exit_2(argv, capsys, r"Crosstable!E6: FIDE id must be a whole number from 0 "
                                      r"to 99999999999")
    assert not (tmp_path / "o.xlsx").exists()


def test_a_player_record_keeps_the_11_digit_limit():
    assert as_fide_id(0) is None and as_fide_id(FIDE_ID_MAX) == FIDE_ID_MAX
    assert TrfPlayer(1, fide_id=FIDE_ID_MAX).fide_id == FIDE_ID_MAX
    with pytest.raises(InputError, match="player 1: FIDE id must be at most 99999999999"):
        TrfPlayer(1, fide_id=2 ** 63)

