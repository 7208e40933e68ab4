"""Months of FIDE lists: ``"YYYY-MM"`` text, its number ``YYYY*100+MM`` in the store,
and the month labels of FIDE's file names and headers (``jan24frl``, ``JAN24``)."""

from __future__ import annotations

import datetime as _dt
import re

from xl_fide.errors import InputError

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_NAME_MONTH = re.compile(r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(\d{2})frl")


#: Two-digit years from this one up are of the 1900s: FIDE published its first rating
#: list in 1971, so ``Jan99`` is January 1999 and ``Jan24`` January 2024 (00-70 are
#: 2000-2070).
FIRST_LIST_YEAR = 71


def month_of(text: str) -> str | None:
    """``"2024-01"`` for a FIDE month label such as ``"JAN24"`` or a file name such as
    ``standard_jan24frl.zip``; None when there is none. Two-digit years: 71-99 are
    1971-1999 (:data:`FIRST_LIST_YEAR`), 00-70 are 2000-2070."""
    low = text.lower()
    match = _NAME_MONTH.search(low) or re.fullmatch(r"([a-z]{3})(\d{2})", low)
    if match is None or match.group(1) not in _MONTHS:
        return None
    century = "19" if int(match.group(2)) >= FIRST_LIST_YEAR else "20"
    return f"{century}{match.group(2)}-{_MONTHS.index(match.group(1)) + 1:02d}"


def _month_number(text: str) -> int:
    match = re.fullmatch(r"(\d{4})-(\d{2})", text or "")
    if match is None or not 1 <= int(match.group(2)) <= 12:
        raise InputError(f"a month is written YYYY-MM, e.g. 2024-03, got {text!r}")
    return int(match.group(1)) * 100 + int(match.group(2))


def _month_text(number: int) -> str:
    return f"{number // 100:04d}-{number % 100:02d}"


def month_of_date(date: _dt.date) -> str:
    """``"YYYY-MM"`` of a date: the monthly FIDE list in force on it (published on the
    first of each month since July 2012)."""
    return f"{date.year:04d}-{date.month:02d}"


def _months_back(month: str, n: int) -> str:
    number = _month_number(month)
    index = (number // 100) * 12 + number % 100 - 1 - n
    return f"{index // 12:04d}-{index % 12 + 1:02d}"

