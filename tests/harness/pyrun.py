"""Run a snippet of Python in a fresh interpreter with the repository importable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, timeout: float = 120) -> list[str]:
    """stdout lines of ``python -c code`` (asserting exit 0); a hang fails after
    ``timeout`` seconds instead of stopping the suite."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()
