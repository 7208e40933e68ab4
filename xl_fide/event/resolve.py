"""The seam from a tournament to the engine: typed inputs for one event.

A :class:`~xl_fide.tournament.Tournament` (read from a TRF or from a workbook) becomes what
the engine rates: the rule edition in force at the start (FIDE B.02 §8.3) for the
event's time control (TRF-2026 ``222`` coded field, else the ``122`` text), the rated
games (:attr:`~xl_fide.tournament.Game.is_played`: ``1 = 0`` against a real opponent), and
each player's rating and K with where K came from (:class:`KSource`). The report, the
rating period, the what-if and the workbook all start here, so a rule is applied in
one place. No I/O, no clock: callers pass ``today`` when a date may be missing.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Iterable, Mapping

from xl_fide._dates import day_month_numbers
from xl_fide.rules.adjustments import adjusted_for_rules
from xl_fide.rules.editions import (
    EventOptions,
    EventRules,
    RuleEdition,
    TimeControl,
    TimeControlSource,
    guess_time_control,
    rules_for,
)
from xl_fide.rules.event import CellCodes, Entrant, effective_rating
from xl_fide.rules.rating import birth_year_problem, k_factor
from xl_fide.rules.results import GameResult
from xl_fide.tournament import counted_cells

if TYPE_CHECKING:
    from xl_fide.lists._model import PlayerData, PlayerDirectory
    from xl_fide.tournament import Game, Tournament, TrfPlayer


class KSource(StrEnum):
    """Where a player's K came from (FIDE B.02 §8.3.3 is the rule; the others override it)."""

    GIVEN = "given"           # one K given for every rated player (the caller's option)
    SHEET = "K set"           # a K typed in a workbook's players block
    LIST = "rating list"      # the K of the player data (a FIDE list or a CSV)
    RULE = "rating"           # FIDE B.02 §8.3.3 from rating, birth year, games, peak

    @property
    def key(self) -> str:
        """The short word every output shows for it (report CSV/JSON ``k_source``, the
        workbook's Report sheet): ``given``, ``sheet``, ``list`` or ``rule``."""
        return _K_KEYS[self.value]


_K_KEYS = {"given": "given", "K set": "sheet", "rating list": "list", "rating": "rule"}


@dataclass(frozen=True)
class PlayerK:
    """A rated player's K before the 700 cap and its source; ``birth_year`` is the one
    the K rule used (``None`` when unknown or not the rule's K)."""

    K: int
    source: KSource
    birth_year: int | None = None
    note: str = ""            # e.g. an implausible birth year left out of the K rule


@dataclass(frozen=True)
class CrossTable:
    """One event in the engine's terms, in start-rank order.

    ``entrants`` feed :func:`~xl_fide.rules.event.rate_crosstable`; ``k``, ``points`` and
    ``players`` are parallel to it (``k`` is ``None`` for an unrated player;
    ``points`` under the event's scoring system); ``matched`` counts the players
    found in the player data (``None`` without player data).
    """

    rules: EventRules
    entrants: tuple[Entrant, ...]
    k: tuple[PlayerK | None, ...]
    points: tuple[Decimal, ...]
    players: tuple[TrfPlayer, ...]
    notes: tuple[str, ...]
    matched: int | None = None
    #: per player, the rating the rules read before the floor (the file's, adjusted for a
    #: one-off list adjustment, else the player data's) and its K before the cap: what a
    #: sheet's Ro used and K columns show, also for a rating below the floor (FIDE B.02
    #: §7: then rated as unrated); ``None`` without a rating
    sheet_ratings: tuple[int | None, ...] = ()
    sheet_k: tuple[PlayerK | None, ...] = ()

    @property
    def edition(self) -> RuleEdition:
        return self.rules.edition


def coded_time_control(tournament: Tournament) -> str:
    """The TRF-2026 ``222`` coded time control of the file (``""`` if none)."""
    return tournament.time_control_code


def event_time_control(tournament: Tournament) -> tuple[TimeControl | None, TimeControlSource]:
    """The time control the file states: the ``222`` coded field first (machine
    readable), else the ``122`` text; ``(None, DEFAULT)`` when neither is readable."""
    coded = coded_time_control(tournament)
    if coded:
        tc = guess_time_control("", coded)
        if tc is not None:
            return tc, TimeControlSource.CODED
    tc = guess_time_control(tournament.time_control or "")
    if tc is not None:
        return tc, TimeControlSource.TEXT
    return None, TimeControlSource.DEFAULT


def _day_or_month_first(tournament: Tournament, date: _dt.date, tc: TimeControl,
                        edition_id: str) -> list[str]:
    """A note when the file's start date is written as two numbers up to 12 before the
    year (``3/2/2024``: read day first, 3 Feb) and the other reading (2 Mar) falls under
    other rules, unless the round dates (132, written year first) side with the reading
    used: the nearer of the two to the first round date."""
    parts = day_month_numbers(tournament.start_date_text)
    if parts is None or parts[0] == parts[1] or max(parts[:2]) > 12:
        return []
    a, b, year = parts
    try:
        other = _dt.date(year, a, b) if date == _dt.date(year, b, a) else _dt.date(year, b, a)
    except ValueError:
        return []
    if other == date or rules_for(other, tc).id == edition_id:
        return []
    first = min((d for d in tournament.round_dates if d is not None), default=None)
    if first is not None and abs((first - date).days) < abs((first - other).days):
        return []
    return [f"start date {tournament.start_date_text.strip()!r} read as {date.isoformat()}; "
            f"read the other way round ({other.isoformat()}) other rules would apply "
            f"({rules_for(other, tc).id} instead of {edition_id}): give the event date "
            "(--event-date) to settle it"]


def event_rules(tournament: Tournament, options: EventOptions | EventRules | None = None
                ) -> EventRules:
    """The rules for ``tournament`` (FIDE B.02 §8.3: those in force at its start): the
    one place an event's date, time control and edition are resolved.

    ``options.event_date`` overrides the file's start date; ``options.time_control``
    the file's 222/122 records; ``options.today`` only gives the junior rule's year
    when no date is known. Already resolved rules are resolved again from their
    options (a month of a long event is an event of its own).
    Raises :class:`~xl_fide.errors.RuleError` for a time control that is not one.
    """
    if isinstance(options, EventRules):
        options = options.options
    options = options or EventOptions()
    notes: list[str] = []
    date = options.event_date or tournament.start_date
    if date is None:
        notes.append("no start date in the file: the newest rules used (give the event date)")
    if options.time_control is not None:
        tc, source = options.time_control, TimeControlSource.GIVEN
    else:
        guessed, source = event_time_control(tournament)
        if guessed is None:
            notes.append("time control not recognised in the file: standard assumed "
                         "(give the time control)")
        tc = guessed or TimeControl.STANDARD
    edition = rules_for(date, tc)
    if options.event_date is None and date is not None:
        notes += _day_or_month_first(tournament, date, tc, edition.id)
    if date is not None and date < edition.in_force:
        notes.append(f"event of {date.isoformat()} predates the oldest rules we hold: "
                     f"{edition.id} used")
    if options.k is not None:
        notes.append(f"K {options.k} given for every rated player, not FIDE B.02 §8.3.3's K by "
                     "rating, age and games" + ("" if options.k in (10, 20, 40) else
                                                f" ({options.k} is no K of the rules: 40, 20, 10)"))
    year_from = date or options.today
    if year_from is None:
        notes.append("no event date: birth years not used for K (FIDE B.02 §8.3.3 junior rule)")
    end = max(tournament.end_date or date, date) if date is not None else None
    return EventRules(date, tc, source, edition, year_from.year if year_from else None,
                      tuple(notes), end, options)


def rated_games(tournament: Tournament, player: TrfPlayer) -> list[Game]:
    """The player's games within the event's rounds that can be rated
    (:attr:`~xl_fide.tournament.Game.is_played`); rated opponents are the engine's business."""
    return [g for g in counted_games(tournament, player) if g.is_played]


def counted_games(tournament: Tournament, player: TrfPlayer) -> list[Game]:
    """The player's round cells within the event's rounds (beyond them: not counted)."""
    rounds = tournament.rounds
    return [g for g in player.games if not rounds or g.round <= rounds]


def norm_games(tournament: Tournament, start_rank: int,
               ratings: Mapping[int, int | None]) -> list[tuple[int | None, float]]:
    """What-if input for a title norm: the player's played games so far as
    ``(opponent's rating or None, score 0/0.5/1)``; ``ratings`` by start rank.
    Raises :class:`~xl_fide.errors.TrfError` for a start rank that is not a player."""
    return [(ratings.get(g.opponent), g.score_half_points / 2)
            for g in rated_games(tournament, tournament.player(start_rank))
            if g.opponent is not None]


def game_cell(game: Game) -> tuple[int | None, GameResult]:
    """The engine's ``(opponent, GameResult)`` of one round cell; an unplayed cell
    counts points only (forfeits, byes, unrated short games)."""
    return game_cells((game,))[0]


def game_cells(games: Iterable[Game]) -> tuple[tuple[int | None, GameResult], ...]:
    """:func:`game_cell` of each of ``games`` (a played game: ``1 = 0`` with an
    opponent, :attr:`~xl_fide.tournament.Game.is_played`)."""
    return tuple([(g.opponent, played)
                  if (played := _PLAYED.get(g.code)) is not None and g.opponent is not None
                  else (None, _UNPLAYED.get(g.code) or _unplayed(g.code)) for g in games])


_Cell = tuple[int | None, GameResult]


def _cells_of_codes(opponents: Iterable[int | None], codes: str,
                    shared: dict[str, dict[int, _Cell]]) -> tuple[_Cell, ...]:
    """:func:`game_cells` of games given compact (:func:`~xl_fide.tournament.counted_cells`).
    Each played cell is the one tuple of its opponent and code in ``shared`` (code ->
    opponent -> cell; an event's players meet the same opponents with the same few
    results), each other cell the one tuple of its code."""
    by_code = shared.get
    return tuple([(by_opp.get(opp) or by_opp.setdefault(opp, (opp, _PLAYED[code])))
                  if opp is not None and (by_opp := by_code(code)) is not None
                  else _UNPLAYED_CELLS.get(code) or _unplayed_cell(code)
                  for opp, code in zip(opponents, codes)])


def _unplayed_cell(code: str) -> _Cell:
    cell = _UNPLAYED_CELLS[code] = (None, _UNPLAYED.get(code) or _unplayed(code))
    return cell


def _unplayed(code: str) -> GameResult:
    result = _UNPLAYED[code] = GameResult(0, False, code)
    return result


def _unplayed_half(code: str) -> int:
    """The points (half points) of a cell that is no played game with an opponent: the
    result of its code as :func:`_cells_of_codes` makes it."""
    return (_UNPLAYED.get(code) or _unplayed(code)).half_points


# Enum members looked up once (on Python 3.11 each look-up of a member runs Python code)
_STANDARD = TimeControl.STANDARD
_K_RULE = KSource.RULE
_new = object.__new__
_set = object.__setattr__

# One (frozen) GameResult per code, shared by every cell (a cell costs a look-up)
_PLAYED = {"1": GameResult(2, True, "1"), "=": GameResult(1, True, "="),
           "0": GameResult(0, True, "0")}
_PLAYED_HALF = {code: result.half_points for code, result in _PLAYED.items()}
_UNPLAYED: dict[str, GameResult] = {}
_UNPLAYED_CELLS: dict[str, _Cell] = {}     # (None, its GameResult) of a code


def _first(field: str, *sources: object) -> int | None:
    for src in sources:
        value = getattr(src, field, None) if src is not None else None
        if value is not None:
            return int(value)
    return None


def choose_k(rating: int, rules: EventRules, *, k: int | None = None,
             sheet: PlayerData | None = None, data: PlayerData | None = None,
             birth_year: int | None = None) -> PlayerK:
    """A rated player's K and its source (FIDE B.02 §8.3.3).

    Precedence: ``k`` given for everyone; a K typed in the sheet (``sheet.k``); the
    K of the player data (``data.k``); else :func:`~xl_fide.rules.rating.k_factor` from the
    rating, the birth year (the file's, else the data's), career games and peak rating
    (the sheet's, else the data's).
    """
    if k is not None:
        return PlayerK(k, KSource.GIVEN)
    if sheet is not None and sheet.k:
        return PlayerK(sheet.k, KSource.SHEET)
    if data is not None and data.k:
        return PlayerK(data.k, KSource.LIST)
    birth = birth_year or (data.birth_year if data is not None else None)
    if rules.period_year is None:
        birth = None
    note = ""
    problem = birth_year_problem(birth, rules.period_year) if birth and rules.period_year else None
    if problem:   # not an age: the junior rule cannot apply (never a silent K 40)
        birth, note = None, f"{problem}: not used for K (FIDE B.02 §8.3.3)"
    known = sheet is not None or data is not None    # else no career games, no peak
    K = k_factor(rating, birth_year=birth, period_year=rules.period_year if birth else None,
                 career_games=_first("career_games", sheet, data) if known else None,
                 peak_rating=_first("peak_rating", sheet, data) if known else None,
                 edition=rules.edition)
    # PlayerK(K, KSource.RULE, birth, note) in one step (one per rated player: the frozen
    # dataclass's __init__ sets its fields one at a time)
    pk = _new(PlayerK)
    _set(pk, "K", K)            # each field on its own: the values kept in the object
    _set(pk, "source", _K_RULE)
    _set(pk, "birth_year", birth)
    _set(pk, "note", note)
    return pk


def period_base(events: Iterable[tuple[_dt.date | None, int | None]],
                first_month: _dt.date | None = None) -> int | None:
    """Which event's own rating a rating period's change is added to when the list
    before the period is not given (FIDE B.02 §8.3, §8.3.4: the change is added to
    the rating on the list before the period; each event is rated with the list of its
    start).

    ``events``: each event's ``(start date, the player's rating in it)``, ``None`` for
    an unknown start (the earliest) or no rating. ``first_month``: the first day of
    the period's month (of its first month when months are pooled); ``None``: not
    known. Returns the index of the latest-starting event with a rating among those
    that start before that month ends (one that starts in it shows that month's list;
    one that started earlier, the list nearest before), else of the earliest-starting
    one (every event starts after the month: pooled months); the first given of events
    that start on the same day; ``None`` when no event shows a rating.
    ``xl-fide period`` and ``xl-fide rate`` (the games CSV's Ro) both choose by it.
    """
    end = None
    if first_month is not None:
        end = (_dt.date(first_month.year + 1, 1, 1) if first_month.month == 12
               else _dt.date(first_month.year, first_month.month + 1, 1))
    best = after = None
    best_start = after_start = _dt.date.min
    for i, (start, R) in enumerate(events):
        if R is None:
            continue
        day = start or _dt.date.min
        if end is not None and day >= end:
            if after is None or day < after_start:
                after, after_start = i, day
        elif best is None or day > best_start:
            best, best_start = i, day
    return best if best is not None else after


def crosstable(tournament: Tournament, rules: EventRules | EventOptions | None = None, *,
               players: PlayerDirectory | None = None,
               inputs: Mapping[int, PlayerData] | None = None,
               ratings: Mapping[int, int | None] | None = None) -> CrossTable:
    """``tournament`` as engine inputs (FIDE B.02 §7, §8.2-§8.3).

    ``rules``: the event resolved by :func:`event_rules` (options are resolved here);
    ``rules.k`` forces K for every rated player; ``players`` supplies ratings, K, birth
    years, career games and peak ratings by FIDE id or name; ``inputs`` maps a start
    rank to a sheet's ``PlayerData`` (``k`` typed by hand, ``career_games``,
    ``peak_rating``). Only ``1 = 0`` games against a real opponent are rated; byes
    and forfeits count as points only. ``ratings`` (start rank -> rating or ``None``):
    the ratings the players count with, already as the rules see them (a later month
    of an event over 30 days: the previous month's published new ratings): neither
    adjusted again (1 Mar 2024, 1 Oct 2022) nor looked up in ``players``.
    """
    rules = event_rules(tournament, rules) if not isinstance(rules, EventRules) else rules
    k = rules.k
    notes = list(rules.notes)
    entrants: list[Entrant] = []
    ks: list[PlayerK | None] = []
    sheet_ratings: list[int | None] = []
    sheet_k: list[PlayerK | None] = []
    points: list[Decimal] = []
    matched = 0
    shared: dict[str, dict[int, _Cell]] = {code: {} for code in _PLAYED}  # _cells_of_codes
    # the entrants' rounds compact, made into cells only when read (rate_crosstable reads
    # the codes)
    decode = CellCodes(_PLAYED_HALF, _unplayed_half,
                       lambda opponents, codes: _cells_of_codes(opponents, codes, shared))
    for p in tournament.players:
        data = players.get(p.fide_id, p.name) if players is not None else None
        matched += data is not None
        standard = data.standard_rating if data is not None and \
            rules.time_control is not _STANDARD else None
        if ratings is not None:    # already resolved: the event's own ratings
            rating = ratings.get(p.start_rank)
        elif p.rating is None:
            rating = data.rating if data is not None else None
        else:   # the file's list is the one at its start: adjust if the
            # rules' date is past a one-off adjustment (1 Oct 2022, 1 Mar 2024)
            rating, adjusted = adjusted_for_rules(p.rating, tournament.start_date, rules.date,
                                                  rules.time_control, standard)
            if adjusted:
                notes.append(f"player {p.start_rank}: {adjusted}")
        before_floor = rating
        rating, note = effective_rating(rating, rules.edition, standard)
        if note:
            notes.append(f"player {p.start_rank}: {note}")
        pk = None
        if rating is not None:
            pk = choose_k(rating, rules, k=k, sheet=inputs.get(p.start_rank) if inputs else None,
                          data=data, birth_year=p.birth_year)
            if pk.note:
                notes.append(f"player {p.start_rank}: {pk.note}")
        sheet_ratings.append(before_floor)
        sheet_k.append(pk if pk is not None or before_floor is None else choose_k(
            before_floor, rules, k=k, sheet=inputs.get(p.start_rank) if inputs else None,
            data=data, birth_year=p.birth_year))
        opponents, codes, colours = counted_cells(p, tournament.rounds)   # no Game made
        entrants.append(Entrant.of_codes(p.start_rank, rating, pk.K if pk else None,
                                         opponents, codes, p.name, decode))
        ks.append(pk)
        points.append(tournament.points_of_cells(codes, colours))
    if players is not None:
        notes.append(f"player data: {matched} of {len(tournament.players)} players found")
    if k is None and inputs is None and any(pk is not None and pk.source is _K_RULE
                                            for pk in ks):
        notes.append("K from rating and birth year (FIDE B.02 §8.3.3); career games are not "
                     "in a TRF: a player with fewer than 30 games has K 40 (give player data "
                     "or K)")
    return CrossTable(rules, tuple(entrants), tuple(ks), tuple(points), tuple(tournament.players),
                      tuple(notes), matched if players is not None else None,
                      tuple(sheet_ratings), tuple(sheet_k))
