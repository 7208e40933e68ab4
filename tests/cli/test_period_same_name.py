"""A period joins a player without a FIDE id across files by name (a user trial, 8
December 2026): the club's "Player 006" rated 2000 was joined with another event's
unrated "Player 006" and rated as unrated for the whole period (B.02 §8.2.4), so his
club opponents lost a rated game, with a note that did not say the two were matched by
name only. Two files that disagree on a rating are not taken as two players: a national
rating typed into the FIDE rating field of a player FIDE has not rated is the usual
cause (tests/event/test_period.py pins that), so the note now says the match is by name
and how to tell two players apart."""
from __future__ import annotations

import json

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main


def _files(tmp_path, six_id=None):
    a = trf({"012": "Open A", "042": "2025/10/05", "052": "2025/10/06", "122": "90 min"},
            [player_line(1, "Ann", 1800, fide_id=101, rounds=[(2, "w", "1")]),
             player_line(2, "Player 006", None, rounds=[(1, "b", "0")])])
    b = trf({"012": "Club B", "042": "2025/10/12", "052": "2025/10/13", "122": "90 min"},
            [player_line(1, "Bob", 1900, fide_id=202, rounds=[(2, "w", "=")]),
             player_line(2, "Player 006", 2000, fide_id=six_id, rounds=[(1, "b", "=")])])
    (tmp_path / "a.trf").write_text(a, encoding="utf-8")
    (tmp_path / "b.trf").write_text(b, encoding="utf-8")
    return [str(tmp_path / "a.trf"), str(tmp_path / "b.trf")]


def _period(capsys, files):
    assert main(["period", *files, "--k", "20", "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_namesake_joined_by_name_is_said_so(tmp_path, capsys):
    out = _period(capsys, _files(tmp_path))
    notes = [n for n in out["notes"] if n.startswith("Player 006: unrated in Open A")]
    assert len(notes) == 1
    assert "the same player by name: no FIDE id" in notes[0]
    # joined: Bob's game against him is not rated (§8.2.4), as before
    bob = next(p for p in out["players"] if p["name"] == "Bob")
    assert bob["games_rated"] == 0


def test_a_player_with_a_fide_id_is_not_matched_by_name(tmp_path, capsys):
    # Club B's Player 006 has a FIDE id (Open A's has none): two players. K 20: Bob
    # 1900 draws him (2000): D -100 -> PD .36 (table 8.1.2, 99-106), +.14 x 20 = +2.80
    # -> +3 -> 1903; no note of a name match.
    out = _period(capsys, _files(tmp_path, six_id=606))
    bob = next(p for p in out["players"] if p["name"] == "Bob")
    assert bob["new_rating"] == 1903
    assert not any("by name" in n for n in out["notes"])
