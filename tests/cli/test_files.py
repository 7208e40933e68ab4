"""Output files (issue 11 "Outputs"): created exclusively, whole or not at all, no
temporary file left on SIGTERM/SIGINT or a full disk, no library warnings under -q."""

import os
import signal
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from xl_fide.cli import _main as cli
from xl_fide.cli._main import main
from xl_fide.errors import XlFideError
from xl_fide import _files
from xl_fide._files import write_atomic
from xl_fide.errors import OutputError, OutputExistsError

ROOT = Path(__file__).parents[2]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_writer_never_replaces_a_file_created_meanwhile(tmp_path, monkeypatch):
    # the other writer creates the name after our check, while we write our temp file
    target = tmp_path / "r.csv"
    real = _files._create_temp

    def other_writer_wins(*a, **kw):
        fd_tmp = real(*a, **kw)
        target.write_text("the other writer")
        return fd_tmp

    monkeypatch.setattr(_files, "_create_temp", other_writer_wins)
    with pytest.raises(XlFideError, match="exists"):
        cli.write_text_atomic(target, "mine")
    assert target.read_text() == "the other writer"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


def test_racing_threads_exactly_one_wins(tmp_path):
    for i in range(20):
        target = tmp_path / f"out{i}.txt"
        wins, barrier = [], threading.Barrier(2)

        def write(text):
            barrier.wait()
            try:
                write_atomic(target, text)
                wins.append(text)
            except OutputExistsError:
                pass

        threads = [threading.Thread(target=write, args=(t,)) for t in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1 and target.read_text() == wins[0]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_force_replaces_and_inputs_are_refused(tmp_path):
    target = tmp_path / "x.txt"
    write_atomic(target, "one")
    write_atomic(target, "two", force=True)
    assert target.read_text() == "two"
    with pytest.raises(OutputError, match="input"):
        write_atomic(target, "three", force=True, inputs=[target])
    link = tmp_path / "link.txt"
    os.link(target, link)                         # the input under another name
    with pytest.raises(OutputError, match="input"):
        write_atomic(link, "four", force=True, inputs=[target])
    assert target.read_text() == "two"


_KILL = """
import os, signal, sys
from pathlib import Path
from xl_fide.cli import _main as cli
def killed(*a, **kw):
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
    raise SystemExit("not killed")
os.replace = os.link = killed            # the signal arrives just before the file is put in place
cli.write_text_atomic(Path(sys.argv[1]) / "out.txt", "x" * 100000)
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_signal_while_writing_leaves_nothing(tmp_path, sig):
    proc = subprocess.run([sys.executable, "-c", _KILL, str(tmp_path), sig], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def _mount_small_tmpfs(where: Path) -> bool:
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return False
    where.mkdir()
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


@pytest.mark.parametrize("argv,name", [(["crosstable", "--example", "-o"], "out.xlsx"),
                                       (["report", "--example", "--format", "json", "-o"],
                                        "out.json")])
def test_full_disk_is_one_line_and_leaves_nothing(tmp_path, argv, name):
    disk = tmp_path / "disk"
    if not _mount_small_tmpfs(disk):
        pytest.skip("needs root to mount a 16 kB tmpfs")
    try:
        proc = subprocess.run([sys.executable, "-m", "xl_fide", *argv, str(disk / name)],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert "No space left" in proc.stderr and "Traceback" not in proc.stderr
        assert sorted(os.listdir(disk)) == []
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


def test_no_library_warnings_under_quiet(tmp_path, capsys):
    book = tmp_path / "book.xlsx"
    assert run(capsys, "crosstable", "--example", "-o", str(book), "-q")[0] == 0
    edited = tmp_path / "edited.xlsx"
    # an extension openpyxl does not keep: it warns when reading the sheet
    ext = (b'<extLst><ext uri="{78C0D931-6437-407d-A8EE-F0AAD7539E65}" xmlns:x14="http://'
           b'schemas.microsoft.com/office/spreadsheetml/2009/9/main"><x14:conditionalFormattings/>'
           b'</ext></extLst></worksheet>')
    with zipfile.ZipFile(book) as zin, zipfile.ZipFile(edited, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"</worksheet>", ext)
            zout.writestr(item, data)
    proc = subprocess.run([sys.executable, "-m", "xl_fide", "report", str(edited), "-q"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    proc = subprocess.run([sys.executable, "-m", "xl_fide", "report", str(edited)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert [l for l in proc.stderr.splitlines() if "extension" in l] == [
        "warning: Conditional Formatting extension is not supported and will be removed"]
