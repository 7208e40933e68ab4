"""`xl-fide doctor` checked against sources it does not define itself (issue 9): the
FIDE_* functions the README documents for Excel users, the version pip installed,
and a UDF module that really fails to import."""

import re
import sys
from importlib.metadata import version
from pathlib import Path

from tests.harness.docs import docs_text
from xl_fide.cli._doctor import checks

ROOT = Path(__file__).parents[2]


def _documented_functions() -> set[str]:
    text = (ROOT / "docs" / "runtimes" / "excel.md").read_text(encoding="utf-8")
    section = text.split("## The FIDE_* functions", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(FIDE_[A-Z0-9_]+)\(", section, flags=re.M)) | set(
        re.findall(r"/ `(FIDE_[A-Z0-9_]+)\(", section))


def test_doctor_counts_the_documented_functions():
    documented = _documented_functions()
    assert "FIDE_EVENT_SWISS" in documented and "FIDE_PTP" in documented
    lines, _ = checks(platform="linux", home=ROOT / "no-home")
    line = next(l for l in lines if l.startswith("xl_fide.udfs: imports"))
    assert line == f"xl_fide.udfs: imports, {len(documented)} FIDE_* functions"


def test_doctor_shows_the_installed_version():
    lines, _ = checks(platform="linux", home=ROOT / "no-home")
    assert any(l.startswith(f"xl-fide: {version('xl-fide')} ") for l in lines)


def test_doctor_finds_a_udf_module_that_does_not_import(monkeypatch):
    import importlib
    real = importlib.import_module

    def import_module(name, *args):
        if name == "xl_fide.udfs":          # as on a machine without xlwings
            raise ImportError("No module named 'xlwings'")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", import_module)
    lines, ok = checks(platform="linux", home=ROOT / "no-home", xlwings_version="0.37.8")
    assert not ok
    assert "xl_fide.udfs: does not import (ImportError: No module named 'xlwings')" in lines
    assert any(l.startswith("PROBLEM: xl_fide.udfs must import") for l in lines)
    assert lines[-1] == "Result: fix the PROBLEM lines above, then restart Excel"
