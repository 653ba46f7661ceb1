"""Timing asked for by the two-step issues.

1. One simulation at N = n = d = 2000 (reused batch, with the three Taylor terms of
   σ = (h1+h2+h3)/√3) against the matrix products it must do, measured alone in the same process
   (target <= 1.5×), and the peak memory.
2. ``--learn``: ``fltheory twostep learn --target He1 --target He3 --batch reused`` for σ = gelu,
   softplus, tanh(z+1/2) (issue 24: target <= 3 s each), each a whole process: wall and CPU
   seconds (median of ``--runs``), with an empty results store (cold) and again with the store
   the cold run filled (warm: the moments, the σ' check and the targets' exponents are reused).
   ``--tree PATH`` times another source tree (e.g. the code before the change) the same way.

Measured (issue 24; 2 cores shared with other jobs, load average 2–6; seconds wall / CPU of
the whole process; before: 1 run each, after: medians of 3; the lead re-measures):

    twostep learn --target He1 --target He3 --batch reused   before (8bf2823)   after: cold / warm
    α = (9/20, 9/20), Λ = 9   gelu          41.3 / 31.8        2.35 / 2.35   1.14 / 1.14
                              softplus      61.5 / 39.2        1.88 / 1.88   1.19 / 1.19
                              tanh(z+1/2)   61.9 / 35.8        2.83 / 2.83   1.39 / 1.39
    α = (2/5, 7/20), Λ = 3    gelu           9.7 / 9.3         1.58 / 1.58   0.80 / 0.80
                              softplus       4.7 / 4.7         1.40 / 1.39   0.90 / 0.90
                              tanh(z+1/2)    5.5 / 5.5         2.06 / 2.06   1.02 / 1.02
    lambda --a1 .4 --a2 .3 --sigma gelu --batch reused: 3.47 / 3.13 before, 1.35 / 1.25 after.
    twostep learn, tanh(z+1/2), Λ = 9, --dps 15 / 50 / 100: 2.1 / 2.9 / 7.9 s (a progress line
    on a terminal past the first pass).

What the cold time is made of (profile, tanh(z+1/2), Λ = 9): the M_{k,p} table (Taylor jets on
~1200 nodes at dps + 10, ~600 at dps + 20) ≈ 1 s, the Hermite engine's exponents of the
targets ≈ 0.7 s and the square-integrability check of σ' ≈ 0.5 s (both outside this module,
cached in the run store), imports ≈ 0.5 s.

Usage: python benchmarks/twostep.py [--N 2000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LEARN_SIGMAS = ("gelu", "softplus", "tanh(z+1/2)")
LEARN_ALPHAS = (("9/20", "9/20"), ("2/5", "7/20"))


def _timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU of the child) seconds of one whole process, run in ``cwd`` (``python -c``
    puts the working directory first on sys.path: it must be the tree being timed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def learn_timings(tree: Path, runs: int) -> None:
    """Cold and warm ``twostep learn`` per σ and α, medians of ``runs`` processes."""
    env = dict(os.environ, PYTHONPATH=str(tree), OPENBLAS_NUM_THREADS="1")
    print(f"twostep learn --target He1 --target He3 --batch reused (tree {tree}; "
          f"medians of {runs}; seconds wall / CPU)")
    for a1, a2 in LEARN_ALPHAS:
        for sigma in LEARN_SIGMAS:
            cmd = [sys.executable, "-c", "from fltheory.cli import main; main()", "twostep",
                   "learn", "--sigma", sigma,
                   "--target", "He1", "--target", "He3", "--a1", a1, "--a2", a2,
                   "--batch", "reused"]
            cold, warm = [], []
            for _ in range(runs):
                with tempfile.TemporaryDirectory() as tmp:
                    env["FLTHEORY_CACHE"] = str(Path(tmp) / "runs.sqlite")
                    cold.append(_timed(cmd, env, tree))
                    warm.append(_timed(cmd, env, tree))
            cw, cc = (statistics.median(x) for x in zip(*cold, strict=True))
            ww, wc = (statistics.median(x) for x in zip(*warm, strict=True))
            print(f"  α = ({a1}, {a2})  {sigma:12} cold {cw:6.2f} / {cc:6.2f}   "
                  f"warm {ww:6.2f} / {wc:6.2f}   (target <= 3 s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--N", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--learn", action="store_true",
                        help="time twostep learn (issue 24) instead of the simulation")
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="source tree to time with --learn (default: this one)")
    args = parser.parse_args()
    if args.learn:
        learn_timings(args.tree, args.runs)
        return
    import numpy as np

    from fltheory.papers.twostep import sim

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
