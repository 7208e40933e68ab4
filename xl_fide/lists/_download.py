"""The download of FIDE's monthly list files into the store."""

from __future__ import annotations

import datetime as _dt
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xl_fide.errors import XlFideError
from xl_fide.lists._model import RATING_KINDS
from xl_fide.lists._months import _MONTHS, _month_number, month_of_date
from xl_fide.lists._store import ImportResult, ListStore

__all__ = ["FIDE_DOWNLOADS", "DownloadError", "download_lists", "list_file_name"]

# --- download ------------------------------------------------------------------------

#: Where FIDE publishes its rating-list files (ratings.fide.com/download_lists.phtml):
#: one zip a month and a list, ``standard_jan24frl.zip``, ``rapid_jan24frl.zip``,
#: ``blitz_jan24frl.zip`` (the TXT list inside).
FIDE_DOWNLOADS = "https://ratings.fide.com/download/"
#: The largest download accepted (FIDE's monthly zips are a few tens of MB).
MAX_DOWNLOAD = 1 << 29

class DownloadError(XlFideError, ValueError):
    """A list could not be downloaded (not published, no network, a damaged file)."""


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


