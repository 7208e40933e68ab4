"""Cached values of formula cells, written into a saved ``.xlsx``.

A formula cell of an ``.xlsx`` holds its formula (``<f>``) and the value last computed
(``<v>``). openpyxl writes the formula only, so a reader that does not calculate (a file
or mail preview, a phone viewer, pandas, calamine, a UDF workbook opened where the
add-in is not loaded) shows an empty rating block. :func:`add_cached_values` writes the
values xl-fide computed (the same engine the formulas call) into the saved package; the
workbook still asks every spreadsheet to recalculate on load (``fullCalcOnLoad``).

This is the only place that edits the package openpyxl wrote. The values are given per
sheet title and cell reference; a cell that the sheet XML does not hold is left alone.
Value types: ``bool`` (``t="b"``), ``int``/``float`` (a number), a date (its serial
number, day 0 = 30 Dec 1899), ``str`` (``t="str"``; an error text such as ``"#N/A"`` is
``t="e"``).
"""

from __future__ import annotations

import datetime as _dt
import io
import posixpath
import zipfile
from typing import Mapping
from xml.etree import ElementTree as ET

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_ERRORS = frozenset({"#N/A", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NAME?", "#NULL!"})

CachedValues = Mapping[str, Mapping[str, object]]


def add_cached_values(xlsx: bytes, values: CachedValues) -> bytes:
    """``xlsx`` (a package as openpyxl saved it) with ``values[sheet][ref]`` written as
    the cached value of each cell ``ref`` (``"B5"``) of the sheet titled ``sheet``."""
    if not any(values.values()):
        return xlsx
    source = zipfile.ZipFile(io.BytesIO(xlsx))
    parts = _sheet_parts(source)
    edits = {parts[title]: cells for title, cells in values.items() if cells and title in parts}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename in edits:
                data = _with_values(data, edits[info.filename])
            target.writestr(info, data)
    return out.getvalue()


def _sheet_parts(package: zipfile.ZipFile) -> dict[str, str]:
    """Sheet title -> the part name of its XML (``xl/worksheets/sheet1.xml``)."""
    book = ET.fromstring(package.read("xl/workbook.xml"))
    rels = ET.fromstring(package.read("xl/_rels/workbook.xml.rels"))
    target = {r.get("Id"): r.get("Target", "") for r in rels.iter(f"{{{_PKG_REL}}}Relationship")}
    parts = {}
    for sheet in book.iter(f"{{{_MAIN}}}sheet"):
        t = target.get(sheet.get(f"{{{_REL}}}id"), "")
        parts[sheet.get("name", "")] = (t.lstrip("/") if t.startswith("/")
                                        else posixpath.normpath(posixpath.join("xl", t)))
    return parts


def _with_values(xml: bytes, cells: Mapping[str, object]) -> bytes:
    for _, (prefix, uri) in ET.iterparse(io.BytesIO(xml), events=("start-ns",)):
        ET.register_namespace(prefix, uri)
    root = ET.fromstring(xml)
    for c in root.iter(f"{{{_MAIN}}}c"):
        ref = c.get("r") or ""
        if ref not in cells:
            continue
        kind, text = _encoded(cells[ref])
        for old in c.findall(f"{{{_MAIN}}}v") + c.findall(f"{{{_MAIN}}}is"):
            c.remove(old)
        if kind is None:
            c.attrib.pop("t", None)
        else:
            c.set("t", kind)
        ET.SubElement(c, f"{{{_MAIN}}}v").text = text     # after <f>, as the schema asks
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True)


def _encoded(value: object) -> tuple[str | None, str]:
    """(the cell's ``t`` attribute, the text of ``<v>``) of a cached value."""
    if isinstance(value, bool):
        return "b", "1" if value else "0"
    if isinstance(value, _dt.date):                   # a date is its serial number
        day = value.date() if isinstance(value, _dt.datetime) else value
        return None, str((day - _dt.date(1899, 12, 30)).days)
    if isinstance(value, int):
        return None, str(value)
    if isinstance(value, float):
        return None, repr(value)
    text = "" if value is None else str(value)
    return ("e" if text in _ERRORS else "str"), text
