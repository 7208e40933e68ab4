"""The rating report of a tournament: every player's FIDE calculation-page line.

Turns a :class:`~xl_fide.trf.Tournament` (or any cross-table built as
:class:`~xl_fide.event.Entrant` rows) into report rows, choosing the rule edition by
the event's start date and time control (FIDE B.02 §8.3: the list and rules in
force when the tournament started) and K by FIDE B.02 §8.3.3 from what is known.
Also formats the report as a table, CSV or JSON. Pure engine code: no I/O here.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Sequence

from .editions import RuleEdition, TimeControl, rules_for
from .event import Entrant, PlayerResult, effective_rating, rate_crosstable
from .rating import k_factor
from .results import GameResult
from .rounding import hundredths_to_str

_PLAYED = {"1": GameResult(2, True, "1"), "=": GameResult(1, True, "="),
           "0": GameResult(0, True, "0")}


@dataclass(frozen=True)
class ReportRow:
    """One player's report line: the engine's result plus what the report shows beside it."""

    result: PlayerResult
    points: Decimal          # points under the event's scoring system
    k_source: str            # where K came from ("--k", "rating list", "rating and birth year", ...)
    title: str = ""
    federation: str = ""
    fide_id: int | None = None


@dataclass(frozen=True)
class Report:
    """A whole event's rating report (rows in start-rank order) and its notes."""

    event_name: str
    event_date: _dt.date | None
    time_control: TimeControl
    edition: RuleEdition
    rows: tuple[ReportRow, ...]
    notes: tuple[str, ...]
    warnings: tuple[str, ...] = ()


def guess_time_control(text: str, coded: str = "") -> TimeControl | None:
    """Time control from the TRF 222 coded field (``5400+30``) or the 122 free text.

    FIDE B.02 §1 / R&B §1 (reference §7), with 60 moves: base + 60 x increment.
    Standard from 60 minutes, rapid above 10 and below 60, blitz above 3 up to 10.
    Returns ``None`` when nothing can be read.
    """
    minutes: float | None = None
    m = re.match(r"\s*(?:\d+/)?(\d+)(?:\+(\d+))?", coded or "")
    if coded and m:
        base, inc = int(m.group(1)), int(m.group(2) or 0)
        minutes = (base + 60 * inc) / 60
    else:
        low = (text or "").lower()
        if re.fullmatch(r"\s*(standard|classical|classic|std)\s*", low):
            return TimeControl.STANDARD
        if re.search(r"\bblitz\b", low):
            return TimeControl.BLITZ
        if re.search(r"\brapid\b|\brápid", low):
            return TimeControl.RAPID
        mm = re.search(r"(\d+)\s*(?:'|min|m\b|minutes|minutos)", low)
        hh = re.search(r"(\d+(?:[.,]\d+)?)\s*(?:h|hours?|horas?)\b", low)
        inc = re.search(r"\+\s*(\d+)\s*(?:\"|s|sec|seconds|segundos)?", low)
        if mm or hh:
            minutes = (int(mm.group(1)) if mm else 0) + (
                float(hh.group(1).replace(",", ".")) * 60 if hh else 0)
            if inc:
                minutes += int(inc.group(1))     # 60 moves x inc seconds = inc minutes
        else:
            m2 = re.match(r"\s*(\d+)\s*\+\s*(\d+)\s*$", low)
            if m2:
                minutes = int(m2.group(1)) + int(m2.group(2))
    if minutes is None:
        return None
    if minutes >= 60:
        return TimeControl.STANDARD
    if minutes > 10:
        return TimeControl.RAPID
    if minutes > 3:
        return TimeControl.BLITZ
    return None


def _decimal_points(value: Any) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


def build_report(tournament: Any, *, event_date: _dt.date | None = None,
                 time_control: TimeControl | str | None = None, k: int | None = None,
                 players: Any = None, inputs: Any = None) -> Report:
    """Rate every player of ``tournament`` (a :class:`~xl_fide.trf.Tournament`).

    FIDE B.02 §8.2-§8.3. ``event_date`` defaults to the file's start date (then the
    newest rules, with a note); ``time_control`` to what the file's 222/122 records
    say (else standard, with a note); ``k`` forces K for every rated player;
    ``players`` (a :class:`~xl_fide.players.PlayerDirectory`) supplies ratings, K,
    birth years, career games and peak ratings by FIDE id or name; ``inputs`` maps a
    start rank to a ``PlayerData`` whose ``k`` (a K set by hand), ``career_games`` and
    ``peak_rating`` take precedence (a workbook's players block).
    Only games ``1 = 0`` against a real opponent are rated; byes and forfeits count
    as points only.
    """
    notes: list[str] = []
    date = event_date or getattr(tournament, "start_date", None)
    if date is None:
        notes.append("no start date in the file: today's rules used (give --event-date)")
    if time_control is None:
        header = getattr(tournament, "header", {}) or {}
        guessed = guess_time_control(getattr(tournament, "time_control", "") or "",
                                     header.get("222", "") if isinstance(header, dict) else "")
        if guessed is None:
            notes.append("time control not recognised in the file: standard assumed "
                         "(give --time-control)")
            tc = TimeControl.STANDARD
        else:
            tc = guessed
    else:
        tc = TimeControl.parse(time_control)
    edition = rules_for(date, tc)
    if date is not None and date < edition.in_force:
        notes.append(f"event of {date.isoformat()} predates the oldest rules we hold: "
                     f"{edition.id} used")
    period_year = (date or _dt.date.today()).year

    entrants: list[Entrant] = []
    meta: list[tuple[Decimal, str, Any]] = []
    rounds = getattr(tournament, "rounds", None)
    for p in tournament.players:
        data = players.get(p.fide_id, p.name) if players is not None else None
        rating = p.rating
        if rating is None and data is not None and data.rating is not None:
            rating = data.rating
        standard = None
        if data is not None and tc is not TimeControl.STANDARD:
            standard = getattr(data, "standard_rating", None)
        rating, note = effective_rating(rating, edition, standard)
        if note:
            notes.append(f"player {p.start_rank}: {note}")
        K: int | None = None
        source = ""
        given = inputs.get(p.start_rank) if inputs else None
        if rating is not None:

            def known(field: str) -> Any:
                for src in (given, data):
                    value = getattr(src, field, None) if src is not None else None
                    if value is not None:
                        return value
                return None

            if k is not None:
                K, source = k, "--k"
            elif given is not None and given.k:
                K, source = given.k, "K set"
            elif data is not None and data.k:
                K, source = data.k, "rating list"
            else:
                birth = p.birth_year or (data.birth_year if data is not None else None)
                K = k_factor(rating, birth_year=birth, period_year=period_year if birth else None,
                             career_games=known("career_games"), peak_rating=known("peak_rating"),
                             edition=edition)
                source = "rating and birth year" if birth else "rating"
        cells = []
        for g in p.games:
            if rounds is not None and g.round > rounds:
                continue
            if g.code in _PLAYED and g.opponent is not None:
                cells.append((g.opponent, _PLAYED[g.code]))
            else:
                cells.append((None, GameResult(0, False, g.code)))
        points = sum((_decimal_points(tournament.points_for(g)) for g in p.games
                      if rounds is None or g.round <= rounds), Decimal(0))
        entrants.append(Entrant(p.start_rank, rating, K, tuple(cells), p.name))
        meta.append((points, source, p))
    if players is not None:
        matched = sum(1 for p in tournament.players if players.get(p.fide_id, p.name) is not None)
        notes.append(f"player data: {matched} of {len(tournament.players)} players found")
    if k is None and inputs is None and any(m[1] in ("rating", "rating and birth year")
                                            for m in meta):
        notes.append("K from rating and birth year (FIDE B.02 §8.3.3); career games are not "
                     "in a TRF: a player with fewer than 30 games has K 40 (use --player-data or --k)")
    results = rate_crosstable(entrants, edition)
    rows = []
    for res, (points, source, p) in zip(results, meta):
        if res.K is not None and res.K_given is not None and res.K != res.K_given:
            notes.append(f"player {res.start_rank}: K {res.K_given} capped to {res.K} "
                         f"({res.N} games, K x n <= 700, FIDE B.02 §8.3.3)")
        rows.append(ReportRow(res, points, source, getattr(p, "title", ""),
                              getattr(p, "federation", ""), getattr(p, "fide_id", None)))
    warnings = tuple(str(w) for w in getattr(tournament, "warnings", ()))
    return Report(getattr(tournament, "name", ""), date, tc, edition, tuple(rows),
                  tuple(notes), warnings)


def _h(value: int | None) -> float | None:
    return None if value is None else value / 100


def _points(value: Decimal) -> float | int:
    return int(value) if value == value.to_integral_value() else float(value)


def row_dict(row: ReportRow) -> dict[str, Any]:
    """The JSON object of one player (keys fixed by the report format)."""
    r = row.result
    return {
        "start_rank": r.start_rank,
        "name": r.name,
        "rating": r.rating,
        "k": r.K,
        "points": _points(row.points),
        "games_rated": r.N,
        "score_rated": _points(Decimal(r.W_half) / 2),
        "expected": _h(r.sum_PD),
        "change": _h(r.change),
        "rating_change": r.rating_change,
        "new_rating": r.new_rating,
        "performance": r.Rp,
        "initial_rating": r.initial.Ru if r.initial is not None else None,
    }


def to_json(report: Report) -> str:
    """The report as JSON: event metadata, ``players`` (see :func:`row_dict`), notes."""
    doc = {
        "event": report.event_name,
        "event_date": report.event_date.isoformat() if report.event_date else None,
        "time_control": report.time_control.value,
        "rule_edition": report.edition.id,
        "players": [row_dict(r) for r in report.rows],
        "initial_rating_reasons": {
            str(r.result.start_rank): r.result.initial.reason
            for r in report.rows if r.result.initial is not None and r.result.initial.reason},
        "notes": list(report.notes),
        "warnings": list(report.warnings),
    }
    return json.dumps(doc, ensure_ascii=False, indent=2)


COLUMNS = ("No", "Name", "Ro", "K", "Pts", "N", "W", "ΣPD", "K×ΣΔR", "Chg", "New", "Rp", "Ru")


def _fmt_points(value: Decimal) -> str:
    """Points as an arbiter writes them: 5, 4.5, 17 (no trailing .0)."""
    text = format(value.normalize(), "f") if value == value.to_integral_value() else format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _cells(row: ReportRow) -> list[str]:
    r = row.result
    blank = ""
    if r.initial is not None:
        ru = str(r.initial.Ru) if r.initial.Ru is not None else "-"
    else:
        ru = blank
    return [
        str(r.start_rank), r.name, str(r.rating) if r.rating is not None else "unrated",
        str(r.K) if r.K is not None else blank, _fmt_points(row.points),
        str(r.N), _fmt_points(Decimal(r.W_half) / 2),
        hundredths_to_str(r.sum_PD) if r.sum_PD is not None else blank,
        ("+" if r.change and r.change > 0 else "") + hundredths_to_str(r.change)
        if r.change is not None else blank,
        (f"{r.rating_change:+d}" if r.rating_change else "0") if r.rating_change is not None else blank,
        str(r.new_rating) if r.new_rating is not None else blank,
        str(r.Rp) if r.Rp is not None else blank,
        ru,
    ]


def _csv_text(text: str) -> str:
    """Text a spreadsheet would run as a formula (= + - @ first) gets a leading quote."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def to_csv(report: Report) -> str:
    """The report as CSV (header + one line per player; same columns as the table).

    Names and notes starting with ``= + - @`` are written with a leading ``'`` so that a
    spreadsheet opening the CSV shows them as text, never runs them as formulas.
    """
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(list(COLUMNS) + ["note"])
    for row in report.rows:
        note = row.result.initial.reason if row.result.initial is not None else ""
        cells = _cells(row)
        cells[1] = _csv_text(cells[1])
        w.writerow(cells + [_csv_text(note)])
    return out.getvalue()


def to_table(report: Report) -> str:
    """The report as an aligned text table, with a header and the notes below it."""
    lines = [f"{report.event_name}".strip() or "(unnamed event)",
             f"date {report.event_date.isoformat() if report.event_date else '?'}, "
             f"{report.time_control.value}, rules {report.edition.id}"]
    body = [list(COLUMNS)] + [_cells(r) for r in report.rows]
    widths = [max(len(row[i]) for row in body) for i in range(len(COLUMNS))]
    left = {1}
    for row in body:
        lines.append("  ".join(c.ljust(widths[i]) if i in left else c.rjust(widths[i])
                               for i, c in enumerate(row)).rstrip())
    reasons = [f"  {r.result.start_rank}: no Ru, {r.result.initial.reason}"
               if r.result.initial.Ru is None else f"  {r.result.start_rank}: {r.result.initial.reason}"
               for r in report.rows if r.result.initial is not None and r.result.initial.reason]
    if reasons:
        lines.append("Initial ratings:")
        lines.extend(reasons)
    if report.notes:
        lines.append("Notes:")
        lines.extend(f"  {n}" for n in report.notes)
    return "\n".join(lines) + "\n"


def format_report(report: Report, fmt: str = "table") -> str:
    """``fmt``: ``table``, ``csv`` or ``json``."""
    return {"table": to_table, "csv": to_csv, "json": to_json}[fmt](report)


def rows_by_rank(report: Report) -> dict[int, ReportRow]:
    return {r.result.start_rank: r for r in report.rows}
