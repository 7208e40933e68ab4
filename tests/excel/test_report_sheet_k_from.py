"""A user trial: the workbook's Report sheet said ``rating`` where the report's CSV and
JSON say ``rule`` for a K by FIDE B.02 §8.3.3: one word per source in every form."""

import csv
import io
from pathlib import Path

from xl_fide.cli._presenters import to_csv
from xl_fide.event.report import build_report
from xl_fide.excel import fill_workbook
from xl_fide.rules.editions import EventOptions
from xl_fide.trf import read_trf

DATA = Path(__file__).resolve().parents[1] / "data" / "trf"


def _sheet_k_from(wb) -> dict[int, str | None]:
    ws = wb["Report"]
    for row in ws.iter_rows(values_only=True):
        if row and row[0] == "No" and "K from" in row:
            at = row.index("K from")
            break
    else:
        raise AssertionError("no header row with K from")
    out = {}
    for row in ws.iter_rows(values_only=True):
        if isinstance(row[0], int):                  # the first table: the event's
            out.setdefault(row[0], row[at])
    return out


def test_the_report_sheet_says_where_k_came_from_as_the_csv_does():
    t = read_trf(DATA / "gros_2010_swiss_after_round4.trf")
    for options in (None, EventOptions(k=20)):
        report = build_report(t, options)
        rows = list(csv.DictReader(io.StringIO(to_csv(report))))
        from_csv = {int(r["No"]): r["K from"] or None for r in rows}
        sheet = _sheet_k_from(fill_workbook(report))
        assert {k: v for k, v in sheet.items() if k in from_csv} == from_csv
        assert set(from_csv.values()) - {None} == ({"rule"} if options is None else {"given"})
