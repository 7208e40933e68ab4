"""The list store under hostile files and stores (issue 22: #8, #10, #14, #17, #18, #19).

Lists are written here in the combined layout of tests/data/players/combined_foa.txt
(fictional players); every expected value is read by eye from the lines, as the
comments say.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from xl_fide.cli._main import main
from xl_fide.lists import ListStore

DATA = Path(__file__).parent / "data" / "players"
HEADER = (DATA / "combined_foa.txt").read_text().splitlines()[0]


def line(fide_id, name, rating="", games="", k="", born=""):
    """A line of the combined layout: Fed/Sex at 76, SRtng at 113, SGm 119, SK 123,
    B-day 152."""
    text = str(fide_id).ljust(15) + name.ljust(61) + "ESP M".ljust(37)
    text += rating.ljust(6) + games.ljust(4) + k.ljust(3)
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


def _stored(tmp_path, month="2024-03"):
    path = write_list(tmp_path / "good.txt", line(1001, "One, A", "2000", "5", "20"))
    ListStore().import_file(path, month=month)


# --- #8: an unreadable or header-only list leaves the store as it was ---------------

@pytest.mark.parametrize("lines", [
    (),                                                     # the header only
    (line("10x1", "One, A", "2000", "5", "20"),             # an id of letters
     line(1002, "Two, B", "2x00", "5", "20")),              # a rating of letters
], ids=["header only", "every line unreadable"])
def test_a_list_without_a_readable_player_leaves_the_month_as_it_was(store, tmp_path, capsys,
                                                                      lines):
    _stored(tmp_path)
    bad = write_list(tmp_path / "bad.txt", *lines)
    code, out, err = run(capsys, "lists", "import", str(bad), "--month", "2024-03")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "bad.txt" in err and "no player" in err
    s = ListStore()
    assert s.entry(1001, "2024-03", "standard").rating == 2000      # still there
    assert [x.players for x in s.lists() if x.kind == "standard"] == [1]
