"""Timings asked for by issue #35 (kernel spectra and learning curves), whole process against
whole process (each command a fresh interpreter: start-up, imports, work, output):

1. ``fltheory kernel spectrum --activation relu --kind ntk --d 1000000 --kmax 200 --dps 30``
   (target <= 2 s);
2. a learning curve of 100 values of n on the exact spectrum, ``fltheory kernel curve
   --activation relu --kind ntk --d 10 --n 100..100000:100 --target-degree 2`` (target <= 2 s);
3. the peers' method, a plain numpy Gauss–Gegenbauer quadrature (benchmarks/
   kernel_quadrature_peer.py, 1000 nodes as in eigenlearning), against ``fltheory kernel
   spectrum --dps 16`` for the ReLU NTK at d = 3, 10, 100, 1000, degrees 0 … 50: wall time and
   the digits each gets right, against fltheory's exact values at 40 digits (computed apart,
   not timed). Target: fltheory at least as fast and at least as accurate.

Usage: OPENBLAS_NUM_THREADS=1 python benchmarks/kernel.py [--runs 3] [--python]
(``--python``: run ``python -m fltheory`` of this checkout instead of the installed script).
Print ``uptime`` beside the figures: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _wall(cmd: list[str], runs: int) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        out = proc.stdout
    return statistics.median(times), out


def _digits(got: float, exact: float, scale: float) -> float:
    """Correct significant digits of ``got`` (relative to |exact|; an exact zero against
    16 − log10 of the error relative to ``scale``, i.e. full marks for a float64 rounding
    zero)."""
    if exact == 0:
        err = abs(got) / scale
        return 16.0 if err < 1e-15 else max(0.0, -math.log10(err)) if err else 16.0
    err = abs(got - exact) / abs(exact)
    return 16.0 if err == 0 else max(0.0, min(16.0, -math.log10(err)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--python", action="store_true")
    args = ap.parse_args()
    fl = [sys.executable, "-m", "fltheory"] if args.python else ["fltheory"]
    env_note = os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    print(f"OPENBLAS_NUM_THREADS={env_note}; uptime: "
          + subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())

    cmd = [*fl, "kernel", "spectrum", "--activation", "relu", "--kind", "ntk", "--d",
                "1000000", "--kmax", "200", "--dps", "30", "--format", "json"]
    t, out = _wall(cmd, args.runs)
    levels = json.loads(out)["details"]["levels"]
    print(f"1. ReLU NTK d = 10^6, k = 0 … 200, 30 digits: {t:.2f} s (target <= 2 s); "
          f"μ_200 = {levels[200]['numeric']} ({levels[200]['digits']} digits)")

    cmd = [*fl, "kernel", "curve", "--activation", "relu", "--kind", "ntk", "--d", "10", "--n",
                "100..100000:100", "--target-degree", "2", "--format", "json"]
    t, out = _wall(cmd, args.runs)
    count = len(json.loads(out)["details"]["curve"])
    print(f"2. learning curve, {count} values of n (ReLU NTK, d = 10): {t:.2f} s "
          f"(target <= 2 s)")

    from fltheory.papers.kernel.params import KernelSpec, Levels
    from fltheory.papers.kernel.theory import spectrum

    print("3. ReLU NTK, degrees 0 … 50: peer (numpy Gauss–Gegenbauer, 1000 nodes) against "
          "fltheory --dps 16, whole process each")
    print(f"   {'d':>5}  {'peer s':>7}  {'peer digits (min/median)':>25}  {'fltheory s':>10}  "
          f"{'fltheory digits (min)':>22}")
    for d in (3, 10, 100, 1000):
        exact = [float(lev.value) for lev in spectrum(KernelSpec(activation="relu",
                                                                 kind="ntk"),
                                                      Levels(d, 50, 40)).levels]
        scale = exact[0]
        tp, out = _wall([sys.executable, str(HERE / "kernel_quadrature_peer.py"), "--d",
                         str(d), "--kmax", "50", "--nodes", "1000"], args.runs)
        peer = [float(v) for v in out.split()]
        pd = [_digits(g, e, scale) for g, e in zip(peer, exact, strict=True)]
        tf, out = _wall([*fl, "kernel", "spectrum", "--activation", "relu", "--kind", "ntk",
                              "--d", str(d), "--kmax", "50", "--dps", "16", "--format",
                              "json"], args.runs)
        ours = [float(lev["numeric"]) for lev in json.loads(out)["details"]["levels"]]
        fd = [_digits(g, e, scale) for g, e in zip(ours, exact, strict=True)]
        print(f"   {d:>5}  {tp:>7.2f}  {min(pd):>11.1f} / {statistics.median(pd):>11.1f}  "
              f"{tf:>10.2f}  {min(fd):>22.1f}", flush=True)


if __name__ == "__main__":
    main()
