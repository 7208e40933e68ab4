"""Shared formulas: a run of one column's cells whose formulas are the same relative
formula (each relative row reference one more than in the cell above) is written once
(ECMA-376 Part 1 §18.3.1.40): the run's first cell holds the text as
``<f t="shared" ref="P5:P2004" si="0">``, the others ``<f t="shared" si="0"/>``; every
cell keeps its own cached value. A spreadsheet then parses one formula per run, not one
per cell (LibreOffice compiles each separate formula string on load); Excel writes its
own files so, and openpyxl reads each follower back as its full formula.

The formulas are compared as the cells hold them (without their ``=``): outside string
literals and quoted sheet names every ``A1`` reference is found, and a cell follows the
one above when the two texts are equal but for their relative row numbers, each one
more than above. A formula holding a row range (``5:5``), which that reading does not
see, is never shared."""

from __future__ import annotations

import re
from typing import Iterable

from openpyxl.utils import get_column_letter

_LIT = r"\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'"       # a string literal, a quoted sheet name
_BEFORE = r"(?<![A-Za-z0-9_.$])"                        # not inside a longer name
_AFTER = r"(?![A-Za-z0-9_(!])"                          # (LOG10(, Sheet1!, 1E5)
#: a literal, a row range (``5:5``, ``$5:$7``: group 1), or an A1 reference (the ``$``
#: of its row: group 2, its row: group 3)
_TOKEN = re.compile(_LIT + r"|(" + _BEFORE + r"\$?[0-9]+:\$?[0-9]+" + _AFTER + r")|"
                    + _BEFORE + r"\$?[A-Z]{1,3}(\$?)([0-9]+)" + _AFTER)


def template(text: str, row: int) -> tuple[list[str], tuple[int, ...]] | None:
    """The formula ``text`` of a cell in row ``row`` as the texts around its relative row
    numbers (one more than those) and those rows' offsets from ``row``: the formula of
    the cell ``k`` rows below that follows it is the texts joined by the numbers
    ``row + k + offset``. ``None`` when it is not to be shared (a row range)."""
    chunks, offsets, pos = [], [], 0
    for m in _TOKEN.finditer(text):
        if m.group(1):
            return None
        if m.group(3) is None or m.group(2):
            continue
        chunks.append(text[pos:m.start(3)])
        offsets.append(int(m.group(3)) - row)
        pos = m.end(3)
    chunks.append(text[pos:])
    return chunks, tuple(offsets)


class _Run:
    __slots__ = ("col", "first", "last", "text", "chunks", "offsets", "same")

    def __init__(self, col: int, row: int, text: str, chunks: list[str],
                 offsets: tuple[int, ...]) -> None:
        self.col, self.first, self.last = col, row, row
        self.text, self.chunks, self.offsets = text, chunks, offsets
        self.same = len(set(offsets)) == 1          # every relative row is offset alike

    def follows(self, row: int, text: str) -> bool:
        """Whether ``text`` in ``row`` (the row below the run) is the run's formula."""
        if self.same:
            return str(row + self.offsets[0]).join(self.chunks) == text
        rows = map(row.__add__, self.offsets)
        out = [self.chunks[0]]
        for number, chunk in zip(rows, self.chunks[1:]):
            out += (str(number), chunk)
        return "".join(out) == text


class Plan:
    """Which formula cells of a worksheet are written shared: built from the sheet's plain
    formula cells ``(row, col, text)`` (``text`` without its ``=``) given row by row, left
    to right; :meth:`formula` then tells the writer each cell's ``<f>``."""

    def __init__(self, formulas: Iterable[tuple[int, int, str]]) -> None:
        open_runs: dict[int, _Run] = {}      # column -> its run that the next row extends
        runs: list[_Run] = []
        for row, col, text in formulas:
            run = open_runs.get(col)
            if run is not None and run.last == row - 1 and run.follows(row, text):
                run.last = row
                continue
            got = template(text, row)
            if got is None:
                open_runs.pop(col, None)
            else:
                run = open_runs[col] = _Run(col, row, text, *got)
                runs.append(run)
        #: (row, col) of a run's first cell -> the attributes and text of its <f>
        self._heads: dict[tuple[int, int], tuple[dict[str, str], str | None]] = {}
        #: column -> its shared runs (first row, last row, si), top to bottom
        self._runs: dict[int, list[tuple[int, int, str]]] = {}
        self._at: dict[int, int] = {}        # column -> the index of the run looked at
        si = 0
        for run in runs:
            if run.last == run.first:
                continue
            letter = get_column_letter(run.col)
            ref = f"{letter}{run.first}:{letter}{run.last}"
            self._heads[(run.first, run.col)] = (
                {"t": "shared", "ref": ref, "si": str(si)}, run.text)
            self._runs.setdefault(run.col, []).append((run.first, run.last, str(si)))
            si += 1

    def formula(self, row: int, col: int, value: object
                ) -> tuple[dict[str, str], str | None] | None:
        """The attributes and text (``None``: none) of the ``<f>`` of the cell at ``row``,
        ``col`` holding ``value``: the first cell of a shared run holds the run's text,
        the others refer to it; ``None`` for a cell not in a run (written as it is).
        Asked row by row, top to bottom."""
        head = self._heads.get((row, col))
        if head is not None:
            return head
        runs = self._runs.get(col)
        if runs is None:
            return None
        i = self._at.get(col, 0)
        while i < len(runs) and runs[i][1] < row:
            i += 1
        self._at[col] = i
        if i < len(runs) and runs[i][0] < row <= runs[i][1]:
            return {"t": "shared", "si": runs[i][2]}, None
        return None


#: No cached value worked out yet for a cell of a :class:`RowPlan`.
NO_VALUE = object()


class RowPlan:
    """Columns of a sheet's players' rows ``first``..``last`` held as a plan rather than
    as cells (issue 32: at 2,000 x 15 the native helper sheet is 118,000 cells, 60 MB as
    openpyxl objects and formula texts; the Swiss per-round checks 30,000 texts, 13 MB):
    per column, the formula of every row (its texts around the row's number, as
    :func:`xl_fide.excel._native.row_template` gives them) or a constant ``int``, and
    each row's cached value. The cells are made one row at a time as the sheet is
    written (:func:`xl_fide.excel._fence.save`), each as ``cell.value = value`` would
    have made it then; meanwhile the sheet holds no cell there, or an empty one whose
    style the cell made takes."""

    __slots__ = ("first", "last", "columns", "values", "by_col")

    def __init__(self, first: int, last: int,
                 columns: Iterable[tuple[int, object, str]]) -> None:
        #: (column, the texts around the row's number or an int, openpyxl's data type
        #: ``"f"`` or ``"n"``), left to right
        self.columns = sorted(columns, key=lambda c: c[0])
        self.first, self.last = first, last
        self.by_col = {c: (value, kind) for c, value, kind in self.columns}
        #: column -> the cached value of each row (:data:`NO_VALUE`: none yet)
        self.values: dict[int, list[object]] = {}

    def holds(self, row: int, col: int) -> bool:
        """Whether the cell at ``row``, ``col`` is one of the plan's."""
        return self.first <= row <= self.last and col in self.by_col

    def row(self, row: int) -> list[tuple[int, object, str]]:
        """(column, value, data type) of the plan's cells of ``row``, left to right."""
        number = str(row)
        return [(c, number.join(v) if type(v) is tuple else v, kind)
                for c, v, kind in self.columns]

    def clear(self) -> None:
        """Forget every cached value."""
        self.values = {}

    def cached(self, row: int, col: int) -> object:
        """The cached value of the cell at ``row``, ``col`` (:data:`NO_VALUE`: none)."""
        got = self.values.get(col)
        return NO_VALUE if got is None else got[row - self.first]

    def cache(self, row: int, col: int, value: object, *, keep: bool = True) -> object:
        """Cache ``value`` for the cell at ``row``, ``col`` (``keep``: unless it has one);
        the value it then has."""
        got = self.values.get(col)
        if got is None:
            got = self.values[col] = [NO_VALUE] * (self.last - self.first + 1)
        i = row - self.first
        if not (keep and got[i] is not NO_VALUE):
            got[i] = value
        return got[i]
