"""Full recalculation in LibreOffice: a native cross-table against the same one with the
FIDE_* functions (issue 14).

    python benchmarks/native.py [--players 500] [--rounds 11] [--repeat 3]

Builds the synthetic Swiss of benchmarks/fill.py, writes it twice (``--formulas udf``
and ``--formulas native``), and times LibreOffice's ``calculateAll()`` (a hard
recalculation of every formula) on each, alternating, ``--repeat`` times; the best run
counts. The UDF workbook runs in a soffice with the product's extension (written by
``xl-fide libreoffice``, the real xl_fide.udfs code travelling inside it), opened as a
user opens it (no blank-cell rewriting); the native one in a soffice with no add-in.
Both results are checked against the engine's report before timing counts. The ratio
udf/native is the UDF workbook's time over the native one's (issue 19: about 2 at most).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "benchmarks"):   # run as a script: the repository and its siblings
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from tests.harness import lo_calc  # noqa: E402
from tests.harness.synthetic import synthetic_swiss  # noqa: E402
from openpyxl import load_workbook  # noqa: E402

from xl_fide.cli import main as cli_main  # noqa: E402
from xl_fide.event.report import build_report  # noqa: E402
from xl_fide.excel._layout import CROSS
from xl_fide.excel._fill import fill_workbook, save_workbook


def _new_ratings(path: Path, report) -> bool:
    """True when the NewRating column equals the engine's new ratings."""
    wb = load_workbook(path, data_only=True)
    sheet, ref = wb.defined_names["NewRating"].attr_text.split("!")
    col = ref.replace("$", "").split(":")[0].rstrip("0123456789")
    ws = wb[CROSS]
    got = [ws[f"{col}{5 + i}"].value for i in range(len(report.rows))]
    want = [r.result.new_rating for r in report.rows]
    return [None if g in ("", None) else g for g in got] == want


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args(argv)
    t = synthetic_swiss(a.players, a.rounds)
    report = build_report(t)
    with tempfile.TemporaryDirectory() as tmp:
        tmpd = Path(tmp)
        files, build = {}, {}
        for kind in ("udf", "native"):
            t0 = time.perf_counter()
            wb = fill_workbook(report, formulas=kind)
            files[kind] = save_workbook(wb, tmpd / f"{kind}.xlsx", force=True)
            build[kind] = time.perf_counter() - t0
        oxt = tmpd / "xl-fide.oxt"
        if cli_main(["libreoffice", "-o", str(oxt), "--force"]) != 0:
            raise SystemExit("xl-fide libreoffice failed")
        offices = {"udf": lo_calc.Office(str(oxt)), "native": lo_calc.Office(None)}
        runs: dict[str, list[float]] = {"udf": [], "native": []}
        try:
            for _ in range(a.repeat):
                for kind in ("udf", "native"):
                    dst = tmpd / f"{kind}.recalc.xlsx"
                    res = offices[kind].recalc(files[kind], dst, xlwings_blanks=False)
                    if res.errors or not _new_ratings(dst, report):
                        raise SystemExit(f"{kind}: the recalculated workbook does not match "
                                         f"the engine ({res.errors[:1]})")
                    runs[kind].append(res.calc_seconds)
        finally:
            for o in offices.values():
                o.close()
        sizes = {k: f.stat().st_size / 1e6 for k, f in files.items()}
    best = {k: min(v) for k, v in runs.items()}
    print(f"{a.players} players x {a.rounds} rounds, LibreOffice calculateAll, best of "
          f"{a.repeat}: udf {best['udf']:.3f} s, native {best['native']:.3f} s, "
          f"ratio udf/native {best['udf'] / best['native']:.2f}")
    for k in runs:
        print(f"  {k}: runs " + " ".join(f"{s:.3f}" for s in runs[k])
              + f"; fill+save {build[k]:.2f} s; file {sizes[k]:.1f} MB")


if __name__ == "__main__":
    main()
