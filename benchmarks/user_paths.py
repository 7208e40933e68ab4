"""What users run, timed against its floor in the same run (issue 23).

Not a test: run it by hand (see benchmarks/README.md)::

    pip install '.[bench]'                  # elochess, for the report's floor
    python benchmarks/user_paths.py [--repeat 3] [--only report,period]
    python benchmarks/user_paths.py --all   # every row of issue 23, lists and workbooks too

Every row runs two child processes, the command and its floor, alternately
``--repeat`` times after one untimed run of each, and compares the medians of their
CPU time (user + system of the child: less sensitive than wall time to other jobs on
the machine). ``ratio`` = xl-fide / floor (of the medians); ``paired`` = the median of
the ratios of the runs made one after the other (steadier on a loaded machine). The children may write and use bytecode
(``PYTHONDONTWRITEBYTECODE`` is dropped for them), as an installed package does. The
inputs are synthetic and seeded (not timed):

* ``help``: ``xl-fide --help`` against ``python -c pass``.
* ``report N x 11``: ``xl-fide report`` of a synthetic Swiss (``benchmarks/fill.py``'s
  :func:`synthetic_swiss`: random pairings, 10 % unrated, 1 % forfeits, a bye)
  written as a TRF, against a short elochess script on the same file: it reads the
  001 lines (rating, birth year, round cells), collects each rated player's played
  games against rated opponents, calls ``EloCalculator.update_rating`` once per
  player and prints the new ratings.
* ``linear``: ``report`` at 9,999 players over ``report`` at 2,000 (the work grows
  5.0 times).
* ``period 1,000 TRFs``: ``xl-fide period`` over 1,000 events of one month (10-30
  players, or ``--period-players 10-120`` as issue 35's check; 5/7/9 rounds, drawn
  from a pool of 18,000 players with FIDE ids, 8 % unrated) against its floor: a
  plain parse of the same files (fixed columns only) and :func:`xl_fide.rules.batch.rate_period_batch` on the games, with K by the
  rating and birth year (FIDE B.02 §8.3.3). The run checks that both give every rated
  player the same new rating.
* ``report 9999, stdlib floor`` and ``period, stdlib floor`` (issue 35's check uses
  plain-Python floors of its own, about 15-17 MB): the same commands against a script of
  the standard library alone (:data:`STDLIB_REPORT_SCRIPT`, :data:`STDLIB_PERIOD_SCRIPT`:
  the fixed columns read line by line, table 8.1.2 as a literal list, K by rating and
  birth year, K x n <= 700, one rounding); the period's gives every rated player the
  new rating xl-fide gives (checked). ``report 9999 --format json`` against the former.
* ``rate 10,000 games``: ``xl-fide rate GAMES.csv --rating 2000 --k 20`` (table) of a
  player's games CSV (:func:`games_csv`: 10,000 games in about 1,250 events of 5-11
  rounds from March 2024 to December 2026, one to nine days each, with the optional
  ``date``, ``opponent`` and ``time_control`` columns; opponents rated 1400-2600,
  6 % unrated (blank or ``unrated``), 1 % forfeits ``+``/``-``, results written
  ``1 ½ 0.5 = 0``) against its floor: a script a user could write with the ``csv``
  module (:data:`RATE_SCRIPT`): ``csv.DictReader``, table 8.1.2 as a plain dict of D
  (from :func:`xl_fide.rules.tables.pd_for_difference`, D capped at 400, FIDE B.02
  §8.3.1), ΣΔR per event, K capped over the period's games (§8.3.3), one rating change
  per event and the period's total rounded once (§8.3.4). The run checks that both give
  every event the same ΣΔR and the same new rating (xl-fide's ``--format csv``). A
  second line times the same command with ``--format json`` against the same floor.
* ``crosstable refused``: ``xl-fide crosstable`` of the 9,999-player file, refused for
  the workbook's 2,000-player limit, against ``python -c pass``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from xl_fide.trf import encode_trf  # noqa: E402
from xl_fide.tournament import Game, Tournament, TrfPlayer  # noqa: E402

from runner import ENV, paired, run, swiss_file, xl_fide_command  # noqa: E402,F401

PERIOD_YEAR = 2025

# The report's floor: a short script a user could write with elochess.
ELOCHESS_SCRIPT = r"""
import sys
from elochess.elo import EloCalculator
players = {}
for line in open(sys.argv[1], encoding="utf-8").read().splitlines():
    if line.startswith("001"):
        rating, born = line[48:52].strip(), line[69:73].strip()
        cells = [(int(line[i:i + 4]), line[i + 7:i + 8]) for i in range(91, len(line), 10)
                 if line[i:i + 4].strip() not in ("", "0000") and line[i + 7:i + 8] in ("1", "=", "0")]
        players[int(line[4:8])] = (int(rating) if rating else None, int(born) if born else 2000, cells)
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0}
update = EloCalculator.update_rating
out = []
for start_rank, (R, born, cells) in players.items():
    if R is None:
        continue
    games = [(players[opp][0], POINTS[code]) for opp, code in cells if players[opp][0] is not None]
    new = update(R, [r for r, _ in games], sum(s for _, s in games), birth_year=born,
                 evaluation_year=%d) if games else R
    out.append(f"{start_rank} {new}")
sys.stdout.write("\n".join(out) + "\n")
""" % PERIOD_YEAR

# The period's floor: the same files read by their fixed columns, the batch engine.
BATCH_SCRIPT = r"""
import datetime, sys
from xl_fide.rules.batch import rate_period_batch
from xl_fide.rules.editions import rules_for
index, ratings, born = {}, [], []
white, black, scores = [], [], []
HALF = {"1": 2, "=": 1, "0": 0}
for path in sys.argv[1:]:
    ranks, cells = {}, []
    for line in open(path, encoding="utf-8").read().splitlines():
        if not line.startswith("001"):
            continue
        fide_id = int(line[57:68])
        i = index.get(fide_id)
        if i is None:
            i = index[fide_id] = len(ratings)
            rating, year = line[48:52].strip(), line[69:73].strip()
            ratings.append(int(rating) if rating else None)
            born.append(int(year) if year else None)
        sr = int(line[4:8])
        ranks[sr] = i
        for c in range(91, len(line), 10):
            opp, code = line[c:c + 4].strip(), line[c + 7:c + 8]
            if opp not in ("", "0000") and code in HALF and int(opp) > sr:
                cells.append((sr, int(opp), HALF[code]))
    for a, b, s in cells:
        white.append(ranks[a]); black.append(ranks[b]); scores.append(s)
def k(R, year):      # FIDE B.02 8.3.3 from the rating and the birth year
    if R is None:
        return None
    if R >= 2400:
        return 10
    return 40 if year is not None and %d - year <= 18 and R < 2300 else 20
result = rate_period_batch(ratings, [k(R, y) for R, y in zip(ratings, born)], white, black,
                           scores, rules_for(datetime.date(%d, 11, 1)))
ids = list(index)
sys.stdout.write("\n".join(f"{ids[i]} {new}" for i, new in enumerate(result.new_rating)
                           if new is not None) + "\n")
""" % (PERIOD_YEAR, PERIOD_YEAR)


# The period's second floor, the Python standard library alone (issue 35's check measures
# against a plain-Python parse and rate of its own, about 15 MB): the same fixed columns,
# table 8.1.2 as a literal list (``%(PD)s`` filled in from
# :func:`xl_fide.rules.tables.pd_for_difference`, D from -800 to 800: beyond 735 PD is
# 0 or 100), each game counted for both players, D capped at 400 below 2650 (B.02
# §8.3.1, the 2024 rules), K by rating and birth year, K x n <= 700 and one rounding
# (§8.3.3-§8.3.4). No xl_fide import: what a user could write in a page of Python.
STDLIB_PERIOD_SCRIPT = r"""
import sys
PD = %(PD)s
index, ratings, born = {}, [], []
N, W, SPD = [], [], []
HALF = {"1": 2, "=": 1, "0": 0}
for path in sys.argv[1:]:
    ranks, cells = {}, []
    for line in open(path, encoding="utf-8"):
        if not line.startswith("001"):
            continue
        line = line.rstrip("\r\n")
        fide_id = int(line[57:68])
        i = index.get(fide_id)
        if i is None:
            i = index[fide_id] = len(ratings)
            rating, year = line[48:52].strip(), line[69:73].strip()
            ratings.append(int(rating) if rating and int(rating) >= 1400 else None)
            born.append(int(year) if year else None)
            N.append(0); W.append(0); SPD.append(0)
        sr = int(line[4:8])
        ranks[sr] = i
        for c in range(91, len(line), 10):
            opp, code = line[c:c + 4].strip(), line[c + 7:c + 8]
            if opp not in ("", "0000") and code in HALF and int(opp) > sr:
                cells.append((sr, int(opp), HALF[code]))
    for a, b, s in cells:
        a, b = ranks[a], ranks[b]
        Ra, Rb = ratings[a], ratings[b]
        if Ra is None or Rb is None:
            continue
        cap_a = 400 if Ra < 2650 else 800
        cap_b = 400 if Rb < 2650 else 800
        N[a] += 1; W[a] += s; SPD[a] += PD[800 + max(-cap_a, min(cap_a, Ra - Rb))]
        N[b] += 1; W[b] += 2 - s; SPD[b] += PD[800 + max(-cap_b, min(cap_b, Rb - Ra))]
out = []
for fide_id, i in index.items():
    R = ratings[i]
    if R is None:
        continue
    year = born[i]
    K = 10 if R >= 2400 else 40 if year is not None and %(YEAR)d - year <= 18 and R < 2300 else 20
    n = N[i]
    if K * n > 700:
        K = 700 // n
    change = K * (50 * W[i] - SPD[i])
    rounded = (abs(change) + 50) // 100 * (1 if change >= 0 else -1)
    out.append(f"{fide_id} {R + rounded}")
sys.stdout.write("\n".join(out) + "\n")
"""


# The report's second floor, the standard library alone (as STDLIB_PERIOD_SCRIPT): each
# rated player's played games against rated opponents, table 8.1.2 as a list, K by
# rating and birth year, K x n <= 700, the change rounded once.
STDLIB_REPORT_SCRIPT = r"""
import sys
PD = %(PD)s
HALF = {"1": 2, "=": 1, "0": 0}
players = {}
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("001"):
        line = line.rstrip("\r\n")
        rating, born = line[48:52].strip(), line[69:73].strip()
        cells = [i for i in range(91, len(line), 10)
                 if line[i:i + 4].strip() not in ("", "0000") and line[i + 7:i + 8] in HALF]
        players[int(line[4:8])] = (int(rating) if rating else None, int(born) if born else 2000,
                                   [int(line[i:i + 4]) for i in cells],
                                   [HALF[line[i + 7]] for i in cells])
out = []
for start_rank, (R, born, opps, scores) in players.items():
    if R is None:
        continue
    cap = 400 if R < 2650 else 800
    n = w = spd = 0
    for opp, s in zip(opps, scores):
        Ro = players[opp][0]
        if Ro is not None:
            n += 1; w += s; spd += PD[800 + max(-cap, min(cap, R - Ro))]
    K = 10 if R >= 2400 else 40 if %(YEAR)d - born <= 18 and R < 2300 else 20
    if n and K * n > 700:
        K = 700 // n
    change = K * (50 * w - spd)
    out.append(f"{start_rank} {R + (abs(change) + 50) // 100 * (1 if change >= 0 else -1)}")
sys.stdout.write("\n".join(out) + "\n")
"""


# The rate row's floor: a player's games CSV read with the csv module, table 8.1.2 as a
# plain dict, one rating change per event and the period's total rounded once.
RATE_SCRIPT = r"""
import csv, sys
from xl_fide.rules.tables import pd_for_difference
PD = {D: pd_for_difference(D) for D in range(-400, 401)}    # FIDE B.02 8.1.2, D capped at 400
HALF = {"1": 2, "\u00bd": 1, "0.5": 1, "=": 1, "0": 0}    # played games; + - are forfeits
Ro, K = int(sys.argv[2]), int(sys.argv[3])
events = {}
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        games = events.setdefault(row["event"], [])
        s, r = HALF.get(row["result"]), row["opponent_rating"]
        if s is not None and r.isdigit() and r != "0":
            games.append((int(r), s))
n = sum(len(games) for games in events.values())
K = 700 // n if K * n > 700 else K                          # K x n <= 700 (8.3.3)
total = 0
for name, games in events.items():
    sum_dr = sum(50 * s - PD[max(-400, min(400, Ro - r))] for r, s in games)
    total += K * sum_dr
    print(f"{name},{sum_dr},{K * sum_dr}")
rounded = (abs(total) + 50) // 100 * (1 if total >= 0 else -1)   # .5 away from zero (8.3.4)
print(f"period,{total},{rounded},{Ro + rounded}")
"""

RATE_RO, RATE_K = 2000, 20


def _stdlib(script: str) -> str:
    """A stdlib floor's text: table 8.1.2 (PD in hundredths for D from -800 to 800,
    :func:`xl_fide.rules.tables.pd_for_difference`) and the period's year filled in."""
    from xl_fide.rules.tables import pd_for_difference
    return script % {"PD": repr([pd_for_difference(D) for D in range(-800, 801)]),
                     "YEAR": PERIOD_YEAR}


def games_csv(folder: Path, games: int = 10_000, seed: int = 11) -> Path:
    """A player's games CSV: ``games`` games in events of 5-11 rounds, March 2024 to
    December 2026 (one to nine days each), opponents 1400-2600, 6 % unrated, 1 %
    forfeits; the optional date, opponent and time_control columns."""
    rng = random.Random(seed)
    cities = ("Madrid", "Lyon", "Porto", "Bern", "Graz", "Gent", "Brno", "Pula", "Cork")
    surnames = ("Garcia", "Martin", "Novak", "Rossi", "Keller", "Dubois", "Silva", "Horvat",
                "Jansen", "Nowak", "Moreau", "Costa", "Weber", "Ivanov", "Popescu", "Olsen")
    first = ("Ana", "Luis", "Marta", "Jan", "Eva", "Paolo", "Ines", "Tomas", "Lea", "Igor")
    path = folder / f"games_{games}.csv"
    day0, span = _dt.date(2024, 3, 1), (_dt.date(2026, 12, 20) - _dt.date(2024, 3, 1)).days
    lines = ["event,event_start,event_end,date,opponent,opponent_rating,result,time_control"]
    e = 0
    while len(lines) <= games:
        e += 1
        rounds = min(rng.choice((5, 7, 9, 11)), games + 1 - len(lines))
        start = day0 + _dt.timedelta(days=rng.randrange(span))
        days = rng.randint(1, 9)
        end = start + _dt.timedelta(days=days - 1)
        name = f"{rng.choice(cities)} Open {start.year} #{e}"
        for rnd in range(rounds):
            day = start + _dt.timedelta(days=rnd * days // rounds)
            x = rng.random()
            rating = ("" if x < .04 else "unrated" if x < .06
                      else str(rng.randint(1400, 2600)))
            y = rng.random()
            result = ("+" if y < .005 else "-" if y < .01 else
                      rng.choice(("1", "1", "1", "½", "0.5", "=", "0", "0", "0")))
            opp = f"{rng.choice(surnames)}, {rng.choice(first)}"
            lines.append(f"{name},{start.isoformat()},{end.isoformat()},{day.isoformat()},"
                         f"\"{opp}\",{rating},{result},standard")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def check_rate(ours_csv: str, floor: str) -> str:
    """Whether both give every event the same ΣΔR and the same new rating (not timed)."""
    import csv
    import io
    rows = list(csv.reader(io.StringIO(ours_csv)))[1:]
    mine = {r[0]: str(round(float(r[7]) * 100)) for r in rows if r[0] != "period"}
    new = rows[-1][10]
    theirs = [line.split(",") for line in floor.splitlines()]
    same = sum(1 for name, sdr, _ in theirs[:-1] if mine.get(name) == sdr)
    return (f"same sum_delta_R for {same} of {len(mine)} events (floor: {len(theirs) - 1}); "
            f"new rating {new} (floor: {theirs[-1][3]})")


def period_files(folder: Path, events: int = 1000, pool: int = 18_000, seed: int = 7,
                 sizes: tuple[int, int] = (10, 30)) -> list[Path]:
    """``events`` TRFs of November 2025 whose players come from one pool (FIDE ids),
    ``sizes`` the least and most players of an event."""
    rng = random.Random(seed)
    rating = [None if rng.random() < 0.08 else rng.randint(1400, 2750) for _ in range(pool)]
    born = [rng.randint(1950, 2016) for _ in range(pool)]
    paths = []
    for e in range(events):
        n = rng.randint(*sizes)
        ids = rng.sample(range(pool), n)
        rounds = rng.choice((5, 7, 9))
        games: dict[int, list[Game]] = {i: [] for i in range(1, n + 1)}
        for rnd in range(1, rounds + 1):
            order = list(range(1, n + 1))
            rng.shuffle(order)
            if len(order) % 2:
                games[order.pop()].append(Game(rnd, None, None, "U"))
            for a, b in zip(order[::2], order[1::2]):
                x = rng.random()
                ca, cb = (("+", "-") if x < .01 else ("=", "=") if x < .3
                          else ("1", "0") if x < .65 else ("0", "1"))
                games[a].append(Game(rnd, b, "w", ca))
                games[b].append(Game(rnd, a, "b", cb))
        day = 1 + e % 20
        players = [TrfPlayer(start_rank=i, name=f"Pool Player {ids[i - 1]:05d}",
                             rating=rating[ids[i - 1]], federation="ESP",
                             fide_id=5_000_000 + ids[i - 1], birth_year=born[ids[i - 1]],
                             games=tuple(games[i])) for i in range(1, n + 1)]
        t = Tournament.build(name=f"Event {e:04d}", players=players, rounds=rounds, city="X",
                             start_date=_dt.date(PERIOD_YEAR, 11, day),
                             end_date=_dt.date(PERIOD_YEAR, 11, day + 2),
                             time_control="90 min + 30 s")
        path = folder / f"event{e:04d}.trf"
        path.write_bytes(encode_trf(t))
        paths.append(path)
    return paths


def check_period(ours: str, floor: str) -> str:
    """Whether every rated player has the same new rating from both (not timed)."""
    theirs = dict(line.split() for line in floor.splitlines() if line.strip())
    mine, current = {}, None
    for line in ours.splitlines():
        head = re.match(r"\S.* \((\d+)\): Ro \d+", line)
        if head:
            current = head.group(1)
        total = re.search(r"new rating (\d+)", line)
        if total and current is not None:
            mine[current] = total.group(1)
            current = None
    same = sum(1 for key, value in mine.items() if theirs.get(key) == value)
    return f"same new rating for {same} of {len(mine)} rated players (floor: {len(theirs)})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="help,report,period,rate,crosstable",
                    help="comma-separated rows: help, report, period, rate, crosstable")
    ap.add_argument("--period-players", default="10-30", metavar="LOW-HIGH",
                    help="players of each period event (issue 35's check: 10-120)")
    ap.add_argument("--all", action="store_true",
                    help="every row of issue 23 in one run: these, then the FIDE-list rows "
                         "(user_paths_lists.py) and the workbook rows (user_paths_excel.py)")
    a = ap.parse_args(argv)
    rows = set(a.only.split(","))
    xl = xl_fide_command()
    py = [sys.executable]
    try:
        import elochess  # noqa: F401
    except ImportError:
        sys.exit("elochess is not installed: pip install '.[bench]' (or pip install elochess)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"{len(os.sched_getaffinity(0))} CPUs, load {os.getloadavg()[0]:.1f}, "
              f"Python {sys.version.split()[0]}; median CPU seconds of {a.repeat} paired runs")
        if "help" in rows:
            paired("--help", xl + ["--help"], py + ["-c", "pass"], max(a.repeat, 7))
        big = swiss_file(folder, 9999) if rows & {"report", "crosstable"} else None
        if "report" in rows:
            elo = folder / "elochess_floor.py"
            elo.write_text(ELOCHESS_SCRIPT, encoding="utf-8")
            plain = folder / "stdlib_report_floor.py"
            plain.write_text(_stdlib(STDLIB_REPORT_SCRIPT), encoding="utf-8")
            times = {}
            for n in (500, 2000, 9999):
                path = big if n == 9999 else swiss_file(folder, n)
                times[n] = paired(f"report {n} x 11", xl + ["report", str(path)],
                                  py + [str(elo), str(path)], a.repeat)
            paired("report 9999, stdlib floor", xl + ["report", str(big)],
                   py + [str(plain), str(big)], a.repeat)
            paired("report 9999 --format json", xl + ["report", str(big), "--format", "json"],
                   py + [str(plain), str(big)], a.repeat)
            print(f"{'linear':<28} report 9999 / report 2000 = "
                  f"{times[9999][0] / times[2000][0]:.2f} (the work: 5.0; floor "
                  f"{times[9999][1] / times[2000][1]:.2f})")
        if "period" in rows:
            low, high = map(int, a.period_players.split("-"))
            files = [str(p) for p in period_files(folder, sizes=(low, high))]
            batch = folder / "batch_floor.py"
            batch.write_text(BATCH_SCRIPT, encoding="utf-8")
            env_py = py + [str(batch)]
            paired("period 1,000 TRFs", xl + ["period", *files], env_py + files, a.repeat)
            plain = folder / "stdlib_period_floor.py"
            plain.write_text(_stdlib(STDLIB_PERIOD_SCRIPT), encoding="utf-8")
            paired("period, stdlib floor", xl + ["period", *files], py + [str(plain)] + files,
                   a.repeat)
            print(f"{'':<28} stdlib floor: {check_period(run(xl + ['period', *files])[2], run(py + [str(plain)] + files)[2])}")
            print(f"{'':<28} {check_period(run(xl + ['period', *files])[2], run(env_py + files)[2])}")
        if "rate" in rows:
            csv_path = games_csv(folder)
            floor_script = folder / "rate_floor.py"
            floor_script.write_text(RATE_SCRIPT, encoding="utf-8")
            player = ["--rating", str(RATE_RO), "--k", str(RATE_K)]
            floor_cmd = py + [str(floor_script), str(csv_path), str(RATE_RO), str(RATE_K)]
            paired("rate 10,000 games", xl + ["rate", str(csv_path), *player], floor_cmd,
                   a.repeat)
            paired("rate 10,000 games, JSON", xl + ["rate", str(csv_path), *player, "--format",
                                                    "json"], floor_cmd, a.repeat)
            ours = run(xl + ["rate", str(csv_path), *player, "--format", "csv"])[2]
            print(f"{'':<28} {check_rate(ours, run(floor_cmd)[2])}")
        if "crosstable" in rows:
            out = folder / "refused.xlsx"
            paired("crosstable 9999 (refused)", xl + ["crosstable", str(big), "-o", str(out)],
                   py + ["-c", "pass"], a.repeat)
        shutil.rmtree(folder, ignore_errors=True)
    if a.all:
        import user_paths_excel
        import user_paths_lists
        user_paths_lists.main(["--repeat", str(a.repeat), "--only", "report,show,zip"])
        user_paths_excel.main(["--repeat", str(a.repeat)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
