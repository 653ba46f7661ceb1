"""Helpers shared by the benchmark scripts."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import sysconfig
import time


def console_script() -> str:
    """The installed ``fltheory`` script next to this interpreter (not a pyenv shim, which adds
    a start-up of its own); exits with a message when fltheory is not installed."""
    script = os.path.join(sysconfig.get_path("scripts"), "fltheory")
    if not os.path.exists(script):
        sys.exit("fltheory is not installed (pip install .)")
    return script


def median_wall(cmd: list[str], runs: int) -> float:
    """Median wall time of a command over ``runs`` runs (output discarded)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)
