"""Tests of xl_fide.lists: the local store of monthly FIDE lists and ``--lists``.

Lists are the handwritten samples of tests/data/players/ (fictional players, ids
99000xx) or lines written here in the same layout. Every expected number is read
by eye from those lines, as the comments say; none comes from running our code.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from xl_fide.cli import main
from xl_fide.errors import InputError, PlayerFileError
from xl_fide.lists import ListStore, Progress, default_store

DATA = Path(__file__).parent / "data" / "players"
COMBINED_TXT = DATA / "combined_foa.txt"
SINGLE_TXT = DATA / "standard_may25.txt"
HEADER = COMBINED_TXT.read_text().splitlines()[0]


def line(fide_id, name, rating="", games="", k="", born="", rapid=("", "", "")):
    """A line of the combined layout: SRtng at 113, SGm 119, SK 123, RRtng 126, RGm 132,
    Rk 136, BRtng 139, B-day 152 (COMBINED_HEADER's columns)."""
    text = str(fide_id).ljust(15) + name.ljust(61) + "ESP M".ljust(37)
    text += rating.ljust(6) + games.ljust(4) + k.ljust(3)
    text += rapid[0].ljust(6) + rapid[1].ljust(4) + rapid[2].ljust(3)
    return text.ljust(152) + born


def write_list(path, *lines):
    path.write_text("\r\n".join([HEADER, *lines]) + "\r\n")
    return path


@pytest.fixture
def store(tmp_path, monkeypatch):
    path = tmp_path / "store" / "lists.sqlite"
    monkeypatch.setenv("XL_FIDE_STORE", str(path))
    return path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the store ---------------------------------------------------------------------

def test_import_then_lists_and_show(store, capsys):
    assert default_store() == store
    code, out, err = run(capsys, "lists", "import", str(COMBINED_TXT), "--month", "2025-05")
    # combined_foa.txt by eye: standard ratings for 4 (Eriksen and Fischer have none),
    # rapid for 4 (Chen and Fischer none), blitz for 3 (Berger, Eriksen, Fischer none)
    assert (code, err) == (0, "")
    assert out == (f"imported {COMBINED_TXT} as the list of 2025-05: 4 standard, 4 rapid, "
                   "3 blitz\n")
    code, out, _ = run(capsys, "lists")
    assert code == 0 and out.splitlines()[1:] == [
        "month     standard     rapid     blitz  source",
        "2025-05          4         4         3  combined_foa.txt"]
    code, out, _ = run(capsys, "lists", "show", "9900033")
    # Chen, Daniel: SRtng 1720 SGm 14 SK 40, no rapid, BRtng 1650 BGm 5 BK 40, born 2011
    assert out.splitlines() == [
        "9900033 Chen, Daniel (CAN)",
        "month    list     rating games   K  born flag",
        "2025-05  standard   1720    14  40  2011 ",
        "2025-05  blitz      1650     5  40  2011 "]


def test_month_from_the_file_name_or_header_and_contradictions(store, tmp_path):
    s = ListStore()
    # standard_may25.txt: the rating column is named MAY25 -> 2025-05, a standard list
    # by its name; 4 players with a rating (Eriksen has none)
    result = s.import_file(SINGLE_TXT)
    assert (result.month, result.kinds, result.players) == ("2025-05", ("standard",),
                                                            {"standard": 4})
    named = tmp_path / "rapid_jan24frl.txt"
    write_list(named, line(9900011, "Alvarez, Bruno", "2580", "3", "20"))
    with pytest.raises(InputError, match=r"list of 2024-01 \(its name or header\), not 2024-02"):
        s.import_file(named, month="2024-02")
    with pytest.raises(InputError, match="do not say the list's month: give --month"):
        s.import_file(COMBINED_TXT)
    with pytest.raises(InputError, match="YYYY-MM"):
        s.import_file(COMBINED_TXT, month="2024-13")


def test_reimport_replaces_the_month(store, tmp_path):
    s = ListStore()
    first = write_list(tmp_path / "a.txt", line(1001, "One, A", "2000", "5", "20"),
                       line(1002, "Two, B", "2100", "5", "20"))
    second = write_list(tmp_path / "b.txt", line(1002, "Two, B", "2110", "7", "20"))
    s.import_file(first, month="2024-03")
    result = s.import_file(second, month="2024-03")
    assert result.replaced == ("standard", "rapid", "blitz")
    assert s.entry(1001, "2024-03", "standard") is None          # gone with the old list
    assert s.entry(1002, "2024-03", "standard").rating == 2110
    assert [(x.month, x.kind, x.players) for x in s.lists()] == [
        ("2024-03", "standard", 1), ("2024-03", "rapid", 0), ("2024-03", "blitz", 0)]


def test_a_broken_file_leaves_the_store_as_it_was(store, tmp_path, capsys):
    s = ListStore()
    good = write_list(tmp_path / "good.txt", line(1001, "One, A", "2000", "5", "20"))
    s.import_file(good, month="2024-03")
    # a zip whose member is cut short: the first rows are read, then the zip fails
    body = "\r\n".join([HEADER] + [line(2000 + n, f"P{n}, X", "1900", "1", "20")
                                   for n in range(3000)]).encode()
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_STORED) as z:
        z.writestr("players_list_foa.txt", body)
    data = bytearray(raw.getvalue())
    data[len(data) // 2] ^= 0xFF                                  # one byte changed: bad CRC
    broken = tmp_path / "broken.zip"
    broken.write_bytes(bytes(data))
    code, out, err = run(capsys, "lists", "import", str(broken), "--month", "2024-03")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "broken.zip" in err
    assert s.entry(1001, "2024-03", "standard").rating == 2000   # the old list is intact
    assert s.entry(2000, "2024-03", "standard") is None
    assert [x.players for x in s.lists() if x.kind == "standard"] == [1]


def test_unreadable_lines_are_counted_at_import(store, tmp_path, capsys):
    path = write_list(tmp_path / "l.txt", line(1001, "One, A", "2000", "5", "20"),
                      line(1002, "Two, B", "2x00", "5", "20"),
                      line("10O3", "Three, C", "2000"))
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-03")
    assert code == 0 and "1 standard" in out
    assert err == f"warning: {path}: 2 unreadable lines skipped\n"


def test_show_an_unknown_player_and_a_store_that_is_not_one(store, tmp_path, capsys):
    code, _, err = run(capsys, "lists", "show", "42")
    assert code == 2 and "FIDE id 42 is on no stored list" in err
    store.parent.mkdir(parents=True)
    store.write_bytes(b"not a database" * 100)
    code, _, err = run(capsys, "lists")
    assert code == 2 and "not a list store" in err and len(err.splitlines()) == 1


def test_progress_bar_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True
    quiet, tty, pipe = Tty(), Tty(), io.StringIO()
    for stream, q in ((quiet, True), (tty, False), (pipe, False)):
        bar = Progress("importing", quiet=q, stream=stream)
        bar(50, 100)
        bar(100, 100)
        bar.done()
    assert quiet.getvalue() == "" and pipe.getvalue() == ""
    assert tty.getvalue().endswith("] 100%\n") and " 50%" in tty.getvalue()
