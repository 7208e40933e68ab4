"""One date parser (xl_fide._dates) for TRF headers, workbook cells, options and UDFs."""

import datetime as dt

import pytest

from xl_fide._dates import parse_date_text
from xl_fide.rules.editions import parse_date, rules_for
from xl_fide.errors import RuleError


@pytest.mark.parametrize("text", ["2025-11-15", "2025/11/15", "2025.11.15", "15/11/2025",
                                  "15. 11. 2025", "Nov 15, 2025", "15 November 2025"])
def test_every_edge_reads_the_same_formats(text):
    assert parse_date_text(text) == (dt.date(2025, 11, 15), True)
    assert parse_date(text) == dt.date(2025, 11, 15)          # options, UDFs, rules_for


@pytest.mark.parametrize("text", ["2025-02-30", "tomorrow", "1" * 100, "15/13/2025x"])
def test_bad_dates_are_refused(text):
    with pytest.raises(RuleError):
        parse_date(text)


def test_rules_for_a_day_first_date():
    # 1 Oct 2025: the 2650 exemption edition (B.02 §8.3.1) is in force from that day
    assert rules_for("01/10/2025").id == "FIDE-2025-10-01-standard"
    assert rules_for("30/09/2025").id == "FIDE-2024-03-01-standard"
