"""Tournament Report Files (TRF16, TRF-2026, JaVaFo TRF(x)): read them, write TRF16 back.

FIDE Handbook C.04 Annex 2 (TRF16) and TRF-2026; JaVaFo AUM for the ``XX?`` lines.
Column layout of FIDE Handbook C.04 Annex 2 (TRF16) and its 2026 revision (TRF-2026).

Reading
-------
:func:`read_trf` (a path or an open file) and :func:`parse_trf` (``str`` or ``bytes``)
return a frozen :class:`Tournament`. Bytes are decoded in the ``encoding`` given, else
as UTF-8 with a BOM, UTF-16 with a BOM, UTF-8, Windows-1252 when every byte 0x80-0x9F
is one of its characters (Swiss-Manager on Windows: ``Š Ž Œ – ’``), else Latin-1;
``Tournament.encoding`` says which. Lines may end in LF, CRLF or a bare CR; columns
are characters. A file that is a workbook, a PDF, a web page... (see
:mod:`xl_fide._filekind`) raises TrfError saying what it is.

Reading is lenient by default: a problem becomes a :class:`TrfWarning` (file, line,
column, message) in ``Tournament.warnings`` and the value is read as unknown
(``None``) or, for a result code of a cell without an opponent, as ``Z``. With
``strict=True`` the first problem
raises :class:`~xl_fide.errors.TrfError` instead. Some problems are always fatal
(:class:`TrfError` whatever ``strict`` says): an empty file, no ``001`` line, a
start rank that is not a number, a duplicate start rank, an opponent that is not a
number or not a player, a result code none of TRF16's in a game with an opponent, a
001 line whose fields after the name are shifted (the line a character or two short
or long). Nothing else than :class:`TrfError` is ever raised for bad
input.

Checks
------
Warnings (errors when ``strict``), each at file:line:column: the two sides of a game
that disagree, by :func:`xl_fide.rules.results.pair_problem` (both won, ``+`` on both sides,
a bye code ``H F U Z`` against a played game, the same colour) or whose opponents do
not point at each other; a non-zero FIDE id on two players (naming both lines); a birth
year after the year of the 042 start date or more than :data:`MAX_AGE` (120) years
before it; a control character (C0 but tab, DEL) in a line, and a C1 control
(U+0080-U+009F, a sign of the wrong encoding). Text fields (names, header values) hold
such a character as U+FFFD (:func:`clean_text`), so a sheet or a terminal can show
them; the writer still writes the unchanged lines as read.

Limits
------
Budgets, so that a hostile file is refused quickly and in bounded memory, with a
TrfError naming the file, the line and the limit (whatever ``strict`` says). The largest
real events have a few thousand players and up to about 50 rounds (online); each budget
leaves a wide margin: :data:`MAX_FILE_BYTES` 16 MiB (only that much is read),
:data:`MAX_LINES` 100,000 lines, :data:`MAX_LINE_CHARS` 4,096 characters in a line,
:data:`MAX_ROUNDS` 199 rounds (declared, or round cells in a 001 line or a 132 line; a
larger ``XXR``/``142`` is a warning and ignored), :data:`MAX_PLAYERS` 9,999 players (the
four-column start rank), :data:`MAX_ROUND_CELLS` 250,000 players x rounds. At the
limits a file reads in a few seconds and under 200 MB.

Rounds
------
``Tournament.rounds`` is the declared number of rounds (``XXR`` or TRF-2026 ``142``,
also in ``Tournament.declared_rounds``) when the file has one; round blocks beyond it
are ignored (with a warning if they hold anything). Without a declaration it is the
highest round block with any content: an opponent, or a result code other than
``Z``/blank -- so a trailing block of ``0000 - Z`` (announced absences for a round
not yet paired) does not count. Every player has exactly ``rounds`` games; a missing
block is ``Game(r, None, None, "Z")``.

``Tournament.rounds_played`` is the highest round that has been paired: some cell has
a real opponent and a result other than ``Z``/blank, or a ``U`` (pairing-allocated
bye). Announced ``H``/``F``/``Z`` byes (entered before the round is paired) do not
count. Example: the Gros file has ``XXR 9``, cells ``0000 - Z`` and one ``0000 - H``
in round 5: ``rounds == 9``, ``rounds_played == 4``.

Scoring
-------
``Tournament.scoring`` maps each result code to its points in this event (defaults
1 / 0.5 / 0, ``+`` 1, ``-`` 0, ``H`` 0.5, ``F`` 1, ``U`` 1, ``Z`` 0), changed by
``XXS`` and TRF-2026 ``162`` lines. When ``XXS`` gives different values by colour
(``WW`` != ``BW``...), keys ``"1w"``/``"1b"`` (and ``"=w"``... ) are added and
:meth:`Tournament.points_for` uses them. Scoring never changes rating results:
a game is rated on its code (``1 = 0``) only.

Writing
-------
:func:`write_trf` returns TRF16 text, lines ending in ``"\\n"`` (pass ``newline="\\r"``
for the spec's CR). A tournament read from a file is written record by record in the
file's order: ``001`` lines of unchanged players are written verbatim, changed players
are regenerated in the fixed columns, every other record is kept verbatim (the ``012``
... ``122`` and ``XXR``/``142`` lines are regenerated only when the corresponding field
was changed; a field set in code whose record is missing is written first). Players
added in code follow the last ``001`` line; removed players are left out. A tournament
without records (built in code, see :meth:`Tournament.build`) is written from its
fields: ``012 022 032 042 052 062 072 092 102 (112) 122 (132) XXR (XXS)`` then the
``001`` lines. A regenerated ``001`` line writes an unrated player's rating and an
unknown FIDE id as blanks, a cell without opponent as ``0000 - X``, and drops
trailing empty cells (see :class:`Game`). Blank lines are kept, so a file read and
written unchanged gives back its lines (LF endings). :func:`encode_trf` and
:func:`write_trf_file` encode in the encoding the file was read in (``utf-8`` for a
tournament built in code, or the ``encoding`` given), so nothing is lost;
:func:`write_trf_file` writes atomically and refuses to overwrite unless ``force=True``.
"""

from __future__ import annotations

import codecs
import dataclasses
import functools
import itertools
import operator
import datetime
import os
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, NoReturn, TypeVar

from xl_fide._dates import parse_date_text as parse_date
from xl_fide._dates import parse_yy_mm_dd as _parse_yy_mm_dd
from xl_fide.errors import InputError, OutputExistsError, TrfError
from xl_fide._filekind import wrong_kind_of_bytes
from xl_fide.rules.results import pair_problem
from xl_fide.rules.values import RATING_MAX
from xl_fide.tournament import (
    DEFAULT_SCORING,
    MAX_ROUNDS,
    PLAYED_CODES,
    RESULT_CODES,
    Game,
    NationalRecord,
    Record,
    TeamRecord,
    Tournament,
    TrfPlayer,
    TrfWarning,
    birth_year_of,
    compact_games,
    make_game,
    records_on_read,
    set_compact_games,
)

_T = TypeVar("_T")

__all__ = [
    "REPORT_FIELDS",
    "empty_report_fields",
    "RESULT_CODES",
    "PLAYED_CODES",
    "DEFAULT_SCORING",
    "Game",
    "TrfPlayer",
    "TrfWarning",
    "Record",
    "TeamRecord",
    "NationalRecord",
    "Tournament",
    "read_trf",
    "parse_trf",
    "count_player_lines",
    "write_trf",
    "write_trf_file",
    "parse_date",
    "clean_text",
    "encode_trf",
    "line_ending",
    "MAX_FILE_BYTES",
    "MAX_LINES",
    "MAX_LINE_CHARS",
    "MAX_ROUNDS",
    "MAX_PLAYERS",
    "MAX_ROUND_CELLS",
]

_D = Decimal

# JaVaFo XXS keys and their defaults (JaVaFo AUM, "XXS - Scoring Point System").
_XXS_DEFAULTS = {
    "WW": _D("1"), "BW": _D("1"), "WD": _D("0.5"), "BD": _D("0.5"),
    "WL": _D("0"), "BL": _D("0"), "ZPB": _D("0"), "HPB": _D("0.5"),
    "FPB": _D("1"), "PAB": _D("1"), "FW": _D("1"), "FL": _D("0"),
}
_XXS_SHORTCUTS = {"W": ("WW", "BW", "FW", "FPB"), "D": ("WD", "BD", "HPB")}
# TRF-2026 tag 162 letters -> XXS keys. W: win OTB or by forfeit, full-point bye;
# D: draw or half-point bye; L: loss OTB; A: absence = zero-point bye or forfeit
# loss (``Z`` accepted as a synonym); P: pairing-allocated bye; X: unknown result
# (no code of ours, ignored).
_SCORING_162 = {
    "W": ("WW", "BW", "FW", "FPB"),
    "D": ("WD", "BD", "HPB"),
    "L": ("WL", "BL"),
    "A": ("ZPB", "FL"),
    "Z": ("ZPB", "FL"),
    "P": ("PAB",),
    "X": (),
}

_TRF2026_HEADER_TAGS = frozenset(
    {"142", "152", "162", "172", "182", "192", "202", "212", "222", "352", "362"})
_TEAM_TAGS = frozenset({"013", "310", "320", "330", "300"})
_TRF2026_OTHER_TAGS = frozenset({"240", "250", "260", "299", "801", "802"})

# Budgets (see the module docstring, "Limits"): past one, reading stops with a TrfError.
#: The most bytes (or characters) a TRF may hold: 16 MiB.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: The most lines (blank lines included).
MAX_LINES = 100_000
#: The most characters in one line.
MAX_LINE_CHARS = 4096
#: The most rounds (declared by XXR/142, or round cells in a 001 line):
#: :data:`xl_fide.tournament.MAX_ROUNDS`, the model's own bound.
#: The most players (001 lines); the start rank has four columns.
MAX_PLAYERS = 9999
#: The most round cells of the whole event (players x rounds).
MAX_ROUND_CELLS = 250_000
#: A birth year more than this many years before the event's start is implausible.
MAX_AGE = 120
_MAX_ROUNDS = MAX_ROUNDS

_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def _ascii_int(text: str) -> int | None:
    """Return ``int(text)`` for ASCII digits only, else None (no ``+``, ``_``, Unicode)."""
    return int(text) if text.isascii() and text.isdigit() else None


@functools.lru_cache(maxsize=1024)
def _decimal(text: str) -> Decimal | None:   # a Decimal is immutable: one per text
    if not _DECIMAL.fullmatch(text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:  # pragma: no cover - the regex already excludes it
        return None


# --------------------------------------------------------------------------- reading

class _Ctx:
    """Collects warnings (lenient) or raises at the first problem (strict)."""

    def __init__(self, source: str, strict: bool) -> None:
        self.source = source
        self.strict = strict
        self.warnings: list[TrfWarning] = []

    def warn(self, message: str, line: int | None, column: int | None = None) -> None:
        if self.strict:
            raise TrfError(message, self.source, line, column)
        self.warnings.append(TrfWarning(self.source, line, column, message))

    def fatal(self, message: str, line: int | None = None, column: int | None = None) -> NoReturn:
        raise TrfError(message, self.source, line, column)


def _column(round: int) -> int:  # noqa: A002 - the TRF word
    """The column of round ``round``'s opponent field in a 001 line (TRF16: 92, 102 ...)."""
    return 92 + 10 * (round - 1)


def _col(line: str, first: int, last: int) -> str:
    """Return columns ``first``..``last`` (1-based, inclusive) of ``line``, maybe short."""
    return line[first - 1:last]


def _text(line: str, first: int, last: int) -> str:
    """Return the text field in columns ``first``..``last``, stripped, controls as U+FFFD."""
    return clean_text(_col(line, first, last).strip())


# Separator columns of the static part of a 001 line that must be blank.
_PLAYER_BLANK_COLUMNS = (9, 14, 48, 53, 57, 69, 80, 85, 90, 91)


def _parse_player_line(line: str, lineno: int, ctx: _Ctx, controls: bool | None = None
                       ) -> tuple[TrfPlayer, _Cells]:
    """Parse the fixed columns of a 001 line (TRF16 001 table): the player (its games
    the round cells as read, compact; its ``line`` ``lineno`` and ``raw`` the line) and
    those cells (:data:`_Cells`). ``controls``: whether the line holds a control
    character, when the caller has looked (``None``: looked up here)."""
    if "\t" in line:
        ctx.warn("tab character in a 001 line; columns are counted as characters and may be shifted",
                 lineno, line.index("\t") + 1)
    sr_text = line[4:8].strip()             # columns 5-8
    start_rank = int(sr_text) if sr_text.isascii() and sr_text.isdigit() else None
    if start_rank is None or not 1 <= start_rank <= 9999:
        ctx.fatal(f"start rank (columns 5-8) must be a number 1-9999, got {sr_text!r}", lineno, 5)
    if len(line) < 91 or "".join(_SEPARATORS(line)) != _BLANK_SEPARATORS:
        _check_shift(line, lineno, ctx)
        for c in _PLAYER_BLANK_COLUMNS:
            if len(line) >= c and line[c - 1] != " ":
                ctx.warn(f"column {c} must be blank (field separator), got {line[c - 1]!r}",
                         lineno, c)
    # the text fields (TRF16 columns 10 sex, 11-13 title, 15-47 name, 54-56 federation,
    # 70-79 birth date), as _text reads them; no control character in the line (the
    # usual case): they need no cleaning
    sex, title, name, federation, birth_date = (
        line[9:10].strip(), line[10:13].strip(), line[14:47].strip(), line[53:56].strip(),
        line[69:79].strip())
    if controls or (controls is None and _CONTROL.search(line) is not None):
        sex, title, name, federation, birth_date = (
            clean_text(sex), clean_text(title), clean_text(name), clean_text(federation),
            clean_text(birth_date))
    rating_text, id_text = line[48:52].strip(), line[57:68].strip()
    if rating_text.isdigit() and rating_text.isascii():     # the usual line, read here
        rating: int | None = int(rating_text)
    else:
        rating = _number_field(line, 49, 52, "rating must be a number or blank", lineno, ctx)
    if rating is not None and rating > RATING_MAX:      # it decides the opponents' changes too
        ctx.fatal(f"rating (columns 49-52) must be at most {RATING_MAX} (B.02 §7: a rating "
                  f"is a whole number 0..{RATING_MAX}), got {rating}", lineno, 49)
    if id_text.isdigit() and id_text.isascii():
        fide_id: int | None = int(id_text)
    else:
        fide_id = _number_field(line, 58, 68, "FIDE id must be a number or blank", lineno, ctx)
    birth_year = birth_year_of(birth_date)
    if birth_date and birth_year is None and not re.fullmatch(r"0{4}.*", birth_date):
        ctx.warn(f"birth date must start with a year YYYY, got {birth_date!r}", lineno, 70)
    # points (81-84) and rank (86-89), blank in most files: looked at only when given
    points = _points_field(line, lineno, ctx) if line[80:84].strip() else None
    rank = (_number_field(line, 86, 89, "rank must be a number or blank", lineno, ctx,
                          blank=None) if line[85:89].strip() else None)
    cells = _parse_cells(line, lineno, ctx)
    # the fields as TrfPlayer(...) would hold them (every value checked and normalised
    # here), set in one step: a second check would cost as much as reading the line
    # (each field on its own, in field order: the values kept in the object, see _read_game)
    player = _new(TrfPlayer)
    _set(player, "start_rank", start_rank)
    _set(player, "sex", sex)
    _set(player, "title", title)
    _set(player, "name", name)
    _set(player, "rating", rating or None)
    _set(player, "federation", federation)
    _set(player, "fide_id", fide_id or None)
    _set(player, "birth_date", birth_date)
    _set(player, "birth_year", birth_year)
    _set(player, "points", points)
    _set(player, "rank", rank)
    set_compact_games(player, *cells)      # where TrfPlayer(...) sets games
    _set(player, "line", lineno)
    _set(player, "raw", line)
    return player, cells


_SEPARATORS = operator.itemgetter(*(c - 1 for c in _PLAYER_BLANK_COLUMNS))
_BLANK_SEPARATORS = " " * len(_PLAYER_BLANK_COLUMNS)
#: The separator columns after the name (15-47), the field whose width a writer gets
#: wrong (33 bytes of UTF-8 for 33 characters): every field after it is shifted
_AFTER_NAME = tuple(c for c in _PLAYER_BLANK_COLUMNS if c > 47)


#: The shifts :func:`_check_shift` tries, nearest first: a name padded to 33 bytes of
#: UTF-8 loses a column for each byte over one in a character (up to 3: ``€``), so two
#: to four such characters give 4 to 8
_SHIFTS = tuple(d for n in range(1, 9) for d in (n, -n))


def _check_shift(line: str, lineno: int, ctx: _Ctx) -> None:
    """Fatal when the fields after the name sit ``d`` columns off their TRF16 columns
    (the line 1 to 8 characters short or long): at least two separators after the
    name hold text, and read ``d`` columns over every separator is blank and every
    round cell usual. Read as it is, each field would take its neighbour's characters
    (a rating, an opponent, a result): no warning would say what the line means."""
    off = [c for c in _AFTER_NAME if len(line) >= c and line[c - 1] != " "]
    if len(off) < 2:
        return
    for d in _SHIFTS:               # d > 0: the line is d characters short
        places = [c - 1 - d for c in _AFTER_NAME]
        if (sum(p < len(line) for p in places) >= 4
                and all(p >= len(line) or line[p] == " " for p in places)
                and (len(line) <= 91 - d or _USUAL_CELLS.fullmatch(line[91 - d:]))):
            ctx.fatal(f"the fields after the name (columns 15-47) are {abs(d)} column(s) "
                      f"{'left' if d > 0 else 'right'} of their TRF16 columns: the line is "
                      f"{abs(d)} character(s) too {'short' if d > 0 else 'long'} (a name "
                      "padded to 33 bytes rather than 33 characters?); the name field must "
                      "be 33 characters", lineno, off[0])


def _number_field(line: str, first: int, last: int, what: str, lineno: int, ctx: _Ctx,
                  blank: int | None = 0) -> int | None:
    """Return the ASCII number in columns ``first``..``last``, ``blank`` when they are blank;
    warn (``what``) and return ``blank`` for anything else."""
    text = _col(line, first, last).strip()
    if not text:
        return blank
    number = _ascii_int(text)
    if number is None:
        ctx.warn(f"{what}, got {text!r}", lineno, first)
        return blank
    return number


def _points_field(line: str, lineno: int, ctx: _Ctx) -> Decimal | None:
    text = _col(line, 81, 84).strip()
    if not text:
        return None
    points = _decimal(text)
    if points is None:
        ctx.warn(f"points must be a number like 11.5 or blank, got {text!r}", lineno, 81)
    return points


#: A line's round cells, compact (:func:`xl_fide.tournament.compact_games`): the
#: opponents, the codes and the colours (``w``/``b``/``-``) one character a round, the
#: indexes of the cells written without content (``0000 - Z``: explicit, see Game)
_Cells = tuple[tuple[int | None, ...], str, str, tuple[int, ...]]
_NO_CELLS: _Cells = ((), "", "", ())


#: A usual cell's opponent field (four columns: ASCII digits right-aligned, or blank) ->
#: the start rank (None for ``0000`` or blank), each text read once (:func:`_opponents`):
#: one int object per start rank, shared by every cell naming it (11,110 texts at most)
_OPPONENT_OF: dict[str, int | None] = {}


def _opponents(tail: str) -> tuple[int | None, ...]:
    """The opponents of a 001 line's usual round cells (``tail``: from column 92,
    :data:`_USUAL_CELLS` matched), through :data:`_OPPONENT_OF`."""
    opponent_of = _OPPONENT_OF
    try:
        return tuple([opponent_of[tail[i:i + 4]] for i in range(0, len(tail), 10)])
    except KeyError:                    # a text not read before: read each such text
        for i in range(0, len(tail), 10):
            text = tail[i:i + 4]
            if text not in opponent_of:
                opponent_of[text] = int(text) or None if text.strip() else None
        return tuple([opponent_of[tail[i:i + 4]] for i in range(0, len(tail), 10)])


def _parse_cells(line: str, lineno: int, ctx: _Ctx) -> _Cells:
    """Return the round cells of a 001 line, compact (:data:`_Cells`): round r in
    columns 92+10(r-1) .. 101+10(r-1)."""
    if len(line) >= _FIRST_BEYOND:      # else no cell beyond MAX_ROUNDS (the usual line)
        _check_round_cells(line, lineno, ctx, "round cells")
    tail = line[91:]
    if not tail:
        return _NO_CELLS
    if _USUAL_CELLS.fullmatch(tail):
        # every cell usual (checked at once, in C): each column of the cells a slice
        codes = tail[7::10].upper().replace(" ", "Z")
        colours = tail[5::10].lower().replace(" ", "-")
        opponents = _opponents(tail)
        flips = _NO_FLIPS
        if "Z" in codes:      # a cell without content written (0000 - Z) is explicit
            flips = tuple([i for i, (code, colour, opp) in enumerate(zip(codes, colours, opponents))
                           if code == "Z" and colour == "-" and opp is None
                           and tail[10 * i:10 * i + 10].strip()]) or _NO_FLIPS
        return opponents, codes, colours, flips
    cells: list[Game] = []
    r = 1
    base, end = 92, len(line)
    while base <= end:
        # the usual cell (blank separators, a known colour and code, digits or blank for
        # the opponent) read here; anything else by _parse_cell, with its warnings
        block = line[base - 1:base + 9]
        colour = _CELL_COLOURS.get(block[5:6], "?")
        code = _CELL_CODES.get(block[7:8])
        opp_text = block[0:4].strip()
        if (colour != "?" and code is not None and block[4:5] in _SPACE
                and block[6:7] in _SPACE and block[8:10] in _SPACES
                and (not opp_text or (opp_text.isascii() and opp_text.isdigit()))):
            cells.append(_read_game(r, int(opp_text) or None if opp_text else None, colour,
                                    code, bool(block.strip())))
        else:
            cells.append(_parse_cell(line, r, lineno, ctx))
        r += 1
        base += 10
    return compact_games(cells)


_NO_FLIPS: tuple[int, ...] = ()


_FIRST_BEYOND = 92 + 10 * MAX_ROUNDS     # the first column after round MAX_ROUNDS's block


def _check_round_cells(line: str, lineno: int, ctx: _Ctx, what: str) -> None:
    """Fatal when the line has text in a round block beyond :data:`MAX_ROUNDS`."""
    first_beyond = _FIRST_BEYOND
    if len(line) >= first_beyond and line[first_beyond - 1:].strip():
        ctx.fatal(f"more than {MAX_ROUNDS} {what} (the most rounds a TRF may hold, xl-fide's "
                  "limit; the longest real events have about 50)", lineno, first_beyond)


def _parse_cell(line: str, r: int, lineno: int, ctx: _Ctx) -> Game:
    """Return round ``r``'s cell: opponent 92-95, colour 97, result 99 (+ 10 per round)."""
    base = 92 + 10 * (r - 1)
    block = line[base - 1:base + 9]
    opp_text = block[0:4].strip()
    colour_char = block[5:6]
    code_char = block[7:8]
    if not (block[4:5] in _SPACE and block[6:7] in _SPACE and block[8:9] in _SPACE
            and block[9:10] in _SPACE):
        for off in (4, 6, 8, 9):
            if len(block) > off and block[off] != " ":
                ctx.warn(f"column {base + off} must be blank (round {r} block), got "
                         f"{block[off]!r}", lineno, base + off)
    opponent: int | None = None
    if opp_text:
        opponent = int(opp_text) if opp_text.isascii() and opp_text.isdigit() else None
        if opponent is None:
            ctx.fatal(f"round {r}: opponent (columns {base}-{base + 3}) must be a start rank, "
                      f"0000 or blank, got {opp_text!r}", lineno, base)
    colour = _CELL_COLOURS.get(colour_char, "?")
    code = _CELL_CODES.get(code_char)
    if colour != "?" and code is not None:     # the usual cell: nothing to warn about
        return _read_game(r, opponent or None, colour, code, bool(block.strip()))
    colour = None
    if colour_char.strip() and colour_char != "-":
        if colour_char.lower() in ("w", "b"):
            colour = colour_char.lower()
        else:
            ctx.warn(f"round {r}: colour must be 'w', 'b', '-' or blank, got {colour_char!r}",
                     lineno, base + 5)
    code = code_char.upper() if code_char.strip() else "Z"
    if code not in RESULT_CODES:
        if opponent:        # a game's result decides two ratings: no guess
            ctx.fatal(f"round {r}: result must be one of 1 = 0 + - W D L H F U Z or blank, "
                      f"got {code_char!r} in a game against player {opponent}", lineno,
                      base + 7)
        ctx.warn(f"round {r}: result must be one of 1 = 0 + - W D L H F U Z or blank, "
                 f"got {code_char!r}; read as Z", lineno, base + 7)
        code = "Z"
    return _read_game(r, opponent or None, colour, code, bool(block.strip()))


_SPACE = ("", " ")
# A 001 line's round cells when every one is usual: the opponent right-aligned digits or
# blank, blank separators, a known colour and result; the last cell may end after its
# result. Each repetition is exactly one 10-column block.
_OPP_FIELD = r"(?:    | {3}[0-9]| {2}[0-9]{2}| [0-9]{3}|[0-9]{4})"
_CELL_TEXT = _OPP_FIELD + r" [wbWB\- ] [10=+\-WDLHFUZwdlhfuz ]"
_USUAL_CELLS = re.compile(f"(?:{_CELL_TEXT}  )*{_CELL_TEXT} {{0,2}}")
_SPACES = ("", " ", "  ")
# A round cell's colour and result characters that need no warning, as the cell holds them
_CELL_COLOURS: dict[str, str | None] = {"w": "w", "b": "b", "W": "w", "B": "b", "-": None,
                                        " ": None, "": None}
_CELL_CODES = {**{c: c for c in RESULT_CODES}, **{c.lower(): c for c in RESULT_CODES},
               " ": "Z", "": "Z"}


_new = object.__new__
_set = object.__setattr__


def _read_game(r: int, opponent: int | None, colour: str | None, code: str,
               explicit: bool) -> Game:
    """A :class:`Game` of a cell the reader has checked (round >= 1, opponent 1-9999 or
    None, colour ``w``/``b``/None, an upper-case code of :data:`RESULT_CODES`): the
    same object ``Game(...)`` gives, without checking the cell a second time
    (:func:`xl_fide.tournament.make_game`)."""
    return make_game(r, opponent, colour, code, explicit)


def _last_content(cells: _Cells) -> int:
    """The highest round of the cells with content (an opponent, or a code other than
    ``Z``); 0 if none."""
    opponents, codes = cells[0], cells[1]
    last = len(codes.rstrip("Z"))
    for i in range(len(opponents) - 1, last - 1, -1):
        if opponents[i] is not None:
            return i + 1
    return last


def _fit_cells(cells: _Cells, rounds: int) -> _Cells:
    """The cells of rounds 1..``rounds``: the cells read, blank ``Z`` after them."""
    opponents, codes, colours, flips = cells
    n = len(codes)
    if n == rounds:
        return cells
    if n > rounds:
        return (opponents[:rounds], codes[:rounds], colours[:rounds],
                tuple([i for i in flips if i < rounds]) if flips else flips)
    more = rounds - n
    return opponents + (None,) * more, codes + "Z" * more, colours + "-" * more, flips


_RULER_TEXT = re.compile(r"[0-9 ]+")
_RULER_STARTS = "D1 "       # the first character of every line _is_ruler accepts
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HEADER_TAGS = frozenset(f"{i:02d}2" for i in range(100))     # 002 012 ... 992
_NATIONAL_TAG = re.compile(r"[A-Z]{3}")


def _is_ruler(line: str) -> bool:
    s = line.rstrip()
    if s.startswith("DDD"):
        return True
    if _RULER_TEXT.fullmatch(s) and (s.startswith("1234567890") or not s[:3].strip()):
        return True
    return False


# Bytes 0x80-0x9F that Windows-1252 leaves undefined (Latin-1 reads them as C1 controls).
_CP1252_UNDEFINED = (b"\x81", b"\x8d", b"\x8f", b"\x90", b"\x9d")


def _decode(data: bytes, source: str, encoding: str | None) -> tuple[str, str]:
    """Return the text and the encoding it was read in (a Python codec name).

    Given ``encoding``: that one (a byte order mark of it is dropped). Else: UTF-8 with
    a BOM (``utf-8-sig``), UTF-16 with a BOM, UTF-8, then Windows-1252 when every byte
    0x80-0x9F is one of its characters (Swiss-Manager on Windows: ``Š Ž Œ – ’``), else
    Latin-1 (then those bytes read as C1 controls, warned about by the reader).
    """
    if encoding is not None:
        try:
            name = codecs.lookup(encoding).name
            if name == "utf-8" and data.startswith(codecs.BOM_UTF8):
                name = "utf-8-sig"
            return data.decode(name), name
        except LookupError:
            raise TrfError(f"unknown encoding {encoding!r}; expected e.g. utf-8, cp1252, latin-1",
                           source) from None
        except UnicodeDecodeError as exc:
            raise TrfError(f"cannot decode the file as {encoding}: {exc}", source) from None
    if data.startswith(codecs.BOM_UTF8):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError:
            return data[3:].decode("latin-1"), "latin-1"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as exc:
            raise TrfError(f"UTF-16 byte order mark but the bytes are not UTF-16: {exc}", source) from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if not any(byte in data for byte in _CP1252_UNDEFINED):
        return data.decode("cp1252"), "cp1252"
    return data.decode("latin-1"), "latin-1"


# Control characters a text field must not hold: C0 but tab, DEL, C1 (U+0080-U+009F).
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")
# _CONTROL but the line breaks (\n, \r): a file's text without any has no line with one
_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def clean_text(text: str) -> str:
    """Return ``text`` with every control character (C0 but tab, DEL, C1 U+0080-U+009F)
    replaced by U+FFFD, for a sheet cell or a terminal (openpyxl refuses C0 controls)."""
    return _CONTROL.sub("\ufffd", text)


def _split_lines(text: str) -> list[str]:
    # without a carriage return (the usual file) a split at each line feed is the same
    lines = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class _Scoring:
    """Accumulates XXS and 162 lines in file order (the last value wins)."""

    def __init__(self) -> None:
        self.values = dict(_XXS_DEFAULTS)
        self.given = False              # an XXS or 162 line read

    def apply_xxs(self, text: str, lineno: int, ctx: _Ctx) -> None:
        self.given = True
        pos = 4
        for m in re.finditer(r"\S+", text[4:]):
            token, col = m.group(0), pos + m.start() + 1
            key, sep, value = token.partition("=")
            key = key.upper()
            number = _decimal(value) if sep else None
            if key not in _XXS_DEFAULTS and key not in _XXS_SHORTCUTS:
                ctx.warn(f"XXS: expected CODE=VALUE with CODE one of WW BW WD BD WL BL ZPB HPB FPB "
                         f"PAB FW FL W D, got {token!r}", lineno, col)
                continue
            if number is None:
                ctx.warn(f"XXS: value of {key} must be a number like 0.5, got {value!r}", lineno, col)
                continue
            for k in _XXS_SHORTCUTS.get(key, (key,)):
                self.values[k] = number

    def apply_162(self, text: str, lineno: int, ctx: _Ctx) -> None:
        # Letter at column 6, points in 7-10, next pair at 15 / 16-19, ... (step 9).
        # Read as tokens so a pair shifted by a column is still understood.
        self.given = True
        given: dict[str, Decimal] = {}
        for m in re.finditer(r"([A-Za-z])\s*(-?[0-9]*\.?[0-9]+)?", text[4:]):
            letter, value, col = m.group(1).upper(), m.group(2), m.start() + 5
            if letter not in _SCORING_162:
                ctx.warn(f"162: result letter must be one of W D L A P X, got {m.group(1)!r}", lineno, col)
                continue
            number = _decimal(value) if value else None
            if number is None:
                ctx.warn(f"162: points of {letter!r} must be a number like 1.0, got {value or ''!r}",
                         lineno, col + 1)
                continue
            given[letter] = number
        leftovers = re.sub(r"([A-Za-z])\s*(-?[0-9]*\.?[0-9]+)?", "", text[4:]).strip()
        if leftovers:
            ctx.warn(f"162: expected result letters and points, got extra text {leftovers!r}", lineno, 5)
        for letter, number in given.items():
            for k in _SCORING_162[letter]:
                self.values[k] = number
        if "W" in given and "P" not in given:  # TRF-2026: P defaults to the W value
            self.values["PAB"] = given["W"]

    def mapping(self) -> Mapping[str, Decimal]:
        """Each result code's points (``Tournament.scoring``); of a file without XXS and
        162 lines, the one mapping of the defaults, shared (read-only)."""
        if not self.given:
            return _READ_DEFAULT_SCORING
        return self._mapping()

    def _mapping(self) -> Mapping[str, Decimal]:
        v = self.values
        out = {
            "+": v["FW"], "-": v["FL"], "H": v["HPB"], "F": v["FPB"], "U": v["PAB"], "Z": v["ZPB"],
        }
        for codes, white, black in ((("1", "W"), "WW", "BW"), (("=", "D"), "WD", "BD"),
                                    (("0", "L"), "WL", "BL")):
            for code in codes:
                out[code] = v[white]
                if v[white] != v[black]:
                    out[code + "w"] = v[white]
                    out[code + "b"] = v[black]
        return MappingProxyType(out)


#: The scoring of a file without XXS or 162 lines (:meth:`_Scoring.mapping`)
_READ_DEFAULT_SCORING = _Scoring()._mapping()


def _parse_declared_rounds(text: str, tag: str, lineno: int, ctx: _Ctx) -> int | None:
    value = text[4:].strip()
    token = value.split()[0] if value else ""
    n = _ascii_int(token)
    if n is None or not 1 <= n <= _MAX_ROUNDS:
        ctx.warn(f"{tag}: number of rounds must be a number 1-{_MAX_ROUNDS}, got {value!r}", lineno, 5)
        return None
    return n


def _parse_members(line: str, first: int, lineno: int, ctx: _Ctx, tag: str) -> tuple[int, ...]:
    members = []
    col = first
    while col <= len(line):
        text = _col(line, col, col + 3).strip()
        if text:
            n = _ascii_int(text)
            if n is None:
                ctx.warn(f"{tag}: team member (columns {col}-{col + 3}) must be a start rank, got {text!r}",
                         lineno, col)
            elif n:
                members.append(n)
        col += 5
    return tuple(members)


def _parse_team_record(tag: str, line: str, lineno: int, ctx: _Ctx) -> TeamRecord:
    if tag == "013":
        return TeamRecord(tag, None, _text(line, 5, 36),
                          _parse_members(line, 37, lineno, ctx, tag), line, lineno)
    if tag == "310":
        num_text = _col(line, 5, 7).strip()
        number = _ascii_int(num_text)
        if number is None:
            ctx.warn(f"310: team pairing number (columns 5-7) must be a number, got {num_text!r}", lineno, 5)
        return TeamRecord(tag, number, _text(line, 9, 40),
                          _parse_members(line, 74, lineno, ctx, tag), line, lineno)
    return TeamRecord(tag, None, "", (), line, lineno)


def _parse_national(tag: str, line: str, lineno: int, ctx: _Ctx) -> NationalRecord | None:
    start_rank = _ascii_int(_col(line, 5, 8).strip())
    if start_rank is None or len(line) < 8:
        return None
    rating_text = _col(line, 49, 52).strip()
    rating = _ascii_int(rating_text) if rating_text else 0
    if rating is None:
        ctx.warn(f"national rating must be a number or blank, got {rating_text!r}", lineno, 49)
        rating = 0
    return NationalRecord(
        federation=tag, start_rank=start_rank, sex=_text(line, 10, 10),
        classification=_text(line, 11, 13), name=_text(line, 15, 47),
        rating=rating or None, origin=_text(line, 54, 56),
        national_id=_col(line, 58, 68).strip(), birth_date=_text(line, 70, 79),
        line=lineno, text=line,
    )


@dataclass(frozen=True)
class _Declared:
    """A number of rounds declared by ``XXR`` or ``142`` on ``line``."""

    rounds: int
    tag: str
    line: int


class _Reader:
    """The records of one file, read line by line (:meth:`read`), then assembled."""

    def __init__(self, ctx: _Ctx, encoding: str) -> None:
        self.ctx = ctx
        self.encoding = encoding
        self.cells_read = 0
        self.header: dict[str, tuple[str, int]] = {}
        self.deputies: list[str] = []
        # the records in file order as (kind, tag, text, line); None for a 001 line (the
        # Records made when read: _RecordsOnRead)
        self.records: list[tuple[str, str, str, int] | None] = []
        self.teams: list[TeamRecord] = []
        self.nationals: list[NationalRecord] = []
        self.scoring = _Scoring()
        # the 001 lines as read: each player (its line number and text set, its games the
        # cells as read) and, at the same index, its round cells (compact)
        self.players: list[TrfPlayer] = []
        self.cells: list[_Cells] = []
        self.first_line_of: dict[int, int] = {}
        self.declared: _Declared | None = None
        self.initial_colour: str | None = None
        self.round_dates_text: tuple[str, ...] = ()
        self.round_dates: tuple[datetime.date | None, ...] = ()
        self.trf2026 = False
        # no control character anywhere in the file (the usual one; set by _parse): no
        # line needs looking at for one
        self.no_controls = False
        # every game of the file agrees (set by tournament(); _games_agree)
        self.games_agree = False

    def read(self, line: str, lineno: int) -> None:
        """Read one line of the file (1-based ``lineno``)."""
        if line[:4] == "001 ":          # a player line (most of a file), read at once
            self._player(line, lineno, not self.no_controls and self._controls(line, lineno))
            return
        stripped = line.strip()
        if not stripped or stripped == "\x1a":
            self._record("blank", "", line, lineno)  # kept, so the file is written back as read
            return
        if not self.no_controls:
            self._controls(line, lineno)
        tag = line[:3]
        if tag == "###":
            self._record("comment", tag, line, lineno)
            self.trf2026 = True
            return
        # a line starting 001 is never a ruler; a ruler starts with D, 1 or a blank
        if tag != "001" and line[0] in _RULER_STARTS and _is_ruler(line):
            self._record("ruler", "", line, lineno)
            return
        if len(line) > 3 and line[3] != " " and (tag.isdigit() or tag.startswith("XX")):
            self.ctx.warn(f"column 4 must be blank after the record id {tag!r}, got {line[3]!r}", lineno, 4)
        if tag == "001":
            self._player(line, lineno)
        elif tag in _HEADER_TAGS:
            self._record("header", tag, line, lineno)
            self._header(tag, line, lineno)
        elif tag in _TEAM_TAGS:
            self._record("team", tag, line, lineno)
            self.teams.append(_parse_team_record(tag, line, lineno, self.ctx))
            self.trf2026 = self.trf2026 or tag != "013"
        elif tag in _TRF2026_OTHER_TAGS:
            self._record("other", tag, line, lineno)
            self.trf2026 = True
        elif tag.startswith("XX") or tag == "DAT":
            self._record("extension", tag, line, lineno)
            self._extension(tag, line, lineno)
        elif _NATIONAL_TAG.fullmatch(tag) and (nat := _parse_national(tag, line, lineno, self.ctx)):
            self._record("national", tag, line, lineno)
            self.nationals.append(nat)
            self.trf2026 = True
        else:
            self._record("unknown", tag, line, lineno)
            self.ctx.warn(f"unknown record {tag!r} kept verbatim; expected a TRF record id "
                          "(012...362, 001, 013, 310, XXR, ###...)", lineno, 1)

    def _controls(self, line: str, lineno: int) -> bool:
        """Warn about the first control character of the line (C0 but tab, DEL, C1);
        whether it has one."""
        m = _CONTROL.search(line)
        if m is None:
            return False
        code = ord(m.group())
        if code >= 0x80:
            self.ctx.warn(f"character U+{code:04X} is a C1 control character: the file was read as "
                          f"{self.encoding}; is it in another encoding (Windows-1252, UTF-8)?",
                          lineno, m.start() + 1)
        else:
            self.ctx.warn(f"control character U+{code:04X} in the text (a damaged file?); "
                          "read as U+FFFD, the line is kept as it is", lineno, m.start() + 1)
        return True

    def _record(self, kind: str, tag: str, line: str, lineno: int) -> None:
        self.records.append((kind, tag, line, lineno))      # a Record when read

    def _player(self, line: str, lineno: int, controls: bool | None = None) -> None:
        player, cells = _parse_player_line(line, lineno, self.ctx, controls)
        sr = player.start_rank
        if sr in self.first_line_of:
            self.ctx.fatal(f"duplicate start rank {sr} (first on line {self.first_line_of[sr]})", lineno, 5)
        self.first_line_of[sr] = lineno
        self.cells_read += len(cells[1])
        if self.cells_read > MAX_ROUND_CELLS:
            self.ctx.fatal(f"more than {MAX_ROUND_CELLS} round cells in the file (players x rounds; "
                           "xl-fide's limit, over 60 times the largest real events)", lineno, 92)
        self.players.append(player)
        self.cells.append(cells)
        self.records.append(None)

    def _header(self, tag: str, line: str, lineno: int) -> None:
        value = line[4:].strip()
        if not self.no_controls:            # else the value has none to clean
            value = clean_text(value)
        if tag in _TRF2026_HEADER_TAGS:
            self.trf2026 = True
        if tag == "112":
            if value:
                self.deputies.append(value)
        elif tag == "132":
            self._round_dates(line, lineno)
        elif tag == "142":
            self._declare(tag, line, lineno)
        elif tag == "152":
            c = value[:1].lower()
            if c in ("w", "b"):
                self.initial_colour = c
            else:
                self.ctx.warn(f"152: initial colour must be W or B, got {value!r}", lineno, 5)
        elif tag == "162":
            self.scoring.apply_162(line, lineno, self.ctx)
        else:
            self.header[tag] = (value, lineno)

    def _round_dates(self, line: str, lineno: int) -> None:
        """132: the date of round r in columns 92+10(r-1) .. 99+10(r-1), YY/MM/DD."""
        texts = []
        r = 1
        _check_round_cells(line, lineno, self.ctx, "round dates")
        while 92 + 10 * (r - 1) <= len(line):
            texts.append(_col(line, 92 + 10 * (r - 1), 99 + 10 * (r - 1)).strip())
            r += 1
        dates = []
        for r, text in enumerate(texts, start=1):
            d = _parse_yy_mm_dd(text) if text else None
            if text and d is None:
                self.ctx.warn(f"132: date of round {r} must be YY/MM/DD, got {text!r}",
                              lineno, 92 + 10 * (r - 1))
            dates.append(d)
        self.round_dates_text, self.round_dates = tuple(texts), tuple(dates)

    def _declare(self, tag: str, line: str, lineno: int) -> None:
        n = _parse_declared_rounds(line, tag, lineno, self.ctx)
        if n is None:
            return
        before = self.declared
        if before is not None and before.rounds != n:
            self.ctx.warn(f"{tag} says {n} rounds but {before.tag} on line {before.line} "
                          f"says {before.rounds}; using {n}", lineno, 5)
        self.declared = _Declared(n, tag, lineno)

    def _extension(self, tag: str, line: str, lineno: int) -> None:
        if tag == "XXR":
            self._declare(tag, line, lineno)
        elif tag == "XXS":
            self.scoring.apply_xxs(line, lineno, self.ctx)
        elif tag == "XXC":
            words = line[4:].lower().split()
            if "white1" in words:
                self.initial_colour = "w"
            elif "black1" in words:
                self.initial_colour = "b"

    # -- assembling -------------------------------------------------------------
    def rounds(self) -> int:
        """The number of rounds (module docstring, "Rounds"); warns about ignored blocks."""
        if self.declared is None:
            return max(map(_last_content, self.cells), default=0)
        declared = self.declared
        n = declared.rounds
        beyond: dict[int, tuple[int, int]] = {}
        for player, (opponents, codes, _, _) in zip(self.players, self.cells):
            for i in range(n, len(codes)):
                r = i + 1
                if (opponents[i] is not None or codes[i] != "Z") and r not in beyond:
                    beyond[r] = (player.line, _column(r))
        for r in sorted(beyond):
            ln, col = beyond[r]
            self.ctx.warn(f"round {r} is beyond the {declared.rounds} rounds declared by {declared.tag} "
                          f"(line {declared.line}); ignored", ln, col)
        return n

    def check_opponents(self, rounds: int) -> None:
        """Every opponent is a player, and not the player himself (both fatal: a game's
        result decides two ratings)."""
        players = self.first_line_of
        if len(self.players) >= _BULK_PLAYERS and self._opponents_fine(rounds):
            return
        for player, cells in zip(self.players, self.cells):
            sr = player.start_rank
            for i, opp in enumerate(cells[0][:rounds]):
                if opp is None:
                    continue
                r = i + 1
                if opp not in players:
                    self.ctx.fatal(f"round {r}: opponent {opp} is not a player "
                                   "(no 001 line with that start rank)", player.line,
                                   _column(r))
                if opp == sr:
                    self.ctx.fatal(f"round {r}: a player cannot play himself (opponent {opp} "
                                   "is his own start rank)", player.line, _column(r))

    def _games_agree(self, rounds: int) -> bool:
        """True when neither :meth:`check_opponents` nor :func:`_check_consistency` (its
        games, not the points) has anything to say about the cells of rounds 1..``rounds``:
        every opponent is another player who names the player back in that round, with
        results and colours that agree (``pair_problem``), and no played result is
        without an opponent. False sends the file to those two, which word each problem."""
        cells_of = dict(zip([p.start_rank for p in self.players], self.cells))
        for p, (opponents, codes, colours, _) in zip(self.players, self.cells):
            sr = p.start_rank
            for r, opp in enumerate(opponents[:rounds]):
                if opp is None:
                    if codes[r] in PLAYED_CODES:
                        return False
                    continue
                other = cells_of.get(opp)
                if other is None or opp == sr or r >= len(other[1]):
                    return False
                if other[0][r] != sr or (sr < opp and not (
                        (codes[r], other[1][r]) in _AGREEING_CODES
                        and (colours[r], other[2][r]) in _AGREEING_COLOUR_CHARS)):
                    return False
        return True

    def _opponents_fine(self, rounds: int) -> bool:
        """True when :meth:`check_opponents` has nothing to say: checked in bulk (each
        step over all the cells runs in C), for a large event."""
        cells = [cells[0][:rounds] for cells in self.cells]
        opponents = list(itertools.chain.from_iterable(cells))
        own = itertools.chain.from_iterable(
            map(itertools.repeat, [p.start_rank for p in self.players], map(len, cells)))
        known = set(opponents)
        known.discard(None)
        return known <= self.first_line_of.keys() and not any(map(operator.eq, opponents, own))

    def dates(self) -> tuple[datetime.date | None, datetime.date | None]:
        """042 and 052 as dates (None when absent or not understood, with a warning)."""
        found: list[datetime.date | None] = []
        for tag, label in (("042", "start date"), ("052", "end date")):
            value, ln = self.header.get(tag, ("", 0))
            d, ok = _parse_date(value)
            if not ok:
                self.ctx.warn(f"{tag}: {label} must be a date like YYYY/MM/DD or DD/MM/YYYY, "
                              f"got {value!r}", ln, 5)
            found.append(d)
        return found[0], found[1]

    def head(self, tag: str) -> str:
        return self.header.get(tag, ("", 0))[0]

    def tournament(self, source: str) -> Tournament:
        rounds = self.rounds()
        if len(self.players) * rounds > MAX_ROUND_CELLS:
            where = self.declared.line if self.declared else self.players[-1].line
            self.ctx.fatal(f"{len(self.players)} players x {rounds} rounds = {len(self.players) * rounds} "
                           f"round cells; a TRF may hold at most {MAX_ROUND_CELLS} (xl-fide's limit)",
                           where, 5 if self.declared else 92)
        # a small event whose games all agree (the usual one) has nothing for
        # check_opponents or _check_consistency to say: one pass over its cells
        self.games_agree = len(self.players) < _BULK_PLAYERS and self._games_agree(rounds)
        if not self.games_agree:
            self.check_opponents(rounds)
        for player, cells in zip(self.players, self.cells):
            if len(cells[1]) != rounds:
                set_compact_games(player, *_fit_cells(cells, rounds))
        players = tuple(self.players)
        start, end = self.dates()
        t = Tournament(
            name=self.head("012"), city=self.head("022"), federation=self.head("032"),
            start_date=start, end_date=end,
            start_date_text=self.head("042"), end_date_text=self.head("052"),
            time_control=self.head("122"), rounds=rounds, players=players,
            scoring=self.scoring.mapping(),
            version="TRF-2026" if self.trf2026 else "TRF16",
            team_records=tuple(self.teams), source=source,
            declared_rounds=self.declared.rounds if self.declared else None,
            chief_arbiter=self.head("102"), deputy_arbiters=tuple(self.deputies),
            tournament_type=self.head("092"), round_dates_text=self.round_dates_text,
            round_dates=self.round_dates, initial_colour=self.initial_colour,
            national_records=tuple(self.nationals), encoding=self.encoding,
        )
        records_on_read(t, self.records)   # its records made when first read
        return t

    def check_links(self) -> None:
        """Team members and national records name players."""
        for team in self.teams:
            for m in team.members:
                if m not in self.first_line_of:
                    self.ctx.warn(f"{team.tag}: team member {m} is not a player", team.line)
        for nat in self.nationals:
            if nat.start_rank not in self.first_line_of:
                self.ctx.warn(f"national record {nat.federation}: start rank {nat.start_rank} "
                              "is not a player", nat.line, 5)


#: What a file without players says at its first line that is no TRF record.
NOT_A_TRF_LINE = "not a TRF line (expected a 3-digit code such as 001 or 012)"


def _no_players(reader: _Reader, ctx: _Ctx) -> NoReturn:
    """The error of a file without a 001 line: at its first line that is no TRF record
    (random bytes, another text), :data:`NOT_A_TRF_LINE` with its line and the column of
    the first character of the code that is not a digit; else "no player records"."""
    bad = next((r for r in reader.records if r is not None and r[0] == "unknown"), None)
    if bad is not None:
        code = bad[2][:3]
        column = next((i for i, ch in enumerate(code, start=1) if not ch.isdigit()), 1)
        ctx.fatal(NOT_A_TRF_LINE, bad[3], column)
    ctx.fatal("no player records: expected at least one line starting with '001'")


def _parse(text: str, source: str, strict: bool, encoding: str) -> Tournament:
    ctx = _Ctx(source, strict)
    _check_size(len(text), ctx, "characters")
    returns = text.count("\r")      # most files have none: no CR LF to count (a slow count)
    n_lines = text.count("\n") + (returns - text.count("\r\n") if returns else 0) + 1
    if n_lines > MAX_LINES:
        ctx.fatal(f"the file has {n_lines} lines; a TRF may hold at most {MAX_LINES} "
                  f"(xl-fide's limit, for {MAX_PLAYERS} players and their other records)")
    lines = _split_lines(text)
    if not any(line.strip() for line in lines):
        ctx.fatal("empty file: expected TRF records (012 tournament name, 001 players, ...)")
    reader = _Reader(ctx, encoding)
    # every line printable (the usual file, a quick test in C) has no control character;
    # else the text is searched for one (a tab is no control)
    reader.no_controls = (all(map(str.isprintable, lines))
                          or _CONTROL_IN_TEXT.search(text) is None)
    read = reader.read
    if max(map(len, lines)) <= MAX_LINE_CHARS:      # the usual file: no line too long
        for lineno, line in enumerate(lines, start=1):
            read(line, lineno)
    else:                                           # read up to the first line too long
        _read_to_long_line(lines, read, ctx)
    if not reader.players:
        _no_players(reader, ctx)
    t = reader.tournament(source)
    _check_consistency(t, ctx, games_checked=reader.games_agree)
    _check_players(t, ctx)
    reader.check_links()
    # the warnings set on the Tournament just built, which nothing else holds yet
    # (dataclasses.replace would build and check it all over again)
    _set(t, "warnings", tuple(ctx.warnings))
    _set(t, "newline", _first_line_break(text))
    _set(t, "final_newline", text.endswith(("\n", "\r")))
    return t


def _first_line_break(text: str) -> str:
    """The text's first line break: CR LF, CR or LF (LF for a text without one)."""
    m = _LINE_BREAK.search(text)
    return m.group() if m is not None else "\n"


def _read_to_long_line(lines: list[str], read: Callable[[str, int], None], ctx: _Ctx) -> None:
    """Read the lines up to the first one longer than :data:`MAX_LINE_CHARS`, fatal there
    (a problem of an earlier line comes first)."""
    for lineno, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE_CHARS:
            ctx.fatal(f"line is {len(line)} characters long; a TRF line may hold at most "
                      f"{MAX_LINE_CHARS} (xl-fide's limit; a 001 line of {MAX_ROUNDS} rounds "
                      f"has {91 + 10 * MAX_ROUNDS})", lineno, MAX_LINE_CHARS + 1)
        read(line, lineno)


def _check_size(size: int, ctx: _Ctx, unit: str) -> None:
    if size > MAX_FILE_BYTES:
        # the readers stop after MAX_FILE_BYTES + 1 bytes: the size beyond is not known
        ctx.fatal(f"the file has more than {MAX_FILE_BYTES} {unit}; a TRF may hold at most "
                  f"{MAX_FILE_BYTES} "
                  f"({MAX_FILE_BYTES // (1024 * 1024)} MiB, xl-fide's limit; the largest real "
                  "events need less than 1 MiB)")


def _check_players(t: Tournament, ctx: _Ctx) -> None:
    """Warn about a FIDE id given to two players and an implausible birth year."""
    line_of_id: dict[int, TrfPlayer] = {}
    year = t.start_date.year if t.start_date else None
    for p in t.players:
        if p.fide_id is not None:
            first = line_of_id.setdefault(p.fide_id, p)
            if first is not p:
                ctx.warn(f"FIDE id {p.fide_id} of player {p.start_rank} is also the id of player "
                         f"{first.start_rank} (line {first.line}); one FIDE id is one player",
                         p.line, 58)
        if year is not None and p.birth_year is not None:
            if p.birth_year > year:
                ctx.warn(f"birth year {p.birth_year} is after the event's start "
                         f"(042: {t.start_date_text}); K and age rules would be wrong", p.line, 70)
            elif p.birth_year < year - MAX_AGE:
                ctx.warn(f"birth year {p.birth_year} is more than {MAX_AGE} years before the "
                         f"event's start (042: {t.start_date_text})", p.line, 70)


def _check_consistency(t: Tournament, ctx: _Ctx, games_checked: bool = False) -> None:
    """Warn about the two sides of a game that disagree ("one game, one truth": opponent,
    result and colour, :func:`xl_fide.rules.results.pair_problem`) and points that do not
    add up; ``games_checked``: the reader found every game agreeing (``_games_agree``)."""
    players = t.players
    if games_checked or (len(players) >= _BULK_PLAYERS and _sides_agree(players)):
        # the usual large file: only the points are left to check
        for p in players:
            if p.points is not None:
                _check_points(t, p, ctx)
        return
    # the games of each start rank, compact (a dict: faster than the read-only view);
    # the reader's games are one per round, in round order (game r at index r - 1)
    cells_of = {p.start_rank: (p.round_opponents, p.round_codes, p.round_colours)
                for p in t.players}
    for p in t.players:
        sr = p.start_rank
        opponents, codes, colours = cells_of[sr]
        for r, opp in enumerate(opponents):
            # the usual game, both sides agreeing, checked here; anything else by _check_game
            if opp is not None and opp != sr:
                other = cells_of.get(opp)  # None: not a player, refused before (check_opponents)
                # both sides agree (pair_problem is None: the codes agree, and the
                # colours; the reader's codes and colours are among the tables' values)
                if other is not None and other[0][r] == sr and (
                        sr > opp or ((codes[r], other[1][r]) in _AGREEING_CODES
                                     and (colours[r], other[2][r]) in _AGREEING_COLOUR_CHARS)):
                    continue
            _check_game(t, p, r + 1, ctx)
        if p.points is not None:
            _check_points(t, p, ctx)


def _check_points(t: Tournament, p: TrfPlayer, ctx: _Ctx) -> None:
    total = t.score(p)
    if total != p.points:
        ctx.warn(f"points (columns 81-84) are {p.points} but the results add up to {total} "
                 "under this event's scoring (acceleration or another scoring system?)",
                 p.line, 81)


#: From this many players the games are checked in bulk first (:func:`_sides_agree`);
#: for fewer, the steps over each round cost more than the cell-by-cell loop
_BULK_PLAYERS = 200


def _sides_agree(players: tuple[TrfPlayer, ...]) -> bool:
    """True when :func:`_check_consistency` has nothing to say about any game: players
    numbered 1..n in order, each with as many games, and round by round every opponent
    names the player back, with results and colours that agree (``pair_problem``), and
    no played result without an opponent. Checked in bulk a round at a time (each step
    over a whole round runs in C); False sends the file to the cell-by-cell check, which
    finds and words each problem."""
    n = len(players)
    if [p.start_rank for p in players] != list(range(1, n + 1)):
        return False
    codes_of = [p.round_codes for p in players]
    if len(set(map(len, codes_of))) > 1:
        return False
    rounds = len(codes_of[0]) if codes_of else 0
    numbers = range(1, n + 1)
    # each field of every cell, player by player, then a round's cells as a slice of each
    # each cell's opponent, 0 for none (every opponent is a player: check_opponents)
    opponents: list[int] = [o or 0 for p in players for o in p.round_opponents]
    if opponents and max(opponents) > n:
        return False
    all_codes = "".join(codes_of)
    all_colours = "".join([p.round_colours for p in players])
    for r in range(rounds):
        opp = opponents[r::rounds]
        # the opponent's own opponent is this player (0 for a cell without one)
        if (list(map(_item_of([0, *opp]), opp))
                != list(map(operator.mul, numbers, map(bool, opp)))):
            return False
        codes, colours = all_codes[r::rounds], all_colours[r::rounds]
        if not (set(zip(codes, map(_item_of([None, *codes]), opp))) <= _AGREEING_CODES
                and set(zip(colours, map(_item_of([None, *colours]), opp)))
                <= _AGREEING_COLOUR_CHARS):
            return False
    return True


def _item_of(values: list[_T]) -> Callable[[int], _T]:
    """``values.__getitem__`` of one index (for ``map``, which calls it in C)."""
    return values.__getitem__


#: :func:`parse_date` answered once per text (a pure function; a period's files repeat
#: their dates)
_parse_date = functools.lru_cache(maxsize=1024)(parse_date)
#: :func:`pair_problem` answered once per combination of codes and colours (a pure function)
_pair_problem = functools.lru_cache(maxsize=4096)(pair_problem)
#: The results of the two sides of a game that agree (``pair_problem`` of the codes is
#: None), and a cell without an opponent (None on the other side) whose result is no
#: played game; the colours that agree (``pair_problem`` of two agreeing codes)
_AGREEING_CODES = frozenset(
    {(a, b) for a in RESULT_CODES for b in RESULT_CODES if pair_problem(a, b) is None}
    | {(a, None) for a in RESULT_CODES if a not in PLAYED_CODES})
_AGREEING_COLOURS = frozenset(
    (a, b) for a in ("w", "b", None) for b in ("w", "b", None)
    if pair_problem("=", "=", a, b) is None)
#: :data:`_AGREEING_COLOURS` as colour characters (``-`` for none; None: no other side)
_AGREEING_COLOUR_CHARS = (frozenset((a or "-", b or "-") for a, b in _AGREEING_COLOURS)
                          | frozenset((a or "-", None) for a, b in _AGREEING_COLOURS if b is None))


def _check_game(t: Tournament, p: TrfPlayer, r: int, ctx: _Ctx) -> None:
    """Warn about the player's game of round ``r`` and its other side."""
    base = 92 + 10 * (r - 1)
    i = r - 1
    opp, code, colour = p.round_opponents[i], p.round_codes[i], p.round_colours[i]
    if opp is None:
        if code in PLAYED_CODES:
            ctx.warn(f"round {r}: result {code!r} without an opponent; "
                     "not counted as a played game", p.line, base + 7)
        return
    other = t.player(opp, None)
    if other is None or other is p:  # opponents are checked before; paired with himself: refused
        return
    other_opp = other.round_opponents[i]
    if other_opp != p.start_rank:
        ctx.warn(f"round {r}: player {p.start_rank} has opponent {opp} but "
                 f"player {opp} has {other_opp or 'no opponent'}", p.line, base)
        return
    if p.start_rank > other.start_rank:  # each pair once
        return
    other_code = other.round_codes[i]
    problem = _pair_problem(code, other_code, _COLOUR_OF[colour],
                            _COLOUR_OF[other.round_colours[i]])
    if problem is not None:
        column = base + 5 if _pair_problem(code, other_code) is None else base + 7
        ctx.warn(f"round {r}: player {p.start_rank} and player {other.start_rank} "
                 f"(line {other.line}): {problem}", p.line, column)


_COLOUR_OF = {"w": "w", "b": "b", "-": None}


def parse_trf(text: str | bytes, *, source: str = "<string>", strict: bool = False,
              encoding: str | None = None) -> Tournament:
    """Return the Tournament of a TRF given as text or bytes.

    TRF16 / TRF-2026 (FIDE Handbook C.04 Annex 2), JaVaFo TRF(x).

    Args:
        text: the file content; bytes are decoded in ``encoding`` when given, else
            detected (module docstring: UTF-8 with or without BOM, UTF-16 with a BOM,
            Windows-1252, Latin-1).
        source: the name used in warnings and errors.
        encoding: for bytes, the encoding to decode them with; for text, the encoding
            it was read in (e.g. a TRF kept as text whose file was Windows-1252), which
            ``Tournament.encoding`` records for :func:`encode_trf`. Default: detected
            (bytes), ``utf-8`` (text).
        strict: raise TrfError at the first problem instead of collecting warnings.

    Raises:
        TrfError: always for fatal problems (see the module docstring); for any
            problem when ``strict``. Never another exception for bad input.
    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        _check_size(len(data), _Ctx(source, strict), "bytes")
        if data[:2] in _NEVER_TEXT:  # a zip (.xlsx, .ods), an OLE2 .xls, a PDF... never a TRF
            message = wrong_kind_of_bytes(data, "trf")
            if message is not None:
                raise TrfError(message, source)
        decoded, used = _decode(data, source, encoding)
        try:
            return _parse(decoded.removeprefix("\ufeff"), source, strict, used)
        except TrfError as exc:
            raise _wrong_kind(exc, data, source) from None
    if not isinstance(text, str):
        raise TrfError(f"expected the file content as str or bytes, got {type(text).__name__}", source)
    used = "utf-8"
    if encoding is not None:
        try:
            used = codecs.lookup(encoding).name
        except LookupError:
            raise TrfError(f"unknown encoding {encoding!r}; expected e.g. utf-8, cp1252, latin-1",
                           source) from None
    return _parse(text.removeprefix("\ufeff"), source, strict, used)


# First two bytes of the file kinds that can never be a TRF (zip, OLE2, PDF, RTF, gzip,
# 7z, rar, bzip2, xz); :mod:`xl_fide._filekind` says which and what to do.
_NEVER_TEXT = frozenset({b"PK", b"\xd0\xcf", b"%P", b"{\\", b"\x1f\x8b", b"7z", b"Ra", b"BZ", b"\xfd7"})


def _wrong_kind(exc: TrfError, data: bytes, source: str) -> TrfError:
    """``exc``, or when the bytes are no TRF at all (a workbook, a PDF...), what they are."""
    if not exc.message.startswith(("no player records", "empty file", NOT_A_TRF_LINE)):
        return exc
    message = wrong_kind_of_bytes(data, "trf")
    if message is None and _games_csv_header(data):
        message = ("this is a games CSV (a player's games, one a line), not a TRF; rate it "
                   "with xl-fide rate FILE")
    return exc if message is None else TrfError(message, source)


def _games_csv_header(data: bytes) -> bool:
    """Whether the first line that is not blank names the games CSV's columns
    (:data:`xl_fide._games.REQUIRED`: ``event`` and ``opponent_rating`` among others)."""
    for line in data[:4096].decode("utf-8", "replace").lstrip("\ufeff").splitlines():
        if line.strip():
            cells = {c.strip().strip('"').lower() for c in re.split("[,;\t]", line)}
            return {"event", "opponent_rating", "result"} <= cells
    return False


def read_trf(path_or_file: str | os.PathLike[str] | Any, *, strict: bool = False,
             encoding: str | None = None) -> Tournament:
    """Return the Tournament of a TRF file given by path or as an open (text or binary) file.

    As :func:`parse_trf`; ``source`` is the path (or the file object's ``name``).
    An unreadable file raises TrfError (with the OS message) too.
    """
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        source = os.fsdecode(path_or_file)
        try:
            with open(path_or_file, "rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise TrfError(f"cannot read the file: {exc.strerror or exc}", source) from exc
        return parse_trf(data, source=source, strict=strict, encoding=encoding)
    source = str(getattr(path_or_file, "name", "<stream>"))
    try:
        data = path_or_file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise TrfError(f"cannot read the file: {exc.strerror or exc}", source) from exc
    except UnicodeDecodeError as exc:
        raise TrfError(f"cannot decode the file: {exc}", source) from None
    return parse_trf(data, source=source, strict=strict, encoding=encoding)


def count_player_lines(path: str | os.PathLike[str]) -> int:
    """The number of ``001`` lines in the TRF file at ``path``, counted on the bytes
    without parsing, for a size limit checked before any work (e.g. a workbook's 2,000
    players). Only the first :data:`MAX_FILE_BYTES` are read; any line ending counts;
    a file in UTF-16 counts 0 (the reader decides about it). Raises ``OSError``."""
    with open(path, "rb") as fh:
        data = fh.read(MAX_FILE_BYTES + 1)
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.count(b"\n001") + data.startswith(b"001")


# --------------------------------------------------------------------------- writing

def _fmt_points(points: Decimal | None, what: str) -> str:
    """Return points in at most 4 columns: ``4.0``, ``11.5``, ``17`` (over 99.9), ``1.25``."""
    if points is None:
        return ""
    if not isinstance(points, Decimal) or not points.is_finite():
        raise InputError(f"{what} must be a finite Decimal, got {points!r}")
    candidates = []
    if abs(points) < 1000 and points == round(points, 1):
        candidates.append(f"{points:.1f}")
    plain = f"{points.normalize():f}"
    candidates += [plain, plain.replace("0.", ".", 1) if plain.lstrip("-").startswith("0.") else plain]
    for text in candidates:
        if len(text) <= 4:
            return text
    raise InputError(f"{what} must fit in 4 columns (like 11.5), got {points}")


def _fit(value: object, width: int, what: str) -> str:
    text = "" if value is None else str(value)
    if len(text) > width:
        raise InputError(f"{what} must fit in {width} columns, got {text!r}")
    if "\n" in text or "\r" in text:
        raise InputError(f"{what} must not contain a line break, got {text!r}")
    return text


def _format_player(p: TrfPlayer) -> str:
    """Return the 001 line of a player in the TRF16 fixed columns."""
    who = f"player {p.start_rank}"
    if p.rating is not None and not 0 < p.rating <= 9999:
        raise InputError(f"{who}: rating must be 1-9999 or None, got {p.rating!r}")
    if p.fide_id is not None and not 0 < p.fide_id <= 99_999_999_999:
        raise InputError(f"{who}: FIDE id must fit in 11 digits, got {p.fide_id!r}")
    if p.rank is not None and not 0 <= p.rank <= 9999:
        raise InputError(f"{who}: rank must be 0-9999 or None, got {p.rank!r}")
    birth = p.birth_date or (str(p.birth_year) if p.birth_year else "")
    head = (
        "001 "
        + f"{p.start_rank:>4}"
        + " "
        + f"{_fit(p.sex, 1, who + ' sex'):1}"
        + f"{_fit(p.title, 3, who + ' title'):>3}"
        + " "
        + f"{_fit(p.name, 33, who + ' name'):<33}"
        + " "
        + f"{_fit(p.rating, 4, who + ' rating'):>4}"
        + " "
        + f"{_fit(p.federation, 3, who + ' federation'):<3}"
        + " "
        + f"{_fit(p.fide_id, 11, who + ' FIDE id'):>11}"
        + " "
        + f"{_fit(birth, 10, who + ' birth date'):<10}"
        + " "
        + f"{_fmt_points(p.points, who + ' points'):>4}"
        + " "
        + f"{_fit(p.rank, 4, who + ' rank'):>4}"
    )
    games = list(p.games)
    while games and games[-1].code == "Z" and games[-1].opponent is None and not games[-1].explicit:
        games.pop()
    blocks = []
    for g in games:
        opp = f"{g.opponent:>4}" if g.opponent is not None else "0000"
        blocks.append(f"{opp} {g.colour or '-'} {g.code}")
    line = head + "  " + "  ".join(blocks) if blocks else head
    return line.rstrip()


def _xxs_line(scoring: Mapping[str, Decimal]) -> str | None:
    if dict(scoring) == dict(DEFAULT_SCORING):
        return None

    def num(key: str, fallback: str) -> str:
        v = scoring.get(key, scoring.get(fallback, DEFAULT_SCORING.get(fallback, Decimal(0))))
        return f"{v.normalize():f}"

    parts = [
        f"WW={num('1w', '1')}", f"BW={num('1b', '1')}", f"WD={num('=w', '=')}", f"BD={num('=b', '=')}",
        f"WL={num('0w', '0')}", f"BL={num('0b', '0')}", f"ZPB={num('Z', 'Z')}", f"HPB={num('H', 'H')}",
        f"FPB={num('F', 'F')}", f"PAB={num('U', 'U')}", f"FW={num('+', '+')}", f"FL={num('-', '-')}",
    ]
    return "XXS " + " ".join(parts)


def _round_dates_line(t: Tournament) -> str | None:
    texts = list(t.round_dates_text) or [d.strftime("%y/%m/%d") if d else "" for d in t.round_dates]
    if not any(texts):
        return None
    line = "132" + " " * 88
    for text in texts:
        line += f"{_fit(text, 8, '132 round date'):<8}  "
    return line.rstrip()


def _header_lines(t: Tournament) -> list[str]:
    def tag(code: str, value: str) -> str:
        return f"{code} {_fit(value, 10_000, code)}".rstrip()

    out = [
        tag("012", t.name), tag("022", t.city), tag("032", t.federation),
        tag("042", _date_text(t.start_date, t.start_date_text)),
        tag("052", _date_text(t.end_date, t.end_date_text)),
        tag("062", str(len(t.players))),
        tag("072", str(sum(1 for p in t.players if p.rating))),
        tag("092", t.tournament_type), tag("102", t.chief_arbiter),
    ]
    out += [tag("112", d) for d in t.deputy_arbiters]
    out.append(tag("122", t.time_control))
    if (rd := _round_dates_line(t)) is not None:
        out.append(rd)
    if t.rounds:
        out.append(f"XXR {t.rounds}")
    if (xxs := _xxs_line(t.scoring)) is not None:
        out.append(xxs)
    return out


def _date_text(d: datetime.date | None, text: str) -> str:
    """Return ``text`` when it still says ``d`` (or neither is a date), else ``d`` as YYYY/MM/DD."""
    parsed, _ok = parse_date(text)
    if parsed == d:
        return text
    return d.strftime("%Y/%m/%d") if d else ""


def _player_unchanged(p: TrfPlayer, rounds: int) -> bool:
    if not p.raw:
        return False
    try:
        head, cells = _parse_player_line(p.raw, p.line, _Ctx("<raw>", strict=False))
    except TrfError:
        return False
    if not p._numbered:     # type: ignore[attr-defined]    # games numbered otherwise
        return False
    opponents, codes, colours, _ = _fit_cells(cells, rounds)
    # the player's fields as read (TrfPlayer's == but its games, which are compared
    # compact: Game's == compares opponent, colour, code and round, not explicit)
    return (_PLAYER_FIELDS(head) == _PLAYER_FIELDS(p) and opponents == p.round_opponents
            and codes == p.round_codes and colours == p.round_colours)


_PLAYER_FIELDS = operator.attrgetter(*(f.name for f in dataclasses.fields(TrfPlayer)
                                       if f.compare and f.name != "games"))


def _content_rounds(players: Iterable[TrfPlayer]) -> int:
    last = 0
    for p in players:
        if p._numbered:         # type: ignore[attr-defined]
            last = max(last, _last_content((p.round_opponents, p.round_codes, "", ())))
            continue
        for g in p.games:
            if (g.opponent is not None or g.code != "Z") and g.round > last:
                last = g.round
    return last


def write_trf(tournament: Tournament, *, newline: str = "\n") -> str:
    """Return the tournament as TRF16 text (each line ends with ``newline``, default LF;
    the last one without it when the file read had none, ``Tournament.final_newline``).

    TRF16 (FIDE Handbook C.04 Annex 2) fixed columns; see the module docstring for
    what is regenerated and what is kept verbatim. Raises InputError when a value
    does not fit its columns (a name over 33 characters, points over 4...).
    """
    t = tournament
    if newline not in ("\n", "\r\n", "\r"):
        raise InputError(f"newline must be LF, CRLF or CR, got {newline!r}")
    if not t.records:
        lines = _header_lines(t) + [_format_player(p) for p in sorted(t.players, key=lambda p: p.start_rank)]
        for team in t.team_records:
            lines.append(team.text)
        for nat in t.national_records:
            lines.append(nat.text)
        return newline.join(lines) + (newline if t.final_newline else "")

    by_rank = {p.start_rank: p for p in t.players}
    written: set[int] = set()
    last_of_tag: dict[str, int] = {}
    for i, rec in enumerate(t.records):
        last_of_tag[rec.tag] = i
    has_round_decl = "XXR" in last_of_tag or "142" in last_of_tag
    last_player_index = max((i for i, r in enumerate(t.records) if r.kind == "player"), default=None)
    last_header_index = max((i for i, r in enumerate(t.records) if r.kind == "header"), default=None)
    field_of = {"012": t.name, "022": t.city, "032": t.federation, "092": t.tournament_type,
                "102": t.chief_arbiter, "122": t.time_control,
                "042": _date_text(t.start_date, t.start_date_text),
                "052": _date_text(t.end_date, t.end_date_text)}

    def extra_players() -> list[str]:
        return [_format_player(p) for p in sorted(t.players, key=lambda p: p.start_rank)
                if p.start_rank not in written]

    out: list[str] = [f"{tag} {_fit(value, 10_000, tag)}".rstrip() for tag, value in sorted(field_of.items())
                      if value and tag not in last_of_tag]  # fields set in code, no record yet
    if last_player_index is None:
        out += extra_players()
    for i, rec in enumerate(t.records):
        text = rec.text
        if rec.kind == "player":
            sr = _ascii_int(text[4:8].strip())
            p = by_rank.get(sr) if sr is not None else None
            if p is not None and sr not in written:
                written.add(p.start_rank)
                out.append(p.raw if _player_unchanged(p, t.rounds) else _format_player(p))
        elif rec.tag in field_of and last_of_tag[rec.tag] == i:
            if clean_text(text[4:].strip()) != field_of[rec.tag]:
                text = f"{rec.tag} {_fit(field_of[rec.tag], 10_000, rec.tag)}".rstrip()
            out.append(text)
        elif rec.tag in ("XXR", "142") and last_of_tag[rec.tag] == i:
            said = _ascii_int((text[4:].split() or [""])[0])
            if said is None or not 1 <= said <= _MAX_ROUNDS:  # unreadable: the reader ignored it
                said = t.declared_rounds or _content_rounds(t.players)
            if said != t.rounds:
                text = f"{rec.tag} {t.rounds}"
            out.append(text)
        else:
            out.append(text)
        if i == last_header_index and not has_round_decl and t.rounds != _content_rounds(t.players):
            out.append(f"XXR {t.rounds}")
        if i == last_player_index:
            out += extra_players()
    return newline.join(out) + (newline if t.final_newline else "")


#: Header fields of a rating report that a cross-table often leaves blank (C.04 Annex 2):
#: tag -> what it holds.
REPORT_FIELDS = {"022": "place", "052": "end date", "092": "type of tournament"}


def empty_report_fields(trf_text: str) -> tuple[list[str], list[str]]:
    """The fields of :data:`REPORT_FIELDS` that a TRF's text (as written) lacks, as
    ``"052 (end date)"``: ``(blank, missing)``, those whose line is there but empty and
    those with no line at all. A rating officer asks for them (FIDE C.04 Annex 2)."""
    seen: dict[str, bool] = {}
    for line in trf_text.splitlines():
        tag = line[:3]
        if tag in REPORT_FIELDS:
            seen[tag] = seen.get(tag, False) or bool(line[4:].strip())
    blank = [f"{tag} ({what})" for tag, what in REPORT_FIELDS.items() if seen.get(tag) is False]
    missing = [f"{tag} ({what})" for tag, what in REPORT_FIELDS.items() if tag not in seen]
    return blank, missing


def line_ending(path: str | os.PathLike[str]) -> str:
    """The line ending of the TRF file at ``path``, as its first line break is written:
    ``"\r\n"`` (CR LF), ``"\r"`` (CR, the spec's) or ``"\n"`` (LF, also for a file with
    none), to write it back with the same (``write_trf(..., newline=...)``)."""
    with open(path, "rb") as f:
        while chunk := f.read(1 << 16):
            cr, lf = chunk.find(b"\r"), chunk.find(b"\n")
            if cr < 0 and lf < 0:
                continue
            if lf >= 0 and (cr < 0 or lf < cr):
                return "\n"
            if cr + 1 < len(chunk):
                return "\r\n" if chunk[cr + 1:cr + 2] == b"\n" else "\r"
            return "\r\n" if f.read(1) == b"\n" else "\r"
    return "\n"


def encode_trf(tournament: Tournament, *, newline: str = "\n", encoding: str | None = None) -> bytes:
    """Return :func:`write_trf` text as bytes in ``encoding``: by default the encoding the
    file was read in (``Tournament.encoding``: ``utf-8``, ``utf-8-sig`` (with its byte
    order mark), ``cp1252``, ``latin-1``...; ``utf-8`` for a tournament built in code),
    so nothing read is lost. Raises InputError naming the player or record when a
    character has no byte in that encoding (give ``encoding="utf-8"`` then).
    """
    text = write_trf(tournament, newline=newline)
    name = encoding or tournament.encoding or "utf-8"
    try:
        return text.encode(name)
    except LookupError:
        raise InputError(f"unknown encoding {name!r}; expected e.g. utf-8, cp1252, latin-1") from None
    except UnicodeEncodeError as exc:
        line = text.count(newline, 0, exc.start) + 1
        bad = text[exc.start:exc.end]
        raise InputError(f"line {line} of the TRF: {bad!r} cannot be written in {name}, the "
                         "encoding the file was read in; write it in another encoding: UTF-8 holds "
                         "every character (`xl-fide trf --encoding utf-8`; in Python "
                         "encoding=\"utf-8\")") from None


def write_trf_file(tournament: Tournament, path: str | os.PathLike[str], *, force: bool = False,
                   newline: str = "\n", encoding: str | None = None) -> None:
    """Write :func:`encode_trf` bytes to ``path`` (in the encoding the file was read in,
    unless ``encoding`` is given), atomically.

    The text goes to a temporary file in the same directory, then replaces ``path``.
    Raises :class:`~xl_fide.errors.OutputExistsError` (a FileExistsError) when ``path``
    exists and ``force`` is false; InputError as :func:`encode_trf`.
    """
    from xl_fide._files import write_atomic   # only to write: not to read
    data = encode_trf(tournament, newline=newline, encoding=encoding)
    try:
        write_atomic(path, data, force=force)
    except OutputExistsError:
        raise OutputExistsError(
            f"{os.fspath(path)}: file exists; pass force=True to overwrite it") from None
