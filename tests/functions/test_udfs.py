"""The Excel functions of xl_fide.udfs called as plain Python with Excel-shaped input.

Classic Excel passes numbers as floats, xlwings Lite as ints; blanks as None or "";
a single cell as a scalar, a row or column as a flat list, a block as a list of rows.
Expected values come from the project reference (the worked
examples) or are computed by hand in the comments from tables 8.1.1 / 8.1.2.
"""

from __future__ import annotations

import datetime as dt
import inspect
import os
import subprocess
import sys
from pathlib import Path

from tests.harness.docs import docs_text
import pytest

from xl_fide import udfs
from xl_fide.cli._doctor import checks, doctor, read_user_config, user_config_path
from xl_fide.udfs import (
    FIDE_CHANGE,
    FIDE_DELTA,
    FIDE_DP,
    FIDE_EVENT,
    FIDE_EVENT_SWISS,
    FIDE_EXPECTED,
    FIDE_INITIAL_RATING,
    FIDE_K,
    FIDE_NEW_RATING,
    FIDE_NORM,
    FIDE_PD,
    FIDE_PERFORMANCE,
    FIDE_PTP,
    FIDE_SCORE,
    FIDE_TPR,
    FIDE_VERSION,
)

ROOT = Path(__file__).resolve().parents[2]
NA = "#N/A"


# ------------------------------------------------------------------ module contract

def test_all_lists_every_udf_and_only_udfs():
    defined = {n for n, f in vars(udfs).items()
               if inspect.isfunction(f) and n.startswith("FIDE_") and f.__module__ == udfs.__name__}
    assert set(udfs.__all__) == defined
    assert len(udfs.__all__) == 17


@pytest.mark.parametrize("name", udfs.__all__)
def test_udf_signature_is_excel_safe(name):
    f = getattr(udfs, name)
    assert name.isupper()
    sig = inspect.signature(f)
    assert sig.return_annotation is inspect.Signature.empty
    for p in sig.parameters.values():
        assert p.kind is p.POSITIONAL_OR_KEYWORD, (name, p.name)
        assert p.annotation is inspect.Parameter.empty, (name, p.name)
    assert f.__annotations__ == {}


@pytest.mark.parametrize("name", udfs.__all__)
def test_docstring_cites_the_article_within_255_characters(name):
    head = getattr(udfs, name).__doc__[:255]
    assert "FIDE" in head and ("§" in head or name == "FIDE_VERSION")


def test_ndim_table_names_real_parameters():
    for name, shapes in udfs.NDIM.items():
        params = inspect.signature(getattr(udfs, name)).parameters
        for arg, ndim in shapes.items():
            assert arg in params and ndim in (1, 2), (name, arg)
    assert udfs.NDIM["FIDE_CHANGE"] == {"opponent_ratings": 1, "scores": 1}
    assert udfs.NDIM["FIDE_EVENT"] == {"ratings": 1, "k_factors": 1, "results": 2}
    assert udfs.__ndim__ is udfs.NDIM


def test_optional_arguments_default_to_todays_standard_rules():
    for name in udfs.__all__:
        params = inspect.signature(getattr(udfs, name)).parameters
        if "time_control" in params:
            assert params["time_control"].default == "standard"
            assert params["event_date"].default is None


def test_importing_the_engine_leaves_xlwings_and_openpyxl_out():
    code = ("import sys, xl_fide, xl_fide.rules.event, xl_fide.lists._read; "
            "bad = [m for m in ('xlwings', 'openpyxl') if m in sys.modules]; "
            "print(bad); sys.exit(1 if bad else 0)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


# ----------------------------------------------------------------------- helpers

def test_flat_and_grid_normalise_raw_shapes():
    assert udfs._flat(5.0) == [5.0]
    assert udfs._flat(None) == [None]
    assert udfs._flat([1.0, 2.0]) == [1.0, 2.0]
    assert udfs._flat([[1.0], [2.0]]) == [1.0, 2.0]        # a column, ndim=2 style
    assert udfs._flat([[1.0, 2.0], [3.0, 4.0]]) == [1.0, 2.0, 3.0, 4.0]
    assert udfs._grid(5.0) == [[5.0]]
    assert udfs._grid([1.0, 2.0]) == [[1.0, 2.0]]          # a row
    assert udfs._grid([1.0, 2.0], nrows=2) == [[1.0], [2.0]]  # a column of 2 players
    assert udfs._grid([[1.0, 2.0]]) == [[1.0, 2.0]]


@pytest.mark.parametrize("value, expected", [
    (45658.0, dt.date(2025, 1, 1)),      # classic: serial as float (1900 system)
    (45658, dt.date(2025, 1, 1)),        # Lite: serial as int
    (45931.75, dt.date(2025, 10, 1)),    # a date with a time of day
    (1, dt.date(1900, 1, 1)),
    (61, dt.date(1900, 3, 1)),           # after Excel's fictitious 1900-02-29 (serial 60)
    (dt.datetime(2025, 9, 30, 12, 0), dt.date(2025, 9, 30)),
    (dt.date(2025, 9, 30), dt.date(2025, 9, 30)),
    ("2025-09-30", dt.date(2025, 9, 30)),
    ("2025/09/30", dt.date(2025, 9, 30)),
    (None, None),
    ("", None),
])
def test_event_date_forms(value, expected):
    assert udfs._date(value) == expected


# ----------------------------------------------------------------- FIDE_EXPECTED

def test_expected_table_against_logistic():
    # D = 350 -> band 345-357 -> .89; logistic 1/(1+10^(-350/400)) = 0.88234 (reference §1)
    assert FIDE_EXPECTED(2000.0, 1650.0) == 0.89
    assert FIDE_EXPECTED(2000, 1650, "table") == 0.89
    assert FIDE_EXPECTED(2000, 1650, "logistic") == pytest.approx(0.88234, abs=1e-5)
    assert FIDE_EXPECTED(1892.0, 2022.0) == 0.32           # reference §9, D = -130


def test_expected_2650_exemption_depends_on_the_event_date():
    # D = 500: exempt from 2025-10-01 -> band 485-517 -> .96; capped to 400 -> .92
    assert FIDE_EXPECTED(2650.0, 2150.0) == 0.96                       # today's rules
    assert FIDE_EXPECTED(2650.0, 2150.0, "fide", "standard", "2025-10-01") == 0.96
    assert FIDE_EXPECTED(2650.0, 2150.0, "fide", "standard", "2025-09-30") == 0.92
    assert FIDE_EXPECTED(2650.0, 2150.0, "fide", "standard", 45930.0) == 0.92  # 2025-09-30
    assert FIDE_EXPECTED(2650, 2150, "fide", "standard", 45931) == 0.96        # 2025-10-01
    assert FIDE_EXPECTED(2650.0, 2150.0, "fide", "standard",
                         dt.datetime(2025, 10, 1)) == 0.96
    assert FIDE_EXPECTED(2649.0, 2149.0) == 0.92                       # under 2650: capped
    assert FIDE_EXPECTED(2650.0, 2150.0, "fide", "rapid") == 0.92      # R&B: always capped
    assert FIDE_EXPECTED(2650.0, 2150.0, "table", "standard", "2025-09-30") == 0.96
    # the lower-rated player is capped: 2200 vs 2700 -> -400 -> 1 - .92
    assert FIDE_EXPECTED(2200.0, 2700.0) == 0.08


def test_expected_blank_and_defaults():
    assert FIDE_EXPECTED(None, 2000.0) == NA
    assert FIDE_EXPECTED(2000.0, "") == NA
    # blank optional cells (None) mean the defaults
    assert FIDE_EXPECTED(2000.0, 1650.0, None, None, None) == 0.89
    assert FIDE_EXPECTED(2000.0, 1650.0, "", "", "") == 0.89
    assert FIDE_EXPECTED("2000", "1650") == 0.89                       # numbers stored as text


@pytest.mark.parametrize("call, words", [
    (lambda: FIDE_EXPECTED(2000.5, 2000.0), "rating must be a whole number, got 2000.5"),
    (lambda: FIDE_EXPECTED(2000.0, "abc"), "opponent_rating must be a whole number, got 'abc'"),
    (lambda: FIDE_EXPECTED(2000.0, 2000.0, "elo"),
     "method must be fide, table or logistic, got 'elo'"),
    (lambda: FIDE_EXPECTED(2000.0, 2000.0, "fide", "bullet"), "time_control"),
    (lambda: FIDE_EXPECTED(2000.0, 2000.0, "fide", "standard", "soon"), "event_date"),
    (lambda: FIDE_EXPECTED(True, 2000.0), "rating must be a whole number, got True"),
    (lambda: FIDE_EXPECTED([2000.0, 2100.0], 2000.0), "rating must be a single cell"),
    (lambda: FIDE_EXPECTED(5000.0, 2000.0), "rating must be at most 4000, got 5000"),
])
def test_expected_errors_name_the_argument_and_value(call, words):
    with pytest.raises(ValueError) as err:
        call()
    assert words in str(err.value)
    assert "Traceback" not in str(err.value)


# -------------------------------------------------------------------- FIDE_DELTA

@pytest.mark.parametrize("rating, opp, score, k, expected", [
    (1892.0, 2022.0, 1.0, 40.0, 27.2),    # §9: PD .32, 40 x .68
    (1892.0, 2022.0, 1.0, 20.0, 13.6),    # §9: at K 20
    (2400.0, 2400.0, 1.0, 10.0, 5.0),     # §9: PD .50
    (2000.0, 2000.0, 0.0, 20.0, -10.0),   # §9: loss
    (2000, 2000, 0, 20, -10.0),           # Lite ints
    (2800.0, 1800.0, 1.0, 10.0, 0.0),     # §9: not capped, D 1000 -> 1.00
    (2650.0, 2150.0, 1.0, 10.0, 0.4),     # §9: exempt, .96
    (2649.0, 2149.0, 1.0, 10.0, 0.8),     # §9: capped, .92
    (2200.0, 2700.0, 0.0, 20.0, -1.6),    # §9: 2200 player capped, PD .08
    (2000.0, 1810.0, 0.5, 10.0, -2.5),    # §9: D 190 -> .75, 10 x (.5 - .75)
    (2000.0, 1810.0, "½", 10.0, -2.5),
    (2000.0, 1810.0, "=", 10.0, -2.5),
    (2000.0, 1810.0, "1/2-1/2", 10.0, -2.5),
    (1892.0, 2022.0, "1-0", 40.0, 27.2),
    (1892.0, 2022.0, "0-1", 40.0, -12.8),  # 40 x (0 - .32)
])
def test_delta_reference_cases(rating, opp, score, k, expected):
    assert FIDE_DELTA(rating, opp, score, k) == pytest.approx(expected, abs=1e-9)


def test_delta_unrated_games_and_blanks_are_na():
    assert FIDE_DELTA(1892.0, 2022.0, "+", 40.0) == NA      # forfeit: not a rated game
    assert FIDE_DELTA(1892.0, 2022.0, "-", 40.0) == NA
    assert FIDE_DELTA(1892.0, 2022.0, "H", 40.0) == NA      # bye
    assert FIDE_DELTA(1892.0, 2022.0, None, 40.0) == NA
    assert FIDE_DELTA(1892.0, 2022.0, 1.0, None) == NA
    # §9 rapid: 1800 loses to 2601 -> 600+ apart and a player above 2600: not rated
    assert FIDE_DELTA(1800.0, 2601.0, 0.0, 20.0, "rapid") == NA
    # ... but in standard it is rated: capped to -400 -> PD .08 -> 20 x -.08
    assert FIDE_DELTA(1800.0, 2601.0, 0.0, 20.0) == pytest.approx(-1.6)


def test_delta_errors():
    with pytest.raises(ValueError, match=r"score must be 1, ½, 0, \+ or - \(or = 1-0 .*H F U Z\), got 'x'"):
        FIDE_DELTA(2000.0, 2000.0, "x", 20.0)
    with pytest.raises(ValueError, match=r"score must be 1, ½, 0, \+ or - \(or = .*\), got 0.7"):
        FIDE_DELTA(2000.0, 2000.0, 0.7, 20.0)
    with pytest.raises(ValueError, match="k must be a whole number, got 20.5"):
        FIDE_DELTA(2000.0, 2000.0, 1.0, 20.5)
    with pytest.raises(ValueError, match="k must be at least 1, got 0"):
        FIDE_DELTA(2000.0, 2000.0, 1.0, 0.0)


# ------------------------------------------------------- FIDE_CHANGE / NEW_RATING

def test_change_and_new_rating_reference_period():
    # §9: 2000, K 10: W vs 1950 (PD .57), L vs 2050 (.43), D vs 1810 (.75)
    # ΣΔR = .43 - .43 - .25 = -.25 -> K x ΣΔR = -2.50 -> rounded away from zero -> -3
    opps, scores = [1950.0, 2050.0, 1810.0], [1.0, 0.0, 0.5]
    assert FIDE_CHANGE(2000.0, opps, scores, 10.0) == -2.5
    assert FIDE_NEW_RATING(2000.0, opps, scores, 10.0) == 1997
    # a column arrives as a list of one-element rows when ndim is not forced
    assert FIDE_NEW_RATING(2000.0, [[1950.0], [2050.0], [1810.0]], ["1", "0", "½"], 10.0) == 1997
    assert FIDE_NEW_RATING(2000, [1950, 2050, 1810], [1, 0, "=" ], 10) == 1997   # Lite ints
    # one draw vs 1810: -2.50 -> -3 as well (§9)
    assert FIDE_NEW_RATING(2000.0, 1810.0, 0.5, 10.0) == 1997
    assert isinstance(FIDE_NEW_RATING(2000.0, 1810.0, 0.5, 10.0), int)


@pytest.mark.parametrize("rating, opp, score, new", [
    (1500.0, 1900.0, 1.0, 1537), (1500.0, 1900.0, 0.0, 1497), (1500.0, 1900.0, 0.5, 1517),
    (1500.0, 2900.0, 1.0, 1537), (1500.0, 2900.0, 0.0, 1497), (1500.0, 2900.0, 0.5, 1517),
    (2000.0, 1600.0, 1.0, 2003), (2000.0, 1600.0, 0.0, 1963), (2000.0, 1600.0, 0.5, 1983),
    (2000.0, 1900.0, 1.0, 2014), (2000.0, 1900.0, 0.0, 1974), (2000.0, 1900.0, 0.5, 1994),
])
def test_new_rating_k40_reference_cases(rating, opp, score, new):
    # §9 table at K 40: +37 / -3 / +17, +3 / -37 / -17, +14 / -26 / -6
    assert FIDE_NEW_RATING(rating, [opp], [score], 40.0) == new


def test_change_blank_pairs_forfeits_and_cap():
    # §9: 10 wins by a 2000 (K 10) over players <= 1600: +.8 each -> +8
    assert FIDE_CHANGE(2000.0, [1600.0] * 10, [1.0] * 10, 10.0) == pytest.approx(8.0)
    # §9: junior 1500, K 40, 20/20 vs 1500: K x 20 > 700 -> K 35 -> 35 x 10 = +350
    assert FIDE_CHANGE(1500.0, [1500.0] * 20, [1.0] * 20, 40.0) == 350.0
    assert FIDE_NEW_RATING(1500.0, [1500.0] * 20, [1.0] * 20, 40.0) == 1850
    # blank pairs are skipped: the same -2.50 with blank rows in between
    opps = [1950.0, None, 2050.0, "", 1810.0, 1700.0]
    scores = [1.0, None, 0.0, None, 0.5, None]     # 1700 has no result yet
    assert FIDE_CHANGE(2000.0, opps, scores, 10.0) == -2.5
    # a result against a blank rating (unrated opponent) is skipped too
    assert FIDE_CHANGE(2000.0, [1950.0, 2050.0, 1810.0, None],
                       [1.0, 0.0, 0.5, 1.0], 10.0) == -2.5
    # forfeits are not rated
    assert FIDE_CHANGE(2000.0, [1950.0, 2050.0, 1810.0, 1500.0],
                       [1.0, 0.0, 0.5, "+"], 10.0) == -2.5
    # only forfeits: entered but nothing rated -> 0, rating unchanged
    assert FIDE_CHANGE(2000.0, [1500.0], ["+"], 10.0) == 0.0
    assert FIDE_NEW_RATING(2000.0, [1500.0], ["-"], 10.0) == 2000
    # nothing entered -> #N/A
    assert FIDE_CHANGE(2000.0, [None, None], [None, ""], 10.0) == NA
    assert FIDE_NEW_RATING(None, [1950.0], [1.0], 10.0) == NA
    assert FIDE_CHANGE(2000.0, [1950.0], [1.0], None) == NA


def test_change_is_exact_to_the_hundredth():
    # 7 draws at D 190 (PD .75): ΣΔR = -1.75 -> K 10 x -1.75 = -17.5 exactly
    assert FIDE_CHANGE(2000.0, [1810.0] * 7, [0.5] * 7, 10.0) == -17.5
    assert FIDE_NEW_RATING(2000.0, [1810.0] * 7, [0.5] * 7, 10.0) == 1982    # -17.5 -> -18
    # 3 games at PD .57 won by K 20: 20 x 1.29 = 25.8
    assert FIDE_CHANGE(2000.0, [1950.0] * 3, [1.0] * 3, 20.0) == 25.8


def test_change_errors():
    with pytest.raises(ValueError, match="opponent_ratings has 3 cells but scores has 2"):
        FIDE_CHANGE(2000.0, [1950.0, 2050.0, 1810.0], [1.0, 0.0], 10.0)
    with pytest.raises(ValueError,
                       match="opponent_ratings cell 2 must be a whole number, got 2050.5"):
        FIDE_CHANGE(2000.0, [1950.0, 2050.5], [1.0, 0.0], 10.0)
    with pytest.raises(ValueError, match="scores cell 2 must be 1, ½, 0"):
        FIDE_CHANGE(2000.0, [1950.0, 2050.0], [1.0, "win"], 10.0)
    with pytest.raises(ValueError, match="rating must be a whole number, got 2000.5"):
        FIDE_NEW_RATING(2000.5, [1950.0], [1.0], 10.0)


# -------------------------------------------------------------------------- FIDE_K

def test_k_rules():
    # junior rule: until the end of the year of the 18th birthday, rated under 2300
    assert FIDE_K(2000.0, 2007.0, 100.0, None, None, 2025.0) == 40   # 18 in 2025
    assert FIDE_K(2000.0, 2007.0, 100.0, None, None, 2026.0) == 20   # 19 in 2026
    assert FIDE_K(2000.0, 2006.0, 100.0, None, None, 2025.0) == 20
    assert FIDE_K(2300.0, 2010.0, 100.0, None, None, 2025.0) == 20   # junior but 2300
    # period_year from the event date when blank
    assert FIDE_K(2000.0, 2007.0, 100.0, None, None, None, "standard", "2025-10-01") == 40
    assert FIDE_K(2000.0, 2007.0, 100.0, None, None, None, "standard", "2026-01-01") == 20
    assert FIDE_K(2000, 2007, 100, None, None, None, "standard", 46023) == 20  # 2026-01-01
    # fewer than 30 games -> 40; then 20
    assert FIDE_K(2000.0, None, 29.0) == 40
    assert FIDE_K(2000.0, None, 30.0) == 20
    assert FIDE_K(2000.0) == 20                                       # unknowns do not raise K
    # 2400 reached once -> 10 for good
    assert FIDE_K(2400.0) == 10
    assert FIDE_K(2350.0, None, 500.0, 2405.0) == 10
    # cap K x n <= 700: n 18 -> 700 // 18 = 38 (§4)
    assert FIDE_K(1500.0, 2010.0, None, None, 18.0, 2025.0) == 38
    assert FIDE_K(1500.0, 2010.0, None, None, 17.0, 2025.0) == 40
    assert FIDE_K(2000.0, None, 100.0, None, 36.0) == 19
    assert FIDE_K(2500.0, None, None, None, 71.0) == 9
    # rapid/blitz before 1 Oct 2022: 20 for everyone
    assert FIDE_K(1500.0, 2010.0, 0.0, None, None, None, "rapid", "2022-09-30") == 20
    assert FIDE_K(1500.0, 2010.0, 0.0, None, None, None, "rapid", "2022-10-01") == 40
    assert FIDE_K(None) == NA


def test_k_vectorised_column():
    ratings = [[2000.0], [None], [2450.0], [1500.0]]      # a column, raw 2-D shape
    births = [2007.0, None, 1990.0, 2010.0]               # a column, flat
    out = FIDE_K(ratings, births, 100.0, None, None, 2025.0)
    assert out == [[40], [""], [10], [40]]
    # period_games column: 18 games caps the 40 of row 4 to 38
    out = FIDE_K(ratings, births, 100.0, None, [None, None, 20.0, 18.0], 2025.0)
    assert out == [[40], [""], [10], [38]]
    # a one-cell rating range is still a column
    assert FIDE_K([2000.0], 2007.0, 100.0, None, None, 2025.0) == [[40]]


def test_k_errors():
    # in a column, a bad row shows its message and the other rows keep their K
    # (2000, born 2000, 100 games, rules of today: 20)
    assert FIDE_K([2000.0, 2000.5], 2000.0, 100.0) == [
        [20], ["rating row 2 must be a whole number, got 2000.5"]]
    with pytest.raises(ValueError, match="birth_year has 2 cells but rating has 3"):
        FIDE_K([2000.0, 2100.0, 2200.0], [2000.0, 2001.0])
    with pytest.raises(ValueError, match="birth_year must be a whole number, got 2007.5"):
        FIDE_K(2000.0, 2007.5)
    with pytest.raises(ValueError, match="period_games must be at least 0, got -1"):
        FIDE_K(2000.0, None, None, None, -1.0)


# ------------------------------------------------------------ FIDE_INITIAL_RATING

def test_initial_rating_reference_cases():
    # §9: five draws vs 1400s: Ra (7000 + 3600)/7 = 1514.29, p (2.5+1)/7 = .50 -> 1514
    assert FIDE_INITIAL_RATING([1400.0] * 5, [0.5] * 5) == 1514
    # §9: 1/5 vs 1400s: p 2/7 = .29 -> dp -158 -> 1356.29 -> 1356 < 1400
    assert FIDE_INITIAL_RATING([1400.0] * 5, [1.0, 0.0, 0.0, 0.0, 0.0]) == \
        "not published: 1356 is below the rating floor 1400"
    # §5: 1902, 1877, 1884, 2012, 1832 with 3 points: Ra 13107/7, p .57 -> +50 -> 1922
    assert FIDE_INITIAL_RATING([1902, 1877, 1884, 2012, 1832], [1, 1, 1, 0, 0]) == 1922
    # §9: 5/5 vs 1400, 2000, 2100, 2200, 2300 -> 2251.9 -> capped at 2200 (published)
    assert FIDE_INITIAL_RATING([1400.0, 2000.0, 2100.0, 2200.0, 2300.0], [1.0] * 5) == 2200
    # the reference's 1300 is below the 2024 floor, an unrated opponent (B.02 §7.2.1):
    # 4 games against rated opponents are left, fewer than 5
    assert FIDE_INITIAL_RATING([1300.0, 2000.0, 2100.0, 2200.0, 2300.0], [1.0] * 5) == \
        "not published: only 4 games against rated opponents; at least 5 are needed"


def test_initial_rating_unrated_opponents_forfeits_and_blanks():
    # blank opponent ratings are unrated opponents: skipped; so are forfeits
    opps = [1400.0, None, 1400.0, 1400.0, 1500.0, 1400.0, 1400.0]
    scores = ["½", 1.0, "=", 0.5, "+", 0.5, "1/2"]
    assert FIDE_INITIAL_RATING(opps, scores) == 1514
    # 4 games only
    assert FIDE_INITIAL_RATING([1400.0] * 4, [0.5] * 4) == \
        "not published: only 4 games against rated opponents; at least 5 are needed"
    assert FIDE_INITIAL_RATING([None, None], [None, None]) == NA


# ------------------------------------------------------------------- performances

def test_performance_tpr_ptp():
    # §9: 3 W 2 D 1 L vs an average of 1850: p 4/6 = .67 -> +125 -> 1975
    opps = [1800.0, 1900.0, 1850.0, 1850.0, 1700.0, 2000.0]
    assert FIDE_PERFORMANCE(opps, [1.0, 1.0, 1.0, 0.5, 0.5, 0.0]) == 1975
    # §9: 0/7 vs an average of 2476 -> 2476 - 800 = 1676
    assert FIDE_PERFORMANCE([2476.0] * 7, [0.0] * 7) == 1676
    # §9: 2/3 vs 2000, 2100, 2200 -> TPR 2225, PTP 2226
    assert FIDE_TPR([2000.0, 2100.0, 2200.0], [1.0, 1.0, 0.0]) == 2225
    assert FIDE_PTP([2000.0, 2100.0, 2200.0], ["1-0", "1", "0-1"]) == 2226
    # blanks, unrated opponents and forfeits are left out
    assert FIDE_TPR([2000.0, None, 2100.0, 2200.0, 1500.0],
                    [1.0, 1.0, 1.0, 0.0, "+"]) == 2225
    assert FIDE_PERFORMANCE([None], [1.0]) == NA
    assert FIDE_PTP([None, None], [None, None]) == NA


def test_norm():
    # §9: 6.5/9 vs 2500, 2450, 2400, 2550, 2480, 2420, 2390, 2600, 2150:
    # 2150 raised to 2200, Ra 21990/9 = 2443.3 -> 2443, p .72 -> +166 -> 2609
    opps = [2500.0, 2450.0, 2400.0, 2550.0, 2480.0, 2420.0, 2390.0, 2600.0, 2150.0]
    scores = [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.0, 1.0]
    assert FIDE_NORM(opps, scores, "GM") == [[2609, 2443, "met"]]
    # the same as a column of one-element rows
    assert FIDE_NORM([[r] for r in opps], [[s] for s in scores], "gm") == [[2609, 2443, "met"]]
    # 8 games only: not met, the detail says why
    out = FIDE_NORM(opps[:8], scores[:8], "GM")
    assert out[0][2].startswith("not met: ") and "8 games (at least 9)" in out[0][2]
    # a blank opponent rating with a result is an unrated opponent (1400)
    out = FIDE_NORM([2400.0, None], [1.0, 1.0], "IM")
    # 1400 raised to 2050 (IM floor): Ra (2400 + 2050)/2 = 2225, p 1.00 -> +800
    assert out[0][:2] == [3025, 2225]
    assert FIDE_NORM(opps, scores, None) == NA
    with pytest.raises(ValueError, match="title must be GM, IM, WGM or WIM, got 'FM'"):
        FIDE_NORM(opps, scores, "FM")


# ------------------------------------------------------------------------ tables

def test_pd_and_dp():
    assert FIDE_PD(130.0) == 0.68
    assert FIDE_PD(-130.0) == 0.32
    assert FIDE_PD(3) == 0.5 and FIDE_PD(4) == 0.51
    assert FIDE_PD(736.0) == 1.0 and FIDE_PD(-736.0) == 0.0
    assert FIDE_PD(None) == NA
    assert FIDE_DP(0.67) == 125
    assert FIDE_DP(0.665) == 125             # .665 -> .67 (half up, decimal value)
    assert FIDE_DP(0.285) == -158            # binary 0.28499.. would give .28 (-166)
    assert FIDE_DP(11.5 / 20) == 57          # .575 -> .58 (not .57 -> 50)
    assert FIDE_DP(1.5 / 4) == -87           # .375 -> .38 -> -dp(.62) = -87
    assert FIDE_DP(1.0) == 800 and FIDE_DP(0) == -800 and FIDE_DP(0.5) == 0
    assert FIDE_DP("") == NA
    with pytest.raises(ValueError, match="p must be a number from 0 to 1, got 1.2"):
        FIDE_DP(1.2)
    with pytest.raises(ValueError, match="D must be a whole number, got 10.5"):
        FIDE_PD(10.5)


@pytest.mark.parametrize("cell, points", [
    (1.0, 1.0), (1, 1.0), (0.5, 0.5), (0.0, 0.0), ("1-0", 1.0), ("0-1", 0.0), ("½", 0.5),
    ("=", 0.5), ("1/2", 0.5), ("+", 1.0), ("-", 0.0), ("H", 0.5), ("z", 0.0),
])
def test_score(cell, points):
    assert FIDE_SCORE(cell) == points


def test_score_blank_and_error():
    assert FIDE_SCORE(None) == NA
    assert FIDE_SCORE("  ") == NA
    with pytest.raises(ValueError, match=r"result must be 1, ½, 0, \+ or - \(or = 1-0 .*H F U Z\), got 'draw'"):
        FIDE_SCORE("draw")


def test_version():
    import xl_fide
    assert FIDE_VERSION() == xl_fide.__version__


# ------------------------------------------------------------------ FIDE_EVENT

# A round robin computed by hand (standard, rules of 2025-11-01 = serial 45962):
#   1: 2000 K20   2: 1900 K40   3: unrated   4: 1700 K40   5: empty row
#   1-2 1-0, 1-3 ½-½, 1-4 0-1, 2-3 1-0, 2-4 ½-½, 3-4 0-1
# Player 1: vs 1900 D 100 -> .64, won: +.36; vs 1700 D 300 -> .85, lost: -.85 (3 unrated)
#   N 2, W 1, ΣPD 1.49, W-ΣPD -.49, K 20, 20 x -.49 = -9.8 -> -10 -> 1990;
#   Rp: Ra 1800, p .50 -> 1800.
# Player 2: vs 2000 -> .36, lost: -.36; vs 1700 D 200 -> .76, drew: -.26
#   N 2, W .5, ΣPD 1.12, -.62, K 40, -24.8 -> -25 -> 1875; Rp 1850 + dp(.25) -193 = 1657.
# Player 3 (unrated): vs 2000 ½, 1900 0, 1700 0: N 3, W .5;
#   Ru (2024 rule): Ra (5600 + 3600)/5 = 1840, p 1.5/5 = .30 -> -149 -> 1691, but 3 games;
#   Rp: Ra 5600/3 = 1866.67, p .5/3 = .17 -> -273 -> 1593.67 -> 1594.
# Player 4: vs 2000 D -300 -> .15, won: +.85; vs 1900 D -200 -> .24, drew: +.26
#   N 2, W 1.5, ΣPD .39, 1.11, K 40, 44.4 -> 44 -> 1744; Rp 1950 + dp(.75) 193 = 2143.
RR_RATINGS = [2000.0, 1900.0, None, 1700.0, None]
RR_K = [20.0, 40.0, None, 40.0, None]
RR_RESULTS = [
    [None, 1.0, 0.5, 0.0, None],
    [0.0, None, "1", "½", None],
    ["=", 0.0, None, "0-1", None],
    [1.0, 0.5, "1-0", None, ""],
    [None, None, None, None, None],
]
# Rc (11th column, the opponents' average in the N games, .5 up): 1 (1900 + 1700)/2 =
#   1800; 2 (2000 + 1700)/2 = 1850; 3 (2000 + 1900 + 1700)/3 = 1866.67 -> 1867;
#   4 (2000 + 1900)/2 = 1950.
RR_EXPECTED = [
    [2, 1.0, 1.49, -0.49, 20, -9.8, -10, 1990, 1800, "", 1800],
    [2, 0.5, 1.12, -0.62, 40, -24.8, -25, 1875, 1657, "", 1850],
    [3, 0.5, "", "", "", "", "", "", 1594,
     "not published: only 3 games against rated opponents; at least 5 are needed", 1867],
    [2, 1.5, 0.39, 1.11, 40, 44.4, 44, 1744, 2143, "", 1950],
    [""] * 11,
]


def test_event_round_robin_by_hand():
    assert FIDE_EVENT(RR_RATINGS, RR_K, RR_RESULTS, "standard", 45962.0) == RR_EXPECTED
    assert len(udfs.EVENT_COLUMNS) == 11


def test_event_round_robin_raw_column_shapes_and_ints():
    ratings = [[r] for r in RR_RATINGS]                 # columns as lists of rows
    ks = [[k] for k in RR_K]
    lite = [[int(v) if isinstance(v, float) and v.is_integer() else v for v in row]
            for row in RR_RESULTS]
    assert FIDE_EVENT(ratings, ks, lite) == RR_EXPECTED
    # whatever stands on the diagonal (x, *) is ignored
    marked = [[("x" if i == j else v) for j, v in enumerate(row)] for i, row in enumerate(lite)]
    assert FIDE_EVENT(ratings, ks, marked) == RR_EXPECTED


def test_event_errors():
    ks = [20.0, None, None, 40.0, None]
    with pytest.raises(ValueError, match="k_factors row 2 is blank for a rated player"):
        FIDE_EVENT(RR_RATINGS, ks, RR_RESULTS)
    with pytest.raises(ValueError, match="results must be 5 rows by 5 columns"):
        FIDE_EVENT(RR_RATINGS, RR_K, [row[:4] for row in RR_RESULTS])
    bad = [list(row) for row in RR_RESULTS]
    bad[1][0] = 1.0                                      # 1 beat 2 and 2 beat 1
    with pytest.raises(ValueError, match="results row 1 column 2 is 1.0 but row 2 column 1 is 1.0"):
        FIDE_EVENT(RR_RATINGS, RR_K, bad)
    with pytest.raises(ValueError, match="k_factors has 4 cells but ratings has 5"):
        FIDE_EVENT(RR_RATINGS, RR_K[:4], RR_RESULTS)
    # a bad rating shows in its own row (Ru), the others rate it as an unrated opponent
    # (issue 33 #5: no error across the whole block)
    out = FIDE_EVENT([2000.5] + RR_RATINGS[1:], RR_K, RR_RESULTS)
    assert out[0][:9] == [""] * 9 and out[0][10] == ""
    assert "ratings row 1 must be a whole number, got 2000.5" in out[0][9]   # Ru
    assert all(isinstance(row[7], int) for row in out[1:] if row[4] != "")


def test_event_double_forfeit_is_allowed():
    # both players lost by forfeit: no rated game, no mismatch
    out = FIDE_EVENT([2000.0, 1900.0], [20.0, 40.0], [[None, "-"], ["-", None]])
    assert out[0][:8] == [0, 0.0, 0.0, 0.0, 20, 0.0, 0, 2000]
    assert out[0][8] == ""                               # no Rp without games


# Swiss by hand (today's rules): 1: 2100 K20, 2: 1800 K40, 3: 1500 K40,
# 4: 1300 (below the 1400 floor: unrated), 2 rounds.
#   R1: 1-3 1-0, 2-4 +/- (forfeit)   R2: 1-2 ½-½, 3-4 0-1
# Player 1: vs 1500 D 600 -> capped 400 -> .92, won +.08; vs 1800 D 300 -> .85, drew -.35
#   N 2, W 1.5, ΣPD 1.77, -.27, K 20, -5.4 -> -5 -> 2095; Rp 1650 + dp(.75) 193 = 1843.
# Player 2: forfeit not rated; vs 2100 D -300 -> .15, drew +.35: N 1, W .5, ΣPD .15, .35,
#   K 40, 14.0 -> 14 -> 1814; Rp 2100 + 0 = 2100.
# Player 3: vs 2100 D -600 -> -400 -> .08, lost -.08; vs player 4 (unrated) not counted:
#   N 1, W 0, ΣPD .08, -.08, K 40, -3.2 -> -3 -> 1497; Rp 2100 - 800 = 1300.
# Player 4 (unrated): forfeit not played; won vs 1500: N 1, W 1;
#   Ru: Ra (1500 + 3600)/3 = 1700, p 2/3 = .67 -> +125 = 1825, but 1 game; Rp 1500 + 800.
SW_RATINGS = [2100.0, 1800.0, 1500.0, 1300.0]
SW_K = [20.0, 40.0, 40.0, None]
SW_OPPONENTS = [[3.0, 2.0], [4.0, 1.0], [1.0, 4.0], [2.0, 3.0]]
SW_RESULTS = [[1.0, "½"], ["+", "="], [0.0, 0.0], ["-", 1.0]]
# Rc (the opponents' average in the N games, .5 up): 1 (1500 + 1800)/2 = 1650; 2 2100 (the
#   forfeit not counted); 3 2100 (player 4 unrated); 4 1500.
SW_EXPECTED = [
    [2, 1.5, 1.77, -0.27, 20, -5.4, -5, 2095, 1843, "", 1650],
    [1, 0.5, 0.15, 0.35, 40, 14.0, 14, 1814, 2100, "", 2100],
    [1, 0.0, 0.08, -0.08, 40, -3.2, -3, 1497, 1300, "", 2100],
    [1, 1.0, "", "", "", "", "", "", 2300,
     "not published: only 1 game against rated opponents; at least 5 are needed", 1500],
]


def test_event_swiss_by_hand():
    assert FIDE_EVENT_SWISS(SW_RATINGS, SW_K, SW_OPPONENTS, SW_RESULTS) == SW_EXPECTED


def test_event_swiss_byes_blank_rows_and_errors():
    ratings = SW_RATINGS + [None]
    ks = SW_K + [None]
    opps = SW_OPPONENTS + [[None, 0.0]]
    res = SW_RESULTS + [[None, None]]
    assert FIDE_EVENT_SWISS(ratings, ks, opps, res)[4] == [""] * 11
    # a bye (no opponent) scores but is not rated
    res_bye = [list(r) for r in res]
    res_bye[4] = ["H", None]
    ratings_bye = SW_RATINGS + [1600.0]
    out = FIDE_EVENT_SWISS(ratings_bye, SW_K + [20.0], opps, res_bye)
    assert out[4][:8] == [0, 0.0, 0.0, 0.0, 20, 0.0, 0, 1600]
    bad = [list(r) for r in SW_OPPONENTS]
    bad[1][1] = 3.0
    with pytest.raises(ValueError, match="opponents row 1 round 2 is 2 but row 2 round 2 is 3"):
        FIDE_EVENT_SWISS(SW_RATINGS, SW_K, bad, SW_RESULTS)
    bad = [list(r) for r in SW_OPPONENTS]
    bad[0][0] = 9.0
    with pytest.raises(ValueError, match="opponents row 1 round 1 must be at most 4, got 9"):
        FIDE_EVENT_SWISS(SW_RATINGS, SW_K, bad, SW_RESULTS)
    bad = [list(r) for r in SW_OPPONENTS]
    bad[0][0] = 1.0
    with pytest.raises(ValueError,
                       match="opponents row 1 round 1 is the player's own row number 1"):
        FIDE_EVENT_SWISS(SW_RATINGS, SW_K, bad, SW_RESULTS)
    with pytest.raises(ValueError, match="results must be 4 rows by 2 rounds"):
        FIDE_EVENT_SWISS(SW_RATINGS, SW_K, SW_OPPONENTS, [r[:1] for r in SW_RESULTS])


# ------------------------------------------------------------------------ doctor

def test_doctor_here():
    lines, ok = doctor()
    text = "\n".join(lines)
    assert sys.executable in text
    assert "xl_fide.udfs: imports, 17 FIDE_* functions" in text
    assert ok is ("PROBLEM:" not in text)


def test_doctor_windows_problems(tmp_path, monkeypatch):
    monkeypatch.setenv("APPDATA", str(tmp_path / "AppData"))
    exe = tmp_path / "venv" / "Scripts" / "python.exe"
    lines, ok = checks(platform="win32", home=tmp_path, executable=str(exe),
                       prefix=str(tmp_path / "venv"), xlwings_version="0.37.8")
    text = "\n".join(lines)
    assert not ok
    assert "xlwings64-0.37.8.dll" in text
    assert "pip install --force-reinstall xlwings==0.37.8" in text
    assert "xlwings addin install" in text
    # the DLL beside the venv root (the VBA's second look-up) is found
    (tmp_path / "venv").mkdir(parents=True, exist_ok=True)
    (tmp_path / "venv" / "xlwings64-0.37.8.dll").write_bytes(b"")
    lines, _ = checks(platform="win32", home=tmp_path, executable=str(exe),
                      prefix=str(tmp_path / "venv"), xlwings_version="0.37.8")
    assert any(line.startswith("xlwings DLL: ") and line.endswith("xlwings64-0.37.8.dll")
               for line in lines)


def test_doctor_reads_the_user_config(tmp_path):
    path = user_config_path("linux", tmp_path)
    assert path == tmp_path / ".xlwings" / "xlwings.conf"
    path.parent.mkdir()
    path.write_text('"INTERPRETER_WIN","C:\\nowhere\\python.exe"\n"UDF MODULES","xl_fide.udfs"\n',
                    encoding="utf-8")
    assert read_user_config(path) == {"INTERPRETER_WIN": "C:\\nowhere\\python.exe",
                                      "UDF MODULES": "xl_fide.udfs"}
    lines, ok = checks(platform="win32", home=tmp_path, xlwings_version=None)
    text = "\n".join(lines)
    assert "UDF MODULES: xl_fide.udfs" in text
    assert "C:\\nowhere\\python.exe does not exist" in text
    assert "xlwings is not installed" in text and not ok
    assert user_config_path("darwin", tmp_path).parts[-3:] == (
        "com.microsoft.Excel", "Data", "xlwings.conf")


# -------------------------------------------------------------------------- docs

def test_every_function_is_documented_for_excel_users():
    text = docs_text()
    for name in udfs.__all__:
        assert f"`{name}(" in text, name
    assert "# Classic Excel on Windows" in text
    assert "# Excel on Mac and the web: xlwings Lite" in text


def test_lite_main_py_of_the_readme_brings_every_function():
    # the main.py block of the README's Lite section, run as Lite would run it
    text = docs_text()
    code = [line.strip() for line in text.splitlines() if line.strip().startswith("from xl_fide.udfs import *")]
    assert code, "the README shows no main.py line"
    names: dict = {}
    exec(code[0], names)
    assert {n for n in names if n.startswith("FIDE_")} == set(udfs.__all__)
