"""A rating period of several events (FIDE B.02 §8.3.3, §8.3.4, §8.2): numbers worked out
by hand from the articles, PD from table 8.1.2, in the comments.

The events are small TRFs built here: each game is (round, white, black, result).
"""

from pathlib import Path
import re

import pytest

from tests.harness.trf_lines import player_line, round_cells, trf
from xl_fide.rules.editions import EventOptions
from xl_fide.errors import InputError
from xl_fide.errors import PeriodSpanError, PeriodTimeControlError
from xl_fide.event.period import build_period
from xl_fide.trf import parse_trf


def event(name, start, players, games, end=None):
    """A TRF of ``players`` (rank -> (name, rating or None, birth year or "")) and
    ``games`` ((round, white rank, black rank, white's result '1' '=' '0'))."""
    cells = round_cells(players, games)
    head = {"012": name, "042": start, "052": end or start, "062": str(len(players)),
            "122": "90 min + 30 sec"}
    lines = [player_line(rank, nm, rating, birth=f"{by}/01/01" if by else "",
                         rounds=cells[rank])
             for rank, (nm, rating, by) in players.items()]
    return parse_trf(trf(head, lines), source=name + ".trf")


def player(report, name):
    (p,) = [p for p in report.players if p.name == name]
    return p


# --- K is capped over the whole period (§8.3.3) ----------------------------------------

def two_events_of_nine_games(first_score, second_score):
    """A junior (1600, born 2010: K 40 in 2025) plays nine 1600s in each of two events."""
    others = {i: (f"Opp {i}", 1600, "") for i in range(2, 11)}
    players = {1: ("Junior", 1600, 2010), **others}

    def games(results):
        return [(r, 1, r + 1, res) for r, res in enumerate(results, 1)]

    a = event("A", "2025/11/03", players, games(first_score))
    b = event("B", "2025/11/17", players, games(second_score))
    return build_period([a, b])


def test_k_is_capped_over_the_whole_period_not_per_event():
    # Equal ratings: PD .50 each game. Event A 6.5/9 -> ΣΔR 6.5 - 4.5 = +2.00; event B
    # 5/9 -> +0.50. K 40 (junior under 2300, B.02 §8.3.3); n = 18 games in the period:
    # 40 x 18 = 720 > 700 -> K = 700 // 18 = 38. Per event (n = 9, 360 <= 700) it
    # would stay 40 and give 80 + 20 = +100.
    # Period: 38 x 2.50 = 95.00 -> +95 -> 1695; shown per event 38 x 2.00 = 76.00 and
    # 38 x 0.50 = 19.00.
    rep = two_events_of_nine_games(["1", "1", "1", "1", "1", "1", "=", "0", "0"],
                                   ["1", "1", "1", "1", "=", "=", "0", "0", "0"])
    c = player(rep, "Junior").change
    assert (c.K_given, c.K, c.N) == (40, 38, 18)
    assert [e.sum_delta_R for e in c.events] == [200, 50]
    assert [c.event_change(i) for i in range(2)] == [7600, 1900]
    assert (c.change, c.rating_change, c.new_rating) == (9500, 95, 1695)


# --- one rounding for the period (§8.3.4) -----------------------------------------------

def test_the_period_is_rounded_once():
    # 2400 (K 10: rating 2400, §8.3.3) in each event: beats 2350 (D 50 -> PD .57, +.43),
    # loses to 2450 (D -50 -> PD .43, -.43), draws 2210 (D 190 -> PD .75, -.25):
    # ΣΔR -.25 per event, K x ΣΔR -2.50. Rounded per event -3 + -3 = -6; the period's
    # total -5.00 rounds once to -5 -> 2395 (B.02 §8.3.4).
    players = {1: ("Top", 2400, ""), 2: ("P2350", 2350, ""), 3: ("P2450", 2450, ""),
               4: ("P2210", 2210, "")}
    games = [(1, 1, 2, "1"), (2, 3, 1, "1"), (3, 1, 4, "=")]
    rep = build_period([event("A", "2025/11/03", players, games),
                        event("B", "2025/11/20", players, games)])
    c = player(rep, "Top").change
    assert c.K == 10
    assert [c.event_change(i) for i in range(2)] == [-250, -250]
    assert (c.change, c.rating_change, c.new_rating) == (-500, -5, 2395)


# --- the rule edition changes inside a period (§8.3.1 by each event's start) -----------

def test_each_event_uses_the_rules_of_its_start_date():
    # A starts 26 Feb 2024 and ends 1 Mar (rules of 1 Jan 2022: the 400-point rule in one
    # game per event, the largest difference); B starts 4 Mar 2024 (rules of 1 Mar 2024:
    # every game). Both end in March: one period. In each, 2600 beats 2100 (D 500) and
    # 2150 (D 450). (Ratings from 2000 up: the 1 Mar 2024 adjustment leaves them alone.)
    # A: only the 2100 game is capped: D 400 -> PD .92 (+.08); 2150: D 450 -> PD .94
    #    (+.06): ΣΔR +.14.
    # B: both capped: +.08 + .08 = +.16.
    # K 10 (2600, §8.3.3): 10 x .30 = 3.00 -> +3 -> 2603. (Both events by the 2024 rules
    # would give 10 x .32 = 3.20; both by the 2022 rules 10 x .28 = 2.80.)
    players = {1: ("Q", 2600, ""), 2: ("Low", 2100, ""), 3: ("Mid", 2150, "")}
    games = [(1, 1, 2, "1"), (2, 3, 1, "0")]
    a = event("A", "2024/02/26", players, games, end="2024/03/01")
    b = event("B", "2024/03/04", players, games)
    rep = build_period([b, a])                      # any order: sorted by start date
    assert [e[2] for e in rep.events] == ["FIDE-2022-01-01-standard", "FIDE-2024-03-01-standard"]
    c = player(rep, "Q").change
    assert [e.sum_delta_R for e in c.events] == [14, 16]
    assert [[g.capped for g in e.games] for e in c.events] == [[True, False], [True, True]]
    assert (c.K, c.change, c.new_rating) == (10, 300, 2603)


# --- a player who gets a first rating in the period is unrated for opponents ---------

def test_a_newly_rated_player_counts_as_unrated_for_opponents():
    # X is unrated on the list before the period. Event A: X draws five 1600s; event B:
    # X loses to Y (1800). X's results are pooled (B.02 §8.2, 2024 rule): 6 games,
    # Ra = (5 x 1600 + 1800 + 2 x 1800) / 8 = 13400 / 8 = 1675, W = 2.5,
    # p = (2.5 + 1) / 8 = .4375 -> .44 -> dp -43 -> Ru 1632.
    # For Y the game against X is not rated: X is unrated in this period even though X
    # gets a rating at its end (§8.2.4): N 0, no change, 1800.
    # Each 1600 (K 20): a draw with an unrated player is not rated either: N 0.
    pa = {1: ("X", None, ""), **{i: (f"R{i}", 1600, "") for i in range(2, 7)}}
    a = event("A", "2025/11/03", pa, [(r, 1, r + 1, "=") for r in range(1, 6)])
    b = event("B", "2025/11/20", {1: ("X", None, ""), 2: ("Y", 1800, "")}, [(1, 2, 1, "1")])
    rep = build_period([a, b])
    x = player(rep, "X")
    assert x.change is None and x.event_names == ("A", "B")
    assert (x.initial.N, x.initial.W_half, x.initial.p, x.initial.Ru) == (6, 5, 44, 1632)
    y = player(rep, "Y").change
    assert (y.N, y.change, y.new_rating) == (0, 0, 1800)
    assert player(rep, "R2").change.N == 0


def test_a_rating_shown_later_in_the_period_does_not_make_a_player_rated():
    # The same as above, but the second file shows X with 1500 (X has no rating on the
    # list before the period, so the file's 1500 is not FIDE's): X stays unrated for the
    # whole period (§8.2.4), Ru 1632 as above; Y's game against X is not rated.
    pa = {1: ("X", None, ""), **{i: (f"R{i}", 1600, "") for i in range(2, 7)}}
    a = event("A", "2025/11/03", pa, [(r, 1, r + 1, "=") for r in range(1, 6)])
    b = event("B", "2025/11/20", {1: ("X", 1500, ""), 2: ("Y", 1800, "")}, [(1, 2, 1, "1")])
    rep = build_period([a, b])
    x = player(rep, "X")
    assert x.change is None and x.initial.Ru == 1632
    assert player(rep, "Y").change.N == 0
    assert any("X: unrated in A, shown as 1500 in B" in n for n in rep.notes)


# --- the period's new rating and the floor (§7.2.1) ---------------------------------------

@pytest.mark.parametrize("Ro,published", [(1419, False), (1420, True)])
def test_period_new_rating_below_1400_is_not_published(Ro, published):
    # 2025 (floor 1400). The player (K 20) loses to an equal rating in each of two events:
    # PD .50 -> -.50 x 20 = -10.00 per event, -20 in the period: 1419 -> 1399 (below
    # 1400: not published, shown as unrated), 1420 -> 1400 (published).
    players = {1: ("Low", Ro, ""), 2: ("Same", Ro, "")}
    games = [(1, 2, 1, "1")]
    rep = build_period([event("A", "2025/11/03", players, games),
                        event("B", "2025/11/20", players, games)])
    c = player(rep, "Low").change
    assert (c.new_rating, c.published) == (Ro - 20, published)


# --- issue 10: the same event twice, a FIDE id twice, events of different periods ------

SAN = Path(__file__).parents[1] / "data" / "trf" / "san_viator_2018_swiss.trf"
GROS = Path(__file__).parents[1] / "data" / "trf" / "gros_2010_swiss_after_round4.trf"


def test_the_same_event_in_other_bytes_is_refused():
    # issue 10 #2: the same file with CRLF line endings (other bytes, the same event:
    # name, dates, players) would count every game twice.
    text = SAN.read_bytes()
    crlf = text.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    assert crlf != text
    a = parse_trf(text, source="a.trf")
    b = parse_trf(crlf, source="b.trf")
    with pytest.raises(InputError, match="same event as a.trf"):
        build_period([a, b])


def test_the_same_games_under_another_name_are_refused():
    # H10 #6: the same event twice where only the 012 name differs (same dates, players,
    # games) would count every game twice: refused like the same event.
    players = {1: ("A", 2000, ""), 2: ("B", 1900, "")}
    games = [(1, 1, 2, "1")]
    a = event("Open", "2025/11/01", players, games)
    b = event("Open (corrected)", "2025/11/01", players, games)
    with pytest.raises(InputError, match="same games as Open.trf.*only the event name differs"):
        build_period([a, b])
    # another result in the same pairing is another event: pooled (1 + 0 against 1900:
    # D 100, PD .64 twice: ΣΔR 1 - 1.28 = -0.28, K 20 (2000, no birth year) -> -5.60 -> -6)
    c = event("Open (corrected)", "2025/11/01", players, [(1, 1, 2, "0")])
    rep = build_period([a, c])
    assert player(rep, "A").change.rating_change == -6


def test_a_fide_id_listed_twice_is_flagged_not_merged():
    # issue 10 #3: two rows with FIDE id 123 in one event would be merged into one player.
    players = [player_line(1, "A", 1800, fide_id=123, rounds=[(2, "w", "1")]),
               player_line(2, "B", 1800, fide_id=123, rounds=[(1, "b", "0")])]
    t = parse_trf(trf({"012": "E", "042": "2025/11/01", "122": "90 min"}, players), source="e.trf")
    with pytest.raises(InputError, match="FIDE id 123 is listed twice.*start ranks 1 and 2"):
        build_period([t])


def test_events_of_different_months_are_refused_unless_spanned():
    # issue 10 #4: a FIDE rating period is one calendar month by the event's end date.
    # San Viator ends in 2018, Gros in 2010: refused; with span=True pooled, with a note.
    a = parse_trf(SAN.read_bytes(), source="san.trf")
    b = parse_trf(GROS.read_bytes(), source="gros.trf")
    with pytest.raises(PeriodSpanError, match="different rating periods"):
        build_period([a, b])
    rep = build_period([a, b], span=True)
    assert any("pooled on purpose" in n for n in rep.notes)
    # an event starting 28 Feb and ending 2 Mar is in March with one ending 20 Mar
    players = {1: ("A", 2000, ""), 2: ("B", 2000, "")}
    games = [(1, 1, 2, "=")]
    feb = event("F", "2025/02/28", players, games, end="2025/03/02")
    mar = event("M", "2025/03/10", players, games, end="2025/03/20")
    assert len(build_period([feb, mar]).events) == 2
    apr = event("P", "2025/03/30", players, games, end="2025/04/02")
    with pytest.raises(PeriodSpanError):
        build_period([feb, apr])


# --- issue 12 #7: rapid/blitz, a standard rating counts (R&B §7.2.1) -------------------

def test_rapid_period_counts_a_standard_rating():
    # Two rapid events (15 min + 10 s) in November 2025. B has no rapid rating in the
    # files, standard 2100 on the list: B counts as rated with 2100 (R&B §7.2.1).
    # A (2000, K 20) loses to B in each: D -100 -> PD .36 -> -.36 x 20 = -7.20 per event,
    # -14.40 in the period -> -14 -> 1986. B (K 20 by the rule, 2100): +.36 x 2 x 20 =
    # +14.40 -> +14 -> 2114.
    from xl_fide.lists._model import PlayerData, PlayerDirectory
    directory = PlayerDirectory([PlayerData(22, "B", standard_rating=2100)])
    head = {"122": "15 min + 10 sec"}
    players = [player_line(1, "A", 2000, fide_id=11, rounds=[(2, "w", "0")]),
               player_line(2, "B", None, fide_id=22, rounds=[(1, "b", "1")])]
    a = parse_trf(trf({"012": "R1", "042": "2025/11/01", **head}, players), source="r1.trf")
    b = parse_trf(trf({"012": "R2", "042": "2025/11/15", **head}, players), source="r2.trf")
    rep = build_period([a, b], players=directory)
    ca, cb = player(rep, "A").change, player(rep, "B").change
    assert (ca.N, ca.change, ca.new_rating) == (2, -1440, 1986)
    assert (cb.Ro, cb.N, cb.new_rating) == (2100, 2, 2114)


def test_a_trf_and_its_own_workbook_are_the_same_event(tmp_path):
    # issue 10 #2: the workbook written from a TRF is the same event in another format.
    from xl_fide.excel._fill import fill_workbook, save_workbook
    from xl_fide.event.report import build_report
    from xl_fide.excel._read import read_workbook
    t = parse_trf(SAN.read_bytes(), source="san.trf")
    book = save_workbook(fill_workbook(build_report(t)), tmp_path / "san.xlsx")
    with pytest.raises(InputError, match="same event as san.trf"):
        build_period([t, read_workbook(book)])


def test_ro_of_a_march_2024_period_is_the_adjusted_list_rating():
    # An event from 26 Feb to 1 Mar 2024 is in the March 2024 period. Its games are rated
    # with the February ratings (its start, 2022 rules): 1500 beats 1500, PD .50 ->
    # +.50 x 20 = +10. The list before the period is March's, adjusted:
    # 1500 + 0.4 x 500 = 1700 -> new rating 1710 (B.02 §8.3.4: list rating + change).
    players = {1: ("P", 1500, ""), 2: ("Q", 1500, "")}
    a = event("A", "2024/02/26", players, [(1, 1, 2, "1")], end="2024/03/01")
    rep = build_period([a], EventOptions(k=20))
    p = player(rep, "P").change
    assert (p.Ro, p.events[0].Ro, p.change, p.new_rating) == (1700, 1500, 1000, 1710)
    assert any("1500 -> 1700" in n for n in rep.notes)


def test_the_period_floor_is_that_of_the_list_after_it():
    # An event from 26 Feb to 1 Mar 2024 (February rules: floor 1000) is in the March
    # period, whose list has the floor 1400 (B.02 §7.2.1). P: February 1009, Ro of the
    # period adjusted: 1009 + round(0.4 x 991 = 396.4) = 1405; P loses to Q (1009): PD .50
    # -> -.50 x 20 = -10 -> 1395: below 1400, not published (by the February floor 1000
    # it would be).
    players = {1: ("P", 1009, ""), 2: ("Q", 1009, "")}
    a = event("A", "2024/02/26", players, [(1, 2, 1, "1")], end="2024/03/01")
    p = player(build_period([a], EventOptions(k=20)), "P").change
    assert (p.Ro, p.new_rating, p.published) == (1405, 1395, False)


# --- issue 22 #3: standard, rapid and blitz are never pooled ---------------------------

def test_events_of_different_time_controls_are_refused(tmp_path, capsys):
    # #3: a standard and a rapid event of one month were pooled into one new rating.
    players = {1: ("A", 2000, ""), 2: ("B", 2000, "")}
    games = [(1, 1, 2, "1")]
    std = event("Std", "2025/11/01", players, games)            # 122: 90 min + 30 sec
    text = trf({"012": "Rap", "042": "2025/11/08", "052": "2025/11/08", "122": "15 min + 10 sec"},
               [player_line(1, "A", 2000, rounds=[(2, "w", "1")]),
                player_line(2, "B", 2000, rounds=[(1, "b", "0")])])
    rap = parse_trf(text, source="Rap.trf")
    with pytest.raises(PeriodTimeControlError, match=r"different time controls \(standard: "
                                                      r"Std.trf; rapid: Rap.trf\)"):
        build_period([std, rap])
    # one time control given on purpose: rated as one, with a note naming the other file.
    # Equal ratings, PD .50: A +0.50 twice, K 20 (2000, no birth year): +20.00 -> 2020.
    rep = build_period([std, rap], EventOptions(time_control="standard"))
    assert player(rep, "A").change.new_rating == 2020
    assert any("Rap: the file states rapid, rated as standard" in n for n in rep.notes)
    # the command line: one line, exit 2
    from xl_fide.cli._main import main
    (tmp_path / "std.trf").write_text(trf({"012": "Std", "042": "2025/11/01",
                                           "122": "90 min + 30 sec"},
                                          [player_line(1, "A", 2000, rounds=[(2, "w", "1")]),
                                           player_line(2, "B", 2000, rounds=[(1, "b", "0")])]))
    (tmp_path / "rap.trf").write_text(text)
    assert main(["period", str(tmp_path / "std.trf"), str(tmp_path / "rap.trf")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "different time controls" in err[0] and "--time-control" in err[0]


# --- issue 22 #4: a corrected re-export is the same event ------------------------------

def event_with_ids(name, start, ratings, names=None, ranks=None, end=None):
    """Two players with FIDE ids 11 and 22 (ratings by id); 11 beats 22 in round 1.
    ``ranks`` maps id -> start rank (default 11 -> 1)."""
    ranks = ranks or {11: 1, 22: 2}
    names = names or {11: "Alpha, A", 22: "Beta, B"}
    other = {11: 22, 22: 11}
    lines = [player_line(ranks[i], names[i], ratings[i], fide_id=i,
                         rounds=[(ranks[other[i]], "w" if i == 11 else "b",
                                  "1" if i == 11 else "0")])
             for i in sorted((11, 22), key=lambda i: ranks[i])]
    head = {"012": name, "042": start, "052": end or start, "122": "90 min + 30 sec"}
    return parse_trf(trf(head, lines), source=f"{name}-{start.replace('/', '')}.trf")


@pytest.mark.parametrize("changed, what", [
    (dict(names={11: "Alpha, Anna", 22: "Beta, B"}), "a player's name differs"),
    (dict(ratings={11: 2000, 22: 2150}), "a rating differs"),
    (dict(start="2025/11/02"), "the dates differ"),
    # a corrected rating re-ranks the players (start ranks by rating): the same games
    (dict(ratings={11: 2000, 22: 2250}, ranks={11: 2, 22: 1}), "a rating differs"),
])
def test_a_corrected_export_is_the_same_event(changed, what):
    # #4: a second export with one name, one rating or the date corrected was pooled:
    # every game counted twice (-40 instead of -20). The rule (README, period): the same
    # players and every round cell alike are the same games, whatever else differs.
    given = dict(name="Open", start="2025/11/01", ratings={11: 2000, 22: 2100})
    first = event_with_ids(**given)
    second = event_with_ids(**{**given, **changed})
    with pytest.raises(InputError, match=rf"the same games as {first.source} .*only {what}\b"):
        build_period([first, second])


def test_another_result_or_another_player_is_another_event():
    # the same two players with another result, or a third player, are other events
    a = event_with_ids("Open", "2025/11/01", {11: 2000, 22: 2100})
    lines = [player_line(1, "Alpha, A", 2000, fide_id=11, rounds=[(2, "w", "=")]),
             player_line(2, "Beta, B", 2100, fide_id=22, rounds=[(1, "b", "=")])]
    b = parse_trf(trf({"012": "Open", "042": "2025/11/15", "122": "90 min + 30 sec"}, lines),
                  source="b.trf")
    # A: 1 - .36 = +.64 and .5 - .36 = +.14 (D -100, PD .36), K 20: 20 x .78 = 15.60 -> +16
    assert player(build_period([a, b]), "Alpha, A").change.rating_change == 16


def test_the_same_games_with_some_fide_ids_or_none_are_refused():
    # the events are compared in groups of the same number and sum of FIDE ids (both
    # identities hold every player's id), else of the same count of each result: a
    # corrected name of a player without an id, in an event where another has one, or
    # in an event where none has one, is still the same games
    def export(name_b, ids, result="1", day="01"):
        lines = [player_line(1, "Alpha, A", 2000, fide_id=ids[0], rounds=[(2, "w", result)]),
                 player_line(2, name_b, 1900, fide_id=ids[1],
                             rounds=[(1, "b", {"1": "0", "0": "1"}[result])])]
        return parse_trf(trf({"012": "Open", "042": f"2025/11/{day}"}, lines),
                         source=f"{name_b}-{ids}-{result}-{day}.trf")

    for ids in ((11, None), (None, None)):
        first = export("Beta, B", ids)
        with pytest.raises(InputError, match=rf"the same games as {re.escape(first.source)} .*only a "
                                             r"player's name differs"):
            build_period([first, export("Beta, Bea", ids)])
        # another result (under the same name, on another day), or another player's
        # id: other games, pooled
        assert len(build_period([first, export("Beta, B", ids, "0", "02")]).players) == 2
    assert len(build_period([export("Beta, B", (11, None)),
                             export("Beta, B", (11, 33), day="02")]).players) == 3


def test_events_share_what_the_period_takes_of_equal_rules_only():
    # build_period works out _period_rules once per distinct rules (_same_rules): the
    # key holds every field of EventRules but period_year, which _period_rules replaces
    import dataclasses

    from xl_fide.event import period as period_module
    from xl_fide.rules.editions import EventRules
    from xl_fide.event.resolve import event_rules
    fields = {f.name for f in dataclasses.fields(EventRules)}
    assert fields == {"date", "time_control", "time_control_source", "edition",
                      "period_year", "notes", "end_date", "options"}     # _same_rules's
    lines = [player_line(1, "A", 1500, rounds=[(2, "w", "1")]),
             player_line(2, "B", 1600, rounds=[(1, "b", "0")])]
    a = parse_trf(trf({"012": "A", "042": "2025/11/01", "052": "2025/11/02", "XXR": "1"}, lines))
    b = parse_trf(trf({"012": "B", "042": "2025/11/01", "052": "2025/11/02", "XXR": "1"}, lines))
    c = parse_trf(trf({"012": "C", "042": "2025/11/03", "052": "2025/11/04", "XXR": "1"}, lines))
    options = EventOptions()
    ra, rb, rc = (event_rules(t, options) for t in (a, b, c))
    assert ra is not rb and ra == rb and ra != rc
    same = period_module._same_rules
    assert same(ra) == same(rb) and same(ra) != same(rc)
    assert same(ra) == same(dataclasses.replace(ra, period_year=1999))
