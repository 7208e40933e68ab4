"""Issue 34 #3: `xl-fide report FILE --player N` shows one player's games and calculation,
per month for an event over 30 days, as a table or JSON (the card `xl-fide rate` prints).

Expected values by hand from FIDE B.02: PD from table 8.1.2 (reference §1), K from
§8.3.3 (reference §4), each rating period rounded once, .5 away from zero (§8.3.4).
"""

import json

import pytest

from tests.harness.trf_lines import two_months_trf
from xl_fide.cli import main

# Rounds on 5 Oct and 9 Nov 2025 (35 days: two rating periods).
# R1: Alpha-Beta =, Gamma-Alpha Dan =; R2: Alpha-Beta 1-0, Gamma-Alpha Dan =.
NAMES = ("Alpha, Ann", "Beta, Bob", "Gamma, Cy", "Alpha, Dan")


def event(tmp_path, end="2025/11/09", dates="25/10/05  25/11/09"):
    path = tmp_path / "two.trf"
    path.write_text(two_months_trf(NAMES, end=end, dates=dates.split("  ")), encoding="utf-8")
    return path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_players_games_month_by_month(tmp_path, capsys):
    # Ann (1800, K 20: no birth year, 30 games or more assumed, §8.3.3):
    # October: draws Bob (1700): D +100 -> PD .64 (table 8.1.2), ΔR -.14;
    #   ΣΔR -.14 x 20 = -2.80 -> -3 -> 1797.
    # November: beats Bob (October's 1706): D +91 -> .62, ΔR +.38; +.38 x 20 = +7.60 -> +8
    #   -> 1805. Month by month -3 + 8 = +5 -> 1805 (as one period it would be 1804).
    code, out, err = run(capsys, "report", str(event(tmp_path)), "--player", "1")
    assert code == 0, err
    october, november = out.split("Month 2025-11")
    assert "Month 2025-10" in october and "Player 1: Alpha, Ann (FIDE id 1001)" in october
    assert "round 1: 2 Beta, Bob (1700) ½: D +100, PD 0.64, ΔR -0.14" in october
    assert "ΣΔR -0.14 × K 20 = -2.80" in october
    assert "-2.80 -> -3" in october and "new rating 1797" in october
    assert "round 2: 2 Beta, Bob (1706) 1: D +91, PD 0.62, ΔR 0.38" in november
    assert "ΣΔR 0.38 × K 20 = 7.60" in november and "7.60 -> +8" in november
    assert "Month by month: -3 +8 = +5" in november and "new rating 1805" in november


def test_the_rounding_is_half_away_from_zero_and_found_by_fide_id(tmp_path, capsys):
    # Cy (2440, K 10) draws Dan (2405): D +35 -> PD .55, ΔR -.05 x 10 = -0.50 -> -1
    # (.5 away from zero, §8.3.4; half up would give 0) -> 2439; November the same
    # from 2439 against 2406 (D +33 -> .55): -1 -> 2438.
    code, out, err = run(capsys, "report", str(event(tmp_path)), "--player", "1003",
                         "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["start_rank"], doc["fide_id"], doc["new_rating"], doc["rating_change"]) == \
        (3, 1003, 2438, -2)
    assert [m["month"] for m in doc["months"]] == ["2025-10", "2025-11"]
    oct_ = doc["months"][0]
    game = oct_["events"][0]["games"][0]
    assert (game["round"], game["opponent_no"], game["opponent"], game["opponent_rating"],
            game["D"], game["PD"], game["delta_R"]) == (1, 4, "Alpha, Dan", 2405, 35, 0.55, -0.05)
    assert (oct_["K_used"], oct_["change"], oct_["rating_change"], oct_["new_rating"]) == \
        (10, -0.5, -1, 2439)
    assert doc["months"][1]["new_rating"] == 2438


def test_one_rating_period_and_a_name(tmp_path, capsys):
    # The same games in one month (5 and 9 Oct): one period. Bob (1700, born 2010: a
    # junior under 2300, K 40): PD .36 twice (D -100), W .5: ΣΔR -.22 x 40 = -8.80 -> -9
    # -> 1691.
    path = event(tmp_path, end="2025/10/09", dates="25/10/05  25/10/09")
    code, out, err = run(capsys, "report", str(path), "--player", "beta, BOB", "--format",
                         "json")
    assert code == 0, err
    doc = json.loads(out)
    assert "months" not in doc and doc["start_rank"] == 2
    assert (doc["K_used"], doc["change"], doc["rating_change"], doc["new_rating"]) == \
        (40, -8.8, -9, 1691)
    assert [g["round"] for g in doc["events"][0]["games"]] == [1, 2]


@pytest.mark.parametrize("argv,needle", [
    (["--player", "alpha"], "2 players fit (1 Alpha, Ann (FIDE id 1001); 4 Alpha, Dan"),
    (["--player", "99"], "no player with that start rank or FIDE id"),
    (["--player", "Zed"], "no player with that name"),
    (["--player", "1", "--format", "csv"], "--format table or json"),
])
def test_a_player_not_found_or_ambiguous_is_refused(tmp_path, capsys, argv, needle):
    code, out, err = run(capsys, "report", str(event(tmp_path)), *argv)
    assert code == 2 and out == ""
    assert needle in err and len(err.strip().splitlines()) == 1
