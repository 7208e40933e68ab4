"""A user trial (8 December, second): a workbook whose Event sheet sets "Rules as on"
(2024-03-02) rates the event by the rules of that date; ``xl-fide trf BOOK.xlsx -o
back.trf`` wrote the TRF without a word, and rating back.trf gave other numbers than
the book. A TRF has no field for that date: ``trf`` now says so on one stderr line,
with the option that reproduces it (``--event-date 2024-03-02``)."""
from __future__ import annotations

import datetime as dt

import openpyxl

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main


def _book(tmp_path, rules_date):
    lines = [player_line(1, "One, A", 1800, points="1.0", rounds=[(2, "w", "1")]),
             player_line(2, "Two, B", 1700, points="0.0", rounds=[(1, "b", "0")])]
    src = tmp_path / "in.trf"
    src.write_text(trf({"012": "Open", "022": "Town", "042": "2025/11/01", "052": "2025/11/01",
                        "092": "Swiss"}, lines), encoding="utf-8")
    book = tmp_path / "book.xlsx"
    assert main(["crosstable", str(src), "-o", str(book), "-q"]) == 0
    if rules_date is not None:
        wb = openpyxl.load_workbook(book)
        ws = wb["Event"]
        row = next(r for r in range(1, 40) if ws.cell(r, 1).value == "Rules as on (optional)")
        ws.cell(row, 2).value = rules_date
        wb.save(book)
    return book


def test_trf_warns_that_the_rules_date_is_not_in_the_trf(tmp_path, capsys):
    book, back = _book(tmp_path, dt.date(2024, 3, 2)), tmp_path / "back.trf"
    capsys.readouterr()
    assert main(["trf", str(book), "-o", str(back)]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "Rules as on" in line]
    assert len(err) == 1, err
    assert err[0].startswith("warning: ")
    assert "2024-03-02" in err[0] and "--event-date 2024-03-02" in err[0]
    assert back.exists()


def test_no_word_without_a_rules_date(tmp_path, capsys):
    book, back = _book(tmp_path, None), tmp_path / "back.trf"
    capsys.readouterr()
    assert main(["trf", str(book), "-o", str(back)]) == 0
    assert "Rules as on" not in capsys.readouterr().err
