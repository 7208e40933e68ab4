"""The FIDE-list rows of issue 23, timed against their floors in the same run.

Not a test: run it by hand (see benchmarks/README.md, section ``user_paths_lists.py``)::

    pip install '.[bench]'
    python benchmarks/user_paths_lists.py [--repeat 5] [--only report,show,xml,zip]

Each row runs two child processes alternately, ``--repeat`` times after one untimed
run of each, and compares the medians of their CPU time (user + system), as
``benchmarks/user_paths.py`` does (``runner.paired``). ``ratio`` = xl-fide /
floor; ``paired`` = the median of the ratios of runs made one after the other. The
inputs are synthetic and seeded (not timed):

* the list: ``make_fide_list.py``'s 1.2 M players in FIDE's combined TXT layout
  (192 MB);
* the event: ``tests/harness/synthetic.py``'s Swiss of 201 players x 9 rounds, its
  players given the FIDE id and the name of 200 players spread over the list, and one
  without a FIDE id (looked up by name, not on the list: the synthetic names repeat).

Rows:

* ``report --player-data``: ``xl-fide report EVENT --player-data LIST`` against a plain
  line scan of the list (``for line in open(LIST, "rb"): pass``, a child process).
  Also timed: ``xl-fide report EVENT`` without the list; the *list part* is the
  difference of the medians, compared with the same floor. Targets: whole <= 4x,
  list part <= 2x.
* ``lists show``: ``xl-fide lists show ID`` on a store holding two months of a
  100,000-player list (three kinds each) against ``sqlite3`` doing the same look-ups
  (the player's row; his entry on each stored list, by the primary key) and printing
  them, in a child ``python``.
* ``xml`` and ``zip``: the same ``report --player-data`` with the list as FIDE's XML
  layout (written from the TXT list) and as the TXT zipped (deflate), against a plain
  read of the same file (XML: the lines of the file; zip: the member's bytes inflated
  by ``zipfile``, 1 MiB at a time). No target: they are checked not to be
  pathologically slow.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for folder in (str(ROOT), str(HERE)):
    if folder not in sys.path:
        sys.path.insert(0, folder)

import make_fide_list  # noqa: E402
import runner  # noqa: E402
from runner import paired, run, xl_fide_command  # noqa: E402

from xl_fide.trf import encode_trf
from xl_fide.tournament import Tournament  # noqa: E402

LIST_PLAYERS = 1_200_000
STORE_PLAYERS = 100_000
FIRST_ID = 100_000_000

SCAN = 'import sys\nfor line in open(sys.argv[1], "rb"):\n    pass\n'
UNZIP = ('import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1]) as z:\n'
         '    with z.open(z.infolist()[0]) as f:\n'
         '        while f.read(1 << 20):\n            pass\n')
# The store's floor: the same look-ups as `lists show`, by the primary keys.
SHOW = r"""
import sqlite3, sys
con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
fide_id = int(sys.argv[2])
row = con.execute("SELECT name, federation, title FROM players WHERE fide_id = ?",
                  (fide_id,)).fetchone()
print(fide_id, row[0], f"({row[1]})")
for e in con.execute(
        "SELECT r.month, r.kind, r.rating, r.games, r.k, r.birth_year, r.flag FROM lists l "
        "JOIN ratings r ON r.kind = l.kind AND r.month = l.month AND r.fide_id = ? "
        "ORDER BY l.month, l.kind", (fide_id,)):
    print(*("-" if v is None else v for v in e))
"""


def list_names(path: Path, numbers: list[int]) -> dict[int, str]:
    """The name on the list of each player number (line ``number + 2``), not timed."""
    wanted, names = set(numbers), {}
    with open(path, "rb") as f:
        f.readline()
        for n, line in enumerate(f):
            if n in wanted:
                names[n] = line[15:76].decode().strip()
    return names


def event_file(folder: Path, list_path: Path, players: int = LIST_PLAYERS,
               size: int = 201) -> Path:
    """The Swiss of ``size`` x 9, its players on the list by FIDE id, the last by name."""
    from tests.harness.synthetic import synthetic_swiss
    t = synthetic_swiss(size, 9)
    step = players // size
    numbers = [k * step + step // 2 for k in range(size)]
    names = list_names(list_path, numbers)
    people = [dataclasses.replace(p, name=names[n], fide_id=FIRST_ID + n)
              for p, n in zip(t.players, numbers)]
    people[-1] = dataclasses.replace(people[-1], fide_id=None, name="Nobody, Here")
    event = Tournament.build(name=t.name, players=people, rounds=t.rounds, city="Benchmark",
                             start_date=t.start_date, end_date=t.end_date,
                             time_control="90 min + 30 s")
    path = folder / "event_201x9.trf"
    path.write_bytes(encode_trf(event))
    return path


def xml_list(txt: Path, out: Path) -> Path:
    """FIDE's XML layout (``players_list_xml_foa.xml``) of the TXT list, not timed."""
    cols = {"fideid": (0, 15), "name": (15, 76), "country": (76, 80), "sex": (80, 84),
            "title": (84, 89), "w_title": (89, 94), "o_title": (94, 109),
            "foa_title": (109, 113), "rating": (113, 119), "games": (119, 123), "k": (123, 126),
            "rapid_rating": (126, 132), "rapid_games": (132, 136), "rapid_k": (136, 139),
            "blitz_rating": (139, 145), "blitz_games": (145, 149), "blitz_k": (149, 152),
            "birthday": (152, 158), "flag": (158, 200)}
    with open(txt, encoding="ascii") as src, open(out, "w", encoding="utf-8") as dst:
        dst.write('<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n')
        src.readline()
        for line in src:
            line = line.rstrip("\r\n")
            fields = "".join(f"<{tag}>{escape(line[a:b].strip())}</{tag}>"
                             for tag, (a, b) in cols.items())
            dst.write(f"<player>{fields}</player>\n")
        dst.write("</playerslist>\n")
    return out


def zip_list(txt: Path, out: Path) -> Path:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(txt, "players_list_foa.txt")
    return out


def store_file(folder: Path) -> tuple[Path, int]:
    """A store holding two months of a 100,000-player list, and an id on both."""
    small = folder / "store_list.txt"
    make_fide_list.write(str(small), STORE_PLAYERS)
    store = folder / "lists.sqlite"
    env = dict(os.environ, XL_FIDE_STORE=str(store))
    for month in ("2025-10", "2025-11"):
        subprocess.run(xl_fide_command() + ["lists", "import", str(small), "--month", month,
                                            "-q"], check=True, env=env, capture_output=True)
    small.unlink()
    return store, FIRST_ID + 1      # number 1: standard, rapid and blitz ratings


def report_rows(xl: list[str], py: list[str], event: Path, lists: dict[str, Path],
                repeat: int) -> None:
    floors = {"txt": [SCAN], "xml": [SCAN], "zip": [UNZIP]}
    bare = None
    for kind, path in lists.items():
        code = floors[kind][0]
        name = "report --player-data" + ("" if kind == "txt" else f" ({kind})")
        whole, floor = paired(name, xl + ["report", str(event), "--player-data", str(path)],
                              py + ["-c", code, str(path)], repeat)
        if bare is None:
            bare, _ = paired("report (no list)", xl + ["report", str(event)],
                             py + ["-c", "pass"], repeat)
        part = whole - bare
        print(f"{'':<28} list part {part:.3f} s = {part / floor:.2f} x the floor "
              f"({floor:.3f} s); whole {whole / floor:.2f} x", flush=True)


def same_output(xl: list[str], event: Path, lists: dict[str, Path]) -> None:
    """Whether the report is the same from each form of the list (not timed)."""
    outs = {kind: subprocess.run(xl + ["report", str(event), "--player-data", str(p)],
                                 capture_output=True, text=True) for kind, p in lists.items()}
    base = outs["txt"]
    for kind, done in outs.items():
        same = (done.stdout, done.stderr) == (base.stdout, base.stderr)
        print(f"{'':<28} {kind}: report {'the same as' if same else 'DIFFERS from'} the TXT "
              f"list's ({len(done.stdout.splitlines())} lines, rc {done.returncode})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default="report,show,xml,zip",
                    help="comma-separated rows: report, show, xml, zip")
    ap.add_argument("--keep", help="write the inputs to this folder and keep them")
    a = ap.parse_args(argv)
    rows = set(a.only.split(","))
    xl, py = xl_fide_command(), [sys.executable]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(a.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"{len(os.sched_getaffinity(0))} CPUs, load {os.getloadavg()[0]:.1f}, "
              f"Python {sys.version.split()[0]}; median CPU seconds of {a.repeat} paired runs",
              flush=True)
        lists: dict[str, Path] = {}
        if rows & {"report", "xml", "zip"}:
            txt = folder / "players_list_foa.txt"
            if not txt.exists():
                make_fide_list.write(str(txt), LIST_PLAYERS)
            event = event_file(folder, txt)
            lists["txt"] = txt
            if "xml" in rows:
                lists["xml"] = folder / "players_list_xml_foa.xml"
                if not lists["xml"].exists():
                    xml_list(txt, lists["xml"])
            if "zip" in rows:
                lists["zip"] = folder / "players_list_foa.zip"
                if not lists["zip"].exists():
                    zip_list(txt, lists["zip"])
            if "report" not in rows:
                del lists["txt"]
            report_rows(xl, py, event, lists, a.repeat)
            if len(lists) > 1:
                lists["txt"] = txt
                same_output(xl, event, lists)
        if "show" in rows:
            store, fide_id = store_file(folder)
            runner.ENV["XL_FIDE_STORE"] = str(store)     # the children's environment
            paired("lists show ID", xl + ["lists", "show", str(fide_id)],
                   py + ["-c", SHOW, str(store), str(fide_id)], max(a.repeat, 7))
            print(f"{'':<28} xl-fide prints {len(run(xl + ['lists', 'show', str(fide_id)])[2].splitlines())} lines")
        if not a.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
