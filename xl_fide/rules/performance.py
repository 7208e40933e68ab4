"""Performance ratings: FIDE Rp, title-norm performance, tie-break TPR and PTP.

FIDE B.02 §8.1.1, B.01 §1.4, C.07 §10.2-§10.3. None of these is a rating change; each has its
own rule for the average and the rounding:

* FIDE performance (B.02 §8.1.1): Rp = Ra + dp(p), Ra the exact average.
* Title-norm performance (B.01 §1.4): Ra rounded (.5 up) after raising at most one
  opponent (the lowest) to the title's floor; unrated opponents count as 1400.
* Tie-break TPR (C.07 §10.2): ARO rounded (.5 up) + dp(p).
* Tie-break PTP (C.07 §10.3): the lowest whole rating whose expected score against
  the opponents (table 8.1.2, no 400-point cap) reaches the score (100 %: highest
  opponent + 736, the first D with PD 1.00).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from xl_fide.errors import InputError
from xl_fide.rules.rounding import fraction_half_up, round_half_up
from xl_fide.rules.tables import PD_MAX_BAND, dp_for_p, p_hundredths, pd_for_difference
from xl_fide.rules.values import as_half_points, as_rating

UNRATED_FOR_NORMS = 1400       # B.01 §1.4: an unrated opponent counts as 1400
NORM_MIN_GAMES = 9             # B.01 §1.4
NORM_MIN_SCORE_PCT = 35        # B.01 §1.4
PTP_ZERO_SCORE = -800          # C.07 §10.3 with dp(0.00) = -800 (B.02 §8.1.1): 0 points


@dataclass(frozen=True)
class NormTitle:
    """A title's norm requirements (FIDE B.01 §1.4; reference §6)."""

    title: str
    floor: int          # the lowest opponent may be raised to this
    min_Rp: int
    min_Ra: int


NORM_TITLES: dict[str, NormTitle] = {
    "GM": NormTitle("GM", 2200, 2600, 2380),
    "IM": NormTitle("IM", 2050, 2450, 2230),
    "WGM": NormTitle("WGM", 2000, 2400, 2180),
    "WIM": NormTitle("WIM", 1850, 2250, 2030),
}


def _pairs(opponents: Sequence[object], name: str = "opponent rating",
           allow_unrated: bool = False) -> list[int | None]:
    out: list[int | None] = []
    for i, r in enumerate(opponents, 1):
        if r is None and allow_unrated:
            out.append(None)
        else:
            out.append(as_rating(r, f"{name} {i}"))
    return out


def _score(score: object, n: int) -> int:
    return as_half_points(score, "score", maximum_points=n)


def _games(opponents: Sequence[object], score: object, what: str) -> tuple[list[int], int, int]:
    """(ratings, N, W_half) of a performance's games; InputError without games."""
    ratings = [as_rating(r, f"opponent rating {i}") for i, r in enumerate(opponents, 1)]
    N = len(ratings)
    if N == 0:
        raise InputError(f"{what} needs at least one game against a rated opponent")
    return ratings, N, _score(score, N)


def performance_rating(opponents: Sequence[int], score: object) -> int:
    """FIDE performance Rp = Ra + dp(p), rounded half up (FIDE B.02 §8.1.1).

    ``opponents``: ratings (ints) of the opponents of the games counted; ``score``:
    points in those games (a multiple of 0.5). p is rounded to hundredths half up.
    No 400-point cap. Raises :class:`InputError` without games or for bad values.
    Example (reference §9): 3 W 2 D 1 L vs an average of 1850 -> p .67 -> 1975.
    """
    ratings, N, W_half = _games(opponents, score, "performance")
    Ra = Fraction(sum(ratings), N)
    return fraction_half_up(Ra + dp_for_p(p_hundredths(W_half, N)))


def tournament_performance_rating(opponents: Sequence[int], score: object) -> int:
    """Tie-break TPR = ARO + dp(p) (FIDE C.07 §10.2); ARO rounded half up.

    Example (reference §9): 2/3 vs 2000, 2100, 2200 -> 2100 + 125 = 2225.
    """
    ratings, N, W_half = _games(opponents, score, "TPR")
    ARO = round_half_up(sum(ratings), N)
    return ARO + dp_for_p(p_hundredths(W_half, N))


def perfect_tournament_performance(opponents: Sequence[int], score: object) -> int:
    """Tie-break PTP (FIDE C.07 §10.3): lowest integer R with Σ PD(R - R_opp) >= score.

    ``opponents``: ratings (ints); ``score``: points (a multiple of 0.5). PD from
    table 8.1.2 with **no** 400-point cap, summed in hundredths. A full score is
    reached first where every difference is above 735 (PD 1.00): highest opponent +
    736 (:data:`~xl_fide.rules.tables.PD_MAX_BAND` + 1), the value the search itself gives.
    Zero score: lowest opponent - 800 (the convention of dp(0.00) = -800, B.02 §8.1.1;
    every R would do). Raises :class:`InputError` without games or for bad values.
    Examples (reference §9): 2/3 vs 2000, 2100, 2200 -> 2226; 3/3 -> 2200 + 736 = 2936.
    """
    ratings, N, W_half = _games(opponents, score, "PTP")
    if W_half == 0:
        return min(ratings) + PTP_ZERO_SCORE
    target = 50 * W_half   # hundredths

    def expected(R: int) -> int:
        return sum(pd_for_difference(R - r) for r in ratings)

    # expected(lo) >= 0 always; expected(hi) = 100 N, the most any score needs
    lo, hi = min(ratings) + PTP_ZERO_SCORE, max(ratings) + PD_MAX_BAND + 1
    while lo < hi:                                     # expected() is non-decreasing in R
        mid = (lo + hi) // 2
        if expected(mid) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


@dataclass(frozen=True)
class NormResult:
    """A title-norm performance check (FIDE B.01 §1.4).

    ``Ra`` (rounded, after the floor and 1400 rules), ``p`` (hundredths), ``Rp``,
    ``checks`` = ``(requirement, met, detail)`` triples; ``met`` is True when all
    the rating, score and game-count requirements are met (federation and title-mix
    rules are not checked: they need data a cross-table does not hold).
    """

    title: str
    N: int
    W_half: int
    Ra: int
    p: int
    Rp: int
    raised: int | None
    checks: tuple[tuple[str, bool, str], ...]

    @property
    def met(self) -> bool:
        return all(ok for _, ok, _ in self.checks)

    def summary(self) -> str:
        """One line: 'GM norm performance 2609: met' or what is missing."""
        missing = [d for _, ok, d in self.checks if not ok]
        verdict = "met" if not missing else "not met: " + "; ".join(missing)
        return f"{self.title} norm performance {self.Rp}: {verdict}"


def norm_performance(opponents: Sequence[int | None], score: object, title: str) -> NormResult:
    """Title-norm performance and requirements for GM, IM, WGM or WIM (FIDE B.01 §1.4).

    ``opponents``: ratings, ``None`` for unrated (counted as 1400); ``score``: points.
    At most one opponent, the lowest, is raised to the title's floor; Ra is rounded
    half up; Rp = Ra + dp(p) with no 400-point cap. Raises :class:`InputError` for an
    unknown title or bad values. Example (reference §9): 6.5/9 vs 2500, 2450, 2400,
    2550, 2480, 2420, 2390, 2600, 2150 -> 2150 raised to 2200, Ra 2443, Rp 2609.
    """
    key = str(title).strip().upper()
    if key not in NORM_TITLES:
        raise InputError(f"title must be GM, IM, WGM or WIM, got {title!r}")
    rule = NORM_TITLES[key]
    ratings = [UNRATED_FOR_NORMS if r is None else r
               for r in _pairs(opponents, allow_unrated=True)]
    N = len(ratings)
    if N == 0:
        raise InputError("a norm needs at least one game")
    W_half = _score(score, N)
    raised = None
    low = min(range(N), key=lambda i: ratings[i])
    if ratings[low] < rule.floor:
        raised = ratings[low]
        ratings[low] = rule.floor
    Ra = round_half_up(sum(ratings), N)
    p = p_hundredths(W_half, N)
    Rp = Ra + dp_for_p(p)
    pct_ok = 100 * W_half >= 2 * NORM_MIN_SCORE_PCT * N   # W / N >= 35 %
    checks = (
        ("games", N >= NORM_MIN_GAMES, f"{N} games (at least {NORM_MIN_GAMES})"),
        ("score", pct_ok, f"score {W_half / 2:g}/{N} (at least {NORM_MIN_SCORE_PCT} %)"),
        ("Ra", Ra >= rule.min_Ra, f"Ra {Ra} (at least {rule.min_Ra})"),
        ("Rp", Rp >= rule.min_Rp, f"Rp {Rp} (at least {rule.min_Rp})"),
    )
    return NormResult(rule.title, N, W_half, Ra, p, Rp, raised, checks)
