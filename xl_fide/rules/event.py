"""A whole event at once: every player's rated games, change, performance and Ru.

Builds on :mod:`xl_fide.rules.rating`, :mod:`xl_fide.rules.initial` and
:mod:`xl_fide.rules.performance`. The input is a cross-table in the engine's terms
(start ranks, ratings, K, and per round the opponent and the result), so the TRF
report, the workbook's FIDE_EVENT function and the CLI share one calculation.

Rules applied (FIDE B.02 §7, §8.1-§8.3):
only played games (1 = 0) against a real opponent can be rated; a rated player's
change counts games against rated opponents only; an unrated player's N and W are
the games against rated opponents, which feed the initial rating; a rating below
the edition's floor is treated as unrated. The event is taken as the player's whole
rating period (K x n <= 700 cap over its rated games, one rounding).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence, overload

from xl_fide.rules.editions import RuleEdition, rules_for
from xl_fide.errors import InputError, NotPlain
from xl_fide.rules.initial import InitialRating, initial_rating
from xl_fide.rules.rounding import round_half_up
from xl_fide.rules.tables import dp_for_p, p_hundredths
from xl_fide.rules.notes import initial_code, new_rating_code
from xl_fide.rules.rating import (EventChange, _cap_k, cap_k, checked_pairs, new_rating_or_note,
                                  rated_sums)
from xl_fide.rules.values import K_MAX, K_MIN, RATING_MAX, as_rating
from xl_fide.rules.results import GameResult

_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True)
class Entrant:
    """One player of a cross-table.

    ``start_rank`` (int, unique), ``rating`` (published rating used, ``None`` if
    unrated), ``K`` (before the 700 cap; ``None`` for an unrated player), ``rounds``:
    per round ``(opponent start rank or None, GameResult or None)``; ``points_half``
    optionally overrides the points shown (the event's own scoring system).
    """

    start_rank: int
    rating: int | None
    K: int | None
    rounds: tuple[tuple[int | None, GameResult | None], ...]
    name: str = ""
    points_half: int | None = None

    @classmethod
    def of(cls, start_rank: int, rating: int | None, K: int | None,
           rounds: tuple[tuple[int | None, GameResult | None], ...], name: str = "") -> Entrant:
        """``Entrant(start_rank, rating, K, rounds, name)`` built in one step (the
        dataclass's ``__init__`` sets its six frozen fields one at a time)."""
        e = _new(cls)      # each field on its own: the values kept in the object
        _set(e, "start_rank", start_rank)
        _set(e, "rating", rating)
        _set(e, "K", K)
        _set(e, "rounds", rounds)
        _set(e, "name", name)
        _set(e, "points_half", None)
        return e

    @classmethod
    def of_codes(cls, start_rank: int, rating: int | None, K: int | None,
                 opponents: Sequence[int | None], codes: str, name: str,
                 decode: CellCodes) -> Entrant:
        """``Entrant.of(start_rank, rating, K, decode.cells(opponents, codes), name)``
        whose ``rounds`` are made when first read: the rounds given compact, one
        opponent (start rank or ``None``) and one result code a round, read as
        ``decode`` says (:class:`CellCodes`); :func:`rate_crosstable` reads them so."""
        e = _new(cls)
        _set(e, "start_rank", start_rank)
        _set(e, "rating", rating)
        _set(e, "K", K)
        _set(e, "name", name)
        _set(e, "points_half", None)
        _set(e, "_opponents", opponents)
        _set(e, "_codes", codes)
        _set(e, "_decode", decode)
        return e


class CellCodes:
    """How an event's compact round cells read (:meth:`Entrant.of_codes`): ``played``
    maps the code of a played game (``1 = 0``) to the score in half points (with an
    opponent it can be rated); ``unplayed_half(code)`` is the points in half points of
    any other cell (a code without an opponent, a bye, a forfeit); ``cells(opponents,
    codes)`` makes the ``rounds`` of :class:`Entrant` of the same cells."""

    __slots__ = ("played", "unplayed_half", "cells")

    def __init__(self, played: dict[str, int], unplayed_half: Callable[[str], int],
                 cells: Callable[[Sequence[int | None], str],
                                 tuple[tuple[int | None, GameResult | None], ...]]) -> None:
        self.played = played
        self.unplayed_half = unplayed_half
        self.cells = cells


class _LazyRounds:
    """The ``rounds`` of an :class:`Entrant` made by :meth:`Entrant.of_codes`, made on
    first read from the compact cells it keeps (a non-data descriptor: an entrant built
    with its rounds holds them itself)."""

    def __get__(self, obj: object, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        rounds = obj._decode.cells(obj._opponents, obj._codes)  # type: ignore[attr-defined]
        _set(obj, "rounds", rounds)
        return rounds


class _FromCalc:
    """A rated player's number read from the result's ``calc`` (``None`` when unrated)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> _FromCalc: ...
    @overload
    def __get__(self, obj: PlayerResult, objtype: type | None = None) -> int | None: ...

    def __get__(self, obj: PlayerResult | None, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        calc = obj.calc
        return getattr(calc, self.name) if calc is not None else None


@dataclass(frozen=True, kw_only=True)
class PlayerResult:
    """A player's line of the rating report (FIDE calculation-page columns).

    ``N``/``W_half``: played games against rated opponents and the score in them;
    ``Rp`` FIDE performance over the N games (``None`` if N = 0); ``calc`` the rated
    player's :class:`~xl_fide.rules.rating.EventChange` (K, ΣPD, K x ΣΔR, rounding: FIDE
    B.02 §8.3.2-§8.3.4), read through ``K_given``, ``K``, ``sum_PD`` (hundredths),
    ``change`` (K x ΣΔR, hundredths), ``rating_change`` (rounded .5 away from zero)
    and ``new_rating``, all ``None`` for an unrated player; ``initial`` the
    initial-rating calculation for an unrated player (FIDE B.02 §8.2).
    ``sum_R_opp``: the sum of the opponents' ratings over the N games (int), whence
    :attr:`Rc`, their average.
    """

    start_rank: int
    name: str
    rating: int | None
    points_half: int
    N: int
    W_half: int
    Rp: int | None
    initial: InitialRating | None = None
    calc: EventChange | None = None
    notes: tuple[str, ...] = ()
    sum_R_opp: int = 0

    @property
    def rated(self) -> bool:
        return self.rating is not None

    @property
    def Rc(self) -> int | None:
        """The average rating of the opponents in the N games that count for rating (a
        rated player: the rated games; an unrated player: the games against rated
        opponents, without the two hypothetical 1800s of §8.2), as FIDE's rating
        report shows it: a whole number, rounded .5 up (exact integers; the rounding
        of an average of ratings in B.01 §1.4 and C.07 §10.2, reference §6).
        ``None`` when N is 0."""
        return round_half_up(self.sum_R_opp, self.N) if self.N else None

    K_given = _FromCalc()       # K before the K x n <= 700 cap (FIDE B.02 §8.3.3)
    K = _FromCalc()             # K used, after the cap
    sum_PD = _FromCalc()        # ΣPD, hundredths
    change = _FromCalc()        # K x ΣΔR, hundredths (§8.3.2)
    rating_change = _FromCalc()  # rounded .5 away from zero (§8.3.4)
    new_rating = _FromCalc()

    @property
    def publication(self) -> str:
        """``"not published: below 1400"`` for a rated player whose new rating is under
        the edition's floor (FIDE B.02 §7.2.1), else ``""``."""
        return self.calc.publication if self.calc is not None else ""

    @property
    def published(self) -> bool | None:
        """Whether the new rating (rated player) or Ru (unrated) is published: False
        below the edition's floor (FIDE B.02 §7.2.1, §8.2); None when there is none."""
        if self.calc is not None:
            return self.calc.published
        return self.initial.published if self.initial is not None else None


def effective_rating(rating: int | None, edition: RuleEdition,
                     standard_rating: int | None = None) -> tuple[int | None, str]:
    """The rating a player counts with in an event, and a note when it is not as given.

    A rating below the edition's floor is unrated (FIDE B.02 §7: no rating is published
    below the floor); in rapid/blitz a player without a rapid/blitz rating but with a
    standard rating counts as rated with it (reference §5, R&B chapter).
    """
    note = ""
    if rating is not None and rating < edition.rating_floor:
        note = f"rating {rating} is below the floor {edition.rating_floor}: treated as unrated"
        rating = None
    if rating is None and standard_rating is not None and edition.standard_counts_in_rb:
        if standard_rating >= edition.rating_floor:
            note = f"no {edition.time_control.value} rating: rated with standard {standard_rating}"
            rating = standard_rating
    return rating, note


def effective_ratings(ratings: Sequence[int | None], edition: RuleEdition,
                      standard_ratings: Sequence[int | None] | None = None) -> list[int | None]:
    """:func:`effective_rating` of each of ``ratings`` (the ratings only, no notes), with
    the standard rating of the same position (``None``: none known for anyone): the
    ratings of a whole event at once (FIDE B.02 §7; R&B chapter)."""
    if standard_ratings is None:     # only the floor can change a rating
        floor = edition.rating_floor
        return [R if R is None or R >= floor else None for R in ratings]
    return [effective_rating(R, edition, standard)[0]
            for R, standard in zip(ratings, standard_ratings, strict=True)]


def _performance(sum_R: int, N: int, W_half: int) -> int:
    """:func:`~xl_fide.rules.performance.performance_rating` of ratings already checked,
    from their sum: Rp = Ra + dp(p) = (ΣR + N dp) / N rounded half up (B.02 §8.1.1)."""
    return round_half_up(sum_R + N * dp_for_p(p_hundredths(W_half, N)), N)


def _result(start_rank: int, name: str, rating: int | None, points_half: int, N: int,
            W_half: int, Rp: int | None, initial: InitialRating | None,
            calc: EventChange | None, sum_R_opp: int = 0) -> PlayerResult:
    """``PlayerResult(...)`` of values the engine computed, built in one step (the
    dataclass's ``__init__`` sets its ten frozen fields one at a time)."""
    r = _new(PlayerResult)
    # each field on its own, as __init__ sets them: CPython keeps the values in the
    # object (a third of the memory of a dict of its own; a report holds one a player)
    _set(r, "start_rank", start_rank)
    _set(r, "name", name)
    _set(r, "rating", rating)
    _set(r, "points_half", points_half)
    _set(r, "N", N)
    _set(r, "W_half", W_half)
    _set(r, "Rp", Rp)
    _set(r, "initial", initial)
    _set(r, "calc", calc)
    _set(r, "notes", ())
    _set(r, "sum_R_opp", sum_R_opp)
    return r


#: The columns of a cross-table's rating block, in the order ``FIDE_EVENT`` and
#: ``FIDE_EVENT_SWISS`` return them and the workbooks show them (the sheets' headers:
#: N, W, ΣPD, W−ΣPD, K used, K×ΣΔR, Δ, New, Rp, Ru, Rc); Rc last, so a range of the
#: first ten columns shows what it showed before Rc was added.
BLOCK_COLUMNS = ("N", "W", "ΣPD", "W-ΣPD", "K", "K×ΣΔR", "change", "new rating", "Rp", "Ru",
                 "Rc")


def block_values(res: PlayerResult, edition: RuleEdition, *,
                 short: bool = True) -> list[object]:
    """One player's rating block (:data:`BLOCK_COLUMNS`), ``""`` where the cell is blank:
    what ``FIDE_EVENT(_SWISS)`` returns and the value a workbook caches for the block's
    formulas, in both modes (one form for both). N (int), W (points, float of a
    half-point), ΣPD and W−ΣPD (float of the hundredths), K (after the K x n <= 700
    cap, §8.3.3), K×ΣΔR (float of the hundredths), the change rounded .5 away from zero
    (§8.3.4), the new rating (below the floor ``NP 1395``, §7.2.1; ``short=False``: the
    sentence of :func:`~xl_fide.rules.rating.new_rating_or_note`), Rp (§8.1.1), Ru for
    an unrated player (§8.2; or why it is not published: the code of
    :func:`~xl_fide.rules.notes.initial_code`, ``short=False`` the sentence) and Rc
    (.5 up, :attr:`PlayerResult.Rc`), rated under ``edition``."""
    calc, init = res.calc, res.initial
    row: list[object] = [res.N, res.W_half / 2]
    if calc is not None:
        row += [calc.sum_PD / 100, calc.sum_delta_R / 100, calc.K, calc.change / 100,
                calc.rating_change,
                new_rating_code(calc) if short else new_rating_or_note(calc)]
    else:
        row += [""] * 6
    row.append(res.Rp if res.Rp is not None else "")
    if calc is not None or init is None:
        row.append("")
    elif init.Ru is not None or short:
        row.append(initial_code(init, edition))
    else:
        row.append(f"not published: {init.reason}")
    row.append(res.Rc if res.Rc is not None else "")     # .5 up (PlayerResult.Rc)
    return row


def rate_crosstable(entrants: Sequence[Entrant], edition: RuleEdition | None = None,
                    *, apply_cap: bool = True) -> tuple[PlayerResult, ...]:
    """Rate every player of one event (FIDE B.02 §8.2-§8.3).

    ``entrants``: see :class:`Entrant`; ratings already effective (see
    :func:`effective_rating`). ``apply_cap``: the K x n <= 700 cap over the event.
    Returns one :class:`PlayerResult` per entrant, in the same order.
    Raises :class:`InputError` for an opponent number that is not a player or a rated
    player without K.
    """
    edition = edition or rules_for(None)
    rating_of = {e.start_rank: e.rating for e in entrants}
    if len(rating_of) != len(entrants):
        raise InputError("start ranks must be unique")
    # plain int ratings and half points 0..2 (the usual case) need no check per game
    plain = all(r is None or (type(r) is int and 0 <= r <= RATING_MAX)
                for r in rating_of.values())
    if plain:
        try:
            return _rate_plain(entrants, rating_of, edition, apply_cap)
        except NotPlain:
            pass                # a result's half points to check: the general path below
    out = []
    # one tuple per (R_opp, half points), shared by every game that has them (the
    # changes keep their games: a large event repeats the same few thousand)
    shared: dict[tuple[int, int], tuple[int, int]] = {}
    share = shared.setdefault
    for e in entrants:
        games: list[tuple[int, int]] = []     # (R_opp, half points) vs rated opponents
        points = 0
        for opp, result in e.rounds:
            if result is None:
                continue
            half = result.half_points
            points += half
            if not result.played or opp is None:
                continue
            try:
                R_opp = rating_of[opp]
            except KeyError:
                rnd = 1 + next(i for i, (o, r) in enumerate(e.rounds)
                               if r is not None and r.played and o == opp)
                raise InputError(f"player {e.start_rank}, round {rnd}: opponent {opp} is "
                                 "not a player") from None
            if R_opp is None:
                continue                      # unrated opponent: not rated for either
            pair = (R_opp, half)
            games.append(share(pair, pair))
            if type(half) is not int or not 0 <= half <= 2:
                plain = False
        if e.points_half is not None:
            points = e.points_half
        if e.rating is not None:
            if e.K is None:
                raise InputError(f"player {e.start_rank} is rated but has no K")
            Ro = e.rating
            if not plain:       # checked as game_lines checks them, the same errors
                Ro = as_rating(Ro, "Ro")
                games = checked_pairs(games)
            sums = rated_sums(Ro, games, edition)
            N, W_half, _, sum_R = sums
            # K x n <= 700 (B.02 §8.3.3)
            calc = EventChange.of_pairs(e.rating, e.K, cap_k(e.K, N) if apply_cap else e.K, games,
                                        edition, sums)
            Rp = _performance(sum_R, N, W_half) if N else None
            out.append(_result(e.start_rank, e.name, e.rating, points, N, W_half, Rp, None,
                               calc, sum_R))
        else:
            init = initial_rating([[(r, s / 2) for r, s in games]], edition)
            N = len(games)
            W_half = sum(s for _, s in games)
            sum_R = sum(r for r, _ in games)
            Rp = _performance(sum_R, N, W_half) if N else None
            out.append(_result(e.start_rank, e.name, None, points, N, W_half, Rp, init, None,
                               sum_R))
    return tuple(out)


#: a rating's three games (R_opp, half points 0, 1, 2), one tuple each, shared
_PAIRS: dict[int, tuple[tuple[int, int], tuple[int, int], tuple[int, int]]] = {}


def _three(R: int) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    three = _PAIRS[R] = ((R, 0), (R, 1), (R, 2))
    return three


def _rate_plain(entrants: Sequence[Entrant], rating_of: dict[int, int | None],
                edition: RuleEdition, apply_cap: bool) -> tuple[PlayerResult, ...]:
    """:func:`rate_crosstable` of entrants whose ratings are ints 0..4000 (or ``None``):
    the same results and errors, each game's ``(R_opp, score_half)`` the one tuple of its
    rating and score (:data:`_PAIRS`). Raises :class:`NotPlain` at a game whose half
    points are not an int 0..2 (the caller then rates the event on its general path)."""
    pair_of = {sr: _PAIRS.get(R) or _three(R) for sr, R in rating_of.items()
               if R is not None}.get
    of_pairs = EventChange.of_pairs
    out = []
    for e in entrants:
        games: list[tuple[int, int]] = []     # (R_opp, half points) vs rated opponents
        points = 0
        codes = e._codes  # type: ignore[attr-defined]
        if codes is not None:      # the rounds given compact (Entrant.of_codes)
            decode = e._decode  # type: ignore[attr-defined]
            played = decode.played
            for opp, code in zip(e._opponents, codes):  # type: ignore[attr-defined]
                half = played.get(code)
                if half is None or opp is None:     # a bye, a forfeit: points only
                    points += decode.unplayed_half(code)
                    continue
                points += half
                three = pair_of(opp)
                if three is None:
                    if opp not in rating_of:
                        _not_a_player(e, opp)
                    continue                  # unrated opponent: not rated for either
                games.append(three[half])
        for opp, result in () if codes is not None else e.rounds:
            if result is None:
                continue
            half = result.half_points
            points += half
            if opp is None or not result.played:
                continue
            three = pair_of(opp)
            if three is None:
                if opp not in rating_of:
                    _not_a_player(e, opp)
                continue                      # unrated opponent: not rated for either
            if type(half) is not int or not 0 <= half <= 2:
                raise NotPlain
            games.append(three[half])
        if e.points_half is not None:
            points = e.points_half
        Ro = e.rating
        if Ro is not None:
            K = e.K
            if K is None:
                raise InputError(f"player {e.start_rank} is rated but has no K")
            sums = rated_sums(Ro, games, edition)
            N, W_half, _, sum_R = sums
            if apply_cap:       # K x n <= 700 (B.02 §8.3.3)
                K_used = _cap_k(K, N) if type(K) is int and K_MIN <= K <= K_MAX else cap_k(K, N)
            else:
                K_used = K
            calc = of_pairs(Ro, K, K_used, games, edition, sums)
            out.append(_result(e.start_rank, e.name, Ro, points, N, W_half,
                               _performance(sum_R, N, W_half) if N else None, None, calc,
                               sum_R))
        else:
            init = initial_rating([[(r, s / 2) for r, s in games]], edition)
            N = len(games)
            W_half = sum_R = 0
            for r, s in games:
                W_half += s
                sum_R += r
            out.append(_result(e.start_rank, e.name, None, points, N, W_half,
                               _performance(sum_R, N, W_half) if N else None, init, None,
                               sum_R))
    return tuple(out)


def _not_a_player(e: Entrant, opp: int) -> None:
    """Raise the error of a game of ``e`` against ``opp``, no player of the event."""
    rnd = 1 + next(i for i, (o, r) in enumerate(e.rounds)
                   if r is not None and r.played and o == opp)
    raise InputError(f"player {e.start_rank}, round {rnd}: opponent {opp} is not a player")


# an entrant of compact cells (Entrant.of_codes) makes its rounds when first read; any
# other holds them itself
Entrant.rounds = _LazyRounds()  # type: ignore[assignment]
Entrant._codes = None  # type: ignore[attr-defined]
