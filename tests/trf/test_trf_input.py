"""Tests of xl_fide.trf on hostile and inconsistent input (issues 10 and 11, TRF side).

Each test builds its TRF text with ``line001`` (every field at the column FIDE's TRF16
layout gives, C.04 Annex 2), independently of the reader; the expected warnings follow
from the rules quoted in each test.
"""

from __future__ import annotations

import dataclasses
import tracemalloc
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from xl_fide import trf

from xl_fide import _filekind as filekind
from xl_fide.cli._main import main
from xl_fide.errors import InputError, TrfError
from xl_fide.rules.results import BYE_CODES, pair_problem
from xl_fide.trf import parse_trf, write_trf, write_trf_file

from tests.trf.test_trf import line001, two_player_file


# --------------------------------------------------------------------------- one game, one truth

@pytest.mark.parametrize("bye", ["H", "F", "U", "Z"])
@pytest.mark.parametrize("side", ["first", "second"])
def test_bye_code_on_one_side_of_a_played_game(bye, side):
    # Player 1 has "2 w 1" or "2 w <bye>", player 2 "1 b <bye>" or "1 b 0": a bye code
    # (H F U Z: no opponent, TRF16 result table) cannot stand against a played game;
    # otherwise one player is rated for it and the other not (issue 11).
    r1, r2 = ("1", bye) if side == "second" else (bye, "0")
    text = two_player_file(r1=r1, r2=r2)
    t = parse_trf(text, source="bye.trf")
    found = [w for w in t.warnings if f"bye ({bye})" in w.message]
    assert [(w.file, w.line, w.column) for w in found] == [("bye.trf", 2, 99)]
    assert "player 1 and player 2 (line 3)" in found[0].message
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="bye.trf", strict=True)
    assert (err.value.file, err.value.line, err.value.column) == ("bye.trf", 2, 99)
    assert f"bye ({bye})" in err.value.message


def test_forfeit_win_on_both_sides_is_refused():
    # "+" against "+": both players would get the point (issue 10 #6). A forfeit win
    # has a forfeit loss on the other side (TRF16 result table).
    text = two_player_file(r1="+", r2="+")
    t = parse_trf(text, source="ff.trf")
    assert [(w.line, w.column, w.message) for w in t.warnings if "both won" in w.message] == [
        (2, 99, "round 1: player 1 and player 2 (line 3): both won")]
    with pytest.raises(TrfError, match=r"ff.trf:2:99: round 1: player 1 and player 2 .* both won"):
        parse_trf(text, source="ff.trf", strict=True)


def test_same_colour_on_both_sides_names_the_colour_column():
    text = "\n".join([
        "012 colours",
        line001(1, "A", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", points="0.0", rounds=[("1", "w", "0")]),
    ])
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="c.trf", strict=True)
    # round 1 colour is column 97
    assert (err.value.line, err.value.column) == (2, 97)
    assert "both have colour 'w'" in err.value.message


def test_paired_game_without_a_result_yet_is_consistent():
    # Both cells "2 w  " / "1 b  ": paired, result blank (read as Z) on both sides.
    text = "\n".join([
        "012 paired",
        line001(1, "A", rounds=[("2", "w", "")]),
        line001(2, "B", rounds=[("1", "b", "")]),
    ])
    t = parse_trf(text, strict=True)
    assert t.warnings == ()


# --------------------------------------------------------------------------- duplicate FIDE ids

def test_duplicate_fide_id_names_both_lines():
    # One FIDE id is one player (issue 10 #3): id 1234567 on lines 2 and 3.
    text = "\n".join([
        "012 twice",
        line001(1, "A", fide_id="1234567", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", fide_id="1234567", points="0.0", rounds=[("1", "b", "0")]),
    ])
    t = parse_trf(text, source="d.trf")
    assert [(w.line, w.column) for w in t.warnings] == [(3, 58)]
    assert "player 1 (line 2)" in t.warnings[0].message and "1234567" in t.warnings[0].message
    with pytest.raises(TrfError, match=r"^d.trf:3:58: FIDE id 1234567 of player 2 .*line 2"):
        parse_trf(text, source="d.trf", strict=True)


def test_zero_and_blank_fide_ids_are_not_duplicates():
    text = "\n".join([
        "012 none",
        line001(1, "A", fide_id="0", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", fide_id="0", points="0.0", rounds=[("1", "b", "0")]),
        line001(3, "C", fide_id=""),
        line001(4, "D", fide_id=""),
    ])
    assert parse_trf(text, strict=True).warnings == ()


# --------------------------------------------------------------------------- birth years

@pytest.mark.parametrize("birth, bad", [
    ("2100", True),           # after the event (issue 11: K 40, the change doubled)
    ("2011/01/01", True),     # the year after 042's 2010
    ("2010/12/31", False),    # the event's year: a newborn is odd, but not impossible
    ("1890", False),          # 2010 - 1890 = 120 years: not more than 120
    ("1889", True),           # 121 years before
    ("0000/00/00", False),    # unknown
])
def test_implausible_birth_year(birth, bad):
    text = "\n".join([
        "012 ages",
        "042 2010/07/24",
        line001(1, "A", birth=birth, points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", points="0.0", rounds=[("1", "b", "0")]),
    ])
    t = parse_trf(text, source="y.trf")
    assert [(w.line, w.column) for w in t.warnings] == ([(3, 70)] if bad else [])
    if bad:
        assert birth[:4] in t.warnings[0].message and "2010/07/24" in t.warnings[0].message
        with pytest.raises(TrfError, match=r"^y.trf:3:70: birth year"):
            parse_trf(text, source="y.trf", strict=True)


def test_birth_year_not_checked_without_a_start_date():
    text = two_player_file().replace("One, A", "One, A").splitlines()
    text[1] = text[1][:69] + "2100" + text[1][73:]
    assert parse_trf("\n".join(text), strict=True).player(1).birth_year == 2100


# --------------------------------------------------------------------------- encodings

# Windows-1252 bytes (Swiss-Manager on Windows; code page table of Microsoft's cp1252):
# 0x8A = Š, 0x8E = Ž, 0x8C = Œ, 0x96 = – (en dash), 0x92 = ’, 0xE9 = é.
CP1252_NAME = "Šarić–Žagar, Œ’é"


def named_file(name: str) -> str:
    """Players 1 (named ``name``) and 2 meet in round 1; 1 wins."""
    return "\n".join([
        "012 Names",
        line001(1, name, points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", points="0.0", rounds=[("1", "b", "0")]),
    ]) + "\n"


def cp1252_file() -> bytes:
    text = "\n".join([
        "012 Open – Šibenik",
        line001(1, "Šarić–Žagar, Œ’é", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", points="0.0", rounds=[("1", "b", "0")]),
    ]) + "\n"
    return text.replace("ć", "c").encode("cp1252")


def test_windows_1252_is_detected():
    data = cp1252_file()
    assert b"\x8a" in data and b"\x96" in data  # Š and – are bytes 0x80-0x9F
    t = parse_trf(data, source="w.trf", strict=True)
    assert t.player(1).name == "Šaric–Žagar, Œ’é"
    assert t.name == "Open – Šibenik"
    assert t.encoding == "cp1252" and t.warnings == ()


def test_windows_1252_file_is_written_back_byte_for_byte(tmp_path):
    data = cp1252_file()
    t = parse_trf(data)
    assert trf.encode_trf(t) == data
    out = tmp_path / "back.trf"
    write_trf_file(t, out)
    assert out.read_bytes() == data
    # UTF-8 when asked
    assert trf.encode_trf(t, encoding="utf-8") == data.decode("cp1252").encode("utf-8")


def test_a_character_the_file_encoding_cannot_hold_is_an_error_naming_the_line():
    t = parse_trf(cp1252_file())
    p1 = dataclasses.replace(t.player(1), name="Łukasz")  # Ł is not in Windows-1252
    t2 = dataclasses.replace(t, players=(p1,) + t.players[1:])
    with pytest.raises(InputError, match=r"line 2 of the TRF: 'Ł' cannot be written in cp1252, "
                       r"the encoding the file was read in; write it in another encoding"):
        trf.encode_trf(t2)
    assert "Łukasz" in trf.encode_trf(t2, encoding="utf-8").decode("utf-8")


@pytest.mark.parametrize("bom, name", [(b"\xef\xbb\xbf", "utf-8-sig"), (b"", "utf-8")])
def test_utf8_with_and_without_bom_round_trips(bom, name):
    data = bom + named_file("Müller, Željko").encode("utf-8")
    t = parse_trf(data, strict=True)
    assert t.player(1).name == "Müller, Željko" and t.encoding == name
    assert trf.encode_trf(t) == data


def test_latin1_without_c1_bytes_reads_the_same_as_windows_1252():
    data = named_file("Müller, Sø").encode("latin-1")
    t = parse_trf(data, strict=True)
    assert t.player(1).name == "Müller, Sø"
    assert trf.encode_trf(t) == data


def test_a_c1_control_is_a_warning():
    # 0x81 is not a Windows-1252 character: read as Latin-1, it is U+0081 (C1 control).
    data = named_file("One#, A").encode("ascii").replace(b"#", b"\x81")
    t = parse_trf(data, source="c1.trf")
    assert t.encoding == "latin-1"
    assert [(w.line, w.column) for w in t.warnings] == [(2, 18)]  # name at 15: "One" then 0x81
    assert "U+0081" in t.warnings[0].message and "C1 control" in t.warnings[0].message
    with pytest.raises(TrfError, match=r"^c1.trf:2:18: character U\+0081"):
        parse_trf(data, source="c1.trf", strict=True)
    assert trf.encode_trf(t) == data  # still nothing lost


def test_given_encoding_is_used_and_c1_controls_it_makes_are_warned():
    data = cp1252_file()
    t = parse_trf(data, encoding="latin-1")
    assert t.encoding == "iso8859-1"
    assert any("U+008A" in w.message for w in t.warnings)
    with pytest.raises(TrfError, match="unknown encoding 'klingon'"):
        parse_trf(data, encoding="klingon")
    with pytest.raises(TrfError, match="cannot decode the file as utf-8"):
        parse_trf(data, encoding="utf-8")


# --------------------------------------------------------------------------- budgets

def test_a_million_round_cells_stop_at_the_line_length_budget_in_little_memory():
    # Issue 11: one 001 line of a million round cells (10 MB) took 1.7 GB and a minute.
    cells = "  ".join(["   2 w 1"] * 1_000_000)
    text = "012 huge\n" + line001(1, "A").ljust(91) + cells + "\n" + line001(2, "B") + "\n"
    tracemalloc.start()
    try:
        with pytest.raises(TrfError) as err:
            parse_trf(text, source="huge.trf")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (err.value.file, err.value.line) == ("huge.trf", 2)
    assert str(trf.MAX_LINE_CHARS) in err.value.message
    assert peak < 100 * 1024 * 1024  # the text itself is 10 MB; nothing is built from it


def test_round_cells_beyond_the_most_rounds_are_refused():
    # 200 round cells (2091 columns: under the line budget) but MAX_ROUNDS is 199; round
    # 200's block starts at column 92 + 10 * 199 = 2082.
    rounds = [("0000", "-", "Z")] * 199 + [("2", "w", "1")]
    text = "012 long\n" + line001(1, "A", rounds=rounds) + "\n" + line001(2, "B") + "\n"
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="r.trf")
    assert (err.value.line, err.value.column) == (2, 2082)
    assert "199" in err.value.message
    # 199 full cells (the line ends at column 2081) and trailing blanks are fine
    byes = [("0000", "-", "H")] * 199
    ok = "012 long\n" + line001(1, "A", rounds=byes) + " " * 30 + "\n" + line001(2, "B")
    assert parse_trf(ok).rounds == 199
    # the 132 round dates have the same columns: a date for round 200 is refused too
    dates = "132".ljust(91) + "  ".join(["26/01/10"] * 200)
    with pytest.raises(TrfError) as err:
        parse_trf(dates + "\n" + line001(1, "A"), source="r.trf")
    assert (err.value.line, err.value.column) == (1, 2082)


def test_declared_rounds_beyond_the_budget_are_not_believed():
    t = parse_trf(two_player_file(extra="XXR 200\n"), source="x.trf")
    assert t.rounds == 1 and t.declared_rounds is None
    assert [(w.line, w.column) for w in t.warnings] == [(4, 5)]
    assert "1-199" in t.warnings[0].message


def test_players_times_rounds_budget():
    # 1300 players x 199 declared rounds = 258,700 round cells > 250,000.
    lines = ["012 many", "XXR 199"] + [line001(sr, f"P{sr}") for sr in range(1, 1301)]
    with pytest.raises(TrfError) as err:
        parse_trf("\n".join(lines), source="m.trf")
    assert (err.value.line, err.value.column) == (2, 5)
    assert "1300 players x 199 rounds" in err.value.message and "250000" in err.value.message
    # 1256 x 199 = 249,944 is within the budget
    assert len(parse_trf("\n".join(lines[:2 + 1256])).players) == 1256


def test_too_many_lines_and_too_many_bytes(tmp_path):
    text = two_player_file() + "\n" * trf.MAX_LINES
    with pytest.raises(TrfError, match=r"at most 100000"):
        parse_trf(text, source="n.trf")
    big = tmp_path / "big.trf"
    big.write_bytes(two_player_file().encode() + b"### padding\n" * (trf.MAX_FILE_BYTES // 12 + 10))
    with pytest.raises(TrfError, match=r"at most 16777216 \(16 MiB") as info:
        trf.read_trf(big)
    # the reader stops after 16 MiB + 1 byte: "has 16777217 bytes" misstated the size
    # (the file has 16,777,272 + the players' bytes)
    assert "the file has more than 16777216 bytes" in str(info.value)


# --------------------------------------------------------------------------- control characters

def test_control_characters_in_a_name_and_a_header_are_flagged():
    # ESC [31m (an ANSI colour escape) in a name, BEL in the tournament name: openpyxl
    # refuses them in a cell (IllegalCharacterError), a terminal would obey them.
    text = "\n".join([
        "012 Open\x07 2026",
        line001(1, "Red\x1b[31m, A", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", points="0.0", rounds=[("1", "b", "0")]),
    ])
    t = parse_trf(text, source="ctl.trf")
    assert [(w.line, w.column) for w in t.warnings] == [(1, 9), (2, 18)]
    assert "U+0007" in t.warnings[0].message and "U+001B" in t.warnings[1].message
    # the values a sheet or a terminal shows hold U+FFFD instead (openpyxl refuses ESC)
    assert t.player(1).name == "Red\ufffd[31m, A" and t.name == "Open\ufffd 2026"
    assert trf.clean_text("tab\tkept é – Ž") == "tab\tkept é – Ž"
    assert write_trf(t) == text  # the lines written back as read (no final line break either)
    with pytest.raises(TrfError, match=r"^ctl.trf:1:9: control character U\+0007"):
        parse_trf(text, source="ctl.trf", strict=True)


# --------------------------------------------------------------------------- wrong file kinds

def _zip(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members:
            zf.writestr(name, data)
    return path


def _samples(tmp_path: Path) -> dict[str, Path]:
    """One file of each kind (the OpenDocument layout: a first member ``mimetype``; an
    OLE2 file starts D0 CF 11 E0 A1 B1 1A E1; PDF ``%PDF-``)."""
    wb = openpyxl.Workbook()
    wb.save(tmp_path / "book.xlsx")
    samples = {
        "ods": _zip(tmp_path / "s.ods", [("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"),
                                           ("content.xml", b"<office:document-content/>")]),
        "xlsx": tmp_path / "book.xlsx",
        "zip": _zip(tmp_path / "a.zip", [("event.trf", two_player_file().encode())]),
        "xls": tmp_path / "old.xls",
        "pdf": tmp_path / "r.pdf",
        "html": tmp_path / "page.html",
        "empty": tmp_path / "empty.trf",
        "binary": tmp_path / "noise.bin",
    }
    samples["xls"].write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))
    samples["pdf"].write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
    samples["html"].write_bytes(b"\n<!DOCTYPE html>\n<html><body><pre>012 Open</pre></body></html>\n")
    samples["empty"].write_bytes(b"")
    samples["binary"].write_bytes(bytes(range(256)) * 8)
    return samples


EXPECTED_TRF = {
    "ods": "this is an OpenDocument spreadsheet (.ods), not a TRF text file; save it as .xlsx in "
           "LibreOffice or Excel",
    "xlsx": "this is an Excel workbook (.xlsx), not a TRF text file; give it a name ending in .xlsx",
    "zip": "this is a zip archive, not a TRF text file; unpack it first",
    "xls": "this is an old Excel 97-2003 file (.xls; OLE2 compound document), not a TRF text file; "
           "save it as .xlsx (Excel Workbook) in Excel or LibreOffice",
    "pdf": "this is a PDF document, not a TRF text file; export the TRF (FIDE report file) from the "
           "pairing program",
    "html": "this is an HTML page (a saved web page?), not a TRF text file; download the TRF file "
            "itself, not the page that shows it",
    "empty": "this is an empty file, not a TRF text file; export the file again",
    "binary": "this is a binary file, not a TRF text file; export the TRF (FIDE report file) from "
              "the pairing program",
}


@pytest.mark.parametrize("kind", sorted(EXPECTED_TRF))
def test_wrong_kind_read_as_a_trf_says_what_it_is(kind, tmp_path):
    # Issue 10 #11: every such file got "no player records ... '001'".
    path = _samples(tmp_path)[kind]
    assert filekind.wrong_kind(path, "trf") == EXPECTED_TRF[kind]
    with pytest.raises(TrfError) as err:
        trf.read_trf(path)
    assert err.value.message == EXPECTED_TRF[kind]
    assert err.value.file == str(path)


def test_wrong_kind_as_a_workbook(tmp_path):
    s = _samples(tmp_path)
    assert filekind.wrong_kind(s["xlsx"], "workbook") is None
    assert filekind.wrong_kind(s["ods"], "workbook") == (
        "this is an OpenDocument spreadsheet (.ods), not an .xlsx workbook; save it as .xlsx in "
        "LibreOffice or Excel")
    text = tmp_path / "event.trf"
    text.write_text(two_player_file())
    assert filekind.wrong_kind(text, "trf") is None
    assert filekind.wrong_kind(text, "workbook") == (
        "this is a text file, not an .xlsx workbook (a TRF?); give it a name ending in .trf")


@pytest.mark.parametrize("kind, name", [("ods", "book.xlsx"), ("ods", "book.ods"), ("xls", "e.xls"),
                                        ("pdf", "e.trf"), ("html", "e.xlsx"), ("empty", "e.trf"),
                                        ("xlsx", "e.trf")])
def test_cli_names_the_wrong_kind_in_one_line(kind, name, tmp_path, capsys):
    src = _samples(tmp_path)[kind]
    path = tmp_path / "in" / name
    path.parent.mkdir()
    path.write_bytes(src.read_bytes())
    code = main(["report", str(path)])
    _, err = capsys.readouterr()
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    expected = filekind.wrong_kind(path, "workbook" if name.endswith(".xlsx") else "trf")
    assert expected is not None and err.strip() == f"xl-fide: error: {path}: {expected}"


# --------------------------------------------------------------------------- CLI: --encoding

def test_cli_encoding_option_and_trf_written_back_in_the_file_encoding(tmp_path, capsys):
    src = tmp_path / "w.trf"
    src.write_bytes(cp1252_file())
    out = tmp_path / "back.trf"
    assert main(["trf", str(src), "-o", str(out)]) == 0
    assert out.read_bytes() == cp1252_file()          # Š Ž Œ – ’ kept, as Windows-1252
    capsys.readouterr()
    # read as Latin-1 on purpose: the 0x80-0x9F bytes become C1 controls, warned about
    assert main(["report", str(src), "--encoding", "latin-1"]) == 0
    _, err = capsys.readouterr()
    assert "C1 control" in err
    assert main(["report", str(src), "--encoding", "klingon"]) == 2
    _, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "unknown encoding 'klingon'" in err


# --------------------------------------------------------------------------- more file checks

def test_utf16_trf_and_a_stray_nul_are_still_text(tmp_path, capsys):
    # A UTF-16 TRF with its byte order mark is text (every other byte is NUL), and one
    # NUL in a damaged TRF is a warning of the reader, not "a binary file".
    u16 = tmp_path / "u16.trf"
    u16.write_bytes(two_player_file().encode("utf-16"))
    assert filekind.wrong_kind(u16, "trf") is None
    assert main(["report", str(u16), "-q"]) == 0
    nul = tmp_path / "nul.trf"
    nul.write_bytes(named_file("Nul#, A").encode().replace(b"#", b"\x00"))
    assert filekind.wrong_kind(nul, "trf") is None
    capsys.readouterr()
    assert main(["report", str(nul)]) == 0
    assert "U+0000" in capsys.readouterr().err


def test_cli_crosstable_and_report_with_control_characters(tmp_path, capsys):
    # Issue 11: a control character in a TRF name crashed crosstable (openpyxl's
    # IllegalCharacterError, exit 3) and the report printed ANSI escapes raw.
    src = tmp_path / "ctl.trf"
    src.write_text("\n".join([
        "012 Open\x07",
        line001(1, "Red\x1b[31m, A", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", points="0.0", rounds=[("1", "b", "0")]),
    ]) + "\n", encoding="utf-8")
    assert main(["crosstable", str(src), "-o", str(tmp_path / "c.xlsx"), "-q"]) == 0
    capsys.readouterr()
    assert main(["report", str(src), "-q"]) == 0
    out, _ = capsys.readouterr()
    assert "\x1b" not in out and "\x07" not in out and "Red\ufffd[31m, A" in out
    back = tmp_path / "back.trf"
    assert main(["trf", str(src), "-o", str(back), "-q"]) == 0
    assert back.read_bytes() == src.read_bytes()


def test_text_kept_elsewhere_remembers_its_file_encoding():
    # A TRF kept as text (e.g. in a workbook) is written back in its file's encoding.
    data = cp1252_file()
    t = parse_trf(data.decode("cp1252"), encoding="cp1252")
    assert t.encoding == "cp1252" and trf.encode_trf(t) == data
    assert parse_trf(data.decode("cp1252")).encoding == "utf-8"
    with pytest.raises(TrfError, match="unknown encoding"):
        parse_trf("012 x\n", encoding="nope")


# --------------------------------------------------------------------------- fuzz families
# Bounded: a few dozen examples each; every one must give a Tournament or a TrfError
# naming the file and line, never another exception.

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.integers(0, 3 * trf.MAX_LINE_CHARS), st.sampled_from(["### ", "001 ", "XXR ", "012 "]))
def test_fuzz_long_lines(length, tag):
    line = (tag + "9" * length)[:max(length, 4)]
    text = two_player_file() + line + "\n"
    try:
        parse_trf(text, source="f.trf")
    except TrfError as err:
        assert err.file == "f.trf" and err.line == 4
        if len(line) > trf.MAX_LINE_CHARS:
            assert str(trf.MAX_LINE_CHARS) in err.message
    else:
        assert len(line) <= trf.MAX_LINE_CHARS


@FUZZ
@given(st.integers(1, 400))
def test_fuzz_many_round_cells(n):
    rounds = [("2", "w", "1") if r % 2 else ("2", "b", "0") for r in range(n)]
    back = [("1", "b", "0") if r % 2 else ("1", "w", "1") for r in range(n)]
    text = "\n".join(["012 cells", line001(1, "A", rounds=rounds), line001(2, "B", rounds=back)])
    if n <= trf.MAX_ROUNDS:
        assert parse_trf(text).rounds == n
    else:
        with pytest.raises(TrfError) as err:
            parse_trf(text, source="c.trf")
        assert (err.value.line, err.value.column) == (2, 92 + 10 * trf.MAX_ROUNDS)


# Digits that are not ASCII: superscripts, Arabic-Indic, fullwidth, NKo, Devanagari.
UNICODE_DIGITS = "²¹³٠١٢٣٤٥٦٧٨٩０１２３４５６７８９߀߁०१२"


@FUZZ
@given(st.sampled_from([(49, 4, "rating"), (58, 11, "fide_id"), (81, 4, "points"),
                        (86, 4, "rank"), (5, 4, "start_rank"), (92, 4, "opponent")]),
       st.text(alphabet=UNICODE_DIGITS + "0123456789", min_size=1, max_size=4))
def test_fuzz_unicode_digits_are_never_numbers(where, digits):
    col, width, what = where
    line = line001(1, "A", rating="2000", fide_id="1234", points="1.0", rank="1",
                   rounds=[("2", "w", "1")])
    field = digits.rjust(width)
    line = line[:col - 1] + field + line[col - 1 + width:]
    text = "\n".join(["012 digits", line, line001(2, "B", points="0.0", rounds=[("1", "b", "0")])])
    assume(any(c in UNICODE_DIGITS for c in digits))
    try:
        t = parse_trf(text)
    except TrfError as err:
        # only a start rank or an opponent that is not a player is fatal in lenient mode
        assert err.line == 2 and what in ("start_rank", "opponent")
        return
    p1 = t.players[0]
    value = {"rating": p1.rating, "fide_id": p1.fide_id, "points": p1.points, "rank": p1.rank}[what]
    assert value is None
    assert any(w.line == 2 for w in t.warnings)


@FUZZ
@given(st.sampled_from([chr(c) for c in [*range(0, 9), 11, 12, *range(14, 32), 127, *range(0x80, 0xA0)]]),
       st.integers(0, 9))
def test_fuzz_control_characters_in_a_name(ch, pos):
    name = "Abcdefghij"[:pos] + ch + "Abcdefghij"[pos:]
    text = named_file(name)
    t = parse_trf(text, source="k.trf")
    assert [(w.line, w.column) for w in t.warnings] == [(2, 15 + pos)]
    assert ch not in t.player(1).name
    assert t.player(1).name == trf.clean_text(name.strip())
    assert write_trf(t) == text


@FUZZ
@given(st.sampled_from(sorted(trf.RESULT_CODES)), st.sampled_from(sorted(trf.RESULT_CODES)))
def test_fuzz_one_sided_byes_and_every_code_pair(a, b):
    text = "\n".join([
        "012 pairs",
        line001(1, "A", rounds=[("2", "w", a)]),
        line001(2, "B", rounds=[("1", "b", b)]),
    ])
    t = parse_trf(text, source="p.trf")
    pair = [w for w in t.warnings if "player 1 and player 2" in w.message]
    expected = pair_problem(a, b, "w", "b")
    assert [w.message.rsplit("): ", 1)[1] for w in pair] == ([expected] if expected else [])
    if (a in BYE_CODES) != (b in BYE_CODES):  # a bye against a result: always refused
        assert pair and (pair[0].line, pair[0].column) == (2, 99)
        with pytest.raises(TrfError):
            parse_trf(text, strict=True)


CP1252_TEXT = bytes(b for b in range(0x20, 0x100) if b not in (0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D)
                    ).decode("cp1252")


@FUZZ
@given(st.text(alphabet=CP1252_TEXT, min_size=1, max_size=33))
def test_fuzz_cp1252_names_round_trip_byte_for_byte(name):
    name = name.strip() or "X"
    data = named_file(name).encode("cp1252")
    try:
        data.decode("utf-8")
        assume(False)  # also valid UTF-8 (as "Â¡" is): read as UTF-8, by design
    except UnicodeDecodeError:
        pass
    t = parse_trf(data)
    assert t.player(1).name == name and t.encoding == "cp1252" and t.warnings == ()
    assert trf.encode_trf(t) == data


def test_windows_1252_trf_through_a_workbook_comes_back_byte_for_byte(tmp_path, capsys):
    # TRF (Windows-1252) -> crosstable -> trf BOOK.xlsx: the same bytes (issue 10 #9).
    src = tmp_path / "w.trf"
    src.write_bytes(cp1252_file())
    book, back = tmp_path / "w.xlsx", tmp_path / "back.trf"
    assert main(["crosstable", str(src), "-o", str(book), "-q"]) == 0
    assert main(["trf", str(book), "-o", str(back), "-q"]) == 0
    assert back.read_bytes() == cp1252_file()
    # a name typed with a character Windows-1252 has not: refused, then written as asked
    wb = openpyxl.load_workbook(book)
    cell = next(c for row in wb["Crosstable"].iter_rows() for c in row if c.value == "Šaric–Žagar, Œ’é")
    cell.value = "Łukasz, Œ"
    wb.save(book)
    capsys.readouterr()
    assert main(["trf", str(book), "-o", str(back), "--force", "-q"]) == 2
    assert "'Ł' cannot be written in cp1252" in capsys.readouterr().err
    assert main(["trf", str(book), "-o", str(back), "--force", "-q", "--encoding", "utf-8"]) == 0
    assert "Łukasz, Œ" in back.read_bytes().decode("utf-8")
