"""A whole rating period for many players at once: N, W, ΣPD, K, K x ΣΔR, new ratings.

FIDE B.02 §8.3 (rating change, every game's ΔR = S - PD), §8.3.1 (400-point rule,
per player; 2650+ exempt where the edition says so), §8.3.3 (K x n <= 700 over the
period), §8.3.4 (one rounding of the period's total, .5 away from zero); Rapid &
Blitz chapter §1 (a game 600+ apart with a player above 2600 is not rated).

The same rules as :func:`xl_fide.rules.rating.rate_period` (the tests check it game for
game), built for speed: the games are three flat sequences of ints and every game
costs one index sum, two look-ups in a table of per-game contributions and two
additions. The contribution tables are built from :data:`xl_fide.rules.tables.PD_TABLE`
(never retyped) for the edition in use; each player's three sums (N, W, ΣPD) are
packed into one integer so one addition updates all three. Exact integer arithmetic
throughout: PD in hundredths, scores in half points, no float anywhere.

What it does not do:

* Editions that apply the 400-point rule once per event (1 Jan 2022 - 29 Feb 2024)
  need the event of every game; this function has none and raises
  :class:`BatchNotSupported` (a :class:`NotImplementedError`). Use
  :func:`xl_fide.rules.rating.rate_period` with the events.
* Unrated players (rating ``None`` or ``0``) and every game involving one are left
  out: such a game is not rated for the rated player (reference §2.1), and an
  unrated player's first rating (§8.2) pools several periods: see
  :func:`xl_fide.rules.initial.initial_rating`.
* Only played games belong in the sequences: forfeits and byes must be left out
  by the caller, as for :func:`~xl_fide.rules.rating.rate_event`.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence, cast

from xl_fide.rules.editions import Cap400, RuleEdition, rules_for
from xl_fide.errors import BatchNotSupported, InputError
from xl_fide.rules.rating import (EXEMPT_RATING, K_CAP_PRODUCT, PD_OF_D, RB_600_DIFFERENCE,
                                   RB_600_TOP)
from xl_fide.rules.rounding import round_hundredths_half_away
from xl_fide.rules.values import K_MAX, K_MIN, RATING_MAX, as_k, as_rating

# Each player's (N, W_half, ΣPD) is packed into one int: ΣPD in the low bits, then
# W_half, then N, each field wide enough for ``max_games`` rated games a player.
# Tiers, tried in order while a player may have more games than the tier allows:
# array('i') for up to 127 games a player (sums below 2**30: CPython's fast
# single-digit ints), array('q') for up to 2**18 - 1, then a list of Python ints.
_TIERS = ((127, "i"), ((1 << 18) - 1, "q"))




@dataclass(frozen=True)
class BatchResult:
    """Every player's change over the rating period, one tuple per column.

    FIDE B.02 §8.3.2-§8.3.4. Position ``i`` of each tuple is player ``i`` of the
    input. ``Ro`` the rating before the period (``None``: unrated, left out);
    ``N`` rated games; ``W_half`` score in them (half points); ``sum_PD`` ΣPD
    (hundredths); ``K`` the K used, after the K x n <= 700 cap (``None`` for an
    unrated player); ``change`` K x ΣΔR in hundredths (unrounded);
    ``rating_change`` rounded once, .5 away from zero; ``new_rating`` Ro + that
    (``None`` for an unrated player). ``edition_id``: the rules used.
    """

    edition_id: str
    Ro: tuple[int | None, ...]
    N: tuple[int, ...]
    W_half: tuple[int, ...]
    sum_PD: tuple[int, ...]
    K: tuple[int | None, ...]
    change: tuple[int, ...]
    rating_change: tuple[int, ...]
    new_rating: tuple[int | None, ...]

    def __len__(self) -> int:
        return len(self.Ro)

    def sum_delta_R(self, i: int) -> int:
        """ΣΔR = W - ΣPD of player ``i``, hundredths."""
        return 50 * self.W_half[i] - self.sum_PD[i]


def _pd_signed() -> list[int]:
    """PD (hundredths) for D = -RATING_MAX .. RATING_MAX, index D + RATING_MAX (FIDE
    B.02 §8.1.2; the lower-rated player gets 100 - H): the engine's own table,
    :data:`xl_fide.rules.rating.PD_OF_D`, without the 400-point rule."""
    return list(PD_OF_D[False])


def _player_kinds(edition: RuleEdition) -> list[tuple[bool, bool]]:
    """The kinds of players the edition tells apart: (exempt from the 400 rule, above 2600).

    Exempt: §8.3.1 (standard, from 1 Oct 2025, rated 2650+). Above 2600: R&B §1.
    """
    kinds = [(False, False)]
    if edition.rapid_blitz_600:
        kinds.append((False, True))
    if edition.exempt_2650:
        kinds.append((True, edition.rapid_blitz_600))
    return kinds


def _kind_of(R: int, edition: RuleEdition, kinds: list[tuple[bool, bool]]) -> int:
    exempt = edition.exempt_2650 and R >= EXEMPT_RATING
    top = edition.rapid_blitz_600 and R > RB_600_TOP
    return kinds.index((exempt, top))


@lru_cache(maxsize=4)
def _tables(edition: RuleEdition, max_games: int, R_low: int, R_high: int):
    """Index maps and contribution tables for ``edition`` and ratings R_low..R_high.

    Game index ``j = A[Ro_white] + B[Ro_black] + score_half``: three entries (one per
    score) for each signed difference D = Ro_white - Ro_black, in one block per
    (white's kind, black's kind) of :func:`_player_kinds`. ``TW[j]``/``TB[j]`` is what
    the game adds to white's/black's packed (N, W_half, ΣPD), 0 for a game that is
    not rated. ``A[0]``/``B[0]`` (unrated) lead to a block of zeros whatever the
    other player is. Returns ``(A, B, TW, TB, shift_W, shift_N)``, A and B indexed by
    rating.
    """
    pd = _pd_signed()                                   # index D + RATING_MAX
    cap = edition.cap_difference
    d_max = R_high - R_low
    span_D = 2 * d_max + 1
    differences = range(-d_max, d_max + 1)
    full = [pd[D + RATING_MAX] for D in differences]
    capped = [pd[max(-cap, min(cap, D)) + RATING_MAX] for D in differences]
    far = [abs(D) >= RB_600_DIFFERENCE for D in differences]
    shift_W = (100 * max_games).bit_length()
    shift_N = shift_W + (2 * max_games).bit_length()
    # packed[s][PD]: one rated game scored s (half points) with expected score PD
    packed = [[(1 << shift_N) + (s << shift_W) + p for p in range(101)] for s in range(3)]
    kinds = _player_kinds(edition)
    nk = len(kinds)
    span = 3 * span_D
    rated_size = nk * nk * span
    A_unrated = rated_size
    B_unrated = rated_size + nk * span
    size = A_unrated + B_unrated + 3
    TW = [0] * size
    TB = [0] * size
    for kw, (exempt_w, top_w) in enumerate(kinds):
        pd_w = full if exempt_w else capped                     # white's own 400 rule
        for kb, (exempt_b, top_b) in enumerate(kinds):
            pd_b = full if exempt_b else capped                 # black's own 400 rule
            base = (kw * nk + kb) * span
            not_rated = edition.rapid_blitz_600 and (top_w or top_b)
            for s in range(3):
                vw, vb = packed[s], packed[2 - s]
                # position i: D = i - d_max for white; black's difference is -D
                row_w = [vw[p] for p in pd_w]
                row_b = [vb[p] for p in reversed(pd_b)]
                if not_rated:                                   # R&B §1
                    row_w = [0 if f else v for v, f in zip(row_w, far)]
                    row_b = [0 if f else v for v, f in zip(row_b, far)]
                TW[base + s:base + span:3] = row_w
                TB[base + s:base + span:3] = row_b
    A: list[int | None] = [None] * (RATING_MAX + 1)
    B: list[int | None] = [None] * (RATING_MAX + 1)
    A[0], B[0] = A_unrated, B_unrated
    for R in range(R_low, R_high + 1):
        k = _kind_of(R, edition, kinds)
        A[R] = 3 * (R - R_low) + k * nk * span
        B[R] = 3 * (R_high - R) + k * span
    return A, B, TW, TB, shift_W, shift_N


def _accumulate(white, black, scores, A, B, TW, TB, acc) -> None:
    # The hot loop: local names only, no calls, no attribute look-ups.
    for w, b, s in zip(white, black, scores):
        j = A[w] + B[b] + s
        acc[w] += TW[j]
        acc[b] += TB[j]


def _run(white, black, scores, Ro, edition, max_games, R_range, acc):
    """Add every game to ``acc``: ``(acc, shift_W, shift_N)``, or None when it overflows."""
    A_R, B_R, TW, TB, shift_W, shift_N = _tables(edition, max_games, *R_range)
    A = [A_R[R] for R in Ro]
    B = [B_R[R] for R in Ro]
    # Compact arrays: a smaller working set for the random look-ups of the loop.
    A_compact = array("H" if max(A, default=0) < 1 << 16 else "l", A)
    B_compact = array("H" if max(B, default=0) < 1 << 16 else "l", B)
    try:
        _accumulate(white, black, scores, A_compact, B_compact, TW, TB, acc)
    except OverflowError:
        return None                             # array too narrow: the caller widens
    except IndexError:
        bad = max(max(white), max(black))      # the only index that can be out of range
        raise InputError(f"white and black must hold player numbers 0 to {len(Ro) - 1}, "
                         f"got {bad!r}") from None
    if max(acc, default=0) >> shift_N > max_games:
        return None                             # a player had more games than the fields hold
    return acc, shift_W, shift_N


def _ratings(ratings: Sequence[object]) -> list[int]:
    """Ratings as ints, 0 for unrated (``None`` or 0); InputError otherwise."""
    raw = [0 if r is None else r for r in ratings]
    if all(type(r) is int and 0 <= r <= RATING_MAX for r in raw):
        return cast("list[int]", raw)
    return [as_rating(r, f"rating of player {i}") for i, r in enumerate(raw)]


def _k_factors(k_factors: Sequence[object], Ro: list[int]) -> list[int]:
    """K of each rated player as an int 1..100 (FIDE B.02 §8.3.3); 0 for unrated players."""
    raw = [k if R else 0 for k, R in zip(k_factors, Ro)]
    if all(type(k) is int and K_MIN <= k <= K_MAX for k, R in zip(raw, Ro) if R):
        return cast("list[int]", raw)
    return [as_k(k, f"K of player {i}") if R else 0 for i, (k, R) in enumerate(zip(raw, Ro))]


def _games(white: Sequence[int], black: Sequence[int], scores: Sequence[int]):
    """The games as compact arrays, checked: player numbers whole and >= 0, scores 0/1/2.

    ``array('I')`` and ``bytes`` refuse negative, fractional and non-numeric values
    while copying (in C, faster than a Python check); too large a player number is
    caught by the look-up in the loop.
    """
    if not len(white) == len(black) == len(scores):
        raise InputError(f"white, black and scores_half must have the same length, got "
                         f"{len(white)}, {len(black)} and {len(scores)}")
    out: list[array[int] | bytes] = []
    for name, seq in (("white", white), ("black", black)):
        try:
            out.append(array("I", seq))
        except (OverflowError, TypeError):
            bad = next(v for v in seq if type(v) is not int or v < 0)
            raise InputError(f"{name} must hold player numbers (whole numbers from 0), "
                             f"got {bad!r}") from None
    try:
        scores_b = bytes(scores)
    except (ValueError, TypeError):
        scores_b = b"?"
    if scores_b.translate(None, b"\x00\x01\x02"):
        bad = next(v for v in scores if v not in (0, 1, 2) or type(v) is not int)
        raise InputError(f"scores_half must be 0, 1 or 2 (white's score in half points), "
                         f"got {bad!r}")
    out.append(scores_b)
    return out


def rate_period_batch(ratings: Sequence[int | None], k_factors: Sequence[int | None],
                      white: Sequence[int], black: Sequence[int], scores_half: Sequence[int],
                      edition: RuleEdition | None = None) -> BatchResult:
    """Each player's N, W, ΣPD, capped K, K x ΣΔR and new rating over one rating period.

    FIDE B.02 §8.3.1-§8.3.4 and Rapid & Blitz §1, as :func:`~xl_fide.rules.rating.rate_period`
    applies them to one event per player, for all players at once.

    ``ratings``: player ``i``'s rating on the list before the period (int 1..4000;
    ``None`` or ``0``: unrated, left out with all their games; so is a rating below
    the edition's floor, B.02 §7.2.1). ``k_factors``: K
    before the cap (int 1..100; ignored for unrated players). Game ``g`` is
    ``white[g]`` (player number) against ``black[g]`` with ``scores_half[g]`` =
    white's score in half points (0 loss, 1 draw, 2 win); played games only. Each
    player's own rating decides their 400-point rule (2650+ exempt when
    ``edition.exempt_2650``); rapid/blitz games 600+ apart with a player above 2600
    are not rated when ``edition.rapid_blitz_600``; K x n <= 700 over the period.
    ``edition``: ``None`` means today's standard rules.

    Returns a :class:`BatchResult`. Raises :class:`InputError` for a bad rating, K,
    player number or score; :class:`BatchNotSupported` for an edition that caps
    once per event. Example (reference §9): ratings ``[2000, 1950, 2050, 1810]``,
    K 10, player 0 beats 1, loses to 2, draws 3: ``change[0] == -250``,
    ``rating_change[0] == -3``.
    """
    edition = edition or rules_for(None)
    if edition.cap400 is not Cap400.EVERY_GAME:
        raise BatchNotSupported(
            f"edition {edition.id} applies the 400-point rule once per event; "
            "rate each player with rate_period and the events instead")
    Ro = [R if R >= edition.rating_floor else 0 for R in _ratings(ratings)]   # §7.2.1
    if len(k_factors) != len(Ro):
        raise InputError(f"k_factors must have one K per player ({len(Ro)}), got {len(k_factors)}")
    K_given = _k_factors(k_factors, Ro)
    players = len(Ro)
    white, black, scores_half = _games(white, black, scores_half)
    rated = [R for R in set(Ro) if R]
    R_range = (min(rated), max(rated)) if rated else (1, 1)

    games = len(white)
    packed = None
    for bound, code in _TIERS:
        packed = _run(white, black, scores_half, Ro, edition, max(1, min(bound, games)),
                      R_range, array(code, bytes(array(code).itemsize * players)))
        if packed is not None or bound >= games:
            break
    if packed is None:                          # exact for any number of games
        packed = _run(white, black, scores_half, Ro, edition, games, R_range, [0] * players)
    acc, shift_W, shift_N = packed

    mask_PD = (1 << shift_W) - 1
    mask_W = (1 << (shift_N - shift_W)) - 1
    N = [v >> shift_N for v in acc]
    W_half = [(v >> shift_W) & mask_W for v in acc]
    sum_PD = [v & mask_PD for v in acc]
    K = [K_CAP_PRODUCT // n if k * n > K_CAP_PRODUCT else k for k, n in zip(K_given, N)]
    change = [k * (50 * w - p) for k, w, p in zip(K, W_half, sum_PD)]
    rounded = round_hundredths_half_away(change)
    new = [R + r if R else None for R, r in zip(Ro, rounded)]
    return BatchResult(
        edition_id=edition.id,
        Ro=tuple(R or None for R in Ro),
        N=tuple(N), W_half=tuple(W_half), sum_PD=tuple(sum_PD),
        K=tuple(k or None for k in K),
        change=tuple(change), rating_change=tuple(rounded), new_rating=tuple(new),
    )
