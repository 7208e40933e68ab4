"""Issue 22 #1: a cross-table rated by rules after a one-off list adjustment computes it,
as the report does (FIDE B.02, the 1 March 2024 adjustment of ratings below 2000:
R + round(0.4 × (2000 − R))).

The event, by hand: 13–14 January 2024, One (1500) beats Two (1600), K 20, rated as on
1 June 2024. The January list's ratings are adjusted: 1500 -> 1500 + 0.4 × 500 = 1700,
1600 -> 1600 + 0.4 × 400 = 1760. D = 60 -> PD .58 for the higher, .42 for the lower
(table 8.1.2, 54–61). One: W 1, ΣPD .42, +.58 × 20 = +11.60 -> +12 -> 1712.
Two: ΣPD .58, −.58 × 20 = −11.60 -> −12 -> 1748. Without the adjustment the sheet
showed 1513 and 1587 (D 100 -> .64/.36, ±12.80) — a wrong number without a word.
"""

from __future__ import annotations

import datetime as _dt

import pytest
from openpyxl import load_workbook

from tests.harness import gnumeric
from tests.excel.test_workbook_lo import columns
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS
from xl_fide.event.report import build_report
from xl_fide.rules.editions import EventOptions
from xl_fide.trf import parse_trf, write_trf

TRF = ("012 Winter Open\n042 2024/01/13\n052 2024/01/14\n122 90 min + 30 s\n"
       "001    1 m    One, A                            1500 ESP        1001 1980"
       "        1.0    1     2 w 1\n"
       "001    2 m    Two, B                            1600 ESP        1002 1980"
       "        0.0    2     1 b 0\n")
OPTIONS = EventOptions(k=20, event_date=_dt.date(2024, 6, 1))


def _book(formulas, tmp_path):
    t = parse_trf(TRF, source="winter.trf")
    report = build_report(t, OPTIONS)
    assert [r.result.new_rating for r in report.rows] == [1712, 1748]     # by hand, above
    return t, save_workbook(fill_workbook(report, formulas=formulas),
                            tmp_path / f"{formulas}.xlsx")


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_the_sheet_shows_the_ratings_the_rules_use(formulas, tmp_path):
    # the file's ratings stay the typed inputs (issue 32 #3); Ro used shows what the
    # rules as on 1 June 2024 read (cached: the report's values)
    _, path = _book(formulas, tmp_path)
    wb = load_workbook(path, data_only=True)
    ro, used = columns(wb, ("Rating", "RatingUsed"))
    assert [wb[CROSS].cell(r, ro).value for r in (5, 6)] == [1500, 1600]
    assert [wb[CROSS].cell(r, used).value for r in (5, 6)] == [1700, 1760]


def test_gnumeric_computes_the_reports_new_ratings(tmp_path):
    gnumeric.require()
    _, path = _book("native", tmp_path)
    values = gnumeric.recalc(path, tmp_path / "gnumeric.xlsx")
    (new,) = columns(load_workbook(path), ("NewRating",))
    assert [values[CROSS].cell(r, new).value for r in (5, 6)] == [1712, 1748]


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_the_trf_written_back_keeps_the_files_ratings(formulas, tmp_path):
    from xl_fide.excel import read_workbook
    t, path = _book(formulas, tmp_path)
    assert write_trf(read_workbook(path)) == write_trf(t)
