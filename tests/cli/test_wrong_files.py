"""A file of another kind given where a TRF is expected says what it is (a user trial:
``report my-month.csv`` said "expected a line starting with '001'")."""
from __future__ import annotations

from xl_fide.cli._main import main


def test_a_games_csv_given_to_report_is_named(capsys, tmp_path):
    f = tmp_path / "my-month.csv"
    f.write_text("event,event_start,event_end,opponent_rating,result\n"
                 "Open,2025-11-01,2025-11-02,2000,1\n")
    assert main(["report", str(f)]) == 2
    err = capsys.readouterr().err
    assert "games CSV" in err and "xl-fide rate" in err and "'001'" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_text_that_is_no_trf_still_says_what_a_trf_needs(capsys, tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("hello\n")
    assert main(["report", str(f)]) == 2
    assert "001" in capsys.readouterr().err
