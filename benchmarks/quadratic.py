"""Timings asked for by the quadratic-network issue.

* ODE integration to t = 100 for p = 8 and p = 50 (p* = 2, η = 1/10, T = I, Q(0) = I/4, the
  mean-field start) against one-pass SGD at N = 1000 over the same time span (target: ODE
  >= 1000× cheaper). ``integrate`` reduces the state exactly (Q = qI + VSVᵀ, ρ = VK: 9 numbers
  for any p here) and runs the compiled Dormand–Prince integrator; the time reported is the
  whole call, including building Q(t) (201 × p × p) and the loss. Also shown: the full
  p² + p p* system with the same integrator, the scipy LSODA path, and a random start (no
  structure, no reduction);
* the first call in a process (numba compiling, or loading its on-disk cache);
* the element-wise sympy derivation (Isserlis) for p = p* = 4 (cached per (p, p*) in-process).
Usage: python benchmarks/quadratic.py [--t-max 100] [--repeat 20]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from fltheory.papers.quadratic.sim import cold_start, orthonormal_teacher, sgd, sgd_cost
from fltheory.papers.quadratic.theory import derive_elementwise, integrate


def best(f: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--t-max", type=float, default=100.0)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    t = np.linspace(0, args.t_max, 201)
    start = time.perf_counter()
    integrate(np.eye(2) / 4, np.zeros((2, 2)) + 1e-3, np.eye(2), 0.1, t[:3])
    print(f"first integrate() in this process (numba compile or cache load): "
          f"{time.perf_counter() - start:.2f} s")
    integrate(np.eye(2) / 4, np.zeros((2, 2)) + 1e-3, np.eye(2), 0.1, t[:3], method="lsoda")
    for p in (8, 50):
        R0 = np.random.default_rng(0).standard_normal((p, 2)) * 1e-3
        Q0 = np.eye(p) / 4
        sol = integrate(Q0, R0, np.eye(2), 0.1, t)
        call = partial(integrate, Q0, R0, np.eye(2), 0.1, t)
        ode = best(call, args.repeat)
        full = best(partial(call, reduce=False), 3)
        lsoda = best(partial(call, method="lsoda"), 3)
        rng = np.random.default_rng(1)
        W_star = orthonormal_teacher(1000, 2, rng)
        W0 = 0.5 * rng.standard_normal((p, 1000))
        rand = best(partial(integrate, W0 @ W0.T / 1000, W0 @ W_star.T / 1000, np.eye(2), 0.1, t),
                    3)
        start = time.perf_counter()
        sgd(W0, W_star, 0.1, t, seed=2)
        run = time.perf_counter() - start
        print(f"p = {p:>2}: ODE to t = {args.t_max:g}: {1e3 * ode:.2f} ms (final loss "
              f"{sol.loss[-1]:.2e}); SGD N = 1000 same span: {run:.2f} s; ratio {run / ode:.0f}×"
              " (target >= 1000×)")
        print(f"        full {p * p + 2 * p}-number system {1e3 * full:.1f} ms "
              f"({run / full:.0f}×); LSODA (reduced) {1e3 * lsoda:.1f} ms ({run / lsoda:.0f}×); "
              f"random start, unreduced {1e3 * rand:.1f} ms ({run / rand:.0f}×)")
    print("sim.quadratic.sgd_cost (the one SGD cost model: CLI, claims, sweep) against sgd:")
    for N, p, t_span in ((1000, 4, 20.0), (4000, 4, 5.0), (10000, 4, 2.0), (1000, 32, 10.0)):
        W0, W_star = cold_start(N, p, 2, 0)
        start = time.perf_counter()
        sgd(W0, W_star, 0.1, np.linspace(0, t_span, 21), 1)
        run = time.perf_counter() - start
        estimate = sgd_cost(N, p, 2, t_span)
        print(f"  N = {N:>5}, p = {p:>2}, t = {t_span:g}: measured {run:.2f} s, estimate "
              f"{estimate:.2f} s (ratio {estimate / run:.1f}; the bound wants >= 1)")
    start = time.perf_counter()
    derive_elementwise(3, 3)  # p + p* <= 6: the bound derive_elementwise checks
    print(f"sympy derivation (Isserlis), p = p* = 3: {time.perf_counter() - start:.1f} s "
          "(cached per (p, p*) in-process)")


if __name__ == "__main__":
    main()
