"""What kind of file a path holds, from its first bytes, and what to do with the wrong kind.

xl-fide reads two kinds of input: a TRF (FIDE Tournament Report File, C.04 Annex 2:
plain text) and an ``.xlsx`` workbook (Office Open XML, a zip). Users also give it an
OpenDocument spreadsheet, an old ``.xls``, a PDF or a saved web page; every such file
gets one line naming what it is and what to do, instead of a parser's complaint about
missing ``001`` records.

:func:`sniff` reads at most :data:`SNIFF_BYTES` bytes from the start (plus, for a zip,
its central directory through :mod:`zipfile`, never a member's content) and returns a
:class:`FileKind`. :func:`wrong_kind` returns the one-line message for a file that is
not the expected kind, or ``None`` when it may be.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from typing import BinaryIO, Literal

__all__ = ["SNIFF_BYTES", "FileKind", "sniff", "sniff_bytes", "sniff_stream", "wrong_kind",
           "wrong_kind_of_bytes", "wrong_kind_of_stream"]

#: How many bytes from the start of a file are looked at.
SNIFF_BYTES = 8192

Expected = Literal["trf", "workbook", "list"]


@dataclass(frozen=True)
class FileKind:
    """``kind``: ``"text"``, ``"xlsx"``, ``"xlsm"``, ``"xlsb"``, ``"ods"``, ``"odt"``,
    ``"docx"``, ``"zip"``, ``"bad-zip"``, ``"xls"`` (OLE2, also old .doc), ``"xml-2003"``,
    ``"pdf"``, ``"html"``, ``"rtf"``, ``"archive"`` (gzip, 7z, rar, bzip2, xz),
    ``"empty"`` or ``"binary"``; ``what``: the phrase naming it for a user."""

    kind: str
    what: str


_WHAT = {
    "text": "a text file",
    "xlsx": "an Excel workbook (.xlsx)",
    "xlsm": "a macro-enabled Excel workbook (.xlsm)",
    "xlsb": "an Excel binary workbook (.xlsb)",
    "ods": "an OpenDocument spreadsheet (.ods)",
    "odt": "an OpenDocument text document (.odt)",
    "docx": "a Word document (.docx)",
    "zip": "a zip archive",
    "bad-zip": "a damaged zip file (a damaged .xlsx?)",
    "xls": "an old Excel 97-2003 file (.xls; OLE2 compound document)",
    "xml-2003": "an Excel 2003 XML spreadsheet",
    "pdf": "a PDF document",
    "html": "an HTML page (a saved web page?)",
    "rtf": "an RTF document",
    "archive": "a compressed archive",
    "empty": "an empty file",
    "binary": "a binary file",
}

_ADVICE = {
    "xlsb": "save it as .xlsx (Excel Workbook) in Excel or LibreOffice",
    "ods": "save it as .xlsx in LibreOffice or Excel",
    "xls": "save it as .xlsx (Excel Workbook) in Excel or LibreOffice",
    "xml-2003": "save it as .xlsx (Excel Workbook) in Excel or LibreOffice",
    "zip": "unpack it first",
    "archive": "unpack it first",
    "bad-zip": "open and save it again in Excel or LibreOffice, or use a backup copy",
    "html": "download the TRF file itself, not the page that shows it",
    "pdf": "export the TRF (FIDE report file) from the pairing program",
    "empty": "export the file again",
}

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "xls"),
    (b"%PDF-", "pdf"),
    (b"{\\rtf", "rtf"),
    (b"\x1f\x8b", "archive"),
    (b"7z\xbc\xaf\x27\x1c", "archive"),
    (b"Rar!\x1a\x07", "archive"),
    (b"BZh", "archive"),
    (b"\xfd7zXZ\x00", "archive"),
)


def _kind(kind: str) -> FileKind:
    return FileKind(kind, _WHAT[kind])


def _zip_kind(names: list[str], mimetype: bytes) -> str:
    if mimetype.startswith(b"application/vnd.oasis.opendocument.spreadsheet"):
        return "ods"
    if mimetype.startswith(b"application/vnd.oasis.opendocument.text"):
        return "odt"
    if "xl/workbook.bin" in names:
        return "xlsb"
    if "xl/workbook.xml" in names:
        return "xlsx"
    if "word/document.xml" in names:
        return "docx"
    return "zip"


def _sniff_zip(source: str | os.PathLike[str] | io.BytesIO) -> FileKind:
    import zipfile   # only for a zip: reading a TRF does not import it
    import zlib
    try:
        with zipfile.ZipFile(source) as zf:
            names = zf.namelist()
            mimetype = b""
            if "mimetype" in names and zf.getinfo("mimetype").file_size <= 200:
                mimetype = zf.read("mimetype")
            kind = _zip_kind(names, mimetype)
            if kind == "xlsx" and "[Content_Types].xml" in names:
                info = zf.getinfo("[Content_Types].xml")
                if info.file_size <= 1 << 20 and b"macroEnabled" in zf.read(info):
                    kind = "xlsm"
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, KeyError, ValueError,
            NotImplementedError, RuntimeError, EOFError, zlib.error):
        return _kind("bad-zip")
    return _kind(kind)


#: Control bytes of a binary file (not tab, line ends, form feed, DOS EOF), counted in C.
_CONTROL_BYTES = bytes(b for b in range(32) if b < 9 or 13 < b < 32 and b != 26)


def _text_kind(head: bytes) -> str:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with a byte order mark
        try:
            head = head.decode("utf-16", errors="ignore").encode("utf-8")
        except UnicodeError:  # pragma: no cover - errors are ignored
            return "binary"
    lower = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if lower.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or (
            lower.startswith(b"<") and b"<html" in lower):
        return "html"
    if lower.startswith(b"<?xml") and b"urn:schemas-microsoft-com:office:spreadsheet" in lower:
        return "xml-2003"
    # more than 10 % control bytes (NUL included; not tab, line ends, form feed, DOS EOF)
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if head and controls * 10 > len(head):
        return "binary"
    return "text"


def sniff_bytes(data: bytes) -> FileKind:
    """Return the :class:`FileKind` of a file's content (all of it, or at least its start)."""
    head = bytes(data[:SNIFF_BYTES])
    if not head:
        return _kind("empty")
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _sniff_zip(io.BytesIO(bytes(data)))
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return _kind(kind)
    return _kind(_text_kind(head))


def sniff_stream(stream: BinaryIO) -> FileKind:
    """Return the :class:`FileKind` of a seekable binary stream's content from its current
    position, which it is left at. Raises OSError when the stream cannot be read."""
    start = stream.tell()
    try:
        head = stream.read(SNIFF_BYTES)
        if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
            stream.seek(start)
            return _sniff_zip(stream)   # type: ignore[arg-type]  # zipfile takes a stream
        return sniff_bytes(head)
    finally:
        stream.seek(start)


def sniff(path: str | os.PathLike[str]) -> FileKind:
    """Return the :class:`FileKind` of the file at ``path`` (reads its first bytes).

    Raises OSError when the file cannot be opened or read.
    """
    with open(path, "rb") as fh:
        head = fh.read(SNIFF_BYTES)
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _sniff_zip(path)
    return sniff_bytes(head)


#: For a player list (FIDE TXT or XML, a CSV, or a zip of one) of another kind.
_LIST_ADVICE = {
    "pdf": "download the list itself (TXT or XML) from ratings.fide.com",
    "html": "download the list file itself, not the page that shows it",
    "archive": "unpack it first",
}


def _list_message(found: FileKind) -> str | None:
    if found.kind in ("text", "zip", "bad-zip", "empty"):  # the list reader says what is wrong
        return None
    advice = _LIST_ADVICE.get(found.kind, "save the sheet as CSV (comma-separated) in Excel or "
                                          "LibreOffice")
    return (f"this is {found.what}, not a player list (FIDE TXT or XML, CSV, or a zip of "
            f"one); {advice}")


def _message(found: FileKind, expected: Expected) -> str | None:
    if expected == "list":
        return _list_message(found)
    if expected == "trf":
        if found.kind == "text":
            return None
        if found.kind in ("xlsx", "xlsm"):
            return f"this is {found.what}, not a TRF text file; give it a name ending in .xlsx"
        advice = _ADVICE.get(found.kind, "export the TRF (FIDE report file) from the pairing program")
        return f"this is {found.what}, not a TRF text file; {advice}"
    if found.kind in ("xlsx", "xlsm"):
        return None
    if found.kind == "text":
        return (f"this is {found.what}, not an .xlsx workbook (a TRF?); "
                "give it a name ending in .trf")
    advice = _ADVICE.get(found.kind, "save it as .xlsx in Excel or LibreOffice")
    return f"this is {found.what}, not an .xlsx workbook; {advice}"


def wrong_kind(path: str | os.PathLike[str], expected: Expected) -> str | None:
    """One line saying what the file at ``path`` is and what to do, when it is not the
    ``expected`` kind (``"trf"``: a text file; ``"workbook"``: an .xlsx/.xlsm; ``"list"``:
    a player list, text or a zip); else None.

    Example: ``"this is an OpenDocument spreadsheet (.ods), not an .xlsx workbook; save it
    as .xlsx in LibreOffice or Excel"``. Raises OSError when the file cannot be read.
    """
    return _message(sniff(path), expected)


def wrong_kind_of_bytes(data: bytes, expected: Expected) -> str | None:
    """As :func:`wrong_kind` for a file's content given as bytes."""
    return _message(sniff_bytes(data), expected)


def wrong_kind_of_stream(stream: BinaryIO, expected: Expected) -> str | None:
    """As :func:`wrong_kind` for a seekable binary stream (left where it was)."""
    return _message(sniff_stream(stream), expected)
