"""A user trial: random bytes given as a ``.trf`` said "no player records". A file with
no 001 line whose lines are no TRF records says it is not a TRF, at its first such line
(file, line, column), in one line, exit 2; a TRF header without players keeps "no player
records"."""
from __future__ import annotations

import random

import pytest

from xl_fide.cli._main import main
from xl_fide.errors import TrfError
from xl_fide.trf import parse_trf

MESSAGE = "not a TRF line (expected a 3-digit code such as 001 or 012)"


def _random_text_bytes() -> bytes:
    """Bytes of no file kind (no magic number), printable Latin-1 in lines: read as text."""
    rng = random.Random(7)
    alphabet = bytes(range(0x41, 0x5B)) + bytes(range(0x61, 0x7B)) + b" %&/()"
    return b"\n".join(bytes(rng.choice(alphabet) for _ in range(60)) for _ in range(20))


@pytest.mark.parametrize("text, line, column", [
    ("hello world\nfoo\n", 1, 1),
    ("012 Open\n022 Bern\nab1 x\n", 3, 1),
    ("012 Open\n0a1 x\n", 2, 2),
    ("012 Open\n01x x\n", 2, 3),
])
def test_the_first_line_that_is_no_record_is_named(text, line, column):
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="f.trf")
    assert (err.value.file, err.value.line, err.value.column) == ("f.trf", line, column)
    assert err.value.message == MESSAGE


def test_a_header_without_players_still_says_no_player_records():
    with pytest.raises(TrfError) as err:
        parse_trf("012 Open\n022 Bern\n", source="f.trf")
    assert err.value.message.startswith("no player records")


@pytest.mark.parametrize("command", [["report"], ["crosstable"], ["trf"]])
def test_random_bytes_say_not_a_trf_in_one_line(command, tmp_path, capsys):
    f = tmp_path / "random.trf"
    f.write_bytes(_random_text_bytes())
    out = tmp_path / ("o.xlsx" if command == ["crosstable"] else "o.trf")
    argv = [*command, str(f)] + ([] if command == ["report"] else ["-o", str(out)])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"xl-fide: error: {f}:1:1: {MESSAGE}\n"
    assert not out.exists()


def test_random_bytes_read_as_text_are_not_a_trf():
    # 3,000 random bytes with no NUL run (seed 3): read as Latin-1 text, no magic number
    data = random.Random(3).randbytes(3000)
    with pytest.raises(TrfError) as err:
        parse_trf(data, source="r.trf")
    assert err.value.message == MESSAGE
    assert err.value.line == 1 and err.value.column in (1, 2, 3)
