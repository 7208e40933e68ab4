"""FIDE rating lists for an event: the ``--player-data`` file, and a local store of
monthly lists (SQLite, one file) with the lists FIDE would have used for the event.

FIDE B.02 §8.3.3 and reference practice: the ratings used are those of the list in
force when the tournament started; K is the one shown on the list before the rating
period (the list of the month of the event's end); K 10 is for good once a published
rating has reached 2400. This module imports neither xlwings nor openpyxl.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import os
import re
import sqlite3
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xl_fide.errors import InputError, XlFideError
from xl_fide.rules.editions import EventRules
from xl_fide.lists._read import RATING_KINDS, ListReader, PlayerData, PlayerDirectory, read_player_file

__all__ = ["event_player_data", "event_list_data", "ListStore", "StoreError", "default_store",
           "download_lists", "DownloadError", "list_file_name", "STORE_ENV", "FIDE_DOWNLOADS"]


def _event_kind(rules: Sequence[EventRules]) -> str:
    """The rating-list kind of the resolved events (the first event's time control)."""
    return rules[0].time_control.value if rules else "standard"


def _pairs(tournaments: Iterable[Any]) -> list[tuple[int | None, str | None]]:
    return [(p.fide_id, p.name) for t in tournaments for p in t.players]


def event_player_data(path: str | os.PathLike[str], tournaments: Sequence[Any],
                      rules: Sequence[EventRules] = ()) -> PlayerDirectory:
    """The players of ``tournaments`` found in the list at ``path`` (``--player-data``).

    The list is streamed and only the events' players are kept (FIDE id, else name);
    their ratings, games and K are those of the events' time control (``rules``, the
    events resolved by :func:`xl_fide.event_rules`; none: standard; a standard rating
    is the rapid/blitz fallback, FIDE R&B §7.2.1). The directory's
    ``notes`` count the unreadable lines of other players.
    Raises :class:`~xl_fide.errors.PlayerFileError` (one line, file and line named).
    """
    kind = _event_kind(rules)
    return read_player_file(path, kind, only=_pairs(tournaments))


# --- the store ----------------------------------------------------------------------

#: The environment variable naming the store (a file, or a directory to hold it).
STORE_ENV = "XL_FIDE_STORE"
_STORE_NAME = "lists.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS lists (
    month INTEGER NOT NULL, kind TEXT NOT NULL, players INTEGER NOT NULL,
    skipped INTEGER NOT NULL, source TEXT NOT NULL, imported TEXT NOT NULL,
    PRIMARY KEY (month, kind));
CREATE TABLE IF NOT EXISTS ratings (
    kind TEXT NOT NULL, month INTEGER NOT NULL, fide_id INTEGER NOT NULL,
    rating INTEGER, games INTEGER, k INTEGER, birth_year INTEGER, flag TEXT NOT NULL,
    PRIMARY KEY (kind, month, fide_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS players (
    fide_id INTEGER PRIMARY KEY, name TEXT NOT NULL, federation TEXT NOT NULL,
    sex TEXT NOT NULL, title TEXT NOT NULL, birth_year INTEGER, month INTEGER NOT NULL);
"""


class StoreError(XlFideError, ValueError):
    """The list store cannot be used (a month not stored, a file that is not a store)."""


def _month_number(text: str) -> int:
    match = re.fullmatch(r"(\d{4})-(\d{2})", text or "")
    if match is None or not 1 <= int(match.group(2)) <= 12:
        raise InputError(f"a month is written YYYY-MM, e.g. 2024-03, got {text!r}")
    return int(match.group(1)) * 100 + int(match.group(2))


def _month_text(number: int) -> str:
    return f"{number // 100:04d}-{number % 100:02d}"


def month_of_date(date: _dt.date) -> str:
    """``"YYYY-MM"`` of a date: the monthly FIDE list in force on it (published on the
    first of each month since July 2012)."""
    return f"{date.year:04d}-{date.month:02d}"


def default_store() -> Path:
    """The store's file: ``$XL_FIDE_STORE`` (a file, or a directory for
    ``lists.sqlite``), else the user's data directory (``%LOCALAPPDATA%\\xl-fide``,
    ``~/Library/Application Support/xl-fide``, ``$XDG_DATA_HOME/xl-fide`` or
    ``~/.local/share/xl-fide``)."""
    env = os.environ.get(STORE_ENV)
    if env:
        path = Path(env).expanduser()
        return path / _STORE_NAME if path.is_dir() else path
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "xl-fide" / _STORE_NAME


@dataclass(frozen=True)
class StoredList:
    """One stored list: ``month`` "YYYY-MM", ``kind`` standard/rapid/blitz, the number
    of players with a rating (or K) in it, unreadable lines skipped at import, the
    file it came from and when it was imported (ISO time, UTC)."""

    month: str
    kind: str
    players: int
    skipped: int
    source: str
    imported: str


@dataclass(frozen=True)
class ListEntry:
    """One player on one stored list (FIDE's columns: rating, games, K, birth year, flag)."""

    month: str
    kind: str
    fide_id: int
    rating: int | None
    games: int | None
    k: int | None
    birth_year: int | None
    flag: str


@dataclass(frozen=True)
class ImportResult:
    """What ``import_file`` stored: the month, the kinds, players per kind, and the
    unreadable lines skipped (counted, never silent)."""

    month: str
    kinds: tuple[str, ...]
    players: dict[str, int]
    skipped: int
    replaced: tuple[str, ...]


def _sql_errors(method: Any) -> Any:
    """Turn the errors of SQLite (a locked or damaged store) into a :class:`StoreError`."""
    import functools

    @functools.wraps(method)
    def wrapper(self: ListStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: the list store cannot be used ({exc})") from None

    return wrapper


class ListStore:
    """Monthly FIDE rating lists in one SQLite file (standard library ``sqlite3``).

    ``path``: the file (default :func:`default_store`); created when first written.
    Each (month, kind) is one list; importing it again replaces it in one
    transaction, and a file that cannot be read leaves the store as it was.
    Raises :class:`StoreError` for a file that is not a store.
    """

    #: Seconds to wait for another process's import to end.
    timeout = 10.0

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_store()
        self._conn: sqlite3.Connection | None = None

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        if self._conn is not None:
            return self._conn
        if not self.path.exists():
            if not create:
                return None
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=self.timeout)
            conn.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            what = "in use by another xl-fide" if "locked" in str(exc) else "not a list store"
            raise StoreError(f"{self.path}: {what} ({exc})") from None
        self._conn = conn
        return conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> ListStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading --------------------------------------------------------------

    @_sql_errors
    def lists(self) -> list[StoredList]:
        """Every stored list, by month then kind (standard, rapid, blitz)."""
        conn = self._connect(False)
        if conn is None:
            return []
        rows = conn.execute("SELECT month, kind, players, skipped, source, imported FROM lists"
                            ).fetchall()
        order = {k: i for i, k in enumerate(RATING_KINDS)}
        rows.sort(key=lambda r: (r[0], order.get(r[1], 9)))
        return [StoredList(_month_text(r[0]), *r[1:]) for r in rows]

    def months(self, kind: str) -> list[str]:
        """The stored months of one kind, oldest first."""
        return [s.month for s in self.lists() if s.kind == kind]

    @_sql_errors
    def entry(self, fide_id: int, month: str, kind: str) -> ListEntry | None:
        """The player on the list of ``month`` and ``kind``, or None (not on it)."""
        conn = self._connect(False)
        if conn is None:
            return None
        row = conn.execute(
            "SELECT rating, games, k, birth_year, flag FROM ratings "
            "WHERE kind = ? AND month = ? AND fide_id = ?",
            (kind, _month_number(month), fide_id)).fetchone()
        return ListEntry(month, kind, fide_id, *row) if row else None

    def history(self, fide_id: int, kind: str | None = None) -> list[ListEntry]:
        """The player on every stored list (of ``kind``, or all), oldest first."""
        out = []
        for stored in self.lists():
            if kind is None or stored.kind == kind:
                found = self.entry(fide_id, stored.month, stored.kind)
                if found is not None:
                    out.append(found)
        return out

    @_sql_errors
    def player(self, fide_id: int) -> dict[str, Any] | None:
        """Name, federation, sex, title and birth year from the newest list holding them."""
        conn = self._connect(False)
        if conn is None:
            return None
        row = conn.execute("SELECT name, federation, sex, title, birth_year, month FROM players "
                           "WHERE fide_id = ?", (fide_id,)).fetchone()
        if row is None:
            return None
        return dict(zip(("name", "federation", "sex", "title", "birth_year"), row[:5]),
                    month=_month_text(row[5]))

    @_sql_errors
    def peak(self, fide_id: int, kind: str, up_to: str) -> int | None:
        """The highest rating of the player on the stored lists of ``kind`` up to month
        ``up_to`` (for the 2400 rule of FIDE B.02 §8.3.3: K 10 for good)."""
        conn = self._connect(False)
        if conn is None:
            return None
        months = [_month_number(m) for m in self.months(kind) if m <= up_to]
        if not months:
            return None
        marks = ",".join("?" * len(months))
        row = conn.execute(f"SELECT MAX(rating) FROM ratings WHERE kind = ? AND month IN "
                           f"({marks}) AND fide_id = ?", (kind, *months, fide_id)).fetchone()
        return row[0] if row else None

    # -- writing --------------------------------------------------------------

    @_sql_errors
    def import_file(self, path: str | os.PathLike[str], month: str | None = None,
                    time_control: str | None = None, progress: Any = None) -> ImportResult:
        """Store a FIDE list (TXT, XML, a zip of one, or a CSV) as the list of ``month``.

        ``month`` "YYYY-MM", else taken from FIDE's file name (``standard_jan24frl``) or
        the TXT header's rating column (``JAN24``); a combined list gives the standard,
        rapid and blitz lists of the month; a one-rating list is of the kind its name
        says (``standard_``...), else ``time_control``. ``progress(done, total)`` is
        called as bytes are read. Every list of that month and kind is replaced in one
        transaction: on any error the store is as it was.
        Raises :class:`PlayerFileError` (the file) or :class:`StoreError` /
        :class:`InputError` (month or kind not known, or contradicting the file).
        """
        wanted = _month_number(month) if month is not None else None
        if time_control is not None and time_control not in RATING_KINDS:
            raise InputError(f"time control must be one of {', '.join(RATING_KINDS)}, "
                             f"got {time_control!r}")
        reader = ListReader(path, RATING_KINDS, lenient=True)
        records = reader.rows()
        first = next(records, None)
        number = self._month_for(reader, wanted)
        kinds = self._kinds_for(reader, first, time_control)
        conn = self._connect(True)
        assert conn is not None
        replaced = tuple(k for k in kinds if conn.execute(
            "SELECT 1 FROM lists WHERE month = ? AND kind = ?", (number, k)).fetchone())
        counts = dict.fromkeys(kinds, 0)
        try:
            conn.execute("BEGIN IMMEDIATE")
            for kind in kinds:
                conn.execute("DELETE FROM ratings WHERE kind = ? AND month = ?", (kind, number))
            batch: list[tuple] = []
            people: list[tuple] = []
            if first is not None:
                records = itertools.chain([first], records)
            for record in records:
                self._rows(record, kinds, number, batch, people, counts)
                if len(batch) >= 20_000:
                    self._flush(conn, batch, people)
                    if progress is not None:
                        progress(reader.read_bytes, reader.size)
            self._flush(conn, batch, people)
            imported = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
            for kind in kinds:
                conn.execute("INSERT OR REPLACE INTO lists VALUES (?, ?, ?, ?, ?, ?)",
                             (number, kind, counts[kind], reader.skipped,
                              os.path.basename(os.fspath(path)), imported))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if progress is not None:
            progress(reader.size or reader.read_bytes, reader.size)
        return ImportResult(_month_text(number), kinds, counts, reader.skipped, replaced)

    @staticmethod
    def _month_for(reader: ListReader, wanted: int | None) -> int:
        found = _month_number(reader.month) if reader.month else None
        if wanted is None and found is None:
            raise InputError(f"{reader.file}: the file name and header do not say the "
                             "list's month: give --month YYYY-MM")
        if wanted is not None and found is not None and wanted != found:
            raise InputError(f"{reader.file}: this is the list of {_month_text(found)} "
                             f"(its name or header), not {_month_text(wanted)}")
        number = wanted if wanted is not None else found
        assert number is not None
        return number

    @staticmethod
    def _kinds_for(reader: ListReader, first: tuple | None,
                   time_control: str | None) -> tuple[str, ...]:
        combined = reader.layout == "combined" or (
            reader.layout == "xml" and reader.scan.xml_combined)
        if combined:
            return (time_control,) if time_control else RATING_KINDS
        kind = reader.hint or time_control
        if reader.hint and time_control and reader.hint != time_control:
            raise InputError(f"{reader.file}: the file name says a {reader.hint} list, "
                             f"not {time_control}")
        if kind is None:
            if reader.layout == "csv":
                return ("standard",)
            raise InputError(f"{reader.file}: a one-rating list whose name does not say "
                             "standard, rapid or blitz: give --time-control")
        return (kind,)

    @staticmethod
    def _rows(row: tuple, kinds, number, batch, people, counts) -> None:
        fide_id, name, federation, sex, title, birth_year, flag, per = row
        if fide_id is None:
            return                          # a list entry without an id: not storable
        for kind in kinds:
            rating, games, k = per.get(kind, (None, None, None))
            if rating is None and k is None and not games:
                continue
            batch.append((kind, number, fide_id, rating, games, k, birth_year, flag))
            counts[kind] += 1
        people.append((fide_id, name, federation, sex, title, birth_year, number))

    @staticmethod
    def _flush(conn: sqlite3.Connection, batch: list, people: list) -> None:
        conn.executemany("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)", batch)
        conn.executemany(
            "INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (fide_id) DO UPDATE "
            "SET name = excluded.name, federation = excluded.federation, sex = excluded.sex, "
            "title = excluded.title, birth_year = excluded.birth_year, month = excluded.month "
            "WHERE excluded.month >= players.month", people)
        batch.clear()
        people.clear()


# --- the command line: bodies of ``xl-fide lists ...`` --------------------------------

class Progress:
    """A one-line progress bar on stderr (only on a terminal, and not with ``-q``)."""

    def __init__(self, label: str, quiet: bool = False, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.on = not quiet and bool(getattr(self.stream, "isatty", lambda: False)())
        self.label = label
        self._shown = -1

    def __call__(self, done: int, total: int | None) -> None:
        if not self.on:
            return
        if total:
            percent = min(100, done * 100 // total)
            if percent == self._shown:
                return
            self._shown = percent
            bar = "#" * (percent // 4)
            text = f"\r{self.label} [{bar:<25}] {percent:3d}%"
        else:
            text = f"\r{self.label} {done // 1_000_000} MB"
        self.stream.write(text)
        self.stream.flush()

    def done(self) -> None:
        if self.on and self._shown >= 0:
            self.stream.write("\n")
            self.stream.flush()


def _store(args: Any) -> ListStore:
    return ListStore(getattr(args, "store", None))


def cmd_lists(args: Any) -> int:
    """``xl-fide lists``: the stored months and counts (one line per month)."""
    sub = getattr(args, "lists_command", None)
    if sub == "import":
        return cmd_lists_import(args)
    if sub == "show":
        return cmd_lists_show(args)
    if sub == "download":
        return cmd_lists_download(args)
    with _store(args) as store:
        stored = store.lists()
        print(f"store: {store.path}")
        if not stored:
            print("no lists stored: xl-fide lists download, or xl-fide lists import FILE")
            return 0
        by_month: dict[str, dict[str, StoredList]] = {}
        for item in stored:
            by_month.setdefault(item.month, {})[item.kind] = item
        print(f"{'month':<8} " + " ".join(f"{k:>9}" for k in RATING_KINDS) + "  source")
        for month, kinds in by_month.items():
            counts = " ".join(f"{kinds[k].players:>9}" if k in kinds else f"{'-':>9}"
                              for k in RATING_KINDS)
            sources = ", ".join(sorted({v.source for v in kinds.values()}))
            print(f"{month:<8} {counts}  {sources}")
    return 0


def _import_line(path: Any, result: ImportResult) -> str:
    counts = ", ".join(f"{result.players[k]} {k}" for k in result.kinds)
    line = f"imported {path} as the list of {result.month}: {counts}"
    if result.replaced:
        line += f" (replaced the stored {', '.join(result.replaced)})"
    return line


def cmd_lists_import(args: Any) -> int:
    """``xl-fide lists import FILE [--month YYYY-MM] [--time-control KIND]``."""
    path = Path(args.list_file)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    progress = Progress(f"importing {path.name}", getattr(args, "quiet", False))
    with _store(args) as store:
        try:
            result = store.import_file(path, args.month, args.time_control, progress)
        finally:
            progress.done()
    print(_import_line(path, result))
    if result.skipped and not getattr(args, "quiet", False):
        lines = "line" if result.skipped == 1 else "lines"
        print(f"warning: {path}: {result.skipped} unreadable {lines} skipped", file=sys.stderr)
    return 0


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def cmd_lists_show(args: Any) -> int:
    """``xl-fide lists show FIDE_ID``: the player on every stored list."""
    fide_id = args.fide_id
    with _store(args) as store:
        person = store.player(fide_id)
        history = store.history(fide_id)
    if person is None and not history:
        raise StoreError(f"FIDE id {fide_id} is on no stored list")
    if person is not None:
        extra = ", ".join(v for v in (person["federation"], person["title"]) if v)
        print(f"{fide_id} {person['name']}" + (f" ({extra})" if extra else ""))
    print(f"{'month':<8} {'list':<8} {'rating':>6} {'games':>5} {'K':>3} {'born':>5} flag")
    for e in history:
        print(f"{e.month:<8} {e.kind:<8} {_cell(e.rating):>6} {_cell(e.games):>5} "
              f"{_cell(e.k):>3} {_cell(e.birth_year):>5} {e.flag}")
    return 0


def cmd_lists_download(args: Any) -> int:
    """``xl-fide lists download [--month YYYY-MM] [--time-control KIND ...] [--base-url URL]``."""
    quiet = getattr(args, "quiet", False)
    results = download_lists(args.month, tuple(args.time_control or RATING_KINDS),
                             base_url=args.base_url or FIDE_DOWNLOADS, store=_store(args),
                             progress=lambda label: Progress(label, quiet))
    for url, result in results:
        print(_import_line(url, result))
        if result.skipped and not quiet:
            print(f"warning: {url}: {result.skipped} unreadable lines skipped", file=sys.stderr)
    return 0


# --- download ------------------------------------------------------------------------

#: Where FIDE publishes its rating-list files (ratings.fide.com/download_lists.phtml):
#: one zip a month and a list, ``standard_jan24frl.zip``, ``rapid_jan24frl.zip``,
#: ``blitz_jan24frl.zip`` (the TXT list inside).
FIDE_DOWNLOADS = "https://ratings.fide.com/download/"
#: The largest download accepted (FIDE's monthly zips are a few tens of MB).
MAX_DOWNLOAD = 1 << 29
_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                "dec")


class DownloadError(XlFideError, ValueError):
    """A list could not be downloaded (not published, no network, a damaged file)."""


def list_file_name(kind: str, month: str) -> str:
    """FIDE's file name of a monthly list: ``list_file_name("rapid", "2024-01") ==
    "rapid_jan24frl.zip"``."""
    number = _month_number(month)
    return f"{kind}_{_MONTH_NAMES[number % 100 - 1]}{number // 100 % 100:02d}frl.zip"


def _check_url(url: str) -> None:
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    local = parts.hostname in ("127.0.0.1", "localhost", "::1")
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        raise DownloadError(f"{url}: only https:// addresses are used (http:// only for "
                            "this computer)")


def _fetch(url: str, part: Path, bar: Any, timeout: float) -> None:
    """Download ``url`` to ``part``, resuming what ``part`` already holds; check the size."""
    import urllib.error
    import urllib.request
    have = part.stat().st_size if part.exists() else 0
    request = urllib.request.Request(url, headers={"User-Agent": "xl-fide"})
    if have:
        request.add_header("Range", f"bytes={have}-")
    try:
        response = urllib.request.urlopen(request, timeout=timeout)  # noqa: S310 (checked)
    except urllib.error.HTTPError as exc:
        if exc.code == 416 and have:
            return                  # nothing left to fetch: the size check follows
        hint = " (FIDE may not have published that list yet)" if exc.code == 404 else ""
        raise DownloadError(f"{url}: HTTP {exc.code} {exc.reason}{hint}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DownloadError(f"{url}: cannot download ({reason})") from None
    with response:
        total = _expected_size(response, have)
        if total is not None and total > MAX_DOWNLOAD:
            raise DownloadError(f"{url}: {total} bytes, more than {MAX_DOWNLOAD}, the limit "
                                "for a list download")
        if response.status != 206:
            have = 0                # the server sent the whole file again
        done = have
        try:
            with open(part, "ab" if have else "wb") as out:
                while chunk := response.read(1 << 16):
                    done += len(chunk)
                    if done > (total or MAX_DOWNLOAD):
                        raise DownloadError(f"{url}: more bytes than announced ({total})")
                    out.write(chunk)
                    bar(done, total)
        except (OSError, ValueError) as exc:
            raise DownloadError(f"{url}: the download broke off after {done} bytes ({exc}); "
                                "run the same command again to resume") from None
    if total is not None and done != total:
        raise DownloadError(f"{url}: {done} of {total} bytes received; run the same "
                            "command again to resume")


def _expected_size(response: Any, have: int) -> int | None:
    """The whole file's size, from Content-Range (a resumed download) or Content-Length."""
    content_range = response.headers.get("Content-Range", "")
    match = re.fullmatch(r"bytes (\d+)-\d+/(\d+)", content_range.strip())
    if response.status == 206:
        if match is None or int(match.group(1)) != have:
            raise DownloadError(f"{response.url}: the server resumed at the wrong place "
                                f"({content_range!r})")
        return int(match.group(2))
    length = response.headers.get("Content-Length")
    return int(length) if length and length.isdigit() else None


def _check_zip(path: Path, url: str) -> None:
    import zipfile
    import zlib
    try:
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError) as exc:
        path.unlink(missing_ok=True)
        raise DownloadError(f"{url}: not a whole zip file ({exc}); removed, download it "
                            "again") from None
    if bad is not None:
        path.unlink(missing_ok=True)
        raise DownloadError(f"{url}: {bad} in the zip is damaged (bad CRC); removed, "
                            "download it again")


def download_lists(month: str | None = None, kinds: Sequence[str] = RATING_KINDS, *,
                   base_url: str = FIDE_DOWNLOADS, store: ListStore | None = None,
                   progress: Any = None, timeout: float = 60.0
                   ) -> list[tuple[str, ImportResult]]:
    """Download FIDE's monthly list files of ``month`` (default: this month, UTC) for
    each of ``kinds`` and import them into ``store``.

    Files are ``base_url + list_file_name(kind, month)`` over HTTPS (plain HTTP only to
    this computer, for tests). A download that breaks off is kept as ``NAME.part``
    next to the store and resumed next time (HTTP Range); its size is checked against
    the server's, and the zip's CRCs before the import. ``progress(label)`` returns a
    ``(done, total)`` callback (see :class:`Progress`). Returns (url, result) pairs.
    Raises :class:`DownloadError` (one line: the address and what went wrong).
    """
    store = store or ListStore()
    month = month or month_of_date(_dt.datetime.now(_dt.timezone.utc).date())
    _month_number(month)
    if not base_url.endswith("/"):
        base_url += "/"
    _check_url(base_url)
    folder = store.path.parent / "downloads"
    folder.mkdir(parents=True, exist_ok=True)
    results = []
    for kind in kinds:
        name = list_file_name(kind, month)
        url = base_url + name
        part = folder / (name + ".part")
        bar = progress(f"downloading {name}") if progress else (lambda done, total: None)
        try:
            _fetch(url, part, bar, timeout)
        finally:
            getattr(bar, "done", lambda: None)()
        _check_zip(part, url)
        target = folder / name
        os.replace(part, target)
        bar = progress(f"importing {name}") if progress else None
        try:
            result = store.import_file(target, month, kind, bar)
        finally:
            getattr(bar, "done", lambda: None)()
        target.unlink(missing_ok=True)
        results.append((url, result))
    return results


# --- --lists: the lists FIDE would have used for an event ----------------------------

_MONTHLY_SINCE = "2012-08"      # FIDE's lists are monthly since July 2012


def _months_back(month: str, n: int) -> str:
    number = _month_number(month)
    index = (number // 100) * 12 + number % 100 - 1 - n
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def _in_force(store: ListStore, kind: str, month: str) -> str | None:
    """The stored list in force in ``month``: that month's (monthly lists), or before
    August 2012 the newest stored one of the six months up to it (lists were then
    published every two or three months)."""
    months = store.months(kind)
    if month in months:
        return month
    if month < _MONTHLY_SINCE:
        earlier = [m for m in months if _months_back(month, 6) <= m <= month]
        if earlier:
            return earlier[-1]
    return None


def _need(store: ListStore, kind: str, month: str, what: str) -> str:
    found = _in_force(store, kind, month)
    if found is None:
        raise StoreError(
            f"no {kind} list of {month} in the store {store.path} ({what}): import it with "
            f"'xl-fide lists download --month {month} --time-control {kind}' or "
            f"'xl-fide lists import FILE --month {month}'")
    return found


def _event_dates(rules: Sequence[EventRules]) -> tuple[_dt.date, _dt.date]:
    """The first rules date and the last end date of the resolved events."""
    starts = [r.date for r in rules]
    if not rules or any(d is None for d in starts):
        raise InputError("--lists needs the event's start date: the file has none (042); "
                         "give --event-date YYYY-MM-DD")
    start = min(d for d in starts if d is not None)
    return start, max(r.end_date or start for r in rules)


def event_list_data(tournaments: Sequence[Any], rules: Sequence[EventRules],
                    store: ListStore | None = None) -> PlayerDirectory:
    """The events' players as FIDE's lists showed them for these events (``--lists``).

    FIDE B.02 §8.3.3 and its rating periods: the rating (Ro) is from the list in
    force when the event started (the list of its start month); K from the list
    before the rating period of the event's end (the list of its end month); the
    birth year from that list; ``peak_rating`` is the highest rating of the stored
    lists up to then (K 10 for good after 2400). For rapid and blitz, the standard
    rating of the start month's list is the fallback (FIDE R&B §7.2.1), when stored.
    Players are found by FIDE id. The directory's ``notes``: each player whose
    rating in the file differs from the list (the file's is used), and those not on
    the list. ``rules`` are the events resolved by :func:`xl_fide.event_rules`
    (parallel to ``tournaments``): their rules dates (a given event date, a
    workbook's "Rules as on") pick the lists, their time control the kind.
    Raises :class:`StoreError` naming the month to import when a list is missing,
    :class:`InputError` when an event has no date.
    """
    store = store or ListStore()
    start, end = _event_dates(rules)
    kind = _event_kind(rules)
    ro_month = _need(store, kind, month_of_date(start), "in force at the event's start")
    k_month = _need(store, kind, month_of_date(end),
                    "the list before the rating period of the event's end")
    std_month = _in_force(store, "standard", month_of_date(start)) if kind != "standard" else None
    notes: list[str] = []
    players: dict[int, PlayerData] = {}
    missing = []
    for t in tournaments:
        for p in t.players:
            if p.fide_id is None or p.fide_id in players:
                continue
            ro = store.entry(p.fide_id, ro_month, kind)
            kk = store.entry(p.fide_id, k_month, kind)
            std = store.entry(p.fide_id, std_month, "standard") if std_month else None
            if ro is None and kk is None and std is None:
                missing.append(f"{p.start_rank}")
                continue
            rating = ro.rating if ro is not None else None
            if p.rating is not None and rating is not None and p.rating != rating:
                notes.append(f"player {p.start_rank} ({p.name}): rating {p.rating} in the file, "
                             f"{rating} on the {kind} list of {ro_month}: the file's is used")
            born = next((e.birth_year for e in (kk, ro, std) if e is not None and e.birth_year),
                        None)
            players[p.fide_id] = PlayerData(
                p.fide_id, p.name or f"#{p.fide_id}", rating=rating,
                games=ro.games if ro is not None else None,
                k=kk.k if kk is not None else None, birth_year=born,
                flag=next(e.flag for e in (ro, kk, std) if e is not None),
                peak_rating=store.peak(p.fide_id, kind, k_month),
                standard_rating=std.rating if std is not None else None)
    sources = f"{kind} lists: Ro {ro_month}, K {k_month}"
    notes.insert(0, f"player data from the store ({sources})")
    if missing:
        notes.append(f"not on the {kind} list of {ro_month}: player(s) {', '.join(missing)}")
    return PlayerDirectory(players.values(), notes=notes)


# --- one value, for a worksheet function (FIDE_PLAYER) ---------------------------------

#: The fields :func:`player_field` answers.
PLAYER_FIELDS = ("rating", "games", "k", "birth_year", "flag", "name", "federation", "title",
                 "peak_rating")


def player_field(fide_id: Any, field: str, month: str | None = None, kind: str = "standard",
                 store: ListStore | None = None) -> int | str | None:
    """One value of a player on a stored list: ``field`` one of :data:`PLAYER_FIELDS`,
    ``month`` "YYYY-MM" (default: the newest stored list of ``kind``). None when the
    player is on that list without that value (no rating...). ``peak_rating`` is the
    highest rating of the stored lists up to ``month`` (FIDE B.02 §8.3.3).
    Raises :class:`InputError` (bad id, field or month) or :class:`StoreError` (the
    month, or the player on it, not stored): short messages a cell can show.
    """
    if isinstance(fide_id, float) and fide_id.is_integer():
        fide_id = int(fide_id)
    if type(fide_id) is not int or fide_id <= 0:
        raise InputError(f"a FIDE id is a whole number, got {fide_id!r}")
    if field not in PLAYER_FIELDS:
        raise InputError(f"field must be one of {', '.join(PLAYER_FIELDS)}, got {field!r}")
    if kind not in RATING_KINDS:
        raise InputError(f"time control must be one of {', '.join(RATING_KINDS)}, got {kind!r}")
    store = store or ListStore()
    months = store.months(kind)
    if month is None:
        if not months:
            raise StoreError(f"no {kind} list stored: xl-fide lists download")
        month = months[-1]
    elif month not in months:
        _month_number(month)
        raise StoreError(f"no {kind} list of {month} stored: xl-fide lists download "
                         f"--month {month}")
    entry = store.entry(fide_id, month, kind)
    if entry is None:
        raise StoreError(f"FIDE id {fide_id} is not on the {kind} list of {month}")
    if field == "peak_rating":
        return store.peak(fide_id, kind, month)
    if field in ("name", "federation", "title"):
        person = store.player(fide_id) or {}
        return person.get(field)
    value: int | str | None = getattr(entry, field)
    return value
