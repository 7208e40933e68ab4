"""What-if: the score a player needs in the remaining games (asked before the last rounds).

Built on :func:`~xl_fide.rules.rating.rate_event` (FIDE B.02 §8.3) and
:func:`~xl_fide.rules.performance.norm_performance` (FIDE B.01 §1.4). Both searches try
every possible score in the remaining games (0, 0.5, ... up to one point a game) and
return the least one that works: the rating change is monotone in the score, and so
is the norm check once the opponents are fixed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from xl_fide.rules.editions import RuleEdition
from xl_fide.rules.performance import norm_performance
from xl_fide.rules.rating import rate_event
from xl_fide.rules.rounding import signed, signed_hundredths
from xl_fide.rules.values import as_half_points, as_int, as_rating


@dataclass(frozen=True)
class Needed:
    """The least score (points, a multiple of 0.5) needed in the remaining games, or
    ``None`` when even winning them all is not enough; ``detail`` says what it gives."""

    points: float | None
    remaining_games: int
    detail: str


def needed_for_change(Ro: int, played: Sequence[tuple[int, object]],
                      remaining: Sequence[int], K: int, target: int,
                      edition: RuleEdition | None = None) -> Needed:
    """Least points in the ``remaining`` games for a rounded change of at least ``target``.

    FIDE B.02 §8.3. ``played``: ``(R_opp, score)`` of the rated games so far;
    ``remaining``: opponents' ratings of the games still to play; ``K`` before the
    cap (the cap counts all games). The points are spread best-first: wins against
    the highest-rated remaining opponents give the most, so for each total the best
    assignment is used (a win is worth more against a stronger opponent).
    """
    Ro = as_rating(Ro, "Ro")
    target = as_int(target, "target")
    opps = [as_rating(r, "remaining opponent rating") for r in remaining]
    n = len(opps)
    for total_half in range(0, 2 * n + 1):
        wins, draw = divmod(total_half, 2)
        scores = [1.0] * wins + [0.5] * draw + [0.0] * (n - wins - draw)
        e = rate_event(Ro, list(played) + list(zip(opps, scores)), K, edition)
        if e.rating_change >= target:
            return Needed(total_half / 2, n, f"{total_half / 2:g}/{n} gives {signed(e.rating_change)} "
                                                f"(K x ΣΔR {signed_hundredths(e.change)}, K {e.K})")
    best = rate_event(Ro, list(played) + [(r, 1) for r in opps], K, edition)
    return Needed(None, n, f"even {n}/{n} gives only {signed(best.rating_change)}")


def needed_for_norm(played: Sequence[tuple[int | None, object]], remaining: Sequence[int | None],
                    title: str) -> Needed:
    """Least points in the ``remaining`` games for a title-norm performance (FIDE B.01 §1.4).

    ``played``: ``(R_opp or None, score)`` so far; ``remaining``: opponents still to
    meet (``None`` for unrated). All games together are checked (games, score, Ra, Rp).
    """
    opps = [r for r, _ in played] + list(remaining)
    base_half = sum(as_half_points(s, "score") for _, s in played)
    n = len(remaining)
    for total_half in range(0, 2 * n + 1):
        r = norm_performance(opps, (base_half + total_half) / 2, title)
        if r.met:
            return Needed(total_half / 2, n, r.summary())
    r = norm_performance(opps, (base_half + 2 * n) / 2, title)
    return Needed(None, n, f"even {n}/{n}: {r.summary()}")
