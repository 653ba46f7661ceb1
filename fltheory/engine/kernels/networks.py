r"""The NNGP and NTK of a fully connected network on the sphere, and their eigenvalues.

Model (state it once): inputs x ∈ S^{d−1}; depth L >= 2 weight layers (L − 1 hidden layers of
width → ∞); first-layer weights N(0, 1) per entry (so w·x ~ N(0, 1)), later layers
N(0, c_σ/width) with c_σ = 1/E[σ(z)²] (He initialisation for ReLU: c = 2), biases
N(0, β²) when ``bias`` β² > 0. The kernels (Neal 1996; Lee et al. 2018; Jacot et al. 2018;
Arora et al. 2019, eq. (4)) are functions of t = x·y:

.. math::

    \Sigma^{(0)} = t + \beta^2,\quad
    \Sigma^{(l)} = c_\sigma\,\mathbb E[\sigma(u)\sigma(v)] + \beta^2,\quad
    \dot\Sigma^{(l)} = c_\sigma\,\mathbb E[\sigma'(u)\sigma'(v)],

(u, v) centred Gaussian with variances q_{l−1} = Σ^{(l−1)}(1) and covariance Σ^{(l−1)}(t);
NNGP = Σ^{(L−1)}; NTK Θ^{(1)} = Σ^{(0)}, Θ^{(l+1)} = Θ^{(l)} Σ̇^{(l)} + Σ^{(l)}, NTK = Θ^{(L)}.
Without bias the variances stay 1 and the NNGP has κ(1) = 1; the ReLU NTK has κ(1) = L.

In Hermite terms (orthonormal basis, μ_j = E[σ h_j], z ~ N(0, 1)) the dual activation is
c_σ E[σ(u)σ(v)] = c_σ Σ_j μ_j² ρ^j (ρ the correlation; Mehler), and its derivative kernel is
c_σ Σ_j (j + 1) μ_{j+1}² ρ^j, the derivative of the dual (Daniely, Frostig & Singer 2016).

Routes, by the family of σ (:func:`~fltheory.engine.kernels.activations.activation_form`):

* ``linear`` (a·relu(z) + c·relu(−z)) and ``step`` (a·1{z>0} + c·1{z<0}), depth 2, no bias:
  exact, the dual being κ_1(ρ) + γ κ_1(−ρ) (resp. κ_0), γ = 2ac/(a² + c²)
  (:mod:`~fltheory.engine.kernels.arccos`); deeper or with bias: the closed-form recursion
  evaluated at complex t and :func:`~fltheory.engine.kernels.series.series_eigenvalues`
  (bounded digits), and for the linear family at d <= :data:`THETA_MAX_D` first in
  θ = arccos t, where the recursion is analytic (tanh-sinh rules of two levels compared; per
  degree the value with the smaller bound is kept);
* ``polynomial``: exact rational kernels (Gaussian moments of the polynomial) and exact μ_k;
* ``smooth``: the dual's coefficients from :func:`~fltheory.engine.kernels.activations.
  hermite_bulk`; at depth 2 without bias μ_k = Σ_j c μ_j² a_{j,k} with the parity masses beyond
  the last coefficient (from E[σ²], E[σ(z)σ(−z)], E[σ'²], E[σ'(z)σ'(−z)]) as the bound; deeper or
  with bias the truncated duals are composed pointwise (every coefficient a lower bound, each
  coefficient's error subtracted first), and the mass missing from κ(1) bounds each μ_k at
  any degree.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from fltheory.engine.kernels import arccos
from fltheory.engine.kernels.activations import ActivationForm, hermite_bulk
from fltheory.engine.kernels.moments import funk_hecke, gegenbauer_moment, moment_ratio
from fltheory.engine.kernels.series import series_eigenvalues, taylor

__all__ = ["HERMITE_MAX", "MAX_POLY_DEGREE", "THETA_MAX_D", "Eigen", "Network",
           "network_eigenvalues", "parity",
           "poly_eigenvalues", "polynomial_degree", "polynomial_kernel", "taylor_coefficients",
           "theta_eigenvalues"]

#: the largest degree of an exact polynomial kernel (σ polynomial of degree p: p^(L−1) for the
#: NNGP); Fraction arithmetic on it costs about a second at this degree
MAX_POLY_DEGREE = 400


@dataclass(frozen=True)
class Network:
    """What the recursions need: σ's family, ``kind`` ("nngp" or "ntk"), ``depth`` L >= 2 and
    ``bias`` β² >= 0 (a rational)."""

    form: ActivationForm
    kind: str
    depth: int
    bias: Fraction = Fraction(0)


@dataclass(frozen=True)
class Eigen:
    """μ_0 … μ_kmax on S^{d−1}: ``values`` (mpmath, at ``dps``), ``bounds`` (|error| <=),
    ``exact`` (sympy numbers, or None where only numeric), κ(1) and κ(−1) (``at_one``,
    ``at_minus_one``: mpmath, with ``exact_one`` the exact value when known), the ``method``
    used and its ``notes``."""

    d: int
    values: tuple[Any, ...]
    bounds: tuple[Any, ...]
    exact: tuple[Any, ...] | None
    at_one: Any
    at_minus_one: Any
    exact_one: Any
    method: str
    dps: int
    notes: tuple[str, ...] = field(default=())


# --------------------------------------------------------------------------- exact polynomials


def poly_eigenvalues(coeffs: list[Fraction], d: int, kmax: int, dps: int) -> tuple[
        list[Fraction] | None, list[Any]]:
    """μ_0 … μ_kmax of the polynomial Σ b_j t^j (rationals): exact Fractions (None beyond
    d = :data:`~fltheory.engine.kernels.arccos.EXACT_MAX_D`) and mpmath values.

    >>> poly_eigenvalues([Fraction(0), Fraction(0), Fraction(1)], 3, 2, 15)[0]
    [Fraction(1, 3), Fraction(0, 1), Fraction(2, 15)]
    """
    J = len(coeffs) - 1
    exact_ok = d <= arccos.EXACT_MAX_D
    exact: list[Fraction] = []
    values = []
    with mpmath.workdps(dps + 10):
        for k in range(kmax + 1):
            total = Fraction(0)
            value = mpmath.mpf(0)
            if k <= J:
                if exact_ok:
                    a = gegenbauer_moment(d, k, k)
                    for j in range(k, J + 1, 2):
                        total += coeffs[j] * a
                        a *= moment_ratio(d, k, j)
                    value = mpmath.mpf(total.numerator) / total.denominator
                else:
                    a = mpmath.mpf(1)
                    for i in range(k):
                        a = a * (i + 1) / (d + 2 * i)
                    for j in range(k, J + 1, 2):
                        b = coeffs[j]
                        if b:
                            value += mpmath.mpf(b.numerator) / b.denominator * a
                        a = a * (j + 1) * (j + 2) / ((j - k + 2) * (j + k + d))
            exact.append(total)
            values.append(+value)
    return (exact if exact_ok else None), values


def _poly_mul(p: list[Fraction], q: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                if b:
                    out[i + j] += a * b
    return out


def _poly_add(p: list[Fraction], q: list[Fraction]) -> list[Fraction]:
    n = max(len(p), len(q))
    zero = Fraction(0)
    return [(p[i] if i < len(p) else zero) + (q[i] if i < len(q) else zero) for i in range(n)]


def _dual_poly(coeffs: tuple[Fraction, ...], q: Fraction) -> list[Fraction]:
    """E[σ(U)σ(V)] as a polynomial in the covariance s, U, V ~ N(0, q) (exact rationals):
    Σ_j j! h_j² (s/q)^j, h_j the He-coefficients of σ(√q x); h_j² = Σ_{a,a'} c_a c_a'
    C(a, j) C(a', j) q^{(a+a')/2} with a ≡ a' ≡ j (mod 2), so every power of q is whole."""
    p = len(coeffs) - 1
    out = []
    for j in range(p + 1):
        terms = [(a, coeffs[a] * math.factorial(a) / (2 ** ((a - j) // 2)
                                                       * math.factorial((a - j) // 2)
                                                       * math.factorial(j)))
                 for a in range(j, p + 1, 2) if coeffs[a]]
        square = Fraction(0)
        for a, ca in terms:
            for b, cb in terms:
                square += ca * cb * q ** ((a + b) // 2)
        out.append(math.factorial(j) * square / q**j)
    return out


def _compose(outer: list[Fraction], inner: list[Fraction]) -> list[Fraction]:
    """outer(inner(t)) by Horner (exact)."""
    result = [outer[-1]]
    for c in reversed(outer[:-1]):
        result = _poly_add(_poly_mul(result, inner), [c])
    return result


def polynomial_kernel(net: Network) -> list[Fraction]:
    """The NNGP or NTK of a polynomial σ as exact rational coefficients in t (degree 0 first).

    >>> from fltheory.engine.expressions import parse_expression
    >>> from fltheory.engine.kernels.activations import activation_form
    >>> [str(c) for c in polynomial_kernel(Network(activation_form(parse_expression("z**2")),
    ...                                            "nngp", 2))]
    ['1/3', '0', '2/3']
    """
    coeffs = net.form.coefficients
    deriv = tuple(Fraction(i) * c for i, c in enumerate(coeffs))[1:] or (Fraction(0),)
    norm = sum(_dual_poly(coeffs, Fraction(1)), Fraction(0))  # E[σ(z)²]: the dual at s = q = 1
    c_sigma = 1 / norm
    beta2 = net.bias
    sigma = [beta2, Fraction(1)]  # Σ^(0)
    q = 1 + beta2
    theta = list(sigma)
    for _ in range(1, net.depth):
        dual = [c_sigma * v for v in _dual_poly(coeffs, q)]
        new = _poly_add(_compose(dual, sigma), [beta2])
        if net.kind == "ntk":
            ddual = [c_sigma * v for v in _dual_poly(deriv, q)]
            dot = _compose(ddual, sigma)
            theta = _poly_add(_poly_mul(theta, dot), new)
        sigma = new
        q = sum(sigma, Fraction(0))
    out = theta if net.kind == "ntk" else sigma
    while len(out) > 1 and out[-1] == 0:
        out = out[:-1]
    return out


def polynomial_degree(net: Network) -> int:
    """The degree of :func:`polynomial_kernel`'s result, p^(L − 1) from the degree p of σ
    (the cost bound checked before the kernel is built).

    >>> from fltheory.engine.expressions import parse_expression
    >>> from fltheory.engine.kernels.activations import activation_form
    >>> polynomial_degree(Network(activation_form(parse_expression("z**3")), "nngp", 4))
    27
    """
    p = len(net.form.coefficients) - 1
    return p ** (net.depth - 1) if p > 0 else 0


# --------------------------------------------------------------------------- piecewise linear


def _gamma(form: ActivationForm) -> Fraction:
    return 2 * form.a * form.c / (form.a**2 + form.c**2)


def _closed_form(net: Network, d: int, kmax: int) -> arccos.ArcEigen:
    """Depth 2, no bias: exact eigenvalues of the normalised dual (and the NTK)."""
    g = _gamma(net.form)
    order = 1 if net.form.family == "linear" else 0
    base = arccos.arccos_eigenvalues(order, d, kmax + 1)
    dual = arccos.add([base, arccos.scale(arccos.reflect(base), g)])
    if net.kind == "nngp":
        return arccos.ArcEigen(d, dual.q[:kmax + 1], dual.r[:kmax + 1])
    zero = arccos.arccos_eigenvalues(0, d, kmax + 1)
    ddual = arccos.add([zero, arccos.scale(arccos.reflect(zero), -g)])
    ntk = arccos.add([arccos.times_t(ddual), dual])
    return arccos.ArcEigen(d, ntk.q[:kmax + 1], ntk.r[:kmax + 1])


def _closed_values(net: Network) -> tuple[Fraction, Fraction]:
    """κ(1), κ(−1) of the depth-2, bias-free closed forms (κ_1(−1) = κ_0(−1) = 0)."""
    g = _gamma(net.form)
    if net.kind == "nngp":
        return Fraction(1), g
    return Fraction(2), 2 * g


def _pointwise(net: Network) -> Callable[[Any], Any]:
    """The kernel of a linear/step σ at a (complex) t by the closed-form recursion."""
    g = _gamma(net.form)
    beta2 = mpmath.mpf(net.bias.numerator) / net.bias.denominator
    linear = net.form.family == "linear"

    def dual(rho: Any) -> Any:
        if linear:
            return arccos.kappa1(rho) + g * arccos.kappa1(-rho)
        return arccos.kappa0(rho) + g * arccos.kappa0(-rho)

    def ddual(rho: Any) -> Any:
        return arccos.kappa0(rho) - g * arccos.kappa0(-rho)

    def kernel(t: Any) -> Any:
        s = t + beta2
        q = 1 + beta2
        theta = s
        for _ in range(1, net.depth):
            rho = s / q
            new = (q * dual(rho) if linear else dual(rho)) + beta2
            if net.kind == "ntk":
                theta = theta * ddual(rho) + new
            s = new
            q = q + beta2 if linear else 1 + beta2
        return theta if net.kind == "ntk" else s

    return kernel


#: the θ = arccos t route (ReLU family deeper than 2 or with bias) is tried up to this d. Measured
#: (ReLU NTK of depth 3, k <= 200, 30 digits): the series route alone confirms every digit from
#: d ≈ 200 (at d = 50 none at k = 200, at d = 100 eight, at d = 150 seventeen); the θ route
#: confirms every digit at d = 11…200 in about 3 s, but at depth 8 and d = 200 it took 87 s
#: where the series took 32 s with every digit, and past d = 300 its working digits
#: (THETA_EXTRA_MAX) no longer reach the smallest μ_k
THETA_MAX_D = 150
#: working digits the θ route adds for the smallest μ_k against the integrand's scale (the
#: ratio is 10^−56 for the ReLU NTK of depth 3 at d = 50, k = 200)
THETA_EXTRA_MAX = 120


def _theta_rule(kernel: Callable[[Any], Any], d: int, kmax: int, level: int, wp: int
                ) -> tuple[list[Any], Any]:
    """∫_0^π κ(cos θ) P_k(cos θ) sin^(d−2)θ dθ / ∫_0^π sin^(d−2)θ dθ, k <= kmax, by the
    tanh-sinh rule of ``level`` (mpmath's nodes) at ``wp`` digits; P_k by its three-term
    recursion P_(k+1) = ((2k + d − 2) c P_k − k P_(k−1))/(k + d − 2) in fixed point. Returns
    the values and Σ|integrand| (the scale of the rounding)."""
    from mpmath.calculus.quadrature import TanhSinh

    with mpmath.workdps(wp):
        nodes = TanhSinh(mpmath.mp).calc_nodes(level, mpmath.mp.prec)
        bits = mpmath.mp.prec + 40
        one = 1 << bits
        acc = [0] * (kmax + 1)
        norm = scale = mpmath.mpf(0)
        half = mpmath.pi / 2
        # nodes whose weight w·sin^(d−2)θ is below 10^−(wp+10) of the largest node weight add
        # less than the rounding (|κ P_k| <= κ(1)): skipped, before the kernel is evaluated
        # (most of the rule's nodes crowd the ends, where sin^(d−2)θ vanishes: at d = 50 about
        # three quarters of them)
        cutoff = max(w for _, w in nodes) * mpmath.mpf(10) ** (-wp - 10)
        for x, w in nodes:
            theta = half * (x + 1)
            sn = mpmath.sin(theta)
            weight = w * sn ** (d - 2)
            if weight < cutoff:
                continue
            c = mpmath.cos(theta)
            f = mpmath.re(kernel(c)) * weight
            norm += weight
            scale += abs(f)
            ci, fi = int(mpmath.nint(c * one)), int(mpmath.nint(f * one))
            prev, cur = one, ci
            acc[0] += fi * prev
            if kmax >= 1:
                acc[1] += fi * cur
            for k in range(1, kmax):
                prev, cur = cur, (((2 * k + d - 2) * ci * cur >> bits) - k * prev) // (k + d - 2)
                acc[k + 1] += fi * cur
        denom = mpmath.mpf(one) * one * norm
        return [mpmath.mpf(a) / denom for a in acc], scale / norm


def _theta_route(net: Network, d: int, kmax: int, dps: int,
                 progress: Callable[[str], None] | None) -> tuple[list[Any], list[Any]]:
    """The ReLU family in θ = arccos t: κ(cos θ) is analytic in θ on [0, π] (arccos(cos θ) = θ,
    and each deeper layer's 1 − ρ is θ² times an analytic function), so the tanh-sinh rule
    converges fast even though κ is singular at t = 1 (:func:`theta_eigenvalues`)."""
    return theta_eigenvalues(_pointwise(net), d, kmax, dps, progress)


def theta_eigenvalues(kernel: Callable[[Any], Any], d: int, kmax: int, dps: int,
                      progress: Callable[[str], None] | None = None
                      ) -> tuple[list[Any], list[Any]]:
    """μ_0 … μ_kmax of κ on S^{d−1} in θ = arccos t, for a κ whose κ(cos θ) is analytic in θ on
    [0, π] though κ is singular at t = ±1 (the ReLU family; the Laplace kernel
    exp(−√(2 − 2t)) = exp(−2 sin(θ/2))). Two tanh-sinh rules (levels m and m + 1, the second
    at 10 more digits) give the values (the finer) and their bound (the difference plus the
    rounding scale): confirmed by a second rule, as the Hermite route's digits are.

    >>> v, b = theta_eigenvalues(lambda t: t * t, 3, 2, 20)   # μ_1 = 0 to within its bound
    >>> [mpmath.nstr(x, 10) for x in v[::2]], abs(v[1]) <= b[1], all(e < 1e-20 for e in b)
    (['0.3333333333', '0.1333333333'], True, True)
    """
    # the rule must resolve P_k's oscillation under the weight sin^(d−2)θ, which grows like
    # e^((d−2)|Im θ|) off the real axis: one more level past d = 10 (at d = 20, k = 200 the
    # two levels then agree to every digit; with the old level they confirmed 22)
    level = max(5, math.ceil(math.log2(kmax + dps + 16))) + (d > 10)
    wp = dps + 20
    if progress is not None:
        progress(f"tanh-sinh in θ = arccos t, levels {level} and {level + 1}")
    coarse, scale = _theta_rule(kernel, d, kmax, level, wp)
    # small μ_k (high degree) against the integrand's scale need more working digits: the
    # rule's values tell how many (up to d = 20 one reading, at most 60 more). Past d = 20 the
    # μ_k fall further (10^−56 of the scale at d = 50, k = 200) than the first pass's rounding
    # lets it see, so the count is read again until it settles (at most THETA_EXTRA_MAX more)
    passes, cap, base = (1, 60, wp) if d <= 20 else (3, THETA_EXTRA_MAX, dps + 20)
    for _ in range(passes):
        with mpmath.workdps(wp):
            small = min((abs(v) for v in coarse
                         if abs(v) > scale * mpmath.mpf(10) ** (-wp + 10)), default=scale)
            need = max(0, int(mpmath.ceil(mpmath.log10(scale / small))))
        extra = min(dps + 20 + cap, base + need) - wp
        if extra <= 0:
            break
        wp += extra
        coarse, _ = _theta_rule(kernel, d, kmax, level, wp)
    fine, scale = _theta_rule(kernel, d, kmax, level + 1, wp + 10)
    rounding = scale * mpmath.mpf(10) ** (-wp + 5)
    with mpmath.workdps(dps + 10):
        bounds = [abs(a - b) + rounding for a, b in zip(coarse, fine, strict=True)]
    return fine, bounds


# --------------------------------------------------------------------------- smooth σ


def _mp_of(expr: Any) -> Callable[[Any], Any]:
    import sympy as sp

    from fltheory.engine.expressions import Z

    return sp.lambdify(Z, expr, modules="mpmath")


def _scaled(expr: Any, q: Any) -> Callable[[Any], Any]:
    fn = _mp_of(expr)
    root = mpmath.sqrt(q)
    return lambda z: fn(root * z)


def _norms(fn: Callable[[Any], Any], dps: int) -> tuple[Any, Any, Any]:
    """E[f²], E[f(z)f(−z)] and an error, by the trapezoidal rule of :func:`hermite_bulk`."""
    b = hermite_bulk(fn, 0, dps)
    return b.norm2, b.reflected, b.norm_error


def _hermite_count(kmax: int, dps: int) -> int:
    return min(kmax + 2 * dps + 80, HERMITE_MAX)


#: the most Hermite coefficients one smooth σ is given (two trapezoidal rules of ~J·√J nodes)
HERMITE_MAX = 800


def parity(expr: Any) -> int | None:
    """+1 for an even σ, −1 for an odd one (proved by sympy), None otherwise: the dual then
    has only even (odd) powers and the other parity's eigenvalues are exactly zero.

    >>> from fltheory.engine.expressions import parse_expression
    >>> parity(parse_expression("tanh")), parity(parse_expression("gelu"))
    (-1, None)
    """
    import sympy as sp

    from fltheory.engine.expressions import Z

    flipped = expr.subs(Z, -Z)
    if sp.simplify(flipped - expr) == 0:
        return 1
    if sp.simplify(flipped + expr) == 0:
        return -1
    return None


def _smooth_depth2(net: Network, d: int, kmax: int, dps: int,
                   progress: Callable[[str], None] | None) -> Eigen:
    """Depth 2 without bias: b_j = c μ_j² (NNGP) or (j + 1) c μ_j² (NTK: tκ'(t) + κ(t)), the
    masses beyond the last coefficient by parity; J doubles (to HERMITE_MAX) until every μ_k
    is confirmed to dps digits."""
    J = _hermite_count(kmax, dps)
    sym = parity(net.form.expr)
    while True:
        eig = _smooth_depth2_at(net, d, kmax, dps, J, sym, progress)
        settled = all(v == 0 or b <= abs(v) * mpmath.mpf(10) ** (-dps - 1)
                      for v, b in zip(eig.values, eig.bounds, strict=True))
        if settled or J >= HERMITE_MAX:
            return eig
        J = min(2 * J, HERMITE_MAX)


def _smooth_depth2_at(net: Network, d: int, kmax: int, dps: int, J: int, sym: int | None,
                      progress: Callable[[str], None] | None) -> Eigen:
    import sympy as sp

    from fltheory.engine.expressions import Z

    if progress is not None:
        progress(f"Hermite coefficients μ_0 … μ_{J} of σ (trapezoidal rule)")
    fn = _mp_of(net.form.expr)
    bulk = hermite_bulk(fn, J, dps)
    with mpmath.workdps(dps + 10):
        c = 1 / bulk.norm2
        dc = bulk.norm_error * c * c
        b = [c * m * m for m in bulk.mu]
        err = [c * (2 * abs(m) * e + e * e) + m * m * dc for m, e in zip(bulk.mu, bulk.errors,
                                                                         strict=True)]
        one, minus = mpmath.mpf(1), c * bulk.reflected
        slack = dc * (bulk.norm2 + abs(bulk.reflected))
        if net.kind == "ntk":
            dfn = _mp_of(sp.diff(net.form.expr, Z))
            n2, refl, nerr = _norms(dfn, dps)
            b = [(j + 1) * v for j, v in enumerate(b)]
            err = [(j + 1) * v for j, v in enumerate(err)]
            one = 1 + c * n2
            minus = minus - c * refl
            slack += c * nerr + dc * (n2 + abs(refl))
        if sym is not None:  # an even (odd) σ: only even (odd) powers in the dual and the NTK
            keep = 0 if sym == 1 else 1
            b = [v if j % 2 == keep else mpmath.mpf(0) for j, v in enumerate(b)]
            err = [v if j % 2 == keep else mpmath.mpf(0) for j, v in enumerate(err)]
            minus = one if sym == 1 else -one
        tail = _parity_tail(b, err, one, minus, slack)
        if sym is not None:
            tail = (tail[0], mpmath.mpf(0)) if sym == 1 else (mpmath.mpf(0), tail[1])
    spec = funk_hecke(d, kmax, b, dps, errors=err, tail=tail)
    values, bounds = list(spec.values), list(spec.bounds)
    if sym is not None:  # the other parity's eigenvalues vanish exactly
        for k in range(kmax + 1):
            if k % 2 != (0 if sym == 1 else 1):
                values[k], bounds[k] = mpmath.mpf(0), mpmath.mpf(0)
    return Eigen(d, tuple(values), tuple(bounds), None, one, minus, None,
                 f"Hermite coefficients μ_0 … μ_{J} (trapezoidal rule, step "
                 f"{mpmath.nstr(bulk.step, 3)}, confirmed by a second step); dual "
                 "c_σ Σ μ_j² ρ^j; masses beyond degree J by parity from E[σ²], E[σ(z)σ(−z)]"
                 + (", E[σ'²], E[σ'(z)σ'(−z)]" if net.kind == "ntk" else "")
                 + ("" if sym is None else f"; σ {'even' if sym == 1 else 'odd'} (exact zeros)"),
                 dps)


def _parity_tail(b: list[Any], err: list[Any], one: Any, minus: Any, slack: Any
                 ) -> tuple[Any, Any]:
    even = (one + minus) / 2 - mpmath.fsum(b[0::2])
    odd = (one - minus) / 2 - mpmath.fsum(b[1::2])
    total_err = mpmath.fsum(err) + slack
    return (max(even, mpmath.mpf(0)) + total_err, max(odd, mpmath.mpf(0)) + total_err)


def _smooth_deep(net: Network, d: int, kmax: int, dps: int,
                 progress: Callable[[str], None] | None) -> Eigen:
    """Deeper or with bias: each layer's dual truncated to a lower bound, composed pointwise."""
    import sympy as sp

    from fltheory.engine.expressions import Z

    J = _hermite_count(kmax, dps)
    derivative = sp.diff(net.form.expr, Z)
    with mpmath.workdps(dps + 10):
        norm2, _, _ = _norms(_mp_of(net.form.expr), dps)
        c = 1 / norm2
        beta2 = mpmath.mpf(net.bias.numerator) / net.bias.denominator
        q = 1 + beta2
        layers = []  # (q, lower-bound dual coefficients, lower-bound derivative coefficients)
        true_one = []  # (Σ(1), Σ̇(1)) of each layer, from the norms
        for layer in range(1, net.depth):
            if progress is not None:
                progress(f"layer {layer}: Hermite coefficients of σ(√q z), q = "
                         f"{mpmath.nstr(q, 6)}")
            bulk = hermite_bulk(_scaled(net.form.expr, q), J, dps)
            dual = [max(c * (abs(m) - e) ** 2, mpmath.mpf(0)) if abs(m) > e else mpmath.mpf(0)
                    for m, e in zip(bulk.mu, bulk.errors, strict=True)]
            # σ_q'(z) = √q σ'(√q z): the derivative kernel's coefficients are (j+1) μ_{j+1}²/q
            ddual = [(j + 1) * dual[j + 1] / q for j in range(len(dual) - 1)]
            dnorm, _, _ = _norms(_scaled(derivative, q), dps)
            true_one.append((c * bulk.norm2 + beta2, c * dnorm))
            layers.append((q, dual, ddual))
            q = c * bulk.norm2 + beta2
        # κ(1) exactly from the norms (no truncation)
        s1, theta1 = 1 + beta2, 1 + beta2
        for sig1, dot1 in true_one:
            theta1 = theta1 * dot1 + sig1
            s1 = sig1
        at_one = theta1 if net.kind == "ntk" else s1

    def kernel(t: Any) -> Any:
        s = t + beta2
        theta = s
        for qq, dual, ddual in layers:
            rho = s / qq
            new = mpmath.polyval(dual[::-1], rho) + beta2
            if net.kind == "ntk":
                theta = theta * mpmath.polyval(ddual[::-1], rho) + new
            s = new
        return theta if net.kind == "ntk" else s

    # to the layers' own degree J: the composition's coefficients past 2·kmax + 32 still
    # carry mass that bounds every μ_k (tanh NTK, depth 3, β² = 1/10, d = 10: 72 → 160 takes
    # μ_0, μ_10, μ_20 from 6, 4, 1 to 11, 9, 7 confirmed digits for 1.6× the time)
    K = max(2 * kmax + 32, J)
    if progress is not None:
        progress(f"Taylor series of the composed kernel to degree {K}")
    t = taylor(kernel, K, dps, at_one)
    with mpmath.workdps(dps + 10):
        found = mpmath.fsum(t.coefficients)
        missing = max(at_one - found, mpmath.mpf(0)) + mpmath.fsum(t.errors)
        minus = kernel(mpmath.mpf(-1))
    spec = funk_hecke(d, kmax, t.coefficients, dps, errors=t.errors, tail=(missing, missing),
                      anywhere=missing)
    values, bounds = list(spec.values), list(spec.bounds)
    sym = parity(net.form.expr) if net.bias == 0 else None
    if sym is not None:  # odd (even) σ without bias: every layer keeps the parity exactly
        for k in range(kmax + 1):
            if k % 2 != (0 if sym == 1 else 1):
                values[k], bounds[k] = mpmath.mpf(0), mpmath.mpf(0)
    return Eigen(d, tuple(values), tuple(bounds), None, at_one, minus, None,
                 f"Hermite coefficients μ_0 … μ_{J} per layer (lower bounds), composed and "
                 f"expanded to degree {K}; the mass missing from κ(1) = "
                 f"{mpmath.nstr(at_one, 10)} bounds every μ_k", dps,
                 notes=("κ(−1) shown is that of the truncated duals",))


# --------------------------------------------------------------------------- entry point


def network_eigenvalues(net: Network, d: int, kmax: int, dps: int,
                        progress: Callable[[str], None] | None = None) -> Eigen:
    """μ_0 … μ_kmax of the network's NNGP or NTK on S^{d−1} (module docstring for the route).

    >>> from fltheory.engine.expressions import parse_expression
    >>> from fltheory.engine.kernels.activations import activation_form
    >>> e = network_eigenvalues(Network(activation_form(parse_expression("relu")), "ntk", 2),
    ...                         3, 3, 20)
    >>> [str(v) for v in e.exact], e.exact_one
    (['1/2', '1/3', '5/64', '0'], Fraction(2, 1))
    """
    family = net.form.family
    if family in ("linear", "step") and net.depth == 2 and net.bias == 0:
        closed = _closed_form(net, d, kmax)
        one, minus = _closed_values(net)
        exact = tuple(closed.exact(k) for k in range(kmax + 1)) if d <= arccos.EXACT_MAX_D \
            else None
        values = closed.values(dps)
        return Eigen(d, tuple(values), tuple(mpmath.mpf(0) for _ in values), exact,
                     mpmath.mpf(one.numerator) / one.denominator,
                     mpmath.mpf(minus.numerator) / minus.denominator, one,
                     "closed form (arc-cosine kernels, Gamma ratios)", dps)
    if family in ("linear", "step"):
        kernel = _pointwise(net)
        with mpmath.workdps(dps + 10):
            one, minus = kernel(mpmath.mpf(1)), kernel(mpmath.mpf(-1))
        theta: tuple[list[Any], list[Any]] | None = None
        # the θ route: the linear family at d where the rule resolves sin^(d−2)θ (σ = a·z,
        # γ = −1 without bias, is a polynomial kernel: left to the series route)
        g = _gamma(net.form)
        if family == "linear" and d <= THETA_MAX_D and (net.bias or g != -1):
            theta = _theta_route(net, d, kmax, dps, progress)
            if g == 1 and not net.bias:
                # an even σ (abs): every layer's kernel is even in t (the dual even, σ' odd so
                # Σ̇ odd in ρ, and even∘even, t·odd∘even + even are even): odd μ_k exactly 0
                for k in range(1, kmax + 1, 2):
                    theta[0][k], theta[1][k] = mpmath.mpf(0), mpmath.mpf(0)
            target = mpmath.mpf(10) ** (-dps - 1)
            if all(b <= abs(v) * target or v == b == 0 for v, b in zip(*theta, strict=True)):
                return Eigen(d, tuple(theta[0]), tuple(theta[1]), None, one, minus, None,
                             "closed-form recursion in θ = arccos t (analytic there), "
                             "tanh-sinh rules of two levels compared", dps)
        s = series_eigenvalues(kernel, one, minus, d, kmax, dps, progress=progress)
        method = (f"closed-form recursion at complex t, Taylor series to degree {s.J} "
                  f"({s.taylor.points} points), masses beyond by parity")
        values, bounds = list(s.spectrum.values), list(s.spectrum.bounds)
        if theta is not None:  # per degree, the value with the smaller bound
            for k in range(kmax + 1):
                if theta[1][k] < bounds[k]:
                    values[k], bounds[k] = theta[0][k], theta[1][k]
            method += "; where tighter, tanh-sinh rules in θ = arccos t compared"
        return Eigen(d, tuple(values), tuple(bounds), None, one, minus, None, method, dps)
    if family == "polynomial":
        coeffs = polynomial_kernel(net)
        rational, values = poly_eigenvalues(coeffs, d, kmax, dps)
        one = sum(coeffs, Fraction(0))
        minus = sum((c if j % 2 == 0 else -c for j, c in enumerate(coeffs)), Fraction(0))
        import sympy as sp

        ex = None if rational is None else tuple(sp.Rational(v.numerator, v.denominator)
                                                 for v in rational)
        return Eigen(d, tuple(values), tuple(mpmath.mpf(0) for _ in values), ex,
                     mpmath.mpf(one.numerator) / one.denominator,
                     mpmath.mpf(minus.numerator) / minus.denominator, one,
                     f"exact polynomial kernel of degree {len(coeffs) - 1} (Gaussian moments)",
                     dps)
    if family == "smooth":
        if net.depth == 2 and net.bias == 0:
            return _smooth_depth2(net, d, kmax, dps, progress)
        return _smooth_deep(net, d, kmax, dps, progress)
    raise ValueError(f"no kernel route for the family {family!r}")


def taylor_coefficients(net: Network, J: int, dps: int) -> tuple[list[Any], Any]:
    """b_0 … b_J of the network's kernel (its Taylor series in t) and κ(1): exact for a
    polynomial σ, from the closed-form recursion (Cauchy integral) for the arc-cosine family,
    c μ_j² (NNGP) or (j + 1) c μ_j² (NTK) for a smooth σ at depth 2 without bias.

    >>> from fltheory.engine.kernels.activations import activation_form
    >>> from fltheory.engine.expressions import parse_expression
    >>> b, one = taylor_coefficients(Network(activation_form(parse_expression("relu")), "ntk", 2),
    ...                              2, 15)
    >>> [mpmath.nstr(v, 10) for v in b], one
    (['0.3183098862', '1.0', '0.4774648293'], mpf('2.0'))
    """
    family = net.form.family
    with mpmath.workdps(dps + 10):
        if family == "polynomial":
            coeffs = polynomial_kernel(net)
            out = [mpmath.mpf(c.numerator) / c.denominator for c in coeffs[: J + 1]]
            out += [mpmath.mpf(0)] * (J + 1 - len(out))
            return out, mpmath.mpf(sum(coeffs, Fraction(0)).numerator) / sum(
                coeffs, Fraction(0)).denominator
        if family in ("linear", "step"):
            kernel = _pointwise(net)
            one = kernel(mpmath.mpf(1))
            return list(taylor(kernel, J, dps, one).coefficients), one
        if family == "smooth" and net.depth == 2 and net.bias == 0:
            bulk = hermite_bulk(_mp_of(net.form.expr), J, dps)
            c = 1 / bulk.norm2
            b = [c * m * m for m in bulk.mu]
            if net.kind == "nngp":
                return b, mpmath.mpf(1)
            import sympy as sp

            from fltheory.engine.expressions import Z

            n2, _, _ = _norms(_mp_of(sp.diff(net.form.expr, Z)), dps)
            return [(j + 1) * v for j, v in enumerate(b)], 1 + c * n2
    raise ValueError(f"no Taylor route for {family} at depth {net.depth} with bias {net.bias}")
