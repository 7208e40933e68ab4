"""Checks the mutation run found missing (benchmarks/README.md, "Mutation run"):
each test kills mutants of rating.py that the rest of the suite let live.
Values by hand from FIDE B.02 §8.3."""

import pytest

from xl_fide.rules.editions import rules_for
from xl_fide.errors import InputError
from xl_fide.rules.rating import k_factor, rate_event, rate_period

STD_2025 = rules_for("2025-11-01")
STD_2022 = rules_for("2022-06-01")


def test_rate_event_keeps_the_given_K_and_can_skip_the_cap():
    # 20 games at K 40: 40 x 20 = 800 > 700 -> K 35 (700 // 20); K_given stays 40.
    # Each game a draw against an equal opponent: PD .50, ΔR 0, so the change is 0.
    games = [(2000, 0.5)] * 20
    capped = rate_event(2000, games, 40, STD_2025)
    assert (capped.K_given, capped.K) == (40, 35)
    uncapped = rate_event(2000, games, 40, STD_2025, apply_cap=False)
    assert (uncapped.K_given, uncapped.K) == (40, 40)


def test_rate_period_keeps_each_events_name_rating_and_rules():
    # two events: Ro 2000 at both; a win over 2000 in each (PD .50, ΔR +.50)
    change = rate_period(2000, [("Spring Open", 2000, STD_2022, [(2000, 1)]),
                                ("Autumn Open", 2010, STD_2025, [(2000, 1)])], 20)
    assert [(e.name, e.Ro, e.edition_id) for e in change.events] == [
        ("Spring Open", 2000, "FIDE-2022-01-01-standard"),
        ("Autumn Open", 2010, "FIDE-2025-10-01-standard")]
    # the newest edition of the period decides publication (B.02 §7.2.1)
    assert change.edition_id == "FIDE-2025-10-01-standard"


def test_k_with_no_career_games_is_40():
    # §8.3.3: K 40 until events with at least 30 games are completed: 0 and 29 -> 40, 30 -> 20
    assert [k_factor(1800, career_games=g) for g in (0, 29, 30)] == [40, 40, 20]


@pytest.mark.parametrize("birth_year,ok", [(1849, False), (1850, True), (2200, True),
                                           (2201, False)])
def test_birth_year_bounds(birth_year, ok):
    # plausible years only; a year outside 1850-2200 is an input error, never K 40
    if ok:
        assert k_factor(1800, birth_year=birth_year, period_year=birth_year) in (20, 40)
    else:
        with pytest.raises(InputError, match="birth_year"):
            k_factor(1800, birth_year=birth_year, period_year=2025)


def test_value_names_in_messages():
    with pytest.raises(InputError, match="^Ro must be"):
        k_factor(5000)
    with pytest.raises(InputError, match="^peak_rating must be"):
        k_factor(1800, peak_rating=5000)
    with pytest.raises(InputError, match="^career_games must be"):
        k_factor(1800, career_games=-1)
    with pytest.raises(InputError, match="^K must be"):
        rate_period(2000, [("A", 2000, STD_2025, [(2000, 1)])], 0)
    with pytest.raises(InputError, match="^K must be"):
        rate_event(2000, [(2000, 1)], 0)
