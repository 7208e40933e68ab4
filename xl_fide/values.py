"""Validation of the plain values the engine takes: ratings, scores, K, game counts.

Ratings are integers (FIDE publishes whole numbers), scores are 0, 0.5 or 1 per game
and are carried as integer half points, K is a positive integer (FIDE B.02 §8.3.3).
Floats are accepted only when they are exactly such a value (Excel sends 2000.0);
2000.5 is an error, never rounded.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from numbers import Number

from .errors import InputError

RATING_MIN = 0
RATING_MAX = 4000


def _exact(value: object) -> Fraction | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return Fraction(value)
    if isinstance(value, (Decimal, Fraction)):
        try:
            return Fraction(value)
        except (ValueError, OverflowError):
            return None
    if isinstance(value, Number):
        try:
            return Fraction(str(value))
        except (ValueError, TypeError):
            return None
    return None


def _fmt(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    return repr(value) if isinstance(value, str) else str(value)


def as_int(value: object, name: str, *, minimum: int | None = None,
           maximum: int | None = None) -> int:
    """``value`` as an ``int`` if it is a whole number (``2000`` or ``2000.0``).

    Raises :class:`InputError` naming ``name`` and quoting the value otherwise,
    e.g. ``rating must be a whole number, got 2000.5``.
    """
    exact = _exact(value)
    if exact is None or exact.denominator != 1:
        raise InputError(f"{name} must be a whole number, got {_fmt(value)}")
    result = int(exact)
    if minimum is not None and result < minimum:
        raise InputError(f"{name} must be at least {minimum}, got {result}")
    if maximum is not None and result > maximum:
        raise InputError(f"{name} must be at most {maximum}, got {result}")
    return result


def as_rating(value: object, name: str = "rating") -> int:
    """A rating as ``int`` (whole number 0..4000). FIDE B.02 §7: ratings are integers."""
    return as_int(value, name, minimum=RATING_MIN, maximum=RATING_MAX)


def as_k(value: object, name: str = "k") -> int:
    """A K factor as ``int`` (whole number 1..100). FIDE B.02 §8.3.3."""
    return as_int(value, name, minimum=1, maximum=100)


def as_half_points(value: object, name: str = "score", *, maximum_points: int = 1) -> int:
    """A score (0, 0.5, 1 for one game; up to ``maximum_points``) as integer half points.

    ``as_half_points(0.5) == 1``. Raises :class:`InputError` for anything that is not
    a multiple of 0.5 in range (``score must be 0, 0.5 or 1, got 0.7``).
    """
    exact = _exact(value)
    if exact is None or (2 * exact).denominator != 1 or not 0 <= exact <= maximum_points:
        if maximum_points == 1:
            raise InputError(f"{name} must be 0, 0.5 or 1, got {_fmt(value)}")
        raise InputError(
            f"{name} must be a multiple of 0.5 from 0 to {maximum_points}, got {_fmt(value)}")
    return int(2 * exact)
