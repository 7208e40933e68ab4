"""xlwings Lite scripts: cross-tables whose FIDE_* formulas compute in xlwings Lite.

Office.js custom functions (what xlwings Lite registers from ``main.py``) do not bind to
formulas that were already in the file when the add-in registered them: such cells stay
``#NAME?`` and a recalculation does not help; re-entering each formula does
(OfficeDev/office-js #6611, #6395). So in Lite every FIDE_* formula is written by a
script, after the functions are registered. ``main.py`` (README, "xlwings Lite")::

    from xl_fide.udfs import *  # noqa: F401,F403
    from xl_fide.lite import *  # noqa: F401,F403

Scripts (xlwings ``@script``: a function with an ``xw.Book`` argument, run from the
add-in's Run button or F5; lite.xlwings.org "Custom Scripts"):

* :func:`fide_bind_formulas` - re-writes every FIDE_* formula of the active workbook's
  cross-table (a workbook made by ``xl-fide template`` or ``xl-fide crosstable``);
* :func:`fide_new_crosstable` - builds a new round-robin or Swiss cross-table (the
  same sheets as ``xl-fide template``, FIDE_* or native formulas) from the sizes on a
  sheet named ``xl-fide``;
* :func:`fide_crosstable_from_trf` - fills a cross-table from the TRF text pasted into
  column A of a sheet named ``TRF`` (as ``xl-fide crosstable``).

Only xlwings' documented, public API is used (``book.sheets``, ``sheets.add``,
``range.value``, ``range.clear_contents``, ``range.number_format``, ``book.names.add``).
Formulas are written as cell values: a text starting with ``=`` is a formula for Excel
(COM ``Range.Value``, Office.js ``Range.values``). Array formulas are written as
dynamic-array formulas (top-left cell; the spill range is cleared first): Lite needs
Excel 2021 or Microsoft 365, which spill. xlwings Lite offers no way to protect or
unprotect a sheet; where the host does (classic Excel: ``sheet.api.Unprotect``), the
scripts un- and re-protect the cross-table themselves.

The cross-tables are built by :mod:`xl_fide.excel._layout` in memory (openpyxl, pure Python)
and copied cell by cell, so there is one source of every formula.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any, Iterator

import xlwings as xw

from xl_fide.errors import InputError
from xl_fide.rules.values import as_int, quote_value


def _no_op_script(f: Any = None, **_: Any) -> Any:
    return f if callable(f) else (lambda g: g)


# xlwings has ``script`` on every platform (a no-op outside Lite and classic Excel);
# an xlwings without it (or a test stub) gets the no-op
script = getattr(xw, "script", None) or _no_op_script

__all__ = ["fide_bind_formulas", "fide_new_crosstable", "fide_crosstable_from_trf"]

SETUP_SHEET = "xl-fide"
TRF_SHEET = "TRF"
#: Sheets not copied into the open workbook (``xlwings.conf`` is for classic Excel).
_NOT_COPIED = ("xlwings.conf",)
_SETUP = (("Layout", "swiss", "roundrobin or swiss"),
          ("Players", 20, "player rows (2 to 2000; a round robin at most 60)"),
          ("Rounds", 9, "Swiss rounds (1 to 99); a round robin has players - 1"),
          ("Formulas", "udf", "udf (the FIDE_* functions) or native (Excel's own "
                              "functions: no add-in needed)"))


# ------------------------------------------------------------------ the scripts

@script
def fide_bind_formulas(book: xw.Book):
    """Re-write every FIDE_* formula of this workbook's cross-table so that xlwings Lite
    binds them (cells showing #NAME? compute). Run it once after opening a template or
    a workbook from ``xl-fide crosstable`` in xlwings Lite."""
    print(bind_formulas(book))


@script
def fide_new_crosstable(book: xw.Book):
    """Add a new cross-table (Crosstable, Event, Tables, Help sheets) sized by the sheet
    ``xl-fide`` (Layout, Players, Rounds, Formulas in B1:B4; made on the first run)."""
    print(new_crosstable(book))


@script
def fide_crosstable_from_trf(book: xw.Book):
    """Fill a new cross-table from the TRF text pasted into column A of the sheet ``TRF``
    (one line per row), with a Report sheet (FIDE B.02 §8.2-§8.3)."""
    print(crosstable_from_trf(book))


# ------------------------------------------------------- the work (testable as such)

def bind_formulas(book: Any) -> str:
    """Write the FIDE_* formulas of the cross-table in ``book`` (an xlwings Book) again.

    The layout comes from the Event sheet; the size is the Crosstable sheet's own (its
    No column and round headers), so every formula goes back where the sheet has it.
    Raises :class:`~xl_fide.errors.InputError`, before anything is written, if the
    workbook has no xl-fide cross-table, or when the Event sheet's Player rows or
    Rounds say more than the sheet has or less than is filled (naming the cells: a
    bind of the smaller size would write formulas over typed results, or leave the
    players below out of the rating formula).
    """
    from xl_fide.excel import _layout as wbk, build_template
    from xl_fide.excel._read import sheet_size
    from xl_fide.errors import WorkbookError
    names = _sheet_names(book)
    for needed in (wbk.CROSS, wbk.EVENT):
        if needed not in names:
            raise InputError(f"this workbook has no {needed!r} sheet: open a workbook made "
                             "by xl-fide, or run fide_new_crosstable")
    event = book.sheets[wbk.EVENT]
    layout = _layout_word(event[f"B{wbk.EVENT_ROW['layout']}"].value,
                          f"{wbk.EVENT}!B{wbk.EVENT_ROW['layout']} (Layout)")
    players = _whole(event[f"B{wbk.EVENT_ROW['players']}"].value,
                     f"{wbk.EVENT}!B{wbk.EVENT_ROW['players']} (Player rows)", 2, wbk.MAX_PLAYERS)
    rounds = _whole(event[f"B{wbk.EVENT_ROW['rounds']}"].value,
                    f"{wbk.EVENT}!B{wbk.EVENT_ROW['rounds']} (Rounds)", 1, wbk.MAX_ROUNDS)
    rows = book.sheets[wbk.CROSS].used_range.options(ndim=2).value or []
    try:
        players, rounds = sheet_size(rows, layout, players, rounds)
    except WorkbookError as exc:
        raise InputError(f"{exc}; nothing was written") from None
    from xl_fide.excel._native import CALC
    formulas = "native" if CALC in names else "udf"     # native workbooks have no FIDE_*
    template = build_template(layout, players, rounds, formulas=formulas)
    written = 0
    for sheet_name, ref, text in fide_formulas(template):
        sheet = book.sheets[sheet_name]
        with _unprotected(sheet):
            sheet.range(ref).clear_contents()          # a legacy array cannot be edited
            sheet.range(ref.split(":")[0]).value = text
        written += 1
    return (f"wrote {written} FIDE_* formulas ({layout}, {players} players, {rounds} rounds, "
            f"{formulas} formulas)")


def new_crosstable(book: Any) -> str:
    """Add an empty cross-table sized by the ``xl-fide`` sheet (made with defaults, and
    nothing else done, when it is missing)."""
    from xl_fide.excel import _layout as wbk, build_template, fill_workbook
    if SETUP_SHEET not in _sheet_names(book):
        setup = book.sheets.add(name=SETUP_SHEET)
        setup["A1"].value = [list(row) for row in _SETUP]
        return (f"made the sheet {SETUP_SHEET!r}: set Layout, Players, Rounds and Formulas "
                "in B1:B4, then run fide_new_crosstable again")
    setup = book.sheets[SETUP_SHEET]
    layout = _layout_word(setup["B1"].value, f"{SETUP_SHEET}!B1 (Layout)")
    most = wbk.MAX_ROUND_ROBIN if layout == "roundrobin" else wbk.MAX_PLAYERS
    players = _whole(setup["B2"].value, f"{SETUP_SHEET}!B2 (Players)", 2, most)
    if layout == "roundrobin":
        rounds = players - 1
    else:
        rounds = _whole(setup["B3"].value, f"{SETUP_SHEET}!B3 (Rounds)", 1, wbk.MAX_ROUNDS)
    formulas = _word(setup["B4"].value, f"{SETUP_SHEET}!B4 (Formulas)", ("udf", "native"),
                     "udf")
    template = build_template(layout, players, rounds, formulas=formulas)
    copy_workbook(template, book)
    return f"added a {layout} cross-table: {players} players, {rounds} rounds, {formulas} formulas"


def crosstable_from_trf(book: Any) -> str:
    """Read the TRF pasted into the ``TRF`` sheet and add the filled cross-table."""
    from xl_fide.excel import _layout as wbk, build_template, fill_workbook
    from xl_fide.event.report import build_report
    from xl_fide.trf import parse_trf
    if TRF_SHEET not in _sheet_names(book):
        raise InputError(f"no sheet named {TRF_SHEET!r}: add one and paste the TRF file "
                         "into its cell A1 (one line per row)")
    text = trf_text(book.sheets[TRF_SHEET].used_range.options(ndim=2).value)
    if not text.strip():
        raise InputError(f"the sheet {TRF_SHEET!r} is empty: paste the TRF file into A1")
    tournament = parse_trf(text, source=TRF_SHEET)
    report = build_report(tournament)
    copy_workbook(fill_workbook(report), book)
    warnings = f"; {len(tournament.warnings)} warning(s) on the Report sheet" \
        if getattr(tournament, "warnings", None) else ""
    return (f"added the cross-table of {len(tournament.players)} players, "
            f"{tournament.rounds} rounds, rules {report.edition.id}{warnings}")


# ------------------------------------------------------------------- helpers

def fide_formulas(template: Any) -> Iterator[tuple[str, str, str]]:
    """(sheet, range, formula text) of every formula of an openpyxl workbook that calls a
    FIDE_* function; ``range`` is the array formula's range or the cell."""
    for ws in template:
        for row in ws.iter_rows():
            for cell in row:
                ref, text = _formula(cell)
                if text is not None and "FIDE_" in text.upper():
                    yield ws.title, ref, text


def _formula(cell: Any) -> tuple[str, str | None]:
    value = cell.value
    text = getattr(value, "text", None)
    if text is not None:                                   # openpyxl ArrayFormula
        return str(getattr(value, "ref", cell.coordinate)), "=" + str(text).lstrip("=")
    if cell.data_type == "f" and isinstance(value, str):
        return cell.coordinate, value
    return cell.coordinate, None


def trf_text(values: Any) -> str:
    """The TRF lines from the values of the ``TRF`` sheet (column A, one line per row;
    other columns, e.g. from a paste split at tabs, are joined with a tab)."""
    if values is None:
        return ""
    rows = values if isinstance(values, list) else [values]
    lines = []
    for row in rows:
        cells = row if isinstance(row, list) else [row]
        parts = ["" if c is None else _cell_text(c) for c in cells]
        while parts and parts[-1] == "":
            parts.pop()
        lines.append("\t".join(parts))
    return "\n".join(lines) + "\n"


def _cell_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def copy_workbook(template: Any, book: Any) -> None:
    """Copy the sheets of an openpyxl workbook (from :mod:`xl_fide.excel._layout`) into the
    xlwings ``book``: values (text as text), formulas (arrays as dynamic arrays), number
    formats, the defined names, and hidden sheets hidden (``Sheet.visible``). Refuses
    (InputError) when a sheet of the same name exists."""
    from xl_fide.excel import complete_cells
    complete_cells(template)            # the helper rows held as a plan: cells to copy
    existing = set(_sheet_names(book))
    sheets = [ws for ws in template if ws.title not in _NOT_COPIED]
    clash = [ws.title for ws in sheets if ws.title in existing]
    if clash:
        raise InputError(f"this workbook already has a sheet named {clash[0]!r}: start from "
                         "a new workbook, or rename or delete the xl-fide sheets")
    targets = {}
    after = None
    for ws in sheets:                  # all sheets first: formulas refer to each other
        targets[ws.title] = after = (book.sheets.add(name=ws.title, after=after)
                                     if after is not None else
                                     book.sheets.add(name=ws.title))
    for name, defined in template.defined_names.items():
        book.names.add(name, "=" + defined.attr_text)
    for ws in sheets:
        target = targets[ws.title]
        grid = [[_value_out(cell) for cell in row] for row in ws.iter_rows()]
        if grid:
            target["A1"].value = grid
        for ref, fmt in _number_formats(ws):
            target.range(ref).number_format = fmt
    targets[sheets[0].title].activate()
    for ws in sheets:              # Calc, TRF_original: hidden, as in the file xl-fide writes
        if ws.sheet_state != "visible":
            targets[ws.title].visible = False


def _value_out(cell: Any) -> Any:
    """What to write for ``cell``: formula text, or its value. Every text goes out with a
    leading apostrophe, Excel's mark of typed text: a bare ``"1"``, ``"0.5"``, ``"1:0"``
    or ``"1/2"`` would be stored as a number, a time or a date (which strings Excel reads
    so depends on the user's language), and a result code that is a number no longer
    matches the text a user types into a Text result cell."""
    _, text = _formula(cell)
    if text is not None:
        return text
    value = cell.value
    if isinstance(value, str) and value:
        return "'" + value                     # text stays text
    if isinstance(value, _dt.datetime) and value.time() == _dt.time():
        return value.date()
    return value


def _number_formats(ws: Any) -> Iterator[tuple[str, str]]:
    """(range, number format) of the runs of cells in a column with the same format
    other than General: one assignment per run."""
    from openpyxl.utils import get_column_letter
    for col in ws.iter_cols():
        letter = get_column_letter(col[0].column)
        fmt, first, last = None, 0, 0
        for cell in col:
            if cell.number_format == fmt and cell.row == last + 1:
                last = cell.row
                continue
            if fmt not in (None, "General"):
                yield f"{letter}{first}:{letter}{last}", fmt
            fmt, first, last = cell.number_format, cell.row, cell.row
        if fmt not in (None, "General"):
            yield f"{letter}{first}:{letter}{last}", fmt


class _unprotected:
    """Un-protect a sheet for the writes and protect it again, where the host can
    (classic Excel's COM ``Worksheet.Unprotect``/``Protect``). xlwings Lite cannot:
    there the sheet must be unprotected by hand (README)."""

    def __init__(self, sheet: Any) -> None:
        self.api: Any = getattr(sheet, "api", None)
        self.was = False

    def __enter__(self) -> None:
        try:
            self.was = bool(self.api.ProtectContents)
            if self.was:
                self.api.Unprotect()
        except Exception:  # noqa: BLE001 - no COM object (xlwings Lite): nothing to do
            self.was = False

    def __exit__(self, *exc: Any) -> None:
        if self.was:
            self.api.Protect(DrawingObjects=True, Contents=True, Scenarios=True,
                             AllowFormattingColumns=True, AllowFormattingRows=True)


def _sheet_names(book: Any) -> list[str]:
    return [s.name for s in book.sheets]


def _whole(value: Any, where: str, minimum: int, maximum: int) -> int:
    """A size typed in a settings cell: a whole number from ``minimum`` to ``maximum``;
    anything else (2.5, text, inf, NaN, 9e307) one short message naming the cell."""
    try:
        return as_int(value, where, minimum=minimum, maximum=maximum)
    except InputError:
        raise InputError(f"{where} must be a whole number from {minimum} to {maximum}, "
                         f"got {quote_value(value)}") from None


def _word(value: Any, where: str, allowed: tuple[str, ...], default: str | None = None) -> str:
    """One of the ``allowed`` words typed in a settings cell (any case, spaces around);
    blank is ``default``; anything else one short message naming the cell."""
    if (value is None or (isinstance(value, str) and not value.strip())) and default:
        return default
    word = value.strip().lower() if isinstance(value, str) else None
    if word not in allowed:
        raise InputError(f"{where} must be {' or '.join(allowed)}, got {quote_value(value)}")
    return word


def _layout_word(value: Any, where: str) -> str:
    return _word(value, where, ("roundrobin", "swiss"))
