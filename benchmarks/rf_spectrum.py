"""Timings asked for by issue #15 (random-feature spectrum for any activation).

* the simulator at m = 4000 (:func:`fltheory.papers.rf_spectrum.sim.sample`: draw W, build J = K/m
  exactly or by the Mehler series, eigendecompose) against ``numpy.linalg.eigh`` alone on the
  same matrix, in the same process (target <= 1.5×), for each activation asked;
* with ``--cli``, the whole command ``fltheory fisher --sigma tanh --d 1000000 --lmax 4
  --dps 30`` (median wall time; runs the installed script, i.e. the checkout it was installed
  from — pass ``--python`` to run ``python -m fltheory`` of this checkout instead).
* with ``--small-d``, issue 24: ``fltheory fisher --sigma tanh --d D [--dps P]`` for D = 3, 5,
  10 (median wall time, the fewest digits any level is confirmed to and the Gram route taken;
  targets: --dps 12 <= 2 s and --dps 30 <= 60 s at d = 3), after the start-up alone.
Usage: OPENBLAS_NUM_THREADS=1 python benchmarks/rf_spectrum.py [--m 4000] [--d 5]
       [--sigma relu erf tanh quadratic] [--runs 1] [--cli] [--python] [--small-d]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

from fltheory.papers.rf_spectrum import sim as rf


def _simulator(sigma: str, d: int, m: int, runs: int) -> None:
    sims, builds, eighs, bounds = [], [], [], []
    for seed in range(runs):
        start = time.process_time()
        s = rf.sample(sigma, d, m, seed)
        sims.append(time.process_time() - start)
        W = rf.draw_weights(d, m, seed)
        start = time.process_time()
        J = rf.kernel_matrix(sigma, W).K / m
        builds.append(time.process_time() - start)
        start = time.process_time()
        np.linalg.eigh(J)
        eighs.append(time.process_time() - start)
        bounds.append(s.bound)
    sim, eig = statistics.median(sims), statistics.median(eighs)
    print(f"{sigma:>9} d = {d}, m = {m}: simulator {sim:.2f} s CPU (J alone "
          f"{statistics.median(builds):.2f} s, bound {max(bounds):.1e}), eigh alone {eig:.2f} s"
          f" -> ratio {sim / eig:.2f} (target <= 1.5)", flush=True)


def _cli(runs: int, python: bool) -> None:
    cmd = ([sys.executable, "-m", "fltheory"] if python else ["fltheory"]) + [
        "fisher", "--sigma", "tanh", "--d", "1000000", "--lmax", "4", "--dps", "30"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    print(f"{' '.join(cmd[-9:])}: median {statistics.median(times):.2f} s wall over {runs} runs")


def _small_d(runs: int) -> None:
    import json

    # the start-up every fisher --sigma run pays (interpreter, CLI, sympy, scipy.special)
    cmd = [sys.executable, "-c", "import fltheory.cli, sympy, scipy.special"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True)
        times.append(time.perf_counter() - start)
    print(f"start-up (import fltheory.cli, sympy, scipy.special): median "
          f"{statistics.median(times):.2f} s wall", flush=True)
    for d in (3, 5, 10):
        for dps in (None, 8, 12, 30):
            cmd = [sys.executable, "-m", "fltheory", "fisher", "--sigma", "tanh", "--d", str(d),
                   "--format", "json"] + ([] if dps is None else ["--dps", str(dps)])
            times, out = [], None
            for _ in range(runs):
                start = time.perf_counter()
                out = subprocess.run(cmd, capture_output=True, text=True, check=False)
                times.append(time.perf_counter() - start)
            assert out is not None
            if out.returncode:
                shown = out.stderr.strip().splitlines()[-1][:90]
            else:
                data = json.loads(out.stdout)
                digits = [lev["digits"] for lev in data["details"]["levels"]
                          if lev["method"] != "zero:parity"]
                route = ("mpmath Gram" if "mpmath at" in out.stdout else "float64 Gram"
                         if "float64" in out.stdout else "other")
                shown = (f"digits {min(digits)}–{max(digits)}, trace "
                         f"{data['details']['trace']}, route {route}")
            print(f"fisher --sigma tanh --d {d}" + ("" if dps is None else f" --dps {dps}") +
                  f": median {statistics.median(times):.2f} s wall; {shown}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--m", type=int, default=4000)
    parser.add_argument("--d", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--sigma", nargs="+", default=["relu", "erf", "tanh", "quadratic"])
    parser.add_argument("--cli", action="store_true")
    parser.add_argument("--python", action="store_true")
    parser.add_argument("--small-d", action="store_true")
    args = parser.parse_args()
    if args.small_d:
        _small_d(max(1, args.runs))
        return
    for sigma in args.sigma:
        _simulator(sigma, args.d, args.m, args.runs)
    if args.cli:
        _cli(max(1, args.runs), args.python)


if __name__ == "__main__":
    main()
