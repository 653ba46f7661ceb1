"""Claims of the quadratic-network paper (Bocchi et al. 2026). Mean-field normalisation a = 1/p,
b = 1/p*, η_w = pη; isotropic teacher T = I (see :mod:`fltheory.papers.quadratic.theory`).

Seeds: repetition s of a claim's simulation runs on ``seeding.children(seed, n)[s]`` (one
SeedSequence per start; :mod:`fltheory.papers.quadratic.sim` keys the teacher, the start, the
samples and the test set under it). The records only: the both-sides pieces they share with the
command and the figure (the ODE from a sampled start, an escape pair) are
:mod:`fltheory.papers.quadratic.runs`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.registry import Claim, Point, Verdict
from fltheory.claims.stats import linear_fit, mean_se, z_crit
from fltheory.papers.quadratic import sim, theory
from fltheory.papers.quadratic.runs import escape_pair, ode_from_sample
from fltheory.simkit.seeding import SeedLike, child, children

__all__ = ["CLAIMS", "KEY_COLD_PREDICTION", "KEY_MIX", "SIM_KEYS"]

#: seeding key of the Monte Carlo in the cold-start drift prediction (a prediction is
#: deterministic: its draws hang from a fixed root, not from the run's seed)
KEY_COLD_PREDICTION = 0
_PREDICTION_ROOT = 12345
#: the seeding keys :mod:`fltheory.papers.quadratic.sim` uses under a run's seed (its ``KEY_*``)
SIM_KEYS = frozenset(v for k, v in vars(sim).items() if k.startswith("KEY_"))
#: seeding key of the random teacher mixture of the anisotropic implicit-bias start; drawn
#: under the same run seed as the simulation, so it is one past every key the simulator
#: declares: disjoint by construction (5 while the simulator's keys are 0..4)
KEY_MIX = max(SIM_KEYS) + 1


#: y-axis labels of the report's figures shared by several points
QDIAG = "mean diagonal of Q on the plateau"
T_ESC = "escape time t_esc"
S_NORM = "norm of a change of S at t_max (legend)"
DRIFT = "mean drift ‖S(t_end) − S(0)‖"


def _run_points(rows: np.ndarray, value: Callable[[np.ndarray], float], series: str,
                x_label: str = "N", x: Callable[[np.ndarray], float] | None = None,
                quantity: str = "") -> list[Point]:
    """One point per run of ``rows`` (a column of ln N by default, the measured column
    ``value(row)``), for the report's figure; runs whose value is not finite are left out."""
    out = []
    for row in rows:
        m = float(value(row))
        at = float(round(math.exp(row[0]), 6) if x is None else x(row))
        if math.isfinite(m) and math.isfinite(at):
            out.append(Point(f"run at {x_label} = {at:g}", m, x=at, x_label=x_label,
                             series=series, quantity=quantity))
    return out


def _slope_point(label: str, slope: float, se: float, predicted: float, band: float | None,
                 series: str = "log-log slope", quantity: str = "log-log slope in N") -> Point:
    return Point(label, slope, predicted, se, band, series=series, quantity=quantity)


def _warm_start(N: int, p: int, ps: int, seed: SeedLike) -> tuple[np.ndarray, np.ndarray]:
    W0, W_star = sim.cold_start(N, p, ps, seed)
    return 0.6 * np.vstack([W_star[k % ps] for k in range(p)]) + W0, W_star


def _sim_deviation(params: Mapping[str, Any], seed: int) -> np.ndarray:
    """max_t |SGD − ODE| over Q and ρ (t in the grid), the ODE started from the same sampled
    initial overlaps, for each N and seed: rows (ln N, ln deviation)."""
    p, ps, eta = params["p"], params["p_star"], float(params["eta"])
    t = np.linspace(0, params["t_max"], 21)
    rows = []
    for N in params["N_grid"]:
        for rep in children(seed, params["seeds"]):
            W0, Ws = _warm_start(N, p, ps, rep)
            run = sim.sgd(W0, Ws, eta, t, rep)
            ode = ode_from_sample(W0, Ws, eta, t)
            dev = max(np.abs(run.Q - ode.Q).max(), np.abs(run.R - ode.R).max())
            rows.append((math.log(N), math.log(dev)))
    return np.array(rows)


def _compare_deviation(pred: float, rows: np.ndarray) -> Verdict:
    _, _, slope, se = linear_fit(rows[:, 0], rows[:, 1])
    z, zc = abs(slope - pred) / se, z_crit(1)
    largest = math.exp(rows[rows[:, 0] == rows[:, 0].max(), 1].mean())
    points = (*_run_points(rows, lambda r: math.exp(r[1]), "max |SGD − ODE| per run",
                           quantity="max over t of |SGD − ODE|"),
              _slope_point("d ln max|SGD − ODE| / d ln N", slope, se, float(pred), zc * se))
    return Verdict("pass" if z <= zc else "fail", "max |SGD − ODE| ∝ N^(−1/2) (t ≤ t_max, "
                   "warm start)",
                   f"log-log slope {slope:.2f} ± {se:.2f} (|z| = {z:.2f}; from 0: "
                   f"{abs(slope) / se:.1f}); deviation {largest:.3f} at the largest N",
                   f"|z| <= {zc:.2f}", points=points)


def _predict_plateau(params: Mapping[str, Any]) -> dict[str, float]:
    r = theory.plateau(params["p"], params["p_star"], params["eta"])
    r0 = theory.plateau(params["p"], params["p_star"], Fraction(0))
    return {"q": r.q, "q_small_eta": r0.q}


def _sim_plateau(params: Mapping[str, Any], seed: int) -> np.ndarray:
    """Mean diagonal of Q over t ∈ [2, 6] for SGD started on the plateau: Q(0) = q* I, ρ(0) = 0
    (student rows orthogonal to the teacher), before the escape."""
    p, ps, eta, N = params["p"], params["p_star"], float(params["eta"]), params["N"]
    q = theory.plateau(p, ps, params["eta"]).q
    t = np.linspace(0, 6, 25)
    window = (t >= 2) & (t <= 6)
    values = []
    for rep in children(seed, params["seeds"]):
        W0, W_star = sim.plateau_point(p, ps, N, q, rep)
        run = sim.sgd(W0, W_star, eta, t, rep)
        values.append(float(np.mean([np.trace(Q) / p for Q in run.Q[window]])))
    return np.array(values)


def _compare_plateau(pred: dict[str, float], values: np.ndarray) -> Verdict:
    mean, se = mean_se(values)
    zc = z_crit(1)
    z = abs(mean - pred["q"]) / se
    points = (Point("mean diagonal of Q on the plateau against q*(η)", mean, float(pred["q"]),
                    se, zc * se, series="q*(η)", quantity=QDIAG),
              Point("the same against the small-step value q*(0) (power: must be told apart)",
                    mean, float(pred["q_small_eta"]), se, series="q*(0), not tested",
                    quantity=QDIAG))
    if abs(pred["q"] - pred["q_small_eta"]) < 2 * zc * se:
        return Verdict("inconclusive", f"q* = {pred['q']:.4f}", f"{mean:.4f} ± {se:.2g}",
                       f"|z| <= {zc:.2f}", reason="too noisy to tell q*(η) from q*(0)",
                       points=points)
    return Verdict("pass" if z <= zc else "fail",
                   f"q*(η) = {pred['q']:.4f} (η → 0: {pred['q_small_eta']:.4f})",
                   f"{mean:.4f} ± {se:.2g} over {len(values)} seeds (|z| = {z:.2f})",
                   f"|z| <= {zc:.2f}, with power against q*(0)", points=points)


def _predict_rate(params: Mapping[str, Any]) -> float:
    return theory.plateau(params["p"], params["p_star"], params["eta"]).escape_rate


def _sim_rate(params: Mapping[str, Any], seed: int) -> np.ndarray:
    """Growth rate of ‖ρ‖_F in the linear regime: SGD started on the plateau (Q(0) = q* I
    exactly) with a small teacher component (‖ρ(0)‖_F ≈ 0.05), log-linear fit over t ∈ [0, 8]
    (‖ρ‖ stays below ≈ 0.3). Rows (1/N, rate)."""
    p, ps, eta = params["p"], params["p_star"], float(params["eta"])
    q = theory.plateau(p, ps, params["eta"]).q
    t = np.linspace(0, 8, 33)
    rows = []
    for N in params["N_grid"]:
        for rep in children(seed, params["seeds"]):
            G, W_star = sim.plateau_point(p, ps, N, 1.0, rep)  # rows ⊥ teacher
            G += 0.03 * np.vstack([W_star[k % ps] for k in range(p)])
            basis, _ = np.linalg.qr(G.T)
            run = sim.sgd(basis.T * math.sqrt(N * q), W_star, eta, t, rep)
            rate = np.polyfit(t, np.log(np.linalg.norm(run.R, axis=(1, 2))), 1)[0]
            rows.append((1.0 / N, float(rate)))
    return np.array(rows)


def _compare_rate(pred: float, rows: np.ndarray) -> Verdict:
    a, se, b, _ = linear_fit(rows[:, 0], rows[:, 1])
    z, zc = abs(a - pred) / se, z_crit(1)
    points = (*_run_points(rows, lambda r: r[1], "growth rate per run", "1/N",
                           x=lambda r: r[0], quantity="growth rate r"),
              Point("N → ∞ intercept of the fit a + c/N", a, float(pred), se, zc * se, x=0.0,
                    x_label="1/N", series="fit at 1/N = 0", quantity="growth rate r"))
    return Verdict("pass" if z <= zc else "fail", f"r = {pred:.4f} (closed form)",
                   f"N → ∞ fit {a:.4f} ± {se:.4f} (|z| = {z:.2f}); SGD noise bias "
                   f"{b:+.1f}/N", f"|z| <= {zc:.2f}", points=points)


def _predict_noise(params: Mapping[str, Any]) -> dict[float, float]:
    return {t: theory.plateau_overlap_variance(params["p"], params["p_star"], params["eta"], t)
            for t in params["times"]}


def _sim_noise(params: Mapping[str, Any], seed: int) -> dict[float, np.ndarray]:
    """N × mean of ρ_km² over the p·p* entries, per seed, at each time, for SGD started exactly
    on the plateau (ρ(0) = 0, Q(0) = q* I)."""
    p, ps, eta, N = params["p"], params["p_star"], float(params["eta"]), params["N"]
    q = theory.plateau(p, ps, params["eta"]).q
    times = tuple(params["times"])
    t = np.array((0.0, *times))
    rows = []
    for rep in children(seed, params["seeds"]):
        W0, W_star = sim.plateau_point(p, ps, N, q, rep)
        run = sim.sgd(W0, W_star, eta, t, rep)
        rows.append([N * float(np.mean(run.R[i + 1] ** 2)) for i in range(len(times))])
    out = np.array(rows)
    return {tt: out[:, i] for i, tt in enumerate(times)}


def _compare_noise(pred: dict[float, float], meas: dict[float, np.ndarray]) -> Verdict:
    zc, worst, parts, points = z_crit(len(pred)), 0.0, [], []
    for t, v in pred.items():
        m, se = mean_se(meas[t])
        z = abs(m - v) / se
        worst = max(worst, z)
        parts.append(f"t={t:g}: {m:.3f} ± {se:.3f} (|z| = {z:.2f})")
        points.append(Point(f"N·E ρ² at t = {t:g}", m, float(v), se, zc * se, x=float(t),
                            x_label="t", series="N·E ρ²", quantity="N·E ρ²"))
    return Verdict("pass" if worst <= zc else "fail",
                   "N·E ρ² = " + ", ".join(f"{v:.3f}" for v in pred.values()),
                   "; ".join(parts), f"|z| <= {zc:.2f} per time", points=tuple(points))


def _escape_law(p: int, params: Mapping[str, Any], N: int) -> theory.EscapeLaw:
    return theory.escape_time_law(p, params["p_star"], params["eta"], N, q0=0.25,
                                  samples=400, dt=0.25)


def _compare_law(cells: list[tuple[str, theory.EscapeLaw, np.ndarray]], extra_tests: int = 0,
                 x_label: str = "") -> tuple[float, float, list[str], float, list[Point]]:
    """Per cell: SGD's mean escape time against the law (SGD seed error and the law's Monte
    Carlo error combined). Returns (worst |z|, bound, parts, pooled z of the noise-free law,
    points): per cell, SGD's mean against the law (band: the bound times the combined error)
    and, not tested, against the noise-free law, at x = the cell's value of ``x_label``
    (the label reads "x_label=value")."""
    zc = z_crit(len(cells) + extra_tests)
    worst, parts, num, den, points = 0.0, [], 0.0, 0.0, []
    for label, law, rows in cells:
        m, se = mean_se(rows[:, 0])
        z = abs(m - law.mean) / math.hypot(se, law.se)
        worst = max(worst, z)
        w = 1 / (se**2 + law.mean_field_se**2)
        num, den = num + w * (m - law.mean_field), den + w
        parts.append(f"{label}: SGD {m:.2f} ± {se:.2f} vs {law.mean:.2f} (|z| = {z:.2f})")
        x = float(label.removeprefix(f"{x_label}="))
        points += [Point(f"{label}: SGD mean escape time against the law", m, law.mean, se,
                         zc * math.hypot(se, law.se), x, x_label, "E t_esc, law with noise J",
                         quantity=T_ESC),
                   Point(f"{label}: against the noise-free law (power)", m, law.mean_field, se,
                         None, x, x_label, "E t_esc, noise-free law (not tested)",
                         quantity=T_ESC)]
    return worst, zc, parts, abs(num / den) * math.sqrt(den), points


def _escape_times(params: Mapping[str, Any], seed: int) -> dict[int, Any]:
    """{p: array (seeds, 2) of (t_SGD, t_ODE from the same start)} at N."""
    t = np.linspace(0, params["t_max"], int(4 * params["t_max"]) + 1)
    return {p: np.array([escape_pair(params["N"], p, params["p_star"], params["eta"], t, rep)
                         for rep in children(child(seed, p), params["seeds"])])
            for p in params["p_grid"]}


def _predict_escape(params: Mapping[str, Any]) -> dict[int, theory.EscapeLaw]:
    return {p: _escape_law(p, params, params["N"]) for p in params["p_grid"]}


def _compare_escape(pred: dict[int, theory.EscapeLaw], meas: dict[int, Any]) -> Verdict:
    # Two checks, Bonferroni: (1) per p, SGD's mean escape time against the law (mean-field ODE
    # from a Gaussian start whose variance carries the plateau noise); (2) paired per seed,
    # t_SGD − t_ODE(same start) pooled over p against the law's noise shift — this isolates
    # the derived SGD correction from the seed scatter of ‖ρ(0)‖.
    cells = [(f"p={p}", pred[p], meas[p]) for p in sorted(meas)]
    worst, zc, parts, z_mf, points = _compare_law(cells, extra_tests=1, x_label="p")
    d = np.concatenate([meas[p][:, 0] - meas[p][:, 1] - pred[p].shift for p in sorted(meas)])
    dm, dse = mean_se(d)
    shift = float(np.mean([pred[p].shift for p in meas]))
    obs, obs_se = mean_se(np.concatenate([meas[p][:, 0] - meas[p][:, 1] for p in meas]))
    z_shift = abs(dm) / dse
    ok = worst <= zc and z_shift <= zc
    for p in sorted(meas):
        m, se = mean_se(meas[p][:, 0] - meas[p][:, 1])
        points.append(Point(f"p={p}: t_SGD − t_ODE(same start)", m, pred[p].shift, se,
                            x=float(p), x_label="p", series="shift per p (not tested alone)",
                            quantity="t_SGD − t_ODE (same start)"))
    points.append(Point("t_SGD − t_ODE(same start) − the law's shift, pooled over p", dm, 0.0,
                        dse, zc * dse, series="shift, pooled (tested)",
                        quantity="t_SGD − t_ODE − the law's shift, pooled over p"))
    return Verdict("pass" if ok else "fail",
                   "E t_esc(p) = " + ", ".join(f"{pred[p].mean:.2f}" for p in sorted(pred))
                   + f"; SGD − ODE(same start) {shift:+.2f} (plateau noise J ≈ "
                   f"{pred[min(pred)].noise_variance:.3f})",
                   "; ".join(parts) + f"; shift {obs:+.2f} ± {obs_se:.2f} (|z| = {z_shift:.2f});"
                   f" without the noise term the law is off by |z| = {z_mf:.1f} (pooled)",
                   f"|z| <= {zc:.2f} per p and for the shift", points=tuple(points))


def _predict_slope_N(params: Mapping[str, Any]) -> dict[int, theory.EscapeLaw]:
    return {N: _escape_law(params["p"], params, N) for N in params["N_grid"]}


def _sim_slope_N(params: Mapping[str, Any], seed: int) -> dict[int, Any]:
    """{N: array (seeds, 2) of (t_SGD, t_ODE from the same start)}."""
    t = np.linspace(0, params["t_max"], int(4 * params["t_max"]) + 1)
    return {N: np.array([escape_pair(N, params["p"], params["p_star"], params["eta"], t, rep)
                         for rep in children(seed, params["seeds"])])
            for N in params["N_grid"]}


def _compare_slope_N(pred: dict[int, theory.EscapeLaw], meas: dict[int, Any]) -> Verdict:
    cells = [(f"N={N}", pred[N], meas[N]) for N in sorted(meas)]
    worst, zc, parts, z_mf, points = _compare_law(cells, x_label="N")
    Ns = sorted(meas)
    x = np.concatenate([np.full(len(meas[N]), math.log(N)) for N in Ns])
    _, _, slope, se = linear_fit(x, np.concatenate([meas[N][:, 0] for N in Ns]))
    law_slope = linear_fit(np.log(np.array(Ns, float)), np.array([pred[N].mean for N in Ns]))[2]
    r = pred[Ns[0]].rate
    points += _run_points(np.column_stack([x, np.concatenate([meas[N][:, 0] for N in Ns])]),
                          lambda row: row[1], "SGD escape time per run", quantity=T_ESC)
    points.append(_slope_point("SGD's d t_esc/d ln N against the law's over the grid "
                               "(reported)", slope, se, law_slope, None, "slope in ln N",
                               quantity="d t_esc / d ln N"))
    return Verdict("pass" if worst <= zc else "fail",
                   "E t_esc(N) = " + ", ".join(f"{pred[N].mean:.2f}" for N in Ns)
                   + f"; slope over the grid {law_slope:.3f} (→ 1/(2r) = {1 / (2 * r):.3f})",
                   "; ".join(parts) + f"; SGD slope {slope:.2f} ± {se:.2f}; without the noise "
                   f"term the law is off by |z| = {z_mf:.1f} (pooled)",
                   f"|z| <= {zc:.2f} per N", points=tuple(points))


def _predict_counts(params: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    return [theory.hessian_solution_counts(p, ps, N) for p, ps, N in params["cases"]]


def _sim_counts(params: Mapping[str, Any], seed: int) -> list[tuple[int, int, int]]:
    return [sim.hessian_counts_at_solution(p, ps, N, child(seed, i))
            for i, (p, ps, N) in enumerate(params["cases"])]


def _compare_counts(pred: list[tuple[int, int, int]], meas: list[tuple[int, int, int]]
                    ) -> Verdict:
    bad = [(p, m) for p, m in zip(pred, meas, strict=True) if p != m]
    points = tuple(Point(f"case {i + 1}: {kind} eigenvalues", float(m[k]), float(p[k]),
                         band=0.0, x=float(i + 1), x_label="case", series=kind,
                         quantity="number of Hessian eigenvalues")
                   for i, (p, m) in enumerate(zip(pred, meas, strict=True))
                   for k, kind in enumerate(("negative", "zero", "positive")))
    return Verdict("pass" if not bad else "fail",
                   "; ".join(f"{c}" for c in pred), "; ".join(f"{c}" for c in meas),
                   "exact equality of (negative, zero, positive) counts", points=points)


def _predict_plateau_counts(params: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    return [theory.hessian_plateau_counts(p, ps, N) for p, ps, N in params["cases"]]


def _sim_plateau_counts(params: Mapping[str, Any], seed: int) -> list[tuple[int, int, int]]:
    out = []
    for i, (p, ps, N) in enumerate(params["cases"]):
        W, W_star = sim.plateau_point(p, ps, N, p / (p + 2), child(seed, i))
        out.append(sim.population_hessian_counts(W, W_star, 1 / p, 1 / ps))
    return out


def _predict_dims(params: Mapping[str, Any]) -> list[int]:
    return [theory.manifold_dimension(p, p) for p, _ in params["cases"]]


def _sim_dims(params: Mapping[str, Any], seed: int) -> list[int]:
    return [sim.hessian_counts_at_solution(p, p, N, child(seed, i))[1]
            for i, (p, N) in enumerate(params["cases"])]


def _compare_dims(pred: list[int], meas: list[int]) -> Verdict:
    points = tuple(Point(f"case {i + 1}: Hessian zero modes against the manifold's dimension",
                         float(m), float(p), band=0.0, x=float(i + 1), x_label="case",
                         series="dimension", quantity="number (zero modes, dimension)")
                   for i, (p, m) in enumerate(zip(pred, meas, strict=True)))
    return Verdict("pass" if pred == meas else "fail", f"dimensions {pred}",
                   f"Hessian zero modes {meas}", "exact equality", points=points)


def _polar(R: np.ndarray) -> np.ndarray:
    """S = ρ(ρᵀρ)^{−1/2} by the simulator side's numpy (SVD), independent of the theory's."""
    U, _, Vt = np.linalg.svd(R, full_matrices=False)
    out: np.ndarray = U @ Vt
    return out


def _s_drift_sgd(N: int, p: int, ps: int, eta: Fraction, taus: np.ndarray, t_max: float,
                 seed: SeedLike) -> tuple[float, float]:
    """(drift of S along SGD, drift along the ODE from the same initial overlaps), measured as
    ‖S(t_max) − S(0)‖_F with S = ρ(ρᵀρ)^{−1/2} computed by the simulator's own numpy."""
    G, W_star = sim.cold_start(N, p, ps, seed, q0=1.0, eigenvalues=taus)
    # Rows: a random mixture with a teacher component, orthonormalised so that Q(0) = I/4
    # exactly (the isotropy condition holds at t = 0, not just up to O(N^(−1/2))).
    mix = G + 0.6 * np.vstack([W_star[k % ps] / math.sqrt(taus[k % ps]) for k in range(p)])
    basis, _ = np.linalg.qr(mix.T)
    W0 = basis.T * math.sqrt(N / 4)
    t = np.array([0.0, t_max])
    run = sim.sgd(W0, W_star, eta, t, seed)
    ode = ode_from_sample(W0, W_star, eta, t)
    return (float(np.linalg.norm(_polar(run.R[-1]) - _polar(run.R[0]))),
            float(np.linalg.norm(theory.polar_factor(ode.R[-1]) - theory.polar_factor(ode.R[0]))))


def _sim_bias(params: Mapping[str, Any], seed: int) -> np.ndarray:
    rows = []
    taus = np.array([float(t) for t in params["teacher"]])
    for N in params["N_grid"]:
        for rep in children(seed, params["seeds"]):
            sgd_drift, ode_drift = _s_drift_sgd(N, params["p"], params["p_star"], params["eta"],
                                                taus, params["t_max"], rep)
            rows.append((math.log(N), sgd_drift, ode_drift))
    return np.array(rows)


def _compare_bias_iso(pred: float, rows: np.ndarray) -> Verdict:
    # S is exactly conserved by the ODE here (pred = 0); SGD's drift is fluctuation: → 0 as
    # N^(−1/2).
    _, _, slope, se = linear_fit(rows[:, 0], np.log(rows[:, 1]))
    z, zc = abs(slope + 0.5) / se, z_crit(2)
    ode_max = float(rows[:, 2].max())
    ok = z <= zc and ode_max < 1e-6
    points = (*_run_points(rows, lambda r: r[1], "SGD drift ‖S(t_max) − S(0)‖ per run",
                           quantity="SGD drift ‖S(t_max) − S(0)‖"),
              _slope_point("d ln SGD drift / d ln N", slope, se, -0.5, zc * se),
              Point("largest ODE drift of S (conserved: must be < 1e-6)", ode_max, 0.0,
                    band=1e-6, series="ODE drift", quantity="largest ODE drift of S"))
    return Verdict("pass" if ok else "fail",
                   "S conserved: ODE drift 0; SGD drift ∝ N^(−1/2)",
                   f"ODE drift max {ode_max:.1e}; SGD drift slope {slope:.2f} ± {se:.2f}, "
                   f"{rows[rows[:, 0] == rows[:, 0].max(), 1].mean():.3f} at the largest N",
                   f"ODE drift < 1e-6 and |slope + 1/2| <= {zc:.2f}·SE", points=points)


def _aniso_rows(params: Mapping[str, Any], seed: int) -> np.ndarray:
    """Anisotropic teacher, isotropic Q(0) = I/4, overlaps ‖ρ(0)‖ ≈ 0.2 in a random direction:
    rows (ln N, ‖S_SGD(t) − S_ODE(t)‖, ‖S_ODE(t) − S(0)‖, ‖S_SGD(t) − S(0)‖) at t = t_max, the
    ODE started from each run's sampled overlaps, polar factors by the simulator's numpy."""
    p, ps, eta, t_max = params["p"], params["p_star"], params["eta"], params["t_max"]
    taus = np.array([float(x) for x in params["teacher"]])

    rows = []
    for N in params["N_grid"]:
        for rep in children(seed, params["seeds"]):
            G, W_star = sim.cold_start(N, p, ps, rep, q0=1.0, eigenvalues=taus)
            G -= (G @ W_star.T / N) @ np.linalg.inv(W_star @ W_star.T / N) @ W_star
            M = np.random.default_rng(child(rep, KEY_MIX)).standard_normal((p, ps))
            mix = G + 0.2 * M @ (W_star / np.sqrt(taus)[:, None])
            basis, _ = np.linalg.qr(mix.T)
            W0 = basis.T * math.sqrt(N / 4)  # Q(0) = I/4 exactly
            t = np.array([0.0, t_max])
            run = sim.sgd(W0, W_star, eta, t, rep)
            ode = ode_from_sample(W0, W_star, eta, t)
            S0, S_ode, S_sgd = _polar(ode.R[0]), _polar(ode.R[-1]), _polar(run.R[-1])
            rows.append((math.log(N), float(np.linalg.norm(S_sgd - S_ode)),
                         float(np.linalg.norm(S_ode - S0)), float(np.linalg.norm(S_sgd - S0))))
    return np.array(rows)


def _compare_aniso(pred: float, rows: np.ndarray) -> Verdict:
    # Non-conservation is decided on the ODE: every start must drift by more than 1e-8, far
    # above the integration's own level (isotropic runs conserve S to ~1e-14, implicit_bias);
    # SGD following the ODE's S and not S(0) is the slope of its distance to S_ODE: → 0 as
    # N^(−1/2) (fluctuations, including diffusion along the zero-loss manifold).
    _, _, slope, se = linear_fit(rows[:, 0], np.log(rows[:, 1]))
    z, zc = abs(slope + 0.5) / se, z_crit(2)
    big = rows[:, 0] == rows[:, 0].max()
    ode_min = float(rows[:, 2].min())
    ok = z <= zc and ode_min > 1e-8
    points = (*_run_points(rows, lambda r: r[1], "‖S_SGD − S_ODE‖ at t_max per run",
                           quantity=S_NORM),
              *_run_points(rows, lambda r: r[2], "ODE drift ‖S_ODE − S(0)‖ per run (each "
                           "must exceed 1e-8)", quantity=S_NORM),
              *_run_points(rows, lambda r: r[3], "SGD drift ‖S_SGD − S(0)‖ per run (reported)",
                           quantity=S_NORM),
              _slope_point("d ln ‖S_SGD − S_ODE‖ / d ln N", slope, se, -0.5, zc * se))
    return Verdict("pass" if ok else "fail",
                   "S not conserved (ODE drift O(1)); SGD's S → the ODE's as N^(−1/2)",
                   f"ODE drift of S: mean {rows[:, 2].mean():.3f}, min {ode_min:.3f}; SGD − ODE "
                   f"slope {slope:.2f} ± {se:.2f}; at the largest N: ‖S_SGD − S_ODE‖ "
                   f"{rows[big, 1].mean():.3f}, ‖S_SGD − S(0)‖ {rows[big, 3].mean():.3f}",
                   f"ODE drift > 1e-8 every start and |slope + 1/2| <= {zc:.2f}·SE",
                   points=points)


def _cold_run(N: int, p: int, ps: int, eta: Fraction | float, t_end: float, seed: SeedLike
              ) -> tuple[float, float, float]:
    """One cold start W0 ~ N(0, 1/4) (the escape claims' start), orthonormal teacher: (drift of
    S along SGD, drift along the ODE from the same sampled overlaps, ‖ρ_SGD(t_end)‖_F), drifts
    ‖S(t_end) − S(0)‖_F with S = ρ(ρᵀρ)^{−1/2} by the simulator's numpy."""
    W0, W_star = sim.cold_start(N, p, ps, seed)
    t = np.array([0.0, t_end])
    run = sim.sgd(W0, W_star, eta, t, seed)
    ode = ode_from_sample(W0, W_star, eta, t)
    S0 = _polar(run.R[0])
    return (float(np.linalg.norm(_polar(run.R[-1]) - S0)),
            float(np.linalg.norm(_polar(ode.R[-1]) - S0)), float(np.linalg.norm(run.R[-1])))


def _cold_cells(params: Mapping[str, Any]) -> list[tuple[int, Fraction]]:
    """The (N, η) cells: the N grid at η, and the η grid at N_eta (a shared cell once)."""
    cells = [(N, Fraction(params["eta"])) for N in params["N_grid"]]
    cells += [(params["N_eta"], Fraction(e)) for e in params["eta_grid"]]
    return list(dict.fromkeys(cells))


def _sim_cold(params: Mapping[str, Any], seed: int) -> dict[tuple[int, Fraction], np.ndarray]:
    """{(N, η): array (seeds, 3) of (SGD drift, ODE drift, ‖ρ(t_end)‖_F)}, t_end = t_eta/η:
    the time scale of the whole run is 1/η (rates ∝ η), so every η is read at the same stage."""
    p, ps = params["p"], params["p_star"]
    return {(N, eta): np.array([_cold_run(N, p, ps, eta, float(params["t_eta"] / eta), rep)
                                for rep in children(seed, params["seeds"])])
            for N, eta in _cold_cells(params)}


def _predict_cold(params: Mapping[str, Any]) -> dict[Fraction, tuple[float, float, float]]:
    """{η: (J, E drift, its Monte Carlo SE)}:
    :func:`fltheory.papers.quadratic.theory.cold_start_drift`
    (derivation there), its Monte Carlo drawn from a fixed root (a prediction is deterministic)."""
    etas = sorted({e for _, e in _cold_cells(params)})
    return theory.cold_start_drift(params["p"], params["p_star"], etas, q0=Fraction(1, 4),
                                   mc=params["mc"],
                                   seed=child(_PREDICTION_ROOT, KEY_COLD_PREDICTION))


def _compare_cold(pred: dict[Fraction, tuple[float, float, float]],
                  meas: dict[tuple[int, Fraction], np.ndarray]) -> Verdict:
    # Per (N, η) cell the seed mean of SGD's drift against E drift(η) (seed SE and Monte Carlo
    # SE combined); and, over the N grid at fixed η, the log-log slope of the drift against N
    # against 0 (the law does not depend on N); Bonferroni over all. The power against "a
    # finite-N fluctuation" (drift ∝ N^(−1/2), the warm start's law) is reported as the slope's
    # |z| from −1/2.
    cells = sorted(meas)
    zc = z_crit(len(cells) + 1)
    predicted = ("E‖S_end − S(0)‖ = " + ", ".join(f"{pred[e][1]:.2f} (η={e}, J={pred[e][0]:.3f})"
                                                  for e in sorted(pred)) + "; independent of N")
    low = min(float(meas[c][:, 2].min()) for c in cells)
    points = [Point("smallest ‖ρ(t_end)‖_F (converged: must be >= 1.5, the solution's 2)", low,
                    series="convergence check", quantity="smallest ‖ρ(t_end)‖_F")]
    if low < 1.5:
        return Verdict("inconclusive", predicted, f"smallest ‖ρ(t_end)‖_F {low:.2f}",
                       f"|z| <= {zc:.2f} per cell and for the slope",
                       reason="some run had not converged by t_end (‖ρ‖_F < 1.5 of 2)",
                       points=tuple(points))
    worst, parts = 0.0, []
    eta0 = max({e for _, e in cells}, key=lambda e: sum(c[1] == e for c in cells))  # N grid
    for N, eta in cells:
        m, se = mean_se(meas[(N, eta)][:, 0])
        _, d, mc = pred[eta]
        z = abs(m - d) / math.hypot(se, mc)
        worst = max(worst, z)
        parts.append(f"N={N} η={eta}: {m:.2f} ± {se:.2f} vs {d:.2f} (|z| = {z:.2f}; ODE "
                     f"{meas[(N, eta)][:, 1].mean():.3f})")
        points += _cold_points(N, eta, eta0, [c for c in cells if c[1] != eta0], m, se, d,
                               zc * math.hypot(se, mc), float(meas[(N, eta)][:, 1].mean()))
    grid = [c for c in cells if c[1] == eta0]
    x = np.concatenate([np.full(len(meas[c]), math.log(c[0])) for c in grid])
    y = np.log(np.concatenate([meas[c][:, 0] for c in grid]))
    _, _, slope, se = linear_fit(x, y)
    z_slope = abs(slope) / se
    ok = worst <= zc and z_slope <= zc
    points.append(_slope_point(f"d ln drift / d ln N at η = {eta0}", slope, se, 0.0, zc * se,
                               quantity="log-log slope of the drift in N"))
    return Verdict("pass" if ok else "fail", predicted,
                   "; ".join(parts) + f"; d ln drift/d ln N at η={eta0}: {slope:+.2f} ± {se:.2f}"
                   f" (|z| from 0 = {z_slope:.2f}, from −1/2 = {abs(slope + 0.5) / se:.1f})",
                   f"|z| <= {zc:.2f} per cell and for the slope", points=tuple(points))


def _cold_points(N: int, eta: Fraction, eta0: Fraction, eta_cells: list[tuple[int, Fraction]],
                 m: float, se: float, d: float, band: float, ode: float) -> list[Point]:
    """Points of one (N, η) cell of the cold-start claim: SGD's mean drift against the law
    (tested; the band combines the seed and Monte Carlo errors) and the ODE's mean drift from
    the same starts (reported), on the N axis for the η of the N grid, on the η axis for the
    cells at N_eta (the shared cell (N_eta, η0) is drawn on both axes)."""
    axes = []
    if eta == eta0:
        axes.append((float(N), "N", f"η = {eta}"))
    if eta != eta0 or N in {n for n, _ in eta_cells}:
        axes.append((float(eta), "η", f"N = {N}"))
    return [pt for x, x_label, where in axes
            for pt in (Point(f"N={N} η={eta}: SGD's mean drift of S", m, d, se, band, x, x_label,
                             f"SGD drift, {where}", quantity=DRIFT),
                       Point(f"N={N} η={eta}: the ODE's mean drift from the same starts",
                             ode, x=x, x_label=x_label, series=f"ODE drift, {where} (reported)",
                             quantity=DRIFT))]


_SOURCE = "Bocchi et al. (2026); ODEs derived in fltheory.papers.quadratic.theory"

CLAIMS = [
    Claim("quadratic.escape_rate",
          "ρ leaves the plateau exponentially at the linearised rate "
          "r = 2η(1 − q*(1 + 2/p) + 2τ/p*)",
          _predict_rate, _sim_rate, _compare_rate,
          "SGD's log-growth rate of ‖ρ‖ is biased upwards by its own noise (measured: +0.020, "
          "+0.011, +0.008 at N = 1000, 2000, 4000 for p = 4, p* = 2, η = 1/10), so the rate is "
          "fitted as a + c/N over N and seeds and the intercept compared with r, one-test z-bound",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "N_grid": (500, 1000, 2000),
                     "seeds": 6},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10),
                     "N_grid": (1000, 2000, 4000, 8000), "seeds": 12}},
          source=_SOURCE),
    Claim("quadratic.escape_time_vs_p",
          "overparameterisation shortens the escape only through the initial overlaps: from a "
          "random start, E t_esc(p) is the mean-field ODE's from Gaussian overlaps of variance "
          "(q0 + J)/N, where J is SGD's plateau noise (derived, not fitted)",
          _predict_escape, _escape_times, _compare_escape,
          "per p, the seed mean of SGD's escape time (‖ρ‖_F = 1/2) against the law, seed and "
          "Monte Carlo errors combined; and, paired per seed, t_SGD − t_ODE(same start) against "
          "the law's noise shift (≈ −ln(1 + J/q0)/(2r)), which does not vanish as N → ∞; "
          "Bonferroni over all; the noise-free law's pooled |z| is reported (the power). "
          "Measured beyond CI (p = 4): paired shift −0.88 ± 0.13 (60 seeds, N = 1000) and "
          "−1.06 ± 0.21 (40 seeds, N = 3000) against −1.08 and −1.10",
          {"small": {"p_star": 2, "eta": Fraction(1, 10), "N": 1000, "p_grid": (2, 4, 8),
                     "seeds": 6, "t_max": 40},
           "large": {"p_star": 2, "eta": Fraction(1, 10), "N": 3000, "p_grid": (2, 4, 8, 16),
                     "seeds": 12, "t_max": 50}},
          source=_SOURCE),
    Claim("quadratic.escape_time_vs_N",
          "from a random start the escape time grows as ln N/(2r) (overlaps O(N^(−1/2)) leaving "
          "the plateau at the rate r); at finite N, E t_esc(N) is the mean-field ODE's from "
          "Gaussian overlaps of variance (q0 + J)/N, J the plateau noise",
          _predict_slope_N, _sim_slope_N, _compare_slope_N,
          "per N, the seed mean of SGD's escape time against the law (seed and Monte Carlo "
          "errors combined), Bonferroni over N; the law's own slope over the grid (which "
          "approaches 1/(2r) only slowly: 2.74 over N = 250…1000, 2.90 over 1000…8000 at p = 4) "
          "and SGD's fitted slope are reported, and the noise-free law's pooled |z|",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "t_max": 40,
                     "N_grid": (250, 500, 1000, 2000), "seeds": 6},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "t_max": 40,
                     "N_grid": (250, 500, 1000, 2000, 4000, 8000), "seeds": 12}},
          source=_SOURCE),
    Claim("quadratic.hessian_solution",
          "at a zero-loss point the Hessian is marginal: no negative, p p* − p*(p*+1)/2 + "
          "(p − p*)(N − p*) zero and the rest positive eigenvalues",
          _predict_counts, _sim_counts, _compare_counts,
          "eigenvalue counts are integers: equality; the sampled Hessian (1/n)Σ∇f∇fᵀ with "
          "n = 4pN inputs has the population kernel almost surely, zeros at 1e-9 relative",
          {"small": {"cases": ((1, 1, 8), (2, 1, 8), (2, 2, 8), (3, 2, 10), (4, 2, 10),
                               (3, 3, 9))},
           "large": {"cases": ((2, 2, 20), (4, 2, 20), (8, 2, 24), (4, 4, 20))}},
          source=_SOURCE),
    Claim("quadratic.hessian_plateau",
          "the plateau is a saddle: p·p* negative, p(p−1)/2 + p(N−p−p*) zero and p(p+1)/2 "
          "positive Hessian eigenvalues",
          _predict_plateau_counts, _sim_plateau_counts, _compare_counts,
          "integer counts: equality; the simulator builds the population Hessian from the "
          "Gaussian quadratic-form identity by finite differences of the gradient, zeros at "
          "1e-7 relative",
          {"small": {"cases": ((1, 1, 6), (2, 2, 8), (3, 2, 9), (4, 2, 10), (2, 1, 7))},
           "large": {"cases": ((2, 2, 16), (4, 2, 16), (8, 2, 16))}},
          source=_SOURCE),
    Claim("quadratic.implicit_bias",
          "from a warm start — Q(0) = I/4 exactly, rows mixed with 0.6·teacher, so ρ(0) ≈ 0.26 "
          "per matched entry, O(1) — with an isotropic teacher, the ODE conserves "
          "S = ρ(ρᵀρ)^(−1/2) (the solution reached is the zero-loss point closest to the "
          "initialisation) and SGD's drift of S over t ≤ 20 vanishes as N^(−1/2) "
          "(η = 1/10, p = 4, p* = 2; N = 250…2000, large 500…4000). From a cold start SGD does "
          "not select the closest point: quadratic.cold_start_drift",
          lambda params: 0.0, _sim_bias, _compare_bias_iso,
          "the ODE conserves S exactly under these conditions (proof in "
          "theory.implicit_bias_drift; integration must show < 1e-6); SGD's drift is a "
          "finite-N fluctuation: its log-log slope against N is compared with −1/2 (Bonferroni "
          "over the two checks). The warm start matters: SGD's plateau noise is O(N^(−1/2)) "
          "like a cold start's overlaps, but small against this ρ(0)",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "teacher": (1, 1),
                     "t_max": 20, "N_grid": (250, 1000, 2000), "seeds": 4},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "teacher": (1, 1),
                     "t_max": 20, "N_grid": (500, 1000, 2000, 4000), "seeds": 8}},
          source=_SOURCE),
    Claim("quadratic.cold_start_drift",
          "from a cold random start (W0 ~ N(0, 1/4), ρ(0) = O(N^(−1/2))) SGD does not select "
          "the closest solution: S = ρ(ρᵀρ)^(−1/2) drifts by an O(1) amount that does not "
          "vanish as N → ∞ and grows with η — predicted E‖S_end − S(0)‖_F = "
          "E‖polar(A + √(J/q0) B) − polar(A)‖ (A, B Gaussian, J the plateau noise), while the "
          "ODE from the same start drifts only O(N^(−1/2)). Tested at p = 4, p* = 2, read at "
          "t = 5/η: η = 1/10 over N = 250…1000 and η = 1/20, 1/5 at N = 500 (large: "
          "N = 250…4000; η = 1/40…1/5 at N = 1000). Tested: the level per (N, η) and its "
          "N-independence; not decided: the exact η-slope (measured steeper than predicted, "
          "see why)",
          _predict_cold, _sim_cold, _compare_cold,
          "per (N, η) cell the seed mean of SGD's drift against the prediction (seed and Monte "
          "Carlo errors combined), and the log-log slope of the drift against N compared with "
          "0 within its standard error; Bonferroni over all; the slope's |z| from −1/2 (a "
          "finite-N fluctuation, the warm start's law) is reported as the power: at the small "
          "size it is only 2–4 SE (seeds 0, 1: 3.9, 2.1), so there the N-independence rests "
          "mostly on the per-cell comparison with the predicted level. Every run must "
          "have converged (‖ρ(t_end)‖_F >= 1.5, the solution's being 2) or the verdict is "
          "inconclusive; S moves by < 0.01 once ‖ρ‖_F > 1.5 (3 runs, N = 1000, η = 1/10, "
          "t ≤ 80). Measured on the large grid with 8 seeds (seed 0): η = 1/10, N = 250, 500, "
          "1000, 2000, 4000: 0.86, 0.97, 0.89, 0.84, 0.70 (± 0.11…0.16) against 0.90, log-log "
          "slope in N −0.08 ± 0.07 (5.8 SE from −1/2); N = 1000, η = 1/40, 1/20, 1/10, 1/5: "
          "0.39, 0.57, 0.89, 1.32 against 0.50, 0.68, 0.90, 1.16 — each cell within 1.8 SE, "
          "but the paired slope d ln drift/d ln η is 0.65 ± 0.08 against the predicted 0.43 "
          "(2.6 SE), cause not identified (the neglected noise once ρ = O(1) could raise the "
          "drift at large η, not lower it at small η); so the η-slope is not part of the "
          "verdict beyond the per-cell levels",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "N_grid": (250, 500, 1000),
                     "N_eta": 500, "eta_grid": (Fraction(1, 20), Fraction(1, 5)),
                     "t_eta": 5, "seeds": 12, "mc": 100000},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10),
                     "N_grid": (250, 500, 1000, 2000, 4000), "N_eta": 1000,
                     "eta_grid": (Fraction(1, 40), Fraction(1, 20), Fraction(1, 5)),
                     "t_eta": 5, "seeds": 16, "mc": 100000}},
          source=_SOURCE),
    Claim("quadratic.implicit_bias_anisotropic",
          "outside isotropy the paper's selection fails: with T = diag(3/2, 1/2) S drifts by "
          "O(1) along the ODE, so the solution reached is not the closest one, and SGD follows "
          "the ODE's drift",
          lambda params: 0.0, _aniso_rows, _compare_aniso,
          "the ODE drift is computed per start and must exceed 1e-8 (isotropic runs conserve S "
          "to ~1e-14; some random starts drift little, 0.001 was seen); the "
          "SGD − ODE distance of S at t_max must fall as N^(−1/2) (log-log slope, Bonferroni "
          "over the two checks); measured at N <= 2000: SGD carries an extra diffusion along "
          "the zero-loss manifold of ≈ 0.1 at N = 2000, reported",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "teacher": (1.5, 0.5),
                     "t_max": 20.0, "N_grid": (250, 500, 1000, 2000), "seeds": 6},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "teacher": (1.5, 0.5),
                     "t_max": 20.0, "N_grid": (500, 1000, 2000, 4000, 8000), "seeds": 8}},
          source=_SOURCE),
    Claim("quadratic.manifold_dimension",
          "for p = p* the zero-loss manifold has dimension p(p − 1)/2 > 0 (rotations), which "
          "is the whole Hessian kernel there",
          _predict_dims, _sim_dims, _compare_dims,
          "for p = p* there are no extra flat directions, so the Hessian's zero modes at a "
          "solution are exactly the manifold's tangent space; equality of integers (for "
          "p > p* the kernel also holds the (p − p*)(N − p*) quartic directions: see "
          "quadratic.hessian_solution)",
          {"small": {"cases": ((1, 6), (2, 8), (3, 9), (4, 10))},
           "large": {"cases": ((2, 20), (4, 20), (6, 24))}},
          source=_SOURCE),
    Claim("quadratic.ode_matches_sgd",
          "from a warm start (rows 0.6·w*_(k mod p*) + N(0, 1/4) noise, so ρ(0) ≈ 0.6 on the "
          "matched entries) one-pass SGD follows the derived ODEs for (Q, ρ) over t ≤ 10: the "
          "largest deviation, max over t and entries of |SGD − ODE(same start)|, falls as "
          "N^(−1/2) (η = 1/10, p = 4, p* = 2; N = 500…2000, large 500…4000). Not tested: "
          "cold starts, where plateau noise shifts SGD's escape by O(1) against the ODE from "
          "the same start (quadratic.escape_time_vs_p tests that shift)",
          lambda params: -0.5, _sim_deviation, _compare_deviation,
          "warm start (student partly aligned with the teacher), where trajectories are "
          "deterministic at N → ∞; the ODE starts from the sampled overlaps; the log-log slope of "
          "the maximal deviation on t ∈ [0, 10] against N (over N and seeds) is compared with "
          "the CLT rate −1/2 within a one-test z-bound using the slope's standard error; the "
          "|z| from 0 (no convergence) is reported as the power. N >= 500: over N = 250…1000 "
          "the fitted slope was pre-asymptotic (−0.19 ± 0.11 at seed 0), over 500…4000 it is "
          "−0.58 ± 0.06",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "t_max": 10,
                     "N_grid": (500, 1000, 2000), "seeds": 4},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "t_max": 10,
                     "N_grid": (500, 1000, 2000, 4000), "seeds": 8}},
          source=_SOURCE),
    Claim("quadratic.plateau_noise",
          "started exactly on the plateau, SGD's overlaps acquire the variance "
          "D(e^{2rt} − 1)/(2rN), D = 4η² E[(f − y)² λ² ν²] (Isserlis, closed form): the noise "
          "that sets the SGD correction to the escape time",
          _predict_noise, _sim_noise, _compare_noise,
          "N × the mean square of the p·p* overlaps per seed, seed mean against the prediction "
          "at each time, Bonferroni over times; ρ stays in the linear regime (‖ρ‖ ~ 0.1)",
          {"small": {"p": 8, "p_star": 2, "eta": Fraction(1, 10), "N": 500, "seeds": 24,
                     "times": (1.0, 3.0)},
           "large": {"p": 8, "p_star": 2, "eta": Fraction(1, 10), "N": 2000, "seeds": 48,
                     "times": (1.0, 3.0, 5.0)}},
          source=_SOURCE),
    Claim("quadratic.plateau",
          "the ρ = 0 fixed point Q = q*(η) I (closed form, with its η-dependence) is where SGD "
          "stays before escaping",
          _predict_plateau, _sim_plateau, _compare_plateau,
          "seed mean of the plateau value against q*(η), one-test z-bound; the test must also "
          "be able to tell q*(η) from the small-step value p/(p + 2)",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "N": 1000, "seeds": 6},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "N": 4000, "seeds": 12}},
          source=_SOURCE),
]
