"""The tournament: players, their games round by round, the event's header, its scoring.

The model every layer shares. The TRF reader (:mod:`xl_fide.trf`) and the workbook
reader (:mod:`xl_fide.excel`) produce it; the event layer (:mod:`xl_fide.event`) rates
it; the TRF writer and the workbooks present it. It knows no file format: the reader
hands it what it read (:func:`records_on_read`), the writer reads its fields.

* :class:`Tournament` the event: header fields (TRF16 012-132 meaning), ``rounds``,
  ``players`` (by start rank), ``scoring``; :meth:`Tournament.build` makes one in code.
* :class:`TrfPlayer` one player (the fields of a TRF16 ``001`` line), :class:`Game`
  one round cell (opponent, colour, result code). A player keeps its cells compact
  (:func:`compact_games`: per round the opponent, the code and the colour); the Games
  of ``games`` are made when first read. :func:`counted_cells` gives the cells an
  event counts without making a Game; a reader fills a player's cells with
  :func:`set_compact_games` and makes a checked cell's Game with :func:`make_game`.
* :data:`RESULT_CODES` / :data:`PLAYED_CODES` the result codes (TRF16 result table),
  :data:`DEFAULT_SCORING` the points per code.
* :class:`TrfWarning` a problem found while reading, :class:`Record`,
  :class:`TeamRecord`, :class:`NationalRecord` the file's other lines as read.
"""

from __future__ import annotations

import dataclasses
import datetime
import operator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence, TypeVar, overload

from xl_fide._dates import parse_date_text as parse_date
from xl_fide.errors import InputError, TrfError
from xl_fide.rules.values import as_fide_id

__all__ = [
    "RESULT_CODES", "PLAYED_CODES", "DEFAULT_SCORING", "MAX_ROUNDS",
    "Game", "TrfPlayer", "TrfWarning", "Record", "TeamRecord", "NationalRecord",
    "Tournament", "birth_year_of", "records_on_read", "make_game", "compact_games",
    "counted_cells", "cell_columns", "set_compact_games",
]


#: Result codes of a round cell (TRF16 table "Result"); blank is read as ``Z``.
RESULT_CODES = frozenset({"1", "=", "0", "+", "-", "W", "D", "L", "H", "F", "U", "Z"})
#: Codes of a game played over the board and rated (with a real opponent).
PLAYED_CODES = frozenset({"1", "=", "0"})
_HALF_POINTS = {"1": 2, "=": 1, "0": 0}

_D = Decimal
#: Default points per result code (TRF16 result table; JaVaFo XXS defaults).
DEFAULT_SCORING: Mapping[str, Decimal] = MappingProxyType({
    "1": _D("1"), "=": _D("0.5"), "0": _D("0"),
    "+": _D("1"), "-": _D("0"),
    "W": _D("1"), "D": _D("0.5"), "L": _D("0"),
    "H": _D("0.5"), "F": _D("1"), "U": _D("1"), "Z": _D("0"),
})

#: The most rounds a tournament may have (a TRF's round blocks; the writer's columns).
MAX_ROUNDS = 199

_new = object.__new__
_set = object.__setattr__

# --------------------------------------------------------------------------- values

@dataclass(frozen=True)
class Game:
    """One round cell of a ``001`` line: opponent, colour and result code.

    TRF16 001 columns 92-95 (opponent), 97 (colour), 99 (result), + 10 per round.

    ``code`` is upper case, one of :data:`RESULT_CODES` (blank is ``"Z"``);
    ``opponent`` is the opponent's start rank or None (``0000``/blank);
    ``colour`` is ``"w"``, ``"b"`` or None (``-``/blank). ``explicit`` (not compared)
    says the cell was written in the file (read) or is meant to be written (built);
    it defaults to False only for an empty ``Z`` cell (no opponent, no colour). The
    writer drops trailing non-explicit ``Z`` cells so a line ends after the last round
    with content, as JaVaFo expects (for the round being paired a blank cell means
    "present", an explicit ``0000 - Z`` "absent"); elsewhere it writes ``0000 - Z``.
    """

    round: int
    opponent: int | None = None
    colour: str | None = None
    code: str = "Z"
    explicit: bool | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        code = (self.code or "Z").strip().upper() or "Z"
        if code not in RESULT_CODES:
            raise InputError(f"result code must be one of 1 = 0 + - W D L H F U Z, got {self.code!r}")
        colour_text = (self.colour or "").strip().lower()
        if colour_text not in ("", "-", "w", "b"):
            raise InputError(f"colour must be 'w', 'b', '-' or blank, got {self.colour!r}")
        colour = colour_text if colour_text in ("w", "b") else None
        opponent = self.opponent or None
        if opponent is not None and not (isinstance(opponent, int) and 0 < opponent <= 9999):
            raise InputError(f"opponent must be a start rank 1-9999 or None, got {self.opponent!r}")
        if not (isinstance(self.round, int) and self.round >= 1):
            raise InputError(f"round must be a number >= 1, got {self.round!r}")
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "opponent", opponent)
        if self.explicit is None:
            object.__setattr__(self, "explicit",
                               not (code == "Z" and opponent is None and colour is None))

    @property
    def is_played(self) -> bool:
        """True for a game played over the board: code ``1``, ``=`` or ``0`` with an opponent.

        TRF16 result table; FIDE B.02: forfeits (``+ -``), unrated short games
        (``W D L``) and byes (``H F U Z``) are not rated games.
        """
        return self.code in PLAYED_CODES and self.opponent is not None

    @property
    def is_forfeit(self) -> bool:
        """True for a forfeit win or loss (``+`` / ``-``), with or without an opponent."""
        return self.code in ("+", "-")

    @property
    def is_bye(self) -> bool:
        """True when the cell has no opponent (bye, absence, not paired)."""
        return self.opponent is None

    @property
    def score_half_points(self) -> int:
        """Return the game score in half-points for rating: ``1`` -> 2, ``=`` -> 1, ``0`` -> 0.

        FIDE B.02: only played games are rated. Raises InputError for any other code
        (use :meth:`Tournament.points_for` for tournament points).
        """
        if self.code not in _HALF_POINTS:
            raise InputError(
                f"round {self.round}: result {self.code!r} is not a played game; "
                "only '1', '=' and '0' have a rating score")
        return _HALF_POINTS[self.code]


def birth_year_of(birth_date: str) -> int | None:
    """The year of a TRF birth date (its first four ASCII digits), None if absent or 0000."""
    year = birth_date[:4]
    if len(year) < 4 or not (year.isdigit() and year.isascii()) or year == "0000":
        return None
    return int(year)


def make_game(r: int, opponent: int | None, colour: str | None, code: str,
              explicit: bool) -> Game:
    """A :class:`Game` of values already checked (round >= 1, opponent 1-9999 or None,
    colour ``w``/``b``/None, an upper-case code of :data:`RESULT_CODES`): the same
    object ``Game(...)`` gives, without checking them a second time. Each field is set
    on its own, in the order of Game's fields, as ``Game.__init__`` sets them (CPython
    keeps the values in the object itself: a third of the memory of a dict)."""
    g = _new(Game)
    _set(g, "round", r)
    _set(g, "opponent", opponent)
    _set(g, "colour", colour)
    _set(g, "code", code)
    _set(g, "explicit", explicit)
    return g


_COLOUR_OF = {"w": "w", "b": "b", "-": None}
_COLOUR_CHAR = {"w": "w", "b": "b", None: "-"}


def _games_of(opponents: Sequence[int | None], codes: str, colours: str,
              flips: Sequence[int]) -> tuple[Game, ...]:
    """The Games of rounds 1..n of compact cells (:class:`_GamesField`). A Game is an
    immutable value: the same cell in the same round is one shared object (a period's
    thousand small events repeat their cells), up to :data:`_SHARED_GAMES_MAX` of them
    (a large event's cells all differ: then each gets its own)."""
    colour_of = _COLOUR_OF
    shared = _SHARED_GAMES
    games = []
    for i, (opp, code, c) in enumerate(zip(opponents, codes, colours)):
        flip = i in flips
        key = (i, opp, code, c, flip)
        g = shared.get(key)
        if g is None:
            colour = colour_of[c]
            explicit = not (code == "Z" and opp is None and colour is None)
            g = make_game(i + 1, opp, colour, code, explicit is not flip)
            if len(shared) < _SHARED_GAMES_MAX:
                shared[key] = g
        games.append(g)
    return tuple(games)


#: The Games :func:`_games_of` shares, by round index, opponent, code, colour and flip
_SHARED_GAMES: dict[tuple[int, int | None, str, str, bool], Game] = {}
_SHARED_GAMES_MAX = 16384


_NO_FLIPS: tuple[int, ...] = ()


def compact_games(games: Sequence[Game]) -> tuple[tuple[int | None, ...], str, str, tuple[int, ...]]:
    """``(opponents, codes, colours, flips)`` of ``games``, parallel to them: the opponents
    (start rank or None), the codes and the colours (``w``/``b``/``-``) one character a
    game, and the indexes of the games whose ``explicit`` is not its default (a cell
    written without content, such as ``0000 - Z``)."""
    opponents = tuple([g.opponent for g in games])
    codes = "".join([g.code for g in games])
    colours = "".join([_COLOUR_CHAR[g.colour] for g in games])
    flips = tuple([i for i, g in enumerate(games)
                   if bool(g.explicit) is (g.code == "Z" and g.opponent is None
                                           and g.colour is None)]) or _NO_FLIPS
    return opponents, codes, colours, flips


class _GamesField:
    """``TrfPlayer.games``: kept compact in the player (``_opponents``, ``_codes``,
    ``_colours``, ``_flips``: :func:`compact_games`); ``_games`` the Game objects, made
    on first read when the reader filled the compact values only (``None`` until then).
    ``_numbered``: the games are rounds 1, 2, ... in order (always so for a reader's
    player), so game ``r`` is at index ``r - 1``. A data descriptor: ``TrfPlayer(...,
    games=...)`` sets it through :meth:`__set__`."""

    def __get__(self, obj: Any, objtype: type | None = None) -> Any:
        if obj is None:
            return ()                   # the field's default
        games = obj._games
        if games is None:
            games = _games_of(obj._opponents, obj._codes, obj._colours, obj._flips)
            _set(obj, "_games", games)
        return games

    def __set__(self, obj: Any, value: Iterable[Game]) -> None:
        games = tuple(value)
        opponents, codes, colours, flips = compact_games(games)
        _set(obj, "_opponents", opponents)
        _set(obj, "_codes", codes)
        _set(obj, "_colours", colours)
        _set(obj, "_flips", flips)
        _set(obj, "_numbered", all([g.round == i for i, g in enumerate(games, 1)]))
        _set(obj, "_games", games)


def set_compact_games(player: TrfPlayer, opponents: tuple[int | None, ...], codes: str,
                      colours: str, flips: tuple[int, ...] = _NO_FLIPS) -> None:
    """Give a player a reader is building (nothing else holds it yet) the games of
    rounds 1..n as compact values (see :func:`compact_games`; values already checked:
    codes of :data:`RESULT_CODES`, colours ``w``/``b``/``-``, opponents 1-9999 or
    None); its Games are made on first read of ``games``."""
    _set(player, "_opponents", opponents)
    _set(player, "_codes", codes)
    _set(player, "_colours", colours)
    _set(player, "_flips", flips)
    _set(player, "_numbered", True)
    _set(player, "_games", None)


def counted_cells(player: TrfPlayer, rounds: int) -> tuple[Sequence[int | None], str, str]:
    """``(opponents, codes, colours)`` of the player's games within ``rounds`` (all of
    them when ``rounds`` is 0), as :func:`compact_games` gives them: the cells an event
    counts, without making a Game."""
    d = player
    opponents, codes, colours = d._opponents, d._codes, d._colours  # type: ignore[attr-defined]
    if not rounds or len(codes) <= rounds:
        if d._numbered or not rounds:  # type: ignore[attr-defined]
            return opponents, codes, colours
    elif d._numbered:  # type: ignore[attr-defined]
        return opponents[:rounds], codes[:rounds], colours[:rounds]
    keep = [i for i, g in enumerate(player.games) if g.round <= rounds]
    return ([opponents[i] for i in keep], "".join([codes[i] for i in keep]),
            "".join([colours[i] for i in keep]))


def cell_columns(players: Sequence[TrfPlayer], rounds: int
                 ) -> tuple[list[tuple[int | None, ...]], list[str], list[str],
                            list[tuple[Sequence[int | None], str, str]] | None]:
    """The round cells of ``players`` column by column, as the model keeps them
    (:func:`compact_games`): each player's opponents, codes and colours
    (:attr:`TrfPlayer.round_opponents` and the others); then ``None`` when every
    player's cells are the ones an event of ``rounds`` rounds counts, else each
    player's :func:`counted_cells`. One pass, for an event's many players."""
    opponents = [p._opponents for p in players]  # type: ignore[attr-defined]
    codes = [p._codes for p in players]  # type: ignore[attr-defined]
    colours = [p._colours for p in players]  # type: ignore[attr-defined]
    counted = None
    if rounds and (max(map(len, codes), default=0) > rounds
                   or not all([p._numbered for p in players])):  # type: ignore[attr-defined]
        counted = [counted_cells(p, rounds) for p in players]
    return opponents, codes, colours, counted


@dataclass(frozen=True)
class TrfPlayer:
    """One ``001`` player record.

    TRF16 001 columns: 5-8 start rank, 10 sex, 11-13 title, 15-47 name, 49-52 rating,
    54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank.

    ``rating`` is None when blank, ``0`` or ``0000`` (unrated; no rating floor is
    applied here). ``fide_id`` is None when blank or ``0``. ``birth_year`` comes from
    the first four digits of ``birth_date`` (None when absent or ``0000``). ``games``
    has one :class:`Game` per round of the tournament. ``line`` (the line number in
    the file) and ``raw`` (the line as read) are not compared.

    The games are kept compact, as parallel values per round (:attr:`round_opponents`,
    :attr:`round_codes`, :attr:`round_colours`); the :class:`Game` objects of ``games``
    are made on first read (a reader's player) or kept as given (a player built in code).
    """

    start_rank: int
    sex: str = ""
    title: str = ""
    name: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: int | None = None
    birth_date: str = ""
    birth_year: int | None = None
    points: Decimal | None = None
    rank: int | None = None
    games: tuple[Game, ...] = _GamesField()  # type: ignore[assignment]
    line: int = field(default=0, compare=False)
    raw: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.start_rank, int) and 0 < self.start_rank <= 9999):
            raise InputError(f"start rank must be a number 1-9999, got {self.start_rank!r}")
        if self.rating == 0:
            object.__setattr__(self, "rating", None)
        if self.fide_id is not None:   # 11 digits at most (never 2**63: SQLite's limit)
            object.__setattr__(self, "fide_id", as_fide_id(self.fide_id,
                                                           f"player {self.start_rank}: FIDE id"))
        if self.points is not None and not isinstance(self.points, Decimal):
            object.__setattr__(self, "points", Decimal(str(self.points)))
        if self.birth_year is None and self.birth_date:
            object.__setattr__(self, "birth_year", birth_year_of(self.birth_date))

    def game(self, round: int) -> Game | None:  # noqa: A002 - the TRF word
        """Return the player's game of 1-based ``round``, or None outside 1..rounds."""
        if 1 <= round <= len(self.games):
            return self.games[round - 1]
        return None

    @property
    def round_opponents(self) -> tuple[int | None, ...]:
        """Each game's opponent (start rank, None for none), in the order of ``games``."""
        return self._opponents  # type: ignore[attr-defined]

    @property
    def round_codes(self) -> str:
        """Each game's result code (:data:`RESULT_CODES`), one character a game, in the
        order of ``games``."""
        return self._codes  # type: ignore[attr-defined]

    @property
    def round_colours(self) -> str:
        """Each game's colour, one character a game (``w``, ``b``, ``-`` for none), in
        the order of ``games``."""
        return self._colours  # type: ignore[attr-defined]


@dataclass(frozen=True)
class TrfWarning:
    """A problem found while reading in lenient mode: where it is and what was expected."""

    file: str
    line: int | None
    column: int | None
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Record:
    """One line of the file as read, for the writer.

    ``kind`` is one of ``"header"`` (``??2`` tags), ``"player"`` (001), ``"comment"``
    (``###``), ``"extension"`` (``XX?``, ``DAT``), ``"team"`` (013 310 320 330 300),
    ``"national"`` (TRF-2026 national rating records), ``"other"`` (TRF-2026 240 250
    260 299 801 802), ``"ruler"`` (human column rulers), ``"blank"`` (a blank line, or
    a DOS end-of-file mark) or ``"unknown"``.
    ``text`` is the line without its line ending.
    """

    kind: str
    tag: str
    text: str
    line: int


@dataclass(frozen=True)
class TeamRecord:
    """A team record read lightly: 013 (name 5-36, members 37-40, 42-45, ...) or
    310 (number 5-7, name 9-40, members 74-77, 79-82, ...); 320/330/300 keep ``text`` only.

    TRF-2026 team section.
    """

    tag: str
    number: int | None
    name: str
    members: tuple[int, ...]
    text: str
    line: int


@dataclass(frozen=True)
class NationalRecord:
    """A TRF-2026 national rating support record (record id = federation code).

    Same columns as 001 up to 79: 5-8 start rank, 10 sex, 11-13 classification,
    15-47 name, 49-52 national rating, 54-56 origin, 58-68 national id, 70-79 birth date.
    """

    federation: str
    start_rank: int
    sex: str
    classification: str
    name: str
    rating: int | None
    origin: str
    national_id: str
    birth_date: str
    line: int
    text: str


def _freeze_scoring(scoring: Mapping[str, Any] | None) -> Mapping[str, Decimal]:
    if scoring is None:
        return DEFAULT_SCORING
    if (isinstance(scoring, MappingProxyType) and RESULT_CODES <= scoring.keys()
            and all(isinstance(v, Decimal) for v in scoring.values())):
        return scoring
    merged = dict(DEFAULT_SCORING)
    for key, value in scoring.items():
        try:
            merged[str(key)] = value if isinstance(value, Decimal) else Decimal(str(value))
        except (InvalidOperation, ValueError) as exc:
            raise InputError(f"scoring for {key!r} must be a number, got {value!r}") from exc
    return MappingProxyType(merged)


_MISSING: Any = object()
_T = TypeVar("_T")


@dataclass(frozen=True)
class Tournament:
    """A tournament as read from a TRF (or built in code for writing one).

    Header fields come from 012 (name), 022 (city), 032 (federation), 042/052 (dates,
    parsed from the free formats seen in real files, see :func:`parse_date`), 092
    (type), 102 (chief arbiter), 112 (deputies), 122 (time control), 132 (round
    dates). See the module docstring for ``rounds``, ``rounds_played``, ``scoring``.
    ``version`` is ``"TRF-2026"`` when the file has a TRF-2026 record (142-362 tags,
    ``###`` comments, team/bye/national records), else ``"TRF16"``.
    """

    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: datetime.date | None = None
    end_date: datetime.date | None = None
    start_date_text: str = ""
    end_date_text: str = ""
    time_control: str = ""
    rounds: int = 0
    players: tuple[TrfPlayer, ...] = ()
    scoring: Mapping[str, Decimal] = field(default_factory=lambda: DEFAULT_SCORING)
    version: str = "TRF16"
    records: tuple[Record, ...] = ()
    team_records: tuple[TeamRecord, ...] = ()
    warnings: tuple[TrfWarning, ...] = field(default=(), compare=False)
    source: str = "<string>"
    declared_rounds: int | None = None
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    tournament_type: str = ""
    round_dates_text: tuple[str, ...] = ()
    round_dates: tuple[datetime.date | None, ...] = ()
    initial_colour: str | None = None
    national_records: tuple[NationalRecord, ...] = ()
    encoding: str = field(default="utf-8", compare=False, repr=False)
    #: the line ending of the file read (its first line break: ``"\n"``, ``"\r\n"`` or
    #: ``"\r"``), for :func:`~xl_fide.trf.write_trf`'s ``newline``; ``"\n"`` in code
    newline: str = field(default="\n", compare=False, repr=False)
    #: whether the file read ends with a line break (True in code): a file without one
    #: is written back without one (:func:`~xl_fide.trf.write_trf`)
    final_newline: bool = field(default=True, compare=False, repr=False)
    _by_rank: Mapping[int, TrfPlayer] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("players", "records", "team_records", "warnings", "deputy_arbiters",
                     "round_dates_text", "round_dates", "national_records"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        object.__setattr__(self, "scoring", _freeze_scoring(self.scoring))
        object.__setattr__(self, "_by_rank", MappingProxyType({p.start_rank: p for p in self.players}))

    # -- lookups -------------------------------------------------------------
    @overload
    def player(self, start_rank: int) -> TrfPlayer: ...

    @overload
    def player(self, start_rank: int, default: _T) -> TrfPlayer | _T: ...

    def player(self, start_rank: int, default: Any = _MISSING) -> Any:
        """Return the player with this start rank.

        Raises TrfError (naming the file) when there is none, unless ``default`` is
        given, which is then returned.
        """
        try:
            return self._by_rank[start_rank]
        except (KeyError, TypeError):
            if default is not _MISSING:
                return default
            raise TrfError(f"no player with start rank {start_rank!r}", self.source) from None

    def points_for(self, game: Game) -> Decimal:
        """Return the points of ``game`` under this event's scoring system (XXS / 162)."""
        if game.colour is not None:
            by_colour = self.scoring.get(game.code + game.colour)
            if by_colour is not None:
                return by_colour
        return self.scoring.get(game.code, DEFAULT_SCORING[game.code])

    def score(self, player: TrfPlayer | int) -> Decimal:
        """Return the sum of :meth:`points_for` over the player's games (acceleration excluded)."""
        if isinstance(player, int):
            player = self.player(player)
        return self.points_of_cells(player.round_codes, player.round_colours)

    def points_of(self, games: Iterable[Game]) -> Decimal:
        """Return the sum of :meth:`points_for` over ``games``, in their order."""
        table = self._points_table
        return sum([table[g.code, g.colour] for g in games], Decimal(0))

    def points_of_cells(self, codes: str, colours: str) -> Decimal:
        """:meth:`points_of` of games given compact (:attr:`TrfPlayer.round_codes`,
        :attr:`TrfPlayer.round_colours`, or :func:`counted_cells`)."""
        table = self._cell_points
        total = sum(map(table.__getitem__, map(operator.add, codes, colours)), Decimal(0))
        # one Decimal per sum as written (5.5, 6.0): a large event repeats a few dozen
        return self._point_sums.setdefault(total.as_tuple(), total)

    @cached_property
    def _point_sums(self) -> dict[tuple[Any, ...], Decimal]:
        """The sums :meth:`points_of_cells` gave, by their digits and exponent."""
        return {}

    @cached_property
    def time_control_code(self) -> str:
        """The TRF-2026 ``222`` coded time control of the file (its first ``222``
        record; ``""`` if none), found once (of a file read, among the reader's
        ``(kind, tag, text, line)`` of its records, without making them)."""
        pending = getattr(self, "_pending_records", None)
        for rec in ((r.kind, r.tag, r.text, r.line) for r in self.records) if pending is None \
                else pending[0]:
            if rec is not None and rec[0] == "header" and rec[1] == "222":
                return rec[2][4:].strip()
        return ""

    @cached_property
    def _points_table(self) -> Mapping[tuple[str, str | None], Decimal]:
        """:meth:`points_for` of every code and colour, worked out once per event."""
        return {(code, colour): self.points_for(Game(1, None, colour, code))
                for code in RESULT_CODES for colour in (None, "w", "b")}

    @cached_property
    def _cell_points(self) -> Mapping[str, Decimal]:
        """:attr:`_points_table` by code and colour character (``"1w"``, ``"=-"``)."""
        return {code + _COLOUR_CHAR[colour]: points
                for (code, colour), points in self._points_table.items()}

    @property
    def rounds_played(self) -> int:
        """Return the highest paired round (a real opponent with a result, or a ``U``); 0 if none."""
        last = 0
        for p in self.players:
            if not p._numbered:  # type: ignore[attr-defined]
                for g in p.games:
                    if g.round > last and (g.code == "U" or (g.opponent is not None
                                                             and g.code != "Z")):
                        last = g.round
                continue
            codes = p.round_codes
            for i in range(len(codes) - 1, last - 1, -1):
                code = codes[i]
                if code == "U" or (code != "Z" and p.round_opponents[i] is not None):
                    last = i + 1
                    break
        return last

    # -- construction --------------------------------------------------------
    @classmethod
    def build(cls, *, name: str, players: Iterable[TrfPlayer], rounds: int | None = None,
              city: str = "", federation: str = "",
              start_date: datetime.date | str | None = None,
              end_date: datetime.date | str | None = None,
              time_control: str = "", scoring: Mapping[str, Any] | None = None,
              chief_arbiter: str = "", deputy_arbiters: Iterable[str] = (),
              tournament_type: str = "",
              round_dates: Iterable[datetime.date | None] = (),
              source: str = "<built>") -> Tournament:
        """Return a Tournament built in code (e.g. from a workbook), ready for :func:`write_trf`.

        ``players`` are sorted by start rank; their ``games`` may be shorter than
        ``rounds`` (padded with blank ``Z`` cells) and must be numbered 1, 2, ... in
        order. ``rounds`` defaults to the longest games tuple. ``scoring`` maps result
        codes to points; codes not given keep the defaults. Dates may be
        ``datetime.date`` or text. Raises InputError for duplicate start ranks, an
        opponent that is not a player, games out of order or longer than ``rounds``.
        """
        plist = sorted(players, key=lambda p: p.start_rank)
        ranks = [p.start_rank for p in plist]
        if len(set(ranks)) != len(ranks):
            dup = sorted({r for r in ranks if ranks.count(r) > 1})
            raise InputError(f"duplicate start rank(s) {dup}")
        n = max((len(p.games) for p in plist), default=0) if rounds is None else rounds
        if not (isinstance(n, int) and 0 <= n <= MAX_ROUNDS):
            raise InputError(f"rounds must be a number 0-{MAX_ROUNDS}, got {rounds!r}")
        known = set(ranks)
        fitted = []
        for p in plist:
            games = list(p.games)
            if len(games) > n:
                raise InputError(f"player {p.start_rank} has {len(games)} games but rounds is {n}")
            for i, g in enumerate(games, start=1):
                if g.round != i:
                    raise InputError(f"player {p.start_rank}: game {i} is numbered round {g.round}")
                if g.opponent is not None and g.opponent not in known:
                    raise InputError(
                        f"player {p.start_rank}, round {i}: opponent {g.opponent} is not a player")
            games += [Game(r, None, None, "Z", explicit=False) for r in range(len(games) + 1, n + 1)]
            fitted.append(dataclasses.replace(p, games=tuple(games)))
        s_date, s_text = _date_and_text(start_date)
        e_date, e_text = _date_and_text(end_date)
        rd = tuple(round_dates)
        return cls(
            name=name, city=city, federation=federation, start_date=s_date, end_date=e_date,
            start_date_text=s_text, end_date_text=e_text, time_control=time_control,
            rounds=n, players=tuple(fitted), scoring=_freeze_scoring(scoring), version="TRF16",
            source=source, declared_rounds=n, chief_arbiter=chief_arbiter,
            deputy_arbiters=tuple(deputy_arbiters), tournament_type=tournament_type,
            round_dates=rd, round_dates_text=tuple(d.strftime("%y/%m/%d") if d else "" for d in rd),
        )


class _RecordsOnRead:
    """The ``records`` of a Tournament the reader built, made on first read (a period
    reads a thousand files and never asks for them): each from the ``(kind, tag, text,
    line)`` the reader kept, a 001 line's (``None``) from its player (which keeps its
    line number and text). Every other Tournament holds its records itself (this is a
    non-data descriptor)."""

    def __get__(self, obj: object, objtype: type | None = None) -> Any:
        if obj is None:
            return ()                   # the field's default, as on the class before
        others, players = obj._pending_records  # type: ignore[attr-defined]
        player_lines = iter(players)
        records = []
        for kept in others:
            # Record(kind, tag, text, line) of str and int fields, built in one step
            rec = _new(Record)
            if kept is None:
                p = next(player_lines)
                _set(rec, "__dict__", {"kind": "player", "tag": "001", "text": p.raw,
                                       "line": p.line})
            else:
                kind, tag, text, line = kept
                _set(rec, "__dict__", {"kind": kind, "tag": tag, "text": text, "line": line})
            records.append(rec)
        # _pending_records stays: another thread may be reading it at the same time
        # (both then make equal records; the last one kept)
        out = tuple(records)
        _set(obj, "records", out)
        return out


Tournament.records = _RecordsOnRead()  # type: ignore[assignment]


def records_on_read(tournament: Tournament,
                    kept: Sequence[tuple[str, str, str, int] | None]) -> None:
    """Hand a Tournament just built by a reader the lines it read, for its ``records``
    to be made on first read (:class:`Record` s; a period reads a thousand files and
    never asks for them). ``kept`` holds each line's ``(kind, tag, text, line)`` in file
    order, ``None`` for a ``001`` line (its :class:`Record` is made from the player,
    which keeps its line number and text). Only for a Tournament no one else holds yet.
    """
    object.__delattr__(tournament, "records")
    _set(tournament, "_pending_records", (kept, tournament.players))


def _date_and_text(value: datetime.date | str | None) -> tuple[datetime.date | None, str]:
    if value is None:
        return None, ""
    if isinstance(value, datetime.date):
        return value, value.strftime("%Y/%m/%d")
    parsed, ok = parse_date(str(value))
    if not ok:
        raise InputError(f"date must be YYYY/MM/DD or DD/MM/YYYY, got {value!r}")
    return parsed, str(value).strip()
