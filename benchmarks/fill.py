"""Time filling a cross-table workbook for a big Swiss (issue 5: 500 players x 11 rounds
should fill in under 3 s).

    python benchmarks/fill.py [--players 500] [--rounds 11] [-o OUT.xlsx]

Prints the time of build_report, fill_workbook and save_workbook. The event is
synthetic (:func:`synthetic_swiss`, seeded): random pairings, results drawn from the
rating difference, a few forfeits, unrated players and byes. The LibreOffice test
(tests/test_workbook_lo.py) recalculates the same event to count UDF calls.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from xl_fide.report import build_report  # noqa: E402
from xl_fide.trf import Game, Tournament, TrfPlayer  # noqa: E402
from xl_fide.excel._fill import fill_workbook, save_workbook


def synthetic_swiss(players: int = 500, rounds: int = 11, seed: int = 1) -> Tournament:
    """A Swiss-like event of ``players`` x ``rounds``: every round random pairs (one bye
    ``U`` when odd), results 1 = 0 drawn from the ratings, 1 % forfeits, 10 % unrated."""
    rng = random.Random(seed)
    ratings = {i: (None if rng.random() < 0.10 else rng.randint(1400, 2700))
               for i in range(1, players + 1)}
    games: dict[int, list[Game]] = {i: [] for i in ratings}
    for rnd in range(1, rounds + 1):
        order = list(ratings)
        rng.shuffle(order)
        if len(order) % 2:
            bye = order.pop()
            games[bye].append(Game(rnd, None, None, "U"))
        for a, b in zip(order[::2], order[1::2]):
            ra, rb = ratings[a] or 1600, ratings[b] or 1600
            expected = 1 / (1 + 10 ** ((rb - ra) / 400))
            x = rng.random()
            if x < 0.01:
                ca, cb = "+", "-"
            elif x < 0.01 + 0.25:
                ca, cb = "=", "="
            elif rng.random() < expected:
                ca, cb = "1", "0"
            else:
                ca, cb = "0", "1"
            games[a].append(Game(rnd, b, "w", ca))
            games[b].append(Game(rnd, a, "b", cb))
    plist = [TrfPlayer(start_rank=i, name=f"Player {i:03d}", rating=ratings[i],
                       federation=rng.choice(("ESP", "GER", "FRA", "IND", "USA")),
                       fide_id=1_000_000 + i, birth_year=rng.randint(1950, 2015),
                       games=tuple(games[i]))
             for i in ratings]
    return Tournament.build(name=f"Synthetic Swiss {players}x{rounds}", players=plist,
                            rounds=rounds, city="Benchmark", start_date=_dt.date(2025, 11, 1),
                            end_date=_dt.date(2025, 11, 9), time_control="90 min + 30 s")


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
        wb = fill_workbook(t, report=report)
        t2 = time.perf_counter()
        save_workbook(wb, out, force=True)
        t3 = time.perf_counter()
        size = out.stat().st_size
    print(f"{a.players} players x {a.rounds} rounds: report {t1 - t0:.2f} s, "
          f"fill {t2 - t1:.2f} s, save {t3 - t2:.2f} s, total {t3 - t0:.2f} s "
          f"({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
