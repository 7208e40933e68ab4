"""Cached values of the formula cells of a workbook xl-fide builds, worked out from the
workbook's own input cells where the engine's report does not give them.

A formula cell of an ``.xlsx`` holds its formula and the value last computed; the
values are written by :func:`xl_fide.excel._fence.save`. The cells the engine's report
does not give (a blank template; the native helper sheet; the Check, Sonneborn-Berger
and rank columns) are worked out here from the workbook's own input cells, each as its
formula computes it (the formula text is beside each); the tests compare them with
LibreOffice's and Gnumeric's recalculation, cell by cell.
"""

from __future__ import annotations

import bisect
import datetime as _dt
import functools
from operator import itemgetter
from typing import Any, Mapping, Sequence

from openpyxl.utils import get_column_letter

from xl_fide.excel._fence import CachedValues, book_state, cells, raw
from xl_fide.excel._shared import NO_VALUE, RowPlan
from xl_fide.errors import FormulaErrorValue

_ERRORS = frozenset({"#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!"})



_Cells = dict[str, dict[str, Any]]
_MISSING = object()             # no value worked out for a cell
_NOT_FOUND = object()           # a VLOOKUP's #N/A


class _Sheets:
    """Cell values of an openpyxl workbook: the values worked out so far, else the
    constants the cells hold (a formula not worked out reads as blank)."""

    def __init__(self, wb: Any, known: CachedValues) -> None:
        self.wb = wb
        self.out: _Cells = {s: dict(v) for s, v in known.items()}
        self._cells = {ws.title: cells(ws) for ws in wb.worksheets}   # (row, col) -> cell
        self._ranges: dict[str, dict[str, list[list[Any]]]] = {}      # sheet -> ref -> rows
        self._names: dict[str, tuple[str, str]] = {}                   # name -> (sheet, ref)
        self._found: dict[str, dict[tuple[Any, ...], Any]] = {}       # sheet -> VLOOKUPs
        #: sheet -> the row plan of its helper rows (their values held by the plan)
        self.plans: dict[str, RowPlan] = book_state(wb).get("plans", {})
        for title, plan in self.plans.items():
            plan.clear()                              # worked out again, from ``known``
            given = self.out.get(title)
            if not given:
                continue
            for c, _, _ in plan.columns:
                letter = get_column_letter(c)
                for r in range(plan.first, plan.last + 1):
                    value = given.pop(f"{letter}{r}", _MISSING)
                    if value is not _MISSING:
                        plan.cache(r, c, value)

    def get(self, sheet: str, r: int, c: int) -> Any:
        plan = self.plans.get(sheet)
        if plan is not None and plan.holds(r, c):
            v = plan.cached(r, c)
            if v is NO_VALUE:                         # a formula not worked out: blank
                constant, kind = plan.by_col[c]
                return None if kind == "f" else constant
            return v
        ref = f"{get_column_letter(c)}{r}"
        got = self.out.get(sheet, {})
        if ref in got:
            return got[ref]
        cell = self._cells[sheet].get((r, c))         # no cell: blank (none is created)
        v = None if cell is None else cell.value
        return None if cell is None or cell.data_type == "f" or v == "" else v

    def column(self, sheet: str, c: int, rows: range) -> list[Any]:
        """``[self.get(sheet, r, c) for r in rows]``, the column's letter and the sheet's
        maps looked up once."""
        plan = self.plans.get(sheet)
        if plan is not None and c in plan.by_col:
            return [self.get(sheet, r, c) for r in rows]
        letter, got, cells = get_column_letter(c), self.out.get(sheet, {}), self._cells[sheet]
        out: list[Any] = []
        append, missing = out.append, _MISSING
        for r in rows:
            v = got.get(f"{letter}{r}", missing)
            if v is missing:
                cell = cells.get((r, c))
                if cell is None or cell.data_type == "f":
                    v = None
                else:
                    v = raw(cell)                     # (what cell.value gives)
                    if v == "":
                        v = None
            append(v)
        return out

    def put(self, sheet: str, r: int, c: int, value: object, *, keep: bool = True) -> None:
        plan = self.plans.get(sheet)
        if plan is not None and plan.holds(r, c):
            plan.cache(r, c, value, keep=keep)
            self._ranges.pop(sheet, None)             # its ranges are read again
            self._found.pop(sheet, None)
            return
        cells = self.out.setdefault(sheet, {})
        ref = f"{get_column_letter(c)}{r}"
        if not (keep and ref in cells):
            cells[ref] = value
            self._ranges.pop(sheet, None)             # its ranges are read again
            self._found.pop(sheet, None)

    def put_column(self, sheet: str, c: int, rows: range, values: Sequence[object], *,
                   keep: bool = True) -> None:
        """``self.put(sheet, r, c, value)`` for each row ``r`` of ``rows`` and its value
        of ``values``, in order, the column's letter and the sheet's map looked up once."""
        plan = self.plans.get(sheet)
        if plan is not None and c in plan.by_col:
            for r, value in zip(rows, values):
                self.put(sheet, r, c, value, keep=keep)
            return
        cells = self.out.setdefault(sheet, {})
        letter = get_column_letter(c)
        wrote = False
        for r, value in zip(rows, values):
            ref = f"{letter}{r}"
            if not (keep and ref in cells):
                cells[ref] = value
                wrote = True
        if wrote:
            self._ranges.pop(sheet, None)             # its ranges are read again
            self._found.pop(sheet, None)

    def name(self, defined: str) -> list[list[Any]]:
        """The rows of a defined name (one range on one sheet)."""
        if defined not in self._names:
            (self._names[defined],) = self.wb.defined_names[defined].destinations
        return self.range(*self._names[defined])

    def vlookup(self, key: object, defined: str, col: int) -> Any:
        """``VLOOKUP(key, defined, col, FALSE)`` (:func:`_vlookup`), each key looked up
        once until a value is put on the name's sheet."""
        rows = self.name(defined)
        found = self._found.setdefault(self._names[defined][0], {})
        memo = (defined, col, type(key), key)
        if memo not in found:
            try:
                found[memo] = _vlookup(key, rows, col)
            except LookupError as exc:
                found[memo] = exc
        if isinstance(found[memo], LookupError):
            raise LookupError(key)
        return found[memo]

    def range(self, sheet: str, ref: str) -> list[list[Any]]:
        """The rows of ``ref``, read once until a value is put on ``sheet`` (the tables
        every row looks up: read once, not once per cell). Not to be changed."""
        memo = self._ranges.setdefault(sheet, {})
        if ref not in memo:
            from openpyxl.utils import range_boundaries
            c1, r1, c2, r2 = range_boundaries(ref.replace("$", ""))
            assert r1 is not None and r2 is not None and c1 is not None and c2 is not None
            memo[ref] = [[self.get(sheet, r, c) for c in range(c1, c2 + 1)]
                         for r in range(r1, r2 + 1)]
        return memo[ref]


def _blank(v: object) -> bool:
    return v is None or v == ""


def _is_num(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _vlookup(key: object, table: list[list[Any]], col: int) -> Any:
    """VLOOKUP(key, table, col, FALSE): text matches text without regard to case, a
    number a number; no match: ``#N/A`` (as :class:`LookupError`)."""
    for row in table:
        k = row[0]
        if isinstance(key, str) and isinstance(k, str) and key.casefold() == k.casefold():
            return row[col - 1]
        if _is_num(key) and _is_num(k) and key == k:
            return row[col - 1]
    raise LookupError(key)


def _num(v: float) -> object:
    return int(v) if float(v).is_integer() else v


def complete_values(wb: Any, geo: Any, known: CachedValues) -> _Cells:
    """``known`` (sheet -> cell -> value, the engine's figures) with the value of every
    other formula cell of a cross-table workbook built on geometry ``geo`` (filled or a
    blank template, ``udf`` or ``native``), worked out from its input cells."""
    from xl_fide._version import __version__
    from xl_fide.excel._layout import CROSS, EVENT, EVENT_ROW, TABLES, _native_layout

    s = _Sheets(wb, known)
    _event_cells(s, EVENT, EVENT_ROW, TABLES)
    if geo.formulas == "udf":
        s.put(EVENT, EVENT_ROW["version"], 2, __version__)
    ev = s.out[EVENT]
    tc = ev[f"B{EVENT_ROW['tc_arg']}"]
    start = s.get(EVENT, EVENT_ROW["start"], 2)
    name = s.get(EVENT, EVENT_ROW["name"], 2)
    s.put(CROSS, 1, 1, name if not _blank(name) else "FIDE rating cross-table")
    when = (start.isoformat()[:10] if isinstance(start, _dt.date) else "not given")
    edition = ev[f"B{EVENT_ROW['edition']}"]
    s.put(CROSS, 2, 1, (f"Rules {edition}   ·   time control {tc}   ·   "
                        f"start {when}   ·   white cells are input, grey cells are computed"))
    _standings(s, geo, CROSS)
    _long_event_note(s, geo, CROSS, EVENT)
    lay = _native_layout(geo)
    if geo.formulas == "native":
        # a blank template's year (no date: YEAR(TODAY())) is the year of its build, so
        # the shipped templates are the same file whenever they are written again
        from xl_fide.excel._layout import _FIXED_TIME
        this_year = _FIXED_TIME.year if not any(known.values()) else _dt.date.today().year
        for one in [lay, *book_state(wb).get("months", ())]:   # + a month's "Calc M<n>"
            _calc_sheet(s, geo, one, this_year)
    else:
        for r in range(geo.first, geo.last + 1):     # FIDE_K / FIDE_EVENT on a blank row
            if not _blank(s.get(CROSS, r, geo.col["ro"])):
                continue                             # (a filled row's: the engine's)
            s.put(CROSS, r, geo.col["ro_used"], "")
            s.put(CROSS, r, geo.col["k_rule"], "")
            if all(_blank(s.get(CROSS, r, c))
                   for c in range(geo.block_first, geo.block_last + 1)):
                for key in ("n", "w", "sum_pd", "w_pd", "k_used", "change", "chg", "new",
                            "rp", "ru", "rc"):
                    s.put(CROSS, r, geo.col[key], "")
        _k_cells(s, geo, CROSS)
    return s.out


def _long_event_note(s: _Sheets, geo: Any, cross: str, event: str) -> None:
    """The note above the rating block when it holds the long-event formula
    (:func:`~xl_fide.excel._layout._long_event_formula`): its text when the Event
    sheet's dates are 30 days or more apart, else ""."""
    from xl_fide.excel._layout import EVENT_ROW, LONG_EVENT_DAYS, LONG_EVENT_NOTE
    formula = s.wb[cross].cell(1, geo.col["n"]).value
    if not (isinstance(formula, str) and formula.startswith("=IF(AND(ISNUMBER(")):
        return
    start = _day(s.get(event, EVENT_ROW["start"], 2))
    end = _day(s.get(event, EVENT_ROW["end"], 2))
    long = start is not None and end is not None and (end - start).days >= LONG_EVENT_DAYS
    s.put(cross, 1, geo.col["n"], LONG_EVENT_NOTE if long else "")


def _k_cells(s: _Sheets, geo: Any, cross: str) -> None:
    """K: ``=IF(ISNUMBER(K set),K set,IF(ISNUMBER(K rule),K rule,""))``."""
    for r in range(geo.first, geo.last + 1):
        kset, krule = s.get(cross, r, geo.col["k_set"]), s.get(cross, r, geo.col["k_rule"])
        s.put(cross, r, geo.col["k"], kset if _is_num(kset) else krule if _is_num(krule) else "")


def _day(v: object) -> _dt.date | None:
    if isinstance(v, _dt.datetime):
        return v.date()
    return v if isinstance(v, _dt.date) else None


def _event_cells(s: _Sheets, event: str, rows: Mapping[str, int], tables: str) -> None:
    """The Event sheet's computed cells and the Tables sheet's points per code."""
    tc = s.get(event, rows["tc"], 2)
    text = " ".join(str(tc).split()) if not _blank(tc) else ""      # TRIM
    s.put(event, rows["tc_arg"], 2, text.lower() or "standard")
    rules, start = s.get(event, rows["rules_date"], 2), s.get(event, rows["start"], 2)
    s.put(event, rows["date_arg"], 2, rules if _day(rules) else start if _day(start) else "")
    tc_arg = s.out[event][f"B{rows['tc_arg']}"]
    day = _day(s.out[event][f"B{rows['date_arg']}"])
    editions = list(zip(*(sum(s.name(n), []) for n in ("EditionId", "EditionFrom",
                                                       "EditionTC"))))
    same = [(e, _day(f)) for e, f, t in editions if t == tc_arg]
    # LOOKUP(2,1/(...)): the last row that qualifies; a date before all: the first of the tc
    fit = [e for e, f in same if day is None or (f is not None and f <= day)]
    edition = fit[-1] if fit else same[0][0] if same else "#N/A"
    s.put(event, rows["edition"], 2, edition)
    scoring = s.range(event, f"A{_scoring_first(s, event)}:B{_scoring_first(s, event) + 11}")
    ws = s.wb[tables]
    for r in range(5, ws.max_row + 1):
        f = ws.cell(r, 13).value
        if isinstance(f, str) and f.startswith("=VLOOKUP(L"):
            try:
                s.put(tables, r, 13, _vlookup(s.get(tables, r, 12), scoring, 2))
            except LookupError:
                s.put(tables, r, 13, "#N/A")


def _scoring_first(s: _Sheets, event: str) -> int:
    from xl_fide.excel._layout import SCORING_FIRST_ROW
    return SCORING_FIRST_ROW


def _result(s: _Sheets, v: object, col: int) -> Any:
    """``VLOOKUP(v, ResultCodes, col, FALSE)`` of the key ``_native.result_key(v)`` (a
    text without its spaces, its wildcards made ``#``; LookupError for #N/A)."""
    key = v.replace(" ", "").translate(_NO_WILDCARDS) if isinstance(v, str) else v
    return s.vlookup(key, "ResultCodes", col)


_NO_WILDCARDS = str.maketrans("*?~", "###")


def _pair_bad(s: _Sheets, a: object, b: object) -> int:
    """The formula of :func:`xl_fide.excel._layout._pair_bad` on two results."""
    if _blank(a):
        return 0 if _blank(b) else 1
    if _blank(b):
        return 1
    try:
        codes = [row[0] for row in s.name("GameCodes")]
        key = ((codes.index(_result(s, a, 4)) + 1) * 100 + codes.index(_result(s, b, 4)) + 1)
    except (LookupError, ValueError):
        return 1
    return 0 if key in [row[0] for row in s.name("GamePairs")] else 1


def _points(s: _Sheets, cells: list[object],
            memo: dict[tuple[type, object], object] | None = None) -> object:
    """The points of a row's results (``Pts``); ``memo``: each result's points once
    (while no value is put on the Tables sheet)."""
    memo = {} if memo is None else memo
    total = 0.0
    for v in cells:
        if not _blank(v):
            key = (type(v), v)                    # 1, 1.0 and True are not the same result
            p: Any = memo.get(key, _MISSING)
            if p is _MISSING:
                try:
                    p = _result(s, v, 5)
                except LookupError:
                    p = _NOT_FOUND
                memo[key] = p
            if p is _NOT_FOUND:
                continue
            total += p if _is_num(p) else 0       # SUM ignores text
    return _num(total)


def _standings(s: _Sheets, geo: Any, cross: str) -> None:
    """Pts, SB, Rank and Check (and the Swiss per-round checks) of every row."""
    rows = range(geo.first, geo.last + 1)
    name = dict(zip(rows, s.column(cross, geo.col["name"], rows)))
    rr = geo.layout == "roundrobin"
    if rr:
        cols = [geo.grid_col(j) for j in range(1, geo.n + 1)]
    else:
        cols = [geo.round_col(k, "res") for k in range(1, geo.rounds + 1)]
    columns = [s.column(cross, c, rows) for c in cols]
    grid = {r: [column[i] for column in columns] for i, r in enumerate(rows)}
    memo: dict[tuple[type, object], object] = {}
    s.put_column(cross, geo.col["pts"], rows,
                 ["" if _blank(name[r]) else _points(s, grid[r], memo) for r in rows])
    pts: dict[int, Any] = {r: s.out[cross][f"{get_column_letter(geo.col['pts'])}{r}"] for r in rows}
    sb: dict[int, Any] = {}
    if rr:
        for r in rows:
            total = 0.0
            for j, v in enumerate(grid[r]):
                if _blank(v):
                    continue
                try:
                    score = _result(s, v, 2)
                except LookupError:
                    score = 0
                p = pts[geo.first + j]
                total += float(score) * (p if _is_num(p) else 0)
            s.put(cross, r, geo.col["sb"], "" if _blank(name[r]) else _num(total))
            sb[r] = s.out[cross][f"{get_column_letter(geo.col['sb'])}{r}"]
    nums = [(pts[q], sb.get(q)) for q in rows if _is_num(pts[q])]
    ordered = sorted(q for q, _ in nums)
    ranks: list[object] = []
    for r in rows:
        p = pts[r]
        if _blank(p):
            ranks.append("")
            continue
        above = len(ordered) - bisect.bisect_right(ordered, p)      # RANK: how many more
        if rr:
            above += sum(1 for q, b in nums if q == p and _is_num(b) and b > sb[r])
        ranks.append(1 + above)
    s.put_column(cross, geo.col["rank"], rows, ranks)
    if rr:
        for i, r in enumerate(rows):
            mine = grid[r]
            theirs = [grid[q][i] for q in rows]
            s.put(cross, r, geo.col["check"], sum(_pair_bad(s, a, b)
                                                  for a, b in zip(mine, theirs)))
        return
    _swiss_checks(s, geo, cross, rows)


def _swiss_checks(s: _Sheets, geo: Any, cross: str, rows: range) -> None:
    """Each row's per-round checks (``_build._swiss_term``) and Check (their sum): the
    round's columns read once as lists, each pair of results judged once."""
    n = geo.n
    no = s.column(cross, geo.col["no"], rows)
    judged: dict[tuple[Any, ...], int] = {}

    def pair_bad(a: object, b: object) -> int:
        key = (type(a), a, type(b), b)          # 1, 1.0 and True are not the same result
        if key not in judged:
            judged[key] = _pair_bad(s, a, b)
        return judged[key]

    totals = [0] * len(rows)
    for k in range(1, geo.rounds + 1):
        opp, col, res = (s.column(cross, geo.round_col(k, part), rows)
                         for part in ("opp", "col", "res"))
        bads: list[int] = []
        for i in range(len(rows)):
            o = opp[i]
            if _blank(o):
                bad = 0
            elif not _is_num(o) or not 1 <= int(o) <= n:
                bad = 1                                  # INDEX: #REF! / #VALUE!
            else:
                j = int(o) - 1
                back = opp[j]
                if _blank(back) or back != no[i]:
                    bad = 1
                elif col[i] in ("w", "b") and col[j] == col[i]:
                    bad = 1
                else:
                    bad = pair_bad(res[i], res[j])
            bads.append(bad)
            totals[i] += bad
        s.put_column(cross, geo.check_col(k), rows, bads)
    s.put_column(cross, geo.col["check"], rows, totals)




def _int(v: Any) -> Any:
    """A number a native formula computes with (an error or text: :class:`FormulaErrorValue`)."""
    if type(v) is int or _is_num(v):
        return v
    if v is None:
        return 0
    raise FormulaErrorValue(v if isinstance(v, str) and v in _ERRORS else "#VALUE!")


def _calc_sheet(s: _Sheets, geo: Any, lay: Any, this_year: int) -> None:
    """The native helper sheet ``lay.calc`` (:mod:`xl_fide.excel._native`), the K rule,
    K and the rating block of the cross-table, as the native formulas compute them (a
    month's block of an event over 30 days: its own sheet, K column, date and edition)."""
    from xl_fide.excel import _native as n

    calc, cross = lay.calc, lay.cross
    edition, day = _at(s, lay.edition), _at(s, lay.date)
    s.put(calc, n.SWITCH_ROW, n.S_ED, edition)
    table = s.range(calc, f"A{lay.last + 4}:K{lay.last + 3 + len(n.edition_rows())}")
    row_of = next((row for row in table if row[0] == edition), None)
    sw: dict[int, Any] = {}
    s.put(calc, n.SWITCH_ROW, n.S_ADJ, _adjust_switch(s, lay))
    sw[n.S_ADJ] = s.out[calc][f"{get_column_letter(n.S_ADJ)}{n.SWITCH_ROW}"]
    if lay.typed_ro:            # Ro used (the engine's value where the report gave it)
        for r in range(lay.first, lay.last + 1):
            s.put(cross, r, lay.col["ro"], _ro_used_shown(s.get(cross, r, lay.typed_ro),
                                                          sw[n.S_ADJ]))
    for i in range(n.S_OK, n.S_MSG + 1):
        if i == n.S_YEAR:
            d = _day(day)
            sw[i] = d.year if d else this_year
        elif row_of is None:
            sw[i] = ("no rule edition for the Event sheet's date and time control"
                     if i == n.S_MSG else 0)
        else:
            v = row_of[i - 1]
            sw[i] = 0 if v is None else v      # INDEX of a blank cell: 0 (Excel, LibreOffice)
        s.put(calc, n.SWITCH_ROW, i, sw[i])
    if lay.k_set:           # a month: K set if given, else the K rule at the month's Ro
        for r in range(lay.first, lay.last + 1):
            kset = s.get(cross, r, lay.k_set)
            s.put(cross, r, lay.col["k"],
                  "" if _blank(s.get(cross, r, lay.col["ro"])) else kset if _is_num(kset)
                  else _or_error(lambda: _k_rule(s, lay, r, sw)))
    else:
        for r in range(lay.first, lay.last + 1):
            s.put(cross, r, lay.col["k_rule"], _or_error(lambda: _k_rule(s, lay, r, sw)))
        _k_cells(s, geo, cross)
    ro_used: dict[int, Any] = {}
    for r in range(lay.first, lay.last + 1):
        ro_used[r] = _or_error(lambda: _ro_used(s.get(cross, r, lay.col["ro"]), sw))
        s.put(calc, r, n.C_RO, ro_used[r])
    rows = _Rows(s, lay)
    for r in range(lay.first, lay.last + 1):
        _calc_row(rows, r, sw, ro_used)
    rows.done()


def _at(s: _Sheets, ref: str) -> Any:
    """The value at an absolute reference ``Sheet!$B$5``."""
    from openpyxl.utils import coordinate_to_tuple
    sheet, cell = ref.rsplit("!", 1)
    return s.get(sheet.strip("'"), *coordinate_to_tuple(cell.replace("$", "")))


def _or_error(work: Any) -> object:
    try:
        return work()
    except FormulaErrorValue as exc:
        return str(exc)


def _ro_used(ro: Any, sw: Mapping[int, Any]) -> int:
    """The helper cell "Ro used (0 = unrated)" from the Ro used column: a rating under
    the floor, a blank or :data:`~xl_fide.rules.values.NOT_A_RATING` is 0."""
    from xl_fide.excel import _native as n
    if not _is_num(ro):
        return _int(ro) if isinstance(ro, str) and ro in _ERRORS else 0   # an error: itself
    return int(ro) if ro >= _int(sw[n.S_FLOOR]) else 0


def _adjust_switch(s: _Sheets, lay: Any) -> int:
    """:func:`xl_fide.excel._native.adjust_switch` of the layout's dates."""
    from xl_fide.rules.adjustments import ADJUST_2024_DATE
    if not lay.list_date:
        return 0
    listed, rules = _day(_at(s, lay.list_date)), _day(_at(s, lay.date))
    return int(listed is not None and rules is not None
               and listed < ADJUST_2024_DATE <= rules)


def _ro_used_shown(typed: Any, switch: int) -> object:
    """:func:`xl_fide.excel._native.ro_used` of a typed Ro (the 1 March 2024 raise when
    ``switch`` is 1)."""
    from xl_fide.errors import InputError
    from xl_fide.rules.adjustments import ADJUST_2024_LIMIT, OLD_FLOOR, adjust_2024
    from xl_fide.rules.values import NOT_A_RATING, sheet_rating
    try:
        value = sheet_rating(typed)
    except InputError:
        return NOT_A_RATING
    if value is None:
        return ""
    return adjust_2024(value) if switch == 1 and OLD_FLOOR <= value < ADJUST_2024_LIMIT \
        else value


def _k_rule(s: _Sheets, lay: Any, r: int, sw: Mapping[int, Any]) -> object:
    """:func:`xl_fide.excel._native.k_rule` (FIDE B.02 §8.3.3)."""
    from xl_fide.excel import _native as n
    from xl_fide.rules.rating import (JUNIOR_AGE, JUNIOR_RATING, K10_RATING, K_CAP_PRODUCT,
                                      K_DEFAULT, K_NEW, K_TOP, MAX_AGE, NEW_PLAYER_GAMES)
    del K_CAP_PRODUCT
    ro, born, games, peak = (s.get(lay.cross, r, lay.col[k])
                             for k in ("ro", "born", "games", "peak"))
    if _blank(ro):
        return ""
    if not _is_num(ro):
        raise FormulaErrorValue("#N/A")
    if sw[n.S_K20] == 1:
        return K_DEFAULT
    highest = max(ro, peak if _is_num(peak) else 0)
    if highest >= K10_RATING:
        return K_TOP
    year = _int(sw[n.S_YEAR])
    if _is_num(born) and (born > year or year - born > MAX_AGE):
        raise FormulaErrorValue("#N/A")
    junior = _is_num(born) and year - born <= JUNIOR_AGE and highest < JUNIOR_RATING
    new = _is_num(games) and games < NEW_PLAYER_GAMES
    return K_NEW if junior or new else K_DEFAULT


class _Rows:
    """What the helper rows of layout ``lay`` read, read once: the cross-table's columns
    of the players' rows (the rows write only the helper sheet and the rating block, so
    these do not change meanwhile), the results looked up once each, and the PD table;
    and the helper sheet's cells put as :meth:`_Sheets.put` puts them."""

    def __init__(self, s: _Sheets, lay: Any) -> None:
        self.s, self.lay = s, lay
        rows = range(lay.first, lay.last + 1)
        read: dict[int, list[Any]] = {}

        def column(c: int) -> list[Any]:
            if c not in read:
                read[c] = s.column(lay.cross, c, rows)
            return read[c]

        self.no, self.ro, self.check, self.k = (column(lay.col[key])
                                                for key in ("no", "ro", "check", "k"))
        if lay.kind == "roundrobin":
            self.res = [column(lay.grid_first + g) for g in range(lay.games)]
            self.opp: list[list[Any]] = []
            self.counted = self.res
        else:
            self.res = [column(c) for c in lay.res_cols]
            self.opp = [column(c) for c in lay.opp_cols]
            self.counted = [column(c) for c in range(lay.block_first, lay.block_last + 1)
                            if s.get(lay.cross, lay.header_row, c) == "Res"]   # (a month's too)
        self.cells = s.out.setdefault(lay.calc, {})
        self.plan = s.plans.get(lay.calc)
        self._played: dict[tuple[type, Any], bool] = {}
        self._score: dict[tuple[type, Any], object] = {}
        sheet, ref = lay.pd_from.split("!")
        froms = [row[0] for row in s.range(sheet, ref)]
        sheet, ref = lay.pd_high.split("!")
        highs = [row[0] for row in s.range(sheet, ref)]
        self._pd_table = list(reversed(list(zip(froms, highs))))
        self._high: dict[Any, Any] = {}

    def put(self, r: int, c: int, value: object) -> object:
        """``_Sheets.put`` on the helper sheet's cell at ``r``, ``c`` (a value already
        there is kept); the value the cell then holds."""
        plan = self.plan
        if plan is not None and plan.holds(r, c):
            return plan.cache(r, c, value)
        cells, ref = self.cells, f"{get_column_letter(c)}{r}"
        if ref not in cells:
            cells[ref] = value
        return cells[ref]

    def done(self) -> None:
        """The ranges and look-ups of the helper sheet are read again (as after a put)."""
        self.s._ranges.pop(self.lay.calc, None)
        self.s._found.pop(self.lay.calc, None)

    def played(self, res: object) -> bool:
        """``VLOOKUP(res, ResultCodes, 3, FALSE) = 1`` (an unknown entry: not played)."""
        key = (type(res), res)
        if key not in self._played:
            try:
                self._played[key] = _result(self.s, res, 3) == 1
            except LookupError:
                self._played[key] = False
        return self._played[key]

    def score(self, res: object) -> object:
        """``2 * VLOOKUP(res, ResultCodes, 2, FALSE)``: the score in half points."""
        key = (type(res), res)
        if key not in self._score:
            try:
                self._score[key] = _num(2 * float(_result(self.s, res, 2)))
            except LookupError:
                self._score[key] = "#N/A"
        return self._score[key]

    def pd(self, ro: int, r_opp: int, cap: int) -> int:
        """:func:`xl_fide.excel._native.pd_hundredths` (FIDE B.02 §8.1.2, §8.3.1)."""
        a = abs(ro - r_opp)
        capped = a - cap * (a > 400) * (a - 400)
        if capped not in self._high:      # LOOKUP: the last D from at or below
            self._high[capped] = next(h for f, h in self._pd_table if f <= capped)
        sign = (ro > r_opp) - (ro < r_opp)
        return 50 + sign * (int(self._high[capped]) - 50)


def _dp(s: _Sheets, lay: Any, p: int) -> int:
    sheet, ref = lay.dp.split("!")
    return int(s.range(sheet, ref)[p][0])


def _games_of(rows: _Rows, r: int, sw: Mapping[int, Any], ro_used: Mapping[int, Any],
              cap: object) -> list[tuple[object, object, object]]:
    """(R_opp, score in half points, PD in hundredths) per game column of row ``r``
    (``cap``: its helper cell "400-point rule applies")."""
    from xl_fide.excel import _native as n
    from xl_fide.rules.rating import RB_600_DIFFERENCE, RB_600_TOP
    lay = rows.lay
    i = r - lay.first
    B = ro_used[r]
    out: list[tuple[object, object, object]] = []
    for g in range(lay.games):
        res = rows.res[g][i]
        if lay.kind == "roundrobin":
            if lay.first + g == r:
                out.append((0, 0, 0))
                continue
            o_row: int | None = lay.first + g
        else:
            o = rows.opp[g][i]
            if isinstance(o, str):
                try:
                    o = float(o)
                except ValueError:
                    o = 0
            o = 0 if o is None else o
            o_row = (lay.first + int(o) - 1
                     if _is_num(o) and 1 <= o <= lay.n and o == int(o) else None)
        try:
            x: object = 0
            if not _blank(res) and o_row is not None:
                played = rows.played(res)
                opp = _int(ro_used[o_row])
                b = _int(B)
                rb_bad = (sw[n.S_RB] == 1 and b > 0 and abs(b - opp) >= RB_600_DIFFERENCE
                          and (b > RB_600_TOP or opp > RB_600_TOP))
                x = opp if played and opp > 0 and not rb_bad else 0
            xi = _int(x)
            y: object = 0
            if xi > 0:
                y = rows.score(res)
            z: object = (rows.pd(_int(B), xi, _int(cap))
                         if xi > 0 and _int(B) > 0 else 0)
        except FormulaErrorValue as exc:       # bad input (a rating not a number): the error
            x = y = z = str(exc)
        out.append((x, y, z))
    return out


def _half_up(num: int, den: int) -> int:
    return (2 * num + den) // (2 * den)


def _calc_row(rows: _Rows, r: int, sw: Mapping[int, Any],
              ro_used: Mapping[int, Any]) -> None:
    """One player's row of the helper sheet and of the rating block."""
    from xl_fide.excel import _native as n
    from xl_fide.rules.initial import HALF_POINT_BONUS, HYPOTHETICAL_OPPONENT
    from xl_fide.rules.rating import EXEMPT_RATING, K_CAP_PRODUCT
    s, lay, put = rows.s, rows.lay, rows.put
    i = r - lay.first
    no = rows.no[i]
    put(r, n.C_NO, 0 if _blank(no) else no)
    ro = rows.ro[i]
    count = sum(1 for results in rows.counted if not _blank(results[i]))
    check = rows.check[i]
    state = (0 if _blank(ro) and count == 0 else 2 if sw[n.S_OK] != 1
             else 4 if not (_blank(ro) or _is_num(ro))
             else 3 if _is_num(check) and check > 0 else 1)
    put(r, n.C_STATE, state)
    B = ro_used[r]
    cap = _or_error(lambda: 0 if sw[n.S_EXEMPT] == 1 and _int(B) >= EXEMPT_RATING else 1)
    cap = put(r, n.C_CAP, cap)
    games = _games_of(rows, r, sw, ro_used, cap)
    x1 = n.X_FIRST
    g1 = lay.games + 1
    for g, (x, y, z) in enumerate(games):
        put(r, x1 + g, x)
        put(r, x1 + g1 + g, y)
        put(r, x1 + 2 * g1 + g, z)

    def row() -> dict[int, object]:
        xs, ys, zs = ([_int(t[i]) for t in games] for i in range(3))
        N, W, PD, SR = sum(1 for x in xs if x > 0), sum(ys), sum(zs), sum(xs)
        b = _int(B)
        out: dict[int, object] = {n.C_N: N, n.C_W: W, n.C_PD: PD, n.C_SR: SR}
        if b > 0:
            k = _int(rows.k[r - lay.first])
            out[n.C_K] = K_CAP_PRODUCT // N if k * N > K_CAP_PRODUCT else k
            out[n.C_CHG] = _int(out[n.C_K]) * (50 * W - PD)
        else:
            out[n.C_K] = out[n.C_CHG] = ""
        p = (200 * W + 2 * N) // (4 * N) if N > 0 else None
        out[n.C_P] = "" if p is None else p
        out[n.C_RP] = "" if p is None else _half_up(SR + N * _dp(s, lay, p), N)
        if b > 0 or N == 0:
            value: object = ""
        elif sw[n.S_I24] == 1:
            n2, w2 = N + 2, W + 2
            p2 = (200 * w2 + 2 * n2) // (4 * n2)
            value = _half_up(SR + 2 * HYPOTHETICAL_OPPONENT + n2 * _dp(s, lay, p2), n2)
        else:
            d = _dp(s, lay, p or 0) if W <= N else HALF_POINT_BONUS * (W - N)
            value = _half_up(SR + N * d, N)
        out[n.C_RUV] = value
        out[n.C_RU] = _ru_shown(b, N, W, value, sw)
        return out

    try:
        values = row()
    except FormulaErrorValue as exc:
        values = {c: str(exc) for c in range(n.C_N, n.C_RU + 1)}
    for c, v in values.items():
        put(r, c, v)
    _block(s, lay, r, state, B, values, sw)


def _ru_shown(b: int, N: int, W: int, value: object, sw: Mapping[int, Any]) -> object:
    """:func:`xl_fide.excel._native._initial_shown` (FIDE B.02 §8.2, the codes of
    :mod:`xl_fide.rules.notes`)."""
    from xl_fide.excel import _native as n
    from xl_fide.rules import notes
    floor, mx, ming = sw[n.S_FLOOR], sw[n.S_MAX], sw[n.S_MING]
    if b > 0:
        return ""
    if N == 0:
        return notes.NO_GAMES
    if W == 0:
        return notes.ZERO_SCORE
    if N < _int(ming):
        return notes.games_code(N)
    if _int(value) < _int(floor):
        return notes.below_floor_code(_int(value))
    return mx if _int(mx) > 0 and _int(value) > _int(mx) else value


def _block(s: _Sheets, lay: Any, r: int, state: int, B: object,
           v: Mapping[int, object], sw: Mapping[int, Any]) -> None:
    """The rating block of row ``r`` (:func:`xl_fide.excel._native._rating_cells`)."""
    from xl_fide.excel import _native as n
    from xl_fide.rules import notes

    def shown(value: Any, message: object = "", bad: object = "") -> object:
        if state == 1:
            return _or_error(value)
        return ("#N/A" if state == 3 else message if state == 2 else bad if state == 4
                else "")

    def rated(value: Any) -> Any:
        return lambda: value() if _int(B) > 0 else ""

    def chg() -> int:
        c = _int(v[n.C_CHG])                 # .5 away from zero (FIDE B.02 §8.3.4)
        return ((c > 0) - (c < 0)) * ((abs(c) + 50) // 100)

    def new() -> object:
        total = _int(B) + chg()
        floor = _int(sw[n.S_FLOOR])
        return notes.below_floor_code(total) if total < floor else total

    values = {
        "n": lambda: v[n.C_N], "w": lambda: _num(_int(v[n.C_W]) / 2),
        "sum_pd": rated(lambda: _num(_int(v[n.C_PD]) / 100)),
        "w_pd": rated(lambda: _num((50 * _int(v[n.C_W]) - _int(v[n.C_PD])) / 100)),
        "k_used": lambda: v[n.C_K], "change": rated(lambda: _num(_int(v[n.C_CHG]) / 100)),
        "chg": rated(chg), "new": rated(new), "rp": lambda: v[n.C_RP],
        # Rc: Σ R_opp / N, .5 up (:func:`xl_fide.excel._native._rating_cells`)
        "rc": lambda: _half_up(_int(v[n.C_SR]), _int(v[n.C_N])) if _int(v[n.C_N]) > 0 else "",
    }
    for key, value in values.items():
        s.put(lay.cross, r, lay.col[key], shown(value))
    s.put(lay.cross, r, lay.col["ru"], shown(lambda: v[n.C_RU], sw[n.S_MSG],
                                             s.get(lay.cross, r, lay.col["ro"])))
