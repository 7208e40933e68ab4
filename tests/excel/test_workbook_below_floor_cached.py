"""A cached value that no engine computes (issue 32 #6): a player rated below the floor
(1388 under the rules of 1 Nov 2025, floor 1400: FIDE B.02 §7, rated as unrated) had
his K cell cached blank while every spreadsheet computes K 20 from his Ro (born 1980, no
games count: 20 by §8.3.3). The cached K comes from the report's K (the engine's), and
every cached value equals the recalculation.

The event, by hand: a double round robin is not needed, one game: 1500 (player 2) beats
1388 (player 1). Player 1 is unrated (below the floor); player 2 plays an unrated
opponent: N = 0, no change.
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import _round_robin
from tests.excel.test_workbook_cached_every_cell import _differences
from tests.excel.test_workbook_lo import columns
from tests.harness import gnumeric
from xl_fide.event.report import build_report
from xl_fide.excel._fill import fill_workbook, save_workbook


def _book(formulas, tmp_path):
    t = _round_robin([1388, 1500], {(1, 2): "0"}, name="Floor 1388")
    return save_workbook(fill_workbook(build_report(t), formulas=formulas, rows=3),
                         tmp_path / f"floor_{formulas}.xlsx")


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_k_of_a_rating_below_the_floor_is_cached(formulas, tmp_path):
    path = _book(formulas, tmp_path)
    wb = load_workbook(path, data_only=True)
    used, k_rule, k = columns(wb, ("RatingUsed", "KRule", "KFactor"))
    ws = wb["Crosstable"]
    assert [(ws.cell(r, used).value, ws.cell(r, k_rule).value, ws.cell(r, k).value)
            for r in (5, 6)] == [(1388, 20, 20), (1500, 20, 20)]


def test_gnumeric_computes_every_cached_value(tmp_path):
    gnumeric.require()
    path = _book("native", tmp_path)
    values = gnumeric.recalc(path, tmp_path / "gnumeric.xlsx")
    assert _differences(path, values, blank_index_is_blank=True) == {}


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_libreoffice_computes_every_cached_value(office, formulas, tmp_path):
    path = _book(formulas, tmp_path)
    office.recalc(path, tmp_path / "lo.xlsx")
    assert _differences(path, load_workbook(tmp_path / "lo.xlsx", data_only=True)) == {}
