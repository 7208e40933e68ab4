"""The event resolved once (FIDE B.02 §8.3: the rules, K and lists as on the event's
date): a given event date, a workbook's "Rules as on" date and the time control reach
every step, the list look-up, the report, the period and the months of a long event."""

import datetime as _dt
import json

import pytest
from openpyxl import load_workbook

from tests.harness.trf_lines import past_open, player_line, trf
from xl_fide.rules.editions import EventOptions
from xl_fide.event.report import build_report
from xl_fide.event.resolve import event_rules
from xl_fide.cli import main
from xl_fide.excel._layout import EVENT, EVENT_ROW
from xl_fide.trf import parse_trf


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- one resolver ---------------------------------------------------------------------

def test_the_resolver_takes_the_given_date_and_keeps_the_options():
    t = parse_trf(trf({"012": "E", "042": "2024/04/13", "052": "2024/04/14"}, [
        player_line(1, "A", 2000, rounds=[(2, "w", "1")]),
        player_line(2, "B", 2000, rounds=[(1, "b", "0")])]), source="e.trf")
    options = EventOptions(event_date=_dt.date(2023, 6, 1), time_control="rapid", k=20)
    rules = event_rules(t, options)
    # B.02 §8.3: the edition in force on the given date, for the given time control
    assert (rules.date, rules.edition.id, rules.k) == (
        _dt.date(2023, 6, 1), "FIDE-2022-10-01-rapid", 20)
    assert rules.options is options and rules.end_date == _dt.date(2024, 4, 14)
    # resolving resolved rules again gives the same rules
    assert event_rules(t, rules) == rules


# --- issue 18 #1: a workbook's "Rules as on" date picks the FIDE list -------------------

def _list_line(header, fide_id, name, rating, games, k):
    text = str(fide_id).ljust(15) + name.ljust(61) + "ESP M".ljust(37)
    text += rating.ljust(6) + games.ljust(4) + k.ljust(3)
    return text.ljust(152)


def test_report_of_a_workbook_takes_the_list_of_its_rules_date(tmp_path, capsys, monkeypatch):
    from pathlib import Path
    monkeypatch.setenv("XL_FIDE_STORE", str(tmp_path / "store" / "lists.sqlite"))
    header = (Path(__file__).parents[1] / "data" / "players" / "combined_foa.txt"
              ).read_text().splitlines()[0]
    # One, A: K 40 on the January 2024 list, K 20 on the March 2024 list.
    for month, k in (("jan24", "40"), ("mar24", "20")):
        path = tmp_path / f"standard_{month}frl.txt"
        path.write_text("\r\n".join([header, _list_line(header, 1001, "One, A", "2150", "9", k),
                                     _list_line(header, 1002, "Two, B", "2000", "0", "20")]) + "\r\n")
        assert run(capsys, "lists", "import", str(path))[0] == 0
    event = tmp_path / "e.trf"
    event.write_text(past_open())
    book = tmp_path / "book.xlsx"
    assert run(capsys, "crosstable", str(event), "-o", str(book))[0] == 0
    wb = load_workbook(book)
    wb[EVENT][f"B{EVENT_ROW['rules_date']}"].value = _dt.date(2024, 3, 5)
    wb.save(book)
    code, out, err = run(capsys, "report", str(book), "--lists", "--format", "json")
    assert code == 0, err
    # rules as on 5 March 2024: the list in force then is March's (B.02 §8.3.3), K 20;
    # D 150 -> PD .70 (table 8.1.2), a win +.30 x 20 = +6.00
    assert "player data from the store (standard lists: Ro 2024-03, K 2024-03)" in err
    one = json.loads(out)["players"][0]
    assert (one["k"], one["change"]) == (20, 6.0)


# --- issue 18 #2: period --event-date is applied --------------------------------------

PERIOD_EVENT = (
    "012 Spring Open\n042 2024/04/13\n052 2024/04/14\n122 90 min + 30 s\n"
    "001    1 m    One, A                            1405 ESP        1001 1980"
    "        1.0    1     2 w 1\n"
    "001    2 m    Two, B                            1405 ESP        1002 1980"
    "        0.0    2     1 b 0\n")


def test_period_applies_the_event_date(tmp_path, capsys):
    event = tmp_path / "e.trf"
    event.write_text(PERIOD_EVENT)
    # Two, B 1405 loses to 1405 with K 20: PD .50, -.50 x 20 = -10 -> 1395.
    # April 2024 rules (B.02 from 1 March 2024): below the 1400 floor, not published.
    code, today, err = run(capsys, "period", str(event), "--k", "20")
    assert code == 0, err
    assert "FIDE-2024-03-01-standard" in today and "not published" in today
    # As on 1 June 2023 (the 2022 rules, floor 1000): 1395 is published.
    code, past, err = run(capsys, "period", str(event), "--k", "20", "--event-date", "2023-06-01")
    assert code == 0, err
    assert "FIDE-2022-01-01-standard" in past and "not published" not in past
    assert "new rating 1395" in past
    # the same date gives report the same rules
    code, out, err = run(capsys, "report", str(event), "--k", "20", "--event-date",
                         "2023-06-01", "--format", "json")
    players = json.loads(out)["players"]
    assert players[1]["new_rating"] == 1395 and players[1]["published"] is True


# --- issue 18 #3: the months of a long event keep the given date ------------------------

def long_event():
    # round robin of four, rounds on 5 Oct, 19 Oct, 9 Nov 2025 (35 days): two months
    players = [player_line(1, "A", 2000, rounds=[(2, "w", "1"), (3, "w", "="), (4, "w", "0")]),
               player_line(2, "B", 1900, rounds=[(1, "b", "0"), (4, "w", "1"), (3, "w", "=")]),
               player_line(3, "C", 1800, rounds=[(4, "w", "1"), (1, "b", "="), (2, "b", "=")]),
               player_line(4, "D", 1700, rounds=[(3, "b", "0"), (2, "b", "0"), (1, "b", "1")])]
    return parse_trf(trf({"012": "Long", "042": "2025/10/05", "052": "2025/11/09",
                          "122": "90 min + 30 sec"}, players,
                         ["132" + " " * 88 + "25/10/05  25/10/19  25/11/09"]), source="l.trf")


@pytest.mark.parametrize("date, edition", [
    (_dt.date(2023, 6, 1), "FIDE-2022-01-01-standard"),
    (_dt.date(2024, 6, 1), "FIDE-2024-03-01-standard"),
])
def test_the_months_of_a_long_event_keep_the_given_date(date, edition):
    rep = build_report(long_event(), EventOptions(event_date=date, k=20))
    assert len(rep.months) == 2
    # every monthly report is rated by the rules as on the given date (B.02 §8.3)
    assert [m.edition.id for m in rep.months] == [edition, edition]
    assert [m.event_date for m in rep.months] == [date, date]
    assert rep.edition.id == edition
