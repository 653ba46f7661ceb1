"""Timing asked for by the two-step issue: one simulation at N = n = d = 2000 (reused batch,
with the three Taylor terms of σ = (h1+h2+h3)/√3) against the matrix products it must do,
measured alone in the same process (target <= 1.5×), and the peak memory.

The products: Z0 = W0 X1ᵀ, G0 = M X1, G0 X2ᵀ, the step-2 gradient M X2, and one M_k X2 per term
(k = 0, 1, 2): seven N×n×d products (W1 X2ᵀ is Z0 + η1 G0 X2ᵀ, not a new product).
Usage: python benchmarks/twostep.py [--N 2000] [--runs 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np

from fltheory.sim import twostep as sim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--N", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    N = args.N
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((N, N)), rng.standard_normal((N, N))
    floor, whole = [], []
    for seed in range(args.runs):
        start = time.perf_counter()
        for _ in range(7):
            A @ B
        floor.append(time.perf_counter() - start)
        start = time.perf_counter()
        sim.simulate(N, N, N, 0.4, 0.3, sim.SIGMAS["h1+h2+h3"],
                     [sim.TARGETS["He1"], sim.TARGETS["bounded3"]], seed=seed, batch="reused")
        whole.append(time.perf_counter() - start)
    mf, mw = statistics.median(floor), statistics.median(whole)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"7 products {N}×{N}×{N} alone: median {mf:.2f} s")
    print(f"simulation N = n = d = {N} (reused, 3 terms): median {mw:.2f} s; ratio {mw / mf:.2f} "
          f"(target <= 1.5)")
    print(f"peak resident memory of this process: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
