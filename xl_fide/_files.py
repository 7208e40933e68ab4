"""The one way xl-fide writes a file: whole or not at all, never over a file by surprise.

:func:`write_atomic` writes the bytes to a hidden temporary file in the target's
directory, flushes it to disk, then puts it in place in one step: without ``force``
by a hard link (the target is created exclusively, so of two writers racing for the
same new name one wins and the other gets :class:`OutputExistsError`), with
``force`` by a rename over the old file. An input file is never the target. A
temporary file is removed on any error and on SIGTERM/SIGINT while writing; a
write error (a full disk) is one :class:`OutputError` line.
"""

from __future__ import annotations

import errno
import os
import secrets
import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, Callable, Iterator, Sequence

from xl_fide.errors import OutputError, OutputExistsError

__all__ = ["OutputError", "OutputExistsError", "check_output", "write_atomic"]






_live: set[str] = set()          # temporary files being written, removed on a signal


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _on_signal(previous: dict[int, Any]) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        for tmp in list(_live):
            _remove(tmp)
        _live.clear()
        old = previous.get(signum, signal.SIG_DFL)
        if callable(old):
            old(signum, frame)           # e.g. KeyboardInterrupt for SIGINT
            return
        signal.signal(signum, old if old is not None else signal.SIG_DFL)
        os.kill(os.getpid(), signum)     # the default action: end with that signal
    return handler


@contextmanager
def _cleanup_on_signals() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    sigs = [signal.SIGTERM, signal.SIGINT]
    previous: dict[int, Any] = {}
    for s in sigs:
        previous[s] = signal.getsignal(s)
    handler = _on_signal(previous)
    for s in sigs:
        signal.signal(s, handler)
    try:
        yield
    finally:
        for s in sigs:
            signal.signal(s, previous[s] if previous[s] is not None else signal.SIG_DFL)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_output(path: str | os.PathLike[str], *, force: bool = False,
                 inputs: Sequence[str | os.PathLike[str]] = ()) -> Path:
    """Check that ``path`` can be written before any work is done.

    Raises :class:`OutputError` when ``path`` is one of ``inputs``, empty, not a
    regular file, or in a directory that does not exist; :class:`OutputExistsError`
    when it exists and ``force`` is false.
    """
    out = Path(path)
    if str(path) in ("", "."):
        raise OutputError("the output file name is empty")
    for src in inputs:
        if _same_file(out, Path(src)):
            raise OutputError(f"{out}: refusing to overwrite the input file")
    if out.exists() and not out.is_file():
        raise OutputError(f"{out}: not a regular file (a directory or a device): choose a file name")
    if out.exists() and not force:
        raise OutputExistsError(f"{out}: file exists")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"{parent}: no such directory")
    return out


#: how a temporary file is created: exclusively, never through a symbolic link, not
#: inherited by a child process, binary on Windows
_CREATE = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
           | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _create_temp(directory: Path, name: str) -> tuple[int, str]:
    """(fd, path) of a new hidden file beside the target, created with mode 0o666 so the
    system applies the umask (or the directory's default ACL) exactly as to a file a
    plain ``open(path, "w")`` creates -- not mkstemp's 0600."""
    for _ in range(100):
        tmp = os.path.join(directory, f".{name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(tmp, _CREATE, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(directory))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def _put_in_place(tmp: str, out: Path, force: bool) -> None:
    if force:
        os.replace(tmp, out)
        return
    try:
        os.link(tmp, out)                # exclusive: fails if the name exists
    except FileExistsError:
        raise OutputExistsError(f"{out}: file exists") from None
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS):
            raise
        # no hard links here: reserve the name exclusively, then rename over the placeholder
        try:
            fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            raise OutputExistsError(f"{out}: file exists") from None
        os.close(fd)
        _live.add(str(out))
        try:
            os.replace(tmp, out)
        finally:
            _live.discard(str(out))
    else:
        _remove(tmp)


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, force: bool = False,
                 inputs: Sequence[str | os.PathLike[str]] = (),
                 encoding: str = "utf-8") -> Path:
    """Write ``data`` (bytes, or text encoded with ``encoding``, newlines as given) to
    ``path``, whole or not at all; the new file gets the mode a plain ``open()`` gives
    a new file (0o666 less the umask, or the directory's default ACL).

    Raises :class:`OutputExistsError` when ``path`` exists (also when another writer
    created it meanwhile) and ``force`` is false; :class:`OutputError` for an input
    file, a bad name or a write error such as a full disk. On an error or a SIGTERM /
    SIGINT nothing is left behind.
    """
    out = check_output(path, force=force, inputs=inputs)
    payload = data.encode(encoding) if isinstance(data, str) else bytes(data)
    directory = out.parent if str(out.parent) else Path(".")
    with _cleanup_on_signals():
        try:
            fd, tmp = _create_temp(directory, out.name)
        except OSError as e:
            raise OutputError(f"{out}: cannot write: {e.strerror or e}") from None
        _live.add(tmp)
        try:
            try:
                _write_all(fd, payload)
            finally:
                os.close(fd)
            for src in inputs:                 # an input linked in meanwhile
                if _same_file(out, Path(src)):
                    raise OutputError(f"{out}: refusing to overwrite the input file")
            _put_in_place(tmp, out, force)
        except OutputError:
            raise
        except OSError as e:
            raise OutputError(f"{out}: cannot write: {e.strerror or e}") from None
        finally:
            _remove(tmp)
            _live.discard(tmp)
    return out
