"""The budgets of a player list (bytes, zip ratio, line length, blank lines) and the
opening of a source (a path, bytes or text) as a binary stream."""

from __future__ import annotations

import io
import os
from typing import Any, NoReturn, Union

from xl_fide.errors import InputError, PlayerFileError

Source = Union[str, bytes, bytearray, "os.PathLike[str]"]


# --- budgets ------------------------------------------------------------------

#: The most bytes a player list (a file, or one file inside a zip) may hold. FIDE's
#: combined TXT list is about 200 MB (1.2 million players); its XML about 600 MB.
MAX_LIST_BYTES = 1 << 30
#: The largest compression ratio of a zip member (FIDE's zips are below 20:1); a
#: member above it is refused before it is read (a "zip bomb").
MAX_ZIP_RATIO = 100
#: The longest line of a TXT or CSV list (FIDE's lines are about 160 characters),
#: and the most characters one XML field may hold.
MAX_LINE = 1 << 16
#: The most blank lines a list may hold (FIDE's have none or one at the end).
MAX_BLANK_LINES = 100_000
# Members smaller than this are never refused for their ratio.
_RATIO_FLOOR = 1 << 20
_CHUNK = 1 << 20
# The buffer of a list file: a TXT list's lines are cut from it in C (small enough to
# stay in the processor's cache).
_FILE_BUFFER = 1 << 18

#: Budgets of a player list, by name (documented in the README).
BUDGETS = {"bytes": MAX_LIST_BYTES, "zip_ratio": MAX_ZIP_RATIO, "line": MAX_LINE,
           "blank_lines": MAX_BLANK_LINES}


class _Budget(io.RawIOBase):
    """A binary stream that refuses to deliver more than ``limit`` bytes in all, or
    (with ``max_line``) more than ``max_line`` bytes without a line break.
    ``unread(data)`` puts bytes back (a format is told from the first chunk)."""

    def __init__(self, stream, file: str, limit: int = MAX_LIST_BYTES,
                 max_line: int | None = MAX_LINE) -> None:
        super().__init__()
        self._stream = stream
        self._file = file
        self._limit = limit
        self._max_line = max_line
        self._since_newline = 0
        self._pending = b""
        self.total = 0

    def readable(self) -> bool:
        return True

    def unread(self, data: bytes) -> None:
        self._pending = data + self._pending

    def limit_lines(self, head: bytes) -> None:
        """Bound the lines from now on, and those of ``head`` (bytes already read)."""
        self._max_line = MAX_LINE
        parts = head.replace(b"\r", b"\n").split(b"\n")
        self._since_newline = len(parts[-1])
        if max(map(len, parts)) > MAX_LINE:
            self.too_long()

    def too_long(self) -> NoReturn:
        raise PlayerFileError(f"a line longer than {MAX_LINE} bytes, the limit for a "
                              "player list", file=self._file)

    def read(self, size: int | None = -1) -> bytes:
        n = _CHUNK if size is None or size < 0 else size
        if self._pending:
            data, self._pending = self._pending[:n], self._pending[n:]
            return data
        data = self._stream.read(n)
        self._count(data, len(data))
        return data

    def line_source(self) -> io.BufferedReader | None:
        """The file under this budget when its lines can be read from it in C (a
        buffered file, nothing put back); :meth:`moved` then counts its bytes."""
        stream = self._stream
        return stream if type(stream) is io.BufferedReader and not self._pending else None

    def moved(self, count: int) -> None:
        """Count ``count`` bytes read from :meth:`line_source` (lines bounded there)."""
        self._count(b"", count, lines=False)

    def readinto(self, buffer) -> int:
        """Fill ``buffer`` straight from the stream (no bytes in between: a
        :class:`io.BufferedReader` over this stream reads as fast as over the file)."""
        if self._pending or not hasattr(self._stream, "readinto"):
            data = self.read(len(buffer))
            buffer[:len(data)] = data
            return len(data)
        got = self._stream.readinto(buffer) or 0
        self._count(memoryview(buffer)[:got], got)
        return got

    def _count(self, data, got: int, lines: bool = True) -> None:
        """Count ``got`` bytes just read (``data``: bytes or a memoryview of them)."""
        self.total += got
        if self.total > self._limit:
            raise PlayerFileError(f"larger than {self._limit} bytes, the limit for a player "
                                  "list", file=self._file)
        if self._max_line is not None and got and lines:
            # the last line break: looked for in the last bytes first
            end = bytes(data[-256:])
            cut = max(end.rfind(b"\n"), end.rfind(b"\r"))
            if cut >= 0:
                cut += got - len(end)
            elif got > len(end):
                whole = bytes(data)
                cut = max(whole.rfind(b"\n"), whole.rfind(b"\r"))
            self._since_newline = got - cut - 1 if cut >= 0 else self._since_newline + got
            if self._since_newline > self._max_line:
                self.too_long()


def _blank_budget(count: int, file: str, line: int) -> None:
    if count > MAX_BLANK_LINES:
        raise PlayerFileError(f"more than {MAX_BLANK_LINES} blank lines, the limit for a "
                              "player list", file=file, line=line)

def _cannot_read(file: str, exc: Exception) -> PlayerFileError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return PlayerFileError(f"cannot read the file: {reason}", file=file)


def _has_newline(text: str) -> bool:
    return "\n" in text or "\r" in text


class _open_source:
    """``with _open_source(source, is_text) as (stream, name)``: a binary stream of a
    path, of bytes, or of text (a ``str`` for which ``is_text`` is true)."""

    def __init__(self, source: Source, is_text) -> None:
        self._handle: Any = None
        self._stream: Any
        if isinstance(source, (bytes, bytearray, memoryview)):
            self._stream, self._file = io.BytesIO(bytes(source)), "<bytes>"
        elif isinstance(source, str) and is_text(source):
            self._stream, self._file = io.BytesIO(source.encode("utf-8")), "<string>"
        elif isinstance(source, (str, os.PathLike)):
            self._file = str(os.fspath(source))
            try:
                self._stream = self._handle = open(source, "rb", buffering=_FILE_BUFFER)
            except (OSError, ValueError) as exc:
                raise _cannot_read(self._file, exc) from exc
        else:
            raise InputError(f"expected a path, text or bytes, got {source!r}")

    def __enter__(self):
        return self._stream, self._file

    def __exit__(self, *exc) -> None:
        if self._handle is not None:
            self._handle.close()

