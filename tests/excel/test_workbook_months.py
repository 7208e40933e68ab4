"""Issue 20 #5: an event over 30 days on the cross-table, month by month.

FIDE rates a standard event that runs over 30 days month by month (interim reports,
FIDE B.02 §8.3): the cross-table's live formulas must show each month's figures (the
month's games, the month's ratings: the previous month's published new rating), and the
defined name NewRating the rating after the last month, in both formula modes. The
one-period block stays, labelled as not published.

A small event is worked by hand and recalculated by the ``formulas`` package (Excel's
semantics); the shipped example (San Viator 2018: April rounds 1-3, May rounds 4-7,
137 players) is recalculated by LibreOffice and compared cell by cell with
``build_report``'s monthly reports.
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from tests.harness import xl_formulas
from tests.harness.trf_lines import player_line, trf
from tests.excel.test_workbook import name_range
from xl_fide.errors import InputError
from xl_fide.cli._main import main
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS, GROUP_ROW, HEADER_ROW, ONE_PERIOD_HEADER
from xl_fide.event.report import build_report
from xl_fide.rules.editions import EventOptions
from tests.excel.test_workbook_lo import shown_new, shown_ru
from xl_fide.trf import parse_trf, read_trf
from xl_fide.excel._fence import book_state

BLOCK = ("Ro", "K", "N", "W", "ΣPD", "W−ΣPD", "K used", "K×ΣΔR", "Δ", "New", "Rp", "Ru")


def long_event() -> str:
    # round robin of four, rounds on 5 Oct, 19 Oct, 9 Nov 2025 (35 days: over 30)
    # R1: A-B 1-0, C-D 1-0; R2: A-C =, B-D 1-0; R3: A-D 0-1, B-C =
    head = {"012": "Long", "042": "2025/10/05", "052": "2025/11/09", "122": "90 min + 30 sec"}
    players = [player_line(1, "A", 2000, rounds=[(2, "w", "1"), (3, "w", "="), (4, "w", "0")]),
               player_line(2, "B", 1900, rounds=[(1, "b", "0"), (4, "w", "1"), (3, "w", "=")]),
               player_line(3, "C", 1800, rounds=[(4, "w", "1"), (1, "b", "="), (2, "b", "=")]),
               player_line(4, "D", 1700, rounds=[(3, "b", "0"), (2, "b", "0"), (1, "b", "1")])]
    return trf(head, players, ["132" + " " * 88 + "25/10/05  25/10/19  25/11/09"])


def blank(v):
    return v is None or v == ""


def month_blocks(formulas_wb):
    """Month number -> {header: column} of the month blocks, from the group row."""
    ws = formulas_wb[CROSS]
    out = {}
    for c in range(1, ws.max_column + 1):
        title = ws.cell(GROUP_ROW, c).value
        if isinstance(title, str) and title.startswith("Month "):
            i = int(title.split()[1])
            out[i] = {ws.cell(HEADER_ROW, c + k).value: c + k for k in range(len(BLOCK))}
    return out


def sheet_month(values, cols, rows):
    ws = values[CROSS]
    return [[None if blank(v := ws.cell(r, cols[h]).value) else v for h in BLOCK]
            for r in rows]


def expected_month(rows):
    """The report rows of a month as the block shows them (Ro, K, then the 10 columns)."""
    out = []
    for row in rows:
        r = row.result
        if r.rated:
            out.append([r.rating, r.K_given, r.N, r.W_half / 2, r.sum_PD / 100,
                        r.calc.sum_delta_R / 100, r.K, r.change / 100, r.rating_change,
                        shown_new(r.calc), r.Rp, None])
        else:
            ru = shown_ru(r.initial)
            out.append([None, None, r.N, r.W_half / 2, None, None, None, None, None, None,
                        r.Rp, ru])
    return out


def same(got, want):
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == pytest.approx(w) if isinstance(w, float) else g == w, (i, g, w)


@pytest.mark.parametrize("formulas", ["udf", "native"])
@pytest.mark.parametrize("k", [20, None], ids=["k_set", "k_rule"])
def test_a_two_month_event_shows_each_month_and_new_rating_after_the_last(
        formulas, k, tmp_path):
    # K 20 for every player (given, or by the rule: no birth year, 30+ games, under 2400).
    # October (rounds 1-2), the file's ratings (table 8.1.2 PD, 400-point rule unused):
    #   A 2000: beats B (D 100 -> PD .64, +.36), draws C (D 200 -> .76, -.26): ΣPD 1.40,
    #     W 1.5, +.10 x 20 = +2.00 -> Δ +2 -> 2002
    #   B 1900: loses to A (D -100 -> .36, -.36), beats D (D 200 -> .76, +.24): ΣPD 1.12,
    #     W 1, -.12 x 20 = -2.40 -> -2 (§8.3.4) -> 1898
    #   C 1800: beats D (D 100 -> .64, +.36), draws A (D -200 -> .24, +.26): ΣPD .88,
    #     W 1.5, +.62 x 20 = +12.40 -> +12 -> 1812
    #   D 1700: loses to C (D -100 -> .36) and B (D -200 -> .24): ΣPD .60, W 0,
    #     -.60 x 20 = -12.00 -> 1688
    # November (round 3), October's new ratings as Ro:
    #   A 2002 loses to D 1688: D 314 -> .86, -.86 x 20 = -17.20 -> -17 -> 1985
    #   D 1688 beats A: D -314 -> .14, +.86 x 20 = +17.20 -> +17 -> 1705
    #   B 1898 draws C 1812: D 86 -> .62, -.12 x 20 = -2.40 -> -2 -> 1896
    #   C 1812 draws B: D -86 -> .38, +.12 x 20 = +2.40 -> +2 -> 1814
    # As one period (start ratings, not published) B: A D -100 .36, D D 200 .76,
    #   C D 100 .64: ΣPD 1.76, W 1.5: -.26 x 20 = -5.20 -> -5 -> 1895 (not 1896).
    t = parse_trf(long_event(), source="long.trf")
    rep = build_report(t, EventOptions(k=k))
    src = tmp_path / f"long_{formulas}.xlsx"
    save_workbook(fill_workbook(rep, formulas=formulas), src)
    values, _ = xl_formulas.recalc(src)
    wb = load_workbook(src)
    blocks = month_blocks(wb)
    assert sorted(blocks) == [1, 2]
    rows = range(5, 9)
    october = sheet_month(values, blocks[1], rows)
    november = sheet_month(values, blocks[2], rows)
    assert [r[0] for r in october] == [2000, 1900, 1800, 1700]
    assert [r[1] for r in october] == [20, 20, 20, 20]
    assert [r[4] for r in october] == pytest.approx([1.40, 1.12, 0.88, 0.60])
    assert [r[7] for r in october] == pytest.approx([2.00, -2.40, 12.40, -12.00])
    assert [r[9] for r in october] == [2002, 1898, 1812, 1688]
    assert [r[0] for r in november] == [2002, 1898, 1812, 1688]
    assert [r[4] for r in november] == pytest.approx([0.86, 0.62, 0.38, 0.14])
    assert [r[8] for r in november] == [-17, -2, 2, 17]
    assert [r[9] for r in november] == [1985, 1896, 1814, 1705]
    sheet, (c1, r1, _, r2) = name_range(wb, "NewRating")
    assert [values[sheet].cell(r, c1).value for r in range(r1, r2 + 1)] == \
        [1985, 1896, 1814, 1705]
    # RatingChange over the months: the months' changes, each rounded in its month
    # (§8.3.4): A +2 -17 = -15, B -2 -2 = -4, C +12 +2 = +14, D -12 +17 = +5
    sheet, (c1, r1, _, r2) = name_range(wb, "RatingChange")
    assert [values[sheet].cell(r, c1).value for r in range(r1, r2 + 1)] == [-15, -4, 14, 5]
    assert [r.rating_change for r in sorted(rep.rows, key=lambda r: r.result.start_rank)
            ] == [-15, -4, 14, 5]
    # the one-period block is there, labelled, with its own (unpublished) figure: its
    # Δ is the first column headed so (B -5, not -4)
    c = next(col for col in range(1, wb[CROSS].max_column + 1)
             if wb[CROSS].cell(HEADER_ROW, col).value == "Δ")
    assert values[CROSS].cell(6, c).value == -5
    assert ONE_PERIOD_HEADER in [wb[CROSS].cell(GROUP_ROW, col).value
                                 for col in range(1, wb[CROSS].max_column + 1)]
    # and the sheet equals the report's monthly rows
    for i, month in enumerate(rep.months, 1):
        for got, want in zip(sheet_month(values, blocks[i], rows), expected_month(month.rows)):
            same(got, want)


def test_a_round_robin_grid_cannot_hold_the_months():
    t = parse_trf(long_event(), source="long.trf")
    with pytest.raises(InputError, match="month by month.*swiss layout"):
        fill_workbook(build_report(t), "roundrobin")


def test_an_event_rated_as_one_period_has_no_month_blocks():
    t = parse_trf(long_event().replace("25/11/09", "25/10/26"), source="short.trf")
    wb = fill_workbook(build_report(t))
    assert month_blocks(wb) == {}
    new, change = name_range(wb, "NewRating")[1], name_range(wb, "RatingChange")[1]
    assert new == (change[0] + 1, change[1], change[2] + 1, change[3])


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_the_example_recalculated_equals_the_monthly_reports(office, formulas, tmp_path):
    # San Viator 2018: April rounds 1-3, May rounds 4-7; every cell of both month blocks
    # and NewRating against report.months (NewRating: report.months[-1])
    t = read_trf("xl_fide/data/example.trf")
    rep = build_report(t)
    assert len(rep.months) == 2
    src = tmp_path / f"example_{formulas}.xlsx"
    save_workbook(fill_workbook(rep, formulas=formulas), src)
    res = office.recalc(src, tmp_path / f"example_{formulas}.recalc.xlsx")
    values = load_workbook(tmp_path / f"example_{formulas}.recalc.xlsx", data_only=True)
    wb = load_workbook(src)
    blocks = month_blocks(wb)
    assert sorted(blocks) == [1, 2]
    order = sorted(p.start_rank for p in t.players)
    rows = [5 + i for i in range(len(order))]
    for i, month in enumerate(rep.months, 1):
        by_rank = {row.result.start_rank: row for row in month.rows}
        want = expected_month([by_rank[k] for k in order])
        for got, w in zip(sheet_month(values, blocks[i], rows), want):
            same(got, w)
    last = {row.result.start_rank: row.result for row in rep.months[-1].rows}
    sheet, (c1, r1, _, r2) = name_range(wb, "NewRating")
    got = [values[sheet].cell(r, c1).value for r in range(r1, r1 + len(order))]
    want = [shown_new(last[k].calc) if last[k].calc is not None else None
            for k in order]
    assert [None if blank(g) else g for g in got] == want
    # the values cached in the file (read without calculating) are the recalculated ones
    cached = load_workbook(src, data_only=True)
    for i in blocks:
        assert sheet_month(cached, blocks[i], rows) == sheet_month(values, blocks[i], rows)
        for c in (blocks[i]["Ro"], blocks[i]["Ro"] + 2):       # the month's date, edition
            assert cached[CROSS].cell(2, c).value == values[CROSS].cell(2, c).value
    # the one-period figure differs from the last month's for many players
    # (the one-period figure is rep.comparison since issue 32 #1; rep.rows the months)
    one = {row.result.start_rank: row.result.new_rating for row in rep.comparison}
    assert sum(one[k] != last[k].new_rating for k in order) > 10
    assert res.errors == []


def feb_march_2024() -> str:
    # two players, round 1 on 25 Feb 2024, round 2 on 27 Mar 2024 (31 days: over 30);
    # R1: A-B 1-0; R2: B-A 1-0
    head = {"012": "Leap", "042": "2024/02/25", "052": "2024/03/27", "122": "90 min"}
    players = [player_line(1, "A", 1500, rounds=[(2, "w", "1"), (2, "b", "0")]),
               player_line(2, "B", 1600, rounds=[(1, "b", "0"), (1, "w", "1")])]
    return trf(head, players, ["132" + " " * 88 + "24/02/25  24/03/27"])


def test_the_second_month_takes_the_march_2024_adjustment(tmp_path):
    # K 20 (given). February 2024 (round 1), the file's ratings:
    #   A 1500 beats B 1600: D -100 -> PD .36, +.64 x 20 = +12.80 -> +13 -> 1513
    #   B 1600: D 100 -> .64, -.64 x 20 = -12.80 -> -13 (§8.3.4) -> 1587
    # 1 March 2024 falls between the months: R + 0.4 x (2000 - R) below 2000
    #   A 1513 + 0.4 x 487 (194.8 -> 195) = 1708;  B 1587 + 0.4 x 413 (165.2 -> 165) = 1752
    # March 2024 (round 2): B 1752 beats A 1708: D 44 -> PD .56 (table 8.1.2, 40-46)
    #   B +.44 x 20 = +8.80 -> +9 -> 1761;  A -8.80 -> -9 -> 1699
    t = parse_trf(feb_march_2024(), source="leap.trf")
    rep = build_report(t, EventOptions(k=20))
    assert [r.result.new_rating for r in rep.months[-1].rows] == [1699, 1761]
    src = tmp_path / "leap.xlsx"
    save_workbook(fill_workbook(rep, formulas="udf"), src)
    values, _ = xl_formulas.recalc(src)
    wb = load_workbook(src)
    blocks = month_blocks(wb)
    feb, march = (sheet_month(values, blocks[i], range(5, 7)) for i in (1, 2))
    assert [r[9] for r in feb] == [1513, 1587]
    assert [r[0] for r in march] == [1708, 1752]
    assert [r[4] for r in march] == pytest.approx([0.44, 0.56])
    assert [r[9] for r in march] == [1699, 1761]
    sheet, (c1, r1, _, _) = name_range(wb, "NewRating")
    assert [values[sheet].cell(r, c1).value for r in (r1, r1 + 1)] == [1699, 1761]


def below_the_floor() -> str:
    # three players, rounds on 5 Oct, 12 Oct, 9 Nov 2025 (35 days): R1 A-C 0-1, B bye;
    # R2 A-B 0-1, C bye; R3 A-C =, B bye (byes: Z, no game)
    head = {"012": "Floor", "042": "2025/10/05", "052": "2025/11/09", "122": "90 min"}
    players = [player_line(1, "A", 1405, rounds=[(3, "w", "0"), (2, "b", "0"), (3, "b", "=")]),
               player_line(2, "B", 1800, rounds=[(0, "-", "Z"), (1, "w", "1"), (0, "-", "Z")]),
               player_line(3, "C", 1700, rounds=[(1, "b", "1"), (0, "-", "Z"), (1, "w", "=")])]
    return trf(head, players, ["132" + " " * 88 + "25/10/05  25/10/12  25/11/09"])


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_a_rating_below_the_floor_after_a_month_is_not_carried_on(formulas, tmp_path):
    # K 40 given. October: A 1405 loses to C 1700 (D -295 -> PD .15, table 8.1.2 291-302)
    #   and to B 1800 (D -395 -> PD .08, 392-411): ΣPD .23, W 0: -.23 x 40 = -9.20 -> -9
    #   -> 1396, below the floor 1400: not published (B.02 §7.2.1), A is unrated in
    #   November. November: A (unrated) draws C: not a rated game for C (N 0, no change);
    #   A has one game against a rated player: no Ru (too few games).
    t = parse_trf(below_the_floor(), source="floor.trf")
    rep = build_report(t, EventOptions(k=40))
    assert len(rep.months) == 2
    src = tmp_path / f"floor_{formulas}.xlsx"
    save_workbook(fill_workbook(rep, formulas=formulas), src)
    values, _ = xl_formulas.recalc(src)
    blocks = month_blocks(load_workbook(src))
    october, november = (sheet_month(values, blocks[i], range(5, 8)) for i in (1, 2))
    assert october[0][4] == pytest.approx(0.23)
    assert october[0][9] == "NP 1396"          # the code of issue 34 (key under the table)
    assert november[0][0] is None and november[0][9] is None          # A: unrated
    assert november[0][11] == "NP 1g"
    assert november[2][0] == rep.months[0].rows[2].result.new_rating and november[2][2] == 0
    # the rating after the event (NewRating, the column over the months): A's October NP
    # 1396, as the report's rows give it (not November's blank, issue 32)
    sheet, (c1, r1, _, _) = name_range(load_workbook(src), "NewRating")
    assert values[sheet].cell(r1, c1).value == "NP 1396"
    assert rep.rows[0].new_rating == 1396 and not rep.rows[0].result.published
    for i, month in enumerate(rep.months, 1):
        for got, want in zip(sheet_month(values, blocks[i], range(5, 8)),
                             expected_month(month.rows)):
            same(got, want)


def test_a_round_typed_later_counts_in_the_month_its_header_names(tmp_path):
    # The long event on a sheet of 4 rounds: round 4 (no date, not played) goes to the
    # last month, November, whose header says so. Typed in: round 4 A-B 1-0.
    # November, October's new ratings (K 20 given):
    #   A 2002: loses to D 1688 (D 314 -> PD .86, -.86), beats B 1898 (D 104 -> .64,
    #     +.36): -.50 x 20 = -10.00 -> 1992
    #   B 1898: draws C 1812 (D 86 -> .62, -.12), loses to A (D -104 -> .36, -.36):
    #     -.48 x 20 = -9.60 -> -10 (§8.3.4) -> 1888
    t = parse_trf(long_event(), source="long.trf")
    rep = build_report(t, EventOptions(k=20))
    wb = fill_workbook(rep, rounds=4, formulas="native")
    blocks = month_blocks(wb)
    ws = wb[CROSS]
    heads = [ws.cell(GROUP_ROW, min(cols.values())).value for cols in blocks.values()]
    assert heads[0].startswith("Month 1 of 2: 2025-10 (rounds 1-2)")
    assert heads[1].startswith("Month 2 of 2: 2025-11 (rounds 3-4)")
    opp4 = max(c for c in range(1, ws.max_column + 1)
               if ws.cell(GROUP_ROW, c).value == "Round 4")
    for r, (opp, colour, res) in ((5, (2, "w", "1")), (6, (1, "b", "0"))):
        ws.cell(r, opp4).value, ws.cell(r, opp4 + 1).value = opp, colour
        ws.cell(r, opp4 + 2).value = res
    src = tmp_path / "typed.xlsx"
    save_workbook(wb, src)
    values, _ = xl_formulas.recalc(src)
    november = sheet_month(values, blocks[2], range(5, 9))
    assert [r[9] for r in november[:2]] == [1992, 1888]


@pytest.mark.parametrize("event,k", [("long", 20), ("floor", 40)])
def test_gnumeric_computes_the_months_of_a_native_workbook(event, k, tmp_path):
    # a third engine on the native month blocks (its own helper sheets per month): the
    # hand-worked events above, every month cell against the report's monthly rows
    from tests.harness import gnumeric
    gnumeric.require()
    text = {"long": long_event, "floor": below_the_floor}[event]()
    t = parse_trf(text, source=f"{event}.trf")
    rep = build_report(t, EventOptions(k=k))
    src = tmp_path / f"{event}.xlsx"
    save_workbook(fill_workbook(rep, formulas="native"), src)
    values = gnumeric.recalc(src, tmp_path / f"{event}.gnumeric.xlsx")
    blocks = month_blocks(load_workbook(src))
    rows = range(5, 5 + len(t.players))
    for i, month in enumerate(rep.months, 1):
        for got, want in zip(sheet_month(values, blocks[i], rows), expected_month(month.rows)):
            same(got, want)
    # NewRating: the column over the months, the report's rows (the last month the player
    # was rated in: the floor event's A NP 1396 after October, unrated in November)
    sheet, (c1, r1, _, _) = name_range(load_workbook(src), "NewRating")
    published = [shown_new(r.result.calc) if r.result.calc is not None else None
                 for r in sorted(rep.rows, key=lambda r: r.result.start_rank)]
    got = [values[sheet].cell(r1 + i, c1).value for i in range(len(t.players))]
    assert [None if blank(g) else g for g in got] == published
    if event == "floor":
        assert got[0] == "NP 1396"


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_without_round_dates_the_one_period_block_says_so(formulas, tmp_path):
    # over 30 days (5 Oct - 9 Nov 2025) but no 132 line: nothing to split by, so the
    # block is one period, and the note above it (a formula over the Event sheet's start
    # and end dates, in the templates too) says FIDE rates the event month by month
    from xl_fide.excel._layout import LONG_EVENT_NOTE
    text = "\n".join(line for line in long_event().splitlines() if not line.startswith("132"))
    t = parse_trf(text, source="nodates.trf")
    rep = build_report(t, EventOptions(k=20))
    assert rep.months == ()
    src = tmp_path / f"nodates_{formulas}.xlsx"
    save_workbook(fill_workbook(rep, formulas=formulas), src)
    values, _ = xl_formulas.recalc(src)
    wb = load_workbook(src)
    _, (n, _, _, _) = name_range(wb, "RatedGames")
    assert values[CROSS].cell(1, n).value == LONG_EVENT_NOTE
    assert load_workbook(src, data_only=True)[CROSS].cell(1, n).value == LONG_EVENT_NOTE
    assert month_blocks(wb) == {}


# ------------------------------------------------------------------------------ paper

def _pages(ws, geo):
    """The printed pages' column ranges (after the repeated title columns A:C), from the
    sheet's column breaks and print area."""
    from openpyxl.utils import range_boundaries
    _, _, end, _ = range_boundaries(ws.print_area[0].split("!")[1].replace("$", "")
                                    if isinstance(ws.print_area, list)
                                    else ws.print_area.split("!")[1].replace("$", ""))
    cuts = sorted(b.id for b in ws.col_breaks.brk)
    starts = [4] + [c + 1 for c in cuts]
    return list(zip(starts, [c for c in cuts] + [end]))


@pytest.mark.parametrize("event", ["long", "rich"])
def test_the_month_blocks_print_at_100_percent_page_by_page(event, tmp_path):
    # Before: a small event over 30 days printed one page wide at about 32 % (every block
    # side by side); a wider one broke before each month only, and a month block (12
    # columns) is wider than a page at 100 %: Ru fell on a page of its own with the
    # month's header cut at the page edge. Then: 100 %, breaks between units (a month block
    # two). Now (issue 34): 65 % (11 pt text at 7.15 pt), a month block one unit, every
    # page within the page width, no group header across a break.
    from openpyxl.utils import get_column_letter
    from tests.excel.test_workbook_cached_every_cell import _long_rich
    from xl_fide.excel._build import PRINT_SCALE, column_px, page_room, print_units
    text = {"long": long_event, "rich": _long_rich}[event]()
    t = parse_trf(text, source=f"{event}.trf")
    for formulas in ("udf", "native"):
        wb = fill_workbook(build_report(t), formulas=formulas)      # (hidden widths as built)
        ws, geo = wb[CROSS], book_state(wb)["geo"]
        saved = load_workbook(save_workbook(wb, tmp_path / f"{formulas}.xlsx"))[CROSS]
        assert sorted(b.id for b in saved.col_breaks.brk) == sorted(
            b.id for b in ws.col_breaks.brk)
        assert not ws.sheet_properties.pageSetUpPr.fitToPage
        assert int(ws.page_setup.scale) == PRINT_SCALE == 65
        room = page_room(ws)
        pages = _pages(ws, geo)
        hidden = range(geo.check_first, geo.check_last + 1)      # the per-round checks
        units = set(print_units(geo))
        for first, last in pages:           # within the page, or one unit alone
            wide = sum(column_px(ws, c) for c in range(first, last + 1) if c not in hidden)
            assert wide <= room or (first, last) in units or (
                first, last - len(hidden)) in units, (get_column_letter(first),
                                                      get_column_letter(last), wide)
        breaks = {b.id for b in ws.col_breaks.brk}
        for merged in ws.merged_cells.ranges:
            if merged.min_row == GROUP_ROW:
                assert not any(merged.min_col <= b < merged.max_col for b in breaks), merged
        blocks = month_blocks(wb)
        for i, cols in blocks.items():             # each month's first page names it
            first = min(cols.values())
            assert first - 1 in breaks
            assert ws.cell(GROUP_ROW, first).value.startswith(f"Month {i} of 2: ")
            assert not any(first <= b < max(cols.values()) for b in breaks)   # whole


def test_a_small_event_over_30_days_prints_readable_pages(office, tmp_path):
    # rendered by LibreOffice with the workbook's own page set-up: text at print size (a
    # word box of 1.15 x 7 pt or more: 11 pt text at 65 %, issue 34; before: one page at
    # ~32 %, 3-4 pt), each month's block whole on its page
    import shutil
    from tests.excel.test_workbook_print import pages, words
    if not shutil.which("pdftotext"):
        pytest.skip("poppler-utils missing")
    t = parse_trf(long_event(), source="long.trf")
    src = save_workbook(fill_workbook(build_report(t), formulas="native"), tmp_path / "long.xlsx")
    pdf = tmp_path / "long.pdf"
    office.to_pdf(src, pdf, sheet=CROSS, fit_width=False)
    n, _ = pages(pdf)
    heights, texts = [], []
    for page in range(1, n + 1):
        ws = words(pdf, page)
        heights += [h for _, h in ws]
        texts.append([w for w, _ in ws])
    assert min(heights) >= 7 and sorted(heights)[len(heights) // 2] >= 1.15 * 7
    assert all("Name" in page for page in texts)
    assert sum(page.count("Ru") for page in texts) == 3           # one-period + 2 months
    # "K used" (one-period + 2 months) and "Ro used" (issue 32 #3), whole
    assert sum(page.count("used") for page in texts) == 4


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_no_plain_name_covers_the_comparison(formulas, tmp_path):
    # Issue 32, found by a user trial: in the example (San Viator 2018, April and May),
    # RatingChange and the other names of the rating block covered the one-period block,
    # the comparison only: player 2 (Ro 1731) read RatingChange -6 beside NewRating 1726,
    # FIDE's published 1726 (issue 32) being 1731 - 5. Now the comparison's names start
    # with Comparison, and RatingChange covers the Result: Ro + RatingChange = NewRating.
    book = tmp_path / f"example_{formulas}.xlsx"
    assert main(["crosstable", "--example", "--formulas", formulas, "-o", str(book)]) == 0
    wb = load_workbook(book)
    names = set(wb.defined_names)
    for plain in ("RatedGames", "RatedScore", "Expected", "ScoreMinusExpected", "KUsed",
                  "Change", "Performance", "InitialRating", "OpponentAverage"):
        assert plain not in names and "Comparison" + plain in names, plain
    values = load_workbook(book, data_only=True)

    def at(name, r):
        sheet, (c, r1, _, _) = name_range(wb, name)
        return values[sheet].cell(r1 + r - 1, c).value

    assert (at("Rating", 2), at("RatingChange", 2), at("NewRating", 2)) == (1731, -5, 1726)
    # the Comparison names cover the one-period block: its Δ is the first column so headed
    ws = wb[CROSS]
    first_delta = next(c for c in range(1, ws.max_column + 1)
                       if ws.cell(HEADER_ROW, c).value == "Δ")
    assert name_range(wb, "ComparisonRatingChange")[1][0] == first_delta
    assert name_range(wb, "RatingChange")[1][0] != first_delta


@pytest.mark.parametrize("formulas", ["native"])
def test_a_rapid_time_control_makes_the_result_the_one_period_figure(formulas, tmp_path):
    # A user trial: the long event's book with the Event sheet's time control changed to
    # rapid. Only a standard event is rated month by month (B.02 §8.3); the report of
    # the book rates it as one period, and so must the Result (RatingChange, NewRating).
    # K 20 given; B as one period (the long event's hand-worked figures above): ΣPD 1.76,
    # W 1.5: -.26 x 20 = -5.20 -> -5 -> 1895.
    from tests.harness import gnumeric
    from xl_fide.excel import read_workbook
    from xl_fide.excel._layout import EVENT, EVENT_ROW
    gnumeric.require()
    rep = build_report(parse_trf(long_event(), source="long.trf"), EventOptions(k=20))
    wb = fill_workbook(rep, formulas=formulas)
    wb[EVENT].cell(EVENT_ROW["tc"], 2).value = "rapid"
    src = save_workbook(wb, tmp_path / "rapid.xlsx")
    values = gnumeric.recalc(src, tmp_path / "rapid.gnumeric.xlsx")
    names = load_workbook(src)

    def named(name, i):
        sheet, (c, r1, _, _) = name_range(names, name)
        return values[sheet].cell(r1 + i, c).value

    assert (named("RatingChange", 1), named("NewRating", 1)) == (-5, 1895)
    again = build_report(read_workbook(src))
    assert not again.months
    b = next(r for r in again.rows if r.result.start_rank == 2)
    assert (b.rating_change, b.new_rating) == (-5, 1895)


def test_a_cleared_start_date_rates_the_months_as_the_report_does(tmp_path):
    # A user trial: the start date of a long event's book cleared on the Event sheet.
    # The report of the book then has no event date (the newest rules, its note says
    # so), as the one-period block; the month blocks stayed on their own first days'
    # rules (2017 for San Viator): 108 players differed. Now the months read the same
    # date: every Result cell (NewRating, RatingChange) and every month cell equal the
    # report of the edited book, recalculated by Gnumeric.
    from tests.harness import gnumeric
    from xl_fide.excel import read_workbook
    from xl_fide.excel._layout import EVENT, EVENT_ROW
    gnumeric.require()
    rep = build_report(read_trf("xl_fide/data/example.trf"))
    wb = fill_workbook(rep, formulas="native")
    wb[EVENT].cell(EVENT_ROW["start"], 2).value = None
    src = save_workbook(wb, tmp_path / "nodate.xlsx")
    # today's year for the junior rule, as the command line passes it and the sheet's
    # TODAY() reads it when no date is known
    import datetime
    again = build_report(read_workbook(src), EventOptions(today=datetime.date.today()))
    assert again.rules.date is None and len(again.months) == 2
    assert again.edition.id != rep.edition.id            # the newest, not 2017's
    values = gnumeric.recalc(src, tmp_path / "nodate.gnumeric.xlsx")
    names = load_workbook(src)
    order = sorted(r.result.start_rank for r in again.rows)
    by_rank = {r.result.start_rank: r for r in again.rows}
    sheet, (c, r1, _, _) = name_range(names, "NewRating")
    got = [values[sheet].cell(r1 + i, c).value for i in range(len(order))]
    want = [shown_new(by_rank[k].result.calc) if by_rank[k].result.calc is not None
            else None for k in order]
    assert [None if blank(g) else g for g in got] == want
    blocks = month_blocks(names)
    rows = [5 + i for i in range(len(order))]
    for i, month in enumerate(again.months, 1):
        m_rows = [{row.result.start_rank: row for row in month.rows}[k] for k in order]
        for g, w, row in zip(sheet_month(values, blocks[i], rows), expected_month(m_rows),
                             m_rows):
            # Ro and K as the sheet shows them also below the 2025 floor (1400: player
            # 79's 1396, rated as unrated): ReportRow.Ro and K_given
            w[:2] = [row.Ro, row.K_given if row.Ro is not None else None]
            same(g, w)
