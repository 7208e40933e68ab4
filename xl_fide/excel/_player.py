"""The player sheet: one player's rating period over several events (``xl-fide template
--layout player``), with native formulas or the FIDE_* functions.

FIDE B.02 §8.3 (per game PD and ΔR with the ratings and rules in force at each event's
start; §8.3.1 the 400-point rule, 2650 exemption, R&B 600-point rule), §8.3.3 (K, and
K x n <= 700 over the period), §8.3.4 (the period's total rounded once, .5 away from
zero), §7.2.1 (the floor: not published below it) and §8.2 (an unrated player's initial
rating, pooled over the period's events; a first event without a point ignored).

Exact arithmetic as in :mod:`xl_fide.excel._native`: PD from the Tables sheet in
integer hundredths, sums of integers, every rounding an integer formula (the change
``SIGN(c)*INT((ABS(c)+50)/100)`` on hundredths ``c``). The native variant uses only
functions of Excel 2010+, LibreOffice and Google Sheets (no ``N()``, no ``TEXT``
format strings); the UDF variant takes PD from ``FIDE_EXPECTED`` and the K rule from
``FIDE_K``.

Typed cells are read by formulas (:func:`read_int`, :func:`read_date`, the result and
event-name columns of PlayerCalc): a number typed as text as the number it shows when
that is unambiguous, an ISO date typed as text as that date, a result as the Tables
sheet's entries or a decimal (``1.00``, ``0,5``), an event name whatever its case and
spaces; anything else, an event without its dates, or anything typed under the games
table is the sheet's problem: row 13 names the first such cell and NewRating shows
``not computed`` (FIDE B.02 gives no rating from an input that cannot be read).
:mod:`xl_fide.excel._player_read` reads a saved sheet the same way (``xl-fide rate
BOOK.xlsx``); :func:`player_values` (below) gives every formula cell its value.

Defined names (documented on the Help sheet, :data:`NAMES`): the inputs
``PlayerRating BirthYear CareerGames PeakRating TimeControl KGiven``; the results
``KRule KFactor PeriodGames KUsed PeriodChange RatingChange NewRating ComputedRating
Published InitialRating PeriodRules``; per event (rows in CSV order) ``EventName
EventStart EventEnd EventRo EventK EventN EventW EventSumDeltaR EventKUsed
EventChange``; per game ``GameDate GameEvent GameOpponent GameOpponentRating
GameResult GameRoUsed GamePD GameDeltaR GameNote``.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter as _L
from openpyxl.worksheet.datavalidation import DataValidation

from xl_fide.errors import InputError, XlFideError
from xl_fide.excel import _native
from xl_fide.excel._build import _build_tables
from xl_fide.excel._fence import book_state, own_style
from xl_fide.excel._layout import (
    _CODES, _DP_VALUES, _PD_FROM, _PD_HIGH, CONF, HELP, TABLES, _apply, _define,
    _new_workbook, _page_setup, _text, _vocabulary,
)
from xl_fide.rules.editions import EDITIONS, Cap400, TimeControl, rules_for
from xl_fide.rules.initial import HALF_POINT_BONUS, HYPOTHETICAL_OPPONENT
from xl_fide.rules.rating import (
    EXEMPT_RATING, JUNIOR_AGE, JUNIOR_RATING, K10_RATING, K_CAP_PRODUCT, K_DEFAULT, K_NEW,
    K_TOP, MAX_AGE, NEW_PLAYER_GAMES, RB_600_DIFFERENCE, RB_600_TOP, k_factor,
)
from xl_fide.rules.results import VALIDATION_LIST
from xl_fide.rules.values import K_MAX, K_MIN, RATING_MAX, RATING_MIN

PLAYER, PCALC = "Player", "PlayerCalc"
ONCE_NOTE = ("An event of 1 Jan 2022 - 29 Feb 2024: the 400-point rule applies in its one game "
             "of largest difference only (FIDE B.02 2022 §8.3.1).")
MAX_EVENTS = 8
MAX_GAMES = 60
EV_HEAD = 15
EV_FIRST = EV_HEAD + 1
EV_LAST = EV_FIRST + MAX_EVENTS - 1
G_HEAD = EV_LAST + 3
G_FIRST = G_HEAD + 1
G_LAST = G_FIRST + MAX_GAMES - 1
_TC_INDEX = {"standard": 1, "rapid": 2, "blitz": 3}
_EXCEL_EPOCH = _dt.date(1899, 12, 30)
_OLDEST = min(e.in_force for e in EDITIONS)
_OLDEST_SERIAL = (_OLDEST - _EXCEL_EPOCH).days
_TODAY_KEY = 99999           # no date: the newest edition (today's rules)

# inputs (left) and results (right): key -> (row, label, name, style, help)
_INPUTS = (
    ("ro", 4, "Your rating (blank = unrated)", "PlayerRating", "in_int",
     "Your rating on the list before the period (FIDE B.02 §8.3). Blank: unrated, the sheet "
     "computes the initial rating (§8.2)."),
    ("born", 5, "Birth year", "BirthYear", "in_int",
     "K 40 until the end of the year of your 18th birthday while under 2300 (§8.3.3)."),
    ("games", 6, "Rated games before the period", "CareerGames", "in_int",
     "Fewer than 30 gives K 40 (§8.3.3); blank = 30 or more."),
    ("peak", 7, "Highest published rating", "PeakRating", "in_int",
     "2400 or more gives K 10 for good (§8.3.3)."),
    ("tc", 8, "Time control", "TimeControl", "in_text", "standard, rapid or blitz: the list."),
    ("kgiven", 9, "K on the list (blank: by rule)", "KGiven", "in_int",
     "The K shown on the list before the period; blank: K by rule below."),
    ("krule", 10, "K by rule (§8.3.3)", "KRule", "calc_int",
     "From rating, birth year, games and peak."),
    ("k", 11, "K for the period", "KFactor", "calc_int", "K on the list if given, else K by rule."),
)
_RESULTS = (
    ("n", 4, "Rated games in the period (n)", "PeriodGames", "calc_int",
     "Games played over the board against rated opponents; for an unrated player those "
     "counted for the initial rating."),
    ("kused", 5, "K after K × n ≤ 700", "KUsed", "calc_int",
     "FIDE B.02 §8.3.3: K becomes the largest whole number with K × n ≤ 700."),
    ("change", 6, "Σ K×ΣΔR (not rounded)", "PeriodChange", "calc_s2",
     "The sum of the events' K×ΣΔR, two decimals."),
    ("rounded", 7, "Change, rounded once", "RatingChange", "calc_sint",
     "FIDE B.02 §8.3.4: the period's total rounded once, .5 away from zero."),
    ("new", 8, "New rating", "NewRating", "calc_int",
     "Rating + rounded change (an unrated player: the initial rating), or why it is not "
     "published."),
    ("computed", 9, "Computed rating", "ComputedRating", "calc_int",
     "The value computed, even when it is not published."),
    ("published", 10, "Published?", "Published", "calc_text",
     "yes, or why not (below the floor 1400, FIDE B.02 §7.2.1)."),
    ("initial", 11, "Initial rating (unrated, §8.2)", "InitialRating", "calc_text",
     "Two hypothetical 1800 draws; at least 5 games, at least 1400, at most 2200."),
    ("rules", 12, "Rules of the next list", "PeriodRules", "calc_text",
     "The rule edition of the month after the latest event end (its floor)."),
)
_ROW = {k: r for k, r, *_ in _INPUTS + _RESULTS}
_EV_COLS = (  # column, header, name, style, help
    (1, "No", None, "calc_int", ""),
    (2, "Start", "EventStart", "in_date",
     "First day: the ratings and rules in force then apply (FIDE B.02 §8.3)."),
    (3, "Event", "EventName", "in_text", "The event's name; the games name it."),
    (4, "End", "EventEnd", "in_date", "Last day: the rating period is its month."),
    (5, "Ro (own)", "EventRo", "in_int",
     "Only where FIDE used another rating for you (an event started before the last list)."),
    (6, "K (own)", "EventK", "in_int", "Only where FIDE used another K for you."),
    (7, "N", "EventN", "calc_int", "Rated games."),
    (8, "W", "EventW", "calc_1", "Score in the rated games."),
    (9, "ΣΔR", "EventSumDeltaR", "calc_s2", "Σ(score − PD)."),
    (10, "K used", "EventKUsed", "calc_int", "K after K × n ≤ 700 over the period."),
    (11, "K×ΣΔR", "EventChange", "calc_s2", "The event's change, not rounded."),
)
_G_COLS = (
    (1, "No", None, "calc_int", ""),
    (2, "Date", "GameDate", "in_date", "Optional."),
    (3, "Event", "GameEvent", "in_text", "As named in the events table."),
    (4, "Opponent", "GameOpponent", "in_text", "Optional."),
    (5, "Opp. rating", "GameOpponentRating", "in_int", "Blank = unrated (not a rated game)."),
    (6, "Result", "GameResult", "in_res",
     "1, ½, 0 (also 1-0, 0-1, ½-½, 0.5, =); + / - forfeits and byes are not rated."),
    (7, "Ro used", "GameRoUsed", "calc_int", "Your rating in this game's event."),
    (8, "PD", "GamePD", "calc_2", "Expected score, table 8.1.2 with the 400-point rule."),
    (9, "ΔR", "GameDeltaR", "calc_s2", "Score − PD."),
    (10, "Note", "GameNote", "calc_text", "Why a game is not rated."),
)
#: Note (J) holds its longest text with K beside it, inside the print area A:K ("not
#: rated: 600+ apart, one above 2600"; at 8 it ran past K and the page edge cut it, issue
#: 34); the page is one page high, so the wider sheet prints at the same scale
_WIDTHS = (5, 11, 26, 20, 9, 8, 8, 7, 8, 26, 10)

# PlayerCalc: per-event helper columns (rows EV_FIRST..EV_LAST)
(E_USED, E_KEY, E_ED, E_ONCE, E_EXEMPT, E_RB, E_K20, E_FLOOR, E_RO, E_CAP, E_N, E_W, E_SDR, E_K,
 E_KU, E_CHG, E_NU, E_WU, E_SRU, E_ORDER, E_IDX, E_I24, E_MAX, E_MING, E_MSG,
 E_START, E_END, E_ROIN, E_KIN, E_NAME, E_WHY, E_BAD) = range(1, 33)
# per-game helper columns (rows G_FIRST..G_LAST)
(X_EV, X_PLAYED, X_SCORE, X_ROPP, X_RO, X_FLOOR, X_RB, X_X, X_CAP, X_PD, X_DR, X_U,
 X_KEY, X_USED, X_ROIN, X_RKEY, X_WHY, X_BAD) = range(1, 19)
ED_COL = 34                  # the edition switch table: AH..AS
GLOBAL_COL = 47              # label AU, value AV
RTEXT_COL = 50               # results written as decimals (1.00, 0,50): AX..AZ
_GLOBALS = ("tcidx", "ro", "end", "lkey", "lrow", "lid", "lfloor", "year", "n", "first",
            "last", "k20", "ifloor", "i24", "imax", "iming", "ex", "ni", "wi", "sri", "ival",
            "ishown", "once", "used", "total",
            # the typed inputs as read (a number, "" for blank, "?" not understood)
            "v_ro", "v_born", "v_games", "v_peak", "v_kgiven", "v_tc",
            "inmsg", "evbad", "gbad", "below", "problem")
#: Words a rating cell may hold for "unrated" (as the games CSV reads them).
_UNRATED_WORDS = ("unrated", "nr", "-")
#: The time controls' words (:meth:`xl_fide.rules.editions.TimeControl.parse`).
_TC_WORDS = {1: ("", "standard", "classical", "std", "s"), 2: ("rapid", "r"), 3: ("blitz", "b")}
#: Rows past the games table that are searched for games typed under it.
_BELOW_LAST = 65536
NAMES = tuple(n for _, _, _, n, _, _ in _INPUTS + _RESULTS) + tuple(
    c[2] for c in _EV_COLS + _G_COLS if c[2])


def _g(key: str) -> str:
    """A global helper's absolute reference (PlayerCalc)."""
    return f"{PCALC}!${_L(GLOBAL_COL + 1)}${2 + _GLOBALS.index(key)}"


def _p(key: str) -> str:
    """An input or result cell of the Player sheet."""
    col = 4 if key in {k for k, *_ in _INPUTS} else 11
    return f"{PLAYER}!${_L(col)}${_ROW[key]}"


def _ecol(c: int, sheet: str = PCALC) -> str:
    return f"{sheet}!${_L(c)}${EV_FIRST}:${_L(c)}${EV_LAST}"


def _gcol(c: int, sheet: str = PCALC) -> str:
    return f"{sheet}!${_L(c)}${G_FIRST}:${_L(c)}${G_LAST}"


def _edition_table() -> tuple[list[list[object]], str]:
    """Rows (key, id, 400-point rule once per event, exempt 2650, rb600, k20, init 2024,
    floor, max, min games, note), sorted by key = time-control index x 100000 + date
    serial; the switches are :func:`xl_fide.excel._native.edition_rows`'."""
    rows = []
    for e, spec in zip(EDITIONS, _native.edition_rows()):
        key = _TC_INDEX[e.time_control.value] * 100000 + (e.in_force - _EXCEL_EPOCH).days
        exempt, rb, k20, i24, floor, mx, ming = spec[2:9]
        once = int(e.cap400 is Cap400.ONCE_PER_EVENT)
        rows.append([key, e.id, once, exempt, rb, k20, i24, floor, mx, ming, e.note])
    rows.sort(key=lambda r: r[0])  # type: ignore[arg-type, return-value]
    return rows, f"{ED_COL}"


def _ed(col: int) -> str:
    """Column ``col`` (0 = key .. 10 = message) of the edition table."""
    n = len(EDITIONS)
    c = _L(ED_COL + col)
    return f"{PCALC}!${c}$4:${c}${3 + n}"


def _one_of(expr: str, words: tuple[str, ...]) -> str:
    """1 when ``expr`` is one of ``words`` (no array constant: Gnumeric compares an
    array constant by its first item only)."""
    return "OR(" + ",".join(f'{expr}="{w}"' for w in words) + ")"


def read_int(x: str, lo: int, hi: int, words: tuple[str, ...] = ()) -> str:
    """A typed whole number as the sheet reads it (no leading ``=``): the number (also
    when typed as text, ``" 1688"``: the text must be exactly its digits), ``""`` for a
    blank (or one of ``words``), ``"?"`` for anything else (``1,688``, ``1688.5``, out of
    ``lo..hi``). Locale-free: only a text of digits is taken through VALUE."""
    t = f"TRIM({x})"
    v = f"VALUE({t})"
    inner = f'IF(AND({t}={v}&"",{v}=INT({v}),{v}>={lo},{v}<={hi}),{v},"?")'
    if words:
        inner = f'IF({_one_of(f"LOWER({t})", words)},"",{inner})'
    return (f'IFERROR(IF(ISNUMBER({x}),IF(AND({x}=INT({x}),{x}>={lo},{x}<={hi}),{x},"?"),'
            f'IF({t}="","",{inner})),"?")')


def read_date(x: str) -> str:
    """A typed date as the sheet reads it: a date (serial number), ISO text
    ``2025-11-01`` as that date, ``""`` for a blank, ``"?"`` for anything else (other
    text is ambiguous across locales: 3/2/2024)."""
    t = f"TRIM({x})"
    y, m, d = f"VALUE(LEFT({t},4))", f"VALUE(MID({t},6,2))", f"VALUE(MID({t},9,2))"
    ok = (f'AND(LEN({t})=10,MID({t},5,1)="-",MID({t},8,1)="-",{y}>=1900,{y}=INT({y}),'
          f"{m}>=1,{m}<=12,{m}=INT({m}),{d}>=1,{d}=INT({d}),{d}<=DAY(DATE({y},{m}+1,0)))")
    return (f'IFERROR(IF(ISNUMBER({x}),IF({x}>=1,INT({x}),"?"),IF({t}="","",'
            f'IF({ok},DATE({y},{m},{d}),"?"))),"?")')


def _lookup_key(date: str) -> str:
    return (f"{_g('tcidx')}*100000+IF(ISNUMBER({date}),MAX({date},{_OLDEST_SERIAL}),"
            f"{_TODAY_KEY})")


# ------------------------------------------------------------------------------ formulas

def _global_formulas(udf: bool) -> dict[str, str]:
    tc = _p("tc")
    ro = _p("ro")
    used = f"SUM({_ecol(E_USED)})"
    at = (lambda col, which: f"INDEX({_ecol(col)},{_g(which)})")
    n2, w2 = f"({_g('ni')}+2)", f"({_g('wi')}+2)"
    dp = (lambda p: f"INDEX({_DP_VALUES},({p})+1)")
    ni, wi, sri = _g("ni"), _g("wi"), _g("sri")
    rule_2024 = _native._half_up_ratio(
        f"{sri}+{2 * HYPOTHETICAL_OPPONENT}+{n2}*{dp(_native._p_hundredths(w2, n2))}", n2)
    dp_2022 = (f"IF({wi}<={ni},{dp(_native._p_hundredths(wi, ni))},"
               f"{HALF_POINT_BONUS}*({wi}-{ni}))")
    rule_2022 = _native._half_up_ratio(f"{sri}+{ni}*{dp_2022}", ni)
    no = '"not published: '
    ival = _g("ival")
    v_ro = _g("v_ro")
    tcw = f"LOWER(TRIM({tc}))"
    return {
        "tcidx": (f"=IF({_one_of(tcw, _TC_WORDS[2])},2,"
                  f"IF({_one_of(tcw, _TC_WORDS[3])},3,1))"),
        "ro": f"=IF(ISNUMBER({v_ro}),IF({v_ro}>={_g('lfloor')},{v_ro},0),0)",
        "end": f"=MAX({_ecol(E_END)})",
        "lkey": (f"={_g('tcidx')}*100000+IF({_g('end')}>0,MAX(DATE(YEAR({_g('end')}),"
                 f"MONTH({_g('end')}),1),{_OLDEST_SERIAL}),{_TODAY_KEY})"),
        "lrow": f"=MATCH({_g('lkey')},{_ed(0)},1)",
        "lid": f"=INDEX({_ed(1)},{_g('lrow')})",
        "lfloor": f"=INDEX({_ed(7)},{_g('lrow')})",
        "year": f"=IF({_g('end')}>0,YEAR({_g('end')}),YEAR(TODAY()))",
        "n": f"=IF({_g('ro')}>0,SUM({_ecol(E_N)}),0)",
        "first": f"=IF(COUNT({_ecol(E_ORDER)})=0,0,MATCH(MIN({_ecol(E_ORDER)}),{_ecol(E_ORDER)},0))",
        "last": f"=IF(COUNT({_ecol(E_ORDER)})=0,0,MATCH(MAX({_ecol(E_ORDER)}),{_ecol(E_ORDER)},0))",
        "k20": f"=IF({_g('first')}>0,{at(E_K20, 'first')},0)",
        "ifloor": f"=IF({_g('last')}>0,{at(E_FLOOR, 'last')},{_g('lfloor')})",
        "i24": f"=IF({_g('last')}>0,{at(E_I24, 'last')},1)",
        "imax": f"=IF({_g('last')}>0,{at(E_MAX, 'last')},0)",
        "iming": f"=IF({_g('last')}>0,{at(E_MING, 'last')},5)",
        "ex": (f"=IF({_g('first')}>0,IF(AND({at(E_NU, 'first')}>0,{at(E_WU, 'first')}=0),1,0),"
               "0)"),
        "ni": f"=SUM({_ecol(E_NU)})-{_g('ex')}*IF({_g('first')}>0,{at(E_NU, 'first')},0)",
        "wi": f"=SUM({_ecol(E_WU)})",
        "sri": f"=SUM({_ecol(E_SRU)})-{_g('ex')}*IF({_g('first')}>0,{at(E_SRU, 'first')},0)",
        "ival": f'=IF({ni}>0,IF({_g("i24")}=1,{rule_2024},{rule_2022}),"")',
        "ishown": (f'=IF({ni}=0,IF({_g("ex")}=1,{no}zero score against rated opponents: a '
                   f'first event without a point is ignored (FIDE B.02 §8.2)",'
                   f'{no}no games against rated opponents"),'
                   f'IF({ni}<{_g("iming")},{no}only "&{ni}&" game"&IF({ni}=1,"","s")&'
                   f'" against rated opponents; at least "&{_g("iming")}&" are needed",'
                   f'IF({ival}<{_g("ifloor")},{no}"&{ival}&" is below the rating floor "&'
                   f'{_g("ifloor")},IF(AND({_g("imax")}>0,{ival}>{_g("imax")}),{_g("imax")},'
                   f"{ival}))))"),
        "once": f"=IF(SUMPRODUCT({_ecol(E_USED)}*{_ecol(E_ONCE)})>0,1,0)",
        "used": f"={used}",
        "total": f"=SUM({_ecol(E_CHG)})",
        **_input_formulas(),
    }


#: The inputs read by :func:`read_int`: key -> (lowest, highest, words, what it must be).
_READ = {
    "ro": (RATING_MIN, RATING_MAX, _UNRATED_WORDS, "your rating must be a whole number from "
           f"{RATING_MIN} to {RATING_MAX} (blank = unrated)"),
    "born": (1850, 2200, (), "the birth year must be a year, e.g. 2009"),
    "games": (0, 100000, (), "the rated games before the period must be a whole number"),
    "peak": (RATING_MIN, RATING_MAX, (), "the highest rating must be a whole number from "
             f"{RATING_MIN} to {RATING_MAX}"),
    "kgiven": (K_MIN, K_MAX, (), f"K must be a whole number from {K_MIN} to {K_MAX}"),
}


def _input_formulas() -> dict[str, str]:
    """The typed inputs as read, and the first problem of the sheet (``problem``: which
    cell and why; ``""`` when none): an input, then an event row, then a game row, then
    anything typed under the games table. The results are not shown while there is one."""
    out = {f"v_{k}": "=" + read_int(_p(k), lo, hi, words) for k, (lo, hi, words, _) in _READ.items()}
    tcw = f"LOWER(TRIM({_p('tc')}))"
    out["v_tc"] = f"=IF({_one_of(tcw, sum(_TC_WORDS.values(), ()))},1,0)"
    tc_ref = f"D{_ROW['tc']}"
    msg = (f'IF({_g("v_tc")}=0,"{tc_ref}: the time control must be standard, rapid or '
           f'blitz","")')
    for key, (_, _, _, what) in reversed(_READ.items()):
        msg = f'IF({_g("v_" + key)}="?","D{_ROW[key]}: {what}",{msg})'
    out["inmsg"] = "=" + msg
    out["evbad"] = f"=IFERROR(MATCH(1,{_ecol(E_BAD)},0),0)"
    out["gbad"] = f"=IFERROR(MATCH(1,{_gcol(X_BAD)},0),0)"
    out["below"] = f"=COUNTA({PLAYER}!$A${G_LAST + 1}:$K${_BELOW_LAST})"
    out["problem"] = (
        f'=IF({_g("inmsg")}<>"",{_g("inmsg")},IF({_g("evbad")}>0,INDEX({_ecol(E_WHY)},'
        f'{_g("evbad")}),IF({_g("gbad")}>0,INDEX({_gcol(X_WHY)},{_g("gbad")}),'
        f'IF({_g("below")}>0,"row {G_LAST + 1} or below: "&{_g("below")}&" cell(s) typed '
        f'under the games table are not counted (it holds {MAX_GAMES} games)",""))))')
    return out


def _number_or_blank(ref: str) -> str:
    """``ref`` (an input as read) as a FIDE_* argument: the number, else ``""``. Never a
    blank cell itself: LibreOffice passes a blank single cell to an add-in as 0, where 0
    means something else (0 games so far: K 40); ``""`` reaches the function as blank in
    every host (Excel, LibreOffice, xlwings Lite)."""
    return f'IF(ISNUMBER({ref}),{ref},"")'


def _k_rule(udf: bool) -> str:
    """K by FIDE B.02 §8.3.3 as :func:`xl_fide.rules.rating.k_factor` decides it."""
    ro, born, games, peak = _g("ro"), _g("v_born"), _g("v_games"), _g("v_peak")
    year, k20 = _g("year"), _g("k20")
    if udf:
        day = f"INDEX({_ecol(E_START)},MAX(1,{_g('first')}))"
        first = f'IF(ISNUMBER({day}),{day},"")'
        tc = f'IF({_g("tcidx")}=2,"rapid",IF({_g("tcidx")}=3,"blitz","standard"))'
        # Calc hands an add-in a blank single cell as 0 (0 games: K 40): a blank input
        # reaches FIDE_K as "" (blank in Excel, LibreOffice and Pyodide alike)
        born, games, peak = (_number_or_blank(x) for x in (born, games, peak))
        return (f'=IF({ro}=0,"",FIDE_K({ro},{born},{games},{peak},"",{year},'
                f"{tc},{first}))")
    highest = f"IF(ISNUMBER({peak}),MAX({ro},{peak}),{ro})"
    # IF, not AND: AND computes every argument, and year - "" is #VALUE!
    bad_born = f"IF(ISNUMBER({born}),OR({born}>{year},{year}-{born}>{MAX_AGE}),FALSE)"
    junior = (f"IF(ISNUMBER({born}),AND({year}-{born}<={JUNIOR_AGE},"
              f"{highest}<{JUNIOR_RATING}),FALSE)")
    new = f"IF(ISNUMBER({games}),{games}<{NEW_PLAYER_GAMES},FALSE)"
    return (f'=IF({ro}=0,"",IF({k20}=1,{K_DEFAULT},IF({highest}>={K10_RATING},{K_TOP},'
            f"IF({bad_born},NA(),IF(OR({junior},{new}),{K_NEW},{K_DEFAULT})))))")


def _event_cells(r: int, i: int) -> dict[int, str | int]:
    """PlayerCalc helpers of event row ``r`` (event ``i``, 1-based)."""
    me = (lambda c: f"${_L(c)}{r}")
    pl = (lambda c: f"{PLAYER}!${_L(c)}{r}")
    ed = (lambda col: f"INDEX({_ed(col)},{me(E_ED)})")
    ev, X, U = _gcol(X_EV), _gcol(X_X), _gcol(X_U)
    start, end, ro_in, k_in = me(E_START), me(E_END), me(E_ROIN), me(E_KIN)
    why = (f'IF({start}="?","B{r}: the start is not a date (type it as 2025-11-01)",'
           f'IF({start}="","B{r}: the event\'s start date is missing",'
           f'IF({end}="?","D{r}: the end is not a date (type it as 2025-11-30)",'
           f'IF({end}="","D{r}: the event\'s end date is missing",'
           f'IF({end}<{start},"D{r}: the end is before the start",'
           f'IF({ro_in}="?","E{r}: Ro must be a whole number from {RATING_MIN} to '
           f'{RATING_MAX}",IF({k_in}="?","F{r}: K must be a whole number from {K_MIN} to '
           f'{K_MAX}",IF(SUMPRODUCT(({_ecol(E_NAME)}={me(E_NAME)})*1)>1,"C{r}: another '
           f'event has this name",""))))))))')
    typed = f'LEN(TRIM({pl(2)}&{pl(4)}&{pl(5)}&{pl(6)}))>0'
    return {
        E_USED: f'=IF(TRIM({pl(3)})<>"",1,0)',
        E_START: "=" + read_date(pl(2)),
        E_END: "=" + read_date(pl(4)),
        E_ROIN: "=" + read_int(pl(5), RATING_MIN, RATING_MAX, _UNRATED_WORDS),
        E_KIN: "=" + read_int(pl(6), K_MIN, K_MAX),
        E_NAME: f'=IF({me(E_USED)}=1,UPPER(TRIM({pl(3)})),"")',
        E_WHY: (f'=IF({me(E_USED)}=1,{why},IF({typed},"C{r}: the event has no name",""))'),
        E_BAD: f'=IF({me(E_WHY)}="",0,1)',
        E_KEY: "=" + _lookup_key(start),
        E_ED: f"=MATCH({me(E_KEY)},{_ed(0)},1)",
        E_ONCE: f"={ed(2)}", E_EXEMPT: f"={ed(3)}", E_RB: f"={ed(4)}", E_K20: f"={ed(5)}",
        E_FLOOR: f"={ed(7)}", E_I24: f"={ed(6)}", E_MAX: f"={ed(8)}", E_MING: f"={ed(9)}",
        E_MSG: f"={ed(10)}",
        E_RO: f"=IF(AND({me(E_USED)}=1,{_g('ro')}>0),IF(ISNUMBER({ro_in}),{ro_in},{_g('ro')}),0)",
        E_CAP: f"=IF(AND({me(E_EXEMPT)}=1,{me(E_RO)}>={EXEMPT_RATING}),0,1)",
        E_N: f'=COUNTIFS({ev},{i},{X},">0")',
        E_W: f'=SUMIFS({_gcol(X_SCORE)},{ev},{i},{X},">0")',
        E_SDR: f"=SUMIF({ev},{i},{_gcol(X_DR)})",
        E_K: f'=IF(ISNUMBER({k_in}),{k_in},{_p("k")})',
        E_KU: (f'=IF({me(E_RO)}>0,IF({me(E_K)}*{_g("n")}>{K_CAP_PRODUCT},'
               f'INT({K_CAP_PRODUCT}/{_g("n")}),{me(E_K)}),0)'),
        E_CHG: f"=IF({me(E_RO)}>0,{me(E_KU)}*{me(E_SDR)},0)",
        E_NU: f'=COUNTIFS({ev},{i},{U},">0")',
        E_WU: f'=SUMIFS({_gcol(X_SCORE)},{ev},{i},{U},">0")',
        E_SRU: f"=SUMIF({ev},{i},{U})",
        E_ORDER: f'=IF({me(E_USED)}=1,IF(ISNUMBER({start}),{start},0)*100+{i},"")',
        E_IDX: i,
    }


def _game_cells(r: int, udf: bool) -> dict[int, str]:
    me = (lambda c: f"${_L(c)}{r}")
    pl = (lambda c: f"{PLAYER}!${_L(c)}{r}")
    ev = me(X_EV)
    at = (lambda col: f"INDEX({_ecol(col)},{ev})")
    ro, opp = me(X_RO), me(X_ROPP)
    rb = (f"IF({ev}>0,IF(AND({at(E_RB)}=1,ABS({ro}-{opp})>={RB_600_DIFFERENCE},"
          f"OR({ro}>{RB_600_TOP},{opp}>{RB_600_TOP})),0,1),0)")
    x, cap, key = me(X_X), me(X_CAP), me(X_KEY)
    if udf:     # the opponent's rating as the 400-point rule counts it, then the table
        counted = f"IF(AND({cap}=1,ABS({ro}-{x})>400),{ro}-SIGN({ro}-{x})*400,{x})"
        pd = f'ROUND(100*FIDE_EXPECTED({ro},{counted},"table"),0)'
    else:
        pd = _native.pd_hundredths(ro, x, cap, _PD_FROM, _PD_HIGH)
    over = f"AND({x}>0,ABS({ro}-{x})>400)"
    # once per event (B.02 2022 §8.3.1): the game of largest difference, the first of equals
    largest = f'COUNTIFS({_gcol(X_EV)},{ev},{_gcol(X_KEY)},">"&{key})=0'
    name = f"UPPER(TRIM({pl(3)}))"
    same = f"({_ecol(E_NAME)}={name})"
    rk, rtext = me(X_RKEY), _rtext()
    played = me(X_PLAYED)
    why = (f'IF(TRIM({pl(3)})="","C{r}: the game has no event",IF({ev}=0,"C{r}: no event '
           f'of this name in the events table",IF({me(X_ROIN)}="?","E{r}: the opponent\'s '
           f'rating must be a whole number from {RATING_MIN} to {RATING_MAX} (blank = '
           f'unrated)",IF({played}=-1,"F{r}: the result is not understood",""))))')
    return {
        X_USED: f'=IF(LEN(TRIM({pl(2)}&{pl(3)}&{pl(4)}&{pl(5)}&{pl(6)}))>0,1,0)',
        X_EV: (f'=IF(TRIM({pl(3)})="",0,IF(SUMPRODUCT({same}*1)=1,'
               f"SUMPRODUCT({same}*{_ecol(E_IDX)}),0))"),
        X_ROIN: "=" + read_int(pl(5), RATING_MIN, RATING_MAX, _UNRATED_WORDS),
        X_RKEY: f'=IFERROR(IF(ISNUMBER({pl(6)}),{pl(6)},SUBSTITUTE(TRIM({pl(6)})," ","")),"?")',
        # * ? ~ are wildcards to VLOOKUP in Excel and LibreOffice ("?" would find "1")
        X_PLAYED: (f'=IF({rk}="",0,IF(OR(ISNUMBER(FIND("*",{rk})),ISNUMBER(FIND("?",{rk})),'
                   f'ISNUMBER(FIND("~",{rk}))),-1,IFERROR(VLOOKUP({rk},{_CODES},3,FALSE),'
                   f"IFERROR(VLOOKUP({rk},{rtext},3,FALSE),-1))))"),
        X_SCORE: (f"=IF({played}=1,2*IFERROR(VLOOKUP({rk},{_CODES},2,FALSE),"
                  f"VLOOKUP({rk},{rtext},2,FALSE)),0)"),
        X_WHY: f'=IF({me(X_USED)}=1,{why},"")',
        X_BAD: f'=IF({me(X_WHY)}="",0,1)',
        X_ROPP: f"=IF(ISNUMBER({me(X_ROIN)}),{me(X_ROIN)},0)",
        X_RO: f"=IF({ev}>0,{at(E_RO)},0)",
        X_FLOOR: f"=IF({ev}>0,{at(E_FLOOR)},0)",
        X_RB: f"={rb}",
        X_X: (f"=IF(AND({ev}>0,{me(X_PLAYED)}=1,{ro}>0,{opp}>0,{opp}>={me(X_FLOOR)},"
              f"{me(X_RB)}=1),{opp},0)"),
        X_KEY: f"=IF({over},ABS({ro}-{x})*1000+{1000 - (r - G_FIRST)},0)",
        X_CAP: (f"=IF({ev}>0,IF({at(E_ONCE)}=1,IF(AND({over},{largest}),1,0),{at(E_CAP)}),1)"),
        X_PD: f"=IF({x}>0,{pd},0)",
        X_DR: f"=IF({x}>0,50*{me(X_SCORE)}-{me(X_PD)},0)",
        X_U: (f"=IF(AND({ev}>0,{me(X_PLAYED)}=1,{_g('ro')}=0,{opp}>0,{opp}>={_g('ifloor')}),"
              f"{opp},0)"),
    }


def _rtext() -> str:
    """The table of results typed as decimals (text ``1.00``, ``0,50``, ``.5``)."""
    last = 1 + len(result_texts())
    return f"{PCALC}!${_L(RTEXT_COL)}$2:${_L(RTEXT_COL + 2)}${last}"


def result_texts() -> list[tuple[str, float, int]]:
    """(text, score, 1) for each decimal the games CSV reads as a result (``[01]?[.,]``
    and one to four digits, worth 0, ½ or 1: ``1.00``, ``0,5``, ``.50``)."""
    out = []
    for whole in ("", "0", "1"):
        for sep in (".", ","):
            for digits in range(1, 5):
                for first, score in (("0", 0.0), ("5", 0.5)):
                    value = (1.0 if whole == "1" else 0.0) + score
                    if value <= 1:
                        out.append((f"{whole}{sep}{first}{'0' * (digits - 1)}", value, 1))
    return out


def _game_note(r: int) -> str:
    c = (lambda col: f"{PCALC}!${_L(col)}{r}")
    return (f'=IF({c(X_USED)}=0,"",IF({c(X_WHY)}<>"",{c(X_WHY)},'
            f'IF({c(X_PLAYED)}=0,IF(TRIM($F{r})="","no result yet: not counted",'
            f'"not rated: not played over the board"),IF({c(X_ROPP)}=0,"not rated: unrated '
            f'opponent",IF({_g("ro")}>0,IF({c(X_X)}>0,"",IF({c(X_ROPP)}<{c(X_FLOOR)},'
            f'"not rated: opponent below the floor","not rated: 600+ apart, one above 2600")),'
            f'IF({c(X_U)}>0,"","not rated: opponent below the floor"))))))')


# ------------------------------------------------------------------------------ building

def build_player_sheet(*, formulas: str = "native", games: Any = None,
                       player: Any = None) -> Workbook:
    """The player workbook: sheets Player, Tables, Help (and hidden PlayerCalc).

    ``formulas``: ``native`` (built-in functions only) or ``udf`` (PD by FIDE_EXPECTED,
    K by FIDE_K). ``games``: a :class:`xl_fide._games.GamesFile` to fill in (at most
    :data:`MAX_EVENTS` events and :data:`MAX_GAMES` games, else
    :class:`~xl_fide.errors.InputError`); ``player``: a
    :class:`xl_fide.event.player_period.PlayerInputs` for the inputs block.
    """
    udf = _native.check_formulas(formulas) == "udf"
    wb, ws = _new_workbook(PLAYER)
    tables = wb.create_sheet(TABLES)
    _build_tables(wb, tables, event_scoring=False)
    calc = wb.create_sheet(PCALC)
    helpws = wb.create_sheet(HELP)
    _build_player(wb, ws, udf)
    _build_calc(calc, udf)
    _build_help(helpws, udf)
    if udf:
        conf = wb.create_sheet(CONF)
        _text(conf, 1, 1, "UDF Modules")
        _text(conf, 1, 2, "xl_fide.udfs")
    if games is not None or player is not None:
        _fill(ws, games, player)
    # every formula cell's value, saved with it by save_workbook (openpyxl has no public
    # way to write a formula's cached value: xl_fide.excel._cached writes them)
    book_state(wb)["cached"] = player_values(games, player, udf)
    wb.active = 0
    return wb


def _build_player(wb: Workbook, ws: Any, udf: bool) -> None:
    _text(ws, 1, 1, "My FIDE rating period", "title")
    _text(ws, 2, 1, "White cells are input, grey cells computed (FIDE B.02 §8.2-§8.3): "
          "several events, K × n ≤ 700 over the period, one rounding.", "subtitle")
    _text(ws, 3, 1, "You, on the list before the period", "label")
    _text(ws, 3, 6, "The period", "label")
    for key, r, label, name, style, help_ in _INPUTS:
        _text(ws, r, 1, label, "label")
        cell = ws.cell(r, 4)
        _apply(cell, style)
        cell.comment = Comment(help_, "xl-fide", width=260, height=80)
        _define(wb, name, PLAYER, f"$D${r}")
    for key, r, label, name, style, help_ in _RESULTS:
        _text(ws, r, 6, label, "label")
        cell = ws.cell(r, 11)
        _apply(cell, style)
        cell.comment = Comment(help_, "xl-fide", width=260, height=80)
        _define(wb, name, PLAYER, f"$K${r}")
    for key in ("published", "initial", "rules"):   # long text: overflows to the left
        own_style(ws.cell(_ROW[key], 11)).alignment = Alignment(horizontal="right",
                                                                vertical="center")
    ws.cell(_ROW["tc"], 4).value = "standard"
    ws.cell(_ROW["krule"], 4).value = _k_rule(udf)
    kg, kr = _g("v_kgiven"), _p("krule")
    ws.cell(_ROW["k"], 4).value = f'=IF({_g("ro")}=0,"",IF(ISNUMBER({kg}),{kg},{kr}))'
    _results_formulas(ws)
    problem = _g("problem")
    msg = ws.cell(13, 1, f'=IF({problem}<>"","Not computed: "&{problem},'
                         f'IF({_g("once")}=1,"{ONCE_NOTE}",""))')
    _apply(msg, "note")
    ws.merge_cells(start_row=13, start_column=1, end_row=13, end_column=11)
    _text(ws, EV_HEAD - 1, 1, "Events (Ro and K only where FIDE used others for you)", "label")
    _text(ws, G_HEAD - 1, 1, f"Games (up to {MAX_GAMES})", "label")
    for cols, head, first, last in ((_EV_COLS, EV_HEAD, EV_FIRST, EV_LAST),
                                    (_G_COLS, G_HEAD, G_FIRST, G_LAST)):
        for c, h, col_name, style, col_help in cols:
            cell = _text(ws, head, c, h, "head")
            if col_help:
                cell.comment = Comment(col_help, "xl-fide", width=240, height=70)
            for r in range(first, last + 1):
                _apply(ws.cell(r, c), style)
            if col_name:
                _define(wb, col_name, PLAYER, f"${_L(c)}${first}:${_L(c)}${last}")
    _event_rows(ws)
    _game_rows(ws)
    _validations(ws)
    for i, w in enumerate(_WIDTHS, 1):
        ws.column_dimensions[_L(i)].width = w
    ws.freeze_panes = "A4"
    ws.print_area = f"A1:K{G_LAST}"
    _page_setup(ws, landscape=False)
    ws.page_setup.fitToHeight = 1              # the whole sheet on one page
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    ws.protection.formatRows = False


def _results_formulas(ws: Any) -> None:
    ro, n = _g("ro"), _g("n")
    rated = f"{ro}>0"
    K = _p("k")
    total = _g("total")
    rounded = _native.round_half_away(total)
    computed = f"IF({rated},{ro}+{rounded},{_g('ival')})"
    # a bad input (row 13 names it): no figure of the period, as New says "not computed"
    # (a user trial: K×ΣΔR and the rounded change still showed numbers)
    ok = f'{_g("problem")}=""'
    f = {
        "n": f"=IF({rated},{n},{_g('ni')})",
        "kused": f'=IF(AND({ok},{rated},ISNUMBER({K})),IF({K}*{n}>{K_CAP_PRODUCT},'
                 f'INT({K_CAP_PRODUCT}/{n}),{K}),"")',
        "change": f'=IF(AND({ok},{rated}),{total}/100,"")',
        "rounded": f'=IF(AND({ok},{rated}),{rounded},"")',
        "computed": f'=IF(OR({_g("used")}=0,{_g("problem")}<>""),"",{computed})',
        "new": (f'=IF({_g("used")}=0,"",IF({_g("problem")}<>"","not computed: see row 13",'
                f'IF({rated},IF({computed}>={_g("lfloor")},{computed},"not published: below "'
                f'&{_g("lfloor")}),{_g("ishown")})))'),
        "published": (f'=IF({_g("used")}=0,"",IF(ISNUMBER({_p("new")}),"yes",'
                      f'"no: "&{_p("new")}))'),
        "initial": f'=IF(OR({rated},{_g("used")}=0),"",{_g("ishown")})',
        "rules": f"={_g('lid')}",
    }
    for key, formula in f.items():
        ws.cell(_ROW[key], 11).value = formula


def _event_rows(ws: Any) -> None:
    for i, r in enumerate(range(EV_FIRST, EV_LAST + 1), 1):
        ws.cell(r, 1).value = i
        c = (lambda col: f"{PCALC}!${_L(col)}{r}")
        live = f'AND({c(E_USED)}=1,{_g("ro")}>0)'
        ws.cell(r, 7).value = (f'=IF({c(E_USED)}=1,IF({_g("ro")}>0,{c(E_N)},{c(E_NU)}),"")')
        ws.cell(r, 8).value = (f'=IF({c(E_USED)}=1,IF({_g("ro")}>0,{c(E_W)},{c(E_WU)})/2,"")')
        ws.cell(r, 9).value = f'=IF({live},{c(E_SDR)}/100,"")'
        ws.cell(r, 10).value = f'=IF({live},{c(E_KU)},"")'
        ws.cell(r, 11).value = f'=IF({live},{c(E_CHG)}/100,"")'


def _game_rows(ws: Any) -> None:
    for i, r in enumerate(range(G_FIRST, G_LAST + 1), 1):
        ws.cell(r, 1).value = i
        c = (lambda col: f"{PCALC}!${_L(col)}{r}")
        x = c(X_X)
        ws.cell(r, 7).value = f'=IF({x}>0,{c(X_RO)},"")'
        ws.cell(r, 8).value = f'=IF({x}>0,{c(X_PD)}/100,"")'
        ws.cell(r, 9).value = f'=IF({x}>0,{c(X_DR)}/100,"")'
        ws.cell(r, 10).value = _game_note(r)


def _validations(ws: Any) -> None:
    def dv(**kw: Any) -> DataValidation:
        v = DataValidation(allow_blank=True, showErrorMessage=True, **kw)
        ws.add_data_validation(v)
        return v
    rating = dv(type="whole", operator="between", formula1="0", formula2="4000",
                showInputMessage=True, promptTitle="Rating", prompt="Whole number; blank = unrated.",
                error="A rating is a whole number from 0 to 4000 (blank = unrated).")
    for ref in (f"D{_ROW['ro']}", f"D{_ROW['peak']}", f"E{EV_FIRST}:E{EV_LAST}",
                f"E{G_FIRST}:E{G_LAST}"):
        rating.add(ref)
    k = dv(type="whole", operator="between", formula1="1", formula2="100",
           error="K is a whole number from 1 to 100.")
    k.add(f"D{_ROW['kgiven']}")
    k.add(f"F{EV_FIRST}:F{EV_LAST}")
    born = dv(type="whole", operator="between", formula1="1850", formula2="2200",
              error="A year of birth, e.g. 2009.")
    born.add(f"D{_ROW['born']}")
    games = dv(type="whole", operator="greaterThanOrEqual", formula1="0",
               error="A whole number, 0 or more.")
    games.add(f"D{_ROW['games']}")
    tc = dv(type="list", formula1='"standard,rapid,blitz"')
    tc.add(f"D{_ROW['tc']}")
    date = dv(type="date", operator="greaterThan", formula1="1", error="A date, e.g. 2025-10-04.")
    for ref in (f"B{EV_FIRST}:B{EV_LAST}", f"D{EV_FIRST}:D{EV_LAST}", f"B{G_FIRST}:B{G_LAST}"):
        date.add(ref)
    res = dv(type="list", formula1='"' + ",".join(VALIDATION_LIST + ("H", "F", "U", "Z")) + '"',
             errorStyle="warning", showInputMessage=True, promptTitle="Result",
             prompt="1 win, ½ draw, 0 loss (also 1-0, 0-1, ½-½, 0.5); + / - forfeits and byes "
                    "are not rated.", errorTitle="Result", error="Not in the list: keep it anyway?")
    res.add(f"F{G_FIRST}:F{G_LAST}")
    ev = dv(type="list", formula1=f"$C${EV_FIRST}:$C${EV_LAST}", errorStyle="warning",
            error="Not an event of the events table: keep it anyway?")
    ev.add(f"C{G_FIRST}:C{G_LAST}")


def _build_calc(ws: Any, udf: bool) -> None:
    _text(ws, 1, 1, "Helpers of the Player sheet: integers per event and per game (PD, ΔR "
          "in hundredths). Computed; do not edit.")
    heads_e = ("used", "edition key", "edition row", "once per event", "exempt 2650", "R&B 600",
               "K 20 for all", "floor", "Ro used", "400 rule", "N", "W (half)", "ΣΔR (1/100)",
               "K", "K used", "K×ΣΔR (1/100)", "N initial", "W initial (half)", "Σ R_opp initial",
               "order", "index", "initial 2024", "initial max", "min games", "message",
               "start", "end", "Ro (own)", "K (own)", "name key", "problem", "bad")
    heads_g = ("event", "played", "score (half)", "R_opp", "Ro", "floor", "R&B ok", "rated R_opp",
               "400 rule", "PD (1/100)", "ΔR (1/100)", "R_opp initial", "largest D key",
               "typed", "opp. rating", "result key", "problem", "bad")
    for i, h in enumerate(heads_e, 1):
        ws.cell(EV_HEAD, i).value = h
    for i, h in enumerate(heads_g, 1):
        ws.cell(G_HEAD, i).value = h
    for i, r in enumerate(range(EV_FIRST, EV_LAST + 1), 1):
        for c, v in _event_cells(r, i).items():
            ws.cell(r, c).value = v
    for r in range(G_FIRST, G_LAST + 1):
        for c, v in _game_cells(r, udf).items():
            ws.cell(r, c).value = v
    rows, _ = _edition_table()
    for i, h in enumerate(("key", "edition", "once per event", "exempt", "rb600", "k20", "initial 2024",
                           "floor", "max", "min games", "message")):
        ws.cell(3, ED_COL + i).value = h
    for r, values in enumerate(rows, 4):
        for i, item in enumerate(values):
            if item != "":
                ws.cell(r, ED_COL + i).value = item
    ws.cell(1, RTEXT_COL).value = "results typed as decimals"
    for r, row in enumerate(result_texts(), 2):
        for i, item in enumerate(row):
            ws.cell(r, RTEXT_COL + i).value = item
    formulas = _global_formulas(udf)
    assert tuple(formulas) == _GLOBALS
    for i, (key, formula) in enumerate(formulas.items()):
        ws.cell(2 + i, GLOBAL_COL).value = key
        ws.cell(2 + i, GLOBAL_COL + 1).value = formula
    ws.sheet_state = "hidden"
    ws.protection.sheet = True


_HELP_TEXT = (
    ("title", "xl-fide: my FIDE rating period"),
    ("text", "What will the next list show? Type your rating on the list before the period "
             "(blank if you are unrated), your birth year, rated games so far, highest rating "
             "and the time control; then the events (start and end dates, name; Ro and K only "
             "where FIDE used others for you, e.g. an event that started before the last list) "
             "and one row per game (event, opponent, opponent's rating, result). Grey cells are "
             "computed; the sheet is protected without a password."),
    ("label", "How it is computed (FIDE B.02)"),
    ("text", "Per game: D = your rating − the opponent's (more than 400 counts as 400 below "
             "2650, §8.3.1), PD from table 8.1.2 (the Tables sheet), ΔR = score − PD. Only games "
             "played over the board (1 ½ 0) against rated opponents count. Per event: K × ΣΔR, "
             "with the K of the list before the period (or the event's own K), and K × n ≤ 700 "
             "over all the period's rated games n (§8.3.3). The period: the events' changes added "
             "and rounded once, .5 away from zero (§8.3.4); all arithmetic in whole hundredths. "
             "New rating = your rating + the rounded change; below 1400 it is not published "
             "(§7.2.1). Unrated: the initial rating over the period's events with two "
             "hypothetical 1800 draws (§8.2): at least 5 games, at least 1400, at most 2200; a "
             "first event without a point is ignored."),
    ("label", "Typed cells"),
    ("text", "A number typed as text (a Text-formatted cell, a paste) is read as the number "
             "it shows when that is clear: its digits, spaces around them (\" 1892\"); a date "
             "as a date or as 2025-11-01; a result as 1, ½, 0, 1-0, 1.00, 0,5 and the other "
             "entries of the Tables sheet; a game's event by its name, whatever the case and "
             "spaces. Anything else (1,892; 3/2/2024; 2025.5), an event without its dates, "
             "or anything typed under the games table is named on row 13 with its cell, and "
             "the new rating is not shown until it is fixed. xl-fide rate my-month.xlsx "
             "reads the sheet the same way and names the same cell."),
    ("label", "From a file"),
    ("text", "xl-fide template --layout player --games GAMES.csv --rating 1892 --k 40 -o "
             "my-month.xlsx fills this sheet from a CSV with the columns event, event_start, "
             "event_end, opponent_rating, result (optional date, opponent, Ro, K, "
             "time_control); xl-fide rate GAMES.csv --rating 1892 --k 40 prints the same answer."),
    ("label", "Defined names"),
)


def _build_help(ws: Any, udf: bool) -> None:
    lines = list(_HELP_TEXT)
    if udf:
        lines.insert(3, ("text", "This workbook takes PD from FIDE_EXPECTED and the K rule from "
                                 "FIDE_K (the xl-fide functions, see the cross-table's Help); "
                                 "everything else uses the spreadsheet's own functions."))
    for key, r, label, name, style, help_ in _INPUTS + _RESULTS:
        lines.append(("text", f"{name}: {label}. {help_}"))
    for cols, what in ((_EV_COLS, "per event, in the order of the CSV"),
                       (_G_COLS, "per game")):
        for _, head, col_name, _, col_help in cols:
            if col_name:
                lines.append(("text", f"{col_name} ({what}): {head}. {col_help}"))
    for i, (style, text) in enumerate(lines, 1):
        _text(ws, i, 1, text, style)
    ws.column_dimensions["A"].width = 100
    _page_setup(ws, landscape=False)


def _sheet_result(g: Any) -> str:
    """The result as typed when the sheet's result table has it, else its TRF code's
    usual entry (``1.00`` -> ``1``, ``0.50`` -> ``½``)."""
    entries = {e.lower() for e, _ in _vocabulary() if isinstance(e, str)}
    if g.result_text.lower() in entries:
        return str(g.result_text)
    return {"=": "½"}.get(g.result.code, g.result.code)


def _fill(ws: Any, games: Any, player: Any) -> None:
    if player is not None:
        for key, value in (("ro", player.Ro), ("born", player.birth_year),
                           ("games", player.career_games), ("peak", player.peak_rating),
                           ("kgiven", player.K)):
            if value is not None:
                ws.cell(_ROW[key], 4).value = value
    tc = getattr(player, "time_control", None) or (games.time_control if games else None)
    if tc is not None:
        ws.cell(_ROW["tc"], 4).value = tc.value
    if games is None:
        return
    events = games.events
    n = sum(len(ev.games) for ev in events)
    if len(events) > MAX_EVENTS:
        raise InputError(f"{games.source}: {len(events)} events; the player sheet holds "
                         f"{MAX_EVENTS}")
    if n > MAX_GAMES:
        raise InputError(f"{games.source}: {n} games; the player sheet holds {MAX_GAMES}")
    r = G_FIRST
    for i, ev in enumerate(events):
        er = EV_FIRST + i
        ws.cell(er, 2).value = ev.start
        _text(ws, er, 3, ev.name)
        ws.cell(er, 4).value = ev.end
        if ev.Ro is not None:
            ws.cell(er, 5).value = ev.Ro
        if ev.K is not None:
            ws.cell(er, 6).value = ev.K
        for g in ev.games:
            if g.date is not None:
                ws.cell(r, 2).value = g.date
            _text(ws, r, 3, ev.name)
            if g.opponent:
                _text(ws, r, 4, g.opponent)
            if g.R_opp is not None:
                ws.cell(r, 5).value = g.R_opp
            _text(ws, r, 6, _sheet_result(g))
            r += 1


# ======================================================================= cached values
# The cached values of the player sheet (:mod:`xl_fide.excel._player`): every formula
# cell of the Player and PlayerCalc sheets, as the sheet computes it from the cells
# :func:`~xl_fide.excel._player._fill` types in.
#
# One truth: every figure the engine computes is the engine's own
# (:func:`xl_fide.event.player_period.rate_player`, what ``xl-fide rate`` prints): per game
# Ro used, PD and ΔR; per event N, W, ΣΔR, K used and K×ΣΔR; the period's n, K used, change,
# rounding, computed and new rating, publication and initial rating; K by rule
# (:func:`xl_fide.rules.rating.k_factor`, or FIDE_K itself in the UDF variant). The helper
# cells that no engine computes (edition lookups, keys, masks, the 400-point rule's
# largest game, the readers of the typed cells) are worked out here once, from the same
# typed values; tests/excel/test_player_cached.py compares every cell with LibreOffice's
# and Gnumeric's recalculation.
#
# Only clean inputs reach this module (the CLI's checked CSV and options): every typed
# cell reads as itself, no problem message is shown.

Cells = dict[str, dict[str, object]]
_EPOCH = _dt.date(1899, 12, 30)


def _serial(day: _dt.date | None) -> int | None:
    return None if day is None else (day - _EPOCH).days


def _num(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _or0(x: object) -> Any:
    return x if _num(x) else 0


class _Editions:
    """The edition switch table as PlayerCalc holds it (a blank cell reads as 0)."""

    def __init__(self) -> None:
        rows, _ = _edition_table()
        self.rows: list[list[Any]] = [[0 if v == "" else v for v in row] for row in rows]

    def match(self, key: int) -> int:
        """MATCH(key, keys, 1): the 1-based row of the largest key <= ``key``."""
        return max(i for i, row in enumerate(self.rows, 1) if row[0] <= key)

    def at(self, row: int, col: int) -> Any:
        return self.rows[row - 1][col]


def _key(tcidx: int, serial: int | None) -> int:
    return tcidx * 100000 + (max(serial, _OLDEST_SERIAL) if serial is not None
                             else _TODAY_KEY)


def player_values(games: Any, player: Any, udf: bool, today: _dt.date | None = None) -> Cells:
    """{sheet: {A1: value}} of every formula cell of a player sheet filled with ``games``
    (a :class:`xl_fide._games.GamesFile` or ``None``) and ``player`` (a
    :class:`~xl_fide.event.player_period.PlayerInputs` or ``None``); ``udf``: the FIDE_*
    variant. ``today`` (default: today) gives the year of a sheet without an event."""
    return _Model(games, player, udf, today or _dt.date.today()).cells


class _Model:
    def __init__(self, games: Any, player: Any, udf: bool, today: _dt.date) -> None:
        self.udf = udf
        self.ed = _Editions()
        self.calc: dict[str, Any] = {}
        self.sheet: dict[str, Any] = {}
        self.cells: Cells = {PLAYER: self.sheet, PCALC: self.calc}
        self.g: dict[str, Any] = {}
        self.rows: list[dict[str, Any]] = []
        self.games: list[dict[str, Any]] = []
        self.typed: dict[str, Any] = {}
        self.period: Any = None
        events = list(games.events) if games is not None else []
        tc = (getattr(player, "time_control", None)
              or (games.time_control if games is not None else None))
        self.tc = tc or TimeControl.STANDARD
        self.tcidx = _TC_INDEX[self.tc.value]
        self.player = player
        self.events = events
        if events:
            from xl_fide.event.player_period import PlayerInputs, rate_player
            self.period = rate_player(games, player or PlayerInputs())
        self._inputs()
        self._events_first(today)
        self._games()
        self._events_then()
        self._globals_then()
        self._player_sheet()

    # ------------------------------------------------------------------ helpers
    def gset(self, key: str, value: object) -> None:
        self.g[key] = value
        self.calc[f"{_L(GLOBAL_COL + 1)}{2 + _GLOBALS.index(key)}"] = value

    def cset(self, col: int, row: int, value: object) -> None:
        self.calc[f"{_L(col)}{row}"] = value

    def pset(self, col: int, row: int, value: object) -> None:
        self.sheet[f"{_L(col)}{row}"] = value

    # ------------------------------------------------------------------ inputs
    def _inputs(self) -> None:
        p = self.player
        typed = {k: (getattr(p, attr, None) if p is not None else None) for k, attr in (
            ("ro", "Ro"), ("born", "birth_year"), ("games", "career_games"),
            ("peak", "peak_rating"), ("kgiven", "K"))}
        self.typed = typed
        for key, value in typed.items():
            self.gset(f"v_{key}", "" if value is None else value)
        self.gset("v_tc", 1)
        for key in ("inmsg", "problem"):
            self.gset(key, "")
        for key in ("evbad", "gbad", "below"):
            self.gset(key, 0)
        self.gset("tcidx", self.tcidx)

    def _events_first(self, today: _dt.date) -> None:
        """The event rows' typed values, edition lookups and the list after the period."""
        ed = self.ed
        for i in range(1, MAX_EVENTS + 1):
            r = EV_FIRST + i - 1
            ev = self.events[i - 1] if i <= len(self.events) else None
            start = _serial(ev.start) if ev else None
            key = _key(self.tcidx, start)
            row = ed.match(key)
            e: dict[str, Any] = {"r": r, "ev": ev, "used": 1 if ev else 0, "start": start,
                 "end": _serial(ev.end) if ev else None, "key": key, "row": row,
                 "ro_in": ev.Ro if ev and ev.Ro is not None else "",
                 "k_in": ev.K if ev and ev.K is not None else ""}
            for name, col in (("once", 2), ("exempt", 3), ("rb", 4), ("k20", 5), ("i24", 6),
                              ("floor", 7), ("max", 8), ("ming", 9), ("msg", 10)):
                e[name] = ed.at(row, col)
            self.rows.append(e)
        ends = [e["end"] for e in self.rows if e["end"] is not None]
        end = max(ends) if ends else 0
        self.gset("end", end)
        if end > 0:
            day = _EPOCH + _dt.timedelta(days=end)
            lkey = self.tcidx * 100000 + max(_serial(day.replace(day=1)) or 0, _OLDEST_SERIAL)
        else:
            lkey = self.tcidx * 100000 + _TODAY_KEY
        lrow = ed.match(lkey)
        self.gset("lkey", lkey)
        self.gset("lrow", lrow)
        self.gset("lid", ed.at(lrow, 1))
        self.gset("lfloor", ed.at(lrow, 7))
        self.gset("year", (_EPOCH + _dt.timedelta(days=end)).year if end > 0 else today.year)
        v_ro = self.g["v_ro"]
        self.ro = v_ro if _num(v_ro) and v_ro >= self.g["lfloor"] else 0
        self.gset("ro", self.ro)
        used = [e for e in self.rows if e["used"]]
        orders = {i: e["start"] * 100 + i for i, e in enumerate(self.rows, 1) if e["used"]}
        first = min(orders, key=orders.__getitem__) if orders else 0
        last = max(orders, key=orders.__getitem__) if orders else 0
        self.first, self.last, self.orders = first, last, orders
        self.gset("first", first)
        self.gset("last", last)
        at = (lambda i, k: self.rows[i - 1][k])
        self.gset("k20", at(first, "k20") if first else 0)
        self.gset("ifloor", at(last, "floor") if last else self.g["lfloor"])
        self.gset("i24", at(last, "i24") if last else 1)
        self.gset("imax", at(last, "max") if last else 0)
        self.gset("iming", at(last, "ming") if last else 5)
        self.gset("once", 1 if any(e["once"] == 1 for e in used) else 0)
        self.gset("used", len(used))
        for e in self.rows:
            ro_in = e["ro_in"]
            e["ro_used"] = ((ro_in if _num(ro_in) else self.ro)
                            if e["used"] and self.ro > 0 else 0)
            e["cap"] = 0 if e["exempt"] == 1 and e["ro_used"] >= 2650 else 1

    def _games(self) -> None:
        """The game rows, with the engine's calculation lines."""
        period = self.period
        lines: list[Any] = []
        for i, ev in enumerate(self.events):
            pev = period.events[i] if period is not None else None
            for j, g in enumerate(ev.games):
                lines.append((i + 1, g, pev.games[j] if pev is not None else None))
        for n in range(MAX_GAMES):
            r = G_FIRST + n
            ev_i, row, line = lines[n] if n < len(lines) else (0, None, None)
            x: dict[str, Any] = {"r": r, "ev": ev_i, "row": row, "line": line}
            if row is None:
                x.update(used=0, ropp_in="", ropp=0, rkey="", played=0, score=0)
            else:
                rkey = "".join(_sheet_result(row).split(" "))
                played = 1 if row.result.played else 0
                x.update(used=1, ropp_in=row.R_opp if row.R_opp is not None else "",
                         ropp=row.R_opp or 0, rkey=rkey, played=played,
                         score=row.result.half_points if played else 0)
            e = self.rows[ev_i - 1] if ev_i else None
            ro = e["ro_used"] if e else 0
            opp = x["ropp"]
            x["ro"] = ro
            x["floor"] = e["floor"] if e else 0
            x["rb"] = (0 if e["rb"] == 1 and abs(ro - opp) >= 600 and (ro > 2600 or opp > 2600)
                       else 1) if e else 0
            x["x"] = (opp if e and x["played"] == 1 and ro > 0 and opp > 0
                      and opp >= x["floor"] and x["rb"] == 1 else 0)
            over = x["x"] > 0 and abs(ro - x["x"]) > 400
            x["over"] = over
            x["key"] = abs(ro - x["x"]) * 1000 + 1000 - n if over else 0
            x["u"] = (opp if e and x["played"] == 1 and self.ro == 0 and opp > 0
                      and opp >= self.g["ifloor"] else 0)
            self.games.append(x)
        for x in self.games:
            e = self.rows[x["ev"] - 1] if x["ev"] else None
            if e is None:
                x["cap"] = 1
            elif e["once"] == 1:
                largest = not any(y["ev"] == x["ev"] and y["key"] > x["key"] for y in self.games)
                x["cap"] = 1 if x["over"] and largest else 0
            else:
                x["cap"] = e["cap"]
            if x["x"] > 0:
                calc = x["line"].calc
                x["pd"], x["dr"] = calc.PD, calc.delta_R      # the engine's
            else:
                x["pd"] = x["dr"] = 0

    def _events_then(self) -> None:
        n = 0
        for i, e in enumerate(self.rows, 1):
            mine = [x for x in self.games if x["ev"] == i]
            e["N"] = sum(1 for x in mine if x["x"] > 0)
            e["W"] = sum(x["score"] for x in mine if x["x"] > 0)
            e["SDR"] = sum(x["dr"] for x in mine)
            e["NU"] = sum(1 for x in mine if x["u"] > 0)
            e["WU"] = sum(x["score"] for x in mine if x["u"] > 0)
            e["SRU"] = sum(x["u"] for x in mine)
            n += e["N"]
        self.n = n if self.ro > 0 else 0
        self.gset("n", self.n)
        period = self.period
        K = self._k_cell()
        for i, e in enumerate(self.rows, 1):
            e["K"] = e["k_in"] if _num(e["k_in"]) else K
            if e["ro_used"] > 0:
                pe = period.events[i - 1]                       # the engine's
                assert (pe.N, pe.sum_delta_R, pe.W_half) == (e["N"], e["SDR"], e["W"])
                e["KU"], e["CHG"] = pe.K, pe.change
            else:
                e["KU"] = e["CHG"] = 0

    def _k_rule(self) -> object:
        """K by rule as :func:`~xl_fide.rules.rating.k_factor` decides it (what FIDE_K
        returns; the native formula is its copy); a birth year it refuses: the native
        formula's #N/A, FIDE_K's error (#VALUE!)."""
        if self.ro == 0:
            return ""
        t = self.typed
        first = self.rows[self.first - 1]["start"] if self.first else None
        edition = rules_for(_EPOCH + _dt.timedelta(days=first) if first else None, self.tc)
        try:
            return k_factor(self.ro, birth_year=t["born"], career_games=t["games"],
                            peak_rating=t["peak"], period_year=self.g["year"], edition=edition)
        except XlFideError:
            return "#VALUE!" if self.udf else "#N/A"

    def _k_cell(self) -> object:
        self.krule = self._k_rule()
        kg = self.g["v_kgiven"]
        self.K = "" if self.ro == 0 else (kg if _num(kg) else self.krule)
        return self.K

    def _globals_then(self) -> None:
        f = self.first
        at = (lambda k: self.rows[f - 1][k] if f else 0)
        ex = 1 if f and at("NU") > 0 and at("WU") == 0 else 0
        ni = sum(e["NU"] for e in self.rows) - ex * at("NU")
        wi = sum(e["WU"] for e in self.rows)
        sri = sum(e["SRU"] for e in self.rows) - ex * at("SRU")
        self.gset("ex", ex)
        self.gset("ni", ni)
        self.gset("wi", wi)
        self.gset("sri", sri)
        init = self.period.initial if self.period is not None else None
        if ni > 0:
            assert init is not None and init.N == ni and init.W_half == wi
            ival: Any = init.value                       # the engine's
        else:
            ival = ""
        self.gset("ival", ival)
        no = "not published: "
        if ni == 0:
            shown: object = no + ("zero score against rated opponents: a first event without "
                                  "a point is ignored (FIDE B.02 §8.2)" if ex == 1
                                  else "no games against rated opponents")
        elif ni < self.g["iming"]:
            shown = (f"{no}only {ni} game{'' if ni == 1 else 's'} against rated opponents; "
                     f"at least {self.g['iming']} are needed")
        elif ival < self.g["ifloor"]:
            shown = f"{no}{ival} is below the rating floor {self.g['ifloor']}"
        elif self.g["imax"] > 0 and ival > self.g["imax"]:
            shown = self.g["imax"]
        else:
            shown = ival
        self.gset("ishown", shown)
        self.gset("total", sum(e["CHG"] for e in self.rows))

    # ------------------------------------------------------------------ cells
    def _player_sheet(self) -> None:
        g, ro, period = self.g, self.ro, self.period
        E, X = self.rows, self.games
        for i, e in enumerate(E, 1):
            r = e["r"]
            for col, key in ((E_USED, "used"), (E_KEY, "key"), (E_ED, "row"),
                             (E_ONCE, "once"), (E_EXEMPT, "exempt"), (E_RB, "rb"),
                             (E_K20, "k20"), (E_FLOOR, "floor"), (E_I24, "i24"),
                             (E_MAX, "max"), (E_MING, "ming"), (E_MSG, "msg"),
                             (E_RO, "ro_used"), (E_CAP, "cap"), (E_N, "N"),
                             (E_W, "W"), (E_SDR, "SDR"), (E_K, "K"), (E_KU, "KU"),
                             (E_CHG, "CHG"), (E_NU, "NU"), (E_WU, "WU"),
                             (E_SRU, "SRU"), (E_ROIN, "ro_in"), (E_KIN, "k_in")):
                self.cset(col, r, e[key])
            self.cset(E_START, r, "" if e["start"] is None else e["start"])
            self.cset(E_END, r, "" if e["end"] is None else e["end"])
            ev = e["ev"]
            self.cset(E_NAME, r, _name_key(ev.name) if ev else "")
            self.cset(E_WHY, r, "")
            self.cset(E_BAD, r, 0)
            self.cset(E_ORDER, r, self.orders.get(i, ""))
            live = e["used"] and ro > 0
            self.pset(7, r, (e["N"] if ro > 0 else e["NU"]) if e["used"] else "")
            self.pset(8, r, (e["W"] if ro > 0 else e["WU"]) / 2 if e["used"] else "")
            self.pset(9, r, e["SDR"] / 100 if live else "")
            self.pset(10, r, e["KU"] if live else "")
            self.pset(11, r, e["CHG"] / 100 if live else "")
        for x in X:
            r = x["r"]
            for col, key in ((X_EV, "ev"), (X_PLAYED, "played"), (X_SCORE, "score"),
                             (X_ROPP, "ropp"), (X_RO, "ro"), (X_FLOOR, "floor"),
                             (X_RB, "rb"), (X_X, "x"), (X_CAP, "cap"), (X_PD, "pd"),
                             (X_DR, "dr"), (X_U, "u"), (X_KEY, "key"),
                             (X_USED, "used"), (X_ROIN, "ropp_in"), (X_RKEY, "rkey")):
                self.cset(col, r, x[key])
            self.cset(X_WHY, r, "")
            self.cset(X_BAD, r, 0)
            rated = x["x"] > 0
            self.pset(7, r, x["ro"] if rated else "")
            self.pset(8, r, x["pd"] / 100 if rated else "")
            self.pset(9, r, x["dr"] / 100 if rated else "")
            self.pset(10, r, self._note(x))
        self._results()

    def _note(self, x: dict[str, Any]) -> object:
        if not x["used"]:
            return ""
        if x["played"] == 0:
            return "not rated: not played over the board"
        if x["ropp"] == 0:
            return "not rated: unrated opponent"
        if self.ro > 0:
            if x["x"] > 0:
                return ""
            return ("not rated: opponent below the floor" if x["ropp"] < x["floor"]
                    else "not rated: 600+ apart, one above 2600")
        return "" if x["u"] > 0 else "not rated: opponent below the floor"

    def _results(self) -> None:
        g, ro, p = self.g, self.ro, self.period
        row = _ROW
        rated = ro > 0
        self.pset(4, row["krule"], self.krule)
        self.pset(4, row["k"], self.K)
        n = self.n
        K: Any = self.K
        kused: object = ""
        if rated and _num(K):
            kused = K_CAP_PRODUCT // n if K * n > K_CAP_PRODUCT else K
            if p is not None:
                assert kused == p.K                            # the engine's
        total = g["total"]
        rounded: Any = p.rating_change if rated and p is not None else (0 if rated else "")
        computed: Any = ro + rounded if rated else g["ival"]
        if rated and p is not None:
            assert computed == p.computed_rating
        used = g["used"]
        if used == 0:
            new: object = ""
        elif rated:
            new = computed if computed >= g["lfloor"] else f"not published: below {g['lfloor']}"
        else:
            new = g["ishown"]
        if p is not None:
            assert (new if isinstance(new, int) else None) == p.new_rating
        res = {
            "n": n if rated else g["ni"],
            "kused": kused,
            "change": total / 100 if rated else "",
            "rounded": rounded,
            "computed": "" if used == 0 else computed,
            "new": new,
            "published": "" if used == 0 else ("yes" if isinstance(new, int) else f"no: {new}"),
            "initial": "" if rated or used == 0 else g["ishown"],
            "rules": g["lid"],
        }
        for key, value in res.items():
            self.pset(11, row[key], value)
        self.pset(1, 13, ONCE_NOTE if g["once"] == 1 else "")


def _blank(value: object) -> object:
    return "" if value is None else value


def _name_key(name: str) -> str:
    """UPPER(TRIM(name)): TRIM drops spaces at the ends and keeps one between words."""
    return " ".join(part for part in str(name).split(" ") if part).upper()
