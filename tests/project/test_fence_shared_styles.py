"""The cells :func:`xl_fide.excel._fence.style_cells` makes share their style's one
array (issue 32: 23 MB at 2,000 x 15). openpyxl sets a style attribute of a cell by
changing its array in place, which would restyle every cell of that style: xl-fide
gives the cell its own copy first (:func:`_fence.own_style`). Checked two ways: every
statement of excel/ that sets a style attribute of a cell does so, and the workbooks
(players whose names a sheet must quote, dates, both modes, both layouts, the player
sheet) have the same style in every cell, shared or not."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from xl_fide.event.report import build_report
from xl_fide.excel import _fence
from xl_fide.excel._fill import fill_workbook
from xl_fide.trf import read_trf

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "trf"

#: the attributes openpyxl sets in the cell's style array, in place
STYLE_ATTRIBUTES = frozenset({"font", "fill", "border", "alignment", "number_format",
                              "protection", "quotePrefix", "pivotButton"})


def _unguarded(path: Path) -> list[str]:
    """The statements of ``path`` that set a style attribute of a cell in place without
    :func:`_fence.own_style` on it first: ``own_style(cell).attr = ...``, or
    ``own_style(cell)`` earlier in the same function and ``cell.attr = ...``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        owned: dict[str, int] = {}           # name -> the first line own_style(name) is on
        for node in ast.walk(fn):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "own_style" and node.args
                    and isinstance(node.args[0], ast.Name)):
                name = node.args[0].id
                owned[name] = min(owned.get(name, node.lineno), node.lineno)
        for node in ast.walk(fn):
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign))
                       else [])
            for t in targets:
                if not (isinstance(t, ast.Attribute) and t.attr in STYLE_ATTRIBUTES):
                    continue
                owner = t.value
                if (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
                        and owner.func.id == "own_style"):
                    continue
                if isinstance(owner, ast.Name) and owned.get(owner.id, 10**9) < t.lineno:
                    continue
                if isinstance(owner, ast.Name) and owner.id in ("ws", "sheet"):
                    continue                 # a worksheet's protection, not a cell's
                found.append(f"{path.name}:{t.lineno} .{t.attr}")
    return found


def test_every_style_set_in_place_owns_its_array_first():
    found = [hit for path in sorted((ROOT / "xl_fide" / "excel").glob("*.py"))
             if path.name != "_fence.py" for hit in _unguarded(path)]
    assert found == []


def test_the_scan_finds_a_style_set_on_a_shared_array(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f(ws, cell, other):\n"
                      "    cell.quotePrefix = True\n"
                      "    ws.cell(1, 1).font = None\n"
                      "    own_style(other)\n"
                      "    other.alignment = None\n"
                      "    own_style(ws.cell(2, 2)).fill = None\n"
                      "    cell.number_format = '0'\n"
                      "    own_style(cell)\n", encoding="utf-8")
    assert _unguarded(sample) == ["sample.py:2 .quotePrefix", "sample.py:3 .font",
                                  "sample.py:7 .number_format"]


def _styles(wb) -> dict[tuple[str, int, int], tuple[object, ...]]:
    return {(ws.title, c.row, c.column): (tuple(c._style or ()), c.number_format, c.quotePrefix,
                                          c.font.b, c.alignment.horizontal)
            for ws in wb.worksheets for c in _fence.cells(ws).values()}


def _hostile_names() -> object:
    """A Swiss whose players' names a sheet must quote (= + - @: quotePrefix set in
    place on a players' cell) and with a date on the Event sheet."""
    t = read_trf(DATA / "online_swiss_2020_unrated.trf")
    names = ["=SUM(A1)", "-Dash", "+Plus", "@At"]
    players = tuple(dataclasses.replace(p, name=names[i]) if i < len(names) else p
                    for i, p in enumerate(t.players))
    return dataclasses.replace(t, players=players)


@pytest.mark.parametrize("formulas", ["native", "udf"])
@pytest.mark.parametrize("event", ["hostile", "roundrobin_12_synthetic",
                                   "synthetic_league_5_months"])
def test_styles_are_the_same_shared_or_not(event, formulas, monkeypatch):
    t = _hostile_names() if event == "hostile" else read_trf(DATA / f"{event}.trf")
    shared = fill_workbook(build_report(t), formulas=formulas)
    monkeypatch.setattr(_fence, "SHARE_STYLE_ARRAYS", False)
    own = fill_workbook(build_report(t), formulas=formulas)
    got, want = _styles(shared), _styles(own)
    assert got.keys() == want.keys()
    assert [k for k in want if got[k] != want[k]] == []
    if event == "hostile":           # the quoted names: their own arrays, the rest shared
        quoted = {c.value for c in _fence.cells(shared["Crosstable"]).values() if c.quotePrefix}
        assert {"=SUM(A1)", "-Dash", "+Plus", "@At"} <= quoted


def test_the_player_sheet_styles_are_the_same_shared_or_not(monkeypatch):
    from xl_fide.excel._player import build_player_sheet
    shared = build_player_sheet()
    monkeypatch.setattr(_fence, "SHARE_STYLE_ARRAYS", False)
    assert _styles(shared) == _styles(build_player_sheet())
