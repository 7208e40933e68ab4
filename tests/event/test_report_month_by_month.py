"""Issue 32 #1-#2, issue 34 #2: an event over 30 days reports the month-by-month result
(what FIDE publishes), the one-period figure only as the comparison; the adjustment of
1 March 2024 applied once; each month labelled by its own month; FIDE id and Rc.

Every expected value is worked by hand below from FIDE B.02: PD from table 8.1.2
(reference §1), K from §8.3.3 (reference §4), each rating period's change rounded once,
.5 away from zero (§8.3.4), Rc the average of the opponents' ratings rounded .5 up
(reference §6), the adjustment R + round(0.4 x (2000 - R)) (reference §8).
"""

import csv
import datetime as _dt
import json

from tests.harness.trf_lines import player_line, trf, two_months_trf
from xl_fide.cli._presenters import to_csv, to_json, to_table
from xl_fide.event.report import build_report
from xl_fide.rules.editions import EventOptions
from xl_fide.trf import parse_trf

ROUND_DATES = "132" + " " * 88 + "{}  {}"


def two_months(start="2025/10/05", end="2025/11/09", dates=("25/10/05", "25/11/09")):
    """Rounds on 5 Oct and 9 Nov 2025 (35 days: over 30, two rating periods).
    R1: A-B =, C-D =; R2: A-B 1-0, C-D =."""
    return parse_trf(two_months_trf(start=start, end=end, dates=dates), source="two.trf")


# K (§8.3.3, no career games in a TRF: 30 or more assumed): A 1800 -> 20; B born 2010,
# under 2300 -> 40 (junior); C 2440, D 2405 -> 10 (2400 or more).
#
# October (round 1), the file's ratings:
#   A 1800 - B 1700 draw: D 100 -> PD .64. A: .50 - .64 = -.14 x 20 = -2.80 -> -3 -> 1797;
#     B: +.14 x 40 = +5.60 -> +6 -> 1706.
#   C 2440 - D 2405 draw: D 35 -> PD .55. C: -.05 x 10 = -0.50 -> -1 (.5 away from zero)
#     -> 2439; D: +.05 x 10 = +0.50 -> +1 -> 2406.
# November (round 2), October's new ratings:
#   A 1797 beats B 1706: D 91 -> .62. A: +.38 x 20 = +7.60 -> +8 -> 1805;
#     B: -.38 x 40 = -15.20 -> -15 -> 1691.
#   C 2439 - D 2406 draw: D 33 -> .55. C: -0.50 -> -1 -> 2438; D: +0.50 -> +1 -> 2407.
# The result, month by month: A -3 + 8 = +5 -> 1805; B +6 - 15 = -9 -> 1691;
#   C -1 - 1 = -2 -> 2438; D +1 + 1 = +2 -> 2407.
# As one period (for comparison only): A: PD .64 twice, W 1.5: +.22 x 20 = 4.40 -> +4 ->
#   1804; B: -.22 x 40 = -8.80 -> -9 -> 1691; C: -.10 x 10 = -1.00 -> -1 -> 2439; D 2406.
# Rc (.5 up): A (1700 + 1706) / 2 = 1703; B (1800 + 1797) / 2 = 1798.5 -> 1799;
#   C (2405 + 2406) / 2 = 2405.5 -> 2406; D (2440 + 2439) / 2 = 2439.5 -> 2440.
#   As one period: 1700, 1800, 2405, 2440.
RESULT = {1: (1800, 20, 2, 1805, 5, 1703), 2: (1700, 40, 2, 1691, -9, 1799),
          3: (2440, 10, 2, 2438, -2, 2406), 4: (2405, 10, 2, 2407, 2, 2440)}
COMPARISON = {1: (1804, 4, 1700), 2: (1691, -9, 1800), 3: (2439, -1, 2405), 4: (2406, 1, 2440)}


def test_the_rows_are_the_month_by_month_result():
    rep = build_report(two_months())
    assert [m.month for m in rep.months] == [_dt.date(2025, 10, 1), _dt.date(2025, 11, 1)]
    got = {r.result.start_rank: (r.result.rating, r.result.K, r.result.N, r.new_rating,
                                 r.rating_change, r.Rc) for r in rep.rows}
    assert got == RESULT
    # the same value through the result itself (the API the README shows)
    assert [r.result.new_rating for r in rep.rows] == [1805, 1691, 2438, 2407]
    # the months: A's change in each month, rounded there
    assert [m.rows[0].rating_change for m in rep.months] == [-3, 8]
    assert [m.rows[2].rating_change for m in rep.months] == [-1, -1]
    # K x ΣΔR summed over the months, unrounded: A -2.80 + 7.60 = +4.80
    assert rep.rows[0].result.change == 480
    comparison = {r.result.start_rank: (r.new_rating, r.rating_change, r.Rc)
                  for r in rep.comparison}
    assert comparison == COMPARISON


def test_json_csv_and_table_give_the_result_and_keep_the_comparison():
    rep = build_report(two_months())
    doc = json.loads(to_json(rep))
    assert [(p["fide_id"], p["new_rating"], p["rating_change"], p["average_opponent_rating"])
            for p in doc["players"]] == [(1001, 1805, 5, 1703), (1002, 1691, -9, 1799),
                                         (1003, 2438, -2, 2406), (1004, 2407, 2, 2440)]
    assert [p["new_rating"] for p in doc["comparison"]] == [1804, 1691, 2439, 2406]
    assert [m["month"] for m in doc["months"]] == ["2025-10", "2025-11"]
    rows = list(csv.reader(to_csv(rep).splitlines()))
    col = {name: i for i, name in enumerate(rows[0])}
    first = {}
    for r in rows[1:]:
        first.setdefault(r[col["No"]], r)        # a player's first line is the result
    assert [(r[col["month"]], r[col["FIDE id"]], r[col["New"]], r[col["Chg"]], r[col["Rc"]])
            for r in first.values()] == [("event", "1001", "1805", "+5", "1703"),
                                         ("event", "1002", "1691", "-9", "1799"),
                                         ("event", "1003", "2438", "-2", "2406"),
                                         ("event", "1004", "2407", "+2", "2440")]
    assert [r[col["month"]] for r in rows[1:] if r[col["No"]] == "3"] == \
        ["event", "2025-10", "2025-11", "event (comparison only)"]
    table = to_table(rep)
    line = next(l for l in table.splitlines() if l.split()[:2] == ["3", "C"])
    cells = line.split()     # No Name FIDE-id Ro K Pts N W Rc ΣPD K×ΣΔR Chg New Rp (Ru blank)
    assert (cells[2], cells[3], cells[8], cells[11], cells[12]) == \
        ("1003", "2440", "2406", "-2", "2438")
    assert table.index("Results, month by month") < table.index("[1/2]") < \
        table.index("As one rating period, for comparison only")


def test_an_event_of_one_month_has_no_comparison():
    # the same games in one month (rounds 5 and 9 Oct): one rating period, as before
    rep = build_report(two_months("2025/10/05", "2025/10/09", ("25/10/05", "25/10/09")))
    assert rep.months == () and rep.comparison == ()
    assert [r.new_rating for r in rep.rows] == [1804, 1691, 2439, 2406]
    assert "comparison" not in json.loads(to_json(rep))


# --- issue 32 #2: the adjustment of 1 March 2024 once, never to a rating the event made --

def test_the_2024_adjustment_is_applied_once_and_months_keep_their_labels():
    # The same event in October-November 2023, rated by the rules as on 1 June 2024.
    # The file's ratings (a 2023 list) are adjusted once (reference §8):
    #   A 1800 + round(.4 x 200) = 1880; B 1700 + 120 = 1820; C, D (2000 or more) as
    #   they are. K: A 20, B born 2010 (2024: 14) 40, C and D 10.
    # October: A 1880 - B 1820 draw: D 60 -> .58. A: -.08 x 20 = -1.60 -> -2 -> 1878;
    #   B: +.08 x 40 = +3.20 -> +3 -> 1823.
    # November, October's new ratings as they are (1878, not adjusted again to 1927):
    #   A 1878 beats B 1823: D 55 -> .58: +.42 x 20 = +8.40 -> +8 -> 1886;
    #   B: -.42 x 40 = -16.80 -> -17 -> 1806.
    t = two_months("2023/10/05", "2023/11/09", ("23/10/05", "23/11/09"))
    rep = build_report(t, EventOptions(event_date=_dt.date(2024, 6, 1)))
    octo, nov = rep.months
    assert [r.result.rating for r in octo.rows][:2] == [1880, 1820]
    assert [r.result.rating for r in nov.rows][:2] == [1878, 1823]
    assert [r.new_rating for r in nov.rows][:2] == [1886, 1806]
    assert [(r.result.rating, r.new_rating, r.rating_change) for r in rep.rows][:2] == \
        [(1880, 1886, 6), (1820, 1806, -14)]
    # every month rated by the event's rules (the rules date stays the event's) ...
    assert [m.edition.id for m in rep.months] == ["FIDE-2024-03-01-standard"] * 2
    assert [m.event_date for m in rep.months] == [_dt.date(2024, 6, 1)] * 2
    # ... and labelled with its own month, not the rules date's
    assert [m.month for m in rep.months] == [_dt.date(2023, 10, 1), _dt.date(2023, 11, 1)]
    labels = [r[0] for r in csv.reader(to_csv(rep).splitlines()[1:])]
    assert sorted(set(labels)) == ["2023-10", "2023-11", "event", "event (comparison only)"]
    assert "month 2023-11, rules as on 2024-06-01" in to_table(rep)
    # the adjustment is noted once, for the file's ratings
    assert sum("1800 -> 1880" in n for n in rep.notes) == 1


def feb_march_2024():
    # rounds on 25 Feb and 27 Mar 2024 (31 days, across 1 March 2024); R1 A-B 1-0,
    # R2 B-A 1-0
    head = {"012": "Leap", "042": "2024/02/25", "052": "2024/03/27", "122": "90 min"}
    players = [player_line(1, "A", 1500, rounds=[(2, "w", "1"), (2, "b", "0")]),
               player_line(2, "B", 1600, rounds=[(1, "b", "0"), (1, "w", "1")])]
    return parse_trf(trf(head, players, [ROUND_DATES.format("24/02/25", "24/03/27")]),
                     source="leap.trf")


def test_an_event_across_1_march_2024_rated_by_later_rules_is_adjusted_once():
    # Rules as on 1 June 2024, K 20: the file's (February) ratings adjusted once:
    #   A 1500 + round(.4 x 500) = 1700; B 1600 + round(.4 x 400) = 1760.
    # February: A 1700 beats B 1760: D -60 -> PD .42: +.58 x 20 = +11.60 -> +12 -> 1712;
    #   B -11.60 -> -12 -> 1748.
    # March: the ratings are on the new scale already (not 1827 and 1849 again):
    #   B 1748 beats A 1712: D 36 -> .55: +.45 x 20 = +9.00 -> +9 -> 1757; A -9 -> 1703.
    rep = build_report(feb_march_2024(), EventOptions(event_date=_dt.date(2024, 6, 1), k=20))
    feb, march = rep.months
    assert [r.result.rating for r in feb.rows] == [1700, 1760]
    assert [r.result.rating for r in march.rows] == [1712, 1748]
    assert [r.new_rating for r in rep.rows] == [1703, 1757]
    assert [m.month for m in rep.months] == [_dt.date(2024, 2, 1), _dt.date(2024, 3, 1)]


def test_an_adjustment_between_the_months_is_said_in_the_report():
    # A user trial: rules as on the start (25 Feb 2024, the 2022 edition), K 20. The
    # table showed A: Ro 1500, change +4, new 1699, with nothing to say why Ro + change
    # is not the new rating.
    # February: A 1500 beats B 1600: D -100 -> PD .36: +.64 x 20 = +12.80 -> +13 -> 1513;
    #   B -12.80 -> -13 -> 1587.
    # 1 March 2024 list (reference §8): A 1513 + round(.4 x 487 = 194.8) = 1708;
    #   B 1587 + round(.4 x 413 = 165.2) = 1752.
    # March: B 1752 beats A 1708: D 44 -> .56: +.44 x 20 = +8.80 -> +9 -> 1761; A -9 -> 1699.
    rep = build_report(feb_march_2024(), EventOptions(k=20))
    feb, march = rep.months
    assert [r.new_rating for r in feb.rows] == [1513, 1587]
    assert [r.result.rating for r in march.rows] == [1708, 1752]
    assert [(r.result.rating, r.rating_change, r.new_rating) for r in rep.rows] == \
        [(1500, 4, 1699), (1600, -4, 1761)]
    said = [n for n in rep.notes if "1 March 2024" in n and "2024-03" in n]
    assert len(said) == 1, rep.notes
    assert "player 1: 1513 -> 1708" in said[0] and "player 2: 1587 -> 1752" in said[0]
    assert said[0] in to_table(rep) and said[0] in json.loads(to_json(rep))["notes"]
