"""Every kind of mistake other calculators make (issue 6), each with its right answer.

Right answers are the issue's table, derived by hand from the reference (PD from
table 8.1.2, rounding of FIDE B.02 §8.3.4) as written in each comment."""

import pytest

from tests.harness.trf_lines import player_line, trf
from xl_fide.rules.editions import rules_for
from xl_fide.rules.event import effective_rating
from xl_fide.rules.initial import initial_rating
from xl_fide.rules.performance import performance_rating
from xl_fide.rules.rating import expected_score, rate_event
from xl_fide.event.report import build_report
from xl_fide.rules.editions import EventOptions
from xl_fide.rules.results import parse_result
from xl_fide.trf import parse_trf

NOW = rules_for("2026-01-01")
HEAD = {"012": "Test", "042": "2025/11/01", "122": "90 min + 30 sec"}


def test_logistic_instead_of_table():
    # 2000 beats 1650: D 350 -> PD .89 (table) -> +2.20 at K 20; logistic .882 gives +2.35
    assert expected_score(2000, 1650, NOW) == 89
    assert rate_event(2000, [(1650, 1)], 20, NOW).change == 220


def test_rounding_each_game():
    # 10 wins vs <= 1600 by a 2000 (K 10): +0.8 each (not rounded to +1 each) -> +8
    assert rate_event(2000, [(1600, 1)] * 10, 10, NOW).rating_change == 8


def test_truncating():
    # 2483 (K 10) wins vs 2483 (+.50), 2483 (+.50), 2383 (D 100, PD .64: +.36) and
    # 2361 (D 122, PD .67: +.33): ΣΔR 1.69 -> +16.9 -> +17 -> 2500, not 2499
    e = rate_event(2483, [(2483, 1), (2483, 1), (2383, 1), (2361, 1)], 10, NOW)
    assert (e.change, e.new_rating) == (1690, 2500)


def test_float_sum_at_half():
    # W vs 1950 (+.43), L vs 2050 (-.43), D vs 1810 (-.25) = -.25 x 10 = -2.50 -> -3
    assert rate_event(2000, [(1950, 1), (2050, 0), (1810, 0.5)], 10, NOW).rating_change == -3


def test_mirrored_change_with_different_k():
    # 2000 (K 20) beats 1900 (K 40): PD .64 / .36 -> +7.2 and -14.4
    assert rate_event(2000, [(1900, 1)], 20, NOW).change == 720
    assert rate_event(1900, [(2000, 0)], 40, NOW).change == -1440


def test_loss_counted_as_half_and_draws_as_losses():
    # 3 W 2 D 1 L vs an average of 1850 -> 4/6 = .67 -> +125 -> 1975
    assert performance_rating([1850] * 6, 3 + 1) == 1975


def test_rp_at_zero_percent():
    assert performance_rating([2476] * 7, 0) == 1676          # -800


def _report(text, **kw):
    players = kw.pop("players", None)
    return build_report(parse_trf(text, source="t.trf"), EventOptions(**kw), players=players)


def test_bye_counted_as_a_game():
    # `0000 - U` then W, W, D, L: points 3.5, N = 4
    players = [player_line(1, "A", 2000, rounds=[(0, "-", "U"), (2, "w", "1"), (3, "b", "1"),
                                                 (4, "w", "="), (5, "b", "0")])]
    players += [player_line(i, f"P{i}", 2000, rounds=[(0, "-", "Z")] * (i - 1)
                            + [(1, "b", {2: "0", 3: "0", 4: "=", 5: "1"}[i])])
                for i in (2, 3, 4, 5)]
    row = _report(trf(HEAD, players), k=10).rows[0]
    assert float(row.points) == 3.5 and row.result.N == 4


def test_forfeit_is_not_rated():
    # 2000 (K 10): `39 w +` vs a 1574 (forfeit), then `25 b 1` vs a 2000: only the second
    # is rated: 10 x (1 - .50) = +5.0
    players = [player_line(1, "A", 2000, rounds=[(2, "w", "+"), (3, "b", "1")]),
               player_line(2, "B", 1574, rounds=[(1, "b", "-")]),
               player_line(3, "C", 2000, rounds=[(0, "-", "Z"), (1, "w", "0")])]
    row = _report(trf(HEAD, players), k=10).rows[0]
    assert (row.result.N, row.result.change, float(row.points)) == (1, 500, 2.0)


def test_half_point_pab():
    # XXS PAB=0.5: the bye gives +0.5 points and nothing for the rating
    players = [player_line(1, "A", 2000, rounds=[(0, "-", "U"), (2, "w", "1")]),
               player_line(2, "B", 2000, rounds=[(0, "-", "Z"), (1, "b", "0")])]
    t = trf(HEAD, players, extra=["XXS PAB=0.5"])
    row = _report(t, k=10).rows[0]
    assert float(row.points) == 1.5 and row.result.N == 1 and row.result.change == 500


def test_trf2026_scoring_with_a_and_z():
    # 162 W 3.0 D 1.0 L 0.0 A 0.0: points 3/1/0 but a win is still 1 for the rating
    players = [player_line(1, "A", 2000, rounds=[(2, "w", "1"), (0, "-", "Z")]),
               player_line(2, "B", 2000, rounds=[(1, "b", "0"), (0, "-", "Z")])]
    t = trf(HEAD, players, extra=["162  W 3.0    D 1.0    L 0.0    A 0.0"])
    row = _report(t, k=10).rows[0]
    assert float(row.points) == 3.0 and row.result.change == 500   # 10 x (1 - .50)


def test_odd_fixed_columns_and_rating_below_floor():
    # sex M, title 1N, rating 1350 in a 2025 file: read; 1350 < floor 1400 -> unrated
    players = [player_line(1, "A", 1350, sex="M", title="1N", rounds=[(2, "w", "1")]),
               player_line(2, "B", 1800, rounds=[(1, "b", "0")])]
    rep = _report(trf(HEAD, players), k=20)
    a, b = rep.rows
    assert a.result.rating is None and a.result.initial is not None
    assert b.result.N == 0            # the game vs an unrated player is not rated for B
    assert any("1350 is below the floor 1400" in n for n in rep.notes)


@pytest.mark.parametrize("text", ["½", "=", "0.5", "1/2", "½-½", "0.5-0.5"])
def test_draw_spellings(text):
    assert parse_result(text).half_points == 1


def test_rapid_opponent_with_only_a_standard_rating():
    rapid = rules_for("2025-11-01", "rapid")
    assert effective_rating(None, rapid, standard_rating=2100)[0] == 2100
    assert effective_rating(None, NOW, standard_rating=2100)[0] is None   # not in standard


def test_old_initial_rule_in_tools():
    # 5/5 vs 1400, 2000, 2100, 2200, 2300 -> 2200 (current rule), not 2100 (2022 rule:
    # Ra 10000/5 = 2000 + 20 x 5 half points). (1300, the tools' example, is below the
    # 2024 floor: not a rated opponent, B.02 §7.2.1.)
    games = [[(r, 1) for r in (1400, 2000, 2100, 2200, 2300)]]
    assert initial_rating(games, NOW).Ru == 2200
    assert initial_rating(games, rules_for("2023-01-01")).Ru == 2100


def test_rapid_report_rates_an_opponent_by_the_standard_rating():
    # rapid event (15 min + 10 s): B has no rapid rating in the file, standard 2100 on the
    # list -> B counts as 2100. A (2000, K 20) loses to B: D -100 -> PD .36 -> -7.20
    from xl_fide.lists._model import PlayerData, PlayerDirectory
    head = dict(HEAD, **{"122": "15 min + 10 sec"})
    players = [player_line(1, "A", 2000, fide_id=11, rounds=[(2, "w", "0")]),
               player_line(2, "B", None, fide_id=22, rounds=[(1, "b", "1")])]
    directory = PlayerDirectory([PlayerData(22, "B", standard_rating=2100)])
    rep = _report(trf(head, players), k=20, players=directory)
    assert rep.time_control.value == "rapid"
    a, b = rep.rows
    assert b.result.rating == 2100 and a.result.change == -720
