"""A player's games CSV: one game a line, grouped by event (the player's own rating period).

The contract (keep it stable; the README's "For players" section documents it): the
first line holds the column names, in any order and any case:

* required: ``event, event_start, event_end, opponent_rating, result``;
* optional: ``date, opponent, Ro, K, time_control``.

``event`` names the event (rows with the same name, ignoring case and surrounding
spaces, are one event; events keep the order of their first row). ``event_start`` and
``event_end`` are dates (``2025-10-04``; also ``04/10/2025``, ``4 Oct 2025``); the start
date chooses the ratings and rules in force (FIDE B.02 §8.3), the end date the rating
period (its calendar month). ``opponent_rating``: a whole number, or blank / ``unrated``
/ ``0`` for an unrated opponent (not a rated game, FIDE B.02 §8.3.2). ``result``: the
player's result as the cross-tables accept it (:func:`xl_fide.rules.results.parse_result`:
``1 ½ 0``, ``1-0``, ``0.5``, forfeits ``+ -``, byes ...). ``Ro`` and ``K``: the
player's rating and K for that event where FIDE used others (an event that started
before the last list); blank = the player's. ``time_control``: standard, rapid or
blitz, the same on every line (one rating period is one list). Other columns are
ignored (:attr:`GamesFile.ignored` names them). An event's dates, ``Ro`` and ``K``
are taken from its first line (the dates are required there); a later line of the
same event may leave them blank or repeat them, never contradict them. ``result`` may
also be a decimal as FIDE's pages print it (``1.00``, ``0.50``).

A bad row is one :class:`~xl_fide.errors.PlayerFileError` naming the file, the line,
the column and its header. Standard library only.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import re
from decimal import Decimal
from dataclasses import dataclass
from pathlib import Path

from xl_fide._dates import parse_date_text
from xl_fide.errors import InputError, PlayerFileError, RuleError
from xl_fide.rules.editions import TimeControl
from xl_fide.rules.results import GameResult, parse_result
from xl_fide.rules.values import as_k, as_rating

__all__ = ["REQUIRED", "OPTIONAL", "GameRow", "GamesEvent", "GamesFile", "read_games",
           "parse_games", "UNRATED_WORDS"]

REQUIRED = ("event", "event_start", "event_end", "opponent_rating", "result")
OPTIONAL = ("date", "opponent", "ro", "k", "time_control")
#: What an ``opponent_rating`` cell may say for an unrated opponent (any case).
UNRATED_WORDS = ("", "unrated", "0", "-", "nr")
MAX_ROWS = 10_000


@dataclass(frozen=True)
class GameRow:
    """One game of the CSV. ``R_opp`` is ``None`` for an unrated opponent; ``result`` the
    parsed result (``result_text`` as typed); ``line`` the CSV line of the row."""

    line: int
    event: str
    date: _dt.date | None
    opponent: str
    R_opp: int | None
    result: GameResult
    result_text: str


@dataclass(frozen=True)
class GamesEvent:
    """One event of the period: its name, dates, the player's own ``Ro``/``K`` for it
    (``None``: the player's) and its games, in CSV order."""

    name: str
    start: _dt.date
    end: _dt.date
    Ro: int | None
    K: int | None
    games: tuple[GameRow, ...]


@dataclass(frozen=True)
class GamesFile:
    """A games CSV read: the events in the order of the CSV, the time control (``None``
    when no line gives one) and the columns that were ignored."""

    source: str
    events: tuple[GamesEvent, ...]
    time_control: TimeControl | None = None
    ignored: tuple[str, ...] = ()


def read_games(path: str | Path) -> GamesFile:
    """Read a games CSV file (UTF-8 with or without a byte-order mark, else Windows-1252
    as Excel saves "CSV"; see the module docstring).

    Raises :class:`~xl_fide.errors.PlayerFileError` naming the file, line and column of
    the first bad cell.
    """
    p = Path(path)
    data = p.read_bytes()
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):   # as spreadsheets save CSV
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    return parse_games(text, str(p))


def parse_games(text: str, source: str = "<string>") -> GamesFile:
    """Parse the text of a games CSV (see the module docstring); ``source`` names it in
    errors. Raises :class:`~xl_fide.errors.PlayerFileError`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    delimiter = max(",;\t", key=first.count)   # the header's separator: , ; or tab
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header: list[str] | None = None
    cols: dict[str, int] = {}
    ignored: list[str] = []
    events: dict[str, dict] = {}
    tc: tuple[TimeControl, int] | None = None
    rows = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            raise PlayerFileError(f"not a CSV line: {e}", source, reader.line_num) from None
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if header is None:
            header = [c.strip() for c in cells]
            cols, ignored = _columns(header, source, line)
            continue
        rows += 1
        if rows > MAX_ROWS:
            raise PlayerFileError(f"more than {MAX_ROWS} games", source, line)
        row = _Row(cells, cols, header, source, line)
        tc = _time_control(row, tc)
        _add(events, row)
    if header is None:
        raise PlayerFileError("empty: the first line must name the columns "
                              f"({', '.join(REQUIRED)})", source, 1)
    if not events:
        raise PlayerFileError("no games: one game a line after the header", source, 2)
    out = tuple(GamesEvent(e["name"], e["start"], e["end"], e["Ro"], e["K"], tuple(e["games"]))
                for e in events.values())
    return GamesFile(source, out, tc[0] if tc else None, tuple(ignored))


def _columns(header: list[str], source: str, line: int) -> tuple[dict[str, int], list[str]]:
    cols: dict[str, int] = {}
    ignored = []
    for i, name in enumerate(header):
        key = name.strip().lower().replace(" ", "_")
        if key in REQUIRED or key in OPTIONAL:
            if key in cols:
                raise PlayerFileError(f"column {name!r} appears twice", source, line, i + 1, name)
            cols[key] = i
        elif name:
            ignored.append(name)
    missing = [c for c in REQUIRED if c not in cols]
    if missing:
        raise PlayerFileError(
            f"missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)} (the first "
            f"line must name the columns {', '.join(REQUIRED)}; optional "
            f"date, opponent, Ro, K, time_control)", source, line)
    return cols, ignored


class _Row:
    """One data line, with located errors for its cells."""

    def __init__(self, cells: list[str], cols: dict[str, int], header: list[str], source: str,
                 line: int) -> None:
        self.cells, self.cols, self.header = cells, cols, header
        self.source, self.line = source, line

    def text(self, key: str) -> str:
        i = self.cols.get(key)
        if i is None or i >= len(self.cells):
            return ""
        return self.cells[i].strip()

    def error(self, key: str, message: str) -> PlayerFileError:
        i = self.cols[key]
        return PlayerFileError(f"{self.header[i]}: {message}", self.source, self.line, i + 1,
                               self.header[i])

    def date(self, key: str, required: bool) -> _dt.date | None:
        value = self.text(key)
        if not value:
            if required:
                raise self.error(key, "a date is needed, e.g. 2025-10-04")
            return None
        found, _ = parse_date_text(value)
        if found is None:
            raise self.error(key, f"not a date: {value!r} (write e.g. 2025-10-04)")
        return found

    def checked(self, key: str, convert):
        value = self.text(key)
        try:
            return convert(value)
        except (InputError, RuleError) as e:
            raise self.error(key, str(e)) from None


def _rating_or_unrated(text: str) -> int | None:
    if text.lower() in UNRATED_WORDS:
        return None
    return as_rating(text, "opponent_rating (blank or unrated for an unrated opponent)")


def _optional(convert, name: str):
    def inner(text: str):
        return convert(text, name) if text else None
    return inner


_DECIMAL = re.compile(r"[01]?[.,][0-9]{1,4}")


def _result(text: str) -> GameResult:
    value: object = text
    if _DECIMAL.fullmatch(text):       # 1.00 0.50 0,5 as FIDE's pages print w: a number
        value = Decimal(text.replace(",", "."))
    found = parse_result(value)
    if found is None:
        raise InputError("the result is missing (1, ½ or 0 for a game played)")
    return found


def _time_control(row: _Row, seen: tuple[TimeControl, int] | None
                  ) -> tuple[TimeControl, int] | None:
    if "time_control" not in row.cols or not row.text("time_control"):
        return seen
    tc = row.checked("time_control", TimeControl.parse)
    if seen is not None and seen[0] is not tc:
        raise row.error("time_control", f"{tc.value} but line {seen[1]} says {seen[0].value}: one "
                        "rating period is one rating list (standard, rapid or blitz)")
    return seen or (tc, row.line)


def _add(events: dict[str, dict], row: _Row) -> None:
    name = row.text("event")
    if not name:
        raise row.error("event", "the event's name is missing")
    key = " ".join(name.split()).casefold()
    ev = events.get(key)
    # an event's dates, Ro and K: on its first line (dates required there); a later line
    # may leave them blank or repeat them, never contradict them
    start, end = row.date("event_start", ev is None), row.date("event_end", ev is None)
    Ro = row.checked("ro", _optional(as_rating, "Ro"))
    K = row.checked("k", _optional(as_k, "K"))
    game = GameRow(row.line, name, row.date("date", False), row.text("opponent"),
                   row.checked("opponent_rating", _rating_or_unrated),
                   row.checked("result", _result), row.text("result"))
    if ev is None:
        assert start is not None and end is not None
        if end < start:
            raise row.error("event_end", f"{end.isoformat()} is before event_start "
                                         f"{start.isoformat()}")
        events[key] = {"name": name, "start": start, "end": end, "Ro": Ro, "K": K,
                       "games": [game], "line": row.line}
        return
    for col, field, mine in (("event_start", "start", start), ("event_end", "end", end),
                             ("ro", "Ro", Ro), ("k", "K", K)):
        if mine is None:
            continue
        if ev[field] is None:
            ev[field] = mine
        elif mine != ev[field]:
            raise row.error(col, f"{mine} but line {ev['line']} of the same event "
                                 f"{ev['name']!r} says {ev[field]}")
    ev["games"].append(game)
