"""Player lists of any format: FIDE's TXT (:mod:`._txt`) and XML (:mod:`._xml`)
downloads, xl-fide's CSV (:mod:`._csv`), or a zip of one, told from the content;
one pass over a file (:class:`ListReader`) and the players of an event
(:func:`read_player_file`).

A blank rating, or a rating of 0, means "no rating" (``None``); so does a K of 0
and a birth year of 0. Every problem is a :class:`PlayerFileError` (an
:class:`~xl_fide.errors.InputError`) naming the file, the line and the field and
quoting the value. This module imports neither xlwings nor openpyxl.
"""

from __future__ import annotations

import io
import os
from operator import attrgetter
from collections.abc import Iterable, Iterator
from typing import Any

from xl_fide.errors import InputError, PlayerFileError, XlFideError
from xl_fide._filekind import wrong_kind_of_stream
from xl_fide._names import normalise_name
from xl_fide.lists._budget import (_CHUNK, _RATIO_FLOOR, BUDGETS, MAX_LIST_BYTES, MAX_ZIP_RATIO,
                                  _cannot_read, _open_source)
from xl_fide.lists._model import RATING_KINDS, PlayerData, PlayerDirectory
from xl_fide.lists._months import month_of
from xl_fide.lists._scan import _Scan, _Wanted, _check_kind, _hint, _stream
from xl_fide.lists._txt import ListRow, _is_txt_header, _row_of, _scan_txt, read_fide_txt

# The XML and CSV readers (defusedxml, csv) and zipfile are imported when a file needs
# them: a TXT list does not (issue 23, start-up).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import zipfile

    from xl_fide.lists._csv import read_player_csv
    from xl_fide.lists._xml import read_fide_xml
_LAZY = {"read_player_csv": "xl_fide.lists._csv", "read_fide_xml": "xl_fide.lists._xml"}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(module), name)

__all__ = [
    "PlayerData",
    "PlayerDirectory",
    "PlayerFileError",
    "RATING_KINDS",
    "normalise_name",
    "read_fide_txt",
    "read_fide_xml",
    "read_player_csv",
    "read_player_file",
    "ListReader",
    "BUDGETS",
    "month_of",
]

# --- any of them ------------------------------------------------------------------

_BOM = b"\xef\xbb\xbf"


def _scan_stream(raw, scan: _Scan) -> Iterator[dict[str, PlayerData]]:
    """Tell the format from the first bytes of a binary stream; scan it."""
    budget = _stream(raw, scan, max_line=None, buffered=False)
    head = budget.read(_CHUNK)
    budget.unread(head)
    start = head[:1 << 16].removeprefix(_BOM).lstrip()
    if start.startswith(b"<"):
        from xl_fide.lists._xml import _scan_xml
        return _scan_xml(io.BufferedReader(budget, _CHUNK), scan)
    first = start.split(b"\n", 1)[0].split(b"\r", 1)[0].decode("latin-1")
    budget.limit_lines(head)
    if _is_txt_header(first):
        return _scan_txt(budget, scan)
    from xl_fide.lists._csv import _scan_csv
    return _scan_csv(io.BufferedReader(budget, _CHUNK), scan)


def _zip_errors() -> tuple[type[BaseException], ...]:
    """What a damaged zip raises (zipfile imported only when there is one)."""
    import zipfile
    import zlib
    return (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError,
            EOFError, zlib.error)


def _zip_member(archive: zipfile.ZipFile, file: str) -> zipfile.ZipInfo:
    """The one list inside a zip, every member within the budgets (size and compression
    ratio, checked on the zip's directory before a byte is inflated)."""
    members = [info for info in archive.infolist()
               if not info.is_dir() and info.filename.lower().endswith((".txt", ".xml", ".csv"))]
    if len(members) != 1:
        names = [info.filename for info in archive.infolist()][:10]
        raise PlayerFileError(
            f"expected one .txt, .xml or .csv file in the zip, found {names!r}", file=file)
    info = members[0]
    if info.flag_bits & 0x1:            # APPNOTE 4.4.4, general purpose bit 0
        raise PlayerFileError(f"{info.filename} is encrypted in the zip (a password is "
                              "needed): unpack it, or give the list itself", file=file)
    others = [other for other in archive.infolist() if other is not info]
    for member in [info, *others]:
        _member_budget(member, f"{file}!{member.filename}")
    total = sum(member.file_size for member in archive.infolist())
    if total > MAX_LIST_BYTES:
        raise PlayerFileError(f"{total} bytes unpacked in all, more than {MAX_LIST_BYTES}, "
                              "the limit for a player list", file=file)
    return info


def _member_budget(info: zipfile.ZipInfo, where: str) -> None:
    if info.file_size > MAX_LIST_BYTES:
        raise PlayerFileError(f"{info.file_size} bytes unpacked, more than {MAX_LIST_BYTES}, "
                              "the limit for a player list", file=where)
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > _RATIO_FLOOR and ratio > MAX_ZIP_RATIO:
        raise PlayerFileError(
            f"compression ratio {ratio:.0f}:1, above the limit {MAX_ZIP_RATIO}:1 for a player "
            "list (possible zip bomb)", file=where)


class ListReader:
    """One pass over a player list file (FIDE TXT or XML, a CSV, or a zip of one).

    ``kinds``: the time controls to build (:data:`RATING_KINDS`); iterating gives
    ``{kind: PlayerData}`` per player kept. ``only``: (FIDE id, name) pairs of the
    players to keep (None keeps everyone); ``lenient``: skip unreadable lines of
    anyone (else only other players' are counted, and one of a kept player raises).
    After iteration, ``skipped`` counts the unreadable lines, ``shown`` names the first
    of those skipped by ``lenient`` (``FILE:LINE:COLUMN: column: why (the line's id,
    name)``, at most :data:`~xl_fide.lists._scan.SHOWN_SKIPPED`), ``month`` is the
    list's month (``"YYYY-MM"``: its header's, a TXT list's month column such as
    ``MAY25``, which wins over the file name's, ``standard_may25frl``; or None;
    ``month_note`` says when the two differ), ``layout``
    "combined", "single", "xml" or "csv", ``hint`` the time control the file name
    gives. ``read_bytes``/``size`` measure progress. Budgets: :data:`BUDGETS`.
    Raises :class:`PlayerFileError` (one line: file, line, what).
    """

    def __init__(self, path: str | os.PathLike[str] | bytes, kinds: Iterable[str] = ("standard",),
                 *, only: Iterable[tuple[int | None, str | None]] | None = None,
                 lenient: bool = False) -> None:
        self.kinds = tuple(_check_kind(k) for k in kinds)
        self._path = path
        if isinstance(path, (bytes, bytearray, memoryview)):
            self.file = "<bytes>"
        elif isinstance(path, (str, os.PathLike)):
            self.file = str(os.fspath(path))
        else:
            raise InputError(f"expected a path or bytes, got {path!r}")
        self.scan = _Scan(self.file, self.kinds, _Wanted(only) if only is not None else None,
                          lenient, hint=_hint(self.file), name_month=month_of(os.path.basename(
                              self.file)), notes=[])

    # what the scan has found so far, read through (the class docstring says what each is)
    skipped = property(attrgetter("scan.skipped"))
    layout = property(attrgetter("scan.layout"))
    hint = property(attrgetter("scan.hint"))
    read_bytes = property(attrgetter("scan.read_bytes"))
    size = property(attrgetter("scan.size"))

    @property
    def shown(self) -> list[str]:
        return list(self.scan.shown)

    @property
    def month(self) -> str | None:
        return self.scan.month or self.scan.name_month

    @property
    def month_note(self) -> str | None:
        """One line when the file name and the header give different months."""
        scan = self.scan
        if scan.month and scan.name_month and scan.month != scan.name_month:
            return (f"{self.file}: the file name says {scan.name_month}, the list's header "
                    f"{scan.month}: the header's month is used")
        return None

    @property
    def notes(self) -> list[str]:
        return list(self.scan.notes or ())

    def rows(self) -> Iterator[ListRow]:
        """The players as store rows ``(fide_id, name, federation, sex, title,
        birth_year, flag, {kind: (rating, games, k)})``; for a TXT list, much faster
        than building each PlayerData (lenient: bad lines counted in ``skipped``)."""
        self.scan.rows = True
        for item in self._records():
            yield item if isinstance(item, tuple) else _row_of(item)

    def __iter__(self) -> Iterator[dict[str, PlayerData]]:
        self.scan.rows = False
        return self._records()

    def _records(self) -> Iterator[Any]:
        scan = self.scan
        try:
            with _open_source(self._path, lambda _s: False) as (stream, _file):
                wrong = wrong_kind_of_stream(stream, "list")
                if wrong is not None:       # a PDF, .ods, .xls, web page, .xlsx...
                    raise PlayerFileError(wrong, file=scan.file)
                # a member first, or the end record alone (an empty zip)
                is_zip = stream.read(4) in (b"PK\x03\x04", b"PK\x05\x06")
                stream.seek(0)
                if not is_zip:
                    try:
                        scan.size = os.fstat(stream.fileno()).st_size
                    except (OSError, AttributeError, io.UnsupportedOperation):
                        scan.size = len(stream.getbuffer()) if isinstance(
                            stream, io.BytesIO) else None
                    if scan.size is not None and scan.size > MAX_LIST_BYTES:
                        raise PlayerFileError(f"{scan.size} bytes, more than {MAX_LIST_BYTES}, "
                                              "the limit for a player list", file=scan.file)
                    yield from _scan_stream(stream, scan)
                    return
                import zipfile
                with zipfile.ZipFile(stream) as archive:
                    info = _zip_member(archive, scan.file)
                    scan.file = f"{self.file}!{info.filename}"
                    scan.hint = scan.hint or _hint(info.filename)
                    scan.name_month = scan.name_month or month_of(info.filename)
                    scan.size = info.file_size
                    with archive.open(info) as member:
                        yield from _scan_stream(member, scan)
        except XlFideError:
            raise
        except (OSError, ValueError) as exc:
            raise _cannot_read(scan.file, exc) from None
        except Exception as exc:
            if not isinstance(exc, _zip_errors()):
                raise
            raise PlayerFileError(f"cannot read the zip file: {exc}", file=scan.file) from None


def read_player_file(path: str | os.PathLike[str] | bytes, rating_kind: str = "standard",
                     *, only: Iterable[tuple[int | None, str | None]] | None = None
                     ) -> PlayerDirectory:
    """Return a :class:`PlayerDirectory` of the players in a FIDE list or a CSV.

    The format is told from the content: XML when it starts with ``<``, FIDE TXT
    when the first line is an ``ID Number  Name ...`` header, CSV otherwise. A
    zip holding one such file (as FIDE's downloads are) is opened. ``path`` may
    also be the file's bytes. ``rating_kind`` as in :func:`read_fide_txt`: the
    event's time control (FIDE R&B §7.2.1: a standard rating is the fallback).
    ``only``: the event's players as (FIDE id, name) pairs: the file is streamed
    and only their records are built (by FIDE id; by name for a player without
    one); a line of another player that cannot be read is counted in the
    directory's ``skipped`` and ``notes``, one of an event player raises.
    Budgets (file size, zip ratio, line length, blank lines): :data:`BUDGETS`.
    Raises :class:`PlayerFileError` naming the file and line.
    """
    kind = _check_kind(rating_kind)
    reader = ListReader(path, (kind,), only=only)
    players = [rec[kind] for rec in reader]
    notes = reader.notes
    if reader.skipped:
        lines = "line" if reader.skipped == 1 else "lines"
        notes.append(f"{reader.file}: {reader.skipped} unreadable {lines} skipped "
                     "(not of this event's players)")
    try:
        return PlayerDirectory(players, skipped=reader.skipped, notes=notes)
    except PlayerFileError:
        raise
    except InputError as exc:
        raise PlayerFileError(str(exc), file=reader.file) from None
