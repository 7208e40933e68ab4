"""Excel's specification limits, checked on the formulas of an openpyxl workbook.

Microsoft, "Excel specifications and limits": formula contents 8,192 characters;
64 nested levels of functions; 255 arguments to a function; a text value in a
formula 255 characters; a list validation's source 255 characters. Functions must
be known to Excel 2010 and later: openpyxl's list of built-in names
(``openpyxl.utils.FORMULAE``) or ``_xlfn.``-prefixed (newer functions), or ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

from openpyxl.formula import Tokenizer
from openpyxl.utils import FORMULAE

MAX_FORMULA = 8192
MAX_NESTING = 64
MAX_ARGS = 255
MAX_TEXT = 255


@dataclass(frozen=True)
class Problem:
    sheet: str
    cell: str          # coordinate, or "validation" / "format" with the range
    column: int | None
    what: str


def sheet_rows(ws) -> Iterator[tuple[Any, ...]]:
    """``ws.iter_rows()``, then the rows of the sheet's row plan (cells xl-fide makes as
    it saves the sheet, :class:`xl_fide.excel._shared.RowPlan`), as they are saved."""
    from xl_fide.excel import _fence
    yield from ws.iter_rows()
    plan = _fence.book_state(ws.parent).get("plans", {}).get(ws.title)
    if plan is not None:
        for r in range(plan.first, plan.last + 1):
            yield tuple(_fence.planned_cells(ws, plan, r))


def formulas_of(wb) -> Iterator[tuple[str, str, int | None, str]]:
    """(sheet, where, column, formula text with '=') of cells, conditional formats and
    validations."""
    for ws in wb.worksheets:
        for row in sheet_rows(ws):
            for c in row:
                v = c.value
                text = getattr(v, "text", None)
                if text is None and c.data_type == "f" and isinstance(v, str):
                    text = v
                if text is not None:
                    yield ws.title, c.coordinate, c.column, "=" + str(text).lstrip("=")
        for rng, rules in ws.conditional_formatting._cf_rules.items():
            for rule in rules:
                for f in rule.formula or ():
                    yield ws.title, f"format {rng.sqref}", None, "=" + f
        for dv in ws.data_validations.dataValidation:
            for f in (dv.formula1, dv.formula2):
                if f and not f.startswith('"'):
                    yield ws.title, f"validation {dv.sqref}", None, "=" + f


def _shape(text: str) -> str:
    return re.sub(r"\d+", "0", text)


def check(wb, udf_names: set[str]) -> list[Problem]:
    """Every problem found; the tokenizer runs once per formula shape (same text but
    the row numbers), on its longest instance."""
    problems: list[Problem] = []
    shapes: dict[str, tuple[str, str, int | None, str]] = {}
    for sheet, where, col, text in formulas_of(wb):
        if len(text) > MAX_FORMULA:
            problems.append(Problem(sheet, where, col, f"{len(text)} characters"))
        key = _shape(text)
        if key not in shapes or len(text) > len(shapes[key][3]):
            shapes[key] = (sheet, where, col, text)
    for sheet, where, col, text in shapes.values():
        problems += [Problem(sheet, where, col, w) for w in _token_problems(text, udf_names)]
    for ws in wb.worksheets:
        for dv in ws.data_validations.dataValidation:
            if dv.type == "list" and dv.formula1 and dv.formula1.startswith('"') \
                    and len(dv.formula1) - 2 > MAX_TEXT:
                problems.append(Problem(ws.title, f"validation {dv.sqref}", None,
                                        f"list of {len(dv.formula1) - 2} characters"))
    return problems


def _token_problems(text: str, udf_names: set[str]) -> list[str]:
    out: list[str] = []
    depth = deepest = 0
    args: list[int] = []
    for t in Tokenizer(text).items:
        if t.type == "FUNC" and t.subtype == "OPEN":
            name = t.value[:-1].upper()
            if not (name in FORMULAE or name.startswith("_XLFN.") or name in udf_names):
                out.append(f"function {name} unknown to Excel 2010")
            depth += 1
            deepest = max(deepest, depth)
            args.append(1)
        elif t.type == "FUNC" and t.subtype == "CLOSE":
            depth -= 1
            if args and args.pop() > MAX_ARGS:
                out.append(f"more than {MAX_ARGS} arguments")
        elif t.type == "SEP" and t.subtype == "ARG" and args:
            args[-1] += 1
        elif t.type == "OPERAND" and t.subtype == "TEXT":
            literal = t.value[1:-1].replace('""', '"')
            if len(literal) > MAX_TEXT:
                out.append(f"text literal of {len(literal)} characters")
    if deepest > MAX_NESTING:
        out.append(f"{deepest} nested functions")
    return out


def nesting(formula: str) -> int:
    """How deep functions nest in ``formula`` (Excel allows 64)."""
    depth = deepest = 0
    for t in Tokenizer(formula).items:
        if t.type == "FUNC" and t.subtype == "OPEN":
            depth += 1
            deepest = max(deepest, depth)
        elif t.type == "FUNC" and t.subtype == "CLOSE":
            depth -= 1
    return deepest
