"""Shared fixtures.

LibreOffice (see tests/harness/lo_calc.py):

* ``office`` (session): headless soffice with the product's extension
  (``xl-fide libreoffice``, serving ``xl_fide.udfs``) installed, so ``=FIDE_*``
  formulas run the real Python code::

      def test_template(office, tmp_path):
          res = office.recalc(src, tmp_path / "out.xlsx")   # lo_calc.RecalcResult
          wb = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True)

  Skipped when LibreOffice/python3-uno is missing, except with ``CI=true``
  (then the test fails).
* ``plain_office`` (session): the same LibreOffice with no add-in (the native sheets,
  and what a UDF book shows without the extension).
* ``artifacts_dir``: ``<repo>/artifacts`` (gitignored), for PNGs a person looks at.
* ``store``: the path of a fresh FIDE list store (``XL_FIDE_STORE``), per test.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
HARNESS = TESTS / "harness"

from hypothesis import settings  # noqa: E402

from tests.harness import lo_calc  # noqa: E402

# No timing in tests: a loaded CI machine must not fail a property test by its clock.
settings.register_profile("xl_fide", deadline=None)
settings.load_profile("xl_fide")


def require_libreoffice():
    """Skip the calling test/fixture if LibreOffice is unusable; fail under CI=true."""
    missing = lo_calc.missing_requirements()
    if missing:
        msg = "LibreOffice harness unavailable, missing: " + ", ".join(missing)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(msg + " (CI=true: LibreOffice tests must run)", pytrace=False)
        pytest.skip(msg)


@pytest.fixture(scope="session")
def office(tmp_path_factory):
    """lo_calc.Office serving xl_fide.udfs; ``office.startup_seconds`` = build + start."""
    require_libreoffice()
    t0 = time.perf_counter()
    oxt = tmp_path_factory.mktemp("lo_addin") / "xl_fide_udfs.oxt"
    lo_calc.build_addin("xl_fide.udfs", str(oxt))
    o = lo_calc.Office(str(oxt))
    o.startup_seconds = time.perf_counter() - t0
    yield o
    o.close()


@pytest.fixture(scope="session")
def plain_office():
    """Headless LibreOffice with NO add-in: a FIDE_* call would show #NAME?."""
    require_libreoffice()
    o = lo_calc.Office(None)
    yield o
    o.close()


@pytest.fixture
def store(tmp_path, monkeypatch):
    """A fresh list store for the test (``XL_FIDE_STORE``), not created yet."""
    path = tmp_path / "store" / "lists.sqlite"
    monkeypatch.setenv("XL_FIDE_STORE", str(path))
    return path


@pytest.fixture(scope="session")
def artifacts_dir():
    d = ROOT / "artifacts"
    d.mkdir(exist_ok=True)
    return d


def pytest_collection_modifyitems(config, items):
    """Every test that uses a LibreOffice session (a fixture named ``*office``) carries the
    ``libreoffice`` marker: ``pytest -m "not libreoffice"`` is the quick run."""
    for item in items:
        if any(name.endswith("office") for name in getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.libreoffice)
