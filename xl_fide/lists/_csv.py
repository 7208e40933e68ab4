"""xl-fide's own simple player CSV (not a FIDE format)."""

from __future__ import annotations

import csv
import itertools
import re
from collections.abc import Callable, Iterator
from typing import NoReturn

from xl_fide.errors import PlayerFileError
from xl_fide.lists._budget import Source, _blank_budget, _has_newline, _open_source
from xl_fide.lists._model import PlayerData
from xl_fide.lists._scan import _Scan, _Wanted, _build, _stream, number_problem

# --- CSV ------------------------------------------------------------------------

# Accepted column names (lower case; spaces and hyphens read as "_") -> field.
_CSV_COLUMNS = {
    "fide_id": "fide_id", "id": "fide_id", "fideid": "fide_id",
    "name": "name",
    "federation": "federation", "fed": "federation",
    "sex": "sex",
    "title": "title",
    "rating": "rating", "ro": "rating",
    "k": "k",
    "birth_year": "birth_year", "born": "birth_year", "byear": "birth_year",
    "games": "games",
    "career_games": "career_games",
    "peak_rating": "peak_rating", "highest_rating": "peak_rating",
    "standard_rating": "standard_rating", "std_rating": "standard_rating",
    "flag": "flag",
}


def read_player_csv(path_or_text: Source) -> list[PlayerData]:
    """Return the players of a CSV file with a header row.

    xl-fide's own simple format for users (not a FIDE format). Column names are
    case-insensitive: ``fide_id|id``, ``name``, ``federation|fed``, ``sex``,
    ``title``, ``rating|ro``, ``k``, ``birth_year|born|byear``, ``games``,
    ``career_games``, ``peak_rating|highest_rating``, ``flag``; others are
    ignored. The separator is ``,`` (or ``;`` / tab when the header uses it).
    UTF-8 with or without BOM; blank cells are None (a rating, K or peak of 0
    too); blank rows are skipped. Budgets: see :data:`BUDGETS`.
    Raises :class:`PlayerFileError` naming file, line and column, e.g. for a
    rating of ``'17x0'``.
    """
    with _open_source(path_or_text, _has_newline) as (stream, file):
        scan = _Scan(file, ("standard",))
        return [rec["standard"] for rec in _scan_csv(_stream(stream, scan), scan)]


def _csv_header(row: list[str], file: str, number: int) -> dict[str, tuple[int, str]]:
    columns: dict[str, tuple[int, str]] = {}   # field -> (index, header as written)
    for index, raw in enumerate(row):
        label = re.sub(r"[\s\-]+", "_", raw.strip().lower())
        field = _CSV_COLUMNS.get(label)
        if field is None:
            continue
        if field in columns:
            raise PlayerFileError(
                f"header: columns {columns[field][1]!r} and {raw.strip()!r} "
                f"both give {field}", file=file, line=number, field=raw.strip())
        columns[field] = (index, raw.strip())
    if "name" not in columns and "fide_id" not in columns:
        raise PlayerFileError(
            f"header: expected a 'name' or 'fide_id' column, got {row!r}",
            file=file, line=number)
    return columns


def _csv_lines(stream, file: str) -> Iterator[str]:
    """The lines of a UTF-8 stream (a BOM dropped), each decoded on its own."""
    for number, raw in enumerate(stream, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PlayerFileError(
                f"not UTF-8 (byte {raw[exc.start:exc.start + 1]!r}); "
                "save the CSV as 'CSV UTF-8'", file=file, line=number) from None
        yield line.removeprefix("\ufeff") if number == 1 else line


def _scan_csv(stream, scan: _Scan) -> Iterator[dict[str, PlayerData]]:
    """Yield ``{kind: PlayerData}`` for each kept row (the CSV's rating is of every kind)."""
    file = scan.file
    scan.layout = "csv"
    lines = _csv_lines(stream, file)
    number = 0
    columns: dict[str, tuple[int, str]] = {}
    blanks = 0

    def fail(key: str, problem: str) -> NoReturn:
        label = columns[key][1]
        raise PlayerFileError(f"column {label!r}: {problem}", file=file, line=number,
                              field=label)

    first = ""
    for first in lines:
        number += 1
        if first.strip():
            break
        blanks += 1
        _blank_budget(blanks, file, number)
    if not first.strip():
        raise PlayerFileError("empty file: expected a header row such as "
                              "'fide_id,name,rating'", file=file, line=1)
    delimiter = max((",", ";", "\t"), key=first.count)
    offset = number - 1
    reader = csv.reader(itertools.chain([first], lines), delimiter=delimiter)
    try:
        columns = _csv_header(next(reader), file, number)
        wanted = scan.wanted
        for row in reader:
            number = reader.line_num + offset
            if not any(cell.strip() for cell in row):
                blanks += 1
                _blank_budget(blanks, file, number)
                continue
            raw = {field: (row[index].strip() if index < len(row) else "")
                   for field, (index, _label) in columns.items()}
            if wanted is not None and not _csv_wanted(raw, wanted, scan):
                continue
            try:
                player = _build(raw, fail, file, number)
                _whole_row(row, raw, columns, fail)
            except PlayerFileError as exc:
                scan.skip_or_raise(exc, raw.get("fide_id", ""), raw.get("name", ""),
                                   some=wanted is not None)
                continue
            yield {kind: player for kind in scan.kinds}
    except csv.Error as exc:
        raise PlayerFileError(f"cannot read the CSV: {exc}", file=file,
                              line=(reader.line_num + offset) or None) from None


def _whole_row(row: list[str], raw: dict[str, str], columns: dict[str, tuple[int, str]],
               fail: Callable[[str, str], NoReturn]) -> None:
    """Every field or none: the row has a cell for each column read (a row cut short
    has fewer), and its ratings and K are within the ranges of FIDE's lists
    (:func:`~xl_fide.lists._scan.number_problem`)."""
    problem = number_problem(raw)
    if problem is not None:
        fail(*problem)
    missing = [(index, key) for key, (index, _label) in columns.items() if index >= len(row)]
    if missing:
        _index, key = min(missing)
        fail(key, f"missing: the row has {len(row)} cells, the header "
                  f"{max(index for index, _label in columns.values()) + 1} or more (a line "
                  "cut short? write an empty cell as nothing between two commas)")


def _csv_wanted(raw: dict[str, str], wanted: _Wanted, scan: _Scan) -> bool:
    fid = raw.get("fide_id", "")
    if fid in wanted.id_text:
        return True
    if wanted.wants_name(raw.get("name", ""), bool(fid)):
        return True
    if fid and not (fid.isdigit() and fid.isascii()):
        scan.skipped += 1
    return False


