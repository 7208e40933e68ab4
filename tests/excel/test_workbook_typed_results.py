"""A result typed by hand, read one way everywhere (user trial, 7 Dec 2026).

On the shipped example (San Viator 2018: 137 players, April rounds 1-3, May rounds 4-7,
rated month by month, FIDE B.02 §8.3) a user turned player 2's round-1 win against
player 65 into a loss: ``"0 "`` (a trailing space, a common typing habit) in
Crosstable!O6 and ``1`` for player 65. ``xl-fide report`` and the FIDE_* functions read
``"0 "`` as 0 (:func:`xl_fide.rules.results.parse_result` drops spaces); the native
formulas did not (VLOOKUP of ``"0 "`` finds no code): rows 2 and 65 were flagged and six
other players got other numbers with Check 0.

1. The native sheet reads ``"0 "`` / ``" 1 "`` as ``0`` / ``1``: recalculated by
   LibreOffice and by Gnumeric (Excel's text semantics), every cell of the cross-table
   equals that of the same book with the numbers 0 and 1 typed; ``report`` reads both
   books alike.
2. A result that does not read (``"x"``; ``"?"``, which VLOOKUP took for the wildcard
   of any one character and read as ``1``) spreads no clean wrong number: over 30 days a
   month's Ro is the previous month's New, so when that New is an error the month's Ro
   is the error (it was blank: an unrated player, whose opponents got clean other
   figures). Every row whose New differs from the book's before the edit shows an error;
   a row whose month-1 New is an error shows no number in month 2's New, Δ and Ru; and
   ``report`` refuses the book with one line naming the cell.
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook_months import month_blocks
from tests.harness import gnumeric
from xl_fide.cli._main import main
from xl_fide.event.report import build_report
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS, HEADER_ROW
from xl_fide.trf import read_trf

FIRST = 5            # the cross-table's first player row (player k in row 4 + k)


def _book(tmp_path, formulas, edits, name):
    """The example filled in ``formulas`` with ``edits`` (cell -> value) typed on the
    cross-table, saved as ``name``.xlsx."""
    src = tmp_path / f"{name}.xlsx"
    save_workbook(fill_workbook(build_report(read_trf("xl_fide/data/example.trf")),
                                formulas=formulas), src)
    wb = load_workbook(src)
    for cell, value in edits.items():
        wb[CROSS][cell] = value
    wb.save(src)
    return src


def _recalc(engine, src):
    dst = src.with_name(src.stem + f".{engine if isinstance(engine, str) else 'lo'}.xlsx")
    if engine == "gnumeric":
        return gnumeric.recalc(src, dst), dst
    engine.recalc(src, dst)
    return load_workbook(dst, data_only=True), dst


def _head(ws):
    return {ws.cell(HEADER_ROW, c).value: c for c in range(1, ws.max_column + 1)}


def _round_cell(ws, player, rnd, part="Res"):
    """The ``part`` (Opp, Res) cell of ``player`` (start rank) in round ``rnd``."""
    cols = [c for c in range(1, ws.max_column + 1) if ws.cell(HEADER_ROW, c).value == part]
    return f"{ws.cell(HEADER_ROW, cols[rnd - 1]).column_letter}{FIRST + player - 1}"


def _res_cell(ws, player, rnd):
    return _round_cell(ws, player, rnd)


def _over_new(ws):
    """The column of the result's New (left of month 1's block: Δ, New)."""
    return month_blocks(ws.parent)[1]["Ro"] - 1


def _is_error(v):
    return isinstance(v, str) and v.startswith("#")


def _wrong(v):
    """An error, or a text that is no code of the sheet (``NP 1395``, ``NP 3g`` ...): a
    message (FIDE_* in LibreOffice answers its error as text) or a Ro not a rating."""
    return isinstance(v, str) and v != "" and not v.startswith("NP ")


def _engines(request):
    if request.param == "gnumeric":
        gnumeric.require()
        return "gnumeric"
    return request.getfixturevalue("plain_office")


@pytest.fixture(params=["libreoffice", "gnumeric"])
def native_engine(request):
    return _engines(request)


# ------------------------------------------------------------------- 1. "0 " reads as 0

def test_a_result_typed_with_spaces_reads_as_the_result(native_engine, tmp_path):
    wb = load_workbook(_book(tmp_path, "native", {}, "probe"))
    o6, o69 = _res_cell(wb[CROSS], 2, 1), _res_cell(wb[CROSS], 65, 1)
    assert (o6, wb[CROSS][o6].value, wb[CROSS][o69].value) == ("O6", 1, 0)
    typed = _book(tmp_path, "native", {o6: "0 ", o69: " 1 "}, "typed")
    plain = _book(tmp_path, "native", {o6: 0, o69: 1}, "plain")
    got, _ = _recalc(native_engine, typed)
    want, _ = _recalc(native_engine, plain)
    a, b = got[CROSS], want[CROSS]
    head = _head(b)
    last = FIRST + 137 - 1
    assert [a.cell(r, head["Check"]).value for r in range(FIRST, last + 1)] == [0] * 137
    diff = [(a.cell(r, c).coordinate, a.cell(r, c).value, b.cell(r, c).value)
            for r in range(FIRST, last + 1) for c in range(1, b.max_column + 1)
            if a.cell(r, c).coordinate not in (o6, o69)
            and a.cell(r, c).value != b.cell(r, c).value]
    assert diff == []
    # a number was computed (not two sheets of the same errors)
    new = _over_new(b)
    values = [a.cell(r, new).value for r in range(FIRST, last + 1)]
    assert not any(_is_error(v) for v in values)
    assert sum(isinstance(v, int) for v in values) > 100


def test_report_reads_a_result_typed_with_spaces_as_the_result(tmp_path, capsys):
    typed = _book(tmp_path, "native", {"O6": "0 ", "O69": " 1 "}, "typed")
    plain = _book(tmp_path, "native", {"O6": 0, "O69": 1}, "plain")
    assert main(["report", str(typed)]) == 0
    one = capsys.readouterr().out
    assert main(["report", str(plain)]) == 0
    assert one == capsys.readouterr().out


# ----------------------------------------------------------- 2. no silent spread of "x"

def _rows_that_differ_show_an_error(before, after):
    """Rows whose New (a month's or the result's) differs from ``before`` with nothing
    wrong shown in the row (an error or a message in its Result and month blocks, its
    Check)."""
    a, b = after[CROSS], before[CROSS]
    blocks = month_blocks(after)
    head = _head(b)
    news = [_over_new(a)] + [blocks[i]["New"] for i in sorted(blocks)]
    # the result's Δ and New and every month block's cells
    blocked = [_over_new(a) - 1, _over_new(a)] + [c for i in blocks for c in blocks[i].values()]
    silent = []
    for r in range(FIRST, FIRST + 137):
        cells = [a.cell(r, c).value for c in news]
        if cells == [b.cell(r, c).value for c in news]:
            continue
        check = a.cell(r, head["Check"]).value
        shown = [a.cell(r, c).value for c in blocked]
        if not any(_wrong(v) for v in shown) and not (isinstance(check, int) and check > 0):
            silent.append((r - FIRST + 1, cells, [b.cell(r, c).value for c in news]))
    return silent


def _month2_numbers_after_an_error(after):
    """Rows whose month-1 New is an error (or a message) but whose month-2 New, Δ or Ru
    is a number, or whose month-2 Ro is not (blank: an unrated player) though month 1's
    is a rating."""
    ws = after[CROSS]
    blocks = month_blocks(after)
    out = []
    for r in range(FIRST, FIRST + 137):
        if _wrong(ws.cell(r, blocks[1]["New"]).value):
            shown = [ws.cell(r, blocks[2][h]).value for h in ("Ro", "New", "Δ", "Ru")]
            rated = isinstance(ws.cell(r, blocks[1]["Ro"]).value, int)
            if any(isinstance(v, (int, float)) for v in shown) or (rated and not _wrong(shown[0])):
                out.append((r - FIRST + 1, shown))
    return out


@pytest.mark.parametrize("bad", ["x", "?"])     # "?": to VLOOKUP any one character ("1")
def test_a_bad_result_spreads_no_clean_number_native(native_engine, tmp_path, bad):
    before, _ = _recalc(native_engine, _book(tmp_path, "native", {}, "before"))
    after, _ = _recalc(native_engine, _book(tmp_path, "native", {"O6": bad}, "bad"))
    ws = after[CROSS]
    check = _head(ws)["Check"]
    assert (ws.cell(6, check).value, ws.cell(69, check).value) == (1, 1)
    assert _is_error(ws.cell(6, _over_new(ws)).value)
    assert _rows_that_differ_show_an_error(before, after) == []
    assert _month2_numbers_after_an_error(after) == []
    # player 2's and player 65's month-2 opponents (rounds 4-7) show an error in New
    opps = {ws[_round_cell(ws, p, k, "Opp")].value for p in (2, 65) for k in range(4, 8)}
    opps = {o for o in opps if isinstance(o, int)} - {2, 65}
    assert len(opps) >= 4
    assert [o for o in sorted(opps) if not _is_error(ws.cell(FIRST + o - 1, _over_new(ws)).value)] == []


def test_a_bad_result_spreads_no_clean_number_udf(office, tmp_path):
    before, _ = _recalc(office, _book(tmp_path, "udf", {}, "before"))
    after, _ = _recalc(office, _book(tmp_path, "udf", {"O6": "x"}, "bad"))
    assert _rows_that_differ_show_an_error(before, after) == []
    assert _month2_numbers_after_an_error(after) == []


@pytest.mark.parametrize("value", ["x", "?"])
def test_report_refuses_a_bad_result_naming_its_cell(tmp_path, capsys, value):
    bad = _book(tmp_path, "native", {"O6": value}, "bad")
    assert main(["report", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Crosstable!O6" in err[0]
