"""An event over 30 days on the cross-table: one live rating block per month.

FIDE rates a standard event that runs over 30 days month by month (interim reports,
FIDE B.02 §8.3: a rating period is one calendar month): each month's games with that
month's ratings. :func:`xl_fide.event.report.build_report` gives those monthly reports
(``report.months``); this module writes the same calculation as live formulas, to the
right of the sheet's one-period block (which then says it is not published):

* per month the columns ``Ro`` (the rating the month is rated with), ``K`` and the ten
  columns of the rating block (N ... Ru), over that month's rounds only (by the TRF's
  132 dates; a round not played yet goes to the month of its date, else to the last
  month; the block's header lists its rounds);
* month 1's Ro is the sheet's Ro used; a later month's Ro is the previous month's new rating
  when it was published (a number), else blank (unrated: a rating below the floor is
  not published, B.02 §7.2.1; a player unrated at the start stays unrated) or, when
  that New is an error or a message, that error (passed on to his opponents), raised by
  the 1 March 2024 adjustment when that date falls between the two months;
* K: blank for an unrated Ro, else K set if given, else the K rule at that month's Ro
  and date (B.02 §8.3.3);
* the month's date (the Event sheet's "Rules as on" when given, else its start date,
  else blank: the newest rules, as the one-period block and the report)
  and rule edition above the block, from the same Tables as the Event sheet's;
* UDF mode: one ``FIDE_K`` and one ``FIDE_EVENT_SWISS`` array formula per month;
  native mode: a hidden helper sheet per month (``Calc M1`` ...), the same native
  formulas as the one-period block (:mod:`xl_fide.excel._native`).

Left of the month blocks, the result over the months (:data:`OVER_COLS`): ``Δ``, the sum
of the months' changes each rounded in its month, and ``New``, the New of the last month
the player was rated in (a later month's Ro is a number: his
rating after every month, or ``NP 1395`` when a month's rating is not published and he
is unrated after it; blank for a player unrated at the start). The defined name
``RatingChange`` and ``NewRating`` cover them: the change and rating after the event, as
FIDE publishes them and as the report's rows give them. The one-period block's defined
names become ``Comparison<name>`` (``ComparisonRatedGames`` ...): no plain name covers
the figure that is not published (the report's ``comparison``); N, W, Rp, Ru and Rc over
the months (the report's rows) are not on the sheet: they need per-month sums of the
opponents' ratings the sheet does not hold. Only the Swiss layout holds rounds; a round robin
grid does not, so such an event is refused in that layout.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, Sequence

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.pagebreak import ColBreak

from xl_fide.excel import _native as _native
from xl_fide.excel._fence import book_state
from xl_fide.excel._layout import (
    _PD_FROM,
    _PD_HIGH,
    _DP_VALUES,
    _CODES,
    _L,
    _TC_ARG,
    CROSS,
    GROUP_ROW,
    HEADER_ROW,
    HELP,
    RATING_COLS,
    _Col,
    _define,
    _event_ref,
    _Geometry,
    _group,
    _header,
    _text,
    _apply,
    key_rows,
)
from xl_fide.rules.adjustments import ADJUST_2024_DATE, ADJUST_2024_LIMIT, OLD_FLOOR
from xl_fide.rules.notes import NP

MONTH_COLS: tuple[_Col, ...] = (
    _Col("m_ro", "Ro", None, 6, "calc_int",
         "The rating this month is rated with: month 1 the sheet's Ro used; a later month the "
         "previous month's new rating when published (else unrated), adjusted on 1 Mar 2024."),
    _Col("m_k", "K", None, 5, "calc_int",
         "K set if given, else K by FIDE B.02 §8.3.3 at this month's Ro and date."),
) + RATING_COLS
WIDTH = len(MONTH_COLS)
#: The columns left of the month blocks: the result over the months, as the report's
#: rows give it (the defined names ``RatingChange`` and ``NewRating`` cover them).
OVER_COLS: tuple[_Col, ...] = (
    _Col("over_chg", "Δ", "RatingChange", 5, "calc_sint",
         "The rating change over the event, as FIDE publishes it: the sum of the months' "
         "changes, each rounded in its month (FIDE B.02 §8.3.4). Blank: unrated at the "
         "start."),
    _Col("over_new", "New", "NewRating", 7, "calc_new",
         "The new rating after the event, as FIDE publishes it: New of the last month the "
         "player was rated in (his Ro that month is a number). A month whose new rating is "
         "below the floor is not published (FIDE B.02 §7.2.1, NP 1395) and the player is "
         "unrated after it. Blank: unrated at the start (see each month's Ru)."),
)


@dataclass(frozen=True)
class Month:
    """One month of the event: its number (1-based), year and month, its rounds and
    the date of its first round."""

    index: int
    year: int
    month: int
    rounds: tuple[int, ...]
    first_day: _dt.date


def month_col(geo: _Geometry, index: int, key: str) -> int:
    """The column of ``key`` (``m_ro``, ``m_k``, ``n`` ... ``ru``) in month ``index``'s
    block (1-based), right of the Result columns (:data:`OVER_COLS`)."""
    first = geo.check_last + 1 + len(OVER_COLS) + (index - 1) * WIDTH
    return first + [c.key for c in MONTH_COLS].index(key)


def over_col(geo: _Geometry, months: int, key: str = "over_new") -> int:
    """The column ``key`` of :data:`OVER_COLS`: left of the ``months`` blocks, right of
    the sheet's other columns (the result first, the months as its working)."""
    return geo.check_last + 1 + [c.key for c in OVER_COLS].index(key)


def last_col(geo: _Geometry, months: int) -> int:
    """The last column of the columns over the months and the month blocks
    (``geo.last_col`` without months)."""
    return geo.check_last + len(OVER_COLS) + months * WIDTH if months else geo.last_col


def over_formulas(geo: _Geometry, months: int, r: int) -> dict[str, str]:
    """Row ``r``'s result over the months, by :data:`OVER_COLS` key: ``over_chg`` the
    sum of the months' Δ (blank where none is a number: unrated at the start; a month
    the player is unrated in has none); ``over_new`` the New of the last month whose Ro
    is a number (a rated player's months come first: one not published ends them), else
    month 1's (blank for a player unrated at the start; an error there is passed on)."""
    def at(i: int, key: str) -> str:
        return f"{_L(month_col(geo, i, key))}{r}"

    changes = ",".join(at(i, "chg") for i in range(1, months + 1))
    new = at(1, "new")
    for i in range(2, months + 1):
        new = f"IF(ISNUMBER({at(i, 'm_ro')}),{at(i, 'new')},{new})"
    # only a standard event is rated month by month (FIDE B.02 §8.3, interim reports):
    # with the Event sheet's time control rapid or blitz, the one-period block's figure
    monthly = f'{_TC_ARG}="standard"'
    one = {key: f"{_L(geo.col[key])}{r}" for key in ("chg", "new")}
    return {"over_chg": f'=IF({monthly},IF(COUNT({changes})=0,"",SUM({changes})),'
                        f'{one["chg"]})',
            "over_new": f"=IF({monthly},{new},{one['new']})"}


def _span(rounds: Sequence[int]) -> str:
    """``round 3``, ``rounds 4-7`` or ``rounds 1-3, 8``."""
    parts: list[list[int]] = []
    for r in sorted(rounds):
        if parts and r == parts[-1][-1] + 1:
            parts[-1].append(r)
        else:
            parts.append([r])
    text = ", ".join(str(p[0]) if len(p) == 1 else f"{p[0]}-{p[-1]}" for p in parts)
    return ("round " if len(rounds) == 1 else "rounds ") + text


def _ro_formula(geo: _Geometry, m: Month, previous: Month | None, r: int,
                date: str = "") -> str:
    """Month ``m``'s Ro of row ``r``: see the module's docstring (integers only; the
    1 Mar 2024 raise 0.4 x (2000 - R) is a multiple of 0.2, never a tie: rounded as
    INT((4 (2000 - R) + 5) / 10)). A Ro that is not a number is passed on, so the
    month's block shows the same error as the one-period block; so is an error in the
    previous month's New (a result that does not read), or a message there (FIDE_*
    in LibreOffice answers its error as text): the month's Ro is that error or text,
    never blank (an unrated player, whose opponents' figures would be clean and other).
    Blank only after a New that is blank or a code ``NP 1395`` (not published)."""
    ro = f"{_L(geo.col['ro_used'])}{r}"      # Ro used: the sheet's Ro as the rules read it
    if previous is None:
        return f'=IF({ro}="","",{ro})'
    new = f"{_L(month_col(geo, previous.index, 'new'))}{r}"
    value = new
    if previous.first_day < ADJUST_2024_DATE <= m.first_day:
        # once: not where Ro used adjusted the file's ratings already (rules as on a date
        # from 1 Mar 2024, ``date`` the month's rules date)
        d = ADJUST_2024_DATE
        once = f"{date}<DATE({d.year},{d.month},{d.day})," if date else ""
        value = (f"IF(AND({once}{new}>={OLD_FLOOR},{new}<{ADJUST_2024_LIMIT}),"
                 f"{new}+INT((4*({ADJUST_2024_LIMIT}-{new})+5)/10),{new})")
    code = f'LEFT({new},{len(NP) + 1})="{NP} "'      # not published: unrated after it
    return (f'=IF({ro}="","",IF(ISNUMBER({ro}),IF(ISNUMBER({new}),{value},'
            f'IF(ISERROR({new}),{new},IF({code},"",{new}))),{ro}))')


def add_months(wb: Workbook, geo: _Geometry, months: Sequence[Month]) -> list[str]:
    """Write one rating block per month of ``months`` (at least two) on the cross-table
    of ``wb`` (a Swiss layout) and point ``NewRating`` at the last month's New column.
    Returns the names of the helper sheets written (native mode)."""
    ws = wb[CROSS]
    rules_date = _event_ref("rules_date")
    edition_of = (f"IF(ISNUMBER({{d}}),IFERROR(LOOKUP(2,1/((EditionTC={_TC_ARG})*"
                  f"(EditionFrom<={{d}})),EditionId),INDEX(EditionId,MATCH({_TC_ARG},"
                  f"EditionTC,0))),LOOKUP(2,1/(EditionTC={_TC_ARG}),EditionId))")
    helpers = []
    previous: Month | None = None
    for m in months:
        c0, c_last = month_col(geo, m.index, "m_ro"), month_col(geo, m.index, "rc")
        _group(ws, c0, c_last, f"Month {m.index} of {len(months)}: {m.year}-{m.month:02d} "
                               f"({_span(m.rounds)}), as FIDE rates it (B.02 §8.3)")
        for spec in MONTH_COLS:
            _header(ws, geo, month_col(geo, m.index, spec.key), spec)
        # row 2: the month's rules date and edition: the event's (as on the Event sheet:
        # "Rules as on", else the start date), as the report rates every month
        date_cell, ed_cell = f"{_L(c0)}2", f"{_L(c0 + 2)}2"
        _text(ws, 2, c0 + 1, "date", "subtitle")
        start = _event_ref("start")
        # blank without either: the newest rules, as the one-period block and the
        # report read an event without a date (a user trial: a cleared start date
        # left the months on their own first days' rules)
        ws[date_cell] = (f"=IF(ISNUMBER({rules_date}),{rules_date},"
                         f'IF(ISNUMBER({start}),{start},""))')
        _apply(ws[date_cell], "calc_date")
        ws.column_dimensions[_L(c0)].width = 11
        ws[ed_cell] = ArrayFormula(ed_cell, "=" + edition_of.format(d=_abs_cell(c0, 2)))
        _apply(ws[ed_cell], "calc_text")
        ws.cell(2, c0 + 2).comment = Comment(
            "The rule edition of this month: the event's (rules as on the Event sheet's "
            "date, else its start date).",
            "xl-fide", width=220, height=60)
        styles = [(month_col(geo, m.index, s.key), s.style) for s in MONTH_COLS]
        for r in range(geo.first, geo.last + 1):
            for c, style in styles:
                _apply(ws.cell(r, c), style)
            ws.cell(r, c0).value = _ro_formula(geo, m, previous, r, _abs_cell(c0, 2))
        if geo.formulas == "native":
            helpers.append(_native_month(wb, geo, m, _abs_cell(c0, 2), _abs_cell(c0 + 2, 2)))
        else:
            _udf_month(ws, geo, m, _abs_cell(c0, 2))
        previous = m
    _comparison_names(wb)
    _over_months(wb, geo, len(months))
    _help_line(wb, len(months))
    ws.print_area = f"A1:{_L(last_col(geo, len(months)))}{key_rows(geo)[1]}"
    _paper(ws, geo, months)
    return helpers


#: The defined names of the one-period block that an event over 30 days renames: that
#: block is the comparison only (the report's ``comparison``), and no name a user reads
#: as the result may cover it (issue 32): ``Comparison<name>``. ``RatingChange`` and
#: ``NewRating`` then cover the Result columns; the others are not defined (N, W, Rp,
#: Ru, Rc over the months need per-month sums the sheet does not hold; a formula naming
#: them shows #NAME? rather than the comparison's figure).
COMPARISON_PREFIX = "Comparison"


def _comparison_names(wb: Workbook) -> None:
    """Rename the one-period block's defined names (:data:`COMPARISON_PREFIX`)."""
    for spec in RATING_COLS:
        if spec.name and spec.name in wb.defined_names:
            ref = wb.defined_names[spec.name].attr_text
            del wb.defined_names[spec.name]
            wb.defined_names[COMPARISON_PREFIX + spec.name] = DefinedName(
                COMPARISON_PREFIX + spec.name, attr_text=ref)


def _over_months(wb: Workbook, geo: _Geometry, months: int) -> None:
    """The columns over the months (:data:`OVER_COLS`), built-in formulas in both modes,
    and their defined names."""
    ws = wb[CROSS]
    _group(ws, over_col(geo, months, OVER_COLS[0].key),
           over_col(geo, months, OVER_COLS[-1].key), "Result")
    for spec in OVER_COLS:
        c = over_col(geo, months, spec.key)
        _header(ws, geo, c, spec)
        for r in range(geo.first, geo.last + 1):
            cell = ws.cell(r, c)
            _apply(cell, spec.style)
            cell.value = over_formulas(geo, months, r)[spec.key]
        assert spec.name is not None
        _define(wb, spec.name, CROSS, _col_range(geo, c))


def _paper(ws: Any, geo: _Geometry, months: Sequence[Month]) -> None:
    """The sheet's pages again, with the month blocks (the rule of
    :func:`xl_fide.excel._build._paginate`: one page wide at 65 % or more, else 65 %
    with breaks between units). A month block is one unit; one wider than a page is
    two, Ro ... K used and K×ΣΔR ... Ru, each with its own group header when a page
    break falls between them, so no header is cut by a page edge."""
    from xl_fide.excel._build import _BOLD_CHAR_PX, _paginate, column_px
    halves = [(month_col(geo, m.index, "m_ro"), month_col(geo, m.index, "k_used"),
               month_col(geo, m.index, "rc")) for m in months]
    ws.col_breaks = ColBreak()

    def units(room: float) -> list[tuple[int, int]]:
        first = over_col(geo, len(months), OVER_COLS[0].key)   # the result: its own unit
        out: list[tuple[int, int]] = [(first, first + len(OVER_COLS) - 1)]
        for a, b, c in halves:
            whole = sum(column_px(ws, k) for k in range(a, c + 1)) <= room
            out += [(a, c)] if whole else [(a, b), (b + 1, c)]
        return out

    _paginate(ws, geo, units, last_col(geo, len(months)))
    breaks = {b.id for b in ws.col_breaks.brk}
    for m, (a, b, c) in zip(months, halves):
        if b not in breaks:
            continue
        title = str(ws.cell(GROUP_ROW, a).value)
        short = f"Month {m.index} of {len(months)}: {m.year}-{m.month:02d} ({_span(m.rounds)})"
        ws.unmerge_cells(start_row=GROUP_ROW, start_column=a, end_row=GROUP_ROW, end_column=c)
        for first, last, texts in ((a, b, (title, short, f"Month {m.index}", "")),
                                   (b + 1, c, (f"({short}, continued)",
                                               f"(Month {m.index}, continued)", ""))):
            px = sum(column_px(ws, k) for k in range(first, last + 1))
            _group(ws, first, last, next(t for t in texts if len(t) * _BOLD_CHAR_PX <= px))


def _help_line(wb: Workbook, months: int) -> None:
    """A paragraph on the Help sheet saying how the month blocks are computed."""
    ws = wb[HELP]
    _text(ws, ws.max_row + 2, 1, "Month by month", "label")
    _text(ws, ws.max_row + 1, 1,
          f"This event runs over 30 days: FIDE rates it month by month (interim reports, "
          f"FIDE B.02 §8.3), so the Crosstable has {months} Month blocks right of the "
          "rating block, each over its month's rounds. A later month's Ro is the previous "
          "month's new rating when published (blank: unrated), K is K set or the K rule "
          "at that Ro. The Result columns left of them are what FIDE publishes: Δ the sum "
          "of the months' changes (defined name RatingChange) and New the New of the last "
          "month the player was rated in (defined name NewRating). The "
          "first rating block is the whole event as one period, for comparison only: its "
          "defined names start with Comparison (ComparisonRatedGames ...). N, W, Rp, Ru "
          "and Rc over the months are in xl-fide report (an unrated player's initial "
          "rating pools his games of every month, FIDE B.02 §8.2).",
          "text")


def _abs_cell(c: int, r: int) -> str:
    return f"${_L(c)}${r}"


def _col_range(geo: _Geometry, c: int) -> str:
    return f"${_L(c)}${geo.first}:${_L(c)}${geo.last}"


def _udf_month(ws: Any, geo: _Geometry, m: Month, date: str) -> None:
    """K and the rating block of month ``m`` as two array formulas (FIDE_K,
    FIDE_EVENT_SWISS over the month's rounds)."""
    from xl_fide.excel._build import _choose
    f, last = geo.first, geo.last
    ro = _col_range(geo, month_col(geo, m.index, "m_ro"))
    k_col = month_col(geo, m.index, "m_k")
    k = f"{_L(k_col)}{f}:{_L(k_col)}{last}"
    kset = geo.column("k_set")
    ws[f"{_L(k_col)}{f}"] = ArrayFormula(
        k, f'=IF({ro}="","",IF(ISNUMBER({kset}),{kset},FIDE_K({ro},{geo.column("born")},'
           f'{geo.column("games")},{geo.column("peak")},"","",{_TC_ARG},{date})))')
    opps = [_col_range(geo, geo.round_col(rnd, "opp")) for rnd in m.rounds]
    ress = [_col_range(geo, geo.round_col(rnd, "res")) for rnd in m.rounds]
    n_col, ru_col = month_col(geo, m.index, "n"), month_col(geo, m.index, "rc")
    block = f"{_L(n_col)}{f}:{_L(ru_col)}{last}"
    ws[f"{_L(n_col)}{f}"] = ArrayFormula(
        block, f"=FIDE_EVENT_SWISS({ro},{_col_range(geo, k_col)},{_choose(opps)},"
               f'{_choose(ress)},{_TC_ARG},{date},"short")')


def _native_month(wb: Workbook, geo: _Geometry, m: Month, date: str, edition: str) -> str:
    """Month ``m``'s block in native formulas, its helpers on a hidden sheet of its own.
    Its layout is kept with ``wb`` (``book_state(wb)["months"]``): the cached values of the helper
    sheet are worked out from it at save (:func:`xl_fide.excel._cached.complete_values`)."""
    lay = month_layout(geo, m, date, edition)
    book_state(wb).setdefault("months", []).append(lay)
    ws, calc = wb[CROSS], wb.create_sheet(lay.calc)
    for sheet, r, c, value in _native.cells(lay):
        (ws if sheet == CROSS else calc).cell(r, c).value = value
    calc.sheet_state = "hidden"
    calc.protection.sheet = True
    return lay.calc


def month_layout(geo: _Geometry, m: Month, date: str, edition: str) -> _native.Layout:
    """The native layout of month ``m``'s block: its Ro and K columns, its rounds, its
    date and edition cells (absolute, on the cross-table) and its helper sheet."""
    name = f"Calc M{m.index}"
    col = dict(geo.col)
    for spec in MONTH_COLS:
        col[spec.key] = month_col(geo, m.index, spec.key)
    col["ro"], col["k"] = col["m_ro"], col["m_k"]
    return _native.Layout(
        kind="swiss", first=geo.first, last=geo.last, cross=CROSS, col=col,
        edition=f"{CROSS}!{edition}", date=f"{CROSS}!{date}", pd_from=_PD_FROM,
        pd_high=_PD_HIGH, dp=_DP_VALUES, codes=_CODES,
        opp_cols=[geo.round_col(k, "opp") for k in m.rounds],
        res_cols=[geo.round_col(k, "res") for k in m.rounds],
        header_row=HEADER_ROW, block_first=geo.block_first, block_last=geo.block_last,
        calc=name, k_set=geo.col["k_set"])
