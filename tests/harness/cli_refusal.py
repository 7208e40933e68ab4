"""A file every command refuses: ``xl-fide report|crosstable|trf FILE`` exits 2 with one
line on stderr and writes nothing (the brief's rule for bad input)."""
from __future__ import annotations

from xl_fide.cli._main import main


def refused(command: str, bad, tmp_path, capsys) -> str:
    """Run ``command`` on ``bad`` (``-o`` a file in ``tmp_path`` for crosstable and trf);
    assert exit 2, one stderr line and no output file; return that line."""
    out = tmp_path / ("out.xlsx" if command == "crosstable" else "out.trf")
    argv = [command, str(bad)] + ([] if command == "report" else ["-o", str(out)])
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert not out.exists()
    return err[0]
