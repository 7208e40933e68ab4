"""A user trial: ``period``'s CSV and JSON showed ``K given`` 20 where no K was given (the
rule's K), and its table called ΣΔR ``chg`` while the report's ``Chg`` is the rounded
change. ``K given`` is blank (null) unless a K was given (``--k``, player data), ``K
from`` / ``k_source`` say where K came from in the report's words, and the table names
the sums as the report does (ΣΔR, K×ΣΔR)."""
from __future__ import annotations

import csv
import io
import json

import pytest

from xl_fide.cli._main import main


def _event(folder, name, day, result_1, result_2):
    """Two players rated 1800, one game (FIDE ids 1000001, 1000002), on ``day``."""
    text = "\n".join([
        f"012 {name}", f"042 2025/03/{day:02d}", f"052 2025/03/{day:02d}",
        "001    1 m    Alpha, A                          1800 SUI     1000001 1990/01/01"
        f"  {1 if result_1 == '1' else 0.5 if result_1 == '=' else 0:.1f}    1     2 w {result_1}",
        "001    2 m    Beta, B                           1800 SUI     1000002 1991/01/01"
        f"  {1 if result_2 == '1' else 0.5 if result_2 == '=' else 0:.1f}    2     1 b {result_2}",
    ]) + "\n"
    path = folder / f"{name.replace(' ', '_')}.trf"
    path.write_text(text, encoding="ascii")
    return str(path)


@pytest.fixture
def events(tmp_path):
    # Alpha beats Beta twice (D 0: PD 0.50, ΔR +0.50 a game, B.02 §8.1.2)
    return [_event(tmp_path, "Open A", 1, "1", "0"), _event(tmp_path, "Open B", 8, "1", "0")]


def run(capsys, *argv):
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr().out


def test_no_k_given_leaves_k_given_blank(events, capsys):
    rows = list(csv.DictReader(io.StringIO(run(capsys, "period", *events, "--format", "csv",
                                               "-q"))))
    assert len(rows) == 6 and list(rows[0])[-1] == "K from"
    # K 20 by the rule (B.02 §8.3.3: under 2400, born 1990 and 1991): nothing given
    assert {(r["K"], r["K given"], r["K from"]) for r in rows} == {("20", "", "rule")}
    doc = json.loads(run(capsys, "period", *events, "--format", "json", "-q"))
    assert {(p["k"], p["k_given"], p["k_source"]) for p in doc["players"]} == {(20, None, "rule")}


def test_a_k_given_is_shown_with_where_it_came_from(events, capsys, tmp_path):
    rows = list(csv.DictReader(io.StringIO(run(capsys, "period", *events, "--k", "30",
                                               "--format", "csv", "-q"))))
    assert {(r["K"], r["K given"], r["K from"]) for r in rows} == {("30", "30", "given")}
    data = tmp_path / "list.csv"
    data.write_text("FIDE ID,Name,Ro,K\n1000001,\"Alpha, A\",1800,40\n"
                    "1000002,\"Beta, B\",1800,10\n", encoding="utf-8")
    doc = json.loads(run(capsys, "period", *events, "--player-data", data, "--format",
                         "json", "-q"))
    assert [(p["k"], p["k_given"], p["k_source"]) for p in doc["players"]] == [
        (40, 40, "list"), (10, 10, "list")]


def test_the_table_names_the_sums_as_the_report_does(events, capsys):
    out = run(capsys, "period", *events, "-q")
    # Alpha: ΣΔR 0.50 an event, K 20: K×ΣΔR +10.00 each, +20.00 in all -> +20 (signed as report)
    assert "  Open A: Ro 1800, 1 games [1800:1] ΣΔR 0.50, K 20, K×ΣΔR +10.00" in out
    assert "  total: K×ΣΔR +20.00 -> +20, new rating 1820" in out
    assert " chg " not in out and "K·chg" not in out
