"""Issue 32 item 4: LibreOffice hands an add-in a blank single cell as 0. The UDF player
sheet must not pass a blank "rated games before the period" to FIDE_K as 0 games (K 40).

By hand (FIDE B.02 table 8.1.2, §8.3.3, §8.3.4): Ro 1892 beats 2025: D = 133 -> PD .32,
ΔR .68. No birth year, games blank (30 or more), no peak: K 20 -> 13.60 -> +14 -> 1906.
(Read as 0 games, K would be 40: 27.20 -> +27 -> 1919.)
"""

from __future__ import annotations

import json

from openpyxl import load_workbook

from xl_fide.cli import main

CSV = "event,event_start,event_end,opponent_rating,result\nOpen,2025-11-01,2025-11-03,2025,1\n"


def test_udf_sheet_blank_career_games_is_k20_in_libreoffice(office, tmp_path, capsys):
    f = tmp_path / "g.csv"
    f.write_text(CSV, encoding="utf-8")
    assert main(["rate", str(f), "--rating", "1892", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr()[0])
    assert (data["K"], data["new_rating"]) == (20, 1906)
    books = {}
    for formulas in ("udf", "native"):
        src = tmp_path / f"{formulas}.xlsx"
        assert main(["template", "--layout", "player", "--formulas", formulas, "--games",
                     str(f), "--rating", "1892", "-o", str(src)]) == 0
        dst = tmp_path / f"{formulas}.recalc.xlsx"
        office.recalc(src, dst, xlwings_blanks=False)     # as a user opens it
        ws = load_workbook(dst, data_only=True)["Player"]
        books[formulas] = (ws["D6"].value, ws["D10"].value, ws["D11"].value, ws["K8"].value)
    assert books["udf"] == books["native"] == (None, 20, 20, 1906)


def test_fide_k_reads_the_empty_text_as_blank_and_0_as_no_games():
    """What the sheet passes for a blank input ("", as Excel, xlwings Lite and the
    LibreOffice host all hand it over) is blank: 30 games or more, K 20 (§8.3.3); 0 games
    is a new player, K 40."""
    from xl_fide.udfs import FIDE_K
    assert FIDE_K(1892, "", "", "", "", 2025, "standard", "") == 20
    assert FIDE_K(1892, "", 0, "", "", 2025, "standard", "") == 40
