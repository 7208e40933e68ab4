"""Shared formulas on the native helper sheets (issue 23, LibreOffice open): a column's
run of one relative formula is written once (ECMA-376 Part 1 §18.3.1.40); every cell
reads back (openpyxl translates a follower from its run's first cell) as the formula
that was built, and keeps its cached value. The sheets xl-fide reads back hold no shared
formula. The spreadsheets' recalculation of these workbooks is checked by
tests/excel/test_workbook_cached_every_cell.py (Gnumeric, LibreOffice)."""

from __future__ import annotations

import re
import zipfile

import pytest
from openpyxl import load_workbook
from openpyxl.formula.translate import Translator

from tests.harness.excel_limits import sheet_rows
from tests.harness.synthetic import synthetic_swiss
from tests.excel.test_workbook import TRF_FILES, rr_example
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.event.report import build_report
from xl_fide.excel._shared import template
from xl_fide.trf import read_trf

_SHARED = re.compile(rb'<c r="([A-Z]+[0-9]+)"[^>]*><f t="shared" (?:ref="[^"]*" )?si="')


def _built(wb):
    """{sheet: {A1: formula}} of a workbook as built (before saving; a row plan's cells
    as they are saved)."""
    return {ws.title: {c.coordinate: c.value for row in sheet_rows(ws) for c in row
                       if c.data_type == "f" and isinstance(c.value, str)}
            for ws in wb.worksheets}


def _shared_cells(path):
    """{sheet number: [A1 of each cell with a shared formula]} as the package holds them."""
    pkg = zipfile.ZipFile(path)
    return {name: [m.decode() for m in _SHARED.findall(pkg.read(name))]
            for name in pkg.namelist() if name.startswith("xl/worksheets/sheet")}


WORKBOOKS = {
    "swiss": lambda: fill_workbook(build_report(synthetic_swiss(40, 7)), formulas="native"),
    "roundrobin": lambda: fill_workbook(build_report(rr_example()), layout="roundrobin", formulas="native"),
    "months": lambda: fill_workbook(build_report(read_trf(next(p for p in TRF_FILES
                                                  if p.stem == "san_viator_2018_swiss"))),
                                    formulas="native"),
    "template": lambda: build_template("swiss", 6, 4, formulas="native"),
}


@pytest.mark.parametrize("name", sorted(WORKBOOKS))
def test_every_cell_reads_back_as_the_formula_built(name, tmp_path):
    wb = WORKBOOKS[name]()
    built = _built(wb)
    path = save_workbook(wb, tmp_path / f"{name}.xlsx")
    shared = _shared_cells(path)
    helpers = [ws.title for ws in wb.worksheets if ws.title.startswith("Calc")]
    assert helpers and sum(map(len, shared.values())) > 0       # the helpers do share
    read = load_workbook(path)
    for ws in read.worksheets:
        got = {c.coordinate: c.value for row in ws.iter_rows() for c in row
               if c.data_type == "f" and isinstance(c.value, str)}
        assert got == built[ws.title], ws.title
        number = f"xl/worksheets/sheet{read.worksheets.index(ws) + 1}.xml"
        if ws.title not in helpers:                     # the sheets xl-fide reads back
            assert shared[number] == [], ws.title


def test_the_first_cell_of_a_run_holds_the_text_the_others_follow_it(tmp_path):
    path = save_workbook(fill_workbook(build_report(synthetic_swiss(12, 3)), formulas="native"),
                         tmp_path / "s.xlsx")
    wb = load_workbook(path)
    number = wb.sheetnames.index("Calc") + 1
    xml = zipfile.ZipFile(path).read(f"xl/worksheets/sheet{number}.xml").decode()
    first = re.search(r'<c r="([A-Z]+[0-9]+)"[^>]*><f t="shared" ref="([A-Z]+[0-9]+):'
                      r'([A-Z]+[0-9]+)" si="(\d+)">([^<]+)</f><v>', xml)
    assert first is not None
    start, end, si = first.group(2), first.group(3), first.group(4)
    assert start == first.group(1)
    followers = re.findall(rf'<c r="([A-Z]+[0-9]+)"[^>]*><f t="shared" si="{si}" ?/><v>', xml)
    col = re.match(r"[A-Z]+", start).group(0)
    rows = range(int(start[len(col):]) + 1, int(end[len(col):]) + 1)
    assert followers == [f"{col}{r}" for r in rows]
    master = Translator("=" + first.group(5).replace("&gt;", ">").replace("&lt;", "<")
                        .replace("&amp;", "&"), start)
    for ref in followers:
        assert master.translate_formula(ref) == wb["Calc"][ref].value


@pytest.mark.parametrize("text, row, expected", [
    ("SUM(A5:C5)+$B$2", 5, (["SUM(A", ":C", ")+$B$2"], (0, 0))),
    ("INDEX(M$5:M$2004,M6)<>$A6", 6, (["INDEX(M$5:M$2004,M", ")<>$A", ""], (0, 0))),
    ("Crosstable!$F7+Calc!B3", 7, (["Crosstable!$F", "+Calc!B", ""], (0, -4))),
    ('IF(A5="B5 and C6","",LOG10(A5))', 5, (["IF(A", '="B5 and C6","",LOG10(A', "))"],
                                            (0, 0))),
    ("'Calc M1'!$B5*1E5*100%", 5, (["'Calc M1'!$B", "*1E5*100%"], (0,))),
    ("SUM(5:5)", 5, None),                  # a row range: never shared
    ("SUM($5:$6)+A5", 5, None),
    ('"5:5"&A5', 5, (['"5:5"&A', ""], (0,))),  # in a literal it is text
])
def test_template_finds_the_relative_rows(text, row, expected):
    assert template(text, row) == expected


def test_a_column_breaks_its_run_where_the_formula_changes():
    from xl_fide.excel._shared import Plan
    cells = [(5, "A5+1"), (6, "A6+1"), (7, "A7+2"), (8, "A8+2"), (9, "A8+2"), (11, "A11+2")]
    plan = Plan((row, 2, text) for row, text in cells)
    assert [plan.formula(row, 2, None) for row, _ in cells] == [
        ({"t": "shared", "ref": "B5:B6", "si": "0"}, "A5+1"),
        ({"t": "shared", "si": "0"}, None),
        ({"t": "shared", "ref": "B7:B8", "si": "1"}, "A7+2"),
        ({"t": "shared", "si": "1"}, None),
        None,                   # the same text one row down: not the same formula
        None]                   # a gap in the column
