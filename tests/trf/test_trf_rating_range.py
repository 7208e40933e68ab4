"""A user trial (8 December, second): a 001 line with rating 9999. ``xl-fide report``
said ``Ro must be at most 4000, got 9999`` with no file, line or column, and ``xl-fide
trf`` copied the file silently. A rating decides the opponents' changes too (no guess,
as for a result code in a game): the TRF reader refuses it at its field, column 49
(FIDE B.02 §7: a rating is a whole number; the engine takes 0..4000)."""
from __future__ import annotations

import pytest

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main
from xl_fide.errors import TrfError
from xl_fide.trf import parse_trf


def _text(rating: int) -> str:
    # line 2: player 1 (rating ``rating``) beats player 2 (line 3)
    return trf({"012": "Range"}, [player_line(1, "One, A", rating, rounds=[(2, "w", "1")]),
                                  player_line(2, "Two, B", 1900, rounds=[(1, "b", "0")])])


@pytest.mark.parametrize("strict", [False, True])
def test_a_rating_over_4000_is_refused_at_its_field(strict):
    with pytest.raises(TrfError) as err:
        parse_trf(_text(9999), source="r.trf", strict=strict)
    assert str(err.value).startswith("r.trf:2:49: ")
    assert "9999" in str(err.value)


def test_4000_is_read():
    t = parse_trf(_text(4000), source="r.trf")
    assert t.player(1).rating == 4000
    assert t.warnings == ()


@pytest.mark.parametrize("command", ["report", "trf"])
def test_report_and_trf_name_the_place(command, tmp_path, capsys):
    bad = tmp_path / "r.trf"
    bad.write_text(_text(9999), encoding="utf-8")
    out = tmp_path / "out.trf"
    argv = [command, str(bad)] + (["-o", str(out)] if command == "trf" else [])
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith(f"xl-fide: error: {bad}:2:49: ")
    assert not out.exists()
