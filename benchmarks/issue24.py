"""Whole-command timings asked for by "Right and fast on the researcher's own model".

Each row runs one fltheory command as a user would (the installed console script, whole
process, output discarded) and prints the median wall time over ``--runs`` runs next to the
issue's target. The per-area scripts (committee.py, fisher.py, recovery.py, twostep.py,
startup.py) print the detailed figures (accuracy next to time, the scipy reference, the
start-up ratio); this one is the summary table.

Each run gets a new, empty results store (FLTHEORY_CACHE in a temporary folder), so the figures
are first queries; ``--warm`` keeps one store across the runs (a repeated query).

Usage: python benchmarks/issue24.py [--runs 3] [--only SUBSTRING] [--warm]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time

from _common import console_script

#: (command arguments, target in seconds or None for "runs to completion", what it measures)
ROWS: list[tuple[list[str], float | None, str]] = [
    (["twostep", "learn", "--target", "He1", "--target", "He3", "--a1", ".45", "--a2", ".3",
      "--batch", "reused", "--sigma", "gelu"], 3.0, "twostep learn, gelu, reused"),
    (["twostep", "learn", "--target", "He1", "--target", "He3", "--a1", ".45", "--a2", ".3",
      "--batch", "reused", "--sigma", "softplus"], 3.0, "twostep learn, softplus, reused"),
    (["twostep", "learn", "--target", "He1", "--target", "He3", "--a1", ".45", "--a2", ".3",
      "--batch", "reused", "--sigma", "tanh(z+1/2)"], 3.0, "twostep learn, tanh(z+1/2), reused"),
    (["committee", "plateau", "--g", "tanh", "--K", "2", "--M", "2", "--eta", "1/2"], 5.0,
     "committee plateau, tanh, K = M = 2"),
    (["committee", "ode", "--g", "tanh", "--K", "2", "--M", "2", "--eta", "1/2",
      "--t-max", "200"], 30.0, "committee ode, tanh, K = M = 2, t = 200"),
    (["committee", "ode", "--g", "relu", "--eta", "1/2", "--t-max", "2000"], None,
     "committee ode, relu, through convergence"),
    (["fisher", "--sigma", "tanh", "--d", "3", "--dps", "12"], 2.0, "fisher tanh d = 3, dps 12"),
    (["fisher", "--sigma", "tanh", "--d", "3", "--dps", "30"], 60.0, "fisher tanh d = 3, dps 30"),
    (["recovery", "--d", "100", "--n", "1e6", "--gamma", "3", "--d1", "16"], 10.0,
     "recovery d = 100, n = 1e6, γ = 3, d1 = 16"),
]


def _wall(cmd: list[str], store: str | None) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, FLTHEORY_CACHE=store or os.path.join(tmp, "runs.sqlite"))
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        return time.perf_counter() - start, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="run the rows whose label contains this")
    parser.add_argument("--warm", action="store_true", help="one results store for all runs")
    args = parser.parse_args()
    warm_dir = tempfile.mkdtemp() if args.warm else None
    store = None if warm_dir is None else os.path.join(warm_dir, "runs.sqlite")
    script = console_script()
    print(f"{'command':45s} {'median s':>9s} {'target':>8s}  exit  verdict")
    for argv, target, label in ROWS:
        if args.only not in label:
            continue
        runs = [_wall([script, *argv], store) for _ in range(args.runs)]
        median = statistics.median(t for t, _ in runs)
        codes = sorted({c for _, c in runs})
        ok = codes == [0] and (target is None or median <= target)
        shown = "-" if target is None else f"{target:.0f}"
        print(f"{label:45s} {median:9.2f} {shown:>8s}  {codes}  {'met' if ok else 'NOT met'}",
              flush=True)


if __name__ == "__main__":
    main()
