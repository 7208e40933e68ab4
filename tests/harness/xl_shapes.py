"""What classic xlwings hands a UDF for a block of cells (its ``ndim`` left unset):
one cell a scalar, one row or one column a flat list, else a list of rows."""
from __future__ import annotations


def as_xlwings_passes(rows: list[list[object]]) -> object:
    """``rows`` (a rectangle, a list of rows) as xlwings passes it to a UDF."""
    if len(rows) == 1 and len(rows[0]) == 1:
        return rows[0][0]
    if len(rows) == 1:
        return rows[0]
    if all(len(r) == 1 for r in rows):
        return [r[0] for r in rows]
    return rows
