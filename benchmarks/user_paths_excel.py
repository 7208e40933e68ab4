"""The cross-table workbook, timed against its floors in the same run (issue 23).

Not a test: run it by hand (see benchmarks/README.md)::

    python benchmarks/user_paths_excel.py [--players 2000] [--rounds 15] [--repeat 3]
    python benchmarks/user_paths_excel.py --only crosstable      # or: --only open

Rows, each as child processes run alternately ``--repeat`` times after one untimed run
of each (as in ``benchmarks/user_paths.py``):

* ``crosstable udf`` / ``crosstable native``: ``xl-fide crosstable FILE -o OUT.xlsx
  --formulas udf|native`` of a synthetic Swiss (``tests/harness/synthetic.py``, seeded)
  written as a TRF, against its floor: a script that writes the same cells of the
  same sheets (every constant and every formula, as the workbook xl-fide wrote holds
  them) with openpyxl's write-only mode. The floor reads those cells from a pickle made
  (untimed) from xl-fide's workbook; it writes no styles, column widths, defined names,
  validations or cached values. CPU time of the child (user + system).
* ``LibreOffice open``: ``soffice --headless --convert-to csv`` (a fresh private
  profile each time: the load of the whole workbook, the first sheet exported) of the
  native workbook, against the same command on its values-only copy (every ``<f>``
  element removed from the sheets: the cells keep their cached values; nothing else
  changes). Wall time (soffice runs as a child of the launcher). The start-up alone
  (the same command on a one-cell workbook) is printed, to read the ratio without it.
"""

from __future__ import annotations

import argparse
import io
import os
import pickle
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from runner import ENV, run, swiss_file, xl_fide_command  # noqa: E402

# The crosstable's floor: the same cells, openpyxl write-only, no styles.
WRITE_ONLY_SCRIPT = r"""
import pickle, sys
from openpyxl import Workbook
sheets = pickle.load(open(sys.argv[1], "rb"))
wb = Workbook(write_only=True)
for title, rows in sheets:
    ws = wb.create_sheet(title)
    for row in rows:
        ws.append(row)
wb.save(sys.argv[2])
"""


def cells_of(xlsx: Path) -> list[tuple[str, list[list[object]]]]:
    """Every sheet's rows (constants and formula texts) of a saved workbook."""
    from openpyxl import load_workbook
    wb = load_workbook(xlsx)
    return [(ws.title, [list(r) for r in ws.iter_rows(values_only=True)])
            for ws in wb.worksheets]


_FORMULA = re.compile(rb"<f(?:\s[^>]*?)?(?:/>|>.*?</f>)", re.S)   # <f ../> too (shared)


def values_only(xlsx: Path, out: Path) -> Path:
    """``xlsx`` with every formula removed: each cell keeps its cached value."""
    with zipfile.ZipFile(xlsx) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.startswith("xl/worksheets/"):
                data = _FORMULA.sub(b"", data)
            dst.writestr(info, data)
    return out


def paired(name: str, cmd: list[str], floor: list[str], repeat: int, *,
           wall: bool = False) -> tuple[float, float]:
    """As ``user_paths.paired``; ``wall``: compare wall time (soffice's work happens in a
    process the launcher starts, outside RUSAGE_CHILDREN of this one)."""
    k = 1 if wall else 0
    run(floor)
    run(cmd)
    ours, theirs = [], []
    for _ in range(repeat):
        theirs.append(run(floor)[k])
        ours.append(run(cmd)[k])
    a, b = statistics.median(ours), statistics.median(theirs)
    pairs = statistics.median(x / y for x, y in zip(ours, theirs))
    what = "wall" if wall else "CPU"
    print(f"{name:<26} xl-fide {a:7.2f} s   floor {b:7.2f} s   ratio {a / b:5.2f}   "
          f"paired {pairs:5.2f}   {what} (runs: {' '.join(f'{t:.2f}' for t in ours)} / "
          f"{' '.join(f'{t:.2f}' for t in theirs)})", flush=True)
    return a, b


def soffice_open(soffice: str, folder: Path, xlsx: Path, tag: str) -> list[str]:
    """The command that loads ``xlsx`` in a headless soffice with its own new profile."""
    profile = folder / f"profile-{tag}"
    outdir = folder / f"csv-{tag}"
    return ["sh", "-c", f'rm -rf "{profile}" "{outdir}"; exec "{soffice}" '
            f'-env:UserInstallation={profile.as_uri()} --headless --norestore '
            f'--convert-to csv --outdir "{outdir}" "{xlsx}" >/dev/null 2>&1']


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="crosstable,open", help="crosstable, open")
    a = ap.parse_args(argv)
    rows = set(a.only.split(","))
    xl, py = xl_fide_command(), [sys.executable]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"{len(os.sched_getaffinity(0))} CPUs, load {os.getloadavg()[0]:.1f}, "
              f"Python {sys.version.split()[0]}; medians of {a.repeat} paired runs; "
              f"{a.players} players x {a.rounds} rounds")
        trf = swiss_file(folder, a.players, a.rounds)
        books = {}
        for kind in ("udf", "native"):
            books[kind] = folder / f"{kind}.xlsx"
            cmd = xl + ["crosstable", str(trf), "-o", str(books[kind]), "--formulas", kind,
                        "--force", "-q"]
            subprocess.run(cmd, check=True, capture_output=True, env=ENV)
        if "crosstable" in rows:
            script = folder / "write_only_floor.py"
            script.write_text(WRITE_ONLY_SCRIPT, encoding="utf-8")
            for kind in ("udf", "native"):
                cells = folder / f"{kind}.cells.pickle"
                cells.write_bytes(pickle.dumps(cells_of(books[kind])))
                cmd = xl + ["crosstable", str(trf), "-o", str(folder / f"out-{kind}.xlsx"),
                            "--formulas", kind, "--force", "-q"]
                paired(f"crosstable {kind}", cmd,
                       py + [str(script), str(cells), str(folder / f"floor-{kind}.xlsx")],
                       a.repeat)
        if "open" in rows:
            soffice = shutil.which("soffice") or shutil.which("libreoffice")
            if soffice is None:
                print("LibreOffice open: soffice not found, row skipped")
                return 0
            plain = values_only(books["native"], folder / "values.xlsx")
            tiny = folder / "tiny.xlsx"
            from openpyxl import Workbook
            wb = Workbook()
            wb.active["A1"] = 1
            buffer = io.BytesIO()
            wb.save(buffer)
            tiny.write_bytes(buffer.getvalue())
            start = statistics.median(run(soffice_open(soffice, folder, tiny, "t"))[1]
                                      for _ in range(a.repeat))
            ours, theirs = paired("LibreOffice open native",
                                  soffice_open(soffice, folder, books["native"], "n"),
                                  soffice_open(soffice, folder, plain, "v"), a.repeat,
                                  wall=True)
            print(f"{'':<26} start-up alone (a one-cell workbook) {start:.2f} s; without "
                  f"it: {ours - start:.2f} s / {theirs - start:.2f} s = "
                  f"{(ours - start) / max(theirs - start, 1e-9):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
