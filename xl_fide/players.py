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
import os
import re
import unicodedata
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NoReturn, Union
from xml.etree.ElementTree import ParseError as XmlParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from .errors import InputError, PlayerFileError, XlFideError
from .names import normalise_name

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
]

#: The three lists FIDE publishes; ``rating_kind`` picks one from a combined list.
RATING_KINDS = ("standard", "rapid", "blitz")

Source = Union[str, bytes, bytearray, "os.PathLike[str]"]

# A TXT or CSV file bigger than this is refused (FIDE's combined TXT list is ~300 MB).
_MAX_FILE = 1 << 31


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
    :class:`InputError` names both.
    """

    def __init__(self, players: Iterable[PlayerData]) -> None:
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


# --- reading sources ----------------------------------------------------------

def _check_kind(rating_kind: str) -> str:
    if rating_kind not in RATING_KINDS:
        raise InputError(
            f"rating_kind must be one of {', '.join(RATING_KINDS)}, got {rating_kind!r}")
    return rating_kind


def _read_path(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    name = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            return handle.read(), str(name)
    except (OSError, ValueError) as exc:
        raise _cannot_read(str(name), exc) from exc


def _cannot_read(file: str, exc: Exception) -> PlayerFileError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return PlayerFileError(f"cannot read the file: {reason}", file=file)


def _load(source: Source, is_text) -> tuple[bytes | str, str]:
    """Return (content, display name): bytes are content, a str is text when
    ``is_text(str)`` says so, anything else is a path."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>"
    if isinstance(source, str) and is_text(source):
        return source, "<string>"
    if isinstance(source, (str, os.PathLike)):
        return _read_path(source)
    raise InputError(f"expected a path, text or bytes, got {source!r}")


def _has_newline(text: str) -> bool:
    return "\n" in text or "\r" in text


def _split_lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


_YEAR = re.compile(r"([0-9]{4})(?:-[0-9]{2}-[0-9]{2})?")

# How each numeric field is read: "id" (positive), "zero" (0 means none: a rating
# or K of 0 is how lists write "no rating"), "count" (0 stays 0), "year".
_NUMBER_RULES = {
    "fide_id": "id", "rating": "zero", "k": "zero", "peak_rating": "zero",
    "standard_rating": "zero",
    "games": "count", "career_games": "count", "birth_year": "year",
}


def _build(raw: dict[str, str], fail, file: str, line: int | None) -> PlayerData:
    """Return a PlayerData from the stripped text of each field (``raw`` is consumed).

    ``fail(field, problem)`` raises a located :class:`PlayerFileError` for a bad
    value; a blank number is None.
    """
    for key, rule in _NUMBER_RULES.items():
        value = raw.get(key)
        if value is None:
            continue
        if not value:
            raw[key] = None
        elif rule == "year":
            match = _YEAR.fullmatch(value)
            if match is None:
                fail(key, f"expected a year such as 1990, got {value!r}")
            raw[key] = int(match.group(1)) or None
        elif value.isdigit() and value.isascii() and len(value) <= 12:
            number = int(value)
            if number == 0 and rule != "count":
                if rule == "id":
                    fail(key, f"expected a FIDE id (digits), got {value!r}")
                number = None
            raw[key] = number
        else:
            what = "a FIDE id (digits)" if rule == "id" else "a whole number"
            fail(key, f"expected {what}, got {value!r}")
    raw.setdefault("fide_id", None)
    raw.setdefault("name", "")
    try:
        return PlayerData(**raw)
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
    line break). Bytes are read as UTF-8, else Latin-1. Column positions come from
    the header line. ``rating_kind`` ("standard", "rapid" or "blitz") picks the
    rating, games and K of a combined list; a single list has one rating column,
    read whatever ``rating_kind`` says. Old one-letter titles become GM, WGM...
    Raises :class:`PlayerFileError` (file, line, column, field, value quoted).
    Example: a line with ``2612`` under ``SRtng`` gives ``rating == 2612``.
    """
    kind = _check_kind(rating_kind)
    content, file = _load(path_or_text, _has_newline)
    return _parse_txt(content, file, kind)


def _parse_txt(content: bytes | str, file: str, kind: str) -> list[PlayerData]:
    if isinstance(content, bytes):
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = content.decode("latin-1")
    else:
        text = content.removeprefix("\ufeff")
    lines = _split_lines(text)

    header_no = next((n for n, line in enumerate(lines) if line.strip()), None)
    if header_no is None:
        raise PlayerFileError("empty file: expected a FIDE rating list header "
                              "('ID Number  Name ...')", file=file, line=1)
    header = lines[header_no]
    if not _is_txt_header(header):
        raise PlayerFileError(
            f"not a FIDE rating list header (expected 'ID Number  Name ...'), got {header[:80]!r}",
            file=file, line=header_no + 1)

    columns = _header_columns(header)
    spans: dict[str, tuple[int, int, str]] = {}   # key -> (start, end, header word)
    for idx, (start, word) in enumerate(columns):
        end = columns[idx + 1][0] if idx + 1 < len(columns) else None
        low = word.lower()
        key = "rating" if _MONTH_COLUMN.fullmatch(low) else _TXT_COLUMNS.get(low)
        if key is None:
            continue
        if key in spans:
            raise PlayerFileError(f"header: column {word!r} appears twice",
                                  file=file, line=header_no + 1, column=start + 1, field=word)
        spans[key] = (0 if idx == 0 else start, end if end is not None else 1 << 30, word)

    if any("." in key for key in spans):   # a combined list: SRtng ... BK
        if kind != "standard" and "standard.rating" in spans:   # R&B: rated with it
            spans["standard_rating"] = spans["standard.rating"]
        for item in ("rating", "games", "k"):
            spans.pop(item, None)
            if f"{kind}.{item}" in spans:
                spans[item] = spans[f"{kind}.{item}"]
    if "rating" not in spans:
        raise PlayerFileError(
            f"header: no rating column for rating_kind {kind!r} "
            f"(expected SRtng, RRtng, BRtng or a month such as MAY25)",
            file=file, line=header_no + 1)

    slices = [(key, start, end) for key, (start, end, _word) in spans.items()
              if "." not in key]
    number = 0

    def fail(key: str, problem: str) -> NoReturn:
        start, _end, word = spans[key]
        raise PlayerFileError(f"column {word!r}: {problem}", file=file, line=number,
                              column=start + 1, field=word)

    players: list[PlayerData] = []
    for number, line in enumerate(lines[header_no + 1:], start=header_no + 2):
        if not line or line.isspace():
            continue
        raw = {key: line[start:end].strip() for key, start, end in slices}
        title = raw.get("title")
        if title in _OLD_TITLES:
            raw["title"] = _OLD_TITLES[title]
        players.append(_build(raw, fail, file, number))
    return players


# --- FIDE XML -------------------------------------------------------------------

# XML tag -> PlayerData field (rating, games and k are chosen by rating_kind).
_XML_TAGS = {
    "fideid": "fide_id", "name": "name", "country": "federation", "sex": "sex",
    "title": "title", "w_title": "w_title", "o_title": "o_title",
    "foa_title": "foa_title", "birthday": "birth_year", "flag": "flag",
}


def _xml_player(values: dict[str, str], lines: dict[str, int], player_line: int,
                file: str, kind: str) -> PlayerData:
    """Return the PlayerData of one ``<player>`` from the text of its tags."""
    prefix = f"{kind}_" if kind != "standard" and f"{kind}_rating" in values else ""
    tags = dict(_XML_FIELDS)
    if prefix:
        tags["standard_rating"] = "rating"     # kept for rapid/blitz (R&B: rated with it)
        for item in ("rating", "games", "k"):
            tags[item] = prefix + item
    raw = {key: values.get(tag, "") for key, tag in tags.items()}

    def fail(key: str, problem: str) -> NoReturn:
        tag = tags[key]
        raise PlayerFileError(f"<{tag}>: {problem}", file=file,
                              line=lines.get(tag, player_line), field=tag)

    return _build(raw, fail, file, player_line)


_XML_FIELDS = {key: tag for tag, key in _XML_TAGS.items()}
_XML_FIELDS.update(rating="rating", games="games", k="k")
_XML_CHUNK = 1 << 20


def read_fide_xml(path_or_bytes: Source, rating_kind: str = "standard") -> list[PlayerData]:
    """Return the players of a FIDE XML rating list.

    FIDE rating-list download (ratings.fide.com/download_lists.phtml), XML format:
    ``<playerslist><player><fideid>...``. ``path_or_bytes``: a path, the file's
    bytes, or its text (a ``str`` starting with ``<``). ``rating_kind`` picks
    ``<rapid_rating>``/``<blitz_rating>`` (and their games and K) when the player
    has them, else ``<rating>``. Parsed with defusedxml: a file that declares
    entities (an "XML bomb") or refers to external ones is refused.
    Raises :class:`PlayerFileError` (file, line, tag, value quoted).
    """
    kind = _check_kind(rating_kind)
    source = path_or_bytes
    if isinstance(source, str) and source.lstrip().startswith("<"):
        return _parse_xml(io.StringIO(source), "<string>", kind)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _parse_xml(io.BytesIO(bytes(source)), "<bytes>", kind)
    if not isinstance(source, (str, os.PathLike)):
        raise InputError(f"expected a path, text or bytes, got {source!r}")
    file = str(os.fspath(source))
    try:
        handle = open(source, "rb")
    except (OSError, ValueError) as exc:
        raise _cannot_read(file, exc) from exc
    with handle:
        return _parse_xml(handle, file, kind)


def _parse_xml(stream, file: str, kind: str) -> list[PlayerData]:
    """Parse XML read from ``stream`` (binary or text, anything with ``read(n)``).

    defusedxml's parser is built with no tree target, so that it installs only its
    guards (entity declarations, external references) on the expat parser; the
    element handlers below are set on that expat parser directly, for speed.
    """
    players: list[PlayerData] = []
    depth = 0
    in_player = False
    player_line = 0
    values: dict[str, str] = {}
    lines: dict[str, int] = {}
    text: list[str] = []
    parser = DefusedXMLParser(target=_NoTarget(), forbid_dtd=False,
                              forbid_entities=True, forbid_external=True)
    expat = parser.parser

    def line() -> int | None:
        try:
            return expat.CurrentLineNumber
        except Exception:  # noqa: BLE001 (the parser may be gone after an error)
            return None

    def start(tag: str, _attrib) -> None:
        nonlocal depth, in_player, player_line, values, lines
        depth += 1
        if depth == 3:
            if in_player:
                text.clear()
                lines[tag] = expat.CurrentLineNumber
        elif depth == 2:
            if tag == "player":
                in_player = True
                player_line = expat.CurrentLineNumber
                values = {}
                lines = {}
        elif depth == 1 and tag != "playerslist":
            raise PlayerFileError(
                f"not a FIDE player list: the root element is <{tag}>, expected <playerslist>",
                file=file, line=expat.CurrentLineNumber, field=tag)

    def end(tag: str) -> None:
        nonlocal depth, in_player
        if depth == 3:
            if in_player:
                values[tag] = "".join(text).strip()
        elif depth == 2 and in_player:
            in_player = False
            players.append(_xml_player(values, lines, player_line, file, kind))
        depth -= 1

    expat.StartElementHandler = start
    expat.EndElementHandler = end
    expat.CharacterDataHandler = text.append
    try:
        while chunk := stream.read(_XML_CHUNK):
            parser.feed(chunk)
        parser.close()
    except PlayerFileError:
        raise
    except DefusedXmlException as exc:
        raise PlayerFileError(
            f"refused: the XML declares entities or external references ({exc}); "
            "FIDE lists never do (possible XML bomb)", file=file, line=line()) from None
    except XmlParseError as exc:
        err_line, column = getattr(exc, "position", (None, None))
        message = str(exc).split(": line ")[0]
        raise PlayerFileError(f"not well-formed XML: {message}", file=file, line=err_line,
                              column=None if column is None else column + 1) from None
    except (OSError, ValueError, LookupError, zipfile.BadZipFile, zlib.error,
            EOFError, RuntimeError) as exc:
        raise PlayerFileError(f"cannot read the XML: {exc}", file=file, line=line()) from None
    return players


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
    too); blank rows are skipped.
    Raises :class:`PlayerFileError` naming file, line and column, e.g. for a
    rating of ``'17x0'``.
    """
    content, file = _load(path_or_text, _has_newline)
    return _parse_csv(content, file)


def _parse_csv(content: bytes | str, file: str) -> list[PlayerData]:
    if isinstance(content, bytes):
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = content.count(b"\n", 0, exc.start) + 1
            raise PlayerFileError(
                f"not UTF-8 (byte {content[exc.start:exc.start + 1]!r}); "
                "save the CSV as 'CSV UTF-8'", file=file, line=line) from None
    else:
        text = content.removeprefix("\ufeff")

    first = next((ln for ln in _split_lines(text) if ln.strip()), "")
    delimiter = max((",", ";", "\t"), key=first.count) if first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    columns: dict[str, tuple[int, str]] = {}   # field -> (index, header as written)
    header_seen = False
    players: list[PlayerData] = []
    number = 0

    def fail(key: str, problem: str) -> NoReturn:
        label = columns[key][1]
        raise PlayerFileError(f"column {label!r}: {problem}", file=file, line=number,
                              field=label)

    try:
        for row in reader:
            number = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if not header_seen:
                header_seen = True
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
                continue

            raw = {field: (row[index].strip() if index < len(row) else "")
                   for field, (index, _label) in columns.items()}
            players.append(_build(raw, fail, file, number))
    except csv.Error as exc:
        raise PlayerFileError(f"cannot read the CSV: {exc}", file=file,
                              line=reader.line_num or None) from None
    if not header_seen:
        raise PlayerFileError("empty file: expected a header row such as 'fide_id,name,rating'",
                              file=file, line=1)
    return players


# --- any of them ------------------------------------------------------------------

_BOM = b"\xef\xbb\xbf"


def _read_stream(stream, file: str, kind: str) -> list[PlayerData]:
    """Tell the format from the first bytes of a seekable binary stream; parse it."""
    head = stream.read(1 << 16)
    start = head.removeprefix(_BOM).lstrip()
    if start.startswith(b"<"):
        stream.seek(0)
        return _parse_xml(stream, file, kind)
    rest = stream.read(_MAX_FILE + 1 - len(head))
    if len(head) + len(rest) > _MAX_FILE:
        raise PlayerFileError(f"the file is larger than {_MAX_FILE} bytes", file=file)
    data = head + rest
    first = start.split(b"\n", 1)[0].decode("latin-1")
    if _is_txt_header(first):
        return _parse_txt(data, file, kind)
    return _parse_csv(data, file)


def _read_zip(stream, file: str, kind: str) -> list[PlayerData]:
    """Parse the one .txt, .xml or .csv file of a zip archive (as FIDE ships its lists)."""
    with zipfile.ZipFile(stream) as archive:
        members = [info for info in archive.infolist()
                   if not info.is_dir()
                   and info.filename.lower().endswith((".txt", ".xml", ".csv"))]
        if len(members) != 1:
            names = [info.filename for info in archive.infolist()]
            raise PlayerFileError(
                f"expected one .txt, .xml or .csv file in the zip, found {names!r}", file=file)
        with archive.open(members[0]) as member:
            return _read_stream(member, f"{file}!{members[0].filename}", kind)


def read_player_file(path: str | os.PathLike[str] | bytes,
                     rating_kind: str = "standard") -> PlayerDirectory:
    """Return a :class:`PlayerDirectory` of the players in a FIDE list or a CSV.

    The format is told from the content: XML when it starts with ``<``, FIDE TXT
    when the first line is an ``ID Number  Name ...`` header, CSV otherwise. A
    zip holding one such file (as FIDE's downloads are) is opened. ``path`` may
    also be the file's bytes. ``rating_kind`` as in :func:`read_fide_txt`.
    XML is read as a stream; a TXT or CSV file is read whole (at most 2 GiB).
    Raises :class:`PlayerFileError` naming the file and line.
    """
    kind = _check_kind(rating_kind)
    if isinstance(path, (bytes, bytearray, memoryview)):
        file = "<bytes>"
        opener = lambda: io.BytesIO(bytes(path))  # noqa: E731
    elif isinstance(path, (str, os.PathLike)):
        file = str(os.fspath(path))
        opener = lambda: open(path, "rb")  # noqa: E731
    else:
        raise InputError(f"expected a path or bytes, got {path!r}")
    try:
        with opener() as stream:
            is_zip = stream.read(4) == b"PK\x03\x04"
            stream.seek(0)
            players = _read_zip(stream, file, kind) if is_zip else _read_stream(stream, file, kind)
    except XlFideError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError,
            EOFError, zlib.error) as exc:
        raise PlayerFileError(f"cannot read the zip file: {exc}", file=file) from None
    except (OSError, ValueError) as exc:
        raise _cannot_read(file, exc) from None
    return _with_file_name(players, file)


def _with_file_name(players: list[PlayerData], file: str) -> PlayerDirectory:
    try:
        return PlayerDirectory(players)
    except PlayerFileError:
        raise
    except InputError as exc:
        raise PlayerFileError(str(exc), file=file) from None
