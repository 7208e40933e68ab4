"""Issue 32 item 5: every formula cell of the player sheet (both modes, blank or filled
from a games CSV) is saved with its value, and those values are what LibreOffice and
Gnumeric compute, cell by cell. The figures are the engine's (`xl-fide rate`); the helper
cells are worked out once (xl_fide/excel/_player.py, player_values) and checked here.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from openpyxl import load_workbook

from tests.excel.test_player import CASES, csv_of
from tests.excel.test_workbook_cached_every_cell import _same, cached, without_value
from tests.harness import gnumeric
from xl_fide.cli import main
from xl_fide.excel._fence import book_state


def _book(tmp_path, name, formulas, text=None, opts=()):
    out = tmp_path / f"{name}_{formulas}.xlsx"
    argv = ["template", "--layout", "player", "--formulas", formulas, "-o", str(out)]
    if text is not None:
        f = tmp_path / f"{name}.csv"
        f.write_text(text, encoding="utf-8")
        argv += ["--games", str(f), *opts]
    assert main(argv) == 0
    return out


def _differences(path, recalculated):
    return {k: (v, recalculated[k[0]][k[1]].value) for k, v in cached(path).items()
            if not _same(v, recalculated[k[0]][k[1]].value)}


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_every_formula_cell_has_a_value(tmp_path, formulas):
    books = [_book(tmp_path, "blank", formulas)]
    books += [_book(tmp_path, name, formulas, text, opts)
              for name, (text, opts, _, _) in CASES.items()]
    for path in books:
        assert without_value(path) == {}, path.name
        by_calamine = cached(path)
        assert len(by_calamine) > 1600
        # openpyxl's data_only read gives the same values (its "" of an empty text: None)
        wb = load_workbook(path, data_only=True)
        assert not {k: v for k, v in by_calamine.items()
                    if not _same(v, wb[k[0]][k[1]].value)}, path.name
    # the figures: the new rating and the changes of `xl-fide rate` (by hand in CASES)
    for name, (text, opts, new, changes) in CASES.items():
        ws = load_workbook(tmp_path / f"{name}_{formulas}.xlsx", data_only=True)["Player"]
        if new is None:
            assert ws["K8"].value.startswith("not published"), name
        else:
            assert ws["K8"].value == new, name
        assert [ws.cell(16 + i, 11).value for i in range(len(changes))] == changes, name


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
def test_gnumeric_computes_the_cached_values(tmp_path):
    gnumeric.require()
    for name, (text, opts, _, _) in {"blank": (None, (), None, None), **CASES}.items():
        path = _book(tmp_path, name, "native", text, opts)
        assert _differences(path, gnumeric.recalc(path, tmp_path / "g.xlsx")) == {}, name


@pytest.mark.parametrize("formulas", ["native", "udf"])
def test_libreoffice_computes_the_cached_values(office, tmp_path, formulas):
    for name in ("blank", "unrated", "once_tie", "junior", "floor"):
        text, opts = (None, ()) if name == "blank" else CASES[name][:2]
        path = _book(tmp_path, name, formulas, text, opts)
        office.recalc(path, tmp_path / "lo.xlsx", xlwings_blanks=False)
        assert _differences(path, load_workbook(tmp_path / "lo.xlsx", data_only=True)) == {}, \
            (name, formulas)


# ------------------------------------------------------- random events, every cell

_RESULTS = ["1", "½", "0", "+", "-", "1.00", "0.50", "0-1", "=", "H"]
game_st = st.tuples(st.one_of(st.none(), st.integers(1000, 2900)), st.sampled_from(_RESULTS))
event_st = st.tuples(st.sampled_from(["2021-06", "2023-05", "2024-06", "2025-11"]),
                     st.integers(1, 20), st.lists(game_st, min_size=1, max_size=6))


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(Ro=st.one_of(st.none(), st.integers(1000, 2800)),
       K=st.one_of(st.none(), st.sampled_from([10, 20, 40])),
       born=st.one_of(st.none(), st.integers(1950, 2015)),
       tc=st.sampled_from(["standard", "rapid", "blitz"]),
       events=st.lists(event_st, min_size=1, max_size=3, unique_by=lambda e: (e[0], e[1])))
def test_random_events_cached_equals_gnumeric(tmp_path_factory, Ro, K, born, tc, events):
    """Random periods (unrated players, below the floor, R&B, the 2022 once-per-event
    400-point rule, 2024's initial rule, forfeits, byes): the sheet written with every
    value cached, Gnumeric's recalculation equal in every cell."""
    gnumeric.require()
    tmp = tmp_path_factory.mktemp("p")
    rows = []
    for i, (month, day, games) in enumerate(events):
        start = f"{month}-{day:02d}"
        rows += [f"E{i},{start},{start},{'' if R is None else R},{res}" for R, res in games]
    opts = ["--rating", "unrated" if Ro is None else str(Ro), "--time-control", tc]
    opts += [] if K is None else ["--k", str(K)]
    opts += [] if born is None else ["--birth-year", str(born)]
    path = _book(tmp, "r", "native", csv_of(*rows), opts)
    assert without_value(path) == {}
    assert _differences(path, gnumeric.recalc(path, tmp / "g.xlsx")) == {}


_own = st.one_of(st.none(), st.tuples(st.integers(1400, 2600), st.sampled_from([10, 20, 40])))


@settings(max_examples=50, deadline=None)
@given(Ro=st.one_of(st.none(), st.integers(1000, 2800)),
       K=st.one_of(st.none(), st.sampled_from([10, 20, 40])),
       born=st.one_of(st.none(), st.integers(1950, 2015)),
       so_far=st.one_of(st.none(), st.integers(0, 60)),
       peak=st.one_of(st.none(), st.integers(1400, 2700)),
       tc=st.sampled_from(["standard", "rapid", "blitz"]), udf=st.booleans(),
       events=st.lists(st.tuples(st.sampled_from(["2021-06", "2023-05", "2024-06", "2025-11"]),
                                 st.integers(1, 20), st.lists(game_st, min_size=1, max_size=8),
                                 _own),
                       min_size=1, max_size=4, unique_by=lambda e: (e[0], e[1])))
def test_every_formula_cell_gets_a_value_on_random_periods(Ro, K, born, so_far, peak, tc,
                                                           udf, events):
    """Without a spreadsheet: whatever the period (own Ro and K per event, K by rule from
    birth year, games so far and peak), every formula cell of the sheet gets a value, and
    the worked-out helpers agree with the engine where both count (the model checks N, W,
    ΣΔR, K used, the rounding and the new rating against rate_player as it goes)."""
    from xl_fide._games import parse_games
    from xl_fide.event.player_period import PlayerInputs, rate_player
    from xl_fide.errors import XlFideError
    from xl_fide.excel._player import build_player_sheet
    from xl_fide.rules.editions import TimeControl
    rows = []
    for i, (month, day, games, own) in enumerate(events):
        start = f"{month}-{day:02d}"
        ro_k = ",," if own is None else f",{own[0]},{own[1]}"
        rows += [f"E{i},{start},{start},{'' if R is None else R},{res}{ro_k}"
                 for R, res in games]
    g = parse_games(csv_of(*rows, head="event,event_start,event_end,opponent_rating,result,"
                           "Ro,K"), "g.csv")
    player = PlayerInputs(Ro, K, born, so_far, peak, TimeControl.parse(tc))
    try:
        rate_player(g, player)
    except XlFideError:
        return                       # refused before any sheet is written (the CLI's order)
    wb = build_player_sheet(formulas="udf" if udf else "native", games=g, player=player)
    values = book_state(wb)["cached"]
    for ws in wb.worksheets:
        formulas = {c.coordinate for row in ws.iter_rows() for c in row if c.data_type == "f"}
        assert formulas <= set(values.get(ws.title, {})), ws.title
