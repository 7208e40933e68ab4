"""How much work filling and saving a cross-table does per game (issue 23): counted in
operations, never timed (speed lives in benchmarks/user_paths_excel.py)."""

from __future__ import annotations

import pytest

from tests.harness.synthetic import synthetic_swiss
from xl_fide.excel import _cached
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report
from xl_fide.excel._layout import TABLES
from xl_fide.excel._fence import book_state


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_cached_values_read_each_table_once_not_once_per_game(formulas, monkeypatch):
    """The cached values of every formula cell are worked out from a few cell reads per
    game: the tables every game looks up (result codes, game pairs, table 8.1.2) are read
    once. Before: each look-up read its whole table again, 780 reads per game (udf) and
    1,347 (native), 80 s of a 2,000 x 15 cross-table."""
    wb = fill_workbook(build_report(synthetic_swiss(60, 9)), formulas=formulas)
    reads = _count_calls(monkeypatch, _cached._Sheets, "get")
    lookups = _count_calls(monkeypatch, _cached, "_vlookup")
    values = _cached.complete_values(wb, book_state(wb)["geo"], book_state(wb)["cached"])
    assert values                                   # it did work out the cells
    assert reads[0] <= 40 * 60 * 9, f"{reads[0] / (60 * 9):.0f} cell reads per game"
    # each result code looked up once per column it is asked for, not once per cell
    assert lookups[0] <= 100, f"{lookups[0]} table scans"


def _count_calls(monkeypatch, owner, name):
    """``owner.name`` replaced by a wrapper that counts its calls: the count, a list of
    one int."""
    calls = [0]
    real = getattr(owner, name)

    def counted(*args):
        calls[0] += 1
        return real(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_table_read_again_after_its_sheet_changes():
    """The tables are read once, until a value is put on their sheet: a value put after
    a first read is what the next read sees (the points per code are put on the Tables
    sheet before any game looks them up; this pins that the order cannot go stale)."""
    wb = fill_workbook(build_report(synthetic_swiss(4, 1)))
    s = _cached._Sheets(wb, {})
    (sheet, ref), = wb.defined_names["ResultCodes"].destinations
    assert sheet == TABLES and ref == "$I$5:$M$54"
    assert s.name("ResultCodes")[0][4] != "changed"
    s.put(TABLES, 5, 13, "changed")                 # M5: the first code's points
    assert s.name("ResultCodes")[0][4] == "changed"


class _CountingList(list):
    """A list that counts the membership tests made on it."""

    tests = 0

    def __contains__(self, item):
        type(self).tests += 1
        return super().__contains__(item)


@pytest.mark.parametrize("layout", ["swiss", "roundrobin"])
def test_reading_the_rounds_tests_no_list_membership_per_cell(layout, monkeypatch):
    """Reading the rounds back looks each opponent up in a set: membership tests on the
    list of players (a scan each, players x players x rounds in all) are not made per
    cell. Before: one per opponent cell (``opp not in active``)."""
    from xl_fide.excel import _read
    seen = []
    for name in ("_read_rounds", "_read_grid"):
        real = getattr(_read, name)

        def wrapped(rows, geo, active, *rest, _real=real):
            counted = _CountingList(active)
            seen.append(len(active))
            return _real(rows, geo, counted, *rest)

        monkeypatch.setattr(_read, name, wrapped)
    _CountingList.tests = 0
    if layout == "swiss":
        fill_workbook(build_report(synthetic_swiss(30, 5)))
    else:
        from tests.excel.test_workbook import rr_example
        fill_workbook(build_report(rr_example()), layout="roundrobin")
    assert seen, "the rounds were read back"
    assert _CountingList.tests == 0


def test_checking_a_filled_workbook_reads_its_cells_once(monkeypatch):
    """fill_workbook checks the workbook it built by reading it back; no cell differs
    from what TRF_original says was written, so the cells are read once, not a second
    time as written (issue 23). Before: twice."""
    from xl_fide.excel import _read
    calls = _count_calls(monkeypatch, _read, "_read_cells")
    fill_workbook(build_report(synthetic_swiss(10, 3)))
    assert calls == [1]


def test_same_cells_tells_types_apart():
    from xl_fide.excel._read import _same_cells
    assert _same_cells(([[1, "a", None]],), ([[1, "a", None]],))
    for other in (1.0, True, "1"):
        assert not _same_cells(([[1]],), ([[other]],))
    assert not _same_cells(([[1]],), ([[1, None]],))
    assert not _same_cells(([[1]], [[2]]), ([[1]], [[3]]))
