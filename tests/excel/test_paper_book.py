"""Issue 34, what was left: the whole example book on at most 16 A4 pages, and Rc (the
opponents' average rating) a column of the cross-table.

Pages. Before: the example's book printed (LibreOffice, A4, every visible sheet) on 18
pages: the cross-table 4 pages wide x 3 high landscape at 65 % (137 rows need three
landscape pages at 11 pt printed at 7.15 pt), Event 1, Report 3, Tables 1, Help 1. Now
the cross-table prints landscape or portrait, whichever takes fewer pages: the example
(two month blocks) on 5 x 2 portrait pages, 16 in all; a 130-player Swiss in one
period stays 2 x 3 landscape. The PDFs are left in artifacts/paper/ to look at.

Rc. The report's Rc (:attr:`xl_fide.rules.event.PlayerResult.Rc`: the average rating
of the opponents in the N games, rounded .5 up) as the rating block's last column, in
FIDE_EVENT(_SWISS) (its 11th column) and in the native formulas."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from tests.harness import gnumeric
from tests.harness.trf_lines import player_line, round_cells, trf
from xl_fide.cli._main import main
from xl_fide.event.report import build_report
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS, HEADER_ROW, _Geometry
from xl_fide.trf import parse_trf

A4_WIDTH = {"landscape": 842, "portrait": 595}     # points
SIDE_MARGIN = 18                                   # 0.25", the cross-table's


def _pages(pdf):
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_the_example_book_prints_on_16_pages_at_most(formulas, office, tmp_path,
                                                     artifacts_dir, capsys):
    """Every visible sheet as LibreOffice prints the book with its own set-up: at most
    16 A4 pages (before: 18), no ``###``, no word of the cross-table past its page's
    printable width (the key of the NP codes was cut by a portrait page's edge)."""
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils missing")
    book = tmp_path / f"example_{formulas}.xlsx"
    assert main(["crosstable", "--example", "--formulas", formulas, "-o", str(book)]) == 0
    capsys.readouterr()
    out = artifacts_dir / "paper"
    out.mkdir(exist_ok=True)
    pdf = out / f"example_{formulas}_book.pdf"
    office.to_pdf(book, pdf, fit_width=False)
    n = _pages(pdf)
    assert n <= 16, n
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "###" not in text and text.count("NP = not published:") == 1
    ct = out / f"example_{formulas}_crosstable.pdf"
    office.to_pdf(book, ct, sheet=CROSS, fit_width=False)
    orientation = load_workbook(book)[CROSS].page_setup.orientation
    right = A4_WIDTH[orientation] - SIDE_MARGIN + 1
    for page in range(1, _pages(ct) + 1):
        bbox = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page),
                               str(ct), "-"], capture_output=True, text=True,
                              check=True).stdout
        past = [(w, x) for x, w in re.findall(r'xMax="([\d.]+)"[^>]*>([^<]*)</word>', bbox)
                if float(x) > right]
        assert not past, (page, past[:5])


# ---------------------------------------------------------------------------- Rc

def _rc_event():
    """1 (2001), 2 (1900), 3 (1800), 4 unrated; R1 1-4 1-0, 2-3 ½-½; R2 4-2 ½-½, 1-3 ½-½
    (1 October 2025, standard).

    Rc, the average of the opponents in the N games, .5 up: 1 plays 4 (unrated, not a
    rated game) and 3: 1800. 2 plays 3 and 4 (unrated): 1800. 3 plays 2 and 1:
    (1900 + 2001) / 2 = 1950.5 -> 1951. 4 (unrated) plays 1 and 2, both rated:
    (2001 + 1900) / 2 = 1950.5 -> 1951."""
    games = [(1, 1, 4, "1"), (1, 2, 3, "="), (2, 4, 2, "="), (2, 1, 3, "=")]
    cells = round_cells([1, 2, 3, 4], games)
    ratings = {1: 2001, 2: 1900, 3: 1800, 4: None}
    players = [player_line(k, f"Player {k}", ratings[k], fed="ESP", fide_id=1000 + k,
                           birth="1980", rounds=cells[k]) for k in range(1, 5)]
    text = trf({"012": "Rc Open", "042": "2025/10/01", "052": "2025/10/02",
                "122": "90 min + 30 s"}, players)
    return parse_trf(text, source="rc.trf")


RC = [1800, 1800, 1951, 1951]


def _rc_column(ws):
    geo = _Geometry("swiss", 4, 2)
    return geo, [ws.cell(r, geo.col["rc"]).value for r in range(geo.first, geo.last + 1)]


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_rc_is_a_column_of_the_cross_table(formulas, tmp_path):
    """Its header, its defined name over the players' rows, a formula in every row
    (FIDE_EVENT_SWISS's block in UDF mode, built-in functions in native mode) and the
    report's values cached. Before: no Rc on the sheet."""
    path = save_workbook(fill_workbook(build_report(_rc_event()), formulas=formulas),
                         tmp_path / f"rc_{formulas}.xlsx")
    wb = load_workbook(path)
    ws = wb[CROSS]
    geo = _Geometry("swiss", 4, 2)
    assert "rc" in geo.col, "no Rc column"
    c = get_column_letter(geo.col["rc"])
    assert ws.cell(HEADER_ROW, geo.col["rc"]).value == "Rc"
    assert wb.defined_names["OpponentAverage"].attr_text == f"'Crosstable'!${c}$5:${c}$8"
    if formulas == "native":
        assert all(str(ws.cell(r, geo.col["rc"]).value).startswith("=")
                   and "FIDE_" not in str(ws.cell(r, geo.col["rc"]).value)
                   for r in range(geo.first, geo.last + 1))
    else:                                     # one array formula over N .. Rc
        top = ws.cell(geo.first, geo.col["n"]).value
        assert top.text.startswith("=FIDE_EVENT_SWISS(")
        assert top.ref == f"{get_column_letter(geo.col['n'])}5:{c}8"
    assert _rc_column(load_workbook(path, data_only=True)[CROSS])[1] == RC


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_libreoffice_computes_the_cached_rc(formulas, office, tmp_path):
    path = save_workbook(fill_workbook(build_report(_rc_event()), formulas=formulas),
                         tmp_path / f"rc_{formulas}.xlsx")
    res = office.recalc(path, tmp_path / f"rc_{formulas}_lo.xlsx")
    assert not res.errors, res.errors
    assert _rc_column(load_workbook(res.dst, data_only=True)[CROSS])[1] == RC


def test_gnumeric_computes_the_cached_rc(tmp_path):
    gnumeric.require()
    path = save_workbook(fill_workbook(build_report(_rc_event()), formulas="native"),
                         tmp_path / "rc_native.xlsx")
    wb = gnumeric.recalc(path, tmp_path / "rc_gnumeric.xlsx")
    assert _rc_column(wb[CROSS])[1] == RC
