"""A synthetic Swiss event, seeded: the tests' big event and the benchmarks' workload
(benchmarks import it from here; no test imports a benchmark)."""

from __future__ import annotations

import datetime as _dt
import random

from xl_fide.tournament import Game, Tournament, TrfPlayer


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
