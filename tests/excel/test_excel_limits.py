"""Issue 15, #6: the workbooks keep Excel's limits at every size the CLI accepts
(tests/harness/excel_limits.py: 8,192 characters per formula, 64 nested functions,
255 arguments, 255-character text, Excel 2010+ functions or ``_xlfn.``, ours).

Long Swiss events (from about 21 rounds) broke the limit in the Check column; the
restructure of that column is another change (issue 10/11 workbook side). Until it
lands, a size whose ONLY problems are in the Check column is an expected failure that
says so; a problem anywhere else fails.
"""

from __future__ import annotations

import pytest

from tests.harness import excel_limits
from xl_fide import udfs
from xl_fide.excel._layout import CROSS, MAX_PLAYERS, MAX_ROUND_ROBIN, MAX_ROUNDS, _Geometry
from xl_fide.excel._build import build_template

SIZES = [
    ("roundrobin", MAX_ROUND_ROBIN, MAX_ROUND_ROBIN - 1),
    ("roundrobin", 10, 9),
    ("swiss", 60, 9),
    ("swiss", 500, 30),                 # the size: 30 rounds, 500 players
    ("swiss", 120, MAX_ROUNDS),          # the most rounds the CLI builds
    ("swiss", MAX_PLAYERS, 11),          # the most players
]


@pytest.mark.parametrize("layout, players, rounds", SIZES,
                         ids=[f"{a}-{b}x{c}" for a, b, c in SIZES])
def test_formulas_keep_excel_limits(layout, players, rounds):
    wb = build_template(layout, players, rounds)
    problems = excel_limits.check(wb, set(udfs.__all__))
    check_col = _Geometry(layout, players, rounds).col["check"]
    in_check = [p for p in problems if p.sheet == CROSS and p.column == check_col]
    elsewhere = [p for p in problems if p not in in_check]
    assert elsewhere == [], elsewhere[:5]
    if in_check:
        worst = max(in_check, key=lambda p: int(p.what.split()[0]) if p.what[0].isdigit() else 0)
        pytest.xfail(f"only the Check column breaks Excel's limits at {players} players x "
                     f"{rounds} rounds ({len(in_check)} cells, e.g. {worst.cell}: "
                     f"{worst.what}); its restructure belongs to the workbook round trip")


def test_the_lint_finds_what_it_should():
    from openpyxl import Workbook
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "=" + "+".join(["A2"] * 3000)                       # 9,000 characters
    ws["A2"] = "=" + "ABS(" * 65 + "1" + ")" * 65                   # 65 levels
    ws["A3"] = '="' + "x" * 256 + '"'                               # 256-character text
    ws["A4"] = "=XLOOKUP(1,A5:A6,A5:A6)"                           # no _xlfn. prefix
    ws["A5"] = "=_xlfn.XLOOKUP(1,A6:A7,A6:A7)+FIDE_PD(1)+SUM(" + ",".join(["1"] * 256) + ")"
    found = {(p.cell, p.what.split(" ")[0]) for p in excel_limits.check(wb, {"FIDE_PD"})}
    assert found == {("A1", "9000"), ("A2", "65"), ("A3", "text"), ("A4", "function"),
                     ("A5", "more")}
