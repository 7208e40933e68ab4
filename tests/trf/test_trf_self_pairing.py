"""A user trial (8 December, second): player 2's round cell names opponent 2, himself.
``xl-fide report`` rated "player 2 beat himself" as a game (a warning, exit 0) while
``xl-fide crosstable`` refused the file. A game's result decides two ratings: the TRF
reader now refuses it, at the line and column of the cell, so every command refuses it
alike (exit 2, one line)."""
from __future__ import annotations

import pytest

from tests.harness.trf_lines import player_line, trf
from xl_fide import trf as trf_module
from tests.harness.cli_refusal import refused
from xl_fide.cli._main import main
from xl_fide.errors import TrfError
from xl_fide.trf import parse_trf

MESSAGE = "round 1: a player cannot play himself (opponent 2 is his own start rank)"


def _text() -> str:
    # line 2: player 1, a bye; line 3: player 2 "beats" player 2 in round 1 (column 92)
    return trf({"012": "Self"}, [player_line(1, "One, A", 2000, rounds=[(0, "-", "U")]),
                                 player_line(2, "Two, B", 1900, rounds=[(2, "w", "1")])])


@pytest.mark.parametrize("strict", [False, True])
def test_a_player_paired_with_himself_is_refused(strict):
    with pytest.raises(TrfError) as err:
        parse_trf(_text(), source="self.trf", strict=strict)
    assert str(err.value) == f"self.trf:3:92: {MESSAGE}"


def test_a_large_event_refuses_it_as_well(monkeypatch):
    # over the bulk threshold: the bulk opponent check sends the file to the cell check
    n = trf_module._BULK_PLAYERS + 2
    lines = [player_line(i, f"Player {i}", 1500 + i,
                         rounds=[(i + 1 if i % 2 else i - 1, "w" if i % 2 else "b",
                                  "1" if i % 2 else "0")]) for i in range(1, n + 1)]
    lines[6] = player_line(7, "Player 7", 1507, rounds=[(7, "w", "1")])
    with pytest.raises(TrfError) as err:
        parse_trf(trf({"012": "Bulk"}, lines), source="big.trf")
    assert "big.trf:8:92" in str(err.value)
    assert "round 1: a player cannot play himself (opponent 7 is his own start rank)" in str(err.value)


@pytest.mark.parametrize("command", ["report", "crosstable", "trf"])
def test_every_command_refuses_it(command, tmp_path, capsys):
    bad = tmp_path / "self.trf"
    bad.write_text(_text(), encoding="utf-8")
    line = refused(command, bad, tmp_path, capsys)
    assert line.startswith(f"xl-fide: error: {bad}:3:92: ")
    assert MESSAGE in line
