"""A user trial (8 December, second): ``xl-fide report FILE --format json | head -1``
printed ``xl-fide: error: [Errno 32] Broken pipe`` and exited 2. A reader that stops
reading is not the user's error: the command now ends quietly (nothing on stderr) with
141, 128 + SIGPIPE (13), what a shell tool killed by SIGPIPE gives."""
from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from xl_fide.cli._main import main

DATA = Path(__file__).parents[1] / "data" / "trf"
SOURCE = DATA / "san_viator_2018_swiss.trf"        # its JSON report: about 270 kB


class _ClosedPipe(io.TextIOBase):
    """A standard output whose reader has gone: every write raises BrokenPipeError."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_main_into_a_closed_pipe_returns_141_quietly(monkeypatch, capsys):
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main(["report", str(SOURCE), "--format", "json"]) == 128 + 13
    assert capsys.readouterr().err == ""


def test_the_command_into_head_ends_quietly_with_141():
    # the reader takes one line and closes the pipe; the report (far more than a pipe's
    # 64 kB buffer) is still being written
    proc = subprocess.Popen([sys.executable, "-m", "xl_fide", "report", str(SOURCE),
                             "--format", "json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().strip() == b"{"
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 128 + 13
    assert err == b""
