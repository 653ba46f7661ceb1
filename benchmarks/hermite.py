"""Timings of the Hermite engine asked for by the Hermite issue.

Prints the median wall time over repeated runs of
  * ``fltheory hermite tanh -K 8 --dps 50`` (numeric path: mpmath quadrature), whole command;
  * ``fltheory hermite relu -K 12`` (exact piecewise path), whole command;
and, in-process, where the time goes for tanh (quadrature vs the rest) and relu.
Usage: python benchmarks/hermite.py [--runs 5]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from _common import console_script, median_wall


def _profile(call: str) -> list[tuple[str, float]]:
    profiler = cProfile.Profile()
    from fltheory.engine import hermite

    profiler.runctx(call, {"hermite": hermite}, {})
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    wanted = {"quad": "quadrature.py", "exact": "exact_He_expectation", "lambdify": "lambdify",
              "kinks": "kink_points", "norm": "_norm2"}
    out = []
    for label, needle in wanted.items():
        cum = max((v[3] for k, v in stats.stats.items()  # type: ignore[attr-defined]
                   if needle in k[0] or needle == k[2]), default=0.0)
        out.append((label, cum))
    out.append(("total", total))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    script = console_script()
    tanh = median_wall([script, "hermite", "tanh", "-K", "8", "--dps", "50"], args.runs)
    relu = median_wall([script, "hermite", "relu", "-K", "12"], args.runs)
    print(f"fltheory hermite tanh -K 8 --dps 50 : median {tanh:6.2f} s over {args.runs} runs")
    print(f"fltheory hermite relu -K 12         : median {relu:6.2f} s over {args.runs} runs")
    for name, call in [("tanh", "hermite.expansion('tanh', 8, 50)"),
                       ("relu", "hermite.expansion('relu', 12, 30)")]:
        parts = ", ".join(f"{label} {sec:.2f} s" for label, sec in _profile(call))
        print(f"in-process {name}: {parts}")


if __name__ == "__main__":
    main()
