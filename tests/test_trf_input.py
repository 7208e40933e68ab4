"""Tests of xl_fide.trf on hostile and inconsistent input (issues 10 and 11, TRF side).

Each test builds its TRF text with ``line001`` (every field at the column FIDE's TRF16
layout gives, C.04 Annex 2), independently of the reader; the expected warnings follow
from the rules quoted in each test.
"""

from __future__ import annotations

import pytest

from xl_fide.errors import TrfError
from xl_fide.trf import parse_trf

from test_trf import line001, two_player_file


# --------------------------------------------------------------------------- one game, one truth

@pytest.mark.parametrize("bye", ["H", "F", "U", "Z"])
@pytest.mark.parametrize("side", ["first", "second"])
def test_bye_code_on_one_side_of_a_played_game(bye, side):
    # Player 1 has "2 w 1" or "2 w <bye>", player 2 "1 b <bye>" or "1 b 0": a bye code
    # (H F U Z: no opponent, TRF16 result table) cannot stand against a played game;
    # otherwise one player is rated for it and the other not (issue 11).
    r1, r2 = ("1", bye) if side == "second" else (bye, "0")
    text = two_player_file(r1=r1, r2=r2)
    t = parse_trf(text, source="bye.trf")
    found = [w for w in t.warnings if f"bye ({bye})" in w.message]
    assert [(w.file, w.line, w.column) for w in found] == [("bye.trf", 2, 99)]
    assert "player 1 and player 2 (line 3)" in found[0].message
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="bye.trf", strict=True)
    assert (err.value.file, err.value.line, err.value.column) == ("bye.trf", 2, 99)
    assert f"bye ({bye})" in err.value.message


def test_forfeit_win_on_both_sides_is_refused():
    # "+" against "+": both players would get the point (issue 10 #6). A forfeit win
    # has a forfeit loss on the other side (TRF16 result table).
    text = two_player_file(r1="+", r2="+")
    t = parse_trf(text, source="ff.trf")
    assert [(w.line, w.column, w.message) for w in t.warnings if "both won" in w.message] == [
        (2, 99, "round 1: player 1 and player 2 (line 3): both won")]
    with pytest.raises(TrfError, match=r"ff.trf:2:99: round 1: player 1 and player 2 .* both won"):
        parse_trf(text, source="ff.trf", strict=True)


def test_same_colour_on_both_sides_names_the_colour_column():
    text = "\n".join([
        "012 colours",
        line001(1, "A", points="1.0", rounds=[("2", "w", "1")]),
        line001(2, "B", points="0.0", rounds=[("1", "w", "0")]),
    ])
    with pytest.raises(TrfError) as err:
        parse_trf(text, source="c.trf", strict=True)
    # round 1 colour is column 97
    assert (err.value.line, err.value.column) == (2, 97)
    assert "both have colour 'w'" in err.value.message


def test_paired_game_without_a_result_yet_is_consistent():
    # Both cells "2 w  " / "1 b  ": paired, result blank (read as Z) on both sides.
    text = "\n".join([
        "012 paired",
        line001(1, "A", rounds=[("2", "w", "")]),
        line001(2, "B", rounds=[("1", "b", "")]),
    ])
    t = parse_trf(text, strict=True)
    assert t.warnings == ()
