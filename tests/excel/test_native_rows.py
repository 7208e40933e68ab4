"""The native formulas of the players' rows are written once per layout and repeated
with each row's number (:func:`xl_fide.excel._native.row_template`): every row must be
exactly the row written on its own, and the template's cells set on a workbook exactly
as openpyxl's setter sets them."""

from __future__ import annotations

import dataclasses
import datetime as _dt

import pytest

from xl_fide.excel import _build, _fence, _layout, _months
from xl_fide.excel import _native as native


def _direct(lay: native.Layout) -> list[native.Cell]:
    """:func:`native.cells` written row by row (no template)."""
    R = native._Refs(lay)
    out = list(native.header_cells(lay))
    for row in range(lay.first, lay.last + 1):
        out.extend(native._row_cells(lay, R, row))
    return out


def _typed(cells: list[native.Cell]) -> list[tuple[native.Cell, type]]:
    return [(c, type(c[3])) for c in cells]


def _layouts() -> list[native.Layout]:
    out = []
    for layout, players, rounds in [("swiss", 2, 1), ("swiss", 7, 3), ("swiss", 120, 99),
                                    ("roundrobin", 2, 1), ("roundrobin", 12, 11)]:
        out.append(_layout._native_layout(_layout._Geometry(layout, players, rounds, "native")))
    geo = _layout._Geometry("swiss", 30, 5, "native")
    month = _months.Month(2, 2025, 3, (3, 4, 5), _dt.date(2025, 3, 1))
    lay = _months.month_layout(geo, month, "$B$1", "$B$2")
    out.append(lay)
    # sheet names holding the digits of the row the template is written with, or a row
    # number: the rows are still the rows written one by one
    out.append(dataclasses.replace(lay, calc="Calc 987654321", cross="X987654321"))
    out.append(dataclasses.replace(lay, calc="Calc 5", cross="5"))
    return out


@pytest.mark.parametrize("lay", _layouts(), ids=lambda lay: f"{lay.kind}-{lay.n}-{lay.calc}")
def test_rows_from_the_template_are_the_rows_written_alone(lay):
    assert _typed(list(native.cells(lay))) == _typed(_direct(lay))


def test_template_refuses_rows_that_differ():
    """A round robin's rows differ (a player's own column): no template."""
    geo = _layout._Geometry("roundrobin", 5, 4, "native")
    assert native.row_template(_layout._native_layout(geo)) is None
    geo = _layout._Geometry("swiss", 5, 4, "native")
    assert native.row_template(_layout._native_layout(geo)) is not None


def _cells(wb):
    """Every cell of ``wb``: those of its sheets and those of a helper sheet's row plan
    (made as they are saved, :func:`_fence.planned_cells`)."""
    def value(v):       # an array formula by its text and range
        return (v.text, v.ref) if hasattr(v, "text") else v

    held = {(ws.title, rc): c for ws in wb.worksheets for rc, c in _fence.cells(ws).items()}
    for title, plan in _fence.book_state(wb).get("plans", {}).items():
        for row in range(plan.first, plan.last + 1):
            for c in _fence.planned_cells(wb[title], plan, row):
                there = held.get((title, (row, c.column)))       # an empty cell: its style
                if there is not None:
                    assert there._value is None
                    c._style = there._style
                held[(title, (row, c.column))] = c
    return {key: (type(c._value), value(c._value), c.data_type, c._style, c.number_format)
            for key, c in held.items()}


@pytest.mark.parametrize("layout,players,rounds", [("swiss", 9, 4), ("roundrobin", 6, 5)])
def test_native_rows_set_as_the_setter_sets_them(layout, players, rounds, monkeypatch):
    fast = _build.build_template(layout, players, rounds, formulas="native")
    monkeypatch.setattr(native, "row_template", lambda lay: None)
    slow = _build.build_template(layout, players, rounds, formulas="native")
    assert _cells(fast) == _cells(slow)
    assert [ws._current_row for ws in fast.worksheets] == [
        ws._current_row for ws in slow.worksheets]
