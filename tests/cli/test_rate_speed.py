"""Issue 35: `xl-fide rate` on a large games CSV does no work twice.

No timing here (speed is measured by the `rate` row of benchmarks/user_paths.py): each
test pins one cause of slowness found by profiling, in a way that fails when the cause
comes back. The ratings are hand arithmetic (FIDE B.02 §8.1.2 table, §8.3.3, §8.3.4).
"""
from __future__ import annotations

import gc
import json

import pytest

import xl_fide._games as games_module
import xl_fide.event.player_period as player_period_module
from xl_fide.cli._main import main
from xl_fide.errors import PlayerFileError
from xl_fide.rules import rating as rating_module
from xl_fide.rules import values

HEAD = "event,event_start,event_end,date,opponent_rating,result"


def _csv(tmp_path, lines: list[str]):
    f = tmp_path / "games.csv"
    f.write_text("\n".join([HEAD, *lines]) + "\n", encoding="utf-8")
    return f


def _thirty_games(tmp_path):
    """3 events x 10 games, each line repeating its event's dates; opponents 2000, each
    game a draw: D 0 -> PD .50, ΔR 0 (B.02 §8.1.2), so every change is 0."""
    lines = []
    for e, day in ((1, "2025-11-01"), (2, "2025-11-08"), (3, "2025-11-15")):
        lines += [f"Cup {e},{day},{day},{day},2000,½" for _ in range(10)]
    return _csv(tmp_path, lines)


def _counting(monkeypatch, module, name) -> list[object]:
    """The arguments of each call of ``module.name`` (a spy)."""
    calls: list[object] = []
    original = getattr(module, name)

    def spy(*args, **kwargs):
        calls.append(args[0] if args else None)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


def test_each_date_text_is_read_once_not_once_per_line(monkeypatch, tmp_path):
    # 30 lines x 3 date cells = 90 cells, 3 distinct texts: each is read once
    seen = _counting(monkeypatch, games_module, "day_month_numbers")
    g = games_module.read_games(_thirty_games(tmp_path))
    assert [len(ev.games) for ev in g.events] == [10, 10, 10]
    assert sorted(seen) == ["2025-11-01", "2025-11-08", "2025-11-15"]


def test_each_rating_and_result_text_is_checked_once(monkeypatch, tmp_path):
    ratings = _counting(monkeypatch, games_module, "as_rating")
    results = _counting(monkeypatch, games_module, "parse_result")
    g = games_module.read_games(_thirty_games(tmp_path))
    assert {game.R_opp for ev in g.events for game in ev.games} == {2000}
    assert len(ratings) == 1 and len(results) == 1


def test_a_rating_written_in_digits_builds_no_fraction(monkeypatch, tmp_path):
    # "2000" is an int as it is, never through Decimal and Fraction
    def no_fraction(value):
        raise AssertionError("Fraction built for a rating written in digits")

    monkeypatch.setattr(values, "_exact", no_fraction)
    g = games_module.read_games(_csv(tmp_path, ["Cup,2025-11-01,2025-11-01,,2000,1",
                                                "Cup,,,,2100,0"]))
    assert [game.R_opp for game in g.events[0].games] == [2000, 2100]


def test_a_text_seen_before_is_still_refused_where_a_new_one_is_bad(tmp_path):
    # the caches keep what was accepted; a bad text later is named on its own line
    f = _csv(tmp_path, ["Cup,2025-11-01,2025-11-01,,2000,1",
                        "Cup,2025-11-01,2025-11-01,,2000,1",
                        "Cup,2025-11-01,2025-11-01,,4001,1"])
    with pytest.raises(PlayerFileError) as e:
        games_module.read_games(f)
    assert (e.value.line, e.value.column) == (4, 5)
    assert "must be at most 4000, got 4001" in str(e.value)


def test_rate_gives_the_engine_the_readers_ints(monkeypatch, tmp_path, capsys):
    # the reader checked every rating and result: the engine does not check them again
    def again(games):
        raise AssertionError("the CSV's games were checked a second time")

    monkeypatch.setattr(rating_module, "_game_pairs", again)
    # Ro 2000, K 20: a win against 2000 is D 0, PD .50, ΔR .50; 20 x .50 = 10.00 -> 2010
    f = _csv(tmp_path, ["Cup,2025-11-01,2025-11-01,,2000,1"])
    assert main(["rate", str(f), "--rating", "2000", "--k", "20", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["new_rating"] == 2010


def test_rate_runs_with_the_cyclic_gc_paused_and_restores_it(monkeypatch, tmp_path, capsys):
    # the CLI's rating phase (xl_fide/cli/_main.py), as for report and period
    seen: list[bool] = []
    original = player_period_module.rate_player

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(player_period_module, "rate_player", spy)
    assert gc.isenabled()
    assert main(["rate", str(_thirty_games(tmp_path)), "--rating", "2000", "--k", "20"]) == 0
    assert "new rating 2000" in capsys.readouterr().out      # 30 draws against 2000: +0
    assert seen == [False]
    assert gc.isenabled()


@pytest.mark.parametrize("doc", [
    {}, [], {"a": [], "b": {}, "c": [[], {}]}, "½ é \u2028 \" \\ \x00", 0, -0.0, 1e300, 5e-324,
    0.1 + 0.2, None, True, [1, 2.5, None, False, "x", {"k": (1, "y")}],
    {"nan": float("nan")}, {1: "a key that is no text"}, [float("inf")],
])
def test_rates_json_is_the_standard_encoders_text(doc):
    # json_text (rate's, report's and period's one writer) writes what
    # json.dumps(indent=2) writes; what it does not handle itself (NaN, infinities, keys
    # that are no text) it leaves to json.dumps
    from xl_fide.cli._presenters import json_text
    assert json_text(doc) == json.dumps(doc, ensure_ascii=False, indent=2)


def test_rates_json_reads_back_to_the_same_text(tmp_path, capsys):
    f = _csv(tmp_path, ["Cup,2025-11-01,2025-11-02,2025-11-01,2000,1",
                        "Cup,,,2025-11-02,unrated,½", "Open,2025-11-20,2025-11-22,,2150,+"])
    assert main(["rate", str(f), "--rating", "2000", "--k", "20", "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert out == json.dumps(json.loads(out), ensure_ascii=False, indent=2) + "\n"
