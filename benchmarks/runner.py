"""What the user-path benchmarks share: how a child process is timed (CPU seconds of
whole processes), how two commands are paired, the xl-fide command, the synthetic Swiss
file. ``user_paths.py``, ``user_paths_lists.py`` and ``user_paths_excel.py`` import it;
it imports none of them."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for folder in (str(ROOT), str(HERE)):
    if folder not in sys.path:
        sys.path.insert(0, folder)

from xl_fide.trf import encode_trf  # noqa: E402


def swiss_file(folder: Path, players: int, rounds: int = 11) -> Path:
    from tests.harness.synthetic import synthetic_swiss
    path = folder / f"swiss_{players}x{rounds}.trf"
    path.write_bytes(encode_trf(synthetic_swiss(players, rounds)))
    return path


#: The children may write and use compiled bytecode, as an installed package does.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str]) -> tuple[float, float, str]:
    """CPU seconds (user + system) and wall seconds of one child process, its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", env=ENV)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def paired(name: str, cmd: list[str], floor: list[str], repeat: int) -> tuple[float, float]:
    """Run ``floor`` and ``cmd`` alternately; print and return their median CPU times.
    One untimed run of each first (bytecode written, files in the page cache)."""
    run(floor)
    run(cmd)
    ours, theirs = [], []
    for _ in range(repeat):
        theirs.append(run(floor)[0])
        ours.append(run(cmd)[0])
    a, b = statistics.median(ours), statistics.median(theirs)
    pairs = statistics.median(x / y for x, y in zip(ours, theirs))
    print(f"{name:<28} xl-fide {a:7.3f} s   floor {b:7.3f} s   ratio {a / b:5.2f}   "
          f"paired {pairs:5.2f}   (runs: {' '.join(f'{t:.2f}' for t in ours)} / "
          f"{' '.join(f'{t:.2f}' for t in theirs)})", flush=True)
    return a, b


def xl_fide_command() -> list[str]:
    script = Path(sys.executable).with_name("xl-fide")
    return [str(script)] if script.exists() else [sys.executable, "-m", "xl_fide"]
