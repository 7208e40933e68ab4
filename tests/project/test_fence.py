"""The fence (issue 32, item 8): ``xl_fide/excel/_fence.py`` is the one module of xl-fide
that reaches below openpyxl's public API, and what it assumes about the openpyxl
installed holds.

* No other module names a private attribute of an openpyxl object or class, imports a
  private openpyxl module, or keeps its own notes in an openpyxl object's ``__dict__``.
* The package :func:`_fence.save` writes is openpyxl's own, but for the ``<v>`` (and
  the shared ``<f>``) of the cells given: every other part byte for byte, every other
  cell element for element; read back by openpyxl and by a plain XML parser (no regular
  expression edits the package any more).
* The cells made and set directly are the cells openpyxl's own calls make.
"""

from __future__ import annotations

import ast
import io
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import Cell
from openpyxl.comments import Comment
from openpyxl.worksheet.formula import ArrayFormula

from xl_fide.excel import _fence
from xl_fide.excel._fence import book_state, cells, put, save

ROOT = Path(__file__).resolve().parents[2]
FENCE = ROOT / "xl_fide" / "excel" / "_fence.py"
NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def _private_names() -> set[str]:
    """The private attribute names of the openpyxl objects xl-fide handles (a cell, a
    worksheet, a workbook, the package and sheet writers), as this openpyxl has them."""
    from openpyxl.worksheet._writer import WorksheetWriter
    from openpyxl.writer.excel import ExcelWriter
    wb = Workbook()
    ws = wb.active
    names: set[str] = set()
    for obj in (ws.cell(1, 1), ws, wb, Cell, ExcelWriter, WorksheetWriter,
                type(ws), type(wb)):
        names.update(n for n in dir(obj) if n.startswith("_") and not n.startswith("__"))
        names.update(n for n in getattr(obj, "__dict__", {}) if n.startswith("_")
                     and not n.startswith("__"))
    names.update(_fence.slots(Cell))
    return {n for n in names if n.startswith("_")}


def _offences(path: Path, private: set[str]) -> list[str]:
    """Where ``path`` reaches below openpyxl: a private openpyxl module imported, an
    attribute of an openpyxl name starting with ``_``, an openpyxl private attribute name
    on anything but ``self``/``cls``, or a ``__dict__`` of an object (excel/ only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    from_openpyxl: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("openpyxl"):
            if any(part.startswith("_") for part in (node.module or "").split(".")):
                found.append(f"{path.name}:{node.lineno} imports {node.module}")
            from_openpyxl.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("openpyxl") and any(
                        p.startswith("_") for p in a.name.split(".")):
                    found.append(f"{path.name}:{node.lineno} imports {a.name}")
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value.id if isinstance(node.value, ast.Name) else None
        if owner in ("self", "cls"):
            continue
        if owner in from_openpyxl and node.attr.startswith("_"):
            found.append(f"{path.name}:{node.lineno} {owner}.{node.attr}")
        elif node.attr in private and owner not in from_openpyxl:
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
        elif node.attr == "__dict__" and path.parent.name == "excel":
            found.append(f"{path.name}:{node.lineno} .__dict__")
    return found


def test_only_the_fence_goes_below_openpyxl():
    private = _private_names()
    assert {"_cells", "_value", "_style", "_current_row"} <= private      # what it looks for
    offences = [o for path in sorted((ROOT / "xl_fide").rglob("*.py")) if path != FENCE
                for o in _offences(path, private)]
    assert offences == []


def test_the_scan_finds_what_the_write_path_used_to_do(tmp_path):
    # the scan itself can fail: the forms that were spread over six modules
    sample = tmp_path / "excel" / "sample.py"
    sample.parent.mkdir()
    sample.write_text("from openpyxl.cell.cell import Cell\n"
                      "from openpyxl.worksheet._writer import WorksheetWriter\n"
                      "def f(ws, cell, wb):\n"
                      "    cell._value, cell.data_type = 1, 'n'\n"
                      "    ws._current_row = 3\n"
                      "    x = Cell.__new__(Cell)\n"
                      "    wb.__dict__['mine'] = 1\n"
                      "    return ws._cells, cell._style\n", encoding="utf-8")
    found = _offences(sample, _private_names())
    assert len(found) == 7, found


# ============================================================ the package save() writes

def _book() -> Workbook:
    wb = Workbook()
    ws = wb.active
    ws.title = "S"
    ws["A1"] = 1
    ws["B1"] = "=A1+1"
    ws["C1"].style = "Good"                           # a styled blank cell
    ws["D1"] = "a </c> b"
    ws["E1"] = '=IF(A1<2,"</c>","")'
    ws["F1"] = ArrayFormula("F1", "=SUM(A1:B1*2)")
    ws["B2"] = "=A2+1"
    ws["B12"] = "=B2"
    ws["A3"] = "note"
    ws["A3"].comment = Comment("a comment", "xl-fide")
    ws.row_dimensions[4].height = 30
    wb.create_sheet("Other")["A1"] = "=S!A1"
    return wb


VALUES = {"S": {"B1": 2, "C1": 7.5, "E1": "</c>", "F1": 6, "B12": "#N/A", "Z9": 1,
                "B2": True}}


def _package(wb: Workbook, values=None) -> dict[str, bytes]:
    buffer = io.BytesIO()
    if values is None:
        wb.save(buffer)
    else:
        save(wb, buffer, values)
    with zipfile.ZipFile(buffer) as z:
        return {n: z.read(n) for n in z.namelist()}


def _cells_of(xml: bytes) -> dict[str, ElementTree.Element]:
    root = ElementTree.fromstring(xml)
    return {c.get("r"): c for c in root.iter(f"{NS}c")}


def _same(a: ElementTree.Element, b: ElementTree.Element) -> bool:
    return (a.tag, a.attrib, (a.text or "").strip()) == (b.tag, b.attrib, (b.text or "").strip()) \
        and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))


def test_save_writes_the_values_given_and_leaves_the_rest_as_openpyxl_writes_it():
    plain, valued = _package(_book()), _package(_book(), VALUES)
    assert plain.keys() == valued.keys()
    sheet = "xl/worksheets/sheet1.xml"
    for name in plain:                                  # every other part byte for byte
        if name != sheet:
            assert valued[name] == plain[name], name
    before, after = _cells_of(plain[sheet]), _cells_of(valued[sheet])
    assert before.keys() == after.keys() and "Z9" not in after     # no cell made
    for ref in before:
        if ref not in VALUES["S"]:
            assert _same(before[ref], after[ref]), ref
    # the valued cells: their formula kept, first, then <v>, the value's type in t
    got = {}
    for ref in ("B1", "C1", "E1", "F1", "B12", "B2"):
        c = after[ref]
        f, v = c.find(f"{NS}f"), c.find(f"{NS}v")
        got[ref] = (c.get("t"), None if f is None else (f.text, dict(f.attrib)), v.text,
                    [child.tag[len(NS):] for child in c])
        assert c.get("s") == before[ref].get("s")
    assert got == {
        "B1": (None, ("A1+1", {}), "2", ["f", "v"]),
        "C1": (None, None, "7.5", ["v"]),
        "E1": ("str", ('IF(A1<2,"</c>","")', {}), "</c>", ["f", "v"]),
        "F1": (None, ("SUM(A1:B1*2)", {"t": "array", "ref": "F1"}), "6", ["f", "v"]),
        "B12": ("e", ("B2", {}), "#N/A", ["f", "v"]),
        "B2": ("b", ("A2+1", {}), "1", ["f", "v"]),
    }


def test_what_save_wrote_reads_back_in_openpyxl(tmp_path):
    path = tmp_path / "v.xlsx"
    save(_book(), str(path), VALUES)
    formulas, values = load_workbook(path)["S"], load_workbook(path, data_only=True)["S"]
    assert [formulas[r].value for r in ("B1", "E1", "B2", "B12")] == \
        ["=A1+1", '=IF(A1<2,"</c>","")', "=A2+1", "=B2"]
    assert [values[r].value for r in ("B1", "C1", "E1", "F1", "B12", "B2")] == \
        [2, 7.5, "</c>", 6, "#N/A", True]
    assert formulas["A3"].comment.text == "a comment"
    assert formulas.row_dimensions[4].height == 30


def test_shared_runs_are_written_as_one_formula_each(tmp_path):
    wb = Workbook()
    ws = wb.active
    ws.title = "Calc"
    for r in range(1, 6):
        ws.cell(r, 1).value = r
        ws.cell(r, 2).value = f"=A{r}*2"
    path = tmp_path / "s.xlsx"
    save(wb, str(path), {"Calc": {f"B{r}": 2 * r for r in range(1, 6)}}, shared=["Calc"])
    root = ElementTree.fromstring(zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml"))
    fs = [(c.get("r"), c.find(f"{NS}f").attrib, c.find(f"{NS}f").text, c.find(f"{NS}v").text)
          for c in root.iter(f"{NS}c") if c.find(f"{NS}f") is not None]
    assert fs == [("B1", {"t": "shared", "ref": "B1:B5", "si": "0"}, "A1*2", "2")] + [
        (f"B{r}", {"t": "shared", "si": "0"}, None, str(2 * r)) for r in range(2, 6)]
    back = load_workbook(path)["Calc"]
    assert [back[f"B{r}"].value for r in range(1, 6)] == [f"=A{r}*2" for r in range(1, 6)]


# ============================================================ cells made and set directly

def test_cells_put_and_grow_are_what_the_public_calls_do():
    wb = Workbook()
    ws = wb.active
    ws.cell(2, 3).value = "x"
    assert list(cells(ws)) == [(2, 3)]                  # the map ws.cell fills
    made = _fence.new_cell(ws, 9, 1)
    put(made, "=A1+1", "f")
    _fence.grow(ws, 9)
    assert ws.max_row == 9 and ws["A9"].value == "=A1+1" and ws["A9"].data_type == "f"
    assert _fence.raw(made) == made.value
    put(ws["C2"], 7, "n")
    assert (ws["C2"].value, ws["C2"].data_type) == (7, "n")
    assert _fence.cells_in_memory(ws) is cells(ws)


def test_book_state_is_kept_beside_the_workbook_not_on_it():
    wb = Workbook()
    book_state(wb)["geo"] = 1
    assert book_state(wb) == {"geo": 1} and "geo" not in vars(wb)
    assert book_state(Workbook()) == {}


def test_a_cell_with_other_attributes_is_made_by_openpyxl(monkeypatch):
    # an openpyxl whose Cell has other attributes: style_cells calls Cell(...) itself
    from xl_fide.excel import _layout
    monkeypatch.setattr(_fence, "CELLS_MADE_DIRECTLY", False)
    made: list[tuple[int, int]] = []

    class Spy(Cell):
        __slots__ = ()

        def __init__(self, *args: object, **kw: object) -> None:
            made.append((kw["row"], kw["column"]))   # type: ignore[arg-type]
            super().__init__(*args, **kw)            # type: ignore[arg-type]

    monkeypatch.setattr(_fence, "Cell", Spy)
    wb = Workbook()
    _layout._register_styles(wb)
    ws = wb.active
    _fence.apply_style(ws.cell(1, 1), "in_res")
    _fence.style_cells(ws, (7, 8), [(3, "in_res")])
    assert made == [(7, 3), (8, 3)]
    assert cells(ws)[(8, 3)].style == "in_res" and ws.max_row == 8


def test_a_styled_cell_made_directly_is_the_cell_openpyxl_makes():
    # style_cells sets a new cell's attributes itself instead of calling Cell(...)
    from xl_fide.excel._layout import _register_styles
    wb = Workbook()
    _register_styles(wb)
    ws = wb.active
    _fence.apply_style(ws.cell(1, 1), "in_res")      # the style's array, cached
    ws.cell(3, 2).value = "x"                        # a cell already there: restyled
    _fence.style_cells(ws, (7,), [(3, "in_res")])
    _fence.style_cells(ws, (3,), [(2, "in_res")])
    _fence.style_cells(ws, (5,), [(4, "calc_int")])
    held = cells(ws)
    made = held[(7, 3)]
    like = Cell(ws, row=7, column=3, style_array=held[(1, 1)]._style)
    slots = sorted(_fence.slots(Cell))      # every attribute this openpyxl's Cell has
    assert set(slots) == _fence.CELL_SLOTS  # else style_cells calls Cell() (above)
    assert [getattr(made, s) for s in slots] == [getattr(like, s) for s in slots]
    assert made._style is not held[(1, 1)]._style                 # not that cell's array:
    assert made._style is book_state(wb)["styles"]["in_res"]      # the style's, shared
    assert (type(made._style), made._style.typecode) == (type(like._style), like._style.typecode)
    assert held[(3, 2)].value == "x"
    assert (held[(3, 2)].style, held[(5, 4)].style) == ("in_res", "calc_int")
    assert ws.max_row == 7


@pytest.mark.parametrize("method", ["write_row", "write_worksheet"])
def test_the_writers_copied_are_still_openpyxls(method):
    # _fence copies two short methods of openpyxl 3.1's writers (the sheet writer's row,
    # the package writer's worksheet) to put its own cell writer in: a new openpyxl
    # whose methods differ must be looked at before it is trusted
    import hashlib
    import inspect

    from openpyxl.worksheet._writer import WorksheetWriter
    from openpyxl.writer.excel import ExcelWriter
    owner = WorksheetWriter if method == "write_row" else ExcelWriter
    source = inspect.getsource(getattr(owner, method))
    assert hashlib.sha256(source.encode()).hexdigest()[:16] == _fence.COPIED[method]
