"""Tests of the LibreOffice harness itself (tests/harness/lo_calc.py, tests/harness/render.py),
with the throwaway UDF module tests/harness/fake_udfs.py."""
from __future__ import annotations

import os
import shutil
import time

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.formula import ArrayFormula

from tests.harness import lo_calc
from tests.conftest import require_libreoffice


@pytest.fixture(scope="module")
def fake_oxt(tmp_path_factory):
    require_libreoffice()
    oxt = tmp_path_factory.mktemp("fake_addin") / "fake.oxt"
    names = lo_calc.build_addin("tests.harness.fake_udfs", str(oxt))
    assert "FIDE_TWICE" in names and "_shape" not in names
    return oxt


@pytest.fixture(scope="module")
def fake_office(fake_oxt):
    t0 = time.perf_counter()
    o = lo_calc.Office(str(fake_oxt))
    o.startup_seconds = time.perf_counter() - t0
    yield o
    o.close()


def _recalc(office, tmp_path, fill, **kw):
    wb = Workbook()
    fill(wb.active)
    src = tmp_path / "in.xlsx"
    wb.save(src)
    res = office.recalc(src, tmp_path / "out.xlsx", **kw)
    ws = load_workbook(tmp_path / "out.xlsx", data_only=True).active
    for row in ws.iter_rows():
        for c in row:
            assert c.value != "#NAME?", f"{c.coordinate}: a function was not found"
    return res, ws


def test_scalar_range_and_call_counts(fake_office, tmp_path):
    def fill(ws):
        for i in range(1, 51):
            ws.cell(i, 1, i)
            ws.cell(i, 2, f"=FIDE_TWICE(A{i})")
        ws["D1"], ws["E1"], ws["G1"] = 1, 2.5, 4          # F1 blank
        ws["H1"] = "=FIDE_SUMROW(D1:G1)"
        ws["H2"] = "=FIDE_SUMROW(A1:A50)"
        ws["H3"] = "=FIDE_TWICE(FIDE_TWICE(A3))+1"          # nested: 2 calls
        ws["H4"] = "=FIDE_NOARGS()"

    res, ws = _recalc(fake_office, tmp_path, fill)
    assert [ws.cell(i, 2).value for i in range(1, 51)] == [2 * i for i in range(1, 51)]
    assert ws["H1"].value == 7.5 and ws["H2"].value == 1275
    assert ws["H3"].value == 13 and ws["H4"].value == 42
    # one full recalculation = one call per UDF formula (nested: one per call)
    assert res.calls == {"FIDE_TWICE": 52, "FIDE_SUMROW": 2, "FIDE_NOARGS": 1}
    assert res.total_calls == 55
    assert res.errors == []


def test_array_formula_2x3(fake_office, tmp_path):
    def fill(ws):
        ws["A1"] = 3
        ws["C1"] = ArrayFormula("C1:E2", "=FIDE_TABLE(A1)")
        ws["A5"] = "=INDEX(FIDE_TABLE(A1),2,1)"
        ws["B5"] = "=SUM(FIDE_TABLE(A1))"

    res, ws = _recalc(fake_office, tmp_path, fill)
    got = [[ws.cell(r, c).value for c in range(3, 6)] for r in (1, 2)]
    assert got == [[3, 4, 5], [30, None, "x"]]          # None in Python -> empty cell
    assert ws["A5"].value == 30 and ws["B5"].value == 42
    assert res.calls == {"FIDE_TABLE": 3}


def test_exception_is_value_error_cell_and_na_text_is_text(fake_office, tmp_path):
    def fill(ws):
        ws["A1"] = "=FIDE_RAISE(5)"
        ws["A2"] = "=FIDE_NA(5)"
        ws["A3"] = "=IFERROR(FIDE_RAISE(5),-1)"
        ws["A4"] = "=FIDE_TWICE(1/0)"        # error argument: Calc never calls the UDF

    res, ws = _recalc(fake_office, tmp_path, fill)
    assert (ws["A1"].value, ws["A1"].data_type) == ("#VALUE!", "e")
    assert (ws["A2"].value, ws["A2"].data_type) == ("#N/A", "s")
    assert ws["A3"].value == -1
    assert (ws["A4"].value, ws["A4"].data_type) == ("#DIV/0!", "e")
    assert "FIDE_RAISE: ValueError: x: bad value 5.0" in res.errors
    assert res.calls == {"FIDE_RAISE": 2, "FIDE_NA": 1}


def test_argument_shapes_like_xlwings(fake_office, tmp_path):
    def fill(ws):
        ws["A1"], ws["B1"], ws["D1"] = 1, 2, 4                 # C1 blank
        ws["A2"], ws["B2"] = 5, "t"
        ws["F1"] = "=FIDE_SHAPE(A1)"
        ws["F2"] = "=FIDE_SHAPE(A1:D1)"                        # row -> flat list
        ws["F3"] = "=FIDE_SHAPE(A1:A2)"                        # column -> flat list
        ws["F4"] = "=FIDE_SHAPE(A1:B2)"                        # block -> list of rows
        ws["F5"] = "=FIDE_SHAPE(A1:A1)"                        # 1x1 range -> scalar
        ws["F6"] = "=FIDE_SHAPE2(A1)"                          # __ndim__ 2
        ws["F7"] = "=FIDE_SHAPE2(A1:D1)"
        ws["F8"] = "=FIDE_SHAPE1(A1:A2)"                       # fn._ndim 1
        ws["F9"] = "=FIDE_SHAPE1(A1:B2)"                       # ndim=1 on a block: error
        ws["F10"] = '=FIDE_SHAPE("")'
        ws["F11"] = "=FIDE_SHAPE(TRUE)"

    res, ws = _recalc(fake_office, tmp_path, fill)
    assert ws["F1"].value == "scalar float 1.0"
    assert ws["F2"].value == "1d 4 [1.0, 2.0, None, 4.0]"
    assert ws["F3"].value == "1d 2 [1.0, 5.0]"
    assert ws["F4"].value == "2d 2x2 [[1.0, 2.0], [5.0, 't']]"
    assert ws["F5"].value == "scalar float 1.0"
    assert ws["F6"].value == "2d 1x1 [[1.0]]"
    assert ws["F7"].value == "2d 1x4 [[1.0, 2.0, None, 4.0]]"
    assert ws["F8"].value == "1d 2 [1.0, 5.0]"
    assert (ws["F9"].value, ws["F9"].data_type) == ("#VALUE!", "e")
    assert ws["F10"].value == "scalar str ''"
    assert ws["F11"].value == "scalar float 1.0"             # Calc has no booleans


def test_blank_single_cell_and_omitted_arguments(fake_office, tmp_path):
    def fill(ws):
        ws["A1"] = 0
        ws["C1"] = '=""'
        ws["F1"] = "=FIDE_SHAPE(B1)"               # blank -> None (as xlwings)
        ws["F2"] = "=FIDE_SHAPE(A1)"               # a real 0 stays 0.0
        ws["F3"] = "=FIDE_SHAPE(C1)"               # ="" -> ""
        ws["F4"] = "=FIDE_SHAPE(B1+0)"             # an expression: 0.0, as in Excel
        ws["F5"] = "=FIDE_OPT(1)"                  # omitted -> Python defaults
        ws["F6"] = "=FIDE_OPT(1,,3)"
        ws["F7"] = "=FIDE_OPT(1,B1)"               # blank cell is None, not the default
        ws["F8"] = ArrayFormula("F8:F8", "=FIDE_SHAPE(B1)")

    _, ws = _recalc(fake_office, tmp_path, fill)
    assert [ws[f"F{i}"].value for i in range(1, 9)] == [
        "scalar NoneType None", "scalar float 0.0", "scalar str ''", "scalar float 0.0",
        "1.0|7.0|None", "1.0|7.0|3.0", "1.0|None|None", "scalar NoneType None"]

    # without the rewrite Calc's own behaviour shows: a blank single cell is 0.0
    _, raw = _recalc(fake_office, tmp_path, fill, xlwings_blanks=False)
    assert raw["F1"].value == "scalar float 0.0"


def test_return_values(fake_office, tmp_path):
    def fill(ws):
        for col, kind in zip("ABCDE", ["none", "true", "int", "decimal", "flat"]):
            ws[f"{col}1"] = f'=FIDE_RET("{kind}")'
        ws["A3"] = ArrayFormula("A3:C4", '=FIDE_RET("ragged")')
        ws["A6"] = ArrayFormula("A6:C6", '=FIDE_RET("flat")')

    _, ws = _recalc(fake_office, tmp_path, fill)
    assert [ws[f"{c}1"].value for c in "ABCDE"] == [None, 1, 3, 1.25, 1]
    assert [[c.value for c in r] for r in ws["A3:C4"]] == [[1, 2, 3], [4, None, None]]
    assert [c.value for c in ws["A6:C6"][0]] == [1, 2, 3]


def test_source_untouched_and_stale_lock_ignored(fake_office, tmp_path):
    wb = Workbook()
    wb.active["A1"], wb.active["B1"] = 2, "=FIDE_TWICE(A1)"
    src = tmp_path / "book.xlsx"
    wb.save(src)
    (tmp_path / ".~lock.book.xlsx#").write_text("stale,lock,,\n")
    before = src.read_bytes()
    res = fake_office.recalc(src, tmp_path / "out" / "book.xlsx")
    assert src.read_bytes() == before
    assert load_workbook(res.dst, data_only=True).active["B1"].value == 4


def test_pdf_and_png(fake_office, tmp_path, artifacts_dir):
    from tests.harness import render

    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm missing") if os.environ.get("CI") != "true" else pytest.fail(
            "pdftoppm missing")
    wb = Workbook()
    ws = wb.active
    ws.title = "Cross table"
    ws["A1"], ws["B1"] = 21, "=FIDE_TWICE(A1)"
    wb.create_sheet("Other")["A1"] = "not rendered"
    src = tmp_path / "render_me.xlsx"
    wb.save(src)
    out = artifacts_dir / "lo_harness"
    pngs, res = render.render(fake_office, src, out, sheet="Cross table")
    assert res.calls == {"FIDE_TWICE": 1}
    assert pngs and all(p.stat().st_size > 0 for p in pngs)
    assert pngs[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "render_me-Cross_table.pdf").read_bytes()[:5] == b"%PDF-"
    assert len(pngs) == 1                       # only the chosen sheet


def test_worker_backend(fake_oxt, tmp_path, monkeypatch):
    """The /usr/bin/python3 worker used when this Python cannot import uno."""
    if not os.access(lo_calc.SYSTEM_PYTHON, os.X_OK):
        pytest.skip("no system python")
    monkeypatch.setenv("LO_CALC_BACKEND", "subprocess")
    with lo_calc.Office(str(fake_oxt)) as o:
        assert o.backend == "subprocess"
        res, ws = _recalc(o, tmp_path, lambda ws: ws.append([4, "=FIDE_TWICE(A1)",
                                                             "=FIDE_RAISE(1)", "=FIDE_SHAPE(Z9)"]))
    assert ws["B1"].value == 8 and ws["C1"].data_type == "e"
    assert ws["D1"].value == "scalar NoneType None"
    assert res.calls == {"FIDE_TWICE": 1, "FIDE_RAISE": 1, "FIDE_SHAPE": 1}


def test_mark_blank_arguments():
    m = lambda f: lo_calc.mark_blank_arguments(f, {"FIDE_X", "FIDE_Y"})  # noqa: E731
    s = lo_calc.BLANK_SENTINEL
    assert m("=FIDE_X(A1)") == f'=FIDE_X(IF(ISBLANK(A1),"{s}",A1))'
    assert m("=FIDE_X('My sheet'!$B$2)") == (
        f"=FIDE_X(IF(ISBLANK('My sheet'!$B$2),\"{s}\",'My sheet'!$B$2))")
    for same in ["=FIDE_X(A1:B2)", "=FIDE_X(A1+0)", "=FIDE_X(SUM(A1))", '=FIDE_X("A1")',
                 "=SUM(A1)", "=FIDE_X({1,2})", "plain text", "=FIDE_X(my_name)"]:
        assert m(same) == same
    assert m("=IF(A1=\"\",\"\",FIDE_X(FIDE_Y(B2),3))") == (
        f'=IF(A1="","",FIDE_X(FIDE_Y(IF(ISBLANK(B2),"{s}",B2)),3))')


def test_office_fixture_serves_xl_fide(office, tmp_path):
    """The session fixture other tests use: every xl_fide.udfs function is known."""
    import xl_fide
    from xl_fide import udfs

    def fill(ws):
        ws.append([2000, 1800, "=FIDE_EXPECTED(A1,B1)", "=FIDE_VERSION()",
                   "=FIDE_EXPECTED(A1,Z1)"])

    res, ws = _recalc(office, tmp_path, fill)
    assert ws["C1"].value == pytest.approx(float(udfs.FIDE_EXPECTED(2000.0, 1800.0)), rel=1e-12)
    assert ws["D1"].value == xl_fide.__version__
    assert ws["E1"].value == udfs.FIDE_EXPECTED(2000.0, None)     # blank input
    assert res.calls == {"FIDE_EXPECTED": 2, "FIDE_VERSION": 1}
    assert set(office.udf_names) == set(udfs.__all__)
