"""A date option whose day and month could swap is refused in every command (found by
a user trial of issue 33 #3: ``report --event-date 3/2/2024`` read 3 February, before the
1 March 2024 rules, where an en-US user meant 2 March)."""
from __future__ import annotations

import pytest

from xl_fide.cli._main import main


@pytest.mark.parametrize("argv", [
    ["report", "--example", "--event-date"],
    ["crosstable", "--example", "-o", "never.xlsx", "--event-date"],
    ["rate", "--game", "2000:1", "--rating", "2000", "--k", "20", "--date"],
])
def test_a_date_that_reads_both_ways_is_refused(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main([*argv, "3/2/2024"]) == 2
    err = capsys.readouterr().err
    assert "either way round" in err and "YYYY-MM-DD" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", ["13/2/2024", "2024-02-03", "3 Feb 2024", "2/2/2024"])
def test_a_date_that_reads_one_way_is_taken(text, capsys):
    assert main(["report", "--example", "--event-date", text, "--format", "json"]) == 0
    assert '"event_date": "2024-02-' in capsys.readouterr().out
