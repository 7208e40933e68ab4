"""A cross-table to pin up (issue 34 #1). Before: the shipped example's cross-table
printed (LibreOffice, A4) on 80 pages, the "not published: ..." reasons of its unrated
players wrapping rows 2-5 lines high; a 130-player event on 20; a 10-player round robin
at about 6 pt; every K×ΣΔR of 100 or more as ``###``. Now: the reasons are short codes
(``NP 3g``) with their key printed once under the table, the sheet prints at 65 % (11 pt
text at 7.15 pt) or one page wide at 65 % or more, pages broken between rounds, title
rows and columns repeated, numeric columns wide enough for their widest value.

The rendered tests print with LibreOffice (the UDF books with the extension: the
``office`` fixture) and count pages and text from the PDF (poppler); the PDFs and PNGs
are left in artifacts/paper/ to look at."""
from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from tests.harness.synthetic import synthetic_swiss
from xl_fide.cli._main import main
from xl_fide.excel._build import build_template
from xl_fide.event.report import build_report
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS, REPORT, _Geometry
from xl_fide.trf import read_trf

DATA = Path(__file__).parents[1] / "data" / "trf"
FONT_PT = 11            # the cross-table's text (the workbook's default font)
LEAST_PT = 7            # a readable size on paper
#: a word's box in pdftotext is about 1.15 x the font size (DejaVu Sans)
BOX = 1.15


def _example(tmp_path, formulas):
    out = tmp_path / f"example_{formulas}.xlsx"
    assert main(["crosstable", "--example", "--formulas", formulas, "-o", str(out)]) == 0
    return out


def _event_130(tmp_path, formulas):
    """A 130-player, 9-round Swiss in one period (9 days), about 10 % unrated."""
    t = synthetic_swiss(130, 9, seed=3)
    return save_workbook(fill_workbook(build_report(t), formulas=formulas),
                         tmp_path / f"s130_{formulas}.xlsx")


def _scale(ws):
    return None if ws.sheet_properties.pageSetUpPr.fitToPage else int(ws.page_setup.scale)


# ----------------------------------------------------------------- the workbook's set-up

@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_the_example_prints_at_a_readable_scale_with_titles(formulas, tmp_path, capsys):
    ws = load_workbook(_example(tmp_path, formulas))[CROSS]
    capsys.readouterr()
    assert _scale(ws) is not None and _scale(ws) * FONT_PT / 100 >= LEAST_PT   # 65 %: 7.15
    assert ws.print_title_rows.replace("$", "") == "3:4"       # the headers on every page
    assert ws.print_title_cols.replace("$", "") == "A:C"       # No, Title, Name
    # portrait: 5 x 2 pages rather than 4 x 3 landscape (tests/excel/test_paper_book.py)
    assert (ws.page_setup.orientation, int(ws.page_setup.paperSize)) == ("portrait", 9)


def test_the_not_published_reasons_are_codes_with_their_key(tmp_path, capsys):
    """Ru and New hold codes on one line (no wrap), the key under the table once; the
    Report sheet and the JSON report keep the sentences."""
    path = _example(tmp_path, "native")
    capsys.readouterr()
    wb = load_workbook(path, data_only=True)
    ws = wb[CROSS]
    geo = _Geometry("swiss", 137, 7)
    ru, new = geo.col["ru"], geo.col["new"]
    shown = [ws.cell(r, ru).value for r in range(geo.first, geo.last + 1)]
    texts = [v for v in shown if isinstance(v, str) and v]
    # player 3: unrated, 3 games against rated opponents (TRF: rounds 1-3 vs 66, 88, 73
    # rated, a bye, ...): the example has 20 unrated players, all not published
    assert texts and all(re.fullmatch(r"NP (\d+g|0pt|\d{3,4})", v) for v in texts), texts
    assert not any(ws.cell(r, c).alignment.wrap_text for r in range(geo.first, geo.last + 1)
                   for c in (ru, new))
    key = [ws.cell(r, geo.col["fed"]).value for r in range(geo.last + 2, geo.last + 7)]
    assert key[0] == "NP = not published:"
    assert [k.split(" = ")[0] for k in key[1:]] == ["NP 1395", "NP 3g", "NP 0g", "NP 0pt"]
    assert ws.print_area and ws.print_area.endswith(f"${geo.last + 6}")     # printed
    report = wb[REPORT]
    notes = [c.value for c in report["S"] if isinstance(c.value, str)]
    assert any(n.startswith("only ") and "games against rated opponents" in n for n in notes)
    out = tmp_path / "r.json"
    assert main(["report", "--example", "--format", "json", "-o", str(out)]) == 0
    assert "games against rated opponents; at least 5 are needed" in out.read_text(
        encoding="utf-8")
    assert "NP " not in json.dumps(json.loads(out.read_text(encoding="utf-8")))


def test_numeric_columns_hold_their_widest_value(tmp_path):
    """Width in characters of LibreOffice's digit (what it draws: DejaVu Sans, measured
    on its PDF): "+700.00" needs 7.5 (a "+" is 1.3 digits wide), "+700" bold 5, "NP 1399"
    and a four-digit rating 6 and 4.5. Before: K×ΣΔR 7 printed "+112.80" as ###."""
    ws = load_workbook(_event_130(tmp_path, "udf"))[CROSS]
    geo = _Geometry("swiss", 130, 9)
    need = {"change": 7.5, "w_pd": 6.5, "sum_pd": 5.5, "chg": 5, "new": 6.5, "ru": 6.5,
            "rp": 4.5, "ro": 4.5, "k_used": 3}
    for key, least in need.items():
        width = ws.column_dimensions[get_column_letter(geo.col[key])].width
        assert width >= least + 0.5, (key, width)


# ------------------------------------------------------------------------ on paper

def _pdf_pages(pdf):
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def _words(pdf, page):
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf),
                          "-"], capture_output=True, text=True, check=True).stdout
    return [(m.group(5), float(m.group(2)), float(m.group(4)) - float(m.group(2)))
            for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                                 r'yMax="([\d.]+)">([^<]*)</word>', out)]


@pytest.mark.parametrize("book, most", [("example_native", 16), ("example_udf", 16),
                                        ("s130_native", 12), ("s130_udf", 12), ("rr10", 2)])
def test_the_cross_table_prints_whole_readable_pages(book, most, office, tmp_path,
                                                     artifacts_dir, capsys):
    """The cross-table sheet as LibreOffice prints it with the workbook's own set-up:
    at most ``most`` A4 pages (before: 80, 80, 20, 20; the round robin one page at 6 pt),
    text at 7 pt or more (a word box >= 1.15 x 7 pt), no ###, on every page the title
    columns and the header rows, every round whole (as many Opp as Col, Res and Round
    headers), every player row one line high, the key printed once."""
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils missing")
    name, _, formulas = book.partition("_")
    path = (_example(tmp_path, formulas) if name == "example"
            else _event_130(tmp_path, formulas) if name == "s130"
            else save_workbook(build_template("roundrobin", 10, 9), tmp_path / "rr10.xlsx"))
    capsys.readouterr()
    out = artifacts_dir / "paper"
    out.mkdir(exist_ok=True)
    pdf = out / f"{book}.pdf"
    office.to_pdf(path, pdf, sheet=CROSS, fit_width=False)
    n = _pdf_pages(pdf)
    assert 1 <= n <= most, n
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "###" not in text
    assert text.count("NP = not published:") == 1
    heights = []
    for page in range(1, n + 1):
        words = _words(pdf, page)
        w = [t for t, _, _ in words]
        assert {"No", "Name"} <= set(w), f"page {page}: no title columns"
        if name != "rr10":
            assert w.count("Opp") == w.count("Col") == w.count("Res") == w.count("Round"), page
        heights += [h for _, _, h in words]
        # one line a row: the names ("Player 012") one row height apart, none taller
        ys = sorted({round(y, 1) for t, y, _ in words if t == "Player"})
        steps = [b - a for a, b in zip(ys, ys[1:])]
        if steps:
            assert max(steps) < 1.5 * statistics.median(steps), (page, max(steps))
    assert statistics.median(heights) >= BOX * LEAST_PT, statistics.median(heights)
    for old in out.glob(f"{book}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(out / book)], check=True)


def test_the_player_sheet_prints_its_notes_whole(office, tmp_path, artifacts_dir, capsys):
    """The player sheet's Note (column J) ran past K, the print area's last column, and
    the page edge cut it ("not rated: opponent be"). Games: 1350 (below the floor 1400,
    B.02 §7.2.1), an unrated opponent, a forfeit (not played over the board)."""
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils missing")
    csv = tmp_path / "g.csv"
    csv.write_text("event,event_start,event_end,opponent_rating,result\n"
                   "Open A,2025-10-04,2025-10-05,1350,1\n"
                   "Open A,2025-10-04,2025-10-05,,1\n"
                   "Open A,2025-10-04,2025-10-05,1900,+\n"
                   "Open A,2025-10-04,2025-10-05,1950,=\n", encoding="utf-8")
    path = tmp_path / "player.xlsx"
    assert main(["template", "--layout", "player", "--formulas", "native", "--games", str(csv),
                 "--rating", "2050", "--k", "20", "-o", str(path)]) == 0
    capsys.readouterr()
    out = artifacts_dir / "paper"
    out.mkdir(exist_ok=True)
    pdf = out / "player.pdf"
    office.to_pdf(path, pdf, sheet="Player", fit_width=False)
    assert _pdf_pages(pdf) == 1
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    for note in ("not rated: opponent below the floor", "not rated: unrated opponent",
                 "not rated: not played over the board"):
        assert note in text         # (pdftotext reads text cut by the page edge too)
    assert "###" not in text
    # ... so: every word inside the print area (A:K). K's right edge from the centres of
    # the Events headers "ΣΔR" (I) and "K×ΣΔR" (K) and the column widths
    ws = load_workbook(path)["Player"]
    w = {c: ws.column_dimensions[c].width for c in "IJK"}
    words = _right_edges(pdf, centre=True)
    y = max(y for t, _, y in words if t == "K×ΣΔR")             # the Events header row
    ci = next(x for t, x, yy in words if t == "ΣΔR" and yy == y)
    ck = next(x for t, x, yy in words if t == "K×ΣΔR" and yy == y)
    per_char = (ck - ci) / (w["I"] / 2 + w["J"] + w["K"] / 2)
    right = ck + per_char * w["K"] / 2 + 1
    outside = [(t, round(x)) for t, x, _ in _right_edges(pdf) if x > right]
    assert not outside, (round(right), outside)     # before: "floor", "board" past K


def _right_edges(pdf, centre=False):
    """(word, right edge or centre x, top y) of every word of page 1."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    return [(m.group(5), (float(m.group(1)) + float(m.group(3))) / 2 if centre
             else float(m.group(3)), round(float(m.group(2)), 1)) for m in re.finditer(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
        out)]


def test_the_whole_workbook_prints_no_hashes(office, tmp_path, artifacts_dir, capsys):
    """Every visible sheet of a filled workbook as printed: no ``###`` (before: the
    Tables sheet's "H ×100" column, 3 wide, printed 100 as ###; the cross-table's
    K×ΣΔR every value of 100 or more)."""
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils missing")
    path = _event_130(tmp_path, "native")
    out = artifacts_dir / "paper"
    out.mkdir(exist_ok=True)
    pdf = out / "s130_native_all.pdf"
    office.to_pdf(path, pdf, fit_width=False)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "H ×100" in text and "K×ΣΔR" in text
    assert "###" not in text
