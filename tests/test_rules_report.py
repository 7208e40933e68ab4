"""The rules of issue 12 as the report, the period text and the JSON/CSV show them.
Expected values by hand from FIDE B.02 (PD from table 8.1.2) in the comments."""

import json

from trf_lines import player_line, trf
from xl_fide.presenters import format_period, to_csv, to_json, to_table
from xl_fide.report import build_report
from xl_fide.trf import parse_trf

HEAD = {"012": "Test", "042": "2025/11/01", "052": "2025/11/02", "122": "90 min + 30 sec"}


def report(text, **kw):
    return build_report(parse_trf(text, source="t.trf"), **kw)


def test_a_birth_year_after_the_event_does_not_give_k40():
    # issue 11: born "2100" for a 2025 event is no age: the junior rule cannot apply.
    # A (1800, nothing else known) -> K 20 (B.02 §8.3.3), with a note. A loses to B
    # (1800): PD .50 -> -.50 x 20 = -10 (K 40 would give -20).
    players = [player_line(1, "A", 1800, birth="2100/01/01", rounds=[(2, "w", "0")]),
               player_line(2, "B", 1800, rounds=[(1, "b", "1")])]
    rep = report(trf(HEAD, players))
    row = rep.rows[0].result
    assert (row.K, row.rating_change) == (20, -10)
    assert any("birth_year 2100 is after" in n and "player 1" in n for n in rep.notes)


def test_a_new_rating_below_1400_says_not_published_in_every_output():
    # issue 12 #3, B.02 §7.2.1. 2025 (floor 1400): A (1405, K 20) loses to B (1405):
    # PD .50 -> -10 -> 1395, below 1400: not published; B: +10 -> 1415, published.
    players = [player_line(1, "A", 1405, rounds=[(2, "w", "0")]),
               player_line(2, "B", 1405, rounds=[(1, "b", "1")])]
    rep = report(trf(HEAD, players), k=20)
    a, b = (r.result for r in rep.rows)
    assert (a.new_rating, a.published, b.new_rating, b.published) == (1395, False, 1415, True)
    text = "not published: below 1400"
    assert text in to_table(rep)
    assert text in to_csv(rep).splitlines()[1]
    doc = json.loads(to_json(rep))
    assert [p["published"] for p in doc["players"]] == [False, True]
    assert any(text in n for n in doc["notes"])


def test_period_text_says_not_published():
    from xl_fide.period import build_period
    head2 = dict(HEAD, **{"042": "2025/11/10", "052": "2025/11/11", "012": "Test 2"})
    players = [player_line(1, "A", 1405, rounds=[(2, "w", "0")]),
               player_line(2, "B", 1405, rounds=[(1, "b", "1")])]
    a = parse_trf(trf(HEAD, players), source="a.trf")
    b = parse_trf(trf(head2, players), source="b.trf")
    # A: -10 in each event -> 1385 (below 1400); B: +10 twice -> 1425
    text = format_period(build_period([a, b], k=20))
    assert "new rating 1385 (not published: below 1400" in text
    assert "new rating 1425\n" in text


def test_the_workbook_report_sheet_says_not_published():
    from xl_fide.workbook import fill_workbook
    players = [player_line(1, "A", 1405, rounds=[(2, "w", "0")]),
               player_line(2, "B", 1405, rounds=[(1, "b", "1")])]
    t = parse_trf(trf(HEAD, players), source="t.trf")
    ws = fill_workbook(t, report=build_report(t, k=20))["Report"]
    cells = [c.value for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert any(v == "not published: below 1400" for v in cells)


def test_a_february_2024_file_rated_for_march_is_adjusted_not_dropped():
    # issue 12 #6. The file starts 20 Feb 2024 (ratings of the February list); rated by
    # the rules of 1 Mar 2024 (floor 1400) the 1200 and 1300 would be no ratings. The
    # March list raised them: 1200 + 0.4 x 800 = 1520, 1300 + 0.4 x 700 = 1580.
    # A (1520, K 20) beats B (1580): D -60 -> PD .42 -> +.58 x 20 = +11.60 -> +12 -> 1532.
    import datetime as dt
    head = dict(HEAD, **{"042": "2024/02/20", "052": "2024/02/21"})
    players = [player_line(1, "A", 1200, rounds=[(2, "w", "1")]),
               player_line(2, "B", 1300, rounds=[(1, "b", "0")])]
    rep = report(trf(head, players), k=20, event_date=dt.date(2024, 3, 1))
    a = rep.rows[0].result
    assert (a.rating, a.N, a.rating_change, a.new_rating) == (1520, 1, 12, 1532)
    assert any("1200 -> 1520" in n for n in rep.notes)
    # rated by its own date (February rules, floor 1000) nothing is adjusted
    rep = report(trf(head, players), k=20)
    assert rep.rows[0].result.rating == 1200
