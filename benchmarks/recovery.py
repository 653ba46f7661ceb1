"""Timings asked for by the sequential-recovery issue.

* the spectral-algorithm simulator at d = 40 (D = 820), n = 10^5 (both feature modes) against
  its dominant matrix products alone — the chunked GEMMs Σ_c Φ_cᵀ(T_c Φ_c) on one pre-drawn
  chunk of the same shape, same process (target <= 1.5×); peak resident memory of the run;
* ``fltheory threshold --d 1000000 --q 4 --k 1..1000 --dps 50``: median wall time;
* issue 24: ``fltheory recovery --d 100 --n 1e6 --gamma 3 --d1 D1`` for d1 = 8, 16, 32 (target
  <= 10 s at d1 = 16; before: refused at once, Ruben's series estimated at 9.36e10
  multiply-adds for d1 = 16), and the label law built by each method where both run
  (d1 = 8, γ = 5/2), same process.
Usage: python benchmarks/recovery.py [--runs 3] [--d 40] [--n 100000] [--only-chi2]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np
from _common import console_script, median_wall

from fltheory.papers.recovery import sim


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
    parser.add_argument("--only-chi2", action="store_true",
                        help="only the issue-24 figures (generalised χ² methods)")
    args = parser.parse_args()
    if not args.only_chi2:
        simulator(args)
    chi2(args.runs)


def chi2(runs: int) -> None:
    """Issue 24: γ = 3 by Fourier inversion, and the two methods side by side."""
    from fractions import Fraction

    from fltheory.papers.recovery.luli import fourier_work, ruben_work
    from fltheory.papers.recovery.theory import RecoveryModel

    for d1 in (8, 16, 32):
        lam = np.arange(1, d1 + 1.0) ** -3.0
        cmd = [console_script(), "recovery", "--d", "100", "--n", "1e6", "--gamma", "3",
               "--d1", str(d1)]
        wall = median_wall(cmd, max(runs, 3))
        print(f"fltheory recovery --d 100 --n 1e6 --gamma 3 --d1 {d1}: median {wall:.2f} s "
              f"(Fourier work {fourier_work(lam):.3g} law-points; Ruben's series would need "
              f"{ruben_work(lam):.3g} multiply-adds: refused before issue 24)"
              + ("; target <= 10 s" if d1 == 16 else ""))
    lam = np.arange(1, 9.0) ** -2.5
    for method in ("ruben", "fourier"):
        times = []
        for _ in range(max(runs, 3)):
            start = time.perf_counter()
            RecoveryModel(lam, "rank", method=method)
            times.append(time.perf_counter() - start)
        print(f"label law d1 = 8, γ = 5/2 by {method}: median {statistics.median(times):.2f} s")
    m = RecoveryModel.power_law(8, Fraction(5, 2))
    print(f"  (the automatic choice there: {m.method})")


def simulator(args: argparse.Namespace) -> None:
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
