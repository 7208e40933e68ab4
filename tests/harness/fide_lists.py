"""FIDE list lines made in tests: the combined TXT layout of
tests/data/players/combined_foa.txt (fictional players), the list files of
tests/data/players the tests read, and the CLI run the list tests share."""

from __future__ import annotations

from pathlib import Path

from xl_fide.cli._main import main

DATA = Path(__file__).parents[1] / "data" / "players"
COMBINED_TXT = DATA / "combined_foa.txt"
SINGLE_TXT = DATA / "standard_may25.txt"
OLD_TXT = DATA / "old_mar11.txt"
COMBINED_XML = DATA / "combined.xml"
PLAYERS_CSV = DATA / "players.csv"
#: The header line of the combined layout.
HEADER = COMBINED_TXT.read_text().splitlines()[0]


def line(fide_id, name, rating="", games="", k="", born="", rapid=("", "", "")):
    """A line of the combined layout: Fed/Sex at 76, SRtng at 113, SGm 119, SK 123,
    RRtng 126, RGm 132, Rk 136, BRtng 139, B-day 152 (HEADER's columns)."""
    text = str(fide_id).ljust(15) + name.ljust(61) + "ESP M".ljust(37)
    text += rating.ljust(6) + games.ljust(4) + k.ljust(3)
    text += rapid[0].ljust(6) + rapid[1].ljust(4) + rapid[2].ljust(3)
    return text.ljust(152) + born


def write_list(path, *lines):
    """``path`` holding HEADER and ``lines``, CR LF line ends (as FIDE's files)."""
    path.write_text("\r\n".join([HEADER, *lines]) + "\r\n")
    return path


def run(capsys, *argv):
    """``xl-fide ARGV`` in process: its exit code, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
