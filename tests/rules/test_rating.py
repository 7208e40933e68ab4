"""Rating changes (FIDE B.02 §8.3): every row of the reference §9, the 400-point rule,
K and its 700 cap, the rounding of §8.3.4. Expected values are the reference's or are
computed by hand in the comments (PD from table 8.1.2)."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xl_fide.rules.editions import rules_for
from xl_fide.errors import InputError, RuleError
from xl_fide.rules.rating import (
    cap_k, expected_score, game_lines, k_factor, logistic_expected, rate_event, rate_period,
)

NOW = rules_for("2026-01-01")                 # 2025-10-01 standard edition
BEFORE_2650 = rules_for("2025-09-30")         # 2024 edition: cap for everyone
RULES_2022 = rules_for("2023-06-01")          # cap once per event
RAPID = rules_for("2025-06-01", "rapid")


def change(Ro, games, K, edition=NOW):
    return rate_event(Ro, games, K, edition).change


# --- reference §9, one row each -------------------------------------------------------

def test_1892_beats_opponent_130_higher():
    # PD .32 -> ΔR .68; K 40: +27.2 -> 1919; K 20: +13.6
    e = rate_event(1892, [(2022, 1)], 40, NOW)
    assert (e.games[0].PD, e.change, e.rating_change, e.new_rating) == (32, 2720, 27, 1919)
    assert change(1892, [(2022, 1)], 20) == 1360


def test_2400_k10_beats_2400():
    assert change(2400, [(2400, 1)], 10) == 500            # PD .50 -> +5


def test_2000_loses_to_2000_k20():
    assert change(2000, [(2000, 0)], 20) == -1000          # -10.0


@pytest.mark.parametrize("opp", [1900, 2900])   # 2900 is capped to 400 for a 1500 player
@pytest.mark.parametrize("score,rounded", [(1, 37), (0, -3), (0.5, 17)])
def test_1500_k40_vs_higher(opp, score, rounded):
    # D = -400 -> PD .08: win +36.8, loss -3.2, draw +16.8
    assert rate_event(1500, [(opp, score)], 40, NOW).rating_change == rounded


@pytest.mark.parametrize("score,rounded", [(1, 3), (0, -37), (0.5, -17)])
def test_2000_k40_vs_1600(score, rounded):
    assert rate_event(2000, [(1600, score)], 40, NOW).rating_change == rounded


@pytest.mark.parametrize("score,rounded", [(1, 14), (0, -26), (0.5, -6)])
def test_2000_k40_vs_1900(score, rounded):
    # D = 100 -> PD .64: +14.4, -25.6, -5.6
    assert rate_event(2000, [(1900, score)], 40, NOW).rating_change == rounded


def test_2800_beats_1800_not_capped():
    assert change(2800, [(1800, 1)], 10) == 0               # D 1000 -> 1.00


def test_2650_exempt_2649_capped():
    assert change(2650, [(2150, 1)], 10) == 40              # D 500 -> .96 -> +0.4
    assert change(2649, [(2149, 1)], 10) == 80              # capped 400 -> .92 -> +0.8


def test_2200_loses_to_2700_is_capped():
    assert change(2200, [(2700, 0)], 20) == -160            # PD .08 -> -1.6


def test_2000_k10_draws_1810_rounds_away_from_zero():
    e = rate_event(2000, [(1810, 0.5)], 10, NOW)            # D 190 -> .75: -2.50 -> -3
    assert (e.change, e.rating_change) == (-250, -3)


def test_minus_2_50_as_a_sum_of_three_games():
    # W vs 1950 (+.43), L vs 2050 (-.43), D vs 1810 (-.25): ΣΔR -.25, K 10 -> -2.50 -> -3
    e = rate_event(2000, [(1950, 1), (2050, 0), (1810, 0.5)], 10, NOW)
    assert (e.sum_delta_R, e.change, e.rating_change, e.new_rating) == (-25, -250, -3, 1997)


def test_ten_wins_over_low_rated_players_are_not_rounded_per_game():
    e = rate_event(2000, [(1600 - i * 20, 1) for i in range(10)], 10, NOW)
    assert [g.delta_R for g in e.games] == [8] * 10         # +0.8 each (capped .92)
    assert (e.change, e.rating_change) == (800, 8)


def test_junior_20_wins_capped_k():
    e = rate_event(1500, [(1500, 1)] * 20, 40, NOW)         # 40 x 20 > 700 -> K 35
    assert (e.K, e.change, e.rating_change) == (35, 35000, 350)


def test_rapid_game_600_apart_with_a_2600_player_is_not_rated():
    e = rate_event(1800, [(2601, 0)], 20, RAPID)
    assert e.N == 0 and e.change == 0 and e.games[0].rated is False
    # the rule starts on 2024-12-01; before it the game counts (capped: PD .08 -> -1.6)
    assert rate_event(1800, [(2601, 0)], 20, rules_for("2024-11-30", "rapid")).change == -160
    # exactly 600 apart and above 2600 -> not rated; 599 apart -> rated
    assert rate_event(2001, [(2601, 0)], 20, RAPID).N == 0
    assert rate_event(2002, [(2601, 0)], 20, RAPID).N == 1
    # 2600 is not "above 2600"
    assert rate_event(1800, [(2600, 0)], 20, RAPID).N == 1


# --- the 400-point rule ------------------------------------------------------------------

@pytest.mark.parametrize("opp,D,capped", [(1601, 399, False), (1600, 400, False), (1599, 400, True)])
def test_399_400_401(opp, D, capped):
    g = game_lines(2000, [(opp, 2)], NOW)[0]
    assert (g.D, g.capped, g.PD) == (D, capped, 92)


def test_cap_visible_above_411():
    # D 412 uncapped would be .93; capped it is .92 (band 392-411)
    assert expected_score(2000, 1588, NOW) == 92
    assert expected_score(2000, 1588, cap=False) == 93


def test_2650_exemption_is_keyed_on_the_player_whose_change_is_computed():
    # 2700 vs 2200: the 2700 player uses D 500 (.96); the 2200 player is capped (.08)
    assert expected_score(2700, 2200, NOW) == 96
    assert expected_score(2200, 2700, NOW) == 8
    # before 1 Oct 2025 the cap applied to everyone
    assert expected_score(2700, 2200, BEFORE_2650) == 92


def test_rapid_has_no_2650_exemption():
    assert expected_score(2700, 2200, rules_for("2026-01-01", "rapid")) == 92


def test_once_per_event_cap_2022():
    # 2000 vs 1500 (D 500), 1550 (450), 1400 (600): only the largest (600) is capped
    lines = game_lines(2000, [(1500, 2), (1550, 2), (1400, 2)], RULES_2022)
    assert [(g.D, g.PD) for g in lines] == [(500, 96), (450, 94), (400, 92)]
    # with the 2024 rules every game is capped
    lines = game_lines(2000, [(1500, 2), (1550, 2), (1400, 2)], rules_for("2024-03-01"))
    assert [g.PD for g in lines] == [92, 92, 92]


def test_logistic_is_an_option_not_the_table():
    # 2000 beats 1650: table .89 -> +2.20 at K 20; the logistic curve gives .882
    assert change(2000, [(1650, 1)], 20) == 220
    assert logistic_expected(2000, 1650) == pytest.approx(0.8823, abs=1e-4)


# --- K and the cap -----------------------------------------------------------------------

@pytest.mark.parametrize("K,n,capped", [
    (40, 17, 40),   # 680 <= 700
    (40, 18, 38),   # 720 > 700 -> 700 // 18 = 38
    (20, 35, 20),   # 700 exactly is allowed
    (20, 36, 19),   # 720 -> 19
    (20, 39, 17),   # reference: n = 39 -> 17
    (10, 70, 10),
    (10, 71, 9),
])
def test_k_cap(K, n, capped):
    assert cap_k(K, n) == capped


def test_k_precedence():
    assert k_factor(2400) == 10
    assert k_factor(2399) == 20
    assert k_factor(2300, peak_rating=2400) == 10            # for good once reached
    assert k_factor(2100, birth_year=2010, period_year=2026) == 40
    assert k_factor(2300, birth_year=2010, period_year=2026) == 20   # not under 2300
    assert k_factor(2299, birth_year=2010, period_year=2026) == 40
    assert k_factor(2299, birth_year=2010, period_year=2026, peak_rating=2405) == 10
    assert k_factor(1800, career_games=29) == 40
    assert k_factor(1800, career_games=30) == 20
    assert k_factor(1800) == 20                               # unknown data do not raise K


def test_junior_k_only_while_the_published_rating_has_never_reached_2300():
    # B.02 §8.3.3: K 40 for a junior "as long as their rating remains under 2300".
    # Born 2010, period 2026 -> age 16, a junior. Rated 2250 now:
    #   peak 2299 (never 2300) -> 40; peak 2300 (reached, fell back) -> 20; peak 2350 -> 20.
    assert k_factor(2250, birth_year=2010, period_year=2026, peak_rating=2299) == 40
    assert k_factor(2250, birth_year=2010, period_year=2026, peak_rating=2300) == 20
    assert k_factor(2250, birth_year=2010, period_year=2026, peak_rating=2350) == 20
    # the 30-game rule is separate: a new player (< 30 games) keeps 40 (§8.3.3)
    assert k_factor(2250, birth_year=2010, period_year=2026, peak_rating=2300,
                    career_games=12) == 40


def test_fide_k_follows_the_2300_peak():
    from xl_fide import udfs
    # FIDE_K(rating, birth_year, games, peak_rating, period_games, period_year)
    assert udfs.FIDE_K(2250, 2010, 50, 2300, None, 2026) == 20
    assert udfs.FIDE_K(2250, 2010, 50, 2299, None, 2026) == 40


@pytest.mark.parametrize("birth_year", [2027, 2100, 1905])
def test_implausible_birth_year_is_an_error_not_k40(birth_year):
    # issue 11: born after the period's year (2027, 2100 for 2026), or more than 120
    # years before it (2026 - 1905 = 121): not an age, so no junior K 40 -- an error.
    with pytest.raises(InputError, match="birth_year"):
        k_factor(1700, birth_year=birth_year, period_year=2026)


def test_birth_year_edges_of_plausible():
    # born in the period's year (age 0) and exactly 120 years before: plausible
    assert k_factor(1700, birth_year=2026, period_year=2026) == 40
    assert k_factor(1700, birth_year=1906, period_year=2026) == 20


def test_k_year_of_18th_birthday():
    # born 2008: 18 in 2026 -> K 40 until 31 Dec 2026, 20 from 2027
    assert k_factor(1700, birth_year=2008, period_year=2026) == 40
    assert k_factor(1700, birth_year=2008, period_year=2027) == 20


def test_k_with_period_games_caps():
    assert k_factor(1700, birth_year=2010, period_year=2026, period_games=18) == 38


def test_rapid_k_was_20_for_everyone_before_october_2022():
    old = rules_for("2022-09-30", "rapid")
    assert k_factor(1700, birth_year=2010, period_year=2022, edition=old) == 20
    new = rules_for("2022-10-01", "rapid")
    assert k_factor(1700, birth_year=2010, period_year=2022, edition=new) == 40


def test_birth_year_needs_period_year():
    with pytest.raises(InputError, match="period_year"):
        k_factor(1700, birth_year=2010)


# --- rounding ties of §8.3.4 ---------------------------------------------------------------

@pytest.mark.parametrize("Ro,opp,expected_change,rounded", [
    (2000, 2035, 50, 1),     # draw vs 35 higher: PD .45 -> +.05 x 10 = +0.50 -> +1
    (2035, 2000, -50, -1),   # the mirror: -0.50 -> -1
    (1810, 2000, 250, 3),    # draw vs 190 higher: PD .25 -> +2.50 -> +3
    (2000, 1810, -250, -3),  # -2.50 -> -3
])
def test_rounding_ties_away_from_zero(Ro, opp, expected_change, rounded):
    e = rate_event(Ro, [(opp, 0.5)], 10, NOW)
    assert (e.change, e.rating_change) == (expected_change, rounded)


# --- the rating period ---------------------------------------------------------------------

def test_period_rounds_once_and_caps_k_over_all_events():
    # Two events each ΣΔR -.25 at K 10: per event -2.5 would round to -3 + -3 = -6;
    # the period total -5.00 -> -5.
    ev = [(1950, 1), (2050, 0), (1810, 0.5)]
    p = rate_period(2000, [("A", 2000, NOW, ev), ("B", 2000, NOW, ev)], 10)
    assert (p.change, p.rating_change, p.new_rating) == (-500, -5, 1995)
    # K 40 over 10 + 10 games = 20 -> 35 (not 40 per event of 10 games)
    wins = [(1500, 1)] * 10
    p = rate_period(1500, [("A", 1500, NOW, wins), ("B", 1500, NOW, wins)], 40)
    assert (p.K, p.change) == (35, 35000)


# --- properties -------------------------------------------------------------------------------

ratings = st.integers(min_value=1400, max_value=2649)   # the 2024+ floor: below it no rating (§7.2.1)


@given(ratings, ratings, st.sampled_from([0, 1, 2]))
def test_both_players_changes_cancel_at_equal_k(a, b, s):
    # Both below 2650: PD_a + PD_b = 1, so ΔR_a + ΔR_b = 0 (scores sum to 1)
    ga = game_lines(a, [(b, s)], NOW)[0]
    gb = game_lines(b, [(a, 2 - s)], NOW)[0]
    assert ga.delta_R + gb.delta_R == 0


@given(ratings, ratings)
def test_swapping_players_mirrors_pd(a, b):
    assert expected_score(a, b, NOW) + expected_score(b, a, NOW) == 100


@given(ratings, st.lists(ratings, min_size=1, max_size=12), st.data())
def test_change_is_monotone_in_the_score(Ro, opps, data):
    scores = data.draw(st.lists(st.sampled_from([0, 0.5, 1]), min_size=len(opps), max_size=len(opps)))
    base = rate_event(Ro, list(zip(opps, scores)), 20, NOW)
    i = data.draw(st.integers(0, len(opps) - 1))
    if scores[i] < 1:
        better = list(scores)
        better[i] += 0.5
        assert rate_event(Ro, list(zip(opps, better)), 20, NOW).change > base.change


def test_bad_inputs_name_the_field():
    with pytest.raises(InputError, match="Ro must be a whole number, got 2000.5"):
        rate_event(2000.5, [(2000, 1)], 20)
    with pytest.raises(InputError, match="score of game 1 must be 0, 0.5 or 1, got 0.7"):
        rate_event(2000, [(2000, 0.7)], 20)
    with pytest.raises(InputError, match="K must be at least 1"):
        rate_event(2000, [(2000, 1)], 0)


def test_rules_for_fallback_and_unknown():
    old = rules_for(dt.date(2010, 1, 1))
    assert old.id == "FIDE-2017-07-01-standard" and dt.date(2010, 1, 1) < old.in_force
    with pytest.raises(RuleError, match="event_date"):
        rules_for("2025-13-01")
    with pytest.raises(RuleError, match="time_control"):
        rules_for(None, "bullet")


# --- the floor (B.02 §7.2.1): below it, no rating is published --------------------------

def test_new_rating_below_the_floor_is_not_published():
    # issue 12 #3. 2025 (floor 1400): 1410 loses to a 1410, K 20: PD .50 -> -10.00
    # -> 1400, published (the floor itself is a rating); 1409 -> 1399, not published.
    e = rate_event(1410, [(1410, 0)], 20, BEFORE_2650)
    assert (e.new_rating, e.published, e.publication) == (1400, True, "")
    e = rate_event(1409, [(1409, 0)], 20, BEFORE_2650)
    assert (e.new_rating, e.published) == (1399, False)
    assert e.publication == "not published: below 1400"
    # before 1 Mar 2024 (2023: floor 1000): 1009 -> 999 not published, 1010 -> 1000 is
    assert rate_event(1009, [(1009, 0)], 20, RULES_2022).publication == "not published: below 1000"
    assert rate_event(1010, [(1010, 0)], 20, RULES_2022).published


def test_period_below_the_floor_is_not_published():
    # two events of 2025, each a loss to an equal rating at K 20 (-10.00 each):
    # 1419 -> -20 -> 1399, below 1400: not published; 1420 -> 1400 is.
    p = rate_period(1419, [("A", 1419, NOW, [(1419, 0)]), ("B", 1419, NOW, [(1419, 0)])], 20)
    assert (p.new_rating, p.published, p.publication) == (1399, False, "not published: below 1400")
    p = rate_period(1420, [("A", 1420, NOW, [(1420, 0)]), ("B", 1420, NOW, [(1420, 0)])], 20)
    assert (p.new_rating, p.published) == (1400, True)


def test_fide_new_rating_says_not_published():
    from xl_fide import udfs
    assert udfs.FIDE_NEW_RATING(1409, [1409], [0], 20, "standard", "2025-06-01") == \
        "not published: below 1400 (1399)"
    assert udfs.FIDE_NEW_RATING(1410, [1410], [0], 20, "standard", "2025-06-01") == 1400


def test_an_opponent_below_the_floor_is_not_a_rated_opponent():
    # issue 12 #4. 2025 (floor 1400), 2000 at K 20 beats a "1350" and loses to a 1900.
    # The 1350 is no rating: only the loss counts, PD .64 (D 100) -> -0.64 x 20 = -12.80
    # -> -13. (Counted, the win would add 1 - .92 (D 650 capped to 400) = +.08: -11.20.)
    e = rate_event(2000, [(1350, 1), (1900, 0)], 20, BEFORE_2650)
    assert (e.N, e.change, e.rating_change) == (1, -1280, -13)
    assert not e.games[0].rated and "below the floor 1400" in e.games[0].note
    # In 2023 (floor 1000) the 1350 is rated; that edition caps once per event, the
    # largest difference (650 -> 400): +.08 - .64 = -.56 x 20 = -11.20 -> -11
    e = rate_event(2000, [(1350, 1), (1900, 0)], 20, RULES_2022)
    assert (e.N, e.change, e.rating_change) == (2, -1120, -11)
    # the same through the UDFs
    from xl_fide import udfs
    assert udfs.FIDE_CHANGE(2000, [1350, 1900], [1, 0], 20, "standard", "2025-06-01") == -12.8
    assert udfs.FIDE_DELTA(2000, 1350, 1, 20, "standard", "2025-06-01") is udfs.NA


def test_once_per_event_cap_ignores_a_sub_floor_opponent():
    # 2023 (floor 1000): 2000 vs a "950" (not a rating) and a 1500 (D 500): the one
    # capped game is the 1500 (largest difference among rated games): D 400 -> PD .92,
    # a win: +.08 x 20 = +1.60 -> +2.
    e = rate_event(2000, [(950, 0), (1500, 1)], 20, RULES_2022)
    assert (e.N, e.games[1].capped, e.change) == (1, True, 160)
