"""A user trial (8 December): one file, two answers. A 001 line one character short
(``Müller 01`` padded to the name's 33 columns by bytes, not characters) gave
``xl-fide report`` 17 warnings and exit 0, player 1 "unrated, 0 games" and his
opponents' changes shifted, while ``xl-fide crosstable`` refused the same file (its
workbook reader refuses a game whose two sides disagree). A result code ``X`` in a game
was read as Z (a bye) with a warning, the same split. The TRF reader now refuses both,
at the line and column, so every command refuses them alike (exit 2, one line)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.harness.cli_refusal import refused
from xl_fide.cli._main import main
from xl_fide.errors import TrfError
from xl_fide.trf import parse_trf, read_trf

DATA = Path(__file__).parents[1] / "data" / "trf"
SOURCE = DATA / "san_viator_2018_swiss.trf"     # line 14: player 1, "Player 001"


def _short_line_file(tmp_path: Path) -> Path:
    data = SOURCE.read_bytes()
    lines = data.split(b"\n")
    assert lines[13].startswith(b"001    1 ") and b"Player 001" in lines[13]
    # 9 characters, 10 bytes in UTF-8, in the place of 10 characters: one short
    lines[13] = lines[13].replace(b"Player 001", "Müller 01".encode("utf-8"))
    bad = tmp_path / "short.trf"
    bad.write_bytes(b"\n".join(lines))
    assert len(lines[13].decode("utf-8")) == len(data.split(b"\n")[13]) - 1
    return bad


@pytest.mark.parametrize("command", ["report", "crosstable", "trf"])
def test_a_line_one_character_short_is_refused_by_every_command(command, tmp_path, capsys):
    bad = _short_line_file(tmp_path)
    line = refused(command, bad, tmp_path, capsys)
    # the first field after the name: the separator at column 48 holds the rating's
    # first digit ("1750" now in columns 48-51)
    assert line.startswith(f"xl-fide: error: {bad}:14:48: ")
    assert "1 character(s) too short" in line


def test_a_line_one_character_long_is_refused(tmp_path):
    line = SOURCE.read_text(encoding="utf-8").split("\n")[13]
    long = line.replace("Player 001", "Player 0001")
    text = SOURCE.read_text(encoding="utf-8").replace(line, long)
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="long.trf")
    # the rating "1750" now in columns 50-53: the separator at 53 holds its "0"
    assert (err.value.line, err.value.column) == (14, 53)
    assert "1 character(s) too long" in err.value.message


def test_a_result_code_none_of_trf16_in_a_game_is_refused(tmp_path, capsys):
    text = SOURCE.read_text(encoding="utf-8")
    lines = text.split("\n")
    line = lines[14]                       # player 2: round 1 "  65 w 1" (columns 92-99)
    assert line.startswith("001    2 ") and line[91:99] == "  65 w 1"
    lines[14] = line[:98] + "X" + line[99:]
    bad = tmp_path / "x.trf"
    bad.write_text("\n".join(lines), encoding="utf-8")
    for command in (["report", str(bad)], ["crosstable", str(bad), "-o", str(tmp_path / "b.xlsx")]):
        capsys.readouterr()
        assert main(command) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"xl-fide: error: {bad}:15:99: round 1: ")
        assert "'X' in a game against player 65" in err[0]


def test_the_real_files_still_read(tmp_path):
    # the files of tests/data/trf read as before: none is refused, none has a warning
    for path in sorted(DATA.glob("*.trf")):
        copy = tmp_path / path.name
        shutil.copyfile(path, copy)
        assert read_trf(copy).warnings == (), path.name
