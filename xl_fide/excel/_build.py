"""Building the workbooks: an empty template of a layout (round robin or Swiss) with
its Event, Tables and Help sheets, and the rating block as ``FIDE_*`` formulas or as the
spreadsheet's own functions (:mod:`xl_fide.excel._native`). Tables 8.1.1/8.1.2 and the
rule editions are written from the engine (FIDE B.02 §8.1, §8.3), never retyped."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import (
    Font,
    PatternFill,
)
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.pagebreak import Break

from xl_fide._version import __version__
from xl_fide.excel import _native as _native
from xl_fide.excel._fence import book_state, cells, put
from xl_fide.excel._shared import RowPlan
from xl_fide.excel._layout import (
    _CODES,
    _DATE_ARG,
    _EVENT_COMPUTED,
    _EVENT_INPUTS,
    _new_workbook,
    _GAME_CODES,
    _L,
    _PAIR_CODE_ORDER,
    _PAIRS,
    _ROUND_HELP,
    _SCORING_CODES,
    _TC_ARG,
    CONF,
    CROSS,
    EVENT,
    EVENT_ROW,
    GROUP_ROW,
    HEADER_ROW,
    HELP,
    PLAYER_COLS,
    SCORING_FIRST_ROW,
    SCORING_HEADER_ROW,
    TABLES,
    _abs,
    _agreeing_pairs,
    _apply,
    _style_cells,
    _check_size,
    _define,
    _event_ref,
    _Geometry,
    _group,
    _header,
    _k_formula,
    _long_event_formula,
    _note_cell,
    _native_layout,
    _page_setup,
    _pair_bad,
    _points_of,
    _text,
    _vl,
    _vocabulary,
    _write_pd_hundredths,
    key_rows,
    write_key,
)
from xl_fide.rules.editions import EDITIONS
from xl_fide.rules.results import VALIDATION_LIST
from xl_fide.rules.tables import dp_rows, pd_rows
from xl_fide.tournament import DEFAULT_SCORING


def build_template(layout: str, players: int, rounds: int | None = None, *,
                   formulas: str = "udf", planned: bool = False) -> Workbook:
    """An empty cross-table workbook: ``layout`` roundrobin or swiss, ``players`` rows.

    ``rounds``: the Swiss rounds (ignored for a round robin, which has players - 1).
    ``formulas``: ``udf`` (the rating block calls the FIDE_* functions) or ``native``
    (only functions built into Excel 2010+, LibreOffice and Google Sheets, see
    :mod:`xl_fide.excel._native`; same sheets, names and layout, helpers on a hidden sheet).
    ``planned``: keep the players' rows of the native helper sheet and the Swiss checks
    as a plan that :func:`~xl_fide.excel.save_workbook` makes into cells as it writes
    them (a 2,000-player book's memory, issue 32); the workbook must then be saved with
    it. By default every cell is an openpyxl cell (:func:`complete_cells`).
    Raises :class:`~xl_fide.errors.InputError` for a bad layout, size or ``formulas``.
    """
    if rounds is None or layout == "roundrobin":
        rounds = players - 1 if layout == "roundrobin" else 9
    _check_size(layout, players, rounds)
    geo = _Geometry(layout, players, rounds, _native.check_formulas(formulas))
    wb, ws = _new_workbook(CROSS)
    book_state(wb)["geo"] = geo               # for the cached values (save_workbook)
    ev = wb.create_sheet(EVENT)
    tables = wb.create_sheet(TABLES)
    helpws = wb.create_sheet(HELP)
    conf = wb.create_sheet(CONF)
    _build_event(wb, ev, geo)
    _build_tables(wb, tables)
    if layout == "roundrobin":
        _build_roundrobin(wb, ws, geo)
    else:
        _build_swiss(wb, ws, geo)
    if formulas == "native":
        _write_native(wb, geo)
    _build_help(helpws, geo)
    _text(conf, 1, 1, "UDF Modules")
    _text(conf, 1, 2, "xl_fide.udfs")
    conf.column_dimensions["A"].width = 16
    conf.column_dimensions["B"].width = 16
    conf.sheet_state = "hidden"          # read by xlwings, never printed with the workbook
    _paginate(ws, geo)
    wb.active = 0
    return wb if planned else complete_cells(wb)


def complete_cells(wb: Workbook) -> Workbook:
    """``wb`` (from :func:`build_template` or :func:`~xl_fide.excel.fill_workbook` with
    ``planned=True``) with every cell an openpyxl cell, and ``wb`` returned: the rows
    held as a plan (the native helper sheet's players' rows, the Swiss checks) made
    into cells, for a caller that reads them or saves the workbook another way
    (xlwings Lite's copy, openpyxl's own ``save``). :func:`~xl_fide.excel.save_workbook`
    writes the same file either way."""
    plans = book_state(wb).pop("plans", {})
    for title, plan in plans.items():
        ws = wb[title]
        for r in range(plan.first, plan.last + 1):
            for c, value, _ in plan.row(r):
                ws.cell(row=r, column=c).value = value
    return wb


#: A4 landscape at 100 % between the cross-table's side margins of 0.25":
#: 297 mm - 2 x 6.35 mm = 284.3 mm, in pixels at 96 per inch (the unit of column widths
#: below).
PAGE_PX = 1074
#: The page width in pixels at 100 % by orientation (portrait: 210 mm - 2 x 6.35 mm).
PAGE_WIDTH_PX = {"landscape": PAGE_PX, "portrait": 745}
#: The page height in points at 100 % between the top and bottom margins of 0.5"
#: (A4: 595 x 842 pt).
PAGE_HEIGHT_PT = {"landscape": 595 - 72, "portrait": 842 - 72}
#: A row one line high as printed, in points at 100 %: Excel's 15, LibreOffice's (DejaVu
#: Sans 11 pt, measured on its PDF: 50 rows and the two title rows fill a landscape page
#: at 65 %) 15.1; a little more, so that no engine starts a page the count missed.
ROW_PT = 15.2
#: One character of column width, in pixels, as the widest engine draws it: Excel 7 px,
#: LibreOffice 6.95 pt = 9.3 px (measured on its PDF); the wider one, so that neither
#: engine adds a page break of its own inside a round.
CHAR_PX = 9.3
#: The cross-table prints at this scale (per cent) or more: its 11 pt text at 7.15 pt
#: (issue 34: a readable size is 7 pt or more). A sheet narrow enough is printed one page
#: wide (the engine's scale, never under this one), a wider one at this scale with column
#: breaks between rounds.
PRINT_SCALE = 65
ONE_PAGE_SCALE = PRINT_SCALE / 100
_TITLE_COLS = 3                          # No, Title, Name: repeated on every page
_BOLD_CHAR_PX = 10                       # a bold header character, generously


def column_px(ws: Any, col: int, char_px: float = CHAR_PX) -> int:
    """Width of column ``col`` in pixels (``char_px`` per character plus 5 px of
    padding); 0 when hidden."""
    dims = ws.column_dimensions
    dim = dims.get(_L(col))
    if dim is None or dim.min and dim.max and not dim.min <= col <= dim.max:
        # inside a group (openpyxl keeps one dimension per min..max range, keyed by
        # its first column); read without creating a default entry
        dim = next((d for d in dims.values() if d.min and d.max and d.min <= col <= d.max),
                   None)
    if dim is None:
        return int(8.43 * char_px + 5)
    if dim.hidden:
        return 0
    return int((dim.width or 8.43) * char_px + 5)


def print_units(geo: _Geometry) -> list[tuple[int, int]]:
    """The column ranges a printed page never splits, left to right after the title
    columns: the rest of the players block, each round (Swiss: Opp, Col, Res) or each
    opponent's column (round robin), the standings, the rating block."""
    st = geo.standings
    units = [(_TITLE_COLS + 1, len(PLAYER_COLS))]
    if geo.layout == "swiss":
        units += [(geo.round_col(r, "opp"), geo.round_col(r, "res"))
                  for r in range(1, geo.rounds + 1)]
    else:
        units += [(c, c) for c in range(geo.block_first, geo.block_last + 1)]
    units += [(geo.col[st[0].key], geo.col[st[-1].key]),
              (geo.col[geo.rating_cols[0].key], geo.col[geo.rating_cols[-1].key])]
    return units


def page_room(ws: Any, orientation: str | None = None) -> float:
    """The pixels of columns a printed page holds right of the title columns, at
    :data:`PRINT_SCALE` in the widest engine (:data:`CHAR_PX`), the page in
    ``orientation`` (default: the sheet's)."""
    page = PAGE_WIDTH_PX[orientation or ws.page_setup.orientation or "landscape"]
    return page * 100 / PRINT_SCALE - sum(column_px(ws, c) for c in range(1, _TITLE_COLS + 1))


def pages_high(ws: Any, last_row: int, orientation: str) -> int:
    """How many pages rows 1 .. ``last_row`` print on at :data:`PRINT_SCALE`, the title
    rows repeated on each (a row :data:`ROW_PT` high unless given a height)."""
    def height(r: int) -> float:
        dim = ws.row_dimensions.get(r)       # (read without creating an entry)
        return dim.height if dim is not None and dim.height else ROW_PT

    room = (PAGE_HEIGHT_PT[orientation] * 100 / PRINT_SCALE
            - height(GROUP_ROW) - height(HEADER_ROW))
    pages, used = 1, 0.0
    for r in range(1, last_row + 1):
        if r in (GROUP_ROW, HEADER_ROW):
            continue
        if used and used + height(r) > room:
            pages, used = pages + 1, 0.0
        used += height(r)
    return pages


Units = Sequence[tuple[int, int]]


def _cuts(ws: Any, geo: _Geometry, extra: Units | Callable[[float], Units],
          room: float) -> list[int]:
    """The first column of each page after the first, the units packed left to right
    into pages of ``room`` pixels (``extra`` the units right of the rating block, or
    their function of the room)."""
    units = print_units(geo) + list(extra(room) if callable(extra) else extra)
    grid = (geo.block_first, geo.block_last)
    if geo.layout == "roundrobin" and sum(
            column_px(ws, c) for c in range(grid[0], grid[1] + 1)) <= room:
        units = [u for u in units if not grid[0] <= u[0] <= grid[1]]   # the grid whole
        units.insert(1, grid)
    cuts, used = [], 0
    for first, last in units:
        w = sum(column_px(ws, c) for c in range(first, last + 1))
        if used and used + w > room:
            cuts.append(first)
            used = 0
        used += w
    return cuts


def _paginate(ws: Any, geo: _Geometry, extra: Units | Callable[[float], Units] = (),
              last_col: int = 0) -> None:
    """Paper: a cross-table that fits one page wide at :data:`PRINT_SCALE` or more in the
    widest engine (LibreOffice's font, :data:`CHAR_PX`) is printed one page wide; a wider
    one at :data:`PRINT_SCALE` with column breaks between rounds (never inside a round,
    the standings or the rating block), the title columns and rows repeated: 11 pt text
    is never printed under 7 pt (issue 34). It is printed landscape or portrait,
    whichever takes fewer pages (landscape on a tie): a 137-player event over two months
    on 5 x 2 portrait pages rather than 4 x 3 landscape ones, a 130-player Swiss in one
    period on 2 x 3 landscape pages. The round robin's group header is written once per
    page, so no header is cut by a page edge. ``extra``: units right of ``geo.last_col``
    up to ``last_col`` (the month blocks, :mod:`._months`), or their function of the
    page's room."""
    width = sum(column_px(ws, c) for c in range(1, (last_col or geo.last_col) + 1))
    starts = [geo.block_first]
    if width * ONE_PAGE_SCALE <= PAGE_PX:
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.page_setup.scale = None
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    else:
        ws.page_setup.scale = PRINT_SCALE
        ws.sheet_properties.pageSetUpPr.fitToPage = False
        last_row = key_rows(geo)[1]
        options = []
        for orientation in ("landscape", "portrait"):
            cuts = _cuts(ws, geo, extra, page_room(ws, orientation))
            options.append(((len(cuts) + 1) * pages_high(ws, last_row, orientation),
                            orientation, cuts))
        _, orientation, cuts = min(options, key=lambda o: o[0])    # landscape on a tie
        ws.page_setup.orientation = orientation
        for first in cuts:
            ws.col_breaks.append(Break(id=first - 1))   # a break after column first - 1
        starts += cuts
    if geo.layout == "roundrobin":                 # the grid's header, once per page
        g1, g2 = geo.block_first, geo.block_last
        title = str(ws.cell(GROUP_ROW, g1).value)
        ws.unmerge_cells(start_row=GROUP_ROW, start_column=g1, end_row=GROUP_ROW,
                         end_column=g2)
        edges = sorted({c for c in starts if g1 < c <= g2} | {g1, g2 + 1})
        for a, b in zip(edges, edges[1:]):
            px = sum(column_px(ws, c) for c in range(a, b))
            fits = [t for t in (title, "Results (row vs column)", "Results", "")
                    if len(t) * _BOLD_CHAR_PX <= px]
            _group(ws, a, b - 1, fits[0])


def _build_event(wb: Workbook, ws: Any, geo: _Geometry) -> None:
    _text(ws, 1, 1, "Event", "title")
    _text(ws, 2, 1, "Fill in the white cells. The date and time control choose the FIDE rules "
          "used by every formula of the Crosstable sheet.", "subtitle")
    for key, label, name, style, note in _EVENT_INPUTS + _EVENT_COMPUTED:
        r = EVENT_ROW[key]
        _text(ws, r, 1, label, "label")
        _apply(ws.cell(r, 2), style)
        _text(ws, r, 3, note, "subtitle")
        _define(wb, name, EVENT, f"$B${r}")
    ws.cell(EVENT_ROW["tc"], 2).value = "standard"
    ws.cell(EVENT_ROW["rounds"], 2).value = geo.rounds
    first_computed = EVENT_ROW[_EVENT_COMPUTED[0][0]]
    _text(ws, first_computed - 1, 1, "Computed (do not edit)", "label")
    start, tc = f"$B${EVENT_ROW['start']}", f"$B${EVENT_ROW['tc']}"
    d, t = f"$B${EVENT_ROW['date_arg']}", f"$B${EVENT_ROW['tc_arg']}"
    rules = f"$B${EVENT_ROW['rules_date']}"
    ws[d.replace("$", "")] = f'=IF(ISNUMBER({rules}),{rules},IF(ISNUMBER({start}),{start},""))'
    ws[t.replace("$", "")] = f'=IF(TRIM({tc})="","standard",LOWER(TRIM({tc})))'
    ed = f"B{EVENT_ROW['edition']}"
    ws[ed] = ArrayFormula(
        ed, f"=IF(ISNUMBER({d}),IFERROR(LOOKUP(2,1/((EditionTC={t})*(EditionFrom<={d})),"
            f"EditionId),INDEX(EditionId,MATCH({t},EditionTC,0))),"
            f"LOOKUP(2,1/(EditionTC={t}),EditionId))")
    ws[f"B{EVENT_ROW['version']}"] = "=FIDE_VERSION()"
    ws.cell(EVENT_ROW["layout"], 2).value = geo.layout
    ws.cell(EVENT_ROW["players"], 2).value = geo.n
    # scoring (TRF XXS / 162): points per result code in this event
    _text(ws, SCORING_HEADER_ROW, 1, "Scoring: points per result code (TRF XXS)", "label")
    for c, h in enumerate(("Code", "Points", "Meaning"), 1):
        _text(ws, SCORING_HEADER_ROW + 1, c, h, "head")
    for i, (code, meaning) in enumerate(_SCORING_CODES):
        r = SCORING_FIRST_ROW + i
        _text(ws, r, 1, code, "calc_code")
        _apply(ws.cell(r, 2, float(DEFAULT_SCORING[code])), "in_num")
        _text(ws, r, 3, meaning, "subtitle")
    last = SCORING_FIRST_ROW + len(_SCORING_CODES) - 1
    _define(wb, "Scoring", EVENT, _abs(1, SCORING_FIRST_ROW, 2, last))
    dv_tc = DataValidation(type="list", formula1='"standard,rapid,blitz"', allow_blank=True,
                           showInputMessage=True, promptTitle="Time control",
                           prompt="standard, rapid or blitz (FIDE rating list).")
    dv_tc.add(f"B{EVENT_ROW['tc']}")
    dv_date = DataValidation(type="date", operator="greaterThan", formula1="1",
                             allow_blank=True, showErrorMessage=True,
                             error="Enter a date, e.g. 2025-10-01.")
    dv_date.add(f"B{EVENT_ROW['start']}")
    dv_date.add(f"B{EVENT_ROW['end']}")
    dv_date.add(f"B{EVENT_ROW['rules_date']}")
    dv_pts = DataValidation(type="decimal", operator="between", formula1="0", formula2="10",
                            allow_blank=True)
    dv_pts.add(f"B{SCORING_FIRST_ROW}:B{last}")
    for dv in (dv_tc, dv_date, dv_pts):
        ws.add_data_validation(dv)
    ws.column_dimensions["A"].width = 36
    ws.column_dimensions["B"].width = 30
    ws.column_dimensions["C"].width = 70
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    ws.protection.formatRows = False
    _page_setup(ws, landscape=False)


def _build_tables(wb: Workbook, ws: Any, *, event_scoring: bool = True) -> None:
    """The Tables sheet (tables 8.1.1/8.1.2, the result entries, the rule editions).
    ``event_scoring``: the result entries' points come from the Event sheet's scoring
    (a cross-table); False writes the default points (a workbook with no Event sheet)."""
    _text(ws, 1, 1, "Tables written from the xl-fide engine (FIDE B.02 §8.1): do not edit", "title")
    # 8.1.2
    _text(ws, 3, 1, "Table 8.1.2: D → PD", "label")
    for c, h in enumerate(("D from", "D to", "PD higher", "PD lower"), 1):
        _text(ws, 4, c, h, "head")
    r = 5
    for low, high, H in pd_rows():
        _apply(ws.cell(r, 1, low), "val_int")
        if high is None:
            _text(ws, r, 2, "and above", "val_text")
        else:
            _apply(ws.cell(r, 2, high), "val_int")
        _apply(ws.cell(r, 3, H / 100), "val_2")
        _apply(ws.cell(r, 4, (100 - H) / 100), "val_2")
        r += 1
    _define(wb, "PDTable", TABLES, _abs(1, 5, 4, r - 1))
    _write_pd_hundredths(ws)
    # 8.1.1
    _text(ws, 3, 6, "Table 8.1.1: p → dp", "label")
    _text(ws, 4, 6, "p", "head")
    _text(ws, 4, 7, "dp", "head")
    r = 5
    for p, dp in dp_rows():
        _apply(ws.cell(r, 6, p / 100), "val_2")
        _apply(ws.cell(r, 7, dp), "val_int")
        r += 1
    _define(wb, "DPTable", TABLES, _abs(6, 5, 7, r - 1))
    # result vocabulary: what a result cell may hold (the engine's own vocabulary)
    _text(ws, 3, 9, "Result entries", "label")
    for c, h in enumerate(("Entry", "Score", "Rated", "TRF code", "Points"), 9):
        _text(ws, 4, c, h, "head")
    r = 5
    last_scoring = SCORING_FIRST_ROW + len(_SCORING_CODES) - 1
    scoring = f"{EVENT}!{_abs(1, SCORING_FIRST_ROW, 2, last_scoring)}"
    for entry, result in _vocabulary():
        _text(ws, r, 9, entry, "val_text")
        _apply(ws.cell(r, 10, result.half_points / 2), "val_1")
        _apply(ws.cell(r, 11, 1 if result.played else 0), "val_int")
        _text(ws, r, 12, result.code, "val_text")
        points = (f"=VLOOKUP(L{r},{scoring},2,FALSE)" if event_scoring
                  else float(DEFAULT_SCORING[result.code]))
        _apply(ws.cell(r, 13, points), "val_1")
        r += 1
    _define(wb, _CODES, TABLES, _abs(9, 5, 13, r - 1))
    # rule editions
    _text(ws, 3, 15, "Rule editions (FIDE B.02)", "label")
    for c, h in enumerate(("Edition", "In force from", "Time control", "Note"), 15):
        _text(ws, 4, c, h, "head")
    r = 5
    for e in EDITIONS:
        _text(ws, r, 15, e.id, "val_text")
        _apply(ws.cell(r, 16, e.in_force), "val_date")
        _text(ws, r, 17, e.time_control.value, "val_text")
        _text(ws, r, 18, e.note, "val_text")
        r += 1
    _define(wb, "EditionId", TABLES, _abs(15, 5, 15, r - 1))
    _define(wb, "EditionFrom", TABLES, _abs(16, 5, 16, r - 1))
    _define(wb, "EditionTC", TABLES, _abs(17, 5, 17, r - 1))
    # the pairs of TRF codes the two sides of one game may have (results.pair_problem)
    _text(ws, 3, 20, "Both sides of one game (TRF codes)", "label")
    for c, h in enumerate(("No", "Code", "", "Side A", "Side B", "Key"), 20):
        if h:
            _text(ws, 4, c, h, "head")
    for i, code in enumerate(_PAIR_CODE_ORDER):
        _apply(ws.cell(5 + i, 20, i + 1), "val_int")
        _text(ws, 5 + i, 21, code, "val_text")
    _define(wb, _GAME_CODES, TABLES, _abs(21, 5, 21, 4 + len(_PAIR_CODE_ORDER)))
    r = 5
    for a, b in _agreeing_pairs():
        _text(ws, r, 23, a, "val_text")
        _text(ws, r, 24, b, "val_text")
        key = (_PAIR_CODE_ORDER.index(a) + 1) * 100 + _PAIR_CODE_ORDER.index(b) + 1
        _apply(ws.cell(r, 25, key), "val_int")
        r += 1
    _define(wb, _PAIRS, TABLES, _abs(25, 5, 25, r - 1))
    # E: H x 100 (up to 100; at 3 wide it printed ###, issue 34)
    for col, width in zip("ABCDEFGHIJKLMNOPQRSTUVWXY", (8, 10, 10, 10, 7, 8, 8, 3, 11, 7, 7, 9,
                                                          8, 3, 28, 13, 12, 100, 3, 5, 7, 3,
                                                          7, 7, 7)):
        ws.column_dimensions[col].width = width
    ws.freeze_panes = "A5"
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    # a reference, printed on one page (the cross-table is what is pinned up, issue 34)
    _page_setup(ws, landscape=True, title_rows="4:4", one_page=True)


# table 8.1.2 as integer hundredths (column E of Tables) and table 8.1.1's dp column:
# what the native formulas look up (one table, written from xl_fide.rules.tables)

def _write_native(wb: Workbook, geo: _Geometry) -> None:
    """The rating block and the K rule column in native formulas (:mod:`xl_fide.excel._native`)
    instead of the FIDE_* array formulas; per-player and per-game helpers on a hidden
    sheet; the Event sheet's version cell as text (no FIDE_VERSION to call)."""
    ws = wb[CROSS]
    calc = wb.create_sheet(_native.CALC)
    lay = _native_layout(geo)
    rows = _native.row_template(lay)
    if rows is None:
        for sheet, r, c, value in _native.cells(lay):
            (ws if sheet == CROSS else calc).cell(r, c).value = value
    else:
        for sheet, r, c, value in _native.header_cells(lay):
            (ws if sheet == CROSS else calc).cell(r, c).value = value
        _native_rows(ws, calc, rows, lay.first, lay.last)
    calc.sheet_state = "hidden"
    calc.protection.sheet = True
    ws.cell(HEADER_ROW, geo.col["k_rule"]).comment = Comment(
        "K by FIDE B.02 §8.3.3 from Ro, Born, Games and Peak (a native formula).", "xl-fide",
        width=260, height=90)
    ev = wb[EVENT]
    _text(ev, EVENT_ROW["version"], 2, __version__)
    _text(ev, EVENT_ROW["version"], 3, "native formulas: no add-in needed", "subtitle")



def _native_rows(ws: Any, calc: Any, rows: _native.RowTemplate, first: int, last: int) -> None:
    """The players' rows ``first``..``last`` of :func:`_native.cells` from their template
    (:func:`_native.row_template`) set as ``cell.value = value`` sets them: a formula whose
    texts hold no character a sheet cannot hold and stay within a cell's 32,767
    characters, and an ``int``, get their value and data type directly; any other value
    goes through the setter. The ``Calc`` sheet's such cells are not made at all: they
    are its :class:`~xl_fide.excel._shared.RowPlan` (``book_state(wb)["plans"]``), made
    a row at a time as the sheet is saved."""
    longest = len(str(last))
    fast: list[tuple[Any, int, object, str | None]] = []
    planned: list[tuple[int, object, str]] = []
    for sheet, c, value in rows:
        target = ws if sheet == CROSS else calc
        kind: str | None = None
        if type(value) is tuple:
            if _set_as_formula(value, longest):
                kind = "f"
        elif type(value) is int:
            kind = "n"
        if target is calc and kind is not None:
            planned.append((c, value, kind))
        else:
            fast.append((target, c, value, kind))
    book_state(calc.parent).setdefault("plans", {})[calc.title] = RowPlan(first, last, planned)
    cross_cells = cells(ws)
    cell: Any
    for r in range(first, last + 1):
        number = str(r)
        for target, c, value, kind in fast:
            if type(value) is tuple:
                value = number.join(value)
            if kind is None:
                target.cell(r, c).value = value
                continue
            cell = cross_cells.get((r, c))
            if cell is None:
                cell = target.cell(r, c)
            put(cell, value, kind)


def _set_as_formula(pieces: Sequence[str], longest: int) -> bool:
    """Whether ``cell.value = number.join(pieces)``, for a row ``number`` of at most
    ``longest`` digits, stores that text as it is with data type ``f``: it starts with
    "=", holds no character a sheet cannot hold and stays within a cell's 32,767
    characters (openpyxl's setter would raise or cut it)."""
    text = "".join(pieces)
    return (bool(pieces) and pieces[0].startswith("=")
            and len(text) + longest * (len(pieces) - 1) <= 32767
            and not ILLEGAL_CHARACTERS_RE.search(text))


def _iso_date(d: str) -> str:
    """The date ``d`` as YYYY-MM-DD built from YEAR, MONTH and DAY: the same text in every
    engine and language (TEXT's format codes are read in the user's language)."""
    return (f'YEAR({d})&"-"&RIGHT("0"&MONTH({d}),2)&"-"&RIGHT("0"&DAY({d}),2)')


def _common_crosstable(wb: Workbook, ws: Any, geo: _Geometry, block_title: str) -> None:
    """Title, players block, standings and rating headers, K formulas, names, setup."""
    ev_name = _event_ref("name")
    ws["A1"] = f'=IF({ev_name}="","FIDE rating cross-table",{ev_name})'
    _apply(ws["A1"], "title")
    start = _event_ref("start")
    ws["A2"] = (f'="Rules "&{_event_ref("edition")}&"   ·   time control "&{_TC_ARG}'
                f'&"   ·   start "&IF(ISNUMBER({start}),{_iso_date(start)},"not given")'
                f'&"   ·   white cells are input, grey cells are computed"')
    _apply(ws["A2"], "subtitle")
    for spec in PLAYER_COLS:
        _header(ws, geo, geo.col[spec.key], spec)
    for spec in geo.standings:
        _header(ws, geo, geo.col[spec.key], spec)
    for spec in geo.rating_cols:
        _header(ws, geo, geo.col[spec.key], spec)
    _note_cell(ws, geo, tall=False).value = _long_event_formula()   # over 30 days: says so
    _group(ws, 1, len(PLAYER_COLS), "Players")
    if block_title:
        _group(ws, geo.block_first, geo.block_last, block_title)
    st = geo.standings
    _group(ws, geo.col[st[0].key], geo.col[st[-1].key], "Standings")
    _group(ws, geo.col[geo.rating_cols[0].key], geo.col[geo.rating_cols[-1].key],
           "Rating change (FIDE B.02 §8.3)")
    # players rows: styles
    styles = [(geo.col[s.key], s.style) for s in PLAYER_COLS + st + geo.rating_cols]
    for r in range(geo.first, geo.last + 1):
        _style_cells(ws, (r,), styles)
        ws.cell(r, geo.col["no"]).value = r - geo.first + 1
        ws.cell(r, geo.col["k"]).value = _k_formula(geo, r)
    # Ro used: ONE array formula over the column (FIDE_ADJUST_2024 is vectorised): the
    # typed Ro as the rules as on the Event sheet's date read it (issue 32 #3)
    used = geo.column("ro_used", absolute=False)
    ws[used.split(":")[0]] = ArrayFormula(
        used, f'=FIDE_ADJUST_2024({geo.column("ro")},{_event_ref("start")},{_DATE_ARG})')
    # K rule: ONE array formula over the column (FIDE_K is vectorised), from Ro used
    kr = geo.column("k_rule", absolute=False)
    ws[kr.split(":")[0]] = ArrayFormula(
        kr, f'=FIDE_K({geo.column("ro_used")},{geo.column("born")},{geo.column("games")},'
            f'{geo.column("peak")},"","",{_TC_ARG},{_DATE_ARG})')
    # defined names: one column each over the players' rows
    for spec in PLAYER_COLS + st + geo.rating_cols:
        if spec.name:
            _define(wb, spec.name, CROSS, geo.column(spec.key))
    # validations of the players block
    dvs = [
        (DataValidation(type="list", formula1='"GM,IM,FM,CM,WGM,WIM,WFM,WCM"', allow_blank=True,
                        errorStyle="warning", showErrorMessage=True,
                        error="Not a FIDE title: keep it anyway?"), ("title",)),
        (DataValidation(type="whole", operator="between", formula1="0", formula2="4000",
                        allow_blank=True, showErrorMessage=True, showInputMessage=True,
                        promptTitle="Rating", prompt="Whole number; blank = unrated.",
                        error="A rating is a whole number from 0 to 4000."), ("ro", "peak")),
        (DataValidation(type="whole", operator="between", formula1="1850", formula2="2200",
                        allow_blank=True, showErrorMessage=True,
                        error="A year of birth, e.g. 2009."), ("born",)),
        (DataValidation(type="whole", operator="greaterThanOrEqual", formula1="0",
                        allow_blank=True, showErrorMessage=True,
                        error="A whole number, 0 or more."), ("games", "fide_id")),
        (DataValidation(type="whole", operator="between", formula1="1", formula2="100",
                        allow_blank=True, showErrorMessage=True, showInputMessage=True,
                        promptTitle="K override", prompt="Leave blank to use K rule.",
                        error="K is a whole number from 1 to 100."), ("k_set",)),
    ]
    for dv, keys in dvs:
        for key in keys:
            dv.add(geo.column(key, absolute=False).replace("$", ""))
        ws.add_data_validation(dv)
    # conditional colours: check column
    check = geo.column("check", absolute=False)
    ws.conditional_formatting.add(check, FormulaRule(
        formula=[f"{_native.number_or_zero(geo.cell('check', geo.first))}>0"],
        fill=PatternFill("solid", bgColor="FFC7CE"), stopIfTrue=True))
    # sheet setup
    ws.freeze_panes = ws.cell(geo.first, geo.col["fed"])
    ws.row_dimensions[HEADER_ROW].height = 30
    ws.sheet_view.zoomScale = 90
    write_key(ws, geo)                    # the key of NP 3g ..., printed once
    ws.print_area = f"A1:{_L(geo.last_col)}{key_rows(geo)[1]}"
    _page_setup(ws, landscape=True, title_rows=f"{GROUP_ROW}:{HEADER_ROW}", title_cols="A:C",
                fit_width=False)
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    ws.protection.formatRows = False



def _result_colours(ws: Any, sqref: str, top_left: str) -> None:
    """Win green, draw yellow, loss red (after the mismatch rule)."""
    for score, colour in (("1", "C6EFCE"), ("0.5", "FFEB9C"), ("0", "F8CBAD")):
        ws.conditional_formatting.add(sqref, FormulaRule(
            formula=[f'AND({top_left}<>"",IFERROR({_vl(top_left, 2)}={score},FALSE))'],
            fill=PatternFill("solid", bgColor=colour)))


def _build_roundrobin(wb: Workbook, ws: Any, geo: _Geometry) -> None:
    _common_crosstable(wb, ws, geo, "Results (row vs column)" if geo.n < 10 else
                       "Results (row player against column player)")
    n, f, last = geo.n, geo.first, geo.last
    g1, g2 = geo.block_first, geo.block_last
    for j in range(1, n + 1):
        c = geo.grid_col(j)
        _text(ws, HEADER_ROW, c, j, "head")
        ws.column_dimensions[_L(c)].width = 3.4     # "½", "1F", a bold "12"
    grid_abs = _abs(g1, f, g2, last)
    pts, sb = geo.column("pts"), geo.column("sb")
    for i in range(1, n + 1):
        r = f + i - 1
        _style_cells(ws, (r,), [(geo.grid_col(j), "diag" if i == j else "in_res")
                                for j in range(1, n + 1)])
        row = f"{_L(g1)}{r}:{_L(g2)}{r}"
        mine = f"TRANSPOSE({_abs(geo.grid_col(i), f, geo.grid_col(i), last)})"
        name = geo.cell("name", r)
        p, s = geo.cell("pts", r), geo.cell("sb", r)
        ws[p] = ArrayFormula(p, f'=IF({name}="","",{_points_of(row)})')
        ws[s] = ArrayFormula(
            s, f'=IF({name}="","",SUM(IF({row}<>"",IFERROR({_vl(row, 2)},0),0)'
               f'*IF(ISNUMBER(TRANSPOSE({pts})),TRANSPOSE({pts}),0)))')
        ws[geo.cell("rank", r)] = (
            f'=IF({p}="","",1+COUNTIF({pts},">"&{p})+COUNTIFS({pts},{p},{sb},">"&{s}))')
        chk = geo.cell("check", r)
        ws[chk] = ArrayFormula(chk, f"=SUM({_pair_bad(row, mine)})")
    # the rating block: ONE array formula
    rb = f"{_L(geo.col['n'])}{f}:{_L(geo.col['rc'])}{last}"
    ws[rb.split(":")[0]] = ArrayFormula(
        rb, f"=FIDE_EVENT({geo.column('ro_used')},{geo.column('k')},{grid_abs},{_TC_ARG},{_DATE_ARG},"
            f'"short")')
    _define(wb, "Results", CROSS, grid_abs)
    # validation and colours of the grid
    grid = f"{_L(g1)}{f}:{_L(g2)}{last}"
    dv = DataValidation(type="list", formula1='"' + ",".join(VALIDATION_LIST) + '"',
                        allow_blank=True, errorStyle="warning", showErrorMessage=True,
                        showInputMessage=True, promptTitle="Result",
                        prompt="Row player's result against the column player: 1 win, ½ draw, "
                               "0 loss; + / - forfeit (points, not rated). Also accepted: "
                               "0.5, 1-0, 0-1, ½-½. Enter both sides of every game.",
                        errorTitle="Result", error="Not in the list: keep it anyway?")
    dv.add(grid)
    ws.add_data_validation(dv)
    tl = f"{_L(g1)}{f}"
    mirror = (f"INDEX({grid_abs},COLUMN({tl})-COLUMN(${_L(g1)}${f})+1,"
              f"ROW({tl})-ROW(${_L(g1)}${f})+1)")
    ws.conditional_formatting.add(grid, FormulaRule(
        formula=[f"{_pair_bad(tl, mirror)}=1"], fill=PatternFill("solid", bgColor="FF0000"),
        font=Font(bold=True, color="FFFFFF"), stopIfTrue=True))
    _result_colours(ws, grid, tl)


def _build_swiss(wb: Workbook, ws: Any, geo: _Geometry) -> None:
    _common_crosstable(wb, ws, geo, "")
    f, last, R = geo.first, geo.last, geo.rounds
    for rnd in range(1, R + 1):
        c0 = geo.round_col(rnd, "opp")
        _group(ws, c0, c0 + 2, f"Round {rnd}")
        for part, head, width in (("opp", "Opp", 4.6), ("col", "Col", 3.4), ("res", "Res", 4)):
            c = geo.round_col(rnd, part)
            cell = _text(ws, HEADER_ROW, c, head, "head")
            if rnd == 1:
                cell.comment = Comment(_ROUND_HELP[part], "xl-fide", width=260, height=70)
            ws.column_dimensions[_L(c)].width = width
    for rnd in range(1, R + 1):
        cell = _text(ws, HEADER_ROW, geo.check_col(rnd), f"R{rnd} check", "head")
        if rnd == 1:
            cell.comment = Comment("Hidden helper columns: 1 when this round of the row does "
                                   "not match the opponent's row. Check = their sum.",
                                   "xl-fide", width=260, height=70)
    ws.column_dimensions.group(_L(geo.check_first), _L(geo.check_last), hidden=True)
    parts = [(geo.round_col(rnd, part), style) for rnd in range(1, R + 1)
             for part, style in (("opp", "in_int"), ("col", "in_code"), ("res", "in_res"))]
    _style_cells(ws, range(f, last + 1), parts)
    pts = geo.column("pts")
    heads = _abs(geo.block_first, HEADER_ROW, geo.block_last, HEADER_ROW)
    no = geo.col["no"]
    mask = f'{heads}="Res"'
    checks = [geo.check_col(rnd) for rnd in range(1, R + 1)]
    _style_cells(ws, range(f, last + 1), [(c, "calc_int") for c in checks])
    # each round's check formula made once, the row put in per row (30,000 at 2,000 x 15)
    terms = [("=" + _swiss_term(geo, rnd, _ROW, no)).split(_ROW) for rnd in range(1, R + 1)]
    direct = all(_set_as_formula(pieces, len(str(last))) for pieces in terms)
    if direct:      # held as the sheet's row plan (made as it is saved), not as texts
        book_state(wb).setdefault("plans", {})[ws.title] = RowPlan(
            f, last, [(c, tuple(pieces), "f") for c, pieces in zip(checks, terms)])
    held = cells(ws)
    for r in range(f, last + 1):
        block = f"{_L(geo.block_first)}{r}:{_L(geo.block_last)}{r}"
        name = geo.cell("name", r)
        p = geo.cell("pts", r)
        ws[p] = ArrayFormula(p, f'=IF({name}="","",{_points_of(block, mask)})')
        ws[geo.cell("rank", r)] = f'=IF({p}="","",1+COUNTIF({pts},">"&{p}))'
        if not direct:
            row = str(r)
            for c, pieces in zip(checks, terms):
                held[(r, c)].value = row.join(pieces)
        ws[geo.cell("check", r)] = (f"=SUM({_L(geo.check_first)}{r}:"
                                    f"{_L(geo.check_last)}{r})")
    opps = [_abs(geo.round_col(k, "opp"), f, geo.round_col(k, "opp"), last) for k in range(1, R + 1)]
    ress = [_abs(geo.round_col(k, "res"), f, geo.round_col(k, "res"), last) for k in range(1, R + 1)]
    rb = f"{_L(geo.col['n'])}{f}:{_L(geo.col['rc'])}{last}"
    ws[rb.split(":")[0]] = ArrayFormula(
        rb, f"=FIDE_EVENT_SWISS({geo.column('ro_used')},{geo.column('k')},{_choose(opps)},"
            f'{_choose(ress)},{_TC_ARG},{_DATE_ARG},"short")')
    # validations
    opp_ranges = " ".join(f"{_L(geo.round_col(k, 'opp'))}{f}:{_L(geo.round_col(k, 'opp'))}{last}"
                          for k in range(1, R + 1))
    col_ranges = " ".join(f"{_L(geo.round_col(k, 'col'))}{f}:{_L(geo.round_col(k, 'col'))}{last}"
                          for k in range(1, R + 1))
    res_ranges = " ".join(f"{_L(geo.round_col(k, 'res'))}{f}:{_L(geo.round_col(k, 'res'))}{last}"
                          for k in range(1, R + 1))
    dv_opp = DataValidation(type="whole", operator="between", formula1="1", formula2=str(geo.n),
                            allow_blank=True, showErrorMessage=True, showInputMessage=True,
                            promptTitle="Opponent", prompt=_ROUND_HELP["opp"],
                            error=f"An opponent is a player's number from 1 to {geo.n}.")
    dv_col = DataValidation(type="list", formula1='"w,b"', allow_blank=True,
                            showErrorMessage=True, error="w or b")
    dv_res = DataValidation(type="list",
                            formula1='"' + ",".join(VALIDATION_LIST + ("H", "F", "U", "Z")) + '"',
                            allow_blank=True, errorStyle="warning", showErrorMessage=True,
                            showInputMessage=True, promptTitle="Result",
                            prompt=_ROUND_HELP["res"] + " Also accepted: 0.5, 1-0, 0-1, ½-½.",
                            errorTitle="Result", error="Not in the list: keep it anyway?")
    for dv, ranges in ((dv_opp, opp_ranges), (dv_col, col_ranges), (dv_res, res_ranges)):
        for rng in ranges.split():
            dv.add(rng)
        ws.add_data_validation(dv)
    ws.conditional_formatting.add(opp_ranges, FormulaRule(
        formula=[f"{_swiss_term(geo, 1, f, no)}=1"],
        fill=PatternFill("solid", bgColor="FF0000"), font=Font(bold=True, color="FFFFFF")))
    _result_colours(ws, res_ranges, f"{_L(geo.round_col(1, 'res'))}{f}")


def _choose(ranges: Sequence[str]) -> str:
    if len(ranges) == 1:
        return ranges[0]
    return "CHOOSE({" + ",".join(str(k) for k in range(1, len(ranges) + 1)) + "}," + ",".join(
        ranges) + ")"


_ROW = "\0"      # stands for the row number in a formula made once for every row


def _swiss_term(geo: _Geometry, rnd: int, r: int | str, no: int) -> str:
    """1 when round ``rnd`` of row ``r`` disagrees with the opponent's row, else 0: the
    opponent's opponent must be this row, the colours differ, the results agree.
    ``r``: the row number, or :data:`_ROW` to be replaced by it."""
    oc, cc, rc = (geo.round_col(rnd, p) for p in ("opp", "col", "res"))
    opp, col, res = f"{_L(oc)}{r}", f"{_L(cc)}{r}", f"{_L(rc)}{r}"

    def of_opponent(c: int) -> str:
        return f"INDEX({_L(c)}${geo.first}:{_L(c)}${geo.last},{opp})"

    me = f"${_L(no)}{r}"
    same_colour = f'AND(OR({col}="w",{col}="b"),{of_opponent(cc)}={col})'
    return (f'IF({opp}="",0,IFERROR(IF({of_opponent(oc)}<>{me},1,IF({same_colour},1,'
            f'{_pair_bad(res, of_opponent(rc))})),1))')


_NATIVE_HELP: tuple[tuple[str, str], ...] = (
    ("text", "This workbook computes every player's FIDE rating change (FIDE Handbook B.02, "
             "Rating Regulations) with the spreadsheet's own functions: it works in Excel "
             "2010 or later, LibreOffice Calc and Google Sheets with nothing installed. Fill in "
             "the Event sheet, then the white cells of the Crosstable sheet. Grey cells are "
             "computed; the sheets are protected without a password (Review > Unprotect Sheet) "
             "so formulas are not overwritten by mistake."),
    ("label", "How the rating block is computed"),
    ("text", "A hidden sheet, Calc, holds per game the opponent's rating, the score in half "
             "points and PD in hundredths (table 8.1.2 of the Tables sheet, with the 400-point "
             "rule of the player and the 2650 exemption where the rules have it), and per "
             "player the sums. Everything is whole numbers of hundredths, divided once for "
             "display; the change is rounded .5 away from zero by an integer formula (FIDE "
             "B.02 §8.3.4). The Event sheet's start date and time control choose the rules "
             "(FIDE B.02 §8.3). Events of 1 Jan 2022 - 29 Feb 2024 (400-point rule in one game "
             "per event) cannot be rated by these formulas: the Ru column says so; use a "
             "workbook with the xl-fide functions (xl-fide crosstable --formulas udf). Only "
             "games played over the board (1 ½ 0) against rated opponents are rated; "
             "forfeits (+ -) and byes count as points only. The event is taken as the player's "
             "rating period: K × n ≤ 700 and one rounding."),
)


def _build_help(ws: Any, geo: _Geometry) -> None:
    lines: list[tuple[str, str]] = [
        ("title", "xl-fide: FIDE rating cross-table"),
        ("text", "This workbook computes every player's FIDE rating change (FIDE Handbook B.02, "
                 "Rating Regulations) with the xl-fide functions FIDE_K, FIDE_EVENT and "
                 "FIDE_EVENT_SWISS. Fill in the Event sheet, then the white cells of the "
                 "Crosstable sheet. Grey cells are computed; the sheets are protected without a "
                 "password (Review > Unprotect Sheet) so formulas are not overwritten by mistake."),
        ("label", "Turning the functions on: Excel on Windows (xlwings add-in)"),
        ("text", "1. Install Python, then in a terminal, in the xl-fide folder: pip install .   "
                 "and then   xlwings addin install"),
        ("text", "2. Open this workbook. Its hidden sheet 'xlwings.conf' (right-click a sheet tab, "
                 "Unhide) already says UDF Modules = "
                 "xl_fide.udfs."),
        ("text", "3. On the xlwings ribbon tab click 'Import Functions', then save the file as "
                 "an .xlsm workbook (Excel Macro-Enabled Workbook)."),
        ("text", "4. In the VBA editor (Alt+F11): Tools > References, tick xlwings. Then press "
                 "Ctrl+Alt+F9. Cells that showed #NAME? now compute. If they still show #NAME?, "
                 "macros are blocked or Import Functions was not run; 'xl-fide doctor' checks "
                 "the set-up."),
        ("label", "Turning the functions on: xlwings Lite (Excel on the web, macOS, Windows)"),
        ("text", "1. Home > Add-ins: add 'xlwings Lite'. 2. In its editor, requirements.txt: "
                 "xlwings>=0.36.7 and the URL of the xl-fide wheel (pip wheel . -w dist builds "
                 "it); restart. 3. main.py:  from xl_fide.udfs import *  and  from "
                 "xl_fide.lite import *  . 4. Review > Unprotect Sheet (Crosstable, Event), run "
                 "the script fide_bind_formulas (formulas already in the file stay #NAME? in "
                 "Lite until written again), protect the sheets again."),
        ("label", "Without the add-in"),
        ("text", "The functions show #NAME?. A workbook filled by 'xl-fide crosstable' has a "
                 "Report sheet with the values computed by xl-fide when the file was written."),
        ("label", "How the rating block is computed"),
        ("text", "One array formula computes the whole rating block (FIDE_EVENT for a round "
                 "robin, FIDE_EVENT_SWISS for a Swiss) and one computes the K rule column "
                 "(FIDE_K): a recalculation costs a few function calls, whatever the number of "
                 "games. The Event sheet's start date and time control are passed to them, so the "
                 "rules in force when the event started apply (FIDE B.02 §8.3). Only games played "
                 "over the board (1 ½ 0) against rated opponents are rated; forfeits (+ -) and "
                 "byes count as points only. The event is taken as the player's rating period: "
                 "K × n ≤ 700 and one rounding."),
        ("label", "Results"),
        ("text", "1 win, ½ draw, 0 loss (also =, 0.5, 1-0, 0-1, ½-½), + forfeit win, - forfeit "
                 "loss; in a Swiss byes H (½ point), F and U (1), Z (0). Enter both sides of every "
                 "game; the Check column and red cells show results that do not match. "
                 + ("Round robin: row i, column j holds player i's result against player j."
                    if geo.layout == "roundrobin" else
                    "Swiss: per round the opponent's number (No), colour (w/b) and result.")),
        ("label", "Columns"),
    ]
    if geo.formulas == "native":
        lines = [lines[0], *_NATIVE_HELP, *lines[-3:]]
    for spec in PLAYER_COLS + geo.standings + geo.rating_cols:
        text = f"{spec.header}: {spec.help}" + (f"  [name {spec.name}]" if spec.name else "")
        if geo.formulas == "native":
            text = text.replace("(one FIDE_K array formula)", "(a native formula)")
        lines.append(("text", text))
    lines.append(("label", "Defined names"))
    lines.append(("text", "Each column above has a defined name covering the players' rows "
                          "(e.g. Rating, KFactor, Change, NewRating), for formulas and other tools."))
    for i, (style, text) in enumerate(lines, 1):
        _text(ws, i, 1, text, style)
    ws.column_dimensions["A"].width = 80
    _page_setup(ws, landscape=False, one_page=True)


# ================================================================================== fill

