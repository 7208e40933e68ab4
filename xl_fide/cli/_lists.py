"""The bodies of ``xl-fide lists [import|show|download]`` (the parser is in
:mod:`xl_fide.cli._main`, which imports this module only when the command runs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from xl_fide.errors import InputError
from xl_fide.lists._model import RATING_KINDS
from xl_fide.errors import StoreError
from xl_fide.lists._store import ImportResult, ListStore, StoredList

# Imported when used (issue 23, start-up): the download (http.client, ssl) by
# 'lists download' only, the presenters (json, decimal, the engine's rounding) only for
# a text with control characters.

__all__ = ["Progress", "cmd_lists", "cmd_lists_download", "cmd_lists_import", "cmd_lists_show"]


class Progress:
    """A one-line progress bar on stderr (only on a terminal, and not with ``-q``)."""

    def __init__(self, label: str, quiet: bool = False, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.on = not quiet and bool(getattr(self.stream, "isatty", lambda: False)())
        self.label = label
        self._shown = -1

    def __call__(self, done: int, total: int | None) -> None:
        if not self.on:
            return
        if total:
            percent = min(100, done * 100 // total)
            if percent == self._shown:
                return
            self._shown = percent
            bar = "#" * (percent // 4)
            text = f"\r{self.label} [{bar:<25}] {percent:3d}%"
        else:
            text = f"\r{self.label} {done // 1_000_000} MB"
        self.stream.write(text)
        self.stream.flush()

    def done(self) -> None:
        if self.on and self._shown >= 0:
            self.stream.write("\n")
            self.stream.flush()


def _store(args: argparse.Namespace) -> ListStore:
    return ListStore(getattr(args, "store", None))


def cmd_lists(args: argparse.Namespace) -> int:
    """``xl-fide lists``: the stored months and counts (one line per month)."""
    sub = getattr(args, "lists_command", None)
    if sub == "import":
        return cmd_lists_import(args)
    if sub == "show":
        return cmd_lists_show(args)
    if sub == "download":
        return cmd_lists_download(args)
    with _store(args) as store:
        stored = store.lists()
        print(f"store: {store.path}")
        if not stored:
            print("no lists stored: xl-fide lists download, or xl-fide lists import FILE")
            return 0
        by_month: dict[str, dict[str, StoredList]] = {}
        for item in stored:
            by_month.setdefault(item.month, {})[item.kind] = item
        print(f"{'month':<8} " + " ".join(f"{k:>9}" for k in RATING_KINDS) + "  source")
        for month, kinds in by_month.items():
            counts = " ".join(f"{kinds[k].players:>9}" if k in kinds else f"{'-':>9}"
                              for k in RATING_KINDS)
            sources = ", ".join(sorted({_safe(v.source) for v in kinds.values()}))
            print(f"{month:<8} {counts}  {sources}")
    return 0


def _import_line(path: object, result: ImportResult) -> str:
    counts = ", ".join(f"{result.players[k]} {k}" for k in result.kinds)
    line = f"imported {_safe(path)} as the list of {result.month}: {counts}"
    if result.replaced:
        line += f" (replaced the stored {', '.join(result.replaced)})"
    return line


def cmd_lists_import(args: argparse.Namespace) -> int:
    """``xl-fide lists import FILE [--month YYYY-MM] [--time-control KIND] [--skipped OUT]``."""
    path = Path(args.list_file)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    progress = Progress(f"importing {path.name}", getattr(args, "quiet", False))
    with _store(args) as store:
        try:
            result = store.import_file(path, args.month, args.time_control, progress,
                                       getattr(args, "skipped", None))
        finally:
            progress.done()
    print(_import_line(path, result))
    if not getattr(args, "quiet", False):
        _warn_notes(result)
        _warn_skipped(path, result)
    return 0


def _warn_notes(result: ImportResult) -> None:
    for note in result.notes:
        print(f"warning: {_safe(note)}", file=sys.stderr)


def _warn_skipped(source: object, result: ImportResult) -> None:
    """The lines an import skipped: counted, the first ones named (file:line:column, the
    column, why, the id and name), and the file naming every one."""
    if not result.skipped:
        return
    lines = "line" if result.skipped == 1 else "lines"
    where = f"; every one is named in {_safe(result.skipped_file)}" if result.skipped_file else ""
    print(f"warning: {_safe(source)}: {result.skipped} unreadable {lines} skipped, "
          f"those players not stored{where}", file=sys.stderr)
    for text in result.shown:
        print(f"  {_safe(text)}", file=sys.stderr)
    more = result.skipped - len(result.shown)
    if more > 0:
        print(f"  ... and {more} more", file=sys.stderr)


def _cell(value: Any) -> str:
    return "-" if value is None else _safe(value)


def _safe(value: object) -> str:
    """Text from a list or a file name, its control characters shown escaped (a name
    cannot drive the terminal)."""
    text = str(value)
    if text.isprintable():          # no control character: escape_controls leaves it as is
        return text
    from xl_fide.cli._presenters import escape_controls
    return escape_controls(text, keep="")


def cmd_lists_show(args: argparse.Namespace) -> int:
    """``xl-fide lists show FIDE_ID``: the player on every stored list."""
    fide_id = args.fide_id
    with _store(args) as store:
        person = store.player(fide_id)
        history = store.history(fide_id)
    if person is None and not history:
        raise StoreError(f"FIDE id {fide_id} is on no stored list")
    if person is not None:
        extra = ", ".join(_safe(v) for v in (person["federation"], person["title"]) if v)
        print(f"{fide_id} {_safe(person['name'])}" + (f" ({extra})" if extra else ""))
    print(f"{'month':<8} {'list':<8} {'rating':>6} {'games':>5} {'K':>3} {'born':>5} flag")
    for e in history:
        print(f"{e.month:<8} {e.kind:<8} {_cell(e.rating):>6} {_cell(e.games):>5} "
              f"{_cell(e.k):>3} {_cell(e.birth_year):>5} {_safe(e.flag)}")
    return 0


def cmd_lists_download(args: argparse.Namespace) -> int:
    """``xl-fide lists download [--month YYYY-MM] [--time-control KIND ...] [--base-url URL]``."""
    from xl_fide.lists._download import FIDE_DOWNLOADS, download_lists
    quiet = getattr(args, "quiet", False)
    with _store(args) as store:
        results = download_lists(args.month, tuple(args.time_control or RATING_KINDS),
                                 base_url=args.base_url or FIDE_DOWNLOADS, store=store,
                                 progress=lambda label: Progress(label, quiet))
    for url, result in results:
        print(_import_line(url, result))
        if not quiet:
            _warn_notes(result)
            _warn_skipped(url, result)
    return 0


