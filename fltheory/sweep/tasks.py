"""The simulations a sweep can run: each takes its parameters and one seed and returns a flat
dict of numbers (what the aggregation averages).

Parameters are declared with a kind — ``int``, ``rational`` (exact on the command line, a float
at evaluation) or a tuple of choices — and a default; a grid point is the defaults overridden by
``--grid`` values. The functions import their simulators lazily, so listing tasks is light.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fltheory.exact import DomainError, fraction_str, parse_count, parse_rational

__all__ = ["TASKS", "Task", "canonical", "get_task", "parse_value"]

Kind = str | tuple[str, ...]


@dataclass(frozen=True)
class Task:
    id: str
    description: str
    params: Mapping[str, tuple[Kind, Any]]  # name -> (kind, default)
    func: Callable[[dict[str, Any], int], dict[str, Any]]
    derive_seed: bool = True  # False: the user's seed is passed unchanged (claims)


def parse_value(task: Task, name: str, text: str) -> Any:
    """A grid value from the command line, exactly (rationals stay Fractions)."""
    if name not in task.params:
        raise DomainError("grid", name, "one of " + ", ".join(task.params),
                          reason=f"is not a parameter of {task.id}")
    kind = task.params[name][0]
    if kind == "int":
        return parse_count(text, name, 0)
    if kind == "rational":
        return parse_rational(text, name)
    if kind == "str":
        return text
    if text not in kind:
        raise DomainError(name, text, " or ".join(kind))
    return text


def canonical(task: Task, overrides: Mapping[str, Any]) -> dict[str, str]:
    """All parameters (defaults filled) as strings: the store key and what tasks receive."""
    out = {}
    for name, (_, default) in sorted(task.params.items()):
        value = overrides.get(name, default)
        out[name] = fraction_str(value) if isinstance(value, Fraction) else str(value)
    return out


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
    return {"escape_time": float(t[escaped[0]]) if len(escaped) else math.nan,
            "final_test_loss": float(run.test_loss[-1]),
            "initial_overlap": float(norms[0])}


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


TASKS: dict[str, Task] = {t.id: t for t in (
    Task("twostep.term_constants",
         "two-step GD (reused/fresh batch), N = n = d: estimated constants Ĉ_k(v) of the "
         "second-step Taylor terms k = 0..2 along β1, β2 and a random direction",
         {"N": ("int", 500), "batch": (("reused", "fresh"), "reused")}, _twostep_terms),
    Task("fisher.clusters",
         "random ReLU features: the three leading eigenvalue clusters of J (means, sizes) and "
         "their share of the trace",
         {"d": ("int", 5), "m": ("int", 1000)}, _fisher_clusters),
    Task("quadratic.escape",
         "one-pass SGD in a quadratic network from W0 ~ N(0, 1/4): escape time (first "
         "‖ρ‖ > 1/2), final test loss, initial ‖ρ‖",
         {"N": ("int", 1000), "p": ("int", 4), "p_star": ("int", 2),
          "eta": ("rational", Fraction(1, 10)), "t_max": ("rational", Fraction(60))},
         _quadratic_escape),
    Task("recovery.spectral",
         "the layer-wise spectral algorithm (q = 2) at n = δ·D: overlaps ρ_k² and test "
         "MSE/Var(y)",
         {"d": ("int", 24), "delta": ("rational", Fraction(10)), "d1": ("int", 8),
          "gamma": ("rational", Fraction(1)), "features": (("gaussian", "hermite"), "gaussian")},
         _recovery_spectral),
    Task("check.normal", "self-check: mean and second moment of n seeded normals",
         {"n": ("int", 1000)}, _check_normal),
    Task("check.fail", "self-check: raises when x equals bad (failure reporting)",
         {"x": ("int", 0), "bad": ("int", 1)}, _check_fail),
    Task("check.sleep", "self-check: sleeps (parallel speed-up, interruption)",
         {"seconds": ("rational", Fraction(1, 10))}, _check_sleep),
    Task("verify.claims", "registered claims of one paper at a size (what `verify` runs in "
         "parallel, one task per paper; not aggregated)",
         {"claims": ("str", "hermite.coefficient"), "size": (("small", "large"), "small")},
         _claims, derive_seed=False),
)}


def get_task(task_id: str) -> Task:
    if task_id not in TASKS:
        raise DomainError("TASK", task_id, "one of " + ", ".join(sorted(TASKS)),
                          reason="is not a sweepable simulation (fltheory sweep --list)")
    return TASKS[task_id]
