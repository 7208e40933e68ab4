"""What LibreOffice Calc passes to an add-in function -> what xlwings passes, and the
result back. Runs inside LibreOffice's own Python (standard library only).

Arguments: an optional one (a Python default) is declared ``any`` in the type library,
so it may be left out; a required one ``sequence<sequence<any>>`` (Calc marks it
required in the Function Wizard, see ``_build.ARG_REQUIRED``). A single cell or a
literal -> scalar (a required argument receives it as a 1x1 array, read as the value
alone); a range -> tuple of row tuples, blank cells as ``""``, shaped like xlwings (one
row or column -> flat list, a block -> list of rows, 1x1 -> scalar; ``ndim`` as the
module declares it); an omitted argument -> the Python default; omitted trailing ones
are dropped. With the module's ``check_shape``, every range's size is checked from its
shape before any cell is read.

Blank single cells: Calc hands an add-in ``0.0`` for a blank cell given alone (a range
keeps it blank): ScInterpreter::ScExternal (sc/source/core/tool/interpr4.cxx) passes a
single reference's ``GetCellValue``, which is 0.0 for an empty cell. For the arguments
listed in a function's ``zero_is_blank`` (those where 0 is never a valid value:
ratings, K, years, texts...), 0 given alone is read as blank, so
``=FIDE_EXPECTED(A1;B1)`` with B1 empty gives ``#N/A`` as in Excel.

Results: list of rows -> array (ragged rows padded with ""), flat list -> one row,
None -> "", Decimal/int/bool -> float, date -> serial number; a scalar goes back as a
1x1 array (the declared return type is ``sequence<sequence<any>>``, the only one from
which Calc builds an array). An error the module raises on purpose (``message_types``)
-> its message as the cell's text, as classic Excel shows it; any other exception is
raised again (the cell shows an error value).
"""
from __future__ import annotations

import datetime as _dt
import decimal as _decimal
import inspect

from xl_fide.errors import ArgumentError

#: stands for a blank cell: the test harness rewrites ``F(A1)`` to
#: ``F(IF(ISBLANK(A1);BLANK;A1))`` in its private copies of workbooks
BLANK = "\u2400xl-fide-blank\u2400"
_EPOCH = _dt.datetime(1899, 12, 30)




class Function:
    """One function as the add-in serves it: the Python callable and its argument
    options (``{"ndim": 1|2|None, "zero_is_blank": bool, "array": bool}`` per parameter;
    ``array``: declared ``sequence<sequence<any>>``, a required argument) and the
    module's ``check_shape(name, rows, columns)`` if it has a cell budget."""

    def __init__(self, name: str, fn, params: list, options: dict, check_shape=None):
        self.name = name
        self.fn = fn
        self.params = list(params)
        self.options = options
        self.check_shape = check_shape
        self.defaults = [None if p.default is p.empty else p.default
                         for p in inspect.signature(fn).parameters.values()]

    def arguments(self, args: tuple) -> list:
        """The Python arguments for what Calc passed. With ``check_shape`` (the
        module's ``check_shape(name, rows, columns)``), every range's size is checked
        from its shape before any of its cells is looked at: Calc hands a whole column
        as 1,048,576 rows, and reading them is what takes seconds."""
        if self.check_shape is not None:
            for i, a in enumerate(args):
                if isinstance(a, tuple):     # Calc's arrays are rectangular
                    self.check_shape(self.params[i], len(a), len(a[0]) if a else 0)
        out = []
        for i, a in enumerate(args):
            name = self.params[i]
            if a is None:                          # omitted -> the Python default
                out.append(self.defaults[i])
            else:
                try:
                    out.append(convert(a, self.options.get(name, {})))
                except ValueError as exc:
                    raise ArgumentError("%s: %s" % (name, exc)) from None
        while out and args[len(out) - 1] is None:  # omitted trailing ones: dropped
            out.pop()
        return out


def convert(a, options: dict):
    """One argument: what LibreOffice passes -> what xlwings passes."""
    ndim = options.get("ndim")
    if options.get("array") and isinstance(a, tuple) and len(a) == 1 and len(a[0]) == 1:
        a = a[0][0]        # a required argument: Calc hands a value alone as a 1x1 array
    if isinstance(a, tuple):                 # a range: blanks arrive as ""
        rows = [[None if c == "" else c for c in r] for r in a]
    elif a == BLANK:
        return None
    else:                                    # a scalar: a blank cell arrives as 0.0
        if options.get("zero_is_blank") and isinstance(a, float) and a == 0.0:
            return None
        rows = [[a]]
    if ndim in (None, "squeeze"):
        if len(rows) == 1:
            return rows[0][0] if len(rows[0]) == 1 else rows[0]
        if all(len(r) == 1 for r in rows):
            return [r[0] for r in rows]
        return rows
    if ndim == 1:
        if len(rows) == 1:
            return rows[0]
        if all(len(r) == 1 for r in rows):
            return [r[0] for r in rows]
        raise ValueError("give a row or a column, got %d rows by %d columns"
                         % (len(rows), max(len(r) for r in rows)))
    if ndim == 2:
        return rows
    raise ValueError("Invalid ndim=%r" % (ndim,))


def cell(v):
    """One Python value as a cell value (float or str)."""
    if v is None:
        return ""
    if isinstance(v, (bool, int, _decimal.Decimal)):     # Calc has no booleans
        return float(v)
    if isinstance(v, (float, str)):
        return v
    if isinstance(v, _dt.datetime):
        return (v.replace(tzinfo=None) - _EPOCH).total_seconds() / 86400.0
    if isinstance(v, _dt.date):
        return float((v - _EPOCH.date()).days)
    raise TypeError("cannot return %s to a cell" % type(v).__name__)


def result(v) -> tuple:
    """A Python result as a tuple of row tuples."""
    if isinstance(v, (list, tuple)):
        if len(v) == 0:
            return (("",),)
        if not any(isinstance(r, (list, tuple)) for r in v):
            rows = [list(v)]                                  # a flat list is one row
        else:
            rows = [list(r) if isinstance(r, (list, tuple)) else [r] for r in v]
        width = max(len(r) for r in rows) or 1
        return tuple(tuple(cell(c) for c in r) + ("",) * (width - len(r)) for r in rows)
    return ((cell(v),),)


def call(function: Function, args: tuple, message_types: tuple = (), on_message=None) -> tuple:
    """Call ``function`` with what Calc passed; an error of ``message_types`` answers
    its message (a 1x1 array of text) and is handed to ``on_message`` if given; with
    ``message_types``, a range of the wrong shape answers a message too."""
    if message_types:
        message_types = (*message_types, ArgumentError)
    try:
        return result(function.fn(*function.arguments(args)))
    except message_types as exc:
        if on_message is not None:
            on_message(exc)
        return ((str(exc),),)
