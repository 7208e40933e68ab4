"""Reading a player sheet back (``xl-fide rate BOOK.xlsx``): its typed cells as the
sheet's own formulas read them (:mod:`xl_fide.excel._player`), so that ``rate`` and the
sheet agree — the same numbers, or the same cell named.

A number typed as text is read as the number it shows when that is unambiguous (its
digits, spaces around); an ISO date typed as text as that date; a result as the result
table and the games CSV read it (``1.00``, ``0,5``); an event name ignoring case and
spaces. Anything else is refused with :class:`~xl_fide.errors.WorkbookError` naming the
cell, with the sheet's own message (row 13 of the Player sheet shows it).
"""

from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path
from typing import Any

from xl_fide.errors import WorkbookError
from xl_fide.excel import _player as P

_EPOCH = _dt.date(1899, 12, 30)


def _trim(value: object) -> str:
    """Excel's TRIM of a cell's text: spaces dropped at the ends, one kept between words."""
    return " ".join(part for part in str(value).split(" ") if part)


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and _trim(value) == "")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_BAD = object()


def read_int(value: Any, lo: int, hi: int, words: tuple[str, ...] = ()) -> Any:
    """As :func:`xl_fide.excel._player.read_int`: an int, ``None`` (blank), or ``_BAD``."""
    if _number(value):
        whole = float(value).is_integer()                     
        return int(value) if whole and lo <= value <= hi else _BAD
    if isinstance(value, (_dt.date, bool)):
        return _BAD
    if _blank(value):
        return None
    t = _trim(value)
    if t.lower() in words:
        return None
    if t.isascii() and t.isdigit() and (t == "0" or not t.startswith("0")) and lo <= int(t) <= hi:
        return int(t)
    return _BAD


def read_date(value: Any) -> Any:
    """As :func:`xl_fide.excel._player.read_date`: a date, ``None`` (blank), or ``_BAD``."""
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if _number(value):
        if value < 1:                                         
            return _BAD
        return _EPOCH + _dt.timedelta(days=int(value))        
    if isinstance(value, bool):
        return _BAD
    if _blank(value):
        return None
    t = _trim(value)
    parts = (t[0:4], t[5:7], t[8:10])
    if len(t) != 10 or t[4] != "-" or t[7] != "-" or not all(
            p.strip(" ").isascii() and p.strip(" ").isdigit() for p in parts):
        return _BAD
    try:
        day = _dt.date(*(int(p) for p in parts))
    except ValueError:
        return _BAD
    return day if day.year >= 1900 else _BAD


def _results() -> dict[object, Any]:
    from xl_fide.excel._layout import _vocabulary
    from xl_fide.rules.results import parse_result
    table: dict[object, Any] = {}
    for entry, result in _vocabulary():
        table[entry.lower() if isinstance(entry, str) else entry] = result
    for text, score, _ in P.result_texts():
        table.setdefault(text, parse_result(score))
    return table


def read_result(value: Any, table: dict[object, Any]) -> Any:
    """A :class:`~xl_fide.rules.results.GameResult`, ``None`` (blank) or ``_BAD``."""
    if _number(value):
        return table.get(value, _BAD)
    if isinstance(value, (bool, _dt.date)):
        return _BAD
    key = str(value).replace(" ", "") if value is not None else ""
    if key == "":
        return None
    return table.get(key.lower(), _BAD)


def read_player_sheet(path: str | os.PathLike[str]) -> tuple[Any, Any]:
    """``(GamesFile, PlayerInputs)`` of a player sheet, for
    :func:`xl_fide.event.player_period.rate_player`.

    Raises :class:`~xl_fide.errors.WorkbookError` for a workbook that is not a player
    sheet, and for the first problem the sheet shows on its row 13, naming the same cell
    (``BOOK.xlsx: Player!D4: your rating must be a whole number ...``).
    """
    from openpyxl import load_workbook

    from xl_fide.excel._read import _check_zip
    path = Path(path)
    _check_zip(path)
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:                     # a damaged package, whatever it raises
        raise WorkbookError(f"{path}: an Excel workbook that cannot be read as a player sheet "
                            f"({type(exc).__name__}): save the games as CSV, or make a player "
                            "sheet with xl-fide template --layout player") from None
    try:
        if P.PLAYER not in wb.sheetnames or P.PCALC not in wb.sheetnames:
            raise WorkbookError(f"{path}: an Excel workbook but not a player sheet (no sheets "
                                f"{P.PLAYER} and {P.PCALC}): save the games as CSV, or make "
                                "a player sheet with xl-fide template --layout player")
        rows = [list(r) for r in wb[P.PLAYER].iter_rows(
            min_row=1, max_row=P._BELOW_LAST, max_col=11, values_only=True)]
    finally:
        wb.close()
    return _Reader(rows, str(path)).read()


class _Reader:
    def __init__(self, rows: list[list[Any]], source: str) -> None:
        self.rows, self.source = rows, source

    def cell(self, ref_row: int, col: int) -> Any:
        if ref_row - 1 >= len(self.rows):
            return None
        row = self.rows[ref_row - 1]
        return row[col - 1] if col - 1 < len(row) else None

    def fail(self, message: str) -> WorkbookError:
        return WorkbookError(f"{self.source}: {P.PLAYER}!{message}")

    def read(self) -> tuple[Any, Any]:
        from xl_fide.event.player_period import PlayerInputs
        from xl_fide.rules.editions import TimeControl
        typed = {}
        for key, (lo, hi, words, what) in P._READ.items():
            value = read_int(self.cell(P._ROW[key], 4), lo, hi, words)
            if value is _BAD:
                raise self.fail(f"D{P._ROW[key]}: {what}")
            typed[key] = value
        tc_text = self.cell(P._ROW["tc"], 4)
        tc_word = _trim("" if tc_text is None else tc_text).lower()
        if tc_word not in sum(P._TC_WORDS.values(), ()):
            raise self.fail(f"D{P._ROW['tc']}: the time control must be standard, rapid or "
                            "blitz")
        events = self._events()
        games = self._games(events)
        below = sum(1 for row in self.rows[P.G_LAST:] for v in row if v is not None)
        if below:
            raise self.fail(f"row {P.G_LAST + 1} or below: {below} cell(s) typed under the "
                            f"games table are not counted (it holds {P.MAX_GAMES} games)")
        player = PlayerInputs(typed["ro"], typed["kgiven"], typed["born"], typed["games"],
                              typed["peak"], TimeControl.parse(tc_word))
        return games, player

    def _events(self) -> list[dict[str, Any]]:
        """The named event rows; the first problem in row order, as the sheet finds it."""
        from xl_fide.rules.values import K_MAX, K_MIN, RATING_MAX, RATING_MIN
        names = {r: self.cell(r, 3) for r in range(P.EV_FIRST, P.EV_LAST + 1)}
        keys = [_trim(v).upper() for v in names.values() if not _blank(v)]
        out = []
        for r, name in names.items():
            if _blank(name):
                if any(not _blank(self.cell(r, c)) for c in (2, 4, 5, 6)):
                    raise self.fail(f"C{r}: the event has no name")
                continue
            key = _trim(name).upper()
            start, end = read_date(self.cell(r, 2)), read_date(self.cell(r, 4))
            Ro = read_int(self.cell(r, 5), RATING_MIN, RATING_MAX, P._UNRATED_WORDS)
            K = read_int(self.cell(r, 6), K_MIN, K_MAX)
            why = (f"B{r}: the start is not a date (type it as 2025-11-01)" if start is _BAD
                   else f"B{r}: the event's start date is missing" if start is None
                   else f"D{r}: the end is not a date (type it as 2025-11-30)" if end is _BAD
                   else f"D{r}: the event's end date is missing" if end is None
                   else f"D{r}: the end is before the start" if end < start
                   else f"E{r}: Ro must be a whole number from {RATING_MIN} to {RATING_MAX}"
                   if Ro is _BAD
                   else f"F{r}: K must be a whole number from {K_MIN} to {K_MAX}" if K is _BAD
                   else f"C{r}: another event has this name" if keys.count(key) > 1 else "")
            if why:
                raise self.fail(why)
            out.append({"r": r, "name": _trim(name), "key": key, "start": start, "end": end,
                        "Ro": Ro, "K": K, "games": []})
        return out

    def _games(self, events: list[dict[str, Any]]) -> Any:
        from xl_fide._games import GameRow, GamesEvent, GamesFile
        from xl_fide.rules.values import RATING_MAX, RATING_MIN
        by_key = {e["key"]: e for e in events}
        table = _results()
        for r in range(P.G_FIRST, P.G_LAST + 1):
            cells = [self.cell(r, c) for c in range(2, 7)]
            if all(_blank(v) for v in cells):
                continue
            day, name, opponent, rating, result = cells
            R_opp = read_int(rating, RATING_MIN, RATING_MAX, P._UNRATED_WORDS)
            found = read_result(result, table)
            if _blank(name):
                raise self.fail(f"C{r}: the game has no event")
            event = by_key.get(_trim(name).upper())
            if event is None:
                raise self.fail(f"C{r}: no event of this name in the events table")
            if R_opp is _BAD:
                raise self.fail(f"E{r}: the opponent's rating must be a whole number from "
                                f"{RATING_MIN} to {RATING_MAX} (blank = unrated)")
            if found is _BAD:
                raise self.fail(f"F{r}: the result is not understood")
            if found is None:
                continue                         # "no result yet: not counted"
            when = read_date(day)
            event["games"].append(GameRow(
                r, event["name"], when if isinstance(when, _dt.date) else None,
                "" if _blank(opponent) else _trim(opponent), R_opp or None, found,
                str(result).strip()))
        return GamesFile(f"{self.source}", tuple(
            GamesEvent(e["name"], e["start"], e["end"], e["Ro"], e["K"], tuple(e["games"]))
            for e in events))
