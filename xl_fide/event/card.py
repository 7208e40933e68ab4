"""One player's games from an event's report: the page FIDE prints per player.

The answer to "why did I get -13?": for each rating period of the event (the event, or
each calendar month of an event over 30 days, :mod:`xl_fide.event.months`) the player's
round cells as lines of a :class:`~xl_fide.event.player_period.PlayerPeriod`, the shape
``xl-fide rate`` prints for a player's own games CSV, so one presenter shows both: per
game the round, the opponent (start rank and name), his rating in that period, the
result, D, PD and ΔR (FIDE B.02 §8.3.1-§8.3.2) or why the game is not rated; then ΣΔR,
K, K x ΣΔR, its rounding (§8.3.4) and the new rating. Every number is the report's
(:func:`~xl_fide.event.report.build_report`); nothing is rated here. No I/O.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xl_fide._games import GameRow
from xl_fide.errors import InputError
from xl_fide.event.player_period import PlayerEvent, PlayerGame, PlayerPeriod
from xl_fide.event.resolve import KSource, counted_games, game_cell

if TYPE_CHECKING:
    from xl_fide.event.report import Report, ReportRow
    from xl_fide.trf import Game, Tournament, TrfPlayer

__all__ = ["RoundGame", "find_player", "player_periods"]


@dataclass(frozen=True)
class RoundGame(GameRow):
    """A round cell of a TRF as a line of a player's card: a :class:`~xl_fide._games.GameRow`
    with its ``round`` and the opponent's start rank ``opponent_no`` (``None``: no
    opponent, a bye)."""

    round: int = 0
    opponent_no: int | None = None


# where K came from, in the words of `xl-fide rate` (PlayerPeriod.K_source)
_K_WORDS = {KSource.GIVEN: "given", KSource.SHEET: "sheet", KSource.LIST: "list",
            KSource.RULE: "rule"}
_RESULT_TEXT = {"1": "1", "=": "½", "0": "0"}
_NOT_PLAYED = {"+": "forfeit win", "-": "forfeit loss", "W": "win not played over the board",
               "D": "draw not played over the board", "L": "loss not played over the board",
               "H": "half-point bye", "F": "full-point bye", "U": "pairing-allocated bye",
               "Z": "zero-point bye or absent"}


def find_player(tournament: Tournament, text: str) -> TrfPlayer:
    """The player ``text`` names: a start rank, a FIDE id, or a name (the whole name, any
    case, else a part of one). Raises :class:`~xl_fide.errors.InputError` when none or
    more than one player fits, listing the candidates (start rank, name, FIDE id)."""
    wanted = text.strip()
    if not wanted:
        raise InputError("--player: give a start rank, a FIDE id or a name")
    players = tournament.players
    if wanted.isdigit():
        n = int(wanted)
        found = [p for p in players if p.start_rank == n or p.fide_id == n]
        what = "start rank or FIDE id"
    else:
        key = " ".join(wanted.casefold().split())
        names = [(" ".join((p.name or "").casefold().split()), p) for p in players]
        found = [p for name, p in names if name == key] or \
            [p for name, p in names if key in name]
        what = "name"
    if len(found) == 1:
        return found[0]
    if not found:
        raise InputError(f"--player {wanted!r}: no player with that {what}")
    listed = "; ".join(_who(p) for p in found[:10]) + ("; ..." if len(found) > 10 else "")
    raise InputError(f"--player {wanted!r}: {len(found)} players fit ({listed}): give the "
                     "start rank")


def _who(p: TrfPlayer) -> str:
    return f"{p.start_rank} {p.name}" + (f" (FIDE id {p.fide_id})" if p.fide_id else "")


def player_periods(report: Report, start_rank: int
                   ) -> tuple[tuple[_dt.date | None, PlayerPeriod], ...]:
    """The player's card for each rating period of ``report``: ``((month, period),)``,
    one per calendar month of an event over 30 days (``month`` its first day), else one
    ``(None, period)`` for the event. Raises :class:`~xl_fide.errors.InputError` for a
    start rank that is not a player."""
    reports = report.months or (report,)
    out = []
    for part in reports:
        row = next((r for r in part.rows if r.result.start_rank == start_rank), None)
        if row is None or part.tournament is None:
            raise InputError(f"no player with start rank {start_rank}")
        out.append((part.month, _period(part, row, part.tournament)))
    return tuple(out)


def _period(report: Report, row: ReportRow, t: Tournament) -> PlayerPeriod:
    res = row.result
    calc = res.calc
    ratings = {r.result.start_rank: r.result.rating for r in report.rows}
    names = {p.start_rank: p.name for p in t.players}
    lines = iter(calc.games if calc is not None else ())
    games = []
    for g in counted_games(t, t.player(res.start_rank)):
        R_opp = ratings.get(g.opponent) if g.opponent is not None else None
        game = _row(t, g, names, R_opp)
        if not g.is_played or g.opponent is None:
            why = f"not rated: {_NOT_PLAYED.get(g.code, g.code)}"
            games.append(PlayerGame(game, None, why))
        elif R_opp is None:
            games.append(PlayerGame(game, None, "not rated: unrated opponent"))
        elif calc is not None:
            line = next(lines)
            games.append(PlayerGame(game, line, "" if line.rated else line.note))
        else:       # an unrated player: the game counts for the initial rating (§8.2)
            games.append(PlayerGame(game, None, "counts for the initial rating (FIDE B.02 §8.2)"))
    start = t.start_date or report.event_date or _dt.date.min
    end = t.end_date or start
    K_source = _K_WORDS.get(row.k_source, "") if row.k_source is not None else ""
    notes = (f"rated by the event's rules, as on {report.event_date.isoformat()}",) \
        if report.event_date and report.event_date != t.start_date else ()
    if calc is not None:
        event = PlayerEvent(t.name or t.source, start, end, report.edition.id, res.rating,
                            calc.K_given, calc.K, tuple(games), res.N, res.W_half,
                            calc.sum_delta_R, calc.change)
        return PlayerPeriod(calc.Ro, calc.K_given, K_source, calc.K, res.N, report.time_control,
                            (event,), calc.change, calc.rating_change, calc.new_rating,
                            calc.new_rating if calc.published else None, calc.publication,
                            None, report.edition.id, start.year, notes)
    init = res.initial
    event = PlayerEvent(t.name or t.source, start, end, report.edition.id, None, None, None,
                        tuple(games), res.N, res.W_half, None, None)
    publication = "" if init is None or init.Ru is not None else f"not published: {init.reason}"
    return PlayerPeriod(None, None, "", None, res.N, report.time_control, (event,), None, None,
                        init.value if init is not None else None,
                        init.Ru if init is not None else None, publication, init,
                        report.edition.id, start.year, notes)


def _row(t: Tournament, g: Game, names: dict[int, str], R_opp: int | None) -> RoundGame:
    _, result = game_cell(g)
    day = t.round_dates[g.round - 1] if g.round <= len(t.round_dates) else None
    text = _RESULT_TEXT.get(g.code, g.code) if g.is_played else g.code
    opponent = names.get(g.opponent, "") if g.opponent is not None else ""
    return RoundGame(g.round, t.name or t.source, day, opponent, R_opp, result, text, g.round,
                     g.opponent)
