r"""A σ whose derivative jumps (ReLU, leaky ReLU, |z|, …) with a reused batch: the second update
as a *one-sided* expansion in ε a_j, and the expectations its terms need, in closed form.

Scope: σ piecewise linear (σ' piecewise constant) with finitely many kinks c_l, slopes
s_l^- (left) and s_l^+ (right) of σ' there, jumps J_l = s_l^+ − s_l^-. A σ' that jumps and is
not constant between its jumps is refused (the derivation below uses that σ' is constant on
each piece).

Derivation (notation of :mod:`fltheory.papers.twostep.sigma`). The k-th term of row j is the
t^k coefficient, t = ε a_j, of G(t) = E_z[σ'(z + t D(z))] with D(z) = ψ2 σ'(z) y + w,
w = ξ + r (y, w fixed, z ~ N(0, 1) independent of them). On each piece D is a constant: at kink
c_l write d_l^± = ψ2 y s_l^± + w. For small t only the slivers next to the kinks change
σ', so with Φ(c + x) − Φ(c) = −φ(c) Σ_{j>=1} He_{j−1}(c) (−x)^j/j! … exactly

.. math::

    G(t) - G(0) = \sum_l J_l \varphi(c_l) \sum_{j \ge 1} \frac{He_{j-1}(c_l)\, t^j}{j!}
       \bigl[1\{t d_l^+ < 0\} (d_l^+)^j + 1\{t d_l^- > 0\} (d_l^-)^j\bigr],

a power series on each side of t = 0 but not one power series: the coefficient of t^k is
G_k^+ for t > 0 and G_k^- for t < 0. The row profile a_j G(ε a_j) then splits, per order k, into
an **even part** with profile a^{k+1} and an **odd part** with profile a^{k+1} sgn(a) = |a| a^k,

.. math::

    \tfrac12(G_k^+ + G_k^-) = \frac{1}{k!} \sum_l J_l \varphi(c_l) He_{k-1}(c_l)
        \tfrac12\bigl[(d_l^+)^k + (d_l^-)^k\bigr],
    \qquad
    \tfrac12(G_k^+ - G_k^-) = \frac{1}{2\,k!} \sum_l J_l \varphi(c_l) He_{k-1}(c_l)
        \bigl[S_k(d_l^-) - S_k(d_l^+)\bigr],

S_k(x) = x^k sgn(x). The even part is the smooth formula with M_{k,p} = E[σ^{(k+1)} σ'^p]
replaced by the **symmetric moment** N_{k,p} = Σ_l J_l φ(c_l) He_{k−1}(c_l) ((s_l^+)^p +
(s_l^-)^p)/2 (σ^{(k+1)} = Σ_l J_l δ^{(k−1)}(z − c_l) integrated by parts against the Gaussian,
σ'^p at a kink = the mean of its one-sided values): N_{k,0} = E[σ^{(k+1)}] = √((k+1)!) μ_{k+1}(σ).
The odd part has no counterpart for a smooth σ; its profile |a|a^k is orthogonal to a^{k+1}
(E[a^{2k+2} sgn a] = 0), so when both parts are non-zero term k is a rank-two spike: **two
outliers** at the same exponent α2 + k(α1 − 1/2). A fresh batch has no self-term (d^+ = d^-):
its odd part vanishes and the even part is the fresh formula.

When the odd part vanishes. With Q_k(x) = E_ξ[S_k(x + ξ)] (ξ the neuron-specific Gaussian of
:mod:`~fltheory.papers.twostep.sigma`, symmetric), the odd part is
y Σ_s c_s Q_k(ψ2 y s + r) over the distinct slope values s of σ', with
c_s = Σ_{l: s_l^- = s} w_l − Σ_{l: s_l^+ = s} w_l, w_l = J_l φ(c_l) He_{k−1}(c_l)
(:func:`odd_slope_coefficients`). Q_k is entire and not a polynomial (a Gaussian smoothing of
the non-polynomial S_k), so no derivative Q_k^{(m)} vanishes identically. With μ_1(σ) ≠ 0, r
varies (it has the Gaussian data-noise part: (y, r) has a joint density) and the y^m Taylor
coefficient is Q_k^{(m)}(r) ψ2^m Σ_s c_s s^m / m!: the part is ≢ 0 iff some c_s ≠ 0
(Vandermonde in the distinct s). With μ_1(σ) = 0, r ≡ 0 and Q_k has the parity of k + 1, so
Q_k(ψ2 y s) = sgn(s)^{k+1} Q_k(ψ2 y |s|): the coefficients fold onto |s| (s = 0 drops for even k,
Q_k(0) = 0), and infinitely many Taylor coefficients Q_k^{(m)}(0) of one parity are non-zero, so
again the part is ≢ 0 iff a folded coefficient is non-zero (|z|: s = ±1, k odd: the two cancel,
no odd part). ReLU, leaky ReLU and
|z| have one kink at 0, where He_{k−1}(0) = 0 for even k: **every even term vanishes, both
parts**, as for a fresh batch.

Constants. The odd part's constant along β_l is
C_k^odd(β_l) = E[h_k^odd s_l], h_k^odd = (y/(2k!)) Σ_l J_l φ(c_l) He_{k−1}(c_l)
[Q_k(ψ2 y s_l^- + m·s) − Q_k(ψ2 y s_l^+ + m·s)], ξ ~ N(0, A²), A² = ψ1 E[σ'²] E[y²] (the
data-noise part of r folded into ξ, as for the even constants). Q_k is closed form (partial
Gaussian moments); the outer expectation over the target variable is a nested trapezoidal rule
at dps + 10 digits for one target (several targets: a K-dimensional integral, not implemented:
None).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from fltheory.engine.functions import Z
from fltheory.exact import DomainError

__all__ = ["Kink", "kink_structure", "odd_part_constant", "odd_slope_coefficients",
           "odd_weights", "one_sided_coefficients", "q_moment", "symmetric_moment"]


@dataclass(frozen=True)
class Kink:
    """A point c where σ' jumps from ``left`` (= σ'(c−)) to ``right`` (= σ'(c+)); exact sympy."""

    point: Any
    left: Any
    right: Any

    @property
    def jump(self) -> Any:
        """J = σ'(c+) − σ'(c−)."""
        return sp.nsimplify(self.right - self.left)


def kink_structure(expr: sp.Expr, text: str = "") -> tuple[Kink, ...] | None:
    """The kinks of a piecewise-linear σ (sorted), None when σ' has no jump; DomainError when σ'
    jumps but is not constant between its jumps (outside the derivation of this module).

    >>> kink_structure(sp.Max(0, Z))
    (Kink(point=0, left=0, right=1),)
    >>> [k.jump for k in kink_structure(sp.Abs(Z))]
    [2]
    """
    d2 = sp.diff(expr, Z, 2)
    deltas = d2.atoms(sp.DiracDelta)
    if not deltas:
        return None
    if sp.simplify(d2.subs({d: 0 for d in deltas})) != 0:
        raise DomainError("sigma", text or str(expr), "a σ with a continuous σ', or a "
                          "piecewise-linear σ, for a reused batch",
                          reason="has a σ' that jumps and is not constant between its jumps "
                                 "(the one-sided expansion is derived for piecewise-constant σ')")
    points: set[Any] = set()
    for delta in deltas:
        if len(delta.args) > 1:  # a derivative of δ in σ'': σ' itself has a δ (refused before)
            raise DomainError("sigma", text or str(expr), "a σ with a function σ'",
                              reason="has a DiracDelta in σ'")
        for root in sp.solve(delta.args[0], Z):
            if root.is_real:
                points.add(sp.nsimplify(root))
    d1 = sp.diff(expr, Z)
    ordered = sorted(points, key=lambda v: float(v))
    # σ' is constant between kinks (checked above), so its value at any point strictly between
    # c and the next kink is its exact one-sided limit (sympy's limit is slow on Heaviside sums)
    gap = min((b - a for a, b in itertools.pairwise(ordered)), default=2) / 2
    out = []
    for c in ordered:
        left, right = (sp.simplify(d1.subs(Z, c - gap)), sp.simplify(d1.subs(Z, c + gap)))
        if left != right:
            out.append(Kink(c, sp.nsimplify(left), sp.nsimplify(right)))
    return tuple(out) or None


def _weight(kink: Kink, k: int) -> Any:
    """J φ(c) He_{k−1}(c), exact."""
    c = kink.point
    return sp.simplify(kink.jump * sp.exp(-c**2 / 2) / sp.sqrt(2 * sp.pi)
                       * sp.hermite_prob(k - 1, c))


def symmetric_moment(kinks: tuple[Kink, ...], k: int, p: int) -> Any:
    """N_{k,p} = Σ_l J_l φ(c_l) He_{k−1}(c_l) ((s_l^+)^p + (s_l^-)^p)/2 for k >= 1, exact: the
    moment of the even (a^{k+1}) part of term k.

    >>> r = kink_structure(sp.Max(0, Z))
    >>> symmetric_moment(r, 1, 1), symmetric_moment(r, 2, 1), symmetric_moment(r, 3, 2)
    (sqrt(2)/(4*sqrt(pi)), 0, -sqrt(2)/(4*sqrt(pi)))
    """
    if k < 1:
        raise DomainError("k", k, "integers >= 1 (k = 0 has no kink term)")
    total = sum((_weight(q, k) * (q.right**p + q.left**p) / 2 for q in kinks), sp.Integer(0))
    return sp.simplify(total)


def odd_weights(kinks: tuple[Kink, ...], k: int) -> dict[tuple[Any, Any], Any]:
    """The odd part of term k, grouped by the slopes (s^-, s^+) of the kinks (one function of
    (y, r) per group): group -> Σ J φ(c) He_{k−1}(c) over its kinks (exact; zeros dropped).

    >>> relu = kink_structure(sp.Max(0, Z))
    >>> odd_weights(relu, 1), odd_weights(relu, 2)  # He_1(0) = 0: no odd part at k = 2
    ({(0, 1): sqrt(2)/(2*sqrt(pi))}, {})
    """
    groups: dict[tuple[Any, Any], Any] = {}
    for q in kinks:
        key = (q.left, q.right)
        groups[key] = sp.simplify(groups.get(key, sp.Integer(0)) + _weight(q, k))
    return {key: w for key, w in groups.items() if w != 0}


def odd_slope_coefficients(kinks: tuple[Kink, ...], k: int, mu1_zero: bool
                           ) -> dict[Any, Any]:
    """The odd part of term k as y Σ_s c_s Q_k(ψ2 y s + r): slope value s -> c_s (exact, zeros
    dropped), folded onto |s| when μ_1(σ) = 0 (r ≡ 0; s = 0 dropped for even k). Empty iff the
    odd part vanishes (module docstring).

    >>> r = kink_structure(sp.Max(0, Z))
    >>> odd_slope_coefficients(r, 1, False)
    {0: sqrt(2)/(2*sqrt(pi)), 1: -sqrt(2)/(2*sqrt(pi))}
    >>> odd_slope_coefficients(kink_structure(sp.Abs(Z)), 1, True)
    {}
    """
    coef: dict[Any, Any] = {}
    for q in kinks:
        w = _weight(q, k)
        for s, sign in ((q.left, 1), (q.right, -1)):
            if mu1_zero:
                if s == 0 and k % 2 == 0:
                    continue
                if s != 0:
                    sign *= int(sp.sign(s)) ** (k + 1)  # Q_k has the parity of k + 1
                s = abs(s)
            coef[s] = coef.get(s, sp.Integer(0)) + sign * w
    out = {s: sp.simplify(c) for s, c in coef.items()}
    return {s: c for s, c in sorted(out.items(), key=lambda i: float(i[0])) if c != 0}


def one_sided_coefficients(kinks: tuple[Kink, ...], k: int, psi2: Any, y: Any, w: Any
                           ) -> tuple[Any, Any]:
    """(even, odd) coefficients of t^k and of t^k sgn(t) in G(t) = E_z[σ'(z + t D(z))],
    D(z) = ψ2 σ'(z) y + w, for fixed (y, w) (exact for exact inputs): the formula of the module
    docstring before the average over ξ. G_k^± = even ± odd.

    >>> one_sided_coefficients(kink_structure(sp.Max(0, Z)), 1, 1, 1, 0)
    (sqrt(2)/(4*sqrt(pi)), -sqrt(2)/(4*sqrt(pi)))
    """
    # from the same pieces the predictions use: the symmetric moments (even part, binomial in
    # the self-term ψ2 σ' y and w) and the grouped kink weights (odd part)
    psi2, y, w = (sp.sympify(v) for v in (psi2, y, w))
    even = sum((math.comb(k, p) * (psi2 * y) ** p * symmetric_moment(kinks, k, p) * w ** (k - p)
                for p in range(k + 1)), sp.Integer(0))
    odd = sum((wt * (_s(psi2 * y * left + w, k) - _s(psi2 * y * right + w, k)) / 2
               for (left, right), wt in odd_weights(kinks, k).items()), sp.Integer(0))
    return sp.simplify(even / math.factorial(k)), sp.simplify(odd / math.factorial(k))


def _s(x: Any, k: int) -> Any:
    """S_k(x) = x^k sgn(x)."""
    return x**k * sp.sign(x)


def _upper(j: int, c: Any) -> Any:
    """∫_c^∞ ξ^j φ(ξ) dξ (mpmath): T_0 = Φ̄(c), T_1 = φ(c), T_j = c^{j−1} φ(c) + (j − 1) T_{j−2}."""
    t0, t1 = mpmath.ncdf(-c), mpmath.npdf(c)
    if j == 0:
        return t0
    ts = [t0, t1]
    for m in range(2, j + 1):
        ts.append(c ** (m - 1) * mpmath.npdf(c) + (m - 1) * ts[m - 2])
    return ts[j]


def q_moment(k: int, x: Any, A: Any) -> Any:
    """Q_k(x) = E[S_k(x + Aξ)], ξ ~ N(0, 1), A > 0, S_k(u) = u^k sgn(u), in closed form
    (mpmath at the current precision): 2 E[(x + Aξ)^k 1{x + Aξ > 0}] − E[(x + Aξ)^k].

    >>> mpmath.nstr(q_moment(1, 0, 1), 10)  # E|ξ| = √(2/π)
    '0.7978845608'
    """
    x, A = mpmath.mpf(x), mpmath.mpf(A)
    c = -x / A
    upper = mpmath.fsum(math.comb(k, j) * x ** (k - j) * A**j * _upper(j, c)
                        for j in range(k + 1))
    full = mpmath.fsum(math.comb(k, j) * x ** (k - j) * A**j * math.prod(range(j - 1, 0, -2))
                       for j in range(0, k + 1, 2))
    return 2 * upper - full


def odd_part_constant(kinks: tuple[Kink, ...], k: int, g: Any, psi2: Any, A: Any, m: Any,
                      dps: int) -> Any:
    """C_k^odd(β) = E_s[h_k^odd(g(s), m s) s] for ONE target y = g(s) (a callable on mpf),
    ξ ~ N(0, A²), r = m s (m = μ_σ μ_1(g)), by a nested trapezoidal rule at dps + 10 digits
    (:func:`_trapezoid`).

    h_k^odd(y, r) = (y/(2 k!)) Σ_l J_l φ(c_l) He_{k−1}(c_l)
    [Q_k(ψ2 y s_l^- + r) − Q_k(ψ2 y s_l^+ + r)].

    >>> relu = kink_structure(sp.Max(0, Z))
    >>> mpmath.nstr(odd_part_constant(relu, 1, lambda s: s, 1, 1, sp.Rational(1, 2), 15), 10)
    '-0.2720292669'
    """
    weights = [(q, mpmath.mpf(sp.N(_weight(q, k), dps + 15))) for q in kinks]
    with mpmath.workdps(dps + 10):
        psi, Am, mm = (mpmath.mpf(sp.N(v, dps + 15)) for v in (psi2, A, m))
        lefts = [(mpmath.mpf(sp.N(q.left, dps + 15)), mpmath.mpf(sp.N(q.right, dps + 15)), wt)
                 for q, wt in weights if wt != 0]

        def h(s: Any) -> Any:
            y = g(s)
            r = mm * s
            tot = mpmath.fsum(wt * (q_moment(k, psi * y * sl + r, Am)
                                    - q_moment(k, psi * y * sr + r, Am))
                              for sl, sr, wt in lefts)
            return y * tot * s * mpmath.npdf(s) / (2 * math.factorial(k))

        return _trapezoid(h, dps)


def _trapezoid(f: Any, dps: int) -> Any:
    """∫ f over the real line for an entire f with Gaussian decay: nested trapezoidal rules
    (step 1/2, 1/4, …; only the new nodes evaluated) on [−R, R], R = √(2 (dps + 12) ln 10) + 3,
    until two consecutive sums agree to 10^−(dps+3) relative (the rule's error falls like
    exp(−2πd/h) for such integrands: Trefethen & Weideman, SIAM Review 56 (2014), §5), at most
    10 halvings. Used instead of mpmath.quad, which takes 3–4× the evaluations here."""
    R = mpmath.sqrt(2 * (dps + 12) * mpmath.log(10)) + 3
    tol = mpmath.mpf(10) ** (-(dps + 3))
    h = mpmath.mpf(1) / 2
    J = int(R / h)
    acc = mpmath.fsum(f(j * h) for j in range(-J, J + 1))
    prev = h * acc
    for _ in range(10):
        h /= 2
        J = int(R / h)
        acc += mpmath.fsum(f(j * h) for j in range(-J + (J % 2 == 0), J + 1, 2))
        new = h * acc
        if abs(new - prev) <= tol * max(1, abs(new)):
            return new
        prev = new
    return new
