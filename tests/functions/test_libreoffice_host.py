"""The LibreOffice host (xl_fide/libreoffice/) at its two edges with Calc (issues 33, 34):

* a range's size is checked from its shape before any of its cells is read, so a whole
  column (``A:A``, 1,048,576 rows in Calc) answers the budget message at once;
* the type library declares an argument required exactly when its Python parameter has
  no default, so the Function Wizard marks it required (Calc marks every ``any``
  argument optional: sc/source/core/tool/addincol.cxx, ``bOptional``).

The expected messages are written out here from the budget (2,000 rows; Calc's
1,048,576 rows), not produced by the code under test.
"""
from __future__ import annotations

import inspect
import re
import subprocess
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from xl_fide import udfs
from xl_fide.cli import main
from xl_fide.excel._fill import save_workbook
from xl_fide.libreoffice import _build, _cells
from xl_fide.libreoffice._spec import read_functions

CALC_ROWS = 1_048_576
WHOLE_COLUMN_MESSAGE = ("{name} is a range of 1,048,576 cells; these functions read at "
                        "most 2,000 rows: give the filled range, not a whole column")


def _required(fn) -> list[bool]:
    return [p.default is inspect.Parameter.empty
            for p in inspect.signature(fn).parameters.values()]


# ----------------------------------------------------------------------------- no LibreOffice

class _UnreadRow(tuple):
    """A row of what Calc passes that fails the test if a cell of it is looked at."""

    def __iter__(self):
        raise AssertionError("a cell was read before the range's size was checked")

    def __getitem__(self, i):
        raise AssertionError("a cell was read before the range's size was checked")


def _function(name):
    (spec,) = [f for f in read_functions() if f.name == name]
    return _cells.Function(name, getattr(udfs, name), [p.name for p in spec.params],
                           {p.name: {"ndim": p.ndim, "zero_is_blank": p.zero_is_blank,
                                     "array": not p.optional} for p in spec.params},
                           udfs.check_shape)


@pytest.mark.parametrize("name, args, message", [
    ("FIDE_EVENT_SWISS", ("whole", "whole", ((1.0,),), ((1.0,),)),
     WHOLE_COLUMN_MESSAGE.format(name="ratings")),
    # two whole columns to a row-or-column argument: the size first, not the shape
    ("FIDE_CHANGE", (2000.0, "two", "two", 20.0),
     WHOLE_COLUMN_MESSAGE.format(name="opponent_ratings")),
    ("FIDE_EVENT", (((2000.0,),) * 3, ((20.0,),) * 3, "wide"),
     "results is a range of 3 by 16,384 cells; these functions read at most 2,000 rows "
     "or columns and 200,000 cells"),
])
def test_range_size_is_checked_before_any_cell_is_read(name, args, message):
    """What Calc hands for A:A (1,048,576 row tuples), A:B and a row of 16,384 columns,
    with rows that fail if read: the budget message comes from the shape alone."""
    shapes = {"whole": (CALC_ROWS, 1), "two": (CALC_ROWS, 2), "wide": (3, 16_384)}
    calc_args = tuple((_UnreadRow((None,) * shapes[a][1]),) * shapes[a][0]
                      if isinstance(a, str) else a for a in args)
    assert _cells.call(_function(name), calc_args, (udfs.InputError,)) == ((message,),)


def test_required_value_alone_as_calc_passes_it():
    """A required argument is a sequence<sequence<any>>: Calc hands a number, a text or
    a single cell as a 1x1 array, a blank single cell as 0.0 (interpr4.cxx,
    ScExternal). It reaches the function as the scalar xlwings passes; the 0 of a blank
    cell is blank where 0 is never valid, and stays 0 where it is a value."""
    expected, pd = _function("FIDE_EXPECTED"), _function("FIDE_PD")
    assert expected.arguments((((2000.0,),), ((1800.0,),))) == [2000.0, 1800.0]
    assert expected.arguments((((0.0,),), ((1800.0,),))) == [None, 1800.0]
    assert expected.arguments((((_cells.BLANK,),), ((1800.0,),))) == [None, 1800.0]
    assert pd.arguments((((0.0,),),)) == [0.0]                   # D = 0 is a difference
    assert _cells.call(pd, (((0.0,),),)) == ((0.5,),)            # B.02 §8.1.2: PD(0) = 0.50


def _unoidl_read():
    found = _build.find_unoidl_write()
    if found is None:
        return None
    tool = found[0].with_name(found[0].name.replace("unoidl-write", "unoidl-read"))
    return (tool, found[1]) if tool.is_file() else None


def test_type_library_in_the_oxt_marks_required_arguments(tmp_path):
    """The .oxt's compiled type library (read back with the SDK's unoidl-read): each
    FIDE_* argument is ``any`` (optional) when its Python parameter has a default and
    ``sequence< sequence< any > >`` (required) when it has none."""
    oxt = tmp_path / "xl-fide.oxt"
    assert main(["libreoffice", "-o", str(oxt)]) == 0
    reader = _unoidl_read()
    if reader is None:
        pytest.skip("no LibreOffice SDK (unoidl-read)")
    tool, types = reader
    rdb = tmp_path / "XFide.rdb"
    with zipfile.ZipFile(oxt) as z:
        rdb.write_bytes(z.read("XFide.rdb"))
    r = subprocess.run([str(tool), *map(str, types), str(rdb)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    methods = dict(re.findall(r"> (\w+)\((.*)\);", r.stdout))
    assert len(methods) == len(udfs.__all__)
    for name in udfs.__all__:
        args = [a.strip() for a in methods[_build._idl_name(name)].split(", ") if a]
        declared = [a.removeprefix("[in] ").rpartition(" ")[0] for a in args]
        assert declared == ["sequence< sequence< any > >" if req else "any"
                            for req in _required(getattr(udfs, name))], name


# ----------------------------------------------------------------------------- in LibreOffice

def test_function_wizard_marks_required_arguments(office):
    shown = office.function_descriptions("FIDE_")
    for name in udfs.__all__:
        optional = [a[2] for a in shown[name]["arguments"]]
        assert optional == [not req for req in _required(getattr(udfs, name))], name


def test_whole_column_answers_the_budget_message(office, tmp_path):
    """=FIDE_EVENT_SWISS(A:A;B:B;...) and two whole columns to FIDE_CHANGE answer the
    budget message (the time it takes is what Calc spends building the array it hands
    over: not asserted, see docs/runtimes/libreoffice.md)."""
    wb = Workbook()
    ws = wb.active
    for row in range(1, 3):
        ws.cell(row, 1, 2000)
        ws.cell(row, 2, 20)
    ws["H1"] = "=FIDE_EVENT_SWISS(A:A,B:B,C1:C2,D1:D2)"
    ws["H2"] = "=FIDE_CHANGE(2000,A:B,C:D,20)"
    save_workbook(wb, tmp_path / "whole.xlsx", force=True)
    res = office.recalc(tmp_path / "whole.xlsx", tmp_path / "out.xlsx", xlwings_blanks=False)
    values = load_workbook(res.dst, data_only=True).active
    assert [values["H1"].value, values["H2"].value] == [
        WHOLE_COLUMN_MESSAGE.format(name="ratings"),
        WHOLE_COLUMN_MESSAGE.format(name="opponent_ratings")]
