"""Issue 34 #4: ``xl-fide period --format table|csv|json`` and ``-o`` as ``report`` takes
them. The CSV and JSON parse, and each of their numbers is the table's."""

import csv
import io
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from xl_fide.cli._main import main

DATA = Path(__file__).parents[1] / "data" / "trf"
# two events of other months pooled on purpose: an event over 30 days rated by month,
# unrated players with and without an initial rating, FIDE ids and none
FILES = [str(DATA / "san_viator_2018_swiss.trf"), str(DATA / "gros_2010_swiss_after_round4.trf")]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


HEAD = re.compile(r"^(?P<name>.+?)(?: \((?P<id>\d+)\))?: (?:Ro (?P<Ro>\d+), K (?P<K>\d+)"
                  r"(?: \(capped from (?P<Kg>\d+)\))?|unrated, (?:initial rating (?P<Ru>\d+) "
                  r"\((?P<N>\d+) games\)|no initial rating.*))$")
# a change as the report writes it: +2.20, 0.00, -5.60 (a gain with its sign, none for 0)
CHANGE = r"(?:[+-](?!0\.00)\d+\.\d\d|0\.00)"
EVENT = re.compile(r"^  (?P<event>.+): Ro (?P<Ro>\d+), (?P<N>\d+) games \[(?P<games>[^\]]*)\] "
                   r"ΣΔR (?P<chg>-?\d+\.\d\d), K (?P<K>\d+), K×ΣΔR (?P<Kchg>" + CHANGE + ")$")
TOTAL = re.compile(r"^  total: K×ΣΔR (?P<Kchg>" + CHANGE + r") -> (?P<chg>[+-][1-9]\d*|0), "
                   r"new rating (?P<new>\d+)(?: \((?P<pub>.*): listed as unrated\))?$")


def table_players(text):
    """The table's players in order: a dict of its numbers, with ``events``."""
    players = []
    for line in text.splitlines():
        if line.startswith(("Rating period: ", "note: ")):
            continue
        if (m := EVENT.match(line)):
            players[-1]["events"].append(m.groupdict())
        elif (m := TOTAL.match(line)):
            players[-1]["total"] = m.groupdict()
        else:
            m = HEAD.match(line)
            assert m, line
            players.append({**m.groupdict(), "events": [], "total": None})
    return players


@pytest.fixture(scope="module")
def outputs():
    import contextlib
    texts = {}
    for fmt in ("table", "csv", "json"):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["period", *FILES, "--span", "--format", fmt]) == 0
        texts[fmt] = buf.getvalue()
    return texts


def test_the_table_is_the_default(outputs, capsys, tmp_path):
    code, out, _ = run(capsys, "period", *FILES, "--span")
    assert code == 0 and out == outputs["table"]
    assert run(capsys, "period", *FILES, "--span", "-o", str(tmp_path / "p.txt"))[0] == 0
    assert (tmp_path / "p.txt").read_text(encoding="utf-8") == outputs["table"]


def test_csv_numbers_are_the_tables(outputs):
    table = table_players(outputs["table"])
    rows = list(csv.DictReader(io.StringIO(outputs["csv"])))
    assert list(rows[0]) == ["Name", "FIDE id", "Event", "Ro", "K", "K given", "N", "ΣΔR",
                             "K×ΣΔR", "Chg", "New", "Ru", "note", "K from"]
    it = iter(rows)
    rated = unrated = 0
    for p in table:
        if p["Ro"] is not None:
            rated += 1
            for ev in p["events"]:
                row = next(it)
                assert (row["Name"], row["FIDE id"], row["Event"]) == (p["name"], p["id"] or "",
                                                                       ev["event"])
                assert (row["Ro"], row["K"], row["N"], row["ΣΔR"], row["K×ΣΔR"]) == (
                    ev["Ro"], ev["K"], ev["N"], ev["chg"], ev["Kchg"])
                # no --k, no player data: K by the rule (B.02 §8.3.3), none given
                assert (row["K given"], row["K from"]) == ("", "rule")
            row = next(it)
            total = p["total"]
            assert (row["Name"], row["Event"], row["Ro"], row["K"]) == (p["name"], "", p["Ro"],
                                                                        p["K"])
            assert (row["K×ΣΔR"], row["Chg"], row["New"]) == (total["Kchg"], total["chg"],
                                                              total["new"])
            assert int(row["N"]) == sum(int(ev["N"]) for ev in p["events"])
            assert Decimal(row["ΣΔR"]) == sum(Decimal(ev["chg"]) for ev in p["events"])
            assert row["note"] == (total["pub"] or "")
        else:
            unrated += 1
            row = next(it)
            assert (row["Name"], row["Ro"], row["Event"]) == (p["name"], "unrated", "")
            assert row["Ru"] == (p["Ru"] or "-")
            if p["Ru"]:
                assert row["N"] == p["N"]
            else:
                assert row["note"]              # why there is none
    assert next(it, None) is None and rated > 100 and unrated > 5


def test_json_numbers_are_the_tables(outputs):
    table = table_players(outputs["table"])
    doc = json.loads(outputs["json"])
    assert [p["name"] for p in doc["players"]] == [p["name"] for p in table]
    assert doc["notes"] == [l[6:] for l in outputs["table"].splitlines() if l.startswith("note: ")]

    def points(value):       # a JSON number of points (hundredths as the report writes them)
        assert isinstance(value, (int, float)) and not isinstance(value, bool)
        return Decimal(str(value))

    for p, j in zip(table, doc["players"]):
        assert j["fide_id"] == (int(p["id"]) if p["id"] else None)
        if p["Ro"] is None:
            assert (j["rating"], j["k"], j["new_rating"]) == (None, None, None)
            assert j["initial_rating"] == (int(p["Ru"]) if p["Ru"] else None)
            continue
        assert type(j["rating"]) is int and type(j["k"]) is int and type(j["new_rating"]) is int
        assert (j["rating"], j["k"], j["k_given"], j["k_source"]) == (int(p["Ro"]), int(p["K"]),
                                                                      None, "rule")
        total = p["total"]
        assert (points(j["change"]), j["rating_change"], j["new_rating"]) == (
            Decimal(total["Kchg"]), int(total["chg"]), int(total["new"]))
        assert j["published"] is (total["pub"] is None)
        assert len(j["events"]) == len(p["events"])
        for ev, je in zip(p["events"], j["events"]):
            assert (je["event"], je["rating"], je["games_rated"]) == (ev["event"], int(ev["Ro"]),
                                                                       int(ev["N"]))
            assert (points(je["sum_delta_R"]), points(je["change"])) == (
                Decimal(ev["chg"]), Decimal(ev["Kchg"]))
            marks = {1: "1", 0.5: "½", 0: "0"}
            shown = " ".join(f"{g['opponent_rating']}:{marks[g['score']]}" for g in je["games"])
            assert shown == ev["games"]


def test_the_output_is_chosen_by_its_name(capsys, tmp_path, outputs):
    for name, fmt in (("p.csv", "csv"), ("p.json", "json")):
        assert run(capsys, "period", *FILES, "--span", "-o", str(tmp_path / name))[0] == 0
        assert (tmp_path / name).read_text(encoding="utf-8") == outputs[fmt]
    code, _, err = run(capsys, "period", *FILES, "--span", "--format", "csv", "-o",
                       str(tmp_path / "q.json"))
    assert code == 2 and "--format csv but the name ends in .json" in err
    assert not (tmp_path / "q.json").exists()


def test_an_existing_output_or_an_input_is_not_overwritten(capsys, tmp_path):
    out = tmp_path / "p.csv"
    out.write_text("keep")
    code, _, err = run(capsys, "period", *FILES, "--span", "-o", str(out))
    assert code == 2 and err.strip().endswith("exists: not overwritten (use --force)")
    assert out.read_text() == "keep"
    assert run(capsys, "period", *FILES, "--span", "-o", str(out), "--force")[0] == 0
    assert out.read_text(encoding="utf-8").startswith("Name,FIDE id,Event,")
    # a TRF named .txt given as an input and as the output: never written over
    trf = tmp_path / "event.txt"
    trf.write_bytes(Path(FILES[1]).read_bytes())
    before = trf.read_bytes()
    code, _, err = run(capsys, "period", str(trf), "-o", str(trf), "--force")
    assert code == 2 and "refusing to overwrite the input file" in err
    assert trf.read_bytes() == before
