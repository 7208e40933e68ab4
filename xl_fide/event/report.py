"""The rating report of a tournament: every player's FIDE calculation-page line.

Turns a :class:`~xl_fide.trf.Tournament` into report rows through the seam
:func:`~xl_fide.event.resolve.crosstable` (rule edition by the event's start date and
time control, FIDE B.02 §8.3; K by FIDE B.02 §8.3.3 from what is known) and
:func:`~xl_fide.rules.event.rate_crosstable`. The text, CSV and JSON forms are in
:mod:`xl_fide.cli._presenters`. Pure engine code: no I/O, no clock here.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Mapping

from xl_fide.event.resolve import KSource, crosstable, event_rules
from xl_fide.rules.editions import (
    EventOptions,
    EventRules,
    RuleEdition,
    TimeControl,
    guess_time_control,
)
from xl_fide.rules.event import PlayerResult, rate_crosstable
from xl_fide.event.months import interim_parts, split_note

if TYPE_CHECKING:
    from xl_fide.lists._model import PlayerData, PlayerDirectory
    from xl_fide.trf import Tournament

__all__ = ["KSource", "Report", "ReportRow", "build_report", "guess_time_control",
           "rows_by_rank"]


@dataclass(frozen=True)
class ReportRow:
    """One player's report line: the engine's result plus what the report shows beside it.

    ``k_source`` says where K came from (``None`` for an unrated player). ``Ro``: the
    rating the rules read, before the floor (the file's rating adjusted for a one-off
    list adjustment such as 1 Mar 2024, else the player data's; ``None`` without one);
    ``K_given``: its K before the K x n <= 700 cap and ``K_from`` where that K came from
    (FIDE B.02 §8.3.3), also for a rating below the floor, which the engine rates as
    unrated (FIDE B.02 §7): what a sheet's Ro used and K columns show.
    """

    result: PlayerResult
    points: Decimal          # points under the event's scoring system
    k_source: KSource | None
    title: str = ""
    federation: str = ""
    fide_id: int | None = None
    Ro: int | None = None
    K_given: int | None = None
    K_from: KSource | None = None


@dataclass(frozen=True)
class Report:
    """A whole event's rating report (rows in start-rank order) and its notes.

    ``months``: for a standard event over 30 days with round dates, one report per
    calendar month (its rounds, that month's ratings: the interim reports FIDE rates);
    ``rows`` then rate the whole event as one period, for comparison only.
    ``tournament``: the event the report rates (a month's own part for a month's
    report); ``rules``: the event as resolved (:func:`~xl_fide.event_rules`), so a
    presenter needs nothing but the report.
    """

    event_name: str
    event_date: _dt.date | None
    time_control: TimeControl
    edition: RuleEdition
    rows: tuple[ReportRow, ...]
    notes: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    months: tuple[Report, ...] = ()   # interim reports of an event over 30 days, by month
    tournament: Tournament | None = None
    rules: EventRules | None = None


_new = object.__new__
_set = object.__setattr__


def build_report(tournament: Tournament, rules: EventRules | EventOptions | None = None, *,
                 players: PlayerDirectory | None = None,
                 inputs: Mapping[int, PlayerData] | None = None) -> Report:
    """Rate every player of ``tournament`` (FIDE B.02 §8.2-§8.3).

    ``rules``: the event resolved by :func:`~xl_fide.event_rules`, or the
    :class:`~xl_fide.EventOptions` to resolve (default: the file's start date, else the
    newest rules with a note; the file's 222/122 time control, else standard with a
    note; K by FIDE B.02 §8.3.3 unless ``options.k`` forces one). ``players`` supplies
    ratings, K, birth years, career games and peak ratings by FIDE id or name;
    ``inputs`` maps a start rank to a ``PlayerData`` whose ``k`` (a K set by hand),
    ``career_games`` and ``peak_rating`` take precedence (a workbook's players block).
    Raises :class:`~xl_fide.errors.InputError` / ``RuleError`` for bad values.
    """
    rules = rules if isinstance(rules, EventRules) else event_rules(tournament, rules)
    table = crosstable(tournament, rules, players=players, inputs=inputs)
    notes = list(table.notes)
    results = rate_crosstable(table.entrants, table.edition)
    rows = []
    for res, pk, points, p, ro, sk in zip(results, table.k, table.points, table.players,
                                          table.sheet_ratings, table.sheet_k):
        calc = res.calc
        if calc is not None:
            if calc.K is not None and calc.K_given is not None and calc.K != calc.K_given:
                notes.append(f"player {res.start_rank}: K {calc.K_given} capped to {calc.K} "
                             f"({res.N} games, K x n <= 700, FIDE B.02 §8.3.3)")
            if calc.publication:
                notes.append(f"player {res.start_rank}: new rating {calc.new_rating} "
                             f"{calc.publication} (FIDE B.02 §7.2.1: listed as unrated)")
        row = _new(ReportRow)   # ReportRow(res, points, k_source, ...) in one step
        _set(row, "__dict__", {"result": res, "points": points,
                               "k_source": pk.source if pk else None, "title": p.title,
                               "federation": p.federation, "fide_id": p.fide_id,
                               "Ro": ro, "K_given": sk.K if sk else None,
                               "K_from": sk.source if sk else None})
        rows.append(row)

    def rate_month(part: Tournament) -> tuple[Report, dict[int, int | None]]:
        # each month an event of its own, resolved from the same options (a given
        # event date, time control and K hold for every month)
        month = build_report(part, rules.options, players=players, inputs=inputs)
        return month, {r.result.start_rank: r.result.new_rating for r in month.rows
                       if r.result.calc is not None and r.result.calc.published}

    months = tuple(interim_parts(tournament, rules.time_control, rate_month))
    if months:
        notes.insert(0, f"the event runs over 30 days: FIDE rates it month by month (interim "
                        f"reports, B.02 §8.3), {len(months)} monthly reports by the round dates "
                        "(132), each with that month's ratings; the one-period lines are for "
                        "comparison only")
    else:
        note = split_note(tournament, rules.time_control)
        if note:
            notes.insert(0, note)
    return Report(tournament.name, rules.date, rules.time_control, rules.edition, tuple(rows),
                  tuple(notes), tuple(str(w) for w in tournament.warnings), months,
                  tournament, rules)


def rows_by_rank(report: Report) -> dict[int, ReportRow]:
    """The report's rows by start rank."""
    return {r.result.start_rank: r for r in report.rows}

