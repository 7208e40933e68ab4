"""The LibreOffice extension (`xl-fide libreoffice`, xl_fide/libreoffice/) as a user gets it.

Without LibreOffice: the shipped type library is current, the extension holds what it
should (Function Wizard texts from the functions' own docstrings, version, publisher,
licence, the engine's files and nothing that needs openpyxl or xlwings), the shipped
files need no newer Python than LibreOffice's (vermin), and the functions answer the
published FIDE examples on the Python that LibreOffice bundles (3.12, see
xl_fide/libreoffice/_build.py) when pyenv has it.

In LibreOffice (bounded: one `unopkg add` into a fresh profile, one soffice): the
shipped UDF templates and the UDF cross-tables of a few TRFs recalculate to the
engine's report with no error cell; FIDE_* formulas typed into a new sheet give FIDE's
published numbers; bad input answers a message; `unopkg remove` takes the functions away.
No blank-cell rewriting here (``xlwings_blanks=False``): the workbooks are what a user opens.
"""
from __future__ import annotations

import ast
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from tests.conftest import require_libreoffice
from tests.harness import lo_calc
from tests.excel.test_workbook import TEMPLATES, TRF_FILES
from tests.excel.test_workbook_lo import (
    assert_blank_rows, assert_checks_clean, assert_matches_report, assert_no_bad_cells,
)
from xl_fide import udfs
from xl_fide._version import __version__
from xl_fide.cli import main
from xl_fide.excel._fill import save_workbook
from xl_fide.excel._layout import DEFAULT_TEMPLATES
from xl_fide.libreoffice import _build, _cells
from xl_fide.libreoffice._spec import read_functions
from xl_fide.event.report import build_report
from xl_fide.trf import read_trf

IDENTIFIER = _build.IDENTIFIER
# a few TRFs: a round robin, a Swiss with unrated players, a rapid event (CI time)
SOME_TRFS = [p for p in TRF_FILES if p.stem in (
    "roundrobin_12_synthetic", "online_swiss_2020_unrated", "mini_trf2026_rapid_222")]


@pytest.fixture(scope="module")
def oxt(tmp_path_factory):
    out = tmp_path_factory.mktemp("oxt") / "xl-fide.oxt"
    assert main(["libreoffice", "-o", str(out)]) == 0
    return out


def _zip_text(oxt, name):
    with zipfile.ZipFile(oxt) as z:
        return z.read(name).decode("utf-8")


# ----------------------------------------------------------------------------- no LibreOffice

def test_shipped_type_library_is_current():
    """The IDL of today's functions is the one the shipped XFide.rdb was compiled from;
    with the SDK at hand, recompiling it gives the same bytes."""
    idl, rdb = _build.shipped_rdb()
    assert _build.idl_text(read_functions()) == idl, (
        "run `python -m xl_fide.libreoffice.build_rdb` and commit xl_fide/libreoffice/data")
    if _build.find_unoidl_write() is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("unoidl-write (libreoffice-dev) missing under CI=true")
        pytest.skip("no LibreOffice SDK: the .rdb bytes are not rebuilt")
    assert _build.compile_rdb(idl) == rdb


def test_extension_contents(oxt):
    with zipfile.ZipFile(oxt) as z:
        names = set(z.namelist())
    assert {"META-INF/manifest.xml", "description.xml", "LICENSE.txt", "XFide.rdb",
            "xfide.py", "CalcAddIns.xcu", "pythonpath/xl_fide/udfs.py",
            "pythonpath/xl_fide/rules/rating.py"} <= names
    desc = _zip_text(oxt, "description.xml")
    assert f'<version value="{__version__}"/>' in desc
    assert f'<identifier value="{IDENTIFIER}"/>' in desc
    assert ">xl-fide</name></publisher>" in desc
    assert _zip_text(oxt, "LICENSE.txt").startswith("MIT License")
    # the Function Wizard: every function, its docstring's first line, its arguments'
    # names and the docs of their xlwings @arg, in order
    xcu = _zip_text(oxt, "CalcAddIns.xcu")
    assert re.findall(r'CompatibilityName"><value [^>]*>([^<]+)<', xcu) == udfs.__all__
    for name in udfs.__all__:
        fn = getattr(udfs, name)
        summary = fn.__doc__.strip().splitlines()[0]
        idl = _build._idl_name(name)
        block = re.search(rf'<node oor:name="{idl}" oor:op="replace">(.*?)</node></node>\n',
                          xcu, re.S).group(1)
        assert summary.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in block
        for arg, (doc, _) in getattr(fn, "arg_docs", {}).items():
            assert f">{arg}</value>" in block
            assert doc.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in block


def test_shipped_python_files_need_no_openpyxl_nor_xlwings(oxt):
    with zipfile.ZipFile(oxt) as z:
        for name in z.namelist():
            if name.endswith(".py"):
                tree = ast.parse(z.read(name))
                for node in ast.walk(tree):
                    mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                            else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                    for m in mods:
                        top = m.split(".")[0]
                        assert top not in ("openpyxl", "defusedxml"), f"{name} imports {m}"
                        assert top != "xlwings" or name in (
                            "pythonpath/xl_fide/udfs.py",
                            "pythonpath/xl_fide/libreoffice/_xlwings_standin.py"), name


def _extract(oxt, dest):
    with zipfile.ZipFile(oxt) as z:
        z.extractall(dest)
    return Path(dest)


def test_vermin_minimum_python(oxt, tmp_path):
    """The shipped files run on Python 3.11 (Debian's LibreOffice) and so on the 3.12
    that LibreOffice bundles on Windows and macOS."""
    vermin = shutil.which("vermin") or str(Path(sys.executable).with_name("vermin"))
    if not os.path.exists(vermin):
        pytest.skip("vermin not installed (pip install vermin)")
    root = _extract(oxt, tmp_path / "oxt")
    target = ".".join(map(str, _build.PYTHON_MIN))
    r = subprocess.run([vermin, "--no-tips", "--violations", f"-t={target}-",
                        str(root / "pythonpath"), str(root / "xfide.py")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_what_calc_passes_becomes_what_xlwings_passes():
    """_cells, the call path inside LibreOffice, without LibreOffice: shapes, blanks,
    omitted arguments, the 0 Calc passes for a blank cell, results, messages."""
    conv = _cells.convert
    assert conv(2000.0, {}) == 2000.0
    assert conv(((1.0, ""), (3.0, 4.0)), {}) == [[1.0, None], [3.0, 4.0]]   # a block
    assert conv(((1.0,), ("",)), {}) == [1.0, None]                        # a column
    assert conv(((5.0,),), {"ndim": 1}) == [5.0]
    assert conv(((5.0,),), {"ndim": 2}) == [[5.0]]
    assert conv(0.0, {"zero_is_blank": True}) is None
    assert conv(0.0, {}) == 0.0 and conv(((0.0,),), {"zero_is_blank": True}) == 0.0
    assert conv(_cells.BLANK, {}) is None
    (spec,) = [f for f in read_functions() if f.name == "FIDE_K"]
    k = _cells.Function("FIDE_K", udfs.FIDE_K, [p.name for p in spec.params],
                        {p.name: {"zero_is_blank": p.zero_is_blank, "ndim": p.ndim}
                         for p in spec.params})
    assert k.arguments((2000.0, 0.0, None)) == [2000.0, None]     # omitted trailing: dropped
    assert k.arguments((2000.0, None, 0.0)) == [2000.0, None, 0.0]   # games 0 is 0 games
    assert _cells.call(k, (2000.0, 0.0)) == ((20.0,),)
    assert _cells.result([[1, None], [2]]) == ((1.0, ""), (2.0, ""))
    assert _cells.result([1, 2]) == ((1.0, 2.0),) and _cells.result(None) == (("",),)
    with pytest.raises(udfs.InputError) as exc:
        udfs.FIDE_K(2000.5)
    assert _cells.call(k, (2000.5,), (udfs.InputError,)) == ((str(exc.value),),)
    with pytest.raises(udfs.InputError):
        _cells.call(k, (2000.5,))                                   # not a message type
    block = ((1.0, 2.0), (3.0, 4.0))
    change = _cells.Function("FIDE_CHANGE", udfs.FIDE_CHANGE,
                             ["rating", "opponent_ratings", "scores", "k"],
                             {"opponent_ratings": {"ndim": 1}, "scores": {"ndim": 1}})
    assert _cells.call(change, (2000.0, block, block, 20.0), (udfs.InputError,)) == ((
        "opponent_ratings: give a row or a column, got 2 rows by 2 columns",),)


def test_command_refuses_with_one_line(tmp_path, capsys):
    out = tmp_path / "xl-fide.oxt"
    out.write_bytes(b"mine")
    assert main(["libreoffice", "-o", str(out)]) == 2
    assert main(["libreoffice", "-o", str(tmp_path / "xl-fide.zip")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "not overwritten" in err[0] and ".oxt" in err[1]
    assert out.read_bytes() == b"mine" and not (tmp_path / "xl-fide.zip").exists()


def test_crosstable_says_how_to_compute_without_excel(tmp_path, capsys):
    trf = SOME_TRFS[0]
    assert main(["crosstable", str(trf), "-o", str(tmp_path / "u.xlsx"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "xl-fide libreoffice" in out and "--formulas native" in out
    assert main(["crosstable", str(trf), "-o", str(tmp_path / "n.xlsx"), "-q",
                 "--formulas", "native"]) == 0
    assert "libreoffice" not in capsys.readouterr().out


# Published FIDE calculations (FIDE B.02; hand-worked in the regulations' examples):
# (formula, expected)
PUBLISHED = [
    ("=FIDE_EXPECTED(1892,2022)", 0.32),            # D = -130 -> PD .32 (§8.1.2 table)
    ("=FIDE_DELTA(1892,2022,1,40)", 27.2),          # 40 x (1 - .32) = +27.2
    ("=FIDE_DELTA(1892,2022,1,20)", 13.6),          # at K 20
    ("=FIDE_DELTA(2400,2400,1,10)", 5),             # PD .50 -> +5
    ("=FIDE_DELTA(2000,2000,0,20)", -10),           # loss at PD .50, K 20
    ("=FIDE_DELTA(1500,2900,1,40)", 36.8),          # capped to 400: PD .08 -> 40 x .92 (+37)
    ("=FIDE_DELTA(2200,2700,0,20)", -1.6),          # 2200 capped: PD .08 -> 20 x -.08
    ("=FIDE_NEW_RATING(2000,A1:A3,B1:B3,10)", 1997),   # W 1950, L 2050, D 1810: -2.50 -> -3
    ("=FIDE_CHANGE(2000,A1:A3,B1:B3,10)", -2.5),
    ("=FIDE_INITIAL_RATING(C1:C5,D1:D5)", 1922),    # Ra 13107/7, p 4/7 -> .57 -> dp 50
    ("=FIDE_INITIAL_RATING(E1:E5,F1:F5)", 1514),    # five draws vs five 1400s
    ("=FIDE_PERFORMANCE(G1:G7,H1:H7)", 1676),       # 0/7 vs 2476: dp(0) = -800
    ("=FIDE_NORM(I1:I9,J1:J9,\"GM\")", 2609),       # 2150 raised to 2200, Ra 2443, +166
    ("=FIDE_TPR(K1:K3,L1:L3)", 2225),               # 2/3 vs 2000, 2100, 2200
    ("=FIDE_PTP(K1:K3,L1:L3)", 2226),
    ("=FIDE_DP(0.67)", 125),                        # §8.1.1 table
    ("=FIDE_PD(130)", 0.68),
    ("=FIDE_SCORE(\"½\")", 0.5),
]
DATA_COLUMNS = {
    "A": [1950, 2050, 1810], "B": [1, 0, "½"],
    "C": [1902, 1877, 1884, 2012, 1832], "D": [1, 1, 1, 0, 0],
    "E": [1400] * 5, "F": ["½"] * 5,
    "G": [2476] * 7, "H": [0] * 7,
    "I": [2500, 2450, 2400, 2550, 2480, 2420, 2390, 2600, 2150],
    "J": [1, 1, "½", "½", 1, 1, 0, "½", 1],
    "K": [2000, 2100, 2200], "L": [1, 1, 0],
}


def _published_sheet(path):
    wb = Workbook()
    ws = wb.active
    for col, values in DATA_COLUMNS.items():
        for i, v in enumerate(values, 1):
            ws[f"{col}{i}"] = v
            if isinstance(v, str):
                ws[f"{col}{i}"].data_type = "s"
    for i, (formula, _) in enumerate(PUBLISHED, 1):
        ws[f"N{i}"] = formula
    wb.save(path)


_PY312_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from xl_fide.libreoffice import _cells, _xlwings_standin
assert _xlwings_standin.install(), "a real xlwings: the stand-in is not tested"
from xl_fide import udfs
cases = json.loads(sys.argv[2])
out = []
import inspect
for name, args in cases:
    f = getattr(udfs, name)
    fn = _cells.Function(name, f, list(inspect.signature(f).parameters), {})
    args = [tuple(tuple(r) for r in a) if isinstance(a, list) else a for a in args]
    out.append(_cells.call(fn, tuple(args), (udfs.InputError,))[0][0])
print(json.dumps([sys.version_info[:2], out]))
"""


def _python(version):
    for base in sorted(Path.home().glob(f".pyenv/versions/{version}.*"), reverse=True):
        exe = base / "bin" / "python"
        if exe.exists():
            return exe
    return None


def test_functions_on_libreoffice_bundled_python(oxt, tmp_path):
    """The extension's own files, on the Python LibreOffice bundles, without openpyxl or
    xlwings: published examples and a message, through the same call path Calc uses."""
    want = ".".join(map(str, _build.LIBREOFFICE_PYTHON))
    exe = _python(want)
    if exe is None:
        pytest.skip(f"no Python {want} under ~/.pyenv")
    root = _extract(oxt, tmp_path / "oxt")
    col = lambda *v: [[x] for x in v]  # noqa: E731  (a column as Calc passes it)
    cases = [
        ("FIDE_EXPECTED", [1892.0, 2022.0]),
        ("FIDE_NEW_RATING", [2000.0, col(1950.0, 2050.0, 1810.0), col(1.0, 0.0, "½"), 10.0]),
        ("FIDE_INITIAL_RATING", [col(1902.0, 1877.0, 1884.0, 2012.0, 1832.0),
                                 col(1.0, 1.0, 1.0, 0.0, 0.0)]),
        ("FIDE_EXPECTED", [2000.5, 1800.0]),
    ]
    r = subprocess.run([str(exe), "-I", "-c", _PY312_SCRIPT, str(root / "pythonpath"),
                        json.dumps(cases)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    version, out = json.loads(r.stdout)
    assert tuple(version) == _build.LIBREOFFICE_PYTHON
    with pytest.raises(udfs.InputError) as exc:
        udfs.FIDE_EXPECTED(2000.5, 1800.0)
    assert out == [0.32, 1997.0, 1922.0, str(exc.value)]


# ----------------------------------------------------------------------------- LibreOffice

@pytest.fixture(scope="module")
def installed_office(oxt):
    """(Office, profile): the extension added by `unopkg add` into a fresh profile, and
    soffice running on that profile (no add-in installed by the harness)."""
    require_libreoffice()
    home = tempfile.mkdtemp(prefix="xl_fide_unopkg_")
    profile = os.path.join(home, "profile")
    try:
        r = lo_calc.unopkg("add", "-s", str(oxt), profile=profile)
        assert r.returncode == 0, r.stdout + r.stderr
        listed = lo_calc.unopkg("list", profile=profile)
        assert f"Identifier: {IDENTIFIER}" in listed.stdout
        office = lo_calc.Office(None, profile=profile)
        yield office, profile
        office.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _recalc(office, src, tmp_path):
    dst = tmp_path / (Path(src).stem + ".recalc.xlsx")
    res = office.recalc(src, dst, xlwings_blanks=False)
    return res, load_workbook(dst, data_only=True), load_workbook(src)


def test_function_wizard_shows_the_docstrings(installed_office):
    """Calc's own function list: each function's first docstring line, its arguments'
    names and @arg docs, an argument optional exactly when its Python parameter has a
    default (the Function Wizard marks the others required)."""
    office, _ = installed_office
    shown = office.function_descriptions("FIDE_")
    assert sorted(shown) == sorted(udfs.__all__)
    for name in udfs.__all__:
        fn = getattr(udfs, name)
        docs = getattr(fn, "arg_docs", {})
        params = inspect.signature(fn).parameters
        assert shown[name]["description"] == fn.__doc__.strip().splitlines()[0]
        assert shown[name]["arguments"] == [
            [arg, docs[arg][0], params[arg].default is not inspect.Parameter.empty]
            for arg in docs]


@pytest.mark.parametrize("filename", sorted(f for f in DEFAULT_TEMPLATES if "_native" not in f))
def test_shipped_udf_templates(installed_office, filename, tmp_path):
    office, _ = installed_office
    res, values, formulas = _recalc(office, TEMPLATES / filename, tmp_path)
    assert res.errors == [] and res.calls        # the functions ran, without an error
    assert_no_bad_cells(values)
    assert_blank_rows(values, formulas, range(5, 5 + DEFAULT_TEMPLATES[filename][1]))


@pytest.mark.parametrize("trf", SOME_TRFS, ids=lambda p: p.stem)
def test_udf_crosstables_of_trfs(installed_office, trf, tmp_path):
    office, _ = installed_office
    src = tmp_path / f"{trf.stem}.xlsx"
    assert main(["crosstable", str(trf), "-o", str(src), "--quiet"]) == 0
    t = read_trf(trf)
    report = build_report(t)
    res, values, formulas = _recalc(office, src, tmp_path)
    assert res.errors == []
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas, report)
    assert_checks_clean(values, formulas, len(t.players))


def test_typed_formulas_give_fides_numbers(installed_office, tmp_path):
    office, _ = installed_office
    src = tmp_path / "mine.xlsx"
    _published_sheet(src)
    res, values, _ = _recalc(office, src, tmp_path)
    ws = values.active
    got = [ws[f"N{i}"].value for i in range(1, len(PUBLISHED) + 1)]
    assert got == [pytest.approx(want, abs=1e-9) for _, want in PUBLISHED]
    assert res.errors == []
    # saved by LibreOffice as .xlsx, the formulas keep their Excel names
    saved = load_workbook(res.dst).active
    assert [saved[f"N{i}"].value for i in range(1, len(PUBLISHED) + 1)] == [
        f for f, _ in PUBLISHED]


def test_blank_cells_and_bad_input_answer_in_the_cell(installed_office, tmp_path):
    """A blank cell given alone reaches the function as blank (Calc passes 0), bad input
    answers the function's own message, a huge text answers at once (no hang)."""
    office, _ = installed_office
    wb = Workbook()
    ws = wb.active
    ws["B1"] = 2000                                          # A1 and C1 blank
    ws["D1"] = "=FIDE_EXPECTED(A1,1800)"                     # blank rating -> #N/A
    ws["D2"] = "=FIDE_K(B1,C1)"                              # blank birth year -> 20
    ws["D3"] = "=FIDE_EXPECTED(2000.5,1800)"
    ws["D4"] = '=FIDE_SCORE("2-0")'
    ws["D5"] = '=FIDE_SCORE(REPT("x",100000))'
    ws["D6"] = "=FIDE_NEW_RATING(B1,A1:A3,C1:C2,20)"         # 3 opponents, 2 scores
    save_workbook(wb, tmp_path / "bad.xlsx", force=True)
    res, values, _ = _recalc(office, tmp_path / "bad.xlsx", tmp_path)
    got = [values.active[f"D{i}"].value for i in range(1, 7)]

    def message(fn, *args):
        with pytest.raises(udfs.InputError) as exc:
            fn(*args)
        return str(exc.value)

    assert got == [
        "#N/A", 20,
        message(udfs.FIDE_EXPECTED, 2000.5, 1800.0),
        message(udfs.FIDE_SCORE, "2-0"),
        message(udfs.FIDE_SCORE, "x" * 100000),
        message(udfs.FIDE_NEW_RATING, 2000.0, [None] * 3, [None] * 2, 20.0),
    ]
    assert all(c.data_type != "e" for c in values.active["D"])
    assert len(set(res.errors)) == 4                  # the harness saw the 4 messages


def test_unopkg_remove_takes_the_functions_away(installed_office, tmp_path):
    """Last in this module: remove as a user would, start again, the names are unknown."""
    office, profile = installed_office
    office.close()
    r = lo_calc.unopkg("remove", IDENTIFIER, profile=profile)
    assert r.returncode == 0, r.stdout + r.stderr
    assert IDENTIFIER not in lo_calc.unopkg("list", profile=profile).stdout
    wb = Workbook()
    wb.active["A1"] = "=FIDE_VERSION()"
    wb.save(tmp_path / "gone.xlsx")
    with lo_calc.Office(None, profile=profile) as again:
        res = again.recalc(tmp_path / "gone.xlsx", tmp_path / "gone.recalc.xlsx",
                           xlwings_blanks=False)
    cell = load_workbook(res.dst, data_only=True).active["A1"]
    assert (cell.value, cell.data_type) == ("#NAME?", "e") and res.calls == {}
