"""The local store of monthly FIDE rating lists (SQLite, one file): import a list
file as a month, read a player's entries back. This module imports neither xlwings
nor openpyxl.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import os
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from xl_fide.errors import InputError, PlayerFileError, StoreError
from xl_fide.lists._model import RATING_KINDS
from xl_fide.lists._months import _month_number, _month_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from xl_fide.lists._read import ListReader     # imported by import_file (not by 'show')

__all__ = ["ImportResult", "ListEntry", "ListStore", "STORE_ENV", "StoreError", "StoredList",
           "default_store"]

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
#: The tables of a store and their columns: a file holding anything else is not one.
_TABLES = {
    "lists": ("month", "kind", "players", "skipped", "source", "imported"),
    "ratings": ("kind", "month", "fide_id", "rating", "games", "k", "birth_year", "flag"),
    "players": ("fide_id", "name", "federation", "sex", "title", "birth_year", "month"),
}


def _is_month_number(value: object) -> bool:
    return type(value) is int and 0 < value // 100 <= 9999 and 1 <= value % 100 <= 12


# What each value read back from a store must be (SQLite keeps whatever is written).
_SHAPES = {
    "count": lambda v: type(v) is int and v >= 0,
    "count?": lambda v: v is None or (type(v) is int and v >= 0),
    "text": lambda v: type(v) is str,
    "month": _is_month_number,
    "kind": lambda v: v in RATING_KINDS,
}




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
    unreadable lines skipped: counted, the first ones named in ``shown``
    (``FILE:LINE:COLUMN: column: why (the line's id, name)``), every one in
    ``skipped_file`` (None when none was skipped and no file was asked for)."""

    month: str
    kinds: tuple[str, ...]
    players: dict[str, int]
    skipped: int
    replaced: tuple[str, ...]
    notes: tuple[str, ...] = ()     # one line each, to show as warnings
    shown: tuple[str, ...] = ()     # the first skipped lines, named (file:line: why)
    skipped_file: Path | None = None    # where every skipped line is named


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


def _storable(fide_id: int) -> bool:
    """An id SQLite can hold (a larger one is on no list)."""
    return type(fide_id) is int and 0 < fide_id < 1 << 63


def _nobody(reader: ListReader) -> NoReturn:
    """Refuse a list without one readable, rated player: storing it would empty the
    month (the store is left as it was)."""
    lines = "line" if reader.skipped == 1 else "lines"
    first = f"; the first: {reader.shown[0]}" if reader.shown else ""
    why = f" ({reader.skipped} unreadable {lines}{first})" if reader.skipped else ""
    raise PlayerFileError(f"no player with a rating or K could be read{why}: nothing "
                          "imported, the store is as it was", file=reader.file)


def _repeated(conn: sqlite3.Connection, batch: list, people: list, file: str) -> None:
    """Refuse a FIDE id that the list gives twice with different data (as
    :class:`PlayerDirectory` does); a line repeated as it is was stored once."""
    for row in batch:
        stored = conn.execute("SELECT rating, games, k, birth_year, flag FROM ratings "
                              "WHERE kind = ? AND month = ? AND fide_id = ?", row[:3]).fetchone()
        if stored is not None and tuple(stored) != tuple(row[3:]):
            fide_id = row[2]
            names = list(dict.fromkeys(p[1] for p in people if p[0] == fide_id))
            if len(names) < 2:
                earlier = conn.execute("SELECT name FROM players WHERE fide_id = ?",
                                       (fide_id,)).fetchone()
                names.insert(0, earlier[0] if earlier else "?")
            raise PlayerFileError(
                f"FIDE id {fide_id} appears twice, with different {row[0]} data: "
                f"{names[0]!r} and {names[-1]!r}: nothing imported, the store is as it was",
                file=file)


class _SkipLog:
    """Every line an import skips, named, one a line: gathered while the list is read
    (in memory, on disk past 1 MiB), written to a file beside its target before the
    store commits, put in place (:func:`os.replace`) after: no partial file, and none
    at all when the import fails."""

    def __init__(self, reader: ListReader, source: str | os.PathLike[str], store: Path,
                 target: str | os.PathLike[str] | None) -> None:
        import tempfile
        self.reader = reader
        self.asked = target is not None
        self.store = store
        self.target: Path | None = Path(target) if target is not None else None
        if self.target is not None:
            self._refuse(source)
        self.spool = tempfile.SpooledTemporaryFile(1 << 20, "w+", encoding="utf-8",
                                                   newline="\n")
        reader.scan.skip_log = self.spool
        self.part: Path | None = None

    def _refuse(self, source: str | os.PathLike[str]) -> None:
        """Never write over the list being read, nor the store."""
        assert self.target is not None
        if self.target.is_dir():
            raise InputError(f"{self.target}: a folder; name a file for the skipped lines")
        if not self.target.parent.is_dir():
            raise InputError(f"{self.target}: no such folder {self.target.parent}; name a "
                             "file in a folder that exists for the skipped lines")
        inputs = [Path(os.fspath(source)), self.store]
        for other in inputs:
            same = other.exists() and self.target.exists() and os.path.samefile(other,
                                                                               self.target)
            if same or other.resolve() == self.target.resolve():
                raise InputError(f"{self.target}: that is the "
                                 f"{'list being imported' if other == inputs[0] else 'store'}; "
                                 "name another file for the skipped lines")

    def open(self, name: str) -> None:
        """Make the file that will hold the skipped lines (``name`` beside the store
        unless a file was asked for), in its folder, before the store is written."""
        import secrets
        if self.target is None:
            self.target = self.store.parent / name
        part = self.target.with_name(f".{self.target.name}.{secrets.token_hex(4)}.part")
        try:
            with open(part, "x", encoding="utf-8"):     # the user's usual permissions
                pass
        except OSError as exc:
            raise InputError(f"{self.target}: cannot write the skipped lines there "
                             f"({exc.strerror or exc})") from None
        self.part = part

    def write(self, month: str, kinds: tuple[str, ...]) -> None:
        """Write the file (still under its temporary name)."""
        reader = self.reader
        if self.part is None or not (reader.skipped or self.asked):
            return
        import shutil
        lines = "line" if reader.skipped == 1 else "lines"
        file = reader.file.translate(_CONTROLS)
        with open(self.part, "w", encoding="utf-8", newline="\n") as out:
            out.write(f"# xl-fide lists import: {reader.skipped} {lines} of {file} not stored "
                      f"in the {'/'.join(kinds)} list of {month}\n# one a line: "
                      "file:line:column: the column and why, then the id and name the line "
                      "gives\n")
            self.spool.seek(0)
            shutil.copyfileobj(self.spool, out)

    def done(self) -> Path | None:
        """Put the file in place (the store is written): its path, or None when nothing
        was skipped and no file was asked for (an older file of that list removed)."""
        assert self.target is not None and self.part is not None
        if self.reader.skipped or self.asked:
            os.replace(self.part, self.target)
            self.part = None
            return self.target
        self.target.unlink(missing_ok=True)      # an earlier import's, of that list
        return None

    def __enter__(self) -> _SkipLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.spool.close()
        if self.part is not None:
            self.part.unlink(missing_ok=True)


_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(32), 127)}


class ListStore:
    """Monthly FIDE rating lists in one SQLite file (standard library ``sqlite3``).

    ``path``: the file (default :func:`default_store`); created when first written.
    Each (month, kind) is one list; importing it again replaces it in one
    transaction, and a file that cannot be read leaves the store as it was. Reading
    opens the file read-only; only an import writes, and only to a store, a new file
    or an empty one. Raises :class:`StoreError` for a file that is not a store (other
    tables, not SQLite) and for a damaged one (a value of the wrong type read back).
    """

    #: Seconds to wait for another process's import to end.
    timeout = 10.0

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_store()
        self._conn: sqlite3.Connection | None = None
        self._writable = False

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        """The connection: read-only unless ``create`` (an import), which makes the
        store (a new file, or an empty one). Never writes to a file that is not a store."""
        if self._conn is not None and (self._writable or not create):
            return self._conn
        self.close()
        if not self.path.exists():
            if not create:
                return None
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = None
        try:
            if create:
                conn = sqlite3.connect(self.path, isolation_level=None, timeout=self.timeout)
                self._check_tables(conn, True)
                conn.executescript(_SCHEMA)
            else:
                conn = self._open_read_only()
        except (sqlite3.Error, StoreError) as exc:
            if conn is not None:
                conn.close()
            if isinstance(exc, StoreError):
                raise
            what = "in use by another xl-fide" if "locked" in str(exc) else "not a list store"
            raise StoreError(f"{self.path}: {what} ({exc})") from None
        self._conn, self._writable = conn, create
        return conn

    def _open_read_only(self) -> sqlite3.Connection:
        """A read-only connection to a store. An import killed half-way leaves a journal
        that only a writer can roll back: then the file is opened for writing, never
        creating it nor a table, so that SQLite puts the store back as it was."""
        uri = self.path.resolve().as_uri()
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None,
                               timeout=self.timeout)
        try:
            self._check_tables(conn, False)
            return conn
        except sqlite3.OperationalError as exc:
            conn.close()
            if "readonly" not in str(exc):
                raise
        conn = sqlite3.connect(f"{uri}?mode=rw", uri=True, isolation_level=None,
                               timeout=self.timeout)
        try:
            self._check_tables(conn, False)
        except BaseException:
            conn.close()
            raise
        return conn

    def _check_tables(self, conn: sqlite3.Connection, empty_ok: bool) -> None:
        """Refuse a file whose tables are not a store's (an empty file or database is
        a store to be, for an import)."""
        names = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")
            if not name.startswith("sqlite_")]
        found = {name: tuple(col[1] for col in conn.execute(f"PRAGMA table_info('{name}')"))
                 for name in names if name.isidentifier()}
        if (not names and empty_ok) or (found == _TABLES and len(names) == len(_TABLES)):
            return
        held = f"its tables: {', '.join(sorted(names))}" if names else "it has no tables"
        raise StoreError(f"{self.path}: not a list store ({held}); name another file "
                         f"with {STORE_ENV}")

    def _checked(self, table: str, columns: str, shapes: str, row: Sequence[Any]) -> Any:
        """``row`` read from ``table``, each value of its shape (:data:`_SHAPES`), else a
        :class:`StoreError`: the store was damaged or edited by hand."""
        for column, shape, value in zip(columns.split(), shapes.split(), row):
            if not _SHAPES[shape](value):
                raise StoreError(f"{self.path}: the list store is damaged ({table}.{column} "
                                 f"holds {value!r}); import the lists again into a new store")
        return row

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> ListStore:
        return self

    def __del__(self) -> None:
        # a store dropped without close() (or ``with``) closes its connection: Python
        # 3.13's sqlite3 warns about a connection freed open (ResourceWarning), and the
        # CLI would print that warning in whatever command the collector ran in
        conn = getattr(self, "_conn", None)
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:
                pass

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading --------------------------------------------------------------

    @_sql_errors
    def lists(self) -> list[StoredList]:
        """Every stored list, by month then kind (standard, rapid, blitz)."""
        conn = self._connect(False)
        if conn is None:
            return []
        rows = [self._checked("lists", "month kind players skipped source imported",
                              "month kind count count text text", row)
                for row in conn.execute("SELECT month, kind, players, skipped, source, "
                                        "imported FROM lists")]
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
        if conn is None or not _storable(fide_id):
            return None
        row = conn.execute(
            "SELECT rating, games, k, birth_year, flag FROM ratings "
            "WHERE kind = ? AND month = ? AND fide_id = ?",
            (kind, _month_number(month), fide_id)).fetchone()
        if row is None:
            return None
        self._checked("ratings", "rating games k birth_year flag",
                      "count? count? count? count? text", row)
        return ListEntry(month, kind, fide_id, *row)

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
        if conn is None or not _storable(fide_id):
            return None
        row = conn.execute("SELECT name, federation, sex, title, birth_year, month FROM players "
                           "WHERE fide_id = ?", (fide_id,)).fetchone()
        if row is None:
            return None
        self._checked("players", "name federation sex title birth_year month",
                      "text text text text count? month", row)
        return dict(zip(("name", "federation", "sex", "title", "birth_year"), row[:5]),
                    month=_month_text(row[5]))

    @_sql_errors
    def peak(self, fide_id: int, kind: str, up_to: str) -> int | None:
        """The highest rating of the player on the stored lists of ``kind`` up to month
        ``up_to`` (for the 2400 rule of FIDE B.02 §8.3.3: K 10 for good)."""
        conn = self._connect(False)
        if conn is None or not _storable(fide_id):
            return None
        months = [_month_number(m) for m in self.months(kind) if m <= up_to]
        if not months:
            return None
        marks = ",".join("?" * len(months))
        row = conn.execute(f"SELECT MAX(rating) FROM ratings WHERE kind = ? AND month IN "
                           f"({marks}) AND fide_id = ?", (kind, *months, fide_id)).fetchone()
        if row is None:
            return None
        return self._checked("ratings", "rating", "count?", row)[0]

    # -- writing --------------------------------------------------------------

    @_sql_errors
    def import_file(self, path: str | os.PathLike[str], month: str | None = None,
                    time_control: str | None = None, progress: Any = None,
                    skipped_file: str | os.PathLike[str] | None = None) -> ImportResult:
        """Store a FIDE list (TXT, XML, a zip of one, or a CSV) as the list of ``month``.

        ``month`` "YYYY-MM", else taken from the TXT header's rating column (``JAN24``),
        which wins over FIDE's file name (``standard_jan24frl``; ``notes`` says when they
        differ; two-digit years 71-99 are 1971-1999); a combined list gives the standard,
        rapid and blitz lists of the month; a one-rating list is of the kind its name
        says (``standard_``...), else ``time_control``. ``progress(done, total)`` is
        called as bytes are read. Every list of that month and kind is replaced in one
        transaction: on any error the store is as it was. A list without one readable
        player with a rating or K (a header alone, every line unreadable) is refused.

        A line that cannot be read is skipped, counted and named (file, line, column,
        why; the id and name it gives): the first ones in the result's ``shown``, every
        one in ``skipped_file``, by default ``skipped-YYYY-MM-KIND[-KIND...].txt`` beside
        the store (written with the store, replaced at each import of that month and
        kind; removed when an import skips nothing). A ``skipped_file`` that is the list
        itself or the store is refused.
        Raises :class:`PlayerFileError` (the file) or :class:`StoreError` /
        :class:`InputError` (month or kind not known, or contradicting the file; a
        skipped file that cannot be written).
        """
        wanted = _month_number(month) if month is not None else None
        if time_control is not None and time_control not in RATING_KINDS:
            raise InputError(f"time control must be one of {', '.join(RATING_KINDS)}, "
                             f"got {time_control!r}")
        from xl_fide.lists._read import ListReader
        reader = ListReader(path, RATING_KINDS, lenient=True)
        with _SkipLog(reader, path, self.path, skipped_file) as log:
            return self._import(reader, log, wanted, time_control, progress, path)

    def _import(self, reader: ListReader, log: _SkipLog, wanted: int | None,
                time_control: str | None, progress: Any,
                path: str | os.PathLike[str]) -> ImportResult:
        records = reader.rows()
        first = next(records, None)
        number = self._month_for(reader, wanted)
        kinds = self._kinds_for(reader, first, time_control)
        if first is None:
            _nobody(reader)
        conn = self._connect(True)
        assert conn is not None
        log.open(f"skipped-{_month_text(number)}-{'-'.join(kinds)}.txt")
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
                    self._flush(conn, batch, people, reader.file)
                    if progress is not None:
                        progress(reader.read_bytes, reader.size)
            self._flush(conn, batch, people, reader.file)
            if not any(counts.values()):
                _nobody(reader)
            counts.update(conn.execute(     # a line repeated as it is was stored once
                "SELECT kind, COUNT(*) FROM ratings WHERE month = ? GROUP BY kind",
                (number,)).fetchall())
            imported = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
            for kind in kinds:
                conn.execute("INSERT OR REPLACE INTO lists VALUES (?, ?, ?, ?, ?, ?)",
                             (number, kind, counts[kind], reader.skipped,
                              os.path.basename(os.fspath(path)), imported))
            log.write(_month_text(number), kinds)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        done = log.done()
        if progress is not None:
            progress(reader.size or reader.read_bytes, reader.size)
        notes = (reader.month_note,) if reader.month_note else ()
        return ImportResult(_month_text(number), kinds, counts, reader.skipped, replaced, notes,
                            tuple(reader.shown), done)

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
    def _flush(conn: sqlite3.Connection, batch: list, people: list, file: str) -> None:
        before = conn.total_changes
        conn.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                         "ON CONFLICT DO NOTHING", batch)
        if conn.total_changes - before < len(batch):
            _repeated(conn, batch, people, file)
        conn.executemany(
            "INSERT INTO players VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (fide_id) DO UPDATE "
            "SET name = excluded.name, federation = excluded.federation, sex = excluded.sex, "
            "title = excluded.title, birth_year = excluded.birth_year, month = excluded.month "
            "WHERE excluded.month >= players.month", people)
        batch.clear()
        people.clear()


