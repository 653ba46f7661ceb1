"""Claims of the quadratic-network paper (seed 003). Mean-field normalisation a = 1/p,
b = 1/p*, η_w = pη; isotropic teacher T = I (see :mod:`fltheory.theory.quadratic`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.registry import Claim, Verdict
from fltheory.claims.stats import linear_fit, mean_se, z_crit
from fltheory.sim import quadratic as sim
from fltheory.theory import quadratic as theory


def _warm_start(N: int, p: int, ps: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    W_star = sim.orthonormal_teacher(N, ps, rng)
    W0 = 0.6 * np.vstack([W_star[k % ps] for k in range(p)]) + 0.5 * rng.standard_normal((p, N))
    return W0, W_star


def _sim_deviation(params: Mapping[str, Any], seed: int) -> np.ndarray:
    """max_t |SGD − ODE| over Q and ρ (t in the grid), the ODE started from the same sampled
    initial overlaps, for each N and seed: rows (ln N, ln deviation)."""
    p, ps, eta = params["p"], params["p_star"], float(params["eta"])
    t = np.linspace(0, params["t_max"], 21)
    rows = []
    for N in params["N_grid"]:
        for s in range(params["seeds"]):
            W0, Ws = _warm_start(N, p, ps, seed * 1000 + s)
            run = sim.sgd(W0, Ws, eta, t, seed * 1000 + s + 500)
            ode = theory.integrate(W0 @ W0.T / N, W0 @ Ws.T / N, Ws @ Ws.T / N, eta, t)
            dev = max(np.abs(run.Q - ode.Q).max(), np.abs(run.R - ode.R).max())
            rows.append((math.log(N), math.log(dev)))
    return np.array(rows)


def _compare_deviation(pred: float, rows: np.ndarray) -> Verdict:
    _, _, slope, se = linear_fit(rows[:, 0], rows[:, 1])
    z, zc = abs(slope - pred) / se, z_crit(1)
    largest = math.exp(rows[rows[:, 0] == rows[:, 0].max(), 1].mean())
    return Verdict("pass" if z <= zc else "fail", "|SGD − ODE| ∝ N^(−1/2)",
                   f"log-log slope {slope:.2f} ± {se:.2f} (|z| = {z:.2f}); deviation "
                   f"{largest:.3f} at the largest N", f"|z| <= {zc:.2f}")


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
    for s in range(params["seeds"]):
        rng = np.random.default_rng(seed * 1000 + s)
        W_star = sim.orthonormal_teacher(N, ps, rng)
        G = rng.standard_normal((p, N))
        G -= (G @ W_star.T / N) @ W_star
        basis, _ = np.linalg.qr(G.T)
        W0 = basis.T * math.sqrt(N * q)
        run = sim.sgd(W0, W_star, eta, t, seed * 1000 + s + 500)
        values.append(float(np.mean([np.trace(Q) / p for Q in run.Q[window]])))
    return np.array(values)


def _compare_plateau(pred: dict[str, float], values: np.ndarray) -> Verdict:
    mean, se = mean_se(values)
    zc = z_crit(1)
    z = abs(mean - pred["q"]) / se
    if abs(pred["q"] - pred["q_small_eta"]) < 2 * zc * se:
        return Verdict("inconclusive", f"q* = {pred['q']:.4f}", f"{mean:.4f} ± {se:.2g}",
                       f"|z| <= {zc:.2f}", reason="too noisy to tell q*(η) from q*(0)")
    return Verdict("pass" if z <= zc else "fail",
                   f"q*(η) = {pred['q']:.4f} (η → 0: {pred['q_small_eta']:.4f})",
                   f"{mean:.4f} ± {se:.2g} over {len(values)} seeds (|z| = {z:.2f})",
                   f"|z| <= {zc:.2f}, with power against q*(0)")


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
        for s in range(params["seeds"]):
            rng = np.random.default_rng(seed * 1000 + s)
            W_star = sim.orthonormal_teacher(N, ps, rng)
            G = rng.standard_normal((p, N))
            G -= (G @ W_star.T / N) @ W_star
            G += 0.03 * np.vstack([W_star[k % ps] for k in range(p)])
            basis, _ = np.linalg.qr(G.T)
            run = sim.sgd(basis.T * math.sqrt(N * q), W_star, eta, t, seed * 1000 + s + 500)
            rate = np.polyfit(t, np.log(np.linalg.norm(run.R, axis=(1, 2))), 1)[0]
            rows.append((1.0 / N, float(rate)))
    return np.array(rows)


def _compare_rate(pred: float, rows: np.ndarray) -> Verdict:
    a, se, b, _ = linear_fit(rows[:, 0], rows[:, 1])
    z, zc = abs(a - pred) / se, z_crit(1)
    return Verdict("pass" if z <= zc else "fail", f"r = {pred:.4f} (closed form)",
                   f"N → ∞ fit {a:.4f} ± {se:.4f} (|z| = {z:.2f}); SGD noise bias "
                   f"{b:+.1f}/N", f"|z| <= {zc:.2f}")


def _escape_times(params: Mapping[str, Any], seed: int, with_sgd: bool) -> dict[int, Any]:
    """Escape times (first ‖ρ‖_F > 1/2) from cold random starts W0 ~ N(0, 1/4) at N: the ODE
    from each run's sampled overlaps and, with ``with_sgd``, SGD itself. {p: array (seeds, 2)}."""
    ps, eta, N = params["p_star"], float(params["eta"]), params["N"]
    t = np.linspace(0, params["t_max"], int(4 * params["t_max"]) + 1)
    out: dict[int, Any] = {}
    for p in params["p_grid"]:
        rows = []
        for s in range(params["seeds"]):
            rng = np.random.default_rng(seed * 1000 + s)
            W_star = sim.orthonormal_teacher(N, ps, rng)
            W0 = 0.5 * rng.standard_normal((p, N))
            ode = theory.integrate(W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N,
                                   eta, t)
            t_ode = t[np.argmax(np.linalg.norm(ode.R, axis=(1, 2)) > 0.5)]
            t_sgd = np.nan
            if with_sgd:
                run = sim.sgd(W0, W_star, eta, t, seed * 1000 + s + 500)
                t_sgd = t[np.argmax(np.linalg.norm(run.R, axis=(1, 2)) > 0.5)]
            rows.append((t_ode, t_sgd))
        out[p] = np.array(rows)
    return out


def _predict_escape(params: Mapping[str, Any]) -> dict[int, float]:
    times = _escape_times(params, 0, with_sgd=False)
    return {p: float(v[:, 0].mean()) for p, v in times.items()}


def _sim_escape(params: Mapping[str, Any], seed: int) -> dict[int, Any]:
    return _escape_times(params, seed, with_sgd=True)


def _compare_escape(pred: dict[int, float], meas: dict[int, Any]) -> Verdict:
    # The claim is the p-dependence: t(p) − t(p_min) for SGD against the ODE from the same
    # starts, paired per seed; SGD's own plateau noise shifts every escape by a p-independent
    # O(1) amount at finite N (reported), which the differences cancel.
    ps = sorted(meas)
    base = meas[ps[0]]
    zc, worst, parts = z_crit(len(ps) - 1), 0.0, []
    for p in ps[1:]:
        d_sgd = meas[p][:, 1] - base[:, 1]
        d_ode = meas[p][:, 0] - base[:, 0]
        mean, se = mean_se(d_sgd - d_ode)
        worst = max(worst, abs(mean) / se)
        parts.append(f"p={p}: Δt SGD {d_sgd.mean():+.2f}, ODE {d_ode.mean():+.2f}")
    shift, shift_se = mean_se(np.concatenate([m[:, 1] - m[:, 0] for m in meas.values()]))
    return Verdict("pass" if worst <= zc else "fail",
                   "t_esc(p): " + ", ".join(f"p={p}: {t:.2f}" for p, t in pred.items()),
                   "; ".join(parts) + f"; SGD − ODE shift {shift:+.2f} ± {shift_se:.2f}",
                   f"|z| <= {zc:.2f} on the paired differences")


def _predict_slope_N(params: Mapping[str, Any]) -> float:
    """1/(2r): cold starts have ‖ρ(0)‖ = O(N^(−1/2)), which grows at the rate r from the
    plateau, so t_esc = (1/r) ln(c √N) + O(1) = ln N/(2r) + const."""
    return 1 / (2 * theory.plateau(params["p"], params["p_star"], params["eta"]).escape_rate)


def _sim_slope_N(params: Mapping[str, Any], seed: int) -> np.ndarray:
    """Escape times (first ‖ρ‖_F > 1/2 on a grid of step 1/4) of SGD from cold starts
    W0 ~ N(0, 1/4), and of the ODE from the same sampled overlaps: rows (ln N, t_SGD, t_ODE)."""
    p, ps, eta = params["p"], params["p_star"], float(params["eta"])
    t = np.linspace(0, params["t_max"], int(4 * params["t_max"]) + 1)
    rows = []
    for N in params["N_grid"]:
        for s in range(params["seeds"]):
            rng = np.random.default_rng(seed * 1000 + s)
            W_star = sim.orthonormal_teacher(N, ps, rng)
            W0 = 0.5 * rng.standard_normal((p, N))
            run = sim.sgd(W0, W_star, eta, t, seed * 1000 + s + 500)
            ode = theory.integrate(W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N,
                                   eta, t)
            rows.append((math.log(N), t[np.argmax(np.linalg.norm(run.R, axis=(1, 2)) > 0.5)],
                         t[np.argmax(np.linalg.norm(ode.R, axis=(1, 2)) > 0.5)]))
    return np.array(rows)


def _compare_slope_N(pred: float, rows: np.ndarray) -> Verdict:
    _, _, slope, se = linear_fit(rows[:, 0], rows[:, 1])
    _, _, slope_ode, se_ode = linear_fit(rows[:, 0], rows[:, 2])
    z, zc = abs(slope - pred) / se, z_crit(1)
    return Verdict("pass" if z <= zc else "fail", f"dt_esc/d ln N = 1/(2r) = {pred:.3f}",
                   f"SGD slope {slope:.2f} ± {se:.2f} (|z| = {z:.2f}); ODE from the same "
                   f"starts {slope_ode:.2f} ± {se_ode:.2f}", f"|z| <= {zc:.2f}")


def _predict_counts(params: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    return [theory.hessian_solution_counts(p, ps, N) for p, ps, N in params["cases"]]


def _sim_counts(params: Mapping[str, Any], seed: int) -> list[tuple[int, int, int]]:
    return [sim.hessian_counts_at_solution(p, ps, N, seed) for p, ps, N in params["cases"]]


def _compare_counts(pred: list[tuple[int, int, int]], meas: list[tuple[int, int, int]]
                    ) -> Verdict:
    bad = [(p, m) for p, m in zip(pred, meas, strict=True) if p != m]
    return Verdict("pass" if not bad else "fail",
                   "; ".join(f"{c}" for c in pred), "; ".join(f"{c}" for c in meas),
                   "exact equality of (negative, zero, positive) counts")


def _predict_plateau_counts(params: Mapping[str, Any]) -> list[tuple[int, int, int]]:
    return [theory.hessian_plateau_counts(p, ps, N) for p, ps, N in params["cases"]]


def _sim_plateau_counts(params: Mapping[str, Any], seed: int) -> list[tuple[int, int, int]]:
    out = []
    for p, ps, N in params["cases"]:
        W, W_star = sim.plateau_point(p, ps, N, p / (p + 2), seed)
        out.append(sim.population_hessian_counts(W, W_star, 1 / p, 1 / ps))
    return out


def _predict_dims(params: Mapping[str, Any]) -> list[int]:
    return [theory.manifold_dimension(p, p) for p, _ in params["cases"]]


def _sim_dims(params: Mapping[str, Any], seed: int) -> list[int]:
    return [sim.hessian_counts_at_solution(p, p, N, seed)[1] for p, N in params["cases"]]


def _compare_dims(pred: list[int], meas: list[int]) -> Verdict:
    return Verdict("pass" if pred == meas else "fail", f"dimensions {pred}",
                   f"Hessian zero modes {meas}", "exact equality")


def _polar(R: np.ndarray) -> np.ndarray:
    """S = ρ(ρᵀρ)^{−1/2} by the simulator side's numpy (SVD), independent of the theory's."""
    U, _, Vt = np.linalg.svd(R, full_matrices=False)
    out: np.ndarray = U @ Vt
    return out


def _s_drift_sgd(N: int, p: int, ps: int, eta: float, taus: np.ndarray, t_max: float,
                 seed: int) -> tuple[float, float]:
    """(drift of S along SGD, drift along the ODE from the same initial overlaps), measured as
    ‖S(t_max) − S(0)‖_F with S = ρ(ρᵀρ)^{−1/2} computed by the simulator's own numpy."""
    rng = np.random.default_rng(seed)
    W_star = sim.orthonormal_teacher(N, ps, rng, taus)
    # Rows: a random mixture with a teacher component, orthonormalised so that Q(0) = I/4
    # exactly (the isotropy condition holds at t = 0, not just up to O(N^(−1/2))).
    mix = rng.standard_normal((p, N)) + 0.6 * np.vstack(
        [W_star[k % ps] / math.sqrt(taus[k % ps]) for k in range(p)])
    basis, _ = np.linalg.qr(mix.T)
    W0 = basis.T * math.sqrt(N / 4)
    t = np.array([0.0, t_max])
    run = sim.sgd(W0, W_star, eta, t, seed + 500)

    ode = theory.integrate(W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N, eta, t)
    return (float(np.linalg.norm(_polar(run.R[-1]) - _polar(run.R[0]))),
            float(np.linalg.norm(theory.polar_factor(ode.R[-1]) - theory.polar_factor(ode.R[0]))))


def _sim_bias(params: Mapping[str, Any], seed: int) -> np.ndarray:
    rows = []
    taus = np.array([float(t) for t in params["teacher"]])
    for N in params["N_grid"]:
        for s in range(params["seeds"]):
            sgd_drift, ode_drift = _s_drift_sgd(N, params["p"], params["p_star"],
                                                float(params["eta"]), taus, params["t_max"],
                                                seed * 1000 + s)
            rows.append((math.log(N), sgd_drift, ode_drift))
    return np.array(rows)


def _compare_bias_iso(pred: float, rows: np.ndarray) -> Verdict:
    # S is exactly conserved by the ODE here (pred = 0); SGD's drift is fluctuation: → 0 as
    # N^(−1/2).
    _, _, slope, se = linear_fit(rows[:, 0], np.log(rows[:, 1]))
    z, zc = abs(slope + 0.5) / se, z_crit(2)
    ode_max = float(rows[:, 2].max())
    ok = z <= zc and ode_max < 1e-6
    return Verdict("pass" if ok else "fail",
                   "S conserved: ODE drift 0; SGD drift ∝ N^(−1/2)",
                   f"ODE drift max {ode_max:.1e}; SGD drift slope {slope:.2f} ± {se:.2f}, "
                   f"{rows[rows[:, 0] == rows[:, 0].max(), 1].mean():.3f} at the largest N",
                   f"ODE drift < 1e-6 and |slope + 1/2| <= {zc:.2f}·SE")


def _aniso_rows(params: Mapping[str, Any], seed: int) -> np.ndarray:
    """Anisotropic teacher, isotropic Q(0) = I/4, overlaps ‖ρ(0)‖ ≈ 0.2 in a random direction:
    rows (ln N, ‖S_SGD(t) − S_ODE(t)‖, ‖S_ODE(t) − S(0)‖, ‖S_SGD(t) − S(0)‖) at t = t_max, the
    ODE started from each run's sampled overlaps, polar factors by the simulator's numpy."""
    p, ps, eta, t_max = params["p"], params["p_star"], float(params["eta"]), params["t_max"]
    taus = np.array([float(x) for x in params["teacher"]])

    rows = []
    for N in params["N_grid"]:
        for s in range(params["seeds"]):
            rng = np.random.default_rng(seed * 1000 + s)
            W_star = sim.orthonormal_teacher(N, ps, rng, taus)
            G = rng.standard_normal((p, N))
            G -= (G @ W_star.T / N) @ np.linalg.inv(W_star @ W_star.T / N) @ W_star
            mix = G + 0.2 * rng.standard_normal((p, ps)) @ (W_star / np.sqrt(taus)[:, None])
            basis, _ = np.linalg.qr(mix.T)
            W0 = basis.T * math.sqrt(N / 4)  # Q(0) = I/4 exactly
            t = np.array([0.0, t_max])
            run = sim.sgd(W0, W_star, eta, t, seed * 1000 + s + 500)
            ode = theory.integrate(W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N,
                                   eta, t)
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
    return Verdict("pass" if ok else "fail",
                   "S not conserved (ODE drift O(1)); SGD's S → the ODE's as N^(−1/2)",
                   f"ODE drift of S: mean {rows[:, 2].mean():.3f}, min {ode_min:.3f}; SGD − ODE "
                   f"slope {slope:.2f} ± {se:.2f}; at the largest N: ‖S_SGD − S_ODE‖ "
                   f"{rows[big, 1].mean():.3f}, ‖S_SGD − S(0)‖ {rows[big, 3].mean():.3f}",
                   f"ODE drift > 1e-8 every start and |slope + 1/2| <= {zc:.2f}·SE")


def loss_curves(p: int, p_star: int, eta: float, Ns: tuple[int, ...], t_max: float = 60,
                seed: int = 0, n_test: int = 2000) -> dict[str, Any]:
    """Cold-start loss curves: SGD (test loss on fresh inputs) at each N, and the ODE from the
    same sampled initial overlaps; plus the plateau loss (public API for figures/notebooks)."""
    t = np.linspace(0, t_max, int(4 * t_max) + 1)
    curves = []
    for N in Ns:
        rng = np.random.default_rng(seed)
        W_star = sim.orthonormal_teacher(N, p_star, rng)
        W0 = 0.5 * rng.standard_normal((p, N))
        run = sim.sgd(W0, W_star, eta, t, seed + 100, n_test=n_test)
        ode = theory.integrate(W0 @ W0.T / N, W0 @ W_star.T / N, W_star @ W_star.T / N, eta, t)
        curves.append({"N": N, "sgd": run.test_loss, "ode": ode.loss})
    pl = theory.plateau(p, p_star, Fraction(eta).limit_denominator(10**6))
    return {"t": t, "curves": curves, "plateau_loss": pl.loss, "p": p, "p_star": p_star,
            "eta": eta}


_SOURCE = "Bocchi et al. (2026); ODEs derived in fltheory.theory.quadratic"

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
          "overparameterisation shortens the escape only through the initial overlaps: the "
          "p-dependence of the escape time is the ODE's from the same random starts",
          _predict_escape, _sim_escape, _compare_escape,
          "per seed, SGD's escape-time differences between p and the smallest p are compared "
          "with the ODE's from identical starts (paired), Bonferroni over the p's; the common "
          "SGD − ODE shift (plateau noise, → 0 as N → ∞, not derived) is measured and reported",
          {"small": {"p_star": 2, "eta": Fraction(1, 10), "N": 1000, "p_grid": (2, 4, 8),
                     "seeds": 6, "t_max": 40},
           "large": {"p_star": 2, "eta": Fraction(1, 10), "N": 3000, "p_grid": (2, 4, 8, 16),
                     "seeds": 12, "t_max": 50}},
          source=_SOURCE),
    Claim("quadratic.escape_time_vs_N",
          "from a random start the escape time grows as ln N/(2r): the initial overlaps are "
          "O(N^(−1/2)) and leave the plateau at the linearised rate r",
          _predict_slope_N, _sim_slope_N, _compare_slope_N,
          "least-squares slope of SGD escape times against ln N over sizes and seeds, one-test "
          "z-bound on its standard error (the seed-to-seed spread of ln‖ρ(0)‖ and the SGD "
          "plateau noise are in the residuals); the ODE from the same starts is reported",
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
          "isotropic teacher and initialisation: S = ρ(ρᵀρ)^(−1/2) is conserved, so the solution "
          "reached is the zero-loss point closest to the initialisation",
          lambda params: 0.0, _sim_bias, _compare_bias_iso,
          "the ODE conserves S exactly under these conditions (proof in "
          "theory.implicit_bias_drift; integration must show < 1e-6); SGD's drift is a "
          "finite-N fluctuation: its log-log slope against N is compared with −1/2 (Bonferroni "
          "over the two checks)",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "teacher": (1, 1),
                     "t_max": 20, "N_grid": (250, 1000, 2000), "seeds": 4},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "teacher": (1, 1),
                     "t_max": 20, "N_grid": (500, 1000, 2000, 4000), "seeds": 8}},
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
          "one-pass SGD follows the derived ODEs for (Q, ρ), with O(N^(−1/2)) fluctuations",
          lambda params: -0.5, _sim_deviation, _compare_deviation,
          "warm start (student partly aligned with the teacher), where trajectories are "
          "deterministic at N → ∞; the ODE starts from the sampled overlaps; the log-log slope of "
          "the maximal deviation on t ∈ [0, 10] against N is compared with the CLT rate −1/2 "
          "within a one-test z-bound. N >= 500: over N = 250…1000 the fitted slope was "
          "pre-asymptotic (−0.19 ± 0.11 at seed 0), over 500…4000 it is −0.58 ± 0.06",
          {"small": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "t_max": 10,
                     "N_grid": (500, 1000, 2000), "seeds": 4},
           "large": {"p": 4, "p_star": 2, "eta": Fraction(1, 10), "t_max": 10,
                     "N_grid": (500, 1000, 2000, 4000), "seeds": 8}},
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
