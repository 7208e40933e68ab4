"""Initial ratings (FIDE B.02 §8.2) and performances (B.02 §8.1.1, B.01 §1.4, C.07 §10),
against the reference §5, §6 and §9."""

from fractions import Fraction

import pytest

from xl_fide.rules.editions import rules_for
from xl_fide.errors import InputError
from xl_fide.rules.initial import initial_rating
from xl_fide.rules.performance import (
    norm_performance, perfect_tournament_performance, performance_rating,
    tournament_performance_rating,
)

NOW = rules_for("2026-01-01")
RULE_2022 = rules_for("2023-01-01")


def test_reference_example_1922():
    # 1902, 1877, 1884, 2012, 1832 with 3 points: Ra = 13107/7, p = 4/7 = .57 -> 50 -> 1922
    r = initial_rating([[(1902, 1), (1877, 1), (1884, 1), (2012, 0), (1832, 0)]], NOW)
    assert (r.Ra, r.p, r.dp, r.Ru) == (Fraction(13107, 7), 57, 50, 1922)


def test_five_of_five_is_capped_at_2200_not_the_old_2080():
    # The reference's example has a 1300 opponent, which from 1 Mar 2024 is below the
    # floor (not a rating, B.02 §7.2.1); with 1400 instead (the lowest rating there is):
    # 2024: Ra (10000 + 3600)/7 = 1942.86, p 6/7 = .857 -> .86 -> +309 -> 2251.86
    # -> 2252 -> max 2200
    r = initial_rating([[(r, 1) for r in (1400, 2000, 2100, 2200, 2300)]], NOW)
    assert (r.p, r.dp, r.value, r.Ru) == (86, 309, 2252, 2200)
    # 2022 rule (floor 1000, so 1300 is a rating): Ra 9900/5 = 1980, +20 x 5 half
    # points above 50 % -> 2080
    games = [[(r, 1) for r in (1300, 2000, 2100, 2200, 2300)]]
    assert initial_rating(games, RULE_2022).Ru == 2080


def test_an_opponent_below_the_floor_is_unrated_for_the_initial_rating():
    # issue 12 #4, B.02 §7.2.1: from 1 Mar 2024 no rating is below 1400, so a 1300 is an
    # unrated opponent: 5/5 vs 1300, 2000, 2100, 2200, 2300 leaves 4 games against rated
    # opponents -> fewer than 5, not published. Its value: Ra (8600 + 3600)/6 = 2033.33,
    # p (4 + 1)/6 = .833 -> .83 -> dp 273 -> 2306.33 -> 2306.
    r = initial_rating([[(r, 1) for r in (1300, 2000, 2100, 2200, 2300)]], NOW)
    assert (r.N, r.p, r.dp, r.value, r.Ru) == (4, 83, 273, 2306, None)
    assert "1300 is below the floor 1400" in r.notes[0]
    # Six games, a win over a 1350 among them: 1350 (1), 1600 (1), 1700 (1), 1800 (½),
    # 1900 (0), 2000 (½). Without the 1350: Ra (9000 + 3600)/7 = 1800, W 3,
    # p (3 + 1)/7 = .571 -> .57 -> dp 50 -> 1850. (Counting it would give Ra 13950/8
    # = 1743.75, p 5/8 = .625 -> .63 -> dp 95 -> 1839.)
    games = [(1350, 1), (1600, 1), (1700, 1), (1800, .5), (1900, 0), (2000, .5)]
    r = initial_rating([games], NOW)
    assert (r.N, r.W_half, r.Ru) == (5, 6, 1850)


def test_five_draws_against_1400s():
    # Ra (7000 + 3600)/7 = 1514.29, p 3.5/7 = .50 -> 1514
    assert initial_rating([[(1400, 0.5)] * 5], NOW).Ru == 1514


def test_one_of_five_is_below_the_floor_and_not_published():
    # p 2/7 = .29 -> -158; 1514.29 - 158 = 1356 < 1400
    r = initial_rating([[(1400, 1)] + [(1400, 0)] * 4], NOW)
    assert r.Ru is None and r.value == 1356 and "below the rating floor 1400" in r.reason


def test_four_games_are_not_enough_and_five_are():
    assert initial_rating([[(1600, 0.5)] * 4], NOW).Ru is None
    assert "at least 5" in initial_rating([[(1600, 0.5)] * 4], NOW).reason
    # five draws vs 1600: Ra (8000 + 3600)/7 = 1657.14, p .50 -> 1657
    assert initial_rating([[(1600, 0.5)] * 5], NOW).Ru == 1657


def test_unrated_opponents_do_not_count():
    r = initial_rating([[(None, 1)] * 3 + [(1600, 0.5)] * 5], NOW)
    assert (r.N, r.Ru) == (5, 1657)


def test_zero_score_in_the_first_event_is_ignored_and_events_pool():
    first = [(1600, 0)] * 3
    second = [(1600, 0.5)] * 5
    r = initial_rating([first, second], NOW)
    assert r.ignored_first_event and (r.N, r.Ru) == (5, 1657)
    # pooled: 3 draws + 2 draws over two events = the same five draws
    assert initial_rating([[(1600, 0.5)] * 3, [(1600, 0.5)] * 2], NOW).Ru == 1657


def test_2022_rule_below_50_percent_uses_dp_and_floor_1000():
    # Ra 1200, 1/5 = .20 -> dp -149... p .20 -> -dp(.80) = -240 -> 960 < 1000
    r = initial_rating([[(1200, 1)] + [(1200, 0)] * 4], RULE_2022)
    assert (r.value, r.Ru) == (960, None)


def test_fide_performance():
    # 3 W 2 D 1 L vs 1850 average: 4/6 = .67 -> +125 -> 1975
    assert performance_rating([1800, 1900, 1850, 1850, 1800, 1900], 4) == 1975
    # 0/7 vs 2476: -800 -> 1676
    assert performance_rating([2476] * 7, 0) == 1676
    with pytest.raises(InputError):
        performance_rating([], 0)


def test_gm_norm_reference_example():
    r = norm_performance([2500, 2450, 2400, 2550, 2480, 2420, 2390, 2600, 2150], 6.5, "GM")
    # 2150 raised to 2200 -> Ra 21990/9 = 2443.3 -> 2443; 6.5/9 = .72 -> +166 -> 2609
    assert (r.raised, r.Ra, r.p, r.Rp, r.met) == (2150, 2443, 72, 2609, True)


def test_norm_reports_what_is_missing():
    # 8 games only; unrated opponent counts as 1400 and is raised to the IM floor 2050
    r = norm_performance([2300] * 7 + [None], 5, "IM")
    assert r.raised == 1400
    assert not r.met and "8 games (at least 9)" in r.summary()


def test_norm_35_percent_edge():
    # 3.5/10 = 35 % is enough; 3/9 = 33 % is not
    assert dict((k, ok) for k, ok, _ in norm_performance([2500] * 10, 3.5, "GM").checks)["score"]
    assert not dict((k, ok) for k, ok, _ in norm_performance([2500] * 9, 3, "GM").checks)["score"]


def test_tpr_and_ptp():
    # 2/3 vs 2000, 2100, 2200: TPR 2100 + 125 = 2225; PTP 2226 (PDs .79 + .67 + .54 = 2.00)
    assert tournament_performance_rating([2000, 2100, 2200], 2) == 2225
    assert perfect_tournament_performance([2000, 2100, 2200], 2) == 2226
    assert perfect_tournament_performance([2000, 2100, 2200], 0) == 1200   # lowest - 800


def test_ptp_full_score_is_highest_plus_736():
    # C.07 §10.3: lowest R with Σ PD(R - R_opp) >= score, table 8.1.2, no 400 cut.
    # 3/3 vs 2000, 2100, 2200: R = 2935 -> D 735 vs 2200 -> .99, Σ 2.99 < 3;
    # R = 2936 -> every D > 735 -> 1.00 each, Σ 3.00: PTP 2936 (not 2200 + 800 = 3000).
    assert perfect_tournament_performance([2000, 2100, 2200], 3) == 2936
    # one game, 1/1 vs 2000: D 735 -> .99, D 736 -> 1.00 -> 2736
    assert perfect_tournament_performance([2000], 1) == 2736
    # 2.5/3 vs the same: R 2506 -> D 506/406/306 -> .96 + .92 + .86 = 2.74 > 2.50;
    # R 2456: D 456/356/256 -> .94 + .89 + .81 = 2.64; R 2400: D 400/300/200 ->
    # .92 + .85 + .76 = 2.53; R 2396: D 396/296/196 -> .92 + .85 + .75 = 2.52;
    # R 2392: .92 + .85 + .75 = 2.52; R 2388: D 388/288/188 -> .91 + .84 + .74 = 2.49 < 2.5;
    # R 2389: D 389/289/189 -> .91 + .84 + .75 = 2.50 -> PTP 2389
    assert perfect_tournament_performance([2000, 2100, 2200], 2.5) == 2389


def test_unknown_title():
    with pytest.raises(InputError, match="title must be GM, IM, WGM or WIM"):
        norm_performance([2400] * 9, 5, "FM")
