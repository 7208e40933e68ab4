"""A user trial (8 December, second): ``xl-fide trf BOOK.xlsx`` with a name of more
than 33 characters said ``player 3 name must fit in 33 columns``: no file, no cell. The
error now names the cell the user typed it in: player 3's Name is ``Crosstable!C7``
(players from row 5, Name the third column: No, Title, Name)."""
from __future__ import annotations

import openpyxl

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main

LONG = "Wolfeschlegelsteinhausen-Bergerdorff, Hubert"      # 44 characters


def test_a_name_too_long_for_a_trf_names_its_cell(tmp_path, capsys):
    lines = [player_line(1, "One, A", 1800, points="1.0", rounds=[(2, "w", "1")]),
             player_line(2, "Two, B", 1700, points="0.0", rounds=[(1, "b", "0")]),
             player_line(3, "Three, C", 1600, points="0.0", rounds=[(0, "-", "Z")])]
    src = tmp_path / "in.trf"
    src.write_text(trf({"012": "Open", "042": "2025/11/01"}, lines), encoding="utf-8")
    book, back = tmp_path / "book.xlsx", tmp_path / "back.trf"
    assert main(["crosstable", str(src), "-o", str(book), "-q"]) == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["Crosstable"]
    assert ws["C7"].value == "Three, C"
    ws["C7"].value = LONG
    wb.save(book)
    capsys.readouterr()
    assert main(["trf", str(book), "-o", str(back), "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"xl-fide: error: {book}: Crosstable!C7: ")
    assert "33" in err[0]
    assert not back.exists()
