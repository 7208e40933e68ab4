"""TRF -> workbook -> TRF (issue 10 #7, #8): the original file comes back (same lines,
same order, LF) when nothing was edited; where cells were edited, only the lines they
belong to change. Round robins keep their rounds and colours from the TRF; a round robin
without a TRF behind it is paired by FIDE's Berger tables (C.05 Annex 1)."""
from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.trf.test_trf import ENCODING, normalised_bytes, normalised_text
from tests.excel.test_workbook import saved
from tests.excel.test_workbook_truth import round_cell
from xl_fide.event.report import build_report
from xl_fide.trf import encode_trf, read_trf, write_trf
from xl_fide.excel._layout import CROSS, EVENT, EVENT_ROW
from xl_fide.excel._roundtrip import ORIGINAL
from xl_fide.excel._read import _berger
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._read import read_workbook

DATA = Path(__file__).parents[1] / "data" / "trf"
TRF_FILES = sorted(DATA.glob("*.trf"))


def original_lines(path):
    """The file's lines as text (LF, CRLF or CR endings)."""
    text = normalised_text(path)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def workbook_of(trf, tmp_path, name="book.xlsx", **kw):
    t = read_trf(trf)
    return t, saved(fill_workbook(build_report(t), **kw), tmp_path, name)


def edit(path, sheet, cells):
    wb = load_workbook(path)
    for coord, value in cells.items():
        wb[sheet][coord] = value
    wb.save(path)


@pytest.mark.parametrize("trf", TRF_FILES, ids=lambda p: p.stem)
def test_unedited_workbook_gives_the_original_trf_back(trf, tmp_path):
    _, path = workbook_of(trf, tmp_path)
    text = write_trf(read_workbook(path))
    assert text.endswith("\n") and "\r" not in text
    assert text.split("\n")[:-1] == original_lines(trf)
    # byte for byte, in the encoding the TRF was read in (kept on TRF_original): a
    # Windows-1252 file from Swiss-Manager comes back Windows-1252, not UTF-8
    back = read_workbook(path)
    assert back.encoding == ENCODING.get(trf.name, "utf-8")
    assert encode_trf(back) == normalised_bytes(trf)


def test_the_original_is_kept_very_hidden(tmp_path):
    _, path = workbook_of(DATA / "san_viator_2018_swiss.trf", tmp_path)
    wb = load_workbook(path)
    assert wb[ORIGINAL].sheet_state == "veryHidden"
    assert "TRF" not in wb.sheetnames          # the visible name TRF is kept for the Lite paste-in


def changed_lines(before, after):
    assert len(before) == len(after)
    return {i: (a, b) for i, (a, b) in enumerate(zip(before, after)) if a != b}


def test_only_what_was_edited_changes_swiss(tmp_path):
    trf = DATA / "san_viator_2018_swiss.trf"
    t, path = workbook_of(trf, tmp_path)
    # the first player who won in round 1 (over the board), and his opponent
    me = next(p.start_rank for p in t.players if p.games[0].code == "1" and p.games[0].opponent)
    opp = t.player(me).games[0].opponent
    assert t.player(opp).games[0].code == "0"
    edit(path, CROSS, {f"C{4 + me}": "Renamed, Player",
                       round_cell(1, "res", me): 0, round_cell(1, "res", opp): 1})
    before = original_lines(trf)
    after = write_trf(read_workbook(path)).split("\n")[:-1]
    # the final ranks (columns 86-89) follow the points moved (by points, ties in the
    # file's order): aside from them only the two edited lines change
    changed = changed_lines(*([line[:85] + line[89:] if line.startswith("001") else line
                               for line in lines] for lines in (before, after)))
    lines = {p.start_rank: p.line - 1 for p in t.players}
    assert sorted(changed) == sorted([lines[me], lines[opp]])
    changed = {i: (before[i], after[i]) for i in changed}
    old3, new3 = changed[lines[me]]
    # name (columns 15-47), points (81-84) one less, round 1 result (column 99) 1 -> 0;
    # every other column as it was (but the rank)
    assert new3[14:47].rstrip() == "Renamed, Player"
    assert float(new3[80:84]) == float(old3[80:84]) - 1
    assert (old3[98], new3[98]) == ("1", "0")
    assert old3[:14] + old3[47:80] + old3[84:85] + old3[89:98] + old3[99:] == (
        new3[:14] + new3[47:80] + new3[84:85] + new3[89:98] + new3[99:])
    oldo, newo = changed[lines[opp]]
    assert (oldo[98], newo[98]) == ("0", "1")
    assert float(newo[80:84]) == float(oldo[80:84]) + 1


def test_only_what_was_edited_changes_round_robin(tmp_path):
    trf = DATA / "roundrobin_12_synthetic.trf"
    t, path = workbook_of(trf, tmp_path)
    back = read_workbook(path)
    # rounds and colours of every game as in the TRF (not re-invented)
    assert [(p.start_rank, p.games) for p in back.players] == [
        (p.start_rank, p.games) for p in t.players]
    g = t.player(1).games[0]                       # 1 beat 8 with black in round 1
    assert (g.opponent, g.colour, g.code) == (8, "b", "1")
    grid = 13                                      # column M: results against player 1
    col = lambda j: chr(ord("A") + grid - 1 + j - 1)   # noqa: E731
    edit(path, CROSS, {f"{col(8)}5": "½", f"{col(1)}12": "½"})
    after = write_trf(read_workbook(path)).split("\n")[:-1]
    before = original_lines(trf)
    # aside from the final ranks (columns 86-89), which follow the points moved
    changed = changed_lines(*([line[:85] + line[89:] if line.startswith("001") else line
                               for line in lines] for lines in (before, after)))
    assert sorted(changed) == [14, 21]             # the 001 lines of players 1 and 8
    changed = {i: (before[i], after[i]) for i in changed}
    old1, new1 = changed[14]
    assert new1[91:99] == "   8 b =" and old1[91:99] == "   8 b 1"
    assert float(new1[80:84]) == float(old1[80:84]) - 0.5


def test_event_sheet_edits_change_only_their_records(tmp_path):
    trf = DATA / "gros_2010_swiss_after_round4.trf"
    _, path = workbook_of(trf, tmp_path)
    edit(path, EVENT, {f"B{EVENT_ROW['name']}": "Gros Open 2010",
                       f"B{EVENT_ROW['city']}": "Donostia-San Sebastián"})
    before = original_lines(trf)
    changed = changed_lines(before, write_trf(read_workbook(path)).split("\n")[:-1])
    assert {b for _, b in changed.values()} == {"012 Gros Open 2010", "022 Donostia-San Sebastián"}


def test_libreoffice_resave_keeps_the_round_trip(office, tmp_path):
    """A workbook opened and saved by LibreOffice (the hidden sheet and its long cells
    survive) still gives the original TRF back."""
    for trf in (DATA / "roundrobin_12_synthetic.trf", DATA / "mini_trf2026.trf"):
        _, path = workbook_of(trf, tmp_path, f"{trf.stem}.xlsx")
        resaved = tmp_path / f"{trf.stem}.lo.xlsx"
        office.recalc(path, resaved)
        assert write_trf(read_workbook(resaved)).split("\n")[:-1] == original_lines(trf)


# --------------------------------------------------------------------------- Berger tables

# FIDE Handbook C.05 Annex 1 (Berger tables), as published: "white-black" per board.
BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"],
    10: ["1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
         "10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
         "4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1"],
    12: ["1-12 2-11 3-10 4-9 5-8 6-7", "12-7 8-6 9-5 10-4 11-3 1-2",
         "2-12 3-1 4-11 5-10 6-9 7-8", "12-8 9-7 10-6 11-5 1-4 2-3",
         "3-12 4-2 5-1 6-11 7-10 8-9", "12-9 10-8 11-7 1-6 2-5 3-4",
         "4-12 5-3 6-2 7-1 8-11 9-10", "12-10 11-9 1-8 2-7 3-6 4-5",
         "5-12 6-4 7-3 8-2 9-1 10-11", "12-11 1-10 2-9 3-8 4-7 5-6",
         "6-12 7-5 8-4 9-3 10-2 11-1"],
    14: ["1-14 2-13 3-12 4-11 5-10 6-9 7-8", "14-8 9-7 10-6 11-5 12-4 13-3 1-2",
         "2-14 3-1 4-13 5-12 6-11 7-10 8-9", "14-9 10-8 11-7 12-6 13-5 1-4 2-3",
         "3-14 4-2 5-1 6-13 7-12 8-11 9-10", "14-10 11-9 12-8 13-7 1-6 2-5 3-4",
         "4-14 5-3 6-2 7-1 8-13 9-12 10-11", "14-11 12-10 13-9 1-8 2-7 3-6 4-5",
         "5-14 6-4 7-3 8-2 9-1 10-13 11-12", "14-12 13-11 1-10 2-9 3-8 4-7 5-6",
         "6-14 7-5 8-4 9-3 10-2 11-1 12-13", "14-13 1-12 2-11 3-10 4-9 5-8 6-7",
         "7-14 8-6 9-5 10-4 11-3 12-2 13-1"],
}


def as_text(rounds):
    return [" ".join(f"{w}-{b}" for w, b in pairs) for pairs in rounds]


@pytest.mark.parametrize("n", sorted(BERGER))
def test_berger_tables_as_published(n):
    assert as_text(_berger(list(range(1, n + 1)))) == BERGER[n]


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11, 13, 15])
def test_odd_counts_use_the_next_table_with_the_highest_number_as_bye(n):
    """C.05 Annex 1: with an odd number of players, number n + 1 is a bye (shown 0)."""
    got = _berger(list(range(1, n + 1)))
    table = BERGER.get(n + 1)
    if table is not None:
        assert as_text(got) == [t.replace(f"-{n + 1}", "-0").replace(f"{n + 1}-", "0-")
                                for t in table]
    byes = [next(w or b for w, b in pairs if 0 in (w, b)) for pairs in got]
    assert sorted(byes) == list(range(1, n + 1))            # each player one bye


def test_sixteen_players():
    """16: the construction of the tables (round 1 is 1-16, 2-15 ...; 16 alternates
    colour; every pair meets once; nobody plays twice in a round)."""
    rounds = _berger(list(range(1, 17)))
    assert as_text(rounds)[0] == "1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9"
    assert as_text(rounds)[1] == "16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2"
    assert as_text(rounds)[-1] == "8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1"
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(pairs) == len(set(pairs)) == 16 * 15 // 2
    assert all(len({x for p in r for x in p}) == 16 for r in rounds)


def test_a_round_robin_template_is_paired_by_the_berger_tables(tmp_path):
    """A round robin typed into an empty template (no TRF behind it): row numbers are the
    pairing numbers. 4 players: round 2 is 4-3, 1-2."""
    path = tmp_path / "rr.xlsx"
    save_workbook(build_template("roundrobin", 4), path)
    names = {f"C{4 + i}": f"P{i}" for i in range(1, 5)}
    # results: everybody draws
    grid = {f"{chr(ord('M') + j - 1)}{4 + i}": "½" for i in range(1, 5) for j in range(1, 5)
            if i != j}
    edit(path, CROSS, {**names, **grid})
    t = read_workbook(path)
    got = {}
    for p in t.players:
        for g in p.games:
            if g.colour == "w":
                got.setdefault(g.round, []).append(f"{p.start_rank}-{g.opponent}")
    assert [" ".join(sorted(got[r])) for r in (1, 2, 3)] == ["1-4 2-3", "1-2 4-3", "2-4 3-1"]


# --- an event rated month by month (fresh-user trial) --------------------------------

def note_cells(path):
    ws = load_workbook(path)[CROSS]
    return [c for row in ws.iter_rows(min_row=1, max_row=2) for c in row
            if isinstance(c.value, str) and "month by month" in c.value
            and not c.value.startswith("=")]     # the long-event formula: a note when due


def test_an_event_rated_by_month_says_so_on_the_crosstable(tmp_path):
    # San Viator 2018: standard, rounds from one month into the next, over 30 days: the
    # report is a set of monthly interim reports (B.02 §8.3); the sheet has one block per
    # month (issue 20 #5) beside the one-period block; the title area says so, as text,
    # in at most three lines of the rating block's width
    trf = DATA / "san_viator_2018_swiss.trf"
    t, path = workbook_of(trf, tmp_path)
    assert build_report(t).months
    [cell] = note_cells(path)
    assert cell.data_type == "s" and not cell.value.startswith("=")
    assert "Month blocks" in cell.value and "one period" in cell.value
    assert len(cell.value) <= 200
    # read back (the note is no input: the TRF comes back unchanged) and written again
    back = read_workbook(path)
    assert write_trf(back).split("\n")[:-1] == original_lines(trf)
    again = saved(fill_workbook(build_report(back)), tmp_path, "again.xlsx")
    assert [c.value for c in note_cells(again)] == [cell.value]


def test_the_month_note_is_whole_and_the_block_labelled_one_period(tmp_path):
    # issue 20, #5 (in part): the note was cut off ("Rated month by mon") and the block
    # looked like what FIDE publishes; now the note wraps over the rating block's width,
    # and the block's header says it is the one-period figure
    from xl_fide.excel._layout import GROUP_ROW, ONE_PERIOD_HEADER, _Geometry
    t, path = workbook_of(DATA / "san_viator_2018_swiss.trf", tmp_path)
    ws = load_workbook(path)[CROSS]
    [cell] = note_cells(path)
    geo = _Geometry("swiss", len(t.players), t.rounds)
    assert (cell.row, cell.column) == (1, geo.col["n"]) and cell.alignment.wrap_text
    merged = next(m for m in ws.merged_cells.ranges if m.min_row == 1)
    assert (merged.min_col, merged.max_col) == (geo.col["n"], geo.col["rc"])
    assert ws.row_dimensions[1].height >= 30                  # room for two lines
    assert ws.cell(GROUP_ROW, geo.col["ro_used"]).value == ONE_PERIOD_HEADER


def test_an_event_in_one_period_has_no_month_note(tmp_path):
    _, path = workbook_of(DATA / "mini_trf2026.trf", tmp_path)
    assert note_cells(path) == []


@pytest.mark.parametrize("encoding, name", [("cp1252", "Šalža, Œnn–"), ("latin-1", "Müller, Jürgé")])
def test_cli_crosstable_then_trf_gives_the_same_bytes(tmp_path, capsys, encoding, name):
    # the fresh-user trial: a Windows-1252 (or Latin-1) TRF through the workbook came back
    # as UTF-8 (same text, other bytes)
    from xl_fide.cli._main import main
    text = normalised_text(DATA / "mini_trf2026.trf").replace("Alpha, Anna".ljust(len(name)), name)
    src = tmp_path / "cp.trf"
    src.write_bytes(text.encode(encoding))
    assert main(["crosstable", str(src), "-o", str(tmp_path / "cp.xlsx")]) == 0
    assert main(["trf", str(tmp_path / "cp.xlsx"), "-o", str(tmp_path / "back.trf")]) == 0
    assert (tmp_path / "back.trf").read_bytes() == src.read_bytes()
