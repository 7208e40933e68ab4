"""A user trial: a TRF whose start date reads ``3/2/2024`` was rated as of 3 February
2024 (the 2022 rules) without a word, while read month first (2 March 2024) the 2024
rules apply (B.02 as in force from 1 March 2024: the 1400 floor, the adjustment, the
new initial-rating rule). The report now says so, unless the round dates (132, written
year first) settle it, or the two readings fall under the same rules."""

import datetime as _dt

from tests.harness.trf_lines import player_line, trf
from xl_fide.event.report import build_report
from xl_fide.event.resolve import event_rules
from xl_fide.rules.editions import EventOptions
from xl_fide.trf import parse_trf

ROUND_DATES = "132" + " " * 88 + "{}  {}"


def _event(start: str, rounds: list[str] | None = None):
    head = {"012": "Open", "042": start, "122": "90 min"}
    players = [player_line(1, "A", 1800, rounds=[(2, "w", "1"), (2, "b", "0")]),
               player_line(2, "B", 1700, rounds=[(1, "b", "0"), (1, "w", "1")])]
    extra = [ROUND_DATES.format(*rounds)] if rounds else []
    return parse_trf(trf(head, players, extra), source="open.trf")


def _said(t) -> list[str]:
    return [n for n in event_rules(t).notes if "read the other way round" in n]


def test_a_start_date_either_way_round_across_rules_is_said():
    t = _event("3/2/2024")
    assert t.start_date == _dt.date(2024, 2, 3)            # read day first, as before
    (note,) = _said(t)
    assert "2024-02-03" in note and "2024-03-02" in note and "--event-date" in note
    assert note in build_report(t).notes


def test_round_dates_or_the_same_rules_settle_it():
    assert _said(_event("3/2/2024", ["24/02/03", "24/02/04"])) == []   # 132 agrees
    assert _said(_event("10/06/2018")) == []             # 10 Jun or 6 Oct 2018: same rules
    assert _said(_event("2024/02/03")) == []             # year first: not ambiguous
    assert _said(_event("13/02/2024")) == []             # 13 is no month
    t = _event("3/2/2024")
    assert [n for n in event_rules(t, EventOptions(event_date=_dt.date(2024, 2, 3))).notes
            if "other way round" in n] == []             # the date given settles it


def test_a_k_given_for_everyone_is_said_in_the_notes():
    # A user trial: `report --k 5` printed a report that could not be told from one by
    # the rules (the K column shows 5, nothing else says it was forced)
    t = _event("2024/06/03")
    assert [n for n in build_report(t).notes if "given for every" in n] == []
    (twenty,) = [n for n in build_report(t, EventOptions(k=20)).notes if "given for every" in n]
    assert twenty.startswith("K 20 given for every rated player") and "no K" not in twenty
    (five,) = [n for n in build_report(t, EventOptions(k=5)).notes if "given for every" in n]
    assert "5 is no K of the rules: 40, 20, 10" in five
