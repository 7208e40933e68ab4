"""Tests of xl_fide.trf: TRF16 / TRF-2026 / TRF(x) reading and TRF16 writing.

Expected values come from the files in tests/data/trf/ read by eye (the line is
quoted in a comment) or from the TRF text (the TRF16 layout, summarised from FIDE
Handbook C.04 Annex 2 and TRF-2026). Inline 001 lines are built by ``line001``,
which puts each field at the column the spec gives, independently of the reader.
"""

from __future__ import annotations

import ast
import dataclasses
import datetime
import random
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xl_fide.errors import InputError, OutputExistsError, TrfError, XlFideError
from xl_fide.trf import parse_date, parse_trf, read_trf, write_trf, write_trf_file
from xl_fide.tournament import DEFAULT_SCORING, Game, Tournament, TrfPlayer, TrfWarning

DATA = Path(__file__).parents[1] / "data" / "trf"
GROS, SAN_VIATOR, ONLINE, CR_FILE, MINI_2026 = (DATA / f"{name}.trf" for name in (
    "gros_2010_swiss_after_round4", "san_viator_2018_swiss", "online_swiss_2020_unrated",
    "synthetic_cr_line_endings", "mini_trf2026"))
SHARED = [GROS, SAN_VIATOR, ONLINE, CR_FILE]
ALL_FILES = sorted(DATA.glob("*.trf"))

D = Decimal


# --------------------------------------------------------------------------- helpers

def put(*cols: tuple[int, str]) -> str:
    """Build a line from (first 1-based column, text) pairs, padding with blanks."""
    line = ""
    for col, text in cols:
        assert len(line) <= col - 1, f"column {col} overlaps the previous field"
        line = line.ljust(col - 1) + text
    return line


def line001(sr: int, name: str = "", *, sex: str = " ", title: str = "", rating: str = "",
            fed: str = "", fide_id: str = "", birth: str = "", points: str = "", rank: str = "",
            rounds: list[tuple[str, str, str]] = ()) -> str:
    """A 001 line with each field at its TRF16 column (5-8, 10, 11-13, 15-47, 49-52, 54-56,
    58-68, 70-79, 81-84, 86-89, then per round r: 92+10(r-1) .. 95, 97, 99)."""
    cols = [(1, "001"), (5, f"{sr:>4}"), (10, sex), (11, f"{title:>3}"), (15, name),
            (49, f"{rating:>4}"), (54, fed), (58, f"{fide_id:>11}"), (70, birth),
            (81, f"{points:>4}"), (86, f"{rank:>4}")]
    for r, (opp, colour, result) in enumerate(rounds, start=1):
        base = 92 + 10 * (r - 1)
        cols += [(base, f"{opp:>4}"), (base + 5, colour), (base + 7, result)]
    return put(*cols).rstrip()


def two_player_file(r1: str = "1", r2: str = "0", extra: str = "") -> str:
    """Players 1 and 2 meet in round 1; player 1 scores r1, player 2 scores r2."""
    return "\n".join([
        "012 Two Players",
        line001(1, "One, A", rating="2000", points="1.0", rounds=[("2", "w", r1)]),
        line001(2, "Two, B", rating="1900", points="0.0", rounds=[("1", "b", r2)]),
    ]) + "\n" + extra


#: The encoding each file of tests/data/trf is in (as made; UTF-8 unless listed).
ENCODING = {"swissmanager_cp1252.trf": "cp1252"}


def normalised_bytes(path: Path) -> bytes:
    """The file's bytes with every line ending made LF (what the writer writes)."""
    return path.read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def normalised_text(path: Path) -> str:
    return normalised_bytes(path).decode(ENCODING.get(path.name, "utf-8"))


def header_fields(t: Tournament) -> tuple:
    return (t.name, t.city, t.federation, t.start_date, t.end_date, t.start_date_text,
            t.end_date_text, t.time_control, t.rounds, t.declared_rounds, dict(t.scoring),
            t.version, t.chief_arbiter, t.deputy_arbiters, t.tournament_type,
            t.round_dates, t.initial_colour)


# --------------------------------------------------------------------------- shared files

@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_shared_files_parse_strictly_without_warnings(path):
    t = read_trf(path, strict=True)
    assert t.warnings == ()
    assert t.version == "TRF16"
    assert t.source == str(path)


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_points_column_equals_sum_of_results(path):
    # All four shared files use 1 / 0.5 / 0 (no XXS, no 162); checked with a separate
    # awk count: no player's points (81-84) differ from the sum of 1/=/0/+/-/H/F/U/Z,
    # including Gros player 43 whose announced round-5 H is already in his 1.0.
    t = read_trf(path)
    assert dict(t.scoring) == dict(DEFAULT_SCORING)
    for p in t.players:
        assert p.points == sum((t.points_for(g) for g in p.games), D(0)), p.start_rank
        assert t.score(p) == p.points


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_forfeits_and_byes_are_never_played_games(path):
    t = read_trf(path)
    for p in t.players:
        assert len(p.games) == t.rounds
        for r, g in enumerate(p.games, start=1):
            assert g.round == r
            if g.code in {"+", "-", "W", "D", "L", "H", "F", "U", "Z"} or g.opponent is None:
                assert not g.is_played
            else:
                assert g.is_played and g.code in {"1", "=", "0"}


def test_san_viator_header_and_players():
    t = read_trf(SAN_VIATOR)
    # 012 XXX Torneo San Viator - Memorial Pepe Domaica (B) / 022 Madrid / 032 ESP
    assert t.name == "XXX Torneo San Viator - Memorial Pepe Domaica (B)"
    assert (t.city, t.federation) == ("Madrid", "ESP")
    # 042 08/04/2018, 052 10/06/2018: DD/MM/YYYY (the 132 line starts 18/04/08)
    assert t.start_date_text == "08/04/2018"
    assert t.start_date == datetime.date(2018, 4, 8)
    assert t.end_date == datetime.date(2018, 6, 10)
    assert t.time_control == "90 minutes + 30 seconds per move"
    assert t.chief_arbiter == "Chief Arbiter - AN 9000001"
    assert t.tournament_type == "Individual: Swiss-System Dutch (JaVaFo)"
    # 132 ... 18/04/08  18/04/15  18/04/22  18/05/06  18/05/13  18/05/20  18/05/27
    assert t.round_dates_text == ("18/04/08", "18/04/15", "18/04/22", "18/05/06",
                                  "18/05/13", "18/05/20", "18/05/27")
    assert t.round_dates[0] == datetime.date(2018, 4, 8)
    assert t.round_dates[6] == datetime.date(2018, 5, 27)
    # no XXR: 7 round blocks
    assert (t.rounds, t.declared_rounds, t.rounds_played) == (7, None, 7)
    assert len(t.players) == 137

    # 001    1 m    Player 001                        1750 ESP     9000001 1981        2.0  118
    #   0000 - Z  0000 - F    76 w 1  0000 - Z  0000 - Z  0000 - Z  0000 - Z
    p1 = t.player(1)
    assert (p1.sex, p1.title, p1.name, p1.rating, p1.federation) == ("m", "", "Player 001", 1750, "ESP")
    assert (p1.fide_id, p1.birth_date, p1.birth_year) == (9000001, "1981", 1981)
    assert (p1.points, p1.rank, p1.line) == (D("2.0"), 118, 14)
    assert p1.games == (
        Game(1, None, None, "Z"), Game(2, None, None, "F"), Game(3, 76, "w", "1"),
        Game(4, None, None, "Z"), Game(5, None, None, "Z"), Game(6, None, None, "Z"),
        Game(7, None, None, "Z"),
    )
    assert [g.is_played for g in p1.games] == [False, False, True, False, False, False, False]
    assert p1.games[2].score_half_points == 2
    assert t.points_for(p1.games[1]) == D(1)  # F = full-point bye

    # 001    2 m    Player 002                        1731 ESP     9000002 1957        5.0   11
    #   65 w 1    40 b 1    33 w 1    39 b 1    36 w =    53 b =    29 w 0
    p2 = t.player(2)
    assert [(g.opponent, g.colour, g.code) for g in p2.games] == [
        (65, "w", "1"), (40, "b", "1"), (33, "w", "1"), (39, "b", "1"),
        (36, "w", "="), (53, "b", "="), (29, "w", "0")]
    assert (p2.points, p2.rank) == (D("5.0"), 11)

    # 001    3 m    Player 003                           0 ESP    90000003 1984 ... 0000 - H (round 4)
    p3 = t.player(3)
    assert p3.rating is None and p3.fide_id == 90000003
    assert p3.games[3] == Game(4, None, None, "H") and not p3.games[3].is_played
    # 001   15 w    Player 015 ...
    assert t.player(15).sex == "w"
    # 001  137 m ... 64 b 0  0000 - H    85 w 1    55 b +    35 w 0    63 b 0  0000 - Z
    p137 = t.player(137)
    assert p137.games[3] == Game(4, 55, "b", "+")
    assert p137.games[3].is_forfeit and not p137.games[3].is_played


def test_san_viator_counts_match_the_readme():
    # tests/data/trf/README.md: 20 unrated; 99 H, 30 Z, 3 F, 5 U byes; 15 forfeit pairs.
    t = read_trf(SAN_VIATOR)
    codes = [g.code for p in t.players for g in p.games]
    assert sum(p.rating is None for p in t.players) == 20
    assert (codes.count("H"), codes.count("Z"), codes.count("F"), codes.count("U")) == (99, 30, 3, 5)
    forfeit_wins = [(p.start_rank, g) for p in t.players for g in p.games
                    if g.code == "+" and g.opponent is not None]
    assert len(forfeit_wins) == 15
    for sr, g in forfeit_wins:
        other = t.player(g.opponent).games[g.round - 1]
        assert (other.opponent, other.code) == (sr, "-")


def test_gros_declared_rounds_and_unplayed_round_five():
    t = read_trf(GROS)
    # XXR 9; the file is saved after round 4; round 5 holds only announced byes:
    # 001   22 ... 0000 - Z / 001   28 ... 0000 - Z / 001   43 ... 0000 - H
    assert (t.rounds, t.declared_rounds, t.rounds_played) == (9, 9, 4)
    assert all(len(p.games) == 9 for p in t.players)
    assert not any(p.games[4].is_played for p in t.players)
    assert t.player(22).games[4] == Game(5, None, None, "Z")
    assert t.player(43).games[4] == Game(5, None, None, "H")
    for p in t.players:
        for g in p.games[5:]:
            assert g == Game(g.round, None, None, "Z")
    assert (t.name, t.city, t.federation) == ("XX Open Internacional de Gros", "Donostia", "ESP")
    # 042 24/09/2010, 052 02/10/2010
    assert (t.start_date, t.end_date) == (datetime.date(2010, 9, 24), datetime.date(2010, 10, 2))
    # README: 11 unrated, rating written "   0" and id "0"
    assert sum(p.rating is None for p in t.players) == 11
    # 001    6 m    Player 006                           0 ESP           0 1950        3.5    4
    assert (t.player(6).rating, t.player(6).fide_id, t.player(6).birth_year) == (None, None, 1950)
    # old one-letter titles: 001 1 m  g / 001 2 m  m / 001 3 m  f
    assert [t.player(i).title for i in (1, 2, 3)] == ["g", "m", "f"]
    # 001   34 ... 9000034             1.5: no birth date
    assert (t.player(34).birth_date, t.player(34).birth_year) == ("", None)
    # 001   13 ... 39 w +  and  001   39 ... 13 b -: a forfeit with a real opponent
    assert t.player(13).games[0] == Game(1, 39, "w", "+")
    assert t.player(39).games[0] == Game(1, 13, "b", "-")
    assert not t.player(13).games[0].is_played
    # 001   48 ... 0000 - U (round 4): pairing-allocated bye, not a game
    assert t.player(48).games[3] == Game(4, None, None, "U")
    # 26 XXA lines and the XXR line are kept
    assert sum(r.tag == "XXA" for r in t.records) == 26
    assert [r.text for r in t.records if r.tag == "XXR"] == ["XXR 9"]


def test_online_swiss_unrated_and_blank_opponent_cells():
    t = read_trf(ONLINE)
    assert len(t.players) == 13
    assert all(p.rating is None for p in t.players)
    assert all(p.rank is None and p.fide_id is None for p in t.players)
    assert (t.rounds, t.declared_rounds) == (10, 10)
    assert t.initial_colour == "w"  # XXC white1
    assert t.start_date == datetime.date(2020, 5, 29)  # 042 May 29, 2020
    assert t.federation == "Lichess"
    # 001    5 ... 5.5              H         -    10 w 1 ...
    p5 = t.player(5)
    assert p5.games[0] == Game(1, None, None, "H")
    assert p5.games[1] == Game(2, None, None, "-")
    assert p5.games[1].is_forfeit and not p5.games[1].is_played
    assert p5.games[2] == Game(3, 10, "w", "1")
    # 001   13 ...  1 w 0     9 b 0     7 w 1         -  (rounds 4-10)
    p13 = t.player(13)
    assert [g.code for g in p13.games] == ["0", "0", "1"] + ["-"] * 7
    assert sum(g.is_played for g in p13.games) == 3


def test_cr_file_players_and_rounds():
    t = read_trf(CR_FILE)
    assert len(t.players) == 60
    assert t.name == "AutoTest Tournament 1110065304"
    # 14 round blocks per player, all played; the last line "XXR 15" declares the round
    # being paired next (bbpPairings input), so the tournament has 15 rounds.
    assert t.rounds_played == 14
    assert (t.rounds, t.declared_rounds) == (15, 15)
    assert all(g.code == "Z" and g.opponent is None for p in t.players for g in p.games[14:])
    # 001    4 ... round 8: "8 b -" ; 001    8 ... round 8: "4 w +"
    assert t.player(4).games[7] == Game(8, 8, "b", "-")
    assert t.player(8).games[7] == Game(8, 4, "w", "+")
    # 001    1      Player 001                        2720                            10.5    1
    p1 = t.player(1)
    assert (p1.rating, p1.federation, p1.fide_id, p1.points, p1.rank) == (2720, "", None, D("10.5"), 1)


# --------------------------------------------------------------------------- round trip

@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_round_trip_every_file(path, tmp_path):
    t = read_trf(path)
    text = write_trf(t)
    back = parse_trf(text)
    assert back.players == t.players
    assert header_fields(back) == header_fields(t)
    assert back.team_records == t.team_records
    assert back.national_records == t.national_records
    # nothing was edited, so every line comes back as it was (line endings become LF)
    assert text == normalised_text(path)
    out = tmp_path / "out.trf"
    write_trf_file(t, out)
    assert read_trf(out).players == t.players
    # and in the encoding the file was read in: the same bytes (a Windows-1252 file from
    # Swiss-Manager stays Windows-1252)
    assert t.encoding == ENCODING.get(path.name, "utf-8")
    assert out.read_bytes() == normalised_bytes(path)


def test_edited_player_is_regenerated_and_other_lines_kept():
    t = read_trf(GROS)
    p6 = t.player(6)
    edited = dataclasses.replace(p6, rating=1850, name="Player Six")
    players = tuple(edited if p.start_rank == 6 else p for p in t.players)
    t2 = dataclasses.replace(t, players=players, name="Renamed Open")
    text = write_trf(t2)
    lines = text.split("\n")
    original = normalised_text(GROS).split("\n")
    assert lines[0] == "012 Renamed Open"
    # player 6 is on line 19 (index 18); its new line has the rating in columns 49-52
    assert lines[18][48:52] == "1850" and lines[18][14:47].rstrip() == "Player Six"
    assert lines[18][91:] == original[18][91:]  # round blocks unchanged
    changed = [i for i, (a, b) in enumerate(zip(lines, original)) if a != b]
    assert changed == [0, 18]
    back = parse_trf(text)
    assert back.player(6).rating == 1850 and back.name == "Renamed Open"
    assert back.players == players


def test_added_and_removed_players_and_rounds_change():
    t = read_trf(SAN_VIATOR)
    new = TrfPlayer(138, sex="m", name="Newcomer, N", rating=1500, federation="ESP",
                    games=[Game(r) for r in range(1, 8)])
    t2 = dataclasses.replace(t, players=t.players + (new,))
    back = parse_trf(write_trf(t2))
    assert back.player(138).name == "Newcomer, N" and len(back.players) == 138
    # no XXR in San Viator: raising rounds to 9 adds an XXR line
    t3 = dataclasses.replace(t, rounds=9, players=tuple(
        dataclasses.replace(p, games=p.games + (Game(8, explicit=False), Game(9, explicit=False)))
        for p in t.players))
    text3 = write_trf(t3)
    assert "XXR 9\n" in text3
    assert parse_trf(text3).rounds == 9


def test_unknown_records_survive_verbatim():
    unknown = "999 some program's private record   with  spaces"
    weird = "zz private lower-case record"
    text = two_player_file(extra=unknown + "\n" + weird + "\n")
    t = parse_trf(text, source="u.trf")
    assert [r.text for r in t.records if r.kind == "unknown"] == [unknown, weird]
    assert [(w.line, w.column) for w in t.warnings] == [(4, 1), (5, 1)]
    assert "999" in t.warnings[0].message
    out = write_trf(t)
    assert unknown in out.split("\n") and weird in out.split("\n")
    assert out == text


def test_ruler_and_blank_lines_are_skipped_but_kept():
    ruler = ("DDD SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII "
             "BBBB/BB/BB PPPP RRRR  1111 1 1")
    digits = "1234567890" * 10
    text = "012 Ruled\n\n" + ruler + "\n" + digits + "\n" + two_player_file().split("\n", 1)[1]
    t = parse_trf(text, strict=True)
    assert t.warnings == ()
    assert [r.kind for r in t.records] == ["header", "blank", "ruler", "ruler", "player", "player"]
    assert len(t.players) == 2
    out = write_trf(t)
    assert out == text  # the blank line too: nothing is lost


# --------------------------------------------------------------------------- building

def test_build_and_write_from_scratch():
    players = [
        TrfPlayer(2, sex="w", title="WFM", name="Second, Player", rating=1900, federation="FRA",
                  fide_id=654321, birth_date="2001/02/03", points=D("0.5"), rank=2,
                  games=[Game(1, 1, "b", "=")]),
        TrfPlayer(1, sex="m", title="FM", name="First, Player", rating=2100, federation="GER",
                  fide_id=12345678, birth_date="1990", points=D("1.5"), rank=1,
                  games=[Game(1, 2, "w", "="), Game(2, None, None, "F")]),
    ]
    t = Tournament.build(name="Built Open", players=players, city="Paris", federation="FRA",
                         start_date=datetime.date(2024, 11, 23), end_date="2024/11/24",
                         time_control="90+30", chief_arbiter="IA Someone")
    assert [p.start_rank for p in t.players] == [1, 2]
    assert t.rounds == 2 and t.player(2).games[1] == Game(2)  # padded with a blank Z
    text = write_trf(t)
    expected = "\n".join([
        "012 Built Open",
        "022 Paris",
        "032 FRA",
        "042 2024/11/23",
        "052 2024/11/24",
        "062 2",
        "072 2",
        "092",
        "102 IA Someone",
        "122 90+30",
        "XXR 2",
        line001(1, "First, Player", sex="m", title="FM", rating="2100", fed="GER",
                fide_id="12345678", birth="1990", points="1.5", rank="1",
                rounds=[("2", "w", "="), ("0000", "-", "F")]),
        line001(2, "Second, Player", sex="w", title="WFM", rating="1900", fed="FRA",
                fide_id="654321", birth="2001/02/03", points="0.5", rank="2",
                rounds=[("1", "b", "=")]),
    ]) + "\n"
    assert text == expected
    back = parse_trf(text, strict=True)
    assert back.players == t.players
    assert (back.name, back.start_date, back.end_date, back.rounds) == (
        "Built Open", datetime.date(2024, 11, 23), datetime.date(2024, 11, 24), 2)


def test_build_with_scoring_writes_xxs():
    p = [TrfPlayer(1, name="A", points=D("0.5"), games=[Game(1, None, None, "U")])]
    t = Tournament.build(name="PAB half", players=p, scoring={"U": "0.5"})
    text = write_trf(t)
    assert "XXS " in text and "PAB=0.5" in text
    back = parse_trf(text, strict=True)
    assert back.points_for(back.player(1).games[0]) == D("0.5")


def test_build_rejects_bad_input():
    with pytest.raises(InputError):
        Tournament.build(name="x", players=[TrfPlayer(1), TrfPlayer(1)])
    with pytest.raises(InputError, match="not a player"):
        Tournament.build(name="x", players=[TrfPlayer(1, games=[Game(1, 5, "w", "1")])])
    with pytest.raises(InputError):
        Game(1, None, None, "Q")
    with pytest.raises(InputError):
        write_trf(Tournament.build(name="x", players=[TrfPlayer(1, name="N" * 34)]))


def test_write_trf_file_refuses_to_overwrite(tmp_path):
    t = read_trf(ONLINE)
    target = tmp_path / "x.trf"
    target.write_text("keep me")
    with pytest.raises(OutputExistsError) as err:
        write_trf_file(t, target)
    assert isinstance(err.value, XlFideError) and isinstance(err.value, FileExistsError)
    assert target.read_text() == "keep me"
    write_trf_file(t, target, force=True)
    assert read_trf(target).players == t.players
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.trf"]  # no temporary file left
    write_trf_file(t, tmp_path / "cr.trf", newline="\r")
    assert (tmp_path / "cr.trf").read_bytes().count(b"\r") == len(t.records)


# --------------------------------------------------------------------------- TRF-2026

def test_mini_trf2026_file():
    t = read_trf(MINI_2026, strict=True)
    assert t.version == "TRF-2026"
    assert (t.rounds, t.declared_rounds, t.rounds_played) == (3, 3, 3)  # 142 3
    assert t.initial_colour == "w"  # 152 W
    assert t.deputy_arbiters == ("FA Deputy, Dan",)
    assert t.start_date == datetime.date(2026, 1, 10)
    # 162  W 3.0    D 1.0    L 0.0    A 0.0  (P defaults to W)
    assert t.scoring["1"] == t.scoring["+"] == t.scoring["F"] == t.scoring["U"] == D("3.0")
    assert t.scoring["="] == t.scoring["H"] == D("1.0")
    assert t.scoring["0"] == t.scoring["-"] == t.scoring["Z"] == D("0.0")
    # 001    1 m GM Alpha, Anna  ... 7.0    1     4 w 1     2 b 1     3 w =
    p1 = t.player(1)
    assert [g.code for g in p1.games] == ["1", "1", "="]  # a win is still "1" for rating
    assert [g.score_half_points for g in p1.games] == [2, 2, 1]
    assert [t.points_for(g) for g in p1.games] == [D(3), D(3), D(1)]
    assert p1.points == D("7.0") == t.score(p1)
    # 001    3 M 1N Gamma, Carl    (rating blank) SUI (id blank) 1985
    p3 = t.player(3)
    assert (p3.sex, p3.title, p3.rating, p3.fide_id, p3.birth_year) == ("M", "1N", None, None, 1985)
    # 001    4 m    Delta, Dora   0000 ITA  0 2012/00/00  6.0 ...  1 b 0  3 w +  0000 - U
    p4 = t.player(4)
    assert (p4.rating, p4.fide_id, p4.birth_year) == (None, None, 2012)
    assert t.score(p4) == D("6.0") == p4.points
    # 001    2 w WIM Beta ... 2.0: = (1) + 0 (0) + H (1)
    assert t.score(2) == D("2.0") and t.player(2).title == "WIM"
    # comments, national record, team record and bye record kept
    kinds = [r.kind for r in t.records]
    assert kinds.count("comment") == 3 and kinds.count("national") == 1
    (nat,) = t.national_records
    assert (nat.federation, nat.start_rank, nat.rating, nat.classification, nat.origin) == (
        "SUI", 3, 1650, "1N", "BS")
    (team,) = t.team_records
    assert (team.tag, team.number, team.name, team.members) == ("310", 1, "Basel Team", (1, 3))
    assert [r.text for r in t.records if r.tag == "240"] == ["240 H 003    2"]
    assert write_trf(t) == normalised_text(MINI_2026)


@pytest.mark.parametrize("letter", ["A", "Z"])
def test_162_absence_letter_accepts_a_and_z(letter):
    text = "\n".join([
        "012 Three-one-zero",
        f"162  W 3.0    D 1.0    L 0.0    {letter} 0.5",
        line001(1, "One", points="3.0", rounds=[("2", "w", "+")]),
        line001(2, "Two", points="0.5", rounds=[("1", "b", "-")]),
    ])
    t = parse_trf(text, strict=True)
    assert t.version == "TRF-2026"
    assert t.points_for(t.player(2).games[0]) == D("0.5")  # forfeit loss = absence
    assert t.points_for(Game(1, None, None, "Z")) == D("0.5")
    assert not t.player(1).games[0].is_played


def test_142_declares_rounds_and_comments_are_skipped():
    text = "\n".join([
        "### a comment line with 001 inside it",
        "012 Two rounds planned",
        "142 2",
        line001(1, "One", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "Two", points="0.0", rounds=[("1", "b", "0")]),
    ])
    t = parse_trf(text, strict=True)
    assert (t.rounds, t.rounds_played, t.version) == (2, 1, "TRF-2026")
    assert t.player(1).games[1] == Game(2)


def test_team_013_record_is_read():
    team = put((1, "013"), (5, "Old Style Team"), (37, "   1"), (42, "   2"))
    t = parse_trf(two_player_file(extra=team + "\n"), strict=True)
    assert t.team_records[0].members == (1, 2) and t.team_records[0].name == "Old Style Team"
    assert t.version == "TRF16"


# --------------------------------------------------------------------------- scoring

def test_xxs_half_point_pab_changes_points_not_ratings():
    text = "\n".join([
        "012 PAB half",
        "XXS PAB=0.5",
        line001(1, "One", rating="2000", points="1.5", rounds=[("2", "w", "1"), ("0000", "-", "U")]),
        line001(2, "Two", rating="1900", points="1.0", rounds=[("1", "b", "0"), ("3", "w", "1")]),
        line001(3, "Three", rating="1800", points="0.5", rounds=[("0000", "-", "U"), ("2", "b", "0")]),
    ])
    t = parse_trf(text, strict=True)
    u = t.player(1).games[1]
    assert t.points_for(u) == D("0.5") and not u.is_played
    assert t.points_for(t.player(1).games[0]) == D(1)
    with pytest.raises(InputError):
        u.score_half_points


def test_xxs_shortcuts_and_colour_specific_values():
    # JaVaFo AUM: "XXS W=3 / XXS D=1" is 3/1/0 with the PAB worth a draw (PAB stays 1).
    t = parse_trf(two_player_file(extra="XXS W=3\nXXS D=1 BW=2.5\n"))
    assert t.scoring["+"] == t.scoring["F"] == D(3) and t.scoring["U"] == D(1)
    assert t.scoring["H"] == D(1)
    assert t.points_for(Game(1, 2, "w", "1")) == D(3)
    assert t.points_for(Game(1, 2, "b", "1")) == D("2.5")


def test_points_mismatch_is_a_warning():
    text = two_player_file().replace("   1.0 ", "   3.0 ", 1)
    t = parse_trf(text, source="m.trf")
    (w,) = t.warnings
    assert (w.line, w.column) == (2, 81) and "3.0" in w.message
    with pytest.raises(TrfError):
        parse_trf(text, strict=True)


# --------------------------------------------------------------------------- columns & values

def test_line_endings_bom_and_latin1():
    base = two_player_file().replace("One, A", "Mü, Jö")  # same length: columns stay put
    lf = parse_trf(base)
    for variant in (base.replace("\n", "\r\n"), base.replace("\n", "\r")):
        assert parse_trf(variant).players == lf.players
    assert parse_trf(base.encode("latin-1")).players == lf.players
    assert parse_trf(b"\xef\xbb\xbf" + base.encode("utf-8")).players == lf.players
    assert parse_trf("\ufeff" + base).players == lf.players
    assert lf.player(1).name == "Mü, Jö"
    # columns are characters: the rating after the umlauts is still read
    assert lf.player(1).rating == 2000


def test_unrated_forms_and_titles_and_sex():
    text = "\n".join([
        "012 Unrated forms",
        line001(1, "Blank", sex="M", title="1N"),
        line001(2, "Zero", sex="f", title="MF", rating="0"),
        line001(3, "Zeros", sex="m", title="g", rating="0000", fide_id="0"),
    ])
    t = parse_trf(text, strict=True)
    assert [p.rating for p in t.players] == [None, None, None]
    assert [(p.sex, p.title) for p in t.players] == [("M", "1N"), ("f", "MF"), ("m", "g")]
    assert t.player(3).fide_id is None
    assert t.rounds == 0 and t.player(1).games == ()


def test_result_codes_are_case_insensitive():
    text = "\n".join([
        "012 lower",
        "XXR 4",  # without it the trailing z block would not count as a round
        line001(1, "A", points="2.5", rounds=[("0000", "-", "h"), ("0000", "-", "f"),
                                              ("0000", "-", "u"), ("0000", "-", "z")]),
    ])
    t = parse_trf(text, strict=True)
    assert [g.code for g in t.player(1).games] == ["H", "F", "U", "Z"]
    assert not any(g.is_played for g in t.player(1).games)


def test_unknown_result_code_lenient_and_strict():
    # without an opponent: read as Z with a warning (an error when strict); in a game
    # with an opponent: an error either way (tests/trf/test_trf_one_truth.py)
    text = "\n".join(["012 Two Players",
                      line001(1, "One, A", rating="2000", rounds=[("0000", "-", "X")]),
                      line001(2, "Two, B", rating="1900")]) + "\n"
    t = parse_trf(text, source="x.trf")
    assert all(g.code == "Z" for g in t.player(1).games)       # a zero-point bye at most
    codes = [(w.line, w.column) for w in t.warnings]
    assert (2, 99) in codes
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="x.trf", strict=True)
    assert (err.value.file, err.value.line, err.value.column) == ("x.trf", 2, 99)
    assert "'X'" in err.value.message


def test_bad_rating_message_names_file_line_column_and_value():
    text = two_player_file().replace("2000", "ABCD")
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="example.trf", strict=True)
    assert str(err.value) == "example.trf:2:49: rating must be a number or blank, got 'ABCD'"
    t = parse_trf(text, source="example.trf")
    assert t.player(1).rating is None
    assert str(t.warnings[0]) == "example.trf:2:49: rating must be a number or blank, got 'ABCD'"


def test_symmetry_warnings():
    both_win = parse_trf(two_player_file(r1="1", r2="1"))
    assert any("both won" in w.message for w in both_win.warnings)
    text = "\n".join([
        "012 one-sided",
        line001(1, "A", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", points="0.0", rounds=[("0000", "-", "Z")]),
    ])
    t = parse_trf(text)
    assert any("player 2 has no opponent" in w.message for w in t.warnings)


def test_rounds_beyond_xxr_are_ignored_with_a_warning():
    text = "\n".join([
        "012 beyond",
        "XXR 1",
        line001(1, "A", points="1.0", rounds=[("2", "w", "1"), ("2", "b", "1")]),
        line001(2, "B", points="0.0", rounds=[("1", "b", "0"), ("1", "w", "0")]),
    ])
    t = parse_trf(text, source="b.trf")
    assert t.rounds == 1 and all(len(p.games) == 1 for p in t.players)
    assert [(w.line, w.column) for w in t.warnings] == [(3, 102)]


def test_phantom_trailing_block_without_xxr_is_ignored():
    text = "\n".join([
        "012 phantom",
        line001(1, "A", points="1.0", rounds=[("2", "w", "1"), ("0000", "-", "Z")]),
        line001(2, "B", points="0.0", rounds=[("1", "b", "0"), ("0000", "-", "Z")]),
    ])
    t = parse_trf(text, strict=True)
    assert t.rounds == 1 and t.rounds_played == 1


@pytest.mark.parametrize("text, date", [
    ("28. 07. 2005", datetime.date(2005, 7, 28)),
    ("24/09/2010", datetime.date(2010, 9, 24)),
    ("08/04/2018", datetime.date(2018, 4, 8)),
    ("May 10, 2020", datetime.date(2020, 5, 10)),
    ("2024/11/23", datetime.date(2024, 11, 23)),
    ("2018-04-08", datetime.date(2018, 4, 8)),
    ("2018.04.08", datetime.date(2018, 4, 8)),
    ("10 May 2020", datetime.date(2020, 5, 10)),
    ("", None),
])
def test_parse_date_formats(text, date):
    assert parse_date(text) == (date, True)


@pytest.mark.parametrize("text", ["31/02/2020", "next week", "2020"])
def test_parse_date_not_understood(text):
    assert parse_date(text) == (None, False)


def test_bad_header_date_is_a_warning():
    t = parse_trf("042 someday\n" + two_player_file(), source="d.trf")
    assert [(w.line, w.column) for w in t.warnings] == [(1, 5)]
    assert t.start_date is None and t.start_date_text == "someday"
    assert write_trf(t).startswith("042 someday\n")  # kept, not blanked
    moved = dataclasses.replace(t, start_date=datetime.date(2021, 3, 4))
    assert write_trf(moved).startswith("042 2021/03/04\n")


def test_header_field_set_in_code_is_written_when_the_file_has_no_record():
    t = parse_trf(two_player_file().replace("012 Two Players\n", ""))
    assert t.name == ""
    text = write_trf(dataclasses.replace(t, name="Named Later", city="Bern"))
    assert text.startswith("012 Named Later\n022 Bern\n001 ")


# --------------------------------------------------------------------------- fatal errors

@pytest.mark.parametrize("text, line, column, words", [
    ("", None, None, "empty file"),
    ("  \n\r\n", None, None, "empty file"),
    ("012 No players\n022 Nowhere\n", None, None, "no player records"),
    ("012 x\n001   A1 m    Name\n", 2, 5, "start rank"),
    (two_player_file().replace("001    2", "001    1"), 3, 5, "duplicate start rank 1"),
    (two_player_file().replace("     2 w 1", "     7 w 1"), 2, 92, "opponent 7 is not a player"),
    (two_player_file().replace("     2 w 1", "    ?? w 1"), 2, 92, "must be a start rank"),
])
def test_fatal_errors_even_when_lenient(text, line, column, words):
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="f.trf")
    assert (err.value.file, err.value.line, err.value.column) == ("f.trf", line, column)
    assert words in err.value.message


def test_player_lookup_and_warning_str():
    t = parse_trf(two_player_file(), source="p.trf")
    assert t.player(1).name == "One, A"
    assert t.player(99, None) is None
    with pytest.raises(TrfError, match="start rank 99"):
        t.player(99)
    assert str(TrfWarning("a.trf", 3, 7, "msg")) == "a.trf:3:7: msg"
    assert str(TrfWarning("a.trf", 3, None, "msg")) == "a.trf:3: msg"


def test_read_trf_errors_and_file_objects(tmp_path):
    with pytest.raises(TrfError, match="cannot read"):
        read_trf(tmp_path / "missing.trf")
    with open(GROS, "rb") as fh:
        assert read_trf(fh).source == str(GROS)
    with open(GROS, encoding="ascii") as fh:
        assert len(read_trf(fh).players) == 52
    with pytest.raises(TrfError):
        parse_trf(b"\xff\xfe\x00", source="u16.trf")  # UTF-16 BOM, odd byte count


# --------------------------------------------------------------------------- robustness

def _parse_or_trf_error(data):
    try:
        t = parse_trf(data, source="fuzz.trf")
    except TrfError:
        return None
    assert isinstance(t, Tournament)
    # anything that reads also writes and reads back to the same players
    back = parse_trf(write_trf(t), source="fuzz-back.trf")
    assert back.players == t.players and back.rounds == t.rounds
    assert header_fields(back) == header_fields(t)
    # and so do all 001 lines regenerated from the fields (raw lines dropped)
    fresh = dataclasses.replace(t, players=tuple(dataclasses.replace(p, raw="") for p in t.players))
    again = parse_trf(write_trf(fresh), source="fuzz-fresh.trf")
    assert again.players == t.players and again.rounds == t.rounds
    assert header_fields(again) == header_fields(t)
    return t


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.binary())
def test_fuzz_binary(data):
    _parse_or_trf_error(data)


@FUZZ
@given(st.text())
def test_fuzz_text(data):
    _parse_or_trf_error(data)


@FUZZ
@given(st.sampled_from(ALL_FILES), st.integers(min_value=0), st.data())
def test_fuzz_mutated_shared_files(path, seed, data):
    raw = path.read_bytes()
    rng = random.Random(seed)
    kind = data.draw(st.sampled_from(["truncate", "flip", "shuffle", "junk", "empty", "lines"]))
    if kind == "truncate":
        raw = raw[:rng.randrange(len(raw) + 1)]
    elif kind == "flip":
        b = bytearray(raw)
        for _ in range(rng.randint(1, 20)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        raw = bytes(b)
    elif kind == "shuffle":
        lines = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
        rng.shuffle(lines)
        raw = b"\n".join(lines)
    elif kind == "junk":
        raw += data.draw(st.binary(max_size=200))
    elif kind == "empty":
        raw = b""
    else:  # replace one line with random text
        lines = raw.replace(b"\r", b"\n").split(b"\n")
        lines[rng.randrange(len(lines))] = data.draw(st.text(max_size=150)).encode("utf-8")
        raw = b"\n".join(lines)
    _parse_or_trf_error(raw)


@FUZZ
@given(st.lists(st.text(alphabet="0123456789 wbWB-=+HFUZDLhz\r\n", max_size=60), max_size=12))
def test_fuzz_player_lines(tails):
    # plausible 001 lines with random round blocks
    lines = ["012 fuzz"] + [line001(i, f"P{i}", rating="1500") + "  " + tail
                            for i, tail in enumerate(tails, start=1)]
    _parse_or_trf_error("\n".join(lines))


# --------------------------------------------------------------------------- layering

def test_engine_module_imports_only_errors_from_the_package():
    source = (Path(__file__).parents[2] / "xl_fide" / "trf.py").read_text(encoding="utf-8")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    # errors, the one pair rule (results), the value limits and the file sniffer: no
    # presenter, no Excel code
    assert {m for m in imported if m.startswith("xl_fide")} <= {
        "xl_fide.errors", "xl_fide.tournament", "xl_fide.rules.results", "xl_fide.rules.values",
        "xl_fide._filekind", "xl_fide._files", "xl_fide._dates"}
    assert not {m for m in imported if m.split(".")[0] in {"xlwings", "openpyxl"}}
    code = ("import sys, xl_fide.trf; "
            "print(sorted(m for m in ('xlwings', 'openpyxl') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).parents[2], check=True)
    assert out.stdout.strip() == "[]"
