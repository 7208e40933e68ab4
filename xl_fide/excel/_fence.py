"""The one module of xl-fide that reaches below openpyxl's public API: the fence.

Every other module uses openpyxl's public faces only; ``tests/project/test_fence.py``
checks that (no other module names an openpyxl private attribute or private module) and
checks, against the openpyxl installed, every assumption made here, so that a new
openpyxl that changes one fails that test rather than a user's workbook.

Why a fence at all (measured, issues 23 and 32):

* **Cached values.** A formula cell of an ``.xlsx`` holds its formula (``<f>``) and the
  value last computed (``<v>``). openpyxl writes the formula only, so a reader that does
  not calculate (a preview, a phone viewer, pandas, calamine, a UDF workbook opened where
  the add-in is not loaded) shows every result blank. :func:`save` writes each
  worksheet with openpyxl's own writer, its formula cells given their cached values and,
  on the helper sheets, their shared formulas (:mod:`._shared`), element by element
  through the writer's XML stream: no text of the saved package is edited afterwards.
  XlsxWriter has cached values as public API (``write_formula(..., value=)``), but
  rewrites each formula with 29 regular expressions: its prototype on the 2,000 x 15
  native book took 9.8x the floor's CPU (``benchmarks/xlsxwriter_prototype.py``).
* **Cells by the hundred thousand.** ``ws.cell(r, c).value = v`` runs openpyxl's type
  checks and its style look-up per cell; a 2,000 x 15 native book has 250,000 cells.
  :func:`put`, :func:`new_cell` and :func:`style_cells` set what that setter sets, for
  the values it would store as they are (``int``, ``float``, ``None``, a formula text,
  a plain text: the callers decide which), and :func:`cells` / :func:`raw` read a sheet's
  map of cells without making a cell for each blank place. The cells of one style share
  its style array (:data:`SHARE_STYLE_ARRAYS`). Rows of formulas alike (the native helper
  sheet, the Swiss per-round checks) are not cells at all until saved: a sheet's
  :class:`._shared.RowPlan` (``book_state(wb)["plans"]``) is made into cells a row at a
  time as the sheet is written (:func:`planned_cells`).

What is *not* below the public API lives beside it for want of a better place:
:func:`book_state`, xl-fide's own notes on a workbook it builds, kept in a weak map
rather than on openpyxl's object.
"""

from __future__ import annotations

import datetime as _dt
import heapq
import weakref
import zipfile
from array import array
from copy import copy
from typing import Any, Collection, Iterable, Mapping, Sequence

from openpyxl.cell.cell import Cell
from openpyxl.comments.comment_sheet import CommentRecord
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.cell._writer import write_cell
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.dimensions import SheetDimension
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.writer.excel import ExcelWriter
from openpyxl.xml.functions import Element, SubElement

from xl_fide.excel._shared import NO_VALUE, Plan, RowPlan

# ======================================================== xl-fide's notes on a workbook

_BOOKS: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def book_state(wb: Any) -> dict[str, Any]:
    """xl-fide's notes on the workbook ``wb`` it builds (``geo``: its geometry; ``cached``:
    the values its formulas compute, by sheet and cell; ``months``: the month blocks'
    layouts; ``replaced``: the cells whose text lost a character a sheet cannot hold;
    ``styles``: each named style's array; ``plans``: each sheet's
    :class:`._shared.RowPlan`, by title). A dict kept as long as ``wb`` lives."""
    state = _BOOKS.get(wb)
    if state is None:
        state = _BOOKS[wb] = {}
    return state


# ================================================================ cells, read and set

def cells(ws: Any) -> dict[tuple[int, int], Any]:
    """The worksheet's own map of cells, ``(row, column) -> Cell`` (1-based): a blank place
    has no entry (``ws.cell`` would make one). The map itself: a cell put in it is in the
    sheet (then :func:`grow` the sheet to its row)."""
    held: dict[tuple[int, int], Any] = ws._cells
    return held


def cells_in_memory(ws: Any) -> dict[tuple[int, int], Any] | None:
    """:func:`cells` of a worksheet held in memory, ``None`` for one read in read-only mode
    (openpyxl's ``ReadOnlyWorksheet`` streams its rows and has no map)."""
    held = getattr(ws, "_cells", None)
    return held if isinstance(held, dict) else None


def raw(cell: Any) -> Any:
    """What ``cell.value`` gives (the formula text of a formula cell), without the
    property's call."""
    return cell._value


def put(cell: Any, value: Any, kind: str) -> None:
    """Store ``value`` in ``cell`` with openpyxl's data type ``kind`` as the value setter
    would store it: ``"n"`` (``None``, an ``int``, a ``float``), ``"s"`` (a text of 1-255
    characters that needs no escaping, is no formula and no error code) or ``"f"`` (a
    formula text starting with ``=``, of at most 32,767 characters and no character a
    sheet cannot hold). The caller has checked which; anything else goes through
    ``cell.value = value``."""
    cell._value = value
    cell.data_type = kind


def new_cell(ws: Any, row: int, col: int) -> Any:
    """A new unstyled cell at ``(row, col)`` of ``ws``, where the sheet has none yet, put in
    its map (:func:`grow` the sheet after a run of them)."""
    cell = ws._cells[(row, col)] = Cell(ws, row=row, column=col)
    return cell


def grow(ws: Any, row: int) -> None:
    """Tell ``ws`` that it has cells down to ``row`` (what ``ws.cell`` keeps up to date;
    ``ws.append`` and ``ws.max_row`` read it)."""
    if row > ws._current_row:
        ws._current_row = row


# ================================================================ styles by the row

def apply_style(cell: Any, name: str) -> None:
    """Give ``cell`` the registered named style ``name`` (its array cached per workbook:
    assigning a named style by name costs a look-up over all styles)."""
    cache = book_state(cell.parent.parent).setdefault("styles", {})
    arr = cache.get(name)
    if arr is None:
        cell.style = name
        cache[name] = copy(cell._style)
    else:
        cell._style = copy(arr)


#: The attributes ``Cell(ws, row=r, column=c, style_array=a)`` sets (openpyxl 3.1):
#: :func:`style_cells` makes a cell by setting them itself only while a Cell has exactly
#: these (another openpyxl may add one: then it calls ``Cell``).
CELL_SLOTS = frozenset({"parent", "_style", "row", "column", "_value", "_hyperlink",
                        "data_type", "_comment"})


def slots(cls: type) -> frozenset[str]:
    """Every ``__slots__`` name of ``cls`` and its bases."""
    names: set[str] = set()
    for k in cls.__mro__:
        found = k.__dict__.get("__slots__", ())
        names.update((found,) if isinstance(found, str) else found)
    return frozenset(names)


CELLS_MADE_DIRECTLY = slots(Cell) == CELL_SLOTS


#: Whether the cells :func:`style_cells` makes share their style's one array (issue 32:
#: 212,000 arrays of 9 numbers, 23 MB at 2,000 x 15, held for the whole command) rather
#: than each holding a copy. openpyxl sets a style attribute (``cell.font = ...``,
#: ``cell.quotePrefix = True``, a date's ``number_format`` set by ``cell.value = ...``)
#: by changing the cell's array in place: xl-fide calls :func:`own_style` first, wherever
#: it does (``tests/project/test_fence_shared_styles.py`` checks every such statement
#: of excel/, and that the workbooks' styles are the same shared or not); a whole style (``cell.style``,
#: :func:`apply_style`) gives the cell a new array of its own.
SHARE_STYLE_ARRAYS = True


def own_style(cell: Any) -> Any:
    """Give ``cell`` its own copy of its style's array (it may share one, made by
    :func:`style_cells`), before a style attribute of it is set in place; ``cell``."""
    cell._style = copy(cell._style)
    return cell


def style_cells(ws: Any, rows: Iterable[int], places: Sequence[tuple[int, str]]) -> None:
    """``apply_style(ws.cell(row, col), name)`` for each row of ``rows`` and each
    ``(col, name)`` of ``places``, row by row, in order; a cell not there yet is made with
    its style (not made, then restyled), its attributes set as ``Cell(ws, row=r, column=c,
    style_array=...)`` sets them, but for its style's array: the one the style's cells
    share (:data:`SHARE_STYLE_ARRAYS`; :func:`own_style` before setting a style attribute
    in place)."""
    cache = book_state(ws.parent).setdefault("styles", {})
    held = ws._cells
    new, new_array = Cell.__new__, array.__new__
    top = ws._current_row
    direct, share = CELLS_MADE_DIRECTLY, SHARE_STYLE_ARRAYS
    cell: Any
    for r in rows:
        for c, name in places:
            arr = cache.get(name)
            if arr is None or (r, c) in held:
                apply_style(ws.cell(r, c), name)
                continue
            if not direct:
                ws._add_cell(Cell(ws, row=r, column=c, style_array=arr))
                continue
            cell = held[(r, c)] = new(Cell)
            # the style's one array, shared (own_style: before a style is set in place),
            # or its own copy (StyleArray(arr) without its own __new__ in between)
            cell.parent, cell._style, cell.row, cell.column = (
                ws, arr if share else new_array(StyleArray, "i", arr), r, c)
            cell._value, cell._hyperlink, cell.data_type, cell._comment = None, None, "n", None
            if r > top:
                top = r
    ws._current_row = max(ws._current_row, top)


# ================================================================ saving with values

#: The deflate level of the package (zlib's 1, its fastest; openpyxl leaves Python's
#: default, 6). A cross-table's sheets are long runs of near-identical rows, which
#: level 1 packs almost as well: at 2,000 players x 15 rounds the file is about a third
#: larger (2.7 -> 3.7 MB) and compressing it takes a quarter of the time (0.28 -> 0.08 s
#: CPU, about 7 % of the command; issue 23). Every reader inflates any level alike.
COMPRESS_LEVEL = 1

CachedValues = Mapping[str, Mapping[str, object]]

_ERRORS = frozenset({"#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!"})


def save(wb: Any, file: Any, values: CachedValues, shared: Collection[str] = ()) -> None:
    """openpyxl's save of ``wb`` into ``file`` (a path or a binary file object), the cell
    ``ref`` (``"B5"``) of the sheet titled ``sheet`` holding ``values[sheet][ref]`` as its
    cached value (after its formula, as ECMA-376 Part 1 §18.3.1.4 has it), and on the
    sheets titled in ``shared`` each column's runs of one relative formula written as a
    shared formula (:mod:`._shared`). A value for a cell the sheet does not hold is not
    written. Value types: ``bool`` (``t="b"``), ``int``/``float`` (a number), a date (its
    serial number, day 0 = 30 Dec 1899), ``str`` (``t="str"``; an error text such as
    ``"#N/A"`` is ``t="e"``). Every sheet still recalculates on load (``fullCalcOnLoad``)."""
    archive = zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED, allowZip64=True,
                              compresslevel=COMPRESS_LEVEL)
    _Writer(wb, archive, values, frozenset(shared)).save()      # closes the archive


#: The openpyxl methods :class:`_Writer` and :class:`_SheetWriter` copy (to put their own
#: cell writer in), by the first 16 hex digits of the SHA-256 of their source in openpyxl
#: 3.1.x: the guard test fails on an openpyxl whose methods differ, to be looked at.
COPIED = {"write_row": "1d9ae0194864e690", "write_worksheet": "ccfd37f0bebe758f"}


class _Writer(ExcelWriter):
    """openpyxl's package writer; a worksheet with values or shared formulas is written
    by :class:`_SheetWriter` (the rest of the package exactly as openpyxl writes it)."""

    def __init__(self, wb: Any, archive: zipfile.ZipFile, values: CachedValues,
                 shared: frozenset[str]) -> None:
        super().__init__(wb, archive)
        self.values, self.shared = values, shared

    def write_worksheet(self, ws: Any) -> None:
        values = self.values.get(ws.title) or {}
        share = ws.title in self.shared
        rows: RowPlan | None = book_state(self.workbook).get("plans", {}).get(ws.title)
        if not (values or share or rows) or self.workbook.write_only:
            super().write_worksheet(ws)
            return
        # as openpyxl 3.1's ExcelWriter.write_worksheet, with the sheet writer below
        ws._drawing = SpreadsheetDrawing()
        ws._drawing.charts = ws._charts
        ws._drawing.images = ws._images
        writer = _SheetWriter(ws, values, Plan(_formulas(ws, rows)) if share else None, rows)
        writer.write()
        ws._rels = writer._rels                         # type: ignore[attr-defined]
        self._archive.write(writer.out, ws.path[1:])    # type: ignore[attr-defined]
        self.manifest.append(ws)
        writer.cleanup()


def planned_cells(ws: Any, plan: RowPlan, row: int) -> list[Any]:
    """The cells of row ``row`` of the row plan ``plan`` of ``ws``, made now (unstyled,
    not put in the sheet), each as ``ws.cell(row, col).value = value`` makes it."""
    out = []
    for c, value, kind in plan.row(row):
        cell = Cell(ws, row=row, column=c)
        put(cell, value, kind)
        out.append(cell)
    return out


def _formulas(ws: Any, rows: RowPlan | None = None) -> Iterable[tuple[int, int, str]]:
    """``(row, col, text)`` of each plain formula cell of ``ws`` and of its row plan
    ``rows`` (text without its ``=``), row by row, left to right."""
    held = ((r, c, v[1:]) for (r, c), cell in sorted(ws._cells.items())
            if cell.data_type == "f" and type(v := cell._value) is str)
    if rows is None:
        yield from held
        return
    planned = ((r, c, v[1:]) for r in range(rows.first, rows.last + 1)   # type: ignore[index]
               for c, v, kind in rows.row(r) if kind == "f")
    yield from heapq.merge(held, planned)


class _SheetWriter(WorksheetWriter):
    """openpyxl's worksheet writer; a cell that has a cached value or a shared formula is
    written here (as an element on the writer's stream), any other by openpyxl. The
    cells of the sheet's row plan (:class:`._shared.RowPlan`) are made a row at a time,
    as the row is written, each as ``cell.value = value`` makes it."""

    def __init__(self, ws: Any, values: Mapping[str, object], plan: Plan | None,
                 rows: RowPlan | None = None) -> None:
        super().__init__(ws)
        self.values, self.plan, self.planned = values, plan, rows
        self.letters: dict[int, str] = {}

    def write_dimensions(self) -> None:
        rows = self.planned
        if rows is None or not rows.columns:
            super().write_dimensions()
            return
        # the sheet's extent (openpyxl's ``calculate_dimension``) and the plan's
        ws: Any = self.ws
        top, left = rows.first, rows.columns[0][0]
        bottom, right = rows.last, rows.columns[-1][0]
        if ws._cells:
            left0, top0, right0, bottom0 = range_boundaries(ws.calculate_dimension())
            top, left = min(top, top0 or top), min(left, left0 or left)
            bottom, right = max(bottom, bottom0 or bottom), max(right, right0 or right)
        ref = f"{get_column_letter(left)}{top}:{get_column_letter(right)}{bottom}"
        self.xf.send(SheetDimension(ref).to_tree())

    def rows(self) -> Any:
        got = super().rows()
        plan = self.planned
        if plan is None:
            return got
        have = dict(got)
        for r in range(plan.first, plan.last + 1):
            have.setdefault(r, [])
        return sorted(have.items())

    def _with_plan(self, row: list[Any], row_idx: int) -> tuple[list[Any], dict[int, object]]:
        """The cells of ``row`` and the plan's of row ``row_idx`` (made now), left to
        right (a planned cell in place of an empty cell of the sheet, with its style),
        and the cached values of the plan's, by column."""
        plan = self.planned
        if plan is None or not plan.first <= row_idx <= plan.last:
            return row, {}
        made = {cell.column: cell for cell in planned_cells(self.ws, plan, row_idx)}
        cached: dict[int, object] = {}
        for c in made:
            got = plan.cached(row_idx, c)
            if got is not NO_VALUE:
                cached[c] = got
        for cell in row:
            c = cell.column
            mine = made.get(c)
            if mine is None:
                made[c] = cell
            elif cell._value is None and cell._comment is None and cell._hyperlink is None:
                mine._style = cell._style       # the sheet's empty cell there: its style
            else:
                made[c] = cell
                cached.pop(c, None)
        return [made[c] for c in sorted(made)], cached

    def write_row(self, xf: Any, row: Any, row_idx: int) -> None:
        # as openpyxl 3.1's WorksheetWriter.write_row, with _cell below
        attrs = {"r": f"{row_idx}"}
        ws: Any = self.ws
        attrs.update(ws.row_dimensions.get(row_idx, {}))
        values, plan, letters = self.values, self.plan, self.letters
        row, planned = self._with_plan(row, row_idx)
        number = str(row_idx)
        with xf.element("row", attrs):
            for cell in row:
                if cell._comment is not None:
                    ws._comments.append(CommentRecord.from_cell(cell))
                value = cell._value
                if value is None and not cell.has_style and not cell._comment:
                    continue
                col = cell.column
                letter = letters.get(col)
                if letter is None:
                    letter = letters[col] = get_column_letter(col)
                ref = letter + number
                cached = values.get(ref, _NONE)
                if cached is _NONE and planned:
                    cached = planned.get(col, _NONE)
                formula = plan.formula(row_idx, col, value) if plan is not None else None
                if cached is _NONE and formula is None:
                    write_cell(xf, ws, cell, cell.has_style)
                else:
                    xf.write(_element(cell, ref, value, cached, formula))


_NONE = object()


def _element(cell: Any, ref: str, value: Any, cached: object,
             formula: tuple[dict[str, str], str | None] | None) -> Any:
    """The ``<c>`` element of ``cell`` (at ``ref``): its formula (``formula``: the
    attributes and text of its ``<f>`` as :class:`._shared.Plan` has it, else the cell's
    own), then its cached value ``cached`` (none: ``_NONE``)."""
    attrs = {"r": ref}
    if cell.has_style:
        attrs["s"] = f"{cell.style_id}"
    kind, text = _encoded(cached) if cached is not _NONE else (None, None)
    if kind is not None:
        attrs["t"] = kind
    el = Element("c", attrs)
    if formula is not None:
        f = SubElement(el, "f", formula[0])
        if formula[1] is not None:
            f.text = formula[1]
    elif cell.data_type == "f" and isinstance(value, ArrayFormula):
        f = SubElement(el, "f", dict(value))
        array_text = str(value.text or "")
        f.text = array_text[1:] if array_text.startswith("=") else array_text
    elif cell.data_type == "f" and type(value) is str:
        SubElement(el, "f").text = value[1:]
    if text is not None:
        SubElement(el, "v").text = text
    return el


def _encoded(value: object) -> tuple[str | None, str]:
    """(the cell's ``t`` attribute, the text of ``<v>``) of a cached value."""
    if isinstance(value, bool):
        return "b", "1" if value else "0"
    if isinstance(value, _dt.date):                   # a date is its serial number
        day = value.date() if isinstance(value, _dt.datetime) else value
        return None, str((day - _dt.date(1899, 12, 30)).days)
    if isinstance(value, int):
        return None, str(value)
    if isinstance(value, float):
        return None, repr(value)
    text = "" if value is None else str(value)
    return ("e" if text in _ERRORS else "str"), text
