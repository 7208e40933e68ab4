"""The games CSV and `xl-fide rate` at their edges (issue 33 items 2, 3, 4, 7; issue 34
item 4): a cell split at a separator, thousands separators and decimal commas, dates whose
day and month could swap, long events, files of any size, UTF-16 and BOMs, a workbook
given instead of a CSV, `--games` with one meaning in every command. Each bad file ends in
exit 2 and one line naming the file and line; never exit 3, never a traceback.

The expected ratings are hand arithmetic (FIDE B.02 §8.1.2 table, §8.3.3, §8.3.4).
"""
from __future__ import annotations

import argparse
import codecs
import csv
import datetime as dt
import io
import json
import tracemalloc
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xl_fide._games import MAX_LINES, MAX_RECORD, read_games
from xl_fide.cli import main
from xl_fide.cli._main import build_parser
from xl_fide.errors import PlayerFileError

HEAD = "event,event_start,event_end,opponent_rating,result"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def refused(capsys, *argv) -> str:
    """Run; expect exit 2 with one error line and nothing on stdout; return that line."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1, err
    return err


def write(tmp_path, text: str, name: str = "games.csv", encoding: str = "utf-8"):
    f = tmp_path / name
    f.write_bytes(text.encode(encoding))
    return f


def rate_json(capsys, f, *opts):
    code, out, err = run(capsys, "rate", f, "--format", "json", *opts)
    assert code == 0, err
    return json.loads(out)


# Hand arithmetic used below. Ro 2000, K 20, a win against 2000: D 0 -> PD .50, ΔR .50;
# 20 x .50 = 10.00 -> +10 -> 2010. A draw against 2000: ΔR 0 -> 2000. A loss: -10 -> 1990.
WIN_VS_2000 = 2010


# ------------------------------------------------------------- 33.2: cells and numbers

def test_a_decimal_comma_split_in_a_comma_csv_is_refused_naming_the_line(capsys, tmp_path):
    # `0,5` (a draw) in a comma CSV is two cells: `0` (a loss) and `5` under no column.
    f = write(tmp_path, f"{HEAD}\nOpen,2025-11-01,2025-11-02,2000,1\n"
                        "Open,2025-11-01,2025-11-02,2100,0,5\n")
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:3:6:" in err
    assert '"0,5"' in err and "0.5" in err and "quote" in err


def test_an_unquoted_thousands_separator_in_a_comma_csv_is_refused(capsys, tmp_path):
    # `2,000` unquoted: opponent_rating 2 and result `000`, the real result under no column
    f = write(tmp_path, f"{HEAD}\nOpen,2025-11-01,2025-11-02,2,000,1\n")
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:2:" in err and '"2,000"' in err


def test_excels_sep_line_names_the_separator(capsys, tmp_path):
    # Excel reads and writes a first line `sep=;`; then `0,5` is one cell: a draw vs 2000
    f = write(tmp_path, "sep=;\n" + HEAD.replace(",", ";") + "\nOpen;2025-11-01;2025-11-02;2000;0,5\n")
    data = rate_json(capsys, f, "--rating", "2000", "--k", "20")
    assert data["events"][0]["games"][0]["line"] == 3 and data["new_rating"] == 2000


def test_a_cell_under_a_blank_header_is_refused(capsys, tmp_path):
    # the header's trailing comma makes a sixth, nameless column: `5` must not vanish
    f = write(tmp_path, f"{HEAD},\nOpen,2025-11-01,2025-11-02,2100,0,5\n")
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:2:6:" in err


def test_trailing_empty_cells_are_harmless(capsys, tmp_path):
    # Excel writes a separator for every column of the used range: empty cells lose nothing
    f = write(tmp_path, f"{HEAD}\nOpen,2025-11-01,2025-11-02,2000,1,,,\n")
    assert rate_json(capsys, f, "--rating", "2000", "--k", "20")["new_rating"] == WIN_VS_2000


def test_lines_of_a_million_extra_cells_are_refused(capsys, tmp_path):
    f = write(tmp_path, HEAD + "\n" + ("Open,2025-11-01,2025-11-02,2000,1" + ",x" * 1_000_000
                                       + "\n") * 3)
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:2" in err


@pytest.mark.parametrize("cell", ["2.000", '"2,000"', "2 000", "2'000", "2\u00a0000"])
def test_a_thousands_separator_is_never_read_as_a_decimal(capsys, tmp_path, cell):
    # 2.000 is two thousand: Ro 2000 beats a 2000 -> 2010 (above). Read as 2 the game was
    # against a "2" (D capped at 400) or not rated at all.
    f = write(tmp_path, f"{HEAD}\nOpen,2025-11-01,2025-11-02,{cell},1\n")
    data = rate_json(capsys, f, "--rating", "2000", "--k", "20")
    assert data["events"][0]["games"][0]["opponent_rating"] == 2000
    assert data["new_rating"] == WIN_VS_2000


def test_ro_with_a_thousands_separator_and_a_decimal_comma_in_a_semicolon_csv(capsys, tmp_path):
    # a German export: `;` separated, Ro `2.000`, opponent `2000,0`, a draw `0,5`:
    # Ro 2000, K 20: draw vs 2000 -> 0.00; win vs 2000 -> 10.00: total +10 -> 2010
    head = HEAD.replace(",", ";") + ";Ro;K"
    f = write(tmp_path, f"{head}\nOpen;2025-11-01;2025-11-02;2000,0;0,5;2.000;20\n"
                        "Open;2025-11-01;2025-11-02;1.999,0;1;;\n")
    data = rate_json(capsys, f)
    assert data["Ro"] == 2000
    assert [g["opponent_rating"] for g in data["events"][0]["games"]] == [2000, 1999]
    # the second game: D -1 -> PD .50 (table 0-3), ΔR .50 -> 10.00; total +10 -> 2010
    assert data["new_rating"] == WIN_VS_2000


def test_a_decimal_k_that_is_not_whole_is_refused(capsys, tmp_path):
    f = write(tmp_path, f"{HEAD};K\n".replace(",", ";") + "Open;2025-11-01;2025-11-02;2000;1;2,5\n")
    err = refused(capsys, "rate", f, "--rating", "2000")
    assert f"{f}:2:6: K" in err


# ---------------------------------------------------------------------- 33.3: dates

def test_a_date_whose_day_and_month_could_swap_is_refused(capsys, tmp_path):
    # en-US 3/2/2024 = 2 March; read day first it was 3 February - 3 September, 7 months
    f = write(tmp_path, f"{HEAD}\nOpen,3/2/2024,3/9/2024,2000,1\n")
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:2:2: event_start" in err
    assert "--date-order" in err and "2024-02-03" in err and "2024-03-02" in err


@pytest.mark.parametrize("order,start,end", [("mdy", "2024-03-02", "2024-03-09"),
                                              ("dmy", "2024-02-03", "2024-09-03")])
def test_date_order_option_settles_it(capsys, tmp_path, order, start, end):
    f = write(tmp_path, f"{HEAD}\nOpen,3/2/2024,3/9/2024,2000,1\n")
    data = rate_json(capsys, f, "--rating", "2000", "--k", "20", "--date-order", order)
    ev = data["events"][0]
    assert (ev["event_start"], ev["event_end"]) == (start, end)


def test_a_day_over_12_elsewhere_in_the_file_settles_the_order(capsys, tmp_path):
    # 9/13/2024 can only be month first: the file is m/d/y, so 3/2/2024 is 2 March
    f = write(tmp_path, f"{HEAD},date\nOpen,3/2/2024,3/9/2024,2000,1,9/13/2024\n")
    # (the date column is the game's own date: only its order matters here)
    data = rate_json(capsys, f, "--rating", "2000", "--k", "20")
    assert data["events"][0]["event_start"] == "2024-03-02"
    f = write(tmp_path, f"{HEAD}\nOpen,3/2/2024,3/2/2024,2000,1\nB,25/2/2024,25/2/2024,2000,1\n")
    data = rate_json(capsys, f, "--rating", "2000", "--k", "20")
    assert data["events"][0]["event_start"] == "2024-02-03"


def test_dates_written_both_ways_are_refused(capsys, tmp_path):
    f = write(tmp_path, f"{HEAD}\nA,25/2/2024,25/2/2024,2000,1\nB,2/26/2024,2/26/2024,2000,1\n")
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:3" in err and "day first" in err and "month first" in err


def test_iso_and_same_day_and_month_dates_need_no_order(capsys, tmp_path):
    f = write(tmp_path, f"{HEAD}\nA,2024-02-03,2024-02-03,2000,1\nB,4/4/2024,4/4/2024,2000,1\n")
    data = rate_json(capsys, f, "--rating", "2000", "--k", "20")
    assert [e["event_start"] for e in data["events"]] == ["2024-02-03", "2024-04-04"]


def test_game_date_option_refuses_a_swappable_date(capsys):
    err = refused(capsys, "rate", "--game", "2000:1", "--date", "3/2/2024", "--rating", "2000")
    assert "YYYY-MM-DD" in err


def test_an_event_over_30_days_is_named_in_a_note(capsys, tmp_path):
    # 3 February - 9 March 2024: 36 days of play (35 days apart): over 30 days
    f = write(tmp_path, f"{HEAD}\nLong Open,2024-02-03,2024-03-09,2000,1\n"
                        "Short,2024-03-10,2024-03-11,2000,1\n")
    notes = rate_json(capsys, f, "--rating", "2000", "--k", "20")["notes"]
    long = [n for n in notes if "30 days" in n]
    assert len(long) == 1 and long[0].startswith("Long Open:") and "2024-03-09" in long[0]


# ----------------------------------------------------------------- 33.4: size bounds

def test_blank_lines_count_against_the_cap(capsys, tmp_path):
    f = write(tmp_path, f"{HEAD}\n" + "\n" * (MAX_LINES + 10) + "Open,2025-11-01,2025-11-02,2000,1\n")
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:{MAX_LINES + 1}:" in err and "blank" in err


def test_a_huge_file_of_blank_lines_is_read_in_bounded_memory(tmp_path):
    # 8 MB of blank lines: the reader stops at the cap, having held a line at a time
    f = tmp_path / "blank.csv"
    with f.open("wb") as out:
        out.write((HEAD + "\n").encode())
        for _ in range(8):
            out.write(b"\r\n" * 500_000)
    tracemalloc.start()
    try:
        with pytest.raises(PlayerFileError) as e:
            read_games(f)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert e.value.line == MAX_LINES + 1
    assert peak < 2_000_000, peak          # the whole file is 8 MB


def test_one_endless_line_is_refused(capsys, tmp_path):
    f = tmp_path / "long.csv"
    f.write_bytes(HEAD.encode() + b"\nOpen,2025-11-01,2025-11-02,2000," + b"1" * 5_000_000)
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:2:" in err and str(MAX_RECORD) in err


# ---------------------------------------------------------- 33.7: encodings, not a CSV

@pytest.mark.parametrize("encoding,bom", [
    ("utf-16", b""), ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
    ("utf-8", codecs.BOM_UTF8), ("utf-16-le", b""), ("utf-16-be", b"")])
def test_utf16_and_bom_files_are_read(capsys, tmp_path, encoding, bom):
    # Excel's "Unicode Text": UTF-16 with a byte-order mark, tab separated
    text = (HEAD + "\nCafé Open,2025-11-01,2025-11-02,2000,1\n").replace(",", "\t")
    raw = bom + text.encode(encoding)
    f = tmp_path / "games.txt"
    f.write_bytes(raw)
    data = rate_json(capsys, f, "--rating", "2000", "--k", "20")
    assert data["events"][0]["event"] == "Café Open" and data["new_rating"] == WIN_VS_2000


def test_a_workbook_given_to_rate_is_named_as_such(capsys, tmp_path):
    f = tmp_path / "games.xlsx"
    with zipfile.ZipFile(f, "w") as z:       # the parts every .xlsx has
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert "Excel workbook" in err and "CSV" in err and "missing column" not in err
    f = tmp_path / "games.xls"
    f.write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + bytes(600))
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert "Excel 97-2003 workbook" in err and "missing column" not in err


def test_a_binary_file_is_named_as_such(capsys, tmp_path):
    f = tmp_path / "games.csv"
    f.write_bytes(bytes(range(256)) * 4)
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert "binary" in err and "missing column" not in err


def test_a_quarter_point_result_reads_plainly(capsys, tmp_path):
    f = write(tmp_path, f"{HEAD}\nOpen,2025-11-01,2025-11-02,2000,0.25\n")
    err = refused(capsys, "rate", f, "--rating", "2000", "--k", "20")
    assert f"{f}:2:5: result" in err and "'0.25'" in err and "Decimal" not in err


# ------------------------------------------------------- 34.4: old rules, one --games

def test_rate_notes_rules_older_than_the_oldest_edition(capsys, tmp_path):
    f = write(tmp_path, f"{HEAD}\nOld Open,2009-05-01,2009-05-03,2000,1\n")
    data = rate_json(capsys, f, "--rating", "2000", "--k", "20")
    (note,) = [n for n in data["notes"] if "oldest" in n]
    assert "2009-05-01" in note and data["events"][0]["rules"] in note


def test_games_means_the_games_csv_in_every_command(capsys, tmp_path):
    parser = build_parser()
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for a in sub._actions:
                    for opt in ("--games", "--games-so-far"):
                        if opt in a.option_strings:
                            found[(name, opt)] = a.dest
    assert {k: v for k, v in found.items() if k[1] == "--games"} == {
        ("rate", "--games"): "games_csv", ("template", "--games"): "games_csv"}
    assert {k: v for k, v in found.items() if k[1] == "--games-so-far"} == {
        ("rate", "--games-so-far"): "career_games",
        ("template", "--games-so-far"): "career_games"}
    # rate --games FILE reads the CSV; --games-so-far 10 (under 30) gives K 40 by rule
    # (B.02 §8.3.3): Ro 2000 beats a 2000: 40 x .50 = 20.00 -> 2020
    f = write(tmp_path, f"{HEAD}\nOpen,2025-11-01,2025-11-02,2000,1\n")
    code, out, err = run(capsys, "rate", "--games", f, "--rating", "2000", "--games-so-far",
                         "10", "--birth-year", "1980", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["K_used"] == 40 and data["new_rating"] == 2020


def test_games_with_a_count_points_to_games_so_far(capsys, tmp_path):
    f = write(tmp_path, f"{HEAD}\nOpen,2025-11-01,2025-11-02,2000,1\n")
    err = refused(capsys, "rate", f, "--games", "40", "--rating", "2000")
    assert "--games-so-far 40" in err
    err = refused(capsys, "template", "--layout", "player", "--games", "40", "-o",
                  tmp_path / "p.xlsx")
    assert "--games-so-far 40" in err


# --------------------------------------------------------------------- the fuzz family

GAME = st.tuples(
    st.sampled_from(["Open", "Café Cup", "Blitz; B", "Rapid, R", 'Q "A"']),
    st.dates(dt.date(2017, 8, 1), dt.date(2026, 12, 1)),
    st.integers(0, 5),                                  # event length in days
    st.one_of(st.none(), st.integers(1000, 3000)),      # opponent rating, None = unrated
    st.sampled_from([0, 1, 2]),                         # half points
)
DATE_FORMATS = {"iso": "%Y-%m-%d", "dmy": "%d/%m/%Y", "mdy": "%m/%d/%Y", "dmy.": "%d.%m.%Y",
                "text": "%d %b %Y"}
RESULTS = {"plain": {0: "0", 1: "½", 2: "1"}, "dash": {0: "0-1", 1: "½-½", 2: "1-0"},
           "point": {0: "0.00", 1: "0.50", 2: "1.00"}, "comma": {0: "0", 1: "0,5", 2: "1"}}


def _render(games, sep, quoting, blank, ending, date_fmt, result_fmt, thousands, raw_join):
    """The games as a spreadsheet might write them; events keep their first game's dates."""
    firsts: dict[str, tuple[dt.date, dt.date]] = {}
    rows = [["event", "event_start", "event_end", "opponent_rating", "result"]]
    for name, start, days, R, half in games:
        start, end = firsts.setdefault(name, (start, start + dt.timedelta(days=days)))
        rating = "unrated" if R is None else (
            f"{R // 1000}{thousands}{R % 1000:03d}" if thousands else str(R))
        rows.append([name, start.strftime(DATE_FORMATS[date_fmt]),
                     end.strftime(DATE_FORMATS[date_fmt]), rating, RESULTS[result_fmt][half]])
    out = io.StringIO()
    if raw_join:                                    # a careless writer: no quoting at all
        lines = [sep.join(r) for r in rows]
    else:
        w = csv.writer(out, delimiter=sep, quoting=quoting, lineterminator="\n")
        w.writerows(rows)
        lines = out.getvalue().split("\n")[:-1]
    body = []
    for i, line in enumerate(lines):
        body.append(line)
        if i in blank:
            body.append("" if i % 2 else "   ")
    expected = {}
    for name, start, days, R, half in games:
        s, e = firsts[name]
        expected.setdefault(name, (s, e, []))[2].append((R, half))
    return ending.join(body) + ending, expected, rows


def _swappable(rows, date_fmt) -> bool:
    """By the rule (issue 33.3): a d/m/y or m/d/y file is refused when some date's day and
    month could swap and no date of the file has a number over 12 before the year."""
    if date_fmt not in ("dmy", "mdy", "dmy."):
        return False
    pairs = [tuple(int(x) for x in c.replace(".", "/").split("/")[:2])
             for r in rows[1:] for c in r[1:3]]
    return (any(a != b and a <= 12 and b <= 12 for a, b in pairs)
            and not any(a > 12 or b > 12 for a, b in pairs))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(games=st.lists(GAME, min_size=1, max_size=8),
       sep=st.sampled_from([",", ";", "\t"]),
       quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]),
       blank=st.sets(st.integers(0, 9), max_size=3),
       ending=st.sampled_from(["\n", "\r\n", "\r"]),
       encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "cp1252"]),
       date_fmt=st.sampled_from(list(DATE_FORMATS)),
       give_order=st.booleans(),
       result_fmt=st.sampled_from(list(RESULTS)),
       thousands=st.sampled_from(["", ".", ",", " "]),
       raw_join=st.booleans())
def test_fuzz_the_csv_reads_the_same_games_or_refuses_with_a_line(
        tmp_path_factory, capsys, games, sep, quoting, blank, ending, encoding, date_fmt,
        give_order, result_fmt, thousands, raw_join):
    text, expected, rows = _render(games, sep, quoting, blank, ending, date_fmt, result_fmt,
                                   thousands, raw_join)
    f = tmp_path_factory.mktemp("fuzz") / "games.csv"
    f.write_bytes(text.encode(encoding, errors="replace"))
    order = {"dmy": "dmy", "dmy.": "dmy", "mdy": "mdy"}.get(date_fmt) if give_order else None
    opts = ["--date-order", order] if order else []
    code, out, err = run(capsys, "rate", f, "--rating", "2000", "--k", "20",
                         "--format", "json", *opts)
    split = raw_join and any(sep in cell for r in rows for cell in r)
    assert code in (0, 2), err
    if code == 2:
        assert err.count("\n") == 1 and f"{f}:" in err, err
        # a refusal only where the rule calls for one: a cell split at the separator it
        # holds, or a day and month that could swap with nothing to settle them
        assert split or (order is None and _swappable(rows, date_fmt)), err
        return
    assert not split, "a cell holding the separator was split, yet the file was read"
    assert order is not None or not _swappable(rows, date_fmt), "a swappable date was guessed"
    got = {e["event"]: (e["event_start"], e["event_end"],
                        [(g["opponent_rating"], g["result"]) for g in e["games"]])
           for e in json.loads(out)["events"]}
    assert set(got) == set(expected)
    for name, (s, e, pairs) in expected.items():
        gs, ge, gpairs = got[name]
        assert (gs, ge) == (s.isoformat(), e.isoformat())
        assert [r for r, _ in gpairs] == [R for R, _ in pairs]
        assert [res for _, res in gpairs] == [RESULTS[result_fmt][h] for _, h in pairs]
    read = {e.name: [g.result.half_points for g in e.games] for e in read_games(f, order).events}
    assert read == {name: [h for _, h in pairs] for name, (_, _, pairs) in expected.items()}
