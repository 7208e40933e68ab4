"""A user trial: ``crosstable -q`` still printed the advice about where FIDE_* formulas
compute; ``-q`` keeps the one line that says what was written."""

from pathlib import Path

from xl_fide.cli._main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "trf"


def test_quiet_keeps_only_what_was_written(tmp_path, capsys):
    event = str(DATA / "san_viator_2018_swiss.trf")
    assert main(["crosstable", event, "-o", str(tmp_path / "a.xlsx")]) == 0
    loud = capsys.readouterr().out
    assert "FIDE_* formulas compute" in loud
    assert main(["crosstable", event, "-o", str(tmp_path / "b.xlsx"), "-q"]) == 0
    quiet = capsys.readouterr().out
    assert "FIDE_* formulas compute" not in quiet and quiet.startswith("wrote ")
