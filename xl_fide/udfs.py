"""Excel functions (xlwings UDFs) over the xl-fide engine: FIDE_EXPECTED, FIDE_CHANGE...

The only module that knows Excel's shapes. It turns what Excel passes into engine
calls and answers a number, an array, ``"#N/A"`` (nothing to compute: blank input)
or raises an :class:`~xl_fide.errors.InputError` (a ``ValueError``) whose short
message names the argument and quotes the value (``rating must be a whole number,
got 2000.5``); classic Excel shows that message in the cell, xlwings Lite shows
``#VALUE!``.

One module for both runtimes (README, "Excel on Windows" and "xlwings Lite"):

* classic Excel on Windows: ``UDF Modules`` = ``xl_fide.udfs``, ribbon
  **Import Functions**;
* xlwings Lite (macOS, Excel on the web, Windows): ``main.py`` holds
  ``from xl_fide.udfs import *`` (``__all__`` lists every function).

What arrives: numbers as ``float`` (classic) or ``int`` (Lite); blank cells as
``None`` or ``""`` (no game); a single cell as a scalar, a row or column as a flat
list, a block as a list of rows. ``@arg(..., ndim=...)`` forces shapes where xlwings
honours it, :data:`NDIM` repeats that for other hosts (the LibreOffice test add-in),
and every function also normalises raw shapes itself (:func:`_flat`, :func:`_grid`).
Dates: ``datetime``/``date``, an Excel serial number (1900 date system: 45658 is
2025-01-01) or ISO text; blank (or 0, a blank cell read as a number) means today's
rules.
"""

from __future__ import annotations

import datetime as _dt
import functools
import inspect
import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Sequence

from xlwings import arg, func

from xl_fide._version import __version__
from xl_fide.rules.adjustments import adjusted_for_rules
from xl_fide.rules.editions import RuleEdition, TimeControl, parse_date, rules_for
from xl_fide.errors import InputError, RuleError, XlFideError
from xl_fide.rules.event import (BLOCK_COLUMNS, Entrant, block_values, effective_rating,
                                 rate_crosstable)
from xl_fide.rules.initial import initial_rating
from xl_fide.rules.notes import initial_code, new_rating_code
from xl_fide.rules.performance import (
    norm_performance,
    perfect_tournament_performance,
    performance_rating,
    tournament_performance_rating,
)
from xl_fide.rules.rating import (
    expected_score, game_lines, k_factor, logistic_expected, new_rating_or_note, rate_event,
)
from xl_fide.rules.results import GameResult, pair_problem, parse_result
from xl_fide.rules.tables import dp_for_p, pd_for_difference
from xl_fide.rules.values import (
    NOT_A_RATING, RATING_MAX, as_int, as_k, as_rating, number_from_text, quote_value,
    sheet_rating,
)

__all__ = [
    "FIDE_ADJUST_2024", "FIDE_CHANGE", "FIDE_DELTA", "FIDE_DP", "FIDE_EVENT", "FIDE_EVENT_SWISS",
    "FIDE_EXPECTED", "FIDE_INITIAL_RATING", "FIDE_K", "FIDE_NEW_RATING", "FIDE_NORM",
    "FIDE_PD", "FIDE_PERFORMANCE", "FIDE_PTP", "FIDE_SCORE", "FIDE_TPR", "FIDE_VERSION",
]

#: Shapes forced on range arguments, filled by :func:`_args` from each function's one
#: declaration (on Linux xlwings' decorators are no-ops, so hosts such as the
#: LibreOffice add-in read them here). 1 = flat list (a row or a column), 2 = list of rows.
NDIM: dict[str, dict[str, int]] = {}
__ndim__ = NDIM  # the name tests/lo_calc.py looks for

NA = "#N/A"
#: The columns of FIDE_EVENT(_SWISS); Rc (the opponents' average) last, so a range of the
#: first ten columns shows what it showed before Rc was added.
EVENT_COLUMNS = BLOCK_COLUMNS

_CATEGORY = "xl-fide"
_EXCEL_EPOCH = _dt.date(1899, 12, 30)   # serial 1 = 1900-01-01 past Excel's 1900-02-29 bug
_EXCEL_SERIAL_MAX = 2958465             # 9999-12-31

_DOC_TC = "standard (default), rapid or blitz"
_DOC_DATE = "event start date (date, Excel date or 2025-10-01); blank: today's rules"
_DOC_OPPS = "opponents' ratings, a row or column; blank = no game"
_DOC_SCORES = "results in the same order: 1, ½, 0, =, 1-0, + or -; blank = no game"
_TC_DATE = (("time_control", _DOC_TC), ("event_date", _DOC_DATE))
_GAMES = (("opponent_ratings", _DOC_OPPS, 1), ("scores", _DOC_SCORES, 1))
#: the notes of FIDE_EVENT and FIDE_EVENT_SWISS: sentences, or the cross-table's codes
_NOTES = ("notes", 'blank or "full": why a rating is not published, in words; "short": '
                   "the code (NP 1395, NP 3g, NP 0g, NP 0pt) a cross-table cell shows")
#: rating, the games and K of a one-player event: FIDE_CHANGE and FIDE_NEW_RATING
_EVENT_ARGS = (("rating", "own rating before the event (whole number)"), *_GAMES,
               ("k", "K factor before the K x n <= 700 cap"), *_TC_DATE)


def _args(*specs: tuple):
    """The xlwings ``@arg`` of each argument: ``(name, doc)`` or ``(name, doc, ndim)``.
    Every argument asks for error cells as text (``err_to_str``: ``"#N/A"``, not None).
    The specs stay readable as ``f.arg_docs`` ({name: (doc, ndim or None)}): the
    LibreOffice extension (xl_fide.libreoffice) takes its Function Wizard texts from them.
    """
    def decorate(f):
        for name, doc, *ndim in reversed(specs):
            if ndim:
                NDIM.setdefault(f.__name__, {})[name] = ndim[0]
            f = arg(name, err_to_str=True, doc=doc, **({"ndim": ndim[0]} if ndim else {}))(f)
        f.arg_docs = {name: (doc, ndim[0] if ndim else None) for name, doc, *ndim in specs}
        return f
    return decorate


# ------------------------------------------------------------------ what Excel passes

#: Excel's error values as xlwings passes them with ``err_to_str=True`` (classic:
#: ``xlwings/_xlwindows.py`` maps the COM error codes to these strings; Lite:
#: ``xlwings/pro/_xlofficejs.py`` takes the error's ``basicValue``); without that
#: option both pass ``None``, and an ``#N/A`` looked like a blank cell (issue 15, #7).
EXCEL_ERRORS = frozenset({
    "#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA",
    "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#UNKNOWN!", "#BUSY!",
    "#DATA!", "#PYTHON!", "#TIMEOUT!", "#EXTERNAL!",
})
#: Budgets (issue 11): no cell text the functions read is longer than this (a result,
#: a date, a title, a time control fits in a few characters)...
TEXT_MAX = 100
#: ... and no message longer than this (Excel's limit for a string literal). Number
#: text has its own budget (:func:`~xl_fide.rules.values.number_from_text`).
MESSAGE_MAX = 255


#: The cell budget of every call (issue 22): a range argument has at most
#: :data:`ROWS_MAX` rows and :data:`ROWS_MAX` columns (the 2000 player rows of the
#: largest workbook; a player's games) and :data:`CELLS_MAX` cells (a Swiss block of 2000
#: players by 99 rounds is 198,000), checked from its shape before any cell is read: a
#: whole column (1,048,576 cells) is refused at once, never walked.
ROWS_MAX = 2000
CELLS_MAX = 200_000


def check_shape(name: str, rows: int, columns: int) -> None:
    """Refuse a range argument ``name`` of ``rows`` x ``columns`` cells past the cell
    budget (:data:`ROWS_MAX` rows or columns, :data:`CELLS_MAX` cells), from its shape
    alone: the message every host answers. A host that knows a range's shape before it
    reads the cells (the LibreOffice extension) calls this first. Raises
    :class:`~xl_fide.errors.InputError`."""
    if rows > ROWS_MAX:
        raise InputError(f"{name} is a range of {rows:,} cells; these functions read at most "
                         f"{ROWS_MAX:,} rows: give the filled range, not a whole column")
    if columns > ROWS_MAX or rows * columns > CELLS_MAX:
        raise InputError(f"{name} is a range of {rows:,} by {columns:,} cells; these functions "
                         f"read at most {ROWS_MAX:,} rows or columns and {CELLS_MAX:,} cells")


def _check_budget(value: object, name: str) -> None:
    """Refuse a range argument past the cell budget, from its shape alone (O(rows))."""
    if not isinstance(value, (list, tuple)):
        return
    rows = len(value)
    if rows > ROWS_MAX:
        check_shape(name, rows, 1)
    width = max((len(row) for row in value if isinstance(row, (list, tuple))), default=1)
    check_shape(name, rows, width)


def _is_jsnull(value: object) -> bool:
    """Pyodide >= 0.28 passes JavaScript ``null`` (an empty cell of a range under
    xlwings Lite before 0.36.7) as ``pyodide.ffi.jsnull``, of type ``JsNull``: a blank.
    (xlwings fixed it in 0.36.7, docs/whatsnew.md "fix empty values in custom
    functions"; its tests/test_jsnull.py fakes the type the same way.)"""
    return type(value).__name__ == "JsNull"


def _excel_error(value: object) -> str | None:
    """The Excel error value (``"#N/A"``...) a cell holds, or None."""
    if isinstance(value, str) and value.strip().upper() in EXCEL_ERRORS:
        return value.strip().upper()
    return None


def _clean(value: object, where: str) -> object:
    """One argument as the functions read it: ``JsNull`` -> None at any depth; text
    longer than :data:`TEXT_MAX` refused with its place."""
    if isinstance(value, (list, tuple)):
        rows = list(value)
        if rows and all(isinstance(row, (list, tuple)) for row in rows):
            return [[_clean(c, f"{where} row {i} column {j}") for j, c in enumerate(row, 1)]
                    for i, row in enumerate(rows, 1)]
        return [_clean(c, f"{where} cell {i}") for i, c in enumerate(rows, 1)]
    if _is_jsnull(value):
        return None
    if isinstance(value, str) and len(value) > TEXT_MAX:
        raise InputError(f"{where} is text of {len(value):,} characters; "
                         f"these functions read at most {TEXT_MAX}")
    return value


def _bounded(message: str) -> str:
    return message if len(message) <= MESSAGE_MAX else message[:MESSAGE_MAX - 1] + "…"


def _excel_boundary(f):
    """Wrap a FIDE_* function: check the cell budget of every argument
    (:func:`_check_budget`), clean every argument (:func:`_clean`), refuse a single
    cell holding an Excel error with its name, and bound every message. The wrapper
    keeps ``f``'s signature (xlwings reads it with ``inspect.signature``)."""
    params = list(inspect.signature(f).parameters)

    @functools.wraps(f)
    def call(*args, **kwargs):
        bound = dict(zip(params, args))
        bound.update(kwargs)
        try:
            for name, value in bound.items():     # the budget before any cell is read
                _check_budget(value, name)
            clean = {}
            for name, value in bound.items():
                value = _clean(value, name)
                error = _excel_error(value)
                if error is not None:
                    raise InputError(f"{name} is the Excel error {error}: "
                                     "fix that cell (an error is not a blank)")
                clean[name] = value
            return f(**clean)
        except XlFideError as exc:       # InputError, RuleError...: one short message
            raise InputError(_bounded(str(exc))) from None

    return call


# --------------------------------------------------------------------- shapes and cells

def _blank(value: object) -> bool:
    return (value is None or (isinstance(value, str) and value.strip() == "")
            or _is_jsnull(value))


def _flat(x: object) -> list:
    """A range as a flat list: scalar -> [x]; row/column -> itself; block -> row by row."""
    if isinstance(x, (list, tuple)):
        out: list = []
        for item in x:
            if isinstance(item, (list, tuple)):
                out.extend(item)
            else:
                out.append(item)
        return out
    return [x]


def _grid(x: object, nrows: int | None = None) -> list[list]:
    """A range as a list of rows. A flat list is one row, or a column when ``nrows``
    (the expected number of rows, > 1) equals its length."""
    if not isinstance(x, (list, tuple)):
        return [[x]]
    if not x:
        return []
    if all(isinstance(item, (list, tuple)) for item in x):
        return [list(row) for row in x]
    if nrows is not None and nrows > 1 and len(x) == nrows:
        return [[item] for item in x]
    return [list(x)]


def _scalar(value: object, name: str) -> object:
    """One cell's value; a range of one cell is that cell, a bigger range an error."""
    if isinstance(value, (list, tuple)):
        cells = _flat(value)
        if len(cells) != 1:
            raise InputError(f"{name} must be a single cell, got a range of {len(cells)} cells")
        return cells[0]
    return value


def _refuse_error(value: object, name: str) -> None:
    error = _excel_error(value)
    if error is not None:
        raise InputError(f"{name} is the Excel error {error}: fix that cell "
                         "(an error is not a blank)")


def _number(value: object, name: str) -> object:
    """Numbers typed as text ('2000') as a Decimal (:func:`~xl_fide.rules.values.number_from_text`,
    the one reader of number text: ASCII digits, at most 40 characters); other text
    and other values unchanged. An Excel error value is refused with ``name``."""
    _refuse_error(value, name)
    if isinstance(value, str):
        try:
            return number_from_text(value, name)
        except InputError:
            return value
    return value


def _int(value: object, name: str, minimum: int | None = None,
         maximum: int | None = None) -> int:
    _refuse_error(value, name)
    return as_int(value, name, minimum=minimum, maximum=maximum)


def _rating(value: object, name: str) -> int:
    _refuse_error(value, name)
    return as_rating(value, name)


def _k(value: object, name: str) -> int:
    _refuse_error(value, name)
    return as_k(value, name)


def _date(value: object, name: str = "event_date") -> _dt.date | None:
    """A date from a date/datetime, an Excel serial number (1900 system) or ISO text."""
    value = _scalar(value, name)
    if _blank(value):
        return None
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    number = _number(value, name)
    if isinstance(number, (int, float, Decimal)) and not isinstance(number, bool):
        if number == 0:                     # a blank cell read as a number: no date
            return None
        # compared before any arithmetic: 1e999999999 is refused at once
        if not 1 <= number < _EXCEL_SERIAL_MAX + 1:
            raise InputError(f"{name} must be a date or an Excel date number, "
                             f"got {quote_value(value)}")
        serial = math.floor(number)
        if serial == 60:                    # Excel's 1900-02-29
            raise InputError(f"{name} must be a date or an Excel date number, got {value!r}")
        if serial < 60:
            return _EXCEL_EPOCH + _dt.timedelta(days=serial + 1)
        return _EXCEL_EPOCH + _dt.timedelta(days=serial)
    if isinstance(value, str):
        try:
            return parse_date(value)
        except RuleError:
            pass
    raise InputError(f"{name} must be a date like 2025-10-01, got {quote_value(value)}")


def _edition(time_control: object, event_date: object) -> RuleEdition:
    """The rule edition for the optional ``time_control``/``event_date`` arguments."""
    tc = _scalar(time_control, "time_control")
    return rules_for(_date(event_date), None if _blank(tc) else tc)


_TYPE_AS_TEXT = " — type results as text, e.g. ½ (the result cells are Text-formatted)"


def _result(value: object, name: str) -> GameResult | None:
    """A result cell; a date, a time, a formula error or another number that Excel made
    of what was typed (``1/2`` -> a date, ``1:0`` -> a time in a General cell) is
    named, never read as a number (issue 15, #4)."""
    what = _not_a_result(value)
    if what is not None:
        raise InputError(f"{name}: {what}{_TYPE_AS_TEXT}")
    return parse_result(value, name)


def _not_a_result(value: object) -> str | None:
    """What a cell value that Excel converted from a typed result is, or None."""
    if isinstance(value, _dt.datetime):
        # classic passes a time alone as a datetime on Excel's day 0 (1899-12-30/31)
        if value.date() <= _dt.date(1899, 12, 31):
            return f"a time ({value.time().isoformat(timespec='minutes')})"
        return f"a date ({value.date().isoformat()})"
    if isinstance(value, _dt.date):
        return f"a date ({value.isoformat()})"
    if isinstance(value, _dt.time):
        return f"a time ({value.isoformat(timespec='minutes')})"
    error = _excel_error(value)
    if error is not None:
        return f"the Excel error {error}"
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        # xlwings Lite passes dates and times as Excel serial numbers: 1:0 -> 1/24
        # (01:00), 0:1 -> 1/1440 (00:01), 1/2 -> a whole day number (after 1900)
        for typed, serial in (("1:0", 1 / 24), ("0:1", 1 / 1440)):
            if abs(value - serial) < 1e-12:
                return f"a time (the number {value:.6g}: {typed} typed in a General cell)"
        if float(value).is_integer() and 367 <= value <= _EXCEL_SERIAL_MAX:
            return (f"the number {value:.0f}, a date (1/2 typed in a General cell "
                    "becomes one)")
    return None


def _games(opponent_ratings: object, scores: object,
           unrated: str = "skip") -> list[tuple[int | None, GameResult]]:
    """Pairs (opponent rating or None, result) of the cells with a result.

    ``unrated``: what a blank opponent rating with a result is: ``"skip"`` (the pair is
    left out) or ``"keep"`` (``None``: an unrated opponent). Played and unplayed
    results are both returned; callers keep what their rule counts.
    """
    ratings = _flat(opponent_ratings)
    results = _flat(scores)
    if len(ratings) != len(results):
        raise InputError(f"opponent_ratings has {len(ratings)} cells but scores has "
                         f"{len(results)}: give one score per opponent")
    games: list[tuple[int | None, GameResult]] = []
    for i, (r, s) in enumerate(zip(ratings, results), 1):
        result = _result(s, f"scores cell {i}")
        if result is None:
            continue
        if _blank(r):
            if unrated == "keep":
                games.append((None, result))
            continue
        games.append((_rating(r, f"opponent_ratings cell {i}"), result))
    return games


def _rated_played(games: list[tuple[int | None, GameResult]]) -> list[tuple[int, int]]:
    """(R_opp, half points) of the played games against rated opponents."""
    return [(r, g.half_points) for r, g in games if r is not None and g.played]


# -------------------------------------------------------------------- single games

@func(category=_CATEGORY)
@_args(
    ("rating", "own rating (whole number)"),
    ("opponent_rating", "the opponent's rating (whole number)"),
    ("method", "fide (default: table + 400-point rule), table (no cap) or logistic"),
    *_TC_DATE,
)
@_excel_boundary
def FIDE_EXPECTED(rating, opponent_rating, method="fide", time_control="standard", event_date=None):
    """Expected score PD of one game (0.32): FIDE B.02 §8.1.2 table, §8.3.1 400-point rule.

    method "fide": the table with the 400-point rule as the rules of event_date apply it
    to `rating` (not capped for a standard player rated 2650+ from 1 Oct 2025);
    "table": the bare table; "logistic": 1 / (1 + 10^(-D/400)), not FIDE's.
    Blank rating -> #N/A. Example: FIDE_EXPECTED(1892, 2022) = 0.32.
    """
    rating, opponent_rating = _scalar(rating, "rating"), _scalar(opponent_rating, "opponent_rating")
    if _blank(rating) or _blank(opponent_rating):
        return NA
    Ro = _rating(rating, "rating")
    R_opp = _rating(opponent_rating, "opponent_rating")
    how = _scalar(method, "method")
    how = "fide" if _blank(how) else str(how).strip().lower()
    if how == "fide":
        return expected_score(Ro, R_opp, _edition(time_control, event_date)) / 100
    _edition(time_control, event_date)  # still report a bad time_control or date
    if how == "table":
        return expected_score(Ro, R_opp, cap=False) / 100
    if how == "logistic":
        return logistic_expected(Ro, R_opp)
    raise InputError(f"method must be fide, table or logistic, got {method!r}")


@func(category=_CATEGORY)
@_args(
    ("rating", "own rating (whole number)"),
    ("opponent_rating", "the opponent's rating (whole number)"),
    ("score", "1, ½, 0 (or =, 1-0, 0-1...); + or - is a forfeit: #N/A"),
    ("k", "K factor (whole number)"),
    *_TC_DATE,
)
@_excel_boundary
def FIDE_DELTA(rating, opponent_rating, score, k, time_control="standard", event_date=None):
    """K x (S - PD) for one game, unrounded (27.2): FIDE B.02 §8.3.2, PD from §8.1.2.

    Uses the 400-point rule of §8.3.1 as the rules of event_date apply it. A game the
    rules do not rate (forfeit + or -, bye, rapid/blitz game 600+ apart with a player
    above 2600) returns #N/A, as does a blank cell.
    Example: FIDE_DELTA(1892, 2022, 1, 40) = 27.2.
    """
    cells = [_scalar(v, n) for v, n in ((rating, "rating"), (opponent_rating, "opponent_rating"),
                                          (score, "score"), (k, "k"))]
    if any(_blank(v) for v in cells):
        return NA
    Ro = _rating(cells[0], "rating")
    R_opp = _rating(cells[1], "opponent_rating")
    result = _result(cells[2], "score")
    K = _k(cells[3], "k")
    edition = _edition(time_control, event_date)
    if result is None or not result.played:
        return NA
    (line,) = game_lines(Ro, [(R_opp, result.half_points)], edition)
    if not line.rated:
        return NA
    return K * line.delta_R / 100


def _event_change(rating, opponent_ratings, scores, k, time_control, event_date):
    """The engine's EventChange for FIDE_CHANGE/FIDE_NEW_RATING, or None (nothing to compute)."""
    rating, k = _scalar(rating, "rating"), _scalar(k, "k")
    if _blank(rating) or _blank(k):
        return None
    Ro = _rating(rating, "rating")
    K = _k(k, "k")
    edition = _edition(time_control, event_date)
    games = _games(opponent_ratings, scores, unrated="skip")
    if not games:
        return None
    pairs = [(r, half / 2) for r, half in _rated_played(games)]
    return rate_event(Ro, pairs, K, edition)


@func(category=_CATEGORY)
@_args(*_EVENT_ARGS)
@_excel_boundary
def FIDE_CHANGE(rating, opponent_ratings, scores, k, time_control="standard", event_date=None):
    """Rating change K x ΣΔR over the games, unrounded (-2.5): FIDE B.02 §8.3.2, §8.3.3.

    Pairs with a blank cell are skipped, forfeits and byes are not rated; K is capped so
    that K x n <= 700 over the rated games. Exact to the hundredth. Nothing entered:
    #N/A; games entered but none rated: 0.
    Example: FIDE_CHANGE(2000, {1950;2050;1810}, {1;0;0.5}, 10) = -2.5.
    """
    calc = _event_change(rating, opponent_ratings, scores, k, time_control, event_date)
    if calc is None:
        return NA
    return calc.change / 100


@func(category=_CATEGORY)
@_args(*_EVENT_ARGS)
@_excel_boundary
def FIDE_NEW_RATING(rating, opponent_ratings, scores, k, time_control="standard", event_date=None):
    """New rating: rating + K x ΣΔR rounded, .5 away from zero: FIDE B.02 §8.3.4.

    The event is taken as the whole rating period (one rounding; K x n <= 700 cap of
    §8.3.3). Same inputs as FIDE_CHANGE. Nothing entered: #N/A. A new rating below
    the floor (1400; 1000 before 1 Mar 2024) is not published (§7.2.1): the cell shows
    "not published: below 1400 (1398)".
    Example: FIDE_NEW_RATING(2000, {1950;2050;1810}, {1;0;0.5}, 10) = 1997 (-2.50 -> -3).
    """
    calc = _event_change(rating, opponent_ratings, scores, k, time_control, event_date)
    if calc is None:
        return NA
    return new_rating_or_note(calc)   # below the floor: "not published: below 1400 (1398)"


# ------------------------------------------------------------------------------ K

_K_ARGS = ("rating", "birth_year", "games", "peak_rating", "period_games", "period_year",
           "time_control", "event_date")


def _k_one(values: dict, where: str = "") -> object:
    def name(n: str) -> str:
        return n + where

    rating = values["rating"]
    if _blank(rating):
        return "" if where else NA
    Ro = _rating(rating, name("rating"))
    tc = values["time_control"]
    edition = rules_for(_date(values["event_date"], name("event_date")), None if _blank(tc) else tc)

    def optional(key: str, convert, **limits):
        v = values[key]
        return None if _blank(v) else convert(v, name(key), **limits)

    birth_year = optional("birth_year", _int, minimum=1850, maximum=2200)
    games = optional("games", _int, minimum=0)
    peak = optional("peak_rating", _rating)
    period_games = optional("period_games", _int, minimum=0)
    period_year = optional("period_year", _int, minimum=1970, maximum=2200)
    if period_year is None:
        date = _date(values["event_date"], name("event_date"))
        period_year = (date or _dt.date.today()).year
    return k_factor(Ro, birth_year=birth_year, career_games=games, peak_rating=peak,
                    period_year=period_year, period_games=period_games, edition=edition)


@func(category=_CATEGORY)
@_args(
    ("rating", "rating (a cell, or a column for a whole K column)"),
    ("birth_year", "year of birth (blank: not a junior)"),
    ("games", "rated games completed before (blank: 30 or more)"),
    ("peak_rating", "highest published rating (2400+ means K 10 for good)"),
    ("period_games", "rated games in this rating period: K x n <= 700 cap"),
    ("period_year", "year of the rating period (blank: year of event_date or today)"),
    *_TC_DATE,
)
@_excel_boundary
def FIDE_K(rating, birth_year=None, games=None, peak_rating=None, period_games=None,
           period_year=None, time_control="standard", event_date=None):
    """K factor: FIDE B.02 §8.3.3 (40 new or junior under 2300, 20, 10 once 2400).

    Ever 2400+ (rating or peak_rating) -> 10; else a junior (period_year - birth_year <= 18)
    rated under 2300 -> 40; else fewer than 30 games -> 40; else 20. period_games caps K
    so that K x n <= 700 (n 18: K 40 -> 38). Rapid/blitz before 1 Oct 2022: 20.
    Ranges: pass columns (rating a column, the others columns of the same length or
    single values) to get a column of K; a blank rating gives "" in its row, a bad
    value the message in its row.
    """
    values = dict(zip(_K_ARGS, (rating, birth_year, games, peak_rating, period_games,
                                period_year, time_control, event_date)))
    ranges = {n: _flat(v) for n, v in values.items() if isinstance(v, (list, tuple))}
    if not ranges:
        return _k_one(values)
    lengths = {n: len(v) for n, v in ranges.items()}
    n = lengths.get("rating", max(lengths.values()))
    for other, length in lengths.items():
        if length != n:
            ref = "rating" if "rating" in lengths else next(iter(lengths))
            raise InputError(f"{other} has {length} cells but {ref} has {lengths[ref]}: "
                             "give ranges of the same length or single values")
    out = []
    for i in range(n):
        row = {key: (ranges[key][i] if key in ranges else v) for key, v in values.items()}
        try:
            out.append([_k_one(row, f" row {i + 1}")])
        except InputError as exc:      # one bad row shows its message, the others their K
            out.append([str(exc)])
    return out


# ------------------------------------------------------------------ list adjustments

def _adjusted(rating: int, list_date: _dt.date | None, rules_date: _dt.date | None) -> int:
    """``rating`` of a list of ``list_date`` as the rules as on ``rules_date`` read it
    (the 1 March 2024 adjustment, :func:`~xl_fide.rules.adjustments.adjusted_for_rules`;
    the rapid/blitz one of 2022 needs a standard rating the sheet does not hold)."""
    adjusted, _ = adjusted_for_rules(rating, list_date, rules_date, TimeControl.STANDARD)
    return rating if adjusted is None else adjusted


@func(category=_CATEGORY)
@_args(
    ("rating", "rating on a list (a cell, or a column for a whole Ro column)"),
    ("list_date", "date of the list the rating is from (a cross-table: its start date)"),
    ("rules_date", "date whose rules rate the event; blank: the list's (no adjustment)"),
)
@_excel_boundary
def FIDE_ADJUST_2024(rating, list_date=None, rules_date=None):
    """Rating as the rules of rules_date read it: FIDE's one-off adjustment of 1 Mar 2024,
    with the 1400 floor of B.02 §7.2.1 (below 2000: R + round(0.4 x (2000 - R))), when
    list_date is before that day and rules_date on or after it; else the rating.

    1500 from a January 2024 list rated by the rules of June 2024 -> 1700; 1999 -> 1999;
    2100 -> 2100. A rating typed as text counts when it is digits only ("1850").
    A column gives a column: a blank rating "" in its row, a rating that is not a whole
    number 0..4000 "not a rating" in its row.
    """
    listed = _date(list_date, "list_date")
    rules = _date(rules_date, "rules_date")
    if not isinstance(rating, (list, tuple)):
        _refuse_error(rating, "rating")
        value = sheet_rating(rating, "rating")
        return NA if value is None else _adjusted(value, listed, rules)
    out: list[list] = []
    for cell in _flat(rating):
        try:        # an error cell ("#N/A") is text that is not a rating
            value = sheet_rating(cell)
        except InputError:
            out.append([NOT_A_RATING])
            continue
        out.append(["" if value is None else _adjusted(value, listed, rules)])
    return out


# ------------------------------------------------------------------ unrated players

@func(category=_CATEGORY)
@_args(
    ("opponent_ratings", _DOC_OPPS + " (blank rating: unrated opponent, skipped)", 1),
    ("scores", _DOC_SCORES, 1),
    *_TC_DATE,
)
@_excel_boundary
def FIDE_INITIAL_RATING(opponent_ratings, scores, time_control="standard", event_date=None):
    """Initial rating Ru of an unrated player, or why it is not published: FIDE B.02 §8.2.

    Since 1 Mar 2024: two hypothetical 1800 draws are added, Ru = Ra + dp(p), at most
    2200, published from 1400 with 5+ games against rated opponents (earlier events use
    the rule of their date). Only played games against rated opponents count.
    Example: five draws against 1400s -> 1514; 1/5 -> "not published: 1356 is below...".
    """
    edition = _edition(time_control, event_date)
    games = _games(opponent_ratings, scores, unrated="skip")
    if not games:
        return NA
    init = initial_rating([[(r, half / 2) for r, half in _rated_played(games)]], edition)
    if init.Ru is not None:
        return init.Ru
    return f"not published: {init.reason}"


# ------------------------------------------------------------------- performances

def _opponents_and_points(opponent_ratings, scores) -> tuple[list[int], float] | None:
    games = _rated_played(_games(opponent_ratings, scores, unrated="skip"))
    if not games:
        return None
    return [r for r, _ in games], sum(h for _, h in games) / 2


@func(category=_CATEGORY)
@_args(*_GAMES)
@_excel_boundary
def FIDE_PERFORMANCE(opponent_ratings, scores):
    """FIDE performance rating Rp = Ra + dp(p): FIDE B.02 §8.1.1 (Ra the average).

    p is rounded to hundredths, half up; no 400-point cap. Only played games against
    rated opponents count; none: #N/A.
    Example: 3 wins, 2 draws, 1 loss against an average of 1850 -> p .67 -> 1975.
    """
    found = _opponents_and_points(opponent_ratings, scores)
    if found is None:
        return NA
    return performance_rating(*found)


@func(category=_CATEGORY)
@_args(
    ("opponent_ratings", _DOC_OPPS + " (blank rating with a result: unrated, 1400)", 1),
    ("scores", _DOC_SCORES, 1),
    ("title", "GM, IM, WGM or WIM"),
)
@_excel_boundary
def FIDE_NORM(opponent_ratings, scores, title):
    """Title-norm performance as one row [Rp, Ra, "met" or "not met: ..."]: FIDE B.01 §1.4.

    Unrated opponents count as 1400; the lowest opponent is raised to the title's floor
    (GM 2200, IM 2050, WGM 2000, WIM 1850); Ra rounded half up; no 400-point cap; checks
    9+ games, 35 % score, Ra and Rp (not the federation and title-mix rules).
    A single cell shows Rp. Example: 6.5/9 vs 2500...2150 (GM) -> [2609, 2443, "met"].
    """
    title = _scalar(title, "title")
    games = [(r, g.half_points) for r, g in _games(opponent_ratings, scores, unrated="keep")
             if g.played]
    if _blank(title) or not games:
        return NA
    norm = norm_performance([r for r, _ in games], sum(h for _, h in games) / 2, str(title))
    missing = [detail for _, ok, detail in norm.checks if not ok]
    verdict = "met" if not missing else "not met: " + "; ".join(missing)
    return [[norm.Rp, norm.Ra, verdict]]


@func(category=_CATEGORY)
@_args(*_GAMES)
@_excel_boundary
def FIDE_TPR(opponent_ratings, scores):
    """Tie-break Tournament Performance Rating TPR = ARO + dp(p): FIDE C.07 §10.2.

    ARO (average rating of opponents) rounded half up; played games against rated
    opponents only; none: #N/A. Example: 2/3 vs 2000, 2100, 2200 -> 2225.
    """
    found = _opponents_and_points(opponent_ratings, scores)
    if found is None:
        return NA
    return tournament_performance_rating(*found)


@func(category=_CATEGORY)
@_args(*_GAMES)
@_excel_boundary
def FIDE_PTP(opponent_ratings, scores):
    """Tie-break Perfect Tournament Performance PTP: FIDE C.07 §10.3.

    The lowest whole rating whose expected score (table 8.1.2, no 400-point cap) over the
    opponents reaches the score; 0 points: lowest opponent - 800. Played games against
    rated opponents only; none: #N/A. Example: 2/3 vs 2000, 2100, 2200 -> 2226.
    """
    found = _opponents_and_points(opponent_ratings, scores)
    if found is None:
        return NA
    return perfect_tournament_performance(*found)


# ------------------------------------------------------------------------- tables

@func(category=_CATEGORY)
@_args(("D", "signed rating difference, own minus opponent (whole number)"))
@_excel_boundary
def FIDE_PD(D):
    """PD for a signed rating difference D (0.68 for 130, 0.32 for -130): FIDE B.02 §8.1.2.

    The bare table: no 400-point rule. D is a whole number from -4000 to 4000 (two
    ratings of 0..4000); anything else is an error. Blank: #N/A.
    """
    D = _scalar(D, "D")
    if _blank(D):
        return NA
    return pd_for_difference(_int(D, "D", minimum=-RATING_MAX, maximum=RATING_MAX)) / 100


@func(category=_CATEGORY)
@_args(("p", "fractional score from 0 to 1 (rounded to hundredths, half up)"))
@_excel_boundary
def FIDE_DP(p):
    """Rating difference dp for a fractional score p (125 for 0.67): FIDE B.02 §8.1.1.

    p is rounded to two decimals half up as written (0.665 -> .67, 0.375 -> .38) before
    the look-up; dp(1) = 800, dp(0) = -800. Blank: #N/A.
    """
    p = _scalar(p, "p")
    if _blank(p):
        return NA
    value = _number(p, "p")
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise InputError(f"p must be a number from 0 to 1, got {p!r}")
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if not exact.is_finite() or not 0 <= exact <= 1:
        raise InputError(f"p must be a number from 0 to 1, got {p!r}")
    hundredths = int((exact * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return dp_for_p(hundredths)


@func(category=_CATEGORY)
@_args(("result", "1, ½, 0, =, 1-0, 0-1, + (forfeit win), - (forfeit loss), H, F, U, Z..."))
@_excel_boundary
def FIDE_SCORE(result):
    """Points of a result: 1, 0.5 or 0 (FIDE B.02 §8.3.2 scores; TRF-16 result codes).

    Forfeits count as points (+ -> 1, - -> 0) though they are not rated games; byes
    H -> 0.5, F/U -> 1, Z -> 0. Blank: #N/A.
    """
    parsed = _result(_scalar(result, "result"), "result")
    if parsed is None:
        return NA
    return parsed.points


# ------------------------------------------------------------------- whole events

def _check_pair(a: GameResult | None, b: GameResult | None, where_a: str, where_b: str,
                cell_a: object, cell_b: object) -> None:
    """Both results of one game must agree, by the one pair rule the TRF and workbook
    readers use (:func:`~xl_fide.rules.results.pair_problem`: 1 against 0, ½ against ½,
    + against -, no bye facing a game), and a result on one side needs the other side's
    (a game entered on one side only would rate that side alone)."""
    if a is None and b is None:
        return
    if a is None or b is None:
        typed, blank, value = (where_a, where_b, cell_a) if b is None else (where_b, where_a, cell_b)
        raise InputError(f"{typed} is {value!r} but {blank} is blank: "
                         "enter both results of a game")
    problem = pair_problem(a.code, b.code)
    if problem is not None:
        raise InputError(f"{where_a} is {cell_a!r} but {where_b} is {cell_b!r}: {problem}")


def _event_players(ratings: list, k_factors: object, edition: RuleEdition
                   ) -> tuple[list[int | None], list[int | None], dict[int, str]]:
    """The players' ratings (the floor applied) and K; a rating cell that is not a
    rating (its row index -> the message) is not a cascade: that row shows the message,
    the others see an unrated player."""
    cells = _flat(ratings)
    ks = _flat(k_factors)
    if len(ks) != len(cells):
        raise InputError(f"k_factors has {len(ks)} cells but ratings has {len(cells)}: "
                         "give one K per player (blank for unrated players)")
    out_r: list[int | None] = []
    out_k: list[int | None] = []
    bad: dict[int, str] = {}
    for i, (r, k) in enumerate(zip(cells, ks), 1):
        try:
            rating = None if _blank(r) else _rating(r, f"ratings row {i}")
        except InputError as exc:   # shown in its own row; an unrated opponent to others
            rating, bad[i - 1] = None, str(exc)
        rating, _ = effective_rating(rating, edition)
        K = None if _blank(k) or i - 1 in bad else _k(k, f"k_factors row {i}")
        if rating is not None and K is None:
            raise InputError(f"k_factors row {i} is blank for a rated player")
        out_r.append(rating)
        out_k.append(K)
    return out_r, out_k, bad


def _short_notes(notes: object) -> bool:
    """``notes`` of FIDE_EVENT(_SWISS): blank or ``full`` (sentences) -> False,
    ``short`` (the codes of :mod:`xl_fide.rules.notes`) -> True; else InputError."""
    notes = _scalar(notes, "notes")
    if _blank(notes) or (isinstance(notes, str) and notes.strip().lower() == "full"):
        return False
    if isinstance(notes, str) and notes.strip().lower() == "short":
        return True
    raise InputError(f'notes must be "full" or "short", got {quote_value(notes)}')


def _event_rows(ratings: list[int | None], ks: list[int | None],
                rounds: Sequence[tuple[tuple[int | None, GameResult | None], ...]],
                blank_rows: list[bool], edition: RuleEdition, short: bool = False,
                bad: dict[int, str] | None = None) -> list[list]:
    entrants = [Entrant(i + 1, ratings[i], ks[i] if ratings[i] is not None else None, rounds[i])
                for i in range(len(ratings))]
    out: list[list] = []
    for i, (blank, res) in enumerate(zip(blank_rows, rate_crosstable(entrants, edition))):
        if bad and i in bad:     # its rating is not one: Ru says why, nothing is rated
            out.append([""] * 9 + [bad[i], ""])
            continue
        if blank:
            out.append([""] * len(EVENT_COLUMNS))
            continue
        out.append(block_values(res, edition, short=short))
    return out


def _diagonal_result(value: object) -> bool:
    """A round robin's diagonal cell holds a result or a number (refused), not blank or
    a marker such as ``x`` or ``*`` (ignored)."""
    if _blank(value) or isinstance(value, bool):
        return False
    if isinstance(value, (int, float, Decimal)) or _not_a_result(value) is not None:
        return True
    try:
        return parse_result(value) is not None
    except InputError:
        return False


@func(category=_CATEGORY)
@_args(
    ("ratings", "column of the players' ratings (blank = unrated)", 1),
    ("k_factors", "column of K factors (blank allowed for unrated players)", 1),
    ("results", "n x n grid: row i, column j = i's result against j", 2),
    *_TC_DATE,
    _NOTES,
)
@_excel_boundary
def FIDE_EVENT(ratings, k_factors, results, time_control="standard", event_date=None,
               notes=None):
    """A round robin's rating report, n rows x 11: FIDE B.02 §8.2, §8.3 (calculation page).

    Columns: N, W, ΣPD, W-ΣPD, K used (after the 700 cap), K x ΣΔR, rounded change, new
    rating, Rp, Ru, Rc. N and W count played games against rated opponents; Rc is the
    average rating of those N opponents, a whole number rounded .5 up as FIDE's rating
    report shows it ("" when N is 0; a range of the first 10 columns leaves it out).
    Unrated players: "" from ΣPD to new rating and Ru (or why not published; ``notes`` "short": as the code
    ``NP 1395``, ``NP 3g``, ``NP 0g``, ``NP 0pt`` of :data:`xl_fide.rules.notes.KEY`). On the diagonal a marker
    (``x``, ``*``) is ignored, a result or a number is an error (never dropped); a row with no
    rating and no results is all "". The event is the player's rating period.
    """
    players = _flat(ratings)
    n = len(players)
    edition = _edition(time_control, event_date)
    R, K, bad = _event_players(players, k_factors, edition)
    grid = _grid(results, n)
    if len(grid) != n or any(len(row) != n for row in grid):
        width = max((len(row) for row in grid), default=0)
        raise InputError(f"results must be {n} rows by {n} columns (one per player), "
                         f"got {len(grid)} by {width}")
    for i in range(n):          # a result on the diagonal is never dropped unseen
        if _diagonal_result(grid[i][i]):
            raise InputError(f"results row {i + 1} column {i + 1} is {quote_value(grid[i][i])}: "
                             "a result on the diagonal (a player does not play himself)")
    parsed = [[None if i == j else _result(grid[i][j], f"results row {i + 1} column {j + 1}")
               for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            _check_pair(parsed[i][j], parsed[j][i], f"results row {i + 1} column {j + 1}",
                        f"row {j + 1} column {i + 1}", grid[i][j], grid[j][i])
    rounds = [tuple((j + 1, parsed[i][j]) for j in range(n) if j != i) for i in range(n)]
    blank_rows = [_blank(players[i]) and all(p is None for p in parsed[i]) for i in range(n)]
    return _event_rows(R, K, rounds, blank_rows, edition, _short_notes(notes), bad)


@func(category=_CATEGORY)
@_args(
    ("ratings", "column of the players' ratings (blank = unrated)", 1),
    ("k_factors", "column of K factors (blank allowed for unrated players)", 1),
    ("opponents", "n x rounds grid of opponents' row numbers 1..n (blank/0: none)", 2),
    ("results", "n x rounds grid of results (1, ½, 0, +, -, H...)", 2),
    *_TC_DATE,
    _NOTES,
)
@_excel_boundary
def FIDE_EVENT_SWISS(ratings, k_factors, opponents, results, time_control="standard",
                     event_date=None, notes=None):
    """A Swiss event's rating report, n rows x 11: FIDE B.02 §8.2, §8.3 (calculation page).

    Same 11 columns as FIDE_EVENT (N, W, ΣPD, W-ΣPD, K, K x ΣΔR, change, new rating, Rp,
    Ru, Rc; ``notes`` as there). opponents holds, per round, the row number (1..n) of the opponent within the
    ranges; blank or 0 with a result is a bye (not rated). Forfeits are not rated.
    """
    players = _flat(ratings)
    n = len(players)
    edition = _edition(time_control, event_date)
    R, K, bad = _event_players(players, k_factors, edition)
    opp_grid = _grid(opponents, n)
    res_grid = _grid(results, n)
    shape = (len(opp_grid), max((len(r) for r in opp_grid), default=0))
    if len(opp_grid) != n or any(len(row) != shape[1] for row in opp_grid):
        raise InputError(f"opponents must have {n} rows (one per player) of the same "
                         f"length, got {shape[0]} rows")
    if len(res_grid) != n or any(len(row) != shape[1] for row in res_grid):
        width = max((len(r) for r in res_grid), default=0)
        raise InputError(f"results must be {shape[0]} rows by {shape[1]} rounds like "
                         f"opponents, got {len(res_grid)} by {width}")
    n_rounds = shape[1]
    opp: list[list[int | None]] = []
    for i, row in enumerate(opp_grid):
        numbers = []
        for r, cell in enumerate(row):
            where = f"opponents row {i + 1} round {r + 1}"
            number = None if _blank(cell) else _int(cell, where, minimum=0, maximum=n)
            if number == i + 1:
                raise InputError(f"{where} is the player's own row number {number}")
            numbers.append(number or None)
        opp.append(numbers)
    parsed = [[_result(res_grid[i][r], f"results row {i + 1} round {r + 1}")
               for r in range(n_rounds)] for i in range(n)]
    for i in range(n):
        for r in range(n_rounds):
            j = opp[i][r]
            if j is None:
                continue
            back = opp[j - 1][r]
            if back is None:        # a pairing on one side only (the workbook refuses it)
                raise InputError(f"opponents row {i + 1} round {r + 1} is {j} but row {j} "
                                 f"round {r + 1} is blank: enter the pairing on both rows")
            if back != i + 1:
                raise InputError(f"opponents row {i + 1} round {r + 1} is {j} but row {j} "
                                 f"round {r + 1} is {back}")
            if i + 1 < j:
                _check_pair(parsed[i][r], parsed[j - 1][r], f"results row {i + 1} round {r + 1}",
                            f"row {j} round {r + 1}", res_grid[i][r], res_grid[j - 1][r])
    rounds = [tuple((opp[i][r], parsed[i][r]) for r in range(n_rounds)) for i in range(n)]
    blank_rows = [_blank(players[i]) and all(p is None for p in parsed[i]) for i in range(n)]
    return _event_rows(R, K, rounds, blank_rows, edition, _short_notes(notes), bad)


@func(category=_CATEGORY)
@_excel_boundary
def FIDE_VERSION():
    """The xl-fide version (FIDE B.02 Rating Regulations 2024, amended 1 Oct 2025)."""
    return __version__
