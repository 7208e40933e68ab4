"""One player's rating period over several events: what the next list will show.

FIDE B.02 §8.3 (each event with the ratings and rules in force at its start; per game
PD and ΔR), §8.3.3 (K of the list before the period, K x n <= 700 over the period's
rated games), §8.3.4 (the period's total rounded once, .5 away from zero), §7.2.1 (a
rating below the floor is not published) and §8.2 (an unrated player's initial rating,
pooled over the period's events). The rules themselves are the engine's
(:func:`xl_fide.rules.rating.rate_period`, :func:`~xl_fide.rules.rating.cap_k`,
:func:`xl_fide.rules.initial.initial_rating`, :func:`xl_fide.rules.editions.rules_for`);
this module only groups a player's games (:mod:`xl_fide._games`) for them.

Where an event has its own ``K`` (FIDE used another K: an event that started before
the last list), that event's change is its own K (capped over the period's games) x its
ΣΔR; the period's total is the sum of the events' changes, rounded once.
"""

from __future__ import annotations

import datetime as _dt
import functools
from dataclasses import dataclass, field

from xl_fide._games import GameRow, GamesEvent, GamesFile
from xl_fide.errors import InputError
from xl_fide.event.months import LONG_EVENT_DAYS
from xl_fide.rules.editions import RuleEdition, TimeControl, rules_for
from xl_fide.rules.event import effective_rating
from xl_fide.rules.initial import InitialRating, initial_rating
from xl_fide.rules.rating import (
    GameCalc, cap_k, k_factor, publication_note, rate_period, rate_period_checked,
)
from xl_fide.rules.rounding import round_half_away
from xl_fide.rules.values import RATING_MAX, as_k, as_rating

__all__ = ["PlayerInputs", "PlayerGame", "PlayerEvent", "PlayerPeriod", "rate_player"]


@dataclass(frozen=True)
class PlayerInputs:
    """The player: ``Ro`` on the list before the period (``None``: unrated), ``K`` from
    that list (``None``: by FIDE B.02 §8.3.3 from ``birth_year``, ``career_games`` (rated
    games before the period) and ``peak_rating``), and the ``time_control`` (``None``: the
    CSV's, else standard)."""

    Ro: int | None = None
    K: int | None = None
    birth_year: int | None = None
    career_games: int | None = None
    peak_rating: int | None = None
    time_control: TimeControl | None = None


@dataclass(frozen=True)
class PlayerGame:
    """A CSV game with its calculation line (``calc``: D, PD, ΔR in hundredths) when it
    reached the rating rules, and ``note`` when it is not rated (why)."""

    row: GameRow
    calc: GameCalc | None
    note: str = ""

    @property
    def rated(self) -> bool:
        return self.calc is not None and self.calc.rated


@dataclass(frozen=True)
class PlayerEvent:
    """One event: ``Ro`` used (the event's own, else the player's; ``None`` unrated),
    ``K_given`` (the event's own, else the period's), ``K`` after the cap, ``N`` rated
    games, ``W_half``, ``sum_delta_R`` and ``change`` = K x ΣΔR in integer hundredths
    (``None`` for an unrated player)."""

    name: str
    start: _dt.date
    end: _dt.date
    edition_id: str
    Ro: int | None
    K_given: int | None
    K: int | None
    games: tuple[PlayerGame, ...]
    N: int
    W_half: int
    sum_delta_R: int | None
    change: int | None


@dataclass(frozen=True)
class PlayerPeriod:
    """The period: ``change`` (hundredths, the sum of the events' changes), its one
    rounding ``rating_change``, ``computed_rating`` (Ro + rounding, or the initial
    rating's value), ``new_rating`` (``None`` when not published), ``publication``
    (``""`` or why not), ``initial`` for an unrated player, ``edition_id`` of the list
    after the period (its floor decides publication), and ``notes``."""

    Ro: int | None
    K_given: int | None
    K_source: str
    K: int | None
    N: int
    time_control: TimeControl
    events: tuple[PlayerEvent, ...]
    change: int | None
    rating_change: int | None
    computed_rating: int | None
    new_rating: int | None
    publication: str
    initial: InitialRating | None
    edition_id: str
    period_year: int
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def published(self) -> bool:
        return self.new_rating is not None


def _not_rated(row: GameRow) -> str:
    if not row.result.played:
        return f"not rated: {row.result_text!r} is not a game played over the board"
    if row.R_opp is None:
        return "not rated: unrated opponent"
    return ""


def _edition(ev: GamesEvent, tc: TimeControl) -> RuleEdition:
    return _rules_on(ev.start, tc)


@functools.lru_cache(maxsize=512)
def _rules_on(day: _dt.date, tc: TimeControl) -> RuleEdition:
    """:func:`rules_for` of a date and a time control, worked out once per date (a
    period's events share their start dates; rules_for scans every edition)."""
    return rules_for(day, tc)


def rate_player(games: GamesFile, player: PlayerInputs) -> PlayerPeriod:
    """The player's rating period over the events of ``games`` (FIDE B.02 §8.2, §8.3).

    Raises :class:`~xl_fide.errors.InputError` for a bad rating, K or birth year, and for
    a time control that contradicts the CSV's.
    """
    tc = _time_control(games, player)
    notes: list[str] = []
    events = games.events
    month_end = max(ev.end for ev in events)
    months = sorted({(ev.end.year, ev.end.month) for ev in events})
    if len(months) > 1:
        notes.append("the events end in different months (" + ", ".join(
            f"{y}-{m:02d}" for y, m in months) + "): FIDE rates each month apart (B.02 §8.3); "
            "here they are pooled and rounded once")
    notes.extend(_event_notes(events, tc))
    listed = rules_for(_dt.date(month_end.year, month_end.month, 1), tc)
    order = sorted(range(len(events)), key=lambda i: (events[i].start, i))
    first_ed = _edition(events[order[0]], tc)
    Ro = as_rating(player.Ro, "rating") if player.Ro is not None else None
    if Ro is not None:
        Ro, note = effective_rating(Ro, listed)
        if note:
            notes.append(f"rating {player.Ro}: {note}")
    if Ro is None:
        return _unrated(games, tc, listed, order, notes, month_end.year)
    if player.K is not None:
        K, source = as_k(player.K, "K"), "given"
    else:
        K = k_factor(Ro, birth_year=player.birth_year, career_games=player.career_games,
                     peak_rating=player.peak_rating, period_year=month_end.year,
                     edition=first_ed)
        source = "rule"
    return _rated(games, tc, listed, Ro, K, source, notes, month_end.year)


def _event_notes(events: tuple[GamesEvent, ...], tc: TimeControl) -> list[str]:
    """What the reader must know of an event: rules older than the oldest edition held
    (as ``xl-fide report`` says), and an event over 30 days (FIDE rates it month by month,
    interim reports; here it is one event)."""
    notes = []
    for ev in events:
        edition = _edition(ev, tc)
        if ev.start < edition.in_force:
            notes.append(f"{ev.name}: event of {ev.start.isoformat()} predates the oldest "
                         f"rules we hold: {edition.id} used")
        days = (ev.end - ev.start).days
        if days >= LONG_EVENT_DAYS:
            notes.append(f"{ev.name}: {ev.start.isoformat()} to {ev.end.isoformat()} is "
                         f"{days + 1} days: FIDE rates an event over 30 days month by month "
                         "(each month's games in that month's period); here it is rated as "
                         "one event: check its dates")
    return notes


def _time_control(games: GamesFile, player: PlayerInputs) -> TimeControl:
    if player.time_control is not None and games.time_control is not None \
            and player.time_control is not games.time_control:
        raise InputError(f"time control {player.time_control.value} but {games.source} says "
                         f"{games.time_control.value}")
    return player.time_control or games.time_control or TimeControl.STANDARD


def _rated(games: GamesFile, tc: TimeControl, listed: RuleEdition, Ro: int, K: int,
           source: str, notes: list[str], year: int) -> PlayerPeriod:
    specs: list[tuple[str, int, RuleEdition, list[tuple[int, int]]]] = []
    whys = []                     # per event, per game: why it is not rated ("" rated)
    plain = type(Ro) is int and 0 <= Ro <= RATING_MAX and type(K) is int   # checked already
    for ev in games.events:
        Ro_e = ev.Ro if ev.Ro is not None else Ro
        why = []
        pairs = []
        for g in ev.games:
            w = _not_rated(g)
            why.append(w)
            if not w:
                r, h = g.R_opp, g.result.half_points
                assert r is not None          # a rated opponent (_not_rated)
                pairs.append((r, h))
                if plain and not (type(r) is int and 0 <= r <= RATING_MAX and type(h) is int
                                  and 0 <= h <= 2):
                    plain = False
        whys.append(why)
        plain = plain and type(Ro_e) is int and 0 <= Ro_e <= RATING_MAX
        specs.append((ev.name, Ro_e, _edition(ev, tc), pairs))
    if plain:                       # the engine: lines, n and the cap
        period = rate_period_checked(Ro, [(str(name), Ro_e, ed, pairs)
                                          for name, Ro_e, ed, pairs in specs], as_k(K, "K"))
    else:   # values a caller built: checked by the engine, named as it names them
        period = rate_period(Ro, [(name, Ro_e, ed, [(r, h / 2) for r, h in pairs])
                                  for name, Ro_e, ed, pairs in specs], K)
    n = period.N
    out = []
    total = 0
    for ev, pe, why in zip(games.events, period.events, whys):
        lines = iter(pe.games)
        played = []
        W = 0
        for g, w in zip(ev.games, why):
            game = _new(PlayerGame)     # PlayerGame(g, calc, note), in one step
            if w:
                _set(game, "__dict__", {"row": g, "calc": None, "note": w})
            else:
                calc = next(lines)
                _set(game, "__dict__", {"row": g, "calc": calc, "note": calc.note})
                if calc.rated:
                    W += calc.score_half
            played.append(game)
        K_e = ev.K if ev.K is not None else K
        K_used = cap_k(K_e, n)                  # K x n <= 700 over the period (§8.3.3)
        change = K_used * pe.sum_delta_R
        total += change
        out.append(PlayerEvent(ev.name, ev.start, ev.end, pe.edition_id, pe.Ro, K_e, K_used,
                               tuple(played), pe.N, W, pe.sum_delta_R, change))
    rounded = round_half_away(total, 100)       # once, over the period (§8.3.4)
    new = Ro + rounded
    publication = publication_note(new, listed)
    return PlayerPeriod(Ro, K, source, cap_k(K, n), n, tc, tuple(out), total, rounded, new,
                        None if publication else new, publication, None, listed.id, year,
                        tuple(notes))


_new = object.__new__
_set = object.__setattr__


def _player_game(row: GameRow, calc: GameCalc | None, note: str) -> PlayerGame:
    """``PlayerGame(row, calc, note)`` in one step (the dataclass's own ``__init__``
    sets its frozen fields one at a time)."""
    g = _new(PlayerGame)
    _set(g, "__dict__", {"row": row, "calc": calc, "note": note})
    return g


def _unrated(games: GamesFile, tc: TimeControl, listed: RuleEdition, order: list[int],
             notes: list[str], year: int) -> PlayerPeriod:
    events = games.events
    last_ed = _edition(events[order[-1]], tc)    # as `xl-fide period` does
    pooled = [[(g.R_opp, g.result.half_points / 2) for g in events[i].games
               if g.result.played] for i in order]
    init = initial_rating(pooled, last_ed)
    floor = last_ed.rating_floor
    out = []
    for ev in events:
        played = []
        N = W = 0
        for g in ev.games:
            why = _not_rated(g)
            if not why and g.R_opp is not None and g.R_opp < floor:
                why = f"not rated: opponent's rating {g.R_opp} is below the floor {floor}"
            if not why:
                N += 1
                W += g.result.half_points
            played.append(_player_game(g, None, why))
        out.append(PlayerEvent(ev.name, ev.start, ev.end, _edition(ev, tc).id, None, None, None,
                               tuple(played), N, W, None, None))
    if init.ignored_first_event:
        notes.append(f"{events[order[0]].name}: a first event without a point is ignored "
                     "(FIDE B.02 §8.2)")
    notes.extend(init.notes)
    publication = "" if init.Ru is not None else f"not published: {init.reason}"
    return PlayerPeriod(None, None, "", None, init.N, tc, tuple(out), None, None, init.value,
                        init.Ru, publication, init, listed.id, year, tuple(notes))
