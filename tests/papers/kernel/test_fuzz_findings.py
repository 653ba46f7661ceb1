"""What a fuzz of ``fltheory kernel`` (152 command lines, this session's helper) found, held.

References: the ridgeless risk r²(1 − 1/γ)₊ of noiseless ridge regression (Hastie et al. 2022),
a quadrature of Funk–Hecke on the circle (d = 2: μ_k = (1/π)∫_0^π κ(cos θ) cos kθ dθ with the
arc-cosine NTK written out), and the level-ℓ limit at the interpolation threshold.
"""

from __future__ import annotations

import json
import math

import mpmath
import pytest


@pytest.mark.parametrize("gamma,ridge,risk", [("2", None, 0.5), ("1/2", None, 0.0),
                                               ("1", "0", 0.0), ("2", "0", 0.5),
                                               ("2", "1/3", 0.25 + 3 * math.sqrt(7) / 28)])
def test_noiseless_ridge(invoke, gamma, ridge, risk):
    """--noise 0 made λ* = γσ²/r² = 0 and the risk NaN at every γ (an internal error, also
    for a fixed λ, the optimum being printed beside it). Without noise λ* = 0 and the risk is
    the ridgeless one, r²(1 − 1/γ)₊ (0 at γ = 1: no variance to blow up); at λ = 1/3, γ = 2
    the Marchenko–Pastur form gives 1/4 + 3√7/28 (the helper's independent 0.5334733547569)."""
    args = ["kernel", "ridge", "--gamma", gamma, "--noise", "0", "--format", "json"]
    if ridge is not None:
        args += ["--ridge", ridge]
    r = invoke(*args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert float(data["numeric"]) == pytest.approx(risk, abs=1e-14)


def _relu_ntk_circle(k: int) -> float:
    """μ_k of the depth-2 ReLU NTK (He, κ(1) = 2) on S^1: κ(t) = t κ_0(t) + κ_1(t) with
    κ_0 = (π − θ)/π, κ_1 = (sin θ + (π − θ) cos θ)/π, t = cos θ; on the circle the Gegenbauer
    polynomials are Chebyshev's, μ_k = (1/π) ∫_0^π κ(cos θ) cos kθ dθ."""
    with mpmath.workdps(30):
        def kappa(th):
            t = mpmath.cos(th)
            k0 = (mpmath.pi - th) / mpmath.pi
            k1 = (mpmath.sin(th) + (mpmath.pi - th) * t) / mpmath.pi
            return t * k0 + k1

        return float(mpmath.quad(lambda th: kappa(th) * mpmath.cos(k * th), [0, mpmath.pi])
                     / mpmath.pi)


def test_relu_ntk_on_the_circle():
    """d = 2 (allowed: 2 to 10⁹) divided 0 by 0 in the recurrence t·P_0 = P_1 of the NTK's
    t·κ_0 term; the exact values against the circle's quadrature."""
    from fltheory.papers.kernel import spectrum
    from fltheory.papers.kernel.params import KernelSpec, Levels

    s = spectrum(KernelSpec(activation="relu", kind="ntk"), Levels(2, 6, 30))
    for lev in s.levels:
        assert float(lev.value) == pytest.approx(_relu_ntk_circle(lev.k), abs=1e-15)


def test_staircase_at_the_interpolation_threshold(invoke):
    """ψ = 1/ℓ! at ρ = 0: infinite with effective noise (null in JSON, ∞ in text and LaTeX;
    it stopped with a non-finite-number error), the limit 0 of (1 − α)e_ℓ without it."""
    base = ["kernel", "staircase", "--kernel", "t", "--target-degree", "1", "--psi", "1/2,1,2"]
    noisy = json.loads(invoke(*base, "--noise", "1/2", "--format", "json").stdout)
    assert noisy["value"][0] == pytest.approx(0.75) and noisy["value"][1] is None
    assert noisy["value"][2] == pytest.approx(0.25)       # σ²γ/(1 − γ) at γ = 1/α = 1/2
    assert "∞" in invoke(*base, "--noise", "1/2").stdout
    clean = json.loads(invoke(*base, "--noise", "0", "--format", "json").stdout)
    assert clean["value"] == pytest.approx([0.5, 0.0, 0.0])


def test_unconfirmed_levels_compile_in_latex(invoke, tmp_path):
    """Levels known only by a bound (|μ_k| ≤ b) or unconfirmed were written with a Unicode μ
    and ± that pdflatex refuses."""
    from latexcheck import compile_body

    tex = invoke("kernel", "spectrum", "--kernel", "asin(2*t/3)/asin(2/3)", "--d", "5",
                 "--kmax", "3", "--format", "latex").stdout
    assert r"\le" in tex and "μ" not in tex
    compile_body(tex, tmp_path)


def test_curve_says_what_it_cannot_vouch_for(invoke):
    """--kmax at the target's degree: degrees above it are learned in part at n = 1000
    (μ_kmax/κ_eff = 20.7) and the error was 8.6× the converged one with no word; a kernel whose
    spectrum has no confirmed digit (the Laplace kernel at d = 3) fed the curve silently. Both
    now say so; the converged default does not."""
    base = ["kernel", "curve", "--kernel", "exp(2*t-2)", "--d", "10", "--n", "100,1000",
            "--target-degree", "2"]
    short = invoke(*base, "--kmax", "2").stdout
    assert "warning: μ_kmax/κ_eff reaches 20.7" in short
    assert "warning" not in invoke(*base).stdout
    # the Laplace kernel at d = 3 had 0-2 digits; in θ = arccos t it now has every one, and
    # the curve no longer warns about them (only about its slowly decaying tail)
    laplace = json.loads(invoke("kernel", "curve", "--kernel", "exp(-sqrt(2-2*t))", "--d", "3",
                                "--n", "10,100,1000", "--target-degree", "2", "--format",
                                "json").stdout)
    warned = laplace["details"]["warnings"]
    assert warned and not any("confirmed digits" in w for w in warned)


def test_curve_names_levels_with_few_digits():
    """The same curve with its levels 1 and 3 given one confirmed digit (a kernel whose
    spectrum the bounds cannot confirm): the warning names exactly those levels."""
    import dataclasses

    from fltheory.papers.kernel.params import Curve, KernelSpec, Levels, Target
    from fltheory.papers.kernel.theory import curve, curve_warnings

    a = curve(KernelSpec(kernel="exp(2*t - 2)"), Levels(10),
              Curve("100,1000", 0, 0, Target(degree=2)))
    assert curve_warnings(a) == []
    weak = tuple(dataclasses.replace(lev, digits=1) if lev.k in (1, 3) else lev
                 for lev in a.spectrum.levels)
    b = dataclasses.replace(a, spectrum=dataclasses.replace(a.spectrum, levels=weak))
    assert [w[:40] for w in curve_warnings(b)] == ["warning: μ_k at k = 1, 3 have fewer than"]


def test_simulate_names_a_singular_gram_matrix(invoke):
    """exp(2t − 2) at d = 3, n = 400, λ = 0: the Gram matrix is singular to float64 (its
    smallest eigenvalues below the largest's 10⁻¹⁶; the helper measured cond 4e14 at n = 200)
    and the ridgeless fit printed 'error 882 ± 720, ratio 2899' as a measurement. It is now
    named; a ReLU NTK (a kink at t = 1: eigenvalues decaying like a power) is not."""
    smooth = invoke("kernel", "simulate", "--kernel", "exp(2*t-2)", "--d", "3", "--n", "400",
                    "--target-degree", "1", "--noise", "1/10", "--seeds", "2").stdout
    assert "warning: the Gram matrix is singular to float64" in smooth
    kinked = json.loads(invoke("kernel", "simulate", "--activation", "relu", "--kind", "ntk",
                               "--d", "10", "--n", "300", "--target-degree", "2", "--seeds",
                               "2", "--format", "json").stdout)
    assert kinked["details"]["condition"] < 1e12
    assert "warning" not in json.dumps(kinked)


@pytest.mark.parametrize("args,needle", [
    (["spectrum", "--kernel", "t", "--kind", "ntk", "--d", "3"],
     "kind = ntk is given with --kernel"),
    (["curve", "--kernel", "t", "--depth", "5", "--d", "3", "--target-degree", "1"],
     "depth = 5 is given with --kernel"),
    (["spectrum", "--kernel", "t", "--bias", "1/2", "--d", "3"],
     "bias = 1/2 is given with --kernel"),
    (["staircase", "--kernel", "t", "--target-degree", "1", "--ell", "0"], "ell = 0"),
])
def test_options_that_would_be_ignored_are_refused(invoke, args, needle):
    """--kind/--depth/--bias beside --kernel were silently ignored (a κ(t) has no network), and
    staircase --ell 0 printed 'learned: degrees < 0': one line, exit 2."""
    r = invoke("kernel", *args)
    assert r.exit_code == 2
    lines = [ln for ln in (r.stderr or r.output).splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], r.output


def test_optimal_ridge_at_the_boundary_is_zero(invoke):
    """exp(2t − 2), d = 10, n = 100: the error rises with λ from λ = 0 (0.384762 at 0,
    0.384762 at 10⁻⁶, 0.384894 at 10⁻³, as the command gives at those λ), and `--ridge
    optimal` printed λ = 2.4e-20, a rounding tie. It is now 0, with λ = 0's error; at
    n = 1000 the optimum is interior and no worse than any λ on a grid."""
    base = ["kernel", "curve", "--kernel", "exp(2*t-2)", "--d", "10", "--target-degree", "2",
            "--noise", "1/2", "--format", "json"]
    best = json.loads(invoke(*base, "--n", "100,1000", "--ridge", "optimal").stdout)
    zero = json.loads(invoke(*base, "--n", "100", "--ridge", "0").stdout)["value"][0]
    assert best["value"][0] == zero
    assert best["table"]["rows"][0][1] == "0"
    for lam in ("1/1000", "1/3", "1/2", "2/3", "1"):
        other = json.loads(invoke(*base, "--n", "1000", "--ridge", lam).stdout)["value"][0]
        assert best["value"][1] <= other
