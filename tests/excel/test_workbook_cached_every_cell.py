"""Every formula cell carries its value (issue 20, #4): the helper sheet of the native
formulas, the Check columns (and the hidden per-round checks), the round robin's
Sonneborn-Berger and Rank, and the blank templates, as well as the rating block.

A reader that does not calculate (python-calamine) finds a value in every formula cell;
recalculated by a spreadsheet (Gnumeric for native workbooks, LibreOffice with the add-in
for FIDE_* workbooks), every cell shows the value that was cached: numbers equal, text
equal, "" and blank alike.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree as ET

import pytest
from openpyxl import load_workbook
from openpyxl.utils import range_boundaries

from tests.harness import gnumeric
from tests.excel.test_workbook import TRF_FILES
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.event.report import build_report
from xl_fide.rules.editions import EventOptions
from xl_fide.trf import read_trf
from xl_fide.excel._fence import book_state

calamine = pytest.importorskip("python_calamine")

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
TRFS = ("mini_trf2026", "roundrobin_12_synthetic", "gros_2010_swiss_after_round4",
        "san_viator_2018_swiss")
TEMPLATES = (("roundrobin", 5, None), ("swiss", 6, 4))


def _filled(name, formulas, tmp_path):
    t = read_trf(next(p for p in TRF_FILES if p.stem == name))
    wb = fill_workbook(build_report(t, EventOptions()), formulas=formulas,
                       rows=len(t.players) + 1)
    return save_workbook(wb, tmp_path / f"{name}_{formulas}.xlsx")


def _template(layout, players, rounds, formulas, tmp_path):
    return save_workbook(build_template(layout, players, rounds, formulas=formulas),
                         tmp_path / f"{layout}_{formulas}.xlsx")


def formula_cells(path):
    """{sheet: {A1 of every cell that holds a formula or lies in an array formula's range}}
    (found with openpyxl)."""
    out = {}
    for ws in load_workbook(path).worksheets:
        cells = set()
        for row in ws.iter_rows():
            for c in row:
                if c.data_type != "f":
                    continue
                ref = getattr(c.value, "ref", None) or c.coordinate
                c1, r1, c2, r2 = range_boundaries(ref if ":" in ref else f"{ref}:{ref}")
                cells |= {ws.cell(r, k).coordinate for r in range(r1, r2 + 1)
                          for k in range(c1, c2 + 1)}
        if cells:
            out[ws.title] = cells
    return out


def _saved_cells(path):
    """{sheet: {A1: (t attribute, text of <v> or None)}} as the package holds them."""
    pkg = zipfile.ZipFile(path)
    book = load_workbook(path, read_only=True)
    titles = book.sheetnames
    book.close()
    out = {}
    for i, title in enumerate(titles, 1):
        root = ET.fromstring(pkg.read(f"xl/worksheets/sheet{i}.xml"))
        out[title] = {}
        for c in root.iter(f"{_MAIN}c"):
            v = c.find(f"{_MAIN}v")
            out[title][c.get("r")] = (c.get("t"), None if v is None else v.text)
    return out


def without_value(path):
    """The formula cells whose saved XML holds no value (an empty ``<v/>`` that is not
    the empty text ``t="str"``), per sheet."""
    saved = _saved_cells(path)
    out = {}
    for title, cells in formula_cells(path).items():
        missing = sorted(ref for ref in cells
                         if not (saved[title].get(ref, (None, None))[1]
                                 or saved[title].get(ref, (None, None))[0] == "str"))
        if missing:
            out[title] = missing
    return out


def cached(path):
    """{(sheet, A1): value} of every formula cell as calamine reads it (no calculation);
    an error value (which calamine reads as "") as its text from the package."""
    book = calamine.CalamineWorkbook.from_path(str(path))
    saved = _saved_cells(path)
    out = {}
    for title, cells in formula_cells(path).items():
        rows = book.get_sheet_by_name(title).to_python(skip_empty_area=False)
        for ref in cells:
            c1, r1, _, _ = range_boundaries(f"{ref}:{ref}")
            row = rows[r1 - 1] if r1 - 1 < len(rows) else []
            out[(title, ref)] = row[c1 - 1] if c1 - 1 < len(row) else None
            t, text = saved[title].get(ref, (None, None))
            if t == "e":
                out[(title, ref)] = text
    return out


def _same(a, b):
    if a in (None, "") and b in (None, ""):
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 1e-9
    if hasattr(a, "year") and hasattr(b, "year"):
        return a.timetuple()[:3] == b.timetuple()[:3]
    return str(a) == str(b)


#: INDEX of a blank cell: 0 in LibreOffice and Excel (the cached value), blank in Gnumeric.
#: K3 of a helper sheet (Calc, and Calc M1... of an event over 30 days) is its message
#: switch, blank for every native edition.
BLANK_INDEX = {("Calc", "K3")}


def _blank_index(key):
    return key in BLANK_INDEX or (key[0].startswith("Calc M") and key[1] == "K3")


def _differences(path, recalculated, *, blank_index_is_blank=False,
                 dateless_template=False):
    """{(sheet, A1): (cached, recalculated)} where they differ."""
    out = {k: (v, recalculated[k[0]][k[1]].value) for k, v in cached(path).items()
           if not _same(v, recalculated[k[0]][k[1]].value)}
    if dateless_template:       # YEAR(TODAY()): cached as the year the template was built
        out.pop(("Calc", "J3"), None)
    if blank_index_is_blank:
        out = {k: v for k, v in out.items() if not (_blank_index(k) and v == (0, None))}
    return out


@pytest.mark.parametrize("formulas", ["udf", "native"])
@pytest.mark.parametrize("name", TRFS)
def test_every_formula_cell_of_a_filled_workbook_has_a_value(name, formulas, tmp_path):
    path = _filled(name, formulas, tmp_path)
    # every sheet, the hidden per-month helper sheets ("Calc M1", ...) of a native event
    # over 30 days (san_viator_2018_swiss: April and May) included
    assert without_value(path) == {}
    assert sum(1 for v in cached(path).values() if v not in (None, "")) > 50


@pytest.mark.parametrize("formulas", ["udf", "native"])
@pytest.mark.parametrize("layout, players, rounds", TEMPLATES)
def test_every_formula_cell_of_a_template_has_a_value(layout, players, rounds, formulas,
                                                      tmp_path):
    assert without_value(_template(layout, players, rounds, formulas, tmp_path)) == {}


@pytest.mark.parametrize("source", ["mini_trf2026", "roundrobin_12_synthetic", "swiss",
                                    "roundrobin"])
def test_gnumeric_computes_the_cached_values_native(source, tmp_path):
    gnumeric.require()
    if source in TRFS:
        path = _filled(source, "native", tmp_path)
    else:
        layout, players, rounds = next(t for t in TEMPLATES if t[0] == source)
        path = _template(layout, players, rounds, "native", tmp_path)
    values = gnumeric.recalc(path, tmp_path / "gnumeric.xlsx")
    assert _differences(path, values, blank_index_is_blank=True,
                        dateless_template=source not in TRFS) == {}


@pytest.mark.parametrize("source, formulas", [
    ("gros_2010_swiss_after_round4", "udf"), ("roundrobin_12_synthetic", "udf"),
    ("swiss", "udf"), ("roundrobin", "udf"), ("mini_trf2026", "native"),
    ("roundrobin", "native")])
def test_libreoffice_computes_the_cached_values(office, source, formulas, tmp_path):
    if source in TRFS:
        path = _filled(source, formulas, tmp_path)
    else:
        layout, players, rounds = next(t for t in TEMPLATES if t[0] == source)
        path = _template(layout, players, rounds, formulas, tmp_path)
    office.recalc(path, tmp_path / "lo.xlsx")
    assert len(cached(path)) > 100
    assert _differences(path, load_workbook(tmp_path / "lo.xlsx", data_only=True),
                        dateless_template=source not in TRFS) == {}


def test_the_saved_package_is_well_formed(tmp_path):
    path = _template("swiss", 6, 4, "native", tmp_path)
    for name in zipfile.ZipFile(path).namelist():
        if name.endswith(".xml"):
            ET.parse(io.BytesIO(zipfile.ZipFile(path).read(name)))


def _typed(ws, r, c, value):
    cell = ws.cell(r, c)
    cell.value = value
    if isinstance(value, str):
        cell.data_type = "s"            # "=" is a draw, not a formula


def _typed_in_template(start, tc):
    """A native Swiss template typed in by hand: a player over 2650, a junior, an unrated
    player, a rating under the floor, a blank row, a bye, and one game whose two sides
    disagree (both claim the win: Check > 0, the rating cells show #N/A)."""
    from xl_fide.excel._layout import CROSS, EVENT, EVENT_ROW
    wb = build_template("swiss", 6, 3, formulas="native")
    geo = book_state(wb)["geo"]
    ev = wb[EVENT]
    ev.cell(EVENT_ROW["start"], 2).value = start
    _typed(ev, EVENT_ROW["tc"], 2, tc)
    ws = wb[CROSS]
    players = [("A", 2700, 1990, 100), ("B", 1500, 2012, None), ("C", None, 1980, None),
               ("D", 1390, 1970, 50), ("E", 2000, 1985, 12)]
    for i, (name, ro, born, games) in enumerate(players):
        r = geo.first + i
        _typed(ws, r, geo.col["name"], name)
        for key, v in (("ro", ro), ("born", born), ("games", games)):
            if v is not None:
                ws.cell(r, geo.col[key]).value = v
    rounds = {1: [(1, 2, "w", "1", "0"), (3, 5, "w", "=", "=")],
              2: [(1, 3, "b", "0", "1"), (2, 5, "w", "1", "1")],
              3: [(1, 5, "w", "1", "0"), (3, 2, "b", "½", "½"), (4, None, None, "U", None)]}
    for k, games in rounds.items():
        for a, b, colour, ra, rb in games:
            ra_row = geo.first + a - 1
            if b is not None:
                ws.cell(ra_row, geo.round_col(k, "opp")).value = b
                ws.cell(geo.first + b - 1, geo.round_col(k, "opp")).value = a
                _typed(ws, ra_row, geo.round_col(k, "col"), colour)
                _typed(ws, geo.first + b - 1, geo.round_col(k, "col"),
                       "b" if colour == "w" else "w")
                _typed(ws, geo.first + b - 1, geo.round_col(k, "res"), rb)
            _typed(ws, ra_row, geo.round_col(k, "res"), ra)
    return wb


TYPED = [("2025-06-01", "standard"), ("2023-06-01", "standard"), ("2025-06-01", "rapid")]


@pytest.mark.parametrize("start, tc", TYPED)
def test_a_template_typed_in_by_hand_caches_what_the_spreadsheets_compute(start, tc, office,
                                                                           tmp_path):
    import datetime as dt
    path = save_workbook(_typed_in_template(dt.date.fromisoformat(start), tc),
                         tmp_path / "typed.xlsx")
    assert without_value(path) == {}
    office.recalc(path, tmp_path / "lo.xlsx")
    assert _differences(path, load_workbook(tmp_path / "lo.xlsx", data_only=True)) == {}
    gnumeric.require()
    values = gnumeric.recalc(path, tmp_path / "gnumeric.xlsx")
    assert _differences(path, values, blank_index_is_blank=True) == {}


# ---------------------------------------------------------- events over 30 days, native

def _long_rich() -> str:
    """Six players, rounds on 5 and 19 Oct, 2 and 16 Nov 2025 (42 days: rated month by
    month): a 2450 (K 10), a junior under 1400 after October (not published: unrated in
    November), an unrated player (no Ru in October, rated games in November), forfeits
    both ways, a draw, a blank row below."""
    from tests.harness.trf_lines import player_line, trf
    pairs = {1: [(1, 2, "1", "0"), (3, 4, "0", "1"), (5, 6, "1", "0")],
             2: [(1, 3, "1", "0"), (2, 5, "+", "-"), (4, 6, "0", "1")],
             3: [(4, 1, "0", "1"), (2, 6, "=", "="), (3, 5, "0", "1")],
             4: [(5, 1, "=", "="), (2, 3, "1", "0"), (4, 6, "-", "+")]}
    games = {i: [] for i in range(1, 7)}
    for rnd in sorted(pairs):
        for w, b, rw, rb in pairs[rnd]:
            games[w].append((b, "w", rw))
            games[b].append((w, "b", rb))
    who = [("A", 2450, ""), ("B", 1950, ""), ("C", 1401, "2011"), ("D", None, ""),
           ("E", 1600, "2012"), ("F", 1800, "1970")]
    players = [player_line(i, name, ro, birth=born, rounds=games[i])
               for i, (name, ro, born) in enumerate(who, 1)]
    head = {"012": "Long rich", "042": "2025/10/05", "052": "2025/11/16", "122": "90 min"}
    return trf(head, players, ["132" + " " * 88 + "25/10/05  25/10/19  25/11/02  25/11/16"])


def _long_native(event, tmp_path):
    from tests.excel.test_workbook_months import below_the_floor, long_event
    from xl_fide.trf import parse_trf
    if event == "league":       # 24 players, 9 rounds Sep 2025 - Jan 2026: five months
        t = read_trf(next(p for p in TRF_FILES if p.stem == "synthetic_league_5_months"))
    else:
        text = {"long": long_event, "floor": below_the_floor, "rich": _long_rich}[event]()
        t = parse_trf(text, source=f"{event}.trf")
    rep = build_report(t, EventOptions())
    assert len(rep.months) == (5 if event == "league" else 2)
    wb = fill_workbook(rep, formulas="native", rows=len(t.players) + 1)
    return save_workbook(wb, tmp_path / f"{event}_native.xlsx")


@pytest.mark.parametrize("event", ["long", "floor", "rich", "league"])
def test_the_month_helper_sheets_cache_what_the_spreadsheets_compute(event, office,
                                                                      tmp_path):
    # every formula cell of every sheet, the hidden "Calc M1", "Calc M2" included, has a
    # value, and Gnumeric and LibreOffice recalculate exactly that value
    path = _long_native(event, tmp_path)
    assert {"Calc M1", "Calc M2"} <= set(formula_cells(path))
    assert without_value(path) == {}
    months = {k: v for k, v in cached(path).items() if k[0].startswith("Calc M")}
    assert sum(1 for v in months.values() if v not in (None, "", 0)) > 40
    office.recalc(path, tmp_path / "lo.xlsx")
    assert _differences(path, load_workbook(tmp_path / "lo.xlsx", data_only=True)) == {}
    gnumeric.require()
    values = gnumeric.recalc(path, tmp_path / "gnumeric.xlsx")
    assert _differences(path, values, blank_index_is_blank=True) == {}
