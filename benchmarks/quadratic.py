"""Timings asked for by the quadratic-network issue.

* ODE integration (matrix form, LSODA) to t = 100 for p = 8 and p = 50 (p* = 2, η = 1/10, T = I)
  against one-pass SGD at N = 1000 over the same time span (target: ODE >= 1000× cheaper);
* the element-wise sympy derivation (Isserlis) for p = p* = 4 (cached per (p, p*) in-process).
Usage: python benchmarks/quadratic.py [--t-max 100]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from fltheory.sim.quadratic import orthonormal_teacher, sgd
from fltheory.theory.quadratic import derive_elementwise, integrate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--t-max", type=float, default=100.0)
    args = parser.parse_args()
    t = np.linspace(0, args.t_max, 201)
    integrate(np.eye(2) / 4, np.zeros((2, 2)) + 1e-3, np.eye(2), 0.1, t[:3])  # import scipy first
    for p in (8, 50):
        R0 = np.random.default_rng(0).standard_normal((p, 2)) * 1e-3
        start = time.perf_counter()
        sol = integrate(np.eye(p) / 4, R0, np.eye(2), 0.1, t)
        ode = time.perf_counter() - start
        rng = np.random.default_rng(1)
        W_star = orthonormal_teacher(1000, 2, rng)
        start = time.perf_counter()
        sgd(0.5 * rng.standard_normal((p, 1000)), W_star, 0.1, t, seed=2)
        run = time.perf_counter() - start
        print(f"p = {p:>2}: ODE to t = {args.t_max:g}: {ode:.3f} s (final loss "
              f"{sol.loss[-1]:.2e}); SGD N = 1000 same span: {run:.1f} s; ratio {run / ode:.0f}×"
              " (target >= 1000×)")
    start = time.perf_counter()
    derive_elementwise(4, 4)
    print(f"sympy derivation (Isserlis), p = p* = 4: {time.perf_counter() - start:.1f} s "
          "(cached per (p, p*) in-process)")


if __name__ == "__main__":
    main()
