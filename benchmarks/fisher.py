"""Timings asked for by the Fisher issue.

* ``fltheory fisher --d 1000000 --lmax 4 --dps 50``: median wall time of the whole command
  (target < 0.5 s);
* the simulator at m = 4000 (sample W, build J, eigendecompose) against ``numpy.linalg.eigh``
  alone on the same matrix, in the same process (target <= 1.5×).
Usage: python benchmarks/fisher.py [--runs 5] [--m 4000] [--d 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import time

import numpy as np

from fltheory.sim import fisher as sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--m", type=int, default=4000)
    parser.add_argument("--d", type=int, default=5)
    args = parser.parse_args()
    script = os.path.join(sysconfig.get_path("scripts"), "fltheory")
    if not os.path.exists(script):
        sys.exit("fltheory is not installed (pip install .)")
    cmd = [script, "fisher", "--d", "1000000", "--lmax", "4", "--dps", "50"]
    walls = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
    print(f"fltheory fisher --d 1000000 --lmax 4 --dps 50: median {statistics.median(walls):.3f} s"
          f" over {args.runs} runs (target < 0.5 s)")
    sims, eighs = [], []
    for seed in range(max(2, args.runs // 2)):
        start = time.perf_counter()
        s = sim.sample(args.d, args.m, seed)
        sims.append(time.perf_counter() - start)
        J = sim.fisher_matrix(s.W)
        start = time.perf_counter()
        np.linalg.eigh(J)
        eighs.append(time.perf_counter() - start)
    ms, me = statistics.median(sims), statistics.median(eighs)
    print(f"simulator d = {args.d}, m = {args.m}: median {ms:.2f} s; numpy.linalg.eigh alone "
          f"{me:.2f} s; ratio {ms / me:.2f} (target <= 1.5)")


if __name__ == "__main__":
    main()
