"""FIDE's XML rating lists.

**XML** (``players_list_xml_foa.xml``, ``standard_rating_list.xml``...):
  ``<playerslist><player><fideid/><name/><country/><sex/><title/><w_title/>
  <o_title/><foa_title/><rating/><games/><k/>[<rapid_rating/><rapid_games/>
  <rapid_k/><blitz_rating/><blitz_games/><blitz_k/>]<birthday/><flag/></player>``.
  Read with ``defusedxml``: entity declarations (XML bombs) and external
  references are refused.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from typing import NoReturn
from xml.etree.ElementTree import ParseError as XmlParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from xl_fide.errors import PlayerFileError
from xl_fide.lists._budget import _CHUNK, MAX_LINE, Source, _open_source
from xl_fide.lists._model import PlayerData
from xl_fide.lists._scan import (_Scan, _build, _check_kind, _for_kind, _hint, _stream,
                                entry_problem)

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
        record = {kind: _xml_player(values, lines, player_line, scan, kind)
                  for kind in scan.kinds}
        _check_player(values, lines, player_line, scan)
    except PlayerFileError as exc:
        scan.skip_or_raise(exc, values.get("fideid", ""), values.get("name", ""),
                           some=wanted is not None)
        return
    found.append(record)


# XML tag -> the key of :func:`~xl_fide.lists._scan.entry_problem`.
_XML_KEYS = dict(_XML_TAGS, rating="rating", games="games", k="k",
                 **{f"{kind}_{item}": f"{kind}.{item}" for kind in ("rapid", "blitz")
                    for item in ("rating", "games", "k")})
_XML_TAG_OF = {key: tag for tag, key in _XML_KEYS.items()}


def _check_player(values: dict[str, str], lines: dict[str, int], player_line: int,
                  scan: _Scan) -> None:
    """Refuse a ``<player>`` that is not whole (the rule of
    :func:`~xl_fide.lists._scan.entry_problem`, as for a TXT line)."""
    problem = entry_problem({_XML_KEYS[tag]: value for tag, value in values.items()
                             if tag in _XML_KEYS})
    if problem is not None:
        tag = _XML_TAG_OF[problem[0]]
        raise PlayerFileError(f"<{tag}>: {problem[1]}", file=scan.file,
                              line=lines.get(tag, player_line), field=tag)


class _NoTarget:
    """A parser target with no handlers: ours are set on the expat parser."""


