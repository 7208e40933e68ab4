"""Excel workbooks for a FIDE rating cross-table: templates, filling from a TRF, reading back.

The only module that imports openpyxl. A workbook has these sheets:

* **Crosstable** - one row per player (rows 5 ...): the players block (No, Title,
  Name, Fed, FIDE id, Ro, Born, Games, Peak, K rule = ``FIDE_K`` over the column,
  K set = a manual override, K used), then the results (round robin: an n x n grid,
  row player's result against the column player; Swiss: per round the opponent's
  number, colour and result, TRF-like), the standings (points, Sonneborn-Berger for a
  round robin, rank, a check of both sides of every game) and the rating block (N, W,
  ΣPD, W-ΣPD, K used, K x ΣΔR, rounded change, new rating, Rp, Ru) computed by ONE
  legacy array formula ``FIDE_EVENT`` / ``FIDE_EVENT_SWISS`` over the fixed ranges
  (FIDE B.02 §8.2-§8.3). Standings are native Excel formulas.
* **Event** - name, place, dates, time control, scoring; the rule edition in force
  (FIDE B.02 §8.3: the rules of the list in force when the event started) is looked
  up natively from the editions table, and the date and time control are passed to
  the UDFs so the rule edition follows the event.
* **Report** (filled workbooks only) - plain values computed by the engine at fill time.
* **Tables** - tables 8.1.1 and 8.1.2, the result vocabulary and the rule editions,
  written from the engine (never retyped).
* **Help** and **xlwings.conf** (``UDF Modules`` = ``xl_fide.udfs``).

Public API: :func:`build_template`, :func:`write_default_templates`,
:func:`fill_workbook`, :func:`save_workbook`, :func:`read_workbook`.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
import zipfile
import zlib
import io
from copy import copy
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Sequence

from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.comments import Comment
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Border, Font, NamedStyle, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.formula import ArrayFormula

from . import __version__
from . import native as _native
from . import results as _results
from .dates import parse_date_text
from .editions import EDITIONS, guess_time_control
from .errors import InputError, WorkbookError, XlFideError
from .files import OutputExistsError, write_atomic
from .players import PlayerData
from .report import KSource, Report, build_report
from .results import VALIDATION_LIST, parse_result
from .tables import dp_rows, pd_rows
from .trf import DEFAULT_SCORING, RESULT_CODES, Game, Tournament, TrfPlayer, TrfWarning
from .values import as_int, quote_value

__all__ = [
    "LAYOUTS", "MAX_ROUND_ROBIN", "MAX_PLAYERS", "MAX_ROUNDS", "DEFAULT_TEMPLATES",
    "NATIVE_TEMPLATES",
    "WorkbookExistsError", "build_template", "write_default_templates", "fill_workbook",
    "choose_layout", "save_workbook", "read_workbook", "safe_text",
]

LAYOUTS = ("roundrobin", "swiss")
MAX_ROUND_ROBIN = 60
MAX_PLAYERS = 2000
MAX_ROUNDS = 99

#: File name -> (layout, players, rounds) of the templates shipped in ``templates/``.
DEFAULT_TEMPLATES: dict[str, tuple[str, int, int]] = {
    "fide_roundrobin_10.xlsx": ("roundrobin", 10, 9),
    "fide_swiss_60x9.xlsx": ("swiss", 60, 9),
}
#: The same templates in native formulas (no add-in needed, :mod:`xl_fide.native`).
NATIVE_TEMPLATES: dict[str, tuple[str, int, int]] = {
    name.replace(".xlsx", "_native.xlsx"): size for name, size in DEFAULT_TEMPLATES.items()}

CROSS, EVENT, REPORT, TABLES, HELP, CONF = (
    "Crosstable", "Event", "Report", "Tables", "Help", "xlwings.conf")
GROUP_ROW, HEADER_ROW, FIRST_ROW = 3, 4, 5
_FIXED_TIME = _dt.datetime(2026, 1, 1)     # workbook properties: reproducible files


class WorkbookExistsError(XlFideError, FileExistsError):
    """:func:`save_workbook` refused to overwrite an existing file (pass ``force=True``)."""


# ============================================================================ column specs

@dataclass(frozen=True)
class _Col:
    key: str
    header: str
    name: str | None       # defined name (a single column over the players' rows)
    width: float
    style: str
    help: str


PLAYER_COLS: tuple[_Col, ...] = (
    _Col("no", "No", "StartRank", 5, "calc_int",
         "Start number = row number; opponents are given by it."),
    _Col("title", "Title", "Title", 5, "in_text", "FIDE title: GM, IM, FM, CM, WGM, WIM, WFM, WCM."),
    _Col("name", "Name", "PlayerName", 26, "in_text",
         "Player's name. A row with no name, no rating and no results stays blank."),
    _Col("fed", "Fed", "Federation", 5, "in_text", "Federation (three letters)."),
    _Col("fide_id", "FIDE id", "FideId", 10, "in_int", "FIDE id."),
    _Col("ro", "Ro", "Rating", 6, "in_int",
         "Rating Ro on the list in force when the event started; blank = unrated."),
    _Col("born", "Born", "BirthYear", 6, "in_int",
         "Year of birth: K 40 until the end of the year of the 18th birthday (under 2300)."),
    _Col("games", "Games", "CareerGames", 7, "in_int",
         "Rated games completed before the event: fewer than 30 gives K 40; blank = 30 or more."),
    _Col("peak", "Peak", "PeakRating", 6, "in_int",
         "Highest published rating: 2400 or more gives K 10 for good."),
    _Col("k_rule", "K rule", "KRule", 6, "calc_int",
         "K by FIDE B.02 §8.3.3 from Ro, Born, Games and Peak (one FIDE_K array formula)."),
    _Col("k_set", "K set", "KOverride", 6, "in_int",
         "K override: a K typed here (e.g. from the rating list) wins over K rule."),
    _Col("k", "K", "KFactor", 5, "calc_int",
         "K for the event, before the K × n ≤ 700 cap: K set if given, else K rule."),
)

RATING_COLS: tuple[_Col, ...] = (
    _Col("n", "N", "RatedGames", 5, "calc_int",
         "Rated games: played games (1 ½ 0) against rated opponents."),
    _Col("w", "W", "RatedScore", 5, "calc_1", "Score W in the rated games."),
    _Col("sum_pd", "ΣPD", "Expected", 7, "calc_2",
         "Expected score: sum of PD over the rated games (table 8.1.2, 400-point rule)."),
    _Col("w_pd", "W−ΣPD", "ScoreMinusExpected", 8, "calc_s2", "ΣΔR = W − ΣPD."),
    _Col("k_used", "K used", "KUsed", 6, "calc_int",
         "K after the K × n ≤ 700 cap over the event (§8.3.3)."),
    _Col("change", "K×ΣΔR", "Change", 8, "calc_s2",
         "Rating change K × ΣΔR, not rounded (two decimals)."),
    _Col("chg", "Δ", "RatingChange", 5, "calc_sint",
         "Rating change rounded to a whole number, .5 away from zero (§8.3.4)."),
    _Col("new", "New", "NewRating", 6, "calc_int", "New rating = Ro + Δ."),
    _Col("rp", "Rp", "Performance", 6, "calc_int",
         "FIDE performance Ra + dp(p) over the rated games."),
    _Col("ru", "Ru", "InitialRating", 14, "calc_text",
         "Unrated players: initial rating (§8.2, games against rated opponents), or why "
         "it is not published."),
)

STANDING_COLS: dict[str, tuple[_Col, ...]] = {
    "roundrobin": (
        _Col("pts", "Pts", "Points", 5, "calc_1", "Points (this event's scoring, see Event)."),
        _Col("sb", "SB", "SonnebornBerger", 6, "calc_2",
             "Sonneborn-Berger: each opponent's points times the score against them."),
        _Col("rank", "Rank", "Ranking", 5, "calc_int", "Rank by points, then Sonneborn-Berger."),
        _Col("check", "Check", "ResultCheck", 6, "calc_check",
             "Results of this row that do not match the other side of the game "
             "(1 needs 0, ½ needs ½, + needs -). Empty when all is well."),
    ),
    "swiss": (
        _Col("pts", "Pts", "Points", 5, "calc_1", "Points (this event's scoring, see Event)."),
        _Col("rank", "Rank", "Ranking", 5, "calc_int", "Rank by points (ties share a rank)."),
        _Col("check", "Check", "ResultCheck", 6, "calc_check",
             "Rounds of this row that do not match the opponent's row (opponent's opponent, "
             "1 needs 0, ½ needs ½, + needs -). Empty when all is well."),
    ),
}

_ROUND_HELP = {
    "opp": "Opponent's number (No) in this round; blank for a bye.",
    "col": "Colour: w or b.",
    "res": "Result: 1, ½, 0, + (forfeit win), - (forfeit loss); byes H (½), F and U (1), Z (0).",
}

# Event sheet: key -> (row, label, defined name, style, help)
_EVENT_INPUTS: tuple[tuple[str, str, str, str, str], ...] = (
    ("name", "Event name", "EventName", "in_text", "TRF 012"),
    ("city", "Place", "EventPlace", "in_text", "TRF 022"),
    ("federation", "Federation", "EventFederation", "in_text", "TRF 032"),
    ("start", "Start date", "EventStart", "in_date",
     "TRF 042. Chooses the ratings and rules in force (FIDE B.02 §8.3); blank: today's rules."),
    ("end", "End date", "EventEnd", "in_date", "TRF 052"),
    ("rules_date", "Rules as on (optional)", "RulesDate", "in_date",
     "Blank: the start date. Another date rates the event by the rules of that date "
     "(xl-fide --event-date)."),
    ("tc", "Time control", "TimeControl", "in_text", "standard, rapid or blitz"),
    ("tc_text", "Time control as announced", "TimeControlText", "in_text",
     "TRF 122, e.g. 90 min + 30 s"),
    ("arbiter", "Chief arbiter", "ChiefArbiter", "in_text", "TRF 102"),
    ("rounds", "Rounds", "Rounds", "calc_int", "number of rounds of this sheet"),
)
_EVENT_COMPUTED: tuple[tuple[str, str, str, str, str], ...] = (
    ("edition", "Rule edition used", "RuleEdition", "calc_text",
     "from the start date and time control (Tables sheet)"),
    ("version", "xl-fide version", "XlFideVersion", "calc_text",
     "FIDE_VERSION(): #NAME? means the functions are not turned on (see Help)"),
    ("date_arg", "Date passed to the functions", "EventDateArg", "calc_date", ""),
    ("tc_arg", "Time control passed to the functions", "TimeControlArg", "calc_text", ""),
    ("layout", "Layout", "Layout", "calc_text", "roundrobin or swiss"),
    ("players", "Player rows", "PlayerRows", "calc_int", ""),
)
EVENT_ROW: dict[str, int] = {}
for _i, _spec in enumerate(_EVENT_INPUTS):
    EVENT_ROW[_spec[0]] = 3 + _i
for _i, _spec in enumerate(_EVENT_COMPUTED):
    EVENT_ROW[_spec[0]] = 3 + len(_EVENT_INPUTS) + 2 + _i
SCORING_HEADER_ROW = EVENT_ROW["players"] + 2
_SCORING_CODES: tuple[tuple[str, str], ...] = (
    ("1", "win"), ("=", "draw"), ("0", "loss"), ("+", "forfeit win"), ("-", "forfeit loss"),
    ("W", "win, not rated"), ("D", "draw, not rated"), ("L", "loss, not rated"),
    ("H", "half-point bye"), ("F", "full-point bye"), ("U", "pairing-allocated bye"),
    ("Z", "zero-point bye / absent"),
)
SCORING_FIRST_ROW = SCORING_HEADER_ROW + 2


def _event_ref(key: str) -> str:
    return f"{EVENT}!$B${EVENT_ROW[key]}"


_TC_ARG = _event_ref("tc_arg")
_DATE_ARG = _event_ref("date_arg")


# ================================================================================ styles

_THIN = Side(style="thin", color="A6A6A6")
_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_CALC_FILL = PatternFill("solid", fgColor="F2F2F2")
_HEAD_FILL = PatternFill("solid", fgColor="D9E1F2")
_GROUP_FILL = PatternFill("solid", fgColor="1F4E78")
_DIAG_FILL = PatternFill("solid", fgColor="808080")
_CENTER = Alignment(horizontal="center", vertical="center")
_LEFT = Alignment(horizontal="left", vertical="center")
_UNLOCKED = Protection(locked=False)
_LOCKED = Protection(locked=True)
_SIGNED2 = "+0.00;[Red]-0.00;0.00"
_SIGNED_INT = "+0;[Red]-0;0"


def _style_specs() -> dict[str, dict[str, Any]]:
    """Every cell style of the workbook, declared once (openpyxl named styles)."""
    calc = dict(fill=_CALC_FILL, border=_BORDER, protection=_LOCKED, alignment=_CENTER)
    inp = dict(border=_BORDER, protection=_UNLOCKED, alignment=_CENTER)
    return {
        "title": dict(font=Font(bold=True, size=14), protection=_LOCKED),
        "subtitle": dict(font=Font(italic=True, color="595959"), protection=_LOCKED),
        "group": dict(font=Font(bold=True, color="FFFFFF"), fill=_GROUP_FILL,
                      alignment=_CENTER, border=_BORDER, protection=_LOCKED),
        "head": dict(font=Font(bold=True), fill=_HEAD_FILL, border=_BORDER,
                     alignment=Alignment(horizontal="center", vertical="center",
                                         wrap_text=True), protection=_LOCKED),
        "label": dict(font=Font(bold=True), protection=_LOCKED, alignment=_LEFT),
        "note": dict(font=Font(italic=True, color="595959"), protection=_LOCKED,
                     alignment=Alignment(horizontal="left", vertical="top", wrap_text=True)),
        "text": dict(protection=_LOCKED, alignment=Alignment(vertical="top", wrap_text=True)),
        "in_text": dict(inp, alignment=_LEFT),
        "in_int": dict(inp, number_format="0"),
        # Text (@): Excel keeps 1/2, 1:0, +, - and = as typed (General makes a date, a
        # time or a formula of them); the cells also carry the result list validation
        "in_res": dict(inp, font=Font(bold=True), number_format="@"),
        "in_code": dict(inp),
        "in_date": dict(inp, number_format="yyyy-mm-dd"),
        "in_num": dict(inp, number_format="0.0#"),
        "diag": dict(fill=_DIAG_FILL, border=_BORDER, protection=_LOCKED),
        "calc_int": dict(calc, number_format="0"),
        "calc_1": dict(calc, number_format="0.0"),
        "calc_2": dict(calc, number_format="0.00"),
        "calc_s2": dict(calc, number_format=_SIGNED2),
        "calc_sint": dict(calc, number_format=_SIGNED_INT, font=Font(bold=True)),
        "calc_text": dict(calc, alignment=_LEFT),
        "calc_code": dict(calc),
        "calc_date": dict(calc, number_format="yyyy-mm-dd"),
        "calc_check": dict(calc, number_format='0;-0;""', font=Font(bold=True, color="C00000")),
        "val_int": dict(border=_BORDER, alignment=_CENTER, number_format="0"),
        "val_1": dict(border=_BORDER, alignment=_CENTER, number_format="0.0"),
        "val_2": dict(border=_BORDER, alignment=_CENTER, number_format="0.00"),
        "val_s2": dict(border=_BORDER, alignment=_CENTER, number_format=_SIGNED2),
        "val_sint": dict(border=_BORDER, alignment=_CENTER, number_format=_SIGNED_INT),
        "val_text": dict(border=_BORDER, alignment=_LEFT),
        "val_date": dict(border=_BORDER, alignment=_LEFT, number_format="yyyy-mm-dd"),
    }


def _register_styles(wb: Workbook) -> None:
    for name, spec in _style_specs().items():
        wb.add_named_style(NamedStyle(name=name, **spec))


# =========================================================================== cell writing

_FORMULA_STARTS = ("=", "+", "-", "@")


def safe_text(cell: Any, value: Any) -> None:
    """Write ``value`` to ``cell``; text starting with = + - @ is kept as text, never a formula.

    Characters a sheet cannot hold (control characters) become U+FFFD; the cells where
    that happened are listed in the workbook's ``xl_fide_replaced`` (a list of
    ``Sheet!A1``), for a warning."""
    if isinstance(value, str) and ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
        cell.parent.parent.__dict__.setdefault("xl_fide_replaced", []).append(
            f"{cell.parent.title}!{cell.coordinate}")
    cell.value = value
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        cell.data_type = "s"
        cell.quotePrefix = True


def _apply(cell: Any, name: str) -> None:
    """Give ``cell`` the named style ``name`` (cached per workbook: assigning a named style
    by name costs a look-up over all styles)."""
    cache = cell.parent.parent.__dict__.setdefault("_xl_fide_styles", {})
    arr = cache.get(name)
    if arr is None:
        cell.style = name
        cache[name] = copy(cell._style)
    else:
        cell._style = copy(arr)


def _text(ws: Any, row: int, col: int, value: Any, style: str | None = None) -> Any:
    cell = ws.cell(row, col)
    if style:
        _apply(cell, style)     # first: a named style resets quotePrefix
    safe_text(cell, value)
    return cell


def _L(col: int) -> str:
    return get_column_letter(col)


def _define(wb: Workbook, name: str, sheet: str, ref: str) -> None:
    wb.defined_names[name] = DefinedName(name, attr_text=f"{quote_sheetname(sheet)}!{ref}")


def _abs(c1: int, r1: int, c2: int | None = None, r2: int | None = None) -> str:
    a = f"${_L(c1)}${r1}"
    if c2 is None:
        return a
    return f"{a}:${_L(c2)}${r2}"


# ============================================================================== geometry

class _Geometry:
    """Where everything is on the Crosstable sheet for a layout and a size."""

    def __init__(self, layout: str, players: int, rounds: int, formulas: str = "udf") -> None:
        self.layout, self.n, self.rounds = layout, players, rounds
        self.formulas = formulas          # "udf" (FIDE_* functions) or "native"
        self.first, self.last = FIRST_ROW, FIRST_ROW + players - 1
        self.col: dict[str, int] = {}
        c = 1
        for spec in PLAYER_COLS:
            self.col[spec.key] = c
            c += 1
        self.block_first = c
        if layout == "roundrobin":
            c += players
        else:
            c += 3 * rounds
        self.block_last = c - 1
        self.standings = STANDING_COLS[layout]
        for spec in self.standings:
            self.col[spec.key] = c
            c += 1
        for spec in RATING_COLS:
            self.col[spec.key] = c
            c += 1
        self.last_col = c - 1
        # Swiss: one hidden helper column per round, the check of that round (0 or 1)
        self.check_first = self.last_col + 1
        self.check_last = self.last_col + (rounds if layout == "swiss" else 0)

    def check_col(self, rnd: int) -> int:
        """Swiss: the hidden helper column holding the check of round ``rnd``."""
        return self.check_first + rnd - 1

    def round_col(self, rnd: int, part: str) -> int:
        """Column of round ``rnd`` (1-based): part ``opp``, ``col`` or ``res``."""
        return self.block_first + 3 * (rnd - 1) + ("opp", "col", "res").index(part)

    def grid_col(self, j: int) -> int:
        """Round robin: column of the results against player ``j`` (1-based)."""
        return self.block_first + j - 1

    def column(self, key: str, absolute: bool = True) -> str:
        c = self.col[key]
        if absolute:
            return _abs(c, self.first, c, self.last)
        return f"{_L(c)}{self.first}:{_L(c)}{self.last}"

    def cell(self, key: str, row: int) -> str:
        return f"{_L(self.col[key])}{row}"


def _check_size(layout: str, players: int, rounds: int) -> None:
    if layout not in LAYOUTS:
        raise InputError(f"layout must be roundrobin or swiss, got {layout!r}")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise InputError(f"players must be a whole number from 2 to {MAX_PLAYERS}, got {players!r}")
    if layout == "roundrobin" and players > MAX_ROUND_ROBIN:
        raise InputError(f"a round robin sheet holds at most {MAX_ROUND_ROBIN} players, "
                         f"got {players}: use the swiss layout")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InputError(f"rounds must be a whole number from 1 to {MAX_ROUNDS}, got {rounds!r}")


# ========================================================================== formula parts

_CODES = "ResultCodes"     # Tables: entry | score | rated | TRF code | points in this event


def _vl(x: str, col: int) -> str:
    return f"VLOOKUP({x},{_CODES},{col},FALSE)"


_PAIRS = "GamePairs"        # Tables: keys of the TRF code pairs of one game that agree
_GAME_CODES = "GameCodes"   # Tables: the TRF result codes, numbered for those keys
_PAIR_CODE_ORDER = "1=0+-WDLHFUZ"


def _code_no(x: str) -> str:
    return f"MATCH({_vl(x, 4)},{_GAME_CODES},0)"


def _pair_bad(a: str, b: str) -> str:
    """1 when results ``a`` and ``b`` of one game disagree, else 0 (scalars or arrays).

    Both blank: a game not played yet. One blank: 1. Else the pair of their TRF codes
    (as the key 100 x code number of a + code number of b: numbers, because LibreOffice
    joins two looked-up text arrays wrongly) must be in the :data:`_PAIRS` table, written
    from :func:`xl_fide.results.pair_problem`.
    """
    key = f"{_code_no(a)}*100+{_code_no(b)}"
    return (f"IF({a}=\"\",IF({b}=\"\",0,1),IF({b}=\"\",1,"
            f"IFERROR(1-ISNUMBER(MATCH({key},{_PAIRS},0)),1)))")


def _points_of(cells: str, mask: str | None = None) -> str:
    cond = f"({cells}<>\"\")" if mask is None else f"({mask})*({cells}<>\"\")"
    return f"SUM(IF({cond},IFERROR({_vl(cells, 5)},0),0))"


# ============================================================================== builders

def build_template(layout: str, players: int, rounds: int | None = None, *,
                   formulas: str = "udf") -> Workbook:
    """An empty cross-table workbook: ``layout`` roundrobin or swiss, ``players`` rows.

    ``rounds``: the Swiss rounds (ignored for a round robin, which has players - 1).
    ``formulas``: ``udf`` (the rating block calls the FIDE_* functions) or ``native``
    (only functions built into Excel 2010+, LibreOffice and Google Sheets, see
    :mod:`xl_fide.native`; same sheets, names and layout, helpers on a hidden sheet).
    Raises :class:`~xl_fide.errors.InputError` for a bad layout, size or ``formulas``.
    """
    if rounds is None or layout == "roundrobin":
        rounds = players - 1 if layout == "roundrobin" else 9
    _check_size(layout, players, rounds)
    geo = _Geometry(layout, players, rounds, _native.check_formulas(formulas))
    wb = Workbook()
    wb.properties.creator = "xl-fide"
    wb.properties.created = _FIXED_TIME
    wb.properties.modified = _FIXED_TIME
    _register_styles(wb)
    ws = wb.active
    ws.title = CROSS
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
    wb.active = 0
    return wb


def _build_event(wb: Workbook, ws: Any, geo: _Geometry) -> None:
    _text(ws, 1, 1, "Event", "title")
    _text(ws, 2, 1, "Fill in the white cells. The date and time control choose the FIDE rules "
          "used by every formula of the Crosstable sheet.", "subtitle")
    for key, label, name, style, note in _EVENT_INPUTS:
        r = EVENT_ROW[key]
        _text(ws, r, 1, label, "label")
        _apply(ws.cell(r, 2), style)
        _text(ws, r, 3, note, "subtitle")
        _define(wb, name, EVENT, f"$B${r}")
    ws.cell(EVENT_ROW["tc"], 2).value = "standard"
    ws.cell(EVENT_ROW["rounds"], 2).value = geo.rounds
    first_computed = EVENT_ROW[_EVENT_COMPUTED[0][0]]
    _text(ws, first_computed - 1, 1, "Computed (do not edit)", "label")
    for key, label, name, style, note in _EVENT_COMPUTED:
        r = EVENT_ROW[key]
        _text(ws, r, 1, label, "label")
        _apply(ws.cell(r, 2), style)
        _text(ws, r, 3, note, "subtitle")
        _define(wb, name, EVENT, f"$B${r}")
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


def _build_tables(wb: Workbook, ws: Any) -> None:
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
        _apply(ws.cell(r, 13, f"=VLOOKUP(L{r},{scoring},2,FALSE)"), "val_1")
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
    for col, width in zip("ABCDEFGHIJKLMNOPQRSTUVWXY", (8, 10, 10, 10, 3, 8, 8, 3, 11, 7, 7, 9,
                                                          8, 3, 28, 13, 12, 100, 3, 5, 7, 3,
                                                          7, 7, 7)):
        ws.column_dimensions[col].width = width
    ws.freeze_panes = "A5"
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    _page_setup(ws, landscape=True, title_rows="4:4")


# table 8.1.2 as integer hundredths (column E of Tables) and table 8.1.1's dp column:
# what the native formulas look up (one table, written from xl_fide.tables)
_PD_LAST = 4 + len(pd_rows())
_PD_FROM = f"{TABLES}!$A$5:$A${_PD_LAST}"
_PD_HIGH = f"{TABLES}!$E$5:$E${_PD_LAST}"
_DP_VALUES = f"{TABLES}!$G$5:$G${4 + len(dp_rows())}"


def _write_pd_hundredths(ws: Any) -> None:
    """Tables!E: H of table 8.1.2 in integer hundredths (FIDE B.02 §8.1.2), beside .64."""
    _text(ws, 4, 5, "H ×100", "head")
    for r, (_, _, H) in enumerate(pd_rows(), 5):
        _apply(ws.cell(r, 5, H), "val_int")
    ws.column_dimensions["E"].width = 7


def _write_native(wb: Workbook, geo: _Geometry) -> None:
    """The rating block and the K rule column in native formulas (:mod:`xl_fide.native`)
    instead of the FIDE_* array formulas; per-player and per-game helpers on a hidden
    sheet; the Event sheet's version cell as text (no FIDE_VERSION to call)."""
    ws = wb[CROSS]
    calc = wb.create_sheet(_native.CALC)
    for sheet, r, c, value in _native.cells(_native_layout(geo)):
        (ws if sheet == CROSS else calc).cell(r, c).value = value
    calc.sheet_state = "hidden"
    calc.protection.sheet = True
    ws.cell(HEADER_ROW, geo.col["k_rule"]).comment = Comment(
        "K by FIDE B.02 §8.3.3 from Ro, Born, Games and Peak (a native formula).", "xl-fide",
        width=260, height=90)
    ev = wb[EVENT]
    _text(ev, EVENT_ROW["version"], 2, __version__)
    _text(ev, EVENT_ROW["version"], 3, "native formulas: no add-in needed", "subtitle")


def _native_layout(geo: _Geometry) -> _native.Layout:
    """Where the native formulas read and write on a sheet of this geometry."""
    swiss = geo.layout == "swiss"
    return _native.Layout(
        kind=geo.layout, first=geo.first, last=geo.last, cross=CROSS, col=dict(geo.col),
        edition=_event_ref("edition"), date=_DATE_ARG, pd_from=_PD_FROM, pd_high=_PD_HIGH,
        dp=_DP_VALUES, codes=_CODES, grid_first=geo.block_first,
        opp_cols=[geo.round_col(k, "opp") for k in range(1, geo.rounds + 1)] if swiss else (),
        res_cols=[geo.round_col(k, "res") for k in range(1, geo.rounds + 1)] if swiss else (),
        header_row=HEADER_ROW, block_first=geo.block_first, block_last=geo.block_last)


def _agreeing_pairs() -> list[tuple[str, str]]:
    """The TRF code pairs (``1 0``, ``= =``, ``+ -``, ``- -`` ...) that the two sides of
    one game may have, from :func:`xl_fide.results.pair_problem` (colours aside)."""
    assert set(_PAIR_CODE_ORDER) == RESULT_CODES
    return [(a, b) for a in _PAIR_CODE_ORDER for b in _PAIR_CODE_ORDER
            if _results.pair_problem(a, b) is None]


def _vocabulary() -> list[tuple[Any, Any]]:
    """(entry, GameResult) for every entry a result cell may hold: the engine's vocabulary
    (:mod:`xl_fide.results`) plus the numbers 1, 0.5 and 0."""
    words = list(_results.vocabulary())
    entries: list[Any] = [1, 0.5, 0] + [w.upper() if len(w) == 1 and w.isalpha() else w
                                        for w in words]
    out = []
    seen: set = set()
    for e in entries:
        key = (type(e) is str, str(e).lower())
        if key in seen:
            continue
        seen.add(key)
        result = parse_result(e)
        if result is not None:             # every vocabulary entry is a result
            out.append((e, result))
    order = {2: 0, 1: 1, 0: 2}
    out.sort(key=lambda er: (order[er[1].half_points], not er[1].played))
    return out


def _page_setup(ws: Any, *, landscape: bool, title_rows: str | None = None,
                title_cols: str | None = None, fit_width: bool = True) -> None:
    """Print set-up: A4; one page wide (``fit_width``) or, for the wide cross-table, at
    100 % over as many pages as it takes, title rows and columns repeated on each."""
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    if fit_width:
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    else:
        ws.page_setup.scale = 100
        ws.page_setup.pageOrder = "overThenDown"     # a row's pages one after the other
        ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.print_options.gridLines = False
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.5
    if title_rows:
        ws.print_title_rows = title_rows
    if title_cols:
        ws.print_title_cols = title_cols


def _header(ws: Any, geo: _Geometry, col: int, spec: _Col) -> None:
    cell = _text(ws, HEADER_ROW, col, spec.header, "head")
    cell.comment = Comment(spec.help, "xl-fide", width=260, height=90)
    ws.column_dimensions[_L(col)].width = spec.width


def _group(ws: Any, first: int, last: int, text: str) -> None:
    _text(ws, GROUP_ROW, first, text, "group")
    for c in range(first + 1, last + 1):
        _apply(ws.cell(GROUP_ROW, c), "group")
    if last > first:
        ws.merge_cells(start_row=GROUP_ROW, start_column=first, end_row=GROUP_ROW, end_column=last)


#: On the Crosstable sheet (row 1, above the rounds) of a standard event over 30 days
#: that the report rates month by month (FIDE B.02 §8.3, interim reports).
MONTHLY_NOTE = ("Rated month by month (interim reports): see the Report sheet; the live "
                "formulas show the whole event as one period")


def _common_crosstable(wb: Workbook, ws: Any, geo: _Geometry, block_title: str) -> None:
    """Title, players block, standings and rating headers, K formulas, names, setup."""
    ev_name = _event_ref("name")
    ws["A1"] = f'=IF({ev_name}="","FIDE rating cross-table",{ev_name})'
    _apply(ws["A1"], "title")
    start = _event_ref("start")
    ws["A2"] = (f'="Rules "&{_event_ref("edition")}&"   ·   time control "&{_TC_ARG}'
                f'&"   ·   start "&IF(ISNUMBER({start}),TEXT({start},"yyyy-mm-dd"),"not given")'
                f'&"   ·   white cells are input, grey cells are computed"')
    _apply(ws["A2"], "subtitle")
    for spec in PLAYER_COLS:
        _header(ws, geo, geo.col[spec.key], spec)
    for spec in geo.standings:
        _header(ws, geo, geo.col[spec.key], spec)
    for spec in RATING_COLS:
        _header(ws, geo, geo.col[spec.key], spec)
    _group(ws, 1, len(PLAYER_COLS), "Players")
    if block_title:
        _group(ws, geo.block_first, geo.block_last, block_title)
    st = geo.standings
    _group(ws, geo.col[st[0].key], geo.col[st[-1].key], "Standings")
    _group(ws, geo.col[RATING_COLS[0].key], geo.col[RATING_COLS[-1].key],
           "Rating change (FIDE B.02 §8.3)")
    # players rows: styles
    styles = [(geo.col[s.key], s.style) for s in PLAYER_COLS + st + RATING_COLS]
    for r in range(geo.first, geo.last + 1):
        for c, style in styles:
            _apply(ws.cell(r, c), style)
        ws.cell(r, geo.col["no"]).value = r - geo.first + 1
        ws.cell(r, geo.col["k"]).value = _k_formula(geo, r)
    # K rule: ONE array formula over the column (FIDE_K is vectorised)
    kr = geo.column("k_rule", absolute=False)
    ws[kr.split(":")[0]] = ArrayFormula(
        kr, f'=FIDE_K({geo.column("ro")},{geo.column("born")},{geo.column("games")},'
            f'{geo.column("peak")},"","",{_TC_ARG},{_DATE_ARG})')
    # defined names: one column each over the players' rows
    for spec in PLAYER_COLS + st + RATING_COLS:
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
        formula=[f'N({geo.cell("check", geo.first)})>0'],
        fill=PatternFill("solid", bgColor="FFC7CE"), stopIfTrue=True))
    # sheet setup
    ws.freeze_panes = ws.cell(geo.first, geo.col["fed"])
    ws.row_dimensions[HEADER_ROW].height = 30
    ws.sheet_view.zoomScale = 90
    ws.print_area = f"A1:{_L(geo.last_col)}{geo.last}"
    _page_setup(ws, landscape=True, title_rows=f"{GROUP_ROW}:{HEADER_ROW}", title_cols="A:C",
                fit_width=False)
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    ws.protection.formatRows = False


def _k_formula(geo: _Geometry, r: int) -> str:
    """The K cell of row ``r``: K set if given, else K rule."""
    kset, krule = geo.cell("k_set", r), geo.cell("k_rule", r)
    return f'=IF(ISNUMBER({kset}),{kset},IF(ISNUMBER({krule}),{krule},""))'


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
        ws.column_dimensions[_L(c)].width = 4.3
    grid_abs = _abs(g1, f, g2, last)
    pts, sb = geo.column("pts"), geo.column("sb")
    for i in range(1, n + 1):
        r = f + i - 1
        for j in range(1, n + 1):
            _apply(ws.cell(r, geo.grid_col(j)), "diag" if i == j else "in_res")
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
    rb = f"{_L(geo.col['n'])}{f}:{_L(geo.col['ru'])}{last}"
    ws[rb.split(":")[0]] = ArrayFormula(
        rb, f"=FIDE_EVENT({geo.column('ro')},{geo.column('k')},{grid_abs},{_TC_ARG},{_DATE_ARG})")
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
    for r in range(f, last + 1):
        for rnd in range(1, R + 1):
            for part, style in (("opp", "in_int"), ("col", "in_code"), ("res", "in_res")):
                _apply(ws.cell(r, geo.round_col(rnd, part)), style)
    pts = geo.column("pts")
    heads = _abs(geo.block_first, HEADER_ROW, geo.block_last, HEADER_ROW)
    no = geo.col["no"]
    mask = f'{heads}="Res"'
    for r in range(f, last + 1):
        block = f"{_L(geo.block_first)}{r}:{_L(geo.block_last)}{r}"
        name = geo.cell("name", r)
        p = geo.cell("pts", r)
        ws[p] = ArrayFormula(p, f'=IF({name}="","",{_points_of(block, mask)})')
        ws[geo.cell("rank", r)] = f'=IF({p}="","",1+COUNTIF({pts},">"&{p}))'
        for rnd in range(1, R + 1):
            _apply(ws.cell(r, geo.check_col(rnd), "=" + _swiss_term(geo, rnd, r, no)),
                   "calc_int")
        ws[geo.cell("check", r)] = (f"=SUM({_L(geo.check_first)}{r}:"
                                    f"{_L(geo.check_last)}{r})")
    opps = [_abs(geo.round_col(k, "opp"), f, geo.round_col(k, "opp"), last) for k in range(1, R + 1)]
    ress = [_abs(geo.round_col(k, "res"), f, geo.round_col(k, "res"), last) for k in range(1, R + 1)]
    rb = f"{_L(geo.col['n'])}{f}:{_L(geo.col['ru'])}{last}"
    ws[rb.split(":")[0]] = ArrayFormula(
        rb, f"=FIDE_EVENT_SWISS({geo.column('ro')},{geo.column('k')},{_choose(opps)},"
            f"{_choose(ress)},{_TC_ARG},{_DATE_ARG})")
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


def _swiss_term(geo: _Geometry, rnd: int, r: int, no: int) -> str:
    """1 when round ``rnd`` of row ``r`` disagrees with the opponent's row, else 0: the
    opponent's opponent must be this row, the colours differ, the results agree."""
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
        ("text", "2. Open this workbook. The sheet 'xlwings.conf' already says UDF Modules = "
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
    for spec in PLAYER_COLS + geo.standings + RATING_COLS:
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
    _page_setup(ws, landscape=False)


# ================================================================================== fill

def choose_layout(tournament: Tournament) -> str:
    """``roundrobin`` when every player met every other exactly once (and no bye scored
    points), else ``swiss``."""
    players = tournament.players
    n = len(players)
    if n < 2 or n > MAX_ROUND_ROBIN:
        return "swiss"
    ranks = {p.start_rank for p in players}
    for p in players:
        met: list[int] = []
        for g in p.games:
            if g.opponent is not None:
                met.append(g.opponent)
            elif tournament.points_for(g) != 0:
                return "swiss"
        if len(met) != n - 1 or set(met) != ranks - {p.start_rank}:
            return "swiss"
    return "roundrobin"


_CELL_OF_CODE: dict[str, Any] = {"1": 1, "=": "½", "0": 0}


def _cell_value(code: str) -> Any:
    return _CELL_OF_CODE.get(code, code)


def fill_workbook(tournament: Tournament, layout: str | None = None, report: Report | None = None,
                  *, rows: int | None = None, rounds: int | None = None,
                  formulas: str = "udf", order: str = "start") -> Workbook:
    """A cross-table workbook filled from ``tournament`` (a :class:`~xl_fide.trf.Tournament`).

    ``layout``: roundrobin or swiss (default: :func:`choose_layout`). ``report``: a
    :class:`~xl_fide.report.Report` already built (default ``build_report(tournament)``);
    the K values it did not take from the K rule (``--k``, a rating list) are written as K
    overrides so the live formulas reproduce it, and its values fill the Report sheet. ``rows``/``rounds`` make the sheet bigger than the event
    (blank rows and rounds). Formulas stay live. ``formulas``: ``udf`` or ``native``
    (see :func:`build_template`); ``native`` raises :class:`InputError` naming the rule
    edition when the native formulas cannot express it (:func:`xl_fide.native.require`).
    ``order``: the rows by start rank (``start``) or by final rank (``rank``: the TRF's
    rank, else points, then start rank); with ``rank`` the No column is the rank and the
    opponents are given by it, as in a cross-table printed by rank (the TRF's start ranks
    are kept for ``xl-fide trf``).
    """
    if order not in ("start", "rank"):
        raise InputError(f"order must be start or rank, got {order!r}")
    if report is None:
        report = build_report(tournament)
    if _native.check_formulas(formulas) == "native":
        _native.require(report.edition)
    layout = layout or choose_layout(tournament)
    players = sorted(tournament.players, key=lambda p: p.start_rank)
    if order == "rank":
        ranked = all(p.rank for p in players)
        players.sort(key=lambda p: ((p.rank or 0) if ranked else -tournament.score(p),
                                    p.start_rank))
    n = len(players)
    number = {p.start_rank: i + 1 for i, p in enumerate(players)}
    renumbered = order == "start" and any(p.start_rank != i + 1 for i, p in enumerate(players))
    n_rows = max(n, rows or 0, 2)
    n_rounds = max(tournament.rounds or 0, rounds or 0, 1)
    if layout == "roundrobin":
        if choose_layout(tournament) != "roundrobin" and n > 1:
            raise InputError("this event is not a single round robin (some players did not "
                             "meet exactly once): use the swiss layout")
        n_rounds = n_rows - 1
    wb = build_template(layout, n_rows, n_rounds, formulas=formulas)
    geo = _Geometry(layout, n_rows, n_rounds, formulas)
    ws, ev = wb[CROSS], wb[EVENT]
    _fill_event(ev, tournament, report)
    if report.months:           # B.02 §8.3 interim reports: the sheet's formulas do not
        _text(ws, 1, geo.block_first, MONTHLY_NOTE, "subtitle")
    # K set (the manual override) only where the report's K did not come from the K rule
    # that the sheet's own FIDE_K column computes (--k, a rating list, a K set read back):
    # a K from the rule stays live and follows edits of Ro, birth year, games and peak.
    k_by_rank = {row.result.start_rank: row.result.K_given for row in report.rows
                 if row.k_source is not KSource.RULE}
    # a rating the report took from --player-data (none in the file) goes into Ro
    rating_by_rank = {row.result.start_rank: row.result.rating for row in report.rows}
    for i, p in enumerate(players):
        r = geo.first + i
        _text(ws, r, geo.col["title"], p.title or None)
        _text(ws, r, geo.col["name"], p.name or None)
        _text(ws, r, geo.col["fed"], p.federation or None)
        ws.cell(r, geo.col["fide_id"]).value = p.fide_id
        ws.cell(r, geo.col["ro"]).value = (p.rating if p.rating is not None
                                           else rating_by_rank.get(p.start_rank))
        ws.cell(r, geo.col["born"]).value = p.birth_year
        ws.cell(r, geo.col["k_set"]).value = k_by_rank.get(p.start_rank)
        if layout == "roundrobin":
            for g in p.games:
                if g.opponent is None or (tournament.rounds and g.round > tournament.rounds):
                    continue
                j = number[g.opponent]
                _text(ws, r, geo.grid_col(j), _cell_value(g.code))
        else:
            for g in p.games:
                if tournament.rounds and g.round > tournament.rounds:
                    continue
                if g.opponent is None and g.code == "Z" and not g.explicit:
                    continue
                if g.opponent is not None:
                    ws.cell(r, geo.round_col(g.round, "opp")).value = number[g.opponent]
                if g.colour:
                    _text(ws, r, geo.round_col(g.round, "col"), g.colour)
                _text(ws, r, geo.round_col(g.round, "res"), _cell_value(g.code))
    from .trf import write_trf
    try:
        original: str | None = write_trf(tournament)
    except InputError:          # an event built in code that no TRF can hold
        original = None
    if original is not None:
        _write_original(wb, geo, original, [p.start_rank for p in players],
                        tournament.encoding)
    try:                        # never write a workbook that our own reader refuses
        _read_book(wb, None, "<workbook>", strict=False)
    except WorkbookError as exc:
        raise InputError(f"this event cannot be written as a workbook that reads back: "
                         f"{str(exc).replace('<workbook>: ', '')}") from None
    replaced = list(getattr(wb, "xl_fide_replaced", ()))
    _build_report_sheet(wb, report, renumbered, replaced, order)
    return wb


def _fill_event(ws: Any, t: Tournament, report: Report) -> None:
    values = {
        "name": t.name or None, "city": t.city or None, "federation": t.federation or None,
        "start": t.start_date, "end": t.end_date, "tc": report.time_control.value,
        "tc_text": t.time_control or None, "arbiter": getattr(t, "chief_arbiter", "") or None,
        "rules_date": report.event_date if report.event_date != t.start_date else None,
    }
    for key, value in values.items():
        _text(ws, EVENT_ROW[key], 2, value)
    scoring = getattr(t, "scoring", DEFAULT_SCORING)
    for i, (code, _) in enumerate(_SCORING_CODES):
        ws.cell(SCORING_FIRST_ROW + i, 2).value = float(scoring.get(code, DEFAULT_SCORING[code]))


def _num(value: Decimal | int | None) -> Any:
    if value is None:
        return None
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


_REPORT_HEADS = [("No", 5, "val_int"), ("Title", 6, "val_text"), ("Name", 26, "val_text"),
                 ("Fed", 5, "val_text"), ("Ro", 6, "val_int"), ("K", 5, "val_int"),
                 ("K from", 20, "val_text"), ("Pts", 5, "val_1"), ("N", 5, "val_int"),
                 ("W", 5, "val_1"), ("ΣPD", 7, "val_2"), ("W−ΣPD", 7, "val_s2"),
                 ("K used", 6, "val_int"), ("K×ΣΔR", 8, "val_s2"), ("Δ", 5, "val_sint"),
                 ("New", 6, "val_int"), ("Rp", 6, "val_int"), ("Ru", 6, "val_int"),
                 ("Note", 64, "val_text")]


def _report_rows(ws: Any, hr: int, report: Report) -> int:
    """The header at row ``hr`` and one row per player below; returns the last row."""
    heads = _REPORT_HEADS
    for c, (h, width, _) in enumerate(heads, 1):
        _text(ws, hr, c, h, "head")
        ws.column_dimensions[_L(c)].width = width
    for i, row in enumerate(report.rows):
        res = row.result
        r = hr + 1 + i
        calc = res.calc
        values = [
            res.start_rank, row.title or None, res.name or None, row.federation or None,
            res.rating, res.K_given, row.k_source or None, _num(row.points), res.N,
            res.W_half / 2,
            res.sum_PD / 100 if res.sum_PD is not None else None,
            calc.sum_delta_R / 100 if calc is not None else None,
            res.K, res.change / 100 if res.change is not None else None,
            res.rating_change, res.new_rating, res.Rp,
            res.initial.Ru if res.initial is not None else None,
            (res.initial.reason if res.initial is not None else res.publication) or None,
        ]
        for c, (value, (_, _, style)) in enumerate(zip(values, heads), 1):
            _text(ws, r, c, value, style)
    return hr + len(report.rows)


def _build_report_sheet(wb: Workbook, report: Report, renumbered: bool,
                        replaced: Sequence[str] = (), order: str = "start") -> None:
    ws = wb.create_sheet(REPORT, index=2)
    _text(ws, 1, 1, "Report", "title")
    _text(ws, 2, 1, f"Values computed by xl-fide {__version__} at fill time; the live formulas "
                    f"are on the {CROSS} sheet.", "subtitle")
    date = report.event_date.isoformat() if report.event_date else "no date (today's rules)"
    _text(ws, 3, 1, f"{report.event_name or '(unnamed event)'}   ·   {date}   ·   "
                    f"{report.time_control.value}   ·   rules {report.edition.id}", "subtitle")
    hr = 5
    r = _report_rows(ws, hr, report) + 2
    notes = list(report.notes)
    if renumbered:
        notes.append("start ranks were renumbered 1..n on the Crosstable sheet")
    if order == "rank":
        notes.append("Crosstable rows are in rank order: No is the rank, and opponents are "
                     "given by it; the TRF start ranks are kept for xl-fide trf")
    if replaced:
        notes.append(f"characters a sheet cannot hold (control characters) were replaced by "
                     f"\ufffd in {len(replaced)} cell(s): {', '.join(replaced[:10])}")
    if notes or report.warnings:
        _text(ws, r, 1, "Notes", "label")
        for note in notes + [f"warning: {w}" for w in report.warnings]:
            r += 1
            _text(ws, r, 1, note, "subtitle")
    for i, month in enumerate(report.months, 1):   # an event over 30 days: interim reports
        r += 2
        _text(ws, r, 1, f"Month {i} of {len(report.months)}: {month.event_name}   ·   "
                        f"rules {month.edition.id}", "label")
        r = _report_rows(ws, r + 1, month) + 1
        for note in month.notes:
            r += 1
            _text(ws, r, 1, note, "subtitle")
    ws.freeze_panes = f"A{hr + 1}"
    _page_setup(ws, landscape=True, title_rows=f"{hr}:{hr}")


# ================================================================================== save

def save_workbook(wb: Workbook, path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Write ``wb`` to ``path`` whole or not at all (:func:`xl_fide.files.write_atomic`:
    built in memory, then created exclusively). Refuses to overwrite an existing file
    unless ``force`` (:class:`WorkbookExistsError`); never leaves a partial file."""
    path = Path(path)
    _check_kind(path)
    if path.exists() and not force:
        raise WorkbookExistsError(f"{path}: file exists (pass force=True to overwrite)")
    buffer = io.BytesIO()
    wb.save(buffer)
    try:
        return write_atomic(path, buffer.getvalue(), force=force)
    except OutputExistsError:
        raise WorkbookExistsError(f"{path}: file exists (pass force=True to overwrite)") from None


#: Macro-enabled kinds: openpyxl cannot write the VBA project they must hold, and
#: Excel refuses to open a macro-less package with such a name.
_MACRO_SUFFIXES = (".xlsm", ".xltm", ".xlam")


def _check_kind(path: Path) -> None:
    """A macro-enabled name is refused (:class:`~xl_fide.errors.InputError`) before
    anything is written."""
    suffix = path.suffix.lower()
    if suffix in _MACRO_SUFFIXES:
        raise InputError(f"{path}: cannot write a macro workbook ({suffix}); write .xlsx, "
                         "open it in Excel, click Import Functions on the xlwings tab, "
                         "then save it as .xlsm")


def write_default_templates(directory: str | os.PathLike[str]) -> list[Path]:
    """(Re)write the shipped templates (:data:`DEFAULT_TEMPLATES`, then
    :data:`NATIVE_TEMPLATES`) into ``directory``."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for filename, (layout, players, rounds) in DEFAULT_TEMPLATES.items():
        out.append(save_workbook(build_template(layout, players, rounds), directory / filename,
                                 force=True))
    for filename, (layout, players, rounds) in NATIVE_TEMPLATES.items():
        out.append(save_workbook(build_template(layout, players, rounds, formulas="native"),
                                 directory / filename, force=True))
    return out


# ================================================================================== read

def _where(sheet: str, row: int, col: int) -> str:
    return f"{sheet}!{_L(col)}{row}"


def _whole(value: Any, sheet: str, row: int, col: int, what: str,
           minimum: int | None = None, maximum: int | None = None) -> int | None:
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


def _str(value: Any) -> str:
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
            return found
        raise WorkbookError(f"{_where(sheet, row, 2)}: {what} must be a date like 2025-11-15, "
                            f"got {value!r}")
    raise WorkbookError(f"{_where(sheet, row, 2)}: {what} must be a date, got {value!r}")


class _Unsaved:
    """An input cell holding a formula whose result the file does not store."""

    def __init__(self, where: str) -> None:
        self.where = where


def _resolved(value: Any) -> Any:
    if isinstance(value, _Unsaved):
        raise WorkbookError(f"{value.where}: a formula whose result is not saved in the file; "
                            "open and save the workbook in Excel, or type the value")
    return value


def _rows(ws: Any, max_row: int, max_col: int, ws_values: Any = None,
          formula_text: dict[tuple[int, int], str] | None = None) -> list[list[Any]]:
    """The cells of ``ws`` as rows of values; a formula is replaced by its saved result
    (from ``ws_values``, the same sheet read with ``data_only=True``), or by an
    :class:`_Unsaved` marker that raises when the cell is used."""

    def grid(sheet: Any) -> tuple[list[list[Any]], set[tuple[int, int]]]:
        rows, formulas = [], set()
        for r, cells in enumerate(sheet.iter_rows(min_row=1, max_row=max_row, max_col=max_col)):
            row = []
            for c, cell in enumerate(cells):
                value = cell.value
                if cell.data_type == "f" or isinstance(value, ArrayFormula):
                    formulas.add((r, c))
                    if formula_text is not None:
                        formula_text[(r, c)] = str(getattr(value, "text", value))
                row.append(value)
            rows.append(row)
        while len(rows) < max_row:
            rows.append([])
        return [r + [None] * (max_col - len(r)) for r in rows], formulas

    rows, formulas = grid(ws)
    saved = grid(ws_values)[0] if ws_values is not None else None
    for r, c in formulas:
        cached = saved[r][c] if saved is not None else None
        rows[r][c] = cached if cached is not None else _Unsaved(_where(ws.title, r + 1, c + 1))
    return rows


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

    Reads only input cells. A workbook written by :func:`fill_workbook` from a TRF keeps
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


@dataclass
class _Read:
    """What the input cells of a workbook say: event fields, players (start rank = row
    number, opponents by row number) and the players' K inputs by row."""

    fields: dict[str, Any]
    players: list[TrfPlayer]
    inputs: dict[int, PlayerData]
    warnings: list[str]


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
    max_row = min(max(_int_or(ws.max_row, 0), geo.last), FIRST_ROW + MAX_PLAYERS - 1)
    max_col = min(max(_int_or(ws.max_column, 0), geo.block_last), widest)
    rows = _rows(ws, max_row, max_col, values[CROSS] if values is not None else None, formulas)
    _check_size_cells(rows, geo)
    typed_k = _typed_k(rows, formulas, geo)
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
        pri = _read_cells(*_pristine(ev_rows, rows, geo, original["cells"]), geo, schedule,
                          typed_k)
        tournament, ranks = _merge(t0, original["ranks"], pri, cur, source,
                                   int(original["rounds"]))
    inputs = {ranks[i - 1]: d for i, d in cur.inputs.items()}
    if cur.warnings:
        tournament = dataclasses.replace(tournament, warnings=tuple(
            TrfWarning(source, None, None, w) for w in cur.warnings))
    return WorkbookEvent(tournament, cur.fields["rules_date"], cur.fields["tc_word"] or None,
                         inputs)


def _int_or(value: Any, default: int) -> int:
    return value if isinstance(value, int) else default


def _check_size_cells(rows: list[list[Any]], geo: _Geometry) -> None:
    """The Rounds and Player rows cells of the Event sheet must not say more than the
    Crosstable sheet has, nor less than is filled (that would drop results unseen)."""
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
    if geo.n > sheet_n:
        raise WorkbookError(f"{rows_cell}: Player rows is {geo.n} but the {CROSS} sheet has "
                            f"{sheet_n} player rows (make a bigger sheet: xl-fide template)")
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


_TOURNAMENT_FIELDS = ("name", "city", "federation", "start_date", "end_date", "time_control",
                      "chief_arbiter", "rounds")


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

ORIGINAL = "TRF_original"
_ORIGINAL_FORMAT = "xl-fide TRF_original 1"
_CHUNK = 30_000            # characters per cell (Excel holds at most 32,767)
_COMPUTED_KEYS = ("no", "k_rule", "k")


def _input_cells(geo: _Geometry) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(row, column) of the input cells of the Crosstable and Event sheets."""
    computed = {geo.col[k] for k in _COMPUTED_KEYS}
    cross = [(r, c) for r in range(geo.first, geo.last + 1)
             for c in range(1, geo.block_last + 1) if c not in computed]
    event = [(EVENT_ROW[key], 2) for key, *_ in _EVENT_INPUTS if key != "rounds"]
    event += [(SCORING_FIRST_ROW + i, 2) for i in range(len(_SCORING_CODES))]
    return cross, event


def _to_json(value: Any) -> Any:
    if isinstance(value, (_dt.date, _dt.datetime)):
        return {"date": value.isoformat()[:10]}
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict):
        return _dt.date.fromisoformat(value["date"])
    return value


def _write_original(wb: Workbook, geo: _Geometry, text: str, ranks: list[int],
                    encoding: str = "utf-8") -> None:
    cross_cells, event_cells = _input_cells(geo)
    cells: dict[str, dict[str, Any]] = {CROSS: {}, EVENT: {}}
    for sheet, where in ((CROSS, cross_cells), (EVENT, event_cells)):
        ws = wb[sheet]
        for r, c in where:
            value = ws.cell(r, c).value
            if value is not None:
                cells[sheet][f"{_L(c)}{r}"] = _to_json(value)
    payload = {"format": _ORIGINAL_FORMAT, "trf": text, "ranks": ranks, "layout": geo.layout,
               "rounds": geo.rounds, "cells": cells, "encoding": encoding}  # the TRF's bytes
    # ASCII only, and no "_" (which an .xlsx reader may take for an _xHHHH_ escape)
    data = json.dumps(payload, ensure_ascii=True, separators=(",", ":")).replace("_", "\\u005f")
    ws = wb.create_sheet(ORIGINAL)
    ws.sheet_state = "veryHidden"
    _text(ws, 1, 1, "xl-fide: the TRF this workbook was made from and what was written to its "
                    "cells, so that `xl-fide trf` changes only what you edited. Do not edit.")
    for i in range(0, len(data), _CHUNK):
        _text(ws, 2 + i // _CHUNK, 1, data[i:i + _CHUNK])
    ws.protection.sheet = True


def _original(wb: Any) -> dict[str, Any] | None:
    if ORIGINAL not in wb.sheetnames:
        return None
    ws = wb[ORIGINAL]
    try:
        data = "".join(str(row[0]) for row in ws.iter_rows(min_row=2, max_col=1, values_only=True)
                       if row and row[0] is not None)
        payload = json.loads(data)
        if payload.get("format") != _ORIGINAL_FORMAT:
            raise ValueError(f"format {payload.get('format')!r}")
        payload["cells"] = {sheet: {k: _from_json(v) for k, v in cells.items()}
                            for sheet, cells in payload["cells"].items()}
        payload["ranks"] = [int(r) for r in payload["ranks"]]
        return payload
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise WorkbookError(f"{ORIGINAL}: the hidden copy of the original TRF is damaged "
                            f"({type(exc).__name__}: {exc})") from None


def _original_tournament(payload: dict[str, Any], source: str) -> Tournament:
    from .trf import parse_trf
    try:
        return parse_trf(payload["trf"], source=f"{source} ({ORIGINAL})",
                         encoding=payload.get("encoding"))
    except XlFideError as exc:
        raise WorkbookError(f"{ORIGINAL}: the hidden copy of the original TRF does not read "
                            f"({exc})") from None


def _pristine(ev_rows: list[list[Any]], rows: list[list[Any]], geo: _Geometry,
              cells: dict[str, dict[str, Any]]) -> tuple[list[list[Any]], list[list[Any]]]:
    """The two grids as fill_workbook wrote them: every input cell replaced by its value
    at fill time (blank where nothing was written)."""
    ev2 = [list(r) for r in ev_rows]
    rows2 = [list(r) for r in rows]
    cross_cells, event_cells = _input_cells(geo)
    for grid, where, sheet in ((rows2, cross_cells, CROSS), (ev2, event_cells, EVENT)):
        written = cells.get(sheet, {})
        for r, c in where:
            grid[r - 1][c - 1] = written.get(f"{_L(c)}{r}")
    return ev2, rows2


_PLAYER_FIELDS = ("title", "name", "federation", "fide_id", "rating", "birth_year")


def _merge(t0: Tournament, ranks: list[int], pri: _Read, cur: _Read, source: str,
           rounds_written: int) -> tuple[Tournament, list[int]]:
    """``t0`` with the differences between ``pri`` (the cells as written) and ``cur``
    (the cells now) applied; returns it and the start rank of each row."""
    ranks = list(ranks)
    pri_rows = {p.start_rank: p for p in pri.players}
    cur_rows = {p.start_rank: p for p in cur.players}
    last_row = max([len(ranks), *pri_rows, *cur_rows])
    next_rank = max(ranks, default=0)
    while len(ranks) < last_row:
        next_rank += 1
        ranks.append(next_rank)

    def mapped(g: Game | None, rnd: int) -> Game:
        if g is None:
            return Game(rnd, None, None, "Z", explicit=False)
        opp = ranks[g.opponent - 1] if g.opponent is not None else None
        return Game(rnd, opp, g.colour, g.code, explicit=g.explicit)

    players = {p.start_rank: p for p in t0.players}
    for row in sorted(set(pri_rows) | set(cur_rows)):
        rank = ranks[row - 1]
        before, now = pri_rows.get(row), cur_rows.get(row)
        if now is None:
            players.pop(rank, None)
            continue
        if before is None or rank not in players:
            new_games = tuple(mapped(g, g.round) for g in now.games)
            players[rank] = dataclasses.replace(
                now, start_rank=rank, games=new_games,
                points=sum((t0.points_for(g) for g in new_games), Decimal(0)))
            continue
        p0 = players[rank]
        updates: dict[str, Any] = {}
        for name in _PLAYER_FIELDS:
            if getattr(before, name) != getattr(now, name):
                updates[name] = getattr(now, name)
                if name == "birth_year":
                    updates["birth_date"] = str(now.birth_year) if now.birth_year else ""
        games: list[Game] = list(p0.games)
        delta = Decimal(0)
        for rnd in range(1, max(len(before.games), len(now.games)) + 1):
            g_before, g_now = before.game(rnd), now.game(rnd)
            if g_before == g_now:
                continue
            while len(games) < rnd:
                games.append(Game(len(games) + 1, None, None, "Z", explicit=False))
            games[rnd - 1] = mapped(g_now, rnd)
            delta += (t0.points_for(g_now) if g_now else 0) - (
                t0.points_for(g_before) if g_before else 0)
        if games != list(p0.games):
            updates["games"] = tuple(games)
            if p0.points is not None:
                updates["points"] = p0.points + delta
        if updates:
            players[rank] = dataclasses.replace(p0, **updates)
    changes: dict[str, Any] = {}
    for name in _TOURNAMENT_FIELDS:
        if name == "rounds":
            now_rounds = cur.fields["rounds"]
            if now_rounds is not None and now_rounds != rounds_written:
                changes["rounds"] = now_rounds
        elif pri.fields[name] != cur.fields[name]:
            changes[name] = cur.fields[name] or ("" if name not in ("start_date", "end_date")
                                                 else None)
            if name in ("start_date", "end_date"):
                changes[name.replace("date", "date_text")] = ""
    if pri.fields["scoring"] != cur.fields["scoring"]:
        scoring = dict(t0.scoring)
        for code in RESULT_CODES:
            if pri.fields["scoring"].get(code) != cur.fields["scoring"].get(code):
                scoring[code] = cur.fields["scoring"].get(code, DEFAULT_SCORING[code])
        changes["scoring"] = scoring
    fitted = sorted(players.values(), key=lambda p: p.start_rank)
    try:
        t = dataclasses.replace(t0, players=tuple(fitted), warnings=(), source=source, **changes)
    except InputError as exc:
        raise WorkbookError(f"{source}: {exc}") from None
    return t, ranks


def _result_code(value: Any, where: str) -> str | None:
    value = _resolved(value)
    if isinstance(value, str) and not value.strip():
        return None
    try:
        parsed = parse_result(value, "result")
    except InputError as exc:
        raise WorkbookError(f"{where}: {exc}") from None
    return None if parsed is None else parsed.code


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
        rating = _whole(row[c["ro"]], CROSS, r, c["ro"] + 1, "rating Ro", 0, 4000)
        if not name and rating is None and all(v is None or _str(v) == "" for v in block):
            continue
        no = _whole(row[c["no"]], CROSS, r, c["no"] + 1, "No")
        if no != i:
            raise WorkbookError(f"{_where(CROSS, r, c['no'] + 1)}: No must be {i} (the row's "
                                f"number), got {row[c['no']]!r}")
        born = _whole(row[c["born"]], CROSS, r, c["born"] + 1, "year of birth", 1850, 2200)
        k_set = _whole(row[c["k_set"]], CROSS, r, c["k_set"] + 1, "K set", 1, 100)
        games_n = _whole(row[c["games"]], CROSS, r, c["games"] + 1, "career games", 0)
        peak = _whole(row[c["peak"]], CROSS, r, c["peak"] + 1, "peak rating", 0, 4000)
        inputs[i] = PlayerData(None, name or f"row {i}", k=typed_k.get(i, k_set),
                               career_games=games_n, peak_rating=peak or None)
        info[i] = dict(
            title=_str(row[c["title"]]), name=name, federation=_str(row[c["fed"]]),
            fide_id=_whole(row[c["fide_id"]], CROSS, r, c["fide_id"] + 1, "FIDE id", 0),
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
    played yet. The rule is :func:`xl_fide.results.pair_problem` (TRF16 result codes).
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
    for i in range(1, geo.n + 1):
        r = geo.first + i - 1
        for j in range(1, geo.n + 1):
            if i == j:
                continue
            col = geo.grid_col(j)
            value = rows[r - 1][col - 1]
            code = _result_code(value, _where(CROSS, r, col))
            if code is not None and (i not in active or j not in active):
                blank = j if i in active else i
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


def _read_rounds(rows: list[list[Any]], geo: _Geometry, active: list[int]) -> dict[int, list[Game]]:
    games: dict[int, list[Game]] = {}
    blank_result: dict[tuple[int, int], bool] = {}
    for i in active:
        r = geo.first + i - 1
        row = rows[r - 1]
        out = []
        for rnd in range(1, geo.rounds + 1):
            oc, cc, rc = (geo.round_col(rnd, p) for p in ("opp", "col", "res"))
            opp = _whole(row[oc - 1], CROSS, r, oc, "opponent", 0, geo.n) or None
            if opp is not None and opp not in active:
                raise WorkbookError(f"{_where(CROSS, r, oc)}: opponent {opp} has a blank row")
            if opp == i:
                raise WorkbookError(f"{_where(CROSS, r, oc)}: a player cannot meet himself")
            colour = _str(row[cc - 1]).lower()
            if colour not in ("", "w", "b", "-"):
                raise WorkbookError(f"{_where(CROSS, r, cc)}: colour must be w or b, "
                                    f"got {row[cc - 1]!r}")
            code = _result_code(row[rc - 1], _where(CROSS, r, rc))
            blank_result[(i, rnd)] = code is None
            if opp is None and code is None:
                out.append(Game(rnd, None, colour or None, "Z", explicit=bool(colour)))
            else:
                out.append(Game(rnd, opp, colour or None, code or "Z"))
        games[i] = out
    for i in active:
        for g in games[i]:
            if g.opponent is None:
                continue
            back = games[g.opponent][g.round - 1]
            r = geo.first + i - 1
            oc, cc, rc = (geo.round_col(g.round, p) for p in ("opp", "col", "res"))
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


if __name__ == "__main__":  # python -m xl_fide.workbook [DIRECTORY]: regenerate the templates
    import sys
    for written in write_default_templates(sys.argv[1] if len(sys.argv) > 1 else "templates"):
        print(f"wrote {written}")
