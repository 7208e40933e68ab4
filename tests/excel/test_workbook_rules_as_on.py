"""Inputs stay inputs (issue 32 #3): a cross-table written with ``--event-date`` keeps the
file's ratings as the typed Ro; the rating the rules as on the Event sheet's date read is
the computed column Ro used (the 1 March 2024 adjustment of ratings below 2000 from a list
before that date: R + round(0.4 × (2000 − R))), so clearing or changing "Rules as on"
recomputes it and the sheet agrees with ``xl-fide report BOOK.xlsx`` for every value.

By hand (test_workbook_adjusted's event: 13–14 January 2024, One 1500 beats Two 1600,
K 20): as on 1 June 2024 Ro used is 1700 and 1760 (D 60: PD .42/.58, ±11.60 -> 1712,
1748); as on 1 December 2021 (rules before the adjustment; the native formulas cannot
express the 2022 rules of the start date itself) 1500 and 1600 (D 100: PD .36/.64,
±12.80 -> +13/−13: 1513, 1587).
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.harness import gnumeric
from tests.excel.test_workbook_lo import columns
from xl_fide.cli._main import main
from xl_fide.event.report import build_report
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS, EVENT, EVENT_ROW
from xl_fide.rules.editions import EventOptions
from xl_fide.trf import parse_trf, read_trf

DATA = Path(__file__).parents[1] / "data" / "trf"
GROS = DATA / "gros_2010_swiss_after_round4.trf"       # 52 players, 24 Sep 2010
JUNE_2024 = _dt.date(2024, 6, 1)
WINTER = ("012 Winter Open\n042 2024/01/13\n052 2024/01/14\n122 90 min + 30 s\n"
          "001    1 m    One, A                            1500 ESP        1001 1980"
          "        1.0    1     2 w 1\n"
          "001    2 m    Two, B                            1600 ESP        1002 1980"
          "        0.0    2     1 b 0\n")


def _written(t, formulas, tmp_path, name, **options):
    report = build_report(t, EventOptions(event_date=JUNE_2024, **options))
    return save_workbook(fill_workbook(report, formulas=formulas,
                                       rows=len(t.players) + 1),
                         tmp_path / f"{name}_{formulas}.xlsx")


def _with_rules_date(path, day, tmp_path, name):
    """The book with "Rules as on" set to ``day`` (None: cleared), as a user edits it."""
    wb = load_workbook(path)
    wb[EVENT].cell(EVENT_ROW["rules_date"], 2).value = day
    out = tmp_path / f"{name}.xlsx"
    wb.save(out)
    return out


def _report(path, capsys):
    """``xl-fide report BOOK.xlsx --format json``: start rank -> (new rating, K used,
    Ru)."""
    capsys.readouterr()
    assert main(["report", str(path), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {p["start_rank"]: (p["new_rating"], p["k"], p["initial_rating"])
            for p in doc["players"]}


def _number(v):
    """A NewRating cell's number: the rating, or the one in "not published: below 1400
    (1395)"; None for a blank cell."""
    if v in (None, ""):
        return None
    if isinstance(v, str):
        found = re.search(r"\((-?\d+)\)$", v)
        assert found, v
        return int(found.group(1))
    return int(v)


def _sheet(values, formulas_book, n):
    """Row i -> (new rating, K used, Ru) as the recalculated sheet shows them."""
    no, new, k, ru = columns(formulas_book, ("StartRank", "NewRating", "KUsed",
                                             "InitialRating"))
    ws = values[CROSS]
    out = {}
    for r in range(5, 5 + n):
        ru_v = ws.cell(r, ru).value
        out[ws.cell(r, no).value] = (_number(ws.cell(r, new).value),
                                     ws.cell(r, k).value or None,
                                     ru_v if isinstance(ru_v, (int, float)) else None)
    return out


def test_the_typed_ro_is_the_files_rating():
    # 31 of the 52 players of the event were written adjusted (e.g. 1531 -> 1719)
    t = read_trf(GROS)
    wb = fill_workbook(build_report(t, EventOptions(event_date=JUNE_2024)))
    ro, = columns(wb, ("Rating",))
    assert [wb[CROSS].cell(5 + i, ro).value for i in range(52)] == [p.rating for p in t.players]


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_ro_used_is_cached_adjusted(formulas, tmp_path):
    path = _written(parse_trf(WINTER, source="winter.trf"), formulas, tmp_path, "winter")
    wb = load_workbook(path, data_only=True)
    ro, used = columns(wb, ("Rating", "RatingUsed"))
    assert [(wb[CROSS].cell(r, ro).value, wb[CROSS].cell(r, used).value)
            for r in (5, 6)] == [(1500, 1700), (1600, 1760)]


#: NewRating by hand (module docstring) for "Rules as on" 1 December 2021, 1 June 2024
WINTER_NEW = {_dt.date(2021, 12, 1): [1513, 1587], JUNE_2024: [1712, 1748]}


@pytest.mark.parametrize("day", list(WINTER_NEW))
def test_gnumeric_recomputes_ro_used_by_hand(day, tmp_path):
    gnumeric.require()
    path = _written(parse_trf(WINTER, source="winter.trf"), "native", tmp_path, "winter")
    edited = _with_rules_date(path, day, tmp_path, "edited")
    values = gnumeric.recalc(edited, tmp_path / "gnumeric.xlsx")
    new, = columns(load_workbook(edited), ("NewRating",))
    assert [values[CROSS].cell(r, new).value for r in (5, 6)] == WINTER_NEW[day]


@pytest.mark.parametrize("day", [None, _dt.date(2010, 10, 1), JUNE_2024])
def test_gnumeric_sheet_equals_the_report_for_every_rules_date(day, tmp_path, capsys):
    gnumeric.require()
    path = _written(read_trf(GROS), "native", tmp_path, "gros")
    edited = _with_rules_date(path, day, tmp_path, "edited")
    values = gnumeric.recalc(edited, tmp_path / "gnumeric.xlsx")
    sheet = _sheet(values, load_workbook(edited), 52)
    report = _report(edited, capsys)
    assert {k: v for k, v in sheet.items() if v != report[k]} == {}


@pytest.mark.parametrize("formulas", ["udf", "native"])
@pytest.mark.parametrize("day", [None, _dt.date(2010, 10, 1)])
def test_libreoffice_sheet_equals_the_report_for_every_rules_date(office, formulas, day,
                                                                  tmp_path, capsys):
    path = _written(read_trf(GROS), formulas, tmp_path, "gros")
    edited = _with_rules_date(path, day, tmp_path, "edited")
    office.recalc(edited, tmp_path / "lo.xlsx")
    values = load_workbook(tmp_path / "lo.xlsx", data_only=True)
    sheet = _sheet(values, load_workbook(edited), 52)
    report = _report(edited, capsys)
    assert {k: v for k, v in sheet.items() if v != report[k]} == {}
