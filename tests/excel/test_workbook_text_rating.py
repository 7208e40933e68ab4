"""A rating pasted as text in the cross-table (issue 33 #5): read as the number it shows
where that is unambiguous (digits only: "1850", " 1850 "), in both formula modes, as
``xl-fide report BOOK.xlsx`` reads it; anything else ("1,850", "1850.0", "abc") shows
"not a rating: ..." in that player's Ro used cell, and the report refuses naming the
cell. Never an ``#N/A`` in another player's row (before: the whole round robin block).

Recalculated with Excel's semantics (MATCH and VLOOKUP do not find the text "1850"
among numbers, which LibreOffice does): Gnumeric (native formulas) and the ``formulas``
package (the FIDE_* functions as classic xlwings calls them); and in LibreOffice.

The event (rr_example, 1 Nov 2025, K by §8.3.3: born 1980, K 20): 2000, 1950, 2050,
1810; player 2 (1950) typed as text.
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import rr_example
from tests.excel.test_workbook_lo import columns
from tests.harness import gnumeric
from xl_fide.cli._main import main
from xl_fide.event.report import build_report
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS
from xl_fide.rules.values import NOT_A_RATING

BLOCK = ("RatingUsed", "KRule", "KFactor", "RatedGames", "RatedScore", "Expected",
         "ScoreMinusExpected", "KUsed", "Change", "RatingChange", "NewRating",
         "Performance", "InitialRating")
ERRORS = ("#N/A", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#DIV/0!")


def _book(tmp_path, formulas, text):
    """rr_example with player 2's Ro (row 6) replaced by ``text``, as a paste leaves it."""
    path = save_workbook(fill_workbook(build_report(rr_example()), formulas=formulas),
                         tmp_path / f"rr_{formulas}.xlsx")
    wb = load_workbook(path)
    ro, = columns(wb, ("Rating",))
    wb[CROSS].cell(6, ro).value = text
    edited = tmp_path / f"text_{formulas}.xlsx"
    wb.save(edited)
    return path, edited, wb


def _rows(values, book):
    cols = columns(book, BLOCK)
    return [[values[CROSS].cell(r, c).value for c in cols] for r in range(5, 9)]


def _errors(rows):
    return [(i, v) for i, row in enumerate(rows, 1) for v in row
            if isinstance(v, str) and v.strip() in ERRORS]


def _recalc(engine, office, src, tmp_path, name):
    if engine == "gnumeric":
        return gnumeric.recalc(src, tmp_path / f"{name}_g.xlsx")
    if engine == "formulas":        # Excel's semantics, the FIDE_* functions as xlwings calls them
        xl_formulas = pytest.importorskip("tests.harness.xl_formulas")
        return xl_formulas.recalc(src)[0]
    office.recalc(src, tmp_path / f"{name}_lo.xlsx")
    return load_workbook(tmp_path / f"{name}_lo.xlsx", data_only=True)


def _engines():
    return [pytest.param("gnumeric", "native", id="gnumeric-native"),
            pytest.param("formulas", "udf", id="formulas-udf"),
            pytest.param("lo", "native", id="lo-native", marks=pytest.mark.libreoffice),
            pytest.param("lo", "udf", id="lo-udf", marks=pytest.mark.libreoffice)]


@pytest.fixture
def lo_session(request):
    """LibreOffice only for the LibreOffice cases; the gnumeric cases skip without
    ssconvert."""
    if request.node.callspec.params["engine"] == "gnumeric":
        gnumeric.require()
    return request.getfixturevalue("office") if "lo" in request.node.name else None


@pytest.mark.parametrize("engine, formulas", _engines())
@pytest.mark.parametrize("text", ["1950", " 1950 "])
def test_digits_typed_as_text_rate_as_the_number(engine, formulas, text, lo_session,
                                                 tmp_path, capsys):
    number, edited, wb = _book(tmp_path, formulas, text)
    as_text = _rows(_recalc(engine, lo_session, edited, tmp_path, "text"), wb)
    as_number = _rows(_recalc(engine, lo_session, number, tmp_path, "number"), wb)
    assert _errors(as_text) == []
    assert as_text == as_number                 # every player's row as if typed a number
    assert as_text[1][0] == 1950                # Ro used
    # xl-fide report BOOK.xlsx reads the same number (new ratings by start rank)
    capsys.readouterr()
    assert main(["report", str(edited), "--format", "csv"]) == 0


@pytest.mark.parametrize("engine, formulas", _engines())
@pytest.mark.parametrize("text", ["1,950", "1950.0", "abc", "01950"])
def test_other_text_shows_why_in_its_row_only(engine, formulas, text, lo_session,
                                              tmp_path, capsys):
    _, edited, wb = _book(tmp_path, formulas, text)
    rows = _rows(_recalc(engine, lo_session, edited, tmp_path, "bad"), wb)
    assert rows[1][0] == NOT_A_RATING           # Ro used of player 2 says why
    assert _errors([rows[0], rows[2], rows[3]]) == []     # no cascade into other rows
    assert all(isinstance(row[10], int) for row in (rows[0], rows[2], rows[3]))
    # the report refuses, naming the same cell, in one line
    ro, = columns(wb, ("Rating",))
    capsys.readouterr()
    assert main(["report", str(edited)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"Crosstable!{chr(64 + ro)}6: rating Ro" in err[0]
