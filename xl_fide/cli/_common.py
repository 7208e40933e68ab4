"""What every command of the CLI shares: the exit codes, the one-line error, the
argument types, the output checks and the escaped printing (so the command modules
import this, never each other)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xl_fide.errors import CliError, OutputExistsError, XlFideError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime as _dt
    from typing import NoReturn, Sequence

EXIT_OK, EXIT_INPUT, EXIT_INTERNAL = 0, 2, 3




class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:   # one line, exit 2 (argparse's convention)
        raise CliError(f"{self.prog}: {message}")


def _date(text: str) -> _dt.date:
    from xl_fide.rules.editions import parse_date
    return parse_date(text)


def _existing_file(path: Path) -> Path:
    if path.is_dir():
        raise CliError(f"{path}: is a directory, not a file")
    if path.exists() and not path.is_file():
        raise CliError(f"{path}: not a regular file (a device or a pipe): give a file")
    if not path.is_file():
        raise CliError(f"{path}: no such file")
    return path


def _check_output(out: Path, inputs: Sequence[Path], force: bool) -> None:
    from xl_fide._files import check_output
    try:
        check_output(out, force=force, inputs=inputs)
    except OutputExistsError:
        raise CliError(f"{out} exists: not overwritten (use --force)") from None


def write_text_atomic(path: Path, text: str | bytes, *, force: bool = False,
                      inputs: Sequence[Path] = ()) -> None:
    """Write ``text`` (str as UTF-8, or bytes) to ``path`` whole or not at all
    (:func:`xl_fide._files.write_atomic`)."""
    from xl_fide._files import write_atomic
    try:
        write_atomic(path, text, force=force, inputs=inputs)
    except FileExistsError:
        raise CliError(f"{path} exists: not overwritten (use --force)") from None


def _say(text: str, *, err: bool = False) -> None:
    """Print to the terminal with control characters escaped (names come from files)."""
    from xl_fide.cli._presenters import escape_controls
    print(escape_controls(text), file=sys.stderr if err else sys.stdout)


def _write_out(text: str) -> None:
    from xl_fide.cli._presenters import escape_controls
    sys.stdout.write(escape_controls(text))


_TEXT_FORMATS = {".csv": "csv", ".json": "json", ".txt": "table"}
_WORKBOOK_NAMES = (".xlsx", ".xlsm")
#: what each command writes: (the names it accepts (None: any name not refused), the
#: names refused, what it writes, where the refused kind is made)
_OUTPUTS = {
    "report": (None, _WORKBOOK_NAMES + (".xls", ".ods", ".trf"),
               "the report is text (.csv, .json, .txt)",
               "`xl-fide crosstable` for a workbook, `xl-fide trf` for a TRF"),
    "workbook": (_WORKBOOK_NAMES, (), "the output must be an .xlsx file",
                 "`xl-fide report -o` for .csv, .json or .txt, `xl-fide trf` for a TRF"),
    "trf": (None, _WORKBOOK_NAMES + (".xls", ".ods", ".csv", ".json"),
            "a TRF is text (.trf or .txt)",
            "`xl-fide crosstable` for a workbook, `xl-fide report` for .csv or .json"),
}


def _check_output_name(out: Path, what: str) -> None:
    """Refuse (one line) an output name whose extension says another kind of file than
    the command writes (``what``: report, workbook or trf); every command that writes a
    file asks this first."""
    accepted, refused, says, use = _OUTPUTS[what]
    suffix = out.suffix.lower()
    if (accepted is not None and suffix not in accepted) or suffix in refused:
        raise CliError(f"{out}: {says}: use {use}")


def _report_format(args: argparse.Namespace) -> str:
    """``--format``, else the format of ``-o``'s extension (.csv/.json/.txt), else table;
    a workbook or TRF name for ``-o``, or a ``--format`` the extension contradicts, is
    refused (one line)."""
    if not args.output:
        return args.format or "table"
    suffix = Path(args.output).suffix.lower()
    _check_output_name(Path(args.output), "report")
    implied = _TEXT_FORMATS.get(suffix)
    if args.format and implied and args.format != implied:
        raise CliError(f"{args.output}: --format {args.format} but the name ends in {suffix} "
                       f"({implied}): make them agree")
    return args.format or implied or "table"


def _positive_k(text: str) -> int:
    from xl_fide.rules.values import as_k
    try:
        return as_k(text, "K")
    except XlFideError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _whole_number(text: str) -> int:
    from xl_fide.rules.values import as_int
    try:
        return as_int(text, "the value")
    except XlFideError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _event_date(text: str) -> _dt.date:
    """A date option (``--event-date``, ``rate --date``): a date whose day and month could
    swap (``3/2/2024``: 3 Feb or 2 Mar, either side of the 1 March 2024 rules) is refused."""
    from xl_fide._dates import day_month_numbers
    parts = day_month_numbers(text)
    if parts is not None and parts[0] != parts[1] and max(parts[:2]) <= 12:
        raise argparse.ArgumentTypeError(f"{text!r}: day and month could be either way "
                                         "round; write it as YYYY-MM-DD")
    try:
        return _date(text)
    except XlFideError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
