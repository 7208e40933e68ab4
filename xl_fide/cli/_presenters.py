"""Presenters: the report and the rating period as text, CSV and JSON.

Formatting only: the numbers come from :mod:`xl_fide.event.report` and
:mod:`xl_fide.event.period`; nothing here computes a rating. :func:`escape_controls`
makes any text safe to print on a terminal.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from xl_fide.rules.rounding import hundredths_to_str, signed, signed_hundredths

if TYPE_CHECKING:
    from xl_fide.event.period import PeriodPlayer, PeriodReport
    from xl_fide.event.report import Report, ReportRow

_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def escape_controls(text: str, keep: str = "\n\t") -> str:
    """``text`` with control characters (C0, DEL, C1, bidirectional overrides) shown as
    ``\\xNN``/``\\uNNNN``, so a name from a file cannot drive the terminal (ANSI
    escapes, carriage returns). Characters in ``keep`` stay as they are."""
    if text.isprintable() and not any(ch in _BIDI for ch in text):
        return text
    try:        # a text of Latin-1 characters (the usual output), copied as bytes in C
        latin = text.encode("latin-1")
    except UnicodeEncodeError:
        pass
    else:       # none of the characters to escape (no override is Latin-1): as it is
        escaped = _escaped_latin(keep)
        if len(latin.translate(None, escaped)) == len(latin):
            return text
    found = _escaped(keep)
    if found.search(text) is None:      # e.g. only line breaks: the text as it is, at C speed
        return text
    return found.sub(_escape_one, text)


def _escape_one(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escaped_chars(keep: str) -> list[str]:
    """The characters :func:`escape_controls` escapes: category Cc (U+0000-U+001F,
    U+007F-U+009F) and the bidirectional overrides, less those in ``keep``."""
    chars = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))] + sorted(_BIDI)
    return [ch for ch in chars if ch not in keep]


@functools.lru_cache(maxsize=8)
def _escaped(keep: str) -> re.Pattern[str]:
    """:func:`_escaped_chars` as a pattern matching any one of them."""
    return re.compile("[" + "".join(re.escape(ch) for ch in _escaped_chars(keep)) + "]")


@functools.lru_cache(maxsize=8)
def _escaped_latin(keep: str) -> bytes:
    """:func:`_escaped_chars` of Latin-1 (below U+0100) as its bytes."""
    return bytes(ord(ch) for ch in _escaped_chars(keep) if ord(ch) < 0x100)


def _h(value: int | None) -> float | None:
    return None if value is None else value / 100


def _points(value: Decimal) -> float | int:
    return int(value) if value == value.to_integral_value() else float(value)


# where K came from (KSource), as the CSV/JSON word and the table's mark after K
_K_MARKS = {"given": "", "sheet": "*", "list": "L", "rule": ""}
K_MARK_NOTE = "K: * typed in the sheet (K set), L from the rating list; unmarked: the K rule " \
    "(FIDE B.02 §8.3.3) or --k"


def k_source_key(row: ReportRow) -> str | None:
    """Where the player's K came from: ``given`` (one K for all, ``--k``), ``sheet``
    (typed in a workbook's K cell), ``list`` (the rating list or player data), ``rule``
    (FIDE B.02 §8.3.3); ``None`` for an unrated player (no K)."""
    calc = row.result.calc      # PlayerResult.K: the K of the rated player's change
    if row.k_source is None or calc is None or calc.K is None:
        return None
    return row.k_source.key


def row_dict(row: ReportRow) -> dict[str, Any]:
    """The JSON object of one player (keys fixed by the report format): ``new_rating``
    and ``rating_change`` are the result FIDE publishes (over 30 days, month by month);
    ``average_opponent_rating`` is Rc, the opponents' average rating in the games that
    count for rating, rounded .5 up (``null`` without such games)."""
    r = row.result
    return {
        "start_rank": r.start_rank,
        "name": r.name,
        "fide_id": row.fide_id,
        "rating": r.rating,
        "k": r.K,
        "k_source": k_source_key(row),
        "points": _points(row.points),
        "games_rated": r.N,
        "score_rated": _points(Decimal(r.W_half) / 2),
        "average_opponent_rating": r.Rc,
        "expected": _h(r.sum_PD),
        "change": _h(r.change),
        "rating_change": r.rating_change,
        "new_rating": r.new_rating,
        "published": r.published,
        "performance": r.Rp,
        "initial_rating": r.initial.Ru if r.initial is not None else None,
    }


def _month_text(month: Report) -> str | None:
    return month.month.strftime("%Y-%m") if month.month is not None else None


def to_json(report: Report) -> str:
    """The report as JSON: event metadata, ``players`` (see :func:`row_dict`), notes.

    An event over 30 days rated month by month: ``players`` carry the month-by-month
    result, ``months`` the monthly (interim) reports (each with its ``month``,
    ``YYYY-MM``), ``comparison`` the players as one rating period (comparison only)."""
    return "".join(to_json_parts(report))


def to_json_parts(report: Report) -> Iterator[str]:
    """:func:`to_json` in parts (joined, they are its text): the document
    ``json.dumps(doc, ensure_ascii=False, indent=2)`` writes, each player's object
    made and written on its own at its depth (a JSON text has no line break inside a
    string: each of its lines is indented by the depth's spaces), so that the
    document's objects and the encoder's pieces of the whole are never all held."""
    return _json_parts(_json_doc(report), 0)


class _Lazy(list[Any]):
    """A JSON array of a report's document made one item at a time when written
    (:func:`_json_parts`): ``make`` of each of ``items``."""

    def __init__(self, make: Any, items: Sequence[Any]) -> None:
        super().__init__()
        self.make, self.items = make, items

    def __bool__(self) -> bool:
        return bool(self.items)


def _json_parts(value: Any, depth: int) -> Iterator[str]:
    """``value`` as ``json.dumps(value, ensure_ascii=False, indent=2)`` writes it at
    ``depth`` in a document, in parts: a dict or array holding other dicts or arrays
    (or a :class:`_Lazy` one) item by item, anything else whole (:func:`json_text`)."""
    inner = "\n" + "  " * (depth + 1)
    if isinstance(value, _Lazy) and value:
        sep = "[" + inner
        for item in value.items:
            yield sep
            yield from _json_parts(value.make(item), depth + 1)
            sep = "," + inner
        yield "\n" + "  " * depth + "]"
    elif type(value) is dict and any(isinstance(v, (dict, list)) and v
                                     for v in value.values()):
        sep = "{" + inner
        for key, item in value.items():
            yield sep + json_text(key) + ": "
            yield from _json_parts(item, depth + 1)
            sep = "," + inner
        yield "\n" + "  " * depth + "}"
    elif type(value) is list and any(isinstance(v, (dict, list)) and v for v in value):
        sep = "[" + inner
        for item in value:
            yield sep
            yield from _json_parts(item, depth + 1)
            sep = "," + inner
        yield "\n" + "  " * depth + "]"
    else:
        yield json_text([] if isinstance(value, _Lazy) else value, depth)


def json_text(value: Any, depth: int = 0) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=2)``, its lines after the first
    indented by ``depth`` levels, the same text, written without the encoder's nested
    functions: with ``indent`` the standard encoder makes a set of functions that refer
    to each other for each call (a cycle only the cyclic collector frees, which the
    command line pauses while it rates and writes: ``_RatingPhase``); a period's or
    large event's JSON, one call per player, held them all (issue 35). Dicts with text
    keys, lists, tuples, text, ints, floats, booleans and ``None`` are written here;
    anything else (a subclass, another key) by ``json.dumps``."""
    out: list[str] = []
    _write_json(value, depth, out, _json_scalar())
    return "".join(out)


def _write_json(value: Any, depth: int, out: list[str], encode: Any) -> None:
    t = type(value)
    if t is str:
        out.append(encode(value))       # json.encoder.encode_basestring, in C
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif t is int:
        out.append(int.__repr__(value))
    elif t is float:        # a finite float as repr writes it (the encoder's own way)
        if value - value == 0:
            out.append(float.__repr__(value))
        else:
            import json
            out.append(json.dumps(value))
    elif t is dict and all([type(k) is str for k in value]):
        if not value:
            out.append("{}")
            return
        inner = _JSON_BREAKS[depth + 1] if depth + 1 < len(_JSON_BREAKS) else (
            "\n" + "  " * (depth + 1))
        sep = "{" + inner
        for k, v in value.items():
            out.append(sep)
            out.append(encode(k))
            out.append(": ")
            _write_json(v, depth + 1, out, encode)
            sep = "," + inner
        out.append(inner[:-2])
        out.append("}")
    elif t is list or t is tuple:
        if not value:
            out.append("[]")
            return
        inner = _JSON_BREAKS[depth + 1] if depth + 1 < len(_JSON_BREAKS) else (
            "\n" + "  " * (depth + 1))
        sep = "[" + inner
        for v in value:
            out.append(sep)
            _write_json(v, depth + 1, out, encode)
            sep = "," + inner
        out.append(inner[:-2])
        out.append("]")
    else:
        import json
        text = json.dumps(value, ensure_ascii=False, indent=2)
        out.append(text.replace("\n", "\n" + "  " * depth) if depth else text)


@functools.lru_cache(maxsize=None)
def _json_scalar() -> Any:
    """A text's JSON as ``json.dumps(text, ensure_ascii=False)`` writes it: the json
    module's public ``encode_basestring`` (looked up when first needed: the table
    needs no json); a float that is not finite goes to ``json.dumps``."""
    from json.encoder import encode_basestring
    return encode_basestring


def _json_at(depth: int, value: object) -> str:
    return json_text(value, depth)


_JSON_BREAKS = tuple("\n" + "  " * d for d in range(8))     # a line break at depth d


def _json_doc(report: Report) -> dict[str, Any]:
    """The report's JSON document (:func:`to_json`), its arrays of players and months
    made as they are written (:class:`_Lazy`)."""
    doc: dict[str, Any] = {
        "event": report.event_name,
        "event_date": report.event_date.isoformat() if report.event_date else None,
    }
    if report.month is not None:
        doc["month"] = _month_text(report)
    doc.update({
        "time_control": report.time_control.value,
        "rule_edition": report.edition.id,
        "players": _Lazy(row_dict, report.rows),
        "initial_rating_reasons": {
            str(r.result.start_rank): r.result.initial.reason
            for r in report.rows if r.result.initial is not None and r.result.initial.reason},
        "notes": list(report.notes),
        "warnings": list(report.warnings),
    })
    if report.months:   # an event over 30 days: the monthly (interim) reports FIDE rates
        doc["months"] = _Lazy(_json_doc, report.months)
        doc["comparison"] = _Lazy(row_dict, report.comparison)
    return doc


COLUMNS = ("No", "Name", "FIDE id", "Ro", "K", "Pts", "N", "W", "Rc", "ΣPD", "K×ΣΔR", "Chg",
           "New", "Rp", "Ru")
_K_COLUMN = COLUMNS.index("K")


@functools.lru_cache(maxsize=256)
def _fmt_points(value: Decimal) -> str:
    """Points as an arbiter writes them: 5, 4.5, 17 (no trailing .0). Equal values
    are written alike (5 and 5.0: 5), so each is worked out once."""
    text = format(value.normalize(), "f") if value == value.to_integral_value() else format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


@functools.lru_cache(maxsize=256)
def _half_points_text(half: int) -> str:
    """A score in half points as :func:`_fmt_points` writes it: 9 -> 4.5."""
    return _fmt_points(Decimal(half) / 2)


class _IntTexts(dict[int, str]):
    """An int's text (``format(value, spec)``), each made once: a report's columns repeat
    the same ratings, K, N and changes (a large event's table holds one text per value,
    not one per cell)."""

    def __init__(self, spec: str = "") -> None:
        super().__init__()
        self.spec = spec

    def __missing__(self, value: int) -> str:
        text = self[value] = format(value, self.spec)
        return text


_TEXT = _IntTexts()
_SIGNED = _IntTexts("+d")


def _cells(row: ReportRow) -> list[str]:
    r = row.result
    blank = ""
    text = _TEXT
    if r.initial is not None:
        ru = text[r.initial.Ru] if r.initial.Ru is not None else "-"
    else:
        ru = blank
    calc = r.calc      # the rated player's numbers (PlayerResult.K ... read it too)
    if calc is None:
        K = sum_PD = change = rating_change = new_rating = None
    else:
        K, sum_PD, change = calc.K, calc.sum_PD, calc.change
        rating_change, new_rating = calc.rating_change, calc.new_rating
    Rc = r.Rc
    return [
        str(r.start_rank), r.name, str(row.fide_id) if row.fide_id else blank,
        text[r.rating] if r.rating is not None else "unrated",
        text[K] if K is not None else blank, _fmt_points(row.points),
        text[r.N], _half_points_text(r.W_half), text[Rc] if Rc is not None else blank,
        hundredths_to_str(sum_PD) if sum_PD is not None else blank,
        ("+" if change and change > 0 else "") + hundredths_to_str(change)
        if change is not None else blank,
        (_SIGNED[rating_change] if rating_change else "0") if rating_change is not None else blank,
        text[new_rating] if new_rating is not None else blank,
        text[r.Rp] if r.Rp is not None else blank,
        ru,
    ]


def _csv_text(text: str) -> str:
    """Text a spreadsheet would run as a formula (= + - @ first) gets a leading quote."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


RESULT = "event"                          # the CSV's month cell of the result rows
COMPARISON = "event (comparison only)"   # the CSV's month cell of the one-period rows


def _csv_rows(rows: tuple[ReportRow, ...]) -> list[list[str]]:
    out = []
    for row in rows:
        note = row.result.initial.reason if row.result.initial is not None else \
            row.result.publication
        cells = _cells(row)
        cells[1] = _csv_text(cells[1])
        out.append(cells + [_csv_text(note), k_source_key(row) or ""])
    return out


def _month_label(month: Report, i: int) -> str:
    return _month_text(month) or f"month {i}"


def to_csv(report: Report) -> str:
    """The report as CSV: a header, then one line per player with the table's columns,
    ``note`` and ``K from`` (``given``/``sheet``/``list``/``rule``, blank if unrated).

    An event over 30 days split by month (``report.months``) gets a leading ``month``
    column: the result lines first (``event``: the months together, as FIDE publishes
    them), then each month's interim lines (``2018-04``, ``2018-05``), then the whole
    event as one period marked ``event (comparison only)``.
    Names and notes starting with ``= + - @`` are written with a leading ``'`` so that a
    spreadsheet opening the CSV shows them as text, never runs them as formulas.
    """
    import csv          # here: the table and the period need no csv
    import io
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    header = list(COLUMNS) + ["note", "K from"]
    if not report.months:
        w.writerow(header)
        w.writerows(_csv_rows(report.rows))
        return out.getvalue()
    w.writerow(["month"] + header)
    w.writerows([RESULT] + r for r in _csv_rows(report.rows))
    for i, month in enumerate(report.months, 1):
        w.writerows([_month_label(month, i)] + r for r in _csv_rows(month.rows))
    w.writerows([COMPARISON] + r for r in _csv_rows(report.comparison))
    return out.getvalue()


MONTHLY_CHANGE_NOTE = ("month by month: Ro at the start; K×ΣΔR the sum of the months' "
                       "K×ΣΔR; Chg the sum of the monthly changes, each rounded in its month "
                       "(FIDE B.02 §8.3.4); New the last month's new rating")


def to_table(report: Report) -> str:
    """The report as an aligned text table, with a header and the notes below it.

    An event over 30 days split by month (``report.months``) shows the results (the
    months together) first, then each month's interim report, then the whole event as
    one period for comparison.
    """
    return "\n".join(to_table_lines(report)) + "\n"


def to_table_lines(report: Report) -> list[str]:
    """:func:`to_table`'s lines, without their line breaks (its text is
    ``"\\n".join(lines) + "\\n"``): an event over 30 days' tables one after the other,
    a blank line between them."""
    if not report.months:
        return _table(report, report.rows, report.notes)
    lines = _table(report, report.rows, (MONTHLY_CHANGE_NOTE,) + report.notes,
                   f"Results, month by month ({len(report.months)} interim reports, each "
                   "month its own rating period):")
    for i, m in enumerate(report.months, 1):
        month = _table(m, m.rows, m.notes)
        month[0] = f"[{i}/{len(report.months)}] " + month[0]
        lines += [""] + month
    lines += [""] + _table(report, report.comparison, (), "As one rating period, for "
                           "comparison only:")
    return lines


def _table(report: Report, rows: tuple[ReportRow, ...], notes_in: tuple[str, ...],
           title: str = "") -> list[str]:
    lines = [title] if title else []
    lines.append(f"{report.event_name}".strip() or "(unnamed event)")
    date = report.event_date.isoformat() if report.event_date else "?"
    if report.month is not None:
        lines.append(f"month {_month_text(report)}, rules as on {date}, "
                     f"{report.time_control.value}, rules {report.edition.id}")
    else:
        lines.append(f"date {date}, {report.time_control.value}, rules {report.edition.id}")
    marks = [_K_MARKS.get(k_source_key(r) or "", "") for r in rows]
    body = [list(COLUMNS)] + [_cells(r) for r in rows]
    for cells, mark in zip(body[1:], marks):     # K marked by where it came from
        cells[_K_COLUMN] += mark
    widths = [max(map(len, column)) for column in zip(*body)]
    left = {1}     # the name; the other columns are aligned right
    line = "  ".join(f"{{:{'<' if i in left else '>'}{w}}}" for i, w in enumerate(widths))
    fmt = line.format
    body.reverse()
    while body:                         # each row's cells let go once written (memory)
        lines.append(fmt(*body.pop()).rstrip())
    reasons = [f"  {r.result.start_rank}: no Ru, {r.result.initial.reason}"
               if r.result.initial.Ru is None else f"  {r.result.start_rank}: {r.result.initial.reason}"
               for r in rows if r.result.initial is not None and r.result.initial.reason]
    if reasons:
        lines.append("Initial ratings:")
        lines.extend(reasons)
    notes = list(notes_in)
    if any(marks):
        notes.insert(0, K_MARK_NOTE)
    if notes:
        lines.append("Notes:")
        lines.extend(f"  {n}" for n in notes)
    return lines


def format_report(report: Report, fmt: str = "table") -> str:
    """``fmt``: ``table``, ``csv`` or ``json``."""
    return {"table": to_table, "csv": to_csv, "json": to_json}[fmt](report)


_SCORE_MARKS = {2: "1", 1: "½", 0: "0"}    # a game's score in half points, as the period shows it


class _GameTexts(dict[tuple[int, int], str]):
    """``(R_opp, score_half)`` -> ``"2050:½"``, as the period lists a game, each made
    once (a period repeats them: one look-up each, in C, through ``map``)."""

    def __missing__(self, game: tuple[int, int]) -> str:
        text = self[game] = f"{game[0]}:{_SCORE_MARKS[game[1]]}"
        return text


_GAME_TEXTS = _GameTexts()


class _HundredthsTexts(dict[int, str]):
    """Integer hundredths -> ``"-2.50"`` (:func:`hundredths_to_str`, or ``fmt``), each
    made once (a period repeats them: one look-up each, in C)."""

    def __init__(self, fmt: Any = hundredths_to_str) -> None:
        super().__init__()
        self.fmt = fmt

    def __missing__(self, value: int) -> str:
        text = self[value] = self.fmt(value)
        return text


_HUNDREDTHS_TEXTS = _HundredthsTexts()
#: a change K×ΣΔR as the report's column writes it: ``+2.20``, ``0.00``, ``-5.60``
_CHANGE_TEXTS = _HundredthsTexts(signed_hundredths)


def format_period(report: PeriodReport, fmt: str = "table") -> str:
    """The period as ``fmt``: ``table`` (:func:`period_table`), ``csv``
    (:func:`period_csv`) or ``json`` (:func:`period_json`)."""
    if fmt == "table":
        return period_table(report)
    return {"csv": period_csv, "json": period_json}[fmt](report)


def period_table(report: PeriodReport) -> str:
    """The period as text, like FIDE's calculation pages: per event Ro, opponents, w,
    ΣΔR, K, K×ΣΔR (the report's names); then the total and its single rounding."""
    return "".join(period_table_parts(report.events, report.players, report.notes))


def period_table_parts(events: Sequence[tuple[str, Any, str]], players: Iterable[PeriodPlayer],
                       notes: Sequence[str]) -> Iterator[str]:
    """:func:`period_table` in parts, each ending in a line break: the events' line, one
    part per player (read from ``players`` as it is reached: a
    :class:`~xl_fide.event.period.PeriodParts`' players, each rated then), then the
    notes (read last: complete once the players are). Joined, they are
    :func:`period_table`."""
    yield "Rating period: " + ", ".join(f"{n} ({d.isoformat() if d else '?'}, {e})"
                                        for n, d, e in events) + "\n"
    game_text = _GAME_TEXTS.__getitem__
    h = _HUNDREDTHS_TEXTS.__getitem__
    hc = _CHANGE_TEXTS.__getitem__
    for p in players:
        lines = []
        head = f"{p.name}" + (f" ({p.fide_id})" if p.fide_id else "")
        if p.change is not None:
            c = p.change
            K = c.K
            lines.append(f"{head}: Ro {p.Ro}, K {K}" + (f" (capped from {c.K_given})"
                                                      if K != c.K_given else ""))
            for ev in c.events:
                # the event's ΣΔR and K×ΣΔR, its change (c.event_change), unrounded
                sum_dR = ev.sum_delta_R
                opps = " ".join(map(game_text, ev.rated_results()))
                lines.append(f"  {ev.name}: Ro {ev.Ro}, {ev.N} games [{opps}] "
                             f"ΣΔR {h(sum_dR)}, K {K}, K×ΣΔR {hc(K * sum_dR)}")
            lines.append(f"  total: K×ΣΔR {hc(c.change)} -> {signed(c.rating_change)}, "
                         f"new rating {c.new_rating}"
                         + (f" ({c.publication}: listed as unrated)" if c.publication else ""))
        else:
            init = p.initial
            if init is not None and init.Ru is not None:
                lines.append(f"{head}: unrated, initial rating {init.Ru} ({init.N} games)")
            else:
                lines.append(f"{head}: unrated, no initial rating"
                             + (f" ({init.reason})" if init is not None else ""))
        lines.append("")
        yield "\n".join(lines)
    if notes:
        yield "".join(f"note: {n}\n" for n in notes)


PERIOD_COLUMNS = ("Name", "FIDE id", "Event", "Ro", "K", "K given", "N", "ΣΔR", "K×ΣΔR",
                  "Chg", "New", "Ru", "note", "K from")

#: the sources of a K that was given (``--k``, a rating list or player data, a workbook's
#: K set), not worked out by the rule (B.02 §8.3.3): the only ones with a ``K given``
_GIVEN_K = frozenset({"given", "list", "sheet"})


def _period_csv_rows(players: Iterable[PeriodPlayer]) -> list[list[str]]:
    h = _HUNDREDTHS_TEXTS.__getitem__
    hc = _CHANGE_TEXTS.__getitem__
    rows: list[list[str]] = []
    for p in players:
        who = [_csv_text(p.name), str(p.fide_id) if p.fide_id else ""]
        c = p.change
        if c is not None:
            source = p.K_source or ""
            K, K_given = str(c.K), str(c.K_given) if source in _GIVEN_K else ""
            rows.extend(who + [_csv_text(ev.name), str(ev.Ro), K, K_given, str(ev.N),
                               h(ev.sum_delta_R), hc(c.K * ev.sum_delta_R), "", "", "", "",
                               source]
                        for ev in c.events)
            rows.append(who + ["", str(p.Ro), K, K_given, str(c.N), h(c.sum_delta_R),
                               hc(c.change), signed(c.rating_change), str(c.new_rating), "",
                               _csv_text(c.publication), source])
            continue
        init = p.initial
        Ru = "" if init is None else str(init.Ru) if init.Ru is not None else "-"
        rows.append(who + ["", "unrated", "", "", str(init.N) if init is not None else "",
                           "", "", "", "", Ru, _csv_text(init.reason if init is not None else ""),
                           ""])
    return rows


def period_csv(report: PeriodReport) -> str:
    """The period as CSV (the report's conventions, :func:`to_csv`): a header
    (:data:`PERIOD_COLUMNS`), then for a rated player one line per event (its Ro, K after
    the K x n <= 700 cap, ``K given`` before it only where a K was given (``--k``, player
    data), N, ΣΔR and K×ΣΔR in hundredths as the table writes them, ``K from`` as the
    report's: ``given``, ``list``, ``rule``) and the player's total
    with a blank ``Event`` (Ro of the period, N, ΣΔR, K×ΣΔR, ``Chg`` rounded once, FIDE
    B.02 §8.3.4, ``New``, ``note`` why it is not published); for an unrated player one
    line: ``Ro`` ``unrated``, N, ``Ru`` (``-`` when none) and why not in ``note``.
    Texts starting with ``= + - @`` get a leading ``'`` (never run as a formula)."""
    return "".join(period_csv_parts(report.events, report.players, report.notes))


def period_csv_parts(events: Sequence[tuple[str, Any, str]], players: Iterable[PeriodPlayer],
                     notes: Sequence[str]) -> Iterator[str]:
    """:func:`period_csv` in parts (as :func:`period_table_parts`): the header, then
    each player's rows (``events`` and ``notes`` are not in the CSV)."""
    import csv          # here: the table needs no csv
    import io
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(PERIOD_COLUMNS)
    for p in players:
        w.writerows(_period_csv_rows((p,)))
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    if out.tell():      # no player: the header alone
        yield out.getvalue()


def _period_player_dict(p: PeriodPlayer) -> dict[str, Any]:
    c = p.change
    if c is None:
        init = p.initial
        return {"name": p.name, "fide_id": p.fide_id, "rating": None, "k": None,
                "k_given": None, "k_source": None, "games_rated": init.N if init is not None else 0,
                "sum_delta_R": None, "change": None, "rating_change": None,
                "new_rating": None, "published": init.published if init is not None else None,
                "publication": None,
                "initial_rating": init.Ru if init is not None else None,
                "initial_rating_reason": (init.reason or None) if init is not None else None,
                "events": [{"event": name} for name in p.event_names]}
    K = c.K
    return {
        "name": p.name, "fide_id": p.fide_id, "rating": p.Ro, "k": K,
        "k_given": c.K_given if p.K_source in _GIVEN_K else None, "k_source": p.K_source,
        "games_rated": c.N, "sum_delta_R": _h(c.sum_delta_R), "change": _h(c.change),
        "rating_change": c.rating_change, "new_rating": c.new_rating,
        "published": c.published, "publication": c.publication or None,
        "initial_rating": None, "initial_rating_reason": None,
        "events": [{"event": ev.name, "rating": ev.Ro, "games_rated": ev.N,
                    "games": [{"opponent_rating": R, "score": _points(Decimal(half) / 2)}
                              for R, half in ev.rated_results()],
                    "sum_delta_R": _h(ev.sum_delta_R), "change": _h(K * ev.sum_delta_R)}
                   for ev in c.events]}


def period_json(report: PeriodReport) -> str:
    """The period as JSON (the report's conventions, :func:`to_json`: ratings, K and
    counts as ints, hundredths as numbers of points, ``null`` for none): ``events``
    (``event``, ``event_date``, ``rule_edition``), ``players`` (``rating`` = Ro of the
    period, ``k`` after the K x n <= 700 cap, ``k_given`` before it where a K was given
    (else null), ``k_source`` (``given``, ``list``, ``rule``), ``games_rated``,
    ``sum_delta_R``, ``change`` = K x ΣΔR, ``rating_change`` rounded once (FIDE B.02
    §8.3.4), ``new_rating``, ``published``, ``publication``; an unrated player's
    ``initial_rating`` and its reason; per event its own ``rating``, ``games``
    (``opponent_rating``, ``score``), ``sum_delta_R`` and ``change``), and ``notes``."""
    return "".join(period_json_parts(report.events, report.players, report.notes))


def period_json_parts(events: Sequence[tuple[str, Any, str]], players: Iterable[PeriodPlayer],
                      notes: Sequence[str]) -> Iterator[str]:
    """:func:`period_json` in parts (as :func:`period_table_parts`): the document
    ``json.dumps(doc, ensure_ascii=False, indent=2)`` would write, each player's
    object written on its own at its depth (a JSON text has no line break inside a
    string: each of its lines is indented by the depth's spaces)."""
    at = _json_at

    head = [{"event": name, "event_date": day.isoformat() if day else None,
             "rule_edition": edition} for name, day, edition in events]
    yield '{\n  "events": ' + at(1, head) + ',\n  "players": ['
    sep = "\n    "
    for p in players:
        yield sep + at(2, _period_player_dict(p))
        sep = ",\n    "
    yield ("\n  ]" if sep != "\n    " else "]") + ',\n  "notes": ' + at(1, list(notes)) + "\n}"


#: the period's formats in parts, by ``--format`` (each as ``(events, players, notes)``,
#: the players read once: :class:`~xl_fide.event.period.PeriodParts`)
PERIOD_PARTS = {"table": period_table_parts, "csv": period_csv_parts,
                "json": period_json_parts}
