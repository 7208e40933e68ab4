"""The xl-fide command line: main jobs, one-line errors, files never lost."""

import json
import subprocess
import sys
from pathlib import Path

from tests.harness.docs import docs_text
import pytest

from xl_fide.cli._main import build_parser, main

DATA = Path(__file__).parents[1] / "data" / "trf"
SAN = DATA / "san_viator_2018_swiss.trf"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_report_example_table(capsys):
    code, out, err = run(capsys, "report", "--example")
    assert code == 0
    assert "XXX Torneo San Viator" in out and "FIDE-2017-07-01-standard" in out
    # rounds in April and May over 49 days: rated month by month (issue 12 #5), then the
    # whole event as one period for comparison
    assert "[1/2] XXX Torneo San Viator - Memorial Pepe Domaica (B), 2018-04 (rounds 1-3)" in out
    assert "[2/2] XXX Torneo San Viator - Memorial Pepe Domaica (B), 2018-05 (rounds 4-7)" in out
    april, rest = out.split("[2/2]")
    april = april.split("[1/2]")[1]     # the results (the months together) come first
    # player 2 (1731, K 20) in April beats 1451, 1540, 1555: D 280/191/176 -> PD .84 + .75
    # + .73 = 2.32, ΣΔR +.68 -> +13.60 -> +14 -> 1745
    line = next(l for l in april.splitlines() if l.split()[:1] == ["2"])
    assert "2.32" in line and "+13.60" in line and "1745" in line
    # player 2 by hand as one period (see test_report.py): ΣPD 5.32, -6.40 -> -6 -> 1725
    whole = rest.split("As one rating period, for comparison only:")[1]
    line = next(l for l in whole.splitlines() if l.split()[:1] == ["2"])
    assert "5.32" in line and "-6.40" in line and "1725" in line


def test_report_json_and_csv(capsys):
    code, out, _ = run(capsys, "report", str(SAN), "--format", "json")
    doc = json.loads(out)
    assert code == 0 and len(doc["players"]) == 137 and doc["players"][0]["new_rating"] == 1752
    code, out, _ = run(capsys, "report", str(SAN), "--format", "csv", "--k", "40")
    # player 2 at K 40 as one period (the comparison lines after the months): -.32 x 40
    row = next(r.split(",") for r in out.splitlines() if r.startswith("event (comparison only),2,"))
    assert code == 0 and row[11] == "-12.80"      # K×ΣΔR (FIDE id, Rc added: issue 34 #2)


def test_report_event_date_and_time_control_change_the_rules(capsys):
    code, out, _ = run(capsys, "report", str(SAN), "--event-date", "2025-11-01",
                       "--time-control", "rapid", "--format", "json")
    assert code == 0 and json.loads(out)["rule_edition"] == "FIDE-2024-12-01-rapid"


@pytest.mark.parametrize("argv,needle", [
    (["report", "missing.trf"], "missing.trf: no such file"),
    (["report"], "no input"),
    (["report", "--example", "--k", "abc"], "K must be a whole number"),
    (["report", "--example", "--event-date", "2025-02-30"], "event_date"),
    (["report", "--example", "--format", "xml"], "invalid choice"),
    (["nonsense"], "invalid choice"),
    (["whatif", "--example", "--player", "999", "--change", "5"], "no player with that start rank"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_garbage_trf_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.trf"
    bad.write_bytes(b"\x00\xffjunk\n001 abcd")
    code, out, err = run(capsys, "report", str(bad))
    assert code == 2 and "bad.trf" in err and len(err.strip().splitlines()) == 1


def test_output_is_never_overwritten_without_force(tmp_path, capsys):
    out = tmp_path / "r.csv"
    out.write_text("keep me")
    code, _, err = run(capsys, "report", "--example", "--format", "csv", "-o", str(out))
    assert code == 2 and "exists" in err and out.read_text() == "keep me"
    code, _, _ = run(capsys, "report", "--example", "--format", "csv", "-o", str(out), "--force")
    assert code == 0 and out.read_text().startswith("month,No,Name")   # rated by month


def test_input_is_never_written(tmp_path, capsys):
    src = tmp_path / "event.trf"
    src.write_bytes(SAN.read_bytes())
    code, _, err = run(capsys, "trf", str(src), "-o", str(src), "--force")
    assert code == 2 and "input" in err and src.read_bytes() == SAN.read_bytes()


def test_trf_round_trip(tmp_path, capsys):
    out = tmp_path / "out.trf"
    code, _, _ = run(capsys, "trf", str(SAN), "-o", str(out))
    assert code == 0
    from xl_fide.trf import read_trf
    assert read_trf(out).players == read_trf(SAN).players


def test_period_rounds_once(tmp_path, capsys):
    code, out, _ = run(capsys, "period", str(SAN), str(DATA / "gros_2010_swiss_after_round4.trf"),
                       "--span")
    assert code == 0 and "Rating period:" in out and "total: K×ΣΔR" in out
    assert "pooled on purpose" in out


def test_whatif(capsys):
    code, out, _ = run(capsys, "whatif", "--example", "--player", "8", "--remaining", "1700,1800",
                       "--norm", "IM")
    assert code == 0 and "not reachable" in out and "Ra" in out


def test_every_command_is_in_the_readme():
    readme = docs_text()
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for name in sub.choices:
        assert f"xl-fide {name}" in readme, name


def test_python_m_entry_point_runs():
    r = subprocess.run([sys.executable, "-m", "xl_fide", "version"], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.startswith("xl-fide ")


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

_SHARED = [p.read_bytes() for p in sorted(DATA.glob("*.trf"))]


def _mutate(data: bytes, how: int, pos: int, junk: bytes) -> bytes:
    pos = pos % (len(data) + 1)
    if how == 0:
        return data[:pos]                                   # truncated
    if how == 1:
        return data[:pos] + junk + data[pos + len(junk):]    # bytes overwritten
    if how == 2:
        lines = data.splitlines(keepends=True)
        k = pos % max(len(lines), 1)
        return b"".join(lines[k:] + lines[:k])              # lines rotated
    return data + junk                                      # junk appended


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(range(len(_SHARED))), st.integers(0, 3), st.integers(0, 10**6),
       st.binary(min_size=1, max_size=40))
def test_report_on_mutated_files_is_a_report_or_one_line(tmp_path, capsys, i, how, pos, junk):
    f = tmp_path / "m.trf"
    f.write_bytes(_mutate(_SHARED[i], how, pos, junk))
    code = main(["report", str(f), "--quiet"])
    out, err = capsys.readouterr()
    assert code in (0, 2), err          # 3 would be an internal error
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_workbook_round_trip_keeps_k_set_and_rules_date(tmp_path, capsys):
    # mini_trf2026 at K 15 and the rules of 2024-01-01: the workbook must give the same
    # report as the TRF with the same options (its K set column and Event rules date)
    mini = DATA / "mini_trf2026.trf"
    book = tmp_path / "o.xlsx"
    assert main(["crosstable", str(mini), "--k", "15", "--event-date", "2024-01-01",
                 "-o", str(book), "-q"]) == 0
    capsys.readouterr()
    _, from_trf, _ = run(capsys, "report", str(mini), "--k", "15", "--event-date", "2024-01-01",
                         "--format", "json")
    _, from_book, _ = run(capsys, "report", str(book), "--format", "json")
    a, b = json.loads(from_trf), json.loads(from_book)
    assert b["rule_edition"] == "FIDE-2022-01-01-standard" == a["rule_edition"]
    assert [p["k"] for p in b["players"]] == [p["k"] for p in a["players"]]
    assert [p["new_rating"] for p in b["players"]] == [p["new_rating"] for p in a["players"]]


def test_output_to_a_directory_or_device_is_refused(tmp_path, capsys):
    code, _, err = run(capsys, "report", "--example", "-o", str(tmp_path), "--force")
    assert code == 2 and "not a regular file" in err
    code, _, err = run(capsys, "report", "--example", "-o", "/dev/null", "--force")
    assert code == 2 and "not a regular file" in err


def test_csv_names_are_never_formulas(tmp_path, capsys):
    from tests.harness.trf_lines import player_line, trf
    f = tmp_path / "inject.trf"
    f.write_text(trf({"012": "X", "042": "2025/11/01"},
                     [player_line(1, '=HYPERLINK("x")', 2000, rounds=[(2, "w", "1")]),
                      player_line(2, "+CM Test", 2000, rounds=[(1, "b", "0")])]))
    code, out, _ = run(capsys, "report", str(f), "--format", "csv")
    rows = out.splitlines()
    assert code == 0 and rows[1].split(",")[1].startswith("\"'=HYPERLINK") and ",'+CM Test," in rows[2]


def test_period_refuses_the_same_file_twice(tmp_path, capsys):
    copy = tmp_path / "copy.trf"
    copy.write_bytes(SAN.read_bytes())
    code, _, err = run(capsys, "period", str(SAN), str(copy))
    assert code == 2 and "given twice" in err


def test_template_round_robin_rounds_must_fit(tmp_path, capsys):
    code, _, err = run(capsys, "template", "--layout", "roundrobin", "--players", "4",
                       "--rounds", "9", "-o", str(tmp_path / "t.xlsx"))
    assert code == 2 and "3 rounds" in err


@pytest.mark.parametrize("part", ["xl/workbook.xml", "xl/worksheets/sheet2.xml"])
def test_xml_bomb_workbook_is_refused_in_one_line(tmp_path, capsys, part):
    # a "billion laughs" entity expansion inside a workbook part: openpyxl reads through
    # defusedxml, which refuses entity declarations instead of expanding them
    import zipfile
    src = Path(__file__).parents[2] / "templates" / "fide_roundrobin_10.xlsx"
    entities = "".join(f'<!ENTITY l{i} "{("&l%d;" % (i - 1)) * 10}">' for i in range(1, 10))
    bomb = f'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY l0 "lol">{entities}]>'
    out = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == part:
                body = data.decode().split("?>", 1)[-1]
                data = (bomb + body).encode()
            zout.writestr(item, data)
    code, _, err = run(capsys, "report", str(out))
    assert code == 2 and "bomb.xlsx" in err and len(err.strip().splitlines()) == 1


# Issue 11: terminal output escapes control characters (ANSI escapes in a name).
_TWO = """012 Mini
001    1      Alpha, Anna                       2000 SUI     1000001 2012        1.0    1     2 w 1
001    2      Beta, Bert                        1900 GER     2000002 1980        0.0    2     1 b 0
"""


def test_terminal_output_escapes_control_characters(tmp_path, capsys):
    trf = tmp_path / "evil.trf"
    # the name's 20 characters in the place of 20 (the columns after it where TRF16 has
    # them: a line 3 columns long is refused, tests/trf/test_trf_wide_shift.py)
    trf.write_text("012 Evil \x1b]0;owned\x07 Open\n" + _TWO.split("\n", 1)[1].replace(
        "Alpha, Anna         ", "Al\x1b[31mpha, Anna\x1b[0m"), encoding="utf-8")
    for argv in (["report", str(trf)], ["period", str(trf)]):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code in (0, 2)
        assert "\x1b" not in out and "\x07" not in out and "\x1b" not in err
    # the reader may already have replaced the character (U+FFFD); either way, no escape
    assert code == 0 and ("Al\\x1b[31mpha" in out or "Al\ufffd[31mpha" in out)


def test_error_lines_escape_control_characters(tmp_path, capsys):
    # a file name is printed as given: it must not drive the terminal either
    code, out, err = run(capsys, "report", str(tmp_path / "no\x1b[2Jsuch.trf"))
    assert code == 2 and "\x1b" not in err and "no\\x1b[2Jsuch.trf: no such file" in err


def test_report_csv_of_an_event_over_30_days_carries_the_months(capsys):
    # H10 #1: San Viator runs 49 days over April and May: rated month by month. The CSV
    # leads with a month column; the whole-event lines are marked as the comparison.
    import csv
    code, out, _ = run(capsys, "report", str(SAN), "--format", "csv")
    rows = list(csv.reader(out.splitlines()))
    assert code == 0 and rows[0][:2] == ["month", "No"]
    p2 = {r[0]: r for r in rows[1:] if r[1] == "2"}
    # since issue 32 #1 the result (the months together) comes first, labelled "event"
    assert list(p2) == ["event", "2018-04", "2018-05", "event (comparison only)"]
    col = {name: i for i, name in enumerate(rows[0])}
    # April by hand (see test_report_example_table): ΣPD 2.32, +13.60 -> +14 -> 1745
    april = p2["2018-04"]
    assert (april[col["ΣPD"]], april[col["Chg"]], april[col["New"]]) == ("2.32", "+14", "1745")
    # May starts from April's 1745 and shows what the table's May report shows
    _, table, _ = run(capsys, "report", str(SAN))
    may_line = next(line for line in table.split("[2/2]")[1].splitlines()
                    if line.split()[:1] == ["2"])
    may = p2["2018-05"]
    assert may[col["Ro"]] == "1745" and may[col["New"]] in may_line.split()
    assert may[col["Chg"]] in may_line.split() and may[col["New"]] != "1725"
    # the result: May's new rating, the change April's +14 plus May's, each rounded
    result = p2["event"]
    assert result[col["New"]] == may[col["New"]] and result[col["Ro"]] == "1731"
    assert int(result[col["Chg"]]) == 14 + int(may[col["Chg"]])
    # the one period by hand (test_report.py): ΣPD 5.32, -6.40 -> -6 -> 1725
    whole = p2["event (comparison only)"]
    assert (whole[col["ΣPD"]], whole[col["Chg"]], whole[col["New"]]) == ("5.32", "-6", "1725")
    # an event of one month keeps the plain columns
    _, out, _ = run(capsys, "report", str(DATA / "mini_trf2026.trf"), "--format", "csv")
    assert out.splitlines()[0] == \
        "No,Name,FIDE id,Ro,K,Pts,N,W,Rc,ΣPD,K×ΣΔR,Chg,New,Rp,Ru,note,K from"


def test_report_says_where_each_k_came_from(tmp_path, capsys):
    # H10 #2 (issue 10): 20 typed into player 1's K set cell (Crosstable sheet); player 2
    # (2210, born 2008) has K from the rule; players 3 and 4 are unrated: no K.
    from openpyxl import load_workbook
    mini = DATA / "mini_trf2026.trf"
    book = tmp_path / "mini.xlsx"
    assert main(["crosstable", str(mini), "-o", str(book), "-q"]) == 0
    wb = load_workbook(book)
    ws = wb["Crosstable"]
    header = [c.value for c in ws[4]]
    ws.cell(row=5, column=header.index("K set") + 1, value=20)
    wb.save(book)
    capsys.readouterr()
    code, out, err = run(capsys, "report", str(book), "--format", "json")
    players = json.loads(out)["players"]
    assert code == 0, err
    assert [(p["k"], p["k_source"]) for p in players][:2] == [(20, "sheet"), (40, "rule")]
    assert [p["k_source"] for p in players][2:] == [None, None]
    code, out, _ = run(capsys, "report", str(book), "--format", "csv")
    assert [line.rsplit(",", 1)[1] for line in out.splitlines()] == \
        ["K from", "sheet", "rule", "", ""]
    code, out, _ = run(capsys, "report", str(book))
    assert any(line.split()[:3] == ["1", "Alpha,", "Anna"] and "2500" in line.split()
               and "20*" in line.split()
               for line in out.splitlines()) and "* typed in the sheet" in out
    _, out, _ = run(capsys, "report", str(mini), "--k", "15", "--format", "json")
    assert {p["k_source"] for p in json.loads(out)["players"]} == {"given", None}


@pytest.mark.parametrize("name,fmt,first", [
    ("r.csv", None, "No,Name,FIDE id,Ro"), ("r.json", None, "{"), ("r.txt", None, "Mini Open 2026"),
    ("r.out", None, "Mini Open 2026"), ("r.json", "json", "{")])
def test_report_output_format_follows_the_extension(tmp_path, capsys, name, fmt, first):
    # H10 #3: -o r.csv writes CSV without --format
    out = tmp_path / name
    argv = ["report", str(DATA / "mini_trf2026.trf"), "-o", str(out), "-q"]
    code, _, err = run(capsys, *argv, *(["--format", fmt] if fmt else []))
    assert code == 0, err
    assert out.read_text(encoding="utf-8").startswith(first)


@pytest.mark.parametrize("name,fmt,needle", [
    ("r.xlsx", None, "use `xl-fide crosstable` for a workbook, `xl-fide trf` for a TRF"),
    ("r.XLSM", None, "use `xl-fide crosstable`"), ("r.trf", None, "`xl-fide trf` for a TRF"),
    ("r.trf", "table", "`xl-fide trf` for a TRF"),
    ("r.csv", "json", "--format json but the name ends in .csv")])
def test_report_output_of_another_kind_is_refused(tmp_path, capsys, name, fmt, needle):
    # H10 #3: a workbook or TRF name, or a --format the name contradicts: exit 2, one
    # line, no file left
    out = tmp_path / name
    argv = ["report", str(DATA / "mini_trf2026.trf"), "-o", str(out)]
    code, stdout, err = run(capsys, *argv, *(["--format", fmt] if fmt else []))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [] and stdout == ""


@pytest.mark.parametrize("argv,name,needle", [
    (["template", "--layout", "swiss", "--players", "8"], "t.csv",
     "the output must be an .xlsx file"),
    (["template", "--layout", "swiss", "--players", "8"], "t.trf",
     "the output must be an .xlsx file"),
    (["crosstable", str(DATA / "mini_trf2026.trf")], "c.json", "the output must be an .xlsx"),
    (["trf", str(DATA / "mini_trf2026.trf")], "y.xlsx", "a TRF is text (.trf or .txt)"),
    (["trf", str(DATA / "mini_trf2026.trf")], "y.csv", "a TRF is text (.trf or .txt)"),
    (["report", str(DATA / "mini_trf2026.trf")], "r.ods", "the report is text")])
def test_every_command_refuses_an_output_name_of_another_kind(tmp_path, capsys, argv, name,
                                                              needle):
    # issue 20 #9: one check of -o for every command that writes a file: exit 2, one
    # line, nothing written
    code, stdout, err = run(capsys, *argv, "-o", str(tmp_path / name))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [] and stdout == ""


def test_trf_from_a_workbook_refuses_a_workbook_name(tmp_path, capsys):
    # issue 20 #9: `trf BOOK.xlsx -o y.xlsx` wrote TRF text into y.xlsx
    book = tmp_path / "in" / "book.xlsx"
    book.parent.mkdir()
    assert run(capsys, "crosstable", str(DATA / "mini_trf2026.trf"), "-o", str(book),
               "-q")[0] == 0
    out = tmp_path / "y.xlsx"
    code, _, err = run(capsys, "trf", str(book), "-o", str(out))
    assert code == 2 and "a TRF is text" in err and not out.exists()
    assert run(capsys, "trf", str(book), "-o", str(tmp_path / "y.txt"), "-q")[0] == 0


def test_report_of_a_device_is_not_a_regular_file(capsys):
    # H10 #5: /dev/null exists, it is no file to read
    code, _, err = run(capsys, "report", "/dev/null")
    assert code == 2 and "/dev/null: not a regular file" in err and "no such file" not in err


def test_trf_from_a_filled_workbook_says_which_report_fields_are_empty(tmp_path, capsys):
    # issue 20 #10: a workbook without end date and tournament type (a template filled by
    # hand has neither) gave a TRF with empty 052 and 092 lines and no word, even --strict
    from tests.excel.test_workbook import rr_example
    from xl_fide.excel import fill_workbook, save_workbook
    from xl_fide.event.report import build_report
    book = save_workbook(fill_workbook(build_report(rr_example())), tmp_path / "rr.xlsx")
    code, _, err = run(capsys, "trf", str(book), "-o", str(tmp_path / "rr.trf"))
    assert code == 0
    assert "052 (end date), 092 (type of tournament) empty" in err
    out = tmp_path / "strict.trf"
    code, _, err = run(capsys, "trf", str(book), "-o", str(out), "--strict")
    assert code == 2 and "092 (type of tournament)" in err and not out.exists()
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "trf", str(DATA / "mini_trf2026.trf"), "-o",
                       str(tmp_path / "mini.trf"), "--strict")
    assert code == 0 and "empty" not in err
