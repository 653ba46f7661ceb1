"""What a fuzz of ``fltheory glm`` (133 command lines, this session's helper) found, held.

Each reference is computed here another way: mpmath at 40 digits of the module's direct ridge
formulas (where their cancellation is harmless), the small-α limit of the perceptron's state
evolution (q ≈ α·2/π, from q̂ = αQ(0) with Q(0) = 2/π and q ≈ q̂), and the closed large-λ limit
of the hinge fit.
"""

from __future__ import annotations

import math

import mpmath as mp
import pytest

from fltheory.papers.glm.erm import erm_optimal, ridge
from fltheory.papers.glm.params import Channel, gaussian, rademacher
from fltheory.papers.glm.theory import point


@pytest.mark.parametrize("alpha", [1e-8, 1.0 / 7e6])
@pytest.mark.parametrize("prior", [rademacher, gaussian])
def test_tiny_alpha_has_its_fixed_point(prior, alpha):
    """Below A(q̂ = 1e-7) ≈ 1.6e-7 the perceptron had no interior root: q = 1 (Rademacher) or
    an internal error (Gaussian) was printed. At small α, q̂ = αQ(0) with Q(0) = 2/π (sign
    labels, q = 0) and q = q̂ + O(q̂²): q/α → 2/π, and the error → 1/2."""
    p = point(prior(), Channel("sign"), alpha)
    assert p.bayes_q.value == pytest.approx(2 / math.pi * alpha, rel=1e-6, abs=0)
    assert p.amp_q.value == pytest.approx(2 / math.pi * alpha, rel=1e-6, abs=0)
    assert 0.499 < p.bayes_error.value < 0.5


def _ridge_direct(alpha: float, lam: float) -> float:
    """Ridge on a Gaussian teacher with sign labels (μ₁ = √(2/π), Δ = 1 − 2/π, ρ = 1), the
    module's direct forms m = μ₁(1 − λg), q = μ₁²(1 − 2λg + λ²g') + Δ(g − λg') at 40 digits,
    and the error of sign(ŷ) for jointly Gaussian (ŷ, z): arccos(m/√q)/π."""
    with mp.workdps(40):
        a, lam_ = mp.mpf(alpha), mp.mpf(lam)
        b = lam_ + a - 1
        g = (-b + mp.sqrt(b * b + 4 * lam_)) / (2 * lam_)
        gp = 1 / (1 / g ** 2 - a / (1 + g) ** 2)
        mu1 = mp.sqrt(2 / mp.pi)
        delta = 1 - mu1 ** 2
        m = mu1 * (1 - lam_ * g)
        q = mu1 ** 2 * (1 - 2 * lam_ * g + lam_ ** 2 * gp) + delta * (g - lam_ * gp)
        return float(mp.acos(m / mp.sqrt(q)) / mp.pi)


@pytest.mark.parametrize("alpha,lam", [(1e-5, 7000.0), (0.5, 1e4), (0.01, 1000.0),
                                       (2.0, 0.3), (3.7, 1e-5)])
def test_ridge_error_without_cancellation(alpha, lam):
    """At α = 1e-5, λ = 7000 the double-precision direct forms put the error 3.5e-7 below its
    value (and below the Bayes error); the forms written as sums of positive terms agree with
    the 40-digit direct ones to 1e-13 everywhere, generic (α, λ) included."""
    r = ridge(gaussian(), Channel("sign"), alpha, lam)
    assert r.error == pytest.approx(_ridge_direct(alpha, lam), rel=1e-13, abs=0)


def test_ridge_is_never_below_bayes():
    """α = 1e-5: ridge at its located optimum is not below the Bayes error (it was, by 3.5e-7,
    with 13 digits printed), and for the Gaussian teacher with sign labels the optimum λ is
    π/2 − 1 at every α (ridge_optimal's doctest): the error there is the 40-digit one."""
    alpha = 1e-5
    bayes = point(gaussian(), Channel("sign"), alpha).bayes_error.value
    opt = erm_optimal(gaussian(), Channel("sign"), alpha, "ridge")
    assert opt.error.value >= bayes - 1e-15
    assert opt.error.value == pytest.approx(_ridge_direct(alpha, math.pi / 2 - 1), rel=1e-13)


def test_flat_hinge_error_is_said_to_be_flat_above():
    """Strong probit noise (σ_in = 10), α = 1000: hinge's error is flat for large λ (all
    margins below 1: the loss is linear, ŵ ∝ Σ y x, the same direction at every λ) and rises
    as λ falls (0.4705535614 at λ = 100 against 0.4705331507). The note said "flat at and
    below"; it must say above. The plateau's error is that of ŵ ∝ Σ y x: arccos(c)/π with
    c = corr(ŷ, z) = √(2/π)·√α/√(ρ'(1 + α·2/(πρ')))·… computed here from m, q of the large-λ
    limit (m ∝ αE[yz], q ∝ α(α E[yz]² + E y²)), ρ' = 101."""
    ans = erm_optimal(gaussian(), Channel("sign", probit=10), 1000.0, "hinge")
    assert "flat at and above" in ans.note
    rho1, alpha = 101.0, 1000.0
    eyz = math.sqrt(2 / (math.pi * rho1))          # E[y z] for y = sign(z + σ_in ε'), ρ = 1
    m, q = alpha * eyz, alpha * (alpha * eyz ** 2 + 1)
    plateau = math.acos(m / math.sqrt(rho1 * q)) / math.pi
    assert ans.error.value == pytest.approx(plateau, rel=1e-9)


@pytest.mark.parametrize("text", ["sparse-rademacher(1/5)", "rademacher", "gauss-bernoulli(1/2)",
                                  "mixture(1/3*delta(1) + 2/3*delta(-1/2))"])
def test_prior_overlap_at_vanishing_snr(text):
    """q(q̂) = ρ²q̂ + O(q̂²) for a centred prior (the first term of the small-q̂ expansion of
    E⟨w⟩²): at q̂ = 10⁻³⁰ exact to 10⁻¹², at both resolutions. The posterior mean was a
    difference of nearly equal weights, and δ_k = ℓ_k − ln π_k carried ln π_k's rounding
    (10⁻¹⁶ against δ = O(10⁻¹⁵)): 2.3% off for sparse Rademacher(1/5), 0.1% for the mixture."""
    from fltheory.papers.glm._priors import PriorNumerics
    from fltheory.papers.glm.params import read_prior

    P = PriorNumerics.of(read_prior(text))
    for level in (1, 2):
        q, _ = P.q_and_v(1e-30, level)
        assert q == pytest.approx(P.rho ** 2 * 1e-30, rel=1e-12, abs=0)


def test_amp_overlap_leaves_zero_linearly_above_weak_recovery():
    """Sparse Rademacher(1/5) × |z|: just above α_WR = 1/2 AMP's overlap grows linearly in
    α − α_WR (a continuous transition); it stayed at F(q̂ = 10⁻⁷) = 4e-9 for α − α_WR = 10⁻⁸
    and 10⁻⁹ (the end of the sampled curve). Now q(1/2 + 10⁻⁸)/q(1/2 + 10⁻⁹) ≈ 10."""
    from fltheory.papers.glm.params import sparse_rademacher

    q8 = point(sparse_rademacher("1/5"), Channel("abs"), 0.5 + 1e-8).amp_q.value
    q9 = point(sparse_rademacher("1/5"), Channel("abs"), 0.5 + 1e-9).amp_q.value
    assert 0 < q9 < q8 < 1e-8
    assert q8 / q9 == pytest.approx(10, rel=0.01)


@pytest.mark.parametrize("V", [1.7856057078996155e-17, 2.95e-33, 1e-6])
def test_sign_channel_average_at_vanishing_mmse(V):
    """Q of the sign channel where Z_out underflows: the prior 1/3·δ(1) + 2/3·δ(−1/2) reaches
    mmse 1.8e-17 at q̂ = 128, and Z·g² was 0·∞ = NaN there (printed as numpy warnings, and
    A(q̂) silently took α_WR = 0). Against mpmath: Q = Σ_y Z g² over ω ~ N(0, q), which for
    y = sign(z), z ~ N(ω, V) is (1/√V) ∫ φ(u)²/(Φ(u)Φ(−u)) N(√V u; 0, q) du (ω = √V u)."""
    import warnings

    from fltheory.papers.glm._channels import channel_numerics

    q = 0.5
    C = channel_numerics(Channel("sign"), 0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = C.Q(q, 1, V)
    with mp.workdps(30):
        sv = mp.sqrt(V)

        def f(u):
            phi = mp.npdf(u)
            return phi * phi / (mp.ncdf(u) * mp.ncdf(-u)) * mp.npdf(sv * u, 0, mp.sqrt(q))

        ref = mp.quad(f, [-mp.inf, -5, 0, 5, mp.inf]) / sv
    assert got == pytest.approx(float(ref), rel=1e-10)


def test_a_nan_average_is_never_a_threshold(monkeypatch):
    """A NaN of Q stops the answer with the q̂ named (it was turned into α_WR)."""
    from fltheory.papers.glm._se import SE, NotConverged

    se = SE(rademacher(), Channel("sign"), 1)
    monkeypatch.setattr(type(se.C), "Q", lambda self, q, level=1, V=None: math.nan)
    with pytest.raises(NotConverged, match="not a number at q̂ = 3"):
        se.A(3.0)


def test_json_thresholds_are_numbers_and_carry_their_notes(invoke):
    """`glm --format json`: "value" was "1/2 = 0.5" for a closed form (no reader could parse it)
    and the notes ("no α_IT: …") were in the text only; LaTeX of `--alpha` dropped them too."""
    import json

    j = json.loads(invoke("glm", "--prior", "rademacher", "--channel", "abs", "--format",
                          "json").stdout)["value"]
    assert (j["alpha_WR"]["value"], j["alpha_WR"]["exact"]) == ("0.5", "1/2")
    assert j["alpha_alg"]["exact"] is None
    assert all(float(j[k]["value"]) >= 0 for k in ("alpha_WR", "alpha_IT", "alpha_alg"))
    g = json.loads(invoke("glm", "--prior", "gaussian", "--channel", "sign", "--alpha", "1",
                          "--format", "json").stdout)["value"]
    assert any(n.startswith("no α_IT") for n in g["threshold_notes"])
    tex = invoke("glm", "--prior", "gaussian", "--channel", "sign", "--alpha", "1", "--format",
                 "latex").stdout
    assert r"no $\alpha_{IT}$" in tex


def test_a_bare_name_that_is_no_channel_names_the_channels(invoke):
    """`--channel door` (no K) was answered with the activation catalogue ("unknown activation
    'door'"); a mistyped channel gets the channels and a suggestion; an activation name of the
    catalogue (tanh) is still a channel g(z) (then --noise is required)."""
    door = invoke("glm", "--channel", "door")
    assert door.exit_code == 2 and "door(K)" in door.stderr
    assert "activation 'door'" not in door.stderr
    sgn = invoke("glm", "--channel", "sgn")
    assert sgn.exit_code == 2 and "did you mean sign?" in sgn.stderr
    tanh = invoke("glm", "--channel", "tanh")
    assert tanh.exit_code == 2 and "noise = 0" in tanh.stderr
