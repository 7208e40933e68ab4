"""Issue 33 #1: the rating a period's change is added to (FIDE B.02 §8.3, §8.3.4).

The change of a rating period is added to the rating on the list before the period (the
November list for November); an event that started in the previous month keeps its own
(October) Ro for its own games. Numbers by hand from table 8.1.2 in the comments.
"""

import datetime as dt

import pytest

from tests.harness.trf_lines import player_line, round_cells, trf
from xl_fide.cli._main import main
from xl_fide.event.period import build_period
from xl_fide.event.resolve import period_base
from xl_fide.trf import parse_trf

P_ID = 4100001


def event(name, start, end, players, games):
    """A TRF: ``players`` rank -> (name, rating, FIDE id); ``games`` (round, white rank,
    black rank, white's result)."""
    cells = round_cells(players, games)
    head = {"012": name, "042": start, "052": end, "062": str(len(players)),
            "122": "90 min + 30 sec"}
    lines = [player_line(rank, nm, R, fide_id=fid, rounds=cells[rank])
             for rank, (nm, R, fid) in players.items()]
    return trf(head, lines)


# Event A starts 28 Oct 2025 and ends 2 Nov: the November period, rated with the
# October list (P 1900). P beats O1 (1900): D 0, PD .50, ΔR +.50; beats O2 (1690):
# D 210, P the higher, PD .77, ΔR +.23. ΣΔR +.73, K 20 (below 2400, no birth year or
# career games known: B.02 §8.3.3) -> +14.60.
A = event("Autumn Open", "2025/10/28", "2025/11/02",
          {1: ("P", 1900, P_ID), 2: ("O1", 1900, 4100002), 3: ("O2", 1690, 4100003)},
          [(1, 1, 2, "1"), (2, 3, 1, "0")])
# Event B starts 10 Nov 2025: the November list (P 1920). P beats O3 (1920): PD .50,
# +.50; beats O4 (1802): D 118, PD .66, +.34. ΣΔR +.84 -> 20 x .84 = +16.80.
B = event("November Cup", "2025/11/10", "2025/11/12",
          {1: ("P", 1920, P_ID), 2: ("O3", 1920, 4100004), 3: ("O4", 1802, 4100005)},
          [(1, 1, 2, "1"), (2, 3, 1, "0")])
# The period: 14.60 + 16.80 = 31.40, rounded once (§8.3.4) -> +31 (per event it would be
# +15 +17 = +32), added to the list before the period: 1920 + 31 = 1951 (not the
# October 1900 + 31 = 1931).


def P(report):
    (p,) = [p for p in report.players if p.fide_id == P_ID]
    return p


def test_the_change_is_added_to_the_list_before_the_period():
    rep = build_period([parse_trf(B, source="b.trf"), parse_trf(A, source="a.trf")])
    c = P(rep).change
    assert [e.Ro for e in c.events] == [1900, 1920]          # each event its own Ro
    assert [e.sum_delta_R for e in c.events] == [73, 84]
    assert (c.K, [c.event_change(i) for i in range(2)]) == (20, [1460, 1680])
    assert (c.Ro, c.change, c.rating_change, c.new_rating) == (1920, 3140, 31, 1951)
    assert P(rep).Ro == 1920
    # the note says which rating was used (no list given)
    assert any(n.startswith("Ro of the period 2025-11 for 1 player (P): the rating in "
                            "their latest event") for n in rep.notes)


def test_only_an_event_of_the_previous_month_gives_its_rating_with_a_note():
    # A alone: its own 1900 (nothing else known), said in a note: +.73 x 20 = 14.60
    # -> +15 -> 1915
    rep = build_period([parse_trf(A, source="a.trf")])
    assert (P(rep).Ro, P(rep).change.new_rating) == (1900, 1915)
    assert any(n.startswith("Ro of the period 2025-11 for 3 players (P, O1, O2): the "
                            "rating in an event that does not start in 2025-11") for n in rep.notes)


def test_the_list_given_is_the_base(tmp_path, capsys):
    # the player data says 1925 on the list before the period: 1925 + 31 = 1956; the
    # events keep 1900 and 1920 for their games (the same ΣΔR, K 20)
    a, b, data = tmp_path / "a.trf", tmp_path / "b.trf", tmp_path / "list.csv"
    a.write_text(A)
    b.write_text(B)
    data.write_text(f"fide_id,name,rating\n{P_ID},P,1925\n")
    assert main(["period", str(a), str(b), "--player-data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "P (4100001): Ro 1925, K 20" in out
    assert "  Autumn Open: Ro 1900, 2 games" in out and "  November Cup: Ro 1920, 2 games" in out
    assert "  total: K×ΣΔR +31.40 -> +31, new rating 1956" in out


def test_rate_and_period_agree_on_the_two_events(tmp_path, capsys):
    a, b = tmp_path / "a.trf", tmp_path / "b.trf"
    a.write_text(A)
    b.write_text(B)
    assert main(["period", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "P (4100001): Ro 1920, K 20" in out
    assert "  total: K×ΣΔR +31.40 -> +31, new rating 1951" in out
    games = tmp_path / "games.csv"
    games.write_text("event,event_start,event_end,opponent_rating,result,Ro\n"
                     "Autumn Open,2025-10-28,2025-11-02,1900,1,1900\n"
                     "Autumn Open,2025-10-28,2025-11-02,1690,1,1900\n"
                     "November Cup,2025-11-10,2025-11-12,1920,1,1920\n"
                     "November Cup,2025-11-10,2025-11-12,1802,1,1920\n")
    for extra in ([], ["--rating", "1920"]):     # the CSV's latest Ro, or given
        assert main(["rate", str(games), "--format", "json", *extra]) == 0
        import json
        doc = json.loads(capsys.readouterr().out)
        assert (doc["Ro"], doc["change"], doc["rating_change"], doc["new_rating"]) == (
            1920, 31.4, 31, 1951)


def test_pooled_months_start_from_the_first_months_list():
    # --span pools October and November on purpose: the change of both is added to the
    # list before October (1900, shown by C, which starts in October), not to the
    # November list (1920), which already holds October's result. C: the games of A,
    # +.73 x 20 = 14.60; B +16.80; 31.40 -> +31 -> 1931.
    C = A.replace("Autumn Open", "October Open").replace("2025/10/28", "2025/10/06").replace(
        "2025/11/02", "2025/10/08")
    rep = build_period([parse_trf(B, source="b.trf"), parse_trf(C, source="c.trf")], span=True)
    c = P(rep).change
    assert (c.Ro, [e.Ro for e in c.events], c.change, c.new_rating) == (
        1900, [1900, 1920], 3140, 1931)


D = dt.date


@pytest.mark.parametrize("events,first,expected", [
    ([], None, None),
    ([(None, None)], None, None),
    ([(None, 1500)], None, 0),
    # the latest start wins; of events starting that day, the first given
    ([(D(2025, 10, 28), 1900), (D(2025, 11, 10), 1920), (D(2025, 11, 3), 1910)], None, 1),
    ([(D(2025, 10, 28), 1900), (D(2025, 11, 10), 1920), (D(2025, 11, 3), 1910)],
     D(2025, 11, 1), 1),
    ([(D(2025, 11, 10), 1920), (D(2025, 11, 10), 1930)], D(2025, 11, 1), 0),
    # an event without a rating for the player is passed over
    ([(D(2025, 10, 28), 1900), (D(2025, 11, 10), None)], D(2025, 11, 1), 0),
    ([(None, 1900), (D(2025, 10, 1), 1910)], None, 1),
    # pooled months: events after the first month only when none starts before its end
    ([(D(2025, 11, 10), 1920), (D(2025, 10, 6), 1900)], D(2025, 10, 1), 1),
    ([(D(2025, 12, 1), 1930), (D(2025, 11, 10), 1920), (D(2025, 11, 10), 1925)],
     D(2025, 10, 1), 1),
    ([(D(2025, 12, 31), 1930), (D(2026, 1, 2), 1940)], D(2025, 12, 1), 0),
])
def test_period_base_is_the_latest_rated_event_to_the_first_month(events, first, expected):
    assert period_base(events, first) == expected


def test_lists_give_the_list_before_the_period_not_the_first_events(store, tmp_path, capsys):
    # --lists: the stored October list says 1900, November's 1925 (B's file shows 1920,
    # made before a correction). The period's change is added to the November list:
    # 1925 + 31 = 1956 (K 20 on the November list); A keeps its own 1900, B its file's
    # 1920 for their games (ΣΔR as above). The October list (A's start) would give 1931.
    from tests.lists.test_lists import line, write_list
    for month, R in (("oct25", "1900"), ("nov25", "1925")):
        path = write_list(tmp_path / f"standard_{month}frl.txt",
                          line(P_ID, "P", R, "50", "20"))
        assert main(["lists", "import", str(path)]) == 0
    a, b = tmp_path / "a.trf", tmp_path / "b.trf"
    a.write_text(A)
    b.write_text(B)
    capsys.readouterr()
    assert main(["period", str(a), str(b), "--lists", "--format", "json"]) == 0
    import json
    (p,) = [p for p in json.loads(capsys.readouterr().out)["players"] if p["fide_id"] == P_ID]
    assert (p["rating"], p["k"], p["change"], p["rating_change"], p["new_rating"]) == (
        1925, 20, 31.4, 31, 1956)
    assert [(e["rating"], e["change"]) for e in p["events"]] == [(1900, 14.6), (1920, 16.8)]
