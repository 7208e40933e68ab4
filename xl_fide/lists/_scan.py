"""One read of a list (:class:`_Scan`): the players wanted, the time control and
month told by the file name, and a :class:`PlayerData` built from the text of its
fields (the number rules shared by the TXT, XML and CSV readers)."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import IO, NoReturn

from xl_fide.errors import InputError, PlayerFileError
from xl_fide._names import normalise_name
from xl_fide.lists._budget import _CHUNK, MAX_LINE, MAX_LIST_BYTES, _Budget
from xl_fide.lists._model import RATING_KINDS, PlayerData

# --- what to keep ----------------------------------------------------------------

_KEY_TEXT = re.compile(r"[^\W_]*")


def _name_key(normalised: str) -> str:
    """The first (up to) four letters of a normalised name: a cheap first filter."""
    match = _KEY_TEXT.match(normalised)
    return match.group()[:4] if match else ""


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
        if has_id and not self.names:   # only a player without an id can match: none
            return False
        key = normalise_name(name)
        return key in self.names or (not has_id and key in self.id_names)


#: How many skipped lines a message names (``lists import``); the rest are counted.
SHOWN_SKIPPED = 5


def skipped_text(error: PlayerFileError, fide_id: str = "", name: str = "") -> str:
    """One skipped line, on one line: ``FILE:LINE[:COLUMN]: field: why``, then the id and
    name the line gives (quoted by :func:`repr`, control characters escaped as the
    error's own text escapes them), when it gives them."""
    text = str(error)
    who = [f"{label} {value[:80]!r}" for label, value in (("id", fide_id), ("name", name))
           if value]
    if who:
        text += " (the line's " + ", ".join(who) + ")"
    return text


@dataclass
class _Scan:
    """One read of a list: what to build, and what was found besides the players."""

    file: str
    kinds: tuple[str, ...]
    wanted: _Wanted | None = None
    lenient: bool = False           # count every unreadable line instead of failing
    hint: str | None = None         # the list's time control told by its file name
    skipped: int = 0
    month: str | None = None        # "YYYY-MM" from the header (a TXT list's month column)
    name_month: str | None = None   # "YYYY-MM" from the file name (or the zip member's)
    layout: str = ""                # "combined", "single", "xml" or "csv"
    xml_combined: bool = False      # an XML list with rapid and blitz tags
    rows: bool = False              # TXT: yield store rows (ListReader.rows)
    notes: list[str] | None = None
    stream: _Budget | None = None
    size: int | None = None         # bytes expected (for a progress bar)
    shown: list[str] = field(default_factory=list)   # the first SHOWN_SKIPPED, named
    skip_log: IO[str] | None = None  # every skipped line, named (``lists import``)

    @property
    def read_bytes(self) -> int:
        return self.stream.total if self.stream is not None else 0

    def skip_or_raise(self, error: PlayerFileError, fide_id: str = "", name: str = "", *,
                      some: bool = False) -> None:
        """:meth:`skip` the line when the read is lenient and reads the whole list; raise
        ``error`` when it is strict or reads only ``some`` players (a look-up)."""
        if not self.lenient or some:
            raise error
        self.skip(error, fide_id, name)

    def skip(self, error: PlayerFileError, fide_id: str = "", name: str = "") -> None:
        """Count a line not kept, and name it: ``error`` (file, line, column, field, why)
        and the id and name the line gives, kept in :attr:`shown` (the first
        :data:`SHOWN_SKIPPED`) and written to :attr:`skip_log` (all)."""
        self.skipped += 1
        if len(self.shown) >= SHOWN_SKIPPED and self.skip_log is None:
            return
        text = skipped_text(error, fide_id, name)
        if len(self.shown) < SHOWN_SKIPPED:
            self.shown.append(text)
        if self.skip_log is not None:
            self.skip_log.write(text + "\n")


_NAME_KIND = re.compile(r"(?:^|[/\\!_])(standard|rapid|blitz)_")


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


def _check_kind(rating_kind: str) -> str:
    if rating_kind not in RATING_KINDS:
        raise InputError(
            f"rating_kind must be one of {', '.join(RATING_KINDS)}, got {rating_kind!r}")
    return rating_kind


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


# --- what a whole list entry holds -------------------------------------------------

#: The title columns are text (Tit: GM, IM, FM, CM, WGM...; WTit the women's titles;
#: FOA: AGM, AIM, AFM, ACM; OTit: arbiters', trainers' and organisers' codes such as
#: ``IA,FST``): a title not known here is kept as written (FIDE adds titles).
_FEDERATION = re.compile(r"[A-Za-z]{3}")
_TEXT_COLUMNS = ("sex", "title", "w_title", "o_title", "foa_title")
#: The ratings a FIDE list shows: four digits (no list shows a rating under 1000, the
#: lowest rating floor FIDE has used, 1400 since March 2024, FIDE B.02 §7.1.4; 0 or
#: blank: none).
RATING_RANGE = (1000, 3999)
#: The K a FIDE list shows: 10 to 40 (FIDE B.02 §8.3.3: 10, 20, 40; 15, 25, 30 on
#: older lists; 0 or blank: none).
K_RANGE = (10, 40)
_PREFIXES = ("", "standard.", "rapid.", "blitz.")


def _whole_number(value: str) -> bool:
    return value.isdigit() and value.isascii() and len(value) <= 12


def federation_of(text: str) -> str:
    """A list's federation as stored: three ASCII letters in capitals (``esp`` is
    ``ESP``); any other text as it is."""
    return text.upper() if _FEDERATION.fullmatch(text) else text


def sex_of(text: str) -> str:
    """A list's sex as stored: ``m``/``f`` in capitals; any other text (blank: not
    given) as it is."""
    return text.upper() if text in ("m", "f") else text


def entry_problem(values: Mapping[str, str]) -> tuple[str, str] | None:
    """Why an entry of a FIDE list (a TXT line, an XML ``<player>``) is not to be
    trusted, as ``(key, problem)``; None when it is whole.

    ``values``: the stripped text of each column the list has, by key (``fide_id``,
    ``name``, ``federation``, ``sex``, ``title``, ``w_title``, ``o_title``,
    ``foa_title``, ``birth_year``, ``flag``; a one-rating list's ``rating``,
    ``games``, ``k``; a combined list's ``standard.rating``, ``rapid.k``...). A key
    that is absent is a column the list does not have, and is not checked.

    The rule (no part of a number: a line cut short, or damaged, must not give a
    player a part of a rating, K, games count or year; a player whose id and rating
    are readable is kept, with the text FIDE's format allows kept as it is):

    1. the FIDE id and the name are there; the federation is three letters (in
       lower case too: stored in capitals);
    2. the sex and the title columns (Tit, WTit, OTit, FOA) are text without control
       characters, kept as written, blank too: a title or code not known here is
       kept, not refused; a sex ``m``/``f`` is stored ``M``/``F``;
    3. each number is a whole number: a rating is 0 or blank (none) or within
       :data:`RATING_RANGE` (four digits); a K is 0 or blank (none: no K given, the
       engine decides K by FIDE B.02 §8.3.3) or within :data:`K_RANGE`; games are
       digits; a birth year is 0, blank or four digits;
    4. on a list with a K column, each K comes with its rating (a rating may come
       without its K).

    A line cut exactly at the end of a field, when every later field may be blank
    (after a rating, a K, a birth year, a flag), cannot be told from a whole line:
    what it gives is then whole numbers, never a part of one; a line cut inside a
    title column (the ratings after it lost: the player unrated on that line) keeps
    the part of the title as its text.
    """
    for key in ("fide_id", "name"):
        if not values.get(key, "x"):
            return key, "blank: a FIDE list gives every player an id and a name"
    fed = values.get("federation")
    if fed is not None and not _FEDERATION.fullmatch(fed):
        return "federation", f"expected a federation of three letters, got {fed!r}"
    for key in _TEXT_COLUMNS:
        text = values.get(key)
        if text and not text.isprintable():
            return key, f"a control character in the text {text!r}"
    born = values.get("birth_year")
    if born and not _YEAR.fullmatch(born):
        return "birth_year", f"expected a year such as 1990, got {born!r}"
    for prefix in _PREFIXES:
        problem = _rating_problem(values, prefix)
        if problem is not None:
            return problem
    return None


def _range_problem(values: Mapping[str, str], key: str, bounds: tuple[int, int],
                   what: str) -> tuple[str, str] | None:
    """A whole number ``values[key]`` outside ``bounds`` (0 or blank: none)."""
    value = values.get(key, "")
    number = int(value) if _whole_number(value) else 0
    low, high = bounds
    if number and not low <= number <= high:
        return key, f"expected {what} from {low} to {high} (0 or blank: none), got {value!r}"
    return None


def number_problem(values: Mapping[str, str]) -> tuple[str, str] | None:
    """Rule 3 of :func:`entry_problem` for a row of xl-fide's CSV (the user's own
    file): a ``rating``, ``peak_rating`` or ``standard_rating`` within
    :data:`RATING_RANGE`, a ``k`` within :data:`K_RANGE` (0 or blank: none)."""
    for key in ("rating", "peak_rating", "standard_rating"):
        problem = _range_problem(values, key, RATING_RANGE, "a rating")
        if problem is not None:
            return problem
    return _range_problem(values, "k", K_RANGE, "a K")


def _rating_problem(values: Mapping[str, str], prefix: str) -> tuple[str, str] | None:
    """Rules 3 and 4 of :func:`entry_problem` for one time control (``prefix``): a K
    blank or 0 beside a rating is "no K given" (kept: the engine decides K)."""
    rating_key, games_key, k_key = prefix + "rating", prefix + "games", prefix + "k"
    if rating_key not in values:
        return None
    for key in (rating_key, games_key, k_key):
        value = values.get(key, "")
        if value and not _whole_number(value):
            return key, f"expected a whole number, got {value!r}"
    problem = _range_problem(values, rating_key, RATING_RANGE, "a rating")
    if problem is not None or k_key not in values:
        return problem
    problem = _range_problem(values, k_key, K_RANGE, "a K")
    if problem is not None:
        return problem
    rating, k = int(values[rating_key] or 0), int(values[k_key] or 0)
    if k and not rating:
        return rating_key, (f"no rating for the K {values[k_key]!r}: a FIDE list gives each "
                            "K with a rating (a line cut short?)")
    return None


def _build(raw: dict[str, str], fail: Callable[[str, str], NoReturn], file: str,
           line: int | None) -> PlayerData:
    """Return a PlayerData from the stripped text of each field (``raw`` is consumed).

    ``fail(field, problem)`` raises a located :class:`PlayerFileError` for a bad
    value; a blank number is None; a federation of three letters and a sex ``m``/``f``
    are stored in capitals (:func:`federation_of`, :func:`sex_of`).
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
    if "federation" in out:
        out["federation"] = federation_of(out["federation"])
    if "sex" in out:
        out["sex"] = sex_of(out["sex"])
    try:
        return PlayerData(**out)
    except InputError as exc:
        raise PlayerFileError(str(exc), file=file, line=line) from None


def _stream(raw, scan: _Scan, max_line: int | None = MAX_LINE, buffered: bool = True):
    """``raw`` under the budgets; buffered for CSV and XML, not for TXT (read by chunks)."""
    scan.stream = _Budget(raw, scan.file, MAX_LIST_BYTES, max_line)
    return io.BufferedReader(scan.stream, _CHUNK) if buffered else scan.stream


