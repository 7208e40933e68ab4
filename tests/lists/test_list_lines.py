"""What a FIDE list line must hold to be trusted: every field or none (issue 22, #2).

The rule is written in ``xl_fide.lists._scan.entry_problem``. Lines are those of
tests/data/players/combined_foa.txt (handwritten, fictional players), cut by hand;
every expected value is read by eye from those lines, as the comments say.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xl_fide.cli._main import main
from xl_fide.errors import PlayerFileError, XlFideError
from xl_fide.lists import (ListReader, ListStore, read_fide_txt, read_fide_xml, read_player_csv,
                            read_player_file)

DATA = Path(__file__).parents[1] / "data" / "players"
COMBINED = (DATA / "combined_foa.txt").read_text().splitlines()
HEADER = COMBINED[0]
ALVAREZ, BERGER, CHEN = COMBINED[1], COMBINED[2], COMBINED[3]
SINGLE = (DATA / "standard_may25.txt").read_text().splitlines()

# Alvarez's line (combined layout, columns from the header): id 0, Name 15, Fed 76,
# SRtng 113 "2612", SGm 119 "9", SK 123 "10", RRtng 126 "2580", Rk 136 "20",
# BRtng 139 "2601", BK 149 "20", B-day 152 "1988". Chen: SGm 119 "14", SK 123 "40".
CUTS = {
    "inside SK: K '1' of '10'": (ALVAREZ, 124),
    "inside SRtng: rating '26' of '2612'": (ALVAREZ, 115),
    "inside Rk: rapid K '2' of '20'": (ALVAREZ, 137),
    "inside BK: blitz K '2' of '20'": (ALVAREZ, 150),
    "inside B-day: born '198' of '1988'": (ALVAREZ, 155),
    "inside the name: no federation": (ALVAREZ, 30),
    "inside the id": (ALVAREZ, 4),
}


def _text(*lines):
    return "\r\n".join([HEADER, *lines]) + "\r\n"


@pytest.mark.parametrize("where", sorted(CUTS))
def test_a_line_cut_short_is_not_trusted_by_player_data(where, tmp_path):
    line, at = CUTS[where]
    path = tmp_path / "players_list_foa.txt"
    path.write_text(_text(line[:at], BERGER))              # the cut line is line 2
    if at > 15:                     # the id is whole: the event's player is found by it
        with pytest.raises(PlayerFileError, match=r"players_list_foa\.txt:2"):
            read_player_file(path, only=[(int(line[:15]), None)])
    with pytest.raises(PlayerFileError, match=r"players_list_foa\.txt:2"):
        read_fide_txt(path)


@pytest.mark.parametrize("where", sorted(CUTS))
def test_a_line_cut_short_is_skipped_and_counted_at_import(where, tmp_path, monkeypatch,
                                                           capsys):
    monkeypatch.setenv("XL_FIDE_STORE", str(tmp_path / "lists.sqlite"))
    line, at = CUTS[where]
    path = tmp_path / "players_list_foa.txt"
    path.write_text(_text(line[:at], BERGER))
    assert main(["lists", "import", str(path), "--month", "2024-01"]) == 0
    _out, err = capsys.readouterr()
    assert "1 unreadable line skipped" in err
    store = ListStore()
    if at > 15:
        assert store.entry(int(line[:15]), "2024-01", "standard") is None
    assert store.entry(9900022, "2024-01", "standard").rating == 2301     # Berger kept


# Cut before the K: the line cannot be told from one whose K is blank, which FIDE's
# format allows (issue 33 #8: a K blank means "no K given", the player is kept and the
# engine decides K, FIDE B.02 §8.3.3). The rating is whole; a games count cut short is
# kept as read (the list's Gms decide no rating).
CUT_BEFORE_K = {
    "after SRtng, before its K": (ALVAREZ, 117, (2612, None, None)),
    "inside SGm: games '1' of '14', no K": (CHEN, 120, (1720, 1, None)),
}


@pytest.mark.parametrize("where", sorted(CUT_BEFORE_K))
def test_a_line_cut_before_its_k_keeps_the_whole_rating_without_k(where):
    line, at, expected = CUT_BEFORE_K[where]
    [player] = read_fide_txt(_text(line[:at], BERGER))[:1]
    assert (player.rating, player.games, player.k) == expected


def test_the_whole_lines_of_the_samples_are_all_trusted():
    # six players each in the combined and the XML sample, five in the single list
    assert len(read_fide_txt(DATA / "combined_foa.txt")) == 6
    assert len(read_fide_xml(DATA / "combined.xml")) == 6
    assert len(read_fide_txt(DATA / "standard_may25.txt")) == 5
    assert len(read_fide_txt(DATA / "old_mar11.txt")) == 5


@pytest.mark.parametrize("tag, value", [("k", "2"), ("rating", "17"), ("country", "")])
def test_an_xml_player_short_of_a_field_is_not_trusted(tag, value):
    # combined.xml, Alvarez: <rating>2612</rating> <k>10</k> <country>ESP</country>
    text = (DATA / "combined.xml").read_text()
    start = text.index(f"<{tag}>")
    end = text.index(f"</{tag}>", start)
    bad = text[:start] + f"<{tag}>{value}" + text[end:]
    with pytest.raises(PlayerFileError, match=f"<{tag}>"):
        read_fide_xml(bad)


def test_a_single_list_rating_without_its_k_is_kept_without_k(tmp_path):
    # standard_may25.txt, Alvarez: MAY25 at 113 "2612", Gms 119 "9", K 123 "10"; cut
    # before the K, the line reads as one with no K given (issue 33 #8)
    cut = SINGLE[1][:121]
    [player] = read_fide_txt("\n".join([SINGLE[0], cut]) + "\n")
    assert (player.rating, player.games, player.k) == (2612, 9, None)


# --- fuzz: a line cut anywhere ------------------------------------------------------

KINDS = ("standard", "rapid", "blitz")


def _players(text):
    return [(rec["standard"], {k: (p.rating, p.games, p.k) for k, p in rec.items()})
            for rec in ListReader(text.encode(), KINDS)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(COMBINED[1:5]), st.integers(0, 170), st.sampled_from(["", " ", "  "]))
def test_fuzz_a_cut_line_is_whole_or_refused(line, at, pad):
    """Cut one of the four rated lines anywhere: the reader refuses it, or gives the
    line's own id, name and federation, its sex or none, each rating with its games and
    K, or whole with its K none (its games whole, a part or none: a cut before the K
    reads as a K blank, issue 33 #8), or none of them; the birth year whole or none;
    each title the start of its own (a title is text, kept as written)."""
    [(whole, whole_kinds)] = _players(_text(line))
    try:
        got = _players(_text(line[:at] + pad))
    except PlayerFileError:
        return
    if not got:                     # the cut left a blank line
        assert not line[:at].strip()
        return
    [(player, kinds)] = got
    for name in ("fide_id", "name", "federation"):
        assert getattr(player, name) == getattr(whole, name)
    assert player.sex in (whole.sex, "")
    for name in ("title", "w_title", "o_title", "foa_title"):
        assert getattr(whole, name).startswith(getattr(player, name))
    assert player.birth_year in (whole.birth_year, None)
    for kind, values in kinds.items():
        rating, games, k = whole_kinds[kind]
        if values not in (whole_kinds[kind], (None, None, None)):
            assert values[0] == rating and values[2] is None
            assert values[1] is None or str(games).startswith(str(values[1]))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(COMBINED[1:]), st.integers(0, 170),
       st.text(alphabet="0123456789 x", max_size=6))
def test_fuzz_the_store_rows_agree_with_the_reader(line, at, junk):
    """The store's fast path and the full reader take and refuse the same lines."""
    data = _text(line[:at] + junk, BERGER).encode()
    reader = ListReader(data, ("standard", "rapid", "blitz"), lenient=True)
    rows = list(reader.rows())
    full = ListReader(data, ("standard", "rapid", "blitz"), lenient=True)
    records = [(rec["standard"].fide_id, {k: (p.rating, p.games, p.k)
                                           for k, p in rec.items()}) for rec in full]
    assert [(r[0], r[7]) for r in rows] == records
    assert reader.skipped == full.skipped


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(COMBINED[1:]), st.integers(0, 170), st.text(max_size=20))
def test_fuzz_damaged_lines_give_our_errors_only(line, at, junk):
    try:
        read_player_file(_text(line[:at] + junk + line[at + len(junk):]).encode())
    except XlFideError:
        pass


XML = (DATA / "combined.xml").read_text()
XML_TAGS = ("fideid", "name", "country", "sex", "title", "w_title", "rating", "games", "k",
            "rapid_rating", "rapid_k", "blitz_k", "birthday")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(XML_TAGS), st.integers(0, 5),
       st.text(alphabet="0123456789 -xWGMESP,", max_size=6))
def test_fuzz_an_xml_field_is_whole_or_refused(tag, nth, value):
    """Any text in one field of one player: refused, or every player read is whole
    (ratings within 1000-3999, each K within 10-40 and with a rating; a rating's K may be
    none: issue 33 #8)."""
    starts = [i for i in range(len(XML)) if XML.startswith(f"<{tag}>", i)]
    start = starts[nth % len(starts)] + len(tag) + 2
    text = XML[:start] + value + XML[XML.index(f"</{tag}>", start):]
    for kind in KINDS:
        try:
            players = read_fide_xml(text, kind)
        except XlFideError:
            return
        for p in players:
            assert p.rating is None or 1000 <= p.rating <= 3999
            assert p.k is None or 10 <= p.k <= 40
            assert p.k is None or p.rating is not None
            assert p.fide_id and p.name and len(p.federation) == 3


# --- the CSV (xl-fide's own format): a row has every cell, its numbers whole ----------

CSV_TEXT = (DATA / "players.csv").read_text(encoding="utf-8-sig").splitlines()
# players.csv line 2, read by eye: 9900011,"Alvarez, Bruno",ESP,GM,2612,10,1988,9,,2650


def test_a_csv_row_cut_anywhere_is_whole_or_refused():
    header, row = CSV_TEXT[0], CSV_TEXT[1]
    [whole] = read_player_file((header + "\n" + row + "\n").encode())
    refused = 0
    for at in range(1, len(row)):
        try:
            got = list(read_player_file((header + "\n" + row[:at] + "\n").encode()))
        except PlayerFileError:
            refused += 1
            continue
        # a cut just before the last cell's value leaves it blank: whole values only
        assert got == [dataclasses.replace(whole, peak_rating=None)], row[:at]
    assert refused == len(row) - 2


@pytest.mark.parametrize("cut, column", [
    ('9900011,"Alvarez, Bruno",ESP,GM,2612,1', "'K'"),          # K 1 of 10, the rest gone
    ('9900011,"Alvarez, Bruno",ESP,GM,26', "'Ro'"),             # rating 26 of 2612
    ('9900011,"Alvarez, Bruno",ESP,GM,2612,10,1988', "'Games'"),  # the row stops there
])
def test_a_csv_row_cut_short_names_the_column(cut, column):
    with pytest.raises(PlayerFileError, match=rf":2: column {column}"):
        read_player_csv(CSV_TEXT[0] + "\n" + cut + "\n")
