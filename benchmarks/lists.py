"""Benchmark: ``--player-data`` on a full-size FIDE list, against a plain line-by-line read.

Not a test: run it by hand (see benchmarks/README.md)::

    python benchmarks/lists.py [--players 1200000] [--event 200] [--repeat 3] [--list FILE]

Writes a synthetic 1.2 M-player list in FIDE's combined TXT layout
(``make_fide_list.py``, not timed) unless ``--list`` names one, then times, each in a
fresh process, ``--repeat`` times, alternating:

* **plain**: ``for line in open(path, "rb"): pass`` (the floor for any reader);
* **xl_fide**: ``xl_fide.lists._read.read_player_file(path, "standard", only=EVENT)``,
  with ``--event`` players of the list (ids spread over the file) plus one by name;
* **full** (``--full``): the same without ``only`` (every record built), for scale;
* **import** (``--import``): ``ListStore.import_file`` of the whole list (3 kinds) into a
  new store (``kept`` = rows stored).

Prints the best time of each, the ratio xl_fide / plain, and the peak resident
memory of the whole process (``ru_maxrss``) for each. Targets (issue 13): ratio
within 4x, peak under 150 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_fide_list  # noqa: E402

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
mode, path, event = sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
if mode != "plain":
    from xl_fide.lists._read import read_player_file
t0 = time.perf_counter()
if mode == "plain":
    n = 0
    with open(path, "rb") as f:
        for line in f:
            n += 1
elif mode == "import":
    import os, tempfile
    from xl_fide.lists._store import ListStore
    with tempfile.TemporaryDirectory() as d:
        store = ListStore(os.path.join(d, "lists.sqlite"))
        n = sum(store.import_file(path, "2024-01").players.values())
        size = os.path.getsize(store.path)
        store.close()
elif mode == "xl_fide":
    n = len(read_player_file(path, "standard", only=[tuple(p) for p in event]))
else:
    n = len(read_player_file(path, "standard"))
elapsed = time.perf_counter() - t0
print(json.dumps({"s": elapsed, "n": n,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run(mode: str, path: str, event: list) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(HERE.parent), mode, path,
                          json.dumps(event)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=1_200_000)
    ap.add_argument("--event", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--list", help="an existing list in FIDE's TXT layout")
    ap.add_argument("--full", action="store_true", help="also time reading every record")
    ap.add_argument("--import", dest="imp", action="store_true",
                    help="also time 'lists import' of the file into a new store")
    args = ap.parse_args()
    tmp = None
    path = args.list
    players = args.players
    if path is None:
        tmp = tempfile.NamedTemporaryFile(suffix="_players_list_foa.txt", delete=False)
        tmp.close()
        path = tmp.name
        make_fide_list.write(path, players)
    try:
        step = max(1, players // args.event)
        event = [[100_000_000 + n, None] for n in range(0, players, step)][:args.event]
        event.append([None, "Nobody, Here"])             # one player matched by name
        modes = ["plain", "xl_fide"] + (["full"] if args.full else []) + (
            ["import"] if args.imp else [])
        runs: dict[str, list[dict]] = {m: [] for m in modes}
        for _ in range(args.repeat):
            for m in modes:
                runs[m].append(run(m, path, event))
        best = {m: min(r["s"] for r in rs) for m, rs in runs.items()}
        rss = {m: max(r["rss_mb"] for r in rs) for m, rs in runs.items()}
        size = os.path.getsize(path) / 1e6
        print(f"lists: {players} players ({size:.0f} MB), event of {len(event)}: "
              f"plain {best['plain']:.2f} s, xl_fide {best['xl_fide']:.2f} s, "
              f"ratio {best['xl_fide'] / best['plain']:.2f}")
        for m in modes:
            times = " ".join(f"{r['s']:.2f}" for r in runs[m])
            print(f"  {m}: runs (s) {times}; kept {runs[m][0]['n']}; "
                  f"peak {rss[m]:.0f} MB resident (whole process)")
    finally:
        if tmp is not None:
            os.unlink(path)


if __name__ == "__main__":
    main()
