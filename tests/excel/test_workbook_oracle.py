"""The engine and the recalculated workbook against an oracle written here from the
regulations, not from xl_fide's rating code (issue 9: a workbook-vs-engine test that
checks something the code under test does not itself define).

The oracle (FIDE B.02 as in force 2017-2021, the rules of both real events here):
table 8.1.2 transcribed band by band below; D = |Ro - R_opp| with a difference of
more than 400 counted as 400 (§8.3.1, every game before 2022); only games 1 = 0
against a rated opponent are rated (byes, forfeits, unrated opponents are not);
a rating below 1000 is no rating (floor of the 2017 rules); ΔR = S - PD; change =
K x ΣΔR with K 20 for everyone here (given, so no K rule is involved; n <= 9 games,
so K x n <= 700 never caps), rounded once, .5 away from zero (§8.3.4).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xl_fide.rules.editions import EventOptions
from xl_fide.event.report import build_report
from xl_fide.trf import read_trf

DATA = Path(__file__).parents[1] / "data" / "trf"
EVENTS = [DATA / "san_viator_2018_swiss.trf", DATA / "gros_2010_swiss_after_round4.trf"]
K = 20

# FIDE B.02 table 8.1.2: (lowest D of the band, PD of the higher-rated player in hundredths)
_BANDS = [
    (0, 50), (4, 51), (11, 52), (18, 53), (26, 54), (33, 55), (40, 56), (47, 57), (54, 58),
    (62, 59), (69, 60), (77, 61), (84, 62), (92, 63), (99, 64), (107, 65), (114, 66),
    (122, 67), (130, 68), (138, 69), (146, 70), (154, 71), (163, 72), (171, 73), (180, 74),
    (189, 75), (198, 76), (207, 77), (216, 78), (226, 79), (236, 80), (246, 81), (257, 82),
    (268, 83), (279, 84), (291, 85), (303, 86), (316, 87), (329, 88), (345, 89), (358, 90),
    (375, 91), (392, 92), (412, 93), (433, 94), (457, 95), (485, 96), (518, 97), (560, 98),
    (620, 99), (736, 100),
]


def _pd(own: int, opp: int) -> int:
    D = min(abs(own - opp), 400)
    high = max(pd for low, pd in _BANDS if low <= D)
    return high if own >= opp else 100 - high


def _round_away(hundredths: int) -> int:
    whole, rest = divmod(abs(hundredths), 100)
    return (whole + (rest >= 50)) * (1 if hundredths >= 0 else -1)


def oracle(t) -> dict[int, tuple[int, int, int, int, int]]:
    """start rank -> (N, W in half points, ΣPD, K x ΣΔR, new rating) of each rated player."""
    rating = {p.start_rank: (p.rating if p.rating and p.rating >= 1000 else None)
              for p in t.players}
    out = {}
    for p in t.players:
        Ro = rating[p.start_rank]
        if Ro is None:
            continue
        n = w = pd = 0
        for g in p.games:
            if g.round > t.rounds or g.code not in ("1", "=", "0") or g.opponent is None:
                continue
            opp = rating[g.opponent]
            if opp is None:
                continue
            n += 1
            w += {"1": 2, "=": 1, "0": 0}[g.code]
            pd += _pd(Ro, opp)
        change = K * (50 * w - pd)          # W in hundredths is 50 x half points
        out[p.start_rank] = (n, w, pd, change, Ro + _round_away(change))
    return out


def test_oracle_by_hand():
    assert _pd(2000, 1600) == 92 and _pd(1600, 2000) == 8 and _pd(2000, 1000) == 92
    # band edges 3/4; 400/401 both count as 400 (.92)
    assert [_pd(1500 + d, 1500) for d in (3, 4, 400, 401, 735)] == [50, 51, 92, 92, 92]
    assert _round_away(-250) == -3 and _round_away(250) == 3 and _round_away(-249) == -2


def _one_period(report):
    """The rows of the event as one rating period, as the oracle rates it (over 30 days
    the report's comparison; its rows are then the month-by-month result)."""
    return report.comparison or report.rows


@pytest.mark.parametrize("path", EVENTS, ids=lambda p: p.name)
def test_engine_agrees_with_the_oracle(path):
    t = read_trf(path)
    expected = oracle(t)
    got = {r.result.start_rank: (r.result.N, r.result.W_half, r.result.sum_PD,
                                 r.result.change, r.result.new_rating)
           for r in _one_period(build_report(t, EventOptions(k=K))) if r.result.rated}
    assert len(expected) > 20 and got == expected


def test_recalculated_workbook_agrees_with_the_oracle(office, tmp_path):
    from tests.excel.test_workbook_lo import columns, rating_names, recalc
    from xl_fide.excel._layout import CROSS
    from xl_fide.excel._fill import fill_workbook
    t = read_trf(EVENTS[0])
    res, values, formulas = recalc(office, fill_workbook(build_report(t, EventOptions(k=K))),
                                   tmp_path, "oracle")
    assert res.errors == []
    # the oracle rates the event as one period: the one-period block's New, right of its
    # K×ΣΔR and Δ (RatingChange and NewRating cover the Result over the months of this
    # event over 30 days, issues 20 #5 and 32)
    n_col, change_col = columns(formulas, rating_names(formulas, ("RatedGames", "Change")))
    new_col = change_col + 2
    ws = values[CROSS]
    first = 5
    expected = oracle(t)
    for i, p in enumerate(sorted(t.players, key=lambda p: p.start_rank)):
        if p.start_rank not in expected:
            continue
        n, _, _, change, new = expected[p.start_rank]
        r = first + i
        assert (ws.cell(r, n_col).value, round(ws.cell(r, change_col).value * 100),
                ws.cell(r, new_col).value) == (n, change, new), f"row {r}"
