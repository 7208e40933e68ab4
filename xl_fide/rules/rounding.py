"""All rounding of xl-fide, in exact integer arithmetic.

FIDE B.02 §8.3.4 rounds a rating change to a whole number with .5 away from zero
(-2.5 -> -3); averages and percentages are rounded half up (B.01 §1.4, §8.1.1 note).
Python's ``round()`` rounds half to even and binary floats cannot hold 0.05 exactly,
so no float ever decides a rounding here: every function takes an exact fraction as
``numerator / denominator`` of integers.
"""

from __future__ import annotations

from fractions import Fraction


def round_half_away(numerator: int, denominator: int = 1) -> int:
    """Return ``numerator / denominator`` rounded to an integer, .5 away from zero.

    FIDE B.02 §8.3.4 (the rating change of the period). Both arguments are ``int``;
    ``denominator`` must be positive. ``round_half_away(-250, 100) == -3``.
    Raises ``ZeroDivisionError`` for a zero denominator.
    """
    if denominator <= 0:
        if denominator == 0:
            raise ZeroDivisionError("denominator is zero")
        numerator, denominator = -numerator, -denominator
    q, r = divmod(abs(numerator), denominator)
    if 2 * r >= denominator:
        q += 1
    return q if numerator >= 0 else -q


def round_hundredths_half_away(values: list[int]) -> list[int]:
    """Each value in integer hundredths to a whole number, .5 away from zero (§8.3.4).

    The list form of ``round_half_away(c, 100)`` for many players at once (one call,
    not one per player): ``round_hundredths_half_away([250, -250, 249]) == [3, -3, 2]``.
    """
    return [(c + 50) // 100 if c >= 0 else -((50 - c) // 100) for c in values]


def round_half_up(numerator: int, denominator: int = 1) -> int:
    """Return ``numerator / denominator`` rounded to an integer, .5 towards +infinity.

    Used for averages of ratings and for p before the table 8.1.1 look-up
    (FIDE B.02 §8.1.1: "1.5/4 = .375 -> .38"; B.01 §1.4: Ra rounded, .5 up).
    ``round_half_up(375, 10) == 38``; ``round_half_up(-5, 2) == -2``.
    """
    if denominator <= 0:
        if denominator == 0:
            raise ZeroDivisionError("denominator is zero")
        numerator, denominator = -numerator, -denominator
    return (2 * numerator + denominator) // (2 * denominator)


def fraction_half_up(value: Fraction) -> int:
    """Round an exact :class:`~fractions.Fraction` half up (see :func:`round_half_up`)."""
    return round_half_up(value.numerator, value.denominator)


def hundredths_to_str(value: int) -> str:
    """Format integer hundredths with two decimals and a sign for negatives: -250 -> '-2.50'."""
    if value >= 0:
        return f"{value // 100}.{_CENTS[value % 100]}"
    value = -value
    return f"-{value // 100}.{_CENTS[value % 100]}"


_CENTS = tuple(f"{c:02d}" for c in range(100))     # the two decimals of 0 .. 99 hundredths


def signed(value: int) -> str:
    """A rating change as a whole number, its sign shown: ``5 -> '+5'``, ``-5 -> '-5'``,
    and ``0 -> '0'`` (no change has no sign; the report's ``Chg``)."""
    return f"{value:+d}" if value else "0"


def signed_hundredths(value: int) -> str:
    """A change in integer hundredths as :func:`hundredths_to_str` writes it, a positive
    one with ``+``: ``220 -> '+2.20'``, ``0 -> '0.00'``, ``-560 -> '-5.60'``."""
    return "+" + hundredths_to_str(value) if value > 0 else hundredths_to_str(value)
