"""The cross-table is checked and valued as it is written (issue 23): the check before
saving reads the cells fill_workbook wrote from the sheet's own map of cells (it makes
no cell), the Check columns are worked out from the rounds' columns. (How the cached
values are written: tests/project/test_fence.py.)"""
from __future__ import annotations

import pytest

from tests.excel.test_workbook import swiss_example
from xl_fide.errors import InputError
from xl_fide.excel._fence import book_state, cells
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report
from xl_fide.excel._layout import CROSS, EVENT, _Geometry
from xl_fide.tournament import Game, Tournament, TrfPlayer


def test_the_check_before_saving_makes_no_cell():
    # the check read the Event sheet's A1:C36 through openpyxl's iter_rows, which makes
    # every cell it passes: blank cells, written as empty <row> elements, and the
    # sheet's dimension one row too many
    wb = fill_workbook(build_report(swiss_example()))
    made = [cell.coordinate for cell in cells(wb[EVENT]).values()
            if cell.value is None and not cell.has_style]
    assert made == []
    assert wb[EVENT].max_row == 35


def _swiss(games: dict[int, list[Game]]) -> Tournament:
    players = [TrfPlayer(start_rank=i, name=f"Player {i}", rating=2000 - i, games=tuple(g))
               for i, g in sorted(games.items())]
    return Tournament.build(name="Two rounds", players=players, rounds=2)


def test_a_bad_result_is_named_by_its_own_cell_after_good_ones():
    # the result cells' values are parsed once per value: a refusal still names its cell
    geo = _Geometry("swiss", 4, 2)
    t = _swiss({1: [Game(1, 2, "w", "1"), Game(2, 3, "w", "1")],
                2: [Game(1, 1, "b", "0"), Game(2, 4, "w", "1")],
                3: [Game(1, 4, "w", "1"), Game(2, 1, "b", "1")],
                4: [Game(1, 3, "b", "0"), Game(2, 2, "b", "0")]})
    with pytest.raises(InputError) as got:
        fill_workbook(build_report(t))
    cell = f"{CROSS}!{_col(geo.round_col(2, 'res'))}{geo.first}"
    assert str(got.value) == (f"this event cannot be written as a workbook that reads back: "
                              f"{cell}: player 1 and player 3 both won round 2")


def _col(c: int) -> str:
    from openpyxl.utils import get_column_letter
    return get_column_letter(c)


@pytest.mark.parametrize("value", ["w", "b", "-", "+", "=", "=1", "@x", "#N/A", "½", "a\x01b",
                                   "", 0, 1, 12, True, 1.5, -0.0, 2.5e300, None])
@pytest.mark.parametrize("before", [None, "old"])
def test_a_round_cell_set_directly_holds_what_the_setter_gives(value, before):
    # put_value skips openpyxl's setter for None, an int, a float or a plain text: every
    # other value (a formula start, an error code, a control character, a bool) goes
    # through _text; the cell may hold a text before
    from openpyxl import Workbook

    from xl_fide.excel._layout import _text, put_value
    wb = Workbook()
    ws = wb.active
    ws.cell(1, 1).value = before
    ws.cell(1, 2).value = before    # made first, as the template makes its input cells
    put_value(cells(ws), ws, 1, 1, value)
    _text(ws, 1, 2, value)
    a, b = ws.cell(1, 1), ws.cell(1, 2)
    assert (type(a.value), a.value, a.data_type, a.quotePrefix) == \
        (type(b.value), b.value, b.data_type, b.quotePrefix)
    assert book_state(wb).get("replaced", []) in ([], ["Sheet!A1", "Sheet!B1"])
