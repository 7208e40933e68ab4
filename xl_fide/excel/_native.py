"""The rating block as formulas built into every spreadsheet: no add-in needed.

``xl-fide crosstable --formulas native`` writes a cross-table whose rating cells use only
functions of Excel 2010+, LibreOffice Calc and Google Sheets (IF, AND, OR, NOT, INDEX,
MATCH, LOOKUP, VLOOKUP, COUNTIF, SUM, SUMPRODUCT, ABS, SIGN, INT, ISNUMBER, YEAR,
TODAY, NA). This module writes the formula *text* only; :mod:`xl_fide.excel._layout`
puts it into cells. Every formula is a plain scalar formula (no array formula), so
they work the same in every engine, and their length does not depend on the size of
the event.

Exact arithmetic, as the engine does it: PD comes from the Tables sheet as integer
hundredths (table 8.1.2, written from :mod:`xl_fide.rules.tables`), sums are sums of
integers, K x ΣΔR is an integer number of hundredths, and every rounding is an
integer formula on integers: the change, .5 away from zero, is
``SIGN(c)*INT((ABS(c)+50)/100)`` on hundredths ``c`` (FIDE B.02 §8.3.4); p and the
averages of Rp and Ru are rounded half up as ``INT((2a+b)/(2b))`` (§8.1.1, §8.2).
No ``ROUND`` of a float decides anything.

The rules follow the rule edition that the Event sheet picks from the start date and
time control (FIDE B.02 §8.3): the 400-point rule per player with the 2650 exemption
(§8.3.1), the rapid/blitz 600-point rule, K by §8.3.3 and the K x n <= 700 cap, Rp
(§8.1.1) and the edition's initial-rating rule (§8.2). An edition the formulas cannot
express exactly (the 400-point rule in one game per event only, 2022 - Feb 2024) is
refused: :func:`unsupported` says why, and a sheet switched to such a date shows that
sentence instead of numbers.

Cells are described as ``(sheet, row, column, value)``; the helper sheet :data:`CALC`
holds per player and per game the integers the rating cells show (R_opp, score in half
points, PD in hundredths), so an arbiter can audit every game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping, Sequence

from openpyxl.utils import get_column_letter as _L

from xl_fide.rules.adjustments import (
    ADJUST_2024_DATE, ADJUST_2024_LIMIT, ADJUST_2024_SHARE, OLD_FLOOR,
)
from xl_fide.rules.editions import EDITIONS, Cap400, InitialRule, RuleEdition
from xl_fide.errors import InputError
from xl_fide.rules.values import NOT_A_RATING, RATING_MAX, RATING_MIN
from xl_fide.rules.initial import HALF_POINT_BONUS, HYPOTHETICAL_OPPONENT
from xl_fide.rules.notes import NO_GAMES, NP, ZERO_SCORE
from xl_fide.rules.rating import (
    EXEMPT_RATING, JUNIOR_AGE, JUNIOR_RATING, K10_RATING, K_CAP_PRODUCT, K_DEFAULT, K_NEW,
    K_TOP, MAX_AGE, NEW_PLAYER_GAMES, RB_600_DIFFERENCE, RB_600_TOP,
)

CALC = "Calc"
FORMULAS = ("udf", "native")

Cell = tuple[str, int, int, object]


def unsupported(edition: RuleEdition) -> str | None:
    """Why the native formulas cannot rate an event under ``edition``, or ``None``.

    The 400-point rule "in one game per event" (FIDE B.02 2022 §8.3.1, events of
    1 Jan 2022 - 29 Feb 2024) depends on which game has the largest difference, and
    among equal differences on the order of the rounds, which a round-robin grid does
    not hold: refused rather than approximated.
    """
    if edition.cap400 is Cap400.ONCE_PER_EVENT:
        return (f"rule edition {edition.id} applies the 400-point rule in one game per "
                "event only (FIDE B.02 2022 §8.3.1): the native formulas cannot express "
                "it; use --formulas udf")
    return None


def require(edition: RuleEdition) -> None:
    """Raise :class:`~xl_fide.errors.InputError` (one line naming the edition) when the
    native formulas cannot rate an event under ``edition`` (see :func:`unsupported`)."""
    why = unsupported(edition)
    if why:
        raise InputError(why)


def check_formulas(formulas: str) -> str:
    """``formulas`` if it is ``udf`` or ``native``, else :class:`InputError`."""
    if formulas not in FORMULAS:
        raise InputError(f"formulas must be udf or native, got {formulas!r}")
    return formulas


# ------------------------------------------------------------------------- references

def _q(sheet: str) -> str:
    return sheet if sheet.isalnum() else "'" + sheet.replace("'", "''") + "'"


@dataclass(frozen=True)
class Layout:
    """Where the native formulas read and write, in 1-based rows and columns.

    ``kind``: ``roundrobin`` or ``swiss``; players on rows ``first``..``last`` of the
    cross-table sheet ``cross`` (the same rows on :data:`CALC`); ``col``: the cross-table
    columns by key (``no ro born games peak k k_rule check n w sum_pd w_pd k_used
    change chg new rp ru``); ``games``: result columns per player (round robin: one per
    player, from ``grid_first``; Swiss: per round ``opp_cols[k]`` / ``res_cols[k]``);
    ``header_row``: the row of the Swiss headers (``Res``); ``edition``, ``date``:
    absolute references to the Event sheet's rule edition and date; ``pd_from``,
    ``pd_high``, ``dp``, ``codes``: references to table 8.1.2 (D from, PD x 100),
    table 8.1.1 (dp for p = 0 .. 1.00) and the result vocabulary (entry, score, rated).
    """

    kind: str
    first: int
    last: int
    cross: str
    col: Mapping[str, int]
    edition: str
    date: str
    pd_from: str
    pd_high: str
    dp: str
    codes: str
    grid_first: int = 0
    opp_cols: Sequence[int] = field(default_factory=tuple)
    res_cols: Sequence[int] = field(default_factory=tuple)
    header_row: int = 4
    block_first: int = 0
    block_last: int = 0
    #: the helper sheet of this block (one per month of an event over 30 days)
    calc: str = CALC
    #: a month's block: the column of the sheet's K set; the K rule is then written into
    #: ``col["k"]`` as ``IF(ISNUMBER(K set),K set,K rule)``, blank for an unrated Ro (no
    #: K rule column of its own)
    k_set: int = 0
    #: the column of the typed Ro, when ``col["ro"]`` is the Ro used column computed
    #: from it (:func:`ro_used`); ``list_date``: the date of its list (the Event sheet's
    #: start date), an absolute reference
    typed_ro: int = 0
    list_date: str = ""

    @property
    def n(self) -> int:
        return self.last - self.first + 1

    @property
    def games(self) -> int:
        return self.n if self.kind == "roundrobin" else len(self.res_cols)


# Calc sheet: per-player columns (rows = the cross-table's player rows)
C_NO, C_RO, C_STATE, C_CAP, C_N, C_W, C_PD, C_SR, C_K, C_CHG, C_P, C_RP, C_RUV, C_RU = range(1, 15)
PLAYER_HEADS = ("No", "Ro used (0 = unrated)", "State (0 blank, 1 rated/computed, "
                "2 edition not native, 3 results disagree)", "400-point rule applies", "N",
                "W (half points)", "ΣPD (hundredths)", "Σ R_opp", "K used",
                "K×ΣΔR (hundredths)", "p (hundredths)", "Rp", "Ru computed", "Ru shown")
X_FIRST = C_RU + 2          # first column of the per-game blocks
# event-level switches on row 3 (labels on row 2)
SWITCHES = ("Rule edition", "Native", "Exempt 2650", "R&B 600", "K 20 for all",
            "Initial 2024", "Floor", "Initial max", "Min games", "Period year", "Message",
            "Adjust 2024")
S_ED, S_OK, S_EXEMPT, S_RB, S_K20, S_I24, S_FLOOR, S_MAX, S_MING, S_YEAR, S_MSG = range(1, 12)
#: 1 when the typed ratings are from a list before 1 March 2024 (the start date) and the
#: rules are as on that date or later: the one-off adjustment applies (:func:`ro_used`)
S_ADJ = 12
SWITCH_ROW = 3


def edition_rows() -> list[list[object]]:
    """The switch table: per edition id, 1/0 switches, floor, maximum (0 = none),
    minimum games and the refusal sentence (empty when native)."""
    rows: list[list[object]] = []
    for e in EDITIONS:
        why = unsupported(e)
        rows.append([e.id, 0 if why else 1, int(e.exempt_2650), int(e.rapid_blitz_600),
                     int(e.k_fixed_20), int(e.initial_rule is InitialRule.RULE_2024),
                     e.rating_floor, e.initial_max or 0, e.initial_min_games, "", why or ""])
    return rows


class _Refs:
    """Reference builders for one layout."""

    def __init__(self, lay: Layout) -> None:
        self.lay = lay
        self.x = f"{_q(lay.cross)}!"
        self.c = f"{_q(lay.calc)}!"

    def cross(self, key: str, row: int, absolute_col: bool = True) -> str:
        d = "$" if absolute_col else ""
        return f"{self.x}{d}{_L(self.lay.col[key])}{row}"

    def cross_col(self, key: str) -> str:
        c = _L(self.lay.col[key])
        return f"{self.x}${c}${self.lay.first}:${c}${self.lay.last}"

    @staticmethod
    def switch(which: int) -> str:
        return f"${_L(which)}${SWITCH_ROW}"

    @staticmethod
    def me(col: int, row: int) -> str:
        return f"${_L(col)}{row}"

    def ro_col(self) -> str:
        return f"${_L(C_RO)}${self.lay.first}:${_L(C_RO)}${self.lay.last}"

    def block(self, b: int) -> tuple[int, int]:
        """First and last column of per-game block ``b`` (0 X = R_opp, 1 Y = score, 2 Z = PD)."""
        g = self.lay.games
        first = X_FIRST + b * (g + 1)
        return first, first + g - 1

    def block_row(self, b: int, row: int) -> str:
        c1, c2 = self.block(b)
        return f"${_L(c1)}{row}:${_L(c2)}{row}"


# ------------------------------------------------------------------------ formula text

def _shown(state: str, value: str, message: str = '""', bad: str = '""') -> str:
    """A rating cell: the value when computed, #N/A when the row's results disagree,
    ``message`` when the edition is not native, ``bad`` when the row's Ro used is not a
    rating (state 4), blank for a blank row."""
    return (f"IF({state}=1,{value},IF({state}=3,NA(),IF({state}=2,{message},"
            f"IF({state}=4,{bad},\"\"))))")


def round_half_away(c: str) -> str:
    """Integer hundredths ``c`` to a whole number, .5 away from zero (FIDE B.02 §8.3.4)."""
    return f"SIGN({c})*INT((ABS({c})+50)/100)"


def _half_up_ratio(num: str, den: str) -> str:
    """``num / den`` (integers, den > 0) rounded half up: INT((2 num + den) / (2 den))."""
    return f"INT((2*({num})+({den}))/(2*({den})))"


def _p_hundredths(w_half: str, n: str) -> str:
    """p = W / N in hundredths, rounded half up (FIDE B.02 §8.1.1): (200 W½ + 2N) // 4N."""
    return f"INT((200*({w_half})+2*({n}))/(4*({n})))"


def _dp(p: str, dp: str) -> str:
    """dp of table 8.1.1 for p in hundredths (rows p = 0 .. 100)."""
    return f"INDEX({dp},({p})+1)"


def pd_hundredths(ro: str, r_opp: str, cap: str, pd_from: str, pd_high: str) -> str:
    """PD (hundredths) of a player rated ``ro`` against ``r_opp`` (FIDE B.02 §8.1.2,
    §8.3.1): |D| over 400 counts as 400 when ``cap`` is 1; the higher-rated player
    gets H, the lower-rated 100 - H: 50 + SIGN(D) x (H(|D|) - 50)."""
    a = f"ABS({ro}-{r_opp})"
    capped = f"{a}-{cap}*({a}>400)*({a}-400)"
    return f"50+SIGN({ro}-{r_opp})*(LOOKUP({capped},{pd_from},{pd_high})-50)"


def k_rule(ro: str, born: str, games: str, peak: str, k20: str, year: str) -> str:
    """K by FIDE B.02 §8.3.3 as :func:`xl_fide.rules.rating.k_factor` decides it: rapid/blitz
    before 1 Oct 2022 20; a rating or peak ever 2400+ 10; a junior (period year minus
    birth year <= 18) whose rating and peak stay under 2300 40; fewer than 30 games 40;
    else 20. Blank rating: ""; a birth year after the period's year or more than 120
    years before it: #N/A (a data error, never K 40)."""
    highest = f"MAX({ro},{number_or_zero(peak)})"
    bad_born = f"AND(ISNUMBER({born}),OR({born}>{year},{year}-{born}>{MAX_AGE}))"
    junior = f"AND(ISNUMBER({born}),{year}-{born}<={JUNIOR_AGE},{highest}<{JUNIOR_RATING})"
    new = f"AND(ISNUMBER({games}),{games}<{NEW_PLAYER_GAMES})"
    return (f'=IF({ro}="","",IF(ISNUMBER({ro}),IF({k20}=1,{K_DEFAULT},'
            f"IF({highest}>={K10_RATING},{K_TOP},IF({bad_born},NA(),"
            f"IF(OR({junior},{new}),{K_NEW},{K_DEFAULT})))),NA()))")


def adjust_switch(list_date: str, rules_date: str) -> str:
    """1 when a rating of the list of ``list_date`` is adjusted for the rules as on
    ``rules_date`` (the list before 1 March 2024, the rules on or after it), else 0:
    :func:`~xl_fide.rules.adjustments.adjusted_for_rules`'s condition."""
    d = ADJUST_2024_DATE
    day = f"DATE({d.year},{d.month},{d.day})"
    return (f"=IF(AND(ISNUMBER({list_date}),ISNUMBER({rules_date})),IF(AND({list_date}<{day},"
            f"{rules_date}>={day}),1,0),0)")


def ro_used(typed: str, switch: str) -> str:
    """The Ro used cell: the typed Ro ``typed`` as the rules read it (FIDE, March 2024
    lists; :func:`~xl_fide.rules.values.sheet_rating` and
    :func:`~xl_fide.rules.adjustments.adjust_2024`): blank for a blank cell; a number,
    or a text of digits only (TRIM, no sign, no leading zero: the text equals the number
    it reads as), that is a whole number 0..4000, raised to R + round(0.4 x (2000 - R))
    from 1000 to 1999 when ``switch`` (:func:`adjust_switch`) is 1; anything else
    :data:`~xl_fide.rules.values.NOT_A_RATING` (an integer formula: the raise is a
    multiple of 0.2, never a tie)."""
    num, den = ADJUST_2024_SHARE
    msg = f'"{NOT_A_RATING}"'

    def used(x: str) -> str:
        raise_ = _half_up_ratio(f"{num}*({ADJUST_2024_LIMIT}-{x})", str(den))
        return (f"IF(OR({x}<>INT({x}),{x}<{RATING_MIN},{x}>{RATING_MAX}),{msg},{x}+IF(AND("
                f"{switch}=1,{x}>={OLD_FLOOR},{x}<{ADJUST_2024_LIMIT}),{raise_},0))")

    text = f"TRIM({typed})"
    return (f'=IFERROR(IF(ISNUMBER({typed}),{used(typed)},IF({text}="","",IF({text}=""&'
            f"(--{text}),{used(f'(--{text})')},{msg}))),{msg})")


def _rb_ok(ro: str, r_opp: str) -> str:
    """1 unless the rapid/blitz 600-point rule leaves the game unrated for a rated
    player: difference 600+ and a player above 2600 (R&B §1, from 1 Dec 2024)."""
    sw = _Refs.switch(S_RB)
    return (f"NOT(AND({sw}=1,{ro}>0,ABS({ro}-{r_opp})>={RB_600_DIFFERENCE},"
            f"OR({ro}>{RB_600_TOP},{r_opp}>{RB_600_TOP})))")


def number_or_zero(x: str) -> str:
    """``x`` when it holds a number, else 0: the portable spelling of ``N(x)``, whose
    result on a blank cell or on text differs between engines (Gnumeric: ``#NUM!`` for a
    blank, 7 for the text "7"; Excel, LibreOffice: 0)."""
    return f"IF(ISNUMBER({x}),{x},0)"


def _played(res: str, codes: str) -> str:
    return f"IFERROR(VLOOKUP({result_key(res)},{codes},3,FALSE),0)=1"


def result_key(res: str) -> str:
    """The look-up key of result cell(s) ``res`` in the result codes: a number itself, a
    text without its spaces (``"0 "``, ``" ½"``, ``"1 - 0"`` read as ``0``, ``½``,
    ``1-0``, as FIDE_* and ``xl-fide report`` read them:
    :func:`xl_fide.rules.results.parse_result`), its wildcards ``* ? ~`` made ``#`` (to
    VLOOKUP ``"?"`` is any one character: it found ``1``). Elementwise: ``res`` may be
    a range in an array formula."""
    key = f'SUBSTITUTE({res}," ","")'
    for wild in "*?~":
        key = f'SUBSTITUTE({key},"{wild}","#")'
    return f"IF(ISNUMBER({res}),{res},{key})"


# ------------------------------------------------------------------------------ cells

def cells(lay: Layout) -> Iterator[Cell]:
    """Every cell the native rating block writes: the K rule and rating columns of the
    cross-table sheet and the whole :data:`CALC` sheet (titles, switches, the edition
    table, per player and per game helpers). Values are formulas (``=...``) or constants.
    """
    R = _Refs(lay)
    yield from _calc_header(lay, R)
    rows = row_template(lay)
    for row in range(lay.first, lay.last + 1):
        if rows is None:
            yield from _row_cells(lay, R, row)
            continue
        number = str(row)
        for sheet, col, value in rows:
            yield (sheet, row, col, number.join(value) if type(value) is tuple else value)


def header_cells(lay: Layout) -> Iterator[Cell]:
    """The cells of :func:`cells` above the players' rows (titles, switches, the edition
    table, the column heads), in the same order."""
    return _calc_header(lay, _Refs(lay))


def _row_cells(lay: Layout, R: _Refs, row: int) -> Iterator[Cell]:
    yield from _player(lay, R, row)
    yield from _games(lay, R, row)
    yield from _rating_cells(lay, R, row)


#: A row number no formula holds otherwise: a player's row is written once with it, and
#: every row's text is that text with its own number in its place.
_ANY_ROW = 987_654_321

#: a player's row as written by :func:`row_template`: per cell (sheet, column, value),
#: the value a tuple of texts to join with the row's number, or the value itself
RowTemplate = list[tuple[str, int, object]]


def row_template(lay: Layout) -> RowTemplate | None:
    """The cells :func:`cells` writes in every player's row, in its order, as
    ``(sheet, column, value)``: a ``tuple`` value is the texts around the row's number
    (the cell of row ``r`` holds ``str(r).join(value)``), any other value is the cell's
    in every row. ``None`` when the rows are not alike (a round robin: a player's own
    column is blank), checked on the first and the last row."""
    if lay.kind == "roundrobin":
        return None
    R = _Refs(lay)
    any_row = str(_ANY_ROW)
    out: RowTemplate = []
    for sheet, r, col, value in _row_cells(lay, R, _ANY_ROW):
        if r != _ANY_ROW:
            return None
        out.append((sheet, col, tuple(value.split(any_row))
                    if isinstance(value, str) and any_row in value else value))
    for row in {lay.first, lay.last}:
        number = str(row)
        made = [(sheet, row, col, number.join(value) if type(value) is tuple else value)
                for sheet, col, value in out]
        if [(c, type(c[3])) for c in made] != [(c, type(c[3]))
                                                for c in _row_cells(lay, R, row)]:
            return None
    return out


def _calc_header(lay: Layout, R: _Refs) -> Iterator[Cell]:
    yield (lay.calc, 1, 1, "Native rating formulas: per player and per game integers "
                       "(FIDE B.02 §8.1-§8.3). Computed; do not edit.")
    for i, label in enumerate(SWITCHES, 1):
        yield (lay.calc, SWITCH_ROW - 1, i, label)
    table_first = lay.last + 4
    rows = edition_rows()
    table_last = table_first + len(rows) - 1

    def col(i: int) -> str:
        c = _L(i)
        return f"${c}${table_first}:${c}${table_last}"

    match = f"MATCH({_L(S_ED)}{SWITCH_ROW},{col(1)},0)"
    yield (lay.calc, SWITCH_ROW, S_ED, f"={lay.edition}")
    for i in range(S_OK, S_MSG + 1):
        if i == S_YEAR:
            yield (lay.calc, SWITCH_ROW, i,
                   f"=IF(ISNUMBER({lay.date}),YEAR({lay.date}),YEAR(TODAY()))")
        elif i == S_MSG:
            yield (lay.calc, SWITCH_ROW, i, f'=IFERROR(INDEX({col(i)},{match}),"no rule edition '
                                        f"for the Event sheet's date and time control\")")
        else:
            yield (lay.calc, SWITCH_ROW, i, f"=IFERROR(INDEX({col(i)},{match}),0)")
    yield (lay.calc, SWITCH_ROW, S_ADJ, adjust_switch(lay.list_date, lay.date)
           if lay.list_date else 0)
    yield (lay.calc, table_first - 1, 1, "Rule editions (switches of the native formulas)")
    for r, values in enumerate(rows, table_first):
        for i, v in enumerate(values, 1):
            if v != "":
                yield (lay.calc, r, i, v)
    for i, head in enumerate(PLAYER_HEADS, 1):
        yield (lay.calc, lay.header_row, i, head)
    for b, what in enumerate(("R_opp of a rated game (0 = not rated)",
                              "score (half points)", "PD (hundredths)")):
        c1, _ = R.block(b)
        for g in range(lay.games):
            label = f"{what} vs {g + 1}" if lay.kind == "roundrobin" else f"{what} r{g + 1}"
            yield (lay.calc, lay.header_row, c1 + g, label if g == 0 else g + 1)


def _results_count(lay: Layout, R: _Refs, row: int) -> str:
    if lay.kind == "roundrobin":
        c1, c2 = _L(lay.grid_first), _L(lay.grid_first + lay.n - 1)
        return f"COUNTA({R.x}{c1}{row}:{c2}{row})"
    b1, b2 = _L(lay.block_first), _L(lay.block_last)
    heads = f"{R.x}${b1}${lay.header_row}:${b2}${lay.header_row}"
    return f'SUMPRODUCT(({heads}="Res")*({R.x}{b1}{row}:{b2}{row}<>""))'


def _player(lay: Layout, R: _Refs, row: int) -> Iterator[Cell]:
    me = R.me
    ro = R.cross("ro", row)
    floor = R.switch(S_FLOOR)
    yield (lay.calc, row, C_NO, f"={R.cross('no', row)}")
    # Ro used is a whole number 0..4000, blank or NOT_A_RATING (:func:`ro_used`): that
    # player is unrated to the others (no #N/A into their rows) and shows why (state 4)
    # an error (a month's Ro after a New that is an error) is passed on to the opponents
    yield (lay.calc, row, C_RO, f"=IF(ISNUMBER({ro}),IF({ro}>={floor},{ro},0),"
                                f"IF(ISERROR({ro}),{ro},0))")
    check = R.cross("check", row)
    yield (lay.calc, row, C_STATE, f'=IF(AND({ro}="",{_results_count(lay, R, row)}=0),0,'
                               f"IF({R.switch(S_OK)}<>1,2,IF(ISNUMBER({ro}),"
                               f'IF({number_or_zero(check)}>0,3,1),IF({ro}="",'
                               f"IF({number_or_zero(check)}>0,3,1),4))))")
    B = me(C_RO, row)
    yield (lay.calc, row, C_CAP, f"=IF(AND({R.switch(S_EXEMPT)}=1,{B}>={EXEMPT_RATING}),0,1)")
    yield (lay.calc, row, C_N, f'=COUNTIF({R.block_row(0, row)},">0")')
    yield (lay.calc, row, C_W, f"=SUM({R.block_row(1, row)})")
    yield (lay.calc, row, C_PD, f"=SUM({R.block_row(2, row)})")
    yield (lay.calc, row, C_SR, f"=SUM({R.block_row(0, row)})")
    N, W, PD, SR = me(C_N, row), me(C_W, row), me(C_PD, row), me(C_SR, row)
    K = R.cross("k", row)
    yield (lay.calc, row, C_K, f'=IF({B}>0,IF({K}*{N}>{K_CAP_PRODUCT},INT({K_CAP_PRODUCT}/{N}),{K}),"")')
    yield (lay.calc, row, C_CHG, f'=IF({B}>0,{me(C_K, row)}*(50*{W}-{PD}),"")')
    P = me(C_P, row)
    yield (lay.calc, row, C_P, f'=IF({N}>0,{_p_hundredths(W, N)},"")')
    yield (lay.calc, row, C_RP, f'=IF({N}>0,{_half_up_ratio(f"{SR}+{N}*{_dp(P, lay.dp)}", N)},"")')
    yield (lay.calc, row, C_RUV, f'=IF(OR({B}>0,{N}=0),"",{_initial_value(lay, N, W, SR, P)})')
    yield (lay.calc, row, C_RU, f"={_initial_shown(B, N, W, me(C_RUV, row))}")


def _initial_value(lay: Layout, N: str, W: str, SR: str, P: str) -> str:
    """Ru before the floor and the maximum (FIDE B.02 §8.2), by the edition's rule."""
    n2, w2 = f"({N}+2)", f"({W}+2)"
    rule_2024 = _half_up_ratio(
        f"{SR}+{2 * HYPOTHETICAL_OPPONENT}+{n2}*{_dp(_p_hundredths(w2, n2), lay.dp)}", n2)
    dp_2022 = f"IF({W}<={N},{_dp(P, lay.dp)},{HALF_POINT_BONUS}*({W}-{N}))"
    rule_2022 = _half_up_ratio(f"{SR}+{N}*{dp_2022}", N)
    return f"IF({_Refs.switch(S_I24)}=1,{rule_2024},{rule_2022})"


def _initial_shown(B: str, N: str, W: str, value: str) -> str:
    """Ru, or why it is not published as the code a cell shows (FIDE B.02 §8.2, §7.2.1;
    the key in :data:`xl_fide.rules.notes.KEY`): ``NP 0g``, ``NP 0pt``, ``NP 3g`` or
    ``NP 1356`` (the value computed, below the floor)."""
    floor, mx, ming = _Refs.switch(S_FLOOR), _Refs.switch(S_MAX), _Refs.switch(S_MING)
    return (f'IF({B}>0,"",IF({N}=0,"{NO_GAMES}",IF({W}=0,"{ZERO_SCORE}",'
            f'IF({N}<{ming},"{NP} "&{N}&"g",'
            f'IF({value}<{floor},"{NP} "&{value},'
            f"IF(AND({mx}>0,{value}>{mx}),{mx},{value}))))))")


def _games(lay: Layout, R: _Refs, row: int) -> Iterator[Cell]:
    me = R.me
    B, cap = me(C_RO, row), me(C_CAP, row)
    (x1, _), (y1, _), (z1, _) = R.block(0), R.block(1), R.block(2)
    for g in range(lay.games):
        if lay.kind == "roundrobin":
            j_row = lay.first + g
            if j_row == row:
                x = "0"
                res = ""
            else:
                res = f"{R.x}{_L(lay.grid_first + g)}{row}"
                opp = f"${_L(C_RO)}${j_row}"
                x = (f'IF(AND({res}<>"",{_played(res, lay.codes)},{opp}>0,{_rb_ok(B, opp)}),'
                     f"{opp},0)")
        else:
            # the opponent's number (a number typed as text counts, as in FIDE_EVENT_SWISS)
            o = f"IFERROR(--{R.x}{_L(lay.opp_cols[g])}{row},0)"
            res = f"{R.x}{_L(lay.res_cols[g])}{row}"
            opp = f"INDEX({R.ro_col()},{o})"
            x = (f'IF(AND({res}<>"",{o}>=1,{o}<={lay.n},{o}=INT({o})),'
                 f"IF(AND({_played(res, lay.codes)},{opp}>0,{_rb_ok(B, opp)}),{opp},0),0)")
        X = f"{_L(x1 + g)}{row}"
        yield (lay.calc, row, x1 + g, f"={x}" if res else 0)
        yield (lay.calc, row, y1 + g,
               f"=IF({X}>0,2*VLOOKUP({result_key(res)},{lay.codes},2,FALSE),0)" if res else 0)
        yield (lay.calc, row, z1 + g,
               f"=IF(AND({X}>0,{B}>0),{pd_hundredths(B, X, cap, lay.pd_from, lay.pd_high)},0)"
               if res else 0)


def _new_shown(new: str, calc: str = CALC) -> str:
    """The new rating, or below the floor the code ``NP 1390`` (FIDE B.02 §7.2.1: not
    published, the player is listed as unrated; :data:`xl_fide.rules.notes.KEY`)."""
    floor = f"{_q(calc)}!{_Refs.switch(S_FLOOR)}"
    return f'IF({new}<{floor},"{NP} "&({new}),{new})'


def _rating_cells(lay: Layout, R: _Refs, row: int) -> Iterator[Cell]:
    c = R.c

    def calc(col: int) -> str:
        return f"{c}${_L(col)}{row}"

    st, B = calc(C_STATE), calc(C_RO)
    N, W, PD, CHG = calc(C_N), calc(C_W), calc(C_PD), calc(C_CHG)
    rated = f"{B}>0"
    chg_cell = f"{_L(lay.col['chg'])}{row}"
    values = {
        "n": N,
        "w": f"{W}/2",
        "sum_pd": f'IF({rated},{PD}/100,"")',
        "w_pd": f'IF({rated},(50*{W}-{PD})/100,"")',
        "k_used": calc(C_K),
        "change": f'IF({rated},{CHG}/100,"")',
        "chg": f'IF({rated},{round_half_away(CHG)},"")',
        "new": f'IF({rated},{_new_shown(f"{B}+{chg_cell}", lay.calc)},"")',
        "rp": calc(C_RP),
        # Rc: the opponents' average over the N games, .5 up (FIDE's rating report)
        "rc": f'IF({N}>0,{_half_up_ratio(calc(C_SR), N)},"")',
    }
    for key, value in values.items():
        yield (lay.cross, row, lay.col[key], "=" + _shown(st, value))
    msg = f"{c}{R.switch(S_MSG)}"
    yield (lay.cross, row, lay.col["ru"], "=" + _shown(st, calc(C_RU), msg,
                                                        R.cross("ro", row)))
    year, k20 = f"{c}{R.switch(S_YEAR)}", f"{c}{R.switch(S_K20)}"
    rule = k_rule(R.cross("ro", row), R.cross("born", row), R.cross("games", row),
                  R.cross("peak", row), k20, year)
    if lay.k_set:               # a month's K: K set if given, else the rule at its Ro
        k_set = f"{R.x}${_L(lay.k_set)}{row}"
        ro = R.cross("ro", row)
        yield (lay.cross, row, lay.col["k"],
               f'=IF({ro}="","",IF(ISNUMBER({k_set}),{k_set},{rule[1:]}))')
    else:
        yield (lay.cross, row, lay.col["k_rule"], rule)
    if lay.typed_ro:            # Ro used, from the typed Ro (the K rule and C_RO read it)
        typed = f"{R.x}${_L(lay.typed_ro)}{row}"
        yield (lay.cross, row, lay.col["ro"], ro_used(typed, f"{c}{R.switch(S_ADJ)}"))
