"""Dates written as text: the one parser (TRF 042/052 headers, workbook cells, options).

Formats seen in real tournament files (FIDE C.04 Annex 2, TRF16 and TRF-2026):
``YYYY/MM/DD`` (also ``-`` or ``.``), ``DD/MM/YYYY``, ``DD. MM. YYYY``, ``May 29,
2020``, ``29 May 2020``; and ``YY/MM/DD`` in the 132 round dates.
"""

from __future__ import annotations

import datetime
import re

__all__ = ["parse_date_text", "parse_yy_mm_dd", "day_month_numbers"]

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_SEP = r"\s*[/.\-]\s*"
_YMD = re.compile(rf"([0-9]{{4}}){_SEP}([0-9]{{1,2}}){_SEP}([0-9]{{1,2}})")
_DMY = re.compile(rf"([0-9]{{1,2}}){_SEP}([0-9]{{1,2}}){_SEP}([0-9]{{4}})")
_MDY_TEXT = re.compile(r"([A-Za-z]{3,})\.?\s+([0-9]{1,2})(?:st|nd|rd|th)?,?\s+([0-9]{4})")
_DMY_TEXT = re.compile(r"([0-9]{1,2})\.?\s+([A-Za-z]{3,})\.?,?\s+([0-9]{4})")
_YY_MM_DD = re.compile(r"([0-9]{2})/([0-9]{2})/([0-9]{2})")


def _month(word: str) -> int | None:
    return _MONTHS.get(word[:3].lower())


def parse_date_text(text: str) -> tuple[datetime.date | None, bool]:
    """Return ``(date, understood)`` for a date text (TRF 042/052, a cell, an option).

    Formats seen in 042/052: ``YYYY/MM/DD`` (TRF-2026; also ``-`` or ``.``),
    ``DD/MM/YYYY`` and ``DD. MM. YYYY`` (read day first unless the middle number is
    above 12), ``May 29, 2020``, ``29 May 2020``. Empty text gives ``(None, True)``;
    text that is not understood, or an impossible date, ``(None, False)``.
    """
    text = text.strip()
    if not text:
        return None, True
    try:
        ymd = _date_parts(text)
        return (datetime.date(*ymd), True) if ymd is not None else (None, False)
    except ValueError:
        return None, False


def _date_parts(text: str) -> tuple[int, int, int] | None:
    """Return (year, month, day) of a date text in one of :func:`parse_date_text`'s formats."""
    if m := _YMD.fullmatch(text):
        return int(m.group(1)), int(m.group(2)), int(m.group(3))
    if m := _DMY.fullmatch(text):
        d, mo, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        return (y, d, mo) if mo > 12 >= d else (y, mo, d)
    if (m := _MDY_TEXT.fullmatch(text)) and (mo_name := _month(m.group(1))):
        return int(m.group(3)), mo_name, int(m.group(2))
    if (m := _DMY_TEXT.fullmatch(text)) and (mo_name := _month(m.group(2))):
        return int(m.group(3)), mo_name, int(m.group(1))
    return None


def day_month_numbers(text: str) -> tuple[int, int, int] | None:
    """``(first, second, year)`` of a date written as two numbers before a four-digit
    year (``3/2/2024``, ``03.02.2024``, ``3-2-2024``), whose day and month may be either
    way round; ``None`` for any other text (``2024-02-03``, ``3 Feb 2024``...)."""
    m = _DMY.fullmatch(text.strip())
    if not m:
        return None
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def parse_yy_mm_dd(text: str) -> datetime.date | None:
    """A TRF 132 round date ``YY/MM/DD`` (20YY), else None."""
    m = _YY_MM_DD.fullmatch(text.strip())
    if not m:
        return None
    try:
        return datetime.date(2000 + int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None
