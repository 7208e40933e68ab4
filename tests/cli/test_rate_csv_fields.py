"""A user trial: ``rate --format csv`` had ``K`` = the K used (35 after the K x n <= 700
cap) where its JSON has ``K`` 40 and ``K_used`` 35. The CSV has the JSON's fields, with
the same names and values: one line per event, then the ``period`` line."""
from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

from xl_fide.cli._main import main


def run(capsys, *argv):
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr().out


DRAWS = ["--rating", "1800", "--k", "40", "--date", "2025-03-01", *["--game=1800:½"] * 20]


def test_k_and_k_used_as_in_the_json(capsys):
    # K 40 given, 20 games: 40 x 20 = 800 > 700, K used 700 / 20 = 35 (B.02 §8.3.3)
    rows = list(csv.DictReader(io.StringIO(run(capsys, "rate", *DRAWS, "--format", "csv"))))
    assert [r["event"] for r in rows] == ["games", "period"]
    assert [(r["K"], r["K_used"], r["N"]) for r in rows] == [("40", "35", "20")] * 2
    assert rows[1]["K_source"] == "given"


def _same(cell: str, value: object) -> bool:
    """A CSV cell written for a JSON value (null blank, true yes, points two decimals)."""
    if value is None:
        return cell == ""
    if isinstance(value, bool):
        return cell == ("yes" if value else "no")
    if isinstance(value, float):
        return Decimal(cell) == Decimal(repr(value))
    return cell == str(value)


def test_every_field_of_the_json_is_in_the_csv(capsys, tmp_path):
    games = tmp_path / "g.csv"
    games.write_text("event,event_start,event_end,opponent_rating,result\n"
                     "Open A,2025-03-01,2025-03-02,1700,1\n"
                     "Open A,2025-03-01,2025-03-02,1900,½\n"
                     "Open B,2025-03-10,2025-03-12,unrated,1\n", encoding="utf-8")
    for opts in (["--rating", "1800", "--k", "20"], ["--rating", "unrated"]):
        doc = json.loads(run(capsys, "rate", games, *opts, "--format", "json"))
        rows = list(csv.DictReader(io.StringIO(run(capsys, "rate", games, *opts,
                                                   "--format", "csv"))))
        assert len(rows) == len(doc["events"]) + 1
        for ev, row in zip(doc["events"], rows):
            for key, value in ev.items():
                if key != "games":
                    assert _same(row[key], value), (key, row[key], value)
        period = rows[-1]
        assert period["event"] == "period"
        for key, value in doc.items():
            if not isinstance(value, (list, dict)):
                assert _same(period[key], value), (key, period[key], value)
        if opts[1] == "1800":
            # by hand (K 20): Open A D +100 PD 0.64 ΔR +0.36, D -100 PD 0.36 ΔR +0.14:
            # ΣΔR 0.50, K×ΣΔR 10.00; Open B's unrated opponent is not rated: 10 -> 1810
            assert (rows[0]["sum_delta_R"], rows[0]["change"], rows[0]["N"]) == (
                "0.50", "10.00", "2")
            assert (period["change"], period["rating_change"], period["new_rating"]) == (
                "10.00", "10", "1810")
