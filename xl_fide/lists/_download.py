"""The download of FIDE's monthly list files into the store."""

from __future__ import annotations

import datetime as _dt
import http.client
import os
import re
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xl_fide.errors import DownloadError, XlFideError
from xl_fide.lists._model import RATING_KINDS
from xl_fide.lists._months import _MONTHS, _month_number, month_of_date
from xl_fide.lists._read import _zip_member
from xl_fide.lists._store import ImportResult, ListStore

__all__ = ["FIDE_DOWNLOADS", "DownloadError", "download_lists", "list_file_name"]

# --- download ------------------------------------------------------------------------

#: Where FIDE publishes its rating-list files (ratings.fide.com/download_lists.phtml):
#: one zip a month and a list, ``standard_jan24frl.zip``, ``rapid_jan24frl.zip``,
#: ``blitz_jan24frl.zip`` (the TXT list inside).
FIDE_DOWNLOADS = "https://ratings.fide.com/download/"
#: The largest download accepted (FIDE's monthly zips are a few tens of MB).
MAX_DOWNLOAD = 1 << 29



def list_file_name(kind: str, month: str) -> str:
    """FIDE's file name of a monthly list: ``list_file_name("rapid", "2024-01") ==
    "rapid_jan24frl.zip"``."""
    number = _month_number(month)
    return f"{kind}_{_MONTHS[number % 100 - 1]}{number // 100 % 100:02d}frl.zip"


def _check_url(url: str) -> None:
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    local = parts.hostname in ("127.0.0.1", "localhost", "::1")
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        raise DownloadError(f"{url}: only https:// addresses are used (http:// only for "
                            "this computer)")


def _fetch(url: str, part: Path, bar: Any, timeout: float) -> None:
    """Download ``url`` to ``part``, resuming what ``part`` already holds; check the size.
    Any broken answer (status line, headers, body) is a :class:`DownloadError`; only a
    body of announced size that broke off is resumable."""
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
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
        raise DownloadError(f"{url}: cannot download ({_reason(exc)})") from None
    with response:
        total = _expected_size(response, have)
        if total is not None and total > MAX_DOWNLOAD:
            raise DownloadError(f"{url}: {total} bytes, more than {MAX_DOWNLOAD}, the limit "
                                "for a list download")
        if response.status != 206:
            have = 0                # the server sent the whole file again
        done = _receive(url, response, part, have, total, bar)
    if total is not None and done != total:
        raise DownloadError(f"{url}: {done} of {total} bytes received; run the same "
                            "command again to resume", resumable=True)


def _receive(url: str, response: Any, part: Path, have: int, total: int | None,
             bar: Any) -> int:
    """Append the body to ``part`` (after ``have`` bytes); the bytes held at the end."""
    done = have
    try:
        with open(part, "ab" if have else "wb") as out:
            while chunk := response.read(1 << 16):
                done += len(chunk)
                if total is None and done > MAX_DOWNLOAD:
                    raise DownloadError(f"{url}: more than {MAX_DOWNLOAD} bytes, the limit "
                                        "for a list download")
                if total is not None and done > total:
                    raise DownloadError(f"{url}: more bytes than announced ({total})")
                out.write(chunk)
                bar(done, total)
    except DownloadError:
        raise
    except (OSError, ValueError, http.client.HTTPException) as exc:
        if total is None:           # no size to check a resumed download against
            raise DownloadError(f"{url}: the download broke off after {done} bytes "
                                f"({_reason(exc)}); nothing kept") from None
        raise DownloadError(f"{url}: the download broke off after {done} bytes "
                            f"({_reason(exc)}); run the same command again to resume",
                            resumable=True) from None
    return done


def _reason(exc: BaseException) -> str:
    """What went wrong, short (a broken answer's text quoted, at most 80 characters)."""
    if isinstance(exc, http.client.HTTPException):
        text = str(exc)
        name = type(exc).__name__
        return f"a broken answer from the server: {name} {text[:80]!r}" if text else (
            f"a broken answer from the server: {name}")
    return str(getattr(exc, "reason", exc))


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
    """The downloaded zip: its members within the list budgets (sizes and ratios, from
    its directory, before a byte is inflated), then its CRCs."""
    try:
        with zipfile.ZipFile(path) as archive:
            _zip_member(archive, url)
            bad = archive.testzip()
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError) as exc:
        if isinstance(exc, XlFideError):
            raise
        raise DownloadError(f"{url}: not a whole zip file ({exc}); removed, download it "
                            "again") from None
    if bad is not None:
        raise DownloadError(f"{url}: {bad} in the zip is damaged (bad CRC); removed, "
                            "download it again")


def download_lists(month: str | None = None, kinds: Sequence[str] = RATING_KINDS, *,
                   base_url: str = FIDE_DOWNLOADS, store: ListStore | None = None,
                   progress: Any = None, timeout: float = 60.0
                   ) -> list[tuple[str, ImportResult]]:
    """Download FIDE's monthly list files of ``month`` (default: this month, UTC) for
    each of ``kinds`` and import them into ``store``.

    Files are ``base_url + list_file_name(kind, month)`` over HTTPS (plain HTTP only to
    this computer, for tests). A download of announced size that breaks off is kept
    as ``NAME.part`` next to the store and resumed next time (HTTP Range); its size is
    checked against the server's, the zip's members against the list budgets (before
    inflating any) and its CRCs before the import. Any other failure (a broken answer,
    a damaged zip, a list that cannot be imported) leaves no file behind. ``progress(label)`` returns a
    ``(done, total)`` callback (see :class:`Progress`). Returns (url, result) pairs.
    Raises :class:`DownloadError` (one line: the address and what went wrong).
    """
    if store is None:               # a store of its own: closed when done
        with ListStore() as own:
            return download_lists(month, kinds, base_url=base_url, store=own,
                                  progress=progress, timeout=timeout)
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
        results.append((url, _download_one(store, url, folder / name, kind, month,
                                           progress, timeout)))
    return results


def _download_one(store: ListStore, url: str, target: Path, kind: str, month: str,
                  progress: Any, timeout: float) -> ImportResult:
    """Fetch ``url`` to ``target`` (through ``target.part``), check it and import it.
    On failure nothing is left but a ``.part`` that can be resumed."""
    name = target.name
    part = target.with_name(name + ".part")
    try:
        bar = progress(f"downloading {name}") if progress else (lambda done, total: None)
        try:
            _fetch(url, part, bar, timeout)
        finally:
            getattr(bar, "done", lambda: None)()
        _check_zip(part, url)
        os.replace(part, target)
        bar = progress(f"importing {name}") if progress else None
        try:
            return store.import_file(target, month, kind, bar)
        finally:
            getattr(bar, "done", lambda: None)()
    except BaseException as exc:
        keep = isinstance(exc, KeyboardInterrupt) or getattr(exc, "resumable", False)
        if not keep:
            part.unlink(missing_ok=True)
        raise
    finally:
        target.unlink(missing_ok=True)
