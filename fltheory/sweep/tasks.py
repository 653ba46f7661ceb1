"""The simulations a sweep can run: each takes its parameters and one seed and returns a flat
dict of numbers (what the aggregation averages).

Each parameter is declared with its kind — ``int``, ``rational`` (exact on the command line, a
float at evaluation), ``str`` or a tuple of choices —, its default and its domain (a range); a
task may add a joint check (constraints between parameters, the estimated cost of one run). A
grid point is the defaults overridden by ``--grid`` values, and every point is validated
(:func:`validate`) before any run starts, so a bad value is one line and exit status 2, never a
failed run. The functions import their simulators lazily, so listing tasks is light.

Bounds on the work (checked before any run):

* one run: its cost is estimated from the parameters and refused above :data:`MAX_RUN_SECONDS`
  (seconds on one core of the development machine — 2 shared cores —, each formula measured
  at two sizes, see the ``_cost_*`` functions);
* one sweep: at most :data:`MAX_RUNS` grid points × seeds.

The per-parameter ranges follow the bounds of the corresponding commands (``twostep simulate``,
``fisher simulate``, ``quadratic simulate``, ``recovery simulate``); where those commands accept
runs of more than a minute, the sweep task is tighter through its cost check.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fltheory.exact import (
    DomainError,
    check_cost,
    fraction_str,
    parse_count,
    parse_rational,
    to_float,
)

__all__ = ["MAX_RUNS", "MAX_RUN_SECONDS", "TASKS", "Param", "Task", "canonical", "check_runs",
           "get_task", "parse_value", "short_value", "validate"]

Kind = str | tuple[str, ...]

#: grid points × seeds of one sweep (a sweep is resumable and cached, so this bounds the size of
#: one request and its bookkeeping — 10⁴ rows of output, 10⁴ futures —, not the hours it runs)
MAX_RUNS = 10_000
#: estimated seconds of one run on one core: an accepted run finishes well within a minute
MAX_RUN_SECONDS = 30.0


@dataclass(frozen=True)
class Param:
    """One parameter of a task: kind, default and domain ``[low, high]`` (ends open when
    ``low_open``/``high_open``; ``None`` is unbounded)."""

    kind: Kind
    default: Any
    low: Fraction | int | None = None
    high: Fraction | int | None = None
    low_open: bool = False
    high_open: bool = False

    def allowed(self) -> str:
        if isinstance(self.kind, tuple):
            return " or ".join(self.kind)
        if self.kind == "str":
            return "text"
        noun = "integers" if self.kind == "int" else "numbers"
        lo = "-inf" if self.low is None else fraction_str(self.low)
        hi = "inf" if self.high is None else fraction_str(self.high)
        return (f"{noun} in {'(' if self.low_open or self.low is None else '['}{lo}, {hi}"
                f"{')' if self.high_open or self.high is None else ']'}")

    def check(self, name: str, value: Any) -> Any:
        if isinstance(self.kind, tuple) or self.kind == "str":
            return value
        low_ok = self.low is None or (value > self.low if self.low_open else value >= self.low)
        high_ok = self.high is None or (value < self.high if self.high_open
                                        else value <= self.high)
        if not (low_ok and high_ok):
            raise DomainError(name, short_value(value), self.allowed(), reason="is out of range")
        if self.kind == "rational":
            to_float(value, name)  # a double must hold it (no silent inf or 0)
        return value


def short_value(value: Fraction | int) -> str:
    """A value for an error message: exact, or its first digits when it is long."""
    text = fraction_str(value)
    return text if len(text) <= 40 else f"{text[:12]}… ({len(text)} characters)"


@dataclass(frozen=True)
class Task:
    id: str
    description: str
    params: Mapping[str, Param]
    func: Callable[[dict[str, Any], int], dict[str, Any]]
    derive_seed: bool = True  # False: the user's seed is passed unchanged (claims)
    #: joint constraints and the cost check, on the parsed values (after the per-parameter ones)
    check: Callable[[dict[str, Any]], None] | None = None


def parse_value(task: Task, name: str, text: str) -> Any:
    """A grid value from the command line, exactly (rationals stay Fractions), checked against
    the parameter's domain."""
    if name not in task.params:
        raise DomainError("grid", name, "one of " + ", ".join(task.params),
                          reason=f"is not a parameter of {task.id}")
    param = task.params[name]
    kind = param.kind
    if kind == "int":
        try:
            value: Any = parse_count(text, name, -(10**18))
        except DomainError as exc:
            raise DomainError(name, text[:40], param.allowed(),
                              reason=exc.reason or "is not an integer") from None
        return param.check(name, value)
    if kind == "rational":
        return param.check(name, parse_rational(text, name))
    if kind == "str":
        return str(text)
    if text not in kind:
        raise DomainError(name, text[:40], " or ".join(kind), reason="is not a choice")
    return text


def canonical(task: Task, overrides: Mapping[str, Any]) -> dict[str, str]:
    """All parameters (defaults filled) as strings: the store key and what tasks receive."""
    out = {}
    for name, param in sorted(task.params.items()):
        value = overrides.get(name, param.default)
        out[name] = fraction_str(value) if isinstance(value, Fraction) else str(value)
    return out


def validate(task: Task, point: Mapping[str, str]) -> None:
    """Check one grid point (canonical strings) against the task's domain and cost bound;
    raise :class:`DomainError` naming the parameter and its allowed range."""
    unknown = [name for name in point if name not in task.params]
    if unknown:
        raise DomainError("grid", unknown[0], "one of " + ", ".join(task.params),
                          reason=f"is not a parameter of {task.id}")
    values = {name: parse_value(task, name, str(point.get(name, _default_text(p))))
              for name, p in task.params.items()}
    if task.check is not None:
        task.check(values)


def _default_text(param: Param) -> str:
    d = param.default
    return fraction_str(d) if isinstance(d, Fraction) else str(d)


def check_runs(points: int, seeds: int) -> None:
    """At most :data:`MAX_RUNS` runs (grid points × seeds) in one sweep."""
    check_cost(f"runs = {points} grid point(s) × {seeds} seed(s)", points * seeds, MAX_RUNS,
               "runs", "fewer grid values or seeds; split the sweep (the store keeps the runs)")


def _run_cost(what: str, seconds: float, hint: str) -> None:
    check_cost(what, seconds, MAX_RUN_SECONDS, "s per run (estimated, one core)", hint)


def _float(text: str) -> float:
    return float(Fraction(text))


# --------------------------------------------------------------------------- the tasks


def _twostep_terms(p: dict[str, Any], seed: int) -> dict[str, float]:
    from fltheory.claims.twostep import run_summary

    C, residual = run_summary(int(p["N"]), p["batch"], seed)
    names = ("beta1", "beta2", "random")
    out = {f"C{k}_{names[j]}": float(C[k, j]) for k in range(3) for j in range(3)}
    out["taylor_residual"] = float(residual)
    return out


def _fisher_clusters(p: dict[str, Any], seed: int) -> dict[str, float]:
    from fltheory.sim import fisher as sim

    s = sim.sample(int(p["d"]), int(p["m"]), seed)
    clusters = sim.gap_clusters(s.eigenvalues, 3)
    out = {f"lambda{l}": float(c.mean()) for l, c in enumerate(clusters)}
    out |= {f"size{l}": float(len(c)) for l, c in enumerate(clusters)}
    out["top3_share"] = float(sum(c.sum() for c in clusters) / s.eigenvalues.sum())
    return out


def _quadratic_escape(p: dict[str, Any], seed: int) -> dict[str, float]:
    import numpy as np

    from fltheory.sim import quadratic as sim

    N, pw, ps = int(p["N"]), int(p["p"]), int(p["p_star"])
    rng = np.random.default_rng(seed)
    W_star = sim.orthonormal_teacher(N, ps, rng)
    W0 = 0.5 * rng.standard_normal((pw, N))
    t = np.linspace(0, _float(p["t_max"]), 121)
    run = sim.sgd(W0, W_star, _float(p["eta"]), t, seed + 1, n_test=1000)
    norms = np.linalg.norm(run.R, axis=(1, 2))
    escaped = np.nonzero(norms > 0.5)[0]
    assert run.test_loss is not None
    # a diverged run (η above the stability bound) has NaN records after the stop: its final
    # loss is NaN (counted apart by the aggregate) and the fraction of diverged runs is a metric
    return {"escape_time": float(t[escaped[0]]) if len(escaped) else math.nan,
            "final_test_loss": float(run.test_loss[-1]),
            "initial_overlap": float(norms[0]),
            "diverged": 0.0 if run.diverged_at is None else 1.0}


def _recovery_spectral(p: dict[str, Any], seed: int) -> dict[str, float]:
    from fltheory.sim import recovery as sim

    d, d1 = int(p["d"]), int(p["d1"])
    n = round(_float(p["delta"]) * sim.feature_dim(d, 2))
    r = sim.run(d, n, seed, d1=d1, gamma=_float(p["gamma"]), features=p["features"],
                n_fit=4000, n_test=8000, prefetch=False)
    out = {f"rho2_{i + 1}": float(v) for i, v in enumerate(r.best_overlaps)}
    out["mse"] = r.relative_mse
    return out


def _check_normal(p: dict[str, Any], seed: int) -> dict[str, float]:
    import numpy as np

    z = np.random.default_rng(seed).standard_normal(int(p["n"]))
    return {"mean": float(z.mean()), "second_moment": float(z @ z / len(z))}


def _check_fail(p: dict[str, Any], seed: int) -> dict[str, float]:
    if int(p["x"]) == int(p["bad"]):
        raise RuntimeError(f"check.fail: x = {p['x']} is the failing value")
    return {"x": float(p["x"])}


def _check_sleep(p: dict[str, Any], seed: int) -> dict[str, float]:
    time.sleep(_float(p["seconds"]))
    return {"slept": _float(p["seconds"])}


def _claims(p: dict[str, Any], seed: int) -> dict[str, Any]:
    """Claims of one paper in one process, so that claims sharing simulations (the paper
    modules cache them) compute them once."""
    from fltheory.claims.registry import run_claim, select

    wanted = p["claims"].split(",")
    claims = {c.id: c for c in select(wanted[0].split(".")[0])}
    return {"runs": [run_claim(claims[i], p["size"], seed).as_json() for i in wanted]}


# --------------------------------------------------------------------------- domains and costs
# Each cost formula: seconds on one core (one BLAS thread, as sweeps run), fitted on the
# development machine (2 cores shared with other jobs) at two sizes; the constants are rounded
# up, so the estimate errs on the safe side.


def _check_twostep(v: dict[str, Any]) -> None:
    # N × N matrices, a few GEMMs: measured 0.08 s at N = 500, 2.25 s at N = 1500 (∝ N³)
    N = v["N"]
    _run_cost(f"N = {N}", 7e-10 * N**3, "lower N")


def _fisher_multiplicities(d: int) -> int:
    """1 + d + N(d, 2): the eigenvalues in the three leading clusters (degrees l = 0, 1, 2)."""
    return 1 + d + (d + 2) * (d - 1) // 2


def _check_fisher(v: dict[str, Any]) -> None:
    d, m = v["d"], v["m"]
    need = _fisher_multiplicities(d)
    if m < need:  # fewer features than the three clusters' eigenvalues: the clusters are not there
        raise DomainError("m", m, f"m >= 1 + d + N(d, 2) = {need} at d = {d}",
                          reason="is fewer than the three leading clusters' eigenvalues")
    # m × m eigendecomposition: measured 0.43 s at m = 1000, 3.4 s at 2000, 35 s at 4000 (∝ m³);
    # J from W (d × m): d·m² multiply-adds
    _run_cost(f"m = {m}", 6e-10 * m**3 + 1e-9 * d * m**2, "lower m (or d)")


def _check_quadratic(v: dict[str, Any]) -> None:
    N, p, ps, t_max = v["N"], v["p"], v["p_star"], v["t_max"]
    steps = float(t_max) * N  # one-pass SGD: one sample per step, t = step / N
    # per step ≈ 20 µs of interpreter overhead + 3 ns per entry of W and W* (measured 2.2 s at
    # N = 1000, t_max = 60; 6.9 s at N = 4000, t_max = 20; p = 4, p* = 2)
    _run_cost(f"t_max = {fraction_str(t_max)}", steps * (2e-5 + 3e-9 * (p + ps) * N),
              "lower t_max or N (SGD runs t_max·N steps)")


def _check_recovery(v: dict[str, Any]) -> None:
    d, d1 = v["d"], v["d1"]
    D = d * (d + 1) // 2  # degree-2 Hermite features
    n = round(float(v["delta"]) * D)
    if not 10 <= n <= 2 * 10**6:
        raise DomainError("delta", short_value(v["delta"]), f"10 <= n = δ·D <= 2e6 (D = {D} at "
                          f"d = {d})", reason=f"gives n = {n} samples")
    if d1 > D:
        raise DomainError("d1", d1, f"d1 <= D = {D} at d = {d}", reason="is out of range")
    # Ĉ accumulated by GEMMs over n (+ 12000 fit/test) samples of D features, then a D × D
    # eigendecomposition: measured 1.1 s at d = 40, δ = 20 (estimate 1.9 s)
    _run_cost(f"delta = {fraction_str(v['delta'])}", 1e-10 * (n + 12000) * D**2 + 1e-9 * D**3,
              "lower delta or d")


def _check_claims(v: dict[str, Any]) -> None:
    from fltheory.claims.registry import select

    wanted = str(v["claims"]).split(",")
    paper = wanted[0].split(".")[0]
    known = {c.id for c in select(paper)}
    for claim_id in wanted:
        if claim_id not in known:
            raise DomainError("claims", claim_id, "claim ids of one paper (fltheory verify "
                              "--list), comma-separated", reason="is not a claim of " + paper)


TASKS: dict[str, Task] = {t.id: t for t in (
    Task("twostep.term_constants",
         "two-step GD (reused/fresh batch), N = n = d: estimated constants Ĉ_k(v) of the "
         "second-step Taylor terms k = 0..2 along β1, β2 and a random direction",
         {"N": Param("int", 500, 10, 6000), "batch": Param(("reused", "fresh"), "reused")},
         _twostep_terms, check=_check_twostep),
    Task("fisher.clusters",
         "random ReLU features: the three leading eigenvalue clusters of J (means, sizes) and "
         "their share of the trace",
         {"d": Param("int", 5, 2, 1000), "m": Param("int", 1000, 2, 20000)}, _fisher_clusters,
         check=_check_fisher),
    Task("quadratic.escape",
         "one-pass SGD in a quadratic network from W0 ~ N(0, 1/4): escape time (first "
         "‖ρ‖ > 1/2), final test loss, initial ‖ρ‖",
         {"N": Param("int", 1000, 10, 20000), "p": Param("int", 4, 1, 100),
          "p_star": Param("int", 2, 1, 100),
          "eta": Param("rational", Fraction(1, 10), 0, 1, low_open=True),
          "t_max": Param("rational", Fraction(60), 0, 1000, low_open=True)},
         _quadratic_escape, check=_check_quadratic),
    Task("recovery.spectral",
         "the layer-wise spectral algorithm (q = 2) at n = δ·D: overlaps ρ_k² and test "
         "MSE/Var(y)",
         {"d": Param("int", 24, 2, 60),
          "delta": Param("rational", Fraction(10), 0, 10**6, low_open=True),
          "d1": Param("int", 8, 1, 64),
          "gamma": Param("rational", Fraction(1), 0, 1000, low_open=True),
          "features": Param(("gaussian", "hermite"), "gaussian")},
         _recovery_spectral, check=_check_recovery),
    Task("check.normal", "self-check: mean and second moment of n seeded normals",
         {"n": Param("int", 1000, 1, 10**7)}, _check_normal),
    Task("check.fail", "self-check: raises when x equals bad (failure reporting)",
         {"x": Param("int", 0, -10**9, 10**9), "bad": Param("int", 1, -10**9, 10**9)},
         _check_fail),
    Task("check.sleep", "self-check: sleeps (parallel speed-up, interruption)",
         {"seconds": Param("rational", Fraction(1, 10), 0, 30)}, _check_sleep),
    Task("verify.claims", "registered claims of one paper at a size (what `verify` runs in "
         "parallel, one task per paper; not aggregated)",
         {"claims": Param("str", "hermite.coefficient"),
          "size": Param(("small", "large"), "small")},
         _claims, derive_seed=False, check=_check_claims),
)}


def get_task(task_id: str) -> Task:
    if task_id not in TASKS:
        raise DomainError("TASK", task_id, "one of " + ", ".join(sorted(TASKS)),
                          reason="is not a sweepable simulation (fltheory sweep --list)")
    return TASKS[task_id]
