"""Time filling a cross-table workbook for a big Swiss (issue 5: 500 players x 11 rounds
should fill in under 3 s).

    python benchmarks/fill.py [--players 500] [--rounds 11] [-o OUT.xlsx]

Prints the time of build_report, fill_workbook and save_workbook. The event is
synthetic (:func:`synthetic_swiss`, seeded): random pairings, results drawn from the
rating difference, a few forfeits, unrated players and byes. The LibreOffice test
(tests/excel/test_workbook_lo.py) recalculates the same event to count UDF calls.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.harness.synthetic import synthetic_swiss  # noqa: E402
from xl_fide.event.report import build_report  # noqa: E402
from xl_fide.excel._fill import fill_workbook, save_workbook


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("-o", "--output", help="keep the workbook here (default: a temp file)")
    a = ap.parse_args(argv)
    t = synthetic_swiss(a.players, a.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(a.output) if a.output else Path(tmp) / "fill.xlsx"
        t0 = time.perf_counter()
        report = build_report(t)
        t1 = time.perf_counter()
        wb = fill_workbook(report)
        t2 = time.perf_counter()
        save_workbook(wb, out, force=True)
        t3 = time.perf_counter()
        size = out.stat().st_size
    print(f"{a.players} players x {a.rounds} rounds: report {t1 - t0:.2f} s, "
          f"fill {t2 - t1:.2f} s, save {t3 - t2:.2f} s, total {t3 - t0:.2f} s "
          f"({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
