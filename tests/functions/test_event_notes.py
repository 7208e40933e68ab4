"""FIDE_EVENT and FIDE_EVENT_SWISS with ``notes="short"`` (issue 34 #1): a rating that is
not published as the code a cross-table cell shows (its key printed under the table),
the sentence otherwise (default, as before)."""
from __future__ import annotations

import pytest

from xl_fide.errors import InputError
from xl_fide.rules.notes import KEY
from xl_fide.udfs import FIDE_EVENT, FIDE_EVENT_SWISS

# Two players of 1405 (K 20), the first loses: D 0 -> PD .50 (table 8.1.2), W 0:
# ΣΔR -.50 x 20 = -10.00 -> 1395, below the floor 1400 (FIDE B.02 §7.2.1, from 1 Mar 2024)
RATINGS, KS, GRID = [1405, 1405], [20, 20], [[None, 0], [1, None]]
# A third player, unrated, drew both: 2 games against rated opponents, 5 needed (§8.2)
RATINGS3, KS3 = [1405, 1405, None], [20, 20, None]
GRID3 = [[None, 0, 0.5], [1, None, 0.5], [0.5, 0.5, None]]


def test_the_new_rating_below_the_floor():
    full = FIDE_EVENT(RATINGS, KS, GRID, "standard", "2025-10-01")
    short = FIDE_EVENT(RATINGS, KS, GRID, "standard", "2025-10-01", "short")
    assert full[0][7] == "not published: below 1400 (1395)"
    assert short[0][7] == "NP 1395"
    assert full[1][7] == short[1][7] == 1415
    assert FIDE_EVENT(RATINGS, KS, GRID, "standard", "2025-10-01", "full") == full


def test_an_initial_rating_with_too_few_games():
    full = FIDE_EVENT(RATINGS3, KS3, GRID3, "standard", "2025-10-01")
    short = FIDE_EVENT(RATINGS3, KS3, GRID3, "standard", "2025-10-01", "short")
    assert full[2][9] == ("not published: only 2 games against rated opponents; "
                          "at least 5 are needed")
    assert short[2][9] == "NP 2g"
    opponents = [[2, 3, None], [1, None, 3], [None, 1, 2]]       # rounds 1-3
    results = [[0, 0.5, None], [1, None, 0.5], [None, 0.5, 0.5]]
    swiss = FIDE_EVENT_SWISS(RATINGS3, KS3, opponents, results, "standard", "2025-10-01",
                             "short")
    assert swiss[2][9] == "NP 2g"


def test_a_bad_notes_argument_is_a_message():
    with pytest.raises(InputError, match='notes must be "full" or "short", got .long.'):
        FIDE_EVENT(RATINGS, KS, GRID, "standard", "2025-10-01", "long")


def test_the_key_names_every_code():
    assert [line.split(" = ")[0] for line in KEY] == ["NP 1395", "NP 3g", "NP 0g", "NP 0pt"]
