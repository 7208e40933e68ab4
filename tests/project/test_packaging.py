"""What a user installs: the wheel holds every module, the licence, ``py.typed``, the
example TRF and the templates; its metadata states the licence (SPDX), the supported
Pythons and the one version written in ``xl_fide/_version.py``."""

import io
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from xl_fide._version import __version__

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True)
    (path,) = out.glob("xl_fide-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_holds_every_module_and_the_data(wheel):
    names = set(wheel.namelist())
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "xl_fide").rglob("*.py")}
    assert modules <= names, sorted(modules - names)
    templates = {f"xl_fide/templates/{p.name}" for p in (ROOT / "templates").glob("*.xlsx")}
    assert templates and templates <= names
    assert {"xl_fide/py.typed", "xl_fide/data/example.trf"} <= names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_the_metadata(wheel):
    meta_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(wheel.read(meta_name).decode())
    assert meta["Version"] == __version__
    assert meta["License-Expression"] == "MIT"
    assert meta["Requires-Python"] == ">=3.11"
    classifiers = meta.get_all("Classifier")
    assert "Typing :: Typed" in classifiers
    for v in ("3.11", "3.12", "3.13"):
        assert f"Programming Language :: Python :: {v}" in classifiers


def test_the_shipped_templates_are_what_the_template_command_writes(wheel, tmp_path):
    # the files in the wheel are part for part what `xl-fide template` writes for the
    # same layout and size, so a user without the repository gets the same workbooks
    from xl_fide.cli import main
    from xl_fide.excel import DEFAULT_TEMPLATES, NATIVE_TEMPLATES
    for name, (layout, players, rounds) in {**DEFAULT_TEMPLATES, **NATIVE_TEMPLATES}.items():
        out = tmp_path / name
        argv = ["template", "--layout", layout, "--players", str(players), "--rounds",
                str(rounds), "-o", str(out)] if layout == "swiss" else [
                "template", "--layout", layout, "--players", str(players), "-o", str(out)]
        if "native" in name:
            argv += ["--formulas", "native"]
        assert main(argv) == 0
        shipped = zipfile.ZipFile(io.BytesIO(wheel.read(f"xl_fide/templates/{name}")))
        written = zipfile.ZipFile(out)
        assert shipped.namelist() == written.namelist()
        for part in written.namelist():   # every part but the time of saving
            if part != "docProps/core.xml":
                assert shipped.read(part) == written.read(part), (name, part)
