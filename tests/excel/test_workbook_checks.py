"""Check formulas (issue 10 #1, issue 15 #6): the Check column shows every game whose two
sides disagree, by the one rule (xl_fide.rules.results.pair_problem, written to the Tables
sheet), and every formula of every sheet fits Excel's limits at every size the CLI
accepts: at most 8,192 characters and 64 nested function levels (Excel specifications
and limits). Before: the Swiss Check formula was 7,703 characters at 21 rounds, 9,170 at 25."""
from __future__ import annotations

import re

import pytest
from openpyxl import load_workbook
from openpyxl.worksheet.formula import ArrayFormula

from tests.harness.excel_limits import sheet_rows
from tests.harness.excel_limits import nesting as _nesting
from tests.excel.test_workbook import saved
from tests.excel.test_workbook_truth import round_cell
from xl_fide.rules.results import pair_problem
from xl_fide.tournament import Game, Tournament, TrfPlayer
from xl_fide.excel._layout import CROSS, MAX_PLAYERS, MAX_ROUND_ROBIN, MAX_ROUNDS
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import fill_workbook
from xl_fide.event.report import build_report

EXCEL_MAX_FORMULA = 8192
EXCEL_MAX_NESTING = 64


def nesting(formula, _seen={}):
    shape = re.sub(r"[0-9]+", "0", formula)     # the same formula in another row: once
    if shape not in _seen:
        _seen[shape] = _nesting(shape)
    return _seen[shape]




def all_formulas(wb):
    """(where, text) of every formula: cells, array formulas, conditional formats, data
    validations and defined names."""
    for ws in wb.worksheets:
        for row in sheet_rows(ws):
            for c in row:
                v = c.value
                text = v.text if isinstance(v, ArrayFormula) else v
                if isinstance(text, str) and text.startswith("="):
                    yield f"{ws.title}!{c.coordinate}", text
        for rng in ws.conditional_formatting:
            for rule in rng.rules:
                for f in rule.formula or ():
                    yield f"{ws.title} format {rng.sqref}", "=" + f
        for dv in ws.data_validations.dataValidation:
            for f in (dv.formula1, dv.formula2):
                if f:
                    yield f"{ws.title} validation {dv.sqref}", "=" + f
    for name, dn in wb.defined_names.items():
        yield f"name {name}", "=" + dn.attr_text


@pytest.mark.parametrize("layout, players, rounds", [
    ("swiss", MAX_PLAYERS, MAX_ROUNDS),       # the largest sheet the CLI writes
    ("swiss", 500, 30),
    ("swiss", 100, 25),                       # Check: 9,170 characters before
    ("swiss", 2, 1),
    ("roundrobin", MAX_ROUND_ROBIN, None),
    ("roundrobin", 3, None),
])
def test_every_formula_fits_excel_limits(layout, players, rounds):
    wb = build_template(layout, players, rounds)
    longest = deepest = 0
    for where, text in all_formulas(wb):
        # Excel counts the formula without its "=" (8,192 characters)
        assert len(text) - 1 <= EXCEL_MAX_FORMULA, f"{where}: {len(text) - 1} characters"
        depth = nesting(text)
        assert depth <= EXCEL_MAX_NESTING, f"{where}: {depth} nested functions"
        longest, deepest = max(longest, len(text) - 1), max(deepest, depth)
    assert longest > 0 and deepest > 0
    print(f"\n{layout} {players}x{rounds}: longest formula {longest} characters, "
          f"nesting {deepest}")


# ------------------------------------------------------------------ the Check column, live

CODES = "1=0+-WDLHFUZ"
ENTRY = {"1": 1, "=": "½", "0": 0}


def every_pair_event():
    """One round, 288 players: players 2k-1 and 2k meet (w, b); the test types the k-th
    of the 144 pairs of TRF codes (a, b) into their result cells (the event itself has
    draws: a workbook is never written with a contradiction)."""
    pairs = [(a, b) for a in CODES for b in CODES]
    players = []
    for k, (a, b) in enumerate(pairs):
        players.append(TrfPlayer(start_rank=2 * k + 1, name=f"A{k}",
                                 games=(Game(1, 2 * k + 2, "w", "="),)))
        players.append(TrfPlayer(start_rank=2 * k + 2, name=f"B{k}",
                                 games=(Game(1, 2 * k + 1, "b", "="),)))
    return pairs, Tournament.build(name="every pair", players=players, rounds=1)


def check_values(office, wb, tmp_path, name, rows):
    path = saved(wb, tmp_path, f"{name}.xlsx")
    out = tmp_path / f"{name}.recalc.xlsx"
    office.recalc(path, out)
    ws = load_workbook(out, data_only=True)[CROSS]
    head = [c.value for c in ws[4]]
    col = head.index("Check") + 1
    return [ws.cell(5 + i, col).value for i in range(rows)]


def test_check_column_follows_pair_problem_for_every_pair_of_codes(office, tmp_path):
    pairs, t = every_pair_event()
    wb = fill_workbook(build_report(t), layout="swiss")
    ws = wb[CROSS]
    for k, (a, b) in enumerate(pairs):     # the cells as a user types them
        ws[round_cell(1, "res", 2 * k + 1)] = ENTRY.get(a, a)
        ws[round_cell(1, "res", 2 * k + 2)] = ENTRY.get(b, b)
    got = check_values(office, wb, tmp_path, "pairs", 2 * len(pairs))
    want = []
    for a, b in pairs:
        bad = int(pair_problem(a, b) is not None)
        want += [bad, bad]
    assert got == want


def test_check_column_flags_colours_and_missing_back_reference(office, tmp_path):
    from tests.excel.test_workbook import swiss_example
    wb = fill_workbook(build_report(swiss_example()))
    ws = wb[CROSS]
    ws[round_cell(6, "col", 5)] = "w"             # 4 and 5 both white in round 6
    ws[round_cell(5, "opp", 6)] = None            # round 5: 6 no longer lists its opponent
    got = check_values(office, wb, tmp_path, "colours", 6)
    opp5 = [g.opponent for g in swiss_example().player(6).games][4]
    want = [0] * 6
    want[3] = want[4] = 1                          # players 4, 5: round 6
    want[opp5 - 1] = 1                             # 6's round-5 opponent lists 6
    assert got == want
