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

import functools
import io
import itertools
import operator
import re
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from xl_fide.errors import PlayerFileError
from xl_fide.lists._budget import (_CHUNK, MAX_LINE, Source, _blank_budget, _Budget,
                                  _has_newline, _open_source)
from xl_fide.lists._model import PlayerData
from xl_fide.lists._months import month_of
from xl_fide.lists._scan import (_Scan, _build, _check_kind, _decode, _for_kind, _hint, _stream,
                                RATING_RANGE, K_RANGE, entry_problem, federation_of, sex_of)

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
        return [rec[kind] for rec in _scan_txt(_stream(stream, scan, buffered=False), scan)]


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
    (i0, i1), (n0, n1), _fed, _sex, (t0, t1), (b0, b1), (g0, g1) = span.values()
    numeric = [(b0, b1)] + [sp for kind in kinds for sp in kind[1:]]
    lo = min(a for a, _b in numeric)
    hi = max(b for _a, b in numeric)
    others = [sp for key, sp in span.items() if key not in ("fide_id", "birth_year")]
    if any(a < hi and b > lo for a, b in others if b > a):
        return None                 # number columns not side by side: the full reader
    digits = re.compile(r"[0-9 ]*").fullmatch
    # all the slices of a line in one C call: id, name, title, birth year, flag, then
    # rating, games, K of each kind (the federation and sex as stored: ``whole_texts``)
    text_spans = [(i0, i1), (n0, n1), (t0, t1), (b0, b1), (g0, g1)]
    cut = operator.itemgetter(*(slice(a, b) for a, b in
                                text_spans + [sp for kind in kinds for sp in kind[1:]]))
    names = [kind[0] for kind in kinds]
    strip = str.strip
    whole_texts = _texts_checker(columns)
    numbers_whole = _numbers_checker([kind[3] != (0, 0) for kind in kinds])

    def make(line: str) -> ListRow | None:
        if not digits(line, lo, hi):
            return None
        fid, name, title, born, flag, *numbers = map(strip, cut(line))
        if not (fid.isdigit() and fid.isascii() and fid.strip("0") and name):
            return None
        try:                        # "1 0": a blank inside a number
            values = [int(v) if v else None for v in numbers]
        except ValueError:
            return None
        texts = whole_texts(line) if numbers_whole(values) else None
        if texts is None or (born and not (len(born) == 4 and born.isdigit())):
            return None
        per = {kind: (values[3 * n], values[3 * n + 1], values[3 * n + 2])
               for n, kind in enumerate(names)}
        return (int(fid), name, *texts, _OLD_TITLES.get(title, title),
                int(born) or None if born else None, flag, per)

    return make


_TEXT_KEYS = ("federation", "sex", "title", "w_title", "o_title", "foa_title")


def _texts_checker(columns: dict[str, tuple[int, int, str]]
                   ) -> Callable[[str], tuple[str, str] | None]:
    """``texts(line)``: the federation and sex of a line as stored (:func:`federation_of`,
    :func:`sex_of`), when its federation, sex and titles pass
    :func:`~xl_fide.lists._scan.entry_problem`, else None (remembered: they take few
    values)."""
    keys = [key for key in _TEXT_KEYS if key in columns]
    cut = operator.itemgetter(*(slice(*columns[key][:2]) for key in keys), slice(0, 0))
    strip = str.strip
    known: dict[tuple[str, ...], tuple[str, str] | None] = {}

    def texts(line: str) -> tuple[str, str] | None:
        found = cut(line)
        try:
            return known[found]
        except KeyError:
            pass
        values = dict(zip(keys, map(strip, found)))
        if values.get("title") in _OLD_TITLES:
            values["title"] = _OLD_TITLES[values["title"]]
        ok = entry_problem(values) is None
        if len(known) > _KNOWN_TEXTS:   # a list of many distinct texts: remembered anew
            known.clear()
        known[found] = (federation_of(values.get("federation", "")),
                        sex_of(values.get("sex", ""))) if ok else None
        return known[found]

    return texts


#: The distinct federation, sex and title texts remembered by :func:`_texts_checker`.
_KNOWN_TEXTS = 1 << 16


def _numbers_checker(has_k: list[bool]) -> Callable[[list[int | None]], bool]:
    """``ok(values)``: the rating, games and K of each kind (in ``values``, three a kind)
    surely pass :func:`~xl_fide.lists._scan.entry_problem`: each rating within
    RATING_RANGE or blank, each K within K_RANGE with its rating, or blank (a 0 is left
    to the full reader)."""
    (r_low, r_high), (k_low, k_high) = RATING_RANGE, K_RANGE
    plan = [(3 * n, with_k) for n, with_k in enumerate(has_k)]

    def ok(values: list[int | None]) -> bool:
        for at, with_k in plan:
            rating, k = values[at], values[at + 2]
            if rating is not None and not r_low <= rating <= r_high:
                return False
            if k is not None and not (with_k and rating is not None and k_low <= k <= k_high):
                return False
        return True

    return ok


def _blocks(stream: _Budget) -> Iterator[list[bytes]]:
    """Whole lines of a list under its budgets, a block at a time.

    Line breaks ``\\n`` or ``\\r\\n`` (lines after the first chunk keep them), or,
    when the first chunk has no ``\\n``, ``\\r``. From a file, lines are cut in C
    from its buffer (:func:`_file_blocks`); else from chunks (:func:`_chunk_blocks`).
    """
    chunk = stream.read(_CHUNK)
    if b"\n" not in chunk and b"\r" in chunk:
        yield from _chunk_blocks(stream, chunk, cr=True)
        return
    lines = chunk.split(b"\n")
    tail = lines.pop()
    if lines:
        yield lines
    source = stream.line_source() if chunk else None
    more = (_file_blocks(source, stream) if source is not None
            else _chunk_blocks(stream, stream.read(_CHUNK)))
    for lines in more:
        if tail:                    # the line the first chunk cut
            lines[0] = tail + lines[0]
            tail = b""
        yield lines
    if tail:
        yield [tail]


def _file_blocks(source: io.BufferedReader, budget: _Budget) -> Iterator[list[bytes]]:
    """The lines of a buffered file, about a buffer at a time: the lines ending in the
    buffer (:meth:`io.BufferedReader.readlines`, in C), after the one that ran across
    the buffer's end (read alone, at most :data:`MAX_LINE` bytes)."""
    at = source.tell()
    while True:
        lines = []
        buffered = source.peek(1)
        if buffered and b"\n" not in buffered:
            line = source.readline(MAX_LINE + 1)
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                budget.too_long()
            lines.append(line)
            buffered = source.peek(1)
        cut = buffered.rfind(b"\n")
        if cut > 0:                 # readlines stops after more than ``cut`` bytes
            lines += source.readlines(cut)
        elif cut == 0:
            lines.append(source.readline())
        if not lines:
            return
        now = source.tell()
        budget.moved(now - at)
        at = now
        yield lines


def _chunk_blocks(stream: _Budget, chunk: bytes, cr: bool = False) -> Iterator[list[bytes]]:
    """The lines of a stream, a chunk at a time from ``chunk`` (its next bytes) on
    (``cr``: line breaks ``\\r``). A line longer than :data:`MAX_LINE` is refused."""
    tail = b""
    while chunk:
        lines = (chunk.replace(b"\r", b"\n") if cr else chunk).split(b"\n")
        lines[0] = tail + lines[0]
        tail = lines.pop()
        if len(tail) > MAX_LINE:
            stream.too_long()
        if lines:
            yield lines
        chunk = stream.read(_CHUNK)
    if tail:
        yield [tail]


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
    head_width: int = 0             # the first bytes of a line a block search cuts out

    def blank(self, number: int) -> None:
        self.blanks += 1
        _blank_budget(self.blanks, self.scan.file, number)

    def header(self, raw: bytes, number: int) -> None:
        scan = self.scan
        header = _decode(raw).removeprefix("\ufeff").rstrip("\r\n")
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
        self.head_width = max([self.id_end] + [self.name_span[0] + size
                                               for size in self.keys_by_size])


def _scan_txt(stream, scan: _Scan) -> Iterator[dict[str, PlayerData]]:
    """Yield ``{kind: PlayerData}`` for each kept line of a FIDE TXT list.

    With ``scan.wanted``, each block of lines is searched as a whole (see
    :func:`_txt_block`); the first one (the header) and any block with an unreadable
    line are read line by line.
    """
    state = _TxtState(scan)
    number = 0                      # lines before the block
    for lines in _blocks(stream):
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
            yield from _txt_block(rest, number + skip, state)
        number += len(lines)
    if state.layouts is None:
        raise PlayerFileError("empty file: expected a FIDE rating list header "
                              "('ID Number  Name ...')", file=scan.file, line=1)


def _txt_block(lines: list[bytes], number: int,
               state: _TxtState) -> Iterator[dict[str, PlayerData]]:
    """The event's players in a block of ``lines`` (``number`` lines before them).

    In C, per block: the first :attr:`~_TxtState.head_width` bytes of every line (its
    id column, and the first letters of its name when names are looked for), joined
    (:func:`_joined_heads`). When every id column is as FIDE writes it
    (:func:`_id_columns`), the id columns, one bytes a line, are looked up among the
    event's ids padded as id columns (:func:`_padded_lines`); else each id column
    is stripped (one word of digits a line, or the block is read line by line). Names
    are looked for by their first letters at the name column (:func:`_named_lines`).
    """
    wanted = state.scan.wanted
    assert wanted is not None
    width, id_end, count = state.head_width, state.id_end, len(lines)
    joined = _joined_heads(lines, width)
    if b"\x00" in joined:
        # a line shorter than the heads (struct pads it with NUL bytes) or a NUL byte:
        # the heads cut one by one, a shorter line's shorter
        joined = b"".join(map(operator.itemgetter(slice(0, width)), lines))
    columns = _id_columns(joined, count, width, id_end)
    if columns is None:
        # one word a line, each line's own: a column of two words and a blank one
        # elsewhere would keep the count of a split of the whole block
        ids = list(map(bytes.strip, map(operator.itemgetter(slice(0, id_end)), lines)))
        if not all(ids) or not b"".join(ids).isdigit():
            yield from _txt_lines(lines, number, state)
            return
        found = _indexes(ids, wanted.id_bytes)
        if wanted.keys and len(joined) != width * count:     # a line shorter
            joined = b"".join(line[:width].ljust(width) for line in lines)
    else:
        found = _padded_lines(joined, width, id_end, state.padded_ids)
    if wanted.keys:
        found.update(_named_lines(lines, joined, state))
    for i in sorted(found):
        yield _txt_record(lines[i], number + i + 1, state)


#: Lines packed or unpacked by one :class:`struct.Struct` (one compiled per width).
_GROUP = 128


@functools.lru_cache(maxsize=16)
def _group_struct(code: str) -> struct.Struct:
    """``code`` (one record's struct format) repeated :data:`_GROUP` times, compiled."""
    return struct.Struct(code * _GROUP)


def _joined_heads(lines: list[bytes], width: int) -> bytes:
    """The first ``width`` bytes of each line, end to end (``width * len(lines)``
    bytes), packed by :mod:`struct` (its ``s`` code: in C, no object a line); a line
    shorter than ``width`` is padded with NUL bytes."""
    pack = _group_struct(f"{width}s").pack
    count = len(lines)
    rest = count % _GROUP
    parts = [pack(*lines[at:at + _GROUP]) for at in range(0, count - rest, _GROUP)]
    if rest:
        parts.append(pack(*lines[count - rest:], *itertools.repeat(b"", _GROUP - rest)))
    return b"".join(parts)[:width * count]


def _padded_lines(joined: bytes, width: int, id_end: int,
                  padded_ids: set[bytes]) -> set[int]:
    """The lines (indexes) of ``joined`` (``width`` bytes a line) whose id column (its
    first ``id_end`` bytes) is one of ``padded_ids``: the id columns unpacked by
    :mod:`struct` in C, one bytes a line, :data:`_GROUP` lines at a time, each group
    searched as :func:`_indexes` does (NUL bytes pad the last group: no id column)."""
    unpack = _group_struct(f"{id_end}s{width - id_end}x").unpack_from
    size = _GROUP * width
    if len(joined) % size:
        joined += bytes(size - len(joined) % size)
    found: set[int] = set()
    for at in range(0, len(joined), size):
        records = unpack(joined, at)
        if not padded_ids.isdisjoint(records):
            first = at // width
            found.update(first + i for i in _indexes(records, padded_ids))
    return found


_DIGITS = b"0123456789"
#: A column's bytes as digit bits: a digit 1, a blank 0, anything else 2.
_DIGIT_BITS = bytes(1 if c in _DIGITS else 0 if c == ord(" ") else 2 for c in range(256))


def _id_columns(joined: bytes, count: int, width: int, id_end: int) -> list[bytes] | None:
    """The id columns of ``count`` lines (``joined``: the first ``width`` bytes of each,
    end to end), one bytes a column, up to the first column of blanks only, when every
    line's id column (``id_end`` bytes) is as FIDE writes it: digits from the first
    column, then blanks to the column's end (else None).

    Without an object a line: column ``j`` of every line is ``joined[j::width]``.
    The first column is all digits, the last all blanks, and a line with a digit in
    one column has one in the column before (the digits of a column, as the bits of a
    number, lie within those of the column before).
    """
    if id_end < 2 or len(joined) != width * count:
        return None
    columns = [joined[j::width] for j in range(id_end)]
    blanks = b" " * count
    if not columns[0].isdigit() or columns[-1] != blanks:
        return None
    before = -1                     # the digit bits of the column before (-1: all)
    first_blank = len(columns) - 1
    for j, column in enumerate(columns[1:-1], 1):
        if column.isdigit():
            if before != -1:
                return None
        elif column == blanks:
            if before:
                first_blank = j
            before = 0
        elif not before:
            return None             # a digit after a blank column
        else:
            bits = column.translate(_DIGIT_BITS)
            if b"\x02" in bits:
                return None
            digits = int.from_bytes(bits, "big")
            if digits & ~before:
                return None
            before = digits
    return columns[:first_blank + 1]


def _indexes(items: Sequence[bytes], wanted: set[bytes] | frozenset[bytes]) -> set[int]:
    """The indexes of ``items`` equal to one of ``wanted`` (found in C: a set
    intersection, then ``list.index`` for each match; a loop when many match)."""
    matches = wanted.intersection(items)
    if len(matches) > 4:
        return {i for i, item in enumerate(items) if item in matches}
    found = set()
    for value in matches:
        i = items.index(value)
        while True:
            found.add(i)
            try:
                i = items.index(value, i + 1)
            except ValueError:
                break
    return found


#: Bytes that make a line's name a candidate whatever its first letters: a blank (or
#: other white space) where the name starts, and any byte beyond ASCII.
_NOT_KEY = bytes(1 if c >= 128 else 0 for c in range(256))
_NOT_KEY_START = bytes(1 if c >= 128 or c in b" \t\n\r\x0b\x0c" else 0 for c in range(256))


def _named_lines(lines: list[bytes], joined: bytes, state: _TxtState) -> Iterator[int]:
    """The lines (indexes) whose name is one of the event's names (``joined``: the
    first :attr:`~_TxtState.head_width` bytes of each line, end to end).

    A name can be the event's only when its first letters, lower case, are one of
    the keys (:func:`~xl_fide.lists._scan._name_key`): searched in C in the name
    columns of ``joined``; or when those first bytes do not say (a blank before the
    name, a letter beyond ASCII, which :func:`~xl_fide._names.normalise_name` may
    turn into another): such lines are looked at too.
    """
    wanted = state.scan.wanted
    assert wanted is not None
    n0, n1 = state.name_span
    width, count = state.head_width, len(lines)
    candidates: set[int] = set()
    for size, keys in state.keys_by_size.items():
        # the first letters of every name, lower case, a line break after each (no
        # line holds one), put together from the columns of ``joined``: most blocks
        # hold none of the keys, seen by a search in C
        heads = bytearray((size + 1) * count)
        for j in range(size):
            heads[j::size + 1] = joined[n0 + j::width]
        heads[size::size + 1] = b"\n" * count
        text = bytes(heads).lower()
        for key in keys:
            at = text.find(key)
            while at >= 0:
                candidates.add(at // (size + 1))
                at = text.find(key, at + size + 1)
    for j in range(n0, width):
        column = joined[j::width]
        if column.isascii() and (j > n0 or column.isalpha()):
            continue
        flags = column.translate(_NOT_KEY_START if j == n0 else _NOT_KEY)
        at = flags.find(1)
        while at >= 0:
            candidates.add(at)
            at = flags.find(1, at + 1)
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
                row = state.make_row(_decode(raw).rstrip("\r\n"))
                if row is not None:
                    yield row
                    continue
            try:
                record = _txt_record(raw, number, state)
                yield _row_of(record) if state.make_row is not None else record
            except PlayerFileError as exc:
                scan.skip_or_raise(exc, _decode(raw[:state.id_end]).strip(),
                                   _decode(raw[n0:n1]).strip())
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


