"""FIDE's fixed-width TXT rating lists.

**Fixed-width TXT** (``players_list_foa.txt``, ``standard_rating_list.txt``,
  ``rapid_...``, ``blitz_...``). The first line names the columns and each column
  starts where its name starts; the positions are taken from that header line.
  Header styles seen in public parsers of the real files:

  - combined list: ``ID Number      Name  ...  Fed Sex Tit  WTit OTit           FOA
    SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag`` (Name at 15, Fed at 76,
    SRtng at 113, B-day at 152);
  - single list, rating column named after the month: ``... FOA JAN23 Gms K  B-day
    Flag`` (rating at 113, Gms 119, K 123, B-day 126, Flag 132);
  - before 2013: ``ID number Name  ...  TitlFed  Mar11 GamesBorn  Flag`` with two
    pairs of names run together and one-letter titles (``g``, ``wg``, ``f``...).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn

from xl_fide.errors import PlayerFileError
from xl_fide.lists._budget import _CHUNK, MAX_LINE, Source, _blank_budget, _has_newline, _open_source
from xl_fide.lists._model import PlayerData
from xl_fide.lists._months import month_of
from xl_fide.lists._scan import (_Scan, _build, _check_kind, _decode, _for_kind, _hint, _stream,
                                RATING_RANGE, K_RANGE, entry_problem)

# --- FIDE fixed-width TXT ------------------------------------------------------

# Header name (lower case) -> what the column holds. Combined lists carry the
# kind in the name (SRtng...); single lists name the rating after the month.
_TXT_COLUMNS = {
    "id number": "fide_id", "id_number": "fide_id", "id": "fide_id",
    "name": "name", "fed": "federation", "sex": "sex",
    "tit": "title", "titl": "title", "wtit": "w_title", "otit": "o_title",
    "foa": "foa_title",
    "srtng": "standard.rating", "sgm": "standard.games", "sk": "standard.k",
    "rrtng": "rapid.rating", "rgm": "rapid.games", "rk": "rapid.k",
    "brtng": "blitz.rating", "bgm": "blitz.games", "bk": "blitz.k",
    "rating": "rating", "rtng": "rating", "gms": "games", "games": "games",
    "game": "games", "gm": "games", "k": "k",
    "b-day": "birth_year", "bday": "birth_year", "born": "birth_year",
    "flag": "flag",
}
_MONTH_COLUMN = re.compile(r"[a-z]{3}[0-9]{2}")
# One-letter titles of the lists before 2013.
_OLD_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM",
               "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}


def _known_label(word: str) -> bool:
    low = word.lower()
    return low in _TXT_COLUMNS or bool(_MONTH_COLUMN.fullmatch(low))


def _header_columns(header: str) -> list[tuple[int, str]]:
    """Return (start, header word) for each column of a FIDE TXT header line.

    "ID Number" is one column; words run together in old headers ("TitlFed",
    "GamesBorn") are split where both halves are known column names.
    """
    words = [(m.start(), m.group()) for m in re.finditer(r"\S+", header)]
    columns: list[tuple[int, str]] = []
    i = 0
    while i < len(words):
        start, word = words[i]
        if (word.lower() == "id" and i + 1 < len(words)
                and words[i + 1][1].lower() == "number"):
            columns.append((start, "ID Number"))
            i += 2
            continue
        if not _known_label(word):
            for cut in range(1, len(word)):
                if _known_label(word[:cut]) and _known_label(word[cut:]):
                    columns.append((start, word[:cut]))
                    columns.append((start + cut, word[cut:]))
                    break
            else:
                columns.append((start, word))
        else:
            columns.append((start, word))
        i += 1
    return columns


def _is_txt_header(line: str) -> bool:
    return bool(re.match(r"\s*id[ _]?number\s+name(\s|$)", line, re.IGNORECASE))


def read_fide_txt(path_or_text: Source, rating_kind: str = "standard") -> list[PlayerData]:
    """Return the players of a FIDE fixed-width TXT rating list.

    FIDE rating-list download (ratings.fide.com/download_lists.phtml), TXT format.
    ``path_or_text``: a path, the file's bytes, or its text (a ``str`` holding a
    line break). Each line is read as UTF-8, else Latin-1. Column positions come
    from the header line. ``rating_kind`` ("standard", "rapid" or "blitz") picks the
    rating, games and K of a combined list; a one-rating list named ``standard_...``,
    ``rapid_...`` or ``blitz_...`` read for another kind gives no rating (a standard
    list gives ``standard_rating``, FIDE R&B §7.2.1). Old one-letter titles become
    GM, WGM... Budgets: see :data:`BUDGETS`.
    Raises :class:`PlayerFileError` (file, line, column, field, value quoted).
    Example: a line with ``2612`` under ``SRtng`` gives ``rating == 2612``.
    """
    kind = _check_kind(rating_kind)
    with _open_source(path_or_text, _has_newline) as (stream, file):
        scan = _Scan(file, (kind,), hint=_hint(file))
        return [rec[kind] for rec in _scan_txt(_stream(stream, scan, None, False), scan)]


def _txt_layout(header: str, scan: _Scan, line: int):
    """The column slices of each kind: ``{kind: {key: (start, end, header word)}}``, the
    end of the id column, the name's slice, and every column's slice (by key)."""
    columns = _header_columns(header)
    spans: dict[str, tuple[int, int, str]] = {}
    for idx, (start, word) in enumerate(columns):
        end = columns[idx + 1][0] if idx + 1 < len(columns) else None
        low = word.lower()
        key = "rating" if _MONTH_COLUMN.fullmatch(low) else _TXT_COLUMNS.get(low)
        if key is None:
            continue
        if key == "rating" and _MONTH_COLUMN.fullmatch(low) and scan.month is None:
            scan.month = month_of(low)
        if key in spans:
            raise PlayerFileError(f"header: column {word!r} appears twice",
                                  file=scan.file, line=line, column=start + 1, field=word)
        spans[key] = (0 if idx == 0 else start, end if end is not None else 1 << 30, word)
    combined = any("." in key for key in spans)
    scan.layout = "combined" if combined else "single"
    layouts = {}
    for kind in scan.kinds:
        mine = {key: span for key, span in spans.items() if "." not in key}
        if combined:
            if kind != "standard" and "standard.rating" in spans:   # R&B: rated with it
                mine["standard_rating"] = spans["standard.rating"]
            for item in ("rating", "games", "k"):
                mine.pop(item, None)
                if f"{kind}.{item}" in spans:
                    mine[item] = spans[f"{kind}.{item}"]
        if "rating" not in mine:
            raise PlayerFileError(
                f"header: no rating column for rating_kind {kind!r} "
                f"(expected SRtng, RRtng, BRtng or a month such as MAY25)",
                file=scan.file, line=line)
        layouts[kind] = mine
    id_span = spans.get("fide_id")
    id_end = id_span[1] if id_span else 0
    name_span = spans.get("name", (0, 0, ""))
    return layouts, id_end, (name_span[0], name_span[1]), spans


def _txt_record(raw: bytes, number: int, state: _TxtState) -> dict[str, PlayerData]:
    """The PlayerData of one TXT line for each kind wanted; the whole line is checked
    (:func:`~xl_fide.lists._scan.entry_problem`: every field or none)."""
    scan = state.scan
    line = _decode(raw).rstrip("\r\n")
    out = {}
    assert state.layouts is not None
    for kind, spans in state.layouts.items():
        fields = {key: line[start:end].strip() for key, (start, end, _w) in spans.items()}
        title = fields.get("title")
        if title in _OLD_TITLES:
            fields["title"] = _OLD_TITLES[title]
        if scan.layout == "single":
            fields = _for_kind(fields, scan, kind)

        def fail(key: str, problem: str, spans=spans) -> NoReturn:
            start, _end, word = spans["rating" if key == "standard_rating"
                                      and key not in spans else key]
            raise PlayerFileError(f"column {word!r}: {problem}", file=scan.file, line=number,
                                  column=start + 1, field=word)

        out[kind] = _build(fields, fail, scan.file, number)
    problem = entry_problem(_whole_line(line, state.columns))
    if problem is not None:
        key, text = problem
        start, _end, word = state.columns[key]
        raise PlayerFileError(f"column {word!r}: {text}", file=scan.file, line=number,
                              column=start + 1, field=word)
    return out


def _whole_line(line: str, columns: dict[str, tuple[int, int, str]]) -> dict[str, str]:
    """The stripped text of every column of a line (old one-letter titles as GM...)."""
    values = {key: line[start:end].strip() for key, (start, end, _w) in columns.items()}
    title = values.get("title")
    if title in _OLD_TITLES:
        values["title"] = _OLD_TITLES[title]
    return values


#: One player of a list for the store: (fide_id, name, federation, sex, title,
#: birth_year, flag, {kind: (rating, games, k)}).
ListRow = tuple


def _row_of(record: dict[str, PlayerData]) -> ListRow:
    """A store row from the PlayerData of each kind of one player."""
    p = next(iter(record.values()))
    return (p.fide_id, p.name, p.federation, p.sex, p.title, p.birth_year, p.flag,
            {kind: (q.rating, q.games, q.k) for kind, q in record.items()})


def _row_maker(layouts: dict, scan: _Scan, columns: dict[str, tuple[int, int, str]]):
    """A function from a TXT line to a store row, or None when the line needs the full
    reader: anything but plain digits in a number column, or anything the quick checks
    below cannot vouch for under :func:`~xl_fide.lists._scan.entry_problem` (the full
    reader then decides, and says why)."""
    first = next(iter(layouts.values()))
    span = {key: first.get(key, (0, 0, ""))[:2] for key in
            ("fide_id", "name", "federation", "sex", "title", "birth_year", "flag")}
    kinds = []
    for kind, spans in layouts.items():
        if scan.layout == "single" and scan.hint not in (None, kind):
            continue
        kinds.append((kind, *(spans.get(key, (0, 0, ""))[:2] for key in ("rating", "games", "k"))))
    if sorted(k[1] for k in kinds) != sorted(columns[key][:2] for key in columns
                                             if key.endswith("rating")):
        return None                 # a rating column the rows do not read: the full reader
    (i0, i1), (n0, n1), (f0, f1), (s0, s1), (t0, t1), (b0, b1), (g0, g1) = span.values()
    numeric = [(b0, b1)] + [sp for kind in kinds for sp in kind[1:]]
    lo = min(a for a, _b in numeric)
    hi = max(b for _a, b in numeric)
    others = [sp for key, sp in span.items() if key not in ("fide_id", "birth_year")]
    if any(a < hi and b > lo for a, b in others if b > a):
        return None                 # number columns not side by side: the full reader
    digits = re.compile(r"[0-9 ]*").fullmatch
    # all the slices of a line in one C call: id, name, federation, sex, title,
    # birth year, flag, then rating, games, K of each kind
    text_spans = [(i0, i1), (n0, n1), (f0, f1), (s0, s1), (t0, t1), (b0, b1), (g0, g1)]
    cut = operator.itemgetter(*(slice(a, b) for a, b in
                                text_spans + [sp for kind in kinds for sp in kind[1:]]))
    names = [kind[0] for kind in kinds]
    strip = str.strip
    whole_texts = _texts_checker(columns)
    numbers_whole = _numbers_checker([kind[3] != (0, 0) for kind in kinds])

    def make(line: str) -> ListRow | None:
        if not digits(line, lo, hi):
            return None
        fid, name, fed, sex, title, born, flag, *numbers = map(strip, cut(line))
        if not (fid.isdigit() and fid.isascii() and fid.strip("0") and name):
            return None
        try:                        # "1 0": a blank inside a number
            values = [int(v) if v else None for v in numbers]
        except ValueError:
            return None
        if not (numbers_whole(values) and whole_texts(line)) or (
                born and not (len(born) == 4 and born.isdigit())):
            return None
        per = {kind: (values[3 * n], values[3 * n + 1], values[3 * n + 2])
               for n, kind in enumerate(names)}
        return (int(fid), name, fed, sex, _OLD_TITLES.get(title, title),
                int(born) or None if born else None, flag, per)

    return make


_TEXT_KEYS = ("federation", "sex", "title", "w_title", "o_title", "foa_title")


def _texts_checker(columns: dict[str, tuple[int, int, str]]) -> Callable[[str], bool]:
    """``ok(line)``: the federation, sex and titles of a line pass
    :func:`~xl_fide.lists._scan.entry_problem` (remembered: they take few values)."""
    keys = [key for key in _TEXT_KEYS if key in columns]
    cut = operator.itemgetter(*(slice(*columns[key][:2]) for key in keys), slice(0, 0))
    strip = str.strip
    known: dict[tuple[str, ...], bool] = {}

    def ok(line: str) -> bool:
        texts = tuple(map(strip, cut(line)))
        found = known.get(texts)
        if found is None:
            values = dict(zip(keys, texts))
            if values.get("title") in _OLD_TITLES:
                values["title"] = _OLD_TITLES[values["title"]]
            found = known[texts] = entry_problem(values) is None
        return found

    return ok


def _numbers_checker(has_k: list[bool]) -> Callable[[list[int | None]], bool]:
    """``ok(values)``: the rating, games and K of each kind (in ``values``, three a kind)
    surely pass :func:`~xl_fide.lists._scan.entry_problem`: each rating within
    RATING_RANGE with its K within K_RANGE, or neither (a 0 is left to the full reader)."""
    (r_low, r_high), (k_low, k_high) = RATING_RANGE, K_RANGE
    plan = [(3 * n, with_k) for n, with_k in enumerate(has_k)]

    def ok(values: list[int | None]) -> bool:
        for at, with_k in plan:
            rating, k = values[at], values[at + 2]
            if rating is not None and not r_low <= rating <= r_high:
                return False
            if with_k and (k is None) != (rating is None):
                return False
            if k is not None and not (with_k and k_low <= k <= k_high):
                return False
        return True

    return ok


def _blocks(stream) -> Iterator[tuple[list[bytes], bool]]:
    """Whole lines of a binary stream, about a chunk at a time, and whether the chunk
    was all ASCII (line breaks ``\\n``, ``\\r\\n`` or, when the first chunk has no
    ``\\n``, ``\\r``). A line longer than :data:`MAX_LINE` is refused."""
    tail = b""
    cr: bool | None = None
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            if tail:
                yield [tail], tail.isascii()
            return
        if cr is None:
            cr = b"\n" not in chunk and b"\r" in chunk
        if cr:
            chunk = chunk.replace(b"\r", b"\n")
        lines = chunk.split(b"\n")
        if tail:
            lines[0] = tail + lines[0]
        tail = lines.pop()
        if len(tail) > MAX_LINE:
            raise PlayerFileError(f"a line longer than {MAX_LINE} bytes, the limit for a "
                                  "player list", file=getattr(stream, "_file", None))
        if lines:
            yield lines, chunk.isascii()


@dataclass
class _TxtState:
    """A TXT scan under way: the layout (from the header) and the blank lines seen."""

    scan: _Scan
    layouts: dict | None = None
    columns: dict = field(default_factory=dict)     # every column's slice, by key
    id_end: int = 0
    name_span: tuple[int, int] = (0, 0)
    blanks: int = 0
    keys_by_size: dict = field(default_factory=dict)    # name prefixes by their length
    slow_names: bool = False        # a name without a prefix: every line is looked at
    make_row: Any = None            # store rows instead of PlayerData (ListReader.rows)
    padded_ids: set = field(default_factory=set)    # the event's ids as id columns

    def blank(self, number: int) -> None:
        self.blanks += 1
        _blank_budget(self.blanks, self.scan.file, number)

    def header(self, raw: bytes, number: int) -> None:
        scan = self.scan
        header = _decode(raw).removeprefix("\ufeff").rstrip("\r")
        if not _is_txt_header(header):
            raise PlayerFileError(
                "not a FIDE rating list header (expected 'ID Number  Name ...'), "
                f"got {header[:80]!r}", file=scan.file, line=number)
        self.layouts, self.id_end, self.name_span, self.columns = _txt_layout(
            header, scan, number)
        if scan.rows:
            self.make_row = _row_maker(self.layouts, scan, self.columns)
        wanted = scan.wanted
        if wanted is not None:
            self.padded_ids = {fid.ljust(self.id_end) for fid in wanted.id_bytes
                               if len(fid) < self.id_end}
        # The blocks searched whole hold only lines with a readable id: there a name
        # can only be one of a player without an id (:meth:`_Wanted.wants_name`), so
        # only those players' names are looked for (the names of players with an id
        # are looked for on the lines without one, read line by line).
        if wanted is not None and wanted.keys:
            self.slow_names = "" in wanted.keys
            for key in wanted.keys:
                if key and key.isascii():
                    self.keys_by_size.setdefault(len(key), set()).add(key.encode())


def _scan_txt(stream, scan: _Scan) -> Iterator[dict[str, PlayerData]]:
    """Yield ``{kind: PlayerData}`` for each kept line of a FIDE TXT list.

    With ``scan.wanted``, each block of lines is searched as a whole (see
    :func:`_txt_block`); the first one (the header) and any block with an unreadable
    line are read line by line.
    """
    state = _TxtState(scan)
    number = 0                      # lines before the block
    for lines, ascii in _blocks(stream):
        skip = 0
        if state.layouts is None:
            for skip, raw in enumerate(lines, 1):
                if raw.strip():
                    state.header(raw, number + skip)
                    break
                state.blank(number + skip)
            else:
                number += len(lines)
                continue
        rest = lines[skip:] if skip else lines
        if scan.wanted is None or state.slow_names:
            yield from _txt_lines(rest, number + skip, state)
        else:
            yield from _txt_block(rest, ascii, number + skip, state)
        number += len(lines)
    if state.layouts is None:
        raise PlayerFileError("empty file: expected a FIDE rating list header "
                              "('ID Number  Name ...')", file=scan.file, line=1)


def _txt_block(lines: list[bytes], ascii: bool, number: int,
               state: _TxtState) -> Iterator[dict[str, PlayerData]]:
    """The event's players in a block of ``lines`` (``number`` lines before them;
    ``ascii``: they are all ASCII).

    All in C, per block: the id column of every line (:func:`_padded_ids`, else each
    column stripped); when each line has exactly one word of digits there, the event's ids are looked up in
    them (a set), and names by their first letters at the name column. Any other
    block (a blank line, a line without a readable id) is read line by line.
    """
    scan = state.scan
    wanted = scan.wanted
    assert wanted is not None
    found = _padded_ids(lines, state)
    if found is None:
        # one word a line, each line's own: a column of two words and a blank one
        # elsewhere would keep the count of a split of the whole block
        ids = list(map(bytes.strip, map(operator.itemgetter(slice(0, state.id_end)), lines)))
        if not all(ids) or not b"".join(ids).isdigit():
            yield from _txt_lines(lines, number, state)
            return
        found = _indexes(ids, wanted.id_bytes)
    if wanted.keys:
        found.update(_named_lines(lines, ascii, state))
    for i in sorted(found):
        yield _txt_record(lines[i], number + i + 1, state)


#: The shape of an id column: a digit "1", a space "0", anything else "x".
_SHAPE = bytes(ord("1") if c in b"0123456789" else ord("0") if c == ord(" ") else ord("x")
               for c in range(256))


def _padded_ids(lines: list[bytes], state: _TxtState) -> set[int] | None:
    """The lines (indexes) holding one of the event's ids, when every line's id column
    is as FIDE writes it: digits from the first column, then blanks to the column's
    end (else None: :func:`_txt_block` splits the columns into words).

    In C, without a word per line: the columns, joined, mapped to their shape
    (digit, blank, other); every column starting with a digit, ending with a blank and
    changing from blank to digit nowhere inside is exactly one id. The event's ids,
    padded with blanks to the column's width, are then looked up in the columns.
    """
    width = state.id_end
    if width < 2:
        return None
    heads = list(map(operator.itemgetter(slice(0, width)), lines))
    shape = b"".join(heads).translate(_SHAPE)
    n = len(heads)
    if (len(shape) != width * n or b"x" in shape or shape[0::width].strip(b"1")
            or shape[width - 1::width].strip(b"0") or shape.count(b"01") != n - 1):
        return None
    return _indexes(heads, state.padded_ids)


def _indexes(items: list[bytes], wanted: set[bytes] | frozenset[bytes]) -> set[int]:
    """The indexes of ``items`` equal to one of ``wanted`` (found in C: a set
    intersection, then ``list.index`` for each match)."""
    found = set()
    for value in wanted.intersection(items):
        i = -1
        for _ in range(items.count(value)):
            i = items.index(value, i + 1)
            found.add(i)
    return found


def _named_lines(lines: list[bytes], ascii: bool, state: _TxtState) -> Iterator[int]:
    """The lines (indexes) whose name is one of the event's names."""
    wanted = state.scan.wanted
    assert wanted is not None
    n0, n1 = state.name_span
    candidates: set[int] = set()
    for size, keys in state.keys_by_size.items():
        # the first letters of every name, lower case, in one string (no line holds a
        # line break): most blocks hold none of the keys, seen by a search in C
        joined = b"\n".join(map(operator.itemgetter(slice(n0, n0 + size)), lines)).lower()
        present = [key for key in keys if key in joined]
        if not present:
            continue
        heads = joined.split(b"\n")
        for key in keys.intersection(heads):
            i = -1
            for _ in range(heads.count(key)):
                i = heads.index(key, i + 1)
                candidates.add(i)
    if not ascii:
        candidates.update(i for i, line in enumerate(lines) if not line.isascii())
    for i in candidates:
        if wanted.wants_name(_decode(lines[i][n0:n1]).strip(), True):
            yield i


def _txt_lines(lines: list[bytes], number: int, state: _TxtState) -> Iterator[Any]:
    """The kept players of ``lines``, one at a time (``number`` lines before them)."""
    scan = state.scan
    wanted = scan.wanted
    n0, n1 = state.name_span
    for raw in lines:
        number += 1
        if not raw or raw.isspace():
            state.blank(number)
            continue
        if wanted is None:
            if state.make_row is not None:
                row = state.make_row(_decode(raw).rstrip("\r"))
                if row is not None:
                    yield row
                    continue
            try:
                record = _txt_record(raw, number, state)
                yield _row_of(record) if state.make_row is not None else record
            except PlayerFileError:
                if not scan.lenient:
                    raise
                scan.skipped += 1
            continue
        fid = raw[:state.id_end].strip()
        if fid in wanted.id_bytes:
            yield _txt_record(raw, number, state)
            continue
        readable = fid.isdigit() and fid.isascii()
        if readable and not wanted.names:
            continue                    # by name, a line with an id is only a player's without one
        if wanted.wants_name(_decode(raw[n0:n1]).strip(), readable):
            yield _txt_record(raw, number, state)   # raises when unreadable
        elif not readable:
            scan.skipped += 1           # someone else's line, without a readable id


