"""Hostile and broken workbooks (issue 11): zip bombs refused from the zip directory
before anything is parsed; every corrupt package an input error (exit 2, one line, never
exit 3); Unicode digits and control characters handled; the Rounds and Player rows
cells cannot drop filled results; XXS colour-dependent scoring kept; `crosstable` never
writes a workbook the reader refuses. Fuzz families are seeded and bounded."""
from __future__ import annotations

import io
import random
import re
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.excel.test_workbook import saved, swiss_example
from tests.excel.test_workbook_truth import round_cell
from xl_fide.cli._main import main
from xl_fide.errors import WorkbookError
from xl_fide.trf import read_trf, write_trf
from xl_fide.excel._layout import CROSS, EVENT, EVENT_ROW, REPORT
from xl_fide.excel._read import ZIP_MAX_OTHER, ZIP_MAX_RATIO, ZIP_MAX_SHEET, read_workbook
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report

DATA = Path(__file__).parents[1] / "data" / "trf"
SMALL_TRFS = [DATA / n for n in ("gros_2010_swiss_after_round4.trf",
                                 "online_swiss_2020_unrated.trf", "mini_trf2026.trf",
                                 "roundrobin_12_synthetic.trf", "team_swiss_synthetic.trf")]


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    return saved(fill_workbook(build_report(swiss_example())), tmp_path_factory.mktemp("hostile"))


def members(path):
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i.filename) for i in z.infolist()}


def repack(path, out, replace=(), extra=None, stored=()):
    """A copy of the package with members replaced: ``replace`` (name, bytes or a
    generator of chunks)."""
    parts = members(path)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            if name in dict(replace):
                continue
            z.writestr(name, data, zipfile.ZIP_STORED if name in stored else None)
        for name, data in replace:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w", force_zip64=True) as f:
                for chunk in ([data] if isinstance(data, bytes) else data):
                    f.write(chunk)
    return out


def refused_by_cli(path, capsys, pattern):
    for argv in (["report", str(path)], ["trf", str(path), "-o", str(path) + ".trf"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and re.search(pattern, err[0]), err
    assert not Path(str(path) + ".trf").exists()


def spaces(total, chunk=1 << 20):
    block = b" " * chunk
    for _ in range(total // chunk):
        yield block


# ------------------------------------------------------------------------- zip bombs

@pytest.mark.parametrize("name, body", [
    # a sheet of whitespace bigger than the sheet budget (compressed about 1,000:1)
    ("xl/worksheets/sheet1.xml", lambda: spaces(ZIP_MAX_SHEET + (1 << 20))),
    # shared strings: the same string repeated past the budget
    ("xl/sharedStrings.xml", lambda: (b"<si><t>x</t></si>" * 65536 for _ in range(
        ZIP_MAX_OTHER // (17 * 65536) + 2))),
    # styles: whitespace past the budget
    ("xl/styles.xml", lambda: spaces(ZIP_MAX_OTHER + (1 << 20))),
    # under every size budget but compressed far more than real workbooks are
    ("xl/worksheets/sheet2.xml", lambda: spaces(ZIP_MAX_RATIO * (1 << 16))),
])
def test_zip_bombs_are_refused_from_the_directory(book, tmp_path, capsys, name, body):
    bomb = repack(book, tmp_path / "bomb.xlsx", replace=[(name, body())])
    assert bomb.stat().st_size < 4 << 20          # a small file ...
    with pytest.raises(WorkbookError, match=r"zip bomb|more than the"):
        read_workbook(bomb)                        # ... refused before it is unpacked
    refused_by_cli(bomb, capsys, r"zip bomb|more than the")


# ------------------------------------------------------------------- corrupt packages

def sheet_xml(path):
    return members(path)["xl/worksheets/sheet1.xml"]


def test_bad_crc_mismatched_tags_and_bad_tokens_are_input_errors(book, tmp_path, capsys):
    xml = sheet_xml(book)
    cases = {
        "tags": xml.replace(b"</row>", b"</rox>", 1),
        "token": xml.replace(b"<row ", b"<row &bogus; ", 1),
        "control": xml.replace(b"<row ", b"<row \x01", 1),
        "truncated": xml[: len(xml) // 2],
    }
    for what, data in cases.items():
        bad = repack(book, tmp_path / f"{what}.xlsx", replace=[("xl/worksheets/sheet1.xml", data)])
        with pytest.raises(WorkbookError):
            read_workbook(bad)
        refused_by_cli(bad, capsys, r"xl-fide: error: ")
    # bad CRC: the sheet stored uncompressed, one byte of its data changed
    crc = repack(book, tmp_path / "crc.xlsx", stored={"xl/worksheets/sheet1.xml"})
    raw = bytearray(crc.read_bytes())
    at = raw.find(b"<sheetData>") + 20
    raw[at] = ord("9") if raw[at] != ord("9") else ord("8")
    crc.write_bytes(bytes(raw))
    with pytest.raises(WorkbookError, match="damaged|not an .xlsx"):
        read_workbook(crc)
    refused_by_cli(crc, capsys, r"damaged|not an \.xlsx")


def test_byte_flips_give_a_reading_or_one_line_never_exit_3(book, tmp_path, capsys):
    """40 seeded mutants of a real package: 1-8 random bytes changed, or a cut."""
    data = book.read_bytes()
    rnd = random.Random(11)
    for k in range(40):
        raw = bytearray(data)
        if k % 5 == 4:
            raw = raw[: rnd.randrange(len(raw))]
        else:
            for _ in range(rnd.randint(1, 8)):
                raw[rnd.randrange(len(raw))] = rnd.randrange(256)
        path = tmp_path / f"m{k}.xlsx"
        path.write_bytes(bytes(raw))
        code = main(["report", str(path)])
        _, err = capsys.readouterr()
        assert code in (0, 2), err
        if code == 2:
            assert len(err.strip().splitlines()) == 1 and "internal error" not in err


# ----------------------------------------------------------------- characters and digits

@pytest.mark.parametrize("cell, value, what", [
    ("F6", "²", "rating Ro"), ("F6", "2٠٠٠", "rating Ro"), ("G6", "１９８０", "year of birth"),
    (round_cell(1, "opp", 1), "²", "opponent"), (round_cell(1, "res", 1), "¹", "result"),
])
def test_unicode_digits_name_their_cell(book, tmp_path, cell, value, what):
    wb = load_workbook(book)
    wb[CROSS][cell] = value
    path = tmp_path / "digits.xlsx"
    wb.save(path)
    with pytest.raises(WorkbookError, match=rf"Crosstable!{cell}: {what} must be"):
        read_workbook(path)


def test_control_characters_are_replaced_with_a_note(tmp_path):
    from tests.excel.test_workbook import _round_robin
    t = _round_robin([2000, 1900], {(1, 2): "1"}, names={1: "Al\x01pha", 2: "Be\x1b[31mta"},
                     name="Evil\x07 Open")
    wb = fill_workbook(build_report(t))                 # openpyxl's IllegalCharacterError before
    path = saved(wb, tmp_path)
    got = load_workbook(path)
    assert [got[CROSS][c].value for c in ("C5", "C6")] == ["Al\ufffdpha", "Be\ufffd[31mta"]
    assert got[EVENT].cell(EVENT_ROW["name"], 2).value == "Evil\ufffd Open"
    notes = [c.value for c in got[REPORT]["A"] if isinstance(c.value, str)]
    assert any("control characters" in n and "Crosstable!C5" in n for n in notes)
    assert len(read_workbook(path).players) == 2


# ------------------------------------------------------------- Rounds and Player rows

def sized_book(tmp_path, name="sized.xlsx"):
    # swiss_example: 6 players, 6 rounds; the sheet: 8 rows, 7 rounds
    return saved(fill_workbook(build_report(swiss_example()), rows=8, rounds=7), tmp_path, name)


def set_event(path, key, value):
    wb = load_workbook(path)
    wb[EVENT].cell(EVENT_ROW[key], 2).value = value
    wb.save(path)


def test_lowering_rounds_below_what_is_filled_is_refused(tmp_path, capsys):
    path = sized_book(tmp_path)
    set_event(path, "rounds", 5)
    rounds = f"Event!B{EVENT_ROW['rounds']}"
    # player 1's round 6 is an H bye: its result cell is the first filled cell of round 6
    pattern = rf"{rounds}: Rounds is 5, but round 6 is filled \(Crosstable!{round_cell(6, 'res', 1)}\)"
    with pytest.raises(WorkbookError, match=pattern):
        read_workbook(path)
    refused_by_cli(path, capsys, pattern)
    set_event(path, "rounds", 8)                  # more than the sheet has
    with pytest.raises(WorkbookError, match=rf"{rounds}: Rounds is 8 but the Crosstable sheet "
                                            r"has 7 rounds"):
        read_workbook(path)
    set_event(path, "rounds", 6)                  # round 7 is empty: fine
    t = read_workbook(path)
    assert t.rounds == 6 and "XXR 6" in write_trf(t)


def test_lowering_player_rows_below_what_is_filled_is_refused(tmp_path, capsys):
    path = sized_book(tmp_path)
    rows = f"Event!B{EVENT_ROW['players']}"
    set_event(path, "players", 5)
    pattern = rf"{rows}: Player rows is 5, but row 10 is filled \(Crosstable!C10\)"
    with pytest.raises(WorkbookError, match=pattern):
        read_workbook(path)
    refused_by_cli(path, capsys, pattern)
    set_event(path, "players", 9)
    with pytest.raises(WorkbookError, match=rf"{rows}: Player rows is 9 but the Crosstable "
                                            r"sheet has 8 player rows"):
        read_workbook(path)
    set_event(path, "players", 6)                 # rows 11 and 12 are empty: fine
    assert len(read_workbook(path).players) == 6


# ---------------------------------------------------------------- XXS colour scoring

def test_colour_dependent_scoring_is_kept(tmp_path):
    """XXS BW=1.5 (a win with black is worth 1.5): the workbook's read-back keeps it, so
    the scores and the TRF written back are those of the file."""
    text = (DATA / "online_swiss_2020_unrated.trf").read_text()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("001"))
    lines.insert(at, "XXS WW=1 BW=1.5 WD=0.5 BD=0.5")
    trf = tmp_path / "xxs.trf"
    trf.write_text("\n".join(lines) + "\n")
    t = read_trf(trf)
    assert t.scoring["1b"] == Decimal("1.5")
    path = saved(fill_workbook(build_report(t)), tmp_path)
    back = read_workbook(path)
    assert back.scoring["1b"] == Decimal("1.5")
    assert [back.score(p) for p in back.players] == [t.score(p) for p in t.players]
    assert write_trf(back) == write_trf(t)


# ---------------------------------------------------- crosstable over mutated TRF files

def mutants(rnd, text, count):
    """Line-level damage an arbiter's file can have: a result or opponent changed on one
    side, a bye on one side, a line dropped or doubled, a round cell cut."""
    lines = text.splitlines()
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    for _ in range(count):
        new = list(lines)
        i = rnd.choice(players)
        line = new[i].ljust(100)
        kind = rnd.randrange(6)
        if kind == 0:                             # a result changed on one side
            cols = [c for c in range(98, len(line), 10) if line[c] != " "]
            if cols:
                c = rnd.choice(cols)
                line = line[:c] + rnd.choice("10=+-HFUZWDL") + line[c + 1:]
        elif kind == 1:                           # an opponent changed on one side
            cols = list(range(91, len(line) - 3, 10))
            if cols:
                c = rnd.choice(cols)
                line = line[:c] + f"{rnd.randint(0, len(players) + 3):>4}" + line[c + 4:]
        elif kind == 2:                           # a bye on one side of a game
            cols = list(range(91, len(line) - 7, 10))
            if cols:
                c = rnd.choice(cols)
                line = line[:c] + "0000 - " + rnd.choice("HFUZ") + line[c + 8:]
        elif kind == 3:
            new.pop(i)
            line = None
        elif kind == 4:
            new.insert(i, new[i])
        else:
            line = line[: rnd.randrange(90, max(91, len(line.rstrip())))]
        if line is not None and kind != 4:
            new[i] = line.rstrip()
        yield "\n".join(new) + "\n"


def test_crosstable_never_writes_a_workbook_the_reader_refuses(tmp_path, capsys):
    rnd = random.Random(5)
    k = 0
    for trf in SMALL_TRFS:
        for text in mutants(rnd, trf.read_text(encoding="utf-8"), 6):
            k += 1
            src, out = tmp_path / f"m{k}.trf", tmp_path / f"m{k}.xlsx"
            src.write_text(text, encoding="utf-8")
            code = main(["crosstable", str(src), "-o", str(out)])
            _, err = capsys.readouterr()
            assert code in (0, 2), err
            if code == 0:
                read_workbook(out)                 # reads back: no WorkbookError
                assert main(["trf", str(out), "-o", str(tmp_path / f"m{k}.out.trf")]) == 0
                capsys.readouterr()
            else:
                errors = [line for line in err.splitlines() if not line.startswith("warning:")]
                assert not out.exists() and len(errors) == 1, err


# ------------------------------------------- issue 22 #6: nothing on the diagonal

def rr_book(tmp_path):
    from tests.excel.test_workbook import _round_robin
    t = _round_robin([2000, 1900, 1800, 1700], {(1, 2): "1", (1, 3): "=", (1, 4): "0",
                                                 (2, 3): "1", (2, 4): "=", (3, 4): "1"})
    return saved(fill_workbook(build_report(t)), tmp_path, "rr.xlsx")


@pytest.mark.parametrize("value", ["1", "½", 1, "0-1", "+"])
def test_a_result_on_the_diagonal_is_refused_not_dropped(tmp_path, capsys, value):
    # #6: a result typed in player 2's own column was dropped without a word
    from openpyxl.utils import get_column_letter
    from xl_fide.excel._layout import _Geometry
    from xl_fide.udfs import FIDE_EVENT
    path = rr_book(tmp_path)
    geo = _Geometry("roundrobin", 4, 3)
    cell = f"{get_column_letter(geo.grid_col(2))}{geo.first + 1}"
    wb = load_workbook(path)
    wb[CROSS][cell] = value
    wb.save(path)
    pattern = rf"{CROSS}!{cell}: .* on the diagonal: player 2 does not play himself"
    with pytest.raises(WorkbookError, match=pattern):
        read_workbook(path)
    refused_by_cli(path, capsys, pattern)
    # the function the live sheet uses says so too
    grid = [[None, "1", "=", "0"], ["0", value, "1", "="], ["=", "0", None, "1"],
            ["1", "=", "0", None]]
    with pytest.raises(ValueError, match="results row 2 column 2 is .*a result on the diagonal"):
        FIDE_EVENT([2000, 1900, 1800, 1700], [20, 20, 20, 20], grid)
    # a marker (x, *) stays allowed, in the function and the reader
    grid[1][1] = "x"
    assert len(FIDE_EVENT([2000, 1900, 1800, 1700], [20, 20, 20, 20], grid)) == 4
    wb = load_workbook(path)
    wb[CROSS][cell] = "*"
    wb.save(path)
    assert len(read_workbook(path).players) == 4


# ------------------------ issue 22 #20: an inserted, deleted or sorted row is named

def rows_edited(path, edit):
    wb = load_workbook(path)
    ws = wb[CROSS]
    if edit == "insert":
        ws.insert_rows(7)
    elif edit == "delete":
        ws.delete_rows(7)
    else:                                   # rows 5-10 sorted the other way round
        block = [[c.value for c in row] for row in ws.iter_rows(min_row=5, max_row=10)]
        for i, row in enumerate(reversed(block)):
            for j, v in enumerate(row):
                ws.cell(5 + i, 1 + j).value = v
    wb.save(path)
    return path


@pytest.mark.parametrize("edit, pattern", [
    ("insert", r"Crosstable!A7: No is blank, yet Crosstable!A8 below is numbered 3: a row "
               r"inserted among the players\?"),
    ("delete", r"Crosstable!A7: No is 4 where 3 is expected: player row 3 deleted\?"),
    ("sort", r"Crosstable!A5: No is 6 where 1 is expected: the rows sorted, or a row moved\?"),
])
def test_an_inserted_deleted_or_sorted_row_is_named(book, tmp_path, capsys, edit, pattern):
    # #20: all three were answered "Player rows is 6 but the Crosstable sheet has 2 player
    # rows (make a bigger sheet)": the sheet is big enough, the rows were moved
    path = tmp_path / "edited.xlsx"
    path.write_bytes(Path(book).read_bytes())
    rows_edited(path, edit)
    with pytest.raises(WorkbookError, match=pattern) as exc:
        read_workbook(path)
    assert "bigger sheet" not in str(exc.value)
    refused_by_cli(path, capsys, pattern)


def test_a_layout_the_sheet_is_not_is_named(book, tmp_path, capsys):
    # the Event sheet's Layout changed to roundrobin over a Swiss table: before, "Rounds is
    # 6 but the Crosstable sheet has 0 rounds"-like or diagonal messages
    path = tmp_path / "layout.xlsx"
    path.write_bytes(Path(book).read_bytes())
    set_event(path, "layout", "roundrobin")
    pattern = (r"Event!B\d+: Layout is roundrobin but the Crosstable sheet is a swiss table "
               r"\(Crosstable!\w+4 is 'Opp'\): set Layout back to swiss")
    with pytest.raises(WorkbookError, match=pattern):
        read_workbook(path)
    refused_by_cli(path, capsys, pattern)
