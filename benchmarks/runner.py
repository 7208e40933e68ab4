"""What the user-path benchmarks share: how a child process is timed (CPU seconds of
whole processes), how two commands are paired, the xl-fide command, the synthetic Swiss
file. ``user_paths.py``, ``user_paths_lists.py`` and ``user_paths_excel.py`` import it;
it imports none of them."""

from __future__ import annotations

import os
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


class Run(tuple):
    """One child's CPU seconds, wall seconds, stdout and peak resident memory (MB).
    Indexes 0-2 are what ``run`` has always returned; ``peak_mb`` is the fourth."""

    @property
    def peak_mb(self) -> float:
        return self[3]


# The command is started by a small launcher that reports its CPU time and peak memory.
# Linux carries the peak resident memory (ru_maxrss) of a process over an exec from the
# memory it replaces: a child this (large) process starts directly would report at least
# this process's size (a 150 MB parent made ``python -c pass`` show 165 MB). The launcher
# is a fresh small process; the command it forks starts from the launcher's size (a bare
# Python's, about what ``python -c pass`` uses itself).
_LAUNCHER = r"""
import os, sys
fd = int(sys.argv[1])
pid = os.fork()
if pid == 0:
    os.close(fd)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, _, usage = os.wait4(pid, 0)
os.write(fd, f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}".encode())
"""


def run(cmd: list[str]) -> Run:
    """CPU seconds (user + system), wall seconds, stdout and peak memory (``ru_maxrss``)
    of one child process running ``cmd`` (measured by :data:`_LAUNCHER`, which is not
    counted)."""
    read_end, write_end = os.pipe()
    t0 = time.perf_counter()
    try:
        with subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(write_end), *cmd],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV,
                              pass_fds=(write_end,)) as p:
            os.close(write_end)
            out = p.stdout.read() if p.stdout else b""
            p.wait()
        wall = time.perf_counter() - t0
        with os.fdopen(read_end, "rb") as f:
            cpu_text, maxrss_text = f.read().decode().split()
    except BaseException:
        for fd in (read_end, write_end):
            try:
                os.close(fd)
            except OSError:
                pass
        raise
    return Run((float(cpu_text), wall, out.decode("utf-8"), int(maxrss_text) / 1024))


def paired(name: str, cmd: list[str], floor: list[str], repeat: int) -> tuple[float, float]:
    """Run ``floor`` and ``cmd`` alternately; print and return their median CPU times,
    and print their median peak memory. One untimed run of each first (bytecode written,
    files in the page cache)."""
    run(floor)
    run(cmd)
    ours, theirs = [], []
    for _ in range(repeat):
        theirs.append(run(floor))
        ours.append(run(cmd))
    a, b = statistics.median(r[0] for r in ours), statistics.median(r[0] for r in theirs)
    pa, pb = (statistics.median(r.peak_mb for r in rs) for rs in (ours, theirs))
    pairs = statistics.median(x[0] / y[0] for x, y in zip(ours, theirs))
    print(f"{name:<28} xl-fide {a:7.3f} s   floor {b:7.3f} s   ratio {a / b:5.2f}   "
          f"paired {pairs:5.2f}   peak {pa:6.1f} / {pb:6.1f} MB = {pa / pb:5.2f}   "
          f"(runs: {' '.join(f'{r[0]:.2f}' for r in ours)} / "
          f"{' '.join(f'{r[0]:.2f}' for r in theirs)})", flush=True)
    return a, b


def xl_fide_command() -> list[str]:
    script = Path(sys.executable).with_name("xl-fide")
    return [str(script)] if script.exists() else [sys.executable, "-m", "xl_fide"]
