"""A rating period of several events: per-event lines and one rounded total per player.

FIDE B.02 §8.3.3 (the K on the list before the period applies to the whole period and
is capped over the period's rated games: K x n <= 700) and §8.3.4 (the period's
total change is rounded once, .5 away from zero); each event uses the ratings and
the rule edition in force at its start (§8.3). Unrated players' results over the
events are pooled for the initial rating (§8.2). Players are matched across events
by FIDE id, else by name. The text form is :func:`xl_fide.presenters.format_period`.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

from .crosstable import EventRules, choose_k, event_rules, rated_games
from .editions import RuleEdition, TimeControl
from .event import effective_rating
from .initial import InitialRating, initial_rating
from .names import normalise_name
from .rating import PeriodChange, rate_period

if TYPE_CHECKING:
    from .players import PlayerDirectory
    from .trf import Tournament

__all__ = ["PeriodPlayer", "PeriodReport", "build_period", "player_key"]


def player_key(fide_id: int | None, name: str) -> str:
    """The key matching a player across events: ``id:NNN`` or a normalised name."""
    if fide_id:
        return f"id:{fide_id}"
    return "name:" + normalise_name(name or "")


@dataclass(frozen=True)
class PeriodPlayer:
    """One player's period: ``change`` for a rated player, ``initial`` for an unrated one."""

    key: str
    name: str
    fide_id: int | None
    Ro: int | None
    change: PeriodChange | None
    initial: InitialRating | None
    event_names: tuple[str, ...]


@dataclass(frozen=True)
class PeriodReport:
    events: tuple[tuple[str, _dt.date | None, str], ...]   # (name, start date, edition id)
    players: tuple[PeriodPlayer, ...]
    notes: tuple[str, ...]


@dataclass
class _Entry:
    name: str
    fide_id: int | None
    birth_year: int | None
    # per event: (name, effective rating, rules, rated games as (R_opp, score))
    events: list[tuple[str, int | None, EventRules, list[tuple[int, float]]]] = \
        field(default_factory=list)


def _collect(events: Sequence[Tournament], time_control: TimeControl | str | None,
             today: _dt.date | None) -> tuple[dict[str, _Entry], list[tuple[str, _dt.date | None, str]]]:
    table: dict[str, _Entry] = {}
    event_info = []
    for t in events:
        rules = event_rules(t, time_control=time_control, today=today)
        name = t.name or t.source
        event_info.append((name, t.start_date, rules.edition.id))
        ratings = {p.start_rank: effective_rating(p.rating, rules.edition)[0] for p in t.players}
        for p in t.players:
            entry = table.setdefault(player_key(p.fide_id, p.name),
                                     _Entry(p.name, p.fide_id, p.birth_year))
            games = []
            for g in rated_games(t, p):
                R_opp = ratings.get(g.opponent) if g.opponent is not None else None
                if R_opp is not None:
                    games.append((R_opp, g.score_half_points / 2))
            entry.events.append((name, ratings[p.start_rank], rules, games))
    return table, event_info


def build_period(tournaments: Sequence[Tournament], *, players: PlayerDirectory | None = None,
                 k: int | None = None, time_control: TimeControl | str | None = None,
                 period_year: int | None = None, today: _dt.date | None = None) -> PeriodReport:
    """Rate every player over the events of one rating period (FIDE B.02 §8.3.3-§8.3.4).

    ``tournaments``: :class:`~xl_fide.trf.Tournament` objects (any order; sorted by
    start date). ``players``: an optional :class:`~xl_fide.players.PlayerDirectory`
    giving the list rating before the period, K, birth years. ``k`` forces K.
    ``period_year`` (default: the last event's year, else ``today``'s) is the year of
    the junior K rule.
    """
    order = sorted(range(len(tournaments)),
                   key=lambda i: (tournaments[i].start_date or _dt.date.min, i))
    events = [tournaments[i] for i in order]
    notes: list[str] = []
    table, event_info = _collect(events, time_control, today)
    dates = [t.start_date for t in events if t.start_date is not None]
    if dates and (max(dates) - min(dates)).days > 31:
        notes.append(f"the events start {min(dates).isoformat()} to {max(dates).isoformat()}: "
                     "a FIDE rating period is one month (B.02 §8.3.4); check the files")
    if len(dates) < len(events):
        notes.append("an event has no start date: its rules are the newest")
    last = events[-1].start_date if events else None
    year = period_year or (last.year if last else (today.year if today else None))
    out = []
    for key, entry in table.items():
        data = players.get(entry.fide_id, entry.name) if players is not None else None
        first_rated = next((e for e in entry.events if e[1] is not None), None)
        Ro = data.rating if data is not None and data.rating is not None else (
            first_rated[1] if first_rated else None)
        names = tuple(e[0] for e in entry.events)
        if Ro is None:
            init = initial_rating([e[3] for e in entry.events],
                                  entry.events[-1][2].edition if entry.events else None)
            out.append(PeriodPlayer(key, entry.name, entry.fide_id, None, None, init, names))
            continue
        rules = (first_rated or entry.events[0])[2]
        pk = choose_k(Ro, dataclasses.replace(rules, period_year=year), k=k, data=data,
                      birth_year=entry.birth_year)
        evs: list[tuple[str, int, RuleEdition, Any]] = [
            (name, R if R is not None else Ro, r.edition, games)
            for name, R, r, games in entry.events]
        change = rate_period(Ro, evs, pk.K)
        out.append(PeriodPlayer(key, entry.name, entry.fide_id, Ro, change, None, names))
    return PeriodReport(tuple(event_info), tuple(out), tuple(notes))


def __getattr__(name: str) -> Any:
    # the text form moved to xl_fide.presenters; old imports keep working
    if name == "format_period":
        from .presenters import format_period
        return format_period
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
