"""What-if searches: the least score in the remaining games (FIDE B.02 §8.3, B.01 §1.4)."""

from xl_fide.rules.editions import rules_for
from xl_fide.rules.whatif import needed_for_change, needed_for_norm

NOW = rules_for("2026-01-01")


def test_needed_for_change():
    # 2000 (K 10) beat 1950 (PD .57); 2050 (PD .43) and 1810 (PD .75) to come: ΣPD 1.75.
    # Change = 10 x (W - 1.75); +5 needs 10 (W - 1.75) >= 4.5 -> W >= 2.2 -> 1.5 more points
    # (W = 2.5: +7.50 -> +8); 1 more point gives 10 x .25 = +2.50 -> +3 only.
    need = needed_for_change(2000, [(1950, 1)], [2050, 1810], 10, 5, NOW)
    assert need.points == 1.5 and "+8" in need.detail
    assert needed_for_change(2000, [(1950, 1)], [2050, 1810], 10, 3, NOW).points == 1.0


def test_needed_for_change_out_of_reach():
    # 2000 vs two 1600s (capped PD .92 each): at most 10 x 2 x .08 = +1.6 -> +2
    need = needed_for_change(2000, [], [1600, 1600], 10, 5, NOW)
    assert need.points is None and "+2" in need.detail


def test_needed_for_norm():
    # 7 games played, 5.5 points, vs 2500 2450 2400 2550 2480 2420 2390; to come 2600 and
    # 2150 (raised to 2200). With 1 more point: 6.5/9 -> Ra 2443, .72 -> +166 -> 2609 >= 2600.
    # With 0.5: 6/9 = .67 -> +125 -> 2568 < 2600.
    played = [(2500, 1), (2450, 1), (2400, 0.5), (2550, 0.5), (2480, 1), (2420, 0.5), (2390, 1)]
    need = needed_for_norm(played, [2600, 2150], "GM")
    assert need.points == 1.0 and "2609: met" in need.detail
