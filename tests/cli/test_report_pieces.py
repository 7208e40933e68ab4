"""Issue 35: ``xl-fide report`` writes its table a piece at a time from the table's
lines (``to_table_lines``), not from one copy of the whole text: the lines joined are
the table, for an event and for an event over 30 days rated month by month (its
tables one after the other, a blank line between them)."""

import shutil
from pathlib import Path

from tests.event.test_period_streaming import first_event
from xl_fide.cli._main import main
from xl_fide.cli._presenters import to_table, to_table_lines
from xl_fide.event.report import build_report
from xl_fide.trf import parse_trf

DATA = Path(__file__).resolve().parent.parent / "data" / "trf"


def test_the_lines_joined_are_the_table():
    report = build_report(first_event())
    lines = to_table_lines(report)
    assert "\n".join(lines) + "\n" == to_table(report)
    assert lines[0] == "A" and not any("\n" in line for line in lines)


def test_an_event_rated_month_by_month_keeps_a_blank_line_between_its_tables():
    report = build_report(parse_trf((DATA / "synthetic_league_5_months.trf").read_bytes()))
    assert report.months
    lines = to_table_lines(report)
    assert "\n".join(lines) + "\n" == to_table(report)
    starts = [i for i, line in enumerate(lines) if line.startswith("[")]
    assert [lines[i].split("]")[0] for i in starts] == [
        f"[{i}/{len(report.months)}" for i in range(1, len(report.months) + 1)]
    assert all(lines[i - 1] == "" for i in starts)


def test_the_command_writes_the_table(tmp_path, capsys):
    path = tmp_path / "league.trf"
    shutil.copy(DATA / "synthetic_league_5_months.trf", path)
    assert main(["report", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out == to_table(build_report(parse_trf(path.read_bytes())))
