"""A rating period of several events: per-event lines and one rounded total per player.

FIDE B.02 §8.3.3 (the K on the list before the period applies to the whole period and
is capped over the period's rated games: K x n <= 700) and §8.3.4 (the period's
total change is rounded once, .5 away from zero); each event uses the ratings and
the rule edition in force at its start (§8.3). Unrated players' results over the
events are pooled for the initial rating (§8.2). Players are matched across events
by FIDE id, else by name. The text form is :func:`xl_fide.cli._presenters.format_period`.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections import Counter
from dataclasses import dataclass, field
from array import array
from itertools import accumulate, chain
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence, Union

from xl_fide.rules.adjustments import adjusted_for_rules, adjustment_between
from xl_fide.event.resolve import EventRules, choose_k, event_rules, period_base
from xl_fide.rules.editions import EventOptions, RuleEdition, TimeControl, rules_for
from xl_fide.errors import InputError, PeriodSpanError, PeriodTimeControlError
from xl_fide.rules.event import effective_ratings
from xl_fide.rules.initial import InitialRating, initial_rating
from xl_fide.event.months import interim_parts, rated_by_month, split_note
from xl_fide._names import normalise_name
from xl_fide.rules.rating import PeriodChange, rate_period_checked
from xl_fide.rules.values import K_MAX, K_MIN, RATING_MAX, RATING_MIN, as_k, as_rating
from xl_fide.tournament import cell_columns

if TYPE_CHECKING:
    from xl_fide.event.resolve import PlayerK
    from xl_fide.lists._model import PlayerDirectory
    from xl_fide.tournament import Tournament, TrfPlayer

__all__ = ["PeriodBuilder", "PeriodParts", "PeriodPlayer", "PeriodReport", "PeriodSpanError", "PeriodTimeControlError", "build_period", "event_identity", "games_identity",
           "player_key", "rating_month"]


_EVENT_NAME = itemgetter(0)         # the name of an event of an _Entry


def player_key(fide_id: int | None, name: str) -> str:
    """The key matching a player across events: ``id:NNN`` or a normalised name."""
    if fide_id:
        return f"id:{fide_id}"
    return "name:" + normalise_name(name or "")


@dataclass(frozen=True)
class PeriodPlayer:
    """One player's period: ``change`` for a rated player, ``initial`` for an unrated one;
    ``K_source`` where a rated player's K came from, in the report's words
    (:attr:`~xl_fide.event.resolve.KSource.key`: ``given``, ``list``, ``rule``)."""

    key: str
    name: str
    fide_id: int | None
    Ro: int | None
    change: PeriodChange | None
    initial: InitialRating | None
    event_names: tuple[str, ...]
    K_source: str | None = None


@dataclass(frozen=True)
class PeriodReport:
    events: tuple[tuple[str, _dt.date | None, str], ...]   # (name, start date, edition id)
    players: tuple[PeriodPlayer, ...]
    notes: tuple[str, ...]


class _Entry:
    """One player over the period's events (one per player: a plain class with slots)."""

    __slots__ = ("key", "name", "fide_id", "birth_year", "events")

    def __init__(self, key: str, name: str, fide_id: int | None,
                 birth_year: int | None) -> None:
        self.key = key
        self.name = name
        self.fide_id = fide_id
        self.birth_year = birth_year
        # per event, three items one after the other (not a tuple each: a third of the
        # memory): the event as collected, the player's index in it, its effective
        # rating there (:func:`_event_of`)
        self.events: list[Any] = []


class _Collected:
    """An event as :func:`_collect` leaves it for the rating: its name, rules, start
    date, the cells it counts (``opponents``, ``codes``, ``ends`` as
    :class:`_EventFacts`' ``counted_*``) and ``pairs``, by start rank, the
    ``(R_opp, score_half)`` of a game against that player by score (``None``: unrated
    or no player). Each player's rated games are read from it when the player is rated
    (:func:`_event_of`), not kept: the event's columns are a tenth the size of its players'
    games as lists (issue 35)."""

    __slots__ = ("name", "rules", "start", "opponents", "codes", "ends", "pairs")

    name: str
    rules: EventRules
    start: _dt.date | None
    opponents: Sequence[int]
    codes: str
    ends: Sequence[int]
    pairs: list[tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None]



def _event_of(ev: _Collected, i: int, R: int | None
              ) -> tuple[str, int | None, EventRules, list[tuple[int, int]], _dt.date | None]:
    """Player ``i``'s ``(name, effective rating R, rules, rated games as (R_opp,
    score_half), start date)`` in the event ``ev``: the rated games (resolve.rated_games:
    played, within the rounds) against rated opponents; no opponent (0) has no
    rating."""
    ends = ev.ends
    a, b = ends[i - 1] if i else 0, ends[i]
    pairs_at = ev.pairs
    return (ev.name, R, ev.rules,
            [pairs[half] for opp, code in zip(ev.opponents[a:b], ev.codes[a:b])
             if (half := _PLAYED_HALF.get(code)) is not None
             and (pairs := pairs_at[opp]) is not None], ev.start)


class _PlayerFacts:
    """One player of an event the period kept (:class:`_EventFacts`), made when asked
    for (:attr:`_EventFacts.players`): the TrfPlayer's fields the period reads (start
    rank, name, FIDE id, rating, birth year) and its round cells as the model keeps
    them, compact (``opponents``, ``codes``, ``colours``:
    :attr:`~xl_fide.tournament.TrfPlayer.round_opponents` and the others, one per game
    in the order of its games; ``counted_opponents`` and ``counted_codes`` those of
    the rounds the event counts, :func:`~xl_fide.tournament.counted_cells`). No Game
    is made."""

    __slots__ = ("start_rank", "name", "fide_id", "rating", "birth_year", "opponents",
                 "codes", "colours", "counted_opponents", "counted_codes")

    start_rank: int
    name: str
    fide_id: int | None
    rating: int | None
    birth_year: int | None
    opponents: Sequence[int | None]
    codes: str
    colours: str
    counted_opponents: Sequence[int | None]
    counted_codes: str


class _EventFacts:
    """What the period keeps of one event (:meth:`PeriodBuilder.add`): its name, source,
    dates, rounds, the time control its file states, its rules, and, only for a
    standard event over 30 days (rated month by month, :mod:`xl_fide.event.months`),
    the tournament itself (``whole``, else ``None``); its players by column, in order
    (``start_ranks``, an array of ints, ``names``, ``fide_ids``, ``ratings``,
    ``birth_years``, one tuple each, the values shared by the events of a period), and
    their round cells, every player's one after the other (``opponents`` an array of
    start ranks, 0 for none, ``codes`` and ``colours`` one character a cell; player ``i``'s from ``ends[i - 1]`` (0 for the first) to
    ``ends[i]``), with those the event counts (``counted_opponents``,
    ``counted_codes``, ``counted_ends``: the same objects unless a player has cells
    beyond the event's rounds). About 60 bytes a player instead of 500 as objects
    (issue 35). :attr:`players` makes :class:`_PlayerFacts` of them when asked: read
    where the period read the tournament (same attribute names)."""

    __slots__ = ("name", "source", "start_date", "end_date", "rounds", "stated", "rules",
                 "whole", "start_ranks", "names", "fide_ids", "ratings", "birth_years",
                 "opponents", "codes", "colours", "ends", "counted_opponents",
                 "counted_codes", "counted_ends")

    name: str
    source: str
    start_date: _dt.date | None
    end_date: _dt.date | None
    rounds: int
    stated: TimeControl | None
    rules: EventRules
    whole: Tournament | None
    start_ranks: Sequence[int]
    names: tuple[str, ...]
    fide_ids: tuple[int | None, ...]
    ratings: tuple[int | None, ...]
    birth_years: tuple[int | None, ...]
    opponents: Sequence[int]
    codes: str
    colours: str
    ends: Sequence[int]
    counted_opponents: Sequence[int]
    counted_codes: str
    counted_ends: Sequence[int]

    @property
    def players(self) -> tuple[_PlayerFacts, ...]:
        """The players as :class:`_PlayerFacts`, made now (not kept)."""
        out = []
        a = c = 0
        opponents, codes, colours = self.opponents, self.codes, self.colours
        c_opponents, c_codes = self.counted_opponents, self.counted_codes
        for i, (b, d) in enumerate(zip(self.ends, self.counted_ends)):
            f = _new(_PlayerFacts)
            f.start_rank, f.name, f.fide_id, f.rating, f.birth_year = (
                self.start_ranks[i], self.names[i], self.fide_ids[i], self.ratings[i],
                self.birth_years[i])
            f.opponents = tuple([o or None for o in opponents[a:b]])
            f.codes, f.colours = codes[a:b], colours[a:b]
            f.counted_opponents = tuple([o or None for o in c_opponents[c:d]])
            f.counted_codes = c_codes[c:d]
            out.append(f)
            a, c = b, d
        return tuple(out)


def _facts(t: Tournament, rules: EventRules,
           shared: dict[Any, Any] | None = None) -> _EventFacts:
    """:class:`_EventFacts` of ``t`` under ``rules``; ``shared`` maps each name, FIDE
    id, rating and birth year already kept to its object (one object for a value met
    in many events of a period)."""
    from xl_fide.event.resolve import event_time_control
    e = _new(_EventFacts)
    e.name, e.source, e.start_date, e.end_date, e.rounds = (
        t.name, t.source, t.start_date, t.end_date, t.rounds)
    e.stated = event_time_control(t)[0]
    e.rules = rules
    e.whole = t if rated_by_month(t, rules.time_control) else None
    one = (shared if shared is not None else {}).setdefault
    players = t.players
    e.start_ranks = array("H", [p.start_rank for p in players])
    e.names = tuple([one(p.name, p.name) for p in players])
    e.fide_ids = tuple([one(p.fide_id, p.fide_id) for p in players])
    e.ratings = tuple([one(p.rating, p.rating) for p in players])
    e.birth_years = tuple([one(p.birth_year, p.birth_year) for p in players])
    opponents, codes, colours, counted = cell_columns(players, t.rounds)
    e.opponents = _opponent_column(opponents)
    e.codes = "".join(codes)
    e.colours = "".join(colours)
    e.ends = _ends(codes)
    if counted is None:     # the usual event: every cell counts
        e.counted_opponents, e.counted_codes, e.counted_ends = e.opponents, e.codes, e.ends
    else:
        counted_codes = [c[1] for c in counted]
        e.counted_opponents = _opponent_column([c[0] for c in counted])
        e.counted_codes = "".join(counted_codes)
        e.counted_ends = _ends(counted_codes)
    return e


def _ends(codes: Sequence[str]) -> Sequence[int]:
    """Where each player's cells end in an event's columns (:class:`_EventFacts`)."""
    return array("I", accumulate(map(len, codes)))


def _opponent_column(opponents: Sequence[Sequence[int | None]]) -> Sequence[int]:
    """Every player's opponents one after the other, two bytes a cell: the start rank
    (1-9999), 0 for none (:class:`_EventFacts`)."""
    cells = tuple(chain.from_iterable(opponents))
    return array("H", map(_NONE_AS_0.get, cells, cells))      # o, or 0 for None, in C


_NONE_AS_0: dict[Any, Any] = {None: 0}


# an event as the period reads it: a tournament, or what the period kept of one
_Event = Union["Tournament", _EventFacts]


def _check_time_controls(events: Sequence[_EventFacts], options: EventOptions,
                         notes: list[str]) -> None:
    """Refuse events of different time controls (:class:`PeriodTimeControlError`);
    with ``options.time_control`` given, every event is rated under it, and an event
    whose file states another time control gets a note."""
    if options.time_control is not None:
        for t in events:
            stated = t.stated
            if stated is not None and stated is not options.time_control:
                notes.append(f"{t.name or t.source}: the file states {stated.value}, rated as "
                             f"{options.time_control.value} as asked (one time control for "
                             "the period)")
        return
    kinds: dict[TimeControl, list[str]] = {}
    for t in events:
        stated = t.stated
        shown = t.source or t.name or "an event"
        kinds.setdefault(stated or TimeControl.STANDARD, []).append(
            shown if stated is not None else f"{shown} (not stated: standard)")
    if len(kinds) > 1:
        text = "; ".join(f"{tc.value}: {', '.join(names)}" for tc, names in kinds.items())
        raise PeriodTimeControlError(
            f"the events are of different time controls ({text}): standard, rapid and blitz "
            "are rated on separate lists and never pooled into one rating (FIDE B.02; "
            "Rapid and Blitz chapter); give the events of one time control, or one time "
            "control for all of them on purpose")


def event_identity(t: _Event) -> tuple[object, ...]:
    """What makes two files the same event, whatever their format or bytes: the
    normalised name, the start and end dates, and the players (FIDE id, else the
    normalised name, with the rating)."""
    people = sorted((p.fide_id or 0, normalise_name(p.name or ""), p.rating or 0)
                    for p in t.players)
    return (normalise_name(t.name or ""), t.start_date, t.end_date, tuple(people))


def games_identity(t: _Event) -> tuple[object, ...]:
    """The games of an event, whatever else a corrected export changed: every player's
    round cells (round, opponent, colour, result code; unpaired ``Z`` cells left out),
    each player known by FIDE id, else by normalised name. Two files that agree here,
    or in :func:`_games_by_rank`, and have the same event name or the same dates are
    the same event, even when a player's name or rating, the event name or the dates
    were corrected between them (README, "period")."""
    who = {p.start_rank: (p.fide_id or 0, "" if p.fide_id else normalise_name(p.name or ""))
           for p in t.players}
    return _games(t, who)


def _games_by_rank(t: _Event) -> tuple[object, ...]:
    """:func:`games_identity` with each player known by start rank and FIDE id: a
    player without an id whose name was corrected is still the same player."""
    return _games(t, {p.start_rank: (p.start_rank, p.fide_id or 0) for p in t.players})


def _games(t: _Event, who: Mapping[int, tuple[object, ...]]) -> tuple[object, ...]:
    # sorted by text: an opponent that is no player (None) never meets a tuple in a compare
    games = sorted(((who[p.start_rank],
                     tuple((r, who.get(opp) if opp is not None else None, colour, code)
                           for r, opp, colour, code in _cells(p) if code != "Z"))
                    for p in t.players), key=repr)
    return (len(t.players), tuple(games))


def _cells(p: TrfPlayer | _PlayerFacts) -> Iterator[tuple[int, int | None, str, str]]:
    """``(round, opponent, colour, code)`` of each of the player's games, the colour
    ``w``, ``b`` or ``""``: a TrfPlayer's from its Games; a :class:`_PlayerFacts`' from
    its compact cells, game ``i`` of round ``i`` (a reader's player holds rounds 1..n
    in order), so that two events the period kept compare alike."""
    if isinstance(p, _PlayerFacts):
        return zip(range(1, len(p.codes) + 1), p.opponents,
                   map(_COLOUR_TEXT.__getitem__, p.colours), p.codes)
    return ((g.round, g.opponent, g.colour or "", g.code) for g in p.games)


_COLOUR_TEXT = {"w": "w", "b": "b", "-": ""}     # a compact colour as a Game's (None: "")


def _differences(a: _Event, b: _Event) -> str:
    """What differs between two files of the same games, in words ("the event name and
    the dates")."""
    def people(t: _Event, what: str) -> list[tuple[object, ...]]:
        return sorted((p.fide_id or 0, p.start_rank if not p.fide_id else 0,
                       normalise_name(p.name or "") if what == "name" else (p.rating or 0))
                      for p in t.players)

    found = [what for what, differs in (
        ("the event name", normalise_name(a.name or "") != normalise_name(b.name or "")),
        ("the dates", (a.start_date, a.end_date) != (b.start_date, b.end_date)),
        ("a player's name", people(a, "name") != people(b, "name")),
        ("a rating", people(a, "rating") != people(b, "rating"))) if differs]
    if not found:
        return "the start ranks differ"
    return ("the event name differs" if found == ["the event name"]
            else " and ".join(found) + (" differ" if len(found) > 1 or found == ["the dates"]
                                        else " differs"))


def _code_counts(t: _EventFacts) -> list[tuple[str, int]]:
    """How many round cells of ``t`` hold each result code but ``Z``, by code."""
    codes = Counter(t.codes)
    codes.pop("Z", None)
    return sorted(codes.items())


def rating_month(t: _Event) -> tuple[int, int] | None:
    """The rating period of an event: the calendar month of its end date (else its
    start date); ``None`` when the file has no date (FIDE B.02 §8.3)."""
    day = t.end_date or t.start_date
    return (day.year, day.month) if day is not None else None


def _check_events(events: Sequence[_EventFacts], span: bool, notes: list[str], *,
                  identity: bool = True, months: bool = True) -> None:
    """Refuse the same event twice, a FIDE id listed twice in one event (``identity``),
    and events of different rating periods unless ``span`` (then a note; ``months``)."""
    # Each identity is worked out only for events that could share it: the same event
    # has the same name, dates and number of players; the same games the same number
    # of players and of cells of each result (under the same name, or on the same dates)
    seen: dict[tuple[object, ...], list[_EventFacts]] = {}
    same_games: dict[tuple[object, ...], list[_EventFacts]] = {}
    games_of: dict[tuple[int, int], tuple[object, ...]] = {}

    def games_key(t: _EventFacts, which: int) -> tuple[object, ...]:
        found = games_of.get((id(t), which))
        if found is None:
            found = games_of[id(t), which] = (games_identity if which == 0
                                              else _games_by_rank)(t)
        return found

    for t in events if identity else ():
        name = t.name or t.source
        event_name = normalise_name(t.name or "")
        size = len(t.start_ranks)
        near = seen.setdefault((event_name, t.start_date, t.end_date, size), [])
        if near:
            ident = event_identity(t)
            for other in near:
                if event_identity(other) == ident:
                    raise InputError(f"{t.source}: the same event as {other.source} (same "
                                     "name, dates and players): given twice")
        near.append(t)
        ids = [i for i in t.fide_ids if i]
        # the same games under the same name, or on the same dates (a corrected export
        # changes one of them at most); other names on other dates: another event. Both
        # identities hold every player's FIDE id: events are compared only within a
        # group of the same number and sum of ids, or, without an id, of the same count
        # of each result code (a walk over the games)
        if t.codes.strip("Z"):      # a cell but Z, else nothing to count twice
            heads = (("name", event_name), ("dates", t.start_date, t.end_date))
            cells = (size, len(ids), sum(ids)) if ids else (size, *_code_counts(t))
            groups = [same_games.setdefault(head + cells, []) for head in heads]
            for which in (0, 1):        # by FIDE id else name, then by start rank and id
                for group in groups:
                    for first in group:
                        if games_key(first, which) == games_key(t, which):
                            raise InputError(
                                f"{t.source}: the same games as {first.source} (the same "
                                f"players and every round cell alike; only "
                                f"{_differences(first, t)}: a corrected export?): given "
                                "twice, give one of them")
            for group in groups:
                group.append(t)
        if len(set(ids)) == len(ids):       # no FIDE id twice (the usual event)
            continue
        ranks: dict[int, int] = {}
        for start_rank, fide_id in zip(t.start_ranks, t.fide_ids):
            if fide_id and fide_id in ranks:
                raise InputError(f"{t.source}: FIDE id {fide_id} is listed twice in {name!r} "
                                 f"(start ranks {ranks[fide_id]} and {start_rank}): the "
                                 "rows cannot be matched across the events")
            if fide_id:
                ranks[fide_id] = start_rank
    found = sorted({m for m in (rating_month(t) for t in events) if m is not None})
    months_found = found if months else []
    if len(months_found) > 1:
        text = ", ".join(f"{y}-{m:02d}" for y, m in months_found)
        if not span:
            raise PeriodSpanError(
                f"the events belong to different rating periods ({text}): a FIDE rating "
                "period is one calendar month, by each event's end date (B.02 §8.3); "
                "pool them only on purpose (span)")
        notes.append(f"the events belong to the rating periods {text}, pooled on purpose "
                     "and rounded once (FIDE rates each month apart, B.02 §8.3.4)")


_PLAYED_HALF = {"1": 2, "=": 1, "0": 0}   # a played game's code -> score in half points (TRF16)
# a game against an opponent rated R as (R, score_half), by score half points 0, 1, 2:
# made once for each rating (at most 4,001)
_PAIRS: dict[int, tuple[tuple[int, int], tuple[int, int], tuple[int, int]]] = {}


def _pairs(R: int) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    pairs = _PAIRS[R] = ((R, 0), (R, 1), (R, 2))
    return pairs




class _RulesOf:
    """Each event's rules resolved once (:func:`~xl_fide.event.resolve.event_rules`) for the
    period's options, however often they are asked for."""

    def __init__(self, options: EventOptions) -> None:
        self.options = options
        self.memo: dict[int, tuple[Tournament, EventRules]] = {}

    def __call__(self, t: _Event) -> EventRules:
        if isinstance(t, _EventFacts):      # resolved when the period read it
            return t.rules
        found = self.memo.get(id(t))
        if found is None or found[0] is not t:
            found = self.memo[id(t)] = (t, event_rules(t, self.options))
        return found[1]


def _monthly(events: Sequence[_EventFacts], options: EventOptions,
             players: PlayerDirectory | None, span: bool, notes: list[str],
             rules_of: _RulesOf) -> list[_EventFacts]:
    """The events with each standard event over 30 days split by month (interim
    reports, :mod:`xl_fide.event.months`); a month that is not this period's (the latest
    month of all) is left out with a note, unless ``span``."""
    def rate(part: Tournament) -> tuple[Tournament, dict[int, int | None]]:
        from xl_fide.event.report import build_report   # one event's rating, to chain the months
        rep = build_report(part, options, players=players)
        return part, {r.result.start_rank: r.result.new_rating for r in rep.rows
                      if r.result.calc is not None and r.result.calc.published}

    out: list[tuple[_EventFacts, bool]] = []
    for t in events:
        tc = rules_of(t).time_control
        whole = t.whole     # kept only for an event rated month by month (_facts)
        if whole is None or not rated_by_month(whole, tc):   # nothing to split or note
            out.append((t, False))
            continue
        parts = interim_parts(whole, tc, rate)
        if parts:
            # each month an event of its own, kept as the period keeps an event
            out.extend((_facts(part, rules_of(part)), True) for part in parts)
            continue
        note = split_note(whole, tc)
        if note:
            notes.append(f"{t.name or t.source}: {note}")
        out.append((t, False))
    months = [m for m in (rating_month(t) for t, _ in out) if m is not None]
    if span or not months:
        return [t for t, _ in out]
    last = max(months)
    kept = []
    for t, is_part in out:
        month = rating_month(t)
        if is_part and month is not None and month != last:
            notes.append(f"{t.name}: its month {month[0]}-{month[1]:02d} is another rating "
                         "period (an event over 30 days is rated month by month): left out")
        else:
            kept.append(t)
    return kept


def _standard(players: PlayerDirectory | None, fide_id: int | None, name: str,
              rules: EventRules) -> int | None:
    """The standard rating a rapid/blitz player without an R&B rating counts with."""
    if players is None or rules.time_control is _STANDARD:
        return None
    data = players.get(fide_id, name)
    return data.standard_rating if data is not None else None


def _event_ratings(t: _EventFacts, rules: EventRules, players: PlayerDirectory | None
                   ) -> list[int | None]:
    """The rating each player of ``t`` counts with (:func:`effective_ratings`), in order."""
    return effective_ratings(
        t.ratings, rules.edition,
        None if players is None else [_standard(players, fide_id, name, rules)
                                      for fide_id, name in zip(t.fide_ids, t.names)])


def _unrated_at_start(events: Sequence[_EventFacts], players: PlayerDirectory | None,
                      keys: Sequence[Sequence[str]],
                      ratings: Sequence[Sequence[int | None]]) -> dict[str, str]:
    """Players unrated when the period starts (no rating in the first file they appear
    in, and none in the player data): they stay unrated for the whole period, also for
    their opponents, even where a later file shows a rating (B.02 §8.2.4). Maps the
    player key to the name of that first event. ``keys`` and ``ratings``: each event's
    :func:`player_key` and :func:`_event_ratings` of its players, in order."""
    first: dict[str, str] = {}
    out: dict[str, str] = {}
    for t, event_keys, event_ratings in zip(events, keys, ratings):
        for fide_id, name, key, R in zip(t.fide_ids, t.names, event_keys, event_ratings):
            if key in first:
                continue
            first[key] = t.name or t.source
            data = players.get(fide_id, name) if players is not None else None
            if data is not None and data.rating is not None:
                continue
            if R is None:
                out[key] = first[key]
    return out


def _collect(events: list[_EventFacts], rules_of: _RulesOf,
             players: PlayerDirectory | None, notes: list[str]
             ) -> tuple[dict[str, _Entry], list[tuple[str, _dt.date | None, str]]]:
    """Each player's events (:class:`_Entry`, by :func:`player_key`, in the order met)
    and each event's ``(name, start date, edition id)``. ``events`` is emptied, each
    event let go once its players are collected."""
    table: dict[str, _Entry] = {}
    event_info = []
    # player_key of each player, inline, one text for each key
    key_of: dict[object, str] = {}
    keys_of = [[key_of.get(fide_id or name) or key_of.setdefault(
                    fide_id or name, f"id:{fide_id}" if fide_id
                    else "name:" + normalise_name(name or ""))
                for fide_id, name in zip(t.fide_ids, t.names)] for t in events]
    del key_of
    ratings_of = [_event_ratings(t, rules_of(t), players) for t in events]
    unrated = _unrated_at_start(events, players, keys_of, ratings_of)
    events.reverse()            # popped from the end: the first event first
    keys_of.reverse()
    ratings_of.reverse()
    while events:
        t, keys, event_ratings = events.pop(), keys_of.pop(), ratings_of.pop()
        rules = rules_of(t)
        name = t.name or t.source
        start = t.start_date
        event_info.append((name, start, rules.edition.id))
        size = max(max(t.start_ranks, default=0), max(t.counted_opponents, default=0)) + 1
        rating_at: list[int | None] = [None] * size     # by start rank
        for sr, player_name, key, R in zip(t.start_ranks, t.names, keys, event_ratings):
            if R is not None and key in unrated:
                # without a FIDE id the files are joined by name: a namesake is possible
                by_name = (" (the same player by name: no FIDE id; give the FIDE ids if "
                           "these are two players)" if key.startswith("name:") else "")
                notes.append(f"{player_name}: unrated in {unrated[key]}, "
                             f"shown as {R} in {name}: unrated for the whole period "
                             f"(FIDE B.02 §8.2.4){by_name}")
                R = None
            rating_at[sr] = R
        # a rated player's games as (R_opp, score_half), by score: one tuple each, shared
        # by every event (the page then finds each one's text by identity); by start rank
        ev = _new(_Collected)
        ev.name, ev.rules, ev.start = name, rules, start
        ev.opponents, ev.codes, ev.ends = t.counted_opponents, t.counted_codes, t.counted_ends
        ev.pairs = [None if R is None else _PAIRS.get(R) or _pairs(R) for R in rating_at]
        for i, (sr, key) in enumerate(zip(t.start_ranks, keys)):
            entry = table.get(key)
            if entry is None:
                # _Entry(name, fide_id, birth_year) without a call to __init__ (one
                # per player of the period): its slots set here
                entry = table[key] = _new(_Entry)
                entry.key, entry.name, entry.fide_id, entry.birth_year, entry.events = (
                    key, t.names[i], t.fide_ids[i], t.birth_years[i], [])
            evs = entry.events
            evs.append(ev)
            evs.append(i)
            evs.append(rating_at[sr])
    return table, event_info


def build_period(tournaments: Sequence[Tournament], options: EventOptions | None = None, *,
                 players: PlayerDirectory | None = None, period_year: int | None = None,
                 span: bool = False) -> PeriodReport:
    """Rate every player over the events of one rating period (FIDE B.02 §8.3.3-§8.3.4).

    ``tournaments``: :class:`~xl_fide.tournament.Tournament` objects (any order; sorted by
    start date). ``players``: an optional :class:`~xl_fide.lists.PlayerDirectory`
    giving the list rating before the period, K, birth years, and, for rapid/blitz,
    the standard rating a player without an R&B rating counts with (R&B §7.2.1).
    ``options`` (:class:`~xl_fide.EventOptions`) hold for every event: its
    ``event_date`` gives the rules as on that date (FIDE B.02 §8.3), its
    ``time_control`` overrides the files', its ``k`` forces K, its ``today`` gives the
    junior rule's year when no event has a date. ``period_year`` (default: the last event's year, else ``today``'s)
    is the year of the junior K rule. A player unrated at the period's start stays
    unrated in all its events (B.02 §8.2.4). The period's change is added to the
    rating on the list before the period (B.02 §8.3, §8.3.4): the ``players``' rating
    when it has one, else the player's own rating in the latest event that starts by
    the end of the period's month (the first month when months are pooled; see
    :func:`~xl_fide.event.resolve.period_base`), with a note naming the players whose
    rating came from an event that started before it or whose events show other
    ratings; each event keeps its own Ro for its own games.
    Raises :class:`~xl_fide.errors.InputError` for the same event given twice (same
    name, dates and players, whatever the file; or the same games, below), for a FIDE
    id listed twice in one event, (:class:`PeriodTimeControlError`) for events of different time controls
    (standard, rapid, blitz: separate rating lists; an event whose file states none
    counts as standard) unless ``options.time_control`` rates them all as one on
    purpose (then a note names each event whose file says otherwise), and
    (:class:`PeriodSpanError`) for events of different rating periods (the
    calendar month of the end date) unless ``span`` is true. Two files are the same
    event when they hold the same games (the same players, by FIDE id else by name, or
    by start rank, with every round cell alike) under the same event name or on the
    same dates, whatever player names or ratings a corrected export changed
    (:func:`games_identity`); other games, or another name on other dates, are another
    event.
    """
    builder = PeriodBuilder(options, period_year=period_year, span=span)
    for t in tournaments:
        builder.add(t)
    return builder.build(players)


class PeriodBuilder:
    """A rating period read one event at a time (:func:`build_period` of every event
    added): the CLI reads, adds and drops each file, so the period holds only what its
    output needs of each event (:class:`_EventFacts`: its dates, rules and players by
    column, their round cells one array and two strings: no Game and no object a
    player is kept), not the tournaments read (a standard
    event over 30 days, rated month by month, is kept whole until :meth:`build`); each
    event is let go once its players are collected, and :meth:`parts` rates each player
    as it is read. Memory grows with the players and games of the period, not with the
    files read (issue 35).

    ``options``, ``period_year`` and ``span`` as for :func:`build_period`. :meth:`add`
    takes a :class:`~xl_fide.tournament.Tournament` (any order) and resolves its rules
    (:func:`~xl_fide.event.resolve.event_rules`; raises its errors);
    :meth:`build` rates the period and raises what :func:`build_period` raises.
    """

    def __init__(self, options: EventOptions | None = None, *, period_year: int | None = None,
                 span: bool = False) -> None:
        self.options = options or EventOptions()
        self.period_year = period_year
        self.span = span
        self._events: list[_EventFacts] = []
        self._shared: dict[Any, Any] = {}     # the values the events share (_facts)

    def add(self, t: Tournament) -> None:
        """Read ``t`` into the period (its rules resolved with the period's options);
        ``t`` itself is not kept (unless rated month by month)."""
        self._events.append(_facts(t, event_rules(t, self.options), self._shared))

    @property
    def events(self) -> tuple[_EventFacts, ...]:
        """The events added, in order, each as the period keeps it: ``name``, ``source``,
        ``start_date``, ``end_date``, ``rounds``, ``rules`` (resolved with the period's
        options) and ``players`` (``start_rank``, ``name``, ``fide_id``, ``rating``,
        ``birth_year``, and the round cells compact: ``opponents``, ``codes``,
        ``colours``): what the player data of the period's players is looked up from
        (:func:`xl_fide.lists.event_list_data`). Empty once built (:meth:`build`,
        :meth:`parts`)."""
        return tuple(self._events)

    def build(self, players: PlayerDirectory | None = None) -> PeriodReport:
        """The period of the events added (:func:`build_period`); ``players`` the
        optional player data. The builder hands its events over: it is empty after."""
        parts = self.parts(players)
        found = tuple(parts.players)
        return PeriodReport(parts.events, found, tuple(parts.notes))

    def parts(self, players: PlayerDirectory | None = None) -> PeriodParts:
        """The period of the events added as :class:`PeriodParts`: checked (raises what
        :func:`build_period` raises) and collected now, each player rated as
        ``players`` is read and not kept, so that a caller writing each player as it
        comes holds one player's result at a time. The builder hands its events over:
        it is empty after."""
        added, self._events = self._events, []
        self._shared = {}
        return _period_parts(added, self.options, players, self.period_year, self.span)


class PeriodParts:
    """A rating period as it is rated (:meth:`PeriodBuilder.parts`): ``events`` as
    :attr:`PeriodReport.events`; ``players`` an iterator of :class:`PeriodPlayer`,
    each rated when it is reached (in :attr:`PeriodReport.players` order) and not
    kept; ``notes`` the period's notes, complete once ``players`` is exhausted."""

    __slots__ = ("events", "players", "notes")

    def __init__(self, events: tuple[tuple[str, _dt.date | None, str], ...],
                 players: Iterator[PeriodPlayer], notes: list[str]) -> None:
        self.events = events
        self.players = players
        self.notes = notes


def _period_parts(added: list[_EventFacts], options: EventOptions,
                  players: PlayerDirectory | None, period_year: int | None,
                  span: bool) -> PeriodParts:
    """The checks and each event's players collected at once; the players rated one
    by one as :attr:`PeriodParts.players` is read (see :func:`build_period`). ``added``
    is emptied: each event is freed once its players are collected."""
    order = [added[i] for i in sorted(range(len(added)),
                                      key=lambda i: (added[i].start_date or _dt.date.min, i))]
    added.clear()
    notes: list[str] = []
    _check_events(order, span, notes, months=False)
    _check_time_controls(order, options, notes)
    k, today = options.k, options.today
    rules_of = _RulesOf(options)
    events = _monthly(order, options, players, span, notes, rules_of)
    del order
    _check_events(events, span, notes, identity=False)
    undated = any(t.start_date is None for t in events)
    months = [m for m in (rating_month(t) for t in events) if m is not None]
    last = events[-1].start_date if events else None
    table, event_info = _collect(events, rules_of, players, notes)     # empties events
    if undated:
        notes.append("an event has no start date: its rules are the newest, its rating "
                     "period unknown")
    month = max(months, default=None)
    first = min(months, default=None)   # the list before it is Ro (pooled months: the first)
    if options.event_date is not None:   # the rules, K and list as on the given date
        month = first = (options.event_date.year, options.event_date.month)
        last = options.event_date
    year = period_year or (last.year if last else (today.year if today else None))
    # by each event's rules: what the period takes of them (_period_rules)
    with_year: dict[int, tuple[EventRules, bool, str | None]] = {}
    by_value: dict[tuple[object, ...], tuple[EventRules, bool, str | None]] = {}
    listed_ids: dict[TimeControl, str] = {}     # the list after the period, by time control
    period_start = _dt.date(month[0], month[1], 1) if month is not None else None
    # Ro of the period without the list (period_base): from an event that does not start
    # in the period's (first) month / from the latest of events showing other ratings
    # (one note each, below)
    first_start = _dt.date(first[0], first[1], 1) if first is not None else None
    first_end = (_dt.date(first[0] + first[1] // 12, first[1] % 12 + 1, 1)
                 if first is not None else None)
    outside: list[str] = []
    latest: list[str] = []
    entries: list[_Entry | None] = list(table.values())
    # choose_k's answer by (Ro, birth year, id of the period's rules) for a player without
    # player data (the rules are held by with_year and by_value: each id stays theirs)
    k_of: dict[tuple[int, int | None, int], PlayerK] = {}
    table.clear()       # each player's events freed once the player is rated

    def rated() -> Iterator[PeriodPlayer]:
        for i, entry in enumerate(entries):
            entries[i] = None
            assert entry is not None
            key = entry.key
            data = players.get(entry.fide_id, entry.name) if players is not None else None
            on_list = data.rating if data is not None else None     # the list before the period
            listed = on_list is not None
            # the event whose own rating is the list before the period (period_base): the
            # latest-starting event where the player is rated, of those that start in the
            # period's first month or before
            items = iter(entry.events)
            evs_of = [_event_of(ev, i, R) for ev, i, R in zip(items, items, items)]
            if len(evs_of) == 1:
                base = evs_of[0] if evs_of[0][1] is not None else None
            else:
                at = period_base([(e[4], e[1]) for e in evs_of], first_start)
                base = evs_of[at] if at is not None else None
            Ro = on_list if on_list is not None else (base[1] if base is not None else None)
            if base is not None and not listed and first_start is not None and first_end:
                start = base[4]
                if start is None or not first_start <= start < first_end:
                    outside.append(entry.name)
                elif len(evs_of) > 1 and not {e[1] for e in evs_of} <= {None, Ro}:
                    latest.append(entry.name)
            names = tuple(map(_EVENT_NAME, evs_of))
            if Ro is None:
                init = initial_rating([[(r, s / 2) for r, s in e[3]] for e in evs_of],
                                      evs_of[-1][2].edition if evs_of else None)
                yield PeriodPlayer(key, entry.name, entry.fide_id, None, None, init, names)
                continue
            rules = (base or evs_of[0])[2]
            of_rules = with_year.get(id(rules))
            if of_rules is None:
                # events of the same rules (each event has its own) share what the period
                # takes of them: worked out once
                same = _same_rules(rules)
                of_rules = by_value.get(same)
                if of_rules is None:
                    of_rules = by_value[same] = _period_rules(rules, year, period_start,
                                                              listed_ids)
                with_year[id(rules)] = of_rules
            year_rules, may_adjust, listed_id = of_rules
            if may_adjust and base is not None and not listed:
                # Ro is the list before the period: a file from before a one-off adjustment
                # that falls before this period's month has it adjusted (1 Oct 2022, 1 Mar 2024)
                Ro, adjusted = adjusted_for_rules(Ro, rules.date, period_start, rules.time_control)
                if adjusted:
                    notes.append(f"{entry.name}: Ro {adjusted}")
                assert Ro is not None
            if data is None:
                # without player data, K depends on Ro, the birth year and the period's
                # rules alone: worked out once for each (most players of a period share one)
                pk_key = (Ro, entry.birth_year, id(year_rules))
                pk = k_of.get(pk_key)
                if pk is None:
                    pk = k_of[pk_key] = choose_k(Ro, year_rules, k=k,
                                                  birth_year=entry.birth_year)
            else:
                pk = choose_k(Ro, year_rules, k=k, data=data, birth_year=entry.birth_year)
            if pk.note:
                notes.append(f"{entry.name}: {pk.note}")
            # the ratings and games were checked by the reader (and the player data's): the
            # engine computes on them without checking each game again (the usual int
            # rating and K pass at once; anything else is checked in full)
            evs: list[tuple[str, int, RuleEdition, list[tuple[int, int]]]] = [
                (name, R if type(R) is int and RATING_MIN <= R <= RATING_MAX
                 else _checked_rating(R if R is not None else Ro, name), r.edition, games)
                for name, R, r, games, _ in evs_of]
            K = pk.K
            change = rate_period_checked(
                Ro if type(Ro) is int and RATING_MIN <= Ro <= RATING_MAX else as_rating(Ro, "Ro"),
                evs, K if type(K) is int and K_MIN <= K <= K_MAX else as_k(K, "K"),
                edition_id=listed_id)
            yield _period_player(key, entry.name, entry.fide_id, Ro, change, names,
                                 pk.source.key)
        notes.extend(_base_notes(outside, latest, first))

    return PeriodParts(tuple(event_info), rated(), notes)


def _base_notes(outside: Sequence[str], latest: Sequence[str],
                month: tuple[int, int] | None) -> list[str]:
    """The notes saying which rating a period's change was added to where the list before
    the period was not given (:func:`~xl_fide.event.resolve.period_base`): ``outside``,
    the players whose rating comes from an event that does not start in the period's
    (first) ``month``; ``latest``, those whose events show other ratings."""
    if month is None:
        return []
    period = f"{month[0]}-{month[1]:02d}"
    out = []
    if outside:
        out.append(f"Ro of the period {period} for {_some(outside)}: the rating in an event "
                   f"that does not start in {period} (no list given; the period's change "
                   "is added to the list before it, B.02 §8.3): give that list (player "
                   "data) if it differs")
    if latest:
        out.append(f"Ro of the period {period} for {_some(latest)}: the rating in their "
                   f"latest event that starts in {period} (the list before the period, "
                   "B.02 §8.3); each other event keeps its own Ro for its own games")
    return out


def _some(names: Sequence[str], shown: int = 5) -> str:
    """``1 player (A)``, ``7 players (A, B, C, D, E and 2 more)``."""
    text = ", ".join(names[:shown])
    if len(names) > shown:
        text += f" and {len(names) - shown} more"
    return f"{len(names)} player{'s' if len(names) != 1 else ''} ({text})"


def _period_rules(rules: EventRules, year: int | None, period_start: _dt.date | None,
                  listed_ids: dict[TimeControl, str]) -> tuple[EventRules, bool, str | None]:
    """What the period takes of an event's rules, once per event: the rules with the
    period's year (the junior K rule), whether a one-off adjustment of the ratings falls
    between them and the period (:func:`adjustment_between`), and the edition of the
    list after the period whose floor decides a publication (§7.2.1; ``None`` without
    a month: the newest edition among the events); ``listed_ids`` by time control."""
    listed_id = None
    if period_start is not None:
        listed_id = listed_ids.get(rules.time_control)
        if listed_id is None:
            listed_id = listed_ids[rules.time_control] = rules_for(
                period_start, rules.time_control).id
    return (dataclasses.replace(rules, period_year=year),
            period_start is not None and adjustment_between(rules.date, period_start),
            listed_id)


def _same_rules(rules: EventRules) -> tuple[object, ...]:
    """What :func:`_period_rules` depends on of an event's rules: every field but
    ``period_year`` (which it replaces), the enum members, edition and options by
    identity (an Enum member hashes in Python code on 3.11)."""
    return (rules.date, id(rules.time_control), id(rules.time_control_source),
            id(rules.edition), rules.notes, rules.end_date, id(rules.options))


def _checked_rating(R: object, name: str) -> int:
    """``R`` as a rating (:func:`~xl_fide.rules.values.as_rating`: the usual int passes
    at once), naming the event in the error."""
    if type(R) is int and RATING_MIN <= R <= RATING_MAX:
        return R
    return as_rating(R, f"Ro at {name}")


def _period_player(key: str, name: str, fide_id: int | None, Ro: int, change: PeriodChange,
                   names: tuple[str, ...], K_source: str) -> PeriodPlayer:
    """``PeriodPlayer(key, name, fide_id, Ro, change, None, names, K_source)`` of values
    already checked, built in one step (the frozen dataclass's ``__init__`` sets its
    fields one at a time)."""
    p = _new(PeriodPlayer)
    _set(p, "__dict__", {"key": key, "name": name, "fide_id": fide_id, "Ro": Ro,
                         "change": change, "initial": None, "event_names": names,
                         "K_source": K_source})
    return p


# Enum members looked up once (on Python 3.11 each look-up of a member runs Python code)
_STANDARD = TimeControl.STANDARD
_new = object.__new__
_set = object.__setattr__

