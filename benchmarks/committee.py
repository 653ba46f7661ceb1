"""Timings asked for by the committee-machine issue (#16), accuracy next to time.

* ODE cost to t = 100 for erf (g = erf(x/√2), a_k = a*_m = 1, T = I) at K = M = 2 and K = 10,
  M = 5 (η = 1/2; the overlaps of a random start at N = 1000, see start_state): wall time of
  ``committee_ode.integrate`` (whole call: grid, ε_g), right-side evaluations, and the accuracy
  of ε_g(t) — max relative deviation on the grid from a reference run at rtol 1e-13 (scipy
  DOP853) — for rtol 1e-6, 1e-8, 1e-10, on each available method (compiled dopri, scipy
  dop853, lsoda);
* the first call in a process (numba compiling the right side and the integrator);
* fixed-step Euler on the same right side (dt = 1e-2, 1e-3; K = M = 2), as pyscm integrates;
* one-pass SGD at N = 1000 over the same span, from fltheory.papers.committee.sim when it exists
  (the ODE/SGD cost ratio; target >= 1000×); otherwise the ratio against the SGD step times
  quoted in the issue-16 fix brief (18 µs/step at K = M = 2, 28 µs/step at K = 10, M = 5,
  measured by the simulator's author, not here), labelled as such.

Usage: python benchmarks/committee.py [--t-max 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib
import math
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from fltheory.papers.committee.model import CommitteeModel, generalisation_error, rhs
from fltheory.papers.committee.ode import integrate


def best(f: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - start)
    return min(times), out


def start_state(K: int, M: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Overlaps of a random start at N = 1000: W ~ N(0, 1/2) per entry, orthonormal teacher
    rows of norm √N (T = I): Q ≈ I/2, R = O(1/√N)."""
    rng = np.random.default_rng(0)
    N = 1000
    W = rng.standard_normal((K, N)) * np.sqrt(0.5)
    Ws = np.linalg.qr(rng.standard_normal((N, M)))[0].T * np.sqrt(N)
    return W @ W.T / N, W @ Ws.T / N, Ws @ Ws.T / N


def euler(model: Any, eta: float, Q: np.ndarray, R: np.ndarray, T: np.ndarray, t_max: float,
          dt: float) -> float:
    field = rhs(model, eta)
    for _ in range(round(t_max / dt)):
        dQ, dR = field(Q, R, T)
        Q, R = Q + dt * dQ, R + dt * dR
    return float(generalisation_error(model, Q, R, T))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--t-max", type=float, default=100.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--issue24", action="store_true",
                        help="the cost table, the scipy comparison and the right side's floor")
    args = parser.parse_args()
    if args.issue24:
        cost_table()
        scipy_comparison(args.repeat)
        rhs_floor()
        return
    eta = 0.5
    t = np.linspace(0.0, args.t_max, 101)
    for K, M in ((2, 2), (10, 5)):
        ode_seconds = float("nan")
        model = CommitteeModel("erf_ss", K, M)
        Q0, R0, T = start_state(K, M)
        start = time.perf_counter()
        integrate(model, eta, Q0, R0, T, t[:3])
        print(f"K = {K}, M = {M}: first integrate() in this process "
              f"{time.perf_counter() - start:.2f} s")
        ref = integrate(model, eta, Q0, R0, T, t, rtol=1e-13, atol=1e-15, method="dop853")
        print(f"  reference (dop853, rtol 1e-13): {ref.nfev} evaluations, ε_g(0) = "
              f"{ref.eps_g[0]:.4g}, ε_g({args.t_max:g}) = {ref.eps_g[-1]:.4g}")
        for method in ("dopri", "dop853", "lsoda"):
            for rtol in (1e-6, 1e-8, 1e-10, 1e-12):
                if method == "lsoda" and K > 2:
                    break  # LSODA on the numpy right side: minutes at K = 10
                try:
                    seconds, tr = best(partial(integrate, model, eta, Q0, R0, T, t, rtol=rtol,
                                               method=method),
                                       args.repeat if method == "dopri" else 1)
                except Exception as exc:  # a benchmark reports and goes on
                    print(f"  {method:>6} rtol {rtol:.0e}: {type(exc).__name__}: {exc}")
                    break
                err = float(np.max(np.abs(tr.eps_g / ref.eps_g - 1)))
                if method == "dopri" and rtol == 1e-10:
                    ode_seconds = seconds
                print(f"  {tr.method:>15} rtol {rtol:.0e}: {1e3 * seconds:8.1f} ms, "
                      f"{tr.nfev:6d} evaluations, max rel. error of ε_g {err:.1e}")
        if (K, M) == (2, 2):
            for dt in (1e-2, 1e-3):
                start = time.perf_counter()
                e = euler(model, eta, Q0.copy(), R0.copy(), T, args.t_max, dt)
                print(f"  Euler dt = {dt:g}: {time.perf_counter() - start:.2f} s, "
                      f"{int(args.t_max / dt)} evaluations, rel. error of ε_g(t_max) "
                      f"{abs(e / ref.eps_g[-1] - 1):.1e}")
        sgd_side(K, M, eta, args.t_max, ode_seconds)


def sgd_side(K: int, M: int, eta: float, t_max: float, ode_seconds: float) -> None:
    """One-pass SGD at N = 1000 over the same span (fltheory.papers.committee.sim.sgd from a cold
    start), when the simulator exists on this branch."""
    try:
        sim = importlib.import_module("fltheory.papers.committee.sim")
    except ImportError:
        quoted = {(2, 2): 18e-6, (10, 5): 28e-6}.get((K, M))
        print("  SGD side: fltheory.papers.committee.sim does not exist on this branch")
        if quoted is not None:
            sgd = quoted * 1000 * t_max
            print(f"  SGD N = 1000 to t = {t_max:g} at {1e6 * quoted:.0f} µs/step (quoted in the "
                  f"fix brief, not measured here): {sgd:.2f} s; ratio {sgd / ode_seconds:.0f}× "
                  "(against the compiled ODE at rtol 1e-10 above; target >= 1000×)")
        return
    W0, W_star = sim.cold_start(1000, K, M, 0)
    start = time.perf_counter()
    sim.sgd(W0, W_star, "erf_ss", eta, [0.0, t_max], 0)
    sgd = time.perf_counter() - start
    print(f"  SGD N = 1000 to t = {t_max:g}: {sgd:.2f} s; ratio {sgd / ode_seconds:.0f}× "
          "(against the compiled ODE at rtol 1e-10 above; target >= 1000×)")


def relu_issue24(repeats: int = 3) -> None:
    """Issue 24 (committee correctness): wall time of `committee ode --g relu --eta 1/2
    --t-max 2000` (the ODE alone, K = M = 2, past convergence; the CLI refuses it while the
    cost estimate is pessimistic) and `committee plateau --g relu --eta 1/2` (no guess):
    medians of ``repeats`` runs in this process (numba compiled once before)."""
    import statistics

    import numpy as np

    from fltheory.papers.committee import ode as co
    from fltheory.papers.committee.model import CommitteeModel
    from fltheory.papers.committee.plateau import symmetric_plateau

    model = CommitteeModel("relu", 2, 2)
    R0 = 1e-3 * np.random.default_rng(0).standard_normal((2, 2))
    co.integrate(model, "1/2", 0.25 * np.eye(2), R0, np.eye(2), [0.0, 1.0])  # compile
    limit, co.ODE_SECONDS_LIMIT = co.ODE_SECONDS_LIMIT, 1e4
    times, last = [], None
    try:
        for _ in range(repeats):
            start = time.perf_counter()
            last = co.integrate(model, "1/2", 0.25 * np.eye(2), R0, np.eye(2),
                                np.linspace(0.0, 2000.0, 201))
            times.append(time.perf_counter() - start)
    finally:
        co.ODE_SECONDS_LIMIT = limit
    assert last is not None
    print(f"relu ode K = M = 2, η = 1/2, t-max 2000: median {statistics.median(times):.1f} s "
          f"({last.nfev} evaluations; ε_g(2000) = {last.eps_g[-1]:.1e})")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        p = symmetric_plateau(model, "1/2")
        times.append(time.perf_counter() - start)
    print(f"relu plateau K = M = 2, η = 1/2 (no guess): median {statistics.median(times):.2f} s "
          f"(q = {p.q:.6f}, escape rate {p.escape_rate:.6f})")


# ------------------------------------------------------------------- issue 24 (cmt-speed)

#: (g, K, M, t-max, η) of the cost table: erf at several sizes and spans, tanh and sigmoid
COST_CASES = (("erf_ss", 2, 2, 200, 0.5), ("erf_ss", 2, 2, 2000, 0.5), ("erf_ss", 5, 5, 500, 1.0),
              ("erf_ss", 10, 5, 1000, 0.5), ("erf_ss", 10, 5, 2000, 0.5),
              ("erf_ss", 20, 10, 200, 0.5),
              ("tanh", 2, 2, 200, 0.5), ("tanh", 3, 3, 200, 1.0), ("sigmoid", 2, 2, 500, 0.5))


def cost_table() -> None:
    """integrate()'s estimate (committee_ode.integration_cost with the model's per-evaluation
    figure, as integrate computes it) against the measured CPU time of integrate() on 201 grid
    points (compiled path, after a warm-up call), and the evaluations against expected_nfev.
    Measured on a shared 2-core machine (load ~8), CPU seconds:

    g        K  M  t-max  η    nfev  expected  estimate  measured  est/meas
    erf      2  2    200  0.5  1321  1640      0.018     0.002     11 (set-up: ms)
    erf      2  2   2000  0.5  4789  4754      0.028     0.004     7.4 (set-up: ms)
    erf      5  5    500  1.0  3130  4225      0.070     0.020     3.5
    erf     10  5   1000  0.5  4486  5567      0.317     0.209     1.5
    erf     10  5   2000  0.5  6742  7789      0.422     0.253     1.7
    erf     20 10    200  0.5  2899  3800      2.40      1.40      1.7
    tanh     2  2    200  0.5  1792  1640      1.29      1.04      1.2
    tanh     3  3    200  1.0  2848  2406      7.09      6.79      1.0
    sigmoid  2  2    500  0.5   688  2477      1.95      0.45      4.3 (converges early)
    Within 3× wherever the time is over 0.1 s, except sigmoid's early convergence (4.3×).
    (before: K = 10, M = 5 at t-max 2000 estimated 63 s, i.e. 150× high; tanh K = 2 31 s.)
    """
    from fltheory.papers.committee._flat import cost
    from fltheory.papers.committee.ode import compiled_erf_cost, expected_nfev, integration_cost

    print("g        K  M  t-max  η     nfev  expected  estimate s  measured CPU s  ratio")
    for g, K, M, t_max, eta in COST_CASES:
        model = CommitteeModel(g, K, M)
        Q0, R0, T = start_state(K, M)
        t = np.linspace(0.0, t_max, 201)
        integrate(model, eta, Q0, R0, T, t[:2])
        per_eval = max(compiled_erf_cost(K, M), cost(model))
        estimate = integration_cost(K, M, eta, t_max, len(t), per_eval)[0]
        start = time.process_time()
        tr = integrate(model, eta, Q0, R0, T, t)
        cpu = time.process_time() - start
        print(f"{g:8s} {K:2d} {M:2d} {t_max:6d} {eta:4.1f} {tr.nfev:6d} "
              f"{expected_nfev(K, eta, t_max):8.0f} {estimate:11.3f} {cpu:15.3f} "
              f"{estimate / max(cpu, 1e-3):6.2f}")


def scipy_comparison(repeat: int = 3) -> None:
    """``fltheory committee ode --g erf --K 10 --M 5 --eta 1/2 --t-max 1000`` against
    benchmarks/committee_scipy_reference.py (same start, whole process each, alternating in
    one run): wall and CPU seconds (medians) and the final ε_g of each."""
    import json
    import resource
    import subprocess
    import sys
    from pathlib import Path

    script = str(Path(__file__).with_name("committee_scipy_reference.py"))
    opts = json.loads(subprocess.run([sys.executable, script, "--print-start"],
                                     capture_output=True, text=True, check=True).stdout)
    cmds = {"scipy": [sys.executable, script],
            "fltheory": ["fltheory", "committee", "ode", "--g", "erf_ss", "--K", "10", "--M", "5",
                         "--eta", "1/2", "--t-max", "1000", "--format", "json", *opts]}
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
    values: dict[str, float] = {}
    for _ in range(repeat):
        for name, cmd in cmds.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            times[name].append((wall, cpu))
            d = json.loads(out)
            values[name] = float(d["eps_g"] if name == "scipy" else d["value"])
    for name, rows in times.items():
        print(f"{name:9s} wall {np.median([r[0] for r in rows]):.2f} s, CPU "
              f"{np.median([r[1] for r in rows]):.2f} s (medians of {repeat}); ε_g(1000) = "
              f"{values[name]!r}")
    print(f"relative difference of ε_g: {abs(values['fltheory'] / values['scipy'] - 1):.1e}")


def rhs_floor() -> None:
    """The compiled erf right side at K = 10, M = 5 (at the start, where most I4 arguments are
    near 0, and at t = 500 on the plateau) against a floor: its 6600 I4 terms each need one
    arcsin plus ~11 flops (the argument, its clip, the weighted sum), timed here as a compiled
    loop of a clipped arcsin and a multiply-add over 6600 arguments drawn uniformly from
    [−0.3, 0.3] and [−0.9, 0.9] (glibc's asin is cheaper near 0)."""
    import numba

    from fltheory.papers.committee.model import flat_rhs

    @numba.njit(cache=False)
    def asin_loop(x: np.ndarray, w: np.ndarray) -> float:
        s = 0.0
        for i in range(x.shape[0]):
            s += w[i] * np.arcsin(min(1.0, max(-1.0, x[i])))
        return s

    rng = np.random.default_rng(0)
    per_term = {}
    for width in (0.3, 0.9):  # 6600 arguments, in cache as the right side's are
        x, w = rng.uniform(-width, width, 6600), rng.uniform(0.5, 1.0, 6600)
        asin_loop(x, w)
        start = time.process_time()
        for _ in range(2000):
            asin_loop(x, w)
        per_term[width] = (time.process_time() - start) / (2000 * 6600)
    model = CommitteeModel("erf_ss", 10, 5)
    Q0, R0, T = start_state(10, 5)
    f = flat_rhs(model, 0.5, T)
    tr = integrate(model, 0.5, Q0, R0, T, np.array([0.0, 500.0]))
    for label, Q, R in (("start", Q0, R0), ("t = 500", tr.Q[-1], tr.R[-1])):
        y = np.concatenate([Q.ravel(), R.ravel()])
        f(y)
        n, start = 0, time.process_time()
        while time.process_time() - start < 1.0:
            f(y)
            n += 1
        per_eval = (time.process_time() - start) / n
        print(f"erf K = 10, M = 5 at the {label}: {1e6 * per_eval:.1f} µs per right side = "
              f"{1e9 * per_eval / 6600:.1f} ns per I4 term (6600 terms)")
    for width, cost in per_term.items():
        print(f"  floor: clipped arcsin + multiply-add, |x| <= {width}: {1e9 * cost:.1f} ns per "
              f"term, 6600 terms {1e6 * 6600 * cost:.1f} µs; right side / floor "
              f"{per_eval / (6600 * cost):.2f}")


def accuracy_issue24(t_max: float = 1000.0, records: int = 201) -> None:
    """Issue 24 (committee speed, equal accuracy): ε_g on the 201-point grid of ``committee ode
    --g erf_ss --K 10 --M 5 --eta 1/2 --t-max 1000`` (the start of
    benchmarks/committee_scipy_reference.py) from (a) the CLI's JSON, (b) solve_ivp DOP853 at
    rtol 1e-10, atol 1e-12 on the reference script's numpy right side, on the grid (t_eval) and
    at t-max alone (what the script prints), against (c) a tight reference: the same scipy
    right side at rtol 1e-13, atol 1e-15, max_step 1 (so its dense output on the grid is
    within its own error). Prints the largest absolute and relative deviation from (c) of each.
    The reference does not use fltheory's right side or integrator. Run with
    ``python -c "import benchmarks.committee as b; b.accuracy_issue24()"``."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from scipy.integrate import solve_ivp

    sys.path.insert(0, str(Path(__file__).parent))
    import committee_scipy_reference as ref_script

    K, M, eta = 10, 5, 0.5
    opts = ref_script.start_options(K, M, Fraction(1, 4), Fraction(1, 1000), 0)
    out = subprocess.run(["fltheory", "committee", "ode", "--g", "erf_ss", "--K", str(K), "--M",
                          str(M), "--eta", "1/2", "--t-max", f"{t_max:g}", "--format", "json",
                          *opts], capture_output=True, text=True, check=True).stdout
    cli = json.loads(out)["details"]
    t = np.asarray(cli["t"])
    Q0, R0 = ref_script.start(K, M, 0.25, 0.001, 0)
    T = np.eye(M)
    f = ref_script.make_rhs(K, M, eta, T)
    y0 = np.concatenate([Q0.ravel(), R0.ravel()])

    def eps_on(Y: np.ndarray) -> np.ndarray:
        out = []
        for y in Y:
            Q = y[:K * K].reshape(K, K)
            out.append(ref_script.eps_g(0.5 * (Q + Q.T), y[K * K:].reshape(K, M), T))
        return np.asarray(out)

    tight = solve_ivp(f, (0.0, t_max), y0, method="DOP853", rtol=1e-13, atol=1e-15,
                      t_eval=t, max_step=1.0)
    e_ref = eps_on(tight.y.T)
    grid = solve_ivp(f, (0.0, t_max), y0, method="DOP853", rtol=1e-10, atol=1e-12, t_eval=t)
    end = solve_ivp(f, (0.0, t_max), y0, method="DOP853", rtol=1e-10, atol=1e-12,
                    t_eval=[t_max])
    rows = (("fltheory CLI (JSON, grid)", np.asarray(cli["eps_g"]), e_ref),
            ("scipy rtol 1e-10 (t_eval grid)", eps_on(grid.y.T), e_ref),
            ("scipy rtol 1e-10 (t-max only)", eps_on(end.y.T), e_ref[-1:]))
    print(f"tight reference: scipy DOP853 rtol 1e-13, {tight.nfev} evaluations; "
          f"ε_g({t_max:g}) = {float(e_ref[-1])!r}")
    for name, e, r in rows:
        dev = np.abs(e - r)
        print(f"{name:32s} max |Δε_g| {dev.max():.1e}, max rel. {(dev / r).max():.1e}")
    print(f"fltheory's stated accuracy (eps_g_accuracy): max {max(cli['eps_g_accuracy']):.1e}")


_SPLIT_CODE = r"""
import contextlib, io, json, resource, sys, time
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
marks = [("interpreter start-up", cpu())]
import numpy
marks.append(("import numpy (with OpenBLAS's thread start)", cpu()))
from fltheory.cli import main
import fltheory.papers.committee.claims, fltheory.papers.committee.ode
from fltheory.papers.committee import _compiled
assert _compiled.native() is not None, "the C extension is not built"
marks.append(("fltheory's committee modules", cpu()))
from fltheory.papers.committee import ode as co, plateau as pl
spent = {}
def timed(mod, name, key):
    f = getattr(mod, name)
    def g(*a, **k):
        c = cpu()
        try:
            return f(*a, **k)
        finally:
            spent[key] = spent.get(key, 0.0) + cpu() - c
    setattr(mod, name, g)
timed(co, "integrate", "integrate")
timed(pl, "symmetric_plateau", "plateau")
def run():
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(sys.argv[1:])
        except SystemExit:
            pass
c = cpu(); run(); first = cpu() - c; parts = dict(spent)
print(json.dumps({"marks": marks, "first": first, "parts": parts,
                  "numba": "numba" in sys.modules, "scipy": "scipy" in sys.modules}))
"""


def split_issue24() -> None:
    """Issue 24 (committee speed): where the CPU time of ``committee ode --g erf_ss --K 10 --M 5
    --eta 1/2 --t-max 1000`` (the reference script's start) goes, in one process: imports
    (numpy, fltheory's modules), then the command: the integration (``ode.integrate``: the C
    extension's right side and Dormand–Prince loop, grid, ε_g), the plateau analysis
    (``plateau.symmetric_plateau``) and the rest; and whether numba or scipy were imported
    (neither should be). Run with ``python -c "import benchmarks.committee as b;
    b.split_issue24()"``.

    Measured 2026-12-05 (editable install, .pyc written, 2-core machine, load ~1), CPU
    seconds: interpreter 0.02, numpy 0.10 (of which ~0.06 is OpenBLAS's threads starting, which
    the scipy script pays too), fltheory's modules 0.05, integration 0.154 (4453 evaluations
    at ≈ 35 µs, the arcsin floor of :func:`rhs_floor`), plateau analysis 0.068 (settle ~0.04,
    Jacobian ~0.026, spectrum 0.005), the rest 0.013; numba and scipy not imported. Before the
    C extension, numba's start-up alone was 0.46 s (import 0.14, the scipy.linalg its BLAS
    check imports 0.16, its target context 0.12, then 0.04 to load its cached machine code).
    """
    import itertools
    import json
    import subprocess
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import committee_scipy_reference as ref_script

    opts = ref_script.start_options(10, 5, Fraction(1, 4), Fraction(1, 1000), 0)
    argv = ["committee", "ode", "--g", "erf_ss", "--K", "10", "--M", "5", "--eta", "1/2",
            "--t-max", "1000", "--format", "json", *opts]
    out = json.loads(subprocess.run([sys.executable, "-c", _SPLIT_CODE, *argv],
                                    capture_output=True, text=True, check=True).stdout)
    marks = out["marks"]
    print(f"{marks[0][0]:45s} {marks[0][1]:6.3f} s CPU")
    for (_, before), (name, after) in itertools.pairwise(marks):
        print(f"{name:45s} {after - before:6.3f} s CPU")
    parts = out["parts"]
    print(f"{'the command':45s} {out['first']:6.3f} s CPU: integrate "
          f"{parts.get('integrate', 0):.3f}, plateau {parts.get('plateau', 0):.3f}, the rest "
          f"{out['first'] - sum(parts.values()):.3f}")
    print(f"numba imported: {out['numba']}, scipy imported: {out['scipy']}")


if __name__ == "__main__":
    main()


def converge_issue24(repeats: int = 5) -> None:
    """Issue 24 (committee converge): wall time of ``max_learning_rate`` (η_max by bisection at
    the specialised fixed point, with its second-step error estimate) and of
    ``specialised_fixed_point`` (Newton, Jacobian, rate), erf K = M = 1 … 4 and tanh K = M = 2
    (numeric averages): medians of ``repeats`` runs in this process. Run with
    ``python -c "import benchmarks.committee as b; b.converge_issue24()"``."""
    import statistics

    from fltheory.papers.committee.plateau import max_learning_rate, specialised_fixed_point

    for g, K in (("erf_ss", 1), ("erf_ss", 2), ("erf_ss", 3), ("erf_ss", 4), ("tanh", 2)):
        model = CommitteeModel(g, K, K)
        times, m = [], None
        for _ in range(repeats if g == "erf_ss" else 1):
            start = time.perf_counter()
            m = max_learning_rate(model)
            times.append(time.perf_counter() - start)
        assert m is not None
        start = time.perf_counter()
        fp = specialised_fixed_point(model, "1/2")
        fp_seconds = time.perf_counter() - start
        print(f"{g} K = M = {K}: η_max = {m.eta_max:.10g} ({m.method}, est. rel. error "
              f"{m.rel_error if m.rel_error is not None else float('nan'):.1e}) in median "
              f"{1e3 * statistics.median(times):.0f} ms; fixed point + rate at η = 1/2 "
              f"{1e3 * fp_seconds:.0f} ms (rate {fp.convergence_rate:.8g})")


def startup_issue24(repeat: int = 5) -> None:
    """Issue 24 (committee speed, whole process): :func:`scipy_comparison` (``committee ode
    --g erf_ss --K 10 --M 5 --eta 1/2 --t-max 1000`` against the scipy reference script, both
    whole processes, interleaved, medians), then the modules the CLI run imports that it need
    not (sympy, scipy.integrate: expected absent). Run with
    ``python -c "import benchmarks.committee as b; b.startup_issue24()"``.

    Measured 2026-12-04 on the shared 2-core machine (another test suite running, so wall
    times are noisy; CPU is the steadier figure):

    * before (main at a14c329): scipy 2.40 s wall, 2.26 s CPU; fltheory 3.58 / 3.70 s wall,
      2.26 / 2.28 s CPU (two runs) — ratio ≈ 1.0× in CPU;
    * after (sympy imported lazily in committee_averages, the plateau's settling integration by
      the plain-Python DOP853 loop instead of solve_ivp, eig on one BLAS thread): medians of 5,
      scipy 6.81 s wall (contended), 2.68 s CPU; fltheory 2.18 s wall, 1.82 s CPU — ratio
      1.5× in CPU; final ε_g 0.5494862551271207 (scipy, rtol 1e-10) and 0.5494862551077233
      (fltheory), relative difference 3.5e-11; a second, less contended run (medians of 3):
      scipy 2.21 s wall, 1.90 s CPU; fltheory 1.24 s wall, 1.23 s CPU — 1.8× wall, 1.5× CPU;
    * what remains of fltheory's ~1.8 s (cProfile, one run): numba import ~0.45 s, numba
      loading its cached integrator ~0.9 s (of which ~0.7 s numba's own target-context set-up,
      ~0.35 s of it importing scipy.linalg for its BLAS check), the integration itself
      ~0.2–0.3 s, the plateau analysis ~0.4 s (the settling loop in Python), importing
      fltheory.papers.committee.claims ~0.3 s. 5× (≤ ~0.5 s CPU) is out of reach while numba's
      start-up alone costs more than that.
    """
    import subprocess
    import sys

    scipy_comparison(repeat)
    code = ("import sys; from fltheory.cli import main; sys.argv = ['fltheory', 'committee', "
            "'ode', '--g', 'erf_ss', '--K', '3', '--M', '2', '--eta', '1/2', '--t-max', '10']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('sympy', 'scipy.integrate') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()[-1]
    print(f"heavy modules imported by committee ode (erf_ss): {out}")


def speed_issue37(rtols: tuple[float, ...] = (1e-10, 1e-9, 1e-8, 3e-8, 1e-7),
                  n_out: int = 201) -> None:
    """Issue 37 (committee speed, equal accuracy): ε_g of ``committee ode --g erf_ss --K 10
    --M 5 --eta 1/2 --t-max 1000`` (the reference script's start) on its ``n_out`` output times
    at several ``--rtol``, and of benchmarks/committee_scipy_reference.py --n-out ``n_out``
    (scipy DOP853, rtol 1e-10, atol 1e-12, t_eval on the same times), each against a tight
    reference: scipy DOP853 at rtol 1e-13, atol 1e-15, max_step 1 on the reference script's
    numpy right side (not fltheory's). Prints each run's right-side evaluations, the largest
    absolute and relative deviation of ε_g from the reference and the digits that leaves
    (−log10 of the largest relative deviation, rounded down): the timed comparison
    (``farm-bench --vs``) pairs the scipy script with the loosest fltheory run that has at
    least its digits. Run with ``python -c "import benchmarks.committee as b;
    b.speed_issue37()"``.

    Measured 2026-12-05 (shared 2-core machine, load 9–10):

    * accuracy on the 201 output times (reference ε_g(1000) = 0.5494862551113471, 14921
      evaluations): scipy script (rtol 1e-10, t_eval) 4712 evaluations, max |Δε_g| 7.9e-9,
      max rel. 1.4e-8: 7 digits; fltheory --rtol 1e-10: 4333 evaluations, 5.4e-11, 10 digits;
      1e-9: 3529, 4.4e-10, 9 digits; 1e-8: 3073, 2.6e-9, 8 digits; 3e-8: 2977, 5.5e-9, 7
      digits; 1e-7: 2845, 1.6e-8, 7 digits. The scipy script's digits on these times are its
      dense output's (at t = 1000 alone it has 10: 1.6e-11);
    * whole processes side by side (five to seven pairs, medians): ``committee ode ... --n-out
      201 --rtol 1e-8`` (8 digits) against the scipy script --n-out 201 (7 digits): before
      (main, whose only tolerance is rtol 1e-10) 0.445 s CPU against 3.47 s, 8.0× by CPU,
      7.1× by wall; after 0.358 s against 3.00 s, 8.6× by CPU, 8.7× by wall (the earlier
      comparison, ε_g at t = 1000 alone: 4.6× by CPU, 4.6× by wall under the same load);
    * where fltheory's CPU goes after (one process, load ~10): interpreter 0.02 s, numpy 0.08,
      fltheory's modules 0.09 (click and the CLI 0.03), the integration 0.12 (3073
      evaluations of the C right side, ~35 µs each, of which glibc's asin is ~17 µs: a
      branch-free vectorised asin measured slower, 41–52 µs), the plateau analysis 0.03 (was
      0.07: Newton from the trajectory's slowest symmetric state instead of a settling
      integration, and the Jacobian's 420 evaluations without per-call conversions), ε_g's
      accuracy 0.01, the rest 0.01.
    """
    import json
    import subprocess
    import sys
    from pathlib import Path

    from scipy.integrate import solve_ivp

    sys.path.insert(0, str(Path(__file__).parent))
    import committee_scipy_reference as ref_script

    K, M, eta, t_max = 10, 5, 0.5, 1000.0
    opts = ref_script.start_options(K, M, Fraction(1, 4), Fraction(1, 1000), 0)
    t = np.linspace(0.0, t_max, n_out)
    Q0, R0 = ref_script.start(K, M, 0.25, 0.001, 0)
    T = np.eye(M)
    tight = solve_ivp(ref_script.make_rhs(K, M, eta, T), (0.0, t_max),
                      np.concatenate([Q0.ravel(), R0.ravel()]), method="DOP853", rtol=1e-13,
                      atol=1e-15, t_eval=t, max_step=1.0)
    ref = []
    for y in tight.y.T:
        Q = y[:K * K].reshape(K, K)
        ref.append(ref_script.eps_g(0.5 * (Q + Q.T), y[K * K:].reshape(K, M), T))
    e_ref = np.asarray(ref)
    print(f"tight reference (scipy DOP853 rtol 1e-13, max_step 1): {tight.nfev} evaluations; "
          f"ε_g(1000) = {float(e_ref[-1])!r}")

    def report(name: str, eps: np.ndarray, nfev: int) -> None:
        dev = np.abs(eps - e_ref)
        rel = float((dev / e_ref).max())
        print(f"{name:34s} {nfev:6d} evaluations; max |Δε_g| {dev.max():.1e}, max rel. "
              f"{rel:.1e}: {math.floor(-math.log10(rel))} digits")

    out = json.loads(subprocess.run([sys.executable, str(Path(__file__).with_name(
        "committee_scipy_reference.py")), "--n-out", str(n_out)], capture_output=True,
        text=True, check=True).stdout)
    report("scipy script (rtol 1e-10, t_eval)", np.asarray(out["eps_g_grid"]), out["nfev"])
    for rtol in rtols:
        cli = json.loads(subprocess.run(
            ["fltheory", "committee", "ode", "--g", "erf_ss", "--K", str(K), "--M", str(M),
             "--eta", "1/2", "--t-max", "1000", "--n-out", str(n_out), "--rtol", f"{rtol:g}",
             "--format", "json", *opts], capture_output=True, text=True, check=True).stdout)
        d = cli["details"]
        report(f"fltheory --rtol {rtol:g}", np.asarray(d["eps_g"]), d["nfev"])
