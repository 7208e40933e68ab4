"""Issue 32's measured prototype: could XlsxWriter write every workbook xl-fide writes?

Not a test: run it by hand (``pip install xlsxwriter`` first)::

    python benchmarks/xlsxwriter_prototype.py [--players 2000] [--rounds 15] [--repeat 3]

It writes the 2000 x 15 native cross-table with ``xl-fide crosstable --formulas native``
(today's write path: openpyxl, below its public API, cached values patched into the
package), reads every cell of it back (formula text and cached value), then writes the
same cells three ways in child processes and prints CPU seconds and peak memory (RSS) of
each, as ratios to the floor of the same run:

* ``floor``: openpyxl write-only, values only (``user_paths_excel.WRITE_ONLY_SCRIPT``,
  the crosstable row's floor);
* ``xlsxwriter``: XlsxWriter in ``constant_memory`` mode, every formula written with its
  cached value through the public ``write_formula(row, col, formula, format, value)``,
  one number format per column; nothing below a public API;
* ``xl-fide``: the whole command (parse, rate, build, check, save).

What the prototype leaves out of the XlsxWriter side: data validation, protection,
print settings and defined names (a few dozen calls, not per cell); the engine's own time
(parse and rate, in the ``xl-fide`` row). So ``xlsxwriter`` / ``floor`` says whether a
write path on XlsxWriter can stay within 2x the floor, and its peak whether 150 MB holds.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from runner import ENV, swiss_file, xl_fide_command  # noqa: E402
from user_paths_excel import WRITE_ONLY_SCRIPT as FLOOR  # noqa: E402

XLSXWRITER = r"""
import pickle, sys
import xlsxwriter
sheets = pickle.load(open(sys.argv[1], "rb"))
wb = xlsxwriter.Workbook(sys.argv[2], {"constant_memory": True, "strings_to_formulas": False,
                                      "strings_to_numbers": False, "strings_to_urls": False})
for title, rows in sheets:
    ws = wb.add_worksheet(title)
    for r, row in enumerate(rows):
        for c, (v, cached) in enumerate(row):
            if v is None:
                continue
            if isinstance(v, str) and v.startswith("="):
                ws.write_formula(r, c, v, None, cached if cached is not None else "")
            elif isinstance(v, str):
                ws.write_string(r, c, v)
            elif isinstance(v, bool):
                ws.write_boolean(r, c, v)
            elif isinstance(v, (int, float)):
                ws.write_number(r, c, v)
            else:
                ws.write(r, c, v)
wb.close()
"""


def cells_with_values(xlsx: Path) -> list[tuple[str, list[list[tuple[object, object]]]]]:
    """Every sheet's rows of (value or formula text, cached value)."""
    from openpyxl import load_workbook
    formulas = load_workbook(xlsx, read_only=True)
    values = load_workbook(xlsx, read_only=True, data_only=True)
    out = []
    for ws in formulas.worksheets:
        wv = values[ws.title]
        rows = []
        for frow, vrow in zip(ws.iter_rows(values_only=True), wv.iter_rows(values_only=True)):
            rows.append([(f if not hasattr(f, "text") else f"={f.text}", v)
                         for f, v in zip(frow, vrow)])
        out.append((ws.title, rows))
    return out


def run(cmd: list[str]) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and peak RSS (KiB) of one child process."""
    code = ("import resource, subprocess, sys; "
            "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
            "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
            "print(r.ru_utime + r.ru_stime, r.ru_maxrss)")
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True,
                          env=ENV, check=True)
    wall = time.perf_counter() - t0
    cpu, peak = done.stdout.split()
    return float(cpu), wall, int(peak)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for flag, default in (("--players", 2000), ("--rounds", 15), ("--repeat", 3)):
        ap.add_argument(flag, type=int, default=default)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        trf = swiss_file(folder, a.players, a.rounds)
        book = folder / "native.xlsx"
        ours = [*xl_fide_command(), "crosstable", str(trf), "--formulas", "native", "-o", str(book)]
        subprocess.run(ours, check=True, env=ENV, stdout=subprocess.DEVNULL)
        sheets = cells_with_values(book)
        cells, values = folder / "cells.pickle", folder / "values.pickle"
        cells.write_bytes(pickle.dumps(sheets))
        values.write_bytes(pickle.dumps([(title, [[v for v, _ in row] for row in rows])
                                         for title, rows in sheets]))
        n = sum(len(row) for _, rows in sheets for row in rows)
        print(f"{a.players} x {a.rounds} native cross-table: {n:,} cells in its sheets")
        rows = {"floor": [sys.executable, "-c", FLOOR, str(values), str(folder / "floor.xlsx")],
                "xlsxwriter": [sys.executable, "-c", XLSXWRITER, str(cells),
                               str(folder / "xw.xlsx")],
                "xl-fide": [*ours[:-1], str(folder / "again.xlsx"), "--force"]}
        results: dict[str, list[tuple[float, float, int]]] = {k: [] for k in rows}
        for _ in range(a.repeat):
            for name, cmd in rows.items():
                results[name].append(run(cmd))
        floor_cpu = statistics.median(r[0] for r in results["floor"])
        floor_peak = statistics.median(r[2] for r in results["floor"])
        for name, rs in results.items():
            cpu = statistics.median(r[0] for r in rs)
            peak = statistics.median(r[2] for r in rs)
            print(f"{name:<11} CPU {cpu:6.2f} s  ratio {cpu / floor_cpu:5.2f}   "
                  f"peak {peak / 1024:6.0f} MB  ratio {peak / floor_peak:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
