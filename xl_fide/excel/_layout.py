"""The cross-table workbook's layout, described once: sheet names, the columns of the
players, rating and standings blocks, the Event sheet's rows, the geometry of a sheet of
n players and r rounds, the named styles and the small cell helpers every other part of
:mod:`xl_fide.excel` writes with (XlsxWriter's rule: a style defined once, applied to a
range). ``safe_text`` writes text starting with ``= + - @`` as text."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from openpyxl import Workbook
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.comments import Comment
from openpyxl.styles import (
    Alignment,
    Border,
    Font,
    NamedStyle,
    PatternFill,
    Protection,
    Side,
)
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName

from xl_fide.event.months import LONG_EVENT_DAYS
from xl_fide.errors import InputError
from xl_fide.excel import _native as _native
from xl_fide.excel._fence import apply_style, book_state, own_style, put, style_cells
from xl_fide.rules import notes as _notes
from xl_fide.rules import results as _results
from xl_fide.rules.results import parse_result
from xl_fide.rules.tables import dp_rows, pd_rows
from xl_fide.tournament import RESULT_CODES

__all__ = [
    "LAYOUTS", "MAX_ROUND_ROBIN", "MAX_PLAYERS", "MAX_ROUNDS", "DEFAULT_TEMPLATES",
    "NATIVE_TEMPLATES",
    "build_template", "write_default_templates", "fill_workbook",
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
#: The same templates in native formulas (no add-in needed, :mod:`xl_fide.excel._native`).
NATIVE_TEMPLATES: dict[str, tuple[str, int, int]] = {
    name.replace(".xlsx", "_native.xlsx"): size for name, size in DEFAULT_TEMPLATES.items()}

CROSS, EVENT, REPORT, TABLES, HELP, CONF = (
    "Crosstable", "Event", "Report", "Tables", "Help", "xlwings.conf")
GROUP_ROW, HEADER_ROW, FIRST_ROW = 3, 4, 5
_FIXED_TIME = _dt.datetime(2026, 1, 1)     # workbook properties: reproducible files




# ============================================================================ column specs

@dataclass(frozen=True)
class _Col:
    key: str
    header: str
    name: str | None       # defined name (a single column over the players' rows)
    width: float
    style: str
    help: str
    #: the width in a Swiss cross-table, when it differs (a round robin's page is tight)
    swiss_width: float | None = None


PLAYER_COLS: tuple[_Col, ...] = (
    _Col("no", "No", "StartRank", 5, "calc_int",
         "Start number = row number; opponents are given by it."),
    _Col("title", "Title", "Title", 5, "in_text", "FIDE title: GM, IM, FM, CM, WGM, WIM, WFM, WCM."),
    _Col("name", "Name", "PlayerName", 20, "in_text",
         "Player's name. A row with no name, no rating and no results stays blank."),
    _Col("fed", "Fed", "Federation", 5, "in_text", "Federation (three letters)."),
    _Col("fide_id", "FIDE id", "FideId", 9, "in_int", "FIDE id."),
    _Col("ro", "Ro", "Rating", 5, "in_int",
         "Rating Ro on the list in force when the event started; blank = unrated."),
    _Col("born", "Born", "BirthYear", 5, "in_int",
         "Year of birth: K 40 until the end of the year of the 18th birthday (under 2300)."),
    _Col("games", "Games", "CareerGames", 7, "in_int",
         "Rated games completed before the event: fewer than 30 gives K 40; blank = 30 or more."),
    _Col("peak", "Peak", "PeakRating", 5, "in_int",
         "Highest published rating: 2400 or more gives K 10 for good."),
    _Col("k_rule", "K rule", "KRule", 5, "calc_int",
         "K by FIDE B.02 §8.3.3 from Ro, Born, Games and Peak (one FIDE_K array formula)."),
    _Col("k_set", "K set", "KOverride", 5, "in_int",
         "K override: a K typed here (e.g. from the rating list) wins over K rule."),
    _Col("k", "K", "KFactor", 5, "calc_int",
         "K for the event, before the K × n ≤ 700 cap: K set if given, else K rule."),
)

#: The rating the rules read, computed from the typed Ro (issues 32 #3, 33 #5): the
#: first column of the rating block; the K rule and the rating formulas read it, never
#: the typed Ro, so "Rules as on" on the Event sheet recomputes it.
USED_COLS: tuple[_Col, ...] = (
    _Col("ro_used", "Ro used", "RatingUsed", 6, "calc_int",
         "Ro as the rules read it: the typed Ro (a number typed as text, digits only, "
         "read as that number), raised to R + round(0.4 × (2000 − R)) below 2000 when it "
         "is from a list before 1 March 2024 (the start date) and the rules are as on "
         "that date or later (FIDE, March 2024 lists). Anything else that is not a "
         "whole number from 0 to 4000 shows 'not a rating' here and in Ru; the player "
         "is then unrated."),
)

RATING_COLS: tuple[_Col, ...] = (
    _Col("n", "N", "RatedGames", 5, "calc_int",
         "Rated games: played games (1 ½ 0) against rated opponents."),
    _Col("w", "W", "RatedScore", 5, "calc_1", "Score W in the rated games."),
    _Col("sum_pd", "ΣPD", "Expected", 6, "calc_2",
         "Expected score: sum of PD over the rated games (table 8.1.2, 400-point rule)."),
    _Col("w_pd", "W−ΣPD", "ScoreMinusExpected", 7, "calc_s2", "ΣΔR = W − ΣPD."),
    _Col("k_used", "K used", "KUsed", 5, "calc_int",
         "K after the K × n ≤ 700 cap over the event (§8.3.3)."),
    _Col("change", "K×ΣΔR", "Change", 8, "calc_s2",
         "Rating change K × ΣΔR, not rounded (two decimals)."),
    _Col("chg", "Δ", "RatingChange", 6, "calc_sint",
         "Rating change rounded to a whole number, .5 away from zero (§8.3.4)."),
    _Col("new", "New", "NewRating", 7, "calc_new",
         "New rating = Ro + Δ; under the rating floor it is not published (FIDE B.02 §7.2.1): "
         "NP and the rating computed (NP 1395), see the key under the table."),
    _Col("rp", "Rp", "Performance", 5.5, "calc_int",
         "FIDE performance Ra + dp(p) over the rated games."),
    _Col("ru", "Ru", "InitialRating", 7, "calc_note",
         "Unrated players: initial rating (§8.2, games against rated opponents), or why "
         "it is not published as a code (NP 3g, NP 0g, NP 0pt, NP 1356), see the key under "
         "the table."),
    # last: FIDE_EVENT(_SWISS)'s 11th column (udfs.EVENT_COLUMNS)
    _Col("rc", "Rc", "OpponentAverage", 5, "calc_int",
         "Rc: the average rating of the opponents in the N games (rated games; unrated "
         "players: the games against rated opponents), a whole number rounded .5 up, as "
         "FIDE's rating report shows it."),
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
#: a number, or a sentence wrapped in its cell ("not published: below 1400 (1395)": the
#: Report sheet's New column)
_CENTER_WRAP = Alignment(horizontal="center", vertical="center", wrap_text=True)
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
        # a number, or the code NP 1395 (xl_fide.rules.notes): one line, the row one line high
        "calc_new": dict(calc, number_format="0"),
        "calc_1": dict(calc, number_format="0.0"),
        "calc_2": dict(calc, number_format="0.00"),
        "calc_s2": dict(calc, number_format=_SIGNED2),
        "calc_sint": dict(calc, number_format=_SIGNED_INT, font=Font(bold=True)),
        "calc_text": dict(calc, alignment=_LEFT),
        # Ru: a number or a short code (NP 3g, xl_fide.rules.notes) on one line; the
        # sentences wrapped rows five lines high (issue 34 #1), the key is under the table
        "calc_note": dict(calc),
        "calc_code": dict(calc),
        "calc_date": dict(calc, number_format="yyyy-mm-dd"),
        "calc_check": dict(calc, number_format='0;-0;""', font=Font(bold=True, color="C00000")),
        "val_int": dict(border=_BORDER, alignment=_CENTER, number_format="0"),
        "val_new": dict(border=_BORDER, alignment=_CENTER_WRAP, number_format="0"),
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


def _new_workbook(first_sheet: str) -> tuple[Workbook, Any]:
    """A new workbook as xl-fide writes it (creator, fixed times for reproducible files,
    the named styles) and its one sheet, titled ``first_sheet``."""
    wb = Workbook()
    wb.properties.creator = "xl-fide"
    wb.properties.created = _FIXED_TIME
    wb.properties.modified = _FIXED_TIME
    _register_styles(wb)
    ws = wb.active
    assert ws is not None      # a new Workbook has its one sheet
    ws.title = first_sheet
    return wb, ws


# =========================================================================== cell writing

_FORMULA_STARTS = ("=", "+", "-", "@")


def safe_text(cell: Any, value: Any) -> None:
    """Write ``value`` to ``cell``; text starting with = + - @ is kept as text, never a formula.

    Characters a sheet cannot hold (control characters) become U+FFFD; the cells where
    that happened are listed in the workbook's ``book_state(wb)["replaced"]`` (a list of
    ``Sheet!A1``), for a warning."""
    if isinstance(value, str) and ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
        book_state(cell.parent.parent).setdefault("replaced", []).append(
            f"{cell.parent.title}!{cell.coordinate}")
    quoted = isinstance(value, str) and value.startswith(_FORMULA_STARTS)
    if quoted or isinstance(value, _STYLED_VALUES):
        own_style(cell)     # a style attribute is set in place below (a date's format)
    cell.value = value
    if quoted:
        cell.data_type = "s"
        cell.quotePrefix = True


_PLAIN: dict[str, bool] = {}     # a text: whether openpyxl stores it as it is
#: values whose ``cell.value = value`` may set the cell's number format (openpyxl: a date
#: or time on a cell without a date format)
_STYLED_VALUES = (_dt.date, _dt.time, _dt.timedelta)


def put_value(cells: dict[tuple[int, int], Any], ws: Any, row: int, col: int, value: Any) -> None:
    """``_text(ws, row, col, value)``, for the many cells of the players' rows (their
    rounds, the Report sheet): ``None``, an ``int``, a ``float`` or a text that needs nothing of
    :func:`safe_text` (no character a sheet cannot hold, no formula start, not an error
    code such as ``#N/A``) is set on the cell already made with its style (``cells``: the
    sheet's map of cells) as openpyxl's setter would set it; anything else goes through
    :func:`_text`."""
    cell = cells.get((row, col))
    if cell is not None and (value is None or type(value) is int or type(value) is float):
        put(cell, value, "n")
        return
    if cell is not None and type(value) is str:
        plain = _PLAIN.get(value)
        if plain is None:
            plain = (0 < len(value) < 256 and not value.startswith(_FORMULA_STARTS)
                     and not ILLEGAL_CHARACTERS_RE.search(value) and value not in ERROR_CODES)
            if len(value) < 4:          # the few codes and colours of a cross-table
                _PLAIN[value] = plain
        if plain:
            put(cell, value, "s")
            return
    _text(ws, row, col, value)


#: (the fence's; the names the other modules use)
_apply, _style_cells = apply_style, style_cells


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
        self.rating_cols = USED_COLS + RATING_COLS     # the rating block's columns
        for spec in self.rating_cols:
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
    return f"VLOOKUP({_native.result_key(x)},{_CODES},{col},FALSE)"


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
    from :func:`xl_fide.rules.results.pair_problem`.
    """
    key = f"{_code_no(a)}*100+{_code_no(b)}"
    return (f"IF({a}=\"\",IF({b}=\"\",0,1),IF({b}=\"\",1,"
            f"IFERROR(1-ISNUMBER(MATCH({key},{_PAIRS},0)),1)))")


def _points_of(cells: str, mask: str | None = None) -> str:
    cond = f"({cells}<>\"\")" if mask is None else f"({mask})*({cells}<>\"\")"
    return f"SUM(IF({cond},IFERROR({_vl(cells, 5)},0),0))"


# ============================================================================== builders


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



def _native_layout(geo: _Geometry) -> _native.Layout:
    """Where the native formulas read and write on a sheet of this geometry."""
    swiss = geo.layout == "swiss"
    col = dict(geo.col)
    col["ro"] = geo.col["ro_used"]      # the formulas read Ro used, computed from Ro
    return _native.Layout(
        kind=geo.layout, first=geo.first, last=geo.last, cross=CROSS, col=col,
        edition=_event_ref("edition"), date=_DATE_ARG, pd_from=_PD_FROM, pd_high=_PD_HIGH,
        dp=_DP_VALUES, codes=_CODES, grid_first=geo.block_first,
        opp_cols=[geo.round_col(k, "opp") for k in range(1, geo.rounds + 1)] if swiss else (),
        res_cols=[geo.round_col(k, "res") for k in range(1, geo.rounds + 1)] if swiss else (),
        header_row=HEADER_ROW, block_first=geo.block_first, block_last=geo.block_last,
        typed_ro=geo.col["ro"], list_date=_event_ref("start"))


def _agreeing_pairs() -> list[tuple[str, str]]:
    """The TRF code pairs (``1 0``, ``= =``, ``+ -``, ``- -`` ...) that the two sides of
    one game may have, from :func:`xl_fide.rules.results.pair_problem` (colours aside)."""
    assert set(_PAIR_CODE_ORDER) == RESULT_CODES
    return [(a, b) for a in _PAIR_CODE_ORDER for b in _PAIR_CODE_ORDER
            if _results.pair_problem(a, b) is None]


def _vocabulary() -> list[tuple[Any, Any]]:
    """(entry, GameResult) for every entry a result cell may hold: the engine's vocabulary
    (:mod:`xl_fide.rules.results`) plus the numbers 1, 0.5 and 0."""
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
                title_cols: str | None = None, fit_width: bool = True,
                one_page: bool = False) -> None:
    """Print set-up: A4; one page wide (``fit_width``; ``one_page``: and one page high,
    for a reference sheet) or, for the wide cross-table, at 100 % over as many pages as
    it takes, title rows and columns repeated on each."""
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    if fit_width:
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 1 if one_page else 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    else:
        ws.page_setup.scale = 100
        ws.page_setup.pageOrder = "overThenDown"     # a row's pages one after the other
        ws.sheet_properties.pageSetUpPr.fitToPage = False
    ws.print_options.gridLines = False
    ws.page_margins.left = ws.page_margins.right = 0.4 if fit_width else 0.25
    ws.page_margins.top = ws.page_margins.bottom = 0.5
    if title_rows:
        ws.print_title_rows = title_rows
    if title_cols:
        ws.print_title_cols = title_cols


def _header(ws: Any, geo: _Geometry, col: int, spec: _Col) -> None:
    cell = _text(ws, HEADER_ROW, col, spec.header, "head")
    cell.comment = Comment(spec.help, "xl-fide", width=260, height=90)
    ws.column_dimensions[_L(col)].width = (
        spec.swiss_width if geo.layout == "swiss" and spec.swiss_width else spec.width)


def _group(ws: Any, first: int, last: int, text: str) -> None:
    _text(ws, GROUP_ROW, first, text, "group")
    for c in range(first + 1, last + 1):
        _apply(ws.cell(GROUP_ROW, c), "group")
    if last > first:
        ws.merge_cells(start_row=GROUP_ROW, start_column=first, end_row=GROUP_ROW, end_column=last)


#: On the Crosstable sheet (row 1, above the rounds) of a standard event over 30 days
#: that the report rates month by month (FIDE B.02 §8.3, interim reports).
MONTHLY_NOTE = ("Rated month by month (interim reports, FIDE B.02 §8.3): the Month blocks "
                "to the right are what FIDE publishes, NewRating their Result column; this "
                "block is the whole event as one period")
#: The rating block's header then: the figure is not what FIDE publishes.
ONE_PERIOD_HEADER = "Whole event as one period (not published)"
#: On every cross-table (a formula over the Event sheet's start and end dates): shown
#: when the event runs over 30 days and the sheet has no month blocks (a template, or
#: a TRF without round dates).
LONG_EVENT_NOTE = ("Over 30 days: FIDE rates this event month by month (interim reports, "
                   "B.02 §8.3); this block rates it as one period. xl-fide crosstable on "
                   "the TRF (with round dates) adds a block per month")


def _note_cell(ws: Any, geo: _Geometry, tall: bool = True) -> Any:
    """The note cell above the rating block (row 1, merged over the block's width,
    wrapped; ``tall``: row 1 three lines high, room for the whole note, never cut by the
    page edge; else the row keeps its height and the note shows its first line)."""
    n, ru = geo.col["n"], geo.col[geo.rating_cols[-1].key]
    cell = ws.cell(1, n)
    _apply(cell, "subtitle")
    own_style(cell).alignment = Alignment(horizontal="left", vertical="top", wrap_text=True)
    if not any(m.min_row == 1 and m.min_col == n for m in ws.merged_cells.ranges):
        ws.merge_cells(start_row=1, start_column=n, end_row=1, end_column=ru)
    if tall:
        ws.row_dimensions[1].height = 48
    return cell


def key_rows(geo: _Geometry) -> tuple[int, int]:
    """The first and last row of the key of the codes under the players' rows (one
    blank row between)."""
    first = geo.last + 2
    return first, first + len(_notes.KEY)


def write_key(ws: Any, geo: _Geometry) -> None:
    """The key of the codes the New and Ru cells show (``NP 3g`` ...,
    :data:`xl_fide.rules.notes.KEY`) under the table, one line a code, from the Fed
    column (right of the title columns a printed page repeats: printed once, on the
    first page of the bottom rows). Its text overflows into the blank cells to its
    right, never wrapped: every row stays one line high."""
    first, _ = key_rows(geo)
    col = geo.col["fed"]
    _text(ws, first, col, _notes.KEY_TITLE, "label")
    for i, line in enumerate(_notes.KEY, 1):
        _text(ws, first + i, col, line, "subtitle")


def _long_event_formula() -> str:
    start, end = _event_ref("start"), _event_ref("end")
    return (f'=IF(AND(ISNUMBER({start}),ISNUMBER({end})),IF({end}-{start}>={LONG_EVENT_DAYS},'
            f'"{LONG_EVENT_NOTE}",""),"")')



def _k_formula(geo: _Geometry, r: int) -> str:
    """The K cell of row ``r``: K set if given, else K rule."""
    kset, krule = geo.cell("k_set", r), geo.cell("k_rule", r)
    return f'=IF(ISNUMBER({kset}),{kset},IF(ISNUMBER({krule}),{krule},""))'



_TOURNAMENT_FIELDS = ("name", "city", "federation", "start_date", "end_date", "time_control",
                      "chief_arbiter", "rounds")


