"""Workbook templates, filling and reading back (openpyxl only; the LibreOffice
recalculation of the same workbooks is in test_workbook_lo.py).

Small events built in code (hand-computed values in comments, from the reference §9):

* ``rr_example``: 4-player round robin, everyone K 10. Player 1 (2000): W vs 1950
  (PD .57), L vs 2050 (PD .43), D vs 1810 (PD .75): ΣPD 1.75, W 1.5, ΣΔR -.25,
  K x ΣΔR = -2.50 -> -3 -> 1997.
* ``rr_pair``: 1892 (junior, K 40) beats 2022 (K 20): D 130, PD .32 / .68:
  +27.20 -> +27 -> 1919 and -13.60 -> -14 -> 2008.
* ``swiss_example``: an unrated player draws five 1400s: Ru = Ra + dp(p) with two
  hypothetical 1800 draws: (7000 + 3600) / 7 = 1514.29, p = 3.5 / 7 = .50 -> 1514.
  In round 6 player 4 (1400, K 20) beats player 5 (1400): +10.00 -> +10 and -10;
  a forfeit (2 vs 3) and byes (H, F) count as points only.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.formula import Tokenizer
from openpyxl.utils import FORMULAE, range_boundaries
from openpyxl.worksheet.formula import ArrayFormula

from tests.harness.excel_limits import sheet_rows
from xl_fide.rules.editions import EventOptions
from xl_fide import udfs
from xl_fide.errors import InputError, OutputExistsError, WorkbookError, XlFideError
from xl_fide.event.report import build_report
from xl_fide.cli._presenters import row_dict
from xl_fide.rules.tables import dp_rows, pd_rows
from xl_fide.trf import read_trf, write_trf
from xl_fide.tournament import Game, Tournament, TrfPlayer
from xl_fide.excel._layout import CROSS, DEFAULT_TEMPLATES, EVENT, EVENT_ROW, NATIVE_TEMPLATES, REPORT, TABLES
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import choose_layout, fill_workbook, save_workbook, write_default_templates
from xl_fide.excel._read import read_workbook

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
TRF_FILES = sorted((Path(__file__).parents[1] / "data" / "trf").glob("*.trf"))
UDF_NAMES = set(udfs.__all__)
REQUIRED_NAMES = ("StartRank", "PlayerName", "Rating", "KFactor", "RatedGames", "RatedScore",
                  "Expected", "Change", "RatingChange", "NewRating", "Performance")
NASTY_NAMES = ('=HYPERLINK("http://example.com","click")', "+CM Smith", "-x", "@me")


# ----------------------------------------------------------------------------- events

def _round_robin(ratings, results, *, name="Example RR", births=None,
                 date="2025/11/01", names=None):
    """A single round robin; ``results[(i, j)]`` is i's TRF code against j (i < j)."""
    n = len(ratings)
    comp = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
    ids = list(range(1, n + 1)) + ([0] if n % 2 else [])
    m = len(ids)
    games = {i: [] for i in range(1, n + 1)}
    for rnd in range(1, m):
        r = rnd - 1
        pairs = [(ids[-1], ids[r])] + [(ids[(r + k) % (m - 1)], ids[(r - k) % (m - 1)])
                                       for k in range(1, m // 2)]
        for a, b in pairs:
            if 0 in (a, b):
                games[a or b].append(Game(rnd, None, None, "Z"))
                continue
            code = results[(a, b)] if (a, b) in results else comp[results[(b, a)]]
            games[a].append(Game(rnd, b, "w", code))
            games[b].append(Game(rnd, a, "b", comp[code]))
    players = [TrfPlayer(start_rank=i, name=(names or {}).get(i, f"Player {i}"),
                         rating=ratings[i - 1], federation="SUI",
                         birth_year=(births or {}).get(i, 1980), games=tuple(games[i]))
               for i in range(1, n + 1)]
    return Tournament.build(name=name, players=players, city="Basel", start_date=date,
                            time_control="90 min + 30 s")


def rr_example():
    return _round_robin([2000, 1950, 2050, 1810],
                        {(1, 2): "1", (1, 3): "0", (1, 4): "=", (2, 3): "=", (2, 4): "1",
                         (3, 4): "0"})


def rr_pair():
    return _round_robin([1892, 2022], {(1, 2): "1"}, births={1: 2010}, name="Pair")


def swiss_example():
    """6 players, 6 rounds: player 1 unrated draws 2..6 in rounds 1-5 (see module doc)."""
    rated = [2, 3, 4, 5, 6]
    games = {i: [] for i in range(1, 7)}
    for rnd in range(1, 6):
        opp = rated[rnd - 1]
        games[1].append(Game(rnd, opp, "w" if rnd % 2 else "b", "="))
        games[opp].append(Game(rnd, 1, "b" if rnd % 2 else "w", "="))
        rest = [p for p in rated if p != opp]
        for a, b in ((rest[0], rest[1]), (rest[2], rest[3])):
            games[a].append(Game(rnd, b, "w", "="))
            games[b].append(Game(rnd, a, "b", "="))
    games[1].append(Game(6, None, None, "H"))
    games[2].append(Game(6, 3, "w", "+"))
    games[3].append(Game(6, 2, "b", "-"))
    games[4].append(Game(6, 5, "w", "1"))
    games[5].append(Game(6, 4, "b", "0"))
    games[6].append(Game(6, None, None, "F"))
    players = [TrfPlayer(start_rank=i, name=f"Player {i}", rating=None if i == 1 else 1400,
                         birth_year=1980, games=tuple(games[i])) for i in range(1, 7)]
    return Tournament.build(name="Example Swiss", players=players, rounds=6,
                            start_date=_dt.date(2025, 11, 1), time_control="90 min + 30 s")


def nasty_names_event():
    return _round_robin([2000, 1950, 2050, 1810],
                        {(1, 2): "1", (1, 3): "0", (1, 4): "=", (2, 3): "=", (2, 4): "1",
                         (3, 4): "0"},
                        names=dict(enumerate(NASTY_NAMES, 1)), name="=cmd|' /C calc'!A0")


# ----------------------------------------------------------------------------- helpers

def formula_text(cell):
    v = cell.value
    return v.text if isinstance(v, ArrayFormula) else v


def function_names(formula):
    return {t.value[:-1].upper() for t in Tokenizer(formula).items
            if t.type == "FUNC" and t.subtype == "OPEN"}


def lint(wb):
    """Every function in cell, conditional-format and validation formulas must be an
    Excel function as Excel stores it (Excel 2007 name or _xlfn.) or one of our UDFs."""
    problems = []
    for ws in wb.worksheets:
        formulas = []
        for row in sheet_rows(ws):
            for c in row:
                f = formula_text(c)
                if c.data_type == "f" and isinstance(f, str):
                    formulas.append((c.coordinate, f))
        for cf in ws.conditional_formatting:
            for rule in cf.rules:
                formulas += [(f"CF {cf.sqref}", "=" + f) for f in rule.formula]
        for dv in ws.data_validations.dataValidation:
            for f in (dv.formula1, dv.formula2):
                if f and not f.startswith('"'):
                    formulas.append((f"DV {dv.sqref}", "=" + f))
        for where, f in formulas:
            for name in function_names(f):
                if not (name.startswith("_XLFN.") or name in FORMULAE or name in UDF_NAMES):
                    problems.append(f"{ws.title}!{where}: {name}")
    return problems


def signature(wb):
    """What a template is made of, comparable across two saves (not the zip bytes)."""
    out = {"names": {n: d.attr_text for n, d in wb.defined_names.items()},
           "sheets": wb.sheetnames}
    for ws in wb.worksheets:
        cells = {}
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                if isinstance(v, ArrayFormula):
                    v = ("array", v.ref, v.text)
                if v is not None or c.has_style:
                    cells[c.coordinate] = (v, c.data_type, c.number_format, c.protection.locked,
                                           c.fill.fgColor.rgb, c.font.b)
        out[ws.title] = {
            "cells": cells,
            "merged": sorted(str(r) for r in ws.merged_cells.ranges),
            "validations": sorted((str(dv.sqref), dv.type, dv.formula1, dv.formula2, dv.prompt)
                                  for dv in ws.data_validations.dataValidation),
            "cf": sorted((str(cf.sqref), tuple(r.formula), r.priority)
                         for cf in ws.conditional_formatting for r in cf.rules),
            "freeze": ws.freeze_panes,
            "widths": {k: v.width for k, v in ws.column_dimensions.items()},
            "protected": ws.protection.sheet,
            "print": (ws.print_title_rows, ws.print_title_cols, ws.page_setup.orientation,
                      ws.page_setup.fitToWidth, ws.page_setup.fitToHeight),
        }
    return out


def saved(wb, tmp_path, name="book.xlsx"):
    path = tmp_path / name
    save_workbook(wb, path, force=True)
    return path


def reloaded(wb, tmp_path, name="book.xlsx"):
    return load_workbook(saved(wb, tmp_path, name))


def name_range(wb, name):
    sheet, ref = wb.defined_names[name].attr_text.split("!")
    return sheet.strip("'"), range_boundaries(ref.replace("$", ""))


# ----------------------------------------------------------------------------- templates

@pytest.mark.parametrize("filename", sorted(DEFAULT_TEMPLATES))
def test_committed_templates_are_what_the_code_builds(filename, tmp_path):
    committed = TEMPLATES / filename
    assert committed.is_file(), f"run: python -m xl_fide.excel._layout templates  ({filename} missing)"
    layout, players, rounds = DEFAULT_TEMPLATES[filename]
    built = reloaded(build_template(layout, players, rounds), tmp_path)
    assert signature(load_workbook(committed)) == signature(built), (
        f"{committed} is stale: regenerate with  python -m xl_fide.excel._layout templates")


def test_write_default_templates(tmp_path):
    paths = write_default_templates(tmp_path)
    assert sorted(p.name for p in paths) == sorted([*DEFAULT_TEMPLATES, *NATIVE_TEMPLATES])
    assert all(p.stat().st_size > 0 for p in paths)


@pytest.mark.parametrize("layout,players,rounds", [("roundrobin", 10, 9), ("swiss", 60, 9),
                                                   ("swiss", 7, 1), ("roundrobin", 2, 1)])
def test_template_structure(layout, players, rounds, tmp_path):
    wb = reloaded(build_template(layout, players, rounds), tmp_path)
    assert wb.sheetnames == [CROSS, EVENT, TABLES, "Help", "xlwings.conf"]
    assert lint(wb) == []
    conf = wb["xlwings.conf"]
    assert (conf["A1"].value, conf["B1"].value) == ("UDF Modules", "xl_fide.udfs")
    # defined names: each a single column over exactly the players' rows
    for name in REQUIRED_NAMES:
        sheet, (c1, r1, c2, r2) = name_range(wb, name)
        assert (sheet, c1 == c2, r1, r2) == (CROSS, True, 5, 4 + players), name
    ws = wb[CROSS]
    # the rating block, the K and Ro used columns are array formulas over the exact
    # ranges, and they are the only UDF calls of the sheet (one per block, whatever the size)
    udf_cells = {c.coordinate: formula_text(c) for row in ws.iter_rows() for c in row
                 if isinstance(formula_text(c), str) and "FIDE_" in formula_text(c)}
    assert len(udf_cells) == 3
    arrays = {c.value.ref: c.value.text for row in ws.iter_rows() for c in row
              if isinstance(c.value, ArrayFormula) and "FIDE_" in c.value.text}
    _, (kc, _, _, _) = name_range(wb, "KRule")
    _, (nc, _, _, _) = name_range(wb, "RatedGames")
    _, (ruc, _, _, _) = name_range(wb, "OpponentAverage")     # Rc, the block's last column
    L = ws.cell(1, kc).column_letter
    assert arrays[f"{L}5:{L}{4 + players}"].startswith("=FIDE_K(")
    _, (uc, _, _, _) = name_range(wb, "RatingUsed")
    U = ws.cell(1, uc).column_letter
    assert arrays[f"{U}5:{U}{4 + players}"].startswith("=FIDE_ADJUST_2024(")
    block = f"{ws.cell(5, nc).column_letter}5:{ws.cell(5, ruc).column_letter}{4 + players}"
    assert arrays[block].startswith("=FIDE_EVENT(" if layout == "roundrobin"
                                    else "=FIDE_EVENT_SWISS(")
    # the event's time control and start date go to the UDFs
    assert all(f"{EVENT}!$B${EVENT_ROW['tc_arg']}" in t and f"{EVENT}!$B${EVENT_ROW['date_arg']}"
               in t for t in arrays.values() if not t.startswith("=FIDE_ADJUST_2024("))
    # Ro used: the typed Ro of a list of the start date, as the rules of the date read it
    assert arrays[f"{U}5:{U}{4 + players}"] == (
        f"=FIDE_ADJUST_2024($F$5:$F${4 + players},{EVENT}!$B${EVENT_ROW['start']},"
        f"{EVENT}!$B${EVENT_ROW['date_arg']})")
    # protection: formula cells locked, input cells unlocked, no password
    assert ws.protection.sheet and not ws.protection.password
    _, (rc, _, _, _) = name_range(wb, "Rating")
    _, (ko, _, _, _) = name_range(wb, "KOverride")
    _, (cc, _, _, _) = name_range(wb, "Change")
    assert not ws.cell(5, rc).protection.locked and not ws.cell(5, ko).protection.locked
    assert ws.cell(5, kc).protection.locked and ws.cell(5, cc).protection.locked
    assert ws.cell(5, cc).number_format == "+0.00;[Red]-0.00;0.00"      # K x ΣΔR: 2 decimals
    # print setup and panes
    assert ws.page_setup.orientation == "landscape"
    # 65 % over several pages (issues 10, 34: 11 pt text at 7.15 pt), a small event one
    # page wide (issue 20, #7)
    if ws.sheet_properties.pageSetUpPr.fitToPage:
        assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 0)
    else:
        assert int(ws.page_setup.scale) == 65
    assert ws.print_title_rows == "$3:$4"
    assert ws.freeze_panes == "D5"
    assert ws.merged_cells.ranges
    if layout == "roundrobin":       # diagonal shaded and locked, validation on the grid
        _, (g1, _, g2, _) = name_range(wb, "Results")
        assert g2 - g1 + 1 == players
        assert ws.cell(5, g1).protection.locked and not ws.cell(5, g1 + 1).protection.locked
        assert ws.cell(5, g1).fill.fgColor.rgb.endswith("808080")
        lists = [dv for dv in ws.data_validations.dataValidation if dv.type == "list"
                 and "½" in (dv.formula1 or "")]
        assert lists and lists[0].prompt and lists[0].showInputMessage


def test_tables_sheet_is_written_from_the_engine(tmp_path):
    wb = reloaded(build_template("roundrobin", 4), tmp_path)
    ws = wb[TABLES]
    pd = [(ws.cell(r, 1).value, ws.cell(r, 2).value, round(ws.cell(r, 3).value * 100))
          for r in range(5, 5 + len(pd_rows()))]
    assert pd == [(lo, hi if hi is not None else "and above", H) for lo, hi, H in pd_rows()]
    dp = [(round(ws.cell(r, 6).value * 100), ws.cell(r, 7).value)
          for r in range(5, 5 + len(dp_rows()))]
    assert dp == dp_rows()


def test_bad_sizes():
    with pytest.raises(InputError, match="at most 60"):
        build_template("roundrobin", 61)
    with pytest.raises(InputError, match="layout"):
        build_template("knockout", 8, 3)
    with pytest.raises(InputError, match="rounds"):
        build_template("swiss", 8, 0)


# ----------------------------------------------------------------------------- fill

def test_layout_choice():
    assert choose_layout(rr_example()) == "roundrobin"
    assert choose_layout(swiss_example()) == "swiss"
    assert all(choose_layout(read_trf(f)) == ("roundrobin" if f.stem.startswith("roundrobin")
                                               else "swiss") for f in TRF_FILES)
    with pytest.raises(InputError, match="round robin"):
        fill_workbook(build_report(swiss_example()), layout="roundrobin")


def test_fill_round_robin(tmp_path):
    t = rr_example()
    report = build_report(t, EventOptions(k=10))
    wb = reloaded(fill_workbook(report, rows=6), tmp_path)
    assert wb.sheetnames[:3] == [CROSS, EVENT, REPORT]
    assert lint(wb) == []
    ws = wb[CROSS]
    _, (g1, _, _, _) = name_range(wb, "Results")
    assert [ws.cell(5, g1 + j).value for j in range(4)] == [None, 1, 0, "½"]
    assert [ws.cell(6, g1 + j).value for j in range(4)] == [0, None, "½", 1]
    _, (ko, _, _, _) = name_range(wb, "KOverride")
    assert [ws.cell(r, ko).value for r in range(5, 11)] == [10, 10, 10, 10, None, None]
    ev = wb[EVENT]
    assert ev.cell(EVENT_ROW["start"], 2).value.date() == _dt.date(2025, 11, 1)
    assert ev.cell(EVENT_ROW["tc"], 2).value == "standard"
    # the Report sheet: plain values from the engine, labelled
    rep = wb[REPORT]
    assert "computed by xl-fide" in rep["A2"].value and CROSS in rep["A2"].value
    header = [c.value for c in rep[5]]
    p1 = dict(zip(header, [c.value for c in rep[6]]))
    assert (p1["ΣPD"], p1["K×ΣΔR"], p1["Δ"], p1["New"]) == (1.75, -2.5, -3, 1997)
    assert all(c.data_type != "f" for row in rep.iter_rows() for c in row)


def test_fill_swiss(tmp_path):
    t = swiss_example()
    wb = reloaded(fill_workbook(build_report(t), rows=8, rounds=7), tmp_path)
    assert lint(wb) == []
    ws = wb[CROSS]
    header = [c.value for c in ws[4]]
    first_opp = header.index("Opp") + 1
    # round 1 of player 1: opponent 2, white, draw; round 6: bye H
    assert [ws.cell(5, first_opp + k).value for k in range(3)] == [2, "w", "½"]
    assert [ws.cell(5, first_opp + 15 + k).value for k in range(3)] == [None, None, "H"]
    assert [ws.cell(6, first_opp + 15 + k).value for k in range(3)] == [3, "w", "+"]
    assert [ws.cell(7, first_opp + 15 + k).value for k in range(3)] == [2, "b", "-"]
    rep = wb[REPORT]
    head = [c.value for c in rep[5]]
    rows = [dict(zip(head, [c.value for c in r])) for r in rep.iter_rows(min_row=6, max_row=11)]
    assert rows[0]["Ru"] == 1514 and rows[0]["Ro"] is None
    assert (rows[3]["K×ΣΔR"], rows[3]["Δ"], rows[4]["Δ"]) == (10, 10, -10)


@pytest.mark.parametrize("trf", TRF_FILES, ids=lambda p: p.stem)
def test_fill_from_trf_and_read_back(trf, tmp_path):
    t = read_trf(trf)
    report = build_report(t)
    wb = fill_workbook(report)
    path = saved(wb, tmp_path, "event.xlsx")
    assert lint(load_workbook(path)) == []
    # K set holds the report's K only where it did not come from the K rule (which the
    # sheet's FIDE_K column computes live); the LibreOffice tests check the live values
    ws = load_workbook(path, read_only=True)[CROSS]
    kcol = [c.value for c in next(ws.iter_rows(min_row=4, max_row=4))].index("K set")
    ks = [r[kcol] for r in ws.iter_rows(min_row=5, max_row=4 + len(t.players), values_only=True)]
    assert ks == [row.result.K_given if row.k_source not in ("rating", "rating and birth year")
                  else None for row in report.rows]
    # read back: the same report as from the TRF, and a TRF can be written
    back = read_workbook(path)
    again = build_report(back)
    assert [row_dict(r) for r in again.rows] == [row_dict(r) for r in report.rows]
    assert (again.edition.id, again.time_control, again.event_date) == (
        report.edition.id, report.time_control, report.event_date)
    assert write_trf(back) == write_trf(t)          # nothing edited: the same TRF


@pytest.mark.parametrize("make", [rr_example, rr_pair, swiss_example])
def test_read_back_events_built_in_code(make, tmp_path):
    t = make()
    path = saved(fill_workbook(build_report(t), rows=len(t.players) + 2), tmp_path)
    back = read_workbook(path)
    assert [row_dict(r) for r in build_report(back).rows] == [
        row_dict(r) for r in build_report(t).rows]
    assert [back.score(p) for p in back.players] == [t.score(p) for p in t.players]
    assert write_trf(back) == write_trf(t)


def test_text_that_looks_like_a_formula_stays_text(tmp_path):
    t = nasty_names_event()
    path = saved(fill_workbook(build_report(t)), tmp_path)
    wb = load_workbook(path)
    ws = wb[CROSS]
    cells = [ws.cell(r, 3) for r in range(5, 9)]
    assert [c.value for c in cells] == list(NASTY_NAMES)
    assert all(c.data_type == "s" for c in cells)
    assert wb[EVENT].cell(EVENT_ROW["name"], 2).data_type == "s"
    assert all(c.data_type == "s" for c in wb[REPORT]["C"][5:9])
    assert [p.name for p in read_workbook(path).players] == list(NASTY_NAMES)


# ----------------------------------------------------------------------------- save

def test_save_refuses_to_overwrite_and_leaves_no_partial_file(tmp_path, monkeypatch):
    wb = build_template("roundrobin", 4)
    path = tmp_path / "out.xlsx"
    save_workbook(wb, path)
    before = path.read_bytes()
    with pytest.raises(OutputExistsError, match="exists") as exc:
        save_workbook(wb, path)
    assert isinstance(exc.value, XlFideError) and isinstance(exc.value, FileExistsError)
    assert path.read_bytes() == before
    save_workbook(wb, path, force=True)
    assert oct(path.stat().st_mode & 0o777) != "0o600"

    def boom(self):                       # openpyxl fails half-way through its parts
        self._archive.writestr("partial", b"partial")   # (save_workbook builds in memory)
        raise OSError("disk full")

    from openpyxl.writer.excel import ExcelWriter
    monkeypatch.setattr(ExcelWriter, "write_data", boom)
    with pytest.raises(OSError, match="disk full"):
        save_workbook(wb, tmp_path / "new.xlsx")
    with pytest.raises(OSError):
        save_workbook(wb, path, force=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xlsx"]
    assert path.read_bytes() != b"partial"


# ----------------------------------------------------------------------------- read errors

def _edit(path, sheet, coord, value):
    wb = load_workbook(path)
    wb[sheet][coord] = value
    wb.save(path)


def test_read_errors_name_sheet_and_cell(tmp_path):
    path = saved(fill_workbook(build_report(rr_example())), tmp_path)
    wb = load_workbook(path)
    _, (g1, _, _, _) = name_range(wb, "Results")
    col = wb[CROSS].cell(1, g1 + 1).column_letter
    _edit(path, CROSS, f"{col}5", "x")
    with pytest.raises(WorkbookError, match=rf"Crosstable!{col}5: result must be .* got 'x'"):
        read_workbook(path)
    _edit(path, CROSS, f"{col}5", "½")            # 1 vs 2 = ½ but 2 vs 1 = 0
    with pytest.raises(WorkbookError, match=rf"Crosstable!{col}5: player 1 and player 2: results '½' and '0' do not match"):
        read_workbook(path)
    _edit(path, CROSS, f"{col}5", 1)
    _edit(path, CROSS, "F5", 2000.5)
    with pytest.raises(WorkbookError, match="Crosstable!F5: rating Ro must be a whole number"):
        read_workbook(path)
    _edit(path, CROSS, "F5", 2000)
    assert len(read_workbook(path).players) == 4
    swiss = saved(fill_workbook(build_report(swiss_example())), tmp_path, "swiss.xlsx")
    _edit(swiss, CROSS, "M5", 9)
    with pytest.raises(WorkbookError, match="Crosstable!M5: opponent must be a whole number"):
        read_workbook(swiss)
    other = tmp_path / "other.xlsx"
    from openpyxl import Workbook
    Workbook().save(other)
    with pytest.raises(WorkbookError, match="no sheet 'Event'"):
        read_workbook(other)
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"not a zip")
    with pytest.raises(WorkbookError, match="not an .xlsx"):
        read_workbook(bad)


def test_engine_does_not_import_openpyxl():
    import subprocess
    import sys
    code = ("import sys, xl_fide, xl_fide.event.report, xl_fide.trf, xl_fide.rules.event; "
            "print('openpyxl' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
