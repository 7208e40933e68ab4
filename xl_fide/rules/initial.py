"""Initial ratings of unrated players (FIDE B.02 §7.1.4, §8.2).

FIDE B.02 §8.2. Two methods, picked by the rule edition:

* 2024 rule (from 1 March 2024): add two hypothetical opponents rated 1800, both
  drawn: Ra = (Σ R_opp + 3600) / (n + 2), p = (W + 1) / (n + 2); Ru = Ra + dp(p),
  rounded, at most 2200; published only from 1400 and at least 5 games.
* 2022 rule (1 Jan 2022 - 29 Feb 2024): Ra = average of the rated opponents; score
  <= 50 %: Ru = Ra + dp(p); above 50 %: Ru = Ra + 20 per half point above 50 %;
  floor 1000, no maximum.

Only games against rated opponents count; a zero score in the player's first event
is ignored; the results of all events given are pooled (FIDE pools consecutive
periods over at most 26 months: that window is the caller's, it is not checked here).
An opponent whose rating is below the edition's floor is an unrated opponent (§7.2.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from xl_fide.rules.editions import InitialRule, RuleEdition, rules_for
from xl_fide.rules.rounding import round_half_up
from xl_fide.rules.tables import dp_for_p, p_hundredths
from xl_fide.rules.values import as_half_points, as_rating, plain_game

HYPOTHETICAL_OPPONENT = 1800   # §8.2 (2024): two hypothetical draws against 1800
HALF_POINT_BONUS = 20          # §8.2 (2022): +20 per half point above 50 %


@dataclass(frozen=True)
class InitialRating:
    """An initial-rating calculation and whether it is published.

    ``Ru`` is the published rating or ``None``; ``value`` the computed rating even when
    it is not published (``None`` when there are no games to compute from);
    ``reason`` says why ``Ru`` is ``None`` (or that the maximum applied).
    ``Ra`` is exact (a Fraction), ``p`` in hundredths, ``N``/``W_half`` count the
    games used (without hypothetical ones), ``rule`` is ``"2022"`` or ``"2024"``;
    ``notes`` says which games were left out because the opponent's rating is below
    the edition's floor (an unrated opponent, B.02 §7.2.1).
    """

    Ru: int | None
    value: int | None
    Ra: Fraction | None
    p: int | None
    dp: int | None
    N: int
    W_half: int
    rule: str
    reason: str
    edition_id: str
    ignored_first_event: bool = False
    notes: tuple[str, ...] = ()

    @property
    def published(self) -> bool:
        return self.Ru is not None


_RULE_2024 = InitialRule.RULE_2024    # looked up once (an Enum member runs Python code on 3.11)


def _collect(events: Sequence[Sequence[tuple[object, object]]], floor: int
             ) -> tuple[list[tuple[int, int]], bool, list[str]]:
    parsed = []
    notes = []
    for ei, games in enumerate(events, 1):
        rows = []
        for gi, game in enumerate(games, 1):
            R_opp, score = game
            if R_opp is None:   # unrated opponent: does not count (§8.2)
                continue
            # the usual game passes at once; anything else is checked in full, its error
            # naming the game
            pair = plain_game(R_opp, score)
            if pair is None:
                pair = (as_rating(R_opp, f"opponent rating (event {ei}, game {gi})"),
                        as_half_points(score, f"score (event {ei}, game {gi})"))
            R, half = pair
            if R < floor:       # not a published rating: an unrated opponent (§7.2.1)
                notes.append(f"game {gi} of event {ei} not counted: opponent's rating {R} "
                             f"is below the floor {floor} (B.02 §7.2.1)")
                continue
            rows.append((R, half))
        parsed.append(rows)
    ignored = False
    if parsed and parsed[0] and sum(s for _, s in parsed[0]) == 0:
        parsed = parsed[1:]   # zero score in the first event is ignored (§8.2)
        ignored = True
    return [g for rows in parsed for g in rows], ignored, notes


def initial_rating(events: Iterable[Iterable[tuple[object, object]]],
                   edition: RuleEdition | None = None) -> InitialRating:
    """The initial rating Ru of an unrated player from one or more events.

    FIDE B.02 §8.2 (method of ``edition``; ``None`` = today's standard rules).
    ``events``: a list of events, each a list of ``(R_opp, score)``: the opponent's
    rating (int, ``None`` for an unrated opponent, which is skipped, as is a rating
    below the edition's floor, B.02 §7.2.1, with a note in ``notes``) and the score
    0, 0.5 or 1 of a played game (forfeits and byes must be left out). The first
    event is ignored when its score is zero. Raises :class:`InputError` on bad values.
    Example (reference §5): opponents 1902, 1877, 1884, 2012, 1832 with 3 points ->
    Ra = 13107/7, p = .57, dp 50 -> Ru 1922.
    """
    edition = edition or rules_for(None)
    games, ignored, notes = _collect([list(e) for e in events], edition.rating_floor)
    N = len(games)
    W_half = sum(s for _, s in games)
    rule = edition.initial_rule
    if N == 0:
        why = "no games against rated opponents"
        if ignored:
            why = ("zero score against rated opponents: a first event without a point "
                   "is ignored (FIDE B.02 §8.2)")
        return InitialRating(None, None, None, None, None, 0, 0, rule.value, why,
                             edition.id, ignored, tuple(notes))
    total = sum(r for r, _ in games)
    if rule is _RULE_2024:
        # Ra = (ΣR_opp + 2 x 1800) / (N + 2); Ru = Ra + dp, rounded half up: one exact
        # division of ints (Ra + dp = (ΣR + 2 x 1800 + (N + 2) dp) / (N + 2))
        total, games_n = total + 2 * HYPOTHETICAL_OPPONENT, N + 2
        p = p_hundredths(W_half + 2, N + 2)     # two hypothetical draws = 2 half points
        dp = dp_for_p(p)
    else:
        games_n = N
        p = p_hundredths(W_half, N)
        if 2 * W_half <= 2 * N:                 # score <= 50 %
            dp = dp_for_p(p)
        else:                                   # +20 per half point above 50 %
            dp = HALF_POINT_BONUS * (W_half - N)
    Ra = Fraction(total, games_n)
    value = round_half_up(total + games_n * dp, games_n)
    reason = ""
    Ru: int | None = value
    if N < edition.initial_min_games:
        Ru, reason = None, (f"only {N} game{'s' if N != 1 else ''} against rated opponents; "
                            f"at least {edition.initial_min_games} are needed")
    elif value < edition.rating_floor:
        Ru, reason = None, f"{value} is below the rating floor {edition.rating_floor}"
    elif edition.initial_max is not None and value > edition.initial_max:
        Ru, reason = edition.initial_max, f"{value} is above the maximum; {edition.initial_max} is published"
    return InitialRating(Ru, value, Ra, p, dp, N, W_half, rule.value, reason, edition.id, ignored,
                         tuple(notes))
