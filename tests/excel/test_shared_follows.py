"""A cell follows the run above it exactly when its formula, read as a template
(:func:`xl_fide.excel._shared.template`) at its own row, has the run's texts and
offsets: the run joins its texts with the cell's row numbers instead, which must give
the same answer, for rows offset alike or not, with ``%`` in the text and with no
relative row at all."""

from __future__ import annotations

import pytest

from xl_fide.excel._shared import Sharing, _Run, template

FIRST = [
    (b"SUM(A5:C5)+$B$2", 5),
    (b"Crosstable!$F7+Calc!B3", 7),
    (b"'Calc M1'!$B5*1E5*100%", 5),
    (b'IF(A5="B5 and C6","%d",A4+A6)', 5),
    (b"$A$1*2", 5),
]


def _numbers(chunks: list[bytes], rows: list[int]) -> bytes:
    return b"".join(c + (b"%d" % r if i < len(rows) else b"")
                    for i, (c, r) in enumerate(zip(chunks, [*rows, 0])))


def _texts(text: bytes, row: int) -> list[bytes]:
    """The formula one row below, and near misses."""
    got = template(text, row)
    assert got is not None
    chunks, offsets = got
    below = _numbers(chunks, [row + 1 + o for o in offsets])
    return [below, below + b" ", below.replace(b"1", b"2", 1), text,
            _numbers(chunks, [row + 2 + o for o in offsets])]


@pytest.mark.parametrize("text,row", FIRST)
def test_follows_is_the_template_filled_in(text, row):
    got = template(text, row)
    assert got is not None
    run = _Run(b"B", row, 0, text, *got)
    for candidate in _texts(text, row):
        # the cell below follows when it reads, at its own row, as the same template
        expected = template(candidate, row + 1) == got
        assert run.follows(row + 1, candidate) is expected


def test_a_run_with_rows_offset_differently_is_shared():
    pieces: list[bytes] = []
    s = Sharing(pieces)
    for row in (7, 8, 9):
        text = b"Crosstable!$F%d+Calc!B%d" % (row, row - 4)
        s.add(b"C", row, b"<f>" + text + b"</f>", text)
    s.close()
    assert pieces == [b'<f t="shared" ref="C7:C9" si="0">Crosstable!$F7+Calc!B3</f>',
                      b'<f t="shared" si="0"/>', b'<f t="shared" si="0"/>']
