"""The result vocabulary arbiters type into a cross-table, as a game result.

Accepted (any case, spaces ignored): a win ``1``, ``1.0``, ``1-0``, ``1:0``;
a draw ``½``, ``=``, ``0.5``, ``.5``, ``0,5``, ``1/2``, ``½-½``, ``0.5-0.5``,
``1/2-1/2``, ``=-=``; a loss ``0``, ``0-1``, ``0:1``; forfeits ``+`` (win) and ``-``
(loss), also ``+/-``, ``-/+``, ``1F``, ``0F``, ``+:-``; not rated results ``W``/``D``/``L``
(TRF: game played but not rated) and byes ``H`` (½), ``F``/``U`` (1), ``Z`` (0).
Only a win, draw or loss actually played can be a rated game
(FIDE B.02 §8.3.2; TRF16 result codes; reference fide-rating-rules.md §2.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError
from .values import _exact


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
    the value for anything else (``result must be 1, ½, 0, + or -, got 'x'``).
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
        exact = _exact(value)
        if exact is not None:
            if exact == 1:
                return _WIN
            if exact == 0:
                return _LOSS
            if 2 * exact == 1:
                return _DRAW
    raise InputError(f"{name} must be 1, ½, 0, + or -, got {value!r}")
