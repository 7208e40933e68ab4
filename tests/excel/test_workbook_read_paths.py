"""The reader's quicker paths give what the plain ones give (issue 23, speed only): the
check of an unedited workbook against ``TRF_original`` without copies, the Games of a
Swiss round built without a second check, whole numbers and texts read without a call,
a sheet's extent found in C. Each compared with the plain path on awkward inputs."""

from __future__ import annotations

import datetime as _dt
import math

import pytest
from openpyxl import Workbook

from tests.harness.synthetic import synthetic_swiss
from xl_fide.errors import InputError, WorkbookError
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report
from xl_fide.excel._layout import _SCORING_CODES, CROSS, EVENT, SCORING_FIRST_ROW
from xl_fide.excel._read import (
    _extent,
    _round_game,
    _rows,
    _same_cells,
    _str,
    _Unsaved,
    _whole,
)
from xl_fide.excel._roundtrip import _input_cells, _original, _pristine, _unedited
from xl_fide.rules.values import as_int, quote_value
from xl_fide.tournament import RESULT_CODES, Game
from xl_fide.excel._fence import book_state


def _grids(wb):
    geo = book_state(wb)["geo"]
    ev = _rows(wb[EVENT], SCORING_FIRST_ROW + len(_SCORING_CODES), 3)
    rows = _rows(wb[CROSS], geo.last + 1, geo.last_col + 1)
    return geo, ev, rows


def _plain(ev, rows, geo, cells):
    return _same_cells(_pristine(ev, rows, geo, cells), (ev, rows))


@pytest.fixture(scope="module")
def filled():
    wb = fill_workbook(build_report(synthetic_swiss(6, 3)))
    geo, ev, rows = _grids(wb)
    return geo, ev, rows, _original(wb)["cells"]


def _variants(geo, ev, rows, cells):
    """(name, ev, rows, cells): the grids with one awkward change each."""
    cross, event = _input_cells(geo)
    (r, c, ref), (r2, c2, ref2) = cross[1], cross[-1]          # a name, a last result cell
    other = (geo.first, geo.col["no"])                         # not an input cell
    er, ec, eref = event[0]

    def copy():
        return [list(x) for x in ev], [list(x) for x in rows]

    yield "as written", [list(x) for x in ev], [list(x) for x in rows], cells
    for value in (1, 1.0, True, "1", None, "", float("nan"), -0.0, _dt.date(2025, 1, 1)):
        for where in ("input", "last input", "other", "event"):
            e2, r2s = copy()
            if where == "input":
                r2s[r - 1][c - 1] = value
            elif where == "last input":
                r2s[r2 - 1][c2 - 1] = value
            elif where == "other":
                r2s[other[0] - 1][other[1] - 1] = value
            else:
                e2[er - 1][ec - 1] = value
            yield f"{where} = {value!r}", e2, r2s, cells
    for value in (1, 1.0, True, float("nan"), 0.0, "x", None):
        c2s = {s: dict(d) for s, d in cells.items()}
        c2s[CROSS][ref] = value
        rows_nan = [list(x) for x in rows]
        if isinstance(value, float) and math.isnan(value):
            rows_nan[r - 1][c - 1] = float("nan")
        yield f"written {ref} = {value!r}", [list(x) for x in ev], rows_nan, c2s
    c2s = {s: dict(d) for s, d in cells.items()}
    c2s[EVENT][eref] = "changed"
    yield "written event", [list(x) for x in ev], [list(x) for x in rows], c2s
    yield "no event cells written", [list(x) for x in ev], [list(x) for x in rows], {
        CROSS: dict(cells[CROSS])}
    yield "nothing written", [list(x) for x in ev], [list(x) for x in rows], {}
    marker = [list(x) for x in rows]
    marker[other[0] - 1][other[1] - 1] = _Unsaved(CROSS, *other)
    yield "a formula's marker", [list(x) for x in ev], marker, cells


def test_unedited_is_same_cells_of_pristine(filled):
    """``_unedited`` answers as ``_same_cells(_pristine(...))`` does, whatever changed:
    a cell's type (1, 1.0, True, "1"), a NaN (never equal to itself) inside and outside
    the input cells, a written value, a sheet missing from what was written."""
    geo, ev, rows, cells = filled
    answers = {}
    for name, e2, r2, c2 in _variants(geo, ev, rows, cells):
        answers[name] = _unedited(e2, r2, geo, c2)
        assert answers[name] == _plain(e2, r2, geo, c2), name
    assert answers["as written"] is True
    assert answers["other = nan"] is False and answers["input = 1.0"] is False


@pytest.mark.parametrize("rnd", [1, 4])
@pytest.mark.parametrize("opp", [None, 1, 7])
@pytest.mark.parametrize("colour", ["", "w", "b", "-"])
def test_round_game_is_game(rnd, opp, colour):
    """The Games of a Swiss round's cells are those ``Game(...)`` makes, explicit too."""
    for code in (None, *sorted(RESULT_CODES)):
        if opp is None and code is None:
            want = Game(rnd, None, colour or None, "Z", explicit=bool(colour))
        else:
            want = Game(rnd, opp, colour or None, code or "Z")
        got = _round_game(rnd, opp, colour, code)
        assert vars(got) == vars(want) and got == want, (rnd, opp, colour, code)
        assert list(vars(got)) == list(vars(want))        # the same fields, in order


def _whole_plain(value, what, minimum=None, maximum=None):
    """``_whole`` as it was, by the rule alone (``as_int``)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return as_int(value, what, minimum=minimum, maximum=maximum)
    except InputError:
        limits = f" from {minimum} to {maximum}" if minimum is not None and maximum is not None else ""
        raise WorkbookError(f"{CROSS}!B5: {what} must be a whole number{limits}, "
                            f"got {quote_value(value)}") from None


@pytest.mark.parametrize("value", [0, 1, -1, 4000, 4001, 1 << 62, -(1 << 62), 1 << 80,
                                   True, False, 5.0, 5.5, "7", " ", None, "x"])
@pytest.mark.parametrize("bounds", [(None, None), (0, None), (None, 4000), (1, 100),
                                    (0, 4000)])
def test_whole_plain_int_as_before(value, bounds):
    def outcome(f):
        try:
            return ("ok", f())
        except (WorkbookError, InputError) as exc:
            return ("error", str(exc))
    got = outcome(lambda: _whole(value, CROSS, 5, 2, "rating", *bounds))
    want = outcome(lambda: _whole_plain(value, "rating", *bounds))
    assert got == want
    if got[0] == "ok":
        assert type(got[1]) is type(want[1])


@pytest.mark.parametrize("value", ["", " a ", "a", "\u00a0b\u00a0", 3, 3.0, 3.5, None, True])
def test_str_as_before(value):
    want = "" if value is None else str(int(value) if isinstance(value, float)
                                         and value.is_integer() else value).strip()
    assert _str(value) == want


def test_extent_is_openpyxl_max_row_and_column():
    ws = Workbook().active
    assert _extent(ws) == (ws.max_row, ws.max_column) == (1, 1)
    for r, c in ((3, 2), (1, 9), (7, 1)):
        ws.cell(r, c).value = "x"
        assert _extent(ws) == (ws.max_row, ws.max_column)
    ws.cell(20, 20)                       # a cell made without a value counts too
    assert _extent(ws) == (ws.max_row, ws.max_column) == (20, 20)
