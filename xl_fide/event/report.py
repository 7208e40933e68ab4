"""The rating report of a tournament: every player's FIDE calculation-page line.

Turns a :class:`~xl_fide.tournament.Tournament` into report rows through the seam
:func:`~xl_fide.event.resolve.crosstable` (rule edition by the event's start date and
time control, FIDE B.02 §8.3; K by FIDE B.02 §8.3.3 from what is known) and
:func:`~xl_fide.rules.event.rate_crosstable`. The text, CSV and JSON forms are in
:mod:`xl_fide.cli._presenters`. Pure engine code: no I/O, no clock here.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Mapping, Sequence

from xl_fide.event.resolve import (
    CrossTable, KSource, counted_games, crosstable, event_rules, game_cells,
)
from xl_fide.rules.editions import (
    EventOptions,
    EventRules,
    RuleEdition,
    TimeControl,
    guess_time_control,
)
from xl_fide.rules.event import PlayerResult, rate_crosstable
from xl_fide.rules.initial import initial_rating
from xl_fide.rules.rating import EventChange
from xl_fide.rules.rounding import round_half_up
from xl_fide.rules.tables import dp_for_p, p_hundredths
from xl_fide.event.months import interim_parts, month_of, split_note

if TYPE_CHECKING:
    from xl_fide.lists._model import PlayerData, PlayerDirectory
    from xl_fide.tournament import Tournament

__all__ = ["KSource", "MonthlyChange", "Report", "ReportRow", "build_report",
           "guess_time_control", "rows_by_rank"]


@dataclass(frozen=True)
class ReportRow:
    """One player's report line: the engine's result plus what the report shows beside it.

    ``result``: the player's result as FIDE publishes it; for an event over 30 days rated
    month by month, the months together (its ``calc`` a :class:`MonthlyChange`: the
    final month's new rating, the sum of the monthly changes each rounded in its month).
    ``new_rating``, ``rating_change`` and ``Rc`` read it. ``k_source`` says where K
    came from (``None`` for an unrated player); ``fide_id`` the file's FIDE id. ``Ro``:
    the rating the rules read, before the floor (the file's rating adjusted for a one-off
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

    @property
    def new_rating(self) -> int | None:
        """The new rating (int; ``None`` for an unrated player): FIDE B.02 §8.3.4, month
        by month for an event over 30 days. Below the floor it is not published
        (``result.published`` is False, B.02 §7.2.1)."""
        return self.result.new_rating

    @property
    def rating_change(self) -> int | None:
        """The rounded change (int; ``None`` for an unrated player), FIDE B.02 §8.3.4:
        over 30 days the sum of the monthly changes, each rounded in its month."""
        return self.result.rating_change

    @property
    def Rc(self) -> int | None:
        """The opponents' average rating in the games that count for rating, rounded
        .5 up (:attr:`~xl_fide.rules.event.PlayerResult.Rc`); ``None`` without such
        games."""
        return self.result.Rc


@dataclass(frozen=True)
class MonthlyChange(EventChange):
    """A rated player's change over an event over 30 days, rated month by month (the
    interim reports, FIDE B.02 §8.3: each calendar month its own rating period).

    ``months``: the player's :class:`~xl_fide.rules.rating.EventChange` of each month
    he was rated in, in order (a rating not published, B.02 §7.2.1, ends them: the
    player is unrated in the next month). ``Ro``, ``K_given``, ``K``: the first month's
    (each month's own are in ``months``); ``games`` every month's lines, whence ``N``,
    ``W_half``, ``sum_PD``, ``sum_delta_R`` (hundredths); ``change`` the sum of the
    months' K x ΣΔR (hundredths, unrounded); ``rating_change`` the sum of the months'
    changes each rounded in its month (.5 away from zero, §8.3.4), as FIDE publishes
    them; ``new_rating`` the last month's (= ``Ro + rating_change``); ``publication``
    the last month's.
    """

    months: tuple[EventChange, ...] = ()

    def __post_init__(self) -> None:
        _set(self, "__dict__", {**self.__dict__, **_month_sums(self.months)})

    @classmethod
    def of_months(cls, months: Sequence[EventChange]) -> MonthlyChange:
        """The change over ``months`` (at least one, each starting from the previous
        one's new rating); its ``games`` made only when read (a report prints sums)."""
        first = months[0]
        c = _new(cls)
        _set(c, "__dict__", {"Ro": first.Ro, "K_given": first.K_given, "K": first.K,
                             "edition_id": first.edition_id, "months": tuple(months),
                             **_month_sums(months)})
        return c


def _month_sums(months: Sequence[EventChange]) -> dict[str, object]:
    """What :class:`MonthlyChange` sums over its months (FIDE B.02 §8.3.2, §8.3.4)."""
    return {"N": sum(m.N for m in months), "W_half": sum(m.W_half for m in months),
            "sum_PD": sum(m.sum_PD for m in months),
            "sum_delta_R": sum(m.sum_delta_R for m in months),
            "change": sum(m.change for m in months),
            "rating_change": sum(m.rating_change for m in months),
            "new_rating": months[-1].new_rating, "publication": months[-1].publication}


class _MonthLines:
    """The ``games`` of a :class:`MonthlyChange` built by :meth:`MonthlyChange.of_months`:
    every month's lines, made on first read (a non-data descriptor: an instance built
    with its lines holds them itself)."""

    def __get__(self, obj: object, objtype: type | None = None) -> object:
        if obj is None:
            return self
        d = obj.__dict__
        lines = d["games"] = tuple(g for m in d["months"] for g in m.games)
        return lines


MonthlyChange.games = _MonthLines()  # type: ignore[assignment]


@dataclass(frozen=True)
class Report:
    """A whole event's rating report (rows in start-rank order) and its notes.

    ``rows``: each player's result as FIDE publishes it. ``months``: for a standard
    event over 30 days with round dates, one report per calendar month (its rounds,
    that month's ratings: the interim reports FIDE rates, each with ``month``, the
    first day of its month); ``rows`` then carry the month-by-month result, and
    ``comparison`` the whole event rated as one period, for comparison only (empty
    otherwise). ``tournament``: the event the report rates (a month's own part for a
    month's report); ``rules``: the event as resolved (:func:`~xl_fide.event_rules`;
    every month is rated by the event's rules, ``event_date`` the rules date), so a
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
    comparison: tuple[ReportRow, ...] = ()   # over 30 days: the one-period rows
    month: _dt.date | None = None     # a month's report: the first day of its month


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
    A standard event over 30 days with round dates is rated month by month
    (``Report.months``, ``Report.comparison``), every month by the event's rules; the
    1 March 2024 adjustment applies once to each rating: to the file's ratings when
    the rules date is past it (then never again to a rating the event produced), or
    between the two months it falls between (:func:`~xl_fide.event.months.interim_parts`).
    Raises :class:`~xl_fide.errors.InputError` / ``RuleError`` for bad values.
    """
    rules = rules if isinstance(rules, EventRules) else event_rules(tournament, rules)
    table = crosstable(tournament, rules, players=players, inputs=inputs)
    rows, row_notes = _rate(table)

    def rate_month(part: Tournament) -> tuple[Report, dict[int, int | None]]:
        # each month an event of its own, rated by the event's rules with the ratings
        # it starts from (the first month: the event's; then the previous month's)
        month = _month_report(part, rules, players, inputs)
        return month, {r.result.start_rank: r.result.new_rating for r in month.rows
                       if r.result.calc is not None and r.result.calc.published}

    # the months start from the event's ratings as its rules see them (adjusted once if
    # need be), valid as on the later of the list's and the rules' dates; before the
    # floor, which each month applies (B.02 §7: rated as unrated), so that the first
    # month's Ro and K are the sheet's (Ro used) for a rating below it too
    start = {e.start_rank: ro for e, ro in zip(table.entrants, table.sheet_ratings)}
    dates = [d for d in (tournament.start_date, rules.date) if d is not None]
    months = tuple(interim_parts(tournament, rules.time_control, rate_month, start,
                                 max(dates, default=None)))
    notes = list(table.notes)
    comparison: tuple[ReportRow, ...] = ()
    if months:
        comparison = rows
        rows = _month_by_month(rows, months, rules.edition)
        notes.insert(0, f"the event runs over 30 days: FIDE rates it month by month (interim "
                        f"reports, B.02 §8.3), {len(months)} monthly reports by the round dates "
                        "(132), each with that month's ratings; the results are the months "
                        "together (the last month's new rating; the change, the sum of the "
                        "monthly changes each rounded in its month, §8.3.4); the event as one "
                        "rating period is shown for comparison only")
        notes += [n for r in rows for n in _publication_note(r.result)]
        notes += _adjusted_between(months)
    else:
        notes += row_notes
        note = split_note(tournament, rules.time_control)
        if note:
            notes.insert(0, note)
    return Report(tournament.name, rules.date, rules.time_control, rules.edition, rows,
                  tuple(notes), tuple(str(w) for w in tournament.warnings), months,
                  tournament, rules, comparison)


def _adjusted_between(months: Sequence[Report]) -> list[str]:
    """A note for each month whose players start from other ratings than the previous
    month's published new ratings: the one-off adjustment of 1 March 2024 applied to the
    list between them (:func:`~xl_fide.event.months.interim_parts`), so that for those
    players the first rating plus the change is not the new rating."""
    notes = []
    for before, month in zip(months, months[1:]):
        new = {r.result.start_rank: r.result.new_rating for r in before.rows
               if r.result.calc is not None and r.result.calc.published}
        moved = [f"player {r.result.start_rank}: {new[r.result.start_rank]} -> {r.result.rating}"
                 for r in month.rows if r.result.start_rank in new
                 and r.result.rating != new[r.result.start_rank]]
        if moved and month.month is not None:
            notes.append(f"month {month.month:%Y-%m}: the ratings it starts from are the previous "
                         "month's new ratings as FIDE adjusted its 1 March 2024 list (below "
                         "2000: R + round(0.4 x (2000 - R))), so Ro + the change is not the new "
                         "rating for " + ", ".join(moved))
    return notes


def _publication_note(res: PlayerResult) -> list[str]:
    calc = res.calc
    if calc is None or not calc.publication:
        return []
    return [f"player {res.start_rank}: new rating {calc.new_rating} {calc.publication} "
            "(FIDE B.02 §7.2.1: listed as unrated)"]


def _rate(table: CrossTable) -> tuple[tuple[ReportRow, ...], list[str]]:
    """The rows of one rating period and their notes (the K cap, a new rating below
    the floor)."""
    notes = []
    results = rate_crosstable(table.entrants, table.edition)
    rows = []
    for res, pk, points, p, ro, sk in zip(results, table.k, table.points, table.players,
                                          table.sheet_ratings, table.sheet_k):
        calc = res.calc
        if calc is not None:
            if calc.K is not None and calc.K_given is not None and calc.K != calc.K_given:
                notes.append(f"player {res.start_rank}: K {calc.K_given} capped to {calc.K} "
                             f"({res.N} games, K x n <= 700, FIDE B.02 §8.3.3)")
            notes += _publication_note(res)
        # ReportRow(res, points, k_source, ...) without a second check, each field set
        # on its own as __init__ sets them (CPython keeps them in the object: a third of
        # the memory of a dict of its own, for every player of a large event)
        row = _new(ReportRow)
        _set(row, "result", res)
        _set(row, "points", points)
        _set(row, "k_source", pk.source if pk else None)
        _set(row, "title", p.title)
        _set(row, "federation", p.federation)
        _set(row, "fide_id", p.fide_id)
        _set(row, "Ro", ro)
        _set(row, "K_given", sk.K if sk else None)
        _set(row, "K_from", sk.source if sk else None)
        rows.append(row)
    return tuple(rows), notes


def _month_report(part: Tournament, rules: EventRules, players: PlayerDirectory | None,
                  inputs: Mapping[int, PlayerData] | None) -> Report:
    """One month of an event over 30 days: ``part`` (:func:`~xl_fide.event.months.month_part`,
    its players rated as that month starts) rated by the event's ``rules``."""
    table = crosstable(part, rules, players=players, inputs=inputs,
                       ratings={p.start_rank: p.rating for p in part.players})
    rows, notes = _rate(table)
    return Report(part.name, rules.date, rules.time_control, rules.edition, rows,
                  tuple(table.notes) + tuple(notes), tuple(str(w) for w in part.warnings),
                  (), part, rules, (), month_of(part))


def _performance(sum_R: int, N: int, W_half: int) -> int | None:
    """FIDE performance Rp = Ra + dp(p) over N games (B.02 §8.1.1), rounded .5 up."""
    return round_half_up(sum_R + N * dp_for_p(p_hundredths(W_half, N)), N) if N else None


def _month_by_month(whole: Sequence[ReportRow], months: Sequence[Report],
                    edition: RuleEdition) -> tuple[ReportRow, ...]:
    """Each player's result over the ``months`` (the interim reports): a player rated at
    the start gets a :class:`MonthlyChange` of his rated months; a player unrated at the
    start an initial rating over all his games against rated opponents, pooled as one
    event (FIDE B.02 §8.2), each with the opponent's rating of its month. N, W, Rc and
    Rp over the same games; points and the rest as in ``whole``."""
    by_month = [{r.result.start_rank: r.result for r in m.rows} for m in months]
    unrated = {r.result.start_rank for r in whole if r.result.rating is None}
    pooled = _games_against_rated(months, unrated) if unrated else {}
    out = []
    for row in whole:
        rank = row.result.start_rank
        results = [m[rank] for m in by_month]
        calcs = [r.calc for r in results if r.calc is not None]
        initial = None
        if row.result.rating is not None and calcs:
            calc: EventChange | None = MonthlyChange.of_months(calcs)
            counted = [r for r in results if r.calc is not None]
        else:
            calc = None
            initial = initial_rating([pooled.get(rank, [])], edition)
            counted = results
        N = sum(r.N for r in counted)
        W_half = sum(r.W_half for r in counted)
        sum_R = sum(r.sum_R_opp for r in counted)
        res = PlayerResult(start_rank=rank, name=row.result.name, rating=row.result.rating,
                           points_half=row.result.points_half, N=N, W_half=W_half,
                           Rp=_performance(sum_R, N, W_half), initial=initial, calc=calc,
                           sum_R_opp=sum_R)
        out.append(dataclasses.replace(row, result=res))
    return tuple(out)


def _games_against_rated(months: Sequence[Report], ranks: set[int]
                         ) -> dict[int, list[tuple[int, float]]]:
    """The played games of the players ``ranks`` against opponents rated in the month of
    the game: ``(opponent's rating that month, score)`` over all months, in order."""
    out: dict[int, list[tuple[int, float]]] = {rank: [] for rank in ranks}
    for month in months:
        part = month.tournament
        assert part is not None
        rating = {r.result.start_rank: r.result.rating for r in month.rows}
        for p in part.players:
            if p.start_rank not in ranks:
                continue
            for opp, res in game_cells(counted_games(part, p)):
                R = rating.get(opp) if opp is not None and res.played else None
                if R is not None:
                    out[p.start_rank].append((R, res.half_points / 2))
    return out


def rows_by_rank(report: Report) -> dict[int, ReportRow]:
    """The report's rows by start rank."""
    return {r.result.start_rank: r for r in report.rows}

