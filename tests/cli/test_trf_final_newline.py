"""A user trial (8 December, second): a TRF without a line break after its last line
came back from ``xl-fide trf IN.trf -o OUT.trf`` one byte longer (a line feed added).
As the line ending is kept (``Tournament.newline``), "no final line break" is now kept
as read (``Tournament.final_newline``): nothing edited, the same bytes."""
from __future__ import annotations

import pytest

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main
from xl_fide.trf import parse_trf, write_trf


def _text(newline: str) -> str:
    lines = [player_line(1, "One, A", 1800, points="1.0", rounds=[(2, "w", "1")]),
             player_line(2, "Two, B", 1700, points="0.0", rounds=[(1, "b", "0")])]
    text = trf({"012": "Open", "022": "Town", "042": "2025/11/01", "052": "2025/11/01",
                "092": "Swiss"}, lines)
    return text.replace("\n", newline)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_a_trf_without_a_final_line_break_comes_back_the_same(newline, tmp_path):
    data = _text(newline).rstrip(newline).encode("utf-8")
    assert not data.endswith((b"\n", b"\r"))
    src, out = tmp_path / "in.trf", tmp_path / "out.trf"
    src.write_bytes(data)
    assert main(["trf", str(src), "-o", str(out), "-q"]) == 0
    assert out.read_bytes() == data


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_write_trf_keeps_the_last_line_as_read(newline):
    text = _text(newline)
    assert write_trf(parse_trf(text), newline=newline) == text          # with it
    bare = text[:-len(newline)]
    assert write_trf(parse_trf(bare), newline=newline) == bare          # without it
