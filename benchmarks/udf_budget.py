"""The functions' cell budget: a whole column refused from its shape (issue 22 #15).

Run by hand: ``python benchmarks/udf_budget.py``. Times, best of ``--repeat``, in
the same run: FIDE_EVENT_SWISS over a filled range of 20 players and 9 rounds (the
floor), the same call with every range a whole column (1,048,576 rows: refused before
a cell is read), and, with ``--largest``, the largest workbook's range (2000 players,
99 rounds: within the budget, computed). Prints the seconds and the ratio of each to
the floor. No timing is asserted anywhere.
"""
from __future__ import annotations

import argparse
import random
import time

from xl_fide.errors import InputError
from xl_fide.udfs import FIDE_EVENT_SWISS

WHOLE_COLUMN = 1_048_576


def swiss(n: int, rounds: int, seed: int = 2025) -> tuple[list, list, list, list]:
    """n players (Excel floats), ``rounds`` rounds of random pairings, white wins."""
    opps = [[None] * rounds for _ in range(n)]
    res = [[None] * rounds for _ in range(n)]
    rnd = random.Random(seed)
    for r in range(rounds):
        order = list(range(n))
        rnd.shuffle(order)
        for a, b in zip(order[::2], order[1::2]):
            opps[a][r], opps[b][r] = float(b + 1), float(a + 1)
            res[a][r], res[b][r] = "1", "0"
    return [float(1500 + (i * 37) % 900) for i in range(n)], [20.0] * n, opps, res


def best(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            call()
        except InputError:
            pass
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--largest", action="store_true", help="also 2000 players x 99 rounds")
    args = ap.parse_args()
    small = swiss(20, 9)
    floor = best(lambda: FIDE_EVENT_SWISS(*small), args.repeat)
    pad = WHOLE_COLUMN - 20
    column = ([*small[0], *[None] * pad], [*small[1], *[None] * pad],
              small[2] + [[None] * 9] * pad, small[3] + [[None] * 9] * pad)
    refused = best(lambda: FIDE_EVENT_SWISS(*column), args.repeat)
    print(f"20 players x 9 rounds (floor): {floor:.4f} s")
    print(f"whole column, refused:         {refused:.4f} s  ({refused / floor:.1f} x floor)")
    if args.largest:
        big = swiss(2000, 99)
        largest = best(lambda: FIDE_EVENT_SWISS(*big), 1)
        print(f"2000 players x 99 rounds:      {largest:.4f} s  ({largest / floor:.1f} x floor)")


if __name__ == "__main__":
    main()
