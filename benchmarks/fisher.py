"""Timings asked for by the Fisher issue.

* ``fltheory fisher --d 1000000 --lmax 4 --dps 50``: median wall time of the whole command
  (target < 0.5 s);
* the simulator at m = 4000 (sample W, build J, eigendecompose) against ``numpy.linalg.eigh``
  alone on the same matrix, in the same process (target <= 1.5×).
Usage: python benchmarks/fisher.py [--runs 5] [--m 4000] [--d 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _common import console_script, median_wall

from fltheory.papers.fisher import sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--m", type=int, default=4000)
    parser.add_argument("--d", type=int, default=5)
    args = parser.parse_args()
    cmd = [console_script(), "fisher", "--d", "1000000", "--lmax", "4", "--dps", "50"]
    wall = median_wall(cmd, args.runs)
    print(f"fltheory fisher --d 1000000 --lmax 4 --dps 50: median {wall:.3f} s"
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
