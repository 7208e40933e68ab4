"""A second, Excel-semantics recalculation: the ``formulas`` package (PyPI) evaluates a
workbook with the FIDE_* functions registered as classic xlwings calls them.

What classic xlwings passes (xlwings-notes, "What arrives from Excel"): a single cell
as a scalar, a one-row or one-column range as a flat list, a block as a list of rows;
numbers as ``float``; a blank cell as ``None``; an error cell as its text ("#N/A": the
FIDE_* arguments ask for ``err_to_str``). What comes back: a returned list of rows
fills the array range; an exception shows its message as text in the cell.

:func:`recalc` returns an openpyxl workbook of values (like ``data_only=True`` after a
real recalculation), so the LibreOffice tests' comparisons apply unchanged; and the
number of calls per function.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path
from typing import Any

import builtins
import contextlib
import sys

import numpy as np


@contextlib.contextmanager
def python_import():
    """LibreOffice's in-process UNO (tests that drove LibreOffice earlier in the session)
    replaces ``__import__`` with a hook that turns a ModuleNotFoundError into a plain
    ImportError, which breaks optional imports inside `formulas` (tqdm): Python's own
    import meanwhile."""
    uno = sys.modules.get("uno")
    saved = builtins.__import__
    if uno is not None and hasattr(uno, "_builtin_import"):
        builtins.__import__ = uno._builtin_import
    try:
        yield
    finally:
        builtins.__import__ = saved


with python_import():
    import schedula as sh
    from formulas import ExcelModel
    from formulas.functions import get_functions
    from formulas.ranges import Ranges
    from formulas.tokens.operand import XlError
from openpyxl import Workbook, load_workbook
from openpyxl.utils import range_boundaries

from xl_fide import udfs
from tests.harness.xl_shapes import as_xlwings_passes

CALLS: collections.Counter = collections.Counter()


def _cell(v: Any) -> Any:
    if v is sh.EMPTY or v is None:
        return None
    if isinstance(v, XlError):
        return str(v)                              # err_to_str: "#N/A"
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, float, np.integer, np.floating)):
        return float(v)                            # classic: every number is a float
    return v


def as_xlwings(x: Any) -> Any:
    """An argument as classic xlwings passes it to a UDF."""
    if isinstance(x, Ranges):
        x = x.value
    if isinstance(x, np.ndarray):
        return as_xlwings_passes([[_cell(v) for v in row] for row in np.atleast_2d(x).tolist()])
    return _cell(x)


def _udf(name: str):
    f = getattr(udfs, name)

    def call(*args):
        CALLS[name] += 1
        try:
            out = f(*[as_xlwings(a) for a in args])
        except Exception as exc:                   # classic: the message in the cell
            out = str(exc)
        if isinstance(out, list):
            return np.asarray([[("" if v is None else v) for v in row] for row in out],
                              dtype=object)
        return "" if out is None else out
    return call


def register() -> None:
    functions = get_functions()
    for name in udfs.__all__:
        functions[name] = _udf(name)


_KEY = re.compile(r"^'\[(?P<book>[^\]]+)\](?P<sheet>.+)'!(?P<ref>[A-Z]+\d+(?::[A-Z]+\d+)?)$")


def recalc(path: str | Path) -> tuple[Workbook, collections.Counter]:
    """Evaluate every formula of the workbook at ``path``: (values workbook, calls)."""
    register()
    CALLS.clear()
    source = load_workbook(path)
    titles = {ws.title.upper(): ws.title for ws in source}
    values = Workbook()
    values.remove(values.active)
    for ws in source:                         # constants as they are in the file
        out = values.create_sheet(ws.title)
        for row in ws.iter_rows():
            for c in row:
                if c.data_type != "f" and not hasattr(c.value, "ref"):
                    out.cell(c.row, c.column).value = c.value
    with python_import():
        model = ExcelModel().loads(str(path)).finish()
        solution = model.calculate()
    for key, ranges in solution.items():
        m = _KEY.match(str(key))
        if not m or m["sheet"].upper() not in titles:
            continue
        ws = values[titles[m["sheet"].upper()]]
        c1, r1, c2, r2 = range_boundaries(m["ref"] if ":" in m["ref"] else f"{m['ref']}:{m['ref']}")
        array = np.atleast_2d(getattr(ranges, "value", ranges))
        for i in range(min(r2 - r1 + 1, array.shape[0])):
            for j in range(min(c2 - c1 + 1, array.shape[1])):
                v = _cell(array[i, j])
                if isinstance(v, float) and v.is_integer():
                    v = int(v)
                ws.cell(r1 + i, c1 + j).value = v
    return values, collections.Counter(CALLS)
