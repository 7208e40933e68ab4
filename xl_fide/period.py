"""A rating period of several events: per-event lines and one rounded total per player.

FIDE B.02 §8.3.3 (the K on the list before the period applies to the whole period and
is capped over the period's rated games: K x n <= 700) and §8.3.4 (the period's
total change is rounded once, .5 away from zero); each event uses the ratings and
the rule edition in force at its start (§8.3). Unrated players' results over the
events are pooled for the initial rating (§8.2). Players are matched across events
by FIDE id, else by name.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, Sequence

from .editions import RuleEdition, TimeControl, rules_for
from .event import effective_rating
from .initial import InitialRating, initial_rating
from .players import normalise_name
from .rating import PeriodChange, k_factor, rate_period
from .report import guess_time_control
from .rounding import hundredths_to_str


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


def _event_edition(t: Any, time_control: Any) -> RuleEdition:
    tc = TimeControl.parse(time_control) if time_control is not None else (
        guess_time_control(getattr(t, "time_control", "") or "") or TimeControl.STANDARD)
    return rules_for(getattr(t, "start_date", None), tc)


def build_period(tournaments: Sequence[Any], *, players: Any = None, k: int | None = None,
                 time_control: Any = None, period_year: int | None = None) -> PeriodReport:
    """Rate every player over the events of one rating period (FIDE B.02 §8.3.3-§8.3.4).

    ``tournaments``: :class:`~xl_fide.trf.Tournament` objects (any order; sorted by
    start date). ``players``: an optional :class:`~xl_fide.players.PlayerDirectory`
    giving the list rating before the period, K, birth years. ``k`` forces K.
    """
    order = sorted(range(len(tournaments)),
                   key=lambda i: (tournaments[i].start_date or _dt.date.min, i))
    events = [tournaments[i] for i in order]
    notes: list[str] = []
    table: dict[str, dict[str, Any]] = {}
    event_info = []
    for t in events:
        ed = _event_edition(t, time_control)
        event_info.append((t.name or t.source, t.start_date, ed.id))
        ratings = {}
        for p in t.players:
            r, _ = effective_rating(p.rating, ed)
            ratings[p.start_rank] = r
        for p in t.players:
            key = player_key(p.fide_id, p.name)
            entry = table.setdefault(key, {"name": p.name, "fide_id": p.fide_id,
                                           "birth_year": p.birth_year, "events": []})
            games = []
            for g in p.games:
                if g.round > t.rounds or g.code not in ("1", "=", "0") or g.opponent is None:
                    continue
                R_opp = ratings.get(g.opponent)
                if R_opp is None:
                    continue
                games.append((R_opp, {"1": 1, "=": 0.5, "0": 0}[g.code]))
            entry["events"].append((t.name or t.source, ratings[p.start_rank], ed, games))
    dates = [t.start_date for t in events if t.start_date is not None]
    if dates and (max(dates) - min(dates)).days > 31:
        notes.append(f"the events start {min(dates).isoformat()} to {max(dates).isoformat()}: "
                     "a FIDE rating period is one month (B.02 §8.3.4); check the files")
    if len(dates) < len(events):
        notes.append("an event has no start date: its rules are today's")
    year = period_year or (events[-1].start_date.year if events and events[-1].start_date
                           else _dt.date.today().year)
    out = []
    for key, entry in table.items():
        data = players.get(entry["fide_id"], entry["name"]) if players is not None else None
        first_rated = next((e for e in entry["events"] if e[1] is not None), None)
        Ro = data.rating if data is not None and data.rating is not None else (
            first_rated[1] if first_rated else None)
        names = tuple(e[0] for e in entry["events"])
        if Ro is None:
            init = initial_rating([e[3] for e in entry["events"]],
                                  entry["events"][-1][2] if entry["events"] else None)
            out.append(PeriodPlayer(key, entry["name"], entry["fide_id"], None, None, init, names))
            continue
        if k is not None:
            K = k
        elif data is not None and data.k:
            K = data.k
        else:
            birth = entry["birth_year"] or (data.birth_year if data is not None else None)
            K = k_factor(Ro, birth_year=birth, period_year=year if birth else None,
                         career_games=getattr(data, "career_games", None) if data else None,
                         peak_rating=getattr(data, "peak_rating", None) if data else None,
                         edition=first_rated[2] if first_rated else None)
        evs = [(name, R if R is not None else Ro, ed, games)
               for name, R, ed, games in entry["events"]]
        change = rate_period(Ro, evs, K)
        out.append(PeriodPlayer(key, entry["name"], entry["fide_id"], Ro, change, None, names))
    return PeriodReport(tuple(event_info), tuple(out), tuple(notes))


def format_period(report: PeriodReport) -> str:
    """The period as text, like FIDE's calculation pages: per event Ro, opponents, w,
    chg (ΣΔR), K, K·chg; then the total and its single rounding."""
    lines = ["Rating period: " + ", ".join(f"{n} ({d.isoformat() if d else '?'}, {e})"
                                           for n, d, e in report.events)]
    for p in report.players:
        head = f"{p.name}" + (f" ({p.fide_id})" if p.fide_id else "")
        if p.change is not None:
            c = p.change
            lines.append(f"{head}: Ro {p.Ro}, K {c.K}" + (f" (capped from {c.K_given})"
                                                        if c.K != c.K_given else ""))
            for i, ev in enumerate(c.events):
                opps = " ".join(f"{g.R_opp}:{'1' if g.score_half == 2 else '½' if g.score_half == 1 else '0'}"
                                for g in ev.games if g.rated)
                lines.append(f"  {ev.name}: Ro {ev.Ro}, {ev.N} games [{opps}] "
                             f"chg {hundredths_to_str(ev.sum_delta_R)}, K {c.K}, "
                             f"K·chg {hundredths_to_str(c.event_change(i))}")
            lines.append(f"  total: K·chg {hundredths_to_str(c.change)} -> {c.rating_change:+d}, "
                         f"new rating {c.new_rating}")
        else:
            init = p.initial
            if init is not None and init.Ru is not None:
                lines.append(f"{head}: unrated, initial rating {init.Ru} ({init.N} games)")
            else:
                lines.append(f"{head}: unrated, no initial rating"
                             + (f" ({init.reason})" if init is not None else ""))
    lines.extend(f"note: {n}" for n in report.notes)
    return "\n".join(lines) + "\n"
