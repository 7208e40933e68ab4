"""Benchmark: one synthetic rating period, rated by xl_fide and by elochess.

Not a test: run it by hand (see benchmarks/README.md)::

    python benchmarks/period.py [--players 100000] [--games 1000000] [--repeat 3]

Builds a period of random games (fixed seed, ``random`` only), then rates the same
game list with :func:`xl_fide.rules.batch.rate_period_batch` (FIDE B.02 §8.3, all rules,
exact integers) and with ``elochess`` 0.5 (``EloCalculator.update_rating``: one call
per player with the list of opponents' ratings and the score; no K x n cap, float
arithmetic, Python ``round``). Data generation is not timed. Each engine is timed
``--repeat`` times, alternating, from the same flat game list to the new ratings;
the best time counts (xl_fide's table cache is cleared before every run, so each
run builds its tables). Prints::

    period: 1000000 games, xl_fide <X> ns/game, elochess <Y> ns/game, ratio <Y/X>

then the split of elochess's time (grouping the games per player / the rating
calls), the agreement of the two results, and peak memory.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from xl_fide.rules import batch  # noqa: E402
from xl_fide.rules.editions import rules_for  # noqa: E402

try:
    from elochess.elo import EloCalculator
except ImportError:          # pragma: no cover - the benchmark needs the 'bench' extra
    sys.exit("elochess is not installed: pip install '.[bench]' (or pip install elochess)")


def make_period(players: int, games: int, seed: int):
    """Ratings, K, and games (white, black, white's score in half points)."""
    rng = random.Random(seed)
    ratings = [max(1400, min(2900, round(rng.gauss(1750, 350)))) for _ in range(players)]
    ks = [10 if R >= 2400 else (40 if rng.random() < 0.3 else 20) for R in ratings]
    white = rng.choices(range(players), k=games)
    black = rng.choices(range(players), k=games)
    for g in range(games):
        if white[g] == black[g]:
            black[g] = (white[g] + 1 + rng.randrange(players - 1)) % players
    scores = rng.choices((0, 1, 2), weights=(35, 30, 35), k=games)
    return ratings, ks, white, black, scores


def run_xl_fide(ratings, ks, white, black, scores, edition):
    batch._tables.cache_clear()                 # every run builds its tables
    return batch.rate_period_batch(ratings, ks, white, black, scores, edition).new_rating


def elochess_kwargs(ks):
    """elochess derives K itself: 10 if 2400 was reached, 40 under 30 games, else 20."""
    table = {10: {"reached_2400": True, "evaluation_year": 2025},
             20: {"games_played": 30, "evaluation_year": 2025},
             40: {"games_played": 0, "evaluation_year": 2025}}
    return [table[k] for k in ks]


def run_elochess(ratings, kwargs, white, black, scores, split=None):
    t0 = time.perf_counter()
    players = len(ratings)
    opponents = [[] for _ in range(players)]
    points_half = [0] * players
    for w, b, s in zip(white, black, scores):
        opponents[w].append(ratings[b])
        opponents[b].append(ratings[w])
        points_half[w] += s
        points_half[b] += 2 - s
    t1 = time.perf_counter()
    update = EloCalculator.update_rating
    new = [update(R, opp, p / 2, **kw)
           for R, opp, p, kw in zip(ratings, opponents, points_half, kwargs)]
    if split is not None:
        split.append((t1 - t0, time.perf_counter() - t1))
    return new


def timed(fn, *args, **kwargs):
    gc.collect()
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - t0, out


def traced_peak(fn, *args) -> int:
    gc.collect()
    tracemalloc.start()
    fn(*args)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--no-trace", action="store_true",
                        help="skip the tracemalloc runs (they take a few seconds)")
    args = parser.parse_args(argv)

    edition = rules_for("2025-10-01")           # today's standard rules, 2650+ exempt
    ratings, ks, white, black, scores = make_period(args.players, args.games, args.seed)
    kwargs = elochess_kwargs(ks)
    ours, theirs, split = [], [], []
    for _ in range(args.repeat):
        t, new_ours = timed(run_xl_fide, ratings, ks, white, black, scores, edition)
        ours.append(t)
        t, new_theirs = timed(run_elochess, ratings, kwargs, white, black, scores, split)
        theirs.append(t)
    x = min(ours) / args.games * 1e9
    y = min(theirs) / args.games * 1e9
    print(f"period: {args.games} games, xl_fide {x:.0f} ns/game, "
          f"elochess {y:.0f} ns/game, ratio {y / x:.2f}")

    best = min(range(len(split)), key=lambda i: sum(split[i]))
    group, calls = split[best]
    print(f"  best of {args.repeat} runs each; xl_fide runs (s): "
          f"{' '.join(f'{t:.3f}' for t in ours)} (median {statistics.median(ours):.3f}); "
          f"elochess runs (s): {' '.join(f'{t:.3f}' for t in theirs)} "
          f"(median {statistics.median(theirs):.3f})")
    print(f"  elochess split: grouping games per player {group / args.games * 1e9:.0f} ns/game, "
          f"update_rating calls {calls / args.games * 1e9:.0f} ns/game "
          f"(ratio on the calls alone {calls / args.games * 1e9 / x:.2f})")

    res = batch.rate_period_batch(ratings, ks, white, black, scores, edition)
    uncapped = [i for i, (k_used, k) in enumerate(zip(res.K, ks)) if k_used == k]
    differ = [i for i in uncapped if new_ours[i] != new_theirs[i]]
    at_half = sum(1 for i in differ if res.change[i] % 100 == 50)
    print(f"  agreement: {sum(a == b for a, b in zip(new_ours, new_theirs))}/{args.players} "
          f"new ratings equal; among the {len(uncapped)} players the K x n <= 700 cap leaves "
          f"alone (elochess has no cap), {len(differ)} differ, {at_half} of them with a change "
          f"of exactly x.50 hundredths (FIDE: .5 away from zero; elochess: float and round())")

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # KiB on Linux
    line = f"  peak memory: {rss:.0f} MB resident for the whole run (ru_maxrss)"
    if not args.no_trace:
        p_ours = traced_peak(run_xl_fide, ratings, ks, white, black, scores, edition)
        p_theirs = traced_peak(run_elochess, ratings, kwargs, white, black, scores)
        line += (f"; allocated by one rating run (tracemalloc): xl_fide {p_ours / 2**20:.0f} MB, "
                 f"elochess {p_theirs / 2**20:.0f} MB")
    print(line)
    print(f"  machine: {os.cpu_count()} CPUs, {cpu_model()}; Python {platform.python_version()} "
          f"({sys.executable}); load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
