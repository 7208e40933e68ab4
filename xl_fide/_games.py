"""A player's games CSV: one game a line, grouped by event (the player's own rating period).

The contract (keep it stable; the README's "For players" section documents it): the
first line holds the column names, in any order and any case:

* required: ``event, event_start, event_end, opponent_rating, result``;
* optional: ``date, opponent, Ro, K, time_control``.

``event`` names the event (rows with the same name, ignoring case and surrounding
spaces, are one event; events keep the order of their first row). ``event_start`` and
``event_end`` are dates (``2025-10-04``; also ``4 Oct 2025``, ``25/10/2025``,
``10/25/2025``); the start date chooses the ratings and rules in force (FIDE B.02 §8.3),
the end date the rating period (its calendar month). A date whose day and month could
swap (``3/2/2024``) takes the order the file's other dates show (a number over 12 before
the year), or the ``date_order`` given (``"dmy"``, ``"mdy"``); else it is refused.
``opponent_rating``: a whole number (a thousands separator is read as one: ``2.000`` is
2000; a decimal comma as a point), or blank / ``unrated``
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
the column and its header; so is a cell under no column name (a line with more cells than
the header: most often a comma inside an unquoted cell such as ``0,5``). Standard library
only.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import itertools
import re
from decimal import Decimal
from dataclasses import dataclass
from pathlib import Path

from xl_fide._dates import day_month_numbers, parse_date_text
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


#: The file's bounds (memory stays bounded whatever its size): every line counts, blank
#: ones too; a line (or a quoted cell running over lines) is at most MAX_RECORD characters;
#: the texts kept per game (event, opponent) at most MAX_TEXT.
MAX_LINES = 12_000
MAX_RECORD = 16_384
MAX_TEXT = 500
#: ``--date-order``: how a date like ``3/2/2024`` is read (day first, or month first).
DATE_ORDERS = ("dmy", "mdy")

_SEP_LINE = re.compile(r"sep=[,;\t]")
_MAGIC = (   # the first bytes of files people give instead of a CSV
    (b"PK\x03\x04", "a zip file"),
    (b"\xd0\xcf\x11\xe0", "an Excel 97-2003 workbook (.xls)"),
    (b"%PDF", "a PDF document"),
)


def read_games(path: str | Path, date_order: str | None = None) -> GamesFile:
    """Read a games CSV file (see the module docstring): UTF-8 with or without a
    byte-order mark, UTF-16 with one (Excel's "Unicode Text"), else Windows-1252 as
    Excel saves "CSV". Read line by line: memory stays bounded whatever the file's size
    (:data:`MAX_LINES`, :data:`MAX_RECORD`). ``date_order``: ``"dmy"`` or ``"mdy"`` for
    dates like ``3/2/2024`` (``None``: settled by the file's other dates, else refused).

    Raises :class:`~xl_fide.errors.PlayerFileError` naming the file, line and column of
    the first bad cell, and for a workbook or other binary file given instead of a CSV.
    """
    p = Path(path)
    source = str(p)
    with p.open("rb") as f:
        head = f.read(4096)
    encodings = _encodings(head, source)
    for i, encoding in enumerate(encodings):
        try:
            with p.open(encoding=encoding, newline="") as text:
                return _parse(text, source, date_order)
        except UnicodeError:
            if i == len(encodings) - 1:
                raise PlayerFileError("not a text file (its bytes are no known encoding): "
                                      "save the games as CSV", source) from None
    raise AssertionError("unreachable")


def _encodings(head: bytes, source: str) -> tuple[str, ...]:
    """The text encodings to try for a file starting with ``head``; a workbook or other
    binary file is refused, named as what it is."""
    if head.startswith(b"\xef\xbb\xbf"):
        return ("utf-8-sig",)
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return ("utf-16",)                        # Excel's "Unicode Text" (tab-separated)
    for magic, what in _MAGIC:
        if head.startswith(magic):
            if what == "a zip file":
                what = _zip_kind(source)
            raise PlayerFileError(f"this is {what}, not a CSV: open it and save the games "
                                  "sheet as CSV (File > Save As > CSV UTF-8)", source)
    if b"\x00" in head:
        even, odd = head[0::2], head[1::2]     # UTF-16 without a byte-order mark:
        if even and not odd.strip(b"\x00") and b"\x00" not in even:
            return ("utf-16-le",)              # "e\0v\0..."
        if odd and not even.strip(b"\x00") and b"\x00" not in odd:
            return ("utf-16-be",)              # "\0e\0v..."
        raise PlayerFileError("this is a binary file, not a CSV text: save the games as CSV",
                              source)
    return ("utf-8", "cp1252", "latin-1")          # as spreadsheets save CSV


def _zip_kind(source: str) -> str:
    import zipfile
    try:
        with zipfile.ZipFile(source) as z:
            names = set(z.namelist())
    except (zipfile.BadZipFile, OSError, ValueError):
        return "a zip file"
    if "xl/workbook.xml" in names:
        return "an Excel workbook (.xlsx)"
    if "content.xml" in names:
        return "an OpenDocument spreadsheet (.ods)"
    return "a zip file"


def parse_games(text: str, source: str = "<string>", date_order: str | None = None
                ) -> GamesFile:
    """Parse the text of a games CSV (see the module docstring and :func:`read_games`);
    ``source`` names it in errors. Raises :class:`~xl_fide.errors.PlayerFileError`."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return _parse(io.StringIO(text, newline=""), source, date_order)


class _Lines:
    """The physical lines of a text file, counted (every line, blank ones too) and
    bounded: at most :data:`MAX_LINES` lines and :data:`MAX_RECORD` characters a record."""

    def __init__(self, f: io.TextIOBase, source: str) -> None:
        self.f, self.source = f, source
        self.count = 0
        self.record = 0        # characters of the record being read (reset per record)

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = self.f.readline(MAX_RECORD + 1)
        if not line:
            raise StopIteration
        self.count += 1
        if self.count > MAX_LINES:
            raise PlayerFileError(f"more than {MAX_LINES} lines (blank ones count; at most "
                                  f"{MAX_ROWS} games)", self.source, self.count)
        self.record += len(line)
        if self.record > MAX_RECORD:
            raise PlayerFileError(f"a line of more than {MAX_RECORD} characters (an unclosed "
                                  'quote "?): not a games CSV line', self.source, self.count)
        return line


def _parse(f: io.TextIOBase, source: str, date_order: str | None) -> GamesFile:
    if date_order is not None and date_order not in DATE_ORDERS:
        raise InputError(f"date order must be dmy or mdy, got {date_order!r}")
    lines = _Lines(f, source)
    for first in lines:
        if first.strip():
            break
        lines.record = 0
    else:
        raise PlayerFileError("empty: the first line must name the columns "
                              f"({', '.join(REQUIRED)})", source, 1)
    delimiter = max(",;\t", key=first.count)   # the header's separator: , ; or tab
    head: list[str] = [first]
    if _SEP_LINE.fullmatch(first.strip()):     # Excel's "sep=;" line names the separator
        delimiter, head = first.strip()[4], []
    reader = csv.reader(itertools.chain(head, lines), delimiter=delimiter)
    header: list[str] | None = None
    ignored: list[str] = []
    dates = _Dates(date_order, source)
    rows: list[tuple] = []
    read: _RowReader | None = None
    while True:
        lines.record = 0
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            raise PlayerFileError(f"not a CSV line: {e}", source, lines.count) from None
        line = lines.count
        if not "".join(cells).strip():      # blank: no cell holds more than spaces
            continue
        if read is None:
            header = [c.strip() for c in cells]
            cols, ignored = _columns(header, source, line)
            read = _RowReader(cols, header, source, delimiter, dates)
            continue
        if len(rows) >= MAX_ROWS:
            raise PlayerFileError(f"more than {MAX_ROWS} games", source, line)
        rows.append(read.row(cells, line))
    if read is None or not rows:
        raise PlayerFileError("no games: one game a line after the header", source,
                              lines.count + 1)
    dates.settle()
    tc = read.tc
    return GamesFile(source, _events(rows, dates, read), tc[0] if tc else None,
                     tuple(ignored))


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
                 line: int, delimiter: str = ",") -> None:
        self.cells, self.cols, self.header = cells, cols, header
        self.source, self.line, self.delimiter = source, line, delimiter

    def text(self, key: str) -> str:
        i = self.cols.get(key)
        if i is None or i >= len(self.cells):
            return ""
        return self.cells[i].strip()

    def error(self, key: str, message: str) -> PlayerFileError:
        i = self.cols[key]
        return PlayerFileError(f"{self.header[i]}: {message}", self.source, self.line, i + 1,
                               self.header[i])

    def check_extra(self) -> None:
        """A cell under no column name (past the header's last, or under a blank one) is
        refused: it is most often a cell split at a separator it holds (``0,5``)."""
        width = len(self.header)
        for i, cell in enumerate(self.cells):
            if cell.strip() and (i >= width or not self.header[i]):
                sep = {"\t": "tab", ",": "comma", ";": "semicolon"}[self.delimiter]
                hint = ""
                if self.delimiter == ",":
                    pair = f"{self.cells[i - 1].strip()},{cell.strip()}" if i else ""
                    hint = (f" (the result {pair}? write it {pair.replace(',', '.')} or "
                            f"quote it: \"{pair}\")" if _DECIMAL.fullmatch(pair)
                            else ' (a decimal comma "0,5", a thousands separator "2,000")')
                raise PlayerFileError(
                    f"{len(self.cells)} cells but the header names {width} columns: cell "
                    f"{i + 1} ({_short(cell)}) is under no column name; quote a cell that "
                    f"holds a {sep}{hint}, or name the column in the header", self.source,
                    self.line, i + 1)

    def checked(self, key: str, convert):
        value = self.text(key)
        try:
            return convert(value)
        except (InputError, RuleError) as e:
            raise self.error(key, str(e)) from None

    def kept(self, key: str) -> str:
        """A text cell kept with the game (bounded: :data:`MAX_TEXT` characters)."""
        value = self.text(key)
        if len(value) > MAX_TEXT:
            raise self.error(key, f"longer than {MAX_TEXT} characters")
        return value


def _short(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


# ---------------------------------------------------------------------------------- dates

@dataclass(frozen=True)
class _DateCell:
    """A date cell read: ``value``, or ``None`` while its day and month could swap
    (``swap``: the two numbers and the year) until the file's order is known."""

    text: str
    key: str
    line: int
    value: _dt.date | None
    swap: tuple[int, int, int] | None = None


class _Dates:
    """The file's dates and their order: ``3/2/2024`` is 3 February (dmy) or 2 March
    (mdy); the order is given, or settled by a date of the file whose first or second
    number is over 12; otherwise such a date is refused."""

    def __init__(self, order: str | None, source: str) -> None:
        self.order, self.source = order, source
        self.seen: dict[str, tuple[_DateCell, str]] = {}   # order -> the first cell showing it
        self.pending: list[tuple[_DateCell, _Row]] = []

    def read(self, row: _Row, key: str) -> _DateCell | None:
        """The date of ``key`` on ``row`` (``None``: blank); located errors."""
        value = row.text(key)
        if not value:
            return None
        parts = day_month_numbers(value)
        if parts is None:
            found, _ = parse_date_text(value)
            if found is None:
                raise row.error(key, f"not a date: {_short(value)} (write e.g. 2025-10-04)")
            return _DateCell(value, key, row.line, found)
        a, b, year = parts
        orders = [o for o, (d, m) in (("dmy", (a, b)), ("mdy", (b, a))) if _valid(year, m, d)]
        if self.order is not None:
            if self.order not in orders:
                raise row.error(key, f"not a date in the order {self.order} (--date-order): "
                                     f"{_short(value)}")
            orders = [self.order]
        if not orders:
            raise row.error(key, f"not a date: {_short(value)} (write e.g. 2025-10-04)")
        if len(orders) == 1 or a == b:
            order = orders[0]
            if self.order is None and a != b:
                self.seen.setdefault(order, (_DateCell(value, key, row.line, None), row.header[
                    row.cols[key]]))
            return _DateCell(value, key, row.line, _in_order(parts, order))
        cell = _DateCell(value, key, row.line, None, parts)
        self.pending.append((cell, row))
        return cell

    def settle(self) -> None:
        """Fix the order of the dates that could swap, or refuse the first of them."""
        if len(self.seen) == 2:
            (c1, h1), (c2, h2) = sorted(self.seen.values(), key=lambda x: x[0].line)
            raise PlayerFileError(
                f"the dates are written both day first and month first ({h1} "
                f"{c1.text!r} on line {c1.line}, {h2} {c2.text!r} on line {c2.line}): write "
                "them as 2025-10-04", self.source, c2.line)
        order = self.order or next(iter(self.seen), None)
        if order is None and self.pending:
            cell, row = self.pending[0]
            a, b, year = cell.swap or (0, 0, 0)
            raise row.error(cell.key, (
                f"{cell.text!r} could be {_words(year, b, a)} or {_words(year, a, b)}: write "
                f"{_dt.date(year, b, a).isoformat()} or {_dt.date(year, a, b).isoformat()}, "
                "or give the order (--date-order dmy or mdy)"))
        self.order = order

    def value(self, cell: _DateCell | None) -> _dt.date | None:
        if cell is None:
            return None
        if cell.value is not None:
            return cell.value
        assert cell.swap is not None and self.order is not None
        return _in_order(cell.swap, self.order)


def _valid(year: int, month: int, day: int) -> bool:
    try:
        _dt.date(year, month, day)
    except ValueError:
        return False
    return True


def _in_order(parts: tuple[int, int, int], order: str) -> _dt.date:
    a, b, year = parts
    return _dt.date(year, b, a) if order == "dmy" else _dt.date(year, a, b)


_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December")


def _words(year: int, month: int, day: int) -> str:
    """``3 February`` (English whatever the locale)."""
    return f"{day} {_MONTH_NAMES[month - 1]}"


# -------------------------------------------------------------------------------- numbers

_GROUPED = re.compile(r"([0-9]{1,3})((?:([.,' \u00a0\u202f\u2009])[0-9]{3})+)(?:([.,])([0-9]+))?")
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]+,[0-9]+")


def _whole_text(text: str) -> str:
    """A whole-number cell's text in the form :func:`~xl_fide.rules.values.as_int` reads:
    a thousands separator (``2.000``, ``2,000``, ``2 000``, ``2'000``: one kind, groups of
    three digits) is dropped, so ``2.000`` is 2000, never 2; a decimal comma (``2000,0``)
    becomes a point."""
    m = _GROUPED.fullmatch(text)
    if m and len(set(m.group(2)[0::4])) == 1 and m.group(4) != m.group(3):
        return m.group(1) + re.sub(r"[^0-9]", "", m.group(2)) + (
            "." + m.group(5) if m.group(4) else "")
    if _DECIMAL_COMMA.fullmatch(text):
        return text.replace(",", ".")
    return text



def _rating_or_unrated(text: str) -> int | None:
    if text.lower() in UNRATED_WORDS:
        return None
    if len(text) <= 9 and text.isascii() and text.isdigit():   # digits only: an int as it is
        return as_rating(int(text), "opponent_rating (blank or unrated for an unrated opponent)")
    return as_rating(_whole_text(text),
                     "opponent_rating (blank or unrated for an unrated opponent)")


def _optional(convert, name: str):
    def inner(text: str):
        return convert(_whole_text(text), name) if text else None
    return inner


_RO, _K = _optional(as_rating, "Ro"), _optional(as_k, "K")
_DECIMAL = re.compile(r"[01]?[.,][0-9]{1,4}")
_SCORES = frozenset((Decimal(0), Decimal("0.5"), Decimal(1)))


def _result(text: str) -> GameResult:
    value: object = text
    if _DECIMAL.fullmatch(text):       # 1.00 0.50 0,5 as FIDE's pages print w: a number
        value = Decimal(text.replace(",", "."))
        if value not in _SCORES:
            raise InputError(f"{text!r} is not a game's result: 1, 0.5 (or ½) or 0")
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


_MISS = object()
_BLANK = object()
_new = object.__new__
_set = object.__setattr__


class _RowReader:
    """Reads the data lines of one file: the columns' places found once, and each
    distinct text of a column converted once (a file repeats its event names, dates,
    ratings and results line after line; the conversions are pure functions of the
    text). A line's :class:`_Row` (the file, line, column and header of an error) is
    made only for a text not seen before or a line that is refused; the checks and
    their order are :class:`_Row`'s, so every message is the same."""

    def __init__(self, cols: dict[str, int], header: list[str], source: str, delimiter: str,
                 dates: _Dates) -> None:
        self.cols, self.header, self.source, self.delimiter = cols, header, source, delimiter
        self.dates = dates
        self.width = len(header)
        self.blank = any(not name for name in header)     # a column with no name
        # the required columns' places (``_columns`` refused a header without one)
        self.i_event, self.i_start, self.i_end = cols["event"], cols["event_start"], cols["event_end"]
        self.i_rating, self.i_result = cols["opponent_rating"], cols["result"]
        at = cols.get
        self.i_date, self.i_opp, self.i_ro, self.i_k = at("date"), at("opponent"), at("ro"), at("k")
        self.i_tc = at("time_control")
        self.tc: tuple[TimeControl, int] | None = None     # the time control and its line
        # text -> value, per column (dates: one cache for every date column)
        self.names: dict[str, tuple[str, str]] = {}       # -> (name, key)
        self.date_cells: dict[str, _DateCell | None] = {}
        self.ratings: dict[str, int | None] = {}
        self.results: dict[str, tuple[GameResult, str]] = {}   # -> (result, its text)
        self.Ros: dict[str, int | None] = {}
        self.Ks: dict[str, int | None] = {}
        self.tcs: dict[str, object] = {}        # -> TimeControl, or _BLANK

    def _row(self, cells: list[str], line: int) -> _Row:
        return _Row(cells, self.cols, self.header, self.source, line, self.delimiter)

    def row(self, cells: list[str], line: int) -> tuple:
        """``(line, name, key, start, end, date, opponent, R_opp, result, result_text, Ro,
        K)`` of a data line (dates as :class:`_DateCell`, settled later); the checks of
        :meth:`_Row.check_extra`, :func:`_time_control` and then each cell in this order:
        event, event_start, event_end, Ro, K, date, opponent, opponent_rating, result.
        Each cache is keyed by the cell as written (spaces and all): a text seen before
        was checked then."""
        n = len(cells)
        if n > self.width or self.blank:
            self._row(cells, line).check_extra()
        if n < self.width:                      # a short line: its missing cells are blank
            cells = cells + [""] * (self.width - n)
        i = self.i_tc
        if i is not None:
            tc = self.tcs.get(cells[i])
            if tc is not _BLANK and (tc is None or self.tc is None or self.tc[0] is not tc):
                self._time_control(cells, line)
        got = self.names.get(cells[self.i_event])
        if got is None:
            got = self._name(cells, line)
        name, key = got
        dates = self.date_cells
        start = dates.get(cells[self.i_start], _MISS)
        if start is _MISS:
            start = self._date(cells, line, "event_start")
        end = dates.get(cells[self.i_end], _MISS)
        if end is _MISS:
            end = self._date(cells, line, "event_end")
        Ro = K = date = None
        opponent = ""
        if self.i_ro is not None:
            Ro = self.Ros.get(cells[self.i_ro], _MISS)
            if Ro is _MISS:
                Ro = self._value(cells, line, "ro", self.Ros, _RO)
        if self.i_k is not None:
            K = self.Ks.get(cells[self.i_k], _MISS)
            if K is _MISS:
                K = self._value(cells, line, "k", self.Ks, _K)
        if self.i_date is not None:
            date = dates.get(cells[self.i_date], _MISS)
            if date is _MISS:
                date = self._date(cells, line, "date")
        if self.i_opp is not None:
            opponent = cells[self.i_opp].strip()
            if len(opponent) > MAX_TEXT:
                self._row(cells, line).kept("opponent")
        R_opp = self.ratings.get(cells[self.i_rating], _MISS)
        if R_opp is _MISS:
            R_opp = self._value(cells, line, "opponent_rating", self.ratings, _rating_or_unrated)
        checked = self.results.get(cells[self.i_result])
        if checked is None:
            checked = self._result(cells, line)
        result, result_text = checked
        return (line, name, key, start, end, date, opponent, R_opp, result, result_text, Ro, K)

    # A text not seen before: checked as _Row checks it (a refusal is its message), then
    # kept for the next line that writes it.

    def _time_control(self, cells: list[str], line: int) -> None:
        row = self._row(cells, line)
        if not row.text("time_control"):
            self.tcs[cells[self.cols["time_control"]]] = _BLANK
            return
        tc = _time_control(row, self.tc)     # refused: not a time control, or another
        assert tc is not None
        self.tc = tc
        self.tcs[cells[self.cols["time_control"]]] = tc[0]

    def _name(self, cells: list[str], line: int) -> tuple[str, str]:
        row = self._row(cells, line)
        name = row.kept("event")
        if not name:
            raise row.error("event", "the event's name is missing")
        got = self.names[cells[self.i_event]] = (name, " ".join(name.split()).casefold())
        return got

    def _date(self, cells: list[str], line: int, key: str) -> _DateCell | None:
        """A date text read once (one that reads one way only registers its order by its
        first cell, one whose day and month could swap is pending from its first cell; a
        repeat of either adds nothing)."""
        cell = self.dates.read(self._row(cells, line), key)
        self.date_cells[cells[self.cols[key]]] = cell
        return cell

    def _value(self, cells: list[str], line: int, key: str, cache: dict, convert) -> object:
        value = cache[cells[self.cols[key]]] = self._row(cells, line).checked(key, convert)
        return value

    def _result(self, cells: list[str], line: int) -> tuple[GameResult, str]:
        row = self._row(cells, line)
        got = self.results[cells[self.i_result]] = (row.checked("result", _result),
                                                    row.text("result"))
        return got


def _events(rows: list[tuple], dates: _Dates, read: _RowReader) -> tuple[GamesEvent, ...]:
    """The lines grouped by event, in the order of each event's first line. An event's
    dates, Ro and K: on its first line (dates required there); a later line may leave
    them blank or repeat them, never contradict them."""
    def error(line: int, key: str, message: str) -> PlayerFileError:
        return _Row([], read.cols, read.header, read.source, line).error(key, message)

    value = dates.value
    events: dict[str, dict] = {}
    for line, name, key, start_cell, end_cell, date_cell, opponent, R_opp, result, \
            result_text, Ro, K in rows:
        ev = events.get(key)
        if ev is None:
            for col, cell in (("event_start", start_cell), ("event_end", end_cell)):
                if cell is None:
                    raise error(line, col, "a date is needed, e.g. 2025-10-04")
        # a date cell's value, or (None: day and month could swap) in the file's order
        start = start_cell and (start_cell.value or value(start_cell))
        end = end_cell and (end_cell.value or value(end_cell))
        date = date_cell and (date_cell.value or value(date_cell))
        game = _new(GameRow)    # GameRow(...) of checked values in one step (its own
        # __init__ sets the seven frozen fields one at a time)
        _set(game, "__dict__", {"line": line, "event": name, "date": date,
                                "opponent": opponent, "R_opp": R_opp, "result": result,
                                "result_text": result_text})
        if ev is None:
            assert start is not None and end is not None
            if end < start:
                raise error(line, "event_end", f"{end.isoformat()} is before event_start "
                                               f"{start.isoformat()}")
            events[key] = {"name": name, "start": start, "end": end, "Ro": Ro, "K": K,
                           "games": [game], "line": line}
            continue
        if not ((start is None or start == ev["start"]) and (end is None or end == ev["end"])
                and (Ro is None or Ro == ev["Ro"]) and (K is None or K == ev["K"])):
            for col, field, mine in (("event_start", "start", start),
                                     ("event_end", "end", end), ("ro", "Ro", Ro),
                                     ("k", "K", K)):
                if mine is None:
                    continue
                if ev[field] is None:
                    ev[field] = mine
                elif mine != ev[field]:
                    raise error(line, col, f"{mine} but line {ev['line']} of the same event "
                                           f"{ev['name']!r} says {ev[field]}")
        ev["games"].append(game)
    return tuple(GamesEvent(e["name"], e["start"], e["end"], e["Ro"], e["K"], tuple(e["games"]))
                 for e in events.values())
