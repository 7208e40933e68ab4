"""Shared formulas: a run of one column's cells whose formulas are the same relative
formula (each relative row reference one more than in the cell above) is written once
(ECMA-376 Part 1 §18.3.1.40): the run's first cell holds the text as
``<f t="shared" ref="P5:P2004" si="0">``, the others ``<f t="shared" si="0"/>``; every
cell keeps its own cached value. A spreadsheet then parses one formula per run, not one
per cell (LibreOffice compiles each separate formula string on load); Excel writes its
own files so, and openpyxl reads each follower back as its full formula.

The formulas are compared as text (XML-escaped, as openpyxl wrote them): outside string
literals and quoted sheet names every ``A1`` reference is found, and a cell follows the
one above when the two texts are equal but for their relative row numbers, each one
more than above. A formula holding a row range (``5:5``), which that reading does not
see, is never shared."""

from __future__ import annotations

import re

_LIT = rb"\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'"       # a string literal, a quoted sheet name
_BEFORE = rb"(?<![A-Za-z0-9_.$])"                        # not inside a longer name
_AFTER = rb"(?![A-Za-z0-9_(!])"                          # (LOG10(, Sheet1!, 1E5)
#: a literal, a row range (``5:5``, ``$5:$7``: group 1), or an A1 reference (the ``$``
#: of its row: group 2, its row: group 3)
_TOKEN = re.compile(_LIT + rb"|(" + _BEFORE + rb"\$?[0-9]+:\$?[0-9]+" + _AFTER + rb")|"
                    + _BEFORE + rb"\$?[A-Z]{1,3}(\$?)([0-9]+)" + _AFTER)


def template(text: bytes, row: int) -> tuple[list[bytes], tuple[int, ...]] | None:
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
    __slots__ = ("col", "first", "last", "index", "text", "chunks", "offsets", "same", "si")

    def __init__(self, col: bytes, row: int, index: int, text: bytes, chunks: list[bytes],
                 offsets: tuple[int, ...]) -> None:
        self.col, self.first, self.last, self.index = col, row, row, index
        self.text, self.chunks, self.offsets = text, chunks, offsets
        self.same = len(set(offsets)) == 1          # every relative row is offset alike
        self.si: int | None = None

    def follows(self, row: int, text: bytes) -> bool:
        """Whether ``text`` in ``row`` (the row below the run) is the run's formula."""
        if self.same:
            return (b"%d" % (row + self.offsets[0])).join(self.chunks) == text
        rows = map(row.__add__, self.offsets)
        out = [self.chunks[0]]
        for number, chunk in zip(rows, self.chunks[1:]):
            out += (b"%d" % number, chunk)
        return b"".join(out) == text


class Sharing:
    """A worksheet's XML built as a list of pieces (``pieces``): :meth:`add` appends the
    ``<f>`` element of each formula cell, as it is or as a follower of the cell above;
    :meth:`close` makes the first cell of each run of two or more the shared formula."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces
        self._open: dict[bytes, _Run] = {}      # column -> its run that the next row extends
        self._runs: list[_Run] = []
        self._count = 0

    def add(self, col: bytes, row: int, element: bytes, text: bytes | None) -> None:
        """The cell at ``col``/``row`` whose ``<f>`` element is ``element``: a plain
        formula of text ``text`` (XML-escaped), or ``None`` (another kind, kept as it is)."""
        run = self._open.get(col)
        if text is not None and run is not None and run.last == row - 1 \
                and run.follows(row, text):
            if run.si is None:
                run.si = self._count
                self._count += 1
            run.last = row
            self.pieces.append(b'<f t="shared" si="%d"/>' % run.si)
            return
        got = template(text, row) if text is not None else None
        if got is None or text is None:
            self._open.pop(col, None)
        else:
            run = _Run(col, row, len(self.pieces), text, *got)
            self._open[col] = run
            self._runs.append(run)
        self.pieces.append(element)

    def close(self) -> None:
        """Write the first cell of each run of two or more as the shared formula."""
        for run in self._runs:
            if run.si is not None:
                self.pieces[run.index] = (b'<f t="shared" ref="%s%d:%s%d" si="%d">%s</f>' % (
                    run.col, run.first, run.col, run.last, run.si, run.text))
