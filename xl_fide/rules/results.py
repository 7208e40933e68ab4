"""The result vocabulary arbiters type into a cross-table, as a game result.

Accepted (any case, spaces ignored): a win ``1``, ``1.0``, ``1-0``, ``1:0``;
a draw ``½``, ``=``, ``0.5``, ``.5``, ``0,5``, ``1/2``, ``½-½``, ``0.5-0.5``,
``1/2-1/2``, ``=-=``; a loss ``0``, ``0-1``, ``0:1``; forfeits ``+`` (win) and ``-``
(loss), also ``+/-``, ``-/+``, ``1F``, ``0F``, ``+:-``; not rated results ``W``/``D``/``L``
(TRF: game played but not rated) and byes ``H`` (½), ``F``/``U`` (1), ``Z`` (0).
Only a win, draw or loss actually played can be a rated game
(FIDE B.02 §8.3.2, §7.1; TRF16 result codes, C.04 Annex 2).
"""

from __future__ import annotations

from dataclasses import dataclass

from xl_fide.errors import InputError
from xl_fide.rules.values import exact_value


@dataclass(frozen=True)
class GameResult:
    """A parsed result: ``half_points`` (0, 1, 2), ``played`` (can be rated), ``code``
    (the TRF16 result code: ``1 = 0 + - W D L H F U Z``)."""

    half_points: int
    played: bool
    code: str

    @property
    def points(self) -> float:
        """Points as Excel shows them: 0, 0.5 or 1."""
        return self.half_points / 2


_WIN = GameResult(2, True, "1")
_DRAW = GameResult(1, True, "=")
_LOSS = GameResult(0, True, "0")

_VOCABULARY: dict[str, GameResult] = {}
for _words, _result in (
    (("1", "1.0", "1-0", "1:0", "1–0"), _WIN),
    (("=", "½", "0.5", ".5", "0,5", ",5", "1/2", "½-½", "0.5-0.5", "1/2-1/2", "=-=", "½:½",
      "0,5-0,5", "remis"), _DRAW),
    (("0", "0.0", "0-1", "0:1", "0–1"), _LOSS),
    (("+", "+/-", "+:-", "1f", "+-", "1-0f", "f+", "forfeitwin"), GameResult(2, False, "+")),
    (("-", "-/+", "-:+", "0f", "-+", "0-1f", "f-", "forfeitloss"), GameResult(0, False, "-")),
    (("w",), GameResult(2, False, "W")),
    (("d",), GameResult(1, False, "D")),
    (("l",), GameResult(0, False, "L")),
    (("h",), GameResult(1, False, "H")),
    (("f",), GameResult(2, False, "F")),
    (("u",), GameResult(2, False, "U")),
    (("z",), GameResult(0, False, "Z")),
):
    for _w in _words:
        _VOCABULARY[_w] = _result

VOCABULARY_DRAW = ("½", "=", "0.5", "1/2", "½-½", "0.5-0.5")


def vocabulary() -> dict[str, GameResult]:
    """Every accepted spelling (lower case, no spaces) and what it means."""
    return dict(_VOCABULARY)

#: What a list validation in a sheet offers (TRF-like codes first).
VALIDATION_LIST = ("1", "½", "0", "+", "-", "=")


def parse_result(value: object, name: str = "result") -> GameResult | None:
    """The :class:`GameResult` of a cell value, or ``None`` for a blank (no game).

    Numbers 0, 0.5 and 1 (int or float) are a loss, draw and win. Text is read with the
    vocabulary of this module. Raises :class:`InputError` naming ``name`` and quoting
    the value for anything else (``result must be 1, ½, 0, + or - (or = 1-0 0-1 ½-½,
    W D L, a bye H F U Z), got 'x'``; a value longer than 24 characters is cut, so the
    message stays short enough for a cell).
    """
    if value is None:
        return None
    if isinstance(value, str):
        text = "".join(value.split()).lower()
        if text == "":
            return None
        found = _VOCABULARY.get(text)
        if found is not None:
            return found
    else:
        exact = exact_value(value)      # 1e30, NaN, inf: None (the message below)
        if exact is not None:
            if exact == 1:
                return _WIN
            if exact == 0:
                return _LOSS
            if 2 * exact == 1:
                return _DRAW
    shown = repr(value) if len(repr(value)) <= 24 else repr(value)[:23] + "…"
    raise InputError(f"{name} must be {ACCEPTED}, got {shown}")


#: What :func:`parse_result` accepts, briefly (its error message says it).
ACCEPTED = "1, ½, 0, + or - (or = 1-0 0-1 ½-½, W D L, a bye H F U Z)"


#: For the TRF result code of one side of a game between two players, the codes the
#: other side may have (TRF16 result codes, FIDE C.04 Annex 2): a win against a loss,
#: a draw against a draw, a forfeit win against a forfeit loss, a double forfeit, and
#: the not-rated W/D/L likewise. Bye codes (H, F, U, Z) have no opponent: none of them
#: may stand on either side of a game between two players.
PAIR_COMPLEMENT: dict[str, frozenset[str]] = {
    "1": frozenset({"0"}), "0": frozenset({"1"}), "=": frozenset({"="}),
    "+": frozenset({"-"}), "-": frozenset({"+", "-"}),
    "W": frozenset({"L"}), "L": frozenset({"W"}), "D": frozenset({"D"}),
}
BYE_CODES = frozenset({"H", "F", "U", "Z"})
_WINS = frozenset({"1", "+", "W"})
_CODE_WORDS = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "-", "W": "W", "D": "D", "L": "L",
               "H": "H", "F": "F", "U": "U", "Z": "Z"}


def pair_problem(code_a: str, code_b: str, colour_a: str | None = None,
                 colour_b: str | None = None) -> str | None:
    """Why the two sides of one game cannot both be true, or ``None`` when they agree.

    ``code_a`` / ``code_b``: the TRF16 result codes (``1 = 0 + - W D L H F U Z``) that
    the two players' rows give for the game; ``colour_a`` / ``colour_b``: ``"w"``,
    ``"b"`` or ``None`` (unknown). The one place that says which pairs of results are
    consistent, for the TRF reader and the workbook reader alike: both won
    (``1``/``1``, ``+``/``+``, ``W``/``W``), a win against a draw, a bye on one side of
    a game the other side played, both with the same colour. ``Z`` on both sides (a
    TRF cell paired but with a blank result: the game is not played yet) agrees. The
    answer is a short phrase (``"both won"``) for the caller to put in its located
    message.
    """
    a, b = code_a.upper(), code_b.upper()
    if not a == b == "Z":
        problem = _result_problem(a, b)
        if problem is not None:
            return problem
    if colour_a is not None and colour_b is not None and colour_a.lower() == colour_b.lower():
        return f"both have colour {colour_a.lower()!r}"
    return None


def _result_problem(a: str, b: str) -> str | None:
    if a in BYE_CODES or b in BYE_CODES:
        bye, other = (a, b) if a in BYE_CODES else (b, a)
        return (f"a bye ({bye}) on one side of a game the other side has as "
                f"{_CODE_WORDS.get(other, other)!r}")
    allowed = PAIR_COMPLEMENT.get(a)
    if allowed is None or b not in allowed:
        if a in _WINS and b in _WINS:
            return "both won"
        return (f"results {_CODE_WORDS.get(a, a)!r} and {_CODE_WORDS.get(b, b)!r} "
                "do not match")
    return None
