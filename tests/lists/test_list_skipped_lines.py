"""Issue 33 #8: no player whose FIDE id and rating are readable is lost from a list, and
every line that is skipped is named (file:line:column, the column, why).

Kept (FIDE's format allows them; xl-fide keeps them as text or as "none"): a title or
other-title code not known here, a K blank or 0 beside a rating (no K given: the engine
decides K, FIDE B.02 §8.3.3), a blank sex, a federation in lower case (stored in
capitals). Skipped and named: a number that is not one (a rating "2x00", a K "5").

Lines are written here in the layouts of tests/data/players/ (README there: the
combined TXT columns ID 0, Name 15, Fed 76, Sex 80, Tit 84, WTit 89, OTit 94, FOA 109,
SRtng 113, SGm 119, SK 123, RRtng 126, RGm 132, Rk 136, BRtng 139, B-day 152; the
single list's MAY25 113, Gms 119, K 123, B-day 126; the XML tags of combined.xml).
Every expected value is read by eye from the lines written here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_fide.cli._main import main
from xl_fide.lists import ListReader, ListStore, read_fide_txt, read_fide_xml, read_player_file
from xl_fide.lists._txt import _row_of
from tests.harness.trf_lines import past_open

DATA = Path(__file__).parents[1] / "data" / "players"
HEADER = (DATA / "combined_foa.txt").read_text().splitlines()[0]
SINGLE_HEADER = (DATA / "standard_may25.txt").read_text().splitlines()[0]
XML = (DATA / "combined.xml").read_text()


def txt_line(fide_id, name, fed="ESP", sex="M", tit="", wtit="", otit="", foa="",
             std=("", "", ""), rapid=("", "", ""), blitz=("", "", ""), born="", flag=""):
    """A line of the combined layout (columns of the module docstring; Flag at 158),
    blanks trimmed."""
    text = (str(fide_id).ljust(15) + name.ljust(61) + fed.ljust(4) + sex.ljust(4)
            + tit.ljust(5) + wtit.ljust(5) + otit.ljust(15) + foa.ljust(4))
    for rating, games, k in (std, rapid, blitz):
        text += rating.ljust(6) + games.ljust(4) + k.ljust(3)
    return (text + born.ljust(6) + flag).rstrip()


def test_the_line_writer_writes_the_samples_lines():
    # combined_foa.txt lines 2 and 3 (Alvarez, Berger), as the README describes them
    sample = (DATA / "combined_foa.txt").read_text().splitlines()
    assert txt_line(9900011, "Alvarez, Bruno", tit="GM", std=("2612", "9", "10"),
                    rapid=("2580", "0", "20"), blitz=("2601", "12", "20"),
                    born="1988") == sample[1]
    assert txt_line(9900022, "Berger, Clara", fed="AUT", sex="F", tit="WGM", wtit="WGM",
                    std=("2301", "4", "20"), rapid=("2250", "0", "20"), born="1995",
                    flag="w") == sample[2]
    # standard_may25.txt line 2 (Alvarez)
    single = (DATA / "standard_may25.txt").read_text().splitlines()
    assert single_line(9900011, "Alvarez, Bruno", tit="GM", rating="2612", games="9", k="10",
                       born="1988") == single[1]


def single_line(fide_id, name, fed="ESP", sex="M", tit="", rating="", games="", k="",
                born=""):
    """A line of the single list (standard_may25.txt): rating 113, Gms 119, K 123."""
    text = (str(fide_id).ljust(15) + name.ljust(61) + fed.ljust(4) + sex.ljust(4)
            + tit.ljust(5) + "".ljust(24) + rating.ljust(6) + games.ljust(4) + k.ljust(3))
    return (text + born).rstrip()


def write_txt(path, *lines, header=HEADER):
    path.write_text("\r\n".join([header, *lines]) + "\r\n")
    return path


def xml_player(fide_id, name, country="ESP", sex="M", title="", w_title="", o_title="",
               foa_title="", rating="", games="", k="", born=""):
    """One <player> of combined.xml, one tag a line (its first tag on the line after
    <player>)."""
    tags = [("fideid", fide_id), ("name", name), ("country", country), ("sex", sex),
            ("title", title), ("w_title", w_title), ("o_title", o_title),
            ("foa_title", foa_title), ("rating", rating), ("games", games), ("k", k),
            ("rapid_rating", ""), ("rapid_games", ""), ("rapid_k", ""), ("blitz_rating", ""),
            ("blitz_games", ""), ("blitz_k", ""), ("birthday", born), ("flag", "")]
    return "<player>\n" + "".join(f"<{t}>{v}</{t}>\n" for t, v in tags) + "</player>\n"


def write_xml(path, *players):
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n'
                    + "".join(players) + "</playerslist>\n")
    return path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- kept: what FIDE's format allows ---------------------------------------------------

def test_txt_unknown_titles_and_codes_are_kept_as_text(store, tmp_path, capsys):
    path = write_txt(tmp_path / "players_list_foa.txt",
                     txt_line(1001, "One, A", tit="XGM", wtit="WXM", otit="IA,LECT", foa="AXM",
                              std=("2150", "9", "20"), born="1990"))
    [one] = read_fide_txt(path)
    assert (one.title, one.w_title, one.o_title, one.foa_title) == ("XGM", "WXM", "IA,LECT",
                                                                    "AXM")
    assert run(capsys, "lists", "import", str(path), "--month", "2024-01")[0] == 0
    assert ListStore().player(1001)["title"] == "XGM"
    assert ListStore().entry(1001, "2024-01", "standard").rating == 2150


@pytest.mark.parametrize("k", ["", "0"])
def test_txt_a_rating_with_k_blank_or_0_is_kept_without_k(store, tmp_path, capsys, k):
    # One: SRtng 2150, SGm 9, SK blank or 0; rapid 1900, 3 games, Rk blank or 0
    path = write_txt(tmp_path / "players_list_foa.txt",
                     txt_line(1001, "One, A", std=("2150", "9", k), rapid=("1900", "3", k),
                              born="1990"),
                     txt_line(1002, "Two, B", std=("2000", "0", "20")))
    one = read_fide_txt(path)[0]
    assert (one.rating, one.games, one.k) == (2150, 9, None)
    assert run(capsys, "lists", "import", str(path), "--month", "2024-01")[0] == 0
    s = ListStore()
    assert (s.entry(1001, "2024-01", "standard").rating, s.entry(1001, "2024-01", "standard").k
            ) == (2150, None)
    assert (s.entry(1001, "2024-01", "rapid").rating, s.entry(1001, "2024-01", "rapid").k
            ) == (1900, None)


@pytest.mark.parametrize("k", ["", "0"])
def test_single_list_a_rating_with_k_blank_or_0_is_kept(tmp_path, k):
    path = write_txt(tmp_path / "standard_may25frl.txt",
                     single_line(1001, "One, A", rating="2150", games="9", k=k, born="1990"),
                     header=SINGLE_HEADER)
    [one] = read_fide_txt(path)
    assert (one.rating, one.games, one.k, one.birth_year) == (2150, 9, None, 1990)


def test_txt_blank_sex_and_lower_case_federation_are_kept(store, tmp_path, capsys):
    path = write_txt(tmp_path / "players_list_foa.txt",
                     txt_line(1001, "One, A", fed="esp", sex="", std=("2150", "9", "20")),
                     txt_line(1002, "Two, B", fed="Aut", sex="f", std=("2000", "0", "20")))
    one, two = read_fide_txt(path)
    assert (one.federation, one.sex, two.federation, two.sex) == ("ESP", "", "AUT", "F")
    assert run(capsys, "lists", "import", str(path), "--month", "2024-01")[0] == 0
    s = ListStore()
    assert (s.player(1001)["federation"], s.player(1001)["sex"]) == ("ESP", "")
    assert (s.player(1002)["federation"], s.player(1002)["sex"]) == ("AUT", "F")
    assert s.entry(1001, "2024-01", "standard").rating == 2150


def test_event_player_with_k_blank_is_found_in_the_list(tmp_path):
    # --player-data: the event's player is read from the list, not "not on the list"
    path = write_txt(tmp_path / "players_list_foa.txt",
                     txt_line(1001, "One, A", fed="esp", sex="", tit="XGM",
                              std=("2150", "9", ""), born="2006"))
    [one] = read_player_file(path, only=[(1001, "One, A")])
    assert (one.rating, one.k, one.federation, one.title) == (2150, None, "ESP", "XGM")


def test_k_blank_on_the_list_the_engine_decides_k(store, tmp_path, capsys):
    # The January 2024 list gives One, A (1001, born 2006) 2150 with no K; the TRF gives
    # player 1 no rating. K by FIDE B.02 §8.3.3: 18 in 2024, rated under 2300 -> 40.
    # D = 2150 - 2000 = 150 -> PD .70 (table 8.1.2, 146-153); a win: 1 - .70 = +.30;
    # K 40 -> +12.0, 2162.
    lst = write_txt(tmp_path / "standard_jan24frl.txt",
                    single_line(1001, "One, A", rating="2150", games="9", k="", born="2006"),
                    single_line(1002, "Two, B", rating="2000", games="0", k="20", born="1980"),
                    header=SINGLE_HEADER.replace("MAY25", "JAN24"))
    assert run(capsys, "lists", "import", str(lst))[0] == 0
    trf = tmp_path / "e.trf"
    trf.write_text(past_open("", "2006"))     # One, A unrated in the TRF
    code, out, err = run(capsys, "report", str(trf), "--lists", "--format", "json")
    assert code == 0, err
    one = next(p for p in json.loads(out)["players"] if p["start_rank"] == 1)
    assert (one["rating"], one["k"], one["change"], one["new_rating"]) == (2150, 40, 12.0, 2162)


def test_xml_unknown_titles_k_blank_or_0_blank_sex_lower_federation_kept(store, tmp_path,
                                                                         capsys):
    path = write_xml(tmp_path / "players_list_xml_foa.xml",
                     xml_player(1001, "One, A", title="XGM", o_title="IA,LECT",
                                foa_title="AXM", rating="2150", games="9", k="", born="1990"),
                     xml_player(1002, "Two, B", country="esp", sex="", rating="2000",
                                games="0", k="0"))
    one, two = read_fide_xml(path)
    assert (one.title, one.o_title, one.foa_title, one.rating, one.k) == (
        "XGM", "IA,LECT", "AXM", 2150, None)
    assert (two.federation, two.sex, two.rating, two.k) == ("ESP", "", 2000, None)
    code, _out, err = run(capsys, "lists", "import", str(path), "--month", "2024-01")
    assert code == 0 and "skipped" not in err
    s = ListStore()
    assert (s.entry(1001, "2024-01", "standard").rating, s.player(1001)["title"]) == (2150,
                                                                                     "XGM")
    assert (s.entry(1002, "2024-01", "standard").k, s.player(1002)["federation"]) == (None,
                                                                                     "ESP")


def test_csv_lower_case_federation_and_sex_are_stored_in_capitals(store, tmp_path, capsys):
    path = tmp_path / "players.csv"
    path.write_text("fide_id,name,fed,sex,rating,k\n1001,\"One, A\",esp,m,2150,\n")
    assert run(capsys, "lists", "import", str(path), "--month", "2024-01")[0] == 0
    s = ListStore()
    assert (s.player(1001)["federation"], s.player(1001)["sex"]) == ("ESP", "M")
    assert (s.entry(1001, "2024-01", "standard").rating, s.entry(1001, "2024-01",
                                                                 "standard").k) == (2150, None)


# --- skipped: named, the first five in the message, all in a file ----------------------

def _bad_txt(path):
    """Two good players, then seven bad lines (lines 4-10): SRtng '2x00' (column 114)."""
    bad = [txt_line(2000 + n, f"Bad{n}, X", std=("2x00", "1", "20")) for n in range(7)]
    return write_txt(path, txt_line(1001, "One, A", std=("2150", "9", "20")),
                     txt_line(1002, "Two, B", std=("2000", "0", "20")), *bad)


def _bad_xml(path):
    """Two good players, then seven with <k>5</k>: 21 lines a player (<player>, 19 tags,
    </player>) after 2 lines, so player p (from 0) starts on line 3 + 21 p and its <k>,
    the 11th tag, is on line 14 + 21 p."""
    bad = [xml_player(2000 + n, f"Bad{n}, X", rating="2000", games="1", k="5")
           for n in range(7)]
    return write_xml(path, xml_player(1001, "One, A", rating="2150", games="9", k="20"),
                     xml_player(1002, "Two, B", rating="2000", games="0", k="20"), *bad)


def _bad_csv(path):
    """Two good rows, then seven with the rating '2x00' (lines 4-10)."""
    rows = ["fide_id,name,fed,rating,k", '1001,"One, A",ESP,2150,20', '1002,"Two, B",ESP,2000,20']
    rows += [f'{2000 + n},"Bad{n}, X",ESP,2x00,20' for n in range(7)]
    path.write_text("\n".join(rows) + "\n")
    return path


# (writer, file name, the first skipped line's "file:line[:column]: what" as written)
BAD = {
    "txt": (_bad_txt, "players_list_foa.txt",
            ":4:114: column 'SRtng': expected a whole number, got '2x00' "
            "(the line's id '2000', name 'Bad0, X')"),
    # the first bad player is p = 2: its <k> on line 14 + 21 * 2 = 56
    "xml": (_bad_xml, "players_list_xml_foa.xml",
            ":56: <k>: expected a K from 10 to 40 (0 or blank: none), got '5' "
            "(the line's id '2000', name 'Bad0, X')"),
    "csv": (_bad_csv, "players.csv",
            ":4: column 'rating': expected a whole number, got '2x00' "
            "(the line's id '2000', name 'Bad0, X')"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_skipped_lines_are_named_first_five_in_the_message_all_in_a_file(store, tmp_path,
                                                                         capsys, kind):
    write, name, first = BAD[kind]
    path = write(tmp_path / name)
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-01")
    assert code == 0 and "2 standard" in out
    listed = store.parent / ("skipped-2024-01-standard.txt" if kind == "csv" else
                             "skipped-2024-01-standard-rapid-blitz.txt")
    lines = err.splitlines()
    assert lines[0] == (f"warning: {path}: 7 unreadable lines skipped, those players not "
                        f"stored; every one is named in {listed}")
    assert lines[1] == f"  {path}{first}"
    assert len(lines) == 7 and lines[6] == "  ... and 2 more"
    assert all(f"{path}:" in x for x in lines[1:6])
    named = [x for x in listed.read_text(encoding="utf-8").splitlines()
             if not x.startswith("#")]
    assert len(named) == 7 and named[0] == f"{path}{first}"
    assert [x.strip() for x in lines[1:6]] == named[:5]
    assert [f"'Bad{n}, X'" in x for n, x in enumerate(named)] == [True] * 7


@pytest.mark.parametrize("kind", sorted(BAD))
def test_skipped_option_names_the_file(store, tmp_path, capsys, kind):
    write, name, first = BAD[kind]
    path = write(tmp_path / name)
    out_file = tmp_path / "out" / "bad lines.txt"
    out_file.parent.mkdir()
    code, _out, err = run(capsys, "lists", "import", str(path), "--month", "2024-01",
                          "--skipped", str(out_file))
    assert code == 0 and f"every one is named in {out_file}" in err
    assert f"{path}{first}" in out_file.read_text(encoding="utf-8").splitlines()
    assert not list(store.parent.glob("skipped-*"))


def test_skipped_option_never_overwrites_the_list(store, tmp_path, capsys):
    path = _bad_txt(tmp_path / "players_list_foa.txt")
    before = path.read_bytes()
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-01",
                         "--skipped", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "the list being imported" in err
    assert path.read_bytes() == before
    assert ListStore().lists() == []


@pytest.mark.parametrize("where", ["folder", "no such folder"])
def test_skipped_option_a_place_that_cannot_hold_the_file(store, tmp_path, capsys, where):
    path = _bad_txt(tmp_path / "players_list_foa.txt")
    out_file = tmp_path if where == "folder" else tmp_path / "nowhere" / "bad.txt"
    code, out, err = run(capsys, "lists", "import", str(path), "--month", "2024-01",
                         "--skipped", str(out_file))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "for the skipped lines" in err and str(out_file) in err
    assert ListStore().lists() == []


def test_xml_player_skipped_is_not_stored(store, tmp_path, capsys):
    # the <k>5</k> players are skipped at import: none of them is stored as well
    path = _bad_xml(tmp_path / "players_list_xml_foa.xml")
    assert run(capsys, "lists", "import", str(path), "--month", "2024-01")[0] == 0
    s = ListStore()
    assert s.entry(2000, "2024-01", "standard") is None
    assert [x.players for x in s.lists() if x.kind == "standard"] == [2]


def test_an_import_without_skipped_lines_removes_the_old_file(store, tmp_path, capsys):
    path = _bad_txt(tmp_path / "players_list_foa.txt")
    run(capsys, "lists", "import", str(path), "--month", "2024-01")
    listed = store.parent / "skipped-2024-01-standard-rapid-blitz.txt"
    assert listed.exists()
    write_txt(path, txt_line(1001, "One, A", std=("2150", "9", "20")))
    code, _out, err = run(capsys, "lists", "import", str(path), "--month", "2024-01")
    assert code == 0 and err == ""
    assert not listed.exists()


def test_a_failed_import_writes_no_skipped_file(store, tmp_path, capsys):
    # every line unreadable: nothing imported, and no file of skipped lines either
    path = write_txt(tmp_path / "players_list_foa.txt",
                     txt_line(2001, "Bad, X", std=("2x00", "1", "20")))
    code, _out, err = run(capsys, "lists", "import", str(path), "--month", "2024-01",
                          "--skipped", str(tmp_path / "bad.txt"))
    assert code == 2 and "nothing imported" in err and len(err.strip().splitlines()) == 1
    # the one line names the first unreadable line (SRtng '2x00' on line 2, column 114)
    assert (f"(1 unreadable line; the first: {path}:2:114: column 'SRtng': expected a whole "
            "number, got '2x00'") in err
    assert not (tmp_path / "bad.txt").exists()
    assert not list(tmp_path.glob(".bad.txt*")) and not list(store.parent.glob("*skipped*"))


# --- the store's fast path and the full reader keep the same players, the same way -----

@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["ESP", "esp", "Esp", "", "E1P"]),
                          st.sampled_from(["M", "m", "f", "", "X"]),
                          st.sampled_from(["GM", "g", "XGM", "", "wg"]),
                          st.sampled_from(["IA", "", "IA,LECT", "i\x01"]),
                          st.sampled_from(["2150", "", "0", "26"]),
                          st.sampled_from(["20", "", "0", "5"])), min_size=1, max_size=6))
def test_fuzz_fast_rows_and_full_reader_agree(fields):
    """``ListReader.rows`` (the import's fast path) and the full reader keep and skip the
    same lines, with the same federation, sex, title, ratings and K."""
    lines = [txt_line(1001 + n, f"P{n}, X", fed=fed, sex=sex, tit=tit, otit=otit,
                      std=(rating, "3", k), rapid=(rating, "", k))
             for n, (fed, sex, tit, otit, rating, k) in enumerate(fields)]
    data = ("\r\n".join([HEADER, *lines]) + "\r\n").encode()
    fast = ListReader(data, ("standard", "rapid", "blitz"), lenient=True)
    rows = list(fast.rows())
    full = ListReader(data, ("standard", "rapid", "blitz"), lenient=True)
    records = [_row_of(rec) for rec in full]
    assert rows == records
    assert fast.skipped == full.skipped and fast.scan.shown == full.scan.shown
