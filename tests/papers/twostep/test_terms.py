"""Two-step paper beyond Λ: the exact second-step expansion (simulator and theory), spike
constants, learnability, the one-step overlap, and the commands."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from fltheory.engine.functions import Z
from fltheory.papers.twostep import sim
from fltheory.papers.twostep.params import Simulation
from fltheory.papers.twostep.phases import TWO_STEP_SIGMA
from fltheory.papers.twostep.terms import TwoStepModel, learnability, term_prediction

SIGMA = TWO_STEP_SIGMA  # the theory's one definition of the paper's σ


@pytest.mark.parametrize("batch", ["reused", "fresh"])
@pytest.mark.parametrize("sigma", ["h1+h2+h3", "h1+h3"])
def test_taylor_identity_in_the_simulator(batch, sigma):
    run = sim.simulate(Simulation(300, alpha1=0.45, alpha2=0.3, batch=batch, seed=1),
                       sim.SIGMAS[sigma], [sim.TARGETS["He1"], sim.TARGETS["He3"]])
    assert len(run.H) == 3
    assert run.taylor_residual() < 1e-12


def test_bounded_target_has_the_advertised_coefficients():
    # numpy Gauss–Hermite (weight e^{−s²/2}) of high order: E[g] = 0, E[g s] = 0, E[g²] = 1,
    # E[g He3] ≠ 0 — independently of the sympy catalogue entry.
    x, w = np.polynomial.hermite_e.hermegauss(120)
    w = w / math.sqrt(2 * math.pi)
    g = sim.bounded_odd_tau3(x)
    assert abs(w @ g) < 1e-13 and abs(w @ (g * x)) < 1e-13
    assert abs(w @ g**2 - 1) < 1e-12 and abs(w @ (g * (x**3 - 3 * x))) > 0.5


def test_C0_closed_form():
    """c_0 = σ'(z) y, so C_0(β_k) = E[σ'] μ_1(g_k) = μ_1(σ) μ_1(g_k) (Stein: E[σ'] = E[σ z])."""
    model = TwoStepModel.build(SIGMA, ["He1", "He3"])
    assert sp.simplify(term_prediction(model, 0, 0, "reused").C - 1 / sp.sqrt(3)) == 0
    assert term_prediction(model, 0, 1, "reused").C == 0


def test_C2_for_He3_by_hand():
    """Single direction g = He_3 (μ_1 = 0, so the mean part vanishes), reused batch:
    c_2 = σ'''(ψσ'y + ξ)² y/2 ⇒ C_2 = (ψ² E[σ'''σ'²] E[g³ s] + E[σ'''] E[ξ²] E[g s])/2, and
    E[g s] = 0. Moments computed here directly with sympy's integrate."""
    model = TwoStepModel.build(SIGMA, ["He3"])
    sig = sp.sympify("(z + (z**2 - 1)/sqrt(2) + (z**3 - 3*z)/sqrt(6))/sqrt(3)").subs(
        sp.Symbol("z"), Z)
    phi = sp.exp(-Z**2 / 2) / sp.sqrt(2 * sp.pi)

    def E(f):
        return sp.integrate(sp.expand(f) * phi, (Z, -sp.oo, sp.oo))

    expected = E(sp.diff(sig, Z, 3) * sp.diff(sig, Z) ** 2) * E((Z**3 - 3 * Z) ** 3 * Z) / 2
    assert sp.simplify(term_prediction(model, 2, 0, "reused").C - expected) == 0
    assert expected != 0
    assert term_prediction(model, 2, 0, "fresh").C == 0


def test_learnability_rules():
    model = TwoStepModel.build(SIGMA, ["He1", "He3", "He2"])
    # Λ = 2 (α1 = 9/20, α2 = 3/10 capped by L − 1 = 2): He3 enters through k = 2 when reused.
    lam, dirs = learnability(model, Fraction(9, 20), Fraction(3, 10), "reused")
    assert lam == 2
    assert [(d.step1, d.step2, d.via_k) for d in dirs] == [(True, True, 2), (False, True, 2),
                                                           (False, False, None)]
    # Λ = 1 (α1 = 3/10, α2 = 1/4, ratio 5/4): the k = 2 term is not an outlier: He3 not learned.
    lam, dirs = learnability(model, Fraction(3, 10), Fraction(1, 4), "reused")
    assert lam == 1 and not dirs[1].step2
    # Fresh batch: never a μ_1 = 0 direction.
    _, dirs = learnability(model, Fraction(9, 20), Fraction(3, 10), "fresh")
    assert [d.step2 for d in dirs] == [True, False, False]


def test_domain_of_the_model():
    from fltheory.exact import DomainError

    with pytest.raises(DomainError, match=r"^sigma = "):
        TwoStepModel.build("tanh", ["He1"])
    with pytest.raises(DomainError, match=r"^target = "):
        TwoStepModel.build(SIGMA, ["He2 + 1"])


def test_cli(invoke):
    r = invoke("phase", "--a1", ".45", "--format", "json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["value"] == list(range(10))
    r = invoke("twostep", "learn", "--target", "He1", "--target", "He3", "--a1", ".45",
               "--a2", ".3", "--format", "json")
    assert r.exit_code == 0
    assert [d["step2"] for d in json.loads(r.stdout)["value"]] == [True, True]
    r = invoke("twostep", "simulate", "--N", "200", "--format", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["details"]["taylor_residual"] < 1e-12
    for args in (["phase", "--a1", ".5"], ["twostep", "learn", "--target", "He1", "--a1", ".1",
                                            "--a2", ".6"],
                 # tanh is accepted since the σ-aware terms (test_sigma.py), relu with a
                 # reused batch since the one-sided expansion (test_kinks.py); a σ' that
                 # jumps and is not constant between its jumps is refused
                 ["twostep", "learn", "--sigma", "relu(z)+tanh(z)", "--target", "He1", "--a1",
                  ".4", "--a2", ".3"],
                 ["twostep", "learn", "--target", "y", "--a1", ".1", "--a2", ".2"],
                 ["twostep", "simulate", "--N", "5"], ["twostep", "simulate", "--target", "x"],
                 ["twostep", "simulate", "--sigma", "softsign"]):
        r = invoke(*args)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, args


def test_one_step_overlap_formula():
    """BBP for an N × d Gaussian matrix (c = N/d = 1): |⟨ṽ, v⟩|² = 1 − (1 + θ²)/(θ²(θ² + 1))
    = 1 − 1/θ² above θ = 1, 0 below; times ⟨b̂, β⟩² = Σμ_1²/(Σμ_1² + ψE[y²])."""
    from fltheory.papers.twostep.terms import one_step_overlap

    model = TwoStepModel.build(SIGMA, ["He1", "bounded3"])
    out = one_step_overlap(model, Fraction(1, 10), 1000)
    # μ_σ = 1/√3, Σμ_1² = 1, E[y²] = 2 ⇒ B² = 3, θ = 1000^{0.1}·√3/√3
    assert abs(out["theta"] - 1000**0.1) < 1e-9
    assert abs(out["overlap"] - (1 - 1 / out["theta"] ** 2) / 3) < 1e-9
    assert one_step_overlap(model, Fraction(0), 1000)["overlap"] == 0  # θ = 1: at threshold


def test_non_polynomial_sigma_in_the_simulator(invoke):
    run = sim.simulate(Simulation(300, alpha1=0.3, alpha2=0.2), "tanh", [sim.TARGETS["He1"]])
    assert run.H == [] and run.W2.shape == (300, 300)
    r = invoke("twostep", "simulate", "--N", "200", "--sigma", "relu", "--format", "json")
    assert r.exit_code == 0
    assert len(json.loads(r.stdout)["value"]["one_step_overlaps"]) == 2
