"""Rating changes of rated players: PD, ΔR, K, the K x n cap and the period's rounding.

FIDE B.02 §8.3 (rating change), §8.3.1 (400-point rule), §8.3.3 (K), §8.3.4 (rounding);
Rapid & Blitz chapter §1 (600-point rule).

Units: ratings ``int``; scores in half points (``int`` 0, 1, 2 per game); PD, ΔR,
ΣPD, ΣΔR and K x ΣΔR in integer hundredths. Nothing here uses a float.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Sequence

from xl_fide.rules.editions import CAP_DIFFERENCE, Cap400, RuleEdition, rules_for
from xl_fide.rules.editions import edition as edition_by_id
from xl_fide.errors import InputError
from xl_fide.rules.rounding import round_half_away
from xl_fide.rules.tables import PD_BY_DIFFERENCE, PD_SPAN, pd_for_difference
from xl_fide.rules.values import RATING_MAX, as_half_points, as_int, as_k, as_rating, plain_game

EXEMPT_RATING = 2650       # §8.3.1 (from 2025-10-01, standard only)
RB_600_DIFFERENCE = 600    # R&B §1 (from 2024-12-01)
RB_600_TOP = 2600          # "one player rated above 2600"
K_CAP_PRODUCT = 700        # §8.3.3: K x n <= 700 over the rating period
K_NEW = 40                 # §8.3.3: new players (< 30 games) and juniors under 2300
K_DEFAULT = 20             # §8.3.3: rating under 2400
K_TOP = 10                 # §8.3.3: once a published rating has reached 2400
K10_RATING = 2400          # §8.3.3: "reached 2400" -> K 10 for good
JUNIOR_RATING = 2300       # §8.3.3: junior K 40 "as long as their rating remains under 2300"
JUNIOR_AGE = 18            # §8.3.3: until the end of the year of the 18th birthday
NEW_PLAYER_GAMES = 30      # §8.3.3: K 40 until events with at least 30 games are completed
MAX_AGE = 120              # a birth year more than 120 years back is a data error


def cap_applies(Ro: int, edition: RuleEdition) -> bool:
    """True when the 400-point rule applies to a player rated ``Ro`` (FIDE B.02 §8.3.1).

    It depends on the player whose change is computed: from 1 Oct 2025 a standard
    player rated 2650 or more uses the real difference; rapid and blitz never exempt.
    """
    return not (edition.exempt_2650 and Ro >= EXEMPT_RATING)


def expected_score(Ro: int, R_opp: int, edition: RuleEdition | None = None, *,
                   cap: bool | None = None) -> int:
    """PD (integer hundredths) of a player rated ``Ro`` against ``R_opp``.

    FIDE B.02 §8.1.2 with the 400-point rule of §8.3.1 as ``edition`` applies it in
    every game (``None``: today's standard rules). ``cap`` forces the rule on (True)
    or off (False, the bare table). For editions that cap once per event, use
    :func:`rate_event` (the capped game depends on the other games).
    ``expected_score(1892, 2022) == 32``; ``expected_score(2200, 2700) == 8``.
    """
    Ro = as_rating(Ro, "Ro")
    R_opp = as_rating(R_opp, "R_opp")
    if cap is None:
        edition = edition or rules_for(None)
        cap = cap_applies(Ro, edition)
    D = Ro - R_opp
    if cap and abs(D) > CAP_DIFFERENCE:
        D = CAP_DIFFERENCE if D > 0 else -CAP_DIFFERENCE
    return pd_for_difference(D)


def logistic_expected(Ro: int, R_opp: int) -> float:
    """The textbook Elo curve 1 / (1 + 10^(-D/400)), a float; NOT the FIDE table.

    Offered as an option only (reference §1): FIDE B.02 §8.1.2 uses the table.
    No 400-point rule is applied.
    """
    D = as_rating(Ro, "Ro") - as_rating(R_opp, "R_opp")
    return 1.0 / (1.0 + math.pow(10.0, -D / 400.0))


def rapid_blitz_rated(R_a: int, R_b: int, edition: RuleEdition) -> bool:
    """False when a rapid/blitz game is not rated: difference >= 600 and a player > 2600.

    FIDE Rapid & Blitz Rating Regulations §1 (from 1 Dec 2024); always True for
    editions without that rule (standard, or before 1 Dec 2024).
    """
    if not edition.rapid_blitz_600:
        return True
    return not (abs(R_a - R_b) >= RB_600_DIFFERENCE and max(R_a, R_b) > RB_600_TOP)


def cap_k(K: int, n: int) -> int:
    """K after the cap of FIDE B.02 §8.3.3: if K x n > 700, the largest K with K x n <= 700.

    ``n`` = the player's rated games in the rating period. ``cap_k(40, 18) == 38``,
    ``cap_k(40, 17) == 40``, ``cap_k(20, 35) == 20``, ``cap_k(20, 36) == 19``,
    ``cap_k(10, 70) == 10``, ``cap_k(10, 71) == 9``.
    """
    return _cap_k(as_k(K, "K"), as_int(n, "n", minimum=0))


def _cap_k(K: int, n: int) -> int:
    """:func:`cap_k` of checked ints (FIDE B.02 §8.3.3)."""
    return K_CAP_PRODUCT // n if K * n > K_CAP_PRODUCT else K


def birth_year_problem(birth_year: int, period_year: int) -> str | None:
    """Why ``birth_year`` cannot be a player's for a period of ``period_year``, or ``None``.

    A birth after the period's year, or more than 120 years before it
    (:data:`MAX_AGE`), is a data error, not a junior (FIDE B.02 §8.3.3 needs a real
    age). Both arguments are ints.
    """
    if birth_year > period_year:
        return f"birth_year {birth_year} is after the rating period's year {period_year}"
    if period_year - birth_year > MAX_AGE:
        return (f"birth_year {birth_year} is more than {MAX_AGE} years before the rating "
                f"period's year {period_year}")
    return None


def k_factor(Ro: int, *, birth_year: int | None = None, career_games: int | None = None,
             peak_rating: int | None = None, period_year: int | None = None,
             period_games: int | None = None, edition: RuleEdition | None = None) -> int:
    """The K factor of a rated player (FIDE B.02 §8.3.3), capped by ``period_games``.

    Precedence (matches FIDE's published K): a published rating (``Ro`` or
    ``peak_rating``) ever >= 2400 -> 10 (for good); else a junior -> 40: born
    ``period_year - 18`` or later (until the end of the year of the 18th birthday)
    "as long as their rating remains under 2300" -- ``Ro`` < 2300 and, when known,
    ``peak_rating`` < 2300 (a junior whose published rating has reached 2300 keeps
    K 20 even if it falls back); else fewer than 30 ``career_games`` -> 40; else 20.
    Unknown values (``None``) do not raise K. Rapid/blitz editions before 1 Oct 2022:
    20 for everyone. With ``period_games`` the K x n <= 700 cap applies (:func:`cap_k`).
    Raises :class:`InputError` for bad values, for ``birth_year`` without
    ``period_year``, and for an implausible ``birth_year`` (after ``period_year`` or
    more than 120 years before it, see :func:`birth_year_problem`): a wrong birth
    year must not give K 40 silently.
    """
    if type(Ro) is not int or not 0 <= Ro <= RATING_MAX:     # the usual int passes at once
        Ro = as_rating(Ro, "Ro")
    peak = as_rating(peak_rating, "peak_rating") if peak_rating is not None else None
    highest = Ro if peak is None else max(Ro, peak)
    if edition is not None and edition.k_fixed_20:
        K = K_DEFAULT
    elif highest >= K10_RATING:
        K = K_TOP
    else:
        junior = False
        if birth_year is not None:
            if type(birth_year) is not int or not 1850 <= birth_year <= 2200:
                birth_year = as_int(birth_year, "birth_year", minimum=1850, maximum=2200)
            if period_year is None:
                raise InputError("period_year is needed to apply the junior rule with birth_year")
            if type(period_year) is not int or not 1850 <= period_year <= 2200:
                period_year = as_int(period_year, "period_year", minimum=1850, maximum=2200)
            problem = birth_year_problem(birth_year, period_year)
            if problem:
                raise InputError(problem)
            junior = period_year - birth_year <= JUNIOR_AGE and highest < JUNIOR_RATING
        if junior:
            K = K_NEW
        elif career_games is not None and as_int(career_games, "career_games",
                                                 minimum=0) < NEW_PLAYER_GAMES:
            K = K_NEW
        else:
            K = K_DEFAULT
    if period_games is not None:
        K = cap_k(K, period_games)
    return K


def below_floor(rating: int, edition: RuleEdition) -> bool:
    """True when ``rating`` is under the edition's floor (1400 from 1 Mar 2024, 1000
    before): no such rating is published, the player is unrated (FIDE B.02 §7.2.1)."""
    return rating < edition.rating_floor


def publication_note(new_rating: int, edition: RuleEdition) -> str:
    """``""`` when ``new_rating`` is published, else ``"not published: below 1400"``.

    FIDE B.02 §7.2.1: a rating below the floor of ``edition`` is not published; the
    player is listed as unrated on the next list.
    """
    if below_floor(new_rating, edition):
        return f"not published: below {edition.rating_floor}"
    return ""


def floor_note(R_opp: int, edition: RuleEdition) -> str:
    """The note of a game whose opponent's rating is below the floor (FIDE B.02 §7.2.1)."""
    return (f"not rated: opponent's rating {R_opp} is below the floor {edition.rating_floor}, "
            "an unrated opponent (B.02 §7.2.1)")


@dataclass(frozen=True)
class GameCalc:
    """One line of a calculation page: opponent, result, D, PD and ΔR.

    ``D`` is ``Ro - R_opp`` as used (after the 400-point rule, signed); ``PD`` and
    ``delta_R`` are integer hundredths; ``rated`` is False for a game the rules do
    not rate (then it adds nothing), with the reason in ``note``.
    """

    R_opp: int
    score_half: int
    D: int
    capped: bool
    PD: int
    delta_R: int
    rated: bool = True
    note: str = ""


class _RoundedChange:
    """K x ΣΔR, its one rounding and the new rating, for a change over one event or a
    whole rating period (FIDE B.02 §8.3.2, §8.3.4; the floor of §7.2.1). A subclass
    holds ``Ro``, ``K`` and ``edition_id`` and gives ``sum_delta_R`` (hundredths); it
    is a frozen dataclass, so each number is computed once (``cached_property``)."""

    Ro: int
    K: int
    edition_id: str

    @property
    def sum_delta_R(self) -> int:   # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    @cached_property
    def change(self) -> int:
        """K x ΣΔR in integer hundredths (unrounded), FIDE B.02 §8.3.2."""
        return self.K * self.sum_delta_R

    @cached_property
    def rating_change(self) -> int:
        """The change rounded to a whole number, .5 away from zero (FIDE B.02 §8.3.4)."""
        return round_half_away(self.change, 100)

    @cached_property
    def new_rating(self) -> int:
        """Ro + the rounded change (FIDE B.02 §8.3.4)."""
        return self.Ro + self.rating_change

    @cached_property
    def publication(self) -> str:
        """``""``, or ``"not published: below 1400"`` when the new rating is under the
        floor of the edition (FIDE B.02 §7.2.1); no edition id means today's rules."""
        return publication_note(self.new_rating, self._floor_edition())

    def _floor_edition(self) -> RuleEdition:
        return _floor_edition(self.edition_id)

    @property
    def published(self) -> bool:
        """False when the new rating is below the floor: shown as unrated (B.02 §7.2.1)."""
        return not self.publication


def _settled(Ro: int, K: int, sum_delta_R: int, edition_id: str) -> tuple[int, int, int, str]:
    """What :class:`_RoundedChange`'s cached properties give, worked out at once for the
    engine's own changes (a report reads each of them; four look-ups of a cached
    property cost more than the arithmetic): ``(change, rating_change, new_rating,
    publication)`` of checked ints (FIDE B.02 §8.3.2, §8.3.4, §7.2.1)."""
    change = K * sum_delta_R
    rounded = round_half_away(change, 100)
    new = Ro + rounded
    return change, rounded, new, publication_note(new, _floor_edition(edition_id))


def _floor_edition(edition_id: str) -> RuleEdition:
    """The edition whose floor decides a publication (no id: today's rules)."""
    return edition_by_id(edition_id) if edition_id else rules_for(None)


@dataclass(frozen=True)
class EventChange(_RoundedChange):
    """A rated player's change over one event (or one rating period).

    FIDE B.02 §8.3.2-§8.3.4. ``K`` is the K used (after the cap when it applied),
    ``K_given`` the K before the cap; sums in hundredths; ``change`` = K x ΣΔR in
    hundredths (unrounded); ``rating_change`` rounded .5 away from zero.
    """

    Ro: int
    K_given: int
    K: int
    games: tuple[GameCalc, ...]
    edition_id: str

    def __post_init__(self) -> None:
        # The sums of the rated games in one pass, stored where the cached properties
        # below keep their values (the fields are frozen): a report reads them often.
        rated = tuple(g for g in self.games if g.rated)
        W_half = sum_PD = 0
        for g in rated:
            W_half += g.score_half
            sum_PD += g.PD
        d = self.__dict__
        d["rated_games"], d["N"], d["W_half"], d["sum_PD"] = rated, len(rated), W_half, sum_PD
        d["sum_delta_R"] = 50 * W_half - sum_PD

    @cached_property
    def rated_games(self) -> tuple[GameCalc, ...]:
        return tuple(g for g in self.games if g.rated)

    @cached_property
    def N(self) -> int:
        """Rated games."""
        return len(self.rated_games)

    @cached_property
    def W_half(self) -> int:
        """Score in rated games, in half points."""
        return sum(g.score_half for g in self.rated_games)

    @cached_property
    def sum_PD(self) -> int:
        """ΣPD over the rated games, hundredths."""
        return sum(g.PD for g in self.rated_games)

    @cached_property
    def sum_delta_R(self) -> int:
        """ΣΔR = W - ΣPD, hundredths."""
        return sum(g.delta_R for g in self.rated_games)

    @classmethod
    def of_pairs(cls, Ro: int, K_given: int, K: int, pairs: Sequence[tuple[int, int]],
                 edition: RuleEdition, sums: tuple[int, int, int, int]) -> EventChange:
        """The change of ``Ro`` over ``pairs`` (``(R_opp, score_half)`` ints already
        checked, ``Ro`` a rating ``as_rating`` takes) whose :func:`rated_sums` are ``sums``: equal to
        ``EventChange(Ro, K_given, K, _lines(Ro, pairs, edition), edition.id)``, its
        lines (``games``, ``rated_games``) made only when read."""
        N, W_half, sum_PD, _ = sums
        sum_delta_R = 50 * W_half - sum_PD
        change, rounded, new, publication = _settled(Ro, K, sum_delta_R, edition.id)
        c = _new(cls)
        # each value on its own (CPython keeps them in the object: a third of the memory
        # of a dict of its own; a report holds one a rated player)
        _set(c, "Ro", Ro)
        _set(c, "K_given", K_given)
        _set(c, "K", K)
        _set(c, "edition_id", edition.id)
        _set(c, "N", N)
        _set(c, "W_half", W_half)
        _set(c, "sum_PD", sum_PD)
        _set(c, "sum_delta_R", sum_delta_R)
        _set(c, "_pairs", tuple(pairs))
        _set(c, "_edition", edition)
        _set(c, "change", change)
        _set(c, "rating_change", rounded)
        _set(c, "new_rating", new)
        _set(c, "publication", publication)
        return c



def _game_pairs(games: Iterable[Sequence[object]]) -> list[tuple[int, int]]:
    out = []
    for i, game in enumerate(games, 1):
        try:
            R_opp, score = game
        except (TypeError, ValueError):
            raise InputError(f"game {i} must be (opponent rating, score), got {game!r}") from None
        # plain ints and 0 / 0.5 / 1 pass at once; anything else is checked in full
        pair = plain_game(R_opp, score)
        if pair is None:
            pair = (as_rating(R_opp, f"opponent rating of game {i}"),
                    as_half_points(score, f"score of game {i}"))
        out.append(pair)
    return out


# Enum members looked up once (on Python 3.11 each look-up of a member runs Python code)
_EVERY_GAME = Cap400.EVERY_GAME
_ONCE_PER_EVENT = Cap400.ONCE_PER_EVENT
_new = object.__new__
_set = object.__setattr__
_RB_600_NOTE = "not rated: 600+ apart and a player above 2600 (R&B §1)"


def _line(R_opp: int, s: int, D: int, capped: bool, PD: int, rated: bool, note: str) -> GameCalc:
    """A :class:`GameCalc` of values already checked, built in one step (the
    dataclass's own ``__init__`` sets its eight frozen fields one at a time)."""
    g = _new(GameCalc)
    _set(g, "__dict__", {"R_opp": R_opp, "score_half": s, "D": D, "capped": capped, "PD": PD,
                         "delta_R": 50 * s - PD, "rated": rated, "note": note})
    return g


def game_lines(Ro: int, games: Iterable[tuple[int, int]], edition: RuleEdition) -> tuple[GameCalc, ...]:
    """The calculation-page lines of one event for a player rated ``Ro``.

    ``games``: ``(R_opp, score_half)`` pairs (score in half points 0/1/2), played games
    against rated opponents only. Applies the 400-point rule as ``edition`` does
    (every game, or only the game of largest difference: FIDE B.02 2022 §8.3.1) and
    the rapid/blitz 600-point rule. "Once per event" (B.02 2022 §8.3.1) is read as
    the one game of largest difference of the player whose change is computed, for
    the higher- and the lower-rated player alike (an ambiguity of the text; this
    reading is kept). An opponent's rating below the edition's floor
    (1400 from 1 Mar 2024, 1000 before) is no rating (B.02 §7.2.1): that game is
    kept as a line with ``rated=False`` and a note, and adds nothing.
    """
    Ro = as_rating(Ro, "Ro")
    return _lines(Ro, checked_pairs(games), edition)


def checked_pairs(games: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(R_opp, score_half)`` pairs checked: ratings ints 0..4000, half points 0..2
    (plain ints pass at once; anything else is checked in full, :class:`InputError`)."""
    pairs = []
    for r, s in games:
        if type(r) is not int or not 0 <= r <= RATING_MAX:
            r = as_rating(r, "R_opp")
        if type(s) is not int or not 0 <= s <= 2:
            s = as_int(s, "score_half", minimum=0, maximum=2)
        pairs.append((r, s))
    return pairs


def _capped_index(Ro: int, pairs: Sequence[tuple[int, int]], edition: RuleEdition) -> set[int]:
    """The indexes of the games whose difference the 400-point rule caps (FIDE B.02
    §8.3.1): every game over 400 points, or only the one of largest difference (2022
    "once per event"); none for a player the rule exempts. Opponents below the floor
    are no rated opponents and are never capped."""
    if not cap_applies(Ro, edition):
        return set()
    floor = edition.rating_floor
    over = [i for i, (r, _) in enumerate(pairs) if abs(Ro - r) > CAP_DIFFERENCE and r >= floor]
    if edition.cap400 is Cap400.ONCE_PER_EVENT and over:
        return {max(over, key=lambda i: (abs(Ro - pairs[i][0]), -i))}
    return set(over)


def _pd(D: int) -> int:
    """PD of a difference as used: table 8.1.2 by index; beyond the table 1.00 or 0."""
    return PD_BY_DIFFERENCE[D + PD_SPAN] if -PD_SPAN <= D <= PD_SPAN else (100 if D > 0 else 0)


def _not_rated(Ro: int, R_opp: int, edition: RuleEdition) -> str:
    """Why the game of ``Ro`` against ``R_opp`` is not rated (an opponent below the
    floor, B.02 §7.2.1; the R&B 600-point rule), ``""`` when it is rated."""
    if R_opp < edition.rating_floor:
        return floor_note(R_opp, edition)
    if edition.rapid_blitz_600 and not rapid_blitz_rated(Ro, R_opp, edition):
        return _RB_600_NOTE
    return ""


def _lines(Ro: int, pairs: Sequence[tuple[int, int]], edition: RuleEdition) -> tuple[GameCalc, ...]:
    """:func:`game_lines` of a rating and ``(R_opp, score_half)`` ints already checked."""
    capped_index = _capped_index(Ro, pairs, edition)
    lines = []
    for i, (R_opp, s) in enumerate(pairs):
        D = Ro - R_opp
        capped = bool(capped_index) and i in capped_index
        if capped:
            D = CAP_DIFFERENCE if D > 0 else -CAP_DIFFERENCE
        note = _not_rated(Ro, R_opp, edition)
        lines.append(_line(R_opp, s, D, capped, _pd(D), not note, note))
    return tuple(lines)


def rated_sums(Ro: int, pairs: Sequence[tuple[int, int]],
               edition: RuleEdition) -> tuple[int, int, int, int]:
    """``(N, W_half, ΣPD, ΣR_opp)`` over the rated lines of :func:`_lines` (the same
    rules: 400-point cap, floor, 600-point rule), without building the lines: what a
    report needs of a player's games. ``pairs``: ``(R_opp, score_half)`` ints already
    checked."""
    capped_index: set[int] | None = None      # None: every game over 400 is capped
    cap = cap_applies(Ro, edition)
    if edition.cap400 is _EVERY_GAME and not edition.rapid_blitz_600:
        # the usual edition: PD one look-up by Ro - R_opp (the 400-point rule, when it
        # applies, is in the table); every game rated unless an opponent is below the floor
        table = PD_OF_D[cap]
        floor = edition.rating_floor
        base = Ro + RATING_MAX
        W_half = sum_PD = sum_R = 0
        for R_opp, s in pairs:
            if R_opp < floor:
                break                       # not every game rated: the loop below
            W_half += s
            sum_PD += table[base - R_opp]
            sum_R += R_opp
        else:
            return len(pairs), W_half, sum_PD, sum_R
    if cap and edition.cap400 is _ONCE_PER_EVENT:
        capped_index = _capped_index(Ro, pairs, edition)
    floor = edition.rating_floor
    rb_600 = edition.rapid_blitz_600
    N = W_half = sum_PD = sum_R = 0
    for i, (R_opp, s) in enumerate(pairs):
        if R_opp < floor or (rb_600 and not rapid_blitz_rated(Ro, R_opp, edition)):
            continue
        D = Ro - R_opp
        if cap and (D > CAP_DIFFERENCE or D < -CAP_DIFFERENCE) and (
                capped_index is None or i in capped_index):
            D = CAP_DIFFERENCE if D > 0 else -CAP_DIFFERENCE
        N += 1
        W_half += s
        # _pd(D), inline: the loop runs once per game of every player
        sum_PD += PD_BY_DIFFERENCE[D + PD_SPAN] if -PD_SPAN <= D <= PD_SPAN else (100 if D > 0 else 0)
        sum_R += R_opp
    return N, W_half, sum_PD, sum_R


def _pd_of_d() -> tuple[list[int], list[int]]:
    """PD (hundredths, table 8.1.2) for every D = Ro - R_opp of two ratings 0..4000, at
    index ``D + RATING_MAX``: as is, and with a difference over 400 counted as 400
    (FIDE B.02 §8.3.1). Beyond the table PD is 1.00 (D > 0) or 0 (D < 0)."""
    outside = RATING_MAX - PD_SPAN
    full = [0] * outside + list(PD_BY_DIFFERENCE) + [100] * outside
    low, high = RATING_MAX - CAP_DIFFERENCE, RATING_MAX + CAP_DIFFERENCE
    capped = [full[low]] * low + full[low:high + 1] + [full[high]] * (2 * RATING_MAX - high)
    return full, capped


#: PD (hundredths, table 8.1.2) by D + RATING_MAX, indexed by whether the 400-point
#: rule applies (False, True): see :func:`_pd_of_d`; the batch engine's table too
PD_OF_D = _pd_of_d()


def rated_pairs(Ro: int, pairs: Sequence[tuple[int, int]],
                edition: RuleEdition) -> list[tuple[int, int]]:
    """The ``(R_opp, score_half)`` of the rated lines of :func:`_lines`, in order."""
    floor = edition.rating_floor
    if not edition.rapid_blitz_600:
        return [(r, s) for r, s in pairs if r >= floor]
    return [(r, s) for r, s in pairs if not _not_rated(Ro, r, edition)]


class _LazyLines:
    """The ``games`` of an :class:`EventChange` or a :class:`PeriodEvent` built by the
    engine from checked ints (:meth:`EventChange.of_pairs`): its lines are made on
    first read, from the pairs and the edition it keeps (a report prints the sums only).
    An instance built with its lines holds them itself (this is a non-data descriptor)."""

    def __get__(self, obj: object, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        d = obj.__dict__
        # _pairs and _edition stay: another thread may be reading them at the same time
        # (both then make equal lines; the last one kept)
        lines = d["games"] = _lines(as_rating(d["Ro"], "Ro"), d["_pairs"], d["_edition"])
        return lines


def rate_event(Ro: int, games: Iterable[Sequence[object]], K: int,
               edition: RuleEdition | None = None, *, apply_cap: bool = True) -> EventChange:
    """The change of a rated player over one event that is its own rating period.

    FIDE B.02 §8.3. ``Ro``: own rating (int); ``games``: ``(R_opp, score)`` pairs with
    score 0, 0.5 or 1, played games against rated opponents only (forfeits, byes and
    unrated opponents must be left out; an opponent's rating below the edition's
    floor counts as unrated, B.02 §7.2.1, and its line says so); ``K``: the player's
    K before the cap;
    ``edition``: rules (``None``: today's standard rules); ``apply_cap``: the
    K x n <= 700 cap over these games. Raises :class:`InputError` for bad values.
    Example (reference §9): ``rate_event(2000, [(1950, 1), (2050, 0), (1810, .5)], 10)``
    has ``change == -250`` and ``rating_change == -3``. ``published`` is False (and
    ``publication`` says ``not published: below 1400``) when the new rating is under
    the edition's floor (B.02 §7.2.1).
    """
    edition = edition or rules_for(None)
    Ro = as_rating(Ro, "Ro")
    K_given = as_k(K, "K")
    pairs = _game_pairs(games)
    lines = _lines(Ro, pairs, edition)
    n = sum(1 for g in lines if g.rated)
    K_used = cap_k(K_given, n) if apply_cap else K_given
    return EventChange(Ro, K_given, K_used, lines, edition.id)


@dataclass(frozen=True)
class PeriodEvent:
    """One event of a rating period: its name, the edition, Ro at its start and its lines."""

    name: str
    Ro: int
    edition_id: str
    games: tuple[GameCalc, ...]

    def __post_init__(self) -> None:   # the sums once, where the cached properties keep them
        N = sum_delta_R = 0
        for g in self.games:
            if g.rated:
                N += 1
                sum_delta_R += g.delta_R
        self.__dict__["N"], self.__dict__["sum_delta_R"] = N, sum_delta_R

    @cached_property
    def sum_delta_R(self) -> int:
        return sum(g.delta_R for g in self.games if g.rated)

    @cached_property
    def N(self) -> int:
        return sum(1 for g in self.games if g.rated)

    @classmethod
    def of_pairs(cls, name: str, Ro: int, edition: RuleEdition,
                 pairs: Sequence[tuple[int, int]]) -> PeriodEvent:
        """``PeriodEvent(name, Ro, edition.id, _lines(Ro, pairs, edition))`` of ints
        already checked, its lines (``games``) made only when read."""
        N, W_half, sum_PD, _ = rated_sums(Ro, pairs, edition)
        e = _new(cls)
        _set(e, "__dict__", {"name": name, "Ro": Ro, "edition_id": edition.id, "N": N,
                             "sum_delta_R": 50 * W_half - sum_PD, "_pairs": tuple(pairs),
                             "_edition": edition})
        return e

    def rated_results(self) -> list[tuple[int, int]]:
        """``(R_opp, score_half)`` of the rated games, in order (what a period's page
        lists), without making the lines when they were not made."""
        d = self.__dict__
        if "games" in d:
            return [(g.R_opp, g.score_half) for g in d["games"] if g.rated]
        pairs = d["_pairs"]
        if d["N"] == len(pairs):        # every game rated (the usual event)
            return list(pairs)
        return rated_pairs(self.Ro, pairs, d["_edition"])


@dataclass(frozen=True)
class PeriodChange(_RoundedChange):
    """A rated player's change over a rating period (FIDE B.02 §8.3.3-§8.3.4).

    ``K`` applies to the whole period, capped over all its rated games; the period's
    total K x ΣΔR (hundredths) is rounded **once**. ``edition_id``: the rules whose
    floor decides whether the new rating is published (B.02 §7.2.1): by default the
    newest edition among the events (a caller knowing the period's month passes
    that month's); empty means today's rules.
    """

    Ro: int
    K_given: int
    K: int
    events: tuple[PeriodEvent, ...] = field(default_factory=tuple)
    edition_id: str = ""

    def __post_init__(self) -> None:   # the sums once, where the cached properties keep them
        d = self.__dict__
        d["N"] = sum(e.N for e in self.events)
        d["sum_delta_R"] = sum(e.sum_delta_R for e in self.events)

    @cached_property
    def N(self) -> int:
        return sum(e.N for e in self.events)

    @cached_property
    def W_half(self) -> int:
        return sum(g.score_half for e in self.events for g in e.games if g.rated)

    @cached_property
    def sum_delta_R(self) -> int:
        return sum(e.sum_delta_R for e in self.events)

    def event_change(self, i: int) -> int:
        """K x ΣΔR of event ``i`` in hundredths (shown per event, not rounded)."""
        return self.K * self.events[i].sum_delta_R


def rate_period(Ro: int, events: Iterable[tuple[str, int, RuleEdition, Iterable[Sequence[object]]]],
                K: int, *, edition_id: str | None = None) -> PeriodChange:
    """The change over a rating period of several events, rounded once.

    FIDE B.02 §8.3.3 (K shown on the list before the period, capped over the period's
    rated games) and §8.3.4 (one rounding of the total). ``Ro``: the rating on the list
    before the period; ``events``: ``(name, Ro at the event, edition, games)`` with
    games as in :func:`rate_event`. New rating = ``Ro`` + the rounded total; it is
    published only from the floor of the newest edition among the events (B.02 §7.2.1),
    or of ``edition_id`` when given (the list after the period).
    """
    Ro = as_rating(Ro, "Ro")
    K_given = as_k(K, "K")
    checked = [(str(name), as_rating(Ro_event, f"Ro at {name}"), ed, _game_pairs(games))
               for name, Ro_event, ed, games in events]
    return rate_period_checked(Ro, checked, K_given, edition_id=edition_id)


def rate_period_checked(Ro: int, events: Iterable[tuple[str, int, RuleEdition, list[tuple[int, int]]]],
                        K: int, *, edition_id: str | None = None) -> PeriodChange:
    """:func:`rate_period` of values a reader has already checked, not checked again:
    ``Ro`` and each event's Ro ints 0..4000, ``K`` an int 1..100, games as ``(R_opp,
    score_half)`` ints (half points 0, 1, 2). The same rules and result (FIDE B.02
    §8.3.3-§8.3.4); the rating period's own path (:func:`xl_fide.build_period`)."""
    built = []
    newest: RuleEdition | None = None
    n = sum_delta_R = 0
    for name, Ro_event, ed, pairs in events:
        # PeriodEvent.of_pairs(name, Ro_event, ed, pairs) inline (one event a player,
        # every player of a period); rated_sums has the usual edition's one look-up
        N, W_half, sum_PD, _ = rated_sums(Ro_event, pairs, ed)
        event_delta_R = 50 * W_half - sum_PD
        e = _new(PeriodEvent)
        _set(e, "__dict__", {"name": name, "Ro": Ro_event, "edition_id": ed.id, "N": N,
                             "sum_delta_R": event_delta_R, "_pairs": tuple(pairs),
                             "_edition": ed})
        built.append(e)
        n += N
        sum_delta_R += event_delta_R
        if edition_id is None and (newest is None or ed.in_force > newest.in_force):
            newest = ed                 # the newest edition: only when no id is given
    K_used = _cap_k(K, n)
    if edition_id is None:
        edition_id = newest.id if newest else ""
    # PeriodChange(Ro, K, K_used, tuple(built), edition_id) in one step, its sums (what
    # its __post_init__ adds up) from the loop above
    total, rounded, new, publication = _settled(Ro, K_used, sum_delta_R, edition_id)
    change = _new(PeriodChange)
    _set(change, "__dict__", {"Ro": Ro, "K_given": K, "K": K_used, "events": tuple(built),
                              "edition_id": edition_id, "N": n, "sum_delta_R": sum_delta_R,
                              "change": total, "rating_change": rounded, "new_rating": new,
                              "publication": publication})
    return change


# the lines of a change the engine built from checked ints, made when first read
EventChange.games = PeriodEvent.games = _LazyLines()  # type: ignore[assignment]


def new_rating_or_note(calc: EventChange | PeriodChange) -> int | str:
    """The new rating (int), or, below the floor, ``"not published: below 1400 (1398)"``.

    FIDE B.02 §7.2.1: a rating under the floor of the edition is not published (the
    player is unrated on the next list); the computed value is kept in brackets. For
    one cell of a spreadsheet or one report field.
    """
    if calc.published:
        return calc.new_rating
    return f"{calc.publication} ({calc.new_rating})"
