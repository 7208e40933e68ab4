"""Every formula cell carries its value (issue 20, #4): the helper sheet of the native
formulas, the Check columns (and the hidden per-round checks), the round robin's
Sonneborn-Berger and Rank, and the blank templates, as well as the rating block.

A reader that does not calculate (python-calamine) finds a value in every formula cell;
recalculated by a spreadsheet (Gnumeric for native workbooks, LibreOffice with the add-in
for FIDE_* workbooks), every cell shows the value that was cached: numbers equal, text
equal, "" and blank alike.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree as ET

import pytest
from openpyxl import load_workbook
from openpyxl.utils import range_boundaries

from tests.harness import gnumeric
from tests.test_workbook import TRF_FILES
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.report import build_report
from xl_fide.rules.editions import EventOptions
from xl_fide.trf import read_trf

calamine = pytest.importorskip("python_calamine")

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
TRFS = ("mini_trf2026", "roundrobin_12_synthetic", "gros_2010_swiss_after_round4",
        "san_viator_2018_swiss")
TEMPLATES = (("roundrobin", 5, None), ("swiss", 6, 4))


def _filled(name, formulas, tmp_path):
    t = read_trf(next(p for p in TRF_FILES if p.stem == name))
    wb = fill_workbook(t, report=build_report(t, EventOptions()), formulas=formulas,
                       rows=len(t.players) + 1)
    return save_workbook(wb, tmp_path / f"{name}_{formulas}.xlsx")


def _template(layout, players, rounds, formulas, tmp_path):
    return save_workbook(build_template(layout, players, rounds, formulas=formulas),
                         tmp_path / f"{layout}_{formulas}.xlsx")


def formula_cells(path):
    """{sheet: {A1 of every cell that holds a formula or lies in an array formula's range}}
    (found with openpyxl)."""
    out = {}
    for ws in load_workbook(path).worksheets:
        cells = set()
        for row in ws.iter_rows():
            for c in row:
                if c.data_type != "f":
                    continue
                ref = getattr(c.value, "ref", None) or c.coordinate
                c1, r1, c2, r2 = range_boundaries(ref if ":" in ref else f"{ref}:{ref}")
                cells |= {ws.cell(r, k).coordinate for r in range(r1, r2 + 1)
                          for k in range(c1, c2 + 1)}
        if cells:
            out[ws.title] = cells
    return out


def without_value(path):
    """The formula cells whose saved XML holds no value (an empty ``<v/>`` that is not
    the empty text ``t="str"``), per sheet."""
    pkg = zipfile.ZipFile(path)
    book = load_workbook(path, read_only=True)
    titles = book.sheetnames
    book.close()
    wanted = formula_cells(path)
    out = {}
    for i, title in enumerate(titles, 1):
        if title not in wanted:
            continue
        root = ET.fromstring(pkg.read(f"xl/worksheets/sheet{i}.xml"))
        valued = set()
        for c in root.iter(f"{_MAIN}c"):
            v = c.find(f"{_MAIN}v")
            if v is not None and (v.text or c.get("t") == "str"):
                valued.add(c.get("r"))
        missing = sorted(wanted[title] - valued)
        if missing:
            out[title] = missing
    return out


def cached(path):
    """{(sheet, A1): value} of every formula cell as calamine reads it (no calculation)."""
    book = calamine.CalamineWorkbook.from_path(str(path))
    out = {}
    for title, cells in formula_cells(path).items():
        rows = book.get_sheet_by_name(title).to_python(skip_empty_area=False)
        for ref in cells:
            c1, r1, _, _ = range_boundaries(f"{ref}:{ref}")
            row = rows[r1 - 1] if r1 - 1 < len(rows) else []
            out[(title, ref)] = row[c1 - 1] if c1 - 1 < len(row) else None
    return out


def _same(a, b):
    if a in (None, "") and b in (None, ""):
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 1e-9
    if hasattr(a, "year") and hasattr(b, "year"):
        return a.timetuple()[:3] == b.timetuple()[:3]
    return str(a) == str(b)


#: INDEX of a blank cell: 0 in LibreOffice and Excel (the cached value), blank in Gnumeric.
#: Calc!K3 is the helper sheet's message switch, blank for every native edition.
BLANK_INDEX = {("Calc", "K3")}


def _differences(path, recalculated, *, blank_index_is_blank=False):
    """{(sheet, A1): (cached, recalculated)} where they differ."""
    out = {k: (v, recalculated[k[0]][k[1]].value) for k, v in cached(path).items()
           if not _same(v, recalculated[k[0]][k[1]].value)}
    if blank_index_is_blank:
        out = {k: v for k, v in out.items() if not (k in BLANK_INDEX and v == (0, None))}
    return out


@pytest.mark.parametrize("formulas", ["udf", "native"])
@pytest.mark.parametrize("name", TRFS)
def test_every_formula_cell_of_a_filled_workbook_has_a_value(name, formulas, tmp_path):
    path = _filled(name, formulas, tmp_path)
    assert without_value(path) == {}
    assert sum(1 for v in cached(path).values() if v not in (None, "")) > 50


@pytest.mark.parametrize("formulas", ["udf", "native"])
@pytest.mark.parametrize("layout, players, rounds", TEMPLATES)
def test_every_formula_cell_of_a_template_has_a_value(layout, players, rounds, formulas,
                                                      tmp_path):
    assert without_value(_template(layout, players, rounds, formulas, tmp_path)) == {}


@pytest.mark.parametrize("source", ["mini_trf2026", "roundrobin_12_synthetic", "swiss",
                                    "roundrobin"])
def test_gnumeric_computes_the_cached_values_native(source, tmp_path):
    gnumeric.require()
    if source in TRFS:
        path = _filled(source, "native", tmp_path)
    else:
        layout, players, rounds = next(t for t in TEMPLATES if t[0] == source)
        path = _template(layout, players, rounds, "native", tmp_path)
    values = gnumeric.recalc(path, tmp_path / "gnumeric.xlsx")
    assert _differences(path, values, blank_index_is_blank=True) == {}


@pytest.mark.parametrize("source, formulas", [
    ("gros_2010_swiss_after_round4", "udf"), ("roundrobin_12_synthetic", "udf"),
    ("swiss", "udf"), ("roundrobin", "udf"), ("mini_trf2026", "native"),
    ("roundrobin", "native")])
def test_libreoffice_computes_the_cached_values(office, source, formulas, tmp_path):
    if source in TRFS:
        path = _filled(source, formulas, tmp_path)
    else:
        layout, players, rounds = next(t for t in TEMPLATES if t[0] == source)
        path = _template(layout, players, rounds, formulas, tmp_path)
    office.recalc(path, tmp_path / "lo.xlsx")
    assert len(cached(path)) > 100
    assert _differences(path, load_workbook(tmp_path / "lo.xlsx", data_only=True)) == {}


def test_the_saved_package_is_well_formed(tmp_path):
    path = _template("swiss", 6, 4, "native", tmp_path)
    for name in zipfile.ZipFile(path).namelist():
        if name.endswith(".xml"):
            ET.parse(io.BytesIO(zipfile.ZipFile(path).read(name)))
