"""The FIDE_* functions inside Pyodide (the Python of xlwings Lite), under Node.

The wheel built from this checkout is unpacked into Pyodide from the local file system
(no CDN, no micropip) and the functions are called with what Office.js hands to Lite's
custom functions: numbers, text, and ranges as arrays of arrays with JavaScript
``null`` for empty cells, converted by Pyodide's ``to_py()`` as xlwings Lite does. In
Pyodide >= 0.28 such a ``null`` arrives as ``pyodide.ffi.jsnull`` (type ``JsNull``),
which xlwings < 0.36.7 passed on to the functions (issue 15, #2).

Needs ``node`` and the npm package ``pyodide`` (XL_FIDE_PYODIDE_DIR, or
``.cache/node/node_modules/pyodide`` where ``.ci/run`` installs it); skips without them.
No xlwings PRO code or key is involved: xlwings' decorators are no-ops here as on Linux.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "harness" / "pyodide_udfs.mjs"


def _pyodide_dir() -> Path | None:
    for candidate in (os.environ.get("XL_FIDE_PYODIDE_DIR"),
                      ROOT / ".cache" / "node" / "node_modules" / "pyodide"):
        if candidate and (Path(candidate) / "pyodide.mjs").is_file():
            return Path(candidate)
    return None


NODE = shutil.which("node")
PYODIDE = _pyodide_dir()
pytestmark = [pytest.mark.pyodide, pytest.mark.skipif(NODE is None or PYODIDE is None,
                                reason="node or the npm package pyodide is missing")]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    for extra in ([], ["--no-build-isolation"]):
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps",
                               "-q", "-w", str(out), *extra],
                              capture_output=True, text=True, timeout=600)
        wheels = list(out.glob("xl_fide-*-py3-none-any.whl"))
        if done.returncode == 0 and wheels:
            return wheels[0]
    pytest.skip("could not build the wheel (no build backend reachable)")


def run_in_pyodide(wheel, cases, tmp_path):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    done = subprocess.run([NODE, str(DRIVER), str(PYODIDE), str(wheel), str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


# JSON null is JavaScript null. Expected values by hand (FIDE B.02 §8.3, table 8.1.2):
# the reference period 2000 K 10 vs 1950 (1), 2050 (0), 1810 (½) = -2.50; a blank pair
# adds nothing. Two 2000s, K 20: PD .50, a win +10.00.
CASES = [
    (["FIDE_CHANGE", [2000, [[1950], [2050], [1810], [None]], [[1], [0], [0.5], [None]], 10]],
     {"ok": -2.5}),
    (["FIDE_EXPECTED", [[[None]], 2000]], {"ok": "#N/A"}),
    (["FIDE_EXPECTED", [1892, 2022, [[None]], [[None]], [[None]]]], {"ok": 0.32}),
    (["FIDE_K", [[[2000], [None]], [[1980], [None]]]], {"ok": [[20], [""]]}),
    # the player sheet passes "" for a blank input (never the blank cell: LibreOffice would
    # pass 0): blank games so far = 30 or more, K 20 (issue 32.4)
    (["FIDE_K", [1892, "", "", "", "", 2025, "standard", ""]], {"ok": 20}),
    (["FIDE_EVENT_SWISS", [[[2000], [2000], [None]], [[20], [20], [None]],
                           [[2], [1], [None]], [["1"], ["0"], [None]]]],
     {"ok": [[1, 1, 0.5, 0.5, 20, 10, 10, 2010, 2800, "", 2000],    # Rc: the one 2000
             [1, 0, 0.5, -0.5, 20, -10, -10, 1990, 1200, "", 2000],
             [""] * 11]}),
]


def test_udfs_in_pyodide_with_js_shaped_arguments(wheel, tmp_path):
    out = run_in_pyodide(wheel, [call for call, _ in CASES], tmp_path)
    assert out["jsnull_type"] == "JsNull" and out["null_in_list"] == "JsNull"
    for (call, expected), got in zip(CASES, out["results"]):
        assert got == expected, call


def test_errors_and_dates_in_pyodide(wheel, tmp_path):
    cases = [["FIDE_CHANGE", [2000, [[1950], ["#N/A"]], [[1], [1]], 20]],
             ["FIDE_CHANGE", [2000, [[1950]], [[46024]], 20]]]      # 1/2 became a date
    a, b = run_in_pyodide(wheel, cases, tmp_path)["results"]
    assert "opponent_ratings cell 2 is the Excel error #N/A" in a["error"]
    assert "a date" in b["error"] and "type results as text" in b["error"]
