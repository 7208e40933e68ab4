"""The FIDE_* functions against hostile input (issue 22): a game entered on one side only,
a rating difference no two ratings have, a whole column, junk in every cell. Every
answer is a value or a short message (an InputError), never an internal exception.
Expected values by hand from table 8.1.2 (FIDE B.02) in the comments."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_fide import udfs
from xl_fide.errors import InputError
from xl_fide.udfs import (
    CELLS_MAX, FIDE_CHANGE, FIDE_EVENT, FIDE_EVENT_SWISS, FIDE_K, FIDE_PD, FIDE_SCORE, ROWS_MAX,
)

WHOLE_COLUMN = 1_048_576


# ------------------------------------------------------- #7: one side of a game only

def test_a_swiss_pairing_on_one_side_only_is_refused():
    # Before: row 1 had opponent 2 and a win, row 2 nothing: player 1 was rated N 1, +10
    # (D 0, PD .50, K 20 x .50), player 2 not at all. The workbook refuses it; so do these.
    with pytest.raises(InputError, match=r"^opponents row 1 round 1 is 2 but row 2 round 1 "
                                         r"is blank: enter the pairing on both rows"):
        FIDE_EVENT_SWISS([2000.0, 2000.0], [20.0, 20.0], [[2.0], [None]], [["1"], [None]])


def test_a_result_on_one_side_only_is_refused():
    with pytest.raises(InputError, match=r"^results row 1 round 1 is '1' but row 2 round 1 "
                                         r"is blank: enter both results of a game"):
        FIDE_EVENT_SWISS([2000.0, 2000.0], [20.0, 20.0], [[2.0], [1.0]], [["1"], [None]])
    with pytest.raises(InputError, match=r"^row 2 column 1 is '0' but results row 1 column 2 "
                                         r"is blank"):
        FIDE_EVENT([2000.0, 2000.0], [20.0, 20.0], [[None, None], ["0", None]])
    # both blank: a game not played yet, nothing rated
    out = FIDE_EVENT_SWISS([2000.0, 2000.0], [20.0, 20.0], [[2.0], [1.0]], [[None], [None]])
    assert [row[0] for row in out] == [0, 0]


@pytest.mark.parametrize("a, b, problem", [
    ("H", "H", r"a bye \(H\) on one side of a game"),     # a bye is not a game: refused
    ("1", "+", "both won"),
    ("W", "W", "both won"),
])
def test_the_two_sides_follow_the_one_pair_rule(a, b, problem):
    # xl_fide.rules.results.pair_problem, as the TRF and workbook readers; before, H on
    # both sides of a pairing (not played) and 1 against + (sum 2, "+" not played) passed
    with pytest.raises(InputError, match=problem):
        FIDE_EVENT_SWISS([2000.0, 2000.0], [20.0, 20.0], [[2.0], [1.0]], [[a], [b]])
    with pytest.raises(InputError, match=problem):
        FIDE_EVENT([2000.0, 2000.0], [20.0, 20.0], [[None, a], [b, None]])


def test_a_both_sides_swiss_game_is_rated_on_both_sides():
    # D 0, PD .50: the winner +.50 x 20 = +10.00, the loser -10.00
    out = FIDE_EVENT_SWISS([2000.0, 2000.0], [20.0, 20.0], [[2.0], [1.0]], [["1"], ["0"]])
    assert [(row[0], row[6], row[7]) for row in out] == [(1, 10, 2010), (1, -10, 1990)]


@pytest.mark.parametrize("D", [5000, -5000, 4001, 1e30, float("inf")])
def test_pd_of_a_difference_no_two_ratings_have_is_an_error(D):
    # ratings are 0..4000 (B.02 §7), so D is within -4000..4000; FIDE_PD(5000) said 1.0
    with pytest.raises(InputError, match="^D must be"):
        FIDE_PD(D)


def test_pd_at_the_ends_of_the_range():
    # table 8.1.2: D > 735 -> 1.00 for the higher, .00 for the lower
    assert (FIDE_PD(4000), FIDE_PD(-4000), FIDE_PD(736), FIDE_PD(130)) == (1.0, 0.0, 1.0, 0.68)


# -------------------------------------------------------------- #15: the cell budget

def test_a_whole_column_is_refused_before_any_cell_is_read(monkeypatch):
    # Before: a whole-column FIDE_EVENT_SWISS walked 1,048,576 rows (20-26 s in Excel,
    # 76 s here). The budget is checked from the shape: _clean (the first per-cell step)
    # is never reached.
    def no_cell_read(*_args, **_kw):
        raise AssertionError("a cell was read before the budget was checked")

    monkeypatch.setattr(udfs, "_clean", no_cell_read)
    column = [None] * WHOLE_COLUMN
    with pytest.raises(InputError, match=r"^ratings is a range of 1,048,576 cells; these "
                                         r"functions read at most 2,000 rows"):
        FIDE_EVENT_SWISS(column, column, [[None]] * WHOLE_COLUMN, [[None]] * WHOLE_COLUMN)
    with pytest.raises(InputError, match="^rating is a range of 1,048,576 cells"):
        FIDE_K(column)
    with pytest.raises(InputError, match="^scores is a range of 16,384 cells"):
        FIDE_CHANGE(2000, [None] * 10, [None] * 16_384, 20)   # a whole row
    block = [[None] * 150] * 1500                             # 225,000 cells
    with pytest.raises(InputError, match=r"^results is a range of 1,500 by 150 cells"):
        FIDE_EVENT([None] * 1500, [None] * 1500, block)


def test_the_largest_workbook_fits_the_budget():
    # the largest template: 2000 players, 99 rounds (xl_fide.excel._layout)
    assert 2000 <= ROWS_MAX and 2000 * 99 <= CELLS_MAX
    udfs._check_budget([[None] * 99] * 2000, "opponents")


# ------------------------------------------------- every answer a value or a message

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=120),
    st.sampled_from(["#N/A", "#REF!", "½", "1-0", "+", "H", "1e30", "9" * 45, "²", "\x00"]),
)


def small_event(draw_cell, n):
    return [draw_cell for _ in range(n)]


@settings(max_examples=40, derandomize=True)
@given(ratings=st.lists(JUNK, min_size=2, max_size=2), ks=st.lists(JUNK, min_size=2, max_size=2),
       opps=st.lists(JUNK, min_size=4, max_size=4), res=st.lists(JUNK, min_size=4, max_size=4),
       single=JUNK)
def test_junk_gives_a_value_or_a_short_message(ratings, ks, opps, res, single):
    calls = [
        lambda: FIDE_EVENT_SWISS(ratings, ks, [opps[:2], opps[2:]], [res[:2], res[2:]]),
        lambda: FIDE_EVENT(ratings, ks, [res[:2], res[2:]]),
        lambda: FIDE_CHANGE(single, opps, res, ks[0]),
        lambda: FIDE_CHANGE(2000, [2000], ["1"], 20, ratings[0], ratings[1]),
        lambda: FIDE_K(2000, None, None, None, None, None, ks[0], ks[1]),
        lambda: FIDE_K(ratings, single),
        lambda: FIDE_PD(single),
        lambda: FIDE_SCORE(single),
    ]
    for call in calls:
        try:
            out = call()
        except InputError as exc:
            assert 0 < len(str(exc)) <= udfs.MESSAGE_MAX and "\n" not in str(exc)
            continue
        for cell in (out if isinstance(out, list) else [out]):
            for value in (cell if isinstance(cell, list) else [cell]):
                assert not isinstance(value, float) or math.isfinite(value)
