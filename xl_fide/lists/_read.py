"""Player data from FIDE rating-list downloads (TXT, XML) and from a simple CSV.

FIDE publishes its monthly lists at ratings.fide.com/download_lists.phtml in two
formats, read here without hard-coded column numbers:

* **Fixed-width TXT** (``players_list_foa.txt``, ``standard_rating_list.txt``,
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

* **XML** (``players_list_xml_foa.xml``, ``standard_rating_list.xml``...):
  ``<playerslist><player><fideid/><name/><country/><sex/><title/><w_title/>
  <o_title/><foa_title/><rating/><games/><k/>[<rapid_rating/><rapid_games/>
  <rapid_k/><blitz_rating/><blitz_games/><blitz_k/>]<birthday/><flag/></player>``.
  Read with ``defusedxml``: entity declarations (XML bombs) and external
  references are refused.

A blank rating, or a rating of 0, means "no rating" (``None``); so does a K of 0
and a birth year of 0. Every problem is a :class:`PlayerFileError` (an
:class:`~xl_fide.errors.InputError`) naming the file, the line and the field and
quoting the value. This module imports neither xlwings nor openpyxl.
"""

from __future__ import annotations

import csv
import io
import itertools
import operator
import os
import re
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn, Union
from xml.etree.ElementTree import ParseError as XmlParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from xl_fide.errors import InputError, PlayerFileError, XlFideError
from xl_fide._filekind import wrong_kind_of_stream
from xl_fide._names import normalise_name

__all__ = [
    "PlayerData",
    "PlayerDirectory",
    "PlayerFileError",
    "RATING_KINDS",
    "normalise_name",
    "read_fide_txt",
    "read_fide_xml",
    "read_player_csv",
    "read_player_file",
    "ListReader",
    "BUDGETS",
    "month_of",
]

#: The three lists FIDE publishes; ``rating_kind`` picks one from a combined list.
RATING_KINDS = ("standard", "rapid", "blitz")

Source = Union[str, bytes, bytearray, "os.PathLike[str]"]



@dataclass(frozen=True, slots=True)
class PlayerData:
    """One player as a rating list shows them.

    ``rating``, ``games`` and ``k`` are those of the list read (standard, rapid or
    blitz); ``games`` is the list's "Gms" (games rated in the last period), ``k``
    the K the list shows. ``career_games`` and ``peak_rating`` are not on FIDE's
    lists; they may come from a CSV, for the K rules of FIDE B.02 §8.3.3.
    ``title`` is the list's title column (GM, IM, WGM...); ``w_title``,
    ``o_title`` (arbiter, trainer...) and ``foa_title`` keep the other columns.
    Raises :class:`InputError` for a value of the wrong type or a negative number.
    """

    fide_id: int | None
    name: str
    federation: str = ""
    sex: str = ""
    title: str = ""
    rating: int | None = None
    games: int | None = None
    k: int | None = None
    birth_year: int | None = None
    flag: str = ""
    career_games: int | None = None
    peak_rating: int | None = None
    w_title: str = ""
    o_title: str = ""
    foa_title: str = ""
    standard_rating: int | None = None   # a combined list's standard rating (SRtng), for R&B

    def __post_init__(self) -> None:
        numbers = (self.fide_id, self.rating, self.games, self.k, self.birth_year,
                   self.career_games, self.peak_rating, self.standard_rating)
        texts = (self.name, self.federation, self.sex, self.title, self.flag,
                 self.w_title, self.o_title, self.foa_title)
        if (all(v is None or (type(v) is int and v >= 0) for v in numbers)
                and self.fide_id != 0 and all(type(t) is str for t in texts)
                and (self.fide_id is not None or self.name.strip())):
            return
        for field in ("fide_id", "rating", "games", "k", "birth_year",
                      "career_games", "peak_rating", "standard_rating"):
            value = getattr(self, field)
            if value is None:
                continue
            if type(value) is not int:
                raise InputError(f"{field} must be a whole number or None, got {value!r}")
            if value < 0 or (field == "fide_id" and value == 0):
                raise InputError(f"{field} must be positive, got {value!r}")
        for field in ("name", "federation", "sex", "title", "flag",
                      "w_title", "o_title", "foa_title"):
            value = getattr(self, field)
            if not isinstance(value, str):
                raise InputError(f"{field} must be text, got {value!r}")
        if self.fide_id is None and not self.name.strip():
            raise InputError("a player needs a FIDE id or a name, got neither")

    @property
    def inactive(self) -> bool:
        """True when the list flags the player inactive (``i`` in the flag)."""
        return "i" in self.flag.lower()


# --- names --------------------------------------------------------------------

class PlayerDirectory:
    """Players looked up by FIDE id, falling back to their normalised name.

    Built from any iterable of :class:`PlayerData`; keeps their order. Two entries
    with the same FIDE id must be identical (a repeated line), otherwise
    :class:`InputError` names both. ``skipped`` counts the lines of the file it
    was read from that could not be read; ``notes`` says so, and anything else
    the reader wants shown to the user (one line each).
    """

    def __init__(self, players: Iterable[PlayerData], *, skipped: int = 0,
                 notes: Iterable[str] = ()) -> None:
        self.skipped = skipped
        self.notes = tuple(notes)
        kept: list[PlayerData] = []
        self._by_id: dict[int, PlayerData] = {}
        self._by_name: dict[str, list[PlayerData]] = {}
        for player in players:
            if not isinstance(player, PlayerData):
                raise InputError(f"a PlayerDirectory holds PlayerData, got {player!r}")
            if player.fide_id is not None:
                seen = self._by_id.get(player.fide_id)
                if seen is not None:
                    if seen == player:
                        continue
                    raise InputError(f"FIDE id {player.fide_id} appears twice: "
                                     f"{seen.name!r} and {player.name!r}")
                self._by_id[player.fide_id] = player
            self._by_name.setdefault(normalise_name(player.name), []).append(player)
            kept.append(player)
        self._players = tuple(kept)

    def get(self, fide_id: int | None, name: str | None = None) -> PlayerData | None:
        """Return the player with this FIDE id, else the one with this name, else None.

        The name is compared with :func:`normalise_name` (case, accents and spaces
        ignored). When ``fide_id`` is given but not on the list, a player found by
        name is returned only if the list gives them no FIDE id: a namesake with
        another id is another person. Raises :class:`InputError` for a FIDE id
        that is not a whole number, or a name that fits several players.
        """
        if fide_id is not None:
            if type(fide_id) is not int:
                raise InputError(f"fide_id must be a whole number or None, got {fide_id!r}")
            found = self._by_id.get(fide_id)
            if found is not None:
                return found
        if name is None:
            return None
        if not isinstance(name, str):
            raise InputError(f"name must be text or None, got {name!r}")
        key = normalise_name(name)
        if not key:
            return None
        candidates = self._by_name.get(key, [])
        if fide_id is not None:
            candidates = [p for p in candidates if p.fide_id is None]
        if len(candidates) > 1:
            ids = ", ".join(str(p.fide_id) if p.fide_id else "no id" for p in candidates)
            raise InputError(
                f"name {name!r} fits {len(candidates)} players ({ids}); give the FIDE id")
        return candidates[0] if candidates else None

    def __len__(self) -> int:
        return len(self._players)

    def __iter__(self) -> Iterator[PlayerData]:
        return iter(self._players)

    def __repr__(self) -> str:
        return f"PlayerDirectory({len(self._players)} players)"


# --- budgets ------------------------------------------------------------------

#: The most bytes a player list (a file, or one file inside a zip) may hold. FIDE's
#: combined TXT list is about 200 MB (1.2 million players); its XML about 600 MB.
MAX_LIST_BYTES = 1 << 30
#: The largest compression ratio of a zip member (FIDE's zips are below 20:1); a
#: member above it is refused before it is read (a "zip bomb").
MAX_ZIP_RATIO = 100
#: The longest line of a TXT or CSV list (FIDE's lines are about 160 characters),
#: and the most characters one XML field may hold.
MAX_LINE = 1 << 16
#: The most blank lines a list may hold (FIDE's have none or one at the end).
MAX_BLANK_LINES = 100_000
# Members smaller than this are never refused for their ratio.
_RATIO_FLOOR = 1 << 20
_CHUNK = 1 << 20

#: Budgets of a player list, by name (documented in the README).
BUDGETS = {"bytes": MAX_LIST_BYTES, "zip_ratio": MAX_ZIP_RATIO, "line": MAX_LINE,
           "blank_lines": MAX_BLANK_LINES}


class _Budget(io.RawIOBase):
    """A binary stream that refuses to deliver more than ``limit`` bytes in all, or
    (with ``max_line``) more than ``max_line`` bytes without a line break.
    ``unread(data)`` puts bytes back (a format is told from the first chunk)."""

    def __init__(self, stream, file: str, limit: int = MAX_LIST_BYTES,
                 max_line: int | None = MAX_LINE) -> None:
        super().__init__()
        self._stream = stream
        self._file = file
        self._limit = limit
        self._max_line = max_line
        self._since_newline = 0
        self._pending = b""
        self.total = 0

    def readable(self) -> bool:
        return True

    def unread(self, data: bytes) -> None:
        self._pending = data + self._pending

    def limit_lines(self, head: bytes) -> None:
        """Bound the lines from now on, and those of ``head`` (bytes already read)."""
        self._max_line = MAX_LINE
        parts = head.replace(b"\r", b"\n").split(b"\n")
        self._since_newline = len(parts[-1])
        if max(map(len, parts)) > MAX_LINE:
            self.too_long()

    def too_long(self) -> NoReturn:
        raise PlayerFileError(f"a line longer than {MAX_LINE} bytes, the limit for a "
                              "player list", file=self._file)

    def read(self, size: int | None = -1) -> bytes:
        n = _CHUNK if size is None or size < 0 else size
        if self._pending:
            data, self._pending = self._pending[:n], self._pending[n:]
            return data
        data = self._stream.read(n)
        got = len(data)
        self.total += got
        if self.total > self._limit:
            raise PlayerFileError(f"larger than {self._limit} bytes, the limit for a player "
                                  "list", file=self._file)
        if self._max_line is not None and got:
            cut = max(data.rfind(b"\n"), data.rfind(b"\r"))
            self._since_newline = got - cut - 1 if cut >= 0 else self._since_newline + got
            if self._since_newline > self._max_line:
                self.too_long()
        return data

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def _blank_budget(count: int, file: str, line: int) -> None:
    if count > MAX_BLANK_LINES:
        raise PlayerFileError(f"more than {MAX_BLANK_LINES} blank lines, the limit for a "
                              "player list", file=file, line=line)


# --- what to keep ----------------------------------------------------------------

_KEY_BYTES = re.compile(rb"[a-z0-9]*")
_KEY_TEXT = re.compile(r"[^\W_]*")


def _name_key(normalised: str) -> str:
    """The first (up to) four letters of a normalised name: a cheap first filter."""
    match = _KEY_TEXT.match(normalised)
    return match.group()[:4] if match else ""


def _raw_name_key(raw: bytes) -> str:
    raw = raw.strip()
    if raw.isascii():
        match = _KEY_BYTES.match(raw.lower())
        return match.group()[:4].decode() if match else ""
    return _name_key(normalise_name(_decode(raw)))


class _Wanted:
    """The event's players: FIDE ids, and names (those of players without an id are
    matched against any list entry; the others only against entries without an id,
    as :meth:`PlayerDirectory.get` does)."""

    def __init__(self, players: Iterable[tuple[int | None, str | None]]) -> None:
        self.ids: set[int] = set()
        self.names: set[str] = set()        # players without a FIDE id
        self.id_names: set[str] = set()     # players with one
        for fide_id, name in players:
            key = normalise_name(name) if isinstance(name, str) else ""
            if fide_id is not None and type(fide_id) is int:
                self.ids.add(fide_id)
                if key:
                    self.id_names.add(key)
            elif key:
                self.names.add(key)
        self.id_bytes = {str(i).encode() for i in self.ids}
        self.id_text = {str(i) for i in self.ids}
        self.keys = {_name_key(n) for n in self.names}
        self.any_keys = self.keys | {_name_key(n) for n in self.id_names}

    def wants(self, fide_id: int | None, name: str) -> bool:
        if fide_id is not None and fide_id in self.ids:
            return True
        key = normalise_name(name)
        return key in self.names or (fide_id is None and key in self.id_names)

    def wants_name(self, name: str, has_id: bool) -> bool:
        key = normalise_name(name)
        return key in self.names or (not has_id and key in self.id_names)


@dataclass
class _Scan:
    """One read of a list: what to build, and what was found besides the players."""

    file: str
    kinds: tuple[str, ...]
    wanted: _Wanted | None = None
    lenient: bool = False           # count every unreadable line instead of failing
    hint: str | None = None         # the list's time control told by its file name
    skipped: int = 0
    month: str | None = None        # "YYYY-MM" from the file name or the header
    layout: str = ""                # "combined", "single", "xml" or "csv"
    xml_combined: bool = False      # an XML list with rapid and blitz tags
    rows: bool = False              # TXT: yield store rows (ListReader.rows)
    notes: list[str] | None = None
    stream: _Budget | None = None
    size: int | None = None         # bytes expected (for a progress bar)

    @property
    def read_bytes(self) -> int:
        return self.stream.total if self.stream is not None else 0


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_NAME_MONTH = re.compile(r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(\d{2})frl")
_NAME_KIND = re.compile(r"(?:^|[/\\!_])(standard|rapid|blitz)_")


def month_of(text: str) -> str | None:
    """``"2024-01"`` for a FIDE month label such as ``"JAN24"`` or a file name such as
    ``standard_jan24frl.zip``; None when there is none. Years 00-99 are 2000-2099."""
    low = text.lower()
    match = _NAME_MONTH.search(low) or re.fullmatch(r"([a-z]{3})(\d{2})", low)
    if match is None or match.group(1) not in _MONTHS:
        return None
    return f"20{match.group(2)}-{_MONTHS.index(match.group(1)) + 1:02d}"


def _hint(file: str) -> str | None:
    match = _NAME_KIND.search(os.path.basename(file.replace("!", "/")).lower())
    if match is None:
        match = _NAME_KIND.search(file.lower())
    return match.group(1) if match else None


def _single_note(scan: _Scan, kind: str) -> None:
    if scan.notes is not None and scan.hint is None and kind != "standard":
        note = (f"{scan.file}: the file name does not say whether this one-rating list is "
                f"standard, rapid or blitz: its ratings read as {kind}")
        if note not in scan.notes:
            scan.notes.append(note)


def _for_kind(raw: dict[str, str], scan: _Scan, kind: str) -> dict[str, str]:
    """The fields of a one-rating list as ``kind`` sees them: a standard list read for a
    rapid or blitz event gives only ``standard_rating`` (FIDE R&B §7.2.1)."""
    if scan.hint is None or scan.hint == kind:
        _single_note(scan, kind)
        return raw
    out = {key: value for key, value in raw.items() if key not in ("rating", "games", "k")}
    if scan.hint == "standard":
        out["standard_rating"] = raw.get("rating", "")
    return out


# --- reading sources ----------------------------------------------------------

def _check_kind(rating_kind: str) -> str:
    if rating_kind not in RATING_KINDS:
        raise InputError(
            f"rating_kind must be one of {', '.join(RATING_KINDS)}, got {rating_kind!r}")
    return rating_kind


def _cannot_read(file: str, exc: Exception) -> PlayerFileError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return PlayerFileError(f"cannot read the file: {reason}", file=file)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


_YEAR = re.compile(r"([0-9]{4})(?:-[0-9]{2}-[0-9]{2})?")

# How each numeric field is read: "id" (positive), "zero" (0 means none: a rating
# or K of 0 is how lists write "no rating"), "count" (0 stays 0), "year".
_NUMBER_RULES = {
    "fide_id": "id", "rating": "zero", "k": "zero", "peak_rating": "zero",
    "standard_rating": "zero",
    "games": "count", "career_games": "count", "birth_year": "year",
}


def _build(raw: dict[str, str], fail: Callable[[str, str], NoReturn], file: str,
           line: int | None) -> PlayerData:
    """Return a PlayerData from the stripped text of each field (``raw`` is consumed).

    ``fail(field, problem)`` raises a located :class:`PlayerFileError` for a bad
    value; a blank number is None.
    """
    out: dict = dict(raw)
    for key, rule in _NUMBER_RULES.items():
        value = raw.get(key)
        if value is None:
            continue
        if not value:
            out[key] = None
        elif rule == "year":
            match = _YEAR.fullmatch(value)
            if match is None:
                fail(key, f"expected a year such as 1990, got {value!r}")
            out[key] = int(match.group(1)) or None
        elif value.isdigit() and value.isascii() and len(value) <= 12:
            number = int(value)
            if number == 0 and rule != "count":
                if rule == "id":
                    fail(key, f"expected a FIDE id (digits), got {value!r}")
                out[key] = None
            else:
                out[key] = number
        else:
            what = "a FIDE id (digits)" if rule == "id" else "a whole number"
            fail(key, f"expected {what}, got {value!r}")
    out.setdefault("fide_id", None)
    out.setdefault("name", "")
    try:
        return PlayerData(**out)
    except InputError as exc:
        raise PlayerFileError(str(exc), file=file, line=line) from None


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
    """The column slices of each kind: ``{kind: {key: (start, end, header word)}}``."""
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
    return layouts, id_end, (name_span[0], name_span[1])


def _txt_record(raw: bytes, number: int, layouts, scan: _Scan) -> dict[str, PlayerData]:
    """The PlayerData of one TXT line for each kind wanted."""
    line = _decode(raw).rstrip("\r\n")
    out = {}
    for kind, spans in layouts.items():
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
    return out


#: One player of a list for the store: (fide_id, name, federation, sex, title,
#: birth_year, flag, {kind: (rating, games, k)}).
ListRow = tuple


def _row_of(record: dict[str, PlayerData]) -> ListRow:
    """A store row from the PlayerData of each kind of one player."""
    p = next(iter(record.values()))
    return (p.fide_id, p.name, p.federation, p.sex, p.title, p.birth_year, p.flag,
            {kind: (q.rating, q.games, q.k) for kind, q in record.items()})


def _row_maker(layouts: dict, scan: _Scan):
    """A function from a TXT line to a store row, or None when the line needs the full
    reader (anything but plain digits in a number column)."""
    first = next(iter(layouts.values()))
    span = {key: first.get(key, (0, 0, ""))[:2] for key in
            ("fide_id", "name", "federation", "sex", "title", "birth_year", "flag")}
    kinds = []
    for kind, spans in layouts.items():
        if scan.layout == "single" and scan.hint not in (None, kind):
            continue
        kinds.append((kind, *(spans.get(key, (0, 0, ""))[:2] for key in ("rating", "games", "k"))))
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

    def make(line: str) -> ListRow | None:
        if not digits(line, lo, hi):
            return None
        fid, name, fed, sex, title, born, flag, *numbers = map(strip, cut(line))
        if not (fid.isdigit() and fid.isascii() and fid.strip("0")):
            return None
        values = [int(v) if v else None for v in numbers]
        per = {kind: (values[3 * n] or None, values[3 * n + 1], values[3 * n + 2] or None)
               for n, kind in enumerate(names)}
        return (int(fid), name, fed, sex, _OLD_TITLES.get(title, title),
                int(born) or None if born else None, flag, per)

    return make


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
    id_end: int = 0
    name_span: tuple[int, int] = (0, 0)
    blanks: int = 0
    keys_by_size: dict = field(default_factory=dict)    # name prefixes by their length
    slow_names: bool = False        # a name without a prefix: every line is looked at
    make_row: Any = None            # store rows instead of PlayerData (ListReader.rows)

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
        self.layouts, self.id_end, self.name_span = _txt_layout(header, scan, number)
        if scan.rows:
            self.make_row = _row_maker(self.layouts, scan)
        wanted = scan.wanted
        if wanted is not None and wanted.any_keys:
            self.slow_names = "" in wanted.any_keys
            for key in wanted.any_keys:
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

    All in C, per block: the id column of every line, split into words; when each
    line has exactly one word of digits there, the event's ids are looked up in
    them (a set), and names by their first letters at the name column. Any other
    block (a blank line, a line without a readable id) is read line by line.
    """
    scan = state.scan
    wanted = scan.wanted
    assert wanted is not None
    heads = b"\n".join(map(operator.itemgetter(slice(0, state.id_end)), lines))
    ids = heads.split()
    if len(ids) != len(lines) or not b"".join(ids).isdigit():
        yield from _txt_lines(lines, number, state)
        return
    found = set()
    for fid in wanted.id_bytes.intersection(ids):
        if heads.count(fid) == 1:
            found.add(ids.index(fid))
        else:                       # the id twice, or inside a longer one
            found.update(i for i, token in enumerate(ids) if token == fid)
    if wanted.any_keys:
        found.update(_named_lines(lines, ascii, state))
    for i in sorted(found):
        yield _txt_record(lines[i], number + i + 1, state.layouts, scan)


def _named_lines(lines: list[bytes], ascii: bool, state: _TxtState) -> Iterator[int]:
    """The lines (indexes) whose name is one of the event's names."""
    wanted = state.scan.wanted
    assert wanted is not None
    n0, n1 = state.name_span
    candidates: set[int] = set()
    for size, keys in state.keys_by_size.items():
        heads = list(map(bytes.lower, map(operator.itemgetter(slice(n0, n0 + size)), lines)))
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
    layouts = state.layouts
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
                record = _txt_record(raw, number, layouts, scan)
                yield _row_of(record) if state.make_row is not None else record
            except PlayerFileError:
                if not scan.lenient:
                    raise
                scan.skipped += 1
            continue
        fid = raw[:state.id_end].strip()
        if fid in wanted.id_bytes:
            yield _txt_record(raw, number, layouts, scan)
            continue
        readable = fid.isdigit() and fid.isascii()
        if readable and raw.isascii() and not wanted.any_keys:
            continue
        if wanted.wants_name(_decode(raw[n0:n1]).strip(), readable):
            yield _txt_record(raw, number, layouts, scan)   # raises when unreadable
        elif not readable:
            scan.skipped += 1           # someone else's line, without a readable id


# --- FIDE XML -------------------------------------------------------------------

# XML tag -> PlayerData field (rating, games and k are chosen by rating_kind).
_XML_TAGS = {
    "fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
    "title": "title", "w_title": "w_title", "o_title": "o_title",
    "foa_title": "foa_title", "birthday": "birth_year", "flag": "flag",
}
_XML_FIELDS = {key: tag for tag, key in _XML_TAGS.items()}
_XML_FIELDS.update(rating="rating", games="games", k="k")


def _xml_player(values: dict[str, str], lines: dict[str, int], player_line: int,
                scan: _Scan, kind: str) -> PlayerData:
    """Return the PlayerData of one ``<player>`` from the text of its tags."""
    combined = any(tag in values for tag in ("rapid_rating", "blitz_rating"))
    scan.xml_combined = scan.xml_combined or combined
    prefix = f"{kind}_" if kind != "standard" and f"{kind}_rating" in values else ""
    tags = dict(_XML_FIELDS)
    if prefix:
        tags["standard_rating"] = "rating"     # kept for rapid/blitz (R&B: rated with it)
        for item in ("rating", "games", "k"):
            tags[item] = prefix + item
    raw = {key: values.get(tag, "") for key, tag in tags.items()}
    if not combined:
        raw = _for_kind(raw, scan, kind)
        if "standard_rating" in raw:
            tags["standard_rating"] = "rating"

    def fail(key: str, problem: str) -> NoReturn:
        tag = tags[key]
        raise PlayerFileError(f"<{tag}>: {problem}", file=scan.file,
                              line=lines.get(tag, player_line), field=tag)

    return _build(raw, fail, scan.file, player_line)


def read_fide_xml(path_or_bytes: Source, rating_kind: str = "standard") -> list[PlayerData]:
    """Return the players of a FIDE XML rating list.

    FIDE rating-list download (ratings.fide.com/download_lists.phtml), XML format:
    ``<playerslist><player><fideid>...``. ``path_or_bytes``: a path, the file's
    bytes, or its text (a ``str`` starting with ``<``). ``rating_kind`` picks
    ``<rapid_rating>``/``<blitz_rating>`` (and their games and K) when the player
    has them, else ``<rating>`` (with the file-name rule of :func:`read_fide_txt`).
    Parsed with defusedxml: a file that declares entities (an "XML bomb") or refers
    to external ones is refused; only the text inside a player's fields is kept.
    Raises :class:`PlayerFileError` (file, line, tag, value quoted).
    """
    kind = _check_kind(rating_kind)
    with _open_source(path_or_bytes, lambda s: s.lstrip().startswith("<")) as (stream, file):
        scan = _Scan(file, (kind,), hint=_hint(file))
        return [rec[kind] for rec in _scan_xml(_stream(stream, scan, max_line=None), scan)]


def _scan_xml(stream, scan: _Scan) -> Iterator[dict[str, PlayerData]]:
    """Parse XML read from ``stream`` (binary, anything with ``read(n)``), yielding
    ``{kind: PlayerData}`` for each kept ``<player>``.

    defusedxml's parser is built with no tree target, so that it installs only its
    guards (entity declarations, external references) on the expat parser; the
    element handlers below are set on that expat parser directly, for speed.
    Character data is collected only inside a player's fields, at most
    :data:`MAX_LINE` characters each.
    """
    found: list[dict[str, PlayerData]] = []
    depth = 0
    in_player = False
    player_line = 0
    values: dict[str, str] = {}
    lines: dict[str, int] = {}
    text: list[str] = []
    size = 0
    parser = DefusedXMLParser(target=_NoTarget(), forbid_dtd=False,
                              forbid_entities=True, forbid_external=True)
    expat = parser.parser
    wanted = scan.wanted
    scan.layout = "xml"

    def line() -> int | None:
        try:
            return expat.CurrentLineNumber
        except Exception:  # noqa: BLE001 (the parser may be gone after an error)
            return None

    def keep(data: str) -> None:
        nonlocal size
        size += len(data)
        if size > MAX_LINE:
            raise PlayerFileError(f"a field longer than {MAX_LINE} characters, the limit for "
                                  "a player list", file=scan.file, line=line())
        text.append(data)

    def start(tag: str, _attrib) -> None:
        nonlocal depth, in_player, player_line, values, lines, size
        depth += 1
        if depth == 3:
            if in_player:
                text.clear()
                size = 0
                lines[tag] = expat.CurrentLineNumber
                expat.CharacterDataHandler = keep
        elif depth == 2:
            if tag == "player":
                in_player = True
                player_line = expat.CurrentLineNumber
                values = {}
                lines = {}
        elif depth == 1 and tag != "playerslist":
            raise PlayerFileError(
                f"not a FIDE player list: the root element is <{tag}>, expected <playerslist>",
                file=scan.file, line=expat.CurrentLineNumber, field=tag)
        else:
            expat.CharacterDataHandler = None

    def end(tag: str) -> None:
        nonlocal depth, in_player
        if depth == 3:
            expat.CharacterDataHandler = None
            if in_player:
                values[tag] = "".join(text).strip()
        elif depth == 2 and in_player:
            in_player = False
            _xml_done(values, lines, player_line, scan, wanted, found)
        depth -= 1

    expat.StartElementHandler = start
    expat.EndElementHandler = end
    expat.CharacterDataHandler = None
    try:
        while chunk := stream.read(_CHUNK):
            parser.feed(chunk)
            yield from found
            found.clear()
        parser.close()
    except PlayerFileError:
        raise
    except DefusedXmlException as exc:
        raise PlayerFileError(
            f"refused: the XML declares entities or external references ({exc}); "
            "FIDE lists never do (possible XML bomb)", file=scan.file, line=line()) from None
    except XmlParseError as exc:
        err_line, column = getattr(exc, "position", (None, None))
        message = str(exc).split(": line ")[0]
        raise PlayerFileError(f"not well-formed XML: {message}", file=scan.file, line=err_line,
                              column=None if column is None else column + 1) from None
    except (OSError, ValueError, LookupError, zipfile.BadZipFile, zlib.error,
            EOFError, RuntimeError) as exc:
        raise PlayerFileError(f"cannot read the XML: {exc}", file=scan.file,
                              line=line()) from None
    yield from found


def _xml_done(values, lines, player_line, scan: _Scan, wanted, found) -> None:
    """Keep one finished ``<player>`` when wanted (or count it when unreadable)."""
    if wanted is not None:
        fid = values.get("fideid", "")
        if fid not in wanted.id_text:
            readable = fid.isdigit() and fid.isascii() or not fid
            if not wanted.wants_name(values.get("name", ""), bool(fid)):
                if not readable:
                    scan.skipped += 1
                return
    try:
        found.append({kind: _xml_player(values, lines, player_line, scan, kind)
                      for kind in scan.kinds})
    except PlayerFileError:
        if not scan.lenient or wanted is not None:
            raise
        scan.skipped += 1


class _NoTarget:
    """A parser target with no handlers: ours are set on the expat parser."""


# --- CSV ------------------------------------------------------------------------

# Accepted column names (lower case; spaces and hyphens read as "_") -> field.
_CSV_COLUMNS = {
    "fide_id": "fide_id", "id": "fide_id", "fideid": "fide_id",
    "name": "name",
    "federation": "federation", "fed": "federation",
    "sex": "sex",
    "title": "title",
    "rating": "rating", "ro": "rating",
    "k": "k",
    "birth_year": "birth_year", "born": "birth_year", "byear": "birth_year",
    "games": "games",
    "career_games": "career_games",
    "peak_rating": "peak_rating", "highest_rating": "peak_rating",
    "standard_rating": "standard_rating", "std_rating": "standard_rating",
    "flag": "flag",
}


def read_player_csv(path_or_text: Source) -> list[PlayerData]:
    """Return the players of a CSV file with a header row.

    xl-fide's own simple format for users (not a FIDE format). Column names are
    case-insensitive: ``fide_id|id``, ``name``, ``federation|fed``, ``sex``,
    ``title``, ``rating|ro``, ``k``, ``birth_year|born|byear``, ``games``,
    ``career_games``, ``peak_rating|highest_rating``, ``flag``; others are
    ignored. The separator is ``,`` (or ``;`` / tab when the header uses it).
    UTF-8 with or without BOM; blank cells are None (a rating, K or peak of 0
    too); blank rows are skipped. Budgets: see :data:`BUDGETS`.
    Raises :class:`PlayerFileError` naming file, line and column, e.g. for a
    rating of ``'17x0'``.
    """
    with _open_source(path_or_text, _has_newline) as (stream, file):
        scan = _Scan(file, ("standard",))
        return [rec["standard"] for rec in _scan_csv(_stream(stream, scan), scan)]


def _csv_header(row: list[str], file: str, number: int) -> dict[str, tuple[int, str]]:
    columns: dict[str, tuple[int, str]] = {}   # field -> (index, header as written)
    for index, raw in enumerate(row):
        label = re.sub(r"[\s\-]+", "_", raw.strip().lower())
        field = _CSV_COLUMNS.get(label)
        if field is None:
            continue
        if field in columns:
            raise PlayerFileError(
                f"header: columns {columns[field][1]!r} and {raw.strip()!r} "
                f"both give {field}", file=file, line=number, field=raw.strip())
        columns[field] = (index, raw.strip())
    if "name" not in columns and "fide_id" not in columns:
        raise PlayerFileError(
            f"header: expected a 'name' or 'fide_id' column, got {row!r}",
            file=file, line=number)
    return columns


def _csv_lines(stream, file: str) -> Iterator[str]:
    """The lines of a UTF-8 stream (a BOM dropped), each decoded on its own."""
    for number, raw in enumerate(stream, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PlayerFileError(
                f"not UTF-8 (byte {raw[exc.start:exc.start + 1]!r}); "
                "save the CSV as 'CSV UTF-8'", file=file, line=number) from None
        yield line.removeprefix("\ufeff") if number == 1 else line


def _scan_csv(stream, scan: _Scan) -> Iterator[dict[str, PlayerData]]:
    """Yield ``{kind: PlayerData}`` for each kept row (the CSV's rating is of every kind)."""
    file = scan.file
    scan.layout = "csv"
    lines = _csv_lines(stream, file)
    number = 0
    columns: dict[str, tuple[int, str]] = {}
    blanks = 0

    def fail(key: str, problem: str) -> NoReturn:
        label = columns[key][1]
        raise PlayerFileError(f"column {label!r}: {problem}", file=file, line=number,
                              field=label)

    first = ""
    for first in lines:
        number += 1
        if first.strip():
            break
        blanks += 1
        _blank_budget(blanks, file, number)
    if not first.strip():
        raise PlayerFileError("empty file: expected a header row such as "
                              "'fide_id,name,rating'", file=file, line=1)
    delimiter = max((",", ";", "\t"), key=first.count)
    offset = number - 1
    reader = csv.reader(itertools.chain([first], lines), delimiter=delimiter)
    try:
        columns = _csv_header(next(reader), file, number)
        wanted = scan.wanted
        for row in reader:
            number = reader.line_num + offset
            if not any(cell.strip() for cell in row):
                blanks += 1
                _blank_budget(blanks, file, number)
                continue
            raw = {field: (row[index].strip() if index < len(row) else "")
                   for field, (index, _label) in columns.items()}
            if wanted is not None and not _csv_wanted(raw, wanted, scan):
                continue
            try:
                player = _build(raw, fail, file, number)
            except PlayerFileError:
                if not scan.lenient or wanted is not None:
                    raise
                scan.skipped += 1
                continue
            yield {kind: player for kind in scan.kinds}
    except csv.Error as exc:
        raise PlayerFileError(f"cannot read the CSV: {exc}", file=file,
                              line=(reader.line_num + offset) or None) from None


def _csv_wanted(raw: dict[str, str], wanted: _Wanted, scan: _Scan) -> bool:
    fid = raw.get("fide_id", "")
    if fid in wanted.id_text:
        return True
    if wanted.wants_name(raw.get("name", ""), bool(fid)):
        return True
    if fid and not (fid.isdigit() and fid.isascii()):
        scan.skipped += 1
    return False


# --- any of them ------------------------------------------------------------------

_BOM = b"\xef\xbb\xbf"


def _has_newline(text: str) -> bool:
    return "\n" in text or "\r" in text


class _open_source:
    """``with _open_source(source, is_text) as (stream, name)``: a binary stream of a
    path, of bytes, or of text (a ``str`` for which ``is_text`` is true)."""

    def __init__(self, source: Source, is_text) -> None:
        self._handle: Any = None
        self._stream: Any
        if isinstance(source, (bytes, bytearray, memoryview)):
            self._stream, self._file = io.BytesIO(bytes(source)), "<bytes>"
        elif isinstance(source, str) and is_text(source):
            self._stream, self._file = io.BytesIO(source.encode("utf-8")), "<string>"
        elif isinstance(source, (str, os.PathLike)):
            self._file = str(os.fspath(source))
            try:
                self._stream = self._handle = open(source, "rb")
            except (OSError, ValueError) as exc:
                raise _cannot_read(self._file, exc) from exc
        else:
            raise InputError(f"expected a path, text or bytes, got {source!r}")

    def __enter__(self):
        return self._stream, self._file

    def __exit__(self, *exc) -> None:
        if self._handle is not None:
            self._handle.close()


def _stream(raw, scan: _Scan, max_line: int | None = MAX_LINE, buffered: bool = True):
    """``raw`` under the budgets; buffered for CSV and XML, not for TXT (read by chunks)."""
    scan.stream = _Budget(raw, scan.file, MAX_LIST_BYTES, max_line)
    return io.BufferedReader(scan.stream, _CHUNK) if buffered else scan.stream


def _scan_stream(raw, scan: _Scan) -> Iterator[dict[str, PlayerData]]:
    """Tell the format from the first bytes of a binary stream; scan it."""
    budget = _stream(raw, scan, max_line=None, buffered=False)
    head = budget.read(_CHUNK)
    budget.unread(head)
    start = head[:1 << 16].removeprefix(_BOM).lstrip()
    if start.startswith(b"<"):
        return _scan_xml(io.BufferedReader(budget, _CHUNK), scan)
    first = start.split(b"\n", 1)[0].split(b"\r", 1)[0].decode("latin-1")
    if _is_txt_header(first):
        return _scan_txt(budget, scan)          # _blocks bounds the lines
    budget.limit_lines(head)
    return _scan_csv(io.BufferedReader(budget, _CHUNK), scan)


def _zip_member(archive: zipfile.ZipFile, file: str) -> zipfile.ZipInfo:
    """The one list inside a zip, within the budgets (size and compression ratio)."""
    members = [info for info in archive.infolist()
               if not info.is_dir() and info.filename.lower().endswith((".txt", ".xml", ".csv"))]
    if len(members) != 1:
        names = [info.filename for info in archive.infolist()][:10]
        raise PlayerFileError(
            f"expected one .txt, .xml or .csv file in the zip, found {names!r}", file=file)
    info = members[0]
    where = f"{file}!{info.filename}"
    if info.file_size > MAX_LIST_BYTES:
        raise PlayerFileError(f"{info.file_size} bytes unpacked, more than {MAX_LIST_BYTES}, "
                              "the limit for a player list", file=where)
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > _RATIO_FLOOR and ratio > MAX_ZIP_RATIO:
        raise PlayerFileError(
            f"compression ratio {ratio:.0f}:1, above the limit {MAX_ZIP_RATIO}:1 for a player "
            "list (possible zip bomb)", file=where)
    return info


class ListReader:
    """One pass over a player list file (FIDE TXT or XML, a CSV, or a zip of one).

    ``kinds``: the time controls to build (:data:`RATING_KINDS`); iterating gives
    ``{kind: PlayerData}`` per player kept. ``only``: (FIDE id, name) pairs of the
    players to keep (None keeps everyone); ``lenient``: count unreadable lines of
    anyone (else only other players' are counted, and one of a kept player raises).
    After iteration, ``skipped`` counts the unreadable lines, ``month`` is the
    list's month (``"YYYY-MM"`` from the file name or header, or None), ``layout``
    "combined", "single", "xml" or "csv", ``hint`` the time control the file name
    gives. ``read_bytes``/``size`` measure progress. Budgets: :data:`BUDGETS`.
    Raises :class:`PlayerFileError` (one line: file, line, what).
    """

    def __init__(self, path: str | os.PathLike[str] | bytes, kinds: Iterable[str] = ("standard",),
                 *, only: Iterable[tuple[int | None, str | None]] | None = None,
                 lenient: bool = False) -> None:
        self.kinds = tuple(_check_kind(k) for k in kinds)
        self._path = path
        if isinstance(path, (bytes, bytearray, memoryview)):
            self.file = "<bytes>"
        elif isinstance(path, (str, os.PathLike)):
            self.file = str(os.fspath(path))
        else:
            raise InputError(f"expected a path or bytes, got {path!r}")
        self.scan = _Scan(self.file, self.kinds, _Wanted(only) if only is not None else None,
                          lenient, hint=_hint(self.file), month=month_of(os.path.basename(
                              self.file)), notes=[])

    @property
    def skipped(self) -> int:
        return self.scan.skipped

    @property
    def month(self) -> str | None:
        return self.scan.month

    @property
    def layout(self) -> str:
        return self.scan.layout

    @property
    def hint(self) -> str | None:
        return self.scan.hint

    @property
    def notes(self) -> list[str]:
        return list(self.scan.notes or ())

    @property
    def read_bytes(self) -> int:
        return self.scan.read_bytes

    @property
    def size(self) -> int | None:
        return self.scan.size

    def rows(self) -> Iterator[ListRow]:
        """The players as store rows ``(fide_id, name, federation, sex, title,
        birth_year, flag, {kind: (rating, games, k)})``; for a TXT list, much faster
        than building each PlayerData (lenient: bad lines counted in ``skipped``)."""
        self.scan.rows = True
        for item in self._records():
            yield item if isinstance(item, tuple) else _row_of(item)

    def __iter__(self) -> Iterator[dict[str, PlayerData]]:
        self.scan.rows = False
        return self._records()

    def _records(self) -> Iterator[Any]:
        scan = self.scan
        try:
            with _open_source(self._path, lambda _s: False) as (stream, _file):
                wrong = wrong_kind_of_stream(stream, "list")
                if wrong is not None:       # a PDF, .ods, .xls, web page, .xlsx...
                    raise PlayerFileError(wrong, file=scan.file)
                is_zip = stream.read(4) == b"PK\x03\x04"
                stream.seek(0)
                if not is_zip:
                    try:
                        scan.size = os.fstat(stream.fileno()).st_size
                    except (OSError, AttributeError, io.UnsupportedOperation):
                        scan.size = len(stream.getbuffer()) if isinstance(
                            stream, io.BytesIO) else None
                    if scan.size is not None and scan.size > MAX_LIST_BYTES:
                        raise PlayerFileError(f"{scan.size} bytes, more than {MAX_LIST_BYTES}, "
                                              "the limit for a player list", file=scan.file)
                    yield from _scan_stream(stream, scan)
                    return
                with zipfile.ZipFile(stream) as archive:
                    info = _zip_member(archive, scan.file)
                    scan.file = f"{self.file}!{info.filename}"
                    scan.hint = scan.hint or _hint(info.filename)
                    scan.month = scan.month or month_of(info.filename)
                    scan.size = info.file_size
                    with archive.open(info) as member:
                        yield from _scan_stream(member, scan)
        except XlFideError:
            raise
        except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError,
                EOFError, zlib.error) as exc:
            raise PlayerFileError(f"cannot read the zip file: {exc}", file=scan.file) from None
        except (OSError, ValueError) as exc:
            raise _cannot_read(scan.file, exc) from None


def read_player_file(path: str | os.PathLike[str] | bytes, rating_kind: str = "standard",
                     *, only: Iterable[tuple[int | None, str | None]] | None = None
                     ) -> PlayerDirectory:
    """Return a :class:`PlayerDirectory` of the players in a FIDE list or a CSV.

    The format is told from the content: XML when it starts with ``<``, FIDE TXT
    when the first line is an ``ID Number  Name ...`` header, CSV otherwise. A
    zip holding one such file (as FIDE's downloads are) is opened. ``path`` may
    also be the file's bytes. ``rating_kind`` as in :func:`read_fide_txt`: the
    event's time control (FIDE R&B §7.2.1: a standard rating is the fallback).
    ``only``: the event's players as (FIDE id, name) pairs: the file is streamed
    and only their records are built (by FIDE id; by name for a player without
    one); a line of another player that cannot be read is counted in the
    directory's ``skipped`` and ``notes``, one of an event player raises.
    Budgets (file size, zip ratio, line length, blank lines): :data:`BUDGETS`.
    Raises :class:`PlayerFileError` naming the file and line.
    """
    kind = _check_kind(rating_kind)
    reader = ListReader(path, (kind,), only=only)
    players = [rec[kind] for rec in reader]
    notes = reader.notes
    if reader.skipped:
        lines = "line" if reader.skipped == 1 else "lines"
        notes.append(f"{reader.file}: {reader.skipped} unreadable {lines} skipped "
                     "(not of this event's players)")
    try:
        return PlayerDirectory(players, skipped=reader.skipped, notes=notes)
    except PlayerFileError:
        raise
    except InputError as exc:
        raise PlayerFileError(str(exc), file=reader.file) from None
