"""A second, Excel-semantics recalculation beside LibreOffice (issue 15): the
``formulas`` package evaluates every shipped template and every workbook filled from
tests/data/trf, with the FIDE_* functions called as classic xlwings calls them
(tests/harness/xl_formulas.py); every rating cell must equal the engine.

The big workbooks take a minute or more each in ``formulas`` (its parser, not ours):
they run under CI=true (``.ci/run``) or XL_FIDE_FORMULAS=1; the small ones always.
"""

from __future__ import annotations

import os

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import TEMPLATES, TRF_FILES
from tests.excel.test_workbook_lo import assert_blank_rows, assert_matches_report, assert_no_bad_cells
from xl_fide._version import __version__
from xl_fide.rules.editions import rules_for
from xl_fide.event.report import build_report
from xl_fide.trf import read_trf
from xl_fide.excel._layout import DEFAULT_TEMPLATES, EVENT, EVENT_ROW
from xl_fide.excel._fill import fill_workbook, save_workbook

if os.environ.get("CI") == "true":
    import formulas  # noqa: F401  - under CI the second engine must be there
else:
    pytest.importorskip("formulas")
from tests.harness import xl_formulas  # noqa: E402

ALL = os.environ.get("CI") == "true" or os.environ.get("XL_FIDE_FORMULAS") == "1"
#: always run: TRFs of at most 3 KB (a few seconds each) and the small round robin
QUICK = {p.stem for p in TRF_FILES if p.stat().st_size <= 3000} | {"fide_roundrobin_10.xlsx"}


def _maybe(name):
    if name in QUICK:
        return pytest.param(name)
    return pytest.param(name, marks=[pytest.mark.slow] + ([] if ALL else [pytest.mark.skip(
        reason="slow in formulas: runs under CI=true or XL_FIDE_FORMULAS=1")]))


@pytest.mark.parametrize("trf", [_maybe(p.stem) for p in TRF_FILES])
def test_filled_from_trf(trf, tmp_path):
    t = read_trf(next(p for p in TRF_FILES if p.stem == trf))
    report = build_report(t)
    path = save_workbook(fill_workbook(report), tmp_path / f"{trf}.xlsx")
    values, calls = xl_formulas.recalc(path)
    # one call each: the Ro used column, the K column, the rating block, FIDE_VERSION();
    # over 30 days one FIDE_K and one block per month more (issue 20 #5)
    months = len(report.months)
    assert sum(calls.values()) == 4 + 2 * months and calls["FIDE_K"] == 1 + months
    assert calls["FIDE_ADJUST_2024"] == 1
    assert_no_bad_cells(values)
    assert_matches_report(values, load_workbook(path), report)
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == report.edition.id


@pytest.mark.parametrize("filename", [_maybe(n) for n in sorted(DEFAULT_TEMPLATES)])
def test_empty_templates(filename):
    path = TEMPLATES / filename
    values, _ = xl_formulas.recalc(path)
    assert_no_bad_cells(values)
    players = DEFAULT_TEMPLATES[filename][1]
    assert_blank_rows(values, load_workbook(path), range(5, 5 + players))
    ev = values[EVENT]
    assert ev.cell(EVENT_ROW["edition"], 2).value == rules_for(None).id
    assert ev.cell(EVENT_ROW["version"], 2).value == __version__


def test_shapes_as_classic_xlwings_passes_them():
    import numpy as np
    import schedula as sh
    from formulas.tokens.operand import NA
    grid = np.array([[1, sh.EMPTY], [NA, "x"]], dtype=object)
    assert xl_formulas.as_xlwings(grid) == [[1.0, None], ["#N/A", "x"]]
    assert xl_formulas.as_xlwings(np.array([[2000]], dtype=object)) == 2000.0
    assert xl_formulas.as_xlwings(np.array([[1], [2]], dtype=object)) == [1.0, 2.0]
    assert xl_formulas.as_xlwings(np.array([[1, 2]], dtype=object)) == [1.0, 2.0]


def test_results_typed_into_text_cells_compute(tmp_path):
    """What a Text-formatted result cell holds after typing: the text ("1", "0", "½",
    "1/2"). The points, the check and the rating block read it like the numbers."""
    from tests.excel.test_workbook_lo import assert_checks_clean
    from xl_fide.excel._layout import CROSS, _Geometry
    t = read_trf(next(p for p in TRF_FILES if p.stem == "mini_trf2026"))
    report = build_report(t)
    wb = fill_workbook(report)
    ws = wb[CROSS]
    geo = _Geometry("swiss", len(t.players) if len(t.players) > 1 else 2, t.rounds)
    typed = {1: "1", 0: "0", "½": "1/2"}
    changed = 0
    for r in range(geo.first, geo.first + len(t.players)):
        for k in range(1, t.rounds + 1):
            cell = ws.cell(r, geo.round_col(k, "res"))
            if cell.value in typed:
                cell.value = typed[cell.value]
                changed += 1
    assert changed > 0
    path = save_workbook(wb, tmp_path / "typed.xlsx")
    values, _ = xl_formulas.recalc(path)
    formulas_wb = load_workbook(path)
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas_wb, report)
    assert_checks_clean(values, formulas_wb, len(t.players))
