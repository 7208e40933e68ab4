"""The command line against junk (issue 22): junk TRF fields, junk result cells and FIDE
ids in a workbook. Every run ends with exit 0, or exit 2 and one error line; never
exit 3 (an internal error), never a traceback. Seeded and bounded (max_examples <= 40).
"""
from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from tests.harness.trf_lines import player_line, trf
from tests.excel.test_workbook import saved, swiss_example
from tests.excel.test_workbook_truth import round_cell
from xl_fide.cli._main import main
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report
from xl_fide.excel._layout import CROSS
from xl_fide.trf import parse_trf
from xl_fide.event.period import build_period
from xl_fide.errors import InputError

FIELD = st.sampled_from(["1e30", "99999999999", "9" * 11, "-1", "0", "", "x", "½", "²", "1.5",
                         "nan", "inf", "-0", "+1", "1e5", "0x10", "１", "2000", "1500"])
CODE = st.sampled_from(list("10=+-WDLHFUZ") + ["X", "?"])
COLOUR = st.sampled_from(["w", "b", "-", "x", ""])
DATE = st.sampled_from(["2025/11/01", "2025/13/01", "0000/00/00", "9999/12/31", "1900/02/29",
                        "25/11/01", "x", "", "2025/02/30", "10000/01/01"])


def assert_clean_exit(argv, capsys):
    code = main(argv)
    err = capsys.readouterr().err
    errors = [line for line in err.strip().splitlines() if not line.startswith("warning:")]
    assert code in (0, 2), (argv, err)
    assert "internal error" not in err and "Traceback" not in err, err
    if code == 2:
        assert len(errors) == 1, err


@st.composite
def junk_trf(draw):
    n = draw(st.integers(2, 5))
    lines = []
    for i in range(1, n + 1):
        rounds = [(draw(st.sampled_from([0, i, n, 9999, draw(st.integers(1, n))])),
                   draw(COLOUR), draw(CODE)) for _ in range(2)]
        line = player_line(i, f"P{i}", draw(FIELD), birth=draw(DATE), points=draw(FIELD),
                           rounds=rounds).ljust(68)
        fide_id = draw(FIELD)
        lines.append(line[:57] + fide_id.rjust(11)[:11] + line[68:])
    head = {"012": "E", "042": draw(DATE), "052": draw(DATE),
            "122": draw(st.sampled_from(["90 min", "15 min", "3 min + 2 sec", "x", ""])),
            "XXR": draw(st.sampled_from(["2", "0", "99999", "x", "1e30"]))}
    return trf(head, lines)


@settings(max_examples=40, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])
@given(text=junk_trf())
def test_junk_trf_fields_never_exit_3(tmp_path, capsys, text):
    a, b = tmp_path / "a.trf", tmp_path / "b.trf"
    a.write_text(text, encoding="utf-8")
    b.write_text(text.replace("012 E", "012 F"), encoding="utf-8")
    out = tmp_path / "out.trf"
    for argv in (["report", str(a)], ["report", str(a), "--format", "json"],
                 ["trf", str(a), "-o", str(out), "--force"], ["period", str(a), str(b)],
                 ["whatif", str(a), "--player", "1", "--remaining", "2000", "--change", "5"]):
        assert_clean_exit(argv, capsys)


def test_two_players_of_one_name_do_not_break_the_same_games_check():
    # found by the family above: two players of one name without a FIDE id, one with a
    # bye where the other has an opponent: the same games check compared None with a
    # tuple (TypeError, exit 3)
    lines = [player_line(1, "Same", 2000, rounds=[(0, "-", "F"), (3, "w", "1")]),
             player_line(2, "Same", 2000, rounds=[(3, "w", "1"), (0, "-", "F")]),
             player_line(3, "Other", 2000, rounds=[(2, "b", "0"), (1, "b", "0")])]
    a = parse_trf(trf({"012": "E", "042": "2025/11/01"}, lines), source="a.trf")
    b = parse_trf(trf({"012": "F", "042": "2025/11/01"}, lines), source="b.trf")
    with pytest.raises(InputError, match="the same games as a.trf"):
        build_period([a, b])


CELL = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=60),
    st.sampled_from(["1", "½", "=", "+", "-", "H", "1e30", "#N/A", "=1+1", "9" * 45]),
    st.sampled_from([1e30, -1e30, 1e308, 2.0 ** 63, 9e307]),
    st.datetimes(min_value=dt.datetime(1900, 3, 1), max_value=dt.datetime(9999, 1, 1)),
)


@pytest.fixture(scope="module")
def swiss_book(tmp_path_factory):
    return saved(fill_workbook(build_report(swiss_example())), tmp_path_factory.mktemp("fuzz"))


@settings(max_examples=40, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                  HealthCheck.too_slow])
@given(result=CELL, opponent=CELL, fide_id=CELL, rating=CELL)
def test_junk_result_cells_and_ids_never_exit_3(swiss_book, tmp_path, capsys, result,
                                                opponent, fide_id, rating):
    wb = load_workbook(swiss_book)
    ws = wb[CROSS]
    for cell, value in ((round_cell(1, "res", 2), result), (round_cell(2, "opp", 3), opponent),
                        ("E6", fide_id), ("F7", rating)):
        if isinstance(value, str):
            value = re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", value)   # openpyxl refuses
        ws[cell] = value
    path = tmp_path / "junk.xlsx"
    wb.save(path)
    for argv in (["report", str(path)], ["trf", str(path), "-o", str(tmp_path / "o.trf"),
                                         "--force"]):
        assert_clean_exit(argv, capsys)
