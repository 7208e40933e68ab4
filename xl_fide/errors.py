"""One error family for xl-fide: every exception class of the package is here.

Every error the package raises on purpose is an :class:`XlFideError`. Errors caused
by bad input also subclass :class:`ValueError`, so callers that only know the
standard library can still catch them. Messages name the field and quote the value.
The tree (the standard-library bases in brackets)::

    XlFideError
    ├── InputError [ValueError]           a value given is not acceptable
    │   ├── PeriodSpanError               events of more than one rating period
    │   ├── PeriodTimeControlError        events of more than one time control
    │   └── PlayerFileError               (also a LocatedError) a player-data file
    ├── RuleError [ValueError]            no rule edition matches
    ├── LocatedError [ValueError]         an error at FILE:LINE:COLUMN
    │   ├── TrfError                      a TRF cannot be read
    │   └── PlayerFileError
    ├── WorkbookError [ValueError]        a workbook cannot be read back
    ├── StoreError [ValueError]           the FIDE list store cannot be used
    ├── DownloadError [ValueError]        a FIDE list could not be downloaded
    ├── ArgumentError [ValueError]        a range of the wrong shape (LibreOffice host)
    ├── OutputError [OSError]             an output file cannot be written
    │   └── OutputExistsError [FileExistsError]   the output exists (the only one)
    ├── ExtensionError                    the LibreOffice extension cannot be built
    ├── BatchNotSupported [NotImplementedError]   the batch engine lacks this edition
    └── CliError                          a command-line problem, printed as one line

Three signals never leave the module that raises them (not errors of the package):
:class:`TooManyDigits` (a number past the digit budget, :mod:`xl_fide.rules.values`),
:class:`NotPlain` (a game the fast path of :mod:`xl_fide.rules.event` hands to its
general path) and :class:`FormulaErrorValue` (a formula's error value while working
out a cached value, :mod:`xl_fide.excel`).
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


class StoreError(XlFideError, ValueError):
    """The list store cannot be used (a month not stored, a file that is not a store)."""


class DownloadError(XlFideError, ValueError):
    """A list could not be downloaded (not published, no network, a damaged file).
    ``resumable``: the bytes received so far are kept as ``NAME.part`` to resume."""

    def __init__(self, message: str, *, resumable: bool = False) -> None:
        super().__init__(message)
        self.resumable = resumable


class PeriodSpanError(InputError):
    """The events do not belong to one rating period (FIDE B.02: one calendar month,
    by each event's end date) and pooling them was not asked for."""


class PeriodTimeControlError(InputError):
    """The events are of different time controls (standard, rapid, blitz): each has its
    own rating list (FIDE B.02 and its Rapid and Blitz chapter), so their games are
    never pooled into one new rating, unless one time control is given on purpose."""


class ArgumentError(XlFideError, ValueError):
    """A range of the wrong shape for its argument (what xlwings itself refuses)."""


class OutputError(XlFideError, OSError):
    """An output file cannot be written (no such directory, not a regular file, a
    full disk, the input file itself); nothing was left behind."""


class OutputExistsError(OutputError, FileExistsError):
    """The output file exists and ``force`` was not given; it was not touched (a TRF,
    a workbook, an extension, a report: the one "file exists" error)."""


class ExtensionError(XlFideError):
    """The LibreOffice extension cannot be built (no type library, no unoidl-write...)."""


class BatchNotSupported(XlFideError, NotImplementedError):
    """The batch path cannot apply this edition's rules (use ``rate_period``)."""


class CliError(XlFideError):
    """A problem the user can fix; printed as one line."""


class TooManyDigits(Exception):
    """A number past the digit budget (only its size is reported): a signal inside
    :mod:`xl_fide.rules.values`, turned into an :class:`InputError` there."""


class NotPlain(Exception):
    """A game whose half points are not an int 0..2: a signal inside
    :mod:`xl_fide.rules.event` (its fast path for plain ratings hands the event to the
    general path, which checks the game and names it in its error); never raised to a
    caller."""


class FormulaErrorValue(Exception):
    """A formula's error value (its text, ``#N/A``...) while a cached value is worked
    out: a signal inside :mod:`xl_fide.excel`, never raised to a caller."""
