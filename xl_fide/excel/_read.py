"""Reading a cross-table workbook back: budgets checked from the zip directory before
openpyxl, the Event sheet, the players block and every round (a round robin's grid or a
Swiss pairing table), each game checked from both sides (:func:`~xl_fide.rules.results.pair_problem`);
errors name the sheet and cell."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import operator
import os
import zipfile
import zlib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Sequence

from openpyxl import load_workbook
from openpyxl.utils.cell import coordinate_to_tuple
from openpyxl.worksheet.formula import ArrayFormula

from xl_fide._dates import parse_date_text
from xl_fide.errors import InputError, WorkbookError, XlFideError
from xl_fide.excel import _native as _native
from xl_fide.excel._fence import cells_in_memory, raw
from xl_fide.excel._layout import (
    _EVENT_COMPUTED,
    _EVENT_INPUTS,
    _L,
    _SCORING_CODES,
    _TOURNAMENT_FIELDS,
    CROSS,
    EVENT,
    EVENT_ROW,
    FIRST_ROW,
    HEADER_ROW,
    LAYOUTS,
    MAX_PLAYERS,
    MAX_ROUND_ROBIN,
    MAX_ROUNDS,
    PLAYER_COLS,
    RATING_COLS,
    SCORING_FIRST_ROW,
    STANDING_COLS,
    USED_COLS,
    _Geometry,
    _k_formula,
)
from xl_fide.excel._months import MONTH_COLS, month_col
from xl_fide.excel._roundtrip import (
    _merge,
    _original,
    _original_tournament,
    _pristine,
    _Read,
    _unedited,
)
from xl_fide.lists._model import PlayerData
from xl_fide.rules import results as _results
from xl_fide.rules.editions import guess_time_control
from xl_fide.rules.results import parse_result
from xl_fide.rules.values import (
    _INT_BOUND, FIDE_ID_MAX, RATING_MAX, RATING_MIN, as_int, quote_value, sheet_rating,
)
from xl_fide.trf import _read_game
from xl_fide.tournament import DEFAULT_SCORING, Game, Tournament, TrfPlayer, TrfWarning


def _where(sheet: str, row: int, col: int) -> str:
    return f"{sheet}!{_L(col)}{row}"


def _whole(value: Any, sheet: str, row: int, col: int, what: str,
           minimum: int | None = None, maximum: int | None = None) -> int | None:
    if (type(value) is int and (minimum is None or minimum <= value)
            and (maximum is None or value <= maximum) and -_INT_BOUND < value < _INT_BOUND):
        return value            # a plain int in range: what as_int gives, without a call
    value = _resolved(value)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return as_int(value, what, minimum=minimum, maximum=maximum)
    except InputError:
        limits = ""
        if minimum is not None and maximum is not None:
            limits = f" from {minimum} to {maximum}"
        raise WorkbookError(f"{_where(sheet, row, col)}: {what} must be a whole number{limits}, "
                            f"got {quote_value(value)}") from None


def _rating(value: Any, sheet: str, row: int, col: int) -> int | None:
    """A typed Ro as the sheet's Ro used column reads it (:func:`sheet_rating`: a
    number, or text of digits only), else :class:`WorkbookError` naming the cell."""
    if type(value) is int and RATING_MIN <= value <= RATING_MAX:
        return value
    try:
        return sheet_rating(_resolved(value), "rating Ro")
    except InputError:
        raise WorkbookError(f"{_where(sheet, row, col)}: rating Ro must be a whole number "
                            f"from {RATING_MIN} to {RATING_MAX} (typed as text: digits only, "
                            f"e.g. 1850), got {quote_value(value)}") from None


def _typed_number(value: Any, read: int | None, sheet: str, row: int, col: int,
                  what: str) -> int | None:
    """``read`` (the whole number :func:`_whole` read from ``value``), unless ``value``
    is text: the sheet's formulas take no text in this cell (K set, Born, Games, Peak, a
    round's opponent), so the sheet would not see the number report reads; then
    :class:`WorkbookError` naming the cell."""
    if read is not None and isinstance(value, str):
        raise WorkbookError(f"{_where(sheet, row, col)}: {what} typed as text "
                            f"({quote_value(value)}): the sheet's formulas do not read it; "
                            "type it as a number")
    return read


def _str(value: Any) -> str:
    if type(value) is str:      # a plain text: itself, stripped
        return value.strip()
    value = _resolved(value)
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def _date_value(value: Any, sheet: str, row: int, what: str) -> _dt.date | None:
    value = _resolved(value)
    if value is None or value == "":
        return None
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str):
        if not value.strip():
            return None
        found, _ = parse_date_text(value)         # the TRF formats: 2025/11/15, 15/11/2025
        if found is not None:
            # the sheet's formulas see no date in a text cell (ISNUMBER): they would rate
            # by today's rules while this reading rated by the date's (issue 22 #5)
            raise WorkbookError(f"{_where(sheet, row, 2)}: {what} {quote_value(value)} is "
                                "text, which the sheet's formulas do not take for a date: "
                                "type it as a date (or clear the cell)")
        raise WorkbookError(f"{_where(sheet, row, 2)}: {what} must be a date like 2025-11-15, "
                            f"got {quote_value(value)}")
    raise WorkbookError(f"{_where(sheet, row, 2)}: {what} must be a date, got {quote_value(value)}")


class _Unsaved:
    """An input cell holding a formula whose result the file does not store: the cell
    ``sheet``, ``row``, ``col`` (1-based), named as :attr:`where` when it is used."""

    __slots__ = ("sheet", "row", "col")

    def __init__(self, sheet: str, row: int, col: int) -> None:
        self.sheet, self.row, self.col = sheet, row, col

    @property
    def where(self) -> str:
        return _where(self.sheet, self.row, self.col)


def _resolved(value: Any) -> Any:
    if isinstance(value, _Unsaved):
        raise WorkbookError(f"{value.where}: a formula whose result is not saved in the file; "
                            "open and save the workbook in Excel, or type the value")
    return value


def _rows(ws: Any, max_row: int, max_col: int, ws_values: Any = None,
          formula_text: dict[tuple[int, int], str] | None = None,
          arrays: list[str] | None = None) -> list[list[Any]]:
    """The cells of ``ws`` as rows of values; a formula is replaced by its saved result
    (from ``ws_values``, the same sheet read with ``data_only=True``), or by an
    :class:`_Unsaved` marker that raises when the cell is used. ``formula_text`` gets
    each formula's text by (row, column) 0-based, ``arrays`` each array formula's range
    ("AK5:AK141": its other cells hold results, not typed values)."""

    def grid(sheet: Any, unsaved: str | None = None, arrays: list[str] | None = None,
             ) -> tuple[list[list[Any]], set[tuple[int, int]]]:
        if cells_in_memory(sheet) is not None:
            return _grid_in_memory(sheet, max_row, max_col, formula_text, unsaved, arrays)
        rows, formulas = [], set()
        for r, cells in enumerate(sheet.iter_rows(min_row=1, max_row=max_row, max_col=max_col)):
            row = []
            for c, cell in enumerate(cells):
                value = cell.value
                if cell.data_type == "f" or isinstance(value, ArrayFormula):
                    formulas.add((r, c))
                    if formula_text is not None:
                        formula_text[(r, c)] = str(getattr(value, "text", value))
                    if arrays is not None and isinstance(value, ArrayFormula):
                        arrays.append(str(value.ref))
                row.append(value)
            rows.append(row)
        while len(rows) < max_row:
            rows.append([])
        return [r + [None] * (max_col - len(r)) for r in rows], formulas

    # no saved results: each formula's marker put in the grid as it is read
    rows, formulas = grid(ws, ws.title if ws_values is None else None, arrays)
    saved = grid(ws_values)[0] if ws_values is not None else None
    for r, c in formulas:
        cached = saved[r][c] if saved is not None else None
        rows[r][c] = cached if cached is not None else _Unsaved(ws.title, r + 1, c + 1)
    return rows


def _grid_in_memory(ws: Any, max_row: int, max_col: int,
                    formula_text: dict[tuple[int, int], str] | None,
                    unsaved: str | None = None, arrays: list[str] | None = None,
                    ) -> tuple[list[list[Any]], set[tuple[int, int]]]:
    """:func:`_rows`'s grid of a worksheet being written (openpyxl's, in memory: a
    workbook :func:`fill_workbook` checks before it is saved): its cells taken from the
    sheet's own map of cells, none created for the blank places in the grid. With
    ``unsaved`` (the sheet's title: no saved results to read) a formula's place holds
    its :class:`_Unsaved` marker at once, and the formulas returned are none."""
    rows: list[list[Any]] = [[None] * max_col for _ in range(max_row)]
    formulas = set()
    held = cells_in_memory(ws)
    assert held is not None
    for (r, c), cell in held.items():
        if r > max_row or c > max_col:
            continue
        value = raw(cell)
        if value is None:
            continue
        if cell.data_type == "f" or isinstance(value, ArrayFormula):
            if formula_text is not None:
                formula_text[(r - 1, c - 1)] = str(getattr(value, "text", value))
            if arrays is not None and isinstance(value, ArrayFormula):
                arrays.append(str(value.ref))
            if unsaved is not None:
                value = _Unsaved(unsaved, r, c)
            else:
                formulas.add((r - 1, c - 1))
        rows[r - 1][c - 1] = value
    return rows, formulas


@dataclass(frozen=True)
class WorkbookEvent:
    """What a cross-table workbook holds: the tournament, the rules date and time control
    of its Event sheet, and per start rank the K factor inputs of its players block
    (``PlayerData`` with ``k`` = the K set column, ``career_games``, ``peak_rating``)."""

    tournament: Tournament
    rules_date: _dt.date | None
    time_control: str | None
    player_inputs: dict[int, PlayerData]


def read_workbook(path: str | os.PathLike[str], *, strict: bool = False) -> Tournament:
    """The tournament of a cross-table workbook (see :func:`read_workbook_event`)."""
    return read_workbook_event(path, strict=strict).tournament


def read_workbook_event(path: str | os.PathLike[str], *, strict: bool = False) -> WorkbookEvent:
    """The tournament of a cross-table workbook (a template filled by a user, or a file
    written by :func:`fill_workbook`), ready for ``build_report`` and ``write_trf``, with
    the Event sheet's rules date and time control and the players' K inputs.

    Reads input cells, and refuses a computed cell whose formula was replaced by a
    typed value (but K, read as the K used) and a number typed as text where the
    sheet's formulas read no text (K set, Born, Games, Peak, an opponent). A workbook written by :func:`fill_workbook` from a TRF keeps
    that TRF on its very hidden sheet ``TRF_original``: the tournament is that TRF with
    only the cells the user changed applied (so ``write_trf`` gives the original lines
    back where nothing was edited, and a round robin keeps its rounds and colours).
    Without it, round robin rounds and colours follow FIDE's Berger tables (C.05
    Annex 1) by row number. Raises :class:`WorkbookError` naming the sheet and cell of
    the first problem (a game whose two sides disagree, a bad value ...).
    """
    path = Path(path)
    _check_zip(path)

    def load(data_only: bool) -> Any:
        try:
            return load_workbook(path, read_only=True, data_only=data_only)
        except (OSError, KeyError, ValueError) as exc:
            raise WorkbookError(f"{path}: not an .xlsx workbook ({exc})") from None
        except Exception as exc:  # zipfile.BadZipFile and friends
            raise WorkbookError(
                f"{path}: not an .xlsx workbook ({type(exc).__name__}: {exc})") from None

    wb = load(False)
    try:
        values = load(True)       # the saved results of formulas typed in input cells
    except WorkbookError:
        wb.close()
        raise
    try:
        return _read_book(wb, values, str(path), strict)
    except XlFideError:
        raise
    except _DAMAGED as exc:      # lazily parsed parts: bad CRC, broken XML, bad tokens
        raise WorkbookError(f"{path}: damaged workbook ({type(exc).__name__}: "
                            f"{str(exc)[:200]})") from None
    finally:
        wb.close()
        values.close()


#: Budgets of an .xlsx package, checked in its zip directory before it is parsed: our
#: largest sheet (2000 players x 99 rounds) is 105 MB of XML at 8:1; zip bombs are
#: 1,000:1 and more. Past a budget the file is refused (:class:`WorkbookError`).
ZIP_MAX_MEMBERS = 10_000
ZIP_MAX_TOTAL = 1 << 30                  # 1 GiB unpacked in all
ZIP_MAX_SHEET = 512 << 20                # 512 MiB for one worksheet
ZIP_MAX_OTHER = 64 << 20                 # 64 MiB for shared strings, styles and the rest
ZIP_MAX_RATIO = 100                      # unpacked : packed, for members over 1 MiB

#: What a damaged package raises while openpyxl reads it lazily.
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, SyntaxError, KeyError, ValueError,
            TypeError, AttributeError, IndexError, UnicodeError, OverflowError)


def _check_zip(path: Path) -> None:
    """Refuse a package over the budgets above (zip bombs), or no zip at all, before
    openpyxl reads a byte of XML; the sizes are those of the zip directory, which the
    zip reader enforces while unpacking."""
    try:
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise WorkbookError(f"{path}: not an .xlsx workbook ({type(exc).__name__}: "
                            f"{exc})") from None
    if len(members) > ZIP_MAX_MEMBERS:
        raise WorkbookError(f"{path}: {len(members)} parts in the package, more than the "
                            f"{ZIP_MAX_MEMBERS:,} an .xlsx workbook may have here")
    total = 0
    for m in members:
        total += m.file_size
        sheet = m.filename.startswith("xl/worksheets/")
        limit = ZIP_MAX_SHEET if sheet else ZIP_MAX_OTHER
        if m.file_size > limit:
            raise WorkbookError(f"{path}: part {m.filename} unpacks to {m.file_size:,} bytes, "
                                f"more than the {limit >> 20} MiB allowed (zip bomb?)")
        if m.file_size > 1 << 20 and m.file_size > ZIP_MAX_RATIO * max(m.compress_size, 1):
            raise WorkbookError(f"{path}: part {m.filename} is compressed "
                                f"{m.file_size // max(m.compress_size, 1):,}:1, more than the "
                                f"{ZIP_MAX_RATIO}:1 allowed (zip bomb?)")
    if total > ZIP_MAX_TOTAL:
        raise WorkbookError(f"{path}: the package unpacks to {total:,} bytes, more than the "
                            f"{ZIP_MAX_TOTAL >> 30} GiB allowed")



def _read_book(wb: Any, values: Any, source: str, strict: bool) -> WorkbookEvent:
    for sheet in (EVENT, CROSS):
        if sheet not in wb.sheetnames:
            raise WorkbookError(f"{source}: no sheet {sheet!r} (sheets: {', '.join(wb.sheetnames)});"
                                " is this an xl-fide cross-table?")
    ev_rows = _rows(wb[EVENT], SCORING_FIRST_ROW + len(_SCORING_CODES), 3,
                    values[EVENT] if values is not None else None)
    for key, label, *_ in _EVENT_INPUTS + _EVENT_COMPUTED:
        found = ev_rows[EVENT_ROW[key] - 1][0]
        if _str(found) != label:
            raise WorkbookError(f"{EVENT}!A{EVENT_ROW[key]}: expected {label!r}, got {found!r}"
                                " (sheet layout changed?)")
    layout = _str(ev_rows[EVENT_ROW["layout"] - 1][1])
    if layout not in LAYOUTS:
        raise WorkbookError(f"{EVENT}!B{EVENT_ROW['layout']}: layout must be roundrobin or "
                            f"swiss, got {ev_rows[EVENT_ROW['layout'] - 1][1]!r}")
    n = _whole(ev_rows[EVENT_ROW["players"] - 1][1], EVENT, EVENT_ROW["players"], 2,
               "player rows", 2, MAX_PLAYERS)
    rounds = _whole(ev_rows[EVENT_ROW["rounds"] - 1][1], EVENT, EVENT_ROW["rounds"], 2,
                    "rounds", 1, MAX_ROUNDS)
    if n is None or rounds is None:
        raise WorkbookError(f"{EVENT}!B{EVENT_ROW['players']}: player rows and rounds are "
                            "needed")
    if layout == "roundrobin":
        rounds = n - 1
    geo = _Geometry(layout, n, rounds)
    formulas: dict[tuple[int, int], str] = {}
    ws = wb[CROSS]
    widest = geo.block_first - 1 + (3 * MAX_ROUNDS if layout == "swiss" else MAX_ROUND_ROBIN)
    sheet_rows, sheet_cols = _extent(ws)
    max_row = min(max(_int_or(sheet_rows, 0), geo.last), FIRST_ROW + MAX_PLAYERS - 1)
    max_col = min(max(_int_or(sheet_cols, 0), geo.block_last), widest)
    arrays: list[str] = []
    rows = _rows(ws, max_row, max_col, values[CROSS] if values is not None else None, formulas,
                 arrays)
    _check_size_cells(rows, geo)
    _check_computed(rows, formulas, arrays, geo)
    typed_k = _typed_k(rows, formulas, geo)
    if typed_k and _has_months(ws, geo):
        r = geo.first + min(typed_k) - 1
        raise WorkbookError(
            f"{_where(CROSS, r, geo.col['k'])}: a K typed over the computed K cell; this "
            "event is rated month by month and the months' K read K set, not this cell: "
            f"type the K in K set ({_where(CROSS, r, geo.col['k_set'])}) and restore K's "
            "formula (copy it from the cell above or below)")
    original = _original(wb)
    t0 = schedule = None
    if original is not None:
        t0 = _original_tournament(original, source)
        schedule = _schedule(t0, original["ranks"]) if layout == "roundrobin" else None
    cur = _read_cells(ev_rows, rows, geo, schedule, typed_k)
    if cur.warnings and strict:
        raise WorkbookError(f"{source}: {cur.warnings[0]}")
    if t0 is None:
        tournament = _build(cur, layout, source)
        ranks = list(range(1, geo.n + 1))
    else:
        assert original is not None
        # no cell edited since fill time (a workbook checked as it is written): the same read
        pri = (cur if _unedited(ev_rows, rows, geo, original["cells"])
               else _read_cells(*_pristine(ev_rows, rows, geo, original["cells"]), geo,
                                schedule, typed_k))
        tournament, ranks = _merge(t0, original["ranks"], pri, cur, source,
                                   int(original["rounds"]))
    inputs = {ranks[i - 1]: d for i, d in cur.inputs.items()}
    if cur.warnings:
        tournament = dataclasses.replace(tournament, warnings=tuple(
            TrfWarning(source, None, None, w) for w in cur.warnings) + tournament.warnings)
    return WorkbookEvent(tournament, cur.fields["rules_date"], cur.fields["tc_word"] or None,
                         inputs)


def _extent(ws: Any) -> tuple[Any, Any]:
    """``(ws.max_row, ws.max_column)``; for a worksheet in memory (openpyxl's map of
    cells by (row, column)) the same numbers found in C: 1 and 1 for no cell."""
    held = cells_in_memory(ws)
    if held is None:
        return ws.max_row, ws.max_column
    if not held:
        return 1, 1
    return max(held)[0], max(map(operator.itemgetter(1), held))


def _same_cells(a: tuple[list[list[Any]], ...], b: tuple[list[list[Any]], ...]) -> bool:
    """Whether two tuples of grids hold the same values of the same types, cell by cell
    (``1`` and ``1.0`` and ``True`` are not the same cell). The rule
    :func:`~xl_fide.excel._roundtrip._unedited` answers without copying the grids."""
    return len(a) == len(b) and all(
        len(ga) == len(gb) and all(
            len(ra) == len(rb) and all(type(x) is type(y) and x == y for x, y in zip(ra, rb))
            for ra, rb in zip(ga, gb))
        for ga, gb in zip(a, b))


def _int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) else default


def sheet_size(rows: list[list[Any]], layout: str, players: int, rounds: int) -> tuple[int, int]:
    """The Crosstable sheet's own size (player rows, rounds), read from its No column and
    round headers in ``rows`` (the sheet's values from A1), after checking the Event
    sheet's Player rows (``players``) and Rounds (``rounds``) against it: raises
    :class:`~xl_fide.errors.WorkbookError` naming the cells when they say more than the
    sheet has, or less than is filled. For a round robin ``rounds`` is ignored."""
    if layout == "roundrobin":
        rounds = players - 1
    return _check_size_cells(rows, _Geometry(layout, players, rounds))


def _check_size_cells(rows: list[list[Any]], geo: _Geometry) -> tuple[int, int]:
    """The Rounds and Player rows cells of the Event sheet must not say more than the
    Crosstable sheet has, nor less than is filled (that would drop results unseen).
    Returns the sheet's own (player rows, rounds)."""
    def cell(r: int, c: int) -> Any:
        row = rows[r - 1] if r - 1 < len(rows) else []
        return row[c - 1] if c - 1 < len(row) else None

    def filled(r: int, c: int) -> bool:
        value = cell(r, c)
        return value is not None and not (isinstance(value, str) and not value.strip())

    no = geo.col["no"]
    sheet_n = 0
    while cell(geo.first + sheet_n, no) == sheet_n + 1:
        sheet_n += 1
    rounds_cell, rows_cell = f"{EVENT}!B{EVENT_ROW['rounds']}", f"{EVENT}!B{EVENT_ROW['players']}"
    head = cell(HEADER_ROW, geo.block_first)      # "Opp" (Swiss) or 1 (round robin)
    sheet_layout = "swiss" if head == "Opp" else "roundrobin" if head == 1 else None
    if sheet_layout is not None and sheet_layout != geo.layout:
        raise WorkbookError(f"{EVENT}!B{EVENT_ROW['layout']}: Layout is {geo.layout} but the "
                            f"{CROSS} sheet is a {sheet_layout} table "
                            f"({_where(CROSS, HEADER_ROW, geo.block_first)} is "
                            f"{quote_value(head)}): set Layout back to {sheet_layout}")
    if geo.n > sheet_n:
        raise WorkbookError(_numbering_problem(cell, geo, sheet_n, rows_cell))
    inputs = [geo.col[k] for k in ("title", "name", "fed", "fide_id", "ro", "born", "games",
                                   "peak", "k_set")]
    if geo.layout == "swiss":
        sheet_rounds = 0
        while cell(HEADER_ROW, geo.round_col(sheet_rounds + 1, "opp")) == "Opp":
            sheet_rounds += 1
        if geo.rounds > sheet_rounds:
            raise WorkbookError(f"{rounds_cell}: Rounds is {geo.rounds} but the {CROSS} sheet "
                                f"has {sheet_rounds} rounds (make a bigger sheet: xl-fide "
                                "template)")
        block = range(geo.block_first, geo.round_col(sheet_rounds, "res") + 1)
        for rnd in range(geo.rounds + 1, sheet_rounds + 1):
            for r in range(geo.first, geo.first + sheet_n):
                for part in ("opp", "col", "res"):
                    if filled(r, geo.round_col(rnd, part)):
                        raise WorkbookError(
                            f"{rounds_cell}: Rounds is {geo.rounds}, but round {rnd} is filled "
                            f"({_where(CROSS, r, geo.round_col(rnd, part))}): raise Rounds or "
                            "clear that round")
    else:
        sheet_grid = 0
        while cell(HEADER_ROW, geo.grid_col(sheet_grid + 1)) == sheet_grid + 1:
            sheet_grid += 1
        block = range(geo.block_first, geo.block_first + sheet_grid)
        sheet_rounds = sheet_grid - 1
        for r in range(geo.first, geo.last + 1):
            for j in range(geo.n + 1, sheet_grid + 1):
                if filled(r, geo.grid_col(j)):
                    raise WorkbookError(
                        f"{rows_cell}: Player rows is {geo.n}, but a result against player "
                        f"{j} is filled ({_where(CROSS, r, geo.grid_col(j))})")
    for r in range(geo.last + 1, geo.first + sheet_n):
        for c in [*inputs, *block]:
            if filled(r, c):
                raise WorkbookError(f"{rows_cell}: Player rows is {geo.n}, but row {r} is "
                                    f"filled ({_where(CROSS, r, c)}): raise Player rows or "
                                    "clear that row")
    return sheet_n, sheet_rounds


def _numbering_problem(cell: Any, geo: _Geometry, sheet_n: int, rows_cell: str) -> str:
    """Why the No column stops at ``sheet_n`` before the Event's Player rows: a row
    inserted into the players (a blank No between numbered rows), a row deleted (a
    number missing), the rows sorted (another number), or a sheet too small (nothing
    below)."""
    no = geo.col["no"]
    r, expected = geo.first + sheet_n, sheet_n + 1
    found = cell(r, no)
    below = [(geo.first + k, cell(geo.first + k, no)) for k in range(sheet_n + 1, geo.n + 1)]
    numbered = [(row, v) for row, v in below if isinstance(v, (int, float))
                and not isinstance(v, bool)]
    blank = found is None or (isinstance(found, str) and not found.strip())
    keep = (f"The player rows stay numbered 1 to {geo.n} in order (opponents and formulas "
            "count on it): undo it")
    where = _where(CROSS, r, no)
    if blank and not numbered:
        return (f"{rows_cell}: Player rows is {geo.n} but the {CROSS} sheet has {sheet_n} "
                "player rows (make a bigger sheet: xl-fide template)")
    if blank:
        return (f"{where}: No is blank, yet {_where(CROSS, numbered[0][0], no)} below is "
                f"numbered {quote_value(numbered[0][1])}: a row inserted among the players? "
                f"{keep}")
    following = [found] + [v for _, v in below]
    if found == expected + 1 and all(v == found + k for k, v in enumerate(following[:3])):
        return (f"{where}: No is {quote_value(found)} where {expected} is expected: player "
                f"row {expected} deleted? {keep}")
    return (f"{where}: No is {quote_value(found)} where {expected} is expected: the rows "
            f"sorted, or a row moved? {keep} (for a sheet in rank order: xl-fide crosstable "
            "--order rank)")


#: The Crosstable's computed columns whose formula a typed value may not replace: every
#: "calc" column of a player row but No (typed values) and K (a K typed over it is the K
#: used, :func:`_typed_k`).
_COMPUTED = tuple(spec.key for spec in PLAYER_COLS + STANDING_COLS["swiss"]
                  + STANDING_COLS["roundrobin"] + USED_COLS + RATING_COLS
                  if spec.style.startswith("calc") and spec.key not in ("no", "k"))


def _check_computed(rows: list[list[Any]], formulas: dict[tuple[int, int], str],
                    arrays: list[str], geo: _Geometry) -> None:
    """Refuse a computed cell of a player row (Ro used, K rule, N, New, Pts, ...) whose
    formula was replaced by a typed value: the sheet would rate with it, ``report`` from
    the typed inputs (a silent difference). A blank cell, a formula and a cell of an
    array formula's range (its results) pass."""
    cols = {geo.col[k]: k for k in _COMPUTED if k in geo.col}
    spans: dict[int, list[tuple[int, int]]] = {c: [] for c in cols}
    for ref in arrays:                  # per column: the rows an array formula covers
        lo, _, hi = ref.partition(":")
        if hi and hi != lo:             # a one-cell array is its own formula cell
            try:
                (r1, c1), (r2, c2) = coordinate_to_tuple(lo), coordinate_to_tuple(hi)
            except ValueError:          # not a range of cells ("AK:AK"): none covered
                continue
            for c in range(c1, c2 + 1):
                if c in spans:
                    spans[c].append((r1, r2))
    for r in range(geo.first, min(geo.last, len(rows)) + 1):
        row = rows[r - 1]
        for c, key in cols.items():
            if c > len(row) or (r - 1, c - 1) in formulas:
                continue
            value = row[c - 1]
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            if any(r1 <= r <= r2 for r1, r2 in spans[c]):
                continue
            header = next(s.header for s in PLAYER_COLS + geo.standings + geo.rating_cols
                          if s.key == key)
            raise WorkbookError(f"{_where(CROSS, r, c)}: a computed cell ({header}) holds "
                                f"the typed value {quote_value(value)}: restore its formula "
                                "(copy it from the cell above or below)")


def _has_months(ws: Any, geo: _Geometry) -> bool:
    """True when the Crosstable has month blocks (an event rated month by month): the
    header of month 1's K column is there."""
    c, spec = month_col(geo, 1, "m_k"), next(s for s in MONTH_COLS if s.key == "m_k")
    held = cells_in_memory(ws)
    if held is not None:
        cell = held.get((HEADER_ROW, c))
        value = None if cell is None else raw(cell)
    else:
        value = next(ws.iter_rows(min_row=HEADER_ROW, max_row=HEADER_ROW, min_col=c,
                                  max_col=c, values_only=True), (None,))[0]
    return value == spec.header


def _typed_k(rows: list[list[Any]], formulas: dict[tuple[int, int], str],
             geo: _Geometry) -> dict[int, int]:
    """Row number -> a K typed over the K cell (a number, or a formula other than the
    sheet's own): that is the K the sheet's rating block uses, so it is the K read."""
    out = {}
    kc = geo.col["k"]
    for i in range(1, geo.n + 1):
        r = geo.first + i - 1
        text = formulas.get((r - 1, kc - 1))
        if text is not None and text.replace(" ", "") == _k_formula(geo, r):
            continue
        k = _whole(rows[r - 1][kc - 1], CROSS, r, kc, "K", 1, 100)
        if k is not None:
            out[i] = k
    return out


def _read_cells(ev_rows: list[list[Any]], rows: list[list[Any]], geo: _Geometry,
                schedule: dict[tuple[int, int], tuple[int, str | None]] | None,
                typed_k: dict[int, int]) -> _Read:
    def ev(key: str) -> Any:
        return ev_rows[EVENT_ROW[key] - 1][1]

    scoring = {}
    for i, (code, _) in enumerate(_SCORING_CODES):
        r = SCORING_FIRST_ROW + i
        row = ev_rows[r - 1]
        value = _resolved(row[1])
        if _str(row[0]).upper() != code:
            raise WorkbookError(f"{EVENT}!A{r}: expected result code {code!r}, got {row[0]!r}")
        if value is None or value == "":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise WorkbookError(f"{EVENT}!B{r}: points for {code!r} must be a number, "
                                f"got {value!r}")
        scoring[code] = Decimal(str(value))
    tc_word = _str(ev("tc")).lower()
    tc_text = _str(ev("tc_text"))
    tournament_tc = tc_text
    guessed = guess_time_control(tc_text) if tc_text else None
    if tc_word and (guessed is None or guessed.value != tc_word):
        tournament_tc = tc_word if not tc_text else f"{tc_word} ({tc_text})"
    players, inputs, warnings = _read_players(rows, geo, scoring, schedule, typed_k)
    fields = dict(
        name=_str(ev("name")), city=_str(ev("city")), federation=_str(ev("federation")),
        start_date=_date_value(ev("start"), EVENT, EVENT_ROW["start"], "start date"),
        end_date=_date_value(ev("end"), EVENT, EVENT_ROW["end"], "end date"),
        time_control=tournament_tc, chief_arbiter=_str(ev("arbiter")),
        rounds=geo.rounds if geo.layout == "swiss" else None, scoring=scoring,
        rules_date=_date_value(ev("rules_date"), EVENT, EVENT_ROW["rules_date"], "rules date"),
        tc_word=tc_word)
    return _Read(fields, players, inputs, warnings)



def _build(read: _Read, layout: str, source: str) -> Tournament:
    f = read.fields
    try:
        return Tournament.build(players=read.players, scoring=f["scoring"] or None,
                                source=source, **{k: f[k] for k in _TOURNAMENT_FIELDS})
    except InputError as exc:
        raise WorkbookError(f"{source}: {exc}") from None


# ============================================================================ round trip
#
# A workbook filled from a TRF keeps, on the very hidden sheet TRF_original, the TRF text
# (as write_trf gives it: the original lines, LF) and what fill_workbook wrote to each
# input cell. Read back, the TRF is the starting point and only the cells whose value
# differs from what was written are applied to it: nothing the sheet has no cell for
# (sex, final rank, full birth dates, 092/112/132 records, XX* and team lines, TRF-2026
# records, a round robin's rounds and colours) is lost, and unedited lines stay as they
# were.


def _result_code(value: Any, where: str) -> str | None:
    value = _resolved(value)
    if isinstance(value, str) and not value.strip():
        return None
    try:
        parsed = parse_result(value, "result")
    except InputError as exc:
        raise WorkbookError(f"{where}: {exc}") from None
    return None if parsed is None else parsed.code


#: The K rule's inputs and K set: (column key, what, minimum, maximum).
_K_INPUTS: tuple[tuple[str, str, int, int | None], ...] = (
    ("born", "year of birth", 1850, 2200), ("k_set", "K set", 1, 100),
    ("games", "career games", 0, None), ("peak", "peak rating", 0, 4000))


def _read_players(rows: list[list[Any]], geo: _Geometry, scoring: dict[str, Decimal],
                  schedule: dict[tuple[int, int], tuple[int, str | None]] | None,
                  typed_k: dict[int, int],
                  ) -> tuple[list[TrfPlayer], dict[int, PlayerData], list[str]]:
    c = {k: v - 1 for k, v in geo.col.items()}
    active: list[int] = []
    info: dict[int, dict[str, Any]] = {}
    inputs: dict[int, PlayerData] = {}
    for i in range(1, geo.n + 1):
        r = geo.first + i - 1
        row = rows[r - 1]
        block = row[geo.block_first - 1:geo.block_last]
        name = _str(row[c["name"]])
        rating = _rating(row[c["ro"]], CROSS, r, c["ro"] + 1)
        if not name and rating is None and all(v is None or _str(v) == "" for v in block):
            continue
        no = _whole(row[c["no"]], CROSS, r, c["no"] + 1, "No")
        if no != i:
            raise WorkbookError(f"{_where(CROSS, r, c['no'] + 1)}: No must be {i} (the row's "
                                f"number), got {row[c['no']]!r}")
        born, k_set, games_n, peak = (
            _typed_number(row[c[key]], _whole(row[c[key]], CROSS, r, c[key] + 1, what, lo, hi),
                          CROSS, r, c[key] + 1, what)
            for key, what, lo, hi in _K_INPUTS)
        inputs[i] = PlayerData(None, name or f"row {i}", k=typed_k.get(i, k_set),
                               career_games=games_n, peak_rating=peak or None)
        info[i] = dict(
            title=_str(row[c["title"]]), name=name, federation=_str(row[c["fed"]]),
            fide_id=_whole(row[c["fide_id"]], CROSS, r, c["fide_id"] + 1, "FIDE id", 0, FIDE_ID_MAX),
            rating=rating, birth_year=born, birth_date=str(born) if born else "")
        active.append(i)
    if not active:
        raise WorkbookError(f"{CROSS}!C{geo.first}: no players (the Name column is empty)")
    warnings = []
    row_of_id: dict[int, int] = {}
    for i in active:
        fid = info[i]["fide_id"]
        if not fid:
            continue
        if fid in row_of_id:
            j = row_of_id[fid]
            warnings.append(f"{_where(CROSS, geo.first + i - 1, c['fide_id'] + 1)}: FIDE id "
                            f"{fid} is on two rows: {geo.first + j - 1} (player {j}) and "
                            f"{geo.first + i - 1} (player {i})")
        else:
            row_of_id[fid] = i
    games: dict[int, list[Game]] = {}
    if geo.layout == "roundrobin":
        games = _read_grid(rows, geo, active, schedule)
    else:
        games = _read_rounds(rows, geo, active)
    out = []
    for i in active:
        gs = games[i]
        points = sum((scoring.get(g.code, DEFAULT_SCORING[g.code]) for g in gs), Decimal(0))
        out.append(TrfPlayer(start_rank=i, points=points, games=tuple(gs), **info[i]))
    return out, {i: inputs[i] for i in active}, warnings


_SHOWN = {"=": "½"}


def _game_problem(a: int, b: int, code_a: str | None, code_b: str | None,
                  colour_a: str | None = None, colour_b: str | None = None,
                  rnd: int | None = None) -> str | None:
    """Why the two sides of the game of players ``a`` and ``b`` cannot both be true, as a
    sentence naming the players (``player 65 and player 2 both won round 3``), or None.

    ``code_*``: TRF result codes, None for a blank result cell; both blank is a game not
    played yet. The rule is :func:`xl_fide.rules.results.pair_problem` (TRF16 result codes).
    """
    when = f" round {rnd}" if rnd is not None else ""
    if code_a is None and code_b is None:
        return None
    if code_a is None or code_b is None:
        blank, other, code = (a, b, code_b) if code_a is None else (b, a, code_a)
        return (f"player {other} has {_SHOWN.get(code or '', code)!r} against "
                f"player {blank}{when}, whose result is blank")
    problem = _results.pair_problem(code_a, code_b, colour_a, colour_b)
    if problem is None:
        return None
    if problem == "both won":
        return f"player {a} and player {b} both won{when or ' their game'}"
    return f"player {a} and player {b}{when}: {problem}"


def _diagonal_result(value: Any) -> bool:
    """A round robin's diagonal cell holds a result or a number (refused), not blank or
    a marker such as ``x`` or ``*`` (ignored), as ``FIDE_EVENT`` reads it."""
    if value is None or isinstance(value, bool) or (isinstance(value, str) and not value.strip()):
        return False
    if not isinstance(value, str):
        return True
    try:
        return parse_result(value) is not None
    except InputError:
        return False


def _berger(players: Sequence[int]) -> list[list[tuple[int, int]]]:
    """FIDE's Berger tables (FIDE Handbook C.05, Annex 1): per round the (white, black)
    pairs of ``players`` taken as pairing numbers 1, 2, ... in order; with an odd number
    of players the highest number is the bye, shown as ``0``.

    Round 1 is 1-n, 2-(n-1) ...; each next round adds n/2 to every pairing number but n
    (modulo n-1, within 1..n-1), and n's board changes colour: for 4 players the rounds
    are 1-4 2-3, 4-3 1-2, 2-4 3-1.
    """
    ps = list(players) + ([0] if len(players) % 2 else [])
    m = len(ps)
    half = m // 2

    def shift(x: int) -> int:
        return x if x == m else (x - 1 + half) % (m - 1) + 1

    boards = [(k, m + 1 - k) for k in range(1, half + 1)]
    rounds = []
    for _ in range(m - 1):
        rounds.append([(ps[w - 1], ps[b - 1]) for w, b in boards])
        boards = [(shift(w), shift(b)) for w, b in boards]
        boards[0] = (boards[0][1], boards[0][0])
    return rounds


def _schedule(t: Tournament, ranks: Sequence[int]) -> dict[tuple[int, int], tuple[int, str | None]]:
    """Round robin: (row i, row j) -> (round, i's colour) of their game in ``t``."""
    row_of = {rank: i for i, rank in enumerate(ranks, 1)}
    out: dict[tuple[int, int], tuple[int, str | None]] = {}
    for p in t.players:
        i = row_of.get(p.start_rank)
        for g in p.games:
            j = row_of.get(g.opponent or 0)
            if i is not None and j is not None and g.round and (i, j) not in out:
                out[(i, j)] = (g.round, g.colour)
    return out


def _read_grid(rows: list[list[Any]], geo: _Geometry, active: list[int],
               schedule: dict[tuple[int, int], tuple[int, str | None]] | None = None,
               ) -> dict[int, list[Game]]:
    codes: dict[tuple[int, int], str | None] = {}
    present = set(active)
    for i in range(1, geo.n + 1):
        r = geo.first + i - 1
        for j in range(1, geo.n + 1):
            col = geo.grid_col(j)
            value = rows[r - 1][col - 1]
            if i == j:          # a result on the diagonal is never dropped unseen
                if _diagonal_result(_resolved(value)):
                    raise WorkbookError(f"{_where(CROSS, r, col)}: {quote_value(value)} on the "
                                        f"diagonal: player {i} does not play himself; clear "
                                        "the cell (a result goes in the opponent's column)")
                continue
            code = _result_code(value, _where(CROSS, r, col))
            if code is not None and (i not in present or j not in present):
                blank = j if i in present else i
                raise WorkbookError(f"{_where(CROSS, r, col)}: a result against player {blank}, "
                                    "whose row is blank")
            codes[(i, j)] = code
    for i in active:
        for j in active:
            if i < j:
                problem = _game_problem(i, j, codes[(i, j)], codes[(j, i)])
                if problem is not None:
                    a = _where(CROSS, geo.first + i - 1, geo.grid_col(j))
                    b = _where(CROSS, geo.first + j - 1, geo.grid_col(i))
                    raise WorkbookError(f"{a}: {problem} (see {b})")
    if schedule is None or any((i, j) not in schedule for i in active for j in active if i != j):
        schedule = {}
        for rnd, pairs in enumerate(_berger(active), 1):
            for white, black in pairs:
                schedule[(white, black)] = (rnd, "w")
                schedule[(black, white)] = (rnd, "b")
    n_rounds = max((rnd for rnd, _ in schedule.values()), default=0)
    games: dict[int, list[Game]] = {}
    for i in active:
        by_round = {schedule[(i, j)][0]: j for j in active if j != i and (i, j) in schedule}
        out: list[Game] = []
        for rnd in range(1, n_rounds + 1):
            j = by_round.get(rnd, 0)
            code = codes.get((i, j)) if j else None
            if not j or code is None:
                out.append(Game(rnd, None, None, "Z", explicit=False))
            else:
                out.append(Game(rnd, j, schedule[(i, j)][1], code))
        games[i] = out
    return games


#: The value types whose result code is parsed once per value (:func:`_read_rounds`).
_PLAIN = frozenset({str, int, float, bool, type(None)})
_COLOURS = frozenset({"w", "b"})         # a colour cell read as it is
_UNREAD = "unread"                        # not a code: a result cell's value not yet read


def _round_game(rnd: int, opp: int | None, colour: str, code: str | None) -> Game:
    """The Game of a Swiss round's cells as :func:`_read_rounds` checked them (``rnd``
    >= 1; ``opp`` a row number 1..2000 or None; ``colour`` ``""``, ``"w"``, ``"b"`` or
    ``"-"``; ``code`` an upper-case TRF16 result code or None for a blank result):
    ``Game(rnd, None, colour or None, "Z", explicit=bool(colour))`` for an empty
    cell, else ``Game(rnd, opp, colour or None, code or "Z")``, the same Game built
    without checking the values again (:func:`xl_fide.trf._read_game`)."""
    kept = colour if colour in _COLOURS else None          # "-" is no colour
    if opp is None and code is None:
        return _read_game(rnd, None, kept, "Z", bool(colour))
    code = code or "Z"
    return _read_game(rnd, opp, kept, code,
                      not (code == "Z" and opp is None and kept is None))


def _read_rounds(rows: list[list[Any]], geo: _Geometry, active: list[int]) -> dict[int, list[Game]]:
    games: dict[int, list[Game]] = {}
    blank_result: dict[tuple[int, int], bool] = {}
    present = set(active)               # a look-up per cell: a set, not the list
    columns = [(rnd, *(geo.round_col(rnd, p) for p in ("opp", "col", "res")))
               for rnd in range(1, geo.rounds + 1)]
    codes: dict[tuple[type, Any], str | None] = {}      # a result cell's value: its code

    def code_of(value: Any, r: int, rc: int) -> str | None:
        key = (type(value), value)
        if key[0] not in _PLAIN or key not in codes:
            code = _result_code(value, _where(CROSS, r, rc))
            if key[0] not in _PLAIN:
                return code
            codes[key] = code
        return codes[key]

    n = geo.n
    for i in active:
        r = geo.first + i - 1
        row = rows[r - 1]
        out = []
        for rnd, oc, cc, rc in columns:
            opp = row[oc - 1]                   # an int in range is its own number
            if not (opp is None or (type(opp) is int and 0 <= opp <= n)):
                opp = _typed_number(opp, _whole(opp, CROSS, r, oc, "opponent", 0, n),
                                    CROSS, r, oc, "opponent")
            opp = opp or None
            if opp is not None and opp not in present:
                raise WorkbookError(f"{_where(CROSS, r, oc)}: opponent {opp} has a blank row")
            if opp == i:
                raise WorkbookError(f"{_where(CROSS, r, oc)}: a player cannot meet himself")
            colour = row[cc - 1]
            colour = "" if colour is None else colour if colour in _COLOURS else _str(colour).lower()
            if colour not in ("", "w", "b", "-"):
                raise WorkbookError(f"{_where(CROSS, r, cc)}: colour must be w or b, "
                                    f"got {row[cc - 1]!r}")
            value = row[rc - 1]
            kind = type(value)              # a plain value read before: its code at once
            code = codes.get((kind, value), _UNREAD) if kind in _PLAIN else _UNREAD
            if code is _UNREAD:
                code = code_of(value, r, rc)
            blank_result[(i, rnd)] = code is None
            out.append(_round_game(rnd, opp, colour, code))
        games[i] = out
    for i in active:
        for g in games[i]:
            if g.opponent is None:
                continue
            back = games[g.opponent][g.round - 1]
            r = geo.first + i - 1
            _, oc, cc, rc = columns[g.round - 1]
            if back.opponent is None:
                what = f" ({back.code})" if back.code != "Z" or back.explicit else ""
                raise WorkbookError(
                    f"{_where(CROSS, r, oc)}: player {i} has player {g.opponent} as opponent "
                    f"in round {g.round}, but player {g.opponent} has no opponent in that "
                    f"round{what} (see {_where(CROSS, geo.first + g.opponent - 1, oc)})")
            if back.opponent != i:
                raise WorkbookError(f"{_where(CROSS, r, oc)}: opponent {g.opponent} in round "
                                    f"{g.round}, but player {g.opponent} met {back.opponent}")
            if g.opponent < i:
                continue
            mine, theirs = blank_result[(i, g.round)], blank_result[(g.opponent, g.round)]
            problem = _game_problem(i, g.opponent, None if mine else g.code,
                                    None if theirs else back.code, g.colour, back.colour,
                                    g.round)
            if problem is not None:
                cell = cc if "colour" in problem else rc
                raise WorkbookError(f"{_where(CROSS, r, cell)}: {problem}")
    return games
