"""Time and peak memory of reading TRF files at xl_fide.trf's budgets and past them.

Run by hand: ``python benchmarks/trf_limits.py``. Each case is written to a temporary
file and read by ``xl_fide.trf.read_trf`` in a fresh Python process (so its peak
resident memory is the case's own); the table gives wall and CPU time (of the whole
process, start-up included), peak RSS and the outcome.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

from xl_fide import trf


def _head(sr: int) -> str:
    return f"001 {sr:>4} m    {'Player ' + str(sr):<33} 2000 SUI {sr:>11} 1990/01/01 {0:>4.1f} {sr:>4}"


def swiss(players: int, rounds: int) -> str:
    """``players`` x ``rounds`` round cells: 1-2, 3-4, ... draw every round."""
    lines = ["012 limits", "042 2026/01/10", f"XXR {rounds}"]
    for sr in range(1, players + 1):
        opp = sr + 1 if sr % 2 else sr - 1
        cells = []
        for r in range(1, rounds + 1):
            colour = "w" if (sr + r) % 2 else "b"
            cells.append(f"{opp:>4} {colour} =" if opp <= players else "0000 - U")
        lines.append(_head(sr) + "  " + "  ".join(cells))
    return "\n".join(lines) + "\n"


CASES = {
    "2,000 players x 13 rounds (a large open)": lambda: swiss(2000, 13),
    "9,999 players x 25 rounds (at the cell budget)": lambda: swiss(9999, 25),
    "1,256 players x 199 rounds (at the round budget)": lambda: swiss(1256, 199),
    "one 001 line of 1,000,000 round cells (issue 11)":
        lambda: "012 x\n" + _head(1) + "  " + "  ".join(["   2 w 1"] * 1_000_000) + "\n",
    "99,000 comment lines of 150 characters": lambda: "012 x\n" + _head(1) + "\n"
        + ("### " + "c" * 150 + "\n") * 99_000,
    "17 MiB file (past the size budget)": lambda: "012 x\n" + _head(1) + "\n"
        + "### padding\n" * (trf.MAX_FILE_BYTES // 12 + 10),
}

_CHILD = """
import resource, sys, time
from xl_fide.trf import read_trf
from xl_fide.errors import TrfError
t0 = time.perf_counter()
try:
    t = read_trf(sys.argv[1])
    outcome = f"read: {len(t.players)} players, {t.rounds} rounds"
except TrfError as exc:
    outcome = "TrfError: " + exc.message[:60]
wall = time.perf_counter() - t0
use = resource.getrusage(resource.RUSAGE_SELF)
print(f"{wall:.2f}\\t{use.ru_utime + use.ru_stime:.2f}\\t{use.ru_maxrss // 1024}\\t{outcome}")
"""


def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    print(f"{'case':<52} {'bytes':>10} {'wall s':>6} {'CPU s':>6} {'MB':>5}  outcome")
    for name, make in CASES.items():
        text = make()
        with tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False, encoding="utf-8") as fh:
            fh.write(text)
        try:
            out = subprocess.run([sys.executable, "-c", _CHILD, fh.name], capture_output=True,
                                 text=True, check=True).stdout.strip()
            wall, cpu, rss, outcome = out.split("\t")
            print(f"{name:<52} {os.path.getsize(fh.name):>10} {wall:>6} {cpu:>6} {rss:>5}  {outcome}")
        finally:
            os.unlink(fh.name)


if __name__ == "__main__":
    main()
