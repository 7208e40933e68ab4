"""``xl-fide rate``: a player's own rating period from a games CSV or ``--game`` options,
and ``xl-fide template --layout player``: the player sheet, filled from the CSV.

The library does the work (:mod:`xl_fide._games` reads the CSV,
:mod:`xl_fide.event.player_period` rates the period, :mod:`xl_fide.excel._player` builds
the sheet); this module parses options and prints.
"""

from __future__ import annotations

import argparse
import datetime as _dt
from decimal import Decimal
from pathlib import Path

# `xl-fide --help` registers this module (every command builds its parser): no typing,
# csv or json import at the top
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from xl_fide.event.report import Report

from xl_fide.errors import XlFideError

EXAMPLE_GAME = "2025:1"


def _cli() -> Any:
    """The commands' shared parts (:mod:`xl_fide.cli._common`)."""
    from xl_fide.cli import _common
    return _common


def _date_option(text: str) -> _dt.date:
    """``--date``: read as every date option (a date whose day and month could swap is
    refused, :func:`xl_fide.cli._common._event_date`)."""
    return _cli()._event_date(text)


def _rating_or_unrated(text: str) -> int | str:
    if text.strip().lower() in ("unrated", "none", "u"):
        return "unrated"
    try:
        from xl_fide.rules.values import as_rating
        return as_rating(text.strip(), "--rating")
    except XlFideError as e:
        raise argparse.ArgumentTypeError(f"{e} (or 'unrated')") from None


def _int_option(name: str, minimum: int, maximum: int):
    def convert(text: str) -> int:
        try:
            from xl_fide.rules.values import as_int
            return as_int(text, name, minimum=minimum, maximum=maximum)
        except XlFideError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return convert


def _date_order(text: str) -> str:
    if text.strip().lower() not in ("dmy", "mdy"):
        raise argparse.ArgumentTypeError(f"dmy (3/2/2024 is 3 February) or mdy (2 March), "
                                         f"got {text!r}")
    return text.strip().lower()


def games_options(sp: argparse.ArgumentParser, what: str) -> None:
    """The games CSV (``--games FILE``, one meaning in every command) and how its dates
    read (``--date-order``)."""
    sp.add_argument("--games", dest="games_csv", metavar="GAMES.csv", help=what)
    sp.add_argument("--date-order", type=_date_order, metavar="dmy|mdy",
                    help="how the CSV's dates like 3/2/2024 read: dmy (3 February) or mdy "
                         "(2 March); default: settled by the file's other dates (a day over "
                         "12), else such a date is refused; 2024-02-03 is always clear")


def player_options(sp: argparse.ArgumentParser, career: str = "--games-so-far") -> None:
    """The player's inputs: --rating, --k, --birth-year, ``career`` (rated games so far),
    --peak, --time-control."""
    m = _cli()
    sp.add_argument("--rating", type=_rating_or_unrated, metavar="R",
                    help="your rating on the list before the period, or 'unrated' "
                         "(default: the CSV's Ro of the latest event starting by the end of the period's "
                         "month, when every event has one)")
    sp.add_argument("--k", type=m._positive_k, help="your K on that list (default: by FIDE "
                    "B.02 §8.3.3 from --birth-year, the games so far and --peak)")
    sp.add_argument("--birth-year", type=_int_option("--birth-year", 1850, 2200), metavar="Y",
                    help="your year of birth (a junior under 2300 has K 40, B.02 §8.3.3)")
    sp.add_argument(career, dest="career_games", type=_int_option(career, 0, 100000),
                    metavar="N", help="rated games completed before the period (under 30: K 40)")
    sp.add_argument("--peak", type=_int_option("--peak", 0, 4000), metavar="P",
                    help="your highest published rating (2400 or more: K 10)")
    sp.add_argument("--time-control", choices=["standard", "rapid", "blitz"],
                    help="default: the CSV's time_control column, else standard")


def add_parser(sub: Any, run: Any = None) -> None:
    """Register ``xl-fide rate``, run by ``run`` (default :func:`cmd_rate`; the command
    line's entry runs it in its rating phase)."""
    m = _cli()
    r = sub.add_parser("rate", help="your own rating period: several events, one rounding, "
                       "the new rating (games CSV or --game)")
    r.add_argument("file", nargs="?", metavar="GAMES.csv",
                   help="one game a line: event, event_start, event_end, opponent_rating, "
                        "result (optional date, opponent, Ro, K, time_control); or a player "
                        "sheet (BOOK.xlsx, xl-fide template --layout player) as typed in")
    r.add_argument("--game", action="append", metavar="RATING:RESULT", default=[],
                   help=f"one game without a CSV, repeatable, e.g. {EXAMPLE_GAME} or "
                        "2100:½ or unrated:1")
    games_options(r, "the games CSV (the same as GAMES.csv)")
    r.add_argument("--date", type=_date_option, help="with --game: the event's date "
                   "(rules and list as on it; default today)")
    player_options(r)
    r.add_argument("--format", choices=["table", "csv", "json"],
                   help="default: from the -o name (.csv, .json, .txt), else table")
    r.add_argument("-o", "--output", help="write to this file instead of the screen")
    r.add_argument("--force", action="store_true", help="overwrite --output if it exists")
    r.add_argument("--quiet", "-q", action="store_true", help="do not print warnings")
    r.set_defaults(func=run or cmd_rate)


# ------------------------------------------------------------------------------ inputs

def _games_from_options(items: list[str], day: _dt.date | None) -> Any:
    import csv
    import io
    from xl_fide._games import parse_games
    day = day or _dt.date.today()
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["event", "event_start", "event_end", "opponent_rating", "result"])
    for i, item in enumerate(items, 1):
        rating, sep, result = item.partition(":")
        if not sep or not rating.strip() or not result.strip():
            raise _error(f"--game {item!r}: write RATING:RESULT, e.g. {EXAMPLE_GAME}")
        w.writerow(["games", day.isoformat(), day.isoformat(), rating.strip(), result.strip()])
    try:
        return parse_games(out.getvalue(), "--game")
    except XlFideError as e:
        where = getattr(e, "line", None)
        msg = getattr(e, "message", str(e))
        raise _error(f"--game {items[where - 2]!r}: {msg}" if where else str(e)) from None


def _error(text: str) -> Exception:
    return _cli().CliError(text)


def load_games(args: argparse.Namespace) -> Any:
    """The games of ``args.file`` (a CSV) or of ``--game``; exactly one of them."""
    from xl_fide._games import read_games
    games_opt = getattr(args, "game", None) or []
    positional, named = getattr(args, "file", None), getattr(args, "games_csv", None)
    if named and not Path(named).exists() and named.strip().isdigit():
        raise _error(f"--games {named}: --games is the games CSV; the rated games before the "
                     f"period are --games-so-far {named.strip()}")
    if positional and named:
        raise _error("give the games CSV once: GAMES.csv or --games GAMES.csv")
    file = positional or named
    if file and games_opt:
        raise _error("give a GAMES.csv or --game, not both")
    if games_opt:
        return _games_from_options(games_opt, getattr(args, "date", None))
    if not file:
        raise _error(f"no games: give a GAMES.csv or --game RATING:RESULT (e.g. --game "
                      f"{EXAMPLE_GAME})")
    path = _cli()._existing_file(Path(file))
    return read_games(path, getattr(args, "date_order", None))


def player_inputs(args: argparse.Namespace, games: Any, required: bool) -> Any:
    """The player's inputs; without ``--rating``, the CSV's Ro of the latest-starting
    event when every event has one (else an error when ``required``)."""
    from xl_fide.event.player_period import PlayerInputs
    from xl_fide.rules.editions import TimeControl
    rating = args.rating
    K = args.k
    if rating is None:
        if all(ev.Ro is not None for ev in games.events):
            # the latest-starting event's Ro, as `xl-fide period` chooses (period_base)
            from xl_fide.event.resolve import period_base
            y, m = min((ev.end.year, ev.end.month) for ev in games.events)
            at = period_base([(ev.start, ev.Ro) for ev in games.events], _dt.date(y, m, 1))
            assert at is not None
            latest = games.events[at]
            rating = latest.Ro
            if K is None and latest.K is not None:
                K = latest.K
        elif required:
            raise _error("give --rating R (your rating on the list before the period) or "
                          "--rating unrated")
    Ro = None if rating in (None, "unrated") else rating
    tc = TimeControl.parse(args.time_control) if args.time_control else None
    return PlayerInputs(Ro, K, args.birth_year, args.career_games, args.peak, tc)


# ----------------------------------------------------------------------------- output

def _points(h: int | None) -> float | None:
    return None if h is None else h / 100


def _result_word(half: int) -> str:
    return {2: "1", 1: "½", 0: "0"}[half]


def to_dict(p: Any) -> dict[str, Any]:
    """The JSON object (the contract): ``new_rating`` (int or null) and ``events`` (each
    with ``event`` and ``change``, K×ΣΔR in points), and the rest of the calculation."""
    events = []
    for ev in p.events:
        games = []
        for g in ev.games:
            c, row = g.calc, g.row
            rated = c is not None and c.rated          # g.rated
            game = {"line": row.line, "date": row.date.isoformat() if row.date else None,
                    "opponent": row.opponent, "opponent_rating": row.R_opp,
                    "result": row.result_text, "rated": rated,
                    "D": c.D if rated else None, "PD": c.PD / 100 if rated else None,
                    "delta_R": c.delta_R / 100 if rated else None, "note": g.note or None}
            first = _round_keys(row)
            games.append({**first, **game} if first else game)
        events.append({
            "event": ev.name, "change": _points(ev.change), "event_start": ev.start.isoformat(),
            "event_end": ev.end.isoformat(), "rules": ev.edition_id, "Ro": ev.Ro,
            "K": ev.K_given, "K_used": ev.K, "N": ev.N, "W": ev.W_half / 2,
            "sum_delta_R": _points(ev.sum_delta_R), "games": games})
    out: dict[str, Any] = {
        "new_rating": p.new_rating, "events": events, "Ro": p.Ro, "K": p.K_given,
        "K_source": p.K_source or None, "K_used": p.K, "N": p.N,
        "change": _points(p.change), "rating_change": p.rating_change,
        "computed_rating": p.computed_rating, "published": p.published,
        "publication": p.publication or None, "time_control": p.time_control.value,
        "rules": p.edition_id, "notes": list(p.notes)}
    if p.initial is not None:
        i = p.initial
        out["initial"] = {"Ru": i.Ru, "value": i.value, "N": i.N, "W": i.W_half / 2,
                          "Ra": float(round(i.Ra, 2)) if i.Ra is not None else None,
                          "p": _points(i.p), "dp": i.dp, "rule": i.rule, "reason": i.reason or None}
    return out


def _round_keys(row: Any) -> dict[str, Any]:
    """A TRF round cell (``xl-fide report --player``, :class:`~xl_fide.event.card.RoundGame`):
    its round and the opponent's start rank; a CSV game has neither."""
    rnd = getattr(row, "round", None)
    return {"round": rnd, "opponent_no": row.opponent_no} if rnd else {}


def _game_text(row: Any) -> str:
    """A game as the card lists it: [round N: No] opponent (rating) result."""
    R = row.R_opp if row.R_opp is not None else "unrated"
    rnd = getattr(row, "round", None)
    if not rnd:
        return f"{row.opponent or '?'} ({R}) {row.result_text}"
    if row.opponent_no is None:
        return f"round {rnd}: no opponent, {row.result_text}"
    return f"round {rnd}: {row.opponent_no} {row.opponent or '?'} ({R}) {row.result_text}"


def to_table(p: Any) -> str:
    from xl_fide.rules.rounding import hundredths_to_str, signed, signed_hundredths
    h = hundredths_to_str
    lines = []
    if p.Ro is not None:
        capped = f" (capped from {p.K_given}: K × n ≤ 700)" if p.K != p.K_given else ""
        src = " by rule (§8.3.3)" if p.K_source == "rule" else ""
        lines.append(f"Ro {p.Ro}, K {p.K}{src}{capped}, {p.N} rated games, "
                     f"{p.time_control.value}, rules {p.edition_id}")
    else:
        lines.append(f"unrated: initial rating over {p.N} games against rated opponents "
                     f"(FIDE B.02 §8.2), {p.time_control.value}")
    shown: dict[int, str] = {}        # hundredths -> text, each value formatted once
    for ev in p.events:
        head = f"{ev.name} ({ev.start.isoformat()} - {ev.end.isoformat()}, {ev.edition_id})"
        if ev.Ro is not None:
            head += f": Ro {ev.Ro}, K {ev.K}"
        lines.append(head)
        for g in ev.games:
            text = "  " + _game_text(g.row)
            c = g.calc
            if c is not None and c.rated:
                PD, dR = shown.get(c.PD), shown.get(c.delta_R)
                if PD is None:
                    PD = shown[c.PD] = h(c.PD)
                if dR is None:
                    dR = shown[c.delta_R] = h(c.delta_R)
                text += f": D {c.D:+d}, PD {PD}, ΔR {dR}" if c.D else f": D 0, PD {PD}, ΔR {dR}"
            elif g.note:
                text += f": {g.note}"
            lines.append(text)
        if ev.change is not None and ev.sum_delta_R is not None:
            lines.append(f"  ΣΔR {h(ev.sum_delta_R)} × K {ev.K} = {h(ev.change)}")
    i = p.initial
    if p.change is not None:        # the period's one rounding (§8.3.4)
        last = (f"total K×ΣΔR {signed_hundredths(p.change)} -> {signed(p.rating_change)} "
                f"(rounded once, §8.3.4): new rating {p.computed_rating}"
                + (f" ({p.publication})" if p.publication else ""))
    elif i is not None and i.Ru is not None:     # an unrated player's first rating (§8.2)
        last = f"initial rating {i.Ru}" + (f" ({i.reason})" if i.reason else "")
    else:
        last = p.publication or "no initial rating"
    lines.append(last)
    lines.extend(f"note: {n}" for n in p.notes)
    return "\n".join(lines) + "\n"


def to_csv(p: Any) -> str:
    """The period as CSV, the fields of :func:`to_dict` (one truth: the same names and
    values as the JSON): one line per event (its fields but ``games``), then a line with
    ``event`` ``period`` (the period's fields but the lists and objects: ``notes``,
    ``initial``). Columns: the events' fields in the JSON's order, then the period's
    others; a field a line does not have is blank. Points in hundredths as two decimals
    (``change``, ``sum_delta_R``), ``W`` as 2.5, ``published`` ``yes``/``no``."""
    import csv
    import io
    doc = to_dict(p)
    rows = [{k: v for k, v in ev.items() if k != "games"} for ev in doc["events"]]
    rows.append({"event": "period", **{k: v for k, v in doc.items()
                                       if k != "event" and type(v) not in (list, dict)}})
    columns = list(dict.fromkeys(k for row in rows for k in row))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columns)
    for row in rows:
        w.writerow([_csv_cell(k, row.get(k)) for k in columns])
    return out.getvalue()


def _csv_cell(key: str, value: Any) -> str:
    """A field of :func:`to_dict` as :func:`to_csv` writes it."""
    if value is None:
        return ""
    if type(value) is bool:
        return "yes" if value else "no"
    if type(value) is float:
        if key == "W":                          # half points: 10, 2.5
            return f"{value:g}"
        # a number of points to_dict made of integer hundredths (h / 100): its shortest
        # repr is those hundredths exactly, written with two decimals (no rounding)
        return format(Decimal(repr(value)).quantize(_CENTS), "f")
    if type(value) is str:
        return _safe(value)
    return str(value)


_CENTS = Decimal("0.01")


def _safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula."""
    return "'" + text if text.startswith(("=", "+", "-", "@")) else text


def format_rate(p: Any, fmt: str) -> str:
    if fmt == "json":
        from xl_fide.cli._presenters import json_text   # (not at --help)
        return json_text(to_dict(p)) + "\n"
    return {"table": to_table, "csv": to_csv}[fmt](p)


# ---------------------------------------------------------------------------- commands

def cmd_rate(args: argparse.Namespace, keep: Any = None) -> int:
    """``xl-fide rate``; ``keep`` (if given) is handed what was built (the games, the
    period, the text), kept until the process ends."""
    from xl_fide.event.player_period import rate_player
    m = _cli()
    fmt = m._report_format(args)
    if _is_workbook(getattr(args, "file", None)):
        return _rate_player_sheet(args, fmt)
    games = load_games(args)
    if games.ignored and not args.quiet:
        m._say(f"warning: {games.source}: column(s) ignored: {', '.join(games.ignored)}",
               err=True)
    period = rate_player(games, player_inputs(args, games, required=True))
    text = format_rate(period, fmt)
    if args.output:
        inputs = [Path(f) for f in (args.file, args.games_csv) if f]
        m.write_text_atomic(Path(args.output), text, force=args.force, inputs=inputs)
        m._say(f"wrote {args.output}")
    else:
        m._write_out(text)
    if keep is not None:
        keep(games, period, text)
    return m.EXIT_OK


def player_only(args: argparse.Namespace) -> bool:
    """True when an option of the player sheet was given (to a cross-table template)."""
    return any(getattr(args, n, None) is not None for n in (
        "games_csv", "rating", "k", "birth_year", "career_games", "peak", "time_control",
        "date_order"))


def cmd_player_template(args: argparse.Namespace) -> int:
    """``xl-fide template --layout player [--games GAMES.csv] -o FILE``."""
    from xl_fide.excel import save_workbook
    from xl_fide.excel._player import build_player_sheet
    m = _cli()
    out = Path(args.output)
    inputs = [Path(args.games_csv)] if args.games_csv else []
    m._check_output(out, inputs, args.force)
    if out.suffix.lower() not in (".xlsx", ".xlsm"):
        raise m.CliError(f"{out}: the output must be an .xlsx file")
    games = player = None
    if args.games_csv:
        games = load_games(args)
        player = player_inputs(args, games, required=False)
        from xl_fide.event.player_period import rate_player
        rate_player(games, player)       # a bad rating or K is refused before writing
    else:
        from xl_fide.event.player_period import PlayerInputs
        from xl_fide.rules.editions import TimeControl
        Ro = None if args.rating in (None, "unrated") else args.rating
        tc = TimeControl.parse(args.time_control) if args.time_control else None
        player = PlayerInputs(Ro, args.k, args.birth_year, args.career_games, args.peak, tc)
    wb = build_player_sheet(formulas=args.formulas, games=games, player=player)
    try:
        save_workbook(wb, out, force=args.force)
    except FileExistsError:
        raise m.CliError(f"{out} exists: not overwritten (use --force)") from None
    n = sum(len(ev.games) for ev in games.events) if games else 0
    m._say(f"wrote {out} (player sheet, {args.formulas} formulas, {n} games)")
    return m.EXIT_OK


def _is_workbook(file: str | None) -> bool:
    return bool(file) and Path(str(file)).suffix.lower() in (".xlsx", ".xlsm")


def _rate_player_sheet(args: argparse.Namespace, fmt: str) -> int:
    """``xl-fide rate BOOK.xlsx``: a player sheet's typed cells (read as the sheet reads
    them, or refused naming the cell the sheet names), rated as ``rate`` rates a CSV."""
    from xl_fide.event.player_period import rate_player
    from xl_fide.excel._player_read import read_player_sheet
    m = _cli()
    names = {"rating": "--rating", "k": "--k", "birth_year": "--birth-year",
             "career_games": "the rated games so far", "peak": "--peak",
             "time_control": "--time-control", "game": "--game", "games_csv": "a games CSV"}
    # a workbook that is no player sheet is named as such first (save the games as CSV)
    games, player = read_player_sheet(m._existing_file(Path(args.file)))
    given = [flag for n, flag in names.items() if getattr(args, n, None) not in (None, [])]
    if given:
        raise _error(f"{args.file}: the player sheet holds the player's inputs and games; "
                     f"give no {', '.join(given)}")
    if not games.events:
        raise _error(f"{args.file}: the player sheet has no events")
    text = format_rate(rate_player(games, player), fmt)
    if args.output:
        m.write_text_atomic(Path(args.output), text, force=args.force,
                            inputs=[Path(args.file)])
        m._say(f"wrote {args.output}")
    else:
        m._write_out(text)
    return m.EXIT_OK


def format_player(report: Report, start_rank: int, fmt: str = "table") -> str:
    """One player's games and calculation (``xl-fide report FILE --player N``), ``fmt``
    ``table`` or ``json``: per rating period (each month of an event over 30 days) the
    card ``xl-fide rate`` prints (:func:`to_table` / :func:`to_dict`, of
    :func:`xl_fide.event.card.player_periods`): round, opponent (No, name), rating,
    result, D, PD, ΔR or why the game is not rated; ΣΔR, K, K×ΣΔR, the rounding
    (FIDE B.02 §8.3.4) and the new rating. Over 30 days the JSON has ``months`` (each
    with its ``month``) and the result: ``new_rating``, ``rating_change``."""
    from xl_fide.event.card import player_periods
    from xl_fide.rules.rounding import signed
    periods = player_periods(report, start_rank)
    row = next(r for r in report.rows if r.result.start_rank == start_rank)
    res = row.result
    if fmt == "json":
        doc: dict[str, Any] = {"start_rank": res.start_rank, "name": res.name,
                               "fide_id": row.fide_id, "event": report.event_name}
        if report.months:
            initial = res.initial.Ru if res.initial is not None else None
            # as for one period (``rate``'s card): the new rating the next list shows (an
            # unrated player's initial rating over the months; null where not published)
            # and the one computed
            computed = row.new_rating if res.calc is not None else initial
            doc.update({"new_rating": computed if res.published else None,
                        "computed_rating": computed,
                        "rating_change": row.rating_change,
                        "published": res.published,
                        "initial_rating": initial,
                        "months": [{"month": m.strftime("%Y-%m") if m else None,
                                    **to_dict(p)} for m, p in periods]})
        else:
            doc.update(to_dict(periods[0][1]))
        from xl_fide.cli._presenters import json_text   # (not at --help)
        return json_text(doc) + "\n"
    head = f"Player {res.start_rank}: {res.name}" + (
        f" (FIDE id {row.fide_id})" if row.fide_id else "")
    lines = [head + f", {report.event_name or '(unnamed event)'}"]
    for month, p in periods:
        if month is not None:
            lines.append(f"Month {month:%Y-%m}, its own rating period (FIDE B.02 §8.3):")
        lines.append(to_table(p))
    if report.months:
        if res.calc is not None:
            steps = " ".join(signed(p.rating_change) for _, p in periods
                             if p.rating_change is not None)
            lines.append(f"Month by month: {steps} = {signed(res.rating_change or 0)}, each rounded in "
                         f"its month (FIDE B.02 §8.3.4): new rating {res.new_rating}"
                         + (f" ({res.publication})" if res.publication else ""))
        elif res.initial is not None:
            lines.append("Over the months: initial rating "
                         + (str(res.initial.Ru) if res.initial.Ru is not None else
                            f"not published ({res.initial.reason})")
                         + " over the games against rated opponents (FIDE B.02 §8.2)")
    return "\n".join(lines) + "\n"
