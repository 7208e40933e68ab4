"""The list store under hostile files and stores (issue 22: #8, #10, #14, #17, #18, #19).

Lists are written here in the combined layout of tests/data/players/combined_foa.txt
(fictional players); every expected value is read by eye from the lines, as the
comments say.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.harness.fide_lists import line, run, write_list
from xl_fide.lists import ListStore

DATA = Path(__file__).parents[1] / "data" / "players"



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


# --- #10: read-only commands open the store read-only --------------------------------

def _foreign(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize("argv", [("lists",), ("lists", "show", "1001")])
@pytest.mark.parametrize("kind", ["another program's SQLite", "an empty file"])
def test_read_only_commands_leave_a_foreign_file_untouched(store, capsys, argv, kind):
    if kind == "an empty file":
        store.parent.mkdir(parents=True)
        store.write_bytes(b"")
        before = b""
    else:
        before = _foreign(store)
    code, out, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "not a list store" in err and str(store) in err
    assert store.read_bytes() == before                       # no table created


def test_import_into_another_programs_sqlite_is_refused(store, tmp_path, capsys):
    before = _foreign(store)
    path = write_list(tmp_path / "l.txt", line(1001, "One, A", "2000", "5", "20"))
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-03")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "not a list store" in err
    assert store.read_bytes() == before


def test_import_into_an_empty_file_makes_it_a_store(store, tmp_path, capsys):
    store.parent.mkdir(parents=True)
    store.write_bytes(b"")
    path = write_list(tmp_path / "l.txt", line(1001, "One, A", "2000", "5", "20"))
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-03")
    assert code == 0, err
    assert ListStore().entry(1001, "2024-03", "standard").rating == 2000


# --- #14: a tampered store is one line, exit 2 ------------------------------------------

SHOW = ("lists", "show", "1001")
TAMPERED = [
    # (table, column, value written over every row, the command that reads it)
    ("lists", "month", "abc", ("lists",)), ("lists", "month", "abc", SHOW),
    ("lists", "month", "202413", ("lists",)), ("lists", "month", 2024.5, ("lists",)),
    ("lists", "players", "x", ("lists",)), ("lists", "kind", "bullet", ("lists",)),
    ("ratings", "rating", "abc", SHOW), ("ratings", "k", -3, SHOW),
    ("ratings", "birth_year", 1990.5, SHOW), ("players", "month", "abc", SHOW),
]


@pytest.mark.parametrize("table, column, value, argv", TAMPERED)
def test_a_tampered_store_is_one_line(store, tmp_path, capsys, table, column, value, argv):
    _stored(tmp_path)
    with sqlite3.connect(store) as conn:
        where = " WHERE kind = 'standard'" if table != "players" else ""
        conn.execute(f"UPDATE {table} SET {column} = ?{where}", (value,))
    conn.close()
    code, out, err = run(capsys, *argv)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "damaged" in err and str(store) in err


# --- #17: names from a list cannot drive the terminal ----------------------------------

def test_lists_show_escapes_control_sequences_from_the_list(store, tmp_path, capsys):
    evil = "\x1b[2J\x1b]0;pwned\x07One,\rA\u202e"
    path = write_list(tmp_path / "l\x1b[31m.txt", line(1001, evil, "2000", "5", "20"))
    code, _, err = run(capsys, "lists", "import", str(path), "--month", "2024-03")
    assert code == 0, err
    for argv in (("lists", "show", "1001"), ("lists",)):
        code, out, err = run(capsys, *argv)
        assert code == 0, err
        assert not any(ch in out for ch in "\x1b\x07\r\u202e"), repr(out)
    code, out, _ = run(capsys, "lists", "show", "1001")
    assert out.splitlines()[0] == "1001 \\x1b[2J\\x1b]0;pwned\\x07One,\\x0dA\\u202e (ESP)"


# --- #18: a FIDE id twice in a list ------------------------------------------------------

def test_import_refuses_an_id_twice_with_different_data(store, tmp_path, capsys):
    _stored(tmp_path)
    path = write_list(tmp_path / "dup.txt", line(1001, "One, A", "2010", "5", "20"),
                      line(1002, "Two, B", "2100", "5", "20"),
                      line(1002, "Other, C", "1900", "3", "40"))
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-03")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "dup.txt" in err and "FIDE id 1002 appears twice" in err
    assert "'Two, B'" in err and "'Other, C'" in err
    assert ListStore().entry(1001, "2024-03", "standard").rating == 2000    # as it was


def test_import_refuses_an_id_twice_far_apart(store, tmp_path, capsys):
    # 20,000 rows are written at a time: the second 1002 comes in a later batch
    lines = [line(1002, "Two, B", "2100", "5", "20")]
    lines += [line(5000 + n, f"P{n}, X", "1900", "1", "20") for n in range(20_500)]
    lines += [line(1002, "Two, B", "2101", "5", "20")]
    path = write_list(tmp_path / "dup.txt", *lines)
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-03")
    assert code == 2 and "FIDE id 1002 appears twice" in err, err
    assert ListStore().lists() == []


def test_a_line_repeated_as_it_is_is_stored_once(store, tmp_path, capsys):
    twice = line(1002, "Two, B", "2100", "5", "20")
    path = write_list(tmp_path / "l.txt", line(1001, "One, A", "2000", "5", "20"), twice, twice)
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-03")
    assert code == 0 and "2 standard" in out, out + err


# --- #19: the header's month wins over the file name's; two-digit years --------------

SINGLE = (DATA / "standard_may25.txt").read_text()     # its rating column is MAY25


def test_the_header_month_wins_over_the_file_name(store, tmp_path, capsys):
    path = tmp_path / "standard_jan24frl.txt"             # the name says January 2024
    path.write_text(SINGLE)
    code, out, err = run(capsys, "lists", "import", str(path))
    assert code == 0, err
    assert "as the list of 2025-05" in out                 # MAY25 in the header
    assert "2025-05" in err and "2024-01" in err and "header" in err   # said, not silent
    assert [x.month for x in ListStore().lists()] == ["2025-05"]
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-01")
    assert code == 2 and "list of 2025-05" in err


@pytest.mark.parametrize("label, month", [("Jan99", "1999-01"), ("Jul71", "1971-07"),
                                          ("Jan00", "2000-01"), ("May25", "2025-05"),
                                          ("Dec70", "2070-12")])
def test_two_digit_years_from_1971(label, month):
    # FIDE published its first rating list in 1971: 71-99 are 1971-1999, 00-70 2000-2070
    from xl_fide.lists._months import month_of
    assert month_of(label) == month
    assert month_of(f"standard_{label.lower()}frl.zip") == month


def test_an_old_list_of_1999_is_stored_as_1999(store, tmp_path, capsys):
    # the layout of tests/data/players/old_mar11.txt, its rating column named Jan99
    old = (DATA / "old_mar11.txt").read_text().replace("Mar11", "Jan99")
    path = tmp_path / "old.txt"
    path.write_text(old)
    code, out, err = run(capsys, "lists", "import", str(path), "--time-control", "standard")
    assert code == 0 and "as the list of 1999-01" in out, out + err


def test_lists_show_an_id_beyond_sqlite_is_on_no_list(store, tmp_path, capsys):
    # issue 22 #13, for the store: 2**63 does not fit SQLite's INTEGER
    _stored(tmp_path)
    for fide_id in (str(1 << 63), str(10 ** 30), "0"):
        code, out, err = run(capsys, "lists", "show", fide_id)
        assert code == 2 and "is on no stored list" in err, err


def test_a_store_left_by_a_killed_import_reads_as_it_was(store, tmp_path, capsys):
    # an import killed half-way leaves a hot journal: only a writer can roll it back
    import subprocess
    import sys
    path = write_list(tmp_path / "l.txt", *(line(1000 + n, f"P{n}, X", "2000", "5", "20")
                                            for n in range(3000)))
    ListStore().import_file(path, month="2024-03")
    killed = ("import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
              "c.execute('PRAGMA cache_size = 1'); c.execute('BEGIN IMMEDIATE'); "
              "c.execute('DELETE FROM ratings'); os._exit(9)")
    subprocess.run([sys.executable, "-c", killed, str(store)], timeout=60)
    assert store.with_name(store.name + "-journal").stat().st_size > 0
    code, out, err = run(capsys, "lists")
    assert code == 0 and "3000" in out, err
    assert ListStore().entry(1999, "2024-03", "standard").rating == 2000
