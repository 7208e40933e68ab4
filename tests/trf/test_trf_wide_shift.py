"""A user trial (8 December, second): a 001 line whose name was padded to 33 bytes of
UTF-8 with four 2-byte characters (four columns short) gave ``round 1: opponent ...
got 'w 1'`` at column 92, where a line one or two columns short gets the hint "a name
padded to 33 bytes rather than 33 characters?". The shift check now tries 1 to 8
columns either way (up to 3 bytes a character), and the real files still read without
a word (tests/trf/test_trf_data.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from xl_fide.errors import TrfError
from xl_fide.trf import read_trf

DATA = Path(__file__).parents[1] / "data" / "trf"
SOURCE = DATA / "san_viator_2018_swiss.trf"     # line 14: player 1, "Player 001"


# the same 10 bytes of UTF-8 as "Player 001" in fewer characters
@pytest.mark.parametrize("name, short", [
    ("ŁŻŚĆ 1", 4),            # four 2-byte characters: 6 characters
    ("€€ 001", 4),            # two 3-byte characters: 6 characters
    ("€€€A", 6),              # three 3-byte characters: 4 characters
    ("ŁŻ€€", 6),              # 2 + 2 + 3 + 3 bytes: 4 characters
])
def test_a_line_several_columns_short_gets_the_hint(name, short, tmp_path):
    lines = SOURCE.read_bytes().split(b"\n")
    assert lines[13].startswith(b"001    1 ") and b"Player 001" in lines[13]
    encoded = name.encode("utf-8")
    assert len(encoded) == 10 and len(name) == 10 - short
    lines[13] = lines[13].replace(b"Player 001", encoded)
    bad = tmp_path / "short.trf"
    bad.write_bytes(b"\n".join(lines))
    with pytest.raises(TrfError) as err:
        read_trf(bad)
    message = str(err.value)
    assert message.startswith(f"{bad}:14:")
    assert f"{short} character(s) too short" in message
    assert "33 bytes rather than 33 characters" in message


def test_a_line_four_columns_long_gets_the_hint(tmp_path):
    # the other way: 4 columns too many after the name (a name field of 37 characters)
    lines = SOURCE.read_bytes().split(b"\n")
    lines[13] = lines[13].replace(b"Player 001", b"Player 001    ")
    bad = tmp_path / "long.trf"
    bad.write_bytes(b"\n".join(lines))
    with pytest.raises(TrfError) as err:
        read_trf(bad)
    assert "4 character(s) too long" in str(err.value)
