"""Tests of xl_fide.lists' readers (_txt, _xml, _csv, _read): FIDE TXT/XML rating lists, the CSV format, look-ups.

The sample files under tests/data/players/ were written by hand (fictional
players, ids 99000xx) in the layouts found in public parsers of FIDE's downloads
(see tests/data/players/README.md). Every expected value below is read by eye
from those files, as each comment says; none comes from running the reader.
"""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.harness.fide_lists import COMBINED_TXT, COMBINED_XML, DATA, OLD_TXT, SINGLE_TXT
from tests.harness.fide_lists import PLAYERS_CSV as CSV
from xl_fide.errors import InputError, XlFideError
from xl_fide.lists._read import (
    PlayerData,
    PlayerDirectory,
    PlayerFileError,
    normalise_name,
    read_fide_txt,
    read_fide_xml,
    read_player_csv,
    read_player_file,
)


# Header of the current combined list, as quoted by public parsers of the real file.
COMBINED_HEADER = ("ID Number      Name                                                         "
                   "Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK "
                   "B-day Flag")


def by_id(players):
    return {p.fide_id: p for p in players}


# --- TXT --------------------------------------------------------------------------

# combined_foa.txt, standard columns (SRtng SGm SK), read by eye:
#   9900011 Alvarez, Bruno  ESP M GM            2612  9 10  1988
#   9900022 Berger, Clara   AUT F WGM WGM       2301  4 20  1995 w
#   9900033 Chen, Daniel    CAN M               1720 14 40  2011        (K 40 junior)
#   9900044 Dupont, Emile   FRA M FM  OTit FA   2205  0 20  1960 i      (inactive)
#   9900055 Eriksen, Freya  NOR F FOA AFM       (no standard rating)  2009 wi
#   9900066 Fischer, Gunter GER M               (nothing else)
COMBINED_STANDARD = {
    9900011: PlayerData(9900011, "Alvarez, Bruno", "ESP", "M", "GM", 2612, 9, 10, 1988, ""),
    9900022: PlayerData(9900022, "Berger, Clara", "AUT", "F", "WGM", 2301, 4, 20, 1995, "w",
                        w_title="WGM"),
    9900033: PlayerData(9900033, "Chen, Daniel", "CAN", "M", "", 1720, 14, 40, 2011, ""),
    9900044: PlayerData(9900044, "Dupont, Emile", "FRA", "M", "FM", 2205, 0, 20, 1960, "i",
                        o_title="FA"),
    9900055: PlayerData(9900055, "Eriksen, Freya", "NOR", "F", "", None, None, None, 2009, "wi",
                        foa_title="AFM"),
    9900066: PlayerData(9900066, "Fischer, Gunter", "GER", "M", "", None, None, None, None, ""),
}


def test_combined_txt_standard():
    players = read_fide_txt(COMBINED_TXT)
    assert [p.fide_id for p in players] == list(COMBINED_STANDARD)
    assert by_id(players) == COMBINED_STANDARD
    assert read_fide_txt(str(COMBINED_TXT)) == players          # a str path works too
    assert read_fide_txt(COMBINED_TXT.read_bytes()) == players


@pytest.mark.parametrize("kind, expected", [
    # RRtng RGm Rk columns of combined_foa.txt, by eye
    ("rapid", {9900011: (2580, 0, 20), 9900022: (2250, 0, 20), 9900033: (None, None, None),
               9900044: (2150, 0, 20), 9900055: (1540, 7, 40), 9900066: (None, None, None)}),
    # BRtng BGm BK columns
    ("blitz", {9900011: (2601, 12, 20), 9900022: (None, None, None), 9900033: (1650, 5, 40),
               9900044: (2180, 0, 20), 9900055: (None, None, None), 9900066: (None, None, None)}),
])
def test_combined_txt_rapid_and_blitz(kind, expected):
    players = by_id(read_fide_txt(COMBINED_TXT, rating_kind=kind))
    assert {i: (p.rating, p.games, p.k) for i, p in players.items()} == expected
    # the other fields do not depend on the list chosen
    assert players[9900022].title == "WGM" and players[9900022].flag == "w"


def test_single_list_with_month_named_rating_column():
    # standard_may25.txt: header "... FOA MAY25 Gms K  B-day Flag"; same five first
    # players as the combined sample, Eriksen without a rating.
    players = read_fide_txt(SINGLE_TXT)
    expected = dict(list(COMBINED_STANDARD.items())[:5])
    assert by_id(players) == expected
    # issue 11 (time control reaches the reader): the file is named standard_..., so
    # for a blitz event its 2612 is a standard rating, the R&B §7.2.1 fallback only,
    # and its K 10 is not a blitz K.
    blitz = by_id(read_fide_txt(SINGLE_TXT, rating_kind="blitz"))[9900011]
    assert (blitz.rating, blitz.k, blitz.standard_rating) == (None, None, 2612)


def test_old_list_format_before_2013():
    # old_mar11.txt: "ID number Name ... TitlFed  Mar11 GamesBorn  Flag", ids right-
    # aligned, one-letter titles g / wg / f, no Sex and no K column.
    players = by_id(read_fide_txt(OLD_TXT))
    assert players[9900011] == PlayerData(9900011, "Alvarez, Bruno", "ESP", "", "GM",
                                          2612, 9, None, 1988, "")
    assert players[9900022].title == "WGM" and players[9900022].flag == "w"
    assert (players[9900033].rating, players[9900033].games) == (1720, 14)
    assert players[9900044].title == "FM" and players[9900044].inactive
    assert players[9900055].rating is None and players[9900055].flag == "wi"


def test_txt_from_text_and_bytes_and_latin1():
    line = "9900077".ljust(15) + "Muller, Jurgen".ljust(61) + "SUI M".ljust(37) + "2001  5   20"
    text = COMBINED_HEADER + "\n" + line + "\n"
    (player,) = read_fide_txt(text)
    # by eye: SRtng column (113) holds 2001
    assert (player.fide_id, player.name, player.federation, player.rating) == (
        9900077, "Muller, Jurgen", "SUI", 2001)
    latin = (COMBINED_HEADER + "\n" + line.replace("Muller", "M\xfcller") + "\n").encode("latin-1")
    assert read_fide_txt(latin)[0].name == "M\u00fcller, Jurgen"


def test_txt_bad_rating_names_file_line_column():
    line = "9900077".ljust(15) + "Muller, Jurgen".ljust(61) + "SUI M".ljust(37) + "2O01"
    text = COMBINED_HEADER + "\n\n" + line + "\n"        # the player is on line 3
    with pytest.raises(PlayerFileError) as err:
        read_fide_txt(text)
    assert err.value.line == 3 and err.value.column == 114 and err.value.field == "SRtng"
    assert str(err.value) == "<string>:3:114: column 'SRtng': expected a whole number, got '2O01'"
    assert isinstance(err.value, InputError) and isinstance(err.value, ValueError)


def test_txt_bad_id_and_bad_header(tmp_path):
    bad = tmp_path / "list.txt"
    bad.write_text(COMBINED_HEADER + "\nABC            Nobody\n")
    with pytest.raises(PlayerFileError, match=r"list\.txt:2:1: column 'ID Number'.*'ABC'"):
        read_fide_txt(bad)
    bad.write_text("Name Rating\nCarlsen 2830\n")
    with pytest.raises(PlayerFileError, match=r"list\.txt:1: not a FIDE rating list header"):
        read_fide_txt(bad)
    bad.write_text("\n  \n")
    with pytest.raises(PlayerFileError, match="empty file"):
        read_fide_txt(bad)


def test_rating_kind_is_checked():
    with pytest.raises(InputError, match="'classic'"):
        read_fide_txt(COMBINED_TXT, rating_kind="classic")


# --- XML --------------------------------------------------------------------------

def test_combined_xml_standard():
    # combined.xml holds the same six players as combined_foa.txt; Fischer has
    # <rating>0</rating> <games>0</games> <k>0</k>: 0 rating and 0 K read as none,
    # 0 games stay 0.
    expected = dict(COMBINED_STANDARD)
    expected[9900066] = PlayerData(9900066, "Fischer, Gunter", "GER", "M", "", None, 0, None,
                                   None, "")
    assert by_id(read_fide_xml(COMBINED_XML)) == expected


def test_combined_xml_rapid_blitz():
    rapid = by_id(read_fide_xml(COMBINED_XML, rating_kind="rapid"))
    blitz = by_id(read_fide_xml(COMBINED_XML, rating_kind="blitz"))
    # <rapid_rating>1540 <rapid_games>7 <rapid_k>40 for Eriksen; <blitz_...> 1650 5 40 for Chen
    assert (rapid[9900055].rating, rapid[9900055].games, rapid[9900055].k) == (1540, 7, 40)
    assert (blitz[9900033].rating, blitz[9900033].games, blitz[9900033].k) == (1650, 5, 40)
    assert blitz[9900022].rating is None                # <blitz_rating></blitz_rating>


SINGLE_XML = b"""<?xml version="1.0" encoding="UTF-8"?>
<playerslist>
<player><fideid>9900088</fideid><name>Garcia, Hana</name><country>MEX</country><sex>F</sex>
<title>WIM</title><w_title>WIM</w_title><o_title></o_title><foa_title></foa_title>
<rating>2104</rating><games>6</games><k>40</k><birthday>2008</birthday><flag>w</flag>
</player>
</playerslist>
"""


def test_single_list_xml_and_text_input():
    (p,) = read_fide_xml(SINGLE_XML, rating_kind="rapid")   # no <rapid_rating>: <rating> it is
    assert p == PlayerData(9900088, "Garcia, Hana", "MEX", "F", "WIM", 2104, 6, 40, 2008, "w",
                           w_title="WIM")
    assert read_fide_xml(SINGLE_XML.decode()) == [p]


def test_xml_bad_value_names_line_and_tag():
    bad = SINGLE_XML.replace(b"<games>6</games>", b"<games>six</games>")
    with pytest.raises(PlayerFileError) as err:
        read_fide_xml(bad)
    # <games> is on line 5 of SINGLE_XML
    assert (err.value.line, err.value.field) == (5, "games")
    assert str(err.value) == "<bytes>:5: <games>: expected a whole number, got 'six'"


def test_xml_not_well_formed_and_wrong_root():
    with pytest.raises(PlayerFileError, match=r"<bytes>:3:\d+: not well-formed XML"):
        read_fide_xml(b"<playerslist>\n<player>\n</playerslist>\n")
    with pytest.raises(PlayerFileError, match=r"root element is <html>"):
        read_fide_xml(b"<html><body/></html>")


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE playerslist [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<playerslist><player><fideid>1</fideid><name>&lol9;</name></player></playerslist>
"""


def test_xml_bomb_is_refused_not_expanded():
    with pytest.raises(PlayerFileError) as err:
        read_fide_xml(BILLION_LAUGHS)
    assert "refused" in str(err.value) and "entities" in str(err.value)
    assert err.value.line == 3                          # the first <!ENTITY
    assert "lollol" not in str(err.value)


def test_xml_external_entity_is_refused(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    xxe = (f'<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY x SYSTEM "{secret.as_uri()}">]>\n'
           "<playerslist><player><name>&x;</name></player></playerslist>").encode()
    with pytest.raises(PlayerFileError, match="refused") as err:
        read_fide_xml(xxe)
    assert "TOP SECRET" not in str(err.value)


# --- CSV --------------------------------------------------------------------------

def test_csv_sample():
    # players.csv (UTF-8 with BOM), header
    # "FIDE ID,Name,Fed,Title,Ro,K,Born,Games,Career Games,Highest Rating"; line 5 blank.
    players = read_player_csv(CSV)
    assert players == [
        PlayerData(9900011, "Alvarez, Bruno", "ESP", "", "GM", 2612, 9, 10, 1988,
                   peak_rating=2650),
        PlayerData(None, "Dvo\u0159\u00e1k, Ji\u0159\u00ed", "CZE", "", "", 1850, 7, 40, 2012,
                   career_games=12, peak_rating=1850),
        PlayerData(9900033, "Chen, Daniel", "CAN", "", "", 1720, 14, 40, 2011,
                   career_games=55, peak_rating=1744),
        PlayerData(None, "\u00d8sterg\u00e5rd, S\u00f8ren", "DEN"),
    ]


def test_csv_semicolons_aliases_and_zero_rating():
    text = "ID;NAME;federation;RATING;byear;peak_rating\n7;Lee, Ann;KOR;0;2010;0\n"
    (p,) = read_player_csv(text)
    assert p == PlayerData(7, "Lee, Ann", "KOR", birth_year=2010)   # 0 rating / peak = none


def test_csv_bad_rating_names_file_line_column():
    # bad_rating.csv line 3: 9900033,"Chen, Daniel",17x0
    with pytest.raises(InputError) as err:
        read_player_csv(DATA / "bad_rating.csv")
    assert isinstance(err.value, PlayerFileError)
    assert err.value.line == 3 and err.value.field == "rating"
    assert str(err.value).endswith(
        "bad_rating.csv:3: column 'rating': expected a whole number, got '17x0'")


def test_csv_errors():
    with pytest.raises(PlayerFileError, match=r"<bytes>:2: not UTF-8"):
        read_player_csv("name,rating\nM\xfcller,2000\n".encode("cp1252"))
    with pytest.raises(PlayerFileError, match=r"<string>:1: header: expected a 'name' or 'fide_id'"):
        read_player_csv("player,elo\nX,1\n")
    with pytest.raises(PlayerFileError, match=r"<string>:1: header: columns 'rating' and 'Ro'"):
        read_player_csv("name,rating,Ro\nX,1,2\n")
    with pytest.raises(PlayerFileError, match=r"<string>:3: a player needs a FIDE id or a name"):
        read_player_csv("name,rating\nA,1500\n,1600\n")
    with pytest.raises(PlayerFileError, match=r"<string>:2: column 'born': expected a year"):
        read_player_csv("name,born\nA,19\n")


# --- read_player_file ---------------------------------------------------------------

@pytest.mark.parametrize("path, count", [
    (COMBINED_TXT, 6), (SINGLE_TXT, 5), (OLD_TXT, 5), (COMBINED_XML, 6), (CSV, 4)])
def test_read_player_file_detects_the_format(path, count):
    directory = read_player_file(path)
    assert len(directory) == count
    # Chen, Daniel is 9900033 with 1720 in every sample
    assert directory.get(9900033).rating == 1720


def test_read_player_file_rating_kind_and_zip(tmp_path):
    archive = tmp_path / "players_list_foa.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(COMBINED_TXT, "players_list_foa.txt")
    directory = read_player_file(archive, rating_kind="rapid")
    assert directory.get(9900055).rating == 1540        # RRtng of Eriksen


def test_read_player_file_errors_name_the_file(tmp_path):
    with pytest.raises(PlayerFileError, match=r"nowhere\.txt: cannot read the file"):
        read_player_file(tmp_path / "nowhere.txt")
    bad = tmp_path / "list.csv"
    bad.write_text("id,name\n5,A\n5,B\n")
    with pytest.raises(PlayerFileError, match=r"list\.csv: FIDE id 5 appears twice: 'A' and 'B'"):
        read_player_file(bad)
    broken_zip = tmp_path / "list.zip"
    broken_zip.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(PlayerFileError, match=r"list\.zip: cannot read the zip"):
        read_player_file(broken_zip)


# --- PlayerDirectory -------------------------------------------------------------------

def test_lookup_by_id_and_by_name():
    directory = read_player_file(COMBINED_TXT)
    assert directory.get(9900044).name == "Dupont, Emile"
    # case, accents and spaces do not matter; the list says "Fischer, Gunter"
    assert directory.get(None, "  FISCHER ,  Günter ").fide_id == 9900066
    assert directory.get(None, "dupont,émile").fide_id == 9900044
    # an id not on the list: a namesake with another id is someone else
    assert directory.get(1234567, "Dupont, Emile") is None
    assert directory.get(1234567) is None
    assert directory.get(None, "Nobody, Here") is None
    assert [p.fide_id for p in directory] == list(COMBINED_STANDARD)


def test_lookup_falls_back_to_name_for_players_without_id():
    directory = read_player_file(CSV)
    # players.csv: "Dvořák, Jiří" and "Østergård, Søren" have no FIDE id
    assert directory.get(4455667, "dvorak, jiri").rating == 1850
    assert directory.get(None, "OSTERGARD,SOREN").federation == "DEN"
    assert directory.get(9900033, "someone else").name == "Chen, Daniel"   # the id wins


def test_ambiguous_name_and_bad_arguments():
    directory = PlayerDirectory([PlayerData(1, "Kumar, A"), PlayerData(2, "kumar,  A")])
    with pytest.raises(InputError, match=r"'kumar, a' fits 2 players \(1, 2\)"):
        directory.get(None, "kumar, a")
    with pytest.raises(InputError, match="'1'"):
        directory.get("1")
    with pytest.raises(InputError, match="appears twice"):
        PlayerDirectory([PlayerData(1, "A"), PlayerData(1, "B")])
    assert len(PlayerDirectory([PlayerData(1, "A"), PlayerData(1, "A")])) == 1


def test_normalise_name():
    assert normalise_name("  Dvořák ,JIŘÍ ") == "dvorak,jiri"
    assert normalise_name("Łukasz, Ærø") == "lukasz,aero"


def test_player_data_checks_types():
    with pytest.raises(InputError, match="rating must be a whole number or None, got '2000'"):
        PlayerData(1, "A", rating="2000")
    with pytest.raises(InputError, match="got True"):
        PlayerData(1, "A", k=True)
    with pytest.raises(InputError, match="neither"):
        PlayerData(None, " ")


# --- no other exception, whatever the bytes ---------------------------------------------

def _only_our_errors(reader, data):
    try:
        result = reader(data)
    except XlFideError:
        return
    assert all(isinstance(p, PlayerData) for p in result)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_bytes(data):
    for reader in (read_fide_txt, read_fide_xml, read_player_csv, read_player_file):
        _only_our_errors(reader, data)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_fuzz_text(text):
    _only_our_errors(read_fide_txt, text + "\n")
    _only_our_errors(read_player_csv, text + "\n")
    _only_our_errors(read_fide_xml, "<" + text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_after_a_valid_start(text):
    _only_our_errors(read_fide_txt, COMBINED_HEADER + "\n" + text)
    _only_our_errors(read_fide_txt, COMBINED_HEADER + "\n9900011".ljust(16) + text)
    _only_our_errors(read_player_csv, "fide_id,name,rating,k,born,games\n" + text)
    _only_our_errors(read_fide_xml, "<playerslist><player><fideid>" + text)
    _only_our_errors(read_fide_xml, SINGLE_XML.decode().replace("2104", text))


def test_engine_module_imports_no_adapter():
    code = ("import sys, xl_fide.lists._read; "
            "print(any(m in sys.modules for m in ('xlwings', 'openpyxl')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).parents[2], check=True)
    assert out.stdout.strip() == "False"


def test_combined_list_keeps_the_standard_rating_for_rapid_and_blitz():
    # combined_foa.txt: Chen, Daniel has SRtng 1720 and a blank RRtng; Alvarez, Bruno
    # has SRtng 2612 and RRtng 2580 (read by eye). In a rapid event a player without a
    # rapid rating counts as rated with the standard one (R&B chapter).
    for name in ("combined_foa.txt", "combined.xml"):
        players = read_player_file(DATA / name, rating_kind="rapid")
        chen = players.get(None, "Chen, Daniel")
        assert (chen.rating, chen.standard_rating) == (None, 1720)
        alvarez = players.get(None, "Alvarez, Bruno")
        assert (alvarez.rating, alvarez.standard_rating) == (2580, 2612)


# --- issue 13: only the event's players; issue 11: budgets ------------------------------

def _txt_line(fide_id, name, fed="ESP M", rating="", games="", k="", born=""):
    """One line of the combined layout (columns 0, 15, 76, ..., SRtng 113, SGm 119,
    SK 123, B-day 152), built from COMBINED_HEADER's positions; ``fed`` holds Fed and Sex."""
    line = str(fide_id).ljust(15) + name.ljust(61) + fed.ljust(37)
    line += rating.ljust(6) + games.ljust(4) + k.ljust(3)
    return line.ljust(152) + born


EVENT = [(9900011, "Alvarez, Bruno"), (None, "Chen, Daniel")]


def test_only_the_event_players_are_kept_and_others_bad_lines_counted(tmp_path):
    # Three broken lines of other players: an id "12x4", a line with no id at all,
    # and an id of letters; they are not the event's players, so they are counted.
    lines = [COMBINED_HEADER,
             _txt_line(9900011, "Alvarez, Bruno", rating="2612", games="9", k="10", born="1988"),
             _txt_line("12x4", "Other, One", rating="2000"),
             _txt_line(9900099, "Other, Two", rating="2O00"),      # bad rating, not read
             " " * 15 + "Other, Three".ljust(61),
             _txt_line("ABCDEF", "Other, Four"),
             _txt_line(9900033, "Chen, Daniel", rating="1720", games="14", k="40", born="2011")]
    path = tmp_path / "list.txt"
    path.write_text("\n".join(lines) + "\n")
    directory = read_player_file(path, only=EVENT)
    # by eye: Alvarez by id, Chen by name (the event gives him no id); nobody else
    assert sorted(p.fide_id for p in directory) == [9900011, 9900033]
    assert directory.get(None, "Chen, Daniel").k == 40
    assert directory.skipped == 3
    assert directory.notes == (f"{path}: 3 unreadable lines skipped (not of this event's "
                               "players)",)


def test_a_bad_line_of_an_event_player_names_file_and_line(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("\n".join([COMBINED_HEADER, _txt_line(9900055, "Someone, Else"),
                               _txt_line(9900011, "Alvarez, Bruno", rating="26x2")]) + "\n")
    with pytest.raises(PlayerFileError, match=r"list\.txt:3:114: column 'SRtng'.*'26x2'"):
        read_player_file(path, only=EVENT)
    # by name: Chen has no id in the event; his line has an unreadable id
    path.write_text("\n".join([COMBINED_HEADER, _txt_line("99000x3", "Chen, Daniel")]) + "\n")
    with pytest.raises(PlayerFileError, match=r"list\.txt:2:1: column 'ID Number'"):
        read_player_file(path, only=EVENT)


def test_only_xml_and_csv():
    xml = read_player_file(COMBINED_XML, only=[(9900022, "x")])
    assert [p.name for p in xml] == ["Berger, Clara"]
    csv_players = read_player_file(CSV, only=[(None, "dvorak, jiri")])
    assert [p.rating for p in csv_players] == [1850]        # players.csv, by eye


def test_zip_bomb_of_newlines_is_refused_before_reading(tmp_path):
    # issue 11: a valid list plus a mass of newlines, compressed ~1000:1. Refused from
    # the zip's own sizes (ratio above 100:1), without unpacking it.
    archive = tmp_path / "players_list.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("players_list_foa.txt", "w") as member:
            member.write(COMBINED_TXT.read_bytes())
            block = b"\n" * (1 << 20)
            for _ in range(40):
                member.write(block)
    with pytest.raises(PlayerFileError, match=r"players_list_foa\.txt: compression ratio "
                       r"\d+:1, above the limit 100:1"):
        read_player_file(archive)


def test_blank_lines_and_long_lines_have_a_budget(tmp_path):
    from xl_fide.lists._budget import MAX_BLANK_LINES, MAX_LINE
    blank = tmp_path / "blank.txt"
    blank.write_bytes(COMBINED_TXT.read_bytes() + b"\n" * (MAX_BLANK_LINES + 10))
    with pytest.raises(PlayerFileError, match=rf"blank\.txt:\d+: more than {MAX_BLANK_LINES} "
                       "blank lines"):
        read_player_file(blank)
    long = tmp_path / "long.csv"
    long.write_bytes(b"id,name\n1,A" + b" " * (MAX_LINE * 4) + b"\n")
    with pytest.raises(PlayerFileError, match=rf"long\.csv: a line longer than {MAX_LINE} bytes"):
        read_player_file(long)


def test_xml_whitespace_outside_players_is_not_kept(tmp_path):
    # issue 11: an XML list with a mass of whitespace between players kept it all in
    # memory. 40 MB of whitespace now costs no memory beyond the read buffer.
    import tracemalloc
    path = tmp_path / "list.xml"
    with open(path, "wb") as f:
        f.write(b"<playerslist>")
        for _ in range(40):
            f.write(b" " * (1 << 20))
        f.write(b"<player><fideid>5</fideid><name>A, B</name><rating>2000</rating></player>"
                b"</playerslist>")
    tracemalloc.start()
    directory = read_player_file(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert directory.get(5).rating == 2000
    assert peak < 10 << 20
    inside = tmp_path / "field.xml"
    inside.write_bytes(b"<playerslist><player><name>" + b" " * (1 << 20)
                       + b"</name></player></playerslist>")
    with pytest.raises(PlayerFileError, match=r"field\.xml:1: a field longer than"):
        read_player_file(inside)


def test_time_control_reaches_the_reader_in_the_cli(tmp_path, capsys):
    # issue 11: a rapid event with a combined list took the standard rating and K.
    # combined_foa.txt, by eye: Alvarez 9900011 has SRtng 2612 SK 10, RRtng 2580 Rk 20.
    from xl_fide.cli._main import main
    trf = tmp_path / "rapid.trf"
    trf.write_text(
        "012 Rapid\n042 2025/11/01\n052 2025/11/01\n122 15 min + 10 s\n"
        "001    1 m GM Alvarez, Bruno                    2580 ESP     9900011 1988        1.0"
        "    1     2 w 1\n"
        "001    2 m    Other, Player                     2400 ESP     9900077 1990        0.0"
        "    2     1 b 0\n")
    code = main(["report", str(trf), "--time-control", "rapid", "--player-data",
                 str(COMBINED_TXT), "--format", "json", "-q"])
    out = capsys.readouterr().out
    assert code == 0
    alvarez = next(p for p in __import__("json").loads(out)["players"] if p["start_rank"] == 1)
    assert alvarez["k"] == 20       # the rapid K of the list, not its standard K 10


def _zip_of(path, name):
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(path, name)
    return raw.getvalue()


ZIPS = [_zip_of(COMBINED_TXT, "players_list_foa.txt"), _zip_of(COMBINED_XML, "list.xml"),
        _zip_of(CSV, "players.csv")]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(ZIPS))), st.lists(st.tuples(st.integers(0, 10_000),
                                                             st.integers(1, 255)),
                                                   min_size=1, max_size=4),
       st.booleans())
def test_fuzz_corrupted_zips_are_player_file_errors(which, flips, only):
    # issue 11: every failure to read a list is a PlayerFileError (exit 2, one line)
    data = bytearray(ZIPS[which])
    for pos, value in flips:
        data[pos % len(data)] ^= value
    try:
        read_player_file(bytes(data), only=[(9900011, "x")] if only else None)
    except PlayerFileError as exc:
        assert "\n" not in str(exc)
    except XlFideError:
        pass


def test_a_pdf_given_as_the_player_file_says_what_it_is():
    # the trial's h_pdf.trf: before, "<bytes>:1: header: expected a 'name' or 'fide_id' column"
    with pytest.raises(PlayerFileError, match=r"^<bytes>: this is a PDF document, not a player "
                                              r"list .*download the list itself"):
        read_player_file(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")


def test_an_empty_zip_is_named_as_a_zip(tmp_path):
    # an empty zip is its end record alone ("PK\x05\x06"): it was read as a CSV and the
    # message showed its raw bytes
    empty = tmp_path / "players_list_foa.zip"
    zipfile.ZipFile(empty, "w").close()
    with pytest.raises(PlayerFileError, match=r"expected one \.txt, \.xml or \.csv file in "
                                              r"the zip, found \[\]") as info:
        read_player_file(empty)
    assert "PK" not in str(info.value)


def test_an_encrypted_zip_says_so_in_words(tmp_path):
    # zipfile writes no encrypted member: general purpose bit 0 set by hand in the local
    # header (offset 6) and the central directory entry (offset 8), APPNOTE 4.3.7/4.3.12.
    # The message was "File <ZipInfo ...> is encrypted, password required for extraction".
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(plain, "w") as z:
        z.writestr("players_list_foa.txt", "ID Number      Name\n")
    data = bytearray(plain.read_bytes())
    data[6] |= 1
    data[data.index(b"PK\x01\x02") + 8] |= 1
    locked = tmp_path / "players_list_foa.zip"
    locked.write_bytes(bytes(data))
    with pytest.raises(PlayerFileError, match=r"players_list_foa\.txt is encrypted in the "
                                              r"zip \(a password is needed\)") as info:
        read_player_file(locked)
    assert "ZipInfo" not in str(info.value)
