"""``xl-fide trf`` warns about what the TRF it writes lacks (issue 34 #4): a file in
without 022/052/092 lines is written without them (not with blank lines), and the
warning says so; a blank line stays a blank line and is called one."""
from __future__ import annotations

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main

PLAYERS = [player_line(1, "Alpha", 2000, rounds=[(2, "w", "1")]),
           player_line(2, "Beta", 1900, rounds=[(1, "b", "0")])]


def _run(capsys, tmp_path, text):
    src, out = tmp_path / "in.trf", tmp_path / "out.trf"
    src.write_text(text)
    assert main(["trf", str(src), "-o", str(out)]) == 0
    return src, out, capsys.readouterr().err


def test_lines_the_input_lacks_are_called_missing_not_blank(capsys, tmp_path):
    src, out, err = _run(capsys, tmp_path, trf({"012": "Small", "042": "2025/01/05"}, PLAYERS))
    assert out.read_bytes() == src.read_bytes()            # nothing added, nothing lost
    assert "blank lines" not in err
    assert "no 022 (place), 052 (end date), 092 (type of tournament) line" in err


def test_a_blank_line_is_called_blank(capsys, tmp_path):
    text = trf({"012": "Small", "022": "", "042": "2025/01/05", "052": "2025/01/06",
                "092": "Swiss"}, PLAYERS)
    src, out, err = _run(capsys, tmp_path, text)
    assert out.read_bytes() == src.read_bytes()
    assert "022 (place) empty: the TRF has blank lines there" in err
    assert "052" not in err and "092" not in err


def test_nothing_lacking_nothing_said(capsys, tmp_path):
    text = trf({"012": "Small", "022": "Madrid", "042": "2025/01/05", "052": "2025/01/06",
                "092": "Swiss"}, PLAYERS)
    _, _, err = _run(capsys, tmp_path, text)
    assert "warning" not in err
