"""A throwaway UDF module for tests/functions/test_lo_harness.py (not part of xl_fide)."""
from decimal import Decimal

from xlwings import arg, func, ret  # noqa: F401  (no-ops on Linux, stubbed in soffice)

__ndim__ = {"FIDE_SHAPE2": {"x": 2}}


@func
def FIDE_TWICE(x):
    return 2 * x


@func
def FIDE_SUMROW(values):
    """Sum of a range; blanks (None) are skipped."""
    if not isinstance(values, list):
        values = [values]
    flat = [v for r in values for v in (r if isinstance(r, list) else [r])]
    return sum(v for v in flat if v is not None)


@func
def FIDE_TABLE(n):
    """2 x 3 array: [[n, n+1, n+2], [10n, None, "x"]]."""
    return [[n, n + 1, n + 2], [10 * n, None, "x"]]


@func
def FIDE_RAISE(x):
    raise ValueError(f"x: bad value {x!r}")


@func
def FIDE_NA(x):
    return "#N/A"


@func
def FIDE_SHAPE(x):
    """Describe what arrived: type and dimensions (default xlwings conversion)."""
    return _shape(x)


@arg("x", ndim=2)
@func
def FIDE_SHAPE2(x):
    """Same with ndim=2 declared through __ndim__."""
    return _shape(x)


def FIDE_SHAPE1(x):
    return _shape(x)


FIDE_SHAPE1._ndim = {"x": 1}


def _shape(x):
    if isinstance(x, list):
        if x and isinstance(x[0], list):
            return f"2d {len(x)}x{len(x[0])} " + repr(x)
        return f"1d {len(x)} " + repr(x)
    return f"scalar {type(x).__name__} {x!r}"


@func
def FIDE_OPT(a, b=7.0, c=None):
    """Optional arguments: omitted trailing ones take the Python default."""
    return f"{a!r}|{b!r}|{c!r}"


@func
def FIDE_RET(kind):
    """Return values of several Python types."""
    return {
        "none": None,
        "true": True,
        "int": 3,
        "decimal": Decimal("1.25"),
        "flat": [1, 2, 3],
        "ragged": [[1, 2, 3], [4]],
    }[kind]


@func
def FIDE_NOARGS():
    return 42.0
