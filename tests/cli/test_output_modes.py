"""Files xl-fide writes get the user's usual mode (issue 34): the mode a plain
``open(path, "w")`` gives a new file, 0o666 less the umask -- the LibreOffice extension
too, which was written 0600 (mkstemp's mode) whatever the umask.

The umask is the process's: each test sets it and puts the old one back.
"""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from xl_fide.cli import main

TRF = Path(__file__).resolve().parents[1] / "data" / "trf" / "mini_trf2026.trf"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")

# umask -> the mode of a new file, by hand: 0o666 & ~umask
MODES = {0o022: 0o644, 0o077: 0o600, 0o002: 0o664, 0o027: 0o640}


@pytest.fixture(params=sorted(MODES), ids=lambda m: f"umask{m:03o}")
def umask(request):
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _plain_open_mode(directory: Path) -> int:
    probe = directory / "plain-open.txt"
    with open(probe, "w", encoding="utf-8") as fh:
        fh.write("x")
    try:
        return _mode(probe)
    finally:
        probe.unlink()


@pytest.mark.parametrize("command", [
    pytest.param(["libreoffice", "-o", "{out}.oxt"], id="oxt"),
    pytest.param(["crosstable", str(TRF), "-o", "{out}.xlsx", "--quiet"], id="workbook"),
    pytest.param(["trf", str(TRF), "-o", "{out}.trf", "--quiet"], id="trf"),
])
def test_every_output_gets_the_mode_of_a_plain_open(command, umask, tmp_path):
    out = str(tmp_path / "out")
    args = [a.format(out=out) for a in command]
    assert main(args) == 0
    written = Path(args[args.index("-o") + 1])
    assert _mode(written) == MODES[umask] == _plain_open_mode(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [written.name]     # no temporary left

