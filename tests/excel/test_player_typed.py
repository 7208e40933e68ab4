"""Issue 33 items 5-6: the player sheet's typed cells. A number typed as text (a rating,
K, an opponent's rating, an ISO date, a result "1.00" or " 1", an event name in other
case or spacing) is read as what it shows; anything ambiguous (1,892; 01/11/2025; 2025.5)
or missing (an event's start) shows a message naming the cell on row 13, and the new
rating is not shown — never a silently different rating. A game typed under the 60-game
table is flagged the same way.

Recalculated in LibreOffice (both modes) and in Gnumeric (Excel's text/number semantics:
its MATCH/VLOOKUP do not find the text "1" among numbers, LibreOffice's do).

By hand (FIDE B.02 table 8.1.2, §8.3.3, §8.3.4): the README's game, Ro 1892 beats 2025:
D = 133 -> PD .32, ΔR .68; K 40: 27.20 -> +27 -> 1919.
"""

from __future__ import annotations

import datetime as _dt
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from openpyxl import load_workbook

from tests.harness import gnumeric
from xl_fide.cli import main
from xl_fide.excel._player import G_FIRST, G_LAST, build_player_sheet

EV, G = 16, G_FIRST          # the first event row, the first game row

CLEAN = {"D4": 1892, "D9": 40, f"B{EV}": _dt.date(2025, 11, 1), f"C{EV}": "Open",
         f"D{EV}": _dt.date(2025, 11, 3), f"C{G}": "Open", f"E{G}": 2025, f"F{G}": "1"}

# each typed as text, as a Text-formatted cell or a paste gives them: still 1919
TYPED = {"D4": "1892", "D9": " 40 ", f"B{EV}": "2025-11-01", f"D{EV}": " 2025-11-03",
         f"C{G}": "  OPEN ", f"E{G}": "2025", f"F{G}": " 1.00"}

# one ambiguous or missing cell each: (cells, the cell the message names)
BAD = {
    "rating 1,892": ({"D4": "1,892"}, "D4"),
    "start 01/11/2025": ({f"B{EV}": "01/11/2025"}, f"B{EV}"),
    "start blank": ({f"B{EV}": None}, f"B{EV}"),
    "opponent 2025.5": ({f"E{G}": "2025.5"}, f"E{G}"),
    "result 1.5": ({f"F{G}": "1.5"}, f"F{G}"),
    "result ?": ({f"F{G}": "?"}, f"F{G}"),           # a wildcard to VLOOKUP: it finds "1"
    "K 4O": ({"D9": "4O"}, "D9"),
    "a game under the table": ({f"C{G_LAST + 1}": "Open", f"E{G_LAST + 1}": 1500,
                                f"F{G_LAST + 1}": 0}, f"row {G_LAST + 1}"),
}


def book(path, cells, formulas="native"):
    """The blank template with ``cells`` typed in (a None clears a cell), saved as is."""
    wb = build_player_sheet(formulas=formulas)
    ws = wb["Player"]
    for ref, value in {**CLEAN, **cells}.items():
        ws[ref].value = value
        if isinstance(value, str):
            ws[ref].data_type = "s"          # text, even "1892"
    wb.save(path)
    return path


def shown(ws):
    return ws["K8"].value, ws["A13"].value


def check_good(ws, where):
    new, note = shown(ws)
    assert (new, note) == (1919, None) or (new, note) == (1919, ""), where


def check_bad(ws, cell, where):
    new, note = shown(ws)
    assert new == "not computed: see row 13", where
    assert isinstance(note, str) and note.startswith(f"Not computed: {cell}"), (where, note)
    # and no figure of the period beside it (a user trial: K used, K×ΣΔR and the
    # rounded change still showed numbers)
    from xl_fide.excel._player import _ROW
    for key in ("kused", "change", "rounded"):
        assert ws.cell(_ROW[key], 11).value in (None, ""), (where, key)


def rate_book(path, capsys):
    """`xl-fide rate BOOK.xlsx`: (exit code, the new rating or the error line)."""
    code = main(["rate", str(path), "--format", "json"])
    out, err = capsys.readouterr()
    if code:
        assert out == "" and err.count("\n") == 1
        return code, err
    return code, json.loads(out)["new_rating"]


def check_rate_refuses(path, cell, capsys, where):
    code, err = rate_book(path, capsys)
    assert code == 2 and f"Player!{cell}" in err, (where, err)


def test_typed_text_in_gnumeric(tmp_path, capsys):
    gnumeric.require()
    for name, cells in (("clean", {}), ("typed", TYPED)):
        src = book(tmp_path / f"{name}.xlsx", cells)
        check_good(gnumeric.recalc(src, tmp_path / f"{name}.g.xlsx")["Player"], name)
        assert rate_book(src, capsys) == (0, 1919), name
    for name, (cells, cell) in BAD.items():
        src = book(tmp_path / "bad.xlsx", cells)
        ws = gnumeric.recalc(src, tmp_path / "bad.g.xlsx")["Player"]
        check_bad(ws, cell, name)
        check_rate_refuses(src, cell, capsys, name)


def test_rate_of_the_sheet_equals_rate_of_the_csv(tmp_path, capsys):
    """`template --layout player --games CSV` then `rate BOOK.xlsx`: the same JSON figures
    as `rate CSV` (the hand-worked CASES)."""
    from tests.excel.test_player import CASES
    keys = ("new_rating", "computed_rating", "rating_change", "N", "K_used", "change")
    for name, (text, opts, new, changes) in CASES.items():
        f = tmp_path / f"{name}.csv"
        f.write_text(text, encoding="utf-8")
        src = tmp_path / f"{name}.xlsx"
        assert main(["template", "--layout", "player", "--games", str(f), *opts,
                     "-o", str(src)]) == 0
        capsys.readouterr()
        assert main(["rate", str(f), *opts, "--format", "json"]) == 0
        want = json.loads(capsys.readouterr()[0])
        assert main(["rate", str(src), "--format", "json"]) == 0
        got = json.loads(capsys.readouterr()[0])
        assert {k: got[k] for k in keys} == {k: want[k] for k in keys}, name
        assert got["new_rating"] == new, name
        assert [e["change"] for e in got["events"]] == changes, name


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_typed_text_in_libreoffice(office, tmp_path, formulas, capsys):
    cases = [("typed", TYPED, None), ("rating 1,892", *BAD["rating 1,892"]),
             ("start 01/11/2025", *BAD["start 01/11/2025"]),
             ("a game under the table", *BAD["a game under the table"])]
    for name, cells, cell in cases:
        src = book(tmp_path / "b.xlsx", cells, formulas)
        office.recalc(src, tmp_path / "b.lo.xlsx", xlwings_blanks=False)
        ws = load_workbook(tmp_path / "b.lo.xlsx", data_only=True)["Player"]
        # `rate` reads the book as LibreOffice saved it (its dates, its shared strings)
        if cell is None:
            check_good(ws, (formulas, name))
            assert rate_book(tmp_path / "b.lo.xlsx", capsys) == (0, 1919), name
        else:
            check_bad(ws, cell, (formulas, name))
            check_rate_refuses(tmp_path / "b.lo.xlsx", cell, capsys, name)


# -------------------------------------------------------------------------- fuzz family

def _forms(value: int):
    """A whole number as a user may type it: the number, its digits as text with spaces
    around, with a decimal comma or point, with a thousands separator."""
    return st.sampled_from([
        (value, True), (str(value), True), (f" {value} ", True), (f"{value}  ", True),
        (f"{value},0", False), (f"{value}.5", False), (f"{value:,}", value < 1000),
        (f"{value:,}".replace(",", "."), value < 1000), ("", None), ("  ", None),
    ])


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(ro=_forms(1892), k=_forms(40), opp=_forms(2025),
       result=st.sampled_from([(1, True), ("1", True), (" 1 ", True), ("1.00", True),
                               ("1,0", True), ("1-0", True), ("1,5", False), ("", None),
                               ("?", False), ("1*", False)]))
def test_fuzz_typed_cells_in_gnumeric(tmp_path_factory, capsys, ro, k, opp, result):
    """Each typed cell is read as the number it shows, or is blank, or names its cell on
    row 13 and hides the new rating. By hand: as the README game, 1919 with K 40; a blank
    K: K by rule, 20 (no birth year, games blank = 30 or more): 13.60 -> +14 -> 1906; a
    blank rating: unrated, one game -> no initial rating ("not published"); a blank
    opponent rating: unrated opponent, no rated game: 1892 + 0; a blank result: no result
    yet, 1892."""
    gnumeric.require()
    tmp = tmp_path_factory.mktemp("fuzz")
    cells = {"D4": ro[0], "D9": k[0], f"E{G}": opp[0], f"F{G}": result[0]}
    path = book(tmp / "f.xlsx", cells)
    ws = gnumeric.recalc(path, tmp / "f.g.xlsx")["Player"]
    refs = {"D4": ro, "D9": k, f"E{G}": opp, f"F{G}": result}
    bad = [ref for ref, (_, ok) in refs.items() if ok is False]
    if bad:
        check_bad(ws, bad[0], cells)
        check_rate_refuses(path, bad[0], capsys, cells)
        return
    new, _ = shown(ws)
    code, by_rate = rate_book(path, capsys)
    assert code == 0 and by_rate == (new if isinstance(new, int) else None), cells
    if ro[1] is None:
        assert isinstance(new, str) and new.startswith("not published"), cells
    elif opp[1] is None or result[1] is None:
        assert new == 1892, cells
    else:
        assert new == (1919 if k[1] else 1906), cells
