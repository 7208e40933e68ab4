"""The console script's end: after `report` and `period` the process ends without
freeing what the command built (cli._main._exit_now); what it prints, where and with
which code, is what main() gives in the process."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from xl_fide.cli import _main
from xl_fide.cli._main import main

DATA = Path(__file__).parents[1] / "data" / "trf"
EVENTS = [str(DATA / "mini_trf2026.trf"), str(DATA / "roundrobin_12_synthetic.trf")]

# the output buffered, as in a user's shell
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}

CASES = [
    ["report", str(DATA / "san_viator_2018_swiss.trf")],
    ["report", str(DATA / "gros_2010_swiss_after_round4.trf"), "--format", "json"],
    ["period", *EVENTS, "--span"],
    ["period", str(DATA / "mini_trf2026.trf"), str(DATA / "no_such_file.trf")],
]


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(Path(x).name for x in a))
def test_the_console_script_prints_what_main_returns(argv, capsys):
    code = main(list(argv))
    out, err = capsys.readouterr()
    # through pipes: every byte flushed before the process ends
    done = subprocess.run([sys.executable, "-m", "xl_fide", *argv], capture_output=True,
                          text=True, encoding="utf-8", env=ENV)
    assert (done.returncode, done.stdout, done.stderr) == (code, out, err)
    assert out or err


def test_main_in_a_process_keeps_nothing(capsys):
    assert main(["report", str(DATA / "mini_trf2026.trf")]) == 0
    assert main(["period", *EVENTS, "--span"]) == 0
    assert _main._KEPT is None


def test_the_exit_functions_run_and_the_code_is_kept(tmp_path):
    # an atexit function registered before the command still runs; the exit code of a
    # refused period (2) and of a rated one (0) are the process's
    mark = tmp_path / "ran"
    script = ("import atexit, pathlib, sys\n"
              f"atexit.register(pathlib.Path({str(mark)!r}).write_text, 'yes')\n"
              "from xl_fide.cli._main import main_entry\n"
              "sys.argv[1:] = sys.argv[2:]\n"
              "main_entry()\n")
    ok = subprocess.run([sys.executable, "-c", script, "-", "period", *EVENTS, "--span"],
                        capture_output=True, text=True, env=ENV)
    assert ok.returncode == 0 and mark.read_text() == "yes" and "Ro" in ok.stdout
    mark.unlink()
    refused = subprocess.run([sys.executable, "-c", script, "-", "period", *EVENTS],
                             capture_output=True, text=True, env=ENV)
    assert refused.returncode == 2 and mark.read_text() == "yes"
    assert "rating periods" in refused.stderr


def test_the_console_script_writes_the_whole_workbook(tmp_path, capsys):
    # crosstable also ends without freeing its workbook: the file is whole (saved and
    # closed before), what it prints is main()'s, and the code is 0
    from openpyxl import load_workbook
    event = str(DATA / "san_viator_2018_swiss.trf")
    mine, theirs = tmp_path / "in_process.xlsx", tmp_path / "script.xlsx"
    assert main(["crosstable", event, "-o", str(mine), "--formulas", "native"]) == 0
    out, err = capsys.readouterr()
    done = subprocess.run([sys.executable, "-m", "xl_fide", "crosstable", event, "-o",
                           str(theirs), "--formulas", "native"],
                          capture_output=True, text=True, encoding="utf-8", env=ENV)
    assert (done.returncode, done.stdout, done.stderr) == (
        0, out.replace(str(mine), str(theirs)), err)

    def cells(path, values):
        book = load_workbook(path, data_only=values)
        return {(ws.title, c.coordinate): getattr(c.value, "text", c.value)
                for ws in book.worksheets for row in ws.iter_rows() for c in row
                if c.value is not None}

    for values in (False, True):
        assert cells(theirs, values) == cells(mine, values)
    assert len(cells(theirs, True)) > 1000
