"""Every native workbook right in a third engine, and formulas every engine reads alike.

Gnumeric (``ssconvert --recalc``, tests/harness/gnumeric.py) is independent of
LibreOffice and of the ``formulas`` package. It recalculates the shipped native templates
and a handful of TRF-filled native workbooks; every rating cell must equal the engine's
report (xl_fide.event.report.build_report), as the LibreOffice tests demand.

The lint: functions whose result differs between engines or languages are not written.
``N(x)`` is #NUM! on a blank cell in Gnumeric (0 in Excel and LibreOffice) and 7 on the
text "7" (0 in Excel); ``TEXT(x,"yyyy-mm-dd")`` reads its format codes in the user's
language (German Excel shows "yyyy-01-10").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.formula import Tokenizer

from tests.harness import gnumeric
from tests.excel.test_workbook import TEMPLATES, TRF_FILES, formula_text, rr_example, swiss_example
from tests.excel.test_workbook_lo import assert_blank_rows, assert_checks_clean, assert_no_bad_cells
from tests.excel.test_workbook_lo import assert_matches_report
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import fill_workbook, save_workbook
from xl_fide.excel._layout import CROSS, DEFAULT_TEMPLATES, EVENT, EVENT_ROW, NATIVE_TEMPLATES
from xl_fide.event.report import build_report
from xl_fide.rules.editions import EventOptions, rules_for
from xl_fide.trf import read_trf

# a handful: both layouts, blank Peak cells, unrated players, rapid and blitz
GNUMERIC_TRFS = ("gros_2010_swiss_after_round4", "mini_trf2026", "mini_trf2026_blitz_222",
                 "online_swiss_2020_unrated", "roundrobin_12_synthetic")


def _gnumeric(wb_or_path, tmp_path: Path, name: str):
    gnumeric.require()
    src = tmp_path / f"{name}.xlsx"
    if isinstance(wb_or_path, Path):
        src = wb_or_path
    else:
        save_workbook(wb_or_path, src, force=True)
    return gnumeric.recalc(src, tmp_path / f"{name}.gnumeric.xlsx"), load_workbook(src)


@pytest.mark.parametrize("stem", GNUMERIC_TRFS)
def test_gnumeric_computes_the_engines_numbers(stem, tmp_path):
    t = read_trf(next(p for p in TRF_FILES if p.stem == stem))
    report = build_report(t)
    values, formulas = _gnumeric(fill_workbook(report, formulas="native"),
                                 tmp_path, stem)
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas, report)
    assert_checks_clean(values, formulas, len(report.rows))
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == report.edition.id
    if t.start_date:                # the subtitle's date, built without TEXT's format codes
        assert f"start {t.start_date.isoformat()}" in values[CROSS]["A2"].value


@pytest.mark.parametrize("name,options", [("rr_example", {"k": 10}), ("swiss_example", {})])
def test_gnumeric_small_events(name, options, tmp_path):
    t = {"rr_example": rr_example, "swiss_example": swiss_example}[name]()
    report = build_report(t, EventOptions(**options))
    values, formulas = _gnumeric(fill_workbook(report, rows=len(t.players) + 2,
                                               formulas="native"), tmp_path, name)
    assert_no_bad_cells(values)
    assert_matches_report(values, formulas, report)
    n = len(report.rows)
    assert_blank_rows(values, formulas, (5 + n, 6 + n))


@pytest.mark.parametrize("filename", sorted(NATIVE_TEMPLATES))
def test_gnumeric_native_templates_stay_blank(filename, tmp_path):
    players = NATIVE_TEMPLATES[filename][1]
    values, formulas = _gnumeric(TEMPLATES / filename, tmp_path, "template")
    assert_no_bad_cells(values)
    assert_blank_rows(values, formulas, range(5, 5 + players))
    assert values[EVENT].cell(EVENT_ROW["edition"], 2).value == rules_for(None).id


# ----------------------------------------------------------------------------- lint

def _all_formulas(wb):
    """(where, formula) of every cell, conditional-format and validation formula."""
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                f = formula_text(c)
                if c.data_type == "f" and isinstance(f, str):
                    yield f"{ws.title}!{c.coordinate}", f
        for cf in ws.conditional_formatting:
            for rule in cf.rules:
                yield from ((f"{ws.title} CF {cf.sqref}", "=" + f) for f in rule.formula)
        for dv in ws.data_validations.dataValidation:
            for f in (dv.formula1, dv.formula2):
                if f and not f.startswith('"'):
                    yield f"{ws.title} DV {dv.sqref}", "=" + f


def engine_dependent(formula: str) -> list[str]:
    """The calls in ``formula`` whose result depends on the engine or the user's
    language: ``N(...)`` and ``TEXT(..., "format")``."""
    items = Tokenizer(formula).items
    bad = []
    for i, t in enumerate(items):
        if t.type != "FUNC" or t.subtype != "OPEN":
            continue
        name = t.value[:-1].upper()
        if name == "N":
            bad.append("N(")
        elif name == "TEXT":
            depth, j = 1, i + 1
            while j < len(items) and depth:          # a text literal among its arguments
                u = items[j]
                if u.type == "FUNC":
                    depth += 1 if u.subtype == "OPEN" else -1
                elif depth == 1 and u.type == "OPERAND" and u.subtype == "TEXT":
                    bad.append(f"TEXT(..., {u.value})")
                j += 1
    return bad


def test_engine_dependent_catches_what_it_must():
    assert engine_dependent('=MAX(A1,N(B1))') == ["N("]
    assert engine_dependent('=TEXT(B2,"yyyy-mm-dd")&"x"') == ['TEXT(..., "yyyy-mm-dd")']
    assert engine_dependent('=IF(ISNUMBER(B1),B1,0)+LEN("N(")') == []


def _books():
    for filename, (layout, players, rounds) in sorted({**DEFAULT_TEMPLATES,
                                                       **NATIVE_TEMPLATES}.items()):
        formulas = "native" if filename in NATIVE_TEMPLATES else "udf"
        yield filename, build_template(layout, players, rounds, formulas=formulas)
    t = swiss_example()
    for formulas in ("udf", "native"):
        yield f"swiss_example {formulas}", fill_workbook(build_report(t), formulas=formulas)


@pytest.mark.parametrize("call", ["N(", "TEXT("])
def test_no_formula_depends_on_the_engine_or_the_language(call):
    bad = [f"{book} {where}: {b}" for book, wb in _books()
           for where, f in _all_formulas(wb) for b in engine_dependent(f) if b.startswith(call)]
    assert bad == []
