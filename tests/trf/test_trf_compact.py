"""The model keeps a player's round cells compact (issue 35): per player the opponents,
the result codes and the colours, round by round; the Game objects of ``games`` are made
on demand. Checked against the TRF16 columns of the real files (C.04 Annex 2, 001 line:
opponent 92-95, colour 97, result 99, + 10 per round), read here by hand."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from xl_fide import tournament as tournament_module
from xl_fide.event.report import build_report
from xl_fide.trf import encode_trf, parse_trf, read_trf
from xl_fide.tournament import Game, Tournament, TrfPlayer

DATA = Path(__file__).parents[1] / "data" / "trf"
ALL_FILES = sorted(DATA.glob("*.trf"))


def cells_by_hand(raw: str, rounds: int) -> list[tuple[int | None, str | None, str, bool]]:
    """Each round's (opponent, colour, code, written) from the 001 line's columns: a
    blank or 0000 opponent is none, ``-``/blank colour none, a blank result ``Z``;
    ``written``: the block has any text (explicit)."""
    out = []
    for r in range(1, rounds + 1):
        block = raw[91 + 10 * (r - 1):101 + 10 * (r - 1)]
        opp = block[0:4].strip()
        colour = block[5:6].strip().lower()
        code = block[7:8].strip().upper() or "Z"
        out.append((int(opp) or None if opp else None, colour if colour in ("w", "b") else None,
                    code, bool(block.strip())))
    return out


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_games_made_on_demand_are_the_cells_of_the_file(path):
    t = read_trf(path)
    for p in t.players:
        expected = cells_by_hand(p.raw, t.rounds)
        got = [(g.opponent, g.colour, g.code, g.explicit) for g in p.games]
        assert [g.round for g in p.games] == list(range(1, t.rounds + 1))
        assert got == expected, p.start_rank
        # the compact values, parallel to the games
        assert p.round_opponents == tuple(o for o, _, _, _ in expected)
        assert p.round_codes == "".join(k for _, _, k, _ in expected)
        assert p.round_colours == "".join(c or "-" for _, c, _, _ in expected)
        assert p.games is p.games           # made once


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_compact_storage_round_trips_through_the_public_api(path):
    # TRF -> model -> Games -> players built in code -> TRF: the same bytes, and every
    # 001 line regenerated from the Games made on demand is the line regenerated from
    # the Games of the file's columns
    t = read_trf(path)
    data = path.read_bytes()
    rebuilt = tuple(dataclasses.replace(p, games=p.games) for p in t.players)
    assert rebuilt == t.players
    for p, q in zip(t.players, rebuilt):
        assert (q.round_opponents, q.round_codes, q.round_colours) == \
            (p.round_opponents, p.round_codes, p.round_colours)
        assert [g.explicit for g in q.games] == [g.explicit for g in p.games]
    again = dataclasses.replace(t, players=rebuilt)
    assert encode_trf(again) == encode_trf(t)
    text = data.decode(t.encoding).replace("\r\n", "\n").replace("\r", "\n")
    assert encode_trf(t) == text.removeprefix("\ufeff").encode(t.encoding)
    # each player regenerated (no line kept), from the on-demand Games and from the
    # file's columns read by hand
    fresh = tuple(dataclasses.replace(p, raw="") for p in t.players)
    by_hand = tuple(dataclasses.replace(p, raw="", games=tuple(
        Game(r, o, c, k, explicit=w) for r, (o, c, k, w) in enumerate(cells_by_hand(p.raw, t.rounds), 1)))
        for p in t.players)
    assert encode_trf(dataclasses.replace(t, players=fresh)) == \
        encode_trf(dataclasses.replace(t, players=by_hand))


def test_a_player_built_in_code_keeps_its_games_and_their_order():
    games = (Game(2, 3, "w", "1"), Game(1, None, None, "Z", explicit=True))
    p = TrfPlayer(start_rank=1, name="A", games=games)
    assert p.games is games or p.games == games
    assert [g.round for g in p.games] == [2, 1]
    assert (p.round_opponents, p.round_codes, p.round_colours) == ((3, None), "1Z", "w-")
    assert p.games[1].explicit
    q = TrfPlayer(start_rank=3, name="B", games=[Game(2, 1, "b", "0")])
    t = Tournament(name="X", rounds=1, players=(p, q))
    # round 2 is beyond the event's one round: its points are not the event's (score
    # counts every game the player holds, as points_of(p.games) does)
    assert t.score(p) == t.points_of(p.games) == 1
    assert t.rounds_played == 2


def test_a_report_makes_no_game_object(monkeypatch):
    # the report reads the compact cells; a Game is made only when someone reads games
    lines = ["012 Compact", "042 2025/11/01", "122 90 min + 30 s"]
    for i in range(1, 5):
        opp = i + 1 if i % 2 else i - 1
        colour, code = ("w", "1") if i % 2 else ("b", "0")
        lines.append(f"001 {i:>4}      Player {i:<26} {1800 + 10 * i:>4} ESP {1000 + i:>11} "
                     f"{'1990/01/01':<10} {'1.0' if i % 2 else '0.0':>4}     "
                     f"  {opp:>4} {colour} {code}")
    text = "\n".join(lines) + "\n"

    def no_game(*args, **kwargs):
        raise AssertionError("a Game made")

    monkeypatch.setattr(tournament_module, "make_game", no_game)
    t = parse_trf(text)
    assert not t.warnings
    report = build_report(t)
    # player 1 (1810) beat player 2 (1820): Rc 1820, one game, 1 point
    row = report.rows[0]
    assert (row.result.N, row.result.W_half, row.Rc, row.points) == (1, 2, 1820, 1)
    monkeypatch.undo()
    assert t.player(1).games == (Game(1, 2, "w", "1"),)

