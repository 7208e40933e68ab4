"""Issue 33 #1: ``xl-fide period`` (TRFs) and ``xl-fide rate`` (the same games as a CSV)
give one player the same period: the same Ro it is added to, K, K x ΣΔR, one rounding
and new rating, including events that started in the previous month (their own,
earlier Ro for their own games) and months where the rules change (1 Mar 2024: a new
edition and the adjustment; 1 Oct 2025: the 2650 exemption).

The base rating is the list before the period: given (``--player-data`` to period,
``--rating`` to rate), or, given to neither, each event's own Ro in the files
(period: the TRFs; rate: the CSV's Ro column).
"""

import contextlib
import datetime as dt
import io
import json
import tempfile
from pathlib import Path

from hypothesis import given, settings, strategies as st

from tests.harness.trf_lines import player_line, trf
from xl_fide.cli._main import main

P_ID = 4300001
RESULTS = {"1": ("1", "0", "1"), "=": ("=", "=", "0.5"), "0": ("0", "1", "0")}


def cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


@st.composite
def periods(draw):
    month = draw(st.sampled_from([(2025, 11), (2025, 10), (2024, 3)]))
    # before 1 Mar 2024 a list rating is adjusted for March: a base given then
    base = draw(st.sampled_from(["files", "given"] if month != (2024, 3) else ["given"]))
    events = []
    for e in range(draw(st.integers(1, 3))):
        end = dt.date(*month, draw(st.integers(1, 28)))
        start = end - dt.timedelta(days=draw(st.integers(0, 9)))   # may be the month before
        Ro = draw(st.integers(1400, 2800))
        # opponents: below 1400 drawn means unrated (not a rated game)
        games = draw(st.lists(st.tuples(st.integers(1300, 2800), st.sampled_from("1=0")),
                              min_size=1, max_size=6))
        events.append((f"Event {e}", start, end, Ro,
                       [(R if R >= 1400 else None, res) for R, res in games]))
    return {"events": events, "base": base, "Ro": draw(st.integers(1400, 2800)),
            "k": draw(st.sampled_from([None, None, 10, 20, 40, 100]))}


def write_trf(folder, e, name, start, end, Ro, games):
    n = len(games)
    cells = {1: []}
    players = {1: ("Player P", Ro, P_ID)}
    for r, (R, res) in enumerate(games, 1):
        mine, theirs, _ = RESULTS[res]
        cells[1].append((r + 1, "w" if r % 2 else "b", mine))
        cells[r + 1] = [(0, "-", "Z")] * n
        cells[r + 1][r - 1] = (1, "b" if r % 2 else "w", theirs)
        players[r + 1] = (f"Opponent {e}-{r}", R, 4300100 + 10 * e + r)
    head = {"012": name, "042": start.strftime("%Y/%m/%d"), "052": end.strftime("%Y/%m/%d"),
            "062": str(n + 1), "122": "90 min + 30 sec"}
    lines = [player_line(rank, nm, R, fide_id=fid, rounds=cells[rank])
             for rank, (nm, R, fid) in players.items()]
    path = folder / f"event{e}.trf"
    path.write_text(trf(head, lines))
    return path


@settings(max_examples=60, deadline=None)
@given(periods())
def test_period_and_rate_agree(case):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = [write_trf(folder, e, *ev) for e, ev in enumerate(case["events"])]
        rows = ["event,event_start,event_end,opponent_rating,result,Ro"]
        for name, start, end, Ro, games in case["events"]:
            rows += [f"{name},{start.isoformat()},{end.isoformat()},"
                     f"{'unrated' if R is None else R},{RESULTS[res][2]},{Ro}"
                     for R, res in games]
        csv_path = folder / "games.csv"
        csv_path.write_text("\n".join(rows) + "\n")
        k = ["--k", case["k"]] if case["k"] else []
        period_args, rate_args = [], []
        if case["base"] == "given":
            data = folder / "list.csv"
            data.write_text(f"fide_id,name,rating\n{P_ID},Player P,{case['Ro']}\n")
            period_args, rate_args = ["--player-data", data], ["--rating", case["Ro"]]
        period = cli("period", *files, "--format", "json", "--quiet", *k, *period_args)
        rate = cli("rate", csv_path, "--format", "json", "--quiet", *k, *rate_args)
    (p,) = [p for p in period["players"] if p["fide_id"] == P_ID]
    assert p["rating"] == rate["Ro"]
    if case["base"] == "given":
        assert p["rating"] == case["Ro"]
    # K before the cap is "given" only where a K was (--k): rate's K is the rule's otherwise
    assert (p["k"], p["k_source"], p["games_rated"]) == (rate["K_used"], rate["K_source"],
                                                         rate["N"])
    assert p["k_given"] == (rate["K"] if rate["K_source"] == "given" else None)
    assert (p["change"], p["rating_change"], p["new_rating"], p["published"]) == (
        rate["change"], rate["rating_change"], rate["computed_rating"], rate["published"])
    # each event its own Ro for its own games
    theirs = {ev["event"]: (ev["Ro"], ev["sum_delta_R"], ev["change"]) for ev in rate["events"]}
    assert {ev["event"]: (ev["rating"], ev["sum_delta_R"], ev["change"]) for ev in p["events"]} \
        == theirs
