"""Validation of the plain values the engine takes: ratings, scores, K, game counts.

Ratings are integers (FIDE publishes whole numbers), scores are 0, 0.5 or 1 per game
and are carried as integer half points, K is a positive integer (FIDE B.02 §8.3.3).
Floats are accepted only when they are exactly such a value (Excel sends 2000.0);
2000.5 is an error, never rounded. Numbers typed as text (``"2000"``, a CSV field, a
cell) are read with the digits 0-9 only, at most :data:`MAX_NUMBER_TEXT` characters
and :data:`MAX_DIGITS` digits: ``"1e999999999"`` is refused at once, and no message
quotes more than a few dozen characters of a value.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from numbers import Number

from xl_fide.errors import InputError, TooManyDigits

RATING_MIN = 0
RATING_MAX = 4000
#: The K factors :func:`as_k` accepts (whole numbers; FIDE B.02 §8.3.3's are 10, 20, 40)
K_MIN, K_MAX = 1, 100
#: The largest FIDE id: the TRF16 field is 11 digits (columns 58-68, C.04 Annex 2).
FIDE_ID_MAX = 99_999_999_999
MAX_NUMBER_TEXT = 40     # characters of a number written as text
MAX_DIGITS = 30          # digits of a whole number (far beyond any rating, K or count)
_QUOTE = 40              # characters of a bad value quoted in a message

_NUMBER_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")




def number_from_text(text: str, name: str, what: str = "a number") -> Decimal:
    """A number written as text (``"2000"``, ``" 2000.0 "``, ``"2e3"``) as a Decimal.

    Only the ASCII digits 0-9 count (``"²"`` and other Unicode digits are refused),
    with an optional sign, point and exponent; at most :data:`MAX_NUMBER_TEXT`
    characters. Raises :class:`InputError` naming ``name`` (and ``what`` was expected)
    otherwise.
    """
    stripped = text.strip()
    if len(stripped) > MAX_NUMBER_TEXT:
        raise InputError(f"{name} must be {what}, got text of {len(stripped)} characters "
                         f"(at most {MAX_NUMBER_TEXT})")
    if not _NUMBER_TEXT.fullmatch(stripped):
        digits = " written with the digits 0-9" if any(
            ch.isdigit() and not ch.isascii() for ch in stripped) else ""
        raise InputError(f"{name} must be {what}{digits}, got {quote_value(text)}")
    return Decimal(stripped)


def _exact(value: object) -> Fraction | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        if value.bit_length() > MAX_DIGITS * 4:
            raise TooManyDigits
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        if abs(value) >= 10.0 ** MAX_DIGITS:
            raise TooManyDigits
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            return None
        if value and abs(value.adjusted()) > MAX_DIGITS:   # 1e999999999: never expanded
            if value.adjusted() > 0:
                raise TooManyDigits
            return Fraction(1, 3)                           # a tiny fraction: not whole
        return Fraction(value)
    if isinstance(value, Fraction):
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_DIGITS * 4:
            raise TooManyDigits
        return value
    if isinstance(value, Number):
        try:
            return _exact(Decimal(str(value)))
        except (ArithmeticError, ValueError, TypeError):
            return None
    return None


def exact_value(value: object) -> Fraction | None:
    """``value`` as an exact fraction when it is a finite number of at most
    :data:`MAX_DIGITS` digits; ``None`` otherwise (text, NaN, infinities, ``1e30``,
    ``2**200``): the caller's message says what was expected. Never raises."""
    try:
        return _exact(value)
    except TooManyDigits:
        return None


def quote_value(value: object) -> str:
    """``value`` as a message quotes it: short (a long text is cut, a huge number sized)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_DIGITS * 4:
        return f"a number of more than {MAX_DIGITS} digits"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= _QUOTE else text[:_QUOTE] + f"... ({len(text)} characters)"


def as_int(value: object, name: str, *, minimum: int | None = None,
           maximum: int | None = None) -> int:
    """``value`` as an ``int`` if it is a whole number (``2000`` or ``2000.0``).

    Text is read by :func:`number_from_text`. Raises :class:`InputError` naming
    ``name`` and quoting the value otherwise, e.g. ``rating must be a whole number,
    got 2000.5``; a number past :data:`MAX_DIGITS` digits is out of range.
    """
    if type(value) is int and -_INT_BOUND < value < _INT_BOUND:   # already an int: no Fraction
        result = value
    else:
        result = _as_whole(value, name, maximum)
    if minimum is not None and result < minimum:
        raise InputError(f"{name} must be at least {minimum}, got {result}")
    if maximum is not None and result > maximum:
        raise InputError(f"{name} must be at most {maximum}, got {result}")
    return result


#: Ints this far from zero need no digit-budget check (well within MAX_DIGITS * 4 bits).
_INT_BOUND = 1 << 62


def _as_whole(value: object, name: str, maximum: int | None) -> int:
    """``value`` (not a small int) as an ``int`` when it is whole, else InputError."""
    if isinstance(value, str):
        value = number_from_text(value, name, "a whole number")
    try:
        exact = _exact(value)
    except TooManyDigits:
        bound = f"at most {maximum}" if maximum is not None else f"under {MAX_DIGITS} digits"
        raise InputError(f"{name} must be {bound}, got a number of more than "
                         f"{MAX_DIGITS} digits") from None
    if exact is None or exact.denominator != 1:
        raise InputError(f"{name} must be a whole number, got {quote_value(value)}")
    return int(exact)


def as_rating(value: object, name: str = "rating") -> int:
    """A rating as ``int`` (whole number 0..4000). FIDE B.02 §7: ratings are integers."""
    return as_int(value, name, minimum=RATING_MIN, maximum=RATING_MAX)


def as_fide_id(value: object, name: str = "FIDE id") -> int | None:
    """A FIDE id as ``int`` (whole number 0..:data:`FIDE_ID_MAX`, the 11 digits of the
    TRF16 field); ``0`` is no id (``None``). ``2**63`` is refused with ``name``."""
    return as_int(value, name, minimum=0, maximum=FIDE_ID_MAX) or None


def as_k(value: object, name: str = "k") -> int:
    """A K factor as ``int`` (whole number 1..100). FIDE B.02 §8.3.3."""
    return as_int(value, name, minimum=K_MIN, maximum=K_MAX)


_HALVES = {0: 0, 0.5: 1, 1: 2}     # a game's score -> half points (0.0 and 1.0 too)


def plain_game(R_opp: object, score: object) -> tuple[int, int] | None:
    """``(R_opp, score in half points)`` of the usual game: an int rating 0..4000 and a
    score 0, 0.5 or 1 (int or float: a loss, a draw, a win), at once; ``None`` for
    anything else, which the caller checks in full (:func:`as_rating`, :func:`as_half_points`) to name the game
    in its error."""
    if type(R_opp) is int and RATING_MIN <= R_opp <= RATING_MAX:
        kind = type(score)
        if (kind is int or kind is float) and score in _HALVES:
            return R_opp, _HALVES[score]
    return None


def as_half_points(value: object, name: str = "score", *, maximum_points: int = 1) -> int:
    """A score (0, 0.5, 1 for one game; up to ``maximum_points``) as integer half points.

    ``as_half_points(0.5) == 1``. Raises :class:`InputError` for anything that is not
    a multiple of 0.5 in range (``score must be 0, 0.5 or 1, got 0.7``).
    """
    if type(value) is int:                  # 0, 1 ... (and 0.5 below): no Fraction
        if 0 <= value <= maximum_points:
            return 2 * value
    elif type(value) is float:
        if 0 <= value <= maximum_points and (2 * value).is_integer():  # novermin: a float
            return int(2 * value)
    if isinstance(value, str):
        value = number_from_text(value, name)
    try:
        exact = _exact(value)
    except TooManyDigits:
        exact = None
    if exact is None or (2 * exact).denominator != 1 or not 0 <= exact <= maximum_points:
        if maximum_points == 1:
            raise InputError(f"{name} must be 0, 0.5 or 1, got {quote_value(value)}")
        raise InputError(
            f"{name} must be a multiple of 0.5 from 0 to {maximum_points}, got {quote_value(value)}")
    return int(2 * exact)


#: What a spreadsheet shows for a Ro that :func:`sheet_rating` refuses (the cross-table's
#: Ro used column, in both formula modes).
NOT_A_RATING = "not a rating"


def sheet_rating(value: object, name: str = "rating") -> int | None:
    """A rating as a spreadsheet cell holds it, read the one way every engine and locale
    reads it (the cross-table's Ro used column, FIDE_ADJUST_2024, the workbook reader).

    Blank (``None``, ``""``, spaces) -> ``None``; a number -> :func:`as_rating`; text ->
    the whole number it shows when, without the spaces around it (Excel's TRIM), it is
    ASCII digits with no sign and no leading zero (``"1850"``, ``" 1850 "``: a rating
    pasted as text). Anything else (``"1,850"``, ``"1850.0"``, ``"abc"``, a bool, a
    number that is not a whole 0..4000) raises :class:`InputError` naming ``name``.
    """
    if isinstance(value, str):
        text = value.strip(" ")
        if not text:
            return None
        if not (len(text) <= 4 and text.isascii() and text.isdigit()
                and str(int(text)) == text):
            raise InputError(f"{name} must be a whole number from {RATING_MIN} to "
                             f"{RATING_MAX} (a number typed as text: digits only), got "
                             f"{quote_value(value)}")
        return as_rating(int(text), name)
    if value is None:
        return None
    if isinstance(value, bool):
        raise InputError(f"{name} must be a whole number from {RATING_MIN} to {RATING_MAX}, "
                         f"got {quote_value(value)}")
    return as_rating(value, name)
