"""FIDE rating lists for an event: the ``--player-data`` file, and a local store of
monthly lists (SQLite, one file) with the lists FIDE would have used for the event.

FIDE B.02 §8.3.3 and reference practice: the ratings used are those of the list in
force when the tournament started; K is the one shown on the list before the rating
period (the list of the month of the event's end); K 10 is for good once a published
rating has reached 2400. This module imports neither xlwings nor openpyxl.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

from .players import PlayerDirectory, read_player_file

__all__ = ["event_player_data"]


def _event_kind(tournament: Any, time_control: Any) -> str:
    """The time control of an event as a rating-list kind (``--time-control`` first,
    then the file's 222/122 records, else standard)."""
    if time_control is not None:
        return str(getattr(time_control, "value", time_control))
    from .report import guess_time_control
    header = getattr(tournament, "header", {}) or {}
    guessed = guess_time_control(getattr(tournament, "time_control", "") or "",
                                 header.get("222", "") if isinstance(header, dict) else "")
    return guessed.value if guessed is not None else "standard"


def _pairs(tournaments: Iterable[Any]) -> list[tuple[int | None, str | None]]:
    return [(p.fide_id, p.name) for t in tournaments for p in t.players]


def event_player_data(path: str | os.PathLike[str], tournaments: Sequence[Any],
                      time_control: Any = None) -> PlayerDirectory:
    """The players of ``tournaments`` found in the list at ``path`` (``--player-data``).

    The list is streamed and only the events' players are kept (FIDE id, else name);
    their ratings, games and K are those of the events' time control (the given
    ``time_control``, else the first event's 222/122 records, else standard; a
    standard rating is the rapid/blitz fallback, FIDE R&B §7.2.1). The directory's
    ``notes`` count the unreadable lines of other players.
    Raises :class:`~xl_fide.errors.PlayerFileError` (one line, file and line named).
    """
    kind = _event_kind(tournaments[0] if tournaments else None, time_control)
    return read_player_file(path, kind, only=_pairs(tournaments))
