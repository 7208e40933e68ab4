"""A user trial: ``xl-fide trf IN.trf -o OUT.trf`` wrote LF line ends whatever the input
had (a bare CR, as the TRF text says, or CR LF). The TRF written keeps the input's line
ending, so an unchanged file comes back byte for byte."""
from __future__ import annotations

from pathlib import Path

import pytest

from xl_fide.cli._main import main

DATA = Path(__file__).parents[1] / "data" / "trf"


@pytest.mark.parametrize("name, newline", [("synthetic_cr_line_endings.trf", b"\r"),
                                           ("roundrobin_12_synthetic.trf", b"\r\n"),
                                           ("swissmanager_cp1252.trf", b"\n")])
def test_trf_to_trf_keeps_the_line_ending(name, newline, tmp_path, capsys):
    src = DATA / name
    data = src.read_bytes()
    assert newline in data          # the data file has the line ending named
    out = tmp_path / "out.trf"
    assert main(["trf", str(src), "-o", str(out), "-q"]) == 0
    written = out.read_bytes()
    assert written == data          # nothing edited: the same bytes
    if newline == b"\r":
        assert b"\n" not in written


def test_a_small_cr_file_is_written_back_with_cr(tmp_path):
    # two players, one game (1-0), lines ended by a bare CR (FIDE C.04 Annex 2)
    lines = [
        "012 Cr Open",
        "042 2025/01/04",
        "001    1 m    Alpha, A                          1800 SUI     1000001 1990/01/01"
        "  1.0    1     2 w 1",
        "001    2 m    Beta, B                           1700 SUI     1000002 1991/01/01"
        "  0.0    2     1 b 0",
    ]
    src = tmp_path / "cr.trf"
    src.write_bytes("\r".join(lines).encode("ascii") + b"\r")
    out = tmp_path / "out.trf"
    assert main(["trf", str(src), "-o", str(out), "-q"]) == 0
    written = out.read_bytes()
    assert b"\n" not in written and written.count(b"\r") == 4
    assert written.split(b"\r")[:2] == [b"012 Cr Open", b"042 2025/01/04"]


@pytest.mark.parametrize("data, expected", [
    (b"012 x\r001 y\r", "\r"), (b"012 x\r\n001 y\r\n", "\r\n"), (b"012 x\n001 y\n", "\n"),
    (b"012 x", "\n"), (b"", "\n"),
    (b"x" * 65535 + b"\r\n012", "\r\n"),       # CR the last byte of the first 64 KiB read
    (b"x" * 65535 + b"\r012", "\r"),
    (b"x" * 70000 + b"\n", "\n"),
])
def test_line_ending_is_the_first_line_break(data, expected, tmp_path):
    from xl_fide.trf import line_ending
    f = tmp_path / "f.trf"
    f.write_bytes(data)
    assert line_ending(f) == expected
