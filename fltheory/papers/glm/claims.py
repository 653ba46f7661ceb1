"""The claim records of the GLM paper: state evolution and the thresholds against GAMP, the
Bayes error against GAMP's test error, ridge theory against ridge fits. Each tolerance comes
from the spread over independent instances (seeds), stated in ``why``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.claims.registry import Claim, Point, Status, Verdict
from fltheory.papers.glm.params import AmpRun, Channel, ErmRun, gaussian, rademacher
from fltheory.papers.glm.runs import amp_side, erm_side, ridge_side
from fltheory.papers.glm.theory import point, thresholds

__all__ = ["CLAIMS"]

_K = 4.0   # standard errors of the mean over seeds allowed


def _sem(x: list[float] | tuple[float, ...]) -> float:
    return float(np.std(x, ddof=1) / math.sqrt(len(x)))


# --------------------------------------------------------------- AMP overlap along α

_OVERLAP_SIZES = {"small": {"d": 1000, "seeds": 5, "alphas": (0.6, 1.2)},
                  "large": {"d": 4000, "seeds": 5, "alphas": (0.6, 1.2)}}


def _overlap_predict(p: Mapping[str, Any]) -> list[tuple[float, float]]:
    return [(a, point(rademacher(), Channel("sign"), a).amp_q.value) for a in p["alphas"]]


def _overlap_simulate(p: Mapping[str, Any], seed: int) -> list[tuple[float, ...]]:
    return [amp_side(rademacher(), Channel("sign"), AmpRun(p["d"], a, 80, 1000 * seed), p["seeds"])
            .overlaps for a in p["alphas"]]


def _overlap_compare(pred: list[tuple[float, float]],
                     meas: list[tuple[float, ...]]) -> Verdict:
    pts, ok = [], True
    for (a, q), xs in zip(pred, meas, strict=True):
        m, s = float(np.mean(xs)), _sem(xs)
        ok &= abs(m - q) <= _K * s
        pts.append(Point(f"α = {a}", m, q, s, _K * s, a, "α", quantity="overlap q"))
    return Verdict("pass" if ok else "fail", ", ".join(f"{q:.5f}" for _, q in pred),
                   ", ".join(f"{np.mean(x):.5f} ± {_sem(x):.1g}" for x in meas),
                   f"±{_K:g} standard errors over seeds", points=tuple(pts))


# --------------------------------------------------------------- noisy labels

_NOISY_SIZES = {"small": {"d": 1000, "seeds": 5}, "large": {"d": 4000, "seeds": 10}}
#: (prior, channel, α): a smooth case, and the noisy perceptron below α_IT and above α_alg
_NOISY_CASES = (("gaussian", "relu", "1/2", 1.0), ("gaussian", "relu", "1/2", 2.0),
                ("rademacher", "sign", "3/10", 1.0), ("rademacher", "sign", "3/10", 2.0))


def _noisy_case(i: int) -> tuple[Any, Channel, float]:
    pr, ch, sigma, a = _NOISY_CASES[i]
    return (gaussian() if pr == "gaussian" else rademacher()), Channel(ch, noise=sigma), a


def _noisy_predict(p: Mapping[str, Any]) -> list[float]:
    out = []
    for i in range(len(_NOISY_CASES)):
        prior, ch, a = _noisy_case(i)
        out.append(point(prior, ch, a).amp_q.value)
    return out


def _noisy_simulate(p: Mapping[str, Any], seed: int) -> list[tuple[float, ...]]:
    out = []
    for i in range(len(_NOISY_CASES)):
        prior, ch, a = _noisy_case(i)
        out.append(amp_side(prior, ch, AmpRun(p["d"], a, 80, 1000 * seed), p["seeds"]).overlaps)
    return out


def _noisy_compare(pred: list[float], meas: list[tuple[float, ...]]) -> Verdict:
    pts, ok = [], True
    for (pr, ch, sigma, a), q, xs in zip(_NOISY_CASES, pred, meas, strict=True):
        m, s = float(np.mean(xs)), _sem(xs)
        if q == 1.0:            # perfect recovery: every instance reaches it
            ok &= min(xs) > 0.999
        else:
            ok &= abs(m - q) <= _K * s
        pts.append(Point(f"{pr}, {ch} + {sigma}ε, α = {a:g}", m, q, s, _K * s, a, "α",
                         quantity="overlap q"))
    return Verdict("pass" if ok else "fail", ", ".join(f"{q:.5f}" for q in pred),
                   ", ".join(f"{np.mean(x):.5f} ± {_sem(x):.1g}" for x in meas),
                   f"±{_K:g} standard errors over seeds; q = 1 predicted: every instance "
                   "q > 0.999", points=tuple(pts))


# --------------------------------------------------------------- AMP fails below α_alg

_ALG_SIZES = {"small": {"d": 1000, "seeds": 3, "below": 1.35, "above": 1.7},
              "large": {"d": 4000, "seeds": 10, "below": 1.35, "above": 1.7}}


def _alg_predict(p: Mapping[str, Any]) -> tuple[float, float, float]:
    t = thresholds(rademacher(), Channel("sign"))
    alg, it = t.get("alg"), t.get("IT")
    assert alg is not None and it is not None
    return alg.value, point(rademacher(), Channel("sign"), p["below"]).amp_q.value, it.value


def _alg_simulate(p: Mapping[str, Any],
                  seed: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    lo = amp_side(rademacher(), Channel("sign"), AmpRun(p["d"], p["below"], 200, 1000 * seed),
                  p["seeds"]).overlaps
    hi = amp_side(rademacher(), Channel("sign"), AmpRun(p["d"], p["above"], 200, 1000 * seed),
                  p["seeds"]).overlaps
    return lo, hi


def _alg_compare(pred: tuple[float, float, float],
                 meas: tuple[tuple[float, ...], tuple[float, ...]]) -> Verdict:
    a_alg, q_stall, a_it = pred
    lo, hi = meas
    failed = [q < 0.99 for q in lo]
    solved = [q > 0.999 for q in hi]
    sem = _sem(lo)
    near = abs(float(np.mean(lo)) - q_stall) <= _K * sem + 1e-3
    status: Status
    if all(failed) and all(solved) and near:
        status = "pass"
    elif (any(failed) != all(failed) or any(solved) != all(solved)) and near:
        status = "inconclusive"     # the seeds disagree: the spinodal is smeared at this d
    else:
        status = "fail"
    pts = (Point("below α_alg", float(np.mean(lo)), q_stall, sem, _K * sem,
                 quantity="overlap q"),
           Point("above α_alg", float(np.mean(hi)), 1.0, None, 1e-3, quantity="overlap q"))
    return Verdict(status, f"α_IT = {a_it:.6f} < α_alg = {a_alg:.6f}: stall at "
                   f"q = {q_stall:.5f}, then q = 1",
                   f"q = {', '.join(f'{q:.4f}' for q in lo)} below; "
                   f"{', '.join(f'{q:.4f}' for q in hi)} above",
                   f"stall within {_K:g} s.e. (+1e-3) of SE; recovery q > 0.999",
                   reason="" if status == "pass" else "mixed outcomes over seeds at this d"
                   if status == "inconclusive" else "", points=pts)


# --------------------------------------------------------------- Bayes error vs AMP's error

_ERR_SIZES = {"small": {"d": 1000, "seeds": 5, "alpha": 1.0},
              "large": {"d": 4000, "seeds": 5, "alpha": 1.0}}


def _err_predict(p: Mapping[str, Any]) -> float:
    return point(rademacher(), Channel("sign"), p["alpha"]).bayes_error.value


def _err_simulate(p: Mapping[str, Any], seed: int) -> tuple[float, ...]:
    return amp_side(rademacher(), Channel("sign"), AmpRun(p["d"], p["alpha"], 80, 1000 * seed),
                    p["seeds"]).errors


def _err_compare(pred: float, errs: tuple[float, ...]) -> Verdict:
    m, s = float(np.mean(errs)), _sem(errs)
    ok = abs(m - pred) <= _K * s
    return Verdict("pass" if ok else "fail", f"{pred:.5f}", f"{m:.5f} ± {s:.1g}",
                   f"±{_K:g} standard errors over seeds",
                   points=(Point("test error", m, pred, s, _K * s,
                                 quantity="classification error"),))


# --------------------------------------------------------------- ridge

_RIDGE_SIZES = {"small": {"d": 400, "seeds": 5, "alpha": 2.0, "lam": 0.5},
                "large": {"d": 1500, "seeds": 5, "alpha": 2.0, "lam": 0.5}}


def _ridge_predict(p: Mapping[str, Any]) -> tuple[float, float, float]:
    from fltheory.papers.glm.erm import ridge

    r = ridge(gaussian(), Channel("sign"), p["alpha"], p["lam"])
    return r.m, r.q, r.error


def _ridge_simulate(p: Mapping[str, Any], seed: int) -> tuple[tuple[float, float, float], ...]:
    return ridge_side(gaussian(), Channel("sign"), AmpRun(p["d"], p["alpha"], 1, 1000 * seed),
                      p["lam"], p["seeds"]).measured


def _ridge_compare(pred: tuple[float, float, float],
                   meas: tuple[tuple[float, float, float], ...]) -> Verdict:
    ok, pts = True, []
    for i, name in enumerate(("m", "q", "error")):
        xs = [r[i] for r in meas]
        m, s = float(np.mean(xs)), _sem(xs)
        ok &= abs(m - pred[i]) <= _K * s
        pts.append(Point(name, m, pred[i], s, _K * s, quantity=name))
    return Verdict("pass" if ok else "fail", ", ".join(f"{x:.5f}" for x in pred),
                   ", ".join(f"{p.measured:.5f} ± {p.se:.1g}" for p in pts),
                   f"±{_K:g} standard errors over seeds", points=tuple(pts))


# --------------------------------------------------------------- logistic and hinge

_ERM_CASES = {"logistic": (rademacher, Channel("sign", probit="1/2"), "1/20"),
              "hinge": (gaussian, Channel("sign"), "1/10")}
_ERM_SIZES = {"small": {"d": 400, "seeds": 5, "alpha": 2},
              "large": {"d": 1200, "seeds": 5, "alpha": 2}}


def _erm_predict(loss: str) -> Any:
    def predict(p: Mapping[str, Any]) -> tuple[float, float, float, float]:
        from fltheory.papers.glm.erm import erm_point

        make, ch, lam = _ERM_CASES[loss]
        r = erm_point(make(), ch, float(p["alpha"]), loss, float(Fraction(lam)))
        bayes = point(make(), ch, float(p["alpha"])).bayes_error.value
        return r.m.value, r.q.value, r.error.value, bayes
    return predict


def _erm_compare(pred: tuple[float, float, float, float],
                 meas: tuple[tuple[float, float, float], ...]) -> Verdict:
    """m, q and the test error each within 4 standard errors of the mean over the instances;
    inconclusive with fewer than 3 instances or a spread of zero (no standard error to judge
    by). The reason says when the error's band also holds the Bayes error (the test error
    alone then cannot tell the loss from Bayes at this d; m and q still can)."""
    base = _ridge_compare(pred[:3], meas)
    err = base.points[2]
    if len(meas) < 3 or not all(p.se is not None and math.isfinite(p.se) and p.se > 0
                                for p in base.points):
        return Verdict("inconclusive", base.predicted, base.measured, base.tolerance,
                       reason="fewer than 3 instances or no spread: no standard error",
                       points=base.points)
    note = ""
    if abs(err.measured - pred[3]) <= _K * (err.se or 0.0):
        note = (f"the error band also holds the Bayes error {pred[3]:.5f}: at this d the test "
                "error alone does not tell the loss from Bayes (m and q do)")
    return Verdict(base.status, base.predicted + f" (Bayes error {pred[3]:.5f})", base.measured,
                   base.tolerance, reason=note, points=base.points)


def _erm_simulate(loss: str) -> Any:
    def simulate(p: Mapping[str, Any], seed: int) -> tuple[tuple[float, float, float], ...]:
        make, ch, lam = _ERM_CASES[loss]
        return erm_side(make(), ch, loss, ErmRun(p["d"], p["alpha"], lam, 1000 * seed),
                        p["seeds"]).measured
    return simulate


CLAIMS = [
    Claim(
        id="glm.amp_overlap",
        statement="GAMP's overlap m = ŵ·w*/d on the binary perceptron (Rademacher prior, sign "
                  "channel) agrees with the state evolution's fixed point at α = 0.6 and 1.2 "
                  "(d = 1000 small, 4000 large; 5 instances)",
        predict=_overlap_predict, simulate=_overlap_simulate, compare=_overlap_compare,
        why="m fluctuates by O(d^(-1/2)) between instances (and GAMP's bias is O(1/d), below "
            "it): the mean over 5 seeds must lie within 4 standard errors of the prediction",
        sizes=_OVERLAP_SIZES,
        source="Barbier et al. 2019 (state evolution); Rangan 2011 (GAMP)"),
    Claim(
        id="glm.amp_alg",
        statement="on the binary perceptron GAMP from an uninformative start stalls at the "
                  "state evolution's overlap below α_alg ≈ 1.4926 (α = 1.35 > α_IT) and "
                  "recovers w* above it (α = 1.7)",
        predict=_alg_predict, simulate=_alg_simulate, compare=_alg_compare,
        why="the stalled overlap fluctuates by O(d^(-1/2)): within 4 standard errors (+1e-3 "
            "for GAMP's O(1/d) bias); recovery is q > 0.999 in every instance; mixed outcomes "
            "across seeds (the spinodal smeared at finite d) are inconclusive, not a pass",
        sizes=_ALG_SIZES,
        source="Barbier et al. 2019 (α_alg = 1.493, first-order transition)"),
    Claim(
        id="glm.amp_noisy",
        statement="with additive label noise, GAMP from an uninformative start reaches the "
                  "state evolution's overlap within 80 iterations (the mean over instances at "
                  "d = 1000, 5 seeds; large: d = 4000, 10 seeds): Gaussian teacher, "
                  "y = max(0, z) + ε/2 at α = 1 and 2; Rademacher teacher, "
                  "y = sign(z) + 3ε/10 at α = 1 (below α_IT ≈ 1.2472: q ≈ 0.5598) and at "
                  "α = 2 (above α_alg ≈ 1.4956: q = 1, the jump keeps perfect recovery "
                  "despite the noise)",
        predict=_noisy_predict, simulate=_noisy_simulate, compare=_noisy_compare,
        why="the overlap of one instance fluctuates by O(d^(-1/2)): 4 standard errors of the "
            "mean over the seeds, with no allowance for GAMP's O(1/d) bias; perfect recovery "
            "is q > 0.999 in every instance",
        sizes=_NOISY_SIZES,
        source="Barbier et al. 2019 (state evolution of GAMP), the noisy channel "
               "of fltheory's closed forms per linear piece"),
    Claim(
        id="glm.bayes_error",
        statement="the test error of GAMP's Bayes prediction on fresh samples agrees with the "
                  "Bayes-optimal generalisation error arccos(√q)/π at α = 1 (below α_IT, where "
                  "AMP is Bayes-optimal)",
        predict=_err_predict, simulate=_err_simulate, compare=_err_compare,
        why="each instance's test error has a binomial spread over 4000 fresh samples and the "
            "O(d^(-1/2)) spread of q: 4 standard errors of the mean over 5 instances",
        sizes=_ERR_SIZES,
        source="Barbier et al. 2019, the generalisation error of the perceptron"),
    Claim(
        id="glm.ridge",
        statement="ridge regression (λ = 1/2) on sign labels of a Gaussian teacher at α = 2: "
                  "its overlaps m, q and classification error agree with the proportional-limit "
                  "formulas",
        predict=_ridge_predict, simulate=_ridge_simulate, compare=_ridge_compare,
        why="m, q and the test error fluctuate by O(d^(-1/2)) over instances: 4 standard "
            "errors of the mean over 5 instances",
        sizes=_RIDGE_SIZES,
        source="Aubin, Krzakala, Lu & Zdeborová 2020 (square loss)"),
    Claim(
        id="glm.erm_logistic",
        statement="ℓ2-penalised logistic regression (λ = 1/20) on probit labels "
                  "y = sign(z + ε'/2) of a Rademacher teacher at α = 2: its overlaps m, q and "
                  "test classification error agree with the proportional-limit fixed point "
                  "(the equations hold for any prior through ρ, Rademacher included)",
        predict=_erm_predict("logistic"), simulate=_erm_simulate("logistic"),
        compare=_erm_compare,
        why="each fit is L-BFGS on the primal, certified within 1e-3 of the exact minimiser "
            "(|∇|/λ; measured ~4e-8 at d = 400); n = 2d samples, m, q and the test error "
            "(4000 fresh samples) fluctuate by O(d^(-1/2)) over instances, the finite-size "
            "bias is O(1/d): 4 standard errors of the mean over 5 instances",
        sizes=_ERM_SIZES,
        source="Aubin, Krzakala, Lu & Zdeborová 2020 (logistic loss, ℓ2 penalty)"),
    Claim(
        id="glm.erm_hinge",
        statement="the ℓ2-penalised hinge loss (soft-margin SVM, λ = 1/10) on sign labels of a "
                  "Gaussian teacher at α = 2: its overlaps m, q and test classification error "
                  "agree with the proportional-limit fixed point",
        predict=_erm_predict("hinge"), simulate=_erm_simulate("hinge"),
        compare=_erm_compare,
        why="each fit solves the dual box-constrained quadratic programme by L-BFGS-B, "
            "certified within 1e-3 of the exact minimiser by the duality gap (√(2G/λ); "
            "measured ~3e-4 at d = 400); n = 2d samples, m, q and the test error (4000 fresh "
            "samples) fluctuate by O(d^(-1/2)) over instances: 4 standard errors of the mean "
            "over 5 instances",
        sizes=_ERM_SIZES,
        source="Aubin, Krzakala, Lu & Zdeborová 2020 (hinge loss, ℓ2 penalty)"),
]
