"""Events longer than a month, rated month by month (interim reports).

FIDE B.02 §8.3 (a rating period is one calendar month; the ratings of the list in force
at the start) and the interim-report rule for events that run over 30 days: each
month's games are rated in that month's rating period, with that month's ratings.
The TRF's ``132`` record gives the date of every round; the games of a round belong
to the month of its date. Without round dates the event cannot be split: a note says
so and the caller rates it as one period.

The ratings of the second and later months are those the list of that month would
show if the event were the player's only one: the previous month's published new
rating (a rating below the floor is unrated, B.02 §7.2.1). A one-off adjustment
(1 March 2024, :func:`~xl_fide.rules.adjustments.adjusted_for_rules`) applies once to
each rating, along the calendar: to the file's ratings when the rules date is past it
(then the event's own ratings are already on the new scale: never adjusted again), or
between two months the adjustment falls between (the list of that month adjusted the
previous month's results). A player unrated at the start stays unrated in the later
months (a first rating needs the pooled results of the period, §8.2: give that
month's list as player data). No I/O, no clock.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from typing import TYPE_CHECKING, Callable, Mapping, TypeVar

from xl_fide.rules.adjustments import adjusted_for_rules
from xl_fide.rules.editions import TimeControl

if TYPE_CHECKING:
    from xl_fide.tournament import Tournament

LONG_EVENT_DAYS = 30    # an event running over 30 days is rated month by month

T = TypeVar("T")


def event_days(t: Tournament) -> tuple[_dt.date, _dt.date] | None:
    """First and last day of play: the round dates (132) when known, else 042/052."""
    dates = [d for d in t.round_dates if d is not None]
    first = min(dates + [t.start_date] if t.start_date else dates, default=None)
    last = max(dates + [t.end_date] if t.end_date else dates, default=None)
    if first is None or last is None:
        return None
    return first, last


def is_long(t: Tournament) -> bool:
    """True when the event runs over 30 days (last day - first day >= 30)."""
    days = event_days(t)
    return days is not None and (days[1] - days[0]).days >= LONG_EVENT_DAYS


def rated_by_month(t: Tournament, time_control: TimeControl) -> bool:
    """True for an event FIDE rates month by month when it can: a standard event over
    30 days (:func:`is_long`); :func:`interim_parts` splits it, :func:`split_note` says
    when it cannot."""
    return time_control is TimeControl.STANDARD and is_long(t)


def _played_rounds(t: Tournament) -> list[int]:
    rounds = {g.round for p in t.players for g in p.games
              if g.is_played and (not t.rounds or g.round <= t.rounds)}
    return sorted(rounds)


def month_rounds(t: Tournament) -> list[tuple[tuple[int, int], tuple[int, ...]]] | None:
    """The played rounds of ``t`` grouped by calendar month of their date, in order:
    ``[((2018, 4), (1, 2, 3)), ((2018, 5), (4, 5, 6, 7))]``; ``None`` when a played
    round has no date (no 132 record, or a blank date)."""
    groups: dict[tuple[int, int], list[int]] = {}
    for rnd in _played_rounds(t):
        day = t.round_dates[rnd - 1] if rnd <= len(t.round_dates) else None
        if day is None:
            return None
        groups.setdefault((day.year, day.month), []).append(rnd)
    return [(m, tuple(r)) for m, r in sorted(groups.items())]


def split_note(t: Tournament, time_control: TimeControl) -> str:
    """A note for a standard event over 30 days that cannot be split ("" otherwise)."""
    if not rated_by_month(t, time_control):
        return ""
    months = month_rounds(t)
    if months is not None:
        return ""
    days = event_days(t)
    assert days is not None
    return (f"the event runs from {days[0].isoformat()} to {days[1].isoformat()} "
            f"({(days[1] - days[0]).days + 1} days): FIDE rates an event over 30 days month "
            "by month (interim reports), but the file has no round dates (132) to split it: "
            "rated as one rating period with the ratings at its start")


def month_part(t: Tournament, month: tuple[int, int], rounds: tuple[int, ...],
               ratings: Mapping[int, int | None]) -> Tournament:
    """The games of ``rounds`` (one month) as an event of their own, each player rated
    ``ratings[start_rank]``; named ``"<name>, 2018-05 (rounds 4-7)"``, dated by the
    first and last of those rounds."""
    keep = set(rounds)
    days = [t.round_dates[r - 1] for r in rounds]
    players = tuple(dataclasses.replace(p, rating=ratings.get(p.start_rank),
                                        games=tuple(g for g in p.games if g.round in keep))
                    for p in t.players)
    span = f"round {rounds[0]}" if len(rounds) == 1 else f"rounds {rounds[0]}-{rounds[-1]}"
    name = f"{t.name or t.source}, {month[0]}-{month[1]:02d} ({span})"
    return dataclasses.replace(t, name=name, players=players,
                               start_date=min(d for d in days if d is not None),
                               end_date=max(d for d in days if d is not None))


def interim_parts(t: Tournament, time_control: TimeControl,
                  rate: Callable[[Tournament], tuple[T, Mapping[int, int | None]]],
                  ratings: Mapping[int, int | None] | None = None,
                  since: _dt.date | None = None) -> list[T]:
    """Rate a standard event over 30 days month by month; ``[]`` when it is not such an
    event or cannot be split (see :func:`split_note`).

    ``rate(part)`` rates one month's event and returns ``(result, next ratings)``:
    the published new rating of every rated player by start rank (``None``: unrated
    on the next list). The first month uses ``ratings`` (start rank -> rating: the
    event's ratings as its rules see them; default the file's), valid as on ``since``
    (the later of the list's and the rules' dates, when the caller adjusted them;
    default the first month's start); each later month the previous month's new
    ratings, adjusted only when a one-off adjustment falls after the date they are
    valid as on and no later than that month's start (1 Mar 2024: once per rating).
    """
    if not rated_by_month(t, time_control):
        return []
    months = month_rounds(t)
    if months is None or len(months) < 2:
        return []
    current: dict[int, int | None] = {p.start_rank: p.rating for p in t.players}
    if ratings is not None:
        current = {rank: ratings.get(rank) for rank in current}
    unrated = {rank for rank, r in current.items() if r is None}
    out: list[T] = []
    valid_on = since
    for month, rounds in months:
        part = month_part(t, month, rounds, current)
        start = part.start_date
        if valid_on is not None and start is not None and start > valid_on:
            adjusted = {rank: adjusted_for_rules(r, valid_on, start, time_control)[0]
                        for rank, r in current.items()}
            if adjusted != current:
                current = adjusted
                part = month_part(t, month, rounds, current)
        if start is not None:
            valid_on = start if valid_on is None else max(valid_on, start)
        result, new = rate(part)
        out.append(result)
        current = {rank: (None if rank in unrated else new.get(rank)) for rank in current}
    return out


def month_of(part: Tournament) -> _dt.date | None:
    """The rating period (first day of the month) of a month's part: the month of its
    first round's date (:func:`month_part` dates it by its rounds)."""
    day = part.start_date
    return None if day is None else day.replace(day=1)
