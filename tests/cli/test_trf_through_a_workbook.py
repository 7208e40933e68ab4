"""A user trial (8 December): what ``xl-fide trf BOOK.xlsx`` writes back. The line ending
of the TRF a workbook was made from (CR LF of a Windows export, the bare CR of the TRF
text) was lost: LF came back, and the guide's ``cmp event.trf back.trf`` failed. A
character the file's encoding cannot hold named no option to write it otherwise."""
from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main

DATA = Path(__file__).parents[1] / "data" / "trf"


@pytest.mark.parametrize("name, newline", [("roundrobin_12_synthetic.trf", b"\r\n"),
                                           ("synthetic_cr_line_endings.trf", b"\r")])
def test_the_line_ending_comes_back_through_a_workbook(name, newline, tmp_path):
    src = DATA / name
    data = src.read_bytes()
    assert newline in data and (newline == b"\r\n" or b"\n" not in data)
    book, back = tmp_path / "book.xlsx", tmp_path / "back.trf"
    assert main(["crosstable", str(src), "-o", str(book), "-q"]) == 0
    assert main(["trf", str(book), "-o", str(back), "-q"]) == 0
    assert back.read_bytes() == data            # the guide's cmp: the same bytes


def _original_payload(ws) -> dict:
    return json.loads("".join(str(r[0]) for r in ws.iter_rows(min_row=2, max_col=1,
                                                              values_only=True) if r[0]))


def test_a_book_without_a_line_ending_reads_as_lf(tmp_path):
    # a workbook written before the line ending was kept: its TRF comes back with LF
    src = DATA / "roundrobin_12_synthetic.trf"
    book, back = tmp_path / "book.xlsx", tmp_path / "back.trf"
    assert main(["crosstable", str(src), "-o", str(book), "-q"]) == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["TRF_original"]
    payload = _original_payload(ws)
    assert payload.pop("newline") == "\r\n"
    text = json.dumps(payload, ensure_ascii=True, separators=(",", ":")).replace("_", "\\u005f")
    for row in range(2, ws.max_row + 1):
        ws.cell(row, 1).value = None
    ws.cell(2, 1).value = text                  # one cell holds it (under 32,767 characters)
    assert len(text) < 30_000
    wb.save(book)
    assert main(["trf", str(book), "-o", str(back), "-q"]) == 0
    assert back.read_bytes() == src.read_bytes().replace(b"\r\n", b"\n")


def test_a_character_cp1252_cannot_hold_names_the_option(tmp_path, capsys):
    # a Windows-1252 TRF, a name edited in its workbook to one with Ł (not in cp1252)
    lines = [player_line(1, "Žalph, A", 1800, fed="POL", points="1.0", rounds=[(2, "w", "1")]),
             player_line(2, "Beta, B", 1700, fed="POL", points="0.0", rounds=[(1, "b", "0")])]
    src = tmp_path / "in.trf"
    src.write_bytes(trf({"012": "Open", "042": "2025/11/01"}, lines).encode("cp1252"))
    book, back = tmp_path / "book.xlsx", tmp_path / "back.trf"
    assert main(["crosstable", str(src), "-o", str(book), "-q"]) == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["Crosstable"]
    cell = next(c for row in ws.iter_rows() for c in row if c.value == "Žalph, A")
    cell.value = "Łukasz, A"
    wb.save(book)
    capsys.readouterr()
    assert main(["trf", str(book), "-o", str(back), "-q"]) == 2
    err = capsys.readouterr().err
    assert "cannot be written in cp1252" in err and "--encoding utf-8" in err
    assert not back.exists()
    assert main(["trf", str(book), "-o", str(back), "-q", "--encoding", "utf-8"]) == 0
    assert "Łukasz, A" in back.read_bytes().decode("utf-8")


def test_a_utf16_crlf_file_comes_back_the_same(tmp_path):
    # UTF-16 with its byte order mark, CR LF: each line break is 4 bytes (0D 00 0A 00);
    # the file's own bytes (not the decoded text) once gave a bare CR
    text = (DATA / "roundrobin_12_synthetic.trf").read_bytes().decode("utf-8")
    assert "\r\n" in text
    src = tmp_path / "u16.trf"
    src.write_bytes(text.encode("utf-16"))
    back, book, back2 = tmp_path / "back.trf", tmp_path / "book.xlsx", tmp_path / "back2.trf"
    assert main(["trf", str(src), "-o", str(back), "-q"]) == 0
    assert back.read_bytes() == src.read_bytes()
    assert main(["crosstable", str(src), "-o", str(book), "-q"]) == 0
    assert main(["trf", str(book), "-o", str(back2), "-q"]) == 0
    assert back2.read_bytes() == src.read_bytes()
