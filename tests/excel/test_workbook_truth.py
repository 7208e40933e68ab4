"""One game, one truth: the two sides of a game in a workbook must agree (issue 10 #1, #6;
issue 11 one-sided byes). The rule is xl_fide.rules.results.pair_problem (TRF16 result codes);
the workbook reader refuses a contradiction with the cell named, whatever --strict says,
so `report BOOK.xlsx` and `trf BOOK.xlsx` never rate or write it."""
from __future__ import annotations

import re

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from tests.excel.test_workbook import rr_example, saved, swiss_example
from xl_fide.cli._main import main
from xl_fide.errors import WorkbookError
from xl_fide.excel._layout import CROSS
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report
from xl_fide.excel._read import read_workbook

PLAYER_COLS = 12          # No .. K: the round blocks start in column 13 (M)


def round_cell(rnd, part, player):
    """Swiss sheet: the cell of ``part`` (opp, col, res) of round ``rnd`` in the row of
    player ``player`` (row 5 is player 1)."""
    col = PLAYER_COLS + 1 + 3 * (rnd - 1) + ("opp", "col", "res").index(part)
    return f"{get_column_letter(col)}{4 + player}"


def edited(tmp_path, make, edits, name="book.xlsx"):
    path = saved(fill_workbook(build_report(make())), tmp_path, name)
    wb = load_workbook(path)
    for coord, value in edits.items():
        wb[CROSS][coord] = value
    wb.save(path)
    return path


def refused(path, pattern, capsys):
    """The reader, `report` and `trf`, with and without --strict, all refuse ``path``
    with one line matching ``pattern``."""
    with pytest.raises(WorkbookError, match=pattern):
        read_workbook(path)
    for argv in (["report", str(path)], ["report", "--strict", str(path)],
                 ["trf", str(path), "-o", str(path.with_suffix(".trf"))],
                 ["trf", "--strict", str(path), "-o", str(path.with_suffix(".trf"))]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and re.search(pattern, err[0]), err
        assert not path.with_suffix(".trf").exists()


# swiss_example round 6: player 4 (w) beat player 5 (b); player 2 won by forfeit against 3

@pytest.mark.parametrize("edits, pattern", [
    # both won: 5 also says 1
    ({round_cell(6, "res", 5): 1},
     r"Crosstable!\w+8: player 4 and player 5 both won round 6"),
    # a draw against a loss
    ({round_cell(6, "res", 4): "½"},
     r"Crosstable!\w+8: player 4 and player 5 round 6: results '½' and '0' do not match"),
    # + on both sides (issue 10 #6)
    ({round_cell(6, "res", 3): "+"},
     r"Crosstable!\w+6: player 2 and player 3 both won round 6"),
    # = against = is fine, but = against 1 is not
    ({round_cell(6, "res", 4): "=", round_cell(6, "res", 5): "1"},
     r"player 4 and player 5 round 6: results '½' and '1' do not match"),
    # both with white
    ({round_cell(6, "col", 5): "w"},
     r"Crosstable!\w+8: player 4 and player 5 round 6: both have colour 'w'"),
    # one result blank
    ({round_cell(6, "res", 5): None},
     r"player 4 has '1' against player 5 round 6, whose result is blank"),
    # one-sided bye (issue 11): 5 says H with no opponent, 4 still lists 5 as opponent
    ({round_cell(6, "opp", 5): None, round_cell(6, "col", 5): None,
      round_cell(6, "res", 5): "H"},
     r"Crosstable!\w+8: player 4 has player 5 as opponent in round 6, but player 5 has no "
     r"opponent in that round \(H\)"),
    # a bye code on one side of a game with an opponent
    ({round_cell(6, "res", 5): "H"},
     r"player 4 and player 5 round 6: a bye \(H\) on one side"),
])
def test_swiss_sides_must_agree(tmp_path, capsys, edits, pattern):
    refused(edited(tmp_path, swiss_example, edits), pattern, capsys)


def test_agreeing_sides_are_read(tmp_path):
    # a double forfeit and a draw are consistent; both blank results = not played yet
    path = edited(tmp_path, swiss_example, {
        round_cell(6, "res", 4): "-", round_cell(6, "res", 5): "-"})
    t = read_workbook(path)
    assert [g.code for g in (t.player(4).games[5], t.player(5).games[5])] == ["-", "-"]
    path = edited(tmp_path, swiss_example, {
        round_cell(6, "res", 4): None, round_cell(6, "res", 5): None}, "pending.xlsx")
    assert read_workbook(path).player(4).games[5].opponent == 5


# round robin rr_example: 1 beat 2 (row 5 col N = 1 against 2; row 6 col M = 0 against 1)

@pytest.mark.parametrize("edits, pattern", [
    ({"N5": "+", "M6": "+"}, r"Crosstable!N5: player 1 and player 2 both won their game"),
    ({"N5": "H", "M6": "H"}, r"Crosstable!N5: player 1 and player 2: a bye \(H\) on one side"),
    ({"M6": "H"}, r"Crosstable!N5: player 1 and player 2: a bye \(H\) on one side"),
    ({"M6": None}, r"player 1 has '1' against player 2, whose result is blank"),
])
def test_round_robin_sides_must_agree(tmp_path, capsys, edits, pattern):
    refused(edited(tmp_path, rr_example, edits), pattern, capsys)
