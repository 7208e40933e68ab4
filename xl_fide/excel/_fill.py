"""Filling a cross-table from a tournament: the players, every round, the Event sheet,
the Report sheet of plain values from :func:`~xl_fide.event.report.build_report`, the lossless
``TRF_original`` sheet; saving a workbook whole or not at all; regenerating the shipped
templates (``python -m xl_fide.excel._fill [DIRECTORY]``)."""

from __future__ import annotations

import bisect
import datetime as _dt
import io
import os
from decimal import Decimal
from pathlib import Path
from typing import Any, Sequence

from openpyxl import Workbook

from xl_fide._files import write_atomic
from xl_fide.errors import OutputExistsError
from xl_fide._version import __version__
from xl_fide.errors import InputError, WorkbookError
from xl_fide.excel import _native as _native
from xl_fide.excel import _months as _m
from xl_fide.excel._build import build_template, complete_cells
from xl_fide.excel._cached import complete_values
from xl_fide.excel._fence import book_state, cells, save
from xl_fide.excel._layout import (
    _L,
    _SCORING_CODES,
    CROSS,
    DEFAULT_TEMPLATES,
    EVENT,
    EVENT_ROW,
    MAX_ROUND_ROBIN,
    GROUP_ROW,
    LONG_EVENT_NOTE,
    MONTHLY_NOTE,
    ONE_PERIOD_HEADER,
    NATIVE_TEMPLATES,
    REPORT,
    SCORING_FIRST_ROW,
    TABLES,
    _Geometry,
    _native_layout,
    _note_cell,
    _page_setup,
    _style_cells,
    _text,
    put_value,
    safe_text,
    RATING_COLS,
)
from xl_fide.excel._read import _read_book
from xl_fide.excel._roundtrip import _write_original
from xl_fide.event.months import LONG_EVENT_DAYS, month_rounds
from xl_fide.event.report import KSource, Report
from xl_fide.rules.editions import RuleEdition
from xl_fide.rules.event import block_values
from xl_fide.rules.notes import new_rating_code
from xl_fide.rules.rating import new_rating_or_note
from xl_fide.tournament import DEFAULT_SCORING, Tournament


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


def fill_workbook(report: Report, layout: str | None = None, *, rows: int | None = None,
                  rounds: int | None = None, formulas: str = "udf",
                  order: str = "start", planned: bool = False) -> Workbook:
    """A cross-table workbook presenting ``report`` (a :class:`~xl_fide.event.report.Report`
    from :func:`~xl_fide.event.report.build_report`, which carries the tournament and the
    resolved rules): the players and games of ``report.tournament`` as typed inputs, the
    live formulas, the values the report computed cached in them and on the Report sheet.
    Nothing is rated here. The K values the report did not take from the K rule (``--k``,
    a rating list, a K set read back) are written as K overrides so that the live
    formulas reproduce them.

    ``layout``: roundrobin or swiss (default: :func:`choose_layout`). ``rows``/``rounds``
    make the sheet bigger than the event (blank rows and rounds). ``formulas``: ``udf``
    or ``native`` (see :func:`build_template`); ``native`` raises :class:`InputError`
    naming the rule edition when the native formulas cannot express it
    (:func:`xl_fide.excel._native.require`). ``order``: the rows by start rank (``start``)
    or by final rank (``rank``: the TRF's rank, else points, then start rank); with
    ``rank`` the No column is the rank and the opponents are given by it, as in a
    cross-table printed by rank (the TRF's start ranks are kept for ``xl-fide trf``).
    Raises :class:`InputError` for a report without its tournament.

    Save it with :func:`save_workbook` (every formula with its value; openpyxl's own
    ``save`` writes none). ``planned``: as :func:`build_template`'s (the command line's
    way: the workbook must then be saved with :func:`save_workbook`).
    """
    if order not in ("start", "rank"):
        raise InputError(f"order must be start or rank, got {order!r}")
    tournament = getattr(report, "tournament", None)
    if tournament is None:
        raise InputError("fill_workbook needs a report that carries its tournament "
                         "(xl_fide.build_report(tournament))")
    if _native.check_formulas(formulas) == "native":
        _native.require(report.edition)
    layout = _layout_for(tournament, layout, report)
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
    wb = build_template(layout, n_rows, n_rounds, formulas=formulas, planned=True)
    geo = _Geometry(layout, n_rows, n_rounds, formulas)
    ws, ev = wb[CROSS], wb[EVENT]
    _fill_event(ev, tournament, report)
    # K set (the manual override) only where the report's K did not come from the K rule
    # that the sheet's own FIDE_K column computes (--k, a rating list, a K set read back):
    # a K from the rule stays live and follows edits of Ro, birth year, games and peak.
    # (the sheet rates the event as one period: its rows are the report's comparison rows
    # for an event over 30 days, whose months have blocks of their own)
    by_rank = {row.result.start_rank: row for row in report.comparison or report.rows}
    k_by_rank = {rank: row.K_given for rank, row in by_rank.items()
                 if row.K_from is not None and row.K_from is not KSource.RULE}
    for i, p in enumerate(players):
        r = geo.first + i
        _text(ws, r, geo.col["title"], p.title or None)
        _text(ws, r, geo.col["name"], p.name or None)
        _text(ws, r, geo.col["fed"], p.federation or None)
        ws.cell(r, geo.col["fide_id"]).value = p.fide_id
        # the file's rating as typed (the Ro used column applies what the rules as on the
        # Event sheet's date adjust); else the rating the report took from player data
        ws.cell(r, geo.col["ro"]).value = (p.rating if p.rating is not None
                                           else _data_rating(by_rank.get(p.start_rank)))
        ws.cell(r, geo.col["born"]).value = p.birth_year
        ws.cell(r, geo.col["k_set"]).value = k_by_rank.get(p.start_rank)
        _fill_games(ws, geo, tournament, p, r, number)
    from xl_fide.trf import write_trf
    try:
        original: str | None = write_trf(tournament)
    except InputError:          # an event built in code that no TRF can hold
        original = None
    if original is not None:
        _write_original(wb, geo, original, [p.start_rank for p in players],
                        tournament.encoding, tournament.newline)
    try:                        # never write a workbook that our own reader refuses
        _read_book(wb, None, "<workbook>", strict=False)
    except WorkbookError as exc:
        raise InputError(f"this event cannot be written as a workbook that reads back: "
                         f"{str(exc).replace('<workbook>: ', '')}") from None
    replaced = list(book_state(wb).get("replaced", ()))
    _build_report_sheet(wb, report, renumbered, replaced, order)
    # the values the formulas compute, cached in the file by save_workbook
    cached = _cached_sheets(wb, geo, report, players, layout)
    _add_months(wb, geo, tournament, report, players, cached)
    book_state(wb)["cached"] = cached
    return wb if planned else complete_cells(wb)


def _fill_games(ws: Any, geo: _Geometry, tournament: Tournament, p: Any, r: int,
                number: dict[int, int]) -> None:
    """Row ``r``'s games: player ``p``'s results in the round robin's grid (by the
    opponent's number, ``number``: start rank -> row number), or each round's opponent,
    colour and result in the swiss blocks (columns opp, col, res side by side)."""
    held = cells(ws)
    last = tournament.rounds
    if geo.layout == "roundrobin":
        for g in p.games:
            if g.opponent is None or (last and g.round > last):
                continue
            put_value(held, ws, r, geo.grid_col(number[g.opponent]), _cell_value(g.code))
        return
    for g in p.games:
        if last and g.round > last:
            continue
        if g.opponent is None and g.code == "Z" and not g.explicit:
            continue
        oc = geo.round_col(g.round, "opp")
        if g.opponent is not None:
            put_value(held, ws, r, oc, number[g.opponent])
        if g.colour:
            put_value(held, ws, r, oc + 1, g.colour)
        put_value(held, ws, r, oc + 2, _cell_value(g.code))


def _add_months(wb: Workbook, geo: _Geometry, tournament: Tournament, report: Report,
                players: Sequence[Any], cached: dict[str, dict[str, Any]]) -> None:
    """An event the report rates month by month (FIDE B.02 §8.3, interim reports): one
    live rating block per month (:mod:`xl_fide.excel._months`), the one-period block
    labelled as such, and the months' values added to ``cached``."""
    months = _months_of(tournament, report, geo.rounds)
    if not months:
        return
    _monthly_note(wb[CROSS], geo)
    cached[CROSS].pop(f"{_L(geo.col['n'])}1", None)   # the note is text, no formula
    _m.add_months(wb, geo, months)
    cached[CROSS].update(_cached_months(wb, geo, report, months, players))


def _layout_for(tournament: Tournament, layout: str | None, report: Report) -> str:
    """``layout``, else :func:`choose_layout`; an event rated month by month (FIDE B.02
    §8.3, interim reports) needs the Swiss layout, whose rounds the months split."""
    if not report.months:
        return layout or choose_layout(tournament)
    if layout == "roundrobin":
        raise InputError("this event runs over 30 days and is rated month by month (FIDE "
                         "B.02 §8.3, interim reports): a round robin grid does not hold the "
                         "rounds of each month; use the swiss layout")
    return "swiss"


def _months_of(tournament: Tournament, report: Report, n_rounds: int) -> list[_m.Month]:
    """The months of an event the report rates month by month (``[]`` otherwise), each
    with its played rounds (by their 132 dates) and the sheet's rounds not played yet:
    a round dated in one of the months goes to it, any other (no date, a later month)
    to the last month; the block's header lists its rounds."""
    if not report.months:
        return []
    groups = month_rounds(tournament)
    assert groups is not None and len(groups) == len(report.months)
    keys = [key for key, _ in groups]
    rounds: dict[tuple[int, int], list[int]] = {key: list(r) for key, r in groups}
    played = {r for _, rs in groups for r in rs}
    for rnd in range(1, n_rounds + 1):
        if rnd in played:
            continue
        day = tournament.round_dates[rnd - 1] if rnd <= len(tournament.round_dates) else None
        key = (day.year, day.month) if day is not None else keys[-1]
        rounds[key if key in rounds else keys[-1]].append(rnd)
    out = []
    for i, ((year, month), played_rounds) in enumerate(groups, 1):
        days = [tournament.round_dates[r - 1] for r in played_rounds]
        out.append(_m.Month(i, year, month, tuple(sorted(rounds[(year, month)])),
                            min(d for d in days if d is not None)))
    return out


def _cached_months(wb: Workbook, geo: _Geometry, report: Report, months: Sequence[_m.Month],
                   players: Sequence[Any]) -> dict[str, Any]:
    """Cell -> value of the month blocks, from the report's monthly reports."""
    out: dict[str, Any] = {}
    # every month by the event's rules: "Rules as on", else the start date (the report's)
    rules_date = wb[EVENT].cell(EVENT_ROW["rules_date"], 2).value or wb[EVENT].cell(
        EVENT_ROW["start"], 2).value
    for m, month in zip(months, report.months):
        c0 = _m.month_col(geo, m.index, "m_ro")
        out[f"{_L(c0)}2"] = rules_date or ""
        out[f"{_L(c0 + 2)}2"] = month.edition.id
        by_rank = {row.result.start_rank: row.result for row in month.rows}
        by_row = {row.result.start_rank: row for row in month.rows}
        for r in range(geo.first, geo.last + 1):
            i = r - geo.first
            res = by_rank.get(players[i].start_rank) if i < len(players) else None
            values: list[Any] = [""] * len(_m.MONTH_COLS)
            if res is not None:
                row = by_row[res.start_rank]    # Ro and K also below the floor
                values = ([row.Ro if row.Ro is not None else "",
                           row.K_given if row.K_given is not None else ""]
                          + block_values(res, month.edition))
            for spec, v in zip(_m.MONTH_COLS, values):
                out[f"{_L(_m.month_col(geo, m.index, spec.key))}{r}"] = v
    # over the months: the report's rows (a MonthlyChange: the months' changes summed,
    # the last rated month's new rating)
    rows = {row.result.start_rank: row.result for row in report.rows}
    chg = _L(_m.over_col(geo, len(months), "over_chg"))
    new = _L(_m.over_col(geo, len(months), "over_new"))
    for r in range(geo.first, geo.last + 1):
        i = r - geo.first
        res = rows.get(players[i].start_rank) if i < len(players) else None
        calc = res.calc if res is not None else None
        out[f"{chg}{r}"] = calc.rating_change if calc is not None else ""
        out[f"{new}{r}"] = new_rating_code(calc) if calc is not None else ""
    return out


def _cached_sheets(wb: Workbook, geo: _Geometry, report: Report, players: Sequence[Any],
                   layout: str) -> dict[str, dict[str, Any]]:
    """Sheet -> cell -> value of the formula cells whose values are known at fill time:
    the cross-table's (:func:`_cached_cells`), the Event sheet's computed cells and the
    Tables sheet's points per code, each worked out as its formula does."""
    ev = wb[EVENT]

    def event(key: str) -> Any:
        return ev.cell(EVENT_ROW[key], 2).value

    tc = str(event("tc") or "").strip().lower() or "standard"
    day = event("rules_date") or event("start")
    events: dict[str, Any] = {f"B{EVENT_ROW['edition']}": report.edition.id,
                              f"B{EVENT_ROW['tc_arg']}": tc,
                              f"B{EVENT_ROW['date_arg']}": day if day else ""}
    if geo.formulas == "udf":
        events[f"B{EVENT_ROW['version']}"] = __version__
    scoring = {str(ev.cell(SCORING_FIRST_ROW + i, 1).value): ev.cell(SCORING_FIRST_ROW + i,
                                                                     2).value
               for i in range(len(_SCORING_CODES))}
    tables = wb[TABLES]
    points = {}
    for row in tables.iter_rows(min_col=12, max_col=13):
        code, cell = row
        if cell.data_type == "f" and str(cell.value).startswith("=VLOOKUP(L"):
            points[cell.coordinate] = scoring.get(str(code.value), "#N/A")
    start = event("start")
    cross = _cached_cells(wb, geo, report, players, layout)
    end = event("end")
    long = (isinstance(start, _dt.date) and isinstance(end, _dt.date)
            and (end - start).days >= LONG_EVENT_DAYS)
    cross[f"{_L(geo.col['n'])}1"] = LONG_EVENT_NOTE if long else ""
    if long:                    # room for the whole note
        _note_cell(wb[CROSS], geo)
    cross["A2"] = (f"Rules {report.edition.id}   ·   time control {tc}   ·   start "
                   f"{start.isoformat()[:10] if start else 'not given'}   ·   white cells are "
                   "input, grey cells are computed")
    return {CROSS: cross, EVENT: events, TABLES: points}


def _data_rating(row: Any) -> int | None:
    """The rating a report row took from player data (the file has none): before the
    floor where it has one, else the one it rates with."""
    if row is None:
        return None
    return row.Ro if row.Ro is not None else row.result.rating


#: the rating block's keys, in :data:`xl_fide.rules.event.BLOCK_COLUMNS`' order
_BLOCK = tuple(spec.key for spec in RATING_COLS)


def _cached_cells(wb: Workbook, geo: _Geometry, report: Report, players: Sequence[Any],
                  layout: str) -> dict[str, Any]:
    """Cell -> value of the cross-table's formula cells whose values the engine knows:
    the title, K rule (where the rule gave K), K, points, Swiss rank and the rating
    block (over 30 days the block is the one-period figure: the report's comparison)."""
    def at(key: str, r: int) -> str:
        return f"{_L(geo.col[key])}{r}"

    name = wb[EVENT].cell(EVENT_ROW["name"], 2).value
    out: dict[str, Any] = {"A1": name if name not in (None, "") else "FIDE rating cross-table"}
    by_rank = {row.result.start_rank: row for row in report.comparison or report.rows}
    points = sorted(_num(by_rank[p.start_rank].points) for p in players
                    if p.start_rank in by_rank)
    for r in range(geo.first, geo.last + 1):
        i = r - geo.first
        row = by_rank.get(players[i].start_rank) if i < len(players) else None
        if row is None:
            values: list[Any] = [""] * len(_BLOCK)
            out.update({at("k", r): "", at("k_rule", r): "", at("pts", r): "",
                        at("ro_used", r): ""})
        else:
            # Ro used: the rating the report read (the file's, adjusted as the rules as on
            # its date adjust it), before the floor
            used = _data_rating(row) if players[i].rating is None else row.Ro
            out[at("ro_used", r)] = used if used is not None else ""
            res = row.result
            values = block_values(res, report.edition)
            # the report's K before the cap: also for a rating below the floor (the
            # engine rates the player as unrated, the K column still shows K)
            k = row.K_given if row.K_given is not None else ""
            out[at("k", r)] = k
            if row.K_from is None or row.K_from is KSource.RULE:
                out[at("k_rule", r)] = k
            pts = _num(row.points)
            out[at("pts", r)] = pts
            if layout == "swiss":
                out[at("rank", r)] = 1 + len(points) - bisect.bisect_right(points, pts)
        out.update({at(key, r): v for key, v in zip(_BLOCK, values)})
    return out


def _monthly_note(ws: Any, geo: _Geometry) -> None:
    """An event over 30 days (FIDE B.02 §8.3, interim reports): the rating block's header
    says it is the one-period figure, and above it the note says where the monthly
    figures are, wrapped in the block's width (never cut by the page edge)."""
    ws.cell(GROUP_ROW, geo.col[geo.rating_cols[0].key]).value = ONE_PERIOD_HEADER
    safe_text(_note_cell(ws, geo), MONTHLY_NOTE)     # in place of the long-event formula


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
                 ("New", 9, "val_new"), ("Rp", 6, "val_int"), ("Ru", 6, "val_int"),
                 ("Note", 64, "val_text")]


def _new_or_note(res: Any) -> int | str | None:
    """The new rating, or ``not published: below 1400 (1390)`` (FIDE B.02 §7.2.1), as
    the NewRating cell and FIDE_NEW_RATING show it."""
    if res.calc is None:
        return None
    return new_rating_or_note(res.calc)


def _report_rows(ws: Any, hr: int, report: Report) -> int:
    """The header at row ``hr`` and one row per player below; returns the last row."""
    heads = _REPORT_HEADS
    for c, (h, width, _) in enumerate(heads, 1):
        _text(ws, hr, c, h, "head")
        ws.column_dimensions[_L(c)].width = width
    held = cells(ws)
    styles = [(c, style) for c, (_, _, style) in enumerate(heads, 1)]
    for i, row in enumerate(report.rows):
        res = row.result
        r = hr + 1 + i
        calc = res.calc
        values = [
            res.start_rank, row.title or None, res.name or None, row.federation or None,
            res.rating, res.K_given, row.k_source.key if row.k_source else None, _num(row.points), res.N,
            res.W_half / 2,
            res.sum_PD / 100 if res.sum_PD is not None else None,
            calc.sum_delta_R / 100 if calc is not None else None,
            res.K, res.change / 100 if res.change is not None else None,
            res.rating_change, _new_or_note(res), res.Rp,
            res.initial.Ru if res.initial is not None else None,
            (res.initial.reason if res.initial is not None else res.publication) or None,
        ]
        _style_cells(ws, (r,), styles)
        for c, value in enumerate(values, 1):
            put_value(held, ws, r, c, value)
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
    printed = r     # the results and notes; the months below are on the Crosstable's blocks
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
    if report.months:   # on paper the month reports are the Crosstable's month blocks
        ws.print_area = f"A1:{_L(len(_REPORT_HEADS))}{printed}"


# ================================================================================== save

def save_workbook(wb: Workbook, path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Write ``wb`` to ``path`` whole or not at all (:func:`xl_fide._files.write_atomic`:
    built in memory, then created exclusively). Refuses to overwrite an existing file
    unless ``force`` (:class:`~xl_fide.errors.OutputExistsError`); never leaves a partial file."""
    path = Path(path)
    _check_kind(path)
    if path.exists() and not force:
        raise OutputExistsError(f"{path}: file exists (pass force=True to overwrite)")
    state = book_state(wb)
    cached = state.get("cached", {})
    geo = state.get("geo")
    if geo is not None:                 # a workbook built here: every formula's value
        cached = complete_values(wb, geo, cached)
    buffer = io.BytesIO()
    save(wb, buffer, cached, _helper_sheets(wb, geo))
    data = buffer.getvalue()
    try:
        return write_atomic(path, data, force=force)
    except OutputExistsError:
        raise OutputExistsError(f"{path}: file exists (pass force=True to overwrite)") from None


def _helper_sheets(wb: Workbook, geo: _Geometry | None) -> list[str]:
    """The native helper sheets (``Calc``, a month's ``Calc M<n>``): their formulas are
    written shared (:mod:`xl_fide.excel._shared`), so that a spreadsheet parses one
    formula per column, not one per cell. Never the sheets xl-fide reads back (openpyxl
    expands a shared formula cell by cell as it reads)."""
    if geo is None or geo.formulas != "native":
        return []
    layouts = [_native_layout(geo), *book_state(wb).get("months", ())]
    return [lay.calc for lay in layouts if lay.calc in wb.sheetnames]


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
        out.append(save_workbook(build_template(layout, players, rounds, planned=True),
                                 directory / filename,
                                 force=True))
    for filename, (layout, players, rounds) in NATIVE_TEMPLATES.items():
        out.append(save_workbook(build_template(layout, players, rounds, formulas="native",
                                                planned=True),
                                 directory / filename, force=True))
    return out


# ================================================================================== read




if __name__ == "__main__":  # python -m xl_fide.excel._fill [DIRECTORY]: regenerate the templates
    import sys
    for written in write_default_templates(sys.argv[1] if len(sys.argv) > 1 else "templates"):
        print(f"wrote {written}")

