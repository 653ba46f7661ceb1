"""Timings asked for by the sequential-recovery issue.

* the spectral-algorithm simulator at d = 40 (D = 820), n = 10^5 (both feature modes) against
  its dominant matrix products alone — the chunked GEMMs Σ_c Φ_cᵀ(T_c Φ_c) on one pre-drawn
  chunk of the same shape, same process (target <= 1.5×); peak resident memory of the run;
* ``fltheory threshold --d 1000000 --q 4 --k 1..1000 --dps 50``: median wall time.
Usage: python benchmarks/recovery.py [--runs 3] [--d 40] [--n 100000]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np
from _common import console_script, median_wall

from fltheory.sim import recovery as sim


def gemms_alone(n: int, D: int, chunk: int) -> float:
    rng = np.random.default_rng(0)
    phi = rng.standard_normal((chunk, D))
    T = rng.uniform(-1, 1, chunk)
    C = np.zeros((D, D))
    start = time.perf_counter()
    done = 0
    while done < n:
        m = min(chunk, n - done)
        C += phi[:m].T @ (phi[:m] * T[:m, None])
        done += m
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--d", type=int, default=40)
    parser.add_argument("--n", type=int, default=100_000)
    args = parser.parse_args()
    D = sim.feature_dim(args.d, 2)
    base = statistics.median(gemms_alone(args.n, D, 8192) for _ in range(args.runs))
    print(f"GEMMs alone (n = {args.n}, D = {D}): median {base:.2f} s")
    for mode in sim.FEATURES:
        times = []
        for seed in range(args.runs):
            start = time.perf_counter()
            sim.run(args.d, args.n, seed, features=mode, n_fit=args.n, n_test=20000)
            times.append(time.perf_counter() - start)
        t = statistics.median(times)
        print(f"simulator, {mode} features: median {t:.2f} s; ratio {t / base:.2f} "
              f"(target <= 1.5)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak:.0f} MiB "
          f"(n × D float64 would be {args.n * D * 8 / 2**20:.0f} MiB)")
    cmd = [console_script(), "threshold", "--d", "1000000", "--q", "4", "--k", "1..1000",
           "--dps", "50"]
    wall = median_wall(cmd, max(args.runs, 3))
    print(f"fltheory threshold --d 1000000 --q 4 --k 1..1000 --dps 50: median {wall:.3f} s")


if __name__ == "__main__":
    main()
