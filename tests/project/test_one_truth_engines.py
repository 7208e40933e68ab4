"""One number per player, the same in every form (issue 32): the spreadsheet engines.

tests/project/test_one_truth.py compares the API, the report's JSON/CSV, the card, the
native cross-table of one period (cached and Gnumeric) and ``rate``. This file adds the
forms that need a spreadsheet engine, on random events (hypothesis, a few examples each:
every example starts an engine):

1. the UDF cross-table recalculated by LibreOffice with the xl-fide extension, for events
   of one period and over 30 days (rated month by month, across 1 Mar 2024 too): the new
   rating per player equals the API's ``rows[i].new_rating``, and every cached value
   equals what LibreOffice computes for its cell;
2. the native cross-table of an event over 30 days (its month blocks and their helper
   sheets) recalculated by Gnumeric and by LibreOffice (no add-in): the month-by-month
   new rating per player equals the API's, and the cached values equal Gnumeric's;
3. the player sheet (``xl-fide template --layout player --games``), native recalculated
   by Gnumeric and LibreOffice, UDF by LibreOffice with the extension: its new rating,
   computed rating and "published?" equal ``xl-fide rate`` on the same games CSV, and
   its cached values equal the recalculation.

Found on the way: the first month's Ro and K of a rating below the floor were cached
blank (fixed; :func:`test_the_first_month_caches_ro_and_k_below_the_floor`), and the
sheet's NewRating of a player whose rating was not published after an earlier month
(blank: now the column over the months,
:func:`test_a_rating_not_published_before_the_last_month_is_the_sheets_new_rating`).

Every LibreOffice book is opened as a user opens it (``xlwings_blanks=False``: Calc hands
a blank single cell to an add-in as 0, issue 32 #4). Expected values are the API's and
``rate``'s, whose own correctness is pinned against published FIDE calculations
elsewhere; what is pinned here is that no form drifts from them.
"""
from __future__ import annotations

import json
import os
import warnings

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from tests.excel.test_workbook_cached_every_cell import _differences, without_value
from tests.harness import gnumeric
from tests.project.test_one_truth import (
    NATIVE_STARTS, RATINGS, STARTS, _blank, _named_column, events,
)
from xl_fide import build_report
from xl_fide.cli._main import main
from xl_fide.excel import fill_workbook, save_workbook
from xl_fide.trf import parse_trf

#: Every engine example costs seconds: a handful per test keeps CI in its budget
#: (XL_FIDE_TRUTH_EXAMPLES=50 for a longer hunt by hand), and no shrinking (minutes of
#: engine runs): a failure prints its whole event, a reproducer.
ENGINE = settings(max_examples=int(os.environ.get("XL_FIDE_TRUTH_EXAMPLES", "3")),
                  deadline=None,
                  phases=(Phase.explicit, Phase.reuse, Phase.generate),
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow, HealthCheck.filter_too_much])


def _lo_values(office, book, dst):
    """``book`` recalculated by LibreOffice as a user opens it, read as values."""
    office.recalc(book, dst, xlwings_blanks=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return load_workbook(dst, data_only=True)


def _by_months(event) -> bool:
    """An event rated month by month: over 30 days and standard (FIDE B.02 §8.3)."""
    text, long = event
    return long and "\n122 90 min" in text


def _report_of(folder, text):
    path = folder / "event.trf"
    path.write_text(text)
    return build_report(parse_trf(text, source=str(path)))


def _api(report):
    """The API's new rating per player, in start-rank order (the sheet's row order)."""
    return [r.new_rating for r in sorted(report.rows, key=lambda r: r.result.start_rank)]


def _as_sheet(report):
    """The API's new rating per player as the cross-table's NewRating shows it: the
    API's (over 30 days too: the column over the months, issue 32)."""
    return _api(report)


def _sheet_new(values, n):
    return [_blank(v) for v in _named_column(values, "NewRating")][:n]


# ------------------------------------------------------------------ 1. UDF cross-table

@pytest.mark.parametrize("starts, long", [
    (STARTS, False),
    (tuple(s for s in STARTS if s != "2024/02/10"), True),
    (("2024/02/10",), True),        # February and March 2024: the adjustment between them
], ids=["one_period", "over_30_days", "across_1_march_2024"])
def test_the_udf_cross_table_in_libreoffice_agrees(office, tmp_path_factory, starts, long):
    @ENGINE
    @given(events(starts).filter(lambda e: _by_months(e) == long))
    def check(event):
        text, _ = event
        folder = tmp_path_factory.mktemp("udf")
        report = _report_of(folder, text)
        api = _as_sheet(report)
        book = save_workbook(fill_workbook(report, formulas="udf"), folder / "udf.xlsx")
        assert without_value(book) == {}
        assert _sheet_new(load_workbook(book, data_only=True), len(api)) == api
        values = _lo_values(office, book, folder / "lo.xlsx")
        assert _sheet_new(values, len(api)) == api
        assert _differences(book, values) == {}
    check()


# ------------------------------------------------ 2. native cross-table, month by month

@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
def test_the_native_months_in_gnumeric_and_libreoffice_agree(plain_office, tmp_path_factory):
    gnumeric.require()

    @ENGINE
    @given(events(NATIVE_STARTS).filter(_by_months))
    def check(event):
        text, _ = event
        folder = tmp_path_factory.mktemp("months")
        report = _report_of(folder, text)
        assert report.months, "over 30 days: rated month by month"
        api = _as_sheet(report)
        book = save_workbook(fill_workbook(report, formulas="native"), folder / "native.xlsx")
        assert without_value(book) == {}
        assert _sheet_new(load_workbook(book, data_only=True), len(api)) == api
        by_gnumeric = gnumeric.recalc(book, folder / "gnumeric.xlsx")
        assert _sheet_new(by_gnumeric, len(api)) == api
        assert _differences(book, by_gnumeric, blank_index_is_blank=True) == {}
        by_lo = _lo_values(plain_office, book, folder / "lo.xlsx")
        assert _sheet_new(by_lo, len(api)) == api
        assert _differences(book, by_lo) == {}
    check()


def test_the_first_month_caches_ro_and_k_below_the_floor(tmp_path):
    # Found by the test above (issue 32 #6 in a month block): player D rated 1388, below
    # the floor of the 2025 rules (1400, FIDE B.02 §7.2.1), is rated as unrated, yet the
    # month 1 block's Ro and K formulas show his rating (Ro = Ro used, 1388) and K (20,
    # given) as the one-period block does, and every engine computes them; they were
    # cached blank. Rounds on 5 Oct, 19 Oct and 9 Nov 2025 (over 30 days: two months).
    from tests.excel.test_workbook_months import month_blocks
    from tests.harness.trf_lines import player_line, trf
    from xl_fide.excel._layout import CROSS
    from xl_fide.rules.editions import EventOptions
    head = {"012": "Floor", "042": "2025/10/05", "052": "2025/11/09", "122": "90 min"}
    players = [player_line(1, "A", 2000, rounds=[(2, "w", "1"), (3, "w", "="), (4, "w", "0")]),
               player_line(2, "B", 1900, rounds=[(1, "b", "0"), (4, "w", "1"), (3, "w", "=")]),
               player_line(3, "C", 1800, rounds=[(4, "w", "1"), (1, "b", "="), (2, "b", "=")]),
               player_line(4, "D", 1388, rounds=[(3, "b", "0"), (2, "b", "0"), (1, "b", "1")])]
    text = trf(head, players, ["132" + " " * 88 + "25/10/05  25/10/19  25/11/09"])
    report = build_report(parse_trf(text, source="floor.trf"), EventOptions(k=20))
    october = report.months[0].rows[3]
    assert (october.Ro, october.K_given, october.result.rating) == (1388, 20, None)
    for formulas in ("udf", "native"):
        book = save_workbook(fill_workbook(report, formulas=formulas),
                             tmp_path / f"{formulas}.xlsx")
        cols = month_blocks(load_workbook(book))[1]
        ws = load_workbook(book, data_only=True)[CROSS]
        assert (ws.cell(8, cols["Ro"]).value, ws.cell(8, cols["K"]).value) == (1388, 20)
        if formulas == "native" and gnumeric.ssconvert():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                values = gnumeric.recalc(book, tmp_path / "gnumeric.xlsx")
            assert _differences(book, values, blank_index_is_blank=True) == {}


@pytest.mark.parametrize("formulas", ["udf", "native"])
def test_a_rating_not_published_before_the_last_month_is_the_sheets_new_rating(formulas,
                                                                                tmp_path):
    # Found by the random months above. K 20 given. November 2025 (round 1): A 1405
    # loses to B 1405: D 0 -> PD .50, ΔR -.50 x 20 = -10.00 -> 1395, below the floor
    # 1400 of the 2025 rules: not published (FIDE B.02 §7.2.1), A is unrated in
    # December (round 2: draws C, one game: no initial rating). The API, like the
    # report's table, JSON and CSV, gives A 1395 not published; the one-period sheet
    # shows such a rating as "NP 1395" in NewRating. The month-by-month sheet: blank.
    from tests.harness.trf_lines import player_line, trf
    from xl_fide.rules.editions import EventOptions
    head = {"012": "Gone", "042": "2025/11/03", "052": "2025/12/04", "122": "90 min"}
    players = [player_line(1, "A", 1405, rounds=[(2, "w", "0"), (3, "w", "=")]),
               player_line(2, "B", 1405, rounds=[(1, "b", "1"), (4, "w", "=")]),
               player_line(3, "C", 1600, rounds=[(4, "w", "="), (1, "b", "=")]),
               player_line(4, "D", 1600, rounds=[(3, "b", "="), (2, "b", "=")])]
    text = trf(head, players, ["132" + " " * 88 + "25/11/03  25/12/04"])
    report = build_report(parse_trf(text, source="gone.trf"), EventOptions(k=20))
    a = report.rows[0]
    assert len(report.months) == 2
    assert (a.new_rating, a.result.published) == (1395, False)
    # The sheet's NewRating (a column "over the months" right of the month blocks): the
    # last month the player was rated in, NP 1395, cached and as an engine computes it.
    book = save_workbook(fill_workbook(report, formulas=formulas), tmp_path / "gone.xlsx")
    assert _sheet_new(load_workbook(book, data_only=True), 4)[0] == 1395
    if formulas == "native" and gnumeric.ssconvert():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            values = gnumeric.recalc(book, tmp_path / "gnumeric.xlsx")
        assert _sheet_new(values, 4)[0] == 1395
        assert _differences(book, values, blank_index_is_blank=True) == {}


# ------------------------------------------------------------------- 3. the player sheet

_RESULT = st.sampled_from(("1", "½", "0", "=", "1-0", "0.50"))
_GAME = st.tuples(st.sampled_from(RATINGS), _RESULT)
#: (month, day, games) per event: under the 2017, 2022 (400-point rule once per event),
#: 2024 and 2025 rules
_EVENT = st.tuples(st.sampled_from(("2019-05", "2023-06", "2024-06", "2025-11")),
                   st.integers(1, 20), st.lists(_GAME, min_size=1, max_size=5))


@st.composite
def periods(draw):
    """A player's games CSV and the ``rate``/``template`` options: rated (above and below
    the floor, over 2650) or unrated, K given or by rule (birth year), standard or R&B."""
    evs = draw(st.lists(_EVENT, min_size=1, max_size=3, unique_by=lambda e: (e[0], e[1])))
    lines = ["event,event_start,event_end,opponent_rating,result"]
    for i, (month, day, games) in enumerate(evs):
        start = f"{month}-{day:02d}"
        end = f"{month}-{day + 2:02d}"
        lines += [f"E{i},{start},{end},{'unrated' if R is None else R},{res}"
                  for R, res in games]
    Ro = draw(st.sampled_from(RATINGS))
    opts = ["--rating", "unrated" if Ro is None else str(Ro)]
    K = draw(st.sampled_from((None, 10, 20, 40)))
    opts += [] if K is None else ["--k", str(K)]
    born = draw(st.sampled_from((None, 1950, 2010)))
    opts += [] if born is None else ["--birth-year", str(born)]
    opts += ["--time-control", draw(st.sampled_from(("standard", "rapid", "blitz")))]
    return "\n".join(lines) + "\n", opts


def _rate(capsys, games, opts):
    assert main(["rate", str(games), *opts, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    return out["new_rating"], out["computed_rating"], out["published"]


def _named(wb, name):
    (sheet, ref), = wb.defined_names[name].destinations
    return wb[sheet][ref.replace("$", "")].value


def _player_figures(wb):
    """(NewRating where published, ComputedRating, Published is "yes") of a player sheet."""
    published = _named(wb, "Published") == "yes"
    new = _named(wb, "NewRating")
    return (new if published else None), _blank(_named(wb, "ComputedRating")), published


def _player_book(capsys, folder, games, opts, formulas):
    out = folder / f"player_{formulas}.xlsx"
    assert main(["template", "--layout", "player", "--formulas", formulas,
                 "--games", str(games), *opts, "-o", str(out)]) == 0
    capsys.readouterr()
    assert without_value(out) == {}
    return out


@pytest.mark.filterwarnings("ignore:Workbook contains no default style")
def test_the_player_sheet_in_every_engine_agrees_with_rate(office, plain_office, capsys,
                                                           tmp_path_factory):
    gnumeric.require()

    @ENGINE
    @given(periods())
    def check(period):
        text, opts = period
        folder = tmp_path_factory.mktemp("player")
        games = folder / "games.csv"
        games.write_text(text, encoding="utf-8")
        want = _rate(capsys, games, opts)
        native = _player_book(capsys, folder, games, opts, "native")
        udf = _player_book(capsys, folder, games, opts, "udf")
        for book in (native, udf):
            assert _player_figures(load_workbook(book, data_only=True)) == want, book.name
        by_gnumeric = gnumeric.recalc(native, folder / "gnumeric.xlsx")
        assert _player_figures(by_gnumeric) == want
        assert _differences(native, by_gnumeric) == {}
        for engine, book in ((plain_office, native), (office, udf)):
            values = _lo_values(engine, book, folder / f"lo_{book.name}")
            assert _player_figures(values) == want, book.name
            assert _differences(book, values) == {}, book.name
    check()
