"""The lossless round trip: a filled workbook keeps the TRF it came from (text,
encoding, every input cell as written) on a very hidden sheet; reading back starts from
it and applies only the cells a user edited, so TRF -> workbook -> TRF is byte-identical."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import functools
import json
import operator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterator

from openpyxl import Workbook

from xl_fide.errors import InputError, WorkbookError, XlFideError
from xl_fide.excel import _native as _native
from xl_fide.excel import _layout
from xl_fide.excel._fence import cells as sheet_cells
from xl_fide.excel._fence import raw
from xl_fide.excel._layout import CROSS, EVENT, _Geometry, _text
from xl_fide.lists._model import PlayerData
from xl_fide.tournament import (DEFAULT_SCORING, RESULT_CODES, Game, Tournament, TrfPlayer,
                                TrfWarning)


@dataclass
class _Read:
    """What the input cells of a workbook say: event fields, players (start rank = row
    number, opponents by row number) and the players' K inputs by row."""

    fields: dict[str, Any]
    players: list[TrfPlayer]
    inputs: dict[int, PlayerData]
    warnings: list[str]



ORIGINAL = "TRF_original"
_ORIGINAL_FORMAT = "xl-fide TRF_original 1"
_CHUNK = 30_000            # characters per cell (Excel holds at most 32,767)
_COMPUTED_KEYS = ("no", "k_rule", "k")


_Refs = tuple[tuple[int, int, str], ...]


def _input_cells(geo: _Geometry, cross: bool = True) -> tuple[_Refs, _Refs]:
    """(row, column, reference such as ``"D7"``) of the input cells of the Crosstable
    (none unless ``cross``) and Event sheets; made each time they are needed, not kept (at
    2,000 players they are 114,000 tuples, 13 MB a whole command long: issue 32's peak
    memory)."""
    return _input_refs(geo.first, geo.last if cross else geo.first - 1, geo.block_last,
                       frozenset(geo.col[k] for k in _COMPUTED_KEYS))


def _input_refs(first: int, last: int, block_last: int,
                computed: frozenset[int]) -> tuple[_Refs, _Refs]:
    letters = {c: _layout._L(c) for c in range(1, block_last + 1) if c not in computed}
    cross = tuple((r, c, f"{letter}{r}") for r in range(first, last + 1)
                  for c, letter in letters.items())
    event = [(_layout.EVENT_ROW[key], 2) for key, *_ in _layout._EVENT_INPUTS if key != "rounds"]
    event += [(_layout.SCORING_FIRST_ROW + i, 2) for i in range(len(_layout._SCORING_CODES))]
    return cross, tuple((r, c, f"{_layout._L(c)}{r}") for r, c in event)


_AS_IT_IS = frozenset({int, str, float})     # what _to_json gives back unchanged


def _to_json(value: Any) -> Any:
    if isinstance(value, (_dt.date, _dt.datetime)):
        return {"date": value.isoformat()[:10]}
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict):
        return _dt.date.fromisoformat(value["date"])
    return value


#: json.dumps(..., ensure_ascii=True, separators=(",", ":")), the encoder made once
_JSON = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def _write_original(wb: Workbook, geo: _Geometry, text: str, ranks: list[int],
                    encoding: str = "utf-8", newline: str = "\n") -> None:
    # the JSON of the payload below, its Crosstable cells written a row at a time (the
    # same text as one json.dumps of the whole: at 2,000 players the cells are 110,000,
    # 25 MB as one dict with their references: issue 32's peak memory)
    cols = _cross_columns(geo)
    get = sheet_cells(wb[CROSS]).get         # (row, col) -> cell: a blank place has none
    cell: Any
    rows_json = []
    for r, _, refs in _cross_rows(geo):
        row: dict[str, Any] = {}
        for c, ref in zip(cols, refs):
            cell = get((r, c))
            if cell is not None:
                value = raw(cell)               # (what cell.value gives)
                if value is not None:
                    row[ref] = value if type(value) in _AS_IT_IS else _to_json(value)
        if row:
            rows_json.append(_JSON(row)[1:-1])
    event: dict[str, Any] = {}
    get = sheet_cells(wb[EVENT]).get
    for r, c, ref in _input_cells(geo, cross=False)[1]:
        cell = get((r, c))
        if cell is not None:
            value = raw(cell)
            if value is not None:
                event[ref] = value if type(value) in _AS_IT_IS else _to_json(value)
    cells = (f"{{{_JSON(CROSS)}:{{{','.join(rows_json)}}},{_JSON(EVENT)}:{_JSON(event)}}}")
    del rows_json
    # payload = {"format": _ORIGINAL_FORMAT, "trf": text, "ranks": ranks,
    #            "layout": geo.layout, "rounds": geo.rounds, "cells": cells,
    #            "encoding": encoding, "newline": newline}
    #            (encoding: the TRF's bytes; newline its line ending, a book without it: LF)
    head = _JSON({"format": _ORIGINAL_FORMAT, "trf": text, "ranks": ranks,
                  "layout": geo.layout, "rounds": geo.rounds})
    data = (f"{head[:-1]},\"cells\":{cells},\"encoding\":{_JSON(encoding)},"
            f"\"newline\":{_JSON(newline)}}}")
    # ASCII only, and no "_" (which an .xlsx reader may take for an _xHHHH_ escape)
    data = data.replace("_", "\\u005f")
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
        # a date is the only dict a cell holds (json gives plain dicts): replaced in
        # place (a copy of the 110,000 cells of 2,000 players is 5 MB more at the peak)
        for cells in payload["cells"].values():
            for k, v in cells.items():
                if type(v) is dict:
                    cells[k] = _from_json(v)
        payload["ranks"] = [int(r) for r in payload["ranks"]]
        if payload.setdefault("newline", "\n") not in ("\n", "\r\n", "\r"):
            raise ValueError(f"line ending {payload['newline']!r}")
        return payload
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise WorkbookError(f"{ORIGINAL}: the hidden copy of the original TRF is damaged "
                            f"({type(exc).__name__}: {exc})") from None


def _original_tournament(payload: dict[str, Any], source: str) -> Tournament:
    from xl_fide.trf import parse_trf
    try:
        # the text kept with LF; with the file's line ending, which the Tournament keeps
        text = payload["trf"]
        if payload.get("newline", "\n") != "\n":
            text = text.replace("\n", payload["newline"])
        return parse_trf(text, source=f"{source} ({ORIGINAL})",
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
        for r, c, ref in where:
            grid[r - 1][c - 1] = written.get(ref)
    return ev2, rows2


def _unedited(ev_rows: list[list[Any]], rows: list[list[Any]], geo: _Geometry,
              cells: dict[str, dict[str, Any]]) -> bool:
    """Whether the two grids are as fill_workbook wrote them: the same answer as
    ``_same_cells(_pristine(ev_rows, rows, geo, cells), (ev_rows, rows))``, without the
    copies. Every cell but an input cell is the same object in both, the same cell
    when it equals itself (only a NaN does not); an input cell is the same when the
    value written (from the JSON of ``TRF_original``, never an object of the grid) has
    its type and equals it. Compared a row at a time, in C."""
    for grid in (ev_rows, rows):
        for row in grid:
            if not all(map(operator.eq, row, row)):
                return False
    for grid, sheet, groups in ((rows, CROSS, _cross_rows(geo)), (ev_rows, EVENT, _EVENT_ROWS)):
        get = cells.get(sheet, {}).get
        for r, cells_of, refs in groups:
            now = cells_of(grid[r - 1])
            was = tuple(map(get, refs))
            if tuple(map(type, was)) != tuple(map(type, now)) or was != now:
                return False
    return True


_Groups = tuple[tuple[int, Callable[[list[Any]], tuple[Any, ...]], tuple[str, ...]], ...]


def _by_row(refs: _Refs) -> _Groups:
    """``refs`` grouped by row: (row, the row's input values as a tuple, their references)."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for r, c, ref in refs:
        rows.setdefault(r, []).append((c, ref))
    out = []
    for r, cols in rows.items():
        index = [c - 1 for c, _ in cols]
        getter = (operator.itemgetter(*index) if len(index) > 1
                  else (lambda row, i=index[0]: (row[i],)))
        out.append((r, getter, tuple(ref for _, ref in cols)))
    return tuple(out)


def _cross_columns(geo: _Geometry) -> list[int]:
    """The input columns of the Crosstable's players' rows, left to right."""
    computed = frozenset(geo.col[k] for k in _COMPUTED_KEYS)
    return [c for c in range(1, geo.block_last + 1) if c not in computed]


def _cross_rows(geo: _Geometry) -> Iterator[tuple[int, Callable[[list[Any]], tuple[Any, ...]],
                                                tuple[str, ...]]]:
    """:func:`_input_cells`'s Crosstable cells, row by row (every row the same columns):
    the row, its input values as a tuple (by slicing), their references. Made as they are
    read, not kept (at 2,000 players 114,000 references, 13 MB)."""
    cols = _cross_columns(geo)
    assert len(cols) > 1
    getter = operator.itemgetter(*(c - 1 for c in cols))
    letters = [_layout._L(c) for c in cols]
    for r in range(geo.first, geo.last + 1):
        number = str(r)
        yield r, getter, tuple([letter + number for letter in letters])


_EVENT_ROWS = _by_row(_input_refs(1, 0, 1, frozenset())[1])


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
        elif before is None or rank not in players:
            new_games = tuple(mapped(g, g.round) for g in now.games)
            players[rank] = dataclasses.replace(
                now, start_rank=rank, games=new_games,
                points=sum((t0.points_for(g) for g in new_games), Decimal(0)))
        elif before is not now:     # the same read (nothing edited): the player as read
            players[rank] = _edited_player(t0, players[rank], before, now, mapped)
    changes = _edited_fields(t0, pri, cur, rounds_written)
    fitted = sorted(players.values(), key=lambda p: p.start_rank)
    fitted, note = _reranked(t0, fitted)
    try:
        t = dataclasses.replace(t0, players=tuple(fitted), source=source, **changes,
                                warnings=(TrfWarning(source, None, None, note),) if note else ())
    except InputError as exc:
        raise WorkbookError(f"{source}: {exc}") from None
    return t, ranks


def _reranked(t0: Tournament, players: list[TrfPlayer]) -> tuple[list[TrfPlayer], str]:
    """``players`` with their final ranks (TRF16 columns 86-89) recomputed when the edits
    changed the points: by points, the ties in the file's order (its ranks, then start
    rank: the event's tie-breaks are not recomputed); and a note saying so, or ``""``
    when no rank changed. Ranks are left as they are when the file gave none or a
    player has no points."""
    before = {p.start_rank: p.points for p in t0.players}
    if (all(p.rank is None for p in t0.players) or any(p.points is None for p in players)
            or ({p.start_rank: p.points for p in players} == before)):
        return players, ""
    order = sorted(players, key=lambda p: (-p.points, p.rank is None,  # type: ignore[operator]
                                           p.rank or 0, p.start_rank))
    new_rank = {p.start_rank: i for i, p in enumerate(order, start=1)}
    moved = [p.start_rank for p in players if p.rank != new_rank[p.start_rank]]
    if not moved:
        return players, ""
    note = (f"the final ranks (TRF columns 86-89) of {len(moved)} player(s) recomputed from "
            "the points after the edits: by points, ties in the file's order (the event's "
            "tie-breaks are not recomputed; check them in the pairing program)")
    # the line as read with its new rank (columns 86-89): the writer keeps its other
    # columns as they are, not formatted anew, unless something else was edited
    return [dataclasses.replace(p, rank=new_rank[p.start_rank],
                                raw=_with_rank(p.raw, new_rank[p.start_rank]))
            if p.start_rank in moved else p for p in players], note


def _with_rank(raw: str, rank: int) -> str:
    return raw[:85].ljust(85) + f"{rank:>4}" + raw[89:] if raw else raw


def _edited_player(t0: Tournament, p0: TrfPlayer, before: TrfPlayer, now: TrfPlayer,
                   mapped: Callable[[Game | None, int], Game]) -> TrfPlayer:
    """``p0`` (as read from the TRF) with the cells that changed from ``before`` (as
    written) to ``now`` applied: player fields, round cells, and the points they move."""
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
    return dataclasses.replace(p0, **updates) if updates else p0


def _edited_fields(t0: Tournament, pri: _Read, cur: _Read, rounds_written: int
                   ) -> dict[str, Any]:
    """The event fields (and scoring codes) edited in the sheet, as Tournament changes."""
    changes: dict[str, Any] = {}
    for name in _layout._TOURNAMENT_FIELDS:
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
    return changes


