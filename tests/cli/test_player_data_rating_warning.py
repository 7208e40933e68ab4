"""A user trial: ``--player-data`` with a rating other than the TRF's said nothing, where
``--lists`` warns. It warns alike: the player, both ratings, and that the file's is used."""
from __future__ import annotations

import csv
import io

import pytest

from xl_fide.cli._main import main

TRF = "\n".join([
    "012 Draw Open", "042 2025/03/01", "052 2025/03/01",
    "001    1 m    Alpha, A                          1800 SUI     1000001 1990/01/01"
    "  0.5    1     2 w =",
    "001    2 m    Beta, B                           1800 SUI     1000002 1991/01/01"
    "  0.5    2     1 b =",
]) + "\n"


@pytest.fixture
def files(tmp_path):
    trf = tmp_path / "e.trf"
    trf.write_text(TRF, encoding="ascii")
    data = tmp_path / "players.csv"
    # Alpha 1850 on the list (1800 in the file), Beta the same in both
    data.write_text('FIDE ID,Name,Ro\n1000001,"Alpha, A",1850\n1000002,"Beta, B",1800\n',
                    encoding="utf-8")
    return trf, data


def test_report_warns_of_a_rating_the_player_data_gives_otherwise(files, capsys):
    trf, data = files
    assert main(["report", str(trf), "--player-data", str(data), "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"warning: player 1 (Alpha, A): rating 1800 in the file, 1850 "
                                f"in {data}: the file's is used"]
    # the file's rating is the one rated: a draw between two 1800s changes nothing
    assert [(r["Ro"], r["Chg"]) for r in csv.DictReader(io.StringIO(out))] == [
        ("1800", "0"), ("1800", "0")]


def test_crosstable_warns_too_and_quiet_hides_it(files, capsys, tmp_path):
    trf, data = files
    book = tmp_path / "b.xlsx"
    assert main(["crosstable", str(trf), "--player-data", str(data), "-o", str(book)]) == 0
    assert "rating 1800 in the file, 1850 in" in capsys.readouterr().err
    assert main(["report", str(trf), "--player-data", str(data), "-q"]) == 0
    assert "rating 1800" not in capsys.readouterr().err


def test_period_says_which_rating_it_uses_for_what(files, capsys, tmp_path):
    # a period adds its change to the list before it (B.02 §8.3): the list's 1850 is the
    # period's Ro, the file's 1800 rates the event's games (a draw of equals: ΣΔR 0.00)
    trf, data = files
    assert main(["period", str(trf), "--player-data", str(data)]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"warning: player 1 (Alpha, A): rating 1800 in the file, 1850 "
                                f"in {data}: the file's for the event's games, the list's as "
                                f"Ro of the period (B.02 §8.3)"]
    assert "Alpha, A (1000001): Ro 1850, K 20" in out
    assert "  Draw Open: Ro 1800, 1 games [1800:½] ΣΔR 0.00, K 20, K×ΣΔR 0.00" in out
