"""The ``xl-fide`` command: a thin argparse layer over the library.

Every command prints one clear line and returns a non-zero code on bad input
(2 for input and usage errors, 3 for an unexpected internal error), never a
traceback; output into a pipe closed early (``| head``) ends quietly with 141
(128 + SIGPIPE, as shell tools). Output files are written to a temporary file and renamed, never over an
existing file without ``--force``, never over an input file.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

from xl_fide._version import __version__
from xl_fide.cli._common import (
    EXIT_OK,
    EXIT_INPUT,
    EXIT_INTERNAL,
    CliError,
    _Parser,
    _existing_file,
    _check_output,
    write_text_atomic,
    _say,
    _write_out,
    _check_output_name,
    _report_format,
    _positive_k,
    _whole_number,
    _event_date,
)
from xl_fide.errors import XlFideError

# Start-up: building the parser (and ``--help``) imports argparse and nothing of the
# engine, the list store, typing or importlib.resources; each command imports what it
# uses when it runs.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as _dt
    from typing import Any, Sequence

    from xl_fide.rules.editions import EventOptions, EventRules

def _example_path() -> Path:
    from importlib import resources
    return Path(str(resources.files("xl_fide") / "data" / "example.trf"))


def _input_path(args: argparse.Namespace) -> Path:
    if getattr(args, "example", False):
        if getattr(args, "file", None):
            raise CliError("give a FILE or --example, not both")
        return _example_path()
    if not getattr(args, "file", None):
        raise CliError("no input: give a FILE (.trf or .xlsx) or --example")
    return _existing_file(Path(args.file))


def _is_workbook(path: Path) -> bool:
    return path.suffix.lower() in (".xlsx", ".xlsm")


def _check_kind(path: Path) -> None:
    from xl_fide._filekind import wrong_kind
    problem = wrong_kind(path, "workbook" if _is_workbook(path) else "trf")
    if problem:
        raise CliError(f"{path}: {problem}")


def _load_tournament(path: Path, strict: bool = False, encoding: str | None = None,
                     data: bytes | None = None):
    """The tournament of a TRF or a workbook; ``data``: the file's bytes when already
    read (a TRF is then not read again)."""
    if data is None or _is_workbook(path):
        _check_kind(path)
    else:
        from xl_fide._filekind import wrong_kind_of_bytes
        problem = wrong_kind_of_bytes(data, "trf")
        if problem:
            raise CliError(f"{path}: {problem}")
    if _is_workbook(path):
        from xl_fide.excel import read_workbook
        return read_workbook(path, strict=strict)
    from xl_fide.trf import MAX_FILE_BYTES, parse_trf, read_trf
    if data is None:
        return read_trf(path, strict=strict, encoding=encoding)
    # as read_trf reads it: at most one byte over the limit, the path as the source
    return parse_trf(data[:MAX_FILE_BYTES + 1], source=os.fsdecode(path), strict=strict,
                     encoding=encoding)


class _Event:
    """One event on its way through a command: the tournament, its resolved rules, the
    player data looked up for them, and a workbook's typed K/Games/Peak by start rank."""

    __slots__ = ("tournament", "rules", "players", "inputs", "rules_date")

    def __init__(self, tournament: Any, rules: EventRules, players: Any, inputs: Any,
                 rules_date: _dt.date | None = None) -> None:
        self.tournament = tournament
        self.rules = rules
        self.players = players
        self.inputs = inputs
        self.rules_date = rules_date        # a workbook's "Rules as on", None if blank


def _options(args: argparse.Namespace, rules_date: _dt.date | None = None,
             time_control: str | None = None) -> EventOptions:
    """The command line's event options; a workbook's "Rules as on" date and time
    control fill in what the command line does not give."""
    import datetime as _dt
    from xl_fide.rules.editions import EventOptions, TimeControl
    tc = getattr(args, "time_control", None) or time_control
    return EventOptions(event_date=getattr(args, "event_date", None) or rules_date,
                        time_control=TimeControl.parse(tc) if isinstance(tc, str) else tc,
                        k=getattr(args, "k", None), today=_dt.date.today())


def _load_event(path: Path, args: argparse.Namespace) -> _Event:
    """Load, resolve, look up: the tournament (a TRF, or a workbook with its Event sheet
    and K inputs), its rules resolved once (the command line taking precedence over
    the workbook), and the player data for those rules."""
    from xl_fide.event.resolve import event_rules
    inputs = rules_date = None
    if _is_workbook(path):
        from xl_fide.excel import read_workbook_event
        _check_kind(path)
        book = read_workbook_event(path, strict=args.strict)
        t, inputs, rules_date = book.tournament, book.player_inputs, book.rules_date
        options = _options(args, book.rules_date, book.time_control)
    else:
        t = _load_tournament(path, args.strict, getattr(args, "encoding", None))
        options = _options(args)
    rules = event_rules(t, options)
    return _Event(t, rules, _players(args, [t], [rules]), inputs, rules_date)


def _players(args: argparse.Namespace, tournaments: Sequence[Any],
             rules: Sequence[EventRules], period: bool = False) -> Any:
    """The player data of ``--lists`` or ``--player-data`` for the resolved events
    (``period``: for ``xl-fide period``, whose notes say the list's rating is its Ro)."""
    if getattr(args, "lists", False):
        if getattr(args, "player_data", None):
            raise CliError("give --player-data FILE or --lists, not both")
        from xl_fide.lists import event_list_data
        data = event_list_data(tournaments, rules, period=period)
    elif not getattr(args, "player_data", None):
        return None
    else:
        from xl_fide.lists import event_player_data
        data = event_player_data(_existing_file(Path(args.player_data)), tournaments, rules,
                                 period=period)
    if not getattr(args, "quiet", False):
        for note in data.notes:
            _say(f"warning: {note}", err=True)
    return data


def _save_book(wb: Any, path: Path, force: bool) -> None:
    from xl_fide.excel import save_workbook
    try:
        save_workbook(wb, path, force=force)
    except FileExistsError:
        raise CliError(f"{path} exists: not overwritten (use --force)") from None


def _print_warnings(t, quiet: bool) -> None:
    if quiet:
        return
    for w in getattr(t, "warnings", ()):
        _say(f"warning: {w}", err=True)


class _RatingPhase:
    """The CLI's rating phase (read, rate, format) with Python's cyclic garbage collector
    paused. The phase builds hundreds of thousands of small acyclic objects (games,
    calculation lines, a workbook's cells and styles) that reference counting frees;
    the collector would only walk them again and again: 20-30 % of ``report`` and
    ``period`` on large events, and growing faster than the work, about 0.6 s of
    ``crosstable`` at 2,000 players (issue 23, measured in benchmarks/user_paths.py and
    user_paths_excel.py). A decision of the command line only: the library never
    changes the collector."""

    def __enter__(self) -> None:
        import gc
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        import gc
        if self.was_enabled:
            gc.enable()


def cmd_report(args: argparse.Namespace) -> int:
    with _RatingPhase():
        return _report(args)


def cmd_rate(args: argparse.Namespace) -> int:
    """``xl-fide rate`` (:func:`xl_fide.cli._rate.cmd_rate`) in the rating phase, what it
    built kept to the end as ``report`` keeps its own."""
    from xl_fide.cli import _rate
    with _RatingPhase():
        return _rate.cmd_rate(args, keep=_keep_to_exit)


def _report(args: argparse.Namespace) -> int:
    from xl_fide.cli._presenters import format_report
    from xl_fide.event.report import build_report
    fmt = _report_format(args)
    path = _input_path(args)
    event = _load_event(path, args)
    _print_warnings(event.tournament, args.quiet)
    rank = None
    if args.player is not None:
        if fmt == "csv":
            raise CliError("--player: the card is a table or JSON (--format table or json)")
        from xl_fide.event.card import find_player
        rank = find_player(event.tournament, args.player).start_rank
    report = build_report(event.tournament, event.rules, players=event.players,
                          inputs=event.inputs)
    if rank is not None:
        from xl_fide.cli._rate import format_player
        text = format_player(report, rank, fmt)
    elif fmt == "table" and not args.output:
        # the table's lines written a piece at a time (no copy of the whole text)
        from xl_fide.cli._presenters import to_table_lines
        lines = to_table_lines(report)
        _write_lines(lines)
        _keep_to_exit(event, report, lines)
        return EXIT_OK
    elif fmt == "json" and not args.output:
        # the JSON written in parts, each player's object let go once written (its
        # pieces held until then: the document, nothing of it written, if anything fails)
        from xl_fide.cli._presenters import to_json_parts
        texts = list(to_json_parts(report))
        _write_pieces(texts)
        _keep_to_exit(event, report, texts)
        return EXIT_OK
    else:
        text = format_report(report, fmt)
    if args.output:
        write_text_atomic(Path(args.output), text, force=args.force, inputs=[path])
        _say(f"wrote {args.output}")
    else:
        _write_out(text)
    _keep_to_exit(event, report, text)
    return EXIT_OK


def cmd_crosstable(args: argparse.Namespace) -> int:
    with _RatingPhase():
        return _crosstable(args)


def _crosstable(args: argparse.Namespace) -> int:
    from xl_fide.event.report import build_report
    from xl_fide.excel import MAX_PLAYERS, fill_workbook
    path = _input_path(args)
    out = Path(args.output)
    _check_output_name(out, "workbook")
    _check_output(out, [path], args.force)
    if not _is_workbook(path):        # the size limit first, before parsing and rating
        from xl_fide.trf import count_player_lines
        players = count_player_lines(path)
        if players > MAX_PLAYERS:
            raise CliError(f"{path}: {players} players: a cross-table workbook holds at most "
                           f"{MAX_PLAYERS}")
    event = _load_event(path, args)
    t = event.tournament
    _print_warnings(t, args.quiet)
    report = build_report(t, event.rules, players=event.players, inputs=event.inputs)
    wb = fill_workbook(report, layout=args.layout, formulas=args.formulas, order=args.order,
                       planned=True)       # saved by save_workbook below (issue 32's memory)
    _save_book(wb, out, args.force)
    _keep_to_exit(event, report, wb)
    _say(f"wrote {out} ({len(t.players)} players, {t.rounds} rounds, rules {report.edition.id})")
    if args.formulas == "udf":          # even under -q: without it a UDF book shows #NAME?
        _say("its FIDE_* formulas compute in Excel with xl-fide's functions; without Excel: "
             "LibreOffice Calc with the extension of `xl-fide libreoffice` (then Ctrl+Shift+F9), "
             "or write the workbook with --formulas native")
    return EXIT_OK


#: where a filled template takes each TRF report field (the Event sheet has no 092)
_EVENT_SHEET_FIELD = {"022": "Place", "052": "End date"}


def _where_to_fill(empty: Sequence[str], workbook: bool) -> str:
    """The hint after an empty-field warning: for a workbook, the Event sheet field of
    each empty line, and the TRF for a line the sheet has no field for."""
    if not workbook:
        return "fill them in the TRF"
    on_sheet = [f"{_EVENT_SHEET_FIELD[f[:3]]!r} for {f[:3]}" for f in empty
                if f[:3] in _EVENT_SHEET_FIELD]
    in_trf = [f[:3] for f in empty if f[:3] not in _EVENT_SHEET_FIELD]
    parts = ([f"fill {', '.join(on_sheet)} on the Event sheet"] if on_sheet else []) + (
        [f"the Event sheet has no field for {', '.join(in_trf)}: write it into the TRF"]
        if in_trf else [])
    return "; ".join(parts)


def cmd_trf(args: argparse.Namespace) -> int:
    from xl_fide.trf import empty_report_fields, encode_trf
    _check_output_name(Path(args.output), "trf")
    path = _input_path(args)
    event = _load_event(path, args)
    t = event.tournament
    _print_warnings(t, args.quiet)
    inputs = event.inputs or {}
    kept_out = sorted(n for n, d in inputs.items()
                      if d.k or d.career_games is not None or d.peak_rating is not None)
    if kept_out and not args.quiet:
        print(f"warning: K set, Games and Peak of {len(kept_out)} player(s) are not part of a "
              "TRF16 file; the rating officer takes K from the FIDE list", file=sys.stderr)
    if event.rules_date is not None and not args.quiet:
        day = event.rules_date.isoformat()
        _say(f"warning: {path}: the Event sheet's \"Rules as on\" {day} has no field in a "
             f"TRF; rate the TRF with --event-date {day} to get the book's numbers", err=True)
    # in the encoding the TRF was read in, with its line ending, so nothing read is lost
    # (a workbook's: that of the TRF it was made from; a text's, as decoded: UTF-16's too)
    newline = t.newline
    if event.inputs is not None:
        _check_trf_widths(path, t)
    data = encode_trf(t, newline=newline, encoding=args.encoding)
    # what the TRF written lacks (not what the input lacked: a TRF in without a 022 line
    # gives one without it, not a blank one)
    blank, missing = empty_report_fields(data.decode(args.encoding or t.encoding, "replace"))
    if blank or missing:
        what = ([f"{', '.join(blank)} empty: the TRF has blank lines there"] if blank else []) + (
            [f"no {', '.join(missing)} line in the TRF"] if missing else [])
        message = (f"{path}: {'; '.join(what)} "
                   f"({_where_to_fill(blank + missing, event.inputs is not None)})")
        if args.strict:
            raise CliError(message + " (--strict)")
        if not args.quiet:
            _say(f"warning: {message}", err=True)
    out = Path(args.output)
    write_text_atomic(out, data, force=args.force, inputs=[path])
    _say(f"wrote {out} ({len(t.players)} players, {t.rounds} rounds)")
    return EXIT_OK


#: The text fields of a workbook's players that a 001 line holds in fixed columns (TRF16):
#: the players' column, the field's name and its width
_TRF_WIDTHS = (("title", "title", 3), ("name", "name", 33), ("fed", "federation", 3))


def _check_trf_widths(path: Path, t: Any) -> None:
    """A workbook's player text too wide for its TRF16 field, refused at its cell
    (``Crosstable!C7``) before the TRF is written (the writer knows only the player)."""
    from xl_fide.excel import player_cell
    for p in t.players:
        for key, attr, width in _TRF_WIDTHS:
            text = getattr(p, attr) or ""
            if len(text) > width:
                raise CliError(f"{path}: {player_cell(p.start_rank, key)}: player "
                               f"{p.start_rank}'s {attr} must fit in {width} columns of a "
                               f"TRF16 001 line, got {text!r} ({len(text)})")


def cmd_template(args: argparse.Namespace) -> int:
    from xl_fide.excel import build_template
    from xl_fide.cli import _rate
    if args.layout == "player":
        return _rate.cmd_player_template(args)
    if args.players is None or _rate.player_only(args):
        raise CliError("--players is needed for a cross-table (--games, --rating, --k, "
                       "--birth-year, --games-so-far, --peak only with --layout player)")
    out = Path(args.output)
    _check_output_name(out, "workbook")
    _check_output(out, [], args.force)
    if args.players < 2 or args.players > 2000:
        raise CliError(f"--players must be 2 to 2000, got {args.players}")
    if args.rounds is not None and not 1 <= args.rounds <= 99:
        raise CliError(f"--rounds must be 1 to 99, got {args.rounds}")
    if args.layout == "roundrobin" and args.rounds not in (None, args.players - 1):
        raise CliError(f"--rounds: a round robin of {args.players} players has "
                       f"{args.players - 1} rounds, got {args.rounds}")
    rounds = args.rounds if args.rounds is not None else (
        args.players - 1 if args.layout == "roundrobin" else 9)
    wb = build_template(args.layout, args.players, rounds, formulas=args.formulas,
                        planned=True)
    _save_book(wb, out, args.force)
    _say(f"wrote {out} ({args.layout}, {args.players} players, {rounds} rounds)")
    return EXIT_OK


def cmd_period(args: argparse.Namespace) -> int:
    with _RatingPhase():
        return _period(args)


def _period(args: argparse.Namespace) -> int:
    from xl_fide.errors import PeriodSpanError, PeriodTimeControlError
    from xl_fide.event.period import PeriodBuilder
    from xl_fide.cli._presenters import PERIOD_PARTS
    fmt = _report_format(args)          # --format / -o as `report` takes them
    if args.output:     # before the work: an input or an existing file is refused at once
        _check_output(Path(args.output), [Path(name) for name in args.files], args.force)
    options = _options(args)
    # each file read, added to the period and dropped (PeriodBuilder: the period keeps
    # what its output needs of each event, not the tournaments)
    builder = PeriodBuilder(options, span=args.span)
    seen = _SeenFiles()
    for name in args.files:
        p = _regular_file(Path(name))
        with open(p, "rb", buffering=0) as fh:      # p.read_bytes() without its buffer
            data = fh.read()
        seen.check(p, data)
        t = _load_tournament(p, args.strict, args.encoding, data)
        del data
        _print_warnings(t, args.quiet)
        builder.add(t)
        del t
    try:
        events = builder.events
        # each event's rules, for the player data only (the builder resolved them)
        wanted = getattr(args, "lists", False) or getattr(args, "player_data", None)
        rules = [e.rules for e in events] if wanted else []
        if getattr(args, "lists", False):
            rules = _list_before_period(events, rules)
        directory = _players(args, events, rules, period=True) if wanted else None
        del events
        # each player rated, written into its text and dropped (PeriodParts): the text
        # is held, not the period's results; every player rated before any output
        parts = builder.parts(directory)
        texts = list(PERIOD_PARTS[fmt](parts.events, parts.players, parts.notes))
    except PeriodSpanError as exc:
        raise CliError(f"{exc}: give --span to pool them") from None
    except PeriodTimeControlError as exc:
        raise CliError(f"{exc} (--time-control)") from None
    if args.output:
        write_text_atomic(Path(args.output), "".join(texts), force=args.force,
                          inputs=[Path(name) for name in args.files])
        _say(f"wrote {args.output}")
    else:
        _write_pieces(texts)
    _keep_to_exit(texts)        # (empty once written) the process then ends at once
    return EXIT_OK


def _write_pieces(texts: list[str], size: int = 1 << 16, sep: str = "") -> None:
    """Write ``texts`` to the screen as :func:`_write_out` writes their join (``sep``
    after each text when given), about ``size`` characters at a time, each text let go
    once written (``texts`` is emptied): no copy of a period's whole output is made
    while it is written."""
    texts.reverse()
    while texts:
        piece: list[str] = []
        length = 0
        while texts and length < size:
            piece.append(texts.pop())
            length += len(piece[-1])
        if sep:
            piece.append("")
        _write_out(sep.join(piece))


def _write_lines(lines: list[str], size: int = 1 << 16) -> None:
    """Write ``"\n".join(lines) + "\n"`` as :func:`_write_pieces` writes pieces."""
    _write_pieces(lines, size, "\n")


class _SeenFiles:
    """The period's files by the hash of their bytes (not the bytes: a period reads a
    thousand files): the same bytes twice are refused (:meth:`check`), compared in
    full with the earlier file's (read again) before it is named."""

    def __init__(self) -> None:
        self.paths: dict[int, list[Path]] = {}

    def check(self, path: Path, data: bytes) -> None:
        earlier = self.paths.setdefault(hash(data), [])
        for first in earlier:
            if first.read_bytes() == data:
                raise CliError(f"{path}: the same event as {first} (given twice)")
        earlier.append(path)


def _list_before_period(tournaments: Sequence[Any], rules: Sequence[EventRules]
                        ) -> list[EventRules]:
    """The events' rules for ``period --lists``: each dated as the first day of the
    period's month (the first month when months are pooled; a given ``--event-date``'s
    month), so that each player's rating is from the list before the period, the one the
    period's change is added to (FIDE B.02 §8.3), not from the list of an event that
    started the month before (whose games keep the file's ratings)."""
    import dataclasses
    import datetime as _dt
    from xl_fide.event.period import rating_month
    given = [d for d in (r.options.event_date for r in rules) if d is not None]
    months = [(d.year, d.month) for d in given] or [
        m for m in map(rating_month, tournaments) if m is not None]
    if not months:
        return list(rules)
    first = _dt.date(*min(months), 1)
    return [dataclasses.replace(r, date=first) if r.date is not None else r for r in rules]


def _regular_file(path: Path) -> Path:
    """:func:`_existing_file` of ``path``: a regular file passes with one ``stat``
    (a period reads a thousand files); anything else is worded there."""
    import stat
    try:
        if stat.S_ISREG(os.stat(path).st_mode):
            return path
    except (OSError, ValueError):
        pass
    return _existing_file(path)


def _remaining(text: str) -> list[int | None]:
    from xl_fide.rules.values import as_rating
    out: list[int | None] = []
    for part in text.split(","):
        part = part.strip().lower()
        if part in ("unrated", "u", "0", ""):
            out.append(None)
            continue
        try:
            out.append(as_rating(part, "rating"))
        except XlFideError as e:
            raise CliError(f"--remaining: {e} (use e.g. 2400,2450,unrated)") from None
    return out


def cmd_whatif(args: argparse.Namespace) -> int:
    from xl_fide.event.report import build_report, rows_by_rank
    from xl_fide.rules.whatif import needed_for_change, needed_for_norm
    path = _input_path(args)
    event = _load_event(path, args)
    t = event.tournament
    report = build_report(t, event.rules, players=event.players, inputs=event.inputs)
    # the event as one period (over 30 days: the comparison rows), as the what-if asks
    rows = rows_by_rank(report) if not report.comparison else {
        r.result.start_rank: r for r in report.comparison}
    if args.player not in rows:
        raise CliError(f"--player {args.player}: no player with that start rank")
    res = rows[args.player].result
    if not args.remaining.strip():
        raise CliError("--remaining: give the ratings of the opponents still to meet, "
                       "e.g. --remaining 2400,2450")
    remaining = _remaining(args.remaining)
    if (args.change is None) == (args.norm is None):
        raise CliError("give exactly one of --change N or --norm TITLE")
    if args.change is not None:
        if res.rating is None or res.calc is None or res.K_given is None:
            raise CliError(f"player {args.player} is unrated: no rating change to aim for")
        rated_remaining = [r for r in remaining if r is not None]
        if len(rated_remaining) < len(remaining):
            raise CliError("games against unrated opponents are not rated: leave them out of --remaining")
        played = [(g.R_opp, g.score_half / 2) for g in res.calc.rated_games]
        need = needed_for_change(res.rating, played, rated_remaining, res.K_given, args.change,
                                 report.edition)
    else:
        from xl_fide.event.resolve import norm_games
        ratings = {r.result.start_rank: r.result.rating for r in report.rows}
        need = needed_for_norm(norm_games(t, args.player, ratings), remaining, args.norm)
    if need.points is None:
        _say(f"player {args.player}: not reachable: {need.detail}")
    else:
        _say(f"player {args.player}: needs {need.points:g} of {need.remaining_games}: {need.detail}")
    return EXIT_OK


def cmd_doctor(args: argparse.Namespace) -> int:
    from xl_fide.cli._doctor import doctor
    lines, ok = doctor()
    for line in lines:
        print(line)
    return EXIT_OK if ok else 1


def cmd_libreoffice(args: argparse.Namespace) -> int:
    from xl_fide.errors import ExtensionError
    from xl_fide.libreoffice import build_extension
    out = Path(args.output)
    if out.suffix.lower() != ".oxt":
        raise CliError(f"{out}: a LibreOffice extension's name ends in .oxt")
    _check_output(out, [], args.force)
    try:
        names = build_extension(out, force=args.force)
    except ExtensionError as e:
        raise CliError(str(e)) from None
    _say(f"wrote {out} ({len(names)} FIDE_* functions): install it with a double click, "
         f"Tools > Extension Manager, or `unopkg add {out}`")
    return EXIT_OK


def cmd_version(args: argparse.Namespace) -> int:
    print(f"xl-fide {__version__}")
    return EXIT_OK


def _month(text: str) -> str:
    import re
    if not re.fullmatch(r"\d{4}-(0[1-9]|1[0-2])", text):
        raise argparse.ArgumentTypeError(f"a month is written YYYY-MM, e.g. 2024-03, got {text!r}")
    return text


def cmd_lists(args: argparse.Namespace) -> int:
    """``xl-fide lists [import|show|download]``: the bodies are in :mod:`xl_fide.cli._lists`,
    imported here so that ``xl-fide --help`` does not load the store."""
    from xl_fide.cli._lists import cmd_lists as run
    return run(args)


def _lists_parser(sub) -> None:
    """``xl-fide lists [import|show|download]`` (bodies in :mod:`xl_fide.cli._lists`)."""
    ls = sub.add_parser("lists", help="the local store of monthly FIDE rating lists")
    ls.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no warnings")
    ls.set_defaults(func=cmd_lists, lists_command=None)
    lsub = ls.add_subparsers(dest="lists_command", parser_class=_Parser, metavar="ACTION")
    imp = lsub.add_parser("import", help="store a FIDE list file (TXT, XML, zip) as a month")
    imp.add_argument("list_file", metavar="FILE",
                     help="a FIDE list as downloaded: TXT, XML or the zip")
    imp.add_argument("--month", type=_month, help="YYYY-MM (default: from the file name or header)")
    imp.add_argument("--time-control", choices=["standard", "rapid", "blitz"],
                     help="for a one-rating list whose file name does not say it")
    imp.add_argument("--skipped", metavar="OUT",
                     help="write the lines that cannot be read here, one a line with "
                     "file:line, column and why (default: skipped-YYYY-MM-KIND.txt beside "
                     "the store, written only when a line is skipped)")
    show = lsub.add_parser("show", help="one player on every stored list")
    show.add_argument("fide_id", type=int, metavar="FIDE_ID", help="the player's FIDE id")
    dl = lsub.add_parser("download", help="fetch FIDE's list files over HTTPS and import them")
    dl.add_argument("--month", type=_month, help="YYYY-MM (default: this month)")
    dl.add_argument("--time-control", choices=["standard", "rapid", "blitz"], action="append",
                    help="repeatable (default: all three)")
    dl.add_argument("--base-url", help="where FIDE's files are (default: "
                    "https://ratings.fide.com/download/)")
    for p in (imp, show, dl):      # SUPPRESS: 'lists -q import' keeps the -q given before
        p.add_argument("--quiet", "-q", action="store_true", default=argparse.SUPPRESS,
                       help="no progress bar, no warnings")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="xl-fide", description="FIDE rating calculations for tournaments "
                "(FIDE B.02 Rating Regulations).")
    p.add_argument("--version", action="version", version=f"xl-fide {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    def common(sp: argparse.ArgumentParser, example: bool = True) -> None:
        if example:
            sp.add_argument("file", nargs="?", metavar="FILE", help="a .trf (TRF16/TRF-2026) or .xlsx cross-table")
            sp.add_argument("--example", action="store_true",
                            help="use the anonymised real tournament shipped with xl-fide")
        sp.add_argument("--strict", action="store_true", help="fail on any TRF irregularity")
        sp.add_argument("--quiet", "-q", action="store_true", help="do not print warnings")
        sp.add_argument("--encoding", help="the TRF's text encoding, e.g. cp1252 (default: "
                        "detected: UTF-8, Windows-1252, Latin-1)")

    def rating_opts(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--k", type=_positive_k, help="force K for every rated player")
        sp.add_argument("--event-date", type=_event_date,
                        help="rules and K as on this date (default: the file's start date)")
        sp.add_argument("--time-control", choices=["standard", "rapid", "blitz"],
                        help="default: read from the file, else standard")
        sp.add_argument("--player-data", metavar="FILE",
                        help="FIDE rating list (TXT/XML) or CSV with ratings, K, birth years")
        sp.add_argument("--lists", action="store_true",
                        help="ratings, K, birth years from the stored FIDE lists of the "
                        "event's dates (see 'xl-fide lists')")

    r = sub.add_parser("report", help="rating report: one line per player")
    common(r)
    rating_opts(r)
    _table_output_options(r)
    r.add_argument("--player", metavar="N", help="one player's games and calculation (D, "
                   "PD, ΔR, ΣΔR, K, the rounding, the new rating; per month over 30 days): "
                   "the start rank, a FIDE id or a name")
    r.set_defaults(func=cmd_report)

    c = sub.add_parser("crosstable", help="filled cross-table workbook with live FIDE_* formulas")
    common(c)
    rating_opts(c)
    c.add_argument("-o", "--output", required=True, help="the .xlsx to write")
    c.add_argument("--layout", choices=["roundrobin", "swiss"],
                   help="default: round robin if everyone met everyone, else Swiss")
    c.add_argument("--order", choices=["start", "rank"], default="start",
                   help="rows by start rank (default) or by final rank")
    c.add_argument("--force", action="store_true", help="overwrite OUTPUT if it exists")
    _formulas_option(c)
    c.set_defaults(func=cmd_crosstable)

    t = sub.add_parser("trf", help="write a TRF16 file from a .trf or an edited .xlsx")
    common(t)
    t.add_argument("-o", "--output", required=True, help="the .trf to write")
    t.add_argument("--force", action="store_true", help="overwrite OUTPUT if it exists")
    t.set_defaults(func=cmd_trf)

    m = sub.add_parser("template", help="write an empty cross-table template, or "
                       "the player sheet (--layout player)")
    m.add_argument("--layout", choices=["roundrobin", "swiss", "player"], required=True,
                   help="a round robin, a Swiss, or a player's own rating period")
    m.add_argument("--players", type=_whole_number,
                   help="cross-tables: the number of player rows (2 to 2000)")
    from xl_fide.cli import _rate
    _rate.games_options(m, "player: fill from this CSV")
    _rate.player_options(m)
    m.add_argument("--rounds", type=_whole_number, help="Swiss rounds (default 9; round robin: players - 1)")
    m.add_argument("-o", "--output", required=True, help="the .xlsx to write")
    m.add_argument("--force", action="store_true", help="overwrite OUTPUT if it exists")
    _formulas_option(m)
    m.set_defaults(func=cmd_template)

    pe = sub.add_parser("period", help="rating period over several TRF files, rounded once")
    pe.add_argument("files", nargs="+", metavar="FILE",
                    help="the events' TRF files (or cross-table workbooks)")
    pe.add_argument("--span", action="store_true",
                    help="pool events of different rating periods (months) on purpose")
    common(pe, example=False)
    rating_opts(pe)
    _table_output_options(pe)
    pe.set_defaults(func=cmd_period)

    w = sub.add_parser("whatif", help="score needed in the remaining games for a change or a norm")
    common(w)
    rating_opts(w)
    w.add_argument("--player", type=_whole_number, required=True, help="start rank of the player")
    w.add_argument("--remaining", default="",
                   help="ratings of the opponents still to meet, e.g. 2400,2450 "
                   "(with --norm also 'unrated')")
    w.add_argument("--change", type=_whole_number, help="rounded rating change to reach, e.g. 10 or -5")
    w.add_argument("--norm", choices=["GM", "IM", "WGM", "WIM"], help="title norm to reach")
    w.set_defaults(func=cmd_whatif)

    _rate.add_parser(sub, run=cmd_rate)
    _lists_parser(sub)
    lo = sub.add_parser("libreoffice", help="write the LibreOffice extension (.oxt) with "
                        "the FIDE_* functions for Calc")
    lo.add_argument("-o", "--output", default="xl-fide.oxt", help="default: xl-fide.oxt")
    lo.add_argument("--force", action="store_true", help="overwrite OUTPUT if it exists")
    lo.set_defaults(func=cmd_libreoffice)
    d = sub.add_parser("doctor", help="check the Python/xlwings set-up for Excel")
    d.set_defaults(func=cmd_doctor)
    v = sub.add_parser("version", help="print the version")
    v.set_defaults(func=cmd_version)
    return p


def _formulas_option(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--formulas", choices=["udf", "native"], default="udf",
                    help="udf (default): the FIDE_* functions, every rule edition; native: "
                         "only the spreadsheet's own functions, opens anywhere (Excel 2010+, "
                         "LibreOffice, Google Sheets) with nothing installed")


def _table_output_options(sp: argparse.ArgumentParser) -> None:
    """--format, -o and --force of the commands that print a table (report, period)."""
    sp.add_argument("--format", choices=["table", "csv", "json"],
                    help="default: from the -o name (.csv, .json, .txt), else table")
    sp.add_argument("-o", "--output", help="write to this file instead of the screen "
                    "(.csv, .json or .txt)")
    sp.add_argument("--force", action="store_true", help="overwrite --output if it exists")


def _one_line(error: object) -> str:
    return " ".join(str(error).split())


def _run(args: argparse.Namespace) -> int:
    """Run the command; the libraries' warnings (openpyxl's) become ``warning:`` lines
    after the output, none under ``--quiet``, none when the command fails."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code: int = args.func(args)
    if not getattr(args, "quiet", False):
        for text in dict.fromkeys(_one_line(w.message) for w in caught):   # once each
            _say(f"warning: {text}", err=True)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (without the program name); return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
        if not getattr(args, "command", None):
            parser.print_help()
            return EXIT_INPUT
        return _run(args)
    except SystemExit as e:          # --help / --version
        return int(e.code or 0) if isinstance(e.code, int) else EXIT_OK
    except BrokenPipeError:          # the reader closed the pipe (| head): not an error
        _silence_stdout()
        return EXIT_PIPE
    except (XlFideError, OSError, UnicodeError) as e:
        _say(f"xl-fide: error: {_one_line(e)}", err=True)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("xl-fide: interrupted", file=sys.stderr)
        return 130
    except Exception as e:           # never a traceback: one line, and a distinct code
        _say(f"xl-fide: internal error: {type(e).__name__}: {_one_line(e)} "
             "(please report this with the input file)", err=True)
        return EXIT_INTERNAL


#: The exit code after a closed pipe: 128 + SIGPIPE (13), as a shell tool killed by it
EXIT_PIPE = 141


def _silence_stdout() -> None:
    """After a closed pipe, send what is left of the standard output (its buffer, which
    Python flushes at exit) to the null device, so nothing more is said about it."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return                       # not a file (a caller's writer): nothing is flushed
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def main_entry() -> None:
    """Console-script entry point (and ``python -m xl_fide``). After a command that kept
    what it built (:func:`_keep_to_exit`: ``report``, ``period``, ``crosstable``) the
    process ends without freeing it."""
    global _KEPT
    _KEPT = []
    code = main()
    try:
        sys.stdout.flush()           # what the command left in the buffer, into the pipe
    except BrokenPipeError:
        _silence_stdout()
        code = EXIT_PIPE
    except (OSError, ValueError):
        pass                         # said at exit, as before
    if _KEPT:
        _exit_now(code)
    sys.exit(code)


# What a command built and no longer needs, kept until the process ends when it runs as
# the console script (main_entry sets _KEPT): the operating system takes a
# process's memory back at once, where freeing a period's or a large event's hundreds of
# thousands of objects one by one is 6-8 % of the command's CPU time (issue 23,
# benchmarks/user_paths.py). A library call of main() keeps nothing.
_KEPT: list[object] | None = None


def _keep_to_exit(*built: object) -> None:
    """Keep ``built`` (a command's events, report, text) until the process ends, when it
    ends after the command (:func:`main_entry`). The cyclic collector, back on after the
    rating phase, leaves them alone (:func:`gc.freeze`): walking them would cost what
    freeing them does."""
    if _KEPT is not None:
        import gc
        _KEPT.extend(built)
        gc.freeze()


def _exit_now(code: int) -> None:
    """End the process with ``code`` as :func:`sys.exit` would, without freeing its
    objects (as mypy ends its runs): the output flushed, the ``atexit`` functions run,
    then :func:`os._exit`. When the output cannot be flushed (a closed pipe), the usual
    :func:`sys.exit` ends it, with its usual words and code."""
    import atexit
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)
    atexit._run_exitfuncs()
    os._exit(code)
