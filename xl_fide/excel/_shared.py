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
