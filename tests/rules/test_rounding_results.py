"""Exact rounding (FIDE B.02 §8.3.4: .5 away from zero) and the result vocabulary."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xl_fide.errors import InputError
from xl_fide.rules.results import parse_result
from xl_fide.rules.rounding import hundredths_to_str, round_half_away, round_half_up


@pytest.mark.parametrize("num,expected", [
    (50, 1), (-50, -1), (250, 3), (-250, -3), (249, 2), (-249, -2), (251, 3), (-251, -3),
    (0, 0), (1690, 17), (-1690, -17), (150, 2), (-150, -2),   # Python round(-1.5) == -2, round(2.5) == 2
])
def test_round_half_away(num, expected):
    assert round_half_away(num, 100) == expected


def test_round_half_away_is_not_bankers():
    assert round(2.5) == 2 and round_half_away(250, 100) == 3
    assert round(-0.5) == 0 and round_half_away(-50, 100) == -1


@given(st.integers(-10**6, 10**6))
def test_round_half_away_is_odd_symmetric(n):
    assert round_half_away(-n, 100) == -round_half_away(n, 100)


def test_round_half_up():
    assert round_half_up(375, 10) == 38 and round_half_up(-5, 2) == -2 and round_half_up(21990, 9) == 2443


def test_hundredths_to_str():
    assert [hundredths_to_str(v) for v in (-250, 5, 0, 2720, -7)] == ["-2.50", "0.05", "0.00", "27.20", "-0.07"]


@pytest.mark.parametrize("text", ["½", "=", "0.5", "1/2", "½-½", "0.5-0.5", 0.5, "1/2-1/2", " = "])
def test_draw_spellings(text):
    r = parse_result(text)
    assert (r.half_points, r.played) == (1, True)


@pytest.mark.parametrize("text,half,played", [
    ("1", 2, True), ("1-0", 2, True), (1.0, 2, True), (1, 2, True),
    ("0", 0, True), ("0-1", 0, True), (0.0, 0, True),
    ("+", 2, False), ("-", 0, False), ("H", 1, False), ("u", 2, False), ("Z", 0, False),
])
def test_result_vocabulary(text, half, played):
    r = parse_result(text)
    assert (r.half_points, r.played) == (half, played)


def test_blank_is_no_game_and_junk_is_an_error():
    assert parse_result(None) is None and parse_result("  ") is None
    # the message lists every spelling family a TRF arbiter types: = and 1-0 too, the
    # not-rated W D L and the bye codes, and stays short enough for a cell
    msg = "result must be 1, ½, 0, + or - (or = 1-0 0-1 ½-½, W D L, a bye H F U Z), got 'x'"
    with pytest.raises(InputError, match=re.escape(msg)):
        parse_result("x")
    with pytest.raises(InputError) as info:
        parse_result("x" * 500)
    assert len(str(info.value)) < 120 and str(info.value).endswith("xxx…")
    with pytest.raises(InputError):
        parse_result(0.7)
