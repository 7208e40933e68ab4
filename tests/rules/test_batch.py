"""The batch rating period (xl_fide.rules.batch) against the reference-tested slow path.

Differential: for random small periods every player's N, W, ΣPD, capped K, change,
rounded change and new rating equal :func:`xl_fide.rules.rating.rate_period` on the same
games (FIDE B.02 §8.3). Hand cases: rows of the reference §9, with PD from table
8.1.2 worked out in the comments. No timing here: see benchmarks/period.py.
"""

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xl_fide.rules.batch as batch
from xl_fide.errors import BatchNotSupported
from xl_fide.rules.batch import BatchResult, rate_period_batch
from xl_fide.rules.editions import rules_for
from xl_fide.errors import InputError, XlFideError
from xl_fide.rules.rating import rate_period
from xl_fide.rules.rounding import round_half_away
from xl_fide.rules.tables import pd_for_difference

NOW = rules_for("2025-10-01")                     # standard, 2650+ exempt
STD_2024 = rules_for("2024-03-01")                # standard, 400 rule for everyone
RAPID_2025 = rules_for("2025-01-01", "rapid")     # 600-point rule (from 2024-12-01)
RAPID_2024 = rules_for("2024-03-01", "rapid")     # before the 600-point rule
RULES_2022 = rules_for("2023-06-01")              # 400 rule once per event


def one(rating, K, games, edition=NOW):
    """Player 0 rated ``rating`` plays ``games`` = [(R_opp, white's score half, as white?)]."""
    ratings, ks, white, black, scores = [rating], [K], [], [], []
    for R_opp, s, as_white in games:
        ratings.append(R_opp)
        ks.append(20)
        opp = len(ratings) - 1
        if as_white:
            white.append(0), black.append(opp), scores.append(s)
        else:
            white.append(opp), black.append(0), scores.append(2 - s)
    return rate_period_batch(ratings, ks, white, black, scores, edition)


def row(result: BatchResult, i: int = 0):
    return (result.N[i], result.W_half[i], result.sum_PD[i], result.K[i], result.change[i],
            result.rating_change[i], result.new_rating[i])


# --- reference §9 -------------------------------------------------------------------

def test_three_games_round_once():
    # 2000, K 10: W vs 1950 (D 50, PD .57), L vs 2050 (.43), D vs 1810 (D 190, .75)
    # ΣPD 1.75, W 1.5, ΣΔR -.25, K x ΣΔR -2.50 -> -3 (half away from zero)
    r = rate_period_batch([2000, 1950, 2050, 1810], [10] * 4, [0, 2, 0], [1, 0, 3], [2, 2, 1])
    assert row(r) == (3, 3, 175, 10, -250, -3, 1997)
    assert r.sum_delta_R(0) == -25
    assert r.edition_id == NOW.id


def test_each_player_has_own_400_rule():
    # 2700 (K 10) beats 2200 (K 20). 2700 is exempt: D 500 -> PD .96 -> +0.4 -> 0.
    # 2200 is capped: D -400 -> PD .08 -> -1.6 -> -2.
    r = rate_period_batch([2700, 2200], [10, 20], [0], [1], [2], NOW)
    assert row(r, 0) == (1, 2, 96, 10, 40, 0, 2700)
    assert row(r, 1) == (1, 0, 8, 20, -160, -2, 2198)
    # Before 1 Oct 2025 the 2700 player was capped too: PD .92 -> +0.8 -> +1
    r = rate_period_batch([2700, 2200], [10, 20], [0], [1], [2], STD_2024)
    assert row(r, 0) == (1, 2, 92, 10, 80, 1, 2701)


@pytest.mark.parametrize("Ro,R_opp,change", [
    (2800, 1800, 0),      # D 1000, exempt -> PD 1.00
    (2650, 2150, 40),     # D 500, exempt -> .96 -> +0.4
    (2649, 2149, 80),     # capped to 400 -> .92 -> +0.8
])
def test_2650_boundary(Ro, R_opp, change):
    assert one(Ro, 10, [(R_opp, 2, True)]).change[0] == change


def test_junior_k40_capped_to_35_over_the_period():
    # 20 games: 40 x 20 > 700 -> K = 700 // 20 = 35; 20/20 vs 1500 (PD .50): +350
    r = one(1500, 40, [(1500, 2, i % 2 == 0) for i in range(20)])
    assert row(r) == (20, 40, 1000, 35, 35000, 350, 1850)


@pytest.mark.parametrize("K,n,K_used", [
    (40, 17, 40), (40, 18, 38), (20, 35, 20), (20, 36, 19), (10, 70, 10), (10, 71, 9),
])
def test_k_cap_boundaries(K, n, K_used):
    # §8.3.3: K x n = 700 is allowed; above, K = 700 // n
    r = one(2000, K, [(2000, 1, i % 2 == 0) for i in range(n)])
    assert (r.N[0], r.K[0], r.change[0]) == (n, K_used, 0)


@pytest.mark.parametrize("score,rounded", [(2, 37), (0, -3), (1, 17)])
@pytest.mark.parametrize("R_opp", [1900, 2900])
def test_1500_k40_vs_higher(R_opp, score, rounded):
    # D -400 (2900 capped) -> PD .08: +36.8 / -3.2 / +16.8
    assert one(1500, 40, [(R_opp, score, False)]).rating_change[0] == rounded


def test_1892_beats_130_higher():
    r = one(1892, 40, [(2022, 2, True)])                # PD .32 -> +27.2
    assert (r.change[0], r.new_rating[0]) == (2720, 1919)


def test_rapid_600_rule():
    # 1800 loses to 2601: 600+ apart, one above 2600 -> not rated (from 1 Dec 2024)
    r = rate_period_batch([1800, 2601], [20, 10], [0], [1], [0], RAPID_2025)
    assert (r.N, r.change, r.new_rating) == ((0, 0), (0, 0), (1800, 2601))
    r = rate_period_batch([1800, 2601], [20, 10], [0], [1], [0], RAPID_2024)
    assert r.N == (1, 1)
    # exactly 600 apart is not rated, 599 is; 600+ apart with nobody above 2600 is rated
    assert rate_period_batch([2001, 2601], [20, 10], [0], [1], [0], RAPID_2025).N == (0, 0)
    assert rate_period_batch([2002, 2601], [20, 10], [0], [1], [0], RAPID_2025).N == (1, 1)
    assert rate_period_batch([2000, 2600], [20, 10], [0], [1], [0], RAPID_2025).N == (1, 1)   # 1000 is below the 1400 floor


def test_rapid_has_no_2650_exemption():
    # rapid caps everyone: 2700 vs 2250 (D 450 -> 400 -> .92), +0.8
    assert rate_period_batch([2700, 2250], [10, 20], [0], [1], [2], RAPID_2025).change[0] == 80


# --- unrated players, edition support, inputs ----------------------------------------

def test_unrated_players_and_their_games_are_left_out():
    r = rate_period_batch([2000, None, 0, 1900], [10, None, 0, 20],
                          [0, 1, 2, 0], [1, 0, 0, 3], [2, 2, 1, 1], NOW)
    assert r.Ro == (2000, None, None, 1900)
    assert r.K == (10, None, None, 20)
    assert r.new_rating[1:3] == (None, None)
    assert r.N == (1, 0, 0, 1)                     # only 2000 vs 1900 counts
    assert row(r, 0) == row(rate_period_batch([2000, 1900], [10, 20], [0], [1], [1]))


def test_once_per_event_editions_are_not_supported():
    with pytest.raises(BatchNotSupported, match="once per event") as info:
        rate_period_batch([2000, 1500], [20, 20], [0], [1], [2], RULES_2022)
    assert isinstance(info.value, NotImplementedError)
    assert isinstance(info.value, XlFideError)


def test_default_edition_is_todays_standard():
    assert rate_period_batch([2000], [20], [], [], []).edition_id == rules_for(None).id


@pytest.mark.parametrize("kwargs,message", [
    ({"white": [-1]}, "white must hold player numbers"),
    ({"black": [2]}, "player numbers 0 to 1, got 2"),
    ({"white": [0.0]}, "white must hold player numbers"),
    ({"scores": [3]}, r"scores_half must be 0, 1 or 2 \(white.s score in half points\), got 3"),
    ({"scores": [0.5]}, "scores_half must be 0, 1 or 2"),
    ({"scores": [-1]}, "got -1"),
    ({"scores": [None]}, "got None"),
    ({"ratings": [2000.5, 1500]}, "rating of player 0 must be a whole number, got 2000.5"),
    ({"ratings": [2000, 4001]}, "rating of player 1 must be at most 4000"),
    ({"ratings": [2000, True]}, "rating of player 1"),
    ({"ks": [0, 20]}, "K of player 0 must be at least 1"),
    ({"ks": [20, None]}, "K of player 1"),
    ({"ks": [20]}, "one K per player"),
    ({"black": [1, 0]}, "same length"),
])
def test_bad_input(kwargs, message):
    args = {"ratings": [2000, 1500], "ks": [20, 20], "white": [0], "black": [1], "scores": [2]}
    args.update(kwargs)
    with pytest.raises(InputError, match=message):
        rate_period_batch(args["ratings"], args["ks"], args["white"], args["black"],
                          args["scores"], NOW)


def test_exact_floats_and_other_sequences_accepted():
    expected = rate_period_batch([2000, 1500], [20, 20], [0, 1], [1, 0], [2, 1])
    got = rate_period_batch((2000.0, 1500), array("b", [20, 20]), array("i", [0, 1]),
                            (1, 0), bytes([2, 1]))
    assert got == expected
    assert all(type(v) is int for column in (got.N, got.W_half, got.sum_PD, got.K, got.change,
                                             got.rating_change, got.new_rating) for v in column)


def test_list_rounding_agrees_with_the_scalar_one():
    from xl_fide.rules.rounding import round_hundredths_half_away
    # §8.3.4 ties: -2.50 -> -3, +2.50 -> +3, -0.50 -> -1, 0.49 -> 0
    assert round_hundredths_half_away([-250, 250, -50, 49, -149]) == [-3, 3, -1, 0, -1]
    values = list(range(-100_000, 100_001, 7)) + [-250, -150, -50, 50, 150, 250, -49, 49]
    assert round_hundredths_half_away(values) == [round_half_away(c, 100) for c in values]


def test_pd_lookup_is_table_8_1_2():
    assert batch._pd_signed() == [pd_for_difference(D) for D in range(-4000, 4001)]


def test_engine_imports_no_adapter_or_numpy():
    assert "numpy" not in batch.__dict__
    source = open(batch.__file__, encoding="utf-8").read()
    for name in ("numpy", "xlwings", "openpyxl", "float("):
        assert name not in source


# --- the wide-accumulator paths ------------------------------------------------------

def test_more_games_than_the_narrow_fields_hold():
    # 300 games for player 0 (over the 127 of the first tier): the next tier is exact.
    opponents = [1400 + 5 * i for i in range(300)]
    r = one(2100, 10, [(R, i % 3, i % 2 == 0) for i, R in enumerate(opponents)])
    expected = slow([2100] + opponents, [10] + [20] * 300,
                    [(0, i + 1, i % 3) if i % 2 == 0 else (i + 1, 0, 2 - i % 3)
                     for i in range(300)], NOW)
    assert row(r) == expected[0]
    assert r.K[0] == 2                                   # 700 // 300


def test_list_tier(monkeypatch):
    monkeypatch.setattr(batch, "_TIERS", ())
    test_three_games_round_once()
    test_junior_k40_capped_to_35_over_the_period()


# --- differential: batch == rate_period, player by player ------------------------------

def slow(ratings, ks, games, edition):
    """Each player's row by the slow path: one event holding all their games."""
    rows = []
    for p, (Ro, K) in enumerate(zip(ratings, ks)):
        if not Ro or Ro < edition.rating_floor:      # below the floor: unrated (§7.2.1)
            rows.append((0, 0, 0, None, 0, 0, None))
            continue
        mine = [(ratings[b], s / 2) for w, b, s in games if w == p and ratings[b]]
        mine += [(ratings[w], (2 - s) / 2) for w, b, s in games if b == p and ratings[w]]
        pc = rate_period(Ro, [("period", Ro, edition, mine)], K)
        sum_PD = sum(g.PD for e in pc.events for g in e.games if g.rated)
        rows.append((pc.N, pc.W_half, sum_PD, pc.K, pc.change, pc.rating_change, pc.new_rating))
    return rows


RATINGS = st.one_of(
    st.integers(1000, 2900),
    st.sampled_from([2599, 2600, 2601, 2649, 2650, 2651, 2200, 2001]),
    st.none(),
)


@st.composite
def periods(draw):
    n = draw(st.integers(2, 8))
    ratings = draw(st.lists(RATINGS, min_size=n, max_size=n))
    ks = draw(st.lists(st.sampled_from([10, 20, 40]), min_size=n, max_size=n))
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 2))
    games = [g for g in draw(st.lists(pair, max_size=40)) if g[0] != g[1]]
    return ratings, ks, games


@pytest.mark.parametrize("edition", [NOW, STD_2024, RAPID_2025], ids=lambda e: e.id)
@pytest.mark.parametrize("tiers", [batch._TIERS, ((1, "i"), (3, "q")), ()],
                         ids=["tiers", "narrow-tiers", "list"])
@settings(max_examples=150, deadline=None)
@given(period=periods())
def test_batch_equals_rate_period(edition, tiers, period):
    ratings, ks, games = period
    saved = batch._TIERS
    batch._TIERS = tiers
    try:
        r = rate_period_batch(ratings, ks, [g[0] for g in games], [g[1] for g in games],
                              [g[2] for g in games], edition)
    finally:
        batch._TIERS = saved
    assert [row(r, i) for i in range(len(ratings))] == slow(ratings, ks, games, edition)
