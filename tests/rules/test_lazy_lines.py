"""The calculation lines an engine-built change makes only when read (issue 23) are
the lines the change was computed from: in every thread, and whatever the caller does
with its own list afterwards.

Expected values by hand (FIDE B.02 table 8.1.2, §8.3): Ro 2000 beats 1900 (D +100,
PD .64, ΔR +0.36) and loses to 2100 (D -100, PD .36, ΔR -0.36): N 2, ΣΔR 0.
"""

import sys
import threading

from xl_fide.rules.editions import rules_for
from xl_fide.rules.event import Entrant, rate_crosstable
from xl_fide.rules.rating import rate_period_checked
from xl_fide.rules.results import GameResult


def test_lines_read_in_several_threads_at_once():
    # the first reader removed the pairs before its lines were made: a second thread
    # reading the same change then failed with KeyError('_pairs')
    win, loss = GameResult(2, True, "1"), GameResult(0, True, "0")
    n = 600
    entrants = [Entrant(i, 1500 + i % 700, 20, ((i % n + 1, win if i % 2 else loss),))
                for i in range(1, n + 1)]
    calcs = [r.calc for r in rate_crosstable(entrants, rules_for(None))]
    errors: list[BaseException] = []
    seen: list[list[int]] = []

    def read() -> None:
        mine = []
        for c in calcs:
            try:
                mine.append(len(c.games))
            except Exception as exc:       # noqa: BLE001 - any failure is the finding
                errors.append(exc)
        seen.append(mine)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=read) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
    assert all(lengths == [1] * n for lengths in seen)


def test_lines_are_the_games_rated_not_the_callers_list_changed_later():
    edition = rules_for(None)
    pairs = [(1900, 2), (2100, 0)]
    change = rate_period_checked(2000, [("Club Cup", 2000, edition, pairs)], 20)
    pairs.append((1500, 2))
    pairs[0] = (2600, 0)
    event = change.events[0]
    assert (event.N, event.sum_delta_R) == (2, 0)
    assert [(g.R_opp, g.score_half) for g in event.games] == [(1900, 2), (2100, 0)]
    assert [g.delta_R for g in event.games] == [36, -36]
