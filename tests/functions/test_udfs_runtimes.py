"""Issue 15: what classic Excel and xlwings Lite really pass, and what the workbook does
with typed results. Each numbered trap of the issue has a test here that failed before.

Reference values: FIDE_CHANGE(2000, {1950;2050;1810}, {1;0;0.5}, 10) = -2.5 is the
worked period of the FIDE B.02 §8.3 reference (README "From Python": K×ΣΔR -2.50).
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.harness.docs import docs_text
import pytest
from tests.harness.pyrun import run_python

from xl_fide import udfs
from xl_fide.cli._doctor import checks
from xl_fide.udfs import FIDE_CHANGE, FIDE_EVENT, FIDE_EVENT_SWISS, FIDE_EXPECTED, FIDE_K, FIDE_SCORE

ROOT = Path(__file__).resolve().parents[2]
NA = "#N/A"


class JsNull:
    """Stands for ``pyodide.ffi.JsNull`` (Pyodide >= 0.28's JavaScript ``null``): falsy,
    not None (as xlwings' own tests/test_jsnull.py fakes it)."""

    def __bool__(self):
        return False

    def __repr__(self):
        return "jsnull"


jsnull = JsNull()


# ------------------------------------------------------------ #2 blanks from Pyodide

def test_jsnull_is_a_blank_in_ranges_and_single_cells():
    # a fourth, empty pair of cells changes nothing: -2.5 (reference period)
    assert FIDE_CHANGE(2000, [1950, 2050, 1810, jsnull], [1, 0, 0.5, jsnull], 10) == -2.5
    assert FIDE_CHANGE(2000, [[1950], [2050], [1810], [jsnull]],
                       [[1], [0], [0.5], [jsnull]], 10) == -2.5
    assert FIDE_EXPECTED(jsnull, 2000) == NA
    assert FIDE_SCORE(jsnull) == NA
    # optional arguments left empty arrive as JsNull too: today's standard rules
    assert FIDE_EXPECTED(1892, 2022, jsnull, jsnull, jsnull) == 0.32
    # a K column with an empty row: "" in that row (blank rating), 20 elsewhere
    # (2000, 30+ games, adult -> K 20, B.02 §8.3.3)
    assert FIDE_K([2000, jsnull], [1980, jsnull]) == [[20], [""]]


def test_jsnull_in_a_whole_event():
    # 3-player round robin; row 3 empty (no rating, no results): the others still rate
    results = [[jsnull, 1, jsnull], [0, jsnull, jsnull], [jsnull, jsnull, jsnull]]
    rows = FIDE_EVENT([2000, 2000, jsnull], [20, 20, jsnull], results)
    # D = 0 -> PD .50; win: K 20 x (1 - .50) = +10.00; loss -10.00
    assert rows[0][5] == 10.0 and rows[1][5] == -10.0
    assert rows[2] == [""] * 11


def test_lite_requirements_pin_xlwings_0_36_7():
    # xlwings 0.36.7 fixed JsNull in custom functions (its docs/whatsnew.md)
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["dependencies"]
    assert "xlwings>=0.36.7" in deps
    readme = docs_text()
    lite = (ROOT / "docs" / "runtimes" / "lite.md").read_text("utf-8")
    assert "xlwings>=0.36.7" in lite
    assert "xlwings>=0.33" not in readme


# -------------------------------------------------------- #7 error values are reported

def test_error_in_an_opponent_rating_is_named_not_dropped():
    with pytest.raises(ValueError, match=r"opponent_ratings cell 2 is the Excel error #N/A"):
        FIDE_CHANGE(2000, [1950, "#N/A", 1810], [1, 0, 0.5], 10)
    with pytest.raises(ValueError, match=r"rating is the Excel error #DIV/0!"):
        FIDE_EXPECTED("#DIV/0!", 2000)
    # a rating cell's error shows in its own row's Ru, never in the other rows (issue 33 #5)
    out = FIDE_EVENT([2000, "#REF!"], [20, 20], [[None, 1], [0, None]])
    assert "ratings row 2 is the Excel error #REF!" in out[1][9] and out[1][:9] == [""] * 9
    assert out[0][0] == 0 and "#" not in str(out[0])      # an unrated opponent to row 1
    with pytest.raises(ValueError, match=r"k_factors row 1 is the Excel error #VALUE!"):
        FIDE_EVENT([2000, 2000], ["#VALUE!", 20], [[None, 1], [0, None]])


def test_error_in_a_k_column_row_shows_in_that_row():
    out = FIDE_K([2000, "#N/A"], [1980, 1980])
    assert out[0] == [20]
    assert "rating row 2 is the Excel error #N/A" in out[1][0]


def test_every_argument_asks_xlwings_for_error_text(monkeypatch):
    # both runtimes pass an error cell as None unless err_to_str is set (xlwings
    # _xlwindows.py / pro/_xlofficejs.py _clean_value_data_element); the VBA test
    # (test_udfs_vba.py) checks the option under the real classic decorators
    seen = []
    monkeypatch.setattr(udfs, "arg", lambda name, **options: (
        seen.append((name, options)) or (lambda f: f)))
    # (the shapes table of udfs keeps its own functions only: this lambda's goes into a
    # copy, or test_udfs.py's check of the table fails when run after this file)
    monkeypatch.setattr(udfs, "NDIM", dict(udfs.NDIM))
    udfs._args(("rating", "doc"), *udfs._GAMES)(lambda rating, opponent_ratings, scores: 0)
    assert [name for name, _ in seen] == ["scores", "opponent_ratings", "rating"]
    assert all(options["err_to_str"] is True for _, options in seen)
    assert seen[0][1]["ndim"] == 1 and "ndim" not in seen[2][1]


# ----------------------------------------------------------- issue 11: text budgets

def test_huge_number_text_is_answered_at_once():
    # in a subprocess so that a regression hangs the child, not the suite
    code = ("from xl_fide.udfs import FIDE_EXPECTED, FIDE_DP\n"
            "calls = [lambda t: FIDE_EXPECTED(t, 2000), lambda t: FIDE_EXPECTED(2000, 2000,\n"
            "         'fide', 'standard', t), FIDE_DP]\n"
            "for text in ('1e999999999', '1e100000', '-1e100000'):\n"
            "    for call in calls:\n"
            "        try:\n            call(text)\n"
            "        except ValueError as e:\n            print(str(e))\n")
    lines = run_python(code)
    assert len(lines) == 9
    assert lines[0] == "rating must be at most 4000, got a number of more than 30 digits"
    assert lines[1] == "event_date must be a date or an Excel date number, got '1e999999999'"
    assert lines[2] == "p must be a number from 0 to 1, got '1e999999999'"
    assert all("4300" not in line and len(line) < 100 for line in lines)


def test_messages_are_bounded():
    huge = "x" * 300_000
    for call in (lambda: FIDE_SCORE(huge), lambda: FIDE_EXPECTED(2000, huge),
                 lambda: FIDE_CHANGE(2000, [1950, huge], [1, 1], 20)):
        with pytest.raises(ValueError) as info:
            call()
        message = str(info.value)
        assert len(message) <= udfs.MESSAGE_MAX
        assert "300,000 characters" in message
    with pytest.raises(ValueError, match=r"opponent_ratings cell 2 is text of 300,000"):
        FIDE_CHANGE(2000, [1950, huge], [1, 1], 20)
    # a long message of the engine is cut, not lost entirely
    assert len(udfs._bounded("y" * 10_000)) == udfs.MESSAGE_MAX


# --------------------------------------------- #4 results that Excel changed on entry

SW_R, SW_K = [2000, 2000], [20, 20]
SW_OPP = [[2], [1]]


@pytest.mark.parametrize("cell, words", [
    (dt.datetime(2026, 1, 2), "a date (2026-01-02)"),            # classic: 1/2 typed
    (dt.datetime(1899, 12, 30, 1, 0), "a time (01:00)"),         # classic: 1:0 typed
    (46024, "the number 46024, a date"),                         # Lite: 1/2 as serial
    (1 / 24, "a time"),                                          # Lite: 1:0 as serial
    ("#NAME?", "the Excel error #NAME?"),                        # =-... typed: a formula
])
def test_converted_result_is_named(cell, words):
    with pytest.raises(ValueError) as info:
        FIDE_EVENT_SWISS(SW_R, SW_K, SW_OPP, [[cell], [0]])
    message = str(info.value)
    assert message.startswith("results row 1 round 1: " + words)
    assert "type results as text, e.g. ½" in message
    with pytest.raises(ValueError, match="type results as text"):
        FIDE_EVENT(SW_R, SW_K, [[None, cell], [0, None]])
    with pytest.raises(ValueError, match="type results as text"):
        FIDE_CHANGE(2000, [2000], [cell], 20)


def test_result_text_as_typed_in_a_text_cell_is_read():
    # what Text-formatted cells hold: the text as typed
    rows = FIDE_EVENT_SWISS(SW_R, SW_K, SW_OPP, [["1/2"], ["½"]])
    assert rows[0][5] == 0.0 and rows[0][1] == 0.5       # a draw at D 0: no change
    rows = FIDE_EVENT_SWISS(SW_R, SW_K, SW_OPP, [["1:0"], ["0:1"]])
    assert rows[0][5] == 10.0                             # K 20 x (1 - .50)
    rows = FIDE_EVENT_SWISS(SW_R, SW_K, SW_OPP, [["+"], ["-"]])
    assert rows[0][0] == 0                                # forfeit: not rated


def _result_cells(ws, geo):
    from xl_fide.excel._layout import _L
    if geo.layout == "roundrobin":
        return [f"{_L(geo.grid_col(j))}{r}" for r in range(geo.first, geo.last + 1)
                for j in range(1, geo.n + 1) if j != r - geo.first + 1]
    return [f"{_L(geo.round_col(k, 'res'))}{r}" for r in range(geo.first, geo.last + 1)
            for k in range(1, geo.rounds + 1)]


@pytest.mark.parametrize("layout, players, rounds", [("roundrobin", 6, 5), ("swiss", 8, 4)])
def test_result_cells_are_text_with_the_result_list(tmp_path, layout, players, rounds):
    from openpyxl import load_workbook

    from xl_fide.rules.results import VALIDATION_LIST
    from xl_fide.excel._layout import CROSS, _Geometry
    from xl_fide.excel._build import build_template
    from xl_fide.excel._fill import save_workbook
    path = save_workbook(build_template(layout, players, rounds), tmp_path / "t.xlsx")
    ws = load_workbook(path)[CROSS]
    geo = _Geometry(layout, players, rounds)
    cells = _result_cells(ws, geo)
    assert all(ws[c].number_format == "@" for c in cells)
    lists = [dv for dv in ws.data_validations.dataValidation if dv.type == "list"
             and dv.formula1.strip('"').split(",")[:len(VALIDATION_LIST)] == list(VALIDATION_LIST)]
    for c in cells:
        assert any(c in dv.sqref for dv in lists), c
    # the other inputs keep their number formats (Ro is a number)
    from xl_fide.excel._layout import _L
    assert ws[f"{_L(geo.col['ro'])}{geo.first}"].number_format == "0"


# ------------------------------------------------------------------------ #5 .xlsm

@pytest.mark.parametrize("argv", [
    ["template", "--layout", "swiss", "--players", "10"],
    ["crosstable", "--example"],
])
def test_xlsm_output_is_refused_in_one_line(tmp_path, argv):
    out = tmp_path / "event.xlsm"
    done = subprocess.run([sys.executable, "-m", "xl_fide", *argv, "-o", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Import Functions" in lines[0] and ".xlsx" in lines[0]
    assert list(tmp_path.iterdir()) == []          # no file, no temporary file


# --------------------------------------------------------------- #3 doctor and README

def test_doctor_on_linux_says_what_it_cannot_check(tmp_path):
    lines, ok = checks(platform="linux", home=tmp_path, xlwings_version="0.37.8")
    text = "\n".join(lines)
    assert "everything needed was found" not in text
    assert "cannot be checked on linux" in text
    assert "Tools > References > xlwings" in text and "Ctrl+Alt+F9" in text
    assert ok                     # nothing wrong with what it could check


def test_doctor_on_windows_lists_what_only_excel_can_see(tmp_path, monkeypatch):
    monkeypatch.setenv("APPDATA", str(tmp_path))
    lines, _ = checks(platform="win32", home=tmp_path, xlwings_version="0.37.8")
    text = "\n".join(lines)
    assert "everything needed was found" not in text
    assert "Not checked" in text and "Trust access to the VBA project" in text


def test_readme_classic_steps_have_the_vba_reference_and_full_recalc():
    classic = (ROOT / "docs" / "runtimes" / "excel.md").read_text("utf-8")
    assert "Tools › References" in classic and "xlwings" in classic
    assert "Ctrl+Alt+F9" in classic
