"""Values in the file (issue 20, #4): every rating cell of a filled workbook carries the
value the engine computed, so a reader that does not calculate (previews, phone viewers,
pandas, calamine, a UDF workbook where the add-in is not loaded) shows the numbers.

Read with python-calamine (it never calculates) and compared with
xl_fide.event.report.build_report; then recalculated (LibreOffice for FIDE_* workbooks with
the add-in, Gnumeric for native ones): every cached value equals the recalculated one.
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.harness import gnumeric
from tests.excel.test_workbook_cached_every_cell import BLANK_INDEX
from tests.excel.test_workbook import TRF_FILES, rr_example, swiss_example
from tests.excel.test_workbook_lo import columns, engine_cells, rating_names
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS, EVENT, EVENT_ROW
from xl_fide.event.report import build_report
from xl_fide.rules.editions import EventOptions
from xl_fide.trf import read_trf

calamine = pytest.importorskip("python_calamine")

EVENTS = {"rr_example": lambda: (rr_example(), EventOptions(k=10)),
          "swiss_example": lambda: (swiss_example(), EventOptions()),
          **{s: (lambda s=s: (read_trf(next(p for p in TRF_FILES if p.stem == s)),
                              EventOptions()))
             for s in ("mini_trf2026", "gros_2010_swiss_after_round4",
                       "roundrobin_12_synthetic", "san_viator_2018_swiss")}}
# san_viator: over 30 days; its block is the one-period figure, NewRating the last month's


def cached_sheet(path, sheet=CROSS):
    """The sheet as calamine reads it (cached values; blank as None)."""
    rows = calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python(
        skip_empty_area=False)
    return [[None if v == "" else v for v in row] for row in rows]


def _save(name, formulas, tmp_path):
    t, options = EVENTS[name]()
    report = build_report(t, options)
    wb = fill_workbook(report, formulas=formulas, rows=len(t.players) + 1)
    return save_workbook(wb, tmp_path / f"{name}_{formulas}.xlsx"), report


@pytest.mark.parametrize("formulas", ["udf", "native"])
@pytest.mark.parametrize("name", sorted(EVENTS))
def test_a_reader_that_does_not_calculate_sees_the_engines_numbers(name, formulas, tmp_path):
    path, report = _save(name, formulas, tmp_path)
    rows = cached_sheet(path)
    cols = columns(load_workbook(path), rating_names(load_workbook(path)))
    # the block rates the event as one period: over 30 days the report's comparison rows
    for i, row in enumerate(report.comparison or report.rows):
        got = [rows[4 + i][c - 1] if c - 1 < len(rows[4 + i]) else None for c in cols]
        assert got == engine_cells(row), f"row {5 + i}"
    blank = 4 + len(report.rows)                              # the spare row stays blank
    assert all(rows[blank][c - 1] is None for c in cols)
    assert cached_sheet(path, EVENT)[EVENT_ROW["edition"] - 1][1] == report.edition.id


def _cached_formula_cells(path):
    """{(sheet, A1): cached value} of every cell of the file with a cached value that
    holds a formula or lies in an array formula's range."""
    formulas = load_workbook(path)
    cached = load_workbook(path, data_only=True)
    out = {}
    for ws in formulas.worksheets:
        arrays = [c.value.ref for row in ws.iter_rows() for c in row
                  if hasattr(c.value, "ref")]
        from openpyxl.utils import range_boundaries
        inside = {(r, c) for ref in arrays
                  for c1, r1, c2, r2 in [range_boundaries(ref if ":" in ref else f"{ref}:{ref}")]
                  for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)}
        for row in ws.iter_rows():
            for c in row:
                v = cached[ws.title].cell(c.row, c.column).value
                if v is not None and (c.data_type == "f" or (c.row, c.column) in inside):
                    out[(ws.title, c.coordinate)] = v
    return out


def _same(a, b):
    if a in (None, "") and b in (None, ""):
        return True
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 1e-9
    return a == b


@pytest.mark.parametrize("name", ["mini_trf2026", "rr_example", "swiss_example"])
def test_recalculation_gives_the_cached_values_native(name, tmp_path):
    gnumeric.require()
    path, _ = _save(name, "native", tmp_path)
    cached = _cached_formula_cells(path)
    assert len(cached) > 20
    values = gnumeric.recalc(path, tmp_path / "gnumeric.xlsx")
    wrong = {k: (v, values[k[0]][k[1]].value) for k, v in cached.items()
             if not _same(v, values[k[0]][k[1]].value)
             and not (k in BLANK_INDEX and values[k[0]][k[1]].value is None and v == 0)}
    assert wrong == {}


@pytest.mark.parametrize("name", ["mini_trf2026", "swiss_example"])
def test_recalculation_gives_the_cached_values_udf(office, name, tmp_path):
    path, _ = _save(name, "udf", tmp_path)
    cached = _cached_formula_cells(path)
    assert len(cached) > 20
    office.recalc(path, tmp_path / "lo.xlsx")
    values = load_workbook(tmp_path / "lo.xlsx", data_only=True)
    wrong = {k: (v, values[k[0]][k[1]].value) for k, v in cached.items()
             if not _same(v, values[k[0]][k[1]].value)}
    assert wrong == {}
