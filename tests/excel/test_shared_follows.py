"""A cell follows the run above it exactly when its formula, read as a template
(:func:`xl_fide.excel._shared.template`) at its own row, has the run's texts and
offsets: the run joins its texts with the cell's row numbers instead, which must give
the same answer, for rows offset alike or not, with ``%`` in the text and with no
relative row at all."""

from __future__ import annotations

import pytest

from xl_fide.excel._shared import Plan, _Run, template

FIRST = [
    ("SUM(A5:C5)+$B$2", 5),
    ("Crosstable!$F7+Calc!B3", 7),
    ("'Calc M1'!$B5*1E5*100%", 5),
    ('IF(A5="B5 and C6","%d",A4+A6)', 5),
    ("$A$1*2", 5),
]


def _numbers(chunks: list[str], rows: list[int]) -> str:
    return "".join(c + (str(r) if i < len(rows) else "")
                    for i, (c, r) in enumerate(zip(chunks, [*rows, 0])))


def _texts(text: str, row: int) -> list[str]:
    """The formula one row below, and near misses."""
    got = template(text, row)
    assert got is not None
    chunks, offsets = got
    below = _numbers(chunks, [row + 1 + o for o in offsets])
    return [below, below + " ", below.replace("1", "2", 1), text,
            _numbers(chunks, [row + 2 + o for o in offsets])]


@pytest.mark.parametrize("text,row", FIRST)
def test_follows_is_the_template_filled_in(text, row):
    got = template(text, row)
    assert got is not None
    run = _Run(2, row, text, *got)
    for candidate in _texts(text, row):
        # the cell below follows when it reads, at its own row, as the same template
        expected = template(candidate, row + 1) == got
        assert run.follows(row + 1, candidate) is expected


def test_a_run_with_rows_offset_differently_is_shared():
    plan = Plan((row, 3, f"Crosstable!$F{row}+Calc!B{row - 4}") for row in (7, 8, 9))
    assert [plan.formula(row, 3, None) for row in (7, 8, 9)] == [
        ({"t": "shared", "ref": "C7:C9", "si": "0"}, "Crosstable!$F7+Calc!B3"),
        ({"t": "shared", "si": "0"}, None), ({"t": "shared", "si": "0"}, None)]
