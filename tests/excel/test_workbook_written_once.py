"""The cross-table is checked and valued as it is written (issue 23): the check before
saving reads the cells fill_workbook wrote from the sheet's own map of cells (it makes
no cell), the Check columns are worked out from the rounds' columns, and the cached
values go only into the cells that have one, every other cell's XML left as openpyxl
wrote it."""
from __future__ import annotations

import pytest

from tests.excel.test_workbook import swiss_example
from xl_fide.errors import InputError
from xl_fide.excel._cached import _with_values
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report
from xl_fide.excel._layout import CROSS, EVENT, _Geometry
from xl_fide.tournament import Game, Tournament, TrfPlayer


def test_the_check_before_saving_makes_no_cell():
    # the check read the Event sheet's A1:C36 through openpyxl's iter_rows, which makes
    # every cell it passes: blank cells, written as empty <row> elements, and the
    # sheet's dimension one row too many
    wb = fill_workbook(build_report(swiss_example()))
    made = [cell.coordinate for cell in wb[EVENT]._cells.values()
            if cell.value is None and not cell.has_style]
    assert made == []
    assert wb[EVENT].max_row == 35


def test_cached_values_only_where_given_the_rest_as_written():
    xml = (b'<sheetData><row r="1"><c r="A1" t="n"><v>1</v></c>'
           b'<c r="B1"><f>A1+1</f><v></v></c><c r="C1" s="2"/>'
           b'<c r="D1" t="inlineStr"><is><t>a &lt;/c&gt; b</t></is></c>'
           b'<c r="E1"><f>IF(A1&lt;2,"&lt;/c&gt;","")</f><v></v></c></row>'
           b'<row r="2"><c r="B2"><f>A2+1</f><v></v></c><c r="B12"><f>B2</f></c></row>'
           b'</sheetData>')
    out = _with_values(xml, {"B1": 2, "C1": 7.5, "E1": "</c>", "B12": "#N/A"})
    # the same cells given in another order, with cells the sheet does not have
    again = _with_values(xml, {"Z9": 1, "B12": "#N/A", "E1": "</c>", "A12": 3, "C1": 7.5,
                               "B1": 2, "AA1": 0})
    assert again == out
    assert out == (b'<sheetData><row r="1"><c r="A1" t="n"><v>1</v></c>'
                   b'<c r="B1"><f>A1+1</f><v>2</v></c><c r="C1" s="2"><v>7.5</v></c>'
                   b'<c r="D1" t="inlineStr"><is><t>a &lt;/c&gt; b</t></is></c>'
                   b'<c r="E1" t="str"><f>IF(A1&lt;2,"&lt;/c&gt;","")</f>'
                   b'<v>&lt;/c&gt;</v></c></row>'
                   b'<row r="2"><c r="B2"><f>A2+1</f><v></v></c>'
                   b'<c r="B12" t="e"><f>B2</f><v>#N/A</v></c></row></sheetData>')


def test_many_values_for_cells_the_sheet_does_not_hold_give_the_same_sheet(monkeypatch):
    # a value for a cell not in the sheet makes the ordered search look through the
    # whole sheet; past a few of them the cells are found by one pass over the sheet
    # (time linear in it), which gives the same XML
    from xl_fide.excel import _cached
    rows = "".join(f'<row r="{r}"><c r="A{r}" t="n"><v>{r}</v></c>'
                   f'<c r="B{r}" s="1"><f>A{r}*2</f><v></v></c></row>' for r in range(1, 201))
    xml = f"<sheetData>{rows}</sheetData>".encode()
    values: dict[str, object] = {f"B{r}": 2 * r for r in range(1, 201)}
    values.update({f"C{r}": "absent" for r in range(1, 201)})      # 200 cells not there
    out = _with_values(xml, values)
    expected = xml
    for r in range(1, 201):
        expected = expected.replace(f"<f>A{r}*2</f><v></v>".encode(),
                                    f"<f>A{r}*2</f><v>{2 * r}</v>".encode())
    assert out == expected
    monkeypatch.setattr(_cached, "_MISSES", 10**6)     # every cell by the ordered search
    assert _with_values(xml, values) == expected


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
    put_value(ws._cells, ws, 1, 1, value)
    _text(ws, 1, 2, value)
    a, b = ws.cell(1, 1), ws.cell(1, 2)
    assert (type(a.value), a.value, a.data_type, a.quotePrefix) == \
        (type(b.value), b.value, b.data_type, b.quotePrefix)
    assert getattr(wb, "xl_fide_replaced", []) in ([], ["Sheet!A1", "Sheet!B1"])


def test_a_cell_with_other_attributes_is_made_by_openpyxl(monkeypatch):
    # an openpyxl whose Cell has other attributes: _style_cells calls Cell(...) itself
    from openpyxl import Workbook
    from openpyxl.cell.cell import Cell

    from xl_fide.excel import _layout
    monkeypatch.setattr(_layout, "_CELLS_MADE_DIRECTLY", False)
    made: list[tuple[int, int]] = []

    class Spy(Cell):
        __slots__ = ()

        def __init__(self, *args: object, **kw: object) -> None:
            made.append((kw["row"], kw["column"]))   # type: ignore[arg-type]
            super().__init__(*args, **kw)            # type: ignore[arg-type]

    monkeypatch.setattr(_layout, "Cell", Spy)
    wb = Workbook()
    _layout._register_styles(wb)
    ws = wb.active
    _layout._apply(ws.cell(1, 1), "in_res")
    _layout._style_cells(ws, (7, 8), [(3, "in_res")])
    assert made == [(7, 3), (8, 3)]
    assert ws._cells[(8, 3)].style == "in_res" and ws._current_row == 8


def test_a_styled_cell_made_directly_is_the_cell_openpyxl_makes():
    # _style_cells sets a new cell's attributes itself instead of calling Cell(...)
    from openpyxl import Workbook
    from openpyxl.cell.cell import Cell

    from xl_fide.excel._layout import _apply, _register_styles, _style_cells
    wb = Workbook()
    _register_styles(wb)
    ws = wb.active
    _apply(ws.cell(1, 1), "in_res")                  # the style's array, cached
    ws.cell(3, 2).value = "x"                        # a cell already there: restyled
    _style_cells(ws, (7,), [(3, "in_res")])
    _style_cells(ws, (3,), [(2, "in_res")])
    _style_cells(ws, (5,), [(4, "calc_int")])
    made = ws._cells[(7, 3)]
    like = Cell(ws, row=7, column=3, style_array=ws._cells[(1, 1)]._style)
    from xl_fide.excel._layout import _CELL_SLOTS, _slots
    slots = sorted(_slots(Cell))            # every attribute this openpyxl's Cell has
    assert set(slots) == _CELL_SLOTS        # else _style_cells calls Cell() (below)
    assert [getattr(made, s) for s in slots] == [getattr(like, s) for s in slots]
    assert made._style is not ws._cells[(1, 1)]._style          # its own array
    assert (type(made._style), made._style.typecode) == (type(like._style), like._style.typecode)
    assert ws._cells[(3, 2)].value == "x"
    assert (ws._cells[(3, 2)].style, ws._cells[(5, 4)].style) == ("in_res", "calc_int")
    assert ws._current_row == 7
