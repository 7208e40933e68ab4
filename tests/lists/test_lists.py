"""Tests of xl_fide.lists (_store, _download, _lookup) and xl_fide.cli._lists: the local
store of monthly FIDE lists and ``--lists``.

Lists are the handwritten samples of tests/data/players/ (fictional players, ids
99000xx) or lines written here in the same layout. Every expected number is read
by eye from those lines, as the comments say; none comes from running our code.
"""

from __future__ import annotations

import http.server
import io
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from xl_fide.cli._lists import Progress
from tests.harness.fide_lists import COMBINED_TXT, DATA, HEADER, SINGLE_TXT, line, run, write_list
from tests.harness.trf_lines import past_open
from xl_fide.errors import InputError
from xl_fide.lists import (DownloadError, ListStore, StoreError, default_store, download_lists,
                           list_file_name)


# --- the store ---------------------------------------------------------------------

def test_help_does_not_load_the_store():
    # the lists command's bodies are imported only when it runs
    code = ("import sys; from xl_fide.cli import main; main(['--help']); "
            "main(['lists', '--help']); "
            "print(sorted(m for m in sys.modules if m.startswith('xl_fide.lists') "
            "or m in ('sqlite3', 'xl_fide.cli._lists')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).parents[2], timeout=60, check=True)
    assert done.stdout.splitlines()[-1] == "[]"


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
    # issue 33 #8: the lines are named too (tests/lists/test_list_skipped_lines.py)
    assert err.startswith(f"warning: {path}: 2 unreadable lines skipped, ")
    assert f"  {path}:3:114: column 'SRtng': expected a whole number, got '2x00'" in err
    assert f"  {path}:4:1: column 'ID Number': expected a FIDE id (digits), got '10O3'" in err


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


# --- --lists -------------------------------------------------------------------------

def trf(path, date="2024/01/13", end="2024/01/14", rating1="2150", tc="90 min + 30 s"):
    """Two players, one game: player 1 (FIDE id 1001) beats player 2 (1002, 2000)."""
    path.write_text(past_open(rating1, "2006", start=date, end=end, tc=tc))
    return path


def report(capsys, *argv):
    import json
    code, out, err = run(capsys, "report", *argv, "--format", "json")
    assert code == 0, err
    return {p["start_rank"]: p for p in json.loads(out)["players"]}, err


def test_a_past_event_takes_k_from_its_own_months_list(store, tmp_path, capsys):
    # One, A (1001): on the list of January 2024 with K 40 (fewer than 30 games then);
    # on today's list (June 2025) with K 20. The event of 13-14 January 2024 is rated
    # with the K of its own month's list.
    jan = write_list(tmp_path / "standard_jan24frl.txt",
                     line(1001, "One, A", "2150", "9", "40", "2006"),
                     line(1002, "Two, B", "2000", "0", "20", "1980"))
    jun = write_list(tmp_path / "standard_jun25frl.txt",
                     line(1001, "One, A", "2230", "4", "20", "2006"),
                     line(1002, "Two, B", "2010", "0", "20", "1980"))
    for f in (jan, jun):
        assert run(capsys, "lists", "import", str(f))[0] == 0
    event = trf(tmp_path / "past.trf")
    by_list, err = report(capsys, str(event), "--lists")
    # D = 150 -> PD .70 (table 8.1.2, 146-153); a win: 1 - .70 = +.30; K 40 -> +12.0
    assert (by_list[1]["k"], by_list[1]["change"], by_list[1]["new_rating"]) == (40, 12.0, 2162)
    today, _ = report(capsys, str(event), "--player-data", str(jun))
    # today's list says K 20: +6.0 (the wrong answer for this past event)
    assert (today[1]["k"], today[1]["change"]) == (20, 6.0)


def test_ro_from_the_start_month_k_from_the_end_month(store, tmp_path, capsys):
    # An event from 30 January to 2 February 2024: Ro from the January list, K from
    # the February list (the list before the rating period of the end date).
    write_list(tmp_path / "standard_jan24frl.txt", line(1001, "One, A", "2150", "9", "40"),
               line(1002, "Two, B", "2000", "0", "20"))
    write_list(tmp_path / "standard_feb24frl.txt", line(1001, "One, A", "2150", "31", "20"),
               line(1002, "Two, B", "2000", "0", "20"))
    for name in ("standard_jan24frl.txt", "standard_feb24frl.txt"):
        run(capsys, "lists", "import", str(tmp_path / name))
    event = trf(tmp_path / "e.trf", "2024/01/30", "2024/02/02", rating1="")
    rows, err = report(capsys, str(event), "--lists")
    # the file gives player 1 no rating: 2150 from the January list; K 20 (February)
    assert (rows[1]["rating"], rows[1]["k"]) == (2150, 20)
    assert "player data from the store (standard lists: Ro 2024-01, K 2024-02)" in err


def test_file_rating_differing_from_the_list_is_kept_with_a_warning(store, tmp_path, capsys):
    write_list(tmp_path / "standard_jan24frl.txt", line(1001, "One, A", "2160", "9", "40"),
               line(1002, "Two, B", "2000", "0", "20"))
    run(capsys, "lists", "import", str(tmp_path / "standard_jan24frl.txt"))
    rows, err = report(capsys, str(trf(tmp_path / "e.trf")), "--lists")
    assert rows[1]["rating"] == 2150
    assert ("warning: player 1 (One, A): rating 2150 in the file, 2160 on the standard list "
            "of 2024-01: the file's is used") in err


def test_a_missing_month_says_which_to_import(store, tmp_path, capsys):
    write_list(tmp_path / "standard_jan24frl.txt", line(1001, "One, A", "2150", "9", "40"))
    # the combined layout, stored as the standard list only
    run(capsys, "lists", "import", str(tmp_path / "standard_jan24frl.txt"),
        "--time-control", "standard")
    code, out, err = run(capsys, "report", str(trf(tmp_path / "e.trf", "2024/03/02",
                                                   "2024/03/03")), "--lists")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert "no standard list of 2024-03 in the store" in err
    assert "xl-fide lists download --month 2024-03 --time-control standard" in err
    code, _, err = run(capsys, "report", str(trf(tmp_path / "r.trf", tc="15 min + 10 s")),
                       "--lists")
    assert code == 2 and "no rapid list of 2024-01" in err


def test_peak_over_the_stored_history_gives_k_10(store, tmp_path, capsys):
    # An old list has no K column (before 2013: "... Mar11 Games Born Flag"): K comes
    # from the rules. One, A reached 2405 on the list of January 2011 and is 2390 in
    # March 2011: once 2400, K 10 for good (FIDE B.02 §8.3.3).
    old_header = "ID number Name                              TitlFed  Mar11 GamesBorn  Flag"
    def old(fide_id, name, rating):
        return f"{fide_id:>8}  {name:<32}      ESP {rating:>5} {0:>5}  1980"
    (tmp_path / "jan11.txt").write_text("\n".join(
        [old_header.replace("Mar11", "Jan11"), old(1001, "One, A", 2405),
         old(1002, "Two, B", 2000)]) + "\n")
    (tmp_path / "mar11.txt").write_text("\n".join(
        [old_header, old(1001, "One, A", 2390), old(1002, "Two, B", 2000)]) + "\n")
    for name in ("jan11.txt", "mar11.txt"):
        code, _, err = run(capsys, "lists", "import", str(tmp_path / name),
                           "--time-control", "standard")
        assert code == 0, err
    rows, _ = report(capsys, str(trf(tmp_path / "e.trf", "2011/03/05", "2011/03/06",
                                     rating1="2390")), "--lists")
    assert rows[1]["k"] == 10


# --- download (a local HTTP server on 127.0.0.1; no network) ---------------------------



class _Files(http.server.BaseHTTPRequestHandler):
    """Serves ``files`` (name -> bytes) with HTTP Range; ``cut`` sends only that many
    bytes of a file once (a download that breaks off)."""

    files: dict = {}
    cut: dict = {}
    requests: list = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        name = self.path.rsplit("/", 1)[-1]
        self.requests.append((name, self.headers.get("Range")))
        data = self.files.get(name)
        if data is None:
            self.send_error(404)
            return
        start = 0
        if self.headers.get("Range"):
            start = int(self.headers["Range"].split("=")[1].split("-")[0])
            if start >= len(data):
                self.send_error(416)
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        body = data[start:]
        if name in self.cut:
            body = body[:self.cut.pop(name)]
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Files)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Files.files, _Files.cut, _Files.requests = {}, {}, []
    yield f"http://127.0.0.1:{httpd.server_address[1]}/download/"
    httpd.shutdown()
    httpd.server_close()


def zipped(member, text):
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(member, text)
    return raw.getvalue()


def test_fide_file_names():
    # FIDE's monthly files: standard_jan24frl.zip, rapid_..., blitz_...
    assert list_file_name("standard", "2024-01") == "standard_jan24frl.zip"
    assert list_file_name("blitz", "2025-12") == "blitz_dec25frl.zip"


def test_download_imports_the_months_lists(store, server, capsys):
    single = SINGLE_TXT.read_text().replace("MAY25", "JAN24")
    _Files.files["standard_jan24frl.zip"] = zipped("standard_jan24frl.txt", single)
    code, out, err = run(capsys, "lists", "download", "--month", "2024-01",
                         "--time-control", "standard", "--base-url", server)
    # standard_may25.txt has 4 players with a standard rating
    assert (code, err) == (0, "")
    assert out == f"imported {server}standard_jan24frl.zip as the list of 2024-01: 4 standard\n"
    assert ListStore().entry(9900011, "2024-01", "standard").rating == 2612
    assert not (store.parent / "downloads" / "standard_jan24frl.zip").exists()


def test_download_resumes_after_a_break(store, server):
    body = zipped("standard_jan24frl.txt", SINGLE_TXT.read_text().replace("MAY25", "JAN24"))
    _Files.files["standard_jan24frl.zip"] = body
    _Files.cut["standard_jan24frl.zip"] = 100          # the first try stops at 100 bytes
    with pytest.raises(DownloadError, match=r"100 of \d+ bytes received; run the same "
                       "command again to resume"):
        download_lists("2024-01", ["standard"], base_url=server)
    assert ListStore().lists() == []
    download_lists("2024-01", ["standard"], base_url=server)
    assert _Files.requests[-1] == ("standard_jan24frl.zip", "bytes=100-")
    assert ListStore().entry(9900033, "2024-01", "standard").rating == 1720


def test_download_refuses_a_damaged_zip_and_missing_files(store, server, capsys):
    body = bytearray(zipped("standard_jan24frl.txt", SINGLE_TXT.read_text() * 20))
    body[60] ^= 0xFF
    _Files.files["standard_jan24frl.zip"] = bytes(body)
    code, _, err = run(capsys, "lists", "download", "--month", "2024-01", "--time-control",
                       "standard", "--base-url", server)
    assert code == 2 and len(err.splitlines()) == 1
    assert "standard_jan24frl.zip" in err and ("damaged" in err or "not a whole zip" in err)
    assert ListStore().lists() == []
    code, _, err = run(capsys, "lists", "download", "--month", "2024-02", "--time-control",
                       "rapid", "--base-url", server)
    assert code == 2 and "HTTP 404" in err and "not have published" in err
    with pytest.raises(DownloadError, match="only https://"):
        download_lists("2024-01", ["standard"], base_url="http://example.org/")


def test_import_an_xml_list(store, capsys):
    # combined.xml has the standard, rapid and blitz tags: three lists; its name gives no
    # month. By eye: 4 players with a standard rating (Eriksen and Fischer have none).
    code, out, err = run(capsys, "lists", "import", str(DATA / "combined.xml"),
                         "--month", "2023-07")
    assert code == 0 and "as the list of 2023-07: 4 standard" in out
    assert ListStore().entry(9900055, "2023-07", "rapid").rating == 1540


def test_a_locked_or_damaged_store_is_one_line(store, tmp_path, capsys):
    import sqlite3
    good = write_list(tmp_path / "good.txt", line(1001, "One, A", "2000", "5", "20"))
    assert run(capsys, "lists", "import", str(good), "--month", "2024-03")[0] == 0
    other = sqlite3.connect(store, timeout=0)
    other.execute("BEGIN EXCLUSIVE")                 # another import under way
    try:
        s = ListStore()
        s.timeout = 0.1
        with pytest.raises(StoreError, match="in use by another xl-fide.*locked"):
            s.import_file(good, month="2024-04")
    finally:
        other.rollback()
        other.close()
    data = bytearray(store.read_bytes())
    data[200:4000] = b"\xff" * 3800                  # pages of the store overwritten
    store.write_bytes(bytes(data))
    code, _, err = run(capsys, "lists", "show", "1001")
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err


# --- a file that is not a list (fresh-user trial): filekind's one line ----------------

def _zip(entries: dict[str, bytes]) -> bytes:
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return raw.getvalue()


def _xlsx() -> bytes:
    from openpyxl import Workbook
    raw = io.BytesIO()
    wb = Workbook()
    wb.active.append(["fide_id", "name", "rating"])
    wb.save(raw)
    return raw.getvalue()


NOT_A_LIST = {
    # name (its extension is a lie, as in the trial), content, what the line must say
    "h_pdf.trf": (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "this is a PDF document, not a player list"),
    "list.ods": (_zip({"mimetype": b"application/vnd.oasis.opendocument.spreadsheet",
                       "content.xml": b"<office:document-content/>"}),
                 "this is an OpenDocument spreadsheet (.ods), not a player list"),
    "list.xls": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600,
                 "this is an old Excel 97-2003 file (.xls; OLE2 compound document), not a player list"),
    "list.html": (b"<!DOCTYPE html>\n<html><body>FIDE ratings</body></html>\n",
                  "this is an HTML page (a saved web page?), not a player list"),
    "list.csv": (_xlsx(), "this is an Excel workbook (.xlsx), not a player list"),
}


@pytest.mark.parametrize("name", sorted(NOT_A_LIST))
def test_import_of_a_file_that_is_not_a_list_says_what_it_is(store, tmp_path, capsys, name):
    data, says = NOT_A_LIST[name]
    path = tmp_path / name
    path.write_bytes(data)
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-03")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{name}: {says}" in err and "header" not in err
    assert not ListStore().lists()


def test_report_lists_closes_the_store_it_opened(store, tmp_path, capsys, monkeypatch):
    # `report --lists` opened the store (event_list_data made its own ListStore) and
    # never closed it: Python 3.13's sqlite3 then warns of an unclosed database when the
    # collector frees it, and the CLI printed that in whatever command came next (found
    # by CI under Python 3.13). Each store it opens is closed when it returns.
    import xl_fide.lists._store as _store
    jan = write_list(tmp_path / "standard_jan24frl.txt",
                     line(1001, "One, A", "2150", "9", "40", "2006"),
                     line(1002, "Two, B", "2000", "0", "20", "1980"))
    assert run(capsys, "lists", "import", str(jan))[0] == 0
    opened = []

    class Recorded(_store.ListStore):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            opened.append(self)

    monkeypatch.setattr(_store, "ListStore", Recorded)
    by_list, _ = report(capsys, str(trf(tmp_path / "past.trf")), "--lists")
    assert by_list[1]["k"] == 40                    # K 40 from the January 2024 list
    assert opened and all(s._conn is None for s in opened)
