"""One error family for xl-fide.

Every error the package raises on purpose is an :class:`XlFideError`. Errors caused
by bad input also subclass :class:`ValueError`, so callers that only know the
standard library can still catch them. Messages name the field and quote the value.
"""

from __future__ import annotations


class XlFideError(Exception):
    """Base class of every error xl-fide raises on purpose."""


class InputError(XlFideError, ValueError):
    """A value given to the engine is not acceptable (e.g. a rating of 2000.5)."""


class RuleError(XlFideError, ValueError):
    """No rule edition matches the request (unknown edition id, time control...)."""


_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(32), 127)}


class LocatedError(XlFideError, ValueError):
    """An error in a file, with where it is.

    Carries ``file`` (path or ``"<string>"``), 1-based ``line`` and ``column``
    (``None`` when not known), ``field`` (the field or column name, if any) and
    ``message`` (what was expected). ``str(err)`` is ``"FILE:LINE:COLUMN: MESSAGE"``.
    """

    def __init__(self, message: str, file: str | None = None,
                 line: int | None = None, column: int | None = None,
                 field: str | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file or "<string>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        # one line: control characters of a name read from a file (a zip member
        # called "\nplayers.csv") are shown escaped
        return f"{where}: {self.message}".translate(_CONTROLS)


class TrfError(LocatedError):
    """A Tournament Report File cannot be read (TRF16 / TRF-2026, FIDE C.04 Annex 2)."""


class PlayerFileError(LocatedError, InputError):
    """A player-data file (FIDE rating list TXT/XML, CSV) cannot be read."""


class WorkbookError(XlFideError, ValueError):
    """A workbook cannot be read back as a cross-table (missing sheet, bad cell...)."""
