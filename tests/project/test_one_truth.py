"""One number per player, the same in every form (issue 32, "a differential test across
every form").

Random small events (hypothesis): standard and rapid, before and after 1 Mar 2024, over
30 days (rated month by month) or not, players below the floor and unrated. For each,
the new rating of every player from

* the API (``build_report(...).rows[i].new_rating``: the published figure),
* ``xl-fide report --format json`` and ``--format csv``,
* ``xl-fide report --player N --format json`` (the player's card),
* the native cross-table's cached values, and Gnumeric's recalculation of it (an engine
  with Excel's semantics), for an event of one period,
* ``xl-fide report BOOK.xlsx`` (the book read back), and
* ``xl-fide rate`` on the player's games written as a games CSV, for an event of one
  period (K given as the report's, the compared number being the new rating).

must agree. The engine's own correctness is pinned elsewhere against published FIDE
calculations; this test pins that no form drifts from it. Engines are slow: the
spreadsheet part runs on a few examples.
"""
from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from tests.harness import gnumeric
from tests.harness.trf_lines import player_line, trf
from xl_fide import build_report
from xl_fide.cli._main import main
from xl_fide.excel import fill_workbook, save_workbook
from xl_fide.trf import parse_trf

RATINGS = (None, 1388, 1405, 1650, 1990, 2210, 2420, 2660)
#: Start dates under every edition: 2017 rules, 2022 (the 400-point rule once per event,
#: which the native formulas refuse), across 1 Mar 2024, 2024 and 2025 rules.
STARTS = ("2019/05/04", "2023/06/10", "2024/02/10", "2024/06/01", "2025/11/03")
#: The dates whose rules the native cross-table expresses (xl_fide.excel._native).
NATIVE_STARTS = ("2019/05/04", "2024/06/01", "2025/11/03")


def _pairings(n: int) -> list[list[tuple[int, int]]]:
    """A round robin by the circle method: rounds of (white, black) start ranks; an odd
    count gets a bye (0)."""
    ranks = list(range(1, n + 1)) + ([0] if n % 2 else [])
    m = len(ranks)
    rounds = []
    for r in range(m - 1):
        pairs = [(ranks[i], ranks[m - 1 - i]) for i in range(m // 2)]
        rounds.append([(a, b) if r % 2 == 0 else (b, a) for a, b in pairs])
        ranks = [ranks[0], ranks[-1], *ranks[1:-1]]
    return rounds


@st.composite
def events(draw, starts=STARTS):
    n = draw(st.integers(4, 6))
    ratings = [draw(st.sampled_from(RATINGS)) for _ in range(n)]
    births = [draw(st.sampled_from(("", "1950", "1990", "2010"))) for _ in range(n)]
    rounds = _pairings(n)
    cells: dict[int, list[tuple[int, str, str]]] = {p: [] for p in range(1, n + 1)}
    for pairs in rounds:
        for a, b in pairs:
            if 0 in (a, b):
                cells[a or b].append((0, "-", "U"))
                continue
            code = draw(st.sampled_from(("1", "=", "0")))
            other = {"1": "0", "=": "=", "0": "1"}[code]
            cells[a].append((b, "w", code))
            cells[b].append((a, "b", other))
    start = draw(st.sampled_from(starts))
    long = draw(st.booleans())
    tc = draw(st.sampled_from(("90 min + 30 sec", "15 min + 10 sec")))
    yy, mm, dd = start[2:4], int(start[5:7]), int(start[8:10])
    dates = []
    for r in range(len(rounds)):
        # over 30 days: the rounds spread over two calendar months
        month = mm + (1 if long and r >= len(rounds) // 2 else 0)
        year = int(yy) + (month > 12)
        dates.append(f"{year:02d}/{(month - 1) % 12 + 1:02d}/{min(dd + r, 28):02d}")
    players = [player_line(p, f"Player {p}", ratings[p - 1], fide_id=9_100_000 + p,
                           birth=births[p - 1], rounds=cells[p]) for p in range(1, n + 1)]
    extra = ["132" + " " * 88 + "  ".join(d.ljust(8) for d in dates)]
    text = trf({"012": "Truth", "042": start, "052": f"20{dates[-1]}", "122": tc},
               players, extra)
    return text, long


def _cli_json(capsys, *argv):
    assert main([str(a) for a in argv]) == 0
    return json.loads(capsys.readouterr().out)


def _cli_csv(capsys, *argv):
    assert main([str(a) for a in argv]) == 0
    return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))


def _int(text):
    return None if text in ("", None) else int(text)


def _forms_of_the_report(capsys, path, report):
    api = {r.result.start_rank: r.new_rating for r in report.rows}
    players = _cli_json(capsys, "report", path, "--format", "json")["players"]
    as_json = {p["start_rank"]: p["new_rating"] for p in players}
    # what the next list shows (the new rating, an unrated player's initial rating; None
    # where it is not published), and a rated player's computed rating
    listed = {p["start_rank"]: ((p["new_rating"] if p["rating"] is not None
                                 else p["initial_rating"]) if p["published"] else None,
                                p["published"]) for p in players}
    computed = {p["start_rank"]: p["new_rating"] for p in players if p["rating"] is not None}
    as_csv = {int(row["No"]): _int(row["New"])
              for row in _cli_csv(capsys, "report", path, "--format", "csv")
              if row.get("month", "event") == "event"}
    assert as_json == api
    assert as_csv == {k: v for k, v in api.items() if k in as_csv} and len(as_csv) == len(api)
    for rank in api:
        card = _cli_json(capsys, "report", path, "--player", rank, "--format", "json")
        # the card (rate's JSON contract) gives a rating not published as null and the
        # computed one as computed_rating
        assert (card["new_rating"], card["published"]) == listed[rank], rank
        if rank in computed and not card["published"]:
            assert card["computed_rating"] == computed[rank], rank
    return api


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events())
def test_the_report_json_csv_and_card_agree(capsys, tmp_path_factory, event):
    text, _ = event
    path = tmp_path_factory.mktemp("truth") / "event.trf"
    path.write_text(text)
    report = build_report(parse_trf(text, source=str(path)))
    _forms_of_the_report(capsys, path, report)


def _named_column(wb, name: str) -> list:
    sheet, ref = wb.defined_names[name].attr_text.split("!")
    ws = wb[sheet.strip("'")]
    first, last = ref.replace("$", "").split(":")
    col = first.rstrip("0123456789")
    lo, hi = int(first[len(col):]), int(last[len(col):])
    return [ws[f"{col}{r}"].value for r in range(lo, hi + 1)]


def _blank(v):
    """A NewRating cell as a number: blank -> None; ``NP 1395`` (a rating computed but not
    published, below the floor; xl_fide.rules.notes) -> 1395, as the API's new_rating."""
    if v in ("", None):
        return None
    if isinstance(v, str) and v.startswith("NP ") and v[3:].isdigit():
        return int(v[3:])
    return v


def _games_csv(report, rank: int) -> str:
    """The player's rated games of the event as ``xl-fide rate`` reads them."""
    t = report.tournament
    p = t.player(rank)
    start = t.start_date.isoformat()
    end = (t.end_date or t.start_date).isoformat()
    tc = report.time_control.value
    lines = ["event,event_start,event_end,opponent_rating,result,time_control"]
    for g in p.games:
        if g.opponent is None:
            continue
        opp = t.player(g.opponent).rating
        lines.append(f"Truth,{start},{end},{opp or 'unrated'},"
                     f"{ {'1': '1', '=': '0.5', '0': '0'}[g.code] },{tc}")
    return "\n".join(lines) + "\n"


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(events(NATIVE_STARTS).filter(lambda e: not e[1]))
def test_every_form_of_one_period_agrees_in_a_spreadsheet_too(capsys, tmp_path_factory, event):
    gnumeric.require()
    text, _ = event
    folder = tmp_path_factory.mktemp("truth")
    path = folder / "event.trf"
    path.write_text(text)
    report = build_report(parse_trf(text, source=str(path)))
    api = _forms_of_the_report(capsys, path, report)
    order = sorted(api)
    # the native cross-table: its cached values, Gnumeric's recalculation, read back
    book = save_workbook(fill_workbook(report, formulas="native"), folder / "native.xlsx")
    cached = [_blank(v) for v in _named_column(load_workbook(book, data_only=True),
                                                "NewRating")][:len(order)]
    assert cached == [api[r] for r in order]
    recalculated = gnumeric.recalc(book, folder / "recalc.xlsx")
    assert [_blank(v) for v in _named_column(recalculated, "NewRating")][:len(order)] == cached
    back = {p["start_rank"]: p["new_rating"]
            for p in _cli_json(capsys, "report", book, "--format", "json")["players"]}
    assert back == api
    # rate: each rated player's games, K as the report's (the new rating is compared)
    for row in report.rows:
        res = row.result
        if res.rating is None or res.calc is None or not res.N:
            continue
        games = folder / f"games{res.start_rank}.csv"
        games.write_text(_games_csv(report, res.start_rank))
        out = _cli_json(capsys, "rate", games, "--rating", res.rating, "--k", res.K_given,
                        "--format", "json")
        assert (out["computed_rating"], out["published"]) == (api[res.start_rank],
                                                               res.published), res.start_rank


@pytest.mark.parametrize("n", [4, 5])
def test_the_pairings_are_a_round_robin(n):
    met = {frozenset(p) for rnd in _pairings(n) for p in rnd if 0 not in p}
    assert len(met) == n * (n - 1) // 2
