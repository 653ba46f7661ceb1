"""Mutation check: does some test fail when a theory formula of fltheory is perturbed?

Each mutation replaces one exact snippet of a source file (it must occur exactly once), runs the
smallest pytest selection that should catch it, and restores the file in a ``finally`` (also on
Ctrl-C). A mutation is *caught* when pytest exits with status 1 (a test failed); status 0 means
it survived, anything else (collection error, timeout) is reported as such.

Run from the repository root (the package imported is the one in this tree):

    PYTHONPATH=. python benchmarks/mutation_check.py            # all mutations
    PYTHONPATH=. python benchmarks/mutation_check.py -k recovery  # those whose label matches

Bytecode caches are disabled in the child (a same-size edit within one second could otherwise
reuse a stale .pyc) and numba gets a fresh cache directory per run, for the same reason.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# the test files the mutations are run against
FISHER = "tests/papers/fisher/test_spectrum.py"
EXPRESSIONS = "fltheory/engine/expressions.py"
RECOVERY_COUNTING = "fltheory/papers/recovery/counting.py"
RECOVERY_LULI = "fltheory/papers/recovery/luli.py"
HERMITE = "tests/engine/test_hermite.py"
INDEPENDENT_FISHER = "tests/papers/fisher/test_independent.py"
INDEPENDENT_HERMITE = "tests/engine/test_independent_hermite.py"
INDEPENDENT_KERNEL = "tests/papers/kernel/test_independent_kernel.py"
KERNEL_CLI = "tests/papers/kernel/test_kernel_cli.py"
KERNEL_CITATIONS = "tests/papers/kernel/test_citations.py"
KERNEL_SIM = "tests/papers/kernel/test_kernel_sim.py"
USER_KERNEL = "tests/papers/kernel/test_user_checks.py"
INDEPENDENT_QUADRATIC = "tests/papers/quadratic/test_independent.py"
INDEPENDENT_RECOVERY = "tests/papers/recovery/test_independent_recovery.py"
INDEPENDENT_SPECTRAL = "tests/papers/spectral/test_independent_spectral.py"
INDEPENDENT_SPECTRAL_BBP = "tests/papers/spectral/test_independent_spectral_bbp.py"
INDEPENDENT_SPECTRAL_NOISE = "tests/papers/spectral/test_independent_spectral_noise.py"
INDEPENDENT_SPECTRAL_SAMPLE = "tests/papers/spectral/test_independent_spectral_sample.py"
INDEPENDENT_GLM = "tests/papers/glm/test_independent_glm.py"
GLM_ERM = "tests/papers/glm/test_erm.py"
INDEPENDENT_GLM_NOISY = "tests/papers/glm/test_independent_noisy.py"
GLM_NOISY_REF = "benchmarks/glm_noisy_reference.py"
GLM_NOISY = "tests/papers/glm/test_noisy_channels.py"
GLM_ERM_CURVE = "tests/papers/glm/test_erm_curve.py"
GLM_CITATIONS = "tests/papers/glm/test_citations.py"
INDEPENDENT_TWOSTEP = "tests/papers/twostep/test_independent.py"
QUADRATIC = "tests/papers/quadratic/test_theory.py"
QUADRATIC_ESCAPE = "tests/papers/quadratic/test_escape.py"
QUADRATIC_ODE = "tests/papers/quadratic/test_ode.py"
RECOVERY = "tests/papers/recovery"  # -k picks the test in its file
RF_GRAM = "tests/papers/rf_spectrum/test_gram_route.py"
SAMPLES = "tests/papers/samples"  # -k picks the test in its file
TABLES = "tests/framework/test_tables.py"
TWOSTEP = "tests/papers/twostep/test_terms.py"
TWOSTEP_LAMBDA = "tests/papers/twostep/test_lambda.py"
TWOSTEP_SIGMA = "tests/papers/twostep/test_sigma.py"
TWOSTEP_KINKS = "tests/papers/twostep/test_kinks.py"

ROOT = Path(__file__).resolve().parent.parent
TH = "fltheory/"


@dataclass(frozen=True)
class Mutation:
    label: str  # the formula
    file: str
    old: str
    new: str
    tests: tuple[str, ...]  # pytest arguments (files and -k)


def M(label: str, file: str, old: str, new: str, *tests: str) -> Mutation:
    return Mutation(label, file, old, new, tests)


TSG, TMO, _TSGT = ("fltheory/papers/twostep/sigma.py", "fltheory/papers/twostep/_moments.py",
                   TWOSTEP_SIGMA)
H, TS, TT, R, Q, QO, F = ("fltheory/engine/hermite/__init__.py",
                          "fltheory/papers/twostep/phases.py",
                          "fltheory/papers/twostep/terms.py", "fltheory/papers/recovery/theory.py",
                          "fltheory/papers/quadratic/theory.py", "fltheory/papers/quadratic/rhs.py",
                          "fltheory/papers/fisher/theory.py")

KM, KA, KS, KN, KH, KC, KT, KR = (
    "fltheory/engine/kernels/moments.py", "fltheory/engine/kernels/arccos.py",
    "fltheory/engine/kernels/series.py", "fltheory/engine/kernels/networks.py",
    "fltheory/engine/kernels/activations.py", "fltheory/engine/kernels/curves.py",
    "fltheory/papers/kernel/theory.py", "fltheory/engine/kernels/ridge.py")

MUTATIONS: list[Mutation] = [
    # ---------------------------------------------------------------- hermite
    M("hermite: E[z^n] = (n−1)!!", H, "math.prod(range(n - 1, 0, -2))",
      "math.prod(range(n - 1, 0, -1))", INDEPENDENT_HERMITE, "-k", "gauss_moment"),
    M("hermite: interval moment boundary a^{n−1}φ(a)", H,
      "else a**(n - 1) * _phi(a)", "else a**n * _phi(a)",
      INDEPENDENT_HERMITE, "-k", "piecewise and Max"),
    M("hermite: interval moment recursion (n−1)J_{n−2}", H, "(n - 1) * J[n - 2]",
      "n * J[n - 2]", INDEPENDENT_HERMITE, "-k", "piecewise and Max"),
    M("hermite: Φ(x) = (1 + erf(x/√2))/2", EXPRESSIONS, "return (1 + sp.erf(x / sp.sqrt(2))) / 2",
      "return (1 + sp.erf(x / 2)) / 2", INDEPENDENT_HERMITE, "-k", "piecewise and Heaviside"),
    M("hermite: Gaussian moment e^{b²/(4s)}", H, "sp.exp(b**2 / (4 * s))",
      "sp.exp(b**2 / (2 * s))", INDEPENDENT_HERMITE, "-k", "gaussian_path and exp"),
    M("hermite: Gaussian moment mean b/(2s)", H, "m, v = b / (2 * s), 1 / (2 * s)",
      "m, v = b / s, 1 / (2 * s)", INDEPENDENT_HERMITE, "-k", "gaussian_path and exp"),
    M("hermite: piecewise-Gaussian factor e^{c + b²/(4s)}", H, "sp.exp(c + b**2 / (4 * s))",
      "sp.exp(c + b**2 / (2 * s))", INDEPENDENT_HERMITE, "-k", "piecewise_gaussian and Max"),
    M("hermite: piecewise-Gaussian shift z = m + √v u", H, "sp.expand((m + root * Z)**n)",
      "sp.expand((m - root * Z)**n)", INDEPENDENT_HERMITE, "-k", "piecewise_gaussian"),
    M("hermite: quadrature He recursion", H, "He.append(x * He[j] - j * He[j - 1])",
      "He.append(x * He[j] - (j + 1) * He[j - 1])", HERMITE, "-k",
      "gauss_hermite and tanh"),
    M("hermite: μ_k = E[f He_k]/√k!", H, "mu = _clean(value / sp.sqrt(sp.factorial(k)))",
      "mu = _clean(value / sp.factorial(k))", INDEPENDENT_HERMITE, "-k", "piecewise and Max"),
    M("hermite: Parseval fraction", H, "captured = total / value if",
      "captured = total / value**2 if", INDEPENDENT_HERMITE, "-k", "parseval and tanh"),
    M("hermite: co-area weight φ(z_i)/|f'(z_i)|", H,
      "weights.append((r, mpmath.npdf(r) / d))", "weights.append((r, mpmath.npdf(r) * d))",
      INDEPENDENT_HERMITE, "-k", "conditional_value_polynomial"),
    M("hermite: atom E[h_k 1_A]/P(A)", H,
      "value = num / mass / sp.sqrt(sp.factorial(k))",
      "value = num / sp.sqrt(sp.factorial(k))",
      INDEPENDENT_HERMITE, "-k", "atom_row"),
    # ---------------------------------------------------------------- twostep kinked σ
    M("twostep kinks: σ'^p at a kink = mean of one-sided values",
      "fltheory/papers/twostep/kinks.py", "(q.right**p + q.left**p) / 2", "q.right**p",
      TWOSTEP_KINKS, "-k", "one_sided and relu and 7"),
    M("twostep kinks: odd part S_k(d−) − S_k(d+)", "fltheory/papers/twostep/kinks.py",
      "(_s(psi2 * y * left + w, k) - _s(psi2 * y * right + w, k)) / 2",
      "(_s(psi2 * y * right + w, k) - _s(psi2 * y * left + w, k)) / 2", TWOSTEP_KINKS, "-k",
      "one_sided and relu and 7"),
    M("twostep kinks: Q_k partial moment T_j recursion", "fltheory/papers/twostep/kinks.py",
      "+ (m - 1) * ts[m - 2]", "+ m * ts[m - 2]", TWOSTEP_KINKS, "-k", "q_moment"),
    M("twostep kinks: fold on |s| with sgn(s)^(k+1) (μ_1(σ) = 0)",
      "fltheory/papers/twostep/kinks.py", "int(sp.sign(s)) ** (k + 1)", "int(sp.sign(s)) ** k",
      TWOSTEP_KINKS, "-k", "vanishes and Abs"),
    M("twostep kinks: c_s = Σ_{s^- = s} w − Σ_{s^+ = s} w", "fltheory/papers/twostep/kinks.py",
      "for s, sign in ((q.left, 1), (q.right, -1)):", "for s, sign in ((q.left, 1), (q.right, 1)):",
      TWOSTEP_KINKS, "-k", "vanishes"),
    M("twostep kinks: C_k^odd = E[h_k^odd s], h_k^odd ∝ y/(2k!)",
      "fltheory/papers/twostep/kinks.py",
      "return y * tot * s * mpmath.npdf(s) / (2 * math.factorial(k))",
      "return tot * s * mpmath.npdf(s) / (2 * math.factorial(k))", TWOSTEP_KINKS, "-k",
      "odd_constant"),
    # ---------------------------------------------------------------- twostep Λ
    M("twostep: Λ ratio α2/(1/2 − α1)", TS, "    ratio = alpha2 / (HALF - alpha1)\n    value",
      "    ratio = alpha2 / (1 - alpha1)\n    value", TWOSTEP_LAMBDA, "-k",
      "full_grid"),
    M("twostep: Λ cap L − 1", TS, "value = min(L - 1, value)", "value = min(L, value)",
      TWOSTEP_LAMBDA, "-k", "full_grid"),
    M("twostep: term exponent α2 + k(α1 − 1/2)", TS, "    return alpha2 + k * (alpha1 - HALF)",
      "    return alpha2 + k * (HALF - alpha1)", TWOSTEP_LAMBDA, "-k",
      "boundary_flag"),
    M("twostep: phase boundaries k(1/2 − α1)", TS, "high = (k + 1) * gap",
      "high = (k + 2) * gap", TWOSTEP_LAMBDA, "-k", "phase_regions"),
    # ---------------------------------------------------------------- twostep spike constants
    M("twostep: reused term ψ2 σ'(z) y", TT, "sp.sympify(model.psi2) * d1 * y",
      "sp.sympify(model.psi2) ** 2 * d1 * y", INDEPENDENT_TWOSTEP, "-k",
      "gauss_hermite_grid and targets0-reused"),
    M("twostep: ξ variance ψ1 E[σ'²] E[y²]", TT, "sp.sympify(model.psi1) * E_d1sq * Ey2",
      "E_d1sq * Ey2", INDEPENDENT_TWOSTEP, "-k", "gauss_hermite_grid and targets1-fresh"),
    M("twostep: label noise in E[y²]", TT, "+ model.noise**2", "+ model.noise",
      INDEPENDENT_TWOSTEP, "-k", "gauss_hermite_grid and targets1-fresh"),
    M("twostep: c_k = σ^{(k+1)} D̃^k y/k!", TT, "D**k * y / math.factorial(k)",
      "D**k * y / math.factorial(k + 1)", INDEPENDENT_TWOSTEP, "-k",
      "gauss_hermite_grid and targets0-reused"),
    M("twostep: E over s_v (shift)", TT, "extra[shift % 100] = 1 + shift // 100",
      "extra[shift % 100] = 2 + shift // 100", INDEPENDENT_TWOSTEP, "-k",
      "gauss_hermite_grid and targets0-reused"),
    M("twostep: E a^{2k+2} = (2k+1)!!", TT, "math.prod(range(2 * self.k + 1, 0, -2))",
      "math.prod(range(2 * self.k + 1, 0, -1))", INDEPENDENT_TWOSTEP, "-k", "mean_square"),
    M("twostep: mean square C² + (Q − C²)/n2", TT, "(float(self.Q) - C2) / n2",
      "float(self.Q) / n2", INDEPENDENT_TWOSTEP, "-k", "mean_square"),
    # the rectangular BBP form is the engine's (spikes.rectangular_spike); one_step_overlap
    # takes its right overlap: c dropped there, and the left overlap taken instead
    M("twostep: BBP 1 − (c + θ²)/(θ²(θ² + 1)) (rectangular_spike, c → 1)",
      "fltheory/engine/spectral/spikes.py", "1 - (c + theta**2) / (theta**2 * (theta**2 + 1)))",
      "1 - (1 + theta**2) / (theta**2 * (theta**2 + 1)))", INDEPENDENT_TWOSTEP, "-k",
      "bbp_overlap"),
    M("twostep: the right singular vector's overlap (not the left)", TT,
      "along_b = rectangular_spike(theta, float(c)).right",
      "along_b = rectangular_spike(theta, float(c)).left", INDEPENDENT_TWOSTEP, "-k",
      "bbp_overlap"),
    M("twostep: B² = Σμ_1² + ψ1 E[y²]", TT, "B2 = signal + float(model.psi1) * Ey2",
      "B2 = signal + Ey2", INDEPENDENT_TWOSTEP, "-k", "strength_and_alignment"),
    M("twostep: θ = N^{α1} |μ_σ| B", TT, "theta = float(N) ** float(alpha1)",
      "theta = float(N) ** (2 * float(alpha1))", INDEPENDENT_TWOSTEP, "-k",
      "strength_and_alignment"),
    # ---------------------------------------------------------------- twostep, σ-aware terms
    M("twostep σ: μ_1(σ) = 0 keeps only p with k − p even", TSG,
      "usable = [p for p in ps if not mu1_zero or (k - p) % 2 == 0]",
      "usable = [p for p in ps if not mu1_zero or (k - p) % 2 == 1]", _TSGT, "-k",
      "even_sigma or by_hand"),
    M("twostep σ: μ_1(σ) = 0 rule dropped", TSG,
      "usable = [p for p in ps if not mu1_zero or (k - p) % 2 == 0]",
      "usable = list(ps)", _TSGT, "-k", "even_sigma or by_hand"),
    M("twostep σ: no one-step shift when μ_1(σ) = 0", TSG,
      "    mu1_zero = mu_sigma == 0\n    model = TwoStepModel(",
      "    mu1_zero = False\n    model = TwoStepModel(", _TSGT, "-k", "even_sigma or by_hand"),
    M("twostep σ: parity of σ^(k+1) from σ''", TSG, "(d2 * (-1) ** (k - 1))",
      "(d2 * (-1) ** k)", _TSGT, "-k", "quoted"),
    M("twostep σ: parity zero of M_{k,0}", TSG, "        return first == -1",
      "        return first == 1", _TSGT, "-k", "quoted"),
    M("twostep σ: parity zero of M_{k,p}, p >= 1", TSG, "first * d1**p == -1",
      "first * d1**(p + 1) == -1", _TSGT, "-k", "quoted or even_sigma"),
    M("twostep σ: quoted μ_{k+1} = M_{k,0}/√((k+1)!)", TSG, "_short(M0 / root, err)",
      "_short(M0, err)", _TSGT, "-k", "quoted"),
    M("twostep σ: alignment E[ξ^q] = (q − 1)!!", TSG, "math.prod(range(q - 1, 0, -2))",
      "math.prod(range(q - 1, 0, -1))", _TSGT, "-k", "alignment or fourth"),
    M("twostep σ: alignment C(k, p) ψ^p", TSG, "total += math.comb(k, p) * num(model.psi2) ** p",
      "total += math.comb(k, p) * num(model.psi2) ** (p + 1)", _TSGT, "-k", "alignment"),
    M("twostep σ: boundary term not learned", TT,
      "on_boundary = not step1 and via is not None and next(\n            t.exponent for t in "
      "eff.terms if t.k == via) == 0",
      "on_boundary = not step1 and via is not None and next(\n            t.exponent for t in "
      "eff.terms if t.k == via) < 0", _TSGT, "-k", "boundary"),
    M("twostep: boundary term not learned (polynomial σ)", TT,
      "via is not None and exponent_of(setting, via) == 0",
      "via is not None and exponent_of(setting, via) < 0", _TSGT, "-k", "boundary"),
    M("twostep σ: jet of tanh, t' = (1 − t²)u'", TMO, "q.append(-mpmath.fdot(t, t[::-1]))",
      "q.append(mpmath.fdot(t, t[::-1]))", _TSGT, "-k", "jets"),
    M("twostep σ: jet of erf, 2/√π", TMO, "g = [2 / mpmath.sqrt(mpmath.pi) * v for v in g]",
      "g = [1 / mpmath.sqrt(mpmath.pi) * v for v in g]", _TSGT, "-k", "jets"),
    M("twostep σ: jet of log", TMO, "dw.append(m * w[m])", "dw.append(w[m])", _TSGT, "-k",
      "jets"),
    M("twostep σ: jet of u^a", TMO, "((a + 1) * j - m) * u[j]", "((a + 1) * j + m) * u[j]",
      _TSGT, "-k", "jets"),
    M("twostep σ: trapezoid adds only the new nodes", TMO,
      "range(-J + (J % 2 == 0), J + 1, 2)", "range(-J, J + 1, 2)", _TSGT, "-k",
      "moments_table"),
    M("twostep σ: numeric zero bound 10^−dps", TSG,
      "if abs(value) <= max(mpmath.mpf(10) ** (-dps) * scale, 10 * err):",
      "if abs(value) <= max(mpmath.mpf(10) ** (-3) * scale, 10 * err):", _TSGT, "-k",
      "quoted or small_but"),
    # ---------------------------------------------------------------- recovery
    M("recovery: D(d, q) = C(d+q−1, q)", RECOVERY_COUNTING, "return math.comb(d + q - 1, q)",
      "return math.comb(d + q, q)", INDEPENDENT_RECOVERY, "-k", "depth_rows"),
    M("recovery: kernel D(d, 2q)", R, '"kernel": feature_dimension(d, 2 * q)',
      '"kernel": feature_dimension(d, q + 2)', INDEPENDENT_RECOVERY, "-k", "depth_rows"),
    M("recovery: threshold k^{2γ} (mpmath)", R, "inv_a2 = norm2 * mpmath.power(k, 2 * g)",
      "inv_a2 = norm2 * mpmath.power(k, g + 1)", INDEPENDENT_RECOVERY, "-k", "irrational_power"),
    M("recovery: threshold k^{2γ} (exact)", R, "value = C * size * norm2 * k ** int(2 * gamma)",
      "value = C * size * norm2 * k ** int(gamma + 1)", INDEPENDENT_RECOVERY, "-k", "half_integer"),
    M("recovery: threshold 1/a² for a strength", R,
      "inv_a2 = mpmath.mpf(strength.denominator) ** 2 / strength.numerator ** 2",
      "inv_a2 = mpmath.mpf(strength.denominator) / strength.numerator ** 2",
      INDEPENDENT_RECOVERY, "-k", "given_strength"),
    M("recovery: recovered count k^{2u} <= R^v", R, "return bool(k ** (2 * u) <= R ** v)",
      "return bool(k ** (2 * u + 1) <= R ** v)", RECOVERY, "-k",
      "high_precision_enumeration"),
    # (">=" → ">" at the boundary, "<= target" → "< target", makes the search loop forever at
    # n = C·D exactly: test_recovered_count_boundary_is_exact then hangs instead of failing.)
    M("recovery: continuum count (n/CD)^{1/(2γ)}", R,
      "return +mpmath.power(R, 1 / (2 * g))", "return +mpmath.power(R, 1 / (g + 1))",
      INDEPENDENT_RECOVERY, "-k", "continuum"),
    M("recovery: law exponent −1 + 1/(2γ)", R, "return -1 + 1 / (2 * gamma)",
      "return -1 + 1 / (gamma + 1)", RECOVERY, "-k", "law_domain"),
    M("recovery: a_1² = 1/(ζ(2γ) C)", R,
      "mpmath.zeta(2 * mpmath.mpf(gamma.numerator) / gamma.denominator)\n",
      "mpmath.zeta(mpmath.mpf(gamma.numerator) / gamma.denominator + 1)\n",
      INDEPENDENT_RECOVERY, "-k", "a1_squared"),
    M("recovery: law prefactor 8γ²/(4γ² − 1)", R, "8 * g ** 2 / ((4 * g ** 2 - 1)",
      "8 * g ** 2 / ((4 * g ** 2 + 1)", INDEPENDENT_RECOVERY, "-k", "law_prefactor"),
    M("recovery: law prefactor power of a_1²", R,
      "mpmath.power(a1_squared, -1 + 1 / (2 * g))", "mpmath.power(a1_squared, -1 + 1 / (g + 1))",
      INDEPENDENT_RECOVERY, "-k", "law_prefactor"),
    # (a wrong recursion, / (2r) → / r, never reaches total mass 1 and runs to the 200 000-term
    # cap, quadratic in Python: a hang, not a failure; the χ² mixture's normalisation instead:)
    M("recovery: Ruben mixture χ²_{M+2j} densities", R,
      "self._log_norm = -(dof / 2) * math.log(2) - gammaln(dof / 2)",
      "self._log_norm = -(dof / 2) * math.log(2) - gammaln(dof / 2 + 1)",
      RECOVERY, "-k", "ruben_series_moments"),
    M("recovery: size bias χ²_1 → χ²_3 (rank)", R,
      "        m[i] = 3\n        biased.append(_GenChi2(w, m))",
      "        m[i] = 5\n        biased.append(_GenChi2(w, m))",
      INDEPENDENT_RECOVERY, "-k", "luli and 6.0-3-rank"),
    M("recovery: ψ closed form (rank)", R, "lam / delta - lam + lam * lam * L / 2",
      "lam / delta - lam + lam * lam * L / 3", INDEPENDENT_RECOVERY, "-k", "luli and 6.0-3-rank"),
    M("recovery: ψ' closed form (rank)", R, "lam * L - lam * lam / (lam * lam - 1)",
      "lam * L - lam / (lam * lam - 1)", INDEPENDENT_RECOVERY, "-k", "luli and 6.0-3-rank"),
    # recovery's label laws are the engine's DiscreteLaw (its ψ and φ sums), rank's ψ aside
    M("recovery: ψ' generic (sign; engine DiscreteLaw)", "fltheory/engine/spectral/luli.py",
      "return lam * (1 / delta + e1), 1 / delta - e2",
      "return lam * (1 / delta + e1), 1 / delta + e2", INDEPENDENT_RECOVERY, "-k",
      "luli and 6.0-1-sign"),
    M("recovery: φ_i(λ) = λ E[T h²/(λ − T)] (engine DiscreteLaw)",
      "fltheory/engine/spectral/luli.py",
      "return (lam * float(b @ (self.t / (lam - self.t))),",
      "return (float(b @ (self.t / (lam - self.t))),", INDEPENDENT_RECOVERY, "-k",
      "luli and 6.0-1-sign"),
    M("recovery: Lu–Li ρ² = ψ'/(ψ' − φ')", R, "Overlap(dpsi / (dpsi - dphi), psi, edge)",
      "Overlap(dpsi / (dpsi + dphi), psi, edge)", INDEPENDENT_RECOVERY, "-k",
      "luli and 6.0-1-sign"),
    M("recovery: θ_i = E[T(h_i² − 1)]", R, "return self.biased @ self.t - self.base @ self.t",
      "return 2 * self.biased @ self.t - self.base @ self.t", INDEPENDENT_RECOVERY, "-k",
      "theta_and_threshold"),
    M("recovery: δ_BBP = E[T²]/θ²", R, "return self.law.second_moment / self.theta() ** 2",
      "return self.law.second_moment / self.theta()", INDEPENDENT_RECOVERY, "-k",
      "theta_and_threshold"),
    # the large-δ form max(0, 1 − δ_i/δ) is the engine's semicircle spike with r = 1/x
    M("recovery: BBP overlap 1 − 1/x (semicircle_overlap_ratio(1/x))", RECOVERY_LULI,
      "out: np.ndarray = semicircle_overlap_ratio(1 / x)",
      "out: np.ndarray = semicircle_overlap_ratio(2 / x)", INDEPENDENT_RECOVERY, "-k",
      "theta_and_threshold"),
    M("recovery: MSE = 1 − Σ c² ρ⁴", R, "out: np.ndarray = 1 - (rho2 ** 2) @ (self.c ** 2)",
      "out: np.ndarray = 1 - (rho2) @ (self.c ** 2)", INDEPENDENT_RECOVERY, "-k", "mse_formula"),
    M("recovery: weak constant E[T²]/(2 slope²)", R,
      "return self.law.second_moment / (2 * self.law.slope ** 2)",
      "return self.law.second_moment / (self.law.slope ** 2)", INDEPENDENT_RECOVERY, "-k",
      "weak_constant"),
    M("recovery: slope E[T'] = 2∫p² (rank)", R, "slope = float(2 * weights @ p)",
      "slope = float(weights @ p)", INDEPENDENT_RECOVERY, "-k", "weak_constant"),
    M("recovery: slope E[T'] = 2 p(median) (sign)", R,
      "float(2 * base.pdf(np.array([med]))[0]))", "float(base.pdf(np.array([med]))[0]))",
      INDEPENDENT_RECOVERY, "-k", "weak_constant"),
    M("recovery depth: eigenlearning share at n (not 1.1 n)", "fltheory/papers/recovery/depth.py",
      "p = curve_point(spec, energies, float(n), 0.0, 0.0)",
      "p = curve_point(spec, energies, float(1.1 * n), 0.0, 0.0)", INDEPENDENT_RECOVERY, "-k",
      "kernel_share"),
    M("recovery depth: the target's energy in degree 4", "fltheory/papers/recovery/depth.py",
      "energies[4] = 1.0", "energies[2] = 1.0", RECOVERY, "-k", "depth_at_fixed_d_prediction"),
    M("recovery depth (simulator): degree-2 part 4/(d + 4) of g²",
      "fltheory/papers/recovery/sim.py", "(4 / (d + 4))", "(4 / (d + 2))", RECOVERY, "-k",
      "sphere_parts_split"),
    # ---------------------------------------------------------------- quadratic
    M("quadratic: plateau bracket 2/p*", Q,
      "+ 2 * sp.Rational(t2.numerator, t2.denominator) / p_star**2",
      "+ 1 * sp.Rational(t2.numerator, t2.denominator) / p_star**2",
      INDEPENDENT_QUADRATIC, "-k", "plateau_with_noise"),
    M("quadratic: plateau bracket noise σ²", Q, "+ 8 * q**2 / p**2 + s2))",
      "+ 8 * q**2 / p**2 + 2 * s2))", INDEPENDENT_QUADRATIC, "-k",
      "plateau_with_noise and noise1"),
    # (the branch of the symbolic root, "root = (-A1 - sp.sqrt(disc)) / (2 * A2)", is checked at
    # run time against the cancellation-free form below, which then replaces it: flipping it
    # alone is an equivalent mutant; the form that decides is the one mutated here)
    M("quadratic: plateau root branch", Q, "stable = 2 * A0 / (-A1 + sp.sqrt(d))",
      "stable = 2 * A0 / (-A1 - sp.sqrt(d))", INDEPENDENT_QUADRATIC, "-k", "plateau_with_noise"),
    M("quadratic: discriminant → η_max", Q, "disc = sp.expand(A1**2 - 4 * A2 * A0)",
      "disc = sp.expand(A1**2 - 2 * A2 * A0)", INDEPENDENT_QUADRATIC, "-k", "step_bound"),
    M("quadratic: plateau loss", Q, "2 * (qf**2 / p + float(tr_t2) / p_star**2)",
      "2 * (qf**2 / p + 2 * float(tr_t2) / p_star**2)",
      INDEPENDENT_QUADRATIC, "-k", "plateau_with_noise"),
    M("quadratic: escape rate 2η(1 − q − 2q/p + 2τ/p*)", Q,
      "return 2 * eta * (1 - q - 2 * q * inv_p + 2 * tau * inv_ps)",
      "return 2 * eta * (1 - q - 2 * q * inv_p + tau * inv_ps)", INDEPENDENT_QUADRATIC, "-k",
      "anisotropic_teacher_linearise"),
    M("quadratic: right side 8 C𝒜C𝒜C", QO, "+ 8.0 * (CAC @ AC)", "+ 6.0 * (CAC @ AC)",
      INDEPENDENT_QUADRATIC, "-k", "monte_carlo_over_the_fields"),
    M("quadratic: dρ/dt = −2aη_w E[(f−y)λν]", QO,
      "out[1 + k * k:] = (-2.0 * a * eta_w * M1[:k, k:]).ravel()",
      "out[1 + k * k:] = (-4.0 * a * eta_w * M1[:k, k:]).ravel()",
      INDEPENDENT_QUADRATIC, "-k", "monte_carlo_over_the_fields"),
    M("quadratic: E[(zᵀ𝒜z) zzᵀ] = tr(𝒜C)C + 2C𝒜C", QO, "M1 = t1 * C + 2.0 * CAC",
      "M1 = t1 * C + 1.0 * CAC", INDEPENDENT_QUADRATIC, "-k", "monte_carlo_over_the_fields"),
    M("quadratic: loss ½(tr² + 2 tr(𝒜C)² + σ²)", Q,
      "return float(0.5 * (t1**2 + 2 * tr2 + sigma**2))",
      "return float(0.5 * (t1**2 + tr2 + sigma**2))", INDEPENDENT_QUADRATIC, "-k",
      "monte_carlo_over_the_fields"),
    M("quadratic: bulk trace m·a·q", QO, "t1 = np.trace(AC, axis1=-2, axis2=-1) + m * a * q",
      "t1 = np.trace(AC, axis1=-2, axis2=-1) + m * a * q * q",
      QUADRATIC_ODE, "-k", "full_one_restricted and False"),
    M("quadratic: bulk dq (8a²q³ term)", QO, "+ 8.0 * a * a * q * q * q))",
      "+ 4.0 * a * a * q * q * q))", QUADRATIC_ODE, "-k",
      "full_one_restricted and False"),
    M("quadratic: element-wise derivation η² term", Q,
      "+ 4 * a**2 * eta**2 * (E(err**2 * lam[k] * lam[l])",
      "+ 2 * a**2 * eta**2 * (E(err**2 * lam[k] * lam[l])",
      QUADRATIC, "-k", "elementwise"),
    M("quadratic: Isserlis pairing", Q, "total += cov[first][rest[j]] * _wick(",
      "total += 2 * cov[first][rest[j]] * _wick(", QUADRATIC, "-k", "wick"),
    M("quadratic: plateau noise moment (p*+2)(p*+4)", Q,
      "b * b * q * (p_star + 2) * (p_star + 4)", "b * b * q * (p_star + 2) * (p_star + 3)",
      INDEPENDENT_QUADRATIC, "-k", "noise_moment"),
    M("quadratic: plateau noise rate 4η²E", Q,
      "return 4 * eta**2 * plateau_noise_moment(", "return 2 * eta**2 * plateau_noise_moment(",
      QUADRATIC_ESCAPE, "-k", "small_time"),
    M("quadratic: overlap variance D(e^{2rt} − 1)/(2r)", Q,
      "D * math.expm1(2 * r * t) / (2 * r)", "D * math.expm1(2 * r * t) / r",
      QUADRATIC_ESCAPE, "-k", "small_time"),
    M("quadratic: J integrand e^{−2R}", Q, "sigma) * np.exp(-2 * R)", "sigma) * np.exp(-R)",
      QUADRATIC_ESCAPE, "-k", "D_over_2r"),
    M("quadratic: E ln‖ρ‖ digamma(p p*/2)", Q, "float(mpmath.digamma(p * p_star / 2))",
      "float(mpmath.digamma(p * p_star))", QUADRATIC_ESCAPE, "-k",
      "mean_log_overlap"),
    M("quadratic: linear shift −ln(1 + J/q0)/(2r)", Q,
      "return -math.log(1 + self.noise_variance / self.q0) / (2 * self.rate)",
      "return -math.log(1 + self.noise_variance / self.q0) / self.rate",
      QUADRATIC_ESCAPE, "-k", "linear_stage"),
    # quadratic.crossing_time is the shared crossing rule of simkit.observables (the theory and
    # the simulator read escapes by it)
    M("quadratic: crossing time log interpolation (simkit.observables.crossing_time)",
      "fltheory/simkit/observables.py", "(math.log(level) - lo) / (hi - lo)",
      "(level - lo) / (hi - lo)", QUADRATIC_ESCAPE, "-k", "crossing_time"),
    M("quadratic: manifold dim pp* − p*(p*+1)/2", Q,
      "return p * p_star - p_star * (p_star + 1) // 2",
      "return p * p_star - p_star * (p_star - 1) // 2", INDEPENDENT_QUADRATIC, "-k",
      "manifold_dimension"),
    M("quadratic: Hessian at solution (p−p*)(N−p*)", Q, "zero = dim + (p - p_star) * (N - p_star)",
      "zero = dim + (p - p_star) * (N - p)", INDEPENDENT_QUADRATIC, "-k", "hessian_counts"),
    M("quadratic: Hessian at plateau p(N − p − p*)", Q,
      "zero = p * (p - 1) // 2 + p * (N - p - p_star)", "zero = p * (p - 1) // 2 + p * (N - p)",
      INDEPENDENT_QUADRATIC, "-k", "hessian_counts"),
    M("quadratic: polar factor ρ(ρᵀρ)^{−1/2}", Q, "return R @ V @ np.diag(w**-0.5) @ V.T",
      "return R @ V @ np.diag(w**-1.0) @ V.T",
      INDEPENDENT_QUADRATIC, "-k", "polar"),
    M("quadratic: implicit-bias drift max_t", Q,
      "drift = max(float(np.linalg.norm(polar_factor(R) - S0)) for R in sol.R)",
      "drift = min(float(np.linalg.norm(polar_factor(R) - S0)) for R in sol.R)",
      QUADRATIC, "-k", "implicit_bias_conditions"),
    M("quadratic: Jacobian zero modes (p−p*)(p−p*+1)/2", Q,
      "extra = (p - p_star) * (p - p_star + 1) // 2",
      "extra = (p - p_star) * (p - p_star - 1) // 2",
      QUADRATIC, "-k", "jacobian_counts and 3-1"),
    M("quadratic: --scaling fixed is step η/p", Q,
      'return eta / self.p if self.scaling == "fixed" else eta',
      'return eta if self.scaling == "fixed" else eta',
      QUADRATIC, "-k", "fixed_scaling_rate"),
    # ---------------------------------------------------------------- fisher
    M("fisher: N(d, l)", F, "return math.comb(l + d - 1, d - 1) - math.comb(l + d - 3, d - 1)",
      "return math.comb(l + d - 1, d - 1) - math.comb(l + d - 2, d - 1)",
      INDEPENDENT_FISHER, "-k", "multiplicity"),
    M("fisher: Gegenbauer recurrence (2l + d − 2)", F, "new[i + 1] += (2 * n + d - 2) * c",
      "new[i + 1] += (2 * n + d - 1) * c", INDEPENDENT_FISHER, "-k", "legendre"),
    M("fisher: Gegenbauer recurrence 1/(l + d − 2)", F, "[c / (n + d - 2) for c in new]",
      "[c / (n + d - 1) for c in new]", INDEPENDENT_FISHER, "-k", "legendre"),
    M("fisher: A_j recursion 2j A_{j−1}", F, "return (2 * j * A(j - 1, n + 1)",
      "return (j * A(j - 1, n + 1)", INDEPENDENT_FISHER, "-k", "eigenvalue_against_scipy"),
    M("fisher: even moment /(2πZ)", F, "+ A(j, nu)) / (2 * ctx.pi * Z)",
      "+ A(j, nu)) / (ctx.pi * Z)", INDEPENDENT_FISHER, "-k", "eigenvalue_against_scipy"),
    M("fisher: λ_1 = 1/4", F, "return FisherLevel(d, l, N, Fraction(1, 4), mpmath.mpf(1) / 4,",
      "return FisherLevel(d, l, N, Fraction(1, 3), mpmath.mpf(1) / 3,", INDEPENDENT_FISHER,
      "-k", "eigenvalue_against_scipy"),
    M("fisher: quadrature κ(cos θ)", F,
      "kappa = (s + (mpmath.pi - theta) * c) / (2 * mpmath.pi)",
      "kappa = (s + (mpmath.pi + theta) * c) / (2 * mpmath.pi)", INDEPENDENT_FISHER, "-k",
      "eigenvalue_against_scipy"),
    M("fisher: paper λ_0 (2d+1)/(4π)", F, "return (2 * mpmath.mpf(d) + 1) / (4 * mpmath.pi)",
      "return (2 * mpmath.mpf(d) + 2) / (4 * mpmath.pi)", TABLES, "-k",
      "fisher_table_cells"),
    M("fisher: paper λ_2 1/(2π(d+2))", F, "return 1 / (2 * mpmath.pi * (d + 2))",
      "return 1 / (2 * mpmath.pi * (d + 1))", TABLES, "-k", "fisher_table_cells"),
    M("fisher: top-3 limit 1/2 + 3/(2π)", F, "mpmath.mpf(1) / 2 + 3 / (2 * mpmath.pi)",
      "mpmath.mpf(1) / 2 + 3 / (4 * mpmath.pi)", FISHER, "-k", "huge_d"),
    M("fisher: trace d/2", F, "return Fraction(Levels(d).d, 2)", "return Fraction(Levels(d).d, 3)",
      INDEPENDENT_FISHER, "-k", "trace"),
    M("fisher: sphere moments d(d+2)…", F, "den = math.prod(d + 2 * i for i in range(total // 2))",
      "den = math.prod(d + i for i in range(total // 2))", INDEPENDENT_FISHER, "-k", "gram"),
    M("fisher: eigenfunction correction −‖x‖/d", F, "cols += [x[:, c] ** 2 / r - r / d",
      "cols += [x[:, c] ** 2 / r - r / (d + 1)", INDEPENDENT_FISHER, "-k", "eigenfunction_basis"),
    # the paper's values against the identities exact at every d (d = 3, 5, 7, 10)
    M("fisher identities: paper λ_0 (2d+1)/(4π)", F,
      "return (2 * mpmath.mpf(d) + 1) / (4 * mpmath.pi)",
      "return (2 * mpmath.mpf(d) + 2) / (4 * mpmath.pi)", INDEPENDENT_FISHER, "-k", "paper_values"),
    M("fisher identities: paper λ_1 1/4", F, "            return mpmath.mpf(1) / 4",
      "            return mpmath.mpf(1) / 3", INDEPENDENT_FISHER, "-k", "paper_values"),
    M("fisher identities: paper λ_2 1/(2π(d+2))", F, "return 1 / (2 * mpmath.pi * (d + 2))",
      "return 1 / (2 * mpmath.pi * (d + 1))", INDEPENDENT_FISHER, "-k", "paper_values"),
    M("fisher identities: exact λ_l (A_j recursion)", F, "return (2 * j * A(j - 1, n + 1)",
      "return (j * A(j - 1, n + 1)", INDEPENDENT_FISHER, "-k", "sphere"),
    # ---------------------------------------------------------------- rf_gram (small-d route)
    M("rf_gram: products r·ρ = (2s/√d)e^{(x_i+x_a)/2}", "fltheory/papers/rf_spectrum/gram.py",
      "a = 2 * math.sqrt(s2 / d)", "a = 2 * math.sqrt(s2 / (d + 1))", RF_GRAM),
    M("rf_gram: Gegenbauer recurrence (2l + d − 2)", "fltheory/papers/rf_spectrum/gram.py",
      "rows[l + 1] = ((2 * l + d - 2) * t", "rows[l + 1] = ((2 * l + d - 1) * t",
      RF_GRAM),
    M("rf_gram: Gauss–Jacobi weights 1/((1 − t²)P'²)", "fltheory/papers/rf_spectrum/gram.py",
      "w = 1 / ((1 - t * t) * dp * dp)", "w = 1 / ((1 - t * t) * dp)", RF_GRAM),
    M("rf_gram: Gauss–Jacobi exponent (d − 3)/2", "fltheory/papers/rf_spectrum/gram.py",
      "a = (d - 3) / 2",
      "a = (d - 2) / 2", RF_GRAM),
    M("rf_gram: log-rule weight exp(α x − e^x)", "fltheory/papers/rf_spectrum/gram.py",
      "w = np.exp(alpha * x - np.exp(x) - peak)", "w = np.exp((alpha + 1) * x - np.exp(x) - peak)",
      RF_GRAM),
    # ---------------------------------------------------------------- samples
    M("samples: online SGD d^{k−1}", "fltheory/papers/samples/complexity.py",
      "return Scale(Fraction(k - 1))", "return Scale(Fraction(k))",
      SAMPLES, "-k", "hand"),
    M("samples: CSQ/SQ order d^{k/2}", "fltheory/papers/samples/complexity.py",
      "return Scale(max(Fraction(k, 2), Fraction(1)))", "return Scale(max(Fraction(k, 3), "
      "Fraction(1)))", SAMPLES, "-k", "hand_values"),
    M("samples: z^n in He, 2^m", "fltheory/papers/samples/multiindex.py",
      "Fraction(factorial(n), 2 ** m * factorial(m)", "Fraction(factorial(n), 2 ** (m + 1) * "
      "factorial(m)", SAMPLES, "-k", "numpy_hermite_e"),
    M("samples: leap takes the least new degree", "fltheory/papers/samples/multiindex.py",
      "least = min(_new_degree(a, known) for a in remaining)",
      "least = max(_new_degree(a, known) for a in remaining)",
      SAMPLES, "-k", "brute_force"),
    M("samples nonpoly: interval integral φ(a)He_{n−1}(a) of a threshold link",
      "fltheory/papers/samples/nonpoly.py",
      "out += _phi_symbol(lo) * sp.Rational(str(_He(n - 1, lo)))",
      "out += _phi_symbol(lo) * sp.Rational(str(_He(n, lo)))", SAMPLES, "-k", "nonpoly"),
    M("samples nonpoly: the side of a threshold on a pattern", "fltheory/papers/samples/nonpoly.py",
      "subs[s] = 1 if lo is not None and lo >= t else -1",
      "subs[s] = 1 if lo is not None and lo > t else -1", SAMPLES, "-k", "nonpoly"),
    M("samples nonpoly: single index needs f unchanged along w⊥",
      "fltheory/papers/samples/nonpoly.py", "if sp.simplify(moved - f) != 0:",
      "if sp.simplify(moved - f) == 1:", SAMPLES, "-k", "nonpoly"),
    M("spectral pieces: ∫(z² − 1)²φ = [2Φ − (z³ + z)φ]", "fltheory/engine/spectral/links.py",
      "total += (2 * _Phi(b) - _times_phi(Z ** 3 + Z, b))",
      "total += (2 * _Phi(b) - _times_phi(Z ** 3 - Z, b))",
      "tests/papers/spectral/test_independent_spectral_pieces.py", "-k", "quadrature"),
    M("spectral pieces: E[z² 1_A] = [Φ − zφ]", "fltheory/engine/spectral/links.py",
      "second = sum(((_Phi(b) - _times_phi(Z, b)) - (_Phi(a) - _times_phi(Z, a))",
      "second = sum(((_Phi(b) - _times_phi(Z, b)) - (_Phi(a) + _times_phi(Z, a))",
      "tests/papers/spectral/test_independent_spectral_pieces.py", "-k", "k07"),
    M("spectral: any polynomial's m(y) weights φ(u)/|g'(u)|", "fltheory/engine/spectral/links.py",
      "        slope = abs(mpmath.polyval(deriv, u))\n        return mpmath.npdf(u) / slope",
      "        slope = abs(mpmath.polyval(deriv, u))\n        return mpmath.npdf(u) / slope ** 2",
      "tests/papers/spectral/test_independent_spectral_pieces.py", "-k", "odd"),
    # ---------------------------------------------------------------- glm (issue 36)
    M("glm: noisy channel, posterior mean of a sloped piece (y − b)",
      "fltheory/papers/glm/_channels.py", "dm = a * V * (Y - b - a * W) / S2",
      "dm = a * V * (Y + b - a * W) / S2", GLM_NOISY, "-k", "linear_channel"),
    M("glm: noisy channel, Stein term (m − ω)", "fltheory/papers/glm/_channels.py",
      "dZ = dZ + dm * mass", "dZ = dZ + (dm + 2 * W) * mass", GLM_NOISY),
    M("glm: noisy channel, E g² cross term 2ab", "fltheory/papers/glm/_channels.py",
      "a * a * r * r * t2 + 2.0 * a * b * r * t1", "a * a * r * r * t2 + 1.0 * a * b * r * t1",
      GLM_NOISY, "-k", "sloped"),
    M("glm: noisy channel, Q at q = ρ is E g'²/σ²", "fltheory/papers/glm/_channels.py",
      "for c, d, a, _b in self.pieces) / self.sigma ** 2",
      "for c, d, a, _b in self.pieces) / self.sigma", GLM_NOISY, "-k", "continuous_g"),
    M("glm: noisy channel, E[y | ω] slope term a√V'·t1", "fltheory/papers/glm/_channels.py",
      "yhat = yhat + (a * w + b) * t0 + a * s * t1",
      "yhat = yhat + (a * w + b) * t0 + 0.5 * a * s * t1", GLM_NOISY),
    M("glm: noisy channel, truncated second moment 2mτ", "fltheory/papers/glm/_channels.py",
      "trunc = m * m * t0 + 2.0 * m * tau * t1", "trunc = m * m * t0 + 1.0 * m * tau * t1",
      "tests/papers/glm/test_independent_noisy.py", "-k", "m2_spread"),
    M("glm: posterior variance, between-component term squared",
      "fltheory/papers/glm/_priors.py", "out = out + r[j] * r[k] * (m[j] - m[k]) ** 2",
      "out = out + r[j] * r[k] * (m[j] - m[k])", INDEPENDENT_GLM, "-k", "mixture_prior"),
    M("glm: interval channels Q = E Z g²", "fltheory/papers/glm/_channels.py",
      "tot = tot + h * h", "tot = tot + h * abs(h) ** 0.9", INDEPENDENT_GLM, "-k",
      "sign_channel"),
    M("glm: phase retrieval Q = (1 + E excess)/V", "fltheory/papers/glm/_channels.py",
      "return (1.0 + float(np.sum(w * excess))) / V",
      "return (1.0 - float(np.sum(w * excess))) / V", INDEPENDENT_GLM, "-k", "phase_retrieval"),
    # (the term −xφ(x) of relu's Q averages to 0 over the symmetric x: a sign flip there is
    # an equivalent mutation, so the y = 0 term is mutated instead)
    M("glm: relu Q, the y = 0 term φ²/Φ(−x)", "fltheory/papers/glm/_channels.py",
      "return phi(x) * mills(x) + special.ndtr(x) - x * phi(x)",
      "return phi(x) * phi(x) + special.ndtr(x) - x * phi(x)", INDEPENDENT_GLM, "-k",
      "relu_channel"),
    M("glm: α_WR = ρ'⁴/(ρ² spread)", "fltheory/papers/glm/_se.py",
      "return self.C.rho1 ** 4 / (self.P.rho ** 2 * spread)",
      "return self.C.rho1 ** 4 / (self.P.rho * spread)", INDEPENDENT_GLM, "-k", "door_weak"),
    M("glm: free entropy −q q̂/2", "fltheory/papers/glm/_se.py",
      "alpha * self.delta_psi(qh) - q * qh / 2", "alpha * self.delta_psi(qh) - q * qh / 3",
      INDEPENDENT_GLM, "-k",
      "fixed_point_and_free_entropy"),
    M("glm: ridge m = μ₁ρ(1 − λg)", "fltheory/papers/glm/erm.py",
      "m = mu1 * rho * h", "m = mu1 * rho * h * (1 - 1e-3 * lg)", INDEPENDENT_GLM,
      "-k", "marchenko"),
    M("glm: ERM q = (ρm̂² + q̂)Σ²", "fltheory/papers/glm/erm.py",
      "(rho * mh * mh + qh) * Sn * Sn", "(rho * mh * mh + 1.01 * qh) * Sn * Sn", GLM_ERM, "-k",
      "logistic_against"),
    M("glm: ERM Σ̂ = (2α/Σ) E[Φ(aξ)(1 − ∂h)]", "fltheory/papers/glm/erm.py",
      "Sh = 2 * alpha * float(np.dot(w, P * d)) / S",
      "Sh = 2 * alpha * float(np.dot(w, P * d * d)) / S", GLM_ERM, "-k", "logistic_against"),
    M("glm: ERM m̂ = (2α/s₀) E[φ(aξ) f]", "fltheory/papers/glm/erm.py",
      "mh = 2 * alpha * float(np.dot(w, dens * f)) / s0",
      "mh = 2 * alpha * float(np.dot(w, dens * f)) / s0 / s0", GLM_ERM, "-k",
      "logistic_against"),
    M("glm: logistic prox 1 − ∂h = c/(1 + c)", "fltheory/papers/glm/_losses.py",
      "return x, (x - t) / sigma, curv / (1.0 + curv)",
      "return x, (x - t) / sigma, curv / (1.0 + 2 * curv)", GLM_ERM, "-k", "logistic_against"),
    # glm noisy channels (issue 36): the independent reference perturbed, so that its tests
    # are seen to fail when it and the code part (the code's own formulas are the lead's)
    M("glm noisy reference: V' = ρ − q + σ_in²", GLM_NOISY_REF,
      "    s = math.sqrt(rho - q + sp2)\n    s0 = math.sqrt(rho + sp2)",
      "    s = math.sqrt(rho - q)\n    s0 = math.sqrt(rho + sp2)", INDEPENDENT_GLM_NOISY, "-k",
      "linear_channel or f-"),
    M("glm noisy reference: ∂_ω Z on a linear piece ((m − ω)P + τ(φ(A) − φ(B)))/V'",
      GLM_NOISY_REF, "dZ += Nm / (s * s) * ((m - w) * P",
      "dZ += Nm / (s * s) * ((m - 0.99 * w) * P", INDEPENDENT_GLM_NOISY, "-k",
      "linear_channel or nishimori and b-"),
    M("glm noisy reference: smooth g, ∂_ω Z = E[(t/s) N]", GLM_NOISY_REF,
      "out = [K.sum(1), (K * (t / s)).sum(1), (K * x).sum(1)]",
      "out = [K.sum(1), (K * (t / s) * 1.001).sum(1), (K * x).sum(1)]", INDEPENDENT_GLM_NOISY,
      "-k", "nishimori and c-0.3"),
    # (the x² moment's ±Aφ(A) terms cancel in the average over the symmetric ω: a sign flip
    # there is an equivalent mutation, so the first moment is mutated instead)
    M("glm noisy reference: x moment of a constant piece, wP + s(φ(A) − φ(B))", GLM_NOISY_REF,
      "M1 += Ny * (w * P + s * (_phi(A) - _phi(B)))",
      "M1 += Ny * (w * P + s * (_phi(A) + _phi(B)))", INDEPENDENT_GLM_NOISY,
      "-k", "nishimori and e-0.3"),
    M("glm: ERM seeded bracket walks downhill", "fltheory/papers/glm/erm.py",
      "            if left < here and left < right:\n                i -= 1",
      "            if left < here and left < right:\n                i += 1", GLM_ERM_CURVE,
      "-k", "seed_reads"),
    M("glm: ERM curve seeds each α from the one before", "fltheory/papers/glm/erm.py",
      "    seed = _seed(previous, loss)", "    seed = None", GLM_ERM_CURVE, "-k",
      "seeded_curve"),
    M("glm: ERM overlaps at a located λ known as λ is", "fltheory/papers/glm/erm.py",
      "known = math.floor(ans.lam.digits - math.log10(slope))", "known = 13", GLM_ERM_CURVE,
      "-k", "keep_their_digits"),
    # glm: the page's equations against their definitions (issue 36, test_citations.py)
    M("glm: probit noise enters as σ_in² (ρ' = ρ + σ_in²)", "fltheory/papers/glm/_channels.py",
      "return float(self.channel.probit) ** 2", "return float(self.channel.probit)",
      GLM_CITATIONS),
    M("glm: mixture posterior variance, within-component variance c = s/(1 + q̂s)",
      "fltheory/papers/glm/_priors.py", "        c = self.s / d\n",
      "        c = self.s / d / d\n", GLM_CITATIONS, "-k", "overlap"),
    M("glm: free entropy α ΔΨ(q)", "fltheory/papers/glm/_se.py",
      "return self.P.psi(qh, self.level) + alpha * self.delta_psi(qh) - q * qh / 2",
      "return self.P.psi(qh, self.level) + alpha * self.delta_psi(qh) * 1.001 - q * qh / 2",
      GLM_CITATIONS, "-k", "free_entropy or command_point"),
    M("glm: hinge prox, the flat piece f = (1 − t)/Σ", "fltheory/papers/glm/_losses.py",
      "f = np.where(low, 1.0, np.where(mid, (1.0 - t) / sigma, 0.0))",
      "f = np.where(low, 1.0, np.where(mid, (1.0 - t) / sigma ** 0.9, 0.0))", GLM_CITATIONS,
      "-k", "hinge"),
    M("glm: hinge prox, the flat piece begins at t = 1 − Σ", "fltheory/papers/glm/_losses.py",
      "    low = t < 1.0 - sigma\n", "    low = t < 1.0 - 0.99 * sigma\n", GLM_CITATIONS, "-k",
      "hinge"),
    # glm: noisy phase retrieval (issue 36 item 1)
    M("glm: noisy square, the mirror field N(x; −ω, V') = N(x; ω, V') e^(−2xω/V')",
      "fltheory/papers/glm/_channels.py", "        ratio *= -2.0 / V\n",
      "        ratio *= -1.9 / V\n", "tests/papers/glm/test_native.py"),
    M("glm: noisy square, Stein ω-derivative −(x + ω) of the mirror field",
      "fltheory/papers/glm/_channels.py", "v = gm * (em - (x + wo) * ratio)",
      "v = gm * (em - (x - wo) * ratio)", "tests/papers/glm/test_native.py"),
    # (the C extension computes these sums wherever it is built, and the independent reference
    # tests run through it; test_native holds the numpy path, mutated above, to the C one)
    M("glm: a smooth even/odd g sums the ω > 0 half twice",
      "fltheory/papers/glm/_channels.py", "w, ww = w[w > 0], 2.0 * ww[w > 0]",
      "w, ww = w[w > 0], 2.000001 * ww[w > 0]", "tests/papers/glm/test_noisy_channels.py",
      "-k", "symmetry"),
    M("glm: a piece's end is its own fixed point (the IT search's bracket)",
      "fltheory/papers/glm/_se.py", "return br.a if alpha == br.Aa else br.b",
      "return br.b if alpha == br.Aa else br.a", "tests/papers/glm/test_it_search.py"),
    # ---------------------------------------------------------------- spectral (issue 27)
    M("spectral: semicircle overlap 1 − 1/θ²", "fltheory/engine/spectral/spikes.py",
      "outlier, overlap = th + 1 / th, 1 - 1 / th ** 2",
      "outlier, overlap = th + 1 / th, 1 - 1 / th ** 3", INDEPENDENT_SPECTRAL, "-k", "semicircle"),
    M("spectral: MP outlier ℓ(1 + γ/(ℓ − 1))", "fltheory/engine/spectral/spikes.py",
      "outlier = ell * (1 + g / (ell - 1))", "outlier = ell * (1 + g / ell)",
      INDEPENDENT_SPECTRAL, "-k", "mp_closed"),
    M("spectral: MP overlap (Paul 2007)", "fltheory/engine/spectral/spikes.py",
      "overlap = (1 - g / (ell - 1) ** 2) / (1 + g / (ell - 1))",
      "overlap = (1 - g / (ell - 1) ** 2) / (1 + g / ell)", INDEPENDENT_SPECTRAL, "-k",
      "mp_closed"),
    M("spectral: additive BGN overlap −1/(θ²G')", "fltheory/engine/spectral/spikes.py",
      "overlap = -1 / (theta ** 2 * bulk.dG(rho))", "overlap = -1 / (theta * bulk.dG(rho))",
      INDEPENDENT_SPECTRAL, "-k", "density_route"),
    M("spectral: multiplicative overlap −(1+θ)/(θ²ρT')", "fltheory/engine/spectral/spikes.py",
      "overlap = -(1 + theta) / (theta ** 2 * rho * dT)",
      "overlap = -(1 + theta) / (theta ** 2 * dT)", INDEPENDENT_SPECTRAL, "-k", "density_route"),
    M("spectral: α_c quadrature (even integrand doubled)", "fltheory/engine/spectral/links.py",
      "second = 2 * mpmath.quad(", "second = 3 * mpmath.quad(", INDEPENDENT_SPECTRAL, "-k",
      "quartic"),
    M("spectral: α_c = 1/2 when y determines |z|", "fltheory/engine/spectral/links.py",
      "sp.Rational(1, 2), _inverse_text", "sp.Rational(1, 3), _inverse_text",
      INDEPENDENT_SPECTRAL, "-k", "exact_cases"),
    M("spectral: Lu–Li overlap ψ'/(ψ' − φ')", "fltheory/engine/spectral/luli.py",
      "return LuLiOverlap(dpsi / (dpsi - dphi), psi, edge)",
      "return LuLiOverlap(dpsi / (dpsi - 2 * dphi), psi, edge)", INDEPENDENT_SPECTRAL, "-k",
      "continuous_law"),
    M("spectral: rectangular right overlap (BGN 2012)", "fltheory/engine/spectral/spikes.py",
      "1 - (c + theta**2) / (theta**2 * (theta**2 + 1)))",
      "1 - (c + theta**2) / (theta**2 * (theta**2 + c)))", INDEPENDENT_SPECTRAL_BBP, "-k",
      "d_transform"),
    M("spectral: scaled semicircle overlap 1 − σ²/θ²", "fltheory/engine/spectral/spikes.py",
      "return max(Fraction(0), 1 - Fraction(r))",
      "return max(Fraction(0), 1 - Fraction(r) ** 2)", INDEPENDENT_SPECTRAL_BBP, "-k",
      "scaled_stieltjes"),
    M("spectral: sample overlap −1/(θ²G_n')", "fltheory/engine/spectral/spikes.py",
      "overlap = -1 / (theta ** 2 * dF)", "overlap = -1 / (theta * abs(theta) * dF)",
      INDEPENDENT_SPECTRAL_SAMPLE, "-k", "goe_spectrum or iid"),
    M("spectral: sample threshold, Richardson to the edge", "fltheory/engine/spectral/spikes.py",
      "near, far = 2 * f1 - f4, 2 * f4 - f16", "near, far = f1, f4",
      INDEPENDENT_SPECTRAL_SAMPLE, "-k", "goe_threshold"),
    M("spectral: noisy link kernel φ_σ(y − g(z))", "fltheory/engine/spectral/links.py",
      "expo = -((block - gi[None, :]) ** 2) / (2 * sigma * sigma)",
      "expo = -((block - gi[None, :]) ** 2) / (sigma * sigma)", INDEPENDENT_SPECTRAL_NOISE, "-k",
      "y_space"),
    # ---------------------------------------------------------------- kernel (issue 35)
    M("kernel: moment ratio a_{j+2,k}/a_{j,k} = (j+1)(j+2)/((j−k+2)(j+k+d))", KM,
      "return Fraction((j + 1) * (j + 2), (j - k + 2) * (j + k + d))",
      "return Fraction((j + 1) * (j + 3), (j - k + 2) * (j + k + d))", INDEPENDENT_KERNEL,
      "-k", "gegenbauer_moment"),
    M("kernel: moment peak threshold k² + (d − 2)k − 2d + 2", KM,
      "threshold = k * k + (d - 2) * k - 2 * d + 2", "threshold = k * k + (d - 2) * k - 2 * d",
      INDEPENDENT_KERNEL, "-k", "peak"),
    M("kernel: κ_1 eigenvalue ratio ((2p − 3)/(2p − 1 + d))²", KA,
      "value *= Fraction(2 * p - 3, 2 * p - 1 + d) ** 2",
      "value *= Fraction(2 * p - 3, 2 * p + 1 + d) ** 2", INDEPENDENT_KERNEL, "-k",
      "arccos_eigenvalues"),
    M("kernel: κ_0 eigenvalue ratio ((2p − 1)/(2p − 1 + d))²", KA,
      "value *= Fraction(2 * p - 1, 2 * p - 1 + d) ** 2",
      "value *= Fraction(2 * p - 1, 2 * p + d) ** 2", INDEPENDENT_KERNEL, "-k",
      "arccos_eigenvalues"),
    M("kernel: C(d) = Γ(d/2)²/(πΓ((d+1)/2)²) for large d", KA,
      "value = mpmath.exp(2 * (mpmath.loggamma(h) - mpmath.loggamma(h + mpmath.mpf(1) / 2))",
      "value = mpmath.exp(2 * (mpmath.loggamma(h) - mpmath.loggamma(h + mpmath.mpf(1) / 3))",
      INDEPENDENT_KERNEL, "-k", "arccos_eigenvalues or fisher"),
    M("kernel: t·P_k = α_k P_{k+1} + β_k P_{k−1}, α_k = (k + d − 2)/(2k + d − 2)", KA,
      "alpha = Fraction(k + d - 2, 2 * k + d - 2)", "alpha = Fraction(k + d - 1, 2 * k + d - 2)",
      KERNEL_CLI, "-k", "relu_ntk_exact"),
    M("kernel: Cauchy aliasing radius r^N = ε", KS, "r = eps ** (mpmath.mpf(1) / n)",
      "r = eps ** (mpmath.mpf(1) / (2 * n))", INDEPENDENT_KERNEL, "-k", "series_route"),
    M("kernel: NTK coefficients (j + 1) b_j at depth 2", KN,
      "            b = [(j + 1) * v for j, v in enumerate(b)]\n            err",
      "            b = [(j + 2) * v for j, v in enumerate(b)]\n            err",
      INDEPENDENT_KERNEL, "-k", "erf_nngp_and_ntk"),
    M("kernel: polynomial dual C(a, j) = a!/(2^i i! j!)", KN,
      "terms = [(a, coeffs[a] * math.factorial(a) / (2 ** ((a - j) // 2)",
      "terms = [(a, coeffs[a] * math.factorial(a) / (3 ** ((a - j) // 2)",
      INDEPENDENT_KERNEL, "-k", "wick"),
    M("kernel: Hermite-function recursion ψ_{j+1} = (zψ_j − √j ψ_{j−1})/√(j+1)", KH,
      "nxt = ((zi * cur >> P) - (sqrt[j] * prev >> P)) * inv[j + 1] >> P",
      "nxt = ((zi * cur >> P) - (sqrt[j + 1] * prev >> P)) * inv[j + 1] >> P",
      INDEPENDENT_KERNEL, "-k", "hermite_bulk"),
    M("kernel: eigenlearning E_0 = n/(n − Σ N L²)", KC, "E0 = n / (n - sum2) if n > sum2",
      "E0 = n / (n - sum2 / 2) if n > sum2", INDEPENDENT_KERNEL, "-k", "brute_force"),
    M("kernel: staircase α = ψ ℓ!", KT, "alpha = psi * math.factorial(ell)",
      "alpha = psi * ell", INDEPENDENT_KERNEL, "-k", "staircase_level"),
    M("kernel: staircase E_0 = α/(α − L²)", KC, "E0 = alpha / (alpha - L * L)",
      "E0 = alpha / (alpha - L)", INDEPENDENT_KERNEL, "-k", "gamma_one_over_alpha"),
    M("kernel: staircase effective ridge ρ = (λ + R_ℓ)/b_ℓ", KT, "rho = (ridge_ + rest) / b",
      "rho = (ridge_ + rest / 2) / b", INDEPENDENT_KERNEL, "-k", "face_against"),
    M("kernel: random features E_0 term 3ψ_1ψ_2χζ²", "fltheory/engine/kernels/rf.py",
      "+ 3 * p1 * p2 * c * z2 - p1 * p2)", "+ 2 * p1 * p2 * c * z2 - p1 * p2)",
      INDEPENDENT_KERNEL, "-k", "random_features"),
    M("kernel: random features fixed point ζ²ν_2/(1 − ζ²ν_1ν_2)", "fltheory/engine/kernels/rf.py",
      "m1 = psi1 / (-xi - n2 - zeta2 * n2 / d)", "m1 = psi1 / (-xi - n2 - zeta2 * n1 / d)",
      INDEPENDENT_KERNEL, "-k", "random_features"),
    M("kernel: staircase peak is a local maximum", KC,
      "values[i - 1] < values[i] >= values[i + 1]", "values[i - 1] > values[i] <= values[i + 1]",
      INDEPENDENT_KERNEL, "-k", "peak_is_the_maximum"),
    M("kernel: Marchenko–Pastur m' = −(γm² + m)/(2γzm + z + γ − 1)", KR,
      "dm = sp.radsimp(sp.expand(-(g * m**2 + m)) / sp.expand(2 * g * z * m + z + g - 1))",
      "dm = sp.radsimp(sp.expand(-(g * m**2 - m)) / sp.expand(2 * g * z * m + z + g - 1))",
      INDEPENDENT_KERNEL, "-k", "marchenko"),
    M("kernel: optimal ridge λ* = γσ²/r²", KR, "lam_e = g * s2 / r2 if lam is None",
      "lam_e = g * s2 / r2 / 2 if lam is None", INDEPENDENT_KERNEL, "-k", "optimal_ridge"),
    # the same formulas against third-party transcriptions of the cited statements (issue 35)
    M("kernel (citations): random features E_0 term 3ψ_1ψ_2χζ²", "fltheory/engine/kernels/rf.py",
      "+ 3 * p1 * p2 * c * z2 - p1 * p2)", "+ 2 * p1 * p2 * c * z2 - p1 * p2)",
      KERNEL_CITATIONS, "-k", "wang_et_al"),
    M("kernel (citations): random features E_1 term −ψ_2χ²ζ²", "fltheory/engine/kernels/rf.py",
      "e1 = p2 * c**3 * z4 - p2 * c**2 * z2", "e1 = p2 * c**3 * z4 - p1 * c**2 * z2",
      KERNEL_CITATIONS, "-k", "wang_et_al"),
    M("kernel (citations): random features E_2 term (ψ_1 − 1)χ³ζ⁶", "fltheory/engine/kernels/rf.py",
      "+ (p1 - 1) * c**3 * z6", "+ (p1 + 1) * c**3 * z6", KERNEL_CITATIONS, "-k", "wang_et_al"),
    M("kernel (citations): random features fixed point ζ²ν_2/(1 − ζ²ν_1ν_2)",
      "fltheory/engine/kernels/rf.py",
      "m1 = psi1 / (-xi - n2 - zeta2 * n2 / d)", "m1 = psi1 / (-xi - n2 - zeta2 * n1 / d)",
      KERNEL_CITATIONS, "-k", "polynomial_form"),
    M("kernel (citations): ridge variance σ²γ(m − λm')", KR,
      "variance = sp.radsimp(s2 * g * (m - lam_e * dm))",
      "variance = sp.radsimp(s2 * g * (m - lam_e * dm / 2))", KERNEL_CITATIONS, "-k",
      "isotropic_limit"),
    M("kernel (citations): optimal ridge λ* = γσ²/r²", KR, "lam_e = g * s2 / r2 if lam is None",
      "lam_e = g * s2 / r2 / 2 if lam is None", KERNEL_CITATIONS, "-k", "optimal_ridge"),
    M("kernel (citations): ridgeless risk for γ < 1, σ²γ/(1 − γ)", KR,
      "return s2 * g / (1 - g)", "return s2 / (1 - g)", KERNEL_CITATIONS, "-k", "ridgeless"),
    # the same formulas against the user-level checks (published formulas, no engine code)
    M("kernel (user check): t·P_k recursion α_k of the exact ReLU NTK", KA,
      "alpha = Fraction(k + d - 2, 2 * k + d - 2)", "alpha = Fraction(k + d - 1, 2 * k + d - 2)",
      USER_KERNEL, "-k", "relu_ntk_depth2_spectrum"),
    M("kernel (user check): ridgeless risk for γ > 1, r²(1 − 1/γ) + σ²/(γ − 1)", KR,
      "return r2 * (1 - 1 / g) + s2 / (g - 1)", "return r2 * (1 - 1 / g) + s2 / (g + 1)",
      USER_KERNEL, "-k", "ridgeless"),
    M("kernel (user check): optimal ridge λ* = γσ²/r²", KR, "lam_e = g * s2 / r2 if lam is None",
      "lam_e = g * s2 / r2 / 2 if lam is None", USER_KERNEL, "-k", "optimal_ridge"),
    M("kernel (user check): eigenlearning E_0 = n/(n − Σ N L²)", KC,
      "E0 = n / (n - sum2) if n > sum2", "E0 = n / (n - sum2 / 2) if n > sum2", USER_KERNEL,
      "-k", "effective_ridge"),
    M("kernel: random-feature relation E[σ²] = (a² + c²)/2 (issue 35)", KT,
      "second = (Fraction(form.a) ** 2 + Fraction(form.c) ** 2) / 2",
      "second = (Fraction(form.a) ** 2 + Fraction(form.c) ** 2) / 3", KERNEL_CLI, "-k",
      "relation"),
    M("kernel: random-feature relation λ_(l,0) = s^{2q} E[σ²] μ_l, printed (issue 35)", KT,
      "return f\"{coefficient}{'s²·' if self.degree else ''}μ_l\"",
      "return f\"{coefficient}{'s·' if self.degree else ''}μ_l\"", KERNEL_CLI, "-k",
      "relation"),
    M("kernel: random-feature relation λ_(l,0) = s^{2q} E[σ²] μ_l, factor() (issue 35)", KT,
      "return Fraction(s) ** (2 * self.degree) * self.second_moment",
      "return Fraction(s) ** self.degree * self.second_moment", KT, "-k", "RFSpectrumRelation"),
    M("kernel: polynomial target e_k = N(d, k)·c_k²", KT,
      "energies[k] = multiplicity(d, k) * c * c", "energies[k] = multiplicity(d, k) * c",
      KERNEL_CLI, "-k", "polynomial_target"),
    M("kernel: θ route's Gegenbauer recursion P_(k+1) = ((2k+d−2)cP_k − kP_(k−1))/(k+d−2)", KN,
      "prev, cur = cur, (((2 * k + d - 2) * ci * cur >> bits) - k * prev) // (k + d - 2)",
      "prev, cur = cur, (((2 * k + d - 2) * ci * cur >> bits) - k * prev) // (k + d - 1)",
      USER_KERNEL, "-k", "deep_relu"),
    M("kernel: simulator's Gegenbauer recursion (sim.py)", "fltheory/papers/kernel/sim.py",
      "prev, cur = cur, ((2 * j + d - 2) * t * cur - j * prev) / (j + d - 2)",
      "prev, cur = cur, ((2 * j + d - 2) * t * cur - j * prev) / (j + d - 1)", KERNEL_SIM,
      "-k", "gegenbauer"),
    M("committee: every symmetric fixed point analysed (issue 37)",
      "fltheory/papers/committee/plateau.py", "for root in roots[:MAX_POINTS]:",
      "for root in roots[:1]:", "tests/papers/committee/test_fixed_points.py", "-k", "every"),
    M("committee: ε_g's stated accuracy δ = 10 × the local tolerance (issue 37)",
      "fltheory/papers/committee/ode.py", "delta = 10.0 * (atol + run.rtol * scale)",
      "delta = 1e-3 * (atol + run.rtol * scale)", "tests/papers/committee/test_cli.py", "-k",
      "stated_accuracy"),
    M("committee: a symmetric flow to a zero-error point is no plateau (issue 37)",
      "fltheory/papers/committee/plateau.py", "ZERO_ERROR_FRACTION = 1e-4",
      "ZERO_ERROR_FRACTION = 1e-9", "tests/papers/committee/test_fixed_points.py", "-k",
      "relu_k2_m1"),
    M("render: a table wider than the line is printed in blocks (issue 37, item 7)",
      "fltheory/render/text.py", "if len(block) > 1 and used + 2 + widths[i] > width:",
      "if len(block) > 1 and used + 2 + widths[i] > 10 * width:",
      "tests/framework/test_text_width.py"),
    M("kernel: a refused μ_k is quoted to the digits its bound confirms",
      "fltheory/engine/kernels/expression.py", "return mpmath.nstr(eig.values[k], max(1, digits))",
      "return mpmath.nstr(eig.values[k], 8)", "tests/papers/kernel/test_kernel_cli.py", "-k",
      "not_psd"),
    M("glm: smooth noisy channel, the Stein weight √V' t of V'∂_ω Z_out",
      "fltheory/papers/glm/_channels.py", 'vec = {"Z": wt, "dZ": wt * s * t, "m2": wt * V * t * t}',
      'vec = {"Z": wt, "dZ": wt * t, "m2": wt * V * t * t}', INDEPENDENT_GLM_NOISY, "-k",
      "channel_averages and c-"),
    M("glm: smooth noisy channel, the conditional variance in the error",
      "fltheory/papers/glm/_channels.py",
      "var = np.maximum(((G - mean[:, None]) ** 2) @ wt, 0.0)",
      "var = np.maximum((G ** 2) @ wt, 0.0)", INDEPENDENT_GLM_NOISY, "-k",
      "channel_averages and c-"),
    M("committee: relu I4 integral, the second Stein weight of ttr_pair (compiled loops)",
      "fltheory/papers/committee/_flat.py",
      "second += math.sqrt(max(c[p, p], 0.0) / _TWO_PI) * safe_rho(c[p, j], c[p, p],",
      "second += math.sqrt(max(c[q, q], 0.0) / _TWO_PI) * safe_rho(c[p, j], c[p, p],",
      "tests/papers/committee/test_averages.py", "-k", "compiled_relu"),
    M("engine: is_smooth lists Max among the kinks",
      "fltheory/engine/expressions.py",
      "kinked = (sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min, sp.Piecewise,",
      "kinked = (sp.Abs, sp.sign, sp.Heaviside, sp.Min, sp.Piecewise,",
      "tests/papers/glm/test_noisy_channels.py", "-k", "kinks"),
    M("kernel: a kernel not PSD is refused at the first truncation that shows it",
      "fltheory/engine/kernels/expression.py", "progress=progress, settled=not_psd,",
      "progress=progress,", "tests/papers/kernel/test_kernel_cli.py", "-k", "one_series"),
    M("kernel: an expression's Taylor coefficients to the precision its small μ_k need",
      "fltheory/engine/kernels/expression.py", "                           relative=True)",
      "                           relative=False)", "tests/papers/kernel/test_expression_digits.py",
      "-k", "rbf"),
    M("kernel: an expression singular at t = ±1 through the θ = arccos t rules",
      "fltheory/engine/kernels/expression.py", "elif tb[k] < bounds[k]:",
      "elif tb[k] < 0 * bounds[k]:", "tests/papers/kernel/test_expression_digits.py", "-k",
      "laplace"),
    M("glm: the V'-adapted y panels of a noisy piecewise channel (width √(a²V' + σ²))",
      "fltheory/papers/glm/_channels.py",
      "width = math.sqrt(min(a * a for a in slopes) * V + sig * sig)",
      "width = math.sqrt(min(a * a for a in slopes) * 9 * V + sig * sig)",
      INDEPENDENT_GLM_NOISY, "tests/papers/glm/test_noisy_channels.py"),
    M("glm: the fold of an even/odd channel's (ω, y) sum doubles the ω > 0 weights",
      "fltheory/papers/glm/_channels.py", "return w[pos], 2.0 * ww[pos]",
      "return w[pos], 2.000001 * ww[pos]", "tests/papers/glm/test_fold.py"),
    M("kernel: a cancelling μ_k of a kernel with a negative coefficient bounds its rounding",
      "fltheory/engine/kernels/expression.py",
      "return tuple(abs(a - b) + e + rounding * m for a, b, m, e in",
      "return tuple(abs(a - b) + 0 * e + 0 * rounding * m for a, b, m, e in",
      "tests/papers/kernel/test_expression_digits.py", "-k", "cancelling or centred"),
    M("kernel: a raise of the working digits that does not help ends the raising",
      "fltheory/engine/kernels/series.py", "if raised is not None and worst > raised / 10:",
      "if raised is not None and worst > raised * 10:",
      "tests/papers/kernel/test_expression_digits.py", "-k", "quick"),
    M("kernel: the Mercer sum at dps + 10 digits",
      "fltheory/papers/kernel/theory.py", "e.at_minus_one, mercer, e.method, e.notes)",
      "e.at_minus_one, mpmath.mpf(float(mercer)), e.method, e.notes)",
      "tests/papers/kernel/test_expression_digits.py", "-k", "mercer"),
    M("glm: the fine level's α_IT is one Newton step from the coarse one's",
      "fltheory/papers/glm/_se.py", "    a2 = a1 - d / dd", "    a2 = a1",
      "tests/papers/glm/test_guided_levels.py", "-k", "newton"),
    M("glm: a coarse argmax is taken only when A'²/(2|A''|) is negligible there",
      "fltheory/papers/glm/_se.py",
      "        if d1 * d1 / (2 * abs(d2)) > 1e-15 * abs(a0):", "        if False:",
      "tests/papers/glm/test_guided_levels.py", "-k", "off_the_guide"),
    M("glm: the fine extremum is the fine A at the coarse argmax (not the coarse A)",
      "fltheory/papers/glm/_se.py",
      "        a0, am, ap = self._At(t), self._At(t - _H), self._At(t + _H)",
      "        a0, am, ap = self.guide._At(t), self._At(t - _H), self._At(t + _H)",
      "tests/papers/glm/test_guided_levels.py", "-k", "differ"),
    M("glm: a followed point takes the Newton step in ln q̂",
      "fltheory/papers/glm/_se.py", "        qh = math.exp(t1 + step)",
      "        qh = math.exp(t1)", "tests/papers/glm/test_guided_levels.py", "-k", "followed"),
    M("glm: a piece's product mean shift aV'(y − b − aω)/S² taken directly",
      "fltheory/papers/glm/_channels.py", "            dm = a * V * (Y - b - a * W) / S2",
      "            dm = (W * sig2 + a * V * (Y - b)) / S2 - W",
      "tests/papers/glm/test_small_mmse.py", "-k", "kinked"),
    M("glm: a smooth noisy channel's chord to its V' = 0 limit",
      "fltheory/papers/glm/_channels.py", "_SMOOTH_V_SMALL = 1e-8", "_SMOOTH_V_SMALL = 1e-30",
      "tests/papers/glm/test_small_mmse.py", "-k", "smooth"),
    M("glm: Z·g² of a sign channel as a square of φ/√Z (no 0·∞ at tiny mmse)",
      "fltheory/papers/glm/_channels.py", "        half = 0.5 * logz",
      "        half = 0.5 * logz + 1e-3", "tests/papers/glm/test_fuzz_findings.py", "-k",
      "vanishing_mmse"),
    M("kernel: the peak moment a_{j*,k} of the truncation bound (log-Gamma form)",
      "fltheory/engine/kernels/moments.py", "- (k + 2 * m) * mpmath.ln2 - mpmath.loggamma(m + 1)",
      "- (k + m) * mpmath.ln2 - mpmath.loggamma(m + 1)", INDEPENDENT_KERNEL, "-k",
      "working_precision"),
    M("committee: relu I4 with u = v, the conditional term's sign (numpy)",
      "fltheory/papers/committee/gaussian.py",
      "+ _stein_weight(c, w, u) * relu_theta(_given(c, u, (z, w)), z, w)",
      "- _stein_weight(c, w, u) * relu_theta(_given(c, u, (z, w)), z, w)",
      "tests/papers/committee/test_averages.py", "-k", "one_theta"),
    M("committee: relu I4 with u = v, the trivariate orthant (compiled loops)",
      "fltheory/papers/committee/_flat.py",
      "orthant = 0.125 + (math.asin(r_wz) + math.asin(r_wu) + math.asin(r_zu)) / (2.0 * _TWO_PI)",
      "orthant = 0.125 + (math.asin(r_wz) + math.asin(r_wu) - math.asin(r_zu)) / (2.0 * _TWO_PI)",
      "tests/papers/committee/test_averages.py", "-k", "one_theta"),
    # ---------------------------------------------------------------- light path (issue 37)
    M("light fisher: --lmax default 4", "fltheory/papers/fisher/light.py",
      'LightOption("--lmax", "lmax", _count(0), 4)', 'LightOption("--lmax", "lmax", _count(0), 5)',
      "tests/framework/test_light.py"),
    M("light path: a repeated option left to click", "fltheory/cli/light.py",
      "if flag in given or (flag", "if (flag", "tests/framework/test_light.py"),
    M("kernel θ route: one more level past d = 10", "fltheory/engine/kernels/networks.py",
      "+ (d > 10)", "+ 0", "tests/papers/kernel/test_user_checks.py", "-k", "deep_relu_ntk"),
    M("kernel θ route up to d = 150", "fltheory/engine/kernels/networks.py",
      "THETA_MAX_D = 150", "THETA_MAX_D = 20", "tests/papers/kernel/test_user_checks.py", "-k",
      "deep_relu_ntk"),
    M("glm α_WR: each resolution its own spread grid", "fltheory/papers/glm/_se.py",
      "self.C.m2_spread(self.level + 1)", "self.C.m2_spread(2)",
      "tests/papers/glm/test_independent_noisy.py", "-k", "own_weak"),
]


def locate(m: Mutation) -> tuple[Path | None, str]:
    """The file holding the mutation's snippet exactly once: ``m.file``, or else the one file of
    fltheory/ that holds it among the theory modules (the engine and each paper's modules other
    than sim, claims, views, cli: modules are split and renamed; the formulas stay)."""
    path = ROOT / m.file
    if path.exists() and path.read_text(encoding="utf-8").count(m.old) == 1:
        return path, ""
    found = [f for f in sorted((ROOT / TH).rglob("*.py"))
             if f.stem not in ("sim", "claims", "views", "cli") and "simkit" not in f.parts
             and f.read_text(encoding="utf-8").count(m.old) == 1]
    if len(found) == 1:
        return found[0], ""
    return None, f"snippet found in {len(found)} files of {TH} (wanted exactly once)"


def run(m: Mutation, timeout: float) -> tuple[str, float]:
    path, problem = locate(m)
    if path is None:
        return problem, 0.0
    original = path.read_text(encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1",
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    start = time.perf_counter()
    try:
        path.write_text(original.replace(m.old, m.new), encoding="utf-8")
        with tempfile.TemporaryDirectory() as cache:
            env["NUMBA_CACHE_DIR"] = cache
            proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p",
                                   "no:cacheprovider", "--no-header", *m.tests], cwd=ROOT,
                                  env=env, capture_output=True, text=True, timeout=timeout,
                                  check=False)
        status = {0: "SURVIVED", 1: "caught"}.get(proc.returncode,
                                                   f"pytest exit {proc.returncode}")
        if proc.returncode == 5:
            status = "no test selected"
        failed = [line.removeprefix("FAILED ").split(" - ")[0]
                  for line in proc.stdout.splitlines() if line.startswith("FAILED ")]
        if proc.returncode == 1 and failed:  # the test that caught it (pytest -x: the first)
            status += f" by {failed[0]}"
    except subprocess.TimeoutExpired:
        status = f"timeout ({timeout:.0f} s)"
    finally:
        path.write_text(original, encoding="utf-8")
    return status, time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", default="", help="run the mutations whose label contains one of these "
                    "comma-separated texts")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per pytest run")
    args = ap.parse_args()
    keys = [k.strip().lower() for k in args.k.split(",")]
    chosen = [m for m in MUTATIONS if any(k in m.label.lower() for k in keys)]
    width = max(len(m.label) for m in chosen)
    print(f"{'formula':{width}}  {'mutation':60}  caught?  (s)", flush=True)
    survived = 0
    for m in chosen:
        status, secs = run(m, args.timeout)
        survived += not status.startswith("caught")
        change = f"{m.old.strip()[:28]} → {m.new.strip()[:28]}".replace("\n", " ")
        print(f"{m.label:{width}}  {change:60}  {status}  ({secs:.0f})", flush=True)
    print(f"{len(chosen) - survived}/{len(chosen)} caught", flush=True)
    return 1 if survived else 0


if __name__ == "__main__":
    raise SystemExit(main())
