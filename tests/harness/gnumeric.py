"""A third, independent spreadsheet engine: Gnumeric's ``ssconvert --recalc``.

LibreOffice is forgiving where Excel is not (its VLOOKUP/MATCH find the text "1" in a
column of numbers), and the ``formulas`` package is slow on big sheets; Gnumeric is a
separate implementation with Excel's text/number semantics. :func:`recalc` converts a
workbook to ``.xlsx`` with every formula recalculated and returns the values as openpyxl
reads them (``data_only=True``), so the LibreOffice tests' comparisons apply unchanged.

Needs Debian's ``gnumeric`` package (``ssconvert``); :func:`require` skips the calling
test without it, or fails it under ``CI=true`` (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook


def ssconvert() -> str | None:
    return shutil.which("ssconvert")


def require() -> None:
    """Skip (or under CI=true fail) the calling test when ``ssconvert`` is missing."""
    if ssconvert() is None:
        msg = "Gnumeric's ssconvert is missing (apt: gnumeric)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(msg + " (CI=true: the Gnumeric tests must run)", pytrace=False)
        pytest.skip(msg)


def recalc(src: str | Path, dst: str | Path) -> Workbook:
    """Recalculate ``src`` in Gnumeric into ``dst`` (.xlsx); its values as openpyxl reads
    them (errors as their text, "#VALUE!")."""
    exe = ssconvert()
    assert exe, "ssconvert missing"
    env = dict(os.environ, HOME=str(Path(dst).parent))     # a private, writable profile
    r = subprocess.run([exe, "--recalc", "--export-type=Gnumeric_Excel:xlsx2",
                        str(src), str(dst)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0 and Path(dst).is_file(), r.stderr[-2000:]
    with warnings.catch_warnings():               # Gnumeric writes no default style
        warnings.simplefilter("ignore", UserWarning)
        return load_workbook(dst, data_only=True)
