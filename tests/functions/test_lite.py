"""xl_fide.lite: the xlwings Lite scripts, run against a stand-in for xlwings' Book API.

There is no xlwings Lite here. The stand-in below implements the part of xlwings'
public Book/Sheet/Range API the scripts use, with xlwings' semantics (a nested list
assigned to a cell fills the block from it; a scalar assigned to a range fills every
cell; ``options(ndim=2)`` always gives rows) and records the order of writes, so the
tests can check what Lite would be asked to do. Issue 15, #1: formulas that were in
the file when Lite registered the functions stay #NAME?; the scripts write them again.
"""

from __future__ import annotations

import datetime as _dt
import re
from pathlib import Path

from tests.harness.docs import docs_text
import pytest
from tests.harness.pyrun import run_python
from tests.harness.xl_shapes import as_xlwings_passes
from openpyxl.utils import get_column_letter, range_boundaries

from xl_fide import lite
from xl_fide.errors import InputError
from xl_fide.event.report import build_report
from xl_fide.trf import read_trf
from xl_fide.excel._layout import CROSS, EVENT, REPORT
from xl_fide.excel._build import build_template
from xl_fide.excel._fill import fill_workbook

ROOT = Path(__file__).resolve().parents[2]
TRF_DIR = ROOT / "tests" / "data" / "trf"


class FakeRange:
    def __init__(self, sheet: "FakeSheet", ref: str, ndim: int | None = None) -> None:
        self.sheet, self.ref, self.ndim = sheet, ref, ndim
        self.c1, self.r1, self.c2, self.r2 = range_boundaries(ref if ":" in ref else f"{ref}:{ref}")

    def options(self, ndim=None):
        return FakeRange(self.sheet, self.ref, ndim)

    @property
    def value(self):
        rows = [[self.sheet.cells.get((r, c)) for c in range(self.c1, self.c2 + 1)]
                for r in range(self.r1, self.r2 + 1)]
        return rows if self.ndim == 2 else as_xlwings_passes(rows)

    @value.setter
    def value(self, value):
        self.sheet.book.log.append(("write", self.sheet.name, self.ref))
        if isinstance(value, list):
            rows = value if value and isinstance(value[0], list) else [value]
            for i, row in enumerate(rows):
                for j, v in enumerate(row):
                    self.sheet.put(self.r1 + i, self.c1 + j, v)
        else:
            for r in range(self.r1, self.r2 + 1):
                for c in range(self.c1, self.c2 + 1):
                    self.sheet.put(r, c, value)

    def clear_contents(self):
        self.sheet.book.log.append(("clear", self.sheet.name, self.ref))
        for r in range(self.r1, self.r2 + 1):
            for c in range(self.c1, self.c2 + 1):
                self.sheet.cells.pop((r, c), None)

    @property
    def number_format(self):
        return self.sheet.formats.get((self.r1, self.c1), "General")

    @number_format.setter
    def number_format(self, fmt):
        for r in range(self.r1, self.r2 + 1):
            for c in range(self.c1, self.c2 + 1):
                self.sheet.formats[(r, c)] = fmt


class FakeSheet:
    def __init__(self, book: "FakeBook", name: str) -> None:
        self.book, self.name = book, name
        self.cells: dict[tuple[int, int], object] = {}
        self.formats: dict[tuple[int, int], str] = {}
        self.api = None                      # xlwings Lite: no COM object

    def put(self, r, c, v):
        if v is None or v == "":
            self.cells.pop((r, c), None)
        else:
            self.cells[(r, c)] = v

    def __getitem__(self, ref):
        return FakeRange(self, ref)

    def range(self, ref):
        return FakeRange(self, ref)

    @property
    def used_range(self):
        if not self.cells:
            return FakeRange(self, "A1")
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        return FakeRange(self, f"A1:{get_column_letter(max(cols))}{max(rows)}")

    def activate(self):
        self.book.active = self.name


class FakeSheets:
    def __init__(self, book):
        self.book, self.items = book, []

    def __iter__(self):
        return iter(self.items)

    def __getitem__(self, name):
        return next(s for s in self.items if s.name == name)

    def add(self, name=None, before=None, after=None):
        assert name not in [s.name for s in self.items]
        sheet = FakeSheet(self.book, name)
        index = self.items.index(after) + 1 if after is not None else 0
        self.items.insert(index, sheet)
        return sheet


class FakeNames:
    def __init__(self):
        self.refers_to: dict[str, str] = {}

    def add(self, name, refers_to):
        self.refers_to[name] = refers_to


class FakeBook:
    def __init__(self, *sheet_names):
        self.log: list = []
        self.sheets = FakeSheets(self)
        self.names = FakeNames()
        self.active = None
        for name in reversed(sheet_names or ("Sheet1",)):
            self.sheets.add(name=name)


def _opened_in_excel(wb) -> FakeBook:
    """A FakeBook holding an openpyxl workbook as Excel shows it after opening: every
    cell of a legacy array formula's range is part of the array."""
    book = FakeBook(*[ws.title for ws in wb])
    for ws in wb:
        sheet = book.sheets[ws.title]
        for row in ws.iter_rows():
            for cell in row:
                v = cell.value
                if hasattr(v, "ref"):
                    c1, r1, c2, r2 = range_boundaries(v.ref)
                    for r in range(r1, r2 + 1):
                        for c in range(c1, c2 + 1):
                            sheet.put(r, c, "{" + v.text + "}")
                elif v is not None:
                    sheet.put(cell.row, cell.column, v)
    book.log.clear()
    return book


def _template_formulas(wb):
    return {(s, ref.split(":")[0]): text for s, ref, text in lite.fide_formulas(wb)}


# ---------------------------------------------------------- #1 formulas bind in Lite

@pytest.mark.parametrize("layout, players, rounds", [("roundrobin", 6, 5), ("swiss", 12, 7)])
def test_bind_formulas_writes_every_fide_formula_again(layout, players, rounds):
    wb = build_template(layout, players, rounds)
    book = _opened_in_excel(wb)
    message = lite.bind_formulas(book)
    wanted = list(lite.fide_formulas(wb))
    # the K rule column, the rating block and FIDE_VERSION() at least
    assert {text.split("(")[0] for _, _, text in wanted} >= {
        "=FIDE_K", "=FIDE_VERSION", "=FIDE_EVENT" if layout == "roundrobin" else "=FIDE_EVENT_SWISS"}
    assert message.startswith(f"wrote {len(wanted)} FIDE_* formulas")
    for sheet_name, ref, text in wanted:
        sheet = book.sheets[sheet_name]
        c1, r1, c2, r2 = range_boundaries(ref if ":" in ref else f"{ref}:{ref}")
        assert sheet.cells[(r1, c1)] == text                      # a dynamic-array formula
        spill = [(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)][1:]
        assert all(p not in sheet.cells for p in spill), ref     # else #SPILL!
        # the legacy array is cleared as a whole before its top-left is written
        i = book.log.index(("clear", sheet_name, ref))
        assert book.log[i + 1] == ("write", sheet_name, ref.split(":")[0])


def test_bind_formulas_needs_an_xl_fide_workbook():
    with pytest.raises(InputError, match="no 'Crosstable' sheet"):
        lite.bind_formulas(FakeBook())


def test_bind_formulas_un_and_re_protects_where_the_host_can():
    wb = build_template("roundrobin", 4, 3)
    book = _opened_in_excel(wb)
    calls = []

    class ComSheet:               # classic Excel's Worksheet through COM
        ProtectContents = True

        def Unprotect(self):
            calls.append("unprotect")

        def Protect(self, **kw):
            calls.append("protect")

    for sheet in book.sheets:
        sheet.api = ComSheet()
    lite.bind_formulas(book)
    n = len(list(lite.fide_formulas(wb)))
    assert calls == ["unprotect", "protect"] * n


# ------------------------------------------------------------ a new cross-table

def test_new_crosstable_asks_for_sizes_then_builds_it():
    book = FakeBook()
    assert "set Layout, Players, Rounds and Formulas" in lite.new_crosstable(book)
    setup = book.sheets[lite.SETUP_SHEET]
    assert setup["A1:A4"].value == ["Layout", "Players", "Rounds", "Formulas"]
    assert setup["B4"].value == "udf"
    setup["B1"].value, setup["B2"].value, setup["B3"].value = "roundrobin", 6, 99
    assert lite.new_crosstable(book) == ("added a roundrobin cross-table: 6 players, "
                                         "5 rounds, udf formulas")
    wb = build_template("roundrobin", 6, 5)
    names = [s.name for s in book.sheets]
    assert names[:4] == ["Crosstable", "Event", "Tables", "Help"] and "xlwings.conf" not in names
    assert book.active == CROSS
    # every formula of the template, FIDE_* or native, at its cell; defined names too
    for (sheet_name, cell), text in _template_formulas(wb).items():
        c1, r1, _, _ = range_boundaries(f"{cell}:{cell}")
        assert book.sheets[sheet_name].cells[(r1, c1)] == text
    assert set(book.names.refers_to) == set(wb.defined_names)
    assert book.names.refers_to["ResultCodes"].startswith("='Tables'!")
    # result cells Text, like the template (issue 15, #4)
    ws = wb[CROSS]
    cross = book.sheets[CROSS]
    assert cross.formats[(5, 14)] == ws.cell(5, 14).number_format == "@"
    # a second run refuses: the sheets exist
    with pytest.raises(InputError, match="already has a sheet named 'Crosstable'"):
        lite.new_crosstable(book)


def test_native_workbooks_have_nothing_to_bind_and_copy_whole():
    from xl_fide.excel._native import CALC
    wb = build_template("swiss", 6, 3, formulas="native")
    book = _opened_in_excel(wb)
    before = {s.name: dict(s.cells) for s in book.sheets}
    assert "wrote 0 FIDE_* formulas" in lite.bind_formulas(book)
    assert {s.name: s.cells for s in book.sheets} == before       # nothing rewritten
    book = FakeBook(lite.SETUP_SHEET)
    setup = book.sheets[lite.SETUP_SHEET]
    setup["A1"].value = [["Layout", "swiss"], ["Players", 6], ["Rounds", 3],
                         ["Formulas", "native"]]
    assert lite.new_crosstable(book).endswith("native formulas")
    assert CALC in [s.name for s in book.sheets]                  # the helper sheet too
    assert not any("FIDE_" in str(v) for s in book.sheets for v in s.cells.values()
                   if str(v).startswith("="))


def test_copy_keeps_text_that_looks_like_a_formula_as_text():
    wb = build_template("swiss", 4, 2)
    wb[CROSS]["C5"].value = "=HYPERLINK(1)"        # a name typed with a leading =
    wb[CROSS]["C5"].data_type = "s"
    book = FakeBook()
    lite.copy_workbook(wb, book)
    assert book.sheets[CROSS].cells[(5, 3)] == "'=HYPERLINK(1)"


def test_bad_sizes_are_one_message():
    book = FakeBook(lite.SETUP_SHEET)
    setup = book.sheets[lite.SETUP_SHEET]
    setup["B1"].value, setup["B2"].value, setup["B3"].value = "swiss", 2.5, 9
    with pytest.raises(InputError, match=r"xl-fide!B2 \(Players\) must be a whole number"):
        lite.new_crosstable(book)
    setup["B2"].value = 5000
    with pytest.raises(InputError, match=r"xl-fide!B2 \(Players\) must be a whole number "
                                         r"from 2 to 2000, got 5000"):
        lite.new_crosstable(book)


@pytest.mark.parametrize("cell, value, message", [
    # issue 22 #16: inf and NaN raised OverflowError/ValueError from int(); 9e307 gave a
    # 359-character message quoting every digit
    ("B2", float("inf"), r"xl-fide!B2 \(Players\) must be a whole number from 2 to 2000, got inf$"),
    ("B2", float("nan"), r"xl-fide!B2 \(Players\) must be a whole number from 2 to 2000, got nan$"),
    ("B2", 9e307, r"xl-fide!B2 \(Players\) must be a whole number from 2 to 2000, got 9e\+307$"),
    ("B3", float("-inf"), r"xl-fide!B3 \(Rounds\) must be a whole number from 1 to 99, got -inf$"),
    ("B3", 1e30, r"xl-fide!B3 \(Rounds\) must be a whole number from 1 to 99, got 1e\+30$"),
    ("B3", "x" * 500, r"xl-fide!B3 \(Rounds\) must be a whole number from 1 to 99, got 'xxx"),
    ("B1", "y" * 500, r"xl-fide!B1 \(Layout\) must be roundrobin or swiss, got 'yyy"),
    ("B1", float("nan"), r"xl-fide!B1 \(Layout\) must be roundrobin or swiss, got nan$"),
    ("B4", 9e307, r"xl-fide!B4 \(Formulas\) must be udf or native, got 9e\+307$"),
])
def test_settings_junk_is_one_short_message(cell, value, message):
    book = FakeBook(lite.SETUP_SHEET)
    setup = book.sheets[lite.SETUP_SHEET]
    setup["A1"].value = [["Layout", "swiss"], ["Players", 6], ["Rounds", 3], ["Formulas", "udf"]]
    setup[cell].value = value
    with pytest.raises(InputError, match=message) as exc:
        lite.new_crosstable(book)
    assert len(str(exc.value)) <= 130                   # one short line
    assert [s.name for s in book.sheets] == [lite.SETUP_SHEET]          # nothing added


def test_a_round_robin_is_at_most_60_players():
    book = FakeBook(lite.SETUP_SHEET)
    book.sheets[lite.SETUP_SHEET]["A1"].value = [["Layout", "roundrobin"], ["Players", 61]]
    with pytest.raises(InputError, match=r"B2 \(Players\) must be a whole number from 2 to 60"):
        lite.new_crosstable(book)


# ----------------------------------------- issue 22 #9: binding after sizes were lowered

def _filled_swiss(players=8, rounds=7, rows=None, sheet_rounds=None):
    """A Swiss cross-table of ``players`` who all play ``rounds`` rounds (1 beats 2, 3
    beats 4 ... every round), on a sheet of ``rows`` rows and ``sheet_rounds`` rounds."""
    from xl_fide.tournament import Game, Tournament, TrfPlayer
    ps = []
    for i in range(1, players + 1):
        opp = i + 1 if i % 2 else i - 1
        games = [Game(r, opp, "w" if i % 2 else "b", "1" if i % 2 else "0")
                 for r in range(1, rounds + 1)]
        ps.append(TrfPlayer(i, name=f"Player {i}", rating=2000 + i, games=games))
    t = Tournament(name="E", players=tuple(ps), rounds=rounds)
    return fill_workbook(build_report(t), rows=rows or players, rounds=sheet_rounds or rounds)


def _set_event(book, key, value):
    from xl_fide.excel._layout import EVENT_ROW
    book.sheets[EVENT][f"B{EVENT_ROW[key]}"].value = value
    book.log.clear()


def test_bind_refuses_rounds_lowered_below_what_is_filled_and_writes_nothing():
    # Before: Rounds lowered to 5 built a 5-round template whose rating block lies over
    # rounds 6 and 7 of the sheet: the typed results there were erased.
    from tests.excel.test_workbook_truth import round_cell
    book = _opened_in_excel(_filled_swiss())
    before = {s.name: dict(s.cells) for s in book.sheets}
    _set_event(book, "rounds", 5)
    before[EVENT] = dict(book.sheets[EVENT].cells)
    with pytest.raises(InputError, match=rf"Event!B\d+: Rounds is 5, but round 6 is filled "
                                         rf"\(Crosstable!{round_cell(6, 'opp', 1)}\).*nothing "
                                         "was written"):
        lite.bind_formulas(book)
    assert {s.name: s.cells for s in book.sheets} == before and not book.log


def test_bind_refuses_player_rows_lowered_below_what_is_filled():
    # Before: Player rows lowered to 5 left players 6-8 out of the rating formula.
    book = _opened_in_excel(_filled_swiss())
    _set_event(book, "players", 5)
    with pytest.raises(InputError, match=r"Player rows is 5, but row 10 is filled "
                                         r"\(Crosstable!C10\)"):
        lite.bind_formulas(book)
    assert not book.log
    _set_event(book, "players", 9)       # more than the sheet has
    with pytest.raises(InputError, match=r"Player rows is 9 but the Crosstable sheet has 8"):
        lite.bind_formulas(book)
    assert not book.log


def test_bind_over_empty_lowered_rounds_keeps_the_sheets_own_size():
    # 6 players, 4 rounds played, a sheet of 8 rows and 7 rounds; Event lowered to 6
    # rows and 4 rounds (rows 11-12 and rounds 5-7 empty): the formulas go back where the
    # sheet has them (8 rows, 7 rounds), every typed cell stays.
    wb = _filled_swiss(players=6, rounds=4, rows=8, sheet_rounds=7)
    book = _opened_in_excel(wb)
    typed = {k: v for k, v in book.sheets[CROSS].cells.items() if not str(v).startswith(("=", "{"))}
    _set_event(book, "players", 6)
    _set_event(book, "rounds", 4)
    assert "(swiss, 8 players, 7 rounds" in lite.bind_formulas(book)
    cells = book.sheets[CROSS].cells
    assert all(cells.get(k) == v for k, v in typed.items())
    wanted = {(s, ref.split(":")[0]): text for s, ref, text in lite.fide_formulas(wb)}
    for (sheet_name, ref), text in wanted.items():
        c1, r1, _, _ = range_boundaries(f"{ref}:{ref}")
        assert book.sheets[sheet_name].cells[(r1, c1)] == text


# ------------------------------------------------------------ from pasted TRF text

@pytest.mark.parametrize("name", ["san_viator_2018_swiss.trf", "mini_trf2026.trf"])
def test_crosstable_from_pasted_trf(name):
    path = TRF_DIR / name
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    book = FakeBook(lite.TRF_SHEET)
    trf = book.sheets[lite.TRF_SHEET]
    trf["A1"].value = [[line] for line in lines]        # a paste: one line per row
    message = lite.crosstable_from_trf(book)
    t = read_trf(path)
    assert message.startswith(f"added the cross-table of {len(t.players)} players")
    from xl_fide.excel import complete_cells
    wb = complete_cells(fill_workbook(build_report(t)))     # (the planned rows as cells)
    # the Report sheet and the Crosstable cells are those xl-fide crosstable writes
    for sheet_name in (REPORT, CROSS, EVENT):
        ws, sheet = wb[sheet_name], book.sheets[sheet_name]
        for row in ws.iter_rows():
            for cell in row:
                got = sheet.cells.get((cell.row, cell.column))
                want = lite._value_out(cell)
                assert got == (None if want == "" else want), (sheet_name, cell.coordinate)


def test_trf_text_from_cells():
    assert lite.trf_text([["012 Open"], [None], ["XXR", 9.0]]) == "012 Open\n\nXXR\t9\n"
    with pytest.raises(InputError, match="no sheet named 'TRF'"):
        lite.crosstable_from_trf(FakeBook())
    with pytest.raises(InputError, match="is empty"):
        lite.crosstable_from_trf(FakeBook(lite.TRF_SHEET))


# ------------------------------------------- importing without xlwings Lite or PRO

_STUB = r'''
import sys, types
xw = types.ModuleType("xlwings")
xw.func = xw.arg = xw.ret = xw.script = (
    lambda *a, **k: a[0] if len(a) == 1 and callable(a[0]) and not k else (lambda f: f))
xw.Book = type("Book", (), {})
sys.modules["xlwings"] = xw
class NoPro:                                # any import of xlwings.pro fails loudly
    def find_spec(self, name, path=None, target=None):
        if name.startswith("xlwings.pro") or name == "xlwings.server":
            raise ImportError("xlwings.pro must not be imported")
sys.meta_path.insert(0, NoPro())
import xl_fide.lite as lite, xl_fide.udfs as udfs
names = {}
exec("from xl_fide.udfs import *\nfrom xl_fide.lite import *", names)
print(sorted(n for n in names if not n.startswith("__")))
'''


def test_lite_imports_with_stub_decorators_and_without_xlwings_pro():
    names = eval(run_python(_STUB)[-1])
    assert set(lite.__all__) <= set(names)
    assert {n for n in names if n.startswith("FIDE_")} == set(__import__("xl_fide.udfs").udfs.__all__)


def test_real_xlwings_here_keeps_pro_out():
    # `import xlwings` itself loads xlwings.pro.utils; ours must add nothing of PRO
    code = ("import sys\n"
            "pro = lambda: {m for m in sys.modules if m.startswith(('xlwings.pro', 'xlwings.server'))}\n"
            "import xlwings\nbefore = pro()\nimport xl_fide.lite, xl_fide.udfs\n"
            "print(sorted(pro() - before))")
    assert run_python(code) == ["[]"]


def test_scripts_take_the_book_as_lite_documents():
    # "a function argument with the xlwings.Book type hint" (lite.xlwings.org, Scripts)
    import typing

    import xlwings as xw
    for name in lite.__all__:
        hints = typing.get_type_hints(getattr(lite, name))
        assert list(hints.values()) == [xw.Book], name


def test_readme_main_py_brings_functions_and_scripts():
    lite_part = (ROOT / "docs" / "runtimes" / "lite.md").read_text(encoding="utf-8")
    code = [line.strip() for line in lite_part.splitlines()
            if line.strip().startswith("from xl_fide.")]
    assert code[:2] == ["from xl_fide.udfs import *  # noqa: F401,F403",
                        "from xl_fide.lite import *  # noqa: F401,F403"]
    names: dict = {}
    exec("\n".join(code[:2]), names)
    assert set(lite.__all__) <= set(names)
    for name in lite.__all__:
        assert f"`{name}`" in lite_part


# ---------------------------------------------- issue 22: a fuzz family of the settings

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SETTING = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10 ** 40, max_value=10 ** 40),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=300),
    st.sampled_from(["swiss", "roundrobin", " SWISS ", "udf", "native", "2", "3", "1e3"]),
)


@settings(max_examples=40, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(layout=SETTING, players=st.one_of(SETTING, st.integers(2, 6)),
       rounds=st.one_of(SETTING, st.integers(1, 3)), formulas=SETTING)
def test_settings_fuzz_builds_or_says_one_short_line(layout, players, rounds, formulas):
    book = FakeBook(lite.SETUP_SHEET)
    book.sheets[lite.SETUP_SHEET]["A1"].value = [
        ["Layout", layout], ["Players", players], ["Rounds", rounds], ["Formulas", formulas]]
    try:
        message = lite.new_crosstable(book)
    except InputError as exc:
        assert len(str(exc)) <= 130 and "\n" not in str(exc)
        assert [s.name for s in book.sheets] == [lite.SETUP_SHEET]
    else:
        assert message.startswith("added a ")


@pytest.mark.parametrize("make, other, sheet", [("swiss", "roundrobin", "swiss"),
                                                ("roundrobin", "swiss", "roundrobin")])
def test_bind_refuses_a_layout_the_sheet_is_not(make, other, sheet):
    # found with #9: Layout changed on the Event sheet (swiss -> roundrobin) made the bind
    # write a round robin's formulas over 62 cells of a Swiss table
    from tests.excel.test_workbook import rr_example, swiss_example
    t = swiss_example() if make == "swiss" else rr_example()
    book = _opened_in_excel(fill_workbook(build_report(t)))
    _set_event(book, "layout", other)
    before = {s.name: dict(s.cells) for s in book.sheets}
    with pytest.raises(InputError, match=rf"Layout is {other} but the Crosstable sheet is a "
                                         rf"{sheet} table .*set Layout back to {sheet}; "
                                         "nothing was written"):
        lite.bind_formulas(book)
    assert {s.name: s.cells for s in book.sheets} == before and not book.log


@pytest.mark.parametrize("key, value, message", [
    ("players", float("inf"), r"Event!B\d+ \(Player rows\) must be a whole number from 2 to "
                              r"2000, got inf$"),
    ("rounds", 9e307, r"Event!B\d+ \(Rounds\) must be a whole number from 1 to 99, got 9e\+307$"),
    ("layout", float("nan"), r"Event!B\d+ \(Layout\) must be roundrobin or swiss, got nan$"),
])
def test_bind_with_junk_event_sizes_is_one_short_message(key, value, message):
    # issue 22 #16, the same cells read by fide_bind_formulas: int(inf) raised OverflowError
    book = _opened_in_excel(build_template("swiss", 4, 2))
    _set_event(book, key, value)
    with pytest.raises(InputError, match=message):
        lite.bind_formulas(book)
    assert not book.log

# ------------------------------------------- text stays text where Excel stores values
# (issue 20, #3) Excel stores what a script writes as it stores typed input: "1", "0.5"
# become numbers, "1:0" a time, "1/2" a date, unless the text carries the apostrophe of
# typed text or the cell is Text-formatted ("@"). A code that became a number no longer
# matches the text a user types into a Text result cell (VLOOKUP and MATCH do not find
# the text "1" among numbers in Excel, Gnumeric or `formulas`; LibreOffice does).

class Typed(str):
    """Text as Excel holds it (the apostrophe of typed text removed)."""


_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?")
_TIME = re.compile(r"(\d{1,2}):(\d{1,2})(:(\d{1,2}))?")
_DATE = re.compile(r"(\d{1,4})[/-](\d{1,2})([/-](\d{1,4}))?")


def excel_stores(text, fmt):
    """What Excel (en-US) stores when ``text`` is written to a cell of number format
    ``fmt``: a formula stays formula text, the rest as typed input is read."""
    if text.startswith("="):
        return text
    if text.startswith("'"):
        return Typed(text[1:])
    if fmt == "@":
        return Typed(text)
    s = text.strip()
    if _NUMBER.fullmatch(s):
        return float(s.rstrip("%")) / (100 if s.endswith("%") else 1)
    if s.upper() in ("TRUE", "FALSE"):
        return s.upper() == "TRUE"
    if m := _TIME.fullmatch(s):
        return (int(m[1]) * 3600 + int(m[2]) * 60 + int(m[4] or 0)) / 86400
    if (m := _DATE.fullmatch(s)) and 1 <= int(m[1]) <= 12 and 1 <= int(m[2]) <= 31:
        return _dt.date(int(m[4]) if m[4] else 2026, int(m[1]), int(m[2]))
    return Typed(text)


class ExcelSheet(FakeSheet):
    def put(self, r, c, v):
        if isinstance(v, str) and not isinstance(v, Typed) and v != "":
            v = excel_stores(v, self.formats.get((r, c), "General"))
        super().put(r, c, v)


class ExcelBook(FakeBook):
    """The stand-in book, storing values as Excel does."""

    def __init__(self):
        self.log: list = []
        self.sheets = FakeSheets(self)
        self.names = FakeNames()
        self.active = None
        self.sheets.add = self._add
        self._add(name="Sheet1")

    def _add(self, name=None, before=None, after=None):
        sheet = ExcelSheet(self, name)
        items = self.sheets.items
        items.insert(items.index(after) + 1 if after is not None else 0, sheet)
        return sheet


def save_book(book, template, path):
    """``book`` as an .xlsx file: Excel's own save. A formula written where ``template``
    has an array formula spills over the template's range (dynamic arrays)."""
    from openpyxl import Workbook
    from openpyxl.workbook.defined_name import DefinedName
    from openpyxl.worksheet.formula import ArrayFormula
    arrays = {(ws.title, c.coordinate): c.value.ref for ws in template
              for row in ws.iter_rows() for c in row if isinstance(c.value, ArrayFormula)}
    out = Workbook()
    out.remove(out.active)
    for sheet in book.sheets:
        ws = out.create_sheet(sheet.name)
        for (r, c), v in sheet.cells.items():
            cell = ws.cell(r, c)
            if isinstance(v, Typed):
                cell.value, cell.data_type = str(v), "s"
            elif isinstance(v, str) and (sheet.name, cell.coordinate) in arrays:
                cell.value = ArrayFormula(arrays[(sheet.name, cell.coordinate)], v)
            else:
                cell.value = v
    for name, refers_to in book.names.refers_to.items():
        out.defined_names[name] = DefinedName(name, attr_text=refers_to.lstrip("="))
    out.save(path)
    return path


#: results as an arbiter may type them (all in the Tables' vocabulary), by score
SPELLINGS = {1: ("1:0", "1.0", "1"), 0: ("0:1", "0.0", "0"), 0.5: ("1/2", "0.5", ".5")}


def _typed_again(book, wb):
    """An arbiter types every result of the cross-table again, in the spellings of
    :data:`SPELLINGS` in turn; the result cells are Text-formatted, so Excel keeps what
    is typed as text."""
    sheet = book.sheets[CROSS]
    score = {1: 1, "1": 1, 0: 0, "0": 0, "½": 0.5, "=": 0.5}
    typed = 0
    for row in wb[CROSS].iter_rows():
        for cell in row:
            if cell.number_format == "@" and cell.value in score:
                spelling = SPELLINGS[score[cell.value]][typed % 3]
                sheet.put(cell.row, cell.column, Typed(spelling))
                typed += 1
    assert typed >= 6


@pytest.mark.parametrize("formulas", ["native", "udf"])
@pytest.mark.parametrize("event", ["rr_example", "swiss_example"])
def test_lite_copy_keeps_codes_text_in_an_excel_engine(event, formulas, tmp_path):
    xl_formulas = pytest.importorskip("tests.harness.xl_formulas")
    from openpyxl import load_workbook
    from tests.excel.test_workbook import rr_example, swiss_example
    from tests.excel.test_workbook_lo import assert_matches_report, assert_no_bad_cells
    from xl_fide.rules.editions import EventOptions
    t = {"rr_example": rr_example, "swiss_example": swiss_example}[event]()
    report = build_report(t, EventOptions(k=10 if event == "rr_example" else None))
    wb = fill_workbook(report, formulas=formulas)
    book = ExcelBook()
    lite.copy_workbook(wb, book)
    # no text of the workbook was stored as a number, a date or a time
    changed = [f"{ws.title}!{c.coordinate}: {c.value!r}" for ws in wb
               if ws.title in [s.name for s in book.sheets]
               for row in ws.iter_rows() for c in row
               if c.data_type == "s" and c.value
               and book.sheets[ws.title].cells.get((c.row, c.column)) != c.value]
    assert changed == []
    _typed_again(book, wb)
    path = save_book(book, wb, tmp_path / f"{event}_{formulas}.xlsx")
    values, _ = xl_formulas.recalc(path)
    assert_no_bad_cells(values)
    assert_matches_report(values, load_workbook(path), report)


def test_lite_copy_hides_the_sheets_the_file_hides():
    from xl_fide.excel._native import CALC
    t = read_trf(TRF_DIR / "mini_trf2026.trf")
    wb = fill_workbook(build_report(t), formulas="native")
    book = FakeBook()
    lite.copy_workbook(wb, book)
    hidden = {ws.title for ws in wb if ws.sheet_state != "visible"} - set(lite._NOT_COPIED)
    assert {CALC, "TRF_original"} <= hidden
    assert {s.name for s in book.sheets if getattr(s, "visible", True) is False} == hidden
