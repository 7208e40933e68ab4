"""The players of an event from its ``--player-data`` file, or from the stored lists
FIDE would have used for it (``--lists``).

FIDE B.02 §8.3.3 and reference practice: the ratings used are those of the list in
force when the tournament started; K is the one shown on the list before the rating
period (the list of the month of the event's end); K 10 is for good once a published
rating has reached 2400. This module imports neither xlwings nor openpyxl.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Iterable, Sequence
from typing import Any

from xl_fide.errors import InputError
from xl_fide.rules.editions import EventRules
from xl_fide.lists._model import PlayerData, PlayerDirectory
from xl_fide.lists._months import _months_back, month_of_date
from xl_fide.lists._read import read_player_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from xl_fide.lists._store import ListStore

__all__ = ["event_list_data", "event_player_data"]

def _event_kind(rules: Sequence[EventRules]) -> str:
    """The rating-list kind of the resolved events (the first event's time control)."""
    return rules[0].time_control.value if rules else "standard"


def _pairs(tournaments: Iterable[Any]) -> list[tuple[int | None, str | None]]:
    return [(p.fide_id, p.name) for t in tournaments for p in t.players]


def event_player_data(path: str | os.PathLike[str], tournaments: Sequence[Any],
                      rules: Sequence[EventRules] = (), *, period: bool = False
                      ) -> PlayerDirectory:
    """The players of ``tournaments`` found in the list at ``path`` (``--player-data``).

    The list is streamed and only the events' players are kept (FIDE id, else name);
    their ratings, games and K are those of the events' time control (``rules``, the
    events resolved by :func:`xl_fide.event_rules`; none: standard; a standard rating
    is the rapid/blitz fallback, FIDE R&B §7.2.1). The directory's
    ``notes`` count the unreadable lines of other players, and name each player whose
    rating in an event's file differs from the one in ``path`` (the file's is used, as
    with ``--lists``; in a rating ``period`` for the event's games, the list's being the
    period's Ro, B.02 §8.3).
    Raises :class:`~xl_fide.errors.PlayerFileError` (one line, file and line named).
    """
    kind = _event_kind(rules)
    directory = read_player_file(path, kind, only=_pairs(tournaments))
    where = f"in {os.fspath(path)}" if not isinstance(path, bytes) else "in the player data"
    notes: dict[str, None] = {}
    for t in tournaments:
        for p in t.players:
            if p.rating is None:
                continue
            try:
                data = directory.get(p.fide_id, p.name)
            except InputError:      # a name that fits several: the report says so
                continue
            if data is not None and data.rating is not None and data.rating != p.rating:
                notes[_rating_note(p, data.rating, where, period)] = None
    if notes:
        directory.notes = (*directory.notes, *notes)
    return directory


def _rating_note(p: Any, rating: int, where: str, period: bool = False) -> str:
    """The note on a player whose rating in the event's file (used) is not the list's;
    in a rating ``period`` the list's is the period's Ro (B.02 §8.3)."""
    used = ("the file's for the event's games, the list's as Ro of the period (B.02 §8.3)"
            if period else "the file's is used")
    return (f"player {p.start_rank} ({p.name}): rating {p.rating} in the file, {rating} "
            f"{where}: {used}")


# --- --lists: the lists FIDE would have used for an event ----------------------------

_MONTHLY_SINCE = "2012-08"      # FIDE's lists are monthly since July 2012


def _in_force(store: ListStore, kind: str, month: str) -> str | None:
    """The stored list in force in ``month``: that month's (monthly lists), or before
    August 2012 the newest stored one of the six months up to it (lists were then
    published every two or three months)."""
    months = store.months(kind)
    if month in months:
        return month
    if month < _MONTHLY_SINCE:
        earlier = [m for m in months if _months_back(month, 6) <= m <= month]
        if earlier:
            return earlier[-1]
    return None


def _need(store: ListStore, kind: str, month: str, what: str) -> str:
    found = _in_force(store, kind, month)
    if found is None:
        from xl_fide.errors import StoreError
        raise StoreError(
            f"no {kind} list of {month} in the store {store.path} ({what}): import it with "
            f"'xl-fide lists download --month {month} --time-control {kind}' or "
            f"'xl-fide lists import FILE --month {month}'")
    return found


def _event_dates(rules: Sequence[EventRules]) -> tuple[_dt.date, _dt.date]:
    """The first rules date and the last end date of the resolved events."""
    starts = [r.date for r in rules]
    if not rules or any(d is None for d in starts):
        raise InputError("--lists needs the event's start date: the file has none (042); "
                         "give --event-date YYYY-MM-DD")
    start = min(d for d in starts if d is not None)
    return start, max(r.end_date or start for r in rules)


def event_list_data(tournaments: Sequence[Any], rules: Sequence[EventRules],
                    store: ListStore | None = None, *, period: bool = False
                    ) -> PlayerDirectory:
    """The events' players as FIDE's lists showed them for these events (``--lists``).

    FIDE B.02 §8.3.3 and its rating periods: the rating (Ro) is from the list in
    force when the event started (the list of its start month); K from the list
    before the rating period of the event's end (the list of its end month); the
    birth year from that list; ``peak_rating`` is the highest rating of the stored
    lists up to then (K 10 for good after 2400). For rapid and blitz, the standard
    rating of the start month's list is the fallback (FIDE R&B §7.2.1), when stored.
    Players are found by FIDE id. The directory's ``notes``: each player whose
    rating in the file differs from the list (the file's is used), and those not on
    the list. ``rules`` are the events resolved by :func:`xl_fide.event_rules`
    (parallel to ``tournaments``): their rules dates (a given event date, a
    workbook's "Rules as on") pick the lists, their time control the kind.
    Raises :class:`StoreError` naming the month to import when a list is missing,
    :class:`InputError` when an event has no date.
    """
    if store is None:               # the store (sqlite3) only for --lists; closed here
        from xl_fide.lists._store import ListStore
        with ListStore() as own:
            return event_list_data(tournaments, rules, own, period=period)
    start, end = _event_dates(rules)
    kind = _event_kind(rules)
    ro_month = _need(store, kind, month_of_date(start), "in force at the event's start")
    k_month = _need(store, kind, month_of_date(end),
                    "the list before the rating period of the event's end")
    std_month = _in_force(store, "standard", month_of_date(start)) if kind != "standard" else None
    notes: list[str] = []
    players: dict[int, PlayerData] = {}
    missing = []
    for t in tournaments:
        for p in t.players:
            if p.fide_id is None or p.fide_id in players:
                continue
            ro = store.entry(p.fide_id, ro_month, kind)
            kk = store.entry(p.fide_id, k_month, kind)
            std = store.entry(p.fide_id, std_month, "standard") if std_month else None
            if ro is None and kk is None and std is None:
                missing.append(f"{p.start_rank}")
                continue
            rating = ro.rating if ro is not None else None
            if p.rating is not None and rating is not None and p.rating != rating:
                notes.append(_rating_note(p, rating, f"on the {kind} list of {ro_month}",
                                          period))
            born = next((e.birth_year for e in (kk, ro, std) if e is not None and e.birth_year),
                        None)
            players[p.fide_id] = PlayerData(
                p.fide_id, p.name or f"#{p.fide_id}", rating=rating,
                games=ro.games if ro is not None else None,
                k=kk.k if kk is not None else None, birth_year=born,
                flag=next(e.flag for e in (ro, kk, std) if e is not None),
                peak_rating=store.peak(p.fide_id, kind, k_month),
                standard_rating=std.rating if std is not None else None)
    sources = f"{kind} lists: Ro {ro_month}, K {k_month}"
    notes.insert(0, f"player data from the store ({sources})")
    if missing:
        notes.append(f"not on the {kind} list of {ro_month}: player(s) {', '.join(missing)}")
    return PlayerDirectory(players.values(), notes=notes)


