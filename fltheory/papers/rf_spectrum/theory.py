r"""Exact m → ∞ spectrum of random features for any activation σ.

.. rubric:: Model

x ~ N(0, I_d); w_1, …, w_m i.i.d. N(0, s² I_d/d) (so E‖w‖² = s², r = ‖w‖ ~ s χ_d/√d);
K(w, w') = E_x[σ(w·x) σ(w'·x)]; the Fisher (Gram) matrix J = (1/m)[K(w_i, w_j)]. As m → ∞ the
spectrum of J tends to that of the integral operator T g(w) = E_{w'}[K(w, w') g(w')] on L²(law of
w). The ReLU module :mod:`fltheory.papers.fisher.theory` (W ~ N(0, 1/m), J = E_x[XXᵀ]) is the case
σ = relu, s = √d (w = u ~ N(0, I_d)); its λ_l are reproduced exactly at that scale.

.. rubric:: Derivation

*Mehler.* (ŵ·x, ŵ'·x) is a standard Gaussian pair of correlation t = ŵ·ŵ', so

.. math::

    K(w, w') = \sum_k \mu_k(r)\, \mu_k(r')\, t^k,
    \qquad \mu_k(r) = \mathbb{E}[\sigma(rz)\, h_k(z)]

(orthonormal Hermite, Hermite
engine conventions).

*Funk–Hecke.* Radius and direction of w are independent; for g(w) = φ(r) Y_l(ŵ) with Y_l a
spherical harmonic of degree l, E_{ŵ'}[t^k Y_l(ŵ')] = c_{k,l} Y_l(ŵ) with
c_{k,l} = E_t[t^k P_l(t)] (t = ŵ·e of density ∝ (1 − t²)^{(d−3)/2}, P_l the Legendre/Gegenbauer
polynomial of dimension d with P_l(1) = 1). So T acts on degree l as the radial operator

.. math::

    (R_l \varphi)(r) = \mathbb{E}_{r'}[K_l(r, r')\, \varphi(r')], \qquad
    K_l(r, r') = \sum_k c_{k,l}\, \mu_k(r)\, \mu_k(r'),

and every eigenvalue λ_{l,0} >= λ_{l,1} >= … of R_l is an eigenvalue of T of multiplicity
N(d, l) (dimension of the degree-l harmonics). c_{k,l} >= 0, and c_{k,l} = 0 unless k >= l and
k ≡ l (mod 2).

*Exact routes* (:mod:`fltheory.papers.rf_spectrum.piecewise`). A σ that is a polynomial on each
half-line is a
finite sum of positively homogeneous parts; then K_l is of finite rank and R_l's non-zero
eigenvalues are those of a small matrix of Gamma ratios (chi moments and moments of t):
polynomials (every entry rational in s²), and in particular positively homogeneous σ of degree
p (relu, abs, sign, Heaviside, relu^p, leaky relu, z^p), for which R_l has rank one and

.. math::

    \lambda_{l,0} = \mathbb{E}[r^{2p}]\, \mathbb{E}[\lVert x\rVert^{2p}]\, b_l^2, \qquad
    b_l = \mathbb{E}_t[\sigma(t)\, P_l(t)],

which at σ = relu, s² = d is fisher.py's λ_l = d E_t[κ(t) P_l(t)] derived a different way
(sphere factorisation x = ‖x‖ξ instead of the arc-cosine kernel). Every λ_{l,j} with j beyond the
rank is exactly 0.

*Numeric route* (:mod:`fltheory.papers.rf_spectrum.radial`): Nyström on the radial law (generalised
Gauss–Laguerre in u = d r²/(2s²) ~ Gamma(d/2)) with μ_k(r_i) by the trapezoidal rule in z,
Mehler series truncated at K with a rigorous bound (c_{k,l} <= E|t|^k, Parseval tail
E σ(rz)² − Σ_{k<=K} μ_k(r)²). Each eigenvalue is computed twice (more radial nodes, a finer z
step, ten more working digits); its reported digits are those on which the two agree and that
the truncation bound guarantees. Fewer than the asked ``dps`` is a DomainError naming the
eigenvalue and the digits reached.

*Gram route* (:mod:`fltheory.papers.rf_spectrum.gram`, d < :data:`GRAM_MAX_D`): the sphere
factorisation x = ‖x‖ξ gives K_l(r, r') = E_ρ[β_l(rρ) β_l(r'ρ)], β_l(a) = E_t[σ(at) P_l(t)],
with no series to truncate (the Mehler series converges slowly at small d). float64 (β
summed compensated), two orders compared (12–14 digits, measured); used for dps <=
:data:`GRAM_FLOAT_MAX_DPS`, tried first up to :data:`GRAM_FLOAT_TRY_DPS` (then the mpmath
Gram route, up to :data:`GRAM_MP_MAX_DPS`) and, without a dps, for every value (each keeps
the digits it is confirmed to).

*Trace identity.* Σ_l N(d, l) Σ_j λ_{l,j} = Σ_l N(d, l) tr R_l = E_w K(w, w) = E_r E_z σ(rz)²
(Funk–Hecke at t = 1: Σ_l N(d, l) c_{k,l} = 1). :attr:`RFSpectrum.trace_captured` is the part
Σ_{l<=lmax} N(d, l) tr R_l.

*Parity.* μ_k(r) = 0 for odd k when σ is even and for even k when σ is odd, and c_{k,l} = 0
unless k ≡ l, so even σ has no odd-l spectrum and odd σ no even-l spectrum. A polynomial of
degree p has μ_k = 0 for k > p, hence no spectrum for l > p, and rank <= ⌊(p − l)/2⌋ + 1 at l.
ReLU: relu = (z + |z|)/2 and |z| is even, so odd l >= 3 see only t/4's degree-1 part: 0.

*Large d.* At fixed s the radial law concentrates at r = s (variance s²/(2d)), c_{k,l}/c_{l,l} =
O(d^{−(k−l)/2}), so R_l tends to the rank-one kernel c_{l,l} μ_l(r) μ_l(r') and
λ_{l,0}(d) ≈ c_{l,l}(d) μ_l(s)², λ_{l,1}/λ_{l,0} → 0 (:func:`large_d_approach`; measured for
tanh, l = 1: the relative gap falls like 1/d, λ_{1,1}/λ_{1,0} like 1/d²).

.. rubric:: What is supported

σ is split into its even and odd parts (sympy), each handled by its own route: a part that is a
polynomial on each half-line is exact (so gelu and softplus, whose odd part is z/2, and
sigmoid, whose even part is 1/2, are exact on half of the degrees); a smooth part goes to
Nyström; a part with kinks that is not polynomial between them (relu(z − 1), relu·tanh) is
refused (the trapezoidal rule in z needs smoothness). σ must grow at most polynomially
(E_r E σ(rz)² is infinite otherwise for the unbounded law of r: exp(z) is refused). The
Nyström work is bounded before it starts (:data:`MAX_WORK`): it is cheap at large d (tanh,
d = 10^6, lmax 4, jmax 2, dps 30: about 4 s of CPU) and expensive at small d, where the Mehler
series converges slowly (E|t|^k decays like k^{−(d−1)/2}) and the radial law is wide. Up to
dps = 10 (:data:`FLOAT_MAX_DPS`) both passes run in float64 (tanh, d = 5, lmax 2, jmax 2,
dps 5: 3 s); at small d the truncation bound limits the digits (tanh: d = 5 about 5 digits on
λ_{1,2}, d = 3 about 4 on λ_{3,1}), and more asked digits are a DomainError.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from fltheory.args import read_count, read_dps
from fltheory.engine.spherical import multiplicity as _multiplicity
from fltheory.exact import DomainError, as_rational, check_cost
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = [
    "FLOAT_MAX_DPS",
    "MAX_D",
    "MAX_JMAX",
    "MAX_L",
    "MAX_WORK",
    "RFApproach",
    "RFLevel",
    "RFSpectrum",
    "kernel_trace",
    "large_d_approach",
    "multiplicity",
    "spectrum",
]

#: the one range of the harmonic degree l and of lmax, [0, MAX_L] (the work grows as lmax³)
MAX_L = 60


def multiplicity(d: int, l: int) -> int:
    """N(d, l), the multiplicity of the level λ_{l,j}, l in [0, MAX_L]
    (:func:`fltheory.engine.spherical.multiplicity`).

    >>> multiplicity(5, 2)
    14
    """
    return _multiplicity(d, l, MAX_L)


#: Largest d (N(d, l) and the log-Gamma ratios stay cheap far beyond 10^6).
MAX_D = 10**12
#: Largest radial index jmax.
MAX_JMAX = 20
#: Bound on the Nyström work (units of ~a multiply-add at the working precision, both passes),
#: checked before it starts. Measured on the 2-core machine under load: 2–8·10^{-7} s a unit
#: (tanh, d = 10^6, lmax 4, jmax 2, dps 30: 2.2e7 units, 8 s), so accepted requests stay
#: under about a minute.
MAX_WORK = 1e8
_KMAX = 80  # largest Mehler truncation of the numeric route
#: Up to this dps the Nyström passes run in float64 (numpy; ~100× faster, measured: tanh at
#: d = 5 1.4 s against 22 s), their agreement still deciding the digits reported.
FLOAT_MAX_DPS = 10
_FLOAT_SPEEDUP = 50.0
_GUARD = 15


def _check_d(d: Any) -> int:
    if isinstance(d, numbers.Integral) and not isinstance(d, bool) and d < 2:
        raise DomainError("d", d, f"integers in [2, {MAX_D}]",
                          reason="has no sphere of directions for Funk–Hecke (d >= 2)")
    return read_count(d, "d", 2, MAX_D)


def _scale(scale: Any) -> Any:
    """s as a positive sympy number: a rational as :func:`as_rational` reads it, a sympy number
    such as sqrt(5), or its text ("sqrt(5)", read by the Hermite engine's safe parser)."""
    import sympy as sp

    if isinstance(scale, str) and any(ch.isalpha() for ch in scale):
        from fltheory.engine.expressions import parse_expression

        scale = parse_expression(scale, "scale")  # the safe parser: "sqrt(5)", "2*pi"
    if isinstance(scale, sp.Basic):
        value = scale
        if not value.is_number or value.is_positive is not True:
            raise DomainError("scale", scale, "positive numbers s > 0")
        return value
    q = as_rational(scale, "scale")
    if q <= 0:
        raise DomainError("scale", scale, "positive numbers s > 0")
    return sp.Rational(q.numerator, q.denominator)


@dataclass(frozen=True)
class RFLevel:
    """λ_{l,j}: the j-th eigenvalue (descending) of the degree-l radial operator, multiplicity
    N(d, l). ``value`` is an mpmath number good to ``digits`` significant digits (all ``dps``
    on the exact routes); ``exact`` says it comes from a closed form (``closed``: the sympy
    value when d <= 1000 and the matrix is small, else None); ``method`` names the route
    ("exact:homogeneous", "exact:polynomial", "exact:piecewise", "nystrom", "zero:…");
    ``reason`` why a zero is exact."""

    l: int
    j: int
    value: Any
    multiplicity: int
    exact: bool
    digits: int
    method: str
    closed: Any = None
    reason: str = ""
    #: when ``digits`` is 0: a bound on |λ| (the value is below the error of its computation)
    error: Any = None


def _sympy_function(sigma: Any) -> Any:
    from fltheory.engine.functions import parse_function

    func = parse_function(sigma, "sigma")
    _check_growth(func.expr, func.text)
    return func


def _check_growth(expr: Any, text: str) -> None:
    """E_r E σ(rz)² < ∞ for the unbounded radial law needs σ of at most polynomial growth."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.timer import Timeout, time_limit

    if expr.is_polynomial(Z):
        return
    verdict = None
    try:
        with time_limit(1.0):  # gelu's limit takes > 5 s; the numeric test decides then
            verdict = all(sp.limit(expr / Z**201, Z, side) == 0 for side in (sp.oo, -sp.oo))
    except (Timeout, NotImplementedError, ValueError, TypeError):
        verdict = None
    if verdict is None:  # numeric fallback: the growth exponent from |z| = 400 to 800
        fn = sp.lambdify(Z, expr, modules="mpmath")
        with mpmath.workdps(30):
            def exponent(v: int) -> Any:
                a, b = abs(fn(mpmath.mpf(v))) + 1, abs(fn(mpmath.mpf(2 * v))) + 1
                return mpmath.log(b / a, 2)

            verdict = all(exponent(v) <= 210 for v in (400, -400))
    if not verdict:
        raise DomainError("sigma", text, "activations of at most polynomial growth",
                          reason="grows faster than any polynomial: E_w K(w, w) = "
                                 "E_r E σ(rz)² is infinite for the unbounded law of r = ‖w‖")


def _parity(expr: Any) -> int:
    """1 if σ is even, −1 if odd, 0 otherwise (proved by sympy)."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.timer import Timeout, time_limit

    flipped = expr.subs(Z, -Z)
    for sign in (1, -1):
        diff = flipped - sign * expr
        try:
            with time_limit(3.0):
                zero = sp.expand(diff) == 0 or sp.simplify(diff) == 0
        except Timeout:
            zero = False
        if zero:
            return sign
    return 0


def _parity_reason(parity: int) -> str:
    kind = "even" if parity == 1 else "odd"
    other = "odd" if parity == 1 else "even"
    return (f"σ is {kind}: μ_k(r) = 0 for {other} k and c_(k,l) = 0 unless k ≡ l (mod 2), so "
            f"every {other} l vanishes")


@dataclass(frozen=True)
class RFSpectrum(ShowsTable):
    """What :func:`spectrum` returns: the levels λ_{l,j} (l <= lmax, j <= jmax), the kernel
    trace E_w K(w, w) and the part Σ_{l<=lmax} N(d, l) tr R_l of it, the exact zeros and why.

    ``levels`` is a tuple of :class:`RFLevel` ordered by (l, j); ``trace`` and
    ``trace_captured`` are mpmath numbers at ``dps`` (``trace_exact`` the sympy value where
    σ is piecewise polynomial and d <= 1000); ``radial_traces[l]`` = tr R_l;
    ``vanishing`` the sentences saying which (l, j) are exactly 0 and why; ``method`` the
    route; ``notes`` the precision checks made.
    """

    sigma: str
    d: int
    scale: str
    dps: int
    lmax: int
    jmax: int
    method: str
    levels: tuple[RFLevel, ...]
    trace: Any
    trace_exact: Any
    radial_traces: tuple[Any, ...]
    trace_captured: Any
    vanishing: tuple[str, ...]
    notes: tuple[str, ...] = field(default=())
    #: significant digits confirmed of ``trace`` and of ``trace_captured`` (<= dps)
    trace_digits: int | None = None
    captured_digits: int | None = None

    def level(self, l: int, j: int) -> RFLevel:
        """The :class:`RFLevel` of (l, j) (DomainError outside l <= lmax, j <= jmax)."""
        l = read_count(l, "l", 0, self.lmax)
        j = read_count(j, "j", 0, self.jmax)
        return self.levels[l * (self.jmax + 1) + j]

    def eigenvalue(self, l: int, j: int = 0) -> Any:
        """λ_{l,j} as an mpmath number (see :meth:`level` for its digits and route)."""
        return self.level(l, j).value

    def __iter__(self) -> Iterator[RFLevel]:
        return iter(self.levels)

    def __len__(self) -> int:
        return len(self.levels)

    @property
    def confirmed_trace_digits(self) -> tuple[int, int]:
        """Digits confirmed of ``trace`` and of ``trace_captured`` (at least 1 shown)."""
        return (max(1, self.dps if self.trace_digits is None else self.trace_digits),
                max(1, self.dps if self.captured_digits is None else self.captured_digits))

    @property
    def trace_share(self) -> Any:
        """trace_captured / trace (1 when the trace is 0)."""
        with mpmath.workdps(self.dps):
            return self.trace_captured / self.trace if self.trace else mpmath.mpf(1)

    def as_json(self) -> dict[str, Any]:
        """Plain JSON-friendly fields (numbers as strings at ``dps`` digits)."""
        def num(x: Any) -> str:
            return str(mpmath.nstr(x, self.dps))

        return {
            "sigma": self.sigma, "d": self.d, "scale": self.scale, "dps": self.dps,
            "lmax": self.lmax, "jmax": self.jmax, "method": self.method,
            "levels": [{"l": v.l, "j": v.j, "value": _shown(v, self.dps),
                        "multiplicity": v.multiplicity, "exact": v.exact, "digits": v.digits,
                        "method": v.method,
                        "closed": None if v.closed is None else str(v.closed),
                        "reason": v.reason} for v in self.levels],
            "trace": str(mpmath.nstr(self.trace, self.confirmed_trace_digits[0])),
            "trace_digits": self.confirmed_trace_digits[0],
            "trace_exact": None if self.trace_exact is None else str(self.trace_exact),
            "radial_traces": [num(t) for t in self.radial_traces],
            "trace_captured": str(mpmath.nstr(self.trace_captured,
                                              self.confirmed_trace_digits[1])),
            "vanishing": list(self.vanishing), "notes": list(self.notes),
        }

    def __repr__(self) -> str:
        shown = ", ".join(f"λ_{v.l},{v.j}={mpmath.nstr(v.value, 8)}" for v in self.levels
                          if v.value != 0)
        return (f"RFSpectrum(sigma={self.sigma}, d={self.d}, scale={self.scale}, "
                f"{self.method}: {shown or 'all zero'})")

    def table(self) -> Table:
        """l, j, N(d, l), λ_{l,j} (to its digits), exact closed form, digits, route."""
        rows = []
        for v in self.levels:
            shown = _shown(v)
            rows.append([str(v.l), str(v.j), str(v.multiplicity), shown,
                         "-" if v.closed is None else str(v.closed), str(v.digits), v.method])
        tdig, cdig = self.confirmed_trace_digits
        notes = [*self.vanishing,
                 f"trace E_w K(w,w) = {mpmath.nstr(self.trace, min(tdig, 15))}; l <= {self.lmax} "
                 f"carry {mpmath.nstr(self.trace_captured, min(cdig, 15))} "
                 f"(share {mpmath.nstr(self.trace_share, min(tdig, cdig, 8))})", *self.notes]
        return Table(columns=["l", "j", "N(d,l)", "λ_l,j", "closed form", "digits", "route"],
                     rows=rows,
                     caption=(f"Random-feature spectrum, σ = {self.sigma}, d = {self.d}, "
                              f"s = {self.scale} (m → ∞)"),
                     notes=notes)


def _shown(v: RFLevel, most: int = 15) -> str:
    """λ to its confirmed digits (at most ``most``); below its error: "< bound"."""
    if v.value == 0:
        return "0"
    if v.digits == 0 and v.error is not None:
        return "< " + mpmath.nstr(abs(v.value) + v.error, 1)
    return mpmath.nstr(v.value, max(1, min(v.digits, most)))


def _level_zero(l: int, j: int, N: int, dps: int, method: str, reason: str) -> RFLevel:
    return RFLevel(l, j, mpmath.mpf(0), N, True, dps, method, 0, reason)


#: the precisions tried, highest first, by ``spectrum(..., dps=None)``
AUTO_DPS = (15, 10, 6, 5)


def spectrum(sigma: Any, d: int, scale: Any = 1, lmax: int = 4, jmax: int = 2,
             dps: int | None = 30) -> RFSpectrum:
    """The eigenvalues λ_{l,j} (l <= lmax, j <= jmax) of the m → ∞ random-feature operator
    for the activation ``sigma`` at dimension ``d`` and weight scale ``s`` (module docstring:
    w ~ N(0, s² I_d/d)), each with its multiplicity N(d, l), plus the trace identity.

    ``sigma``: a catalogue name or an expression in z (Hermite engine grammar), square-
    integrable under N(0, 1) and of at most polynomial growth; ``d``: integer in [2, 10^12];
    ``scale``: s > 0 (a rational as the command line reads it, or a sympy number such as
    sqrt(d)); ``lmax`` in [0, 60]; ``jmax`` in [0, 20]; ``dps`` in [5, 100]. Exact (sympy
    closed forms, values to all ``dps`` digits) for σ polynomial on each half-line; otherwise
    Nyström, each value verified on ``digits`` >= dps digits (else DomainError naming the
    eigenvalue and the digits reached). The work is bounded before it starts.
    ``dps=None`` (what the command line uses without --dps): the highest precision of
    :data:`AUTO_DPS` (15, 10, 6, 5) whose work is within the bound (checked before any work),
    and instead of a refusal each value keeps the digits it is confirmed to, with a note naming
    the shortest (small d needs many Mehler terms and nodes). Returns an :class:`RFSpectrum`.

    λ_{l,j} = j-th eigenvalue of K_l(r, r') = Σ_k c_{k,l} μ_k(r) μ_k(r') on the law of r = ‖w‖.

    >>> spec = spectrum("relu", 3, lmax=2, jmax=1, dps=15)
    >>> [str(v.closed) for v in spec.levels]
    ['3/16', '0', '1/12', '0', '3/256', '0']
    >>> spec.eigenvalue(2, 0) == mpmath.mpf(3) / 256
    True
    >>> auto = spectrum("erf", 3, lmax=3, jmax=2, dps=None)
    >>> auto.level(3, 2).method, auto.level(3, 2).digits >= 10
    ('gram', True)
    """
    if dps is None:
        return _spectrum_auto(sigma, d, scale, lmax, jmax)
    return _spectrum(sigma, d, scale, lmax, jmax, dps, True)


def _spectrum(sigma: Any, d: int, scale: Any, lmax: int, jmax: int, dps: int,
              strict: bool) -> RFSpectrum:
    """:func:`spectrum` at ``dps``; ``strict``: a value short of ``dps`` digits is a
    DomainError (else it keeps its own ``digits`` and a note says so)."""
    d = _check_d(d)
    lmax = read_count(lmax, "lmax", 0, MAX_L)
    jmax = read_count(jmax, "jmax", 0, MAX_JMAX)
    dps = read_dps(dps)
    s = _scale(scale)
    func = _sympy_function(sigma)
    from fltheory.engine.functions import Z
    from fltheory.papers.rf_spectrum.piecewise import piecewise_parts

    parts = piecewise_parts(func.expr, Z)
    if parts is not None:
        partials = [_exact_part(parts, _parity(func.expr), d, s, list(range(lmax + 1)), jmax,
                                dps)]
    else:
        partials = [_part(func, expr, parity, d, s, lmax, jmax, dps, strict)
                    for expr, parity in _parity_parts(func.expr)]
    return _merge(func, d, s, dps, lmax, jmax, partials)


def _spectrum_auto(sigma: Any, d: int, scale: Any, lmax: int, jmax: int) -> RFSpectrum:
    """:func:`spectrum` at the highest precision of AUTO_DPS whose work is within the bound
    (checked before any work), each value with the digits it is confirmed to."""
    error: DomainError | None = None
    for dps in AUTO_DPS:
        try:
            return _spectrum(sigma, d, scale, lmax, jmax, dps, False)
        except DomainError as exc:
            if "multiply-adds (Nyström)" not in str(exc):
                raise
            error = exc
    assert error is not None
    raise error


@dataclass
class _Partial:
    """Levels, radial traces and trace of one parity class of σ (or of all of σ)."""

    levels: dict[int, list[RFLevel]]
    traces: dict[int, Any]
    trace: Any
    trace_exact: Any
    vanishing: list[str]
    notes: list[str]
    method: str
    #: digits confirmed of ``trace`` and of each ``traces[l]`` (None: all the dps)
    trace_digits: int | None = None
    traces_digits: dict[int, int] = field(default_factory=dict)


def _parity_parts(expr: Any) -> list[tuple[Any, int]]:
    """σ = σ_even + σ_odd (sympy-simplified, within a time limit): R_l for even l sees only
    σ_even (μ_k, k even), for odd l only σ_odd."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.timer import Timeout, time_limit

    out = []
    for parity in (1, -1):
        part = (expr + parity * expr.subs(Z, -Z)) / 2
        try:
            with time_limit(1.0):  # gelu's limit takes > 5 s; the numeric test decides then
                part = sp.simplify(part)
        except Timeout:
            part = sp.expand(part)
        out.append((part, parity))
    return out


def _part(func: Any, expr: Any, parity: int, d: int, s: Any, lmax: int, jmax: int,
          dps: int, strict: bool = True) -> _Partial:
    from fltheory.engine.functions import Z
    from fltheory.papers.rf_spectrum.piecewise import piecewise_parts

    ls = [l for l in range(lmax + 1) if l % 2 == (0 if parity == 1 else 1)]
    kind, other = ("even", "odd") if parity == 1 else ("odd", "even")
    if expr == 0:
        why = (f"σ is {other}: its {kind} part is 0, so μ_k(r) = 0 for {kind} k and every "
               f"{kind} l vanishes (c_(k,l) = 0 unless k ≡ l mod 2)")
        levels = {l: [_level_zero(l, j, multiplicity(d, l), dps, "zero:parity", why)
                      for j in range(jmax + 1)] for l in ls}
        return _Partial(levels, dict.fromkeys(ls, mpmath.mpf(0)), mpmath.mpf(0),
                        0, [why], [], "")
    parts = piecewise_parts(expr, Z)
    if parts is not None:
        partial = _exact_part(parts, parity, d, s, ls, jmax, dps, f"the {kind} part of σ")
        partial.notes.append(f"the {kind} part of σ, {expr}, is polynomial on each half-line: "
                             f"{kind} l exact")
        return partial
    if d < GRAM_MAX_D and strict and GRAM_FLOAT_MAX_DPS < dps <= GRAM_MP_MAX_DPS \
            and not _kinks_of(expr):
        if dps <= GRAM_FLOAT_TRY_DPS:  # float64 first: it often confirms these digits
            gram = _gram_part(func, expr, parity, d, s, ls, jmax, dps, strict)
            if isinstance(gram, _Partial):
                return gram
        return _gram_mp_part(func, expr, parity, d, s, ls, jmax, dps)
    if d < GRAM_MAX_D and (dps <= GRAM_FLOAT_MAX_DPS or not strict):
        gram = _gram_part(func, expr, parity, d, s, ls, jmax, dps, strict)
        if isinstance(gram, _Partial):
            return gram
        if gram is not None:  # short of dps: the mpmath route if affordable, else say so
            try:
                return _numeric_part(func, expr, parity, d, s, ls, jmax, dps, strict)
            except DomainError as exc:
                if "multiply-adds (Nyström)" not in str(exc):
                    raise
                raise gram from None
    return _numeric_part(func, expr, parity, d, s, ls, jmax, dps, strict)


def _merge(func: Any, d: int, s: Any, dps: int, lmax: int, jmax: int,
           partials: list[_Partial]) -> RFSpectrum:
    levels: list[RFLevel] = []
    traces = []
    for l in range(lmax + 1):
        owner = next(p for p in partials if l in p.levels)
        levels.extend(owner.levels[l])
        traces.append(owner.traces[l])
    with mpmath.workdps(dps + _GUARD):
        trace = mpmath.fsum(p.trace for p in partials)
        captured = mpmath.fsum(multiplicity(d, l) * t for l, t in enumerate(traces))
    # sums of non-negative parts: the relative error is at most the largest part's
    trace_digits = min([dps] + [p.trace_digits for p in partials if p.trace_digits is not None])
    captured_digits = min([dps] + [p.traces_digits[l] for l in range(lmax + 1) for p in partials
                                   if l in p.traces_digits and traces[l] != 0])
    exacts = [p.trace_exact for p in partials]
    trace_exact = None if any(e is None for e in exacts) else sum(exacts[1:], exacts[0])
    vanishing = list(dict.fromkeys(v for p in partials for v in p.vanishing))
    notes = [n for p in partials for n in p.notes]
    method = "+".join(dict.fromkeys(p.method for p in partials if p.method)) or "zero"
    return _finish(func, d, s, dps, lmax, jmax, method, levels, trace, trace_exact, traces,
                   captured, vanishing, notes, (trace_digits, captured_digits))


def _exact_part(parts: Any, parity: int, d: int, s: Any, ls: list[int], jmax: int,
                dps: int, label: str = "σ") -> _Partial:
    """The levels of the degrees ``ls`` of a σ polynomial on each half-line (``parts``):
    for each l the radial matrices P, Q (:func:`~fltheory.papers.rf_spectrum.piecewise.
    radial_matrices`), their eigenvalues in closed form or confirmed by two precisions
    (:func:`_exact_levels`), and the trace of the kernel in closed form."""
    import sympy as sp

    from fltheory.papers.rf_spectrum.piecewise import GAMMA_D, kernel_trace_exact

    lmax = max(ls, default=0)
    check_cost(f"lmax = {lmax}", float(lmax + 1) * len(parts.degrees) ** 2 * (lmax + 1),
               2e5, "matrix entries", "lower lmax")
    method = ("exact:homogeneous" if parts.homogeneous else
              "exact:polynomial" if parts.polynomial else "exact:piecewise")
    s2 = sp.nsimplify(s**2) if s.is_Float else s**2
    wp = dps + _GUARD
    nums = _ExactNumbers(d, wp)
    out: dict[int, list[RFLevel]] = {}
    vanishing = _exact_vanishing(parts, parity, ls, label)
    traces: dict[int, Any] = {}
    for l in ls:
        out[l], traces[l] = _exact_levels(parts, parity, d, s2, l, jmax, dps, method, nums)
    if any(v.method == "zero:rank" for lev in out.values() for v in lev):
        vanishing.append("λ_(l,j) = 0 for j >= rank R_l: K_l(r, r') = Σ_(n,n') r^n r'^n' "
                         "b_(l,n) E[ρ^(n+n')] b_(l,n') is a finite sum over the homogeneous "
                         "degrees n of σ")
    trace_closed = kernel_trace_exact(parts, d, s2)
    with mpmath.workdps(wp):
        trace = nums.num(trace_closed)
    exact_trace = trace_closed if not trace_closed.has(GAMMA_D) else None
    if exact_trace is not None:
        exact_trace = sp.simplify(exact_trace)
    return _Partial(out, traces, trace, exact_trace, vanishing, [], method)


class _ExactNumbers:
    """Numbers of the exact route at ``wp`` working digits: a sympy expression (the symbol
    γ_d of :mod:`~fltheory.papers.rf_spectrum.piecewise` substituted) as an mpmath number, and
    the eigenvalues of a matrix product P·Q."""

    def __init__(self, d: int, wp: int) -> None:
        from fltheory.papers.rf_spectrum.piecewise import gamma_symbol

        self.d, self.wp = d, wp
        self.gamma_value = gamma_symbol(d, wp + 20)

    def num(self, expr: Any, prec: int | None = None) -> Any:
        import sympy as sp

        from fltheory.papers.rf_spectrum.piecewise import GAMMA_D, gamma_symbol

        prec = self.wp + 20 if prec is None else prec
        expr = sp.sympify(expr)
        if expr.has(GAMMA_D):
            expr = expr.subs(GAMMA_D, sp.Float(gamma_symbol(self.d, prec)
                                               if prec > self.wp + 20 else self.gamma_value,
                                               prec))
        with mpmath.workdps(prec):
            return mpmath.mpf(sp.N(expr, prec))

    def matrix_eigs(self, P: Any, Q: Any, size: int, prec: int) -> list[Any]:
        """Eigenvalues of P·Q = those of Lᵀ P L (Q = L Lᵀ), entries and solver at prec."""
        num = self.num
        with mpmath.workdps(prec):
            Pn = mpmath.matrix([[num(P[i, j], prec) for j in range(size)] for i in range(size)])
            Qn = mpmath.matrix([[num(Q[i, j], prec) for j in range(size)] for i in range(size)])
            L = mpmath.cholesky(Qn)
            E = mpmath.eigsy(L.T * Pn * L, eigvals_only=True)
            return sorted((E[i] for i in range(size)), reverse=True)


def _exact_vanishing(parts: Any, parity: int, ls: list[int], label: str) -> list[str]:
    """Why levels vanish, known before any is computed: σ's parity, σ a polynomial."""
    vanishing: list[str] = []
    if parity and len(ls) > 1 and ls[1] - ls[0] == 1:
        vanishing.append(_parity_reason(parity))
    if parts.polynomial:
        p = max(parts.degrees) if parts.degrees else 0
        vanishing.append(f"{label} is a polynomial of degree {p}: μ_k = 0 for k > {p} and "
                         f"c_(k,l) = 0 for k < l, so every l > {p} vanishes and R_l has rank "
                         "at most ⌊(p − l)/2⌋ + 1")
    return vanishing


def _exact_levels(parts: Any, parity: int, d: int, s2: Any, l: int, jmax: int, dps: int,
                  method: str, nums: _ExactNumbers) -> tuple[list[RFLevel], Any]:
    """λ_(l,j) for j = 0..jmax and the trace of R_l: zero when the radial matrices are empty
    (parity, degrees), zero beyond their rank; a DomainError when an eigenvalue is confirmed
    to fewer than ``dps`` digits."""
    from fltheory.papers.rf_spectrum.piecewise import radial_matrices

    N = multiplicity(d, l)
    degrees, _, P, Q = radial_matrices(parts, d, s2, l)
    size = len(degrees)
    if size == 0:
        why = (_parity_reason(parity) if parity and (l % 2 == (1 if parity == 1 else 0))
               else f"b_(l,n) = E_t[σ_n(t) P_l(t)] = 0 for every homogeneous part σ_n "
                    f"(degrees {parts.degrees}) at l = {l}: the part of σ_n of the parity "
                    f"of l is 0 or c·t^n with n < l, orthogonal to P_l (e.g. relu = "
                    f"(t + |t|)/2: odd l >= 3 see only t/2)")
        return [_level_zero(l, j, N, dps, "zero:parity" if parity and
                            why.startswith("σ is") else "zero:degree", why)
                for j in range(jmax + 1)], mpmath.mpf(0)
    closed_values, values, digits, trace = _exact_eigenvalues(P, Q, size, d, dps, nums)
    levels = []
    for j in range(jmax + 1):
        if j < size:
            with mpmath.workdps(dps):
                value = +values[j]
            closed = closed_values[j] if closed_values is not None else None
            if digits[j] < dps:
                raise DomainError("dps", dps, f"at most {digits[j]} digits here",
                                  reason=f"cannot be reached: λ_({l},{j}) is confirmed to "
                                         f"{digits[j]} digits only (matrix eigenvalues)")
            levels.append(RFLevel(l, j, value, N, True, dps, method, closed))
        else:
            levels.append(_level_zero(
                l, j, N, dps, "zero:rank",
                f"R_{l} has rank {size} (homogeneous degrees {degrees} with b_(l,n) ≠ 0)"))
    return levels, trace


def _exact_eigenvalues(P: Any, Q: Any, size: int, d: int, dps: int, nums: _ExactNumbers
                       ) -> tuple[list[Any] | None, list[Any], list[int], Any]:
    """The eigenvalues of M = P·Q, largest first: (closed forms or None, their values, the
    digits confirmed of each, the trace of M). Closed forms for sizes 1 and 2 (d at most
    ``EXACT_MAX_D``); else the solver twice, the second time with log10(λ_0/λ_last) + 10 more
    digits, keeping the digits on which the two agree."""
    import sympy as sp

    from fltheory.papers.rf_spectrum.piecewise import EXACT_MAX_D

    M = P * Q
    closed_values: list[Any] | None = None
    if d <= EXACT_MAX_D and size <= 2:
        if size == 1:
            closed_values = [sp.expand(sp.gammasimp(M[0, 0]))]
        else:
            x = sp.Symbol("x")
            roots = sp.roots(sp.Poly(M.charpoly(x).as_expr(), x))
            closed_values = [sp.simplify(r) for r, mult in roots.items()
                             for _ in range(mult)]
            closed_values.sort(key=lambda v: -float(sp.N(v, 30)))
    digits = [dps] * size
    wp = nums.wp
    with mpmath.workdps(wp):
        if closed_values is not None:
            values = [nums.num(v) for v in closed_values]
        else:
            # The solver's absolute error ~10^{−prec}·λ_0 costs log10(λ_0/λ_j) digits of
            # λ_j: solve again with that many more digits and keep the agreement.
            rough = nums.matrix_eigs(P, Q, size, wp)
            spread = max(0, int(mpmath.log10(abs(rough[0] / rough[-1])))) \
                if rough[-1] != 0 else wp
            values = nums.matrix_eigs(P, Q, size, wp + spread + 10)
            with mpmath.workdps(wp + spread + 10):
                for j, (a, b) in enumerate(zip(rough, values, strict=True)):
                    agree = dps if a == b else int(mpmath.floor(-mpmath.log10(
                        abs(a - b) / abs(b)))) + spread + 10
                    digits[j] = max(0, min(dps, agree))
        trace = nums.num(M.trace())
    return closed_values, values, digits, trace


def _finish(func: Any, d: int, s: Any, dps: int, lmax: int, jmax: int, method: str,
            levels: list[RFLevel], trace: Any, trace_exact: Any, traces: list[Any],
            captured: Any, vanishing: list[str], notes: Sequence[str],
            digits: tuple[int, int] | None = None) -> RFSpectrum:
    for v in levels:
        if not mpmath.isfinite(v.value):
            raise DomainError("sigma", func.text, "activations with a finite spectrum",
                              reason=f"gives a non-finite λ_({v.l},{v.j})")
    with mpmath.workdps(dps):
        return RFSpectrum(func.text, d, str(s), dps, lmax, jmax, method, tuple(levels), +trace,
                          trace_exact, tuple(+t for t in traces), +captured, tuple(vanishing),
                          tuple(notes), *(digits or (dps, dps)))


#: Below this d the radial law is wide and the Laguerre rule converges slowly (μ_k(r) is not
#: analytic at r = 0 for, e.g., tanh): the trapezoidal rule in log r² is used instead.
_LOG_RULE_D = 200


def _numeric_plan(d: int, lmax: int, jmax: int, dps: int) -> tuple[int, int, int, Any, Any]:
    """(K, n_r, wp, h0, hx) of the first Nyström pass: Mehler truncation K (smallest with
    E|t|^{K+1} <= 10^{−wp}, plus lmax + 2, at most 80), Laguerre nodes n_r (d >= 200) or the
    log-rule step hx (d < 200), working digits wp, z-step h0."""
    from fltheory.papers.rf_spectrum.radial import abs_t_moment_mp

    # λ_{l,j}/λ_{l,0} falls like ~d^{−2j}: the eigen-solver's absolute error 10^{−wp}‖A‖
    # must leave dps digits on the smallest asked eigenvalue.
    wp = dps + _GUARD + jmax * (3 + int(2 * math.log10(d)))
    K = lmax
    with mpmath.workdps(20):
        while K < _KMAX and abs_t_moment_mp(d, K + 1) > mpmath.mpf(10) ** (-wp):
            K += 1
    K = min(_KMAX, K + lmax + 2)
    # Gauss–Laguerre gains ~log10(2d) digits a node (the law's width 1/√(2d) against the
    # distance 1 to r = 0, where μ_k(r) stops being analytic).
    n_r = jmax + 4 + math.ceil(wp / math.log10(2 * d))
    ln10 = mpmath.log(10)
    h0 = mpmath.pi ** 2 / (wp * ln10)
    # log rule: error ~ exp(−2πy/h + α y²/2) over strips |Im x| < y <= π/2 (e^{−e^x} grows
    # like e^{α y²/2} there, α = d/2): h = min(π²/(wp ln 10), π √(2/(α wp ln 10))).
    hx = min(h0, mpmath.pi * mpmath.sqrt(4 / (d * wp * ln10))) if d < _LOG_RULE_D else None
    return K, n_r, wp, h0, hx


def _numeric_work(d: int, s: Any, K: int, n_r: int, wp: int, h0: Any, hx: Any) -> float:
    """Estimated multiply-adds of both passes: radial nodes × z-nodes × (K + 3)."""
    s_val = float(s)
    ln10 = math.log(10)
    if hx is None:
        # ×10: each Laguerre node carries the whole Mehler series (no early stop at small r)
        nodes = 10 * (2.0 * n_r + 6)
        rmax = s_val * math.sqrt(1 + (4 * math.sqrt(d * wp) + 4 * wp + 2 * n_r) / d)
    else:
        width = 2 * (wp + 10) * ln10 / d + math.log(1 + 2 * (wp + 10) * ln10 / d) + 2
        nodes = width / float(hx) * (1 + 1.25)
        rmax = s_val * math.sqrt(1 + 2 * (wp + 10) * ln10 * 2 / d + 4 * math.sqrt(wp / d))
    zmax = 2 * math.sqrt((wp + 10) * ln10) + 2
    znodes = zmax * max(1.0, 2 * rmax) / float(h0) * 1.25
    return nodes * znodes * (K + 3)


def _numeric_part(func: Any, expr: Any, parity: int, d: int, s: Any, ls: list[int], jmax: int,
                  dps: int, strict: bool = True) -> _Partial:
    """The levels of the degrees ``ls`` of a smooth part of σ by the Nyström route: two passes
    (:func:`_nystrom_passes`), each λ_(l,j) with the digits on which they agree
    (:func:`_nystrom_levels`), the kernel's trace likewise; a value short of ``dps`` digits is a
    DomainError when ``strict``, else a note."""
    first, second, K, wp, hx, use_float = _nystrom_passes(func, expr, parity, d, s, ls, jmax,
                                                          dps)
    out, traces, worst = _nystrom_levels(first, second, d, ls, jmax, dps, wp, K)
    short = []
    if worst is not None and not strict:
        short.append(f"λ_({worst[0]},{worst[1]}) is confirmed to {worst[2]} digits (each value "
                     "is shown with the digits it is confirmed to)")
    elif worst is not None:
        l, j, digits = worst
        raise DomainError("dps", dps, f"at most {digits} digits for this σ, d and s (or dps "
                                      "= None, without --dps: each value with its own digits)",
                          reason=f"cannot be reached: λ_({l},{j}) is confirmed to {digits} "
                                 f"digits only (Nyström with {second.nodes} radial nodes, "
                                 f"Mehler series to k = {K})")
    with mpmath.workdps(wp + 10):
        diff = abs(first.kernel_trace - second.kernel_trace)
        trace_digits = dps if diff == 0 else \
            int(min(dps, max(0, mpmath.floor(-mpmath.log10(diff / abs(second.kernel_trace))))))
    if trace_digits < dps and not strict:
        short.append(f"the trace E_r E_z σ(rz)² is confirmed to {trace_digits} digits")
    elif trace_digits < dps:
        raise DomainError("dps", dps, f"at most {trace_digits} digits for this σ, d and s",
                          reason=f"cannot be reached: the trace E_r E_z σ(rz)² is confirmed to "
                                 f"{trace_digits} digits only")
    rule = ("Gauss–Laguerre in r²" if hx is None else "trapezoid in log r²") + \
        (", float64" if use_float else "")
    kind = {1: "even", -1: "odd"}[parity]
    notes = [f"Nyström on the {kind} part of σ ({rule}): {first.nodes} and {second.nodes} "
             f"radial nodes, Mehler series to k = {K}, {wp} and {wp + 10} working digits; each "
             "λ agrees on the digits shown and the truncation bound E|t|^(K+1)·(Parseval "
             "tail) is below them", *short]
    with mpmath.workdps(wp + 10):
        traces_digits = {l: _agreement(first.traces[l], second.traces[l],
                                       second.truncation[l], dps) for l in ls}
    return _Partial(out, traces, second.kernel_trace, None, [], notes, "nystrom", trace_digits,
                    traces_digits)


def _nystrom_passes(func: Any, expr: Any, parity: int, d: int, s: Any, ls: list[int],
                    jmax: int, dps: int) -> tuple[Any, Any, int, int, Any, bool]:
    """The two Nyström passes of :func:`_numeric_part` (the second with 6 more radial nodes, a
    z-step 4/5 as long and 10 more digits), in float64 when ``dps`` <= ``FLOAT_MAX_DPS``, else
    in mpmath (the first pass redone with more digits when its eigenvalues spread wider than
    the guard); refused for σ with kinks and above ``MAX_WORK``. Returns (first, second, K,
    wp, hx, float64 or not) with K, hx of :func:`_numeric_plan` and the first pass's wp."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.hermite.quadrature import kink_points
    from fltheory.papers.rf_spectrum.radial import nystrom

    if kink_points(expr):
        raise DomainError("sigma", func.text, "smooth activations, or activations that are "
                          "polynomial on each half-line (exact route)",
                          reason="has kinks but is not polynomial on each half-line: the "
                                 "Nyström route (trapezoidal rule in z) needs a smooth σ")
    lmax = max(ls, default=0)  # no l of this parity asked: its trace is still needed
    K, n_r, wp, h0, hx = _numeric_plan(d, lmax, jmax, dps)
    use_float = dps <= FLOAT_MAX_DPS
    work = _numeric_work(d, s, K, n_r, wp, h0, hx) / (_FLOAT_SPEEDUP if use_float else 1)
    check_cost(f"d = {d} (lmax = {lmax}, jmax = {jmax}, dps = {dps})", work, MAX_WORK,
               "multiply-adds (Nyström)",
               "lower dps or lmax, or raise d: small d needs many Mehler terms and nodes")
    s2 = mpmath.mpf(sp.N(s**2, wp + 20))
    finer = mpmath.mpf(4) / 5
    if use_float:
        from fltheory.papers.rf_spectrum.radial import nystrom_float

        first = nystrom_float(expr, d, s2, ls, K, n_r, h0, wp, parity, hx)
        second = nystrom_float(expr, d, s2, ls, K, n_r + 6, h0 * finer, wp + 10, parity,
                               None if hx is None else hx * finer)
    else:
        fn = sp.lambdify(Z, expr, modules="mpmath")
        first = nystrom(fn, d, s2, ls, K, n_r, h0, wp, parity, hx)
        spread = max((int(mpmath.log10(e[0] / e[min(jmax, len(e) - 1)])) for e in
                      first.eigenvalues.values() if e and e[0] > 0 and
                      e[min(jmax, len(e) - 1)] > 0), default=0)
        if spread > wp - dps - 10:  # the a-priori guard was short: redo with enough digits
            wp = dps + _GUARD + spread
            first = nystrom(fn, d, s2, ls, K, n_r, h0, wp, parity, hx)
        second = nystrom(fn, d, s2, ls, K, n_r + 6, h0 * finer, wp + 10, parity,
                         None if hx is None else hx * finer)
    return first, second, K, wp, hx, use_float


def _nystrom_levels(first: Any, second: Any, d: int, ls: list[int], jmax: int, dps: int,
                    wp: int, K: int) -> tuple[dict[int, list[RFLevel]], dict[int, Any],
                                              tuple[int, int, int] | None]:
    """λ_(l,j) of the second pass, each with the digits the first confirms (the truncation
    bound added), the radial traces, and the least confirmed level (l, j, digits) short of
    ``dps`` (None if none); a j beyond the Mehler truncation's rank is a DomainError."""
    out: dict[int, list[RFLevel]] = {}
    traces: dict[int, Any] = {}
    worst: tuple[int, int, int] | None = None
    for l in ls:
        N = multiplicity(d, l)
        levels = out.setdefault(l, [])
        traces[l] = second.traces[l]
        for j in range(jmax + 1):
            a = first.eigenvalues[l][j] if j < len(first.eigenvalues[l]) else None
            b = second.eigenvalues[l][j] if j < len(second.eigenvalues[l]) else None
            if a is None or b is None:
                raise DomainError("jmax", jmax, f"j < {len(first.eigenvalues[l])} at l = {l}",
                                  reason=f"exceeds the {K}-term Mehler truncation's rank")
            with mpmath.workdps(wp + 10):
                err = abs(a - b) + second.truncation[l]
                digits = dps if err == 0 or b == 0 else \
                    int(min(dps, max(0, mpmath.floor(-mpmath.log10(err / abs(b))))))
            if digits < dps and (worst is None or digits < worst[2]):
                worst = (l, j, digits)
            with mpmath.workdps(dps):
                levels.append(RFLevel(l, j, +b, N, False, digits, "nystrom"))
    return out, traces, worst


def _agreement(a: Any, b: Any, bound: Any, dps: int) -> int:
    """Significant digits of ``b`` confirmed by a second value ``a`` and an error ``bound``
    (at most ``dps``; 0 when the error reaches |b|)."""
    err = abs(a - b) + bound
    if err == 0:
        return dps
    if b == 0:
        return 0
    return int(min(dps, max(0, mpmath.floor(-mpmath.log10(err / abs(b))))))


#: Below this d the smooth part of σ goes to the Gram route (:mod:`rf_gram`: sphere
#: factorisation, no Mehler series), whose float64 pass serves dps <= GRAM_FLOAT_MAX_DPS.
GRAM_MAX_D = 200
#: Highest dps the float64 Gram route is used for alone (short of dps: Nyström); above it, up
#: to GRAM_MP_MAX_DPS, the mpmath Gram route (the float64 one tried first up to
#: GRAM_FLOAT_TRY_DPS).
GRAM_FLOAT_MAX_DPS = 11
#: Up to this dps the float64 Gram route is tried before the mpmath one (β summed
#: compensated, it confirms 12 digits on tanh at d = 3, s = 1: λ_(1,2) and λ_(3,2) within
#: 5e-13, measured; 12 digits also on tanh at d = 5 and erf at d = 3, never 13; ~0.1 s
#: against ~2 s for the two mpmath passes); short of dps, the mpmath route.
GRAM_FLOAT_TRY_DPS = 12
#: Highest dps of the mpmath Gram route (tanh, d = 3, lmax 4, jmax 2, dps 30: ~12 s of CPU for
#: both passes, measured on the shared 2-core machine).
GRAM_MP_MAX_DPS = 30
#: Bound on the mpmath Gram route's σ evaluations (both passes), checked before it starts
#: (tanh, d = 3, dps 30: estimate 4.5e5, 12 s).
GRAM_MP_MAX_WORK = 2.5e6


def _kinks_of(expr: Any) -> bool:
    from fltheory.engine.hermite.quadrature import kink_points

    return bool(kink_points(expr))


def _gram_mp_plan(d: int, s2: float, wp: int) -> tuple[float, float, float]:
    """(h, ht, estimated σ evaluations of both passes) of the mpmath Gram route at ``wp``
    digits: the log rule's step as in :func:`_numeric_plan`, the double-exponential step
    π²/(wp ln 10) (error ~ e^{−π²/ht}), the radial range where the Gamma(d/2) weight is
    above 10^{−wp−2}."""
    ln10 = math.log(10)
    h = min(math.pi**2 / (wp * ln10), math.pi * math.sqrt(4 / (d * wp * ln10)))
    ht = math.pi**2 / (wp * ln10)
    alpha = d / 2
    span = (wp + 2) * ln10 / alpha + math.log(alpha + (wp + 2) * ln10) + 2
    n = span / h
    u_max = alpha + (wp + 2) * ln10 + 2 * math.sqrt(alpha * (wp + 2) * ln10)
    a_max = 2 * math.sqrt(s2 / d) * u_max
    # the rule at a has ~ 8/ht·(1 + log(1 + a)) nodes; a grows geometrically with the index
    evals = (2 * n) * 8 / ht * (1 + math.log(1 + a_max) / 4)
    return h, ht, evals * (1 + 1 / 0.75**2)


def _gram_mp_part(func: Any, expr: Any, parity: int, d: int, s: Any, ls: list[int],
                  jmax: int, dps: int) -> _Partial:
    """The levels of a smooth part of σ at small d by :func:`rf_gram.gram_mp` (mpmath, for
    dps above what float64 confirms), two passes (steps ×3/4, five more digits) compared and
    the Rayleigh–Ritz error bound added; fewer than ``dps`` digits is a DomainError."""
    first, second, wp = _gram_mp_passes(expr, d, s, ls, jmax, dps)
    out: dict[int, list[RFLevel]] = {}
    traces: dict[int, Any] = {}
    traces_digits: dict[int, int] = {}
    for l in ls:
        N = multiplicity(d, l)
        levels = out.setdefault(l, [])
        traces[l] = second.traces[l]
        with mpmath.workdps(wp + 15):
            traces_digits[l] = _agreement(first.traces[l], second.traces[l], 0, dps)
        for j in range(jmax + 1):
            if j >= len(second.eigenvalues[l]):
                raise DomainError("jmax", jmax, f"j < {len(second.eigenvalues[l])} at l = {l}",
                                  reason=f"exceeds the {second.nodes} radial nodes")
            a, b = first.eigenvalues[l][j], second.eigenvalues[l][j]
            with mpmath.workdps(wp + 15):
                digits = _agreement(a, b, first.ritz_error[l][j] + second.ritz_error[l][j],
                                    dps)
            if digits < dps:
                raise DomainError("dps", dps, f"at most {digits} digits for this σ, d and s",
                                  reason=f"cannot be reached: λ_({l},{j}) is confirmed to "
                                         f"{digits} digits only (mpmath Gram route)")
            with mpmath.workdps(dps):
                levels.append(RFLevel(l, j, +b, N, False, digits, "gram"))
    with mpmath.workdps(wp + 15):
        trace_digits = _agreement(first.kernel_trace, second.kernel_trace, 0, dps)
    if trace_digits < dps:
        raise DomainError("dps", dps, f"at most {trace_digits} digits for this σ, d and s",
                          reason=f"cannot be reached: the trace E_r E_z σ(rz)² is confirmed "
                                 f"to {trace_digits} digits only (mpmath Gram route)")
    kind = {1: "even", -1: "odd"}[parity]
    notes = [f"Gram route on the {kind} part of σ (sphere factorisation, no Mehler series; "
             f"mpmath at {wp} and {wp + 5} digits): trapezoid in log r² and log ‖x‖² with "
             f"{first.nodes} and {second.nodes} nodes, double-exponential rule in t with up to "
             f"{first.angle_nodes} and {second.angle_nodes}; each λ is shown to the digits on "
             "which the two agree, beyond the Rayleigh–Ritz error bound"]
    return _Partial(out, traces, second.kernel_trace, None, [], notes, "gram", trace_digits,
                    traces_digits)


def _gram_mp_passes(expr: Any, d: int, s: Any, ls: list[int], jmax: int, dps: int
                    ) -> tuple[Any, Any, int]:
    """The two passes of :func:`_gram_mp_part`: the first at wp = dps + 12 digits (redone
    with more when its eigen-spread b_0/b_jmax costs more than 4 digits), the second with
    steps ×3/4 and five more digits; refused above ``GRAM_MP_MAX_WORK``. Returns (first,
    second, the first's wp)."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.papers.rf_spectrum.gram import gram_mp

    s2f = float(sp.N(s**2, 20))
    # the eigen-spread b_0/b_jmax (λ = b²) costs its digits of the smallest λ: 4 assumed, the
    # first pass redone if it is larger
    wp = dps + 8 + 4
    h, ht, work = _gram_mp_plan(d, s2f, wp)
    check_cost(f"d = {d} (dps = {dps})", work, GRAM_MP_MAX_WORK, "σ evaluations (Gram, mpmath)",
               "lower dps, or leave --dps out (each value with its own digits)")
    fn = sp.lambdify(Z if expr.has(Z) else sp.Symbol("z", real=True), expr, modules="mpmath")
    with mpmath.workdps(wp + 10):
        s2 = mpmath.mpf(sp.N(s**2, wp + 20))
        first = gram_mp(fn, d, s2, ls, jmax, mpmath.mpf(h), mpmath.mpf(ht), wp)
        spread = max((int(mpmath.log10(e[0] / e[-1]) / 2) + 1 for e in
                      first.eigenvalues.values() if e and e[-1] > 0), default=0)
        if spread > 4:
            wp = dps + 8 + spread
            h, ht, _ = _gram_mp_plan(d, s2f, wp)
            first = gram_mp(fn, d, s2, ls, jmax, mpmath.mpf(h), mpmath.mpf(ht), wp)
    with mpmath.workdps(wp + 15):
        s2 = mpmath.mpf(sp.N(s**2, wp + 25))
        second = gram_mp(fn, d, s2, ls, jmax, mpmath.mpf(h) * 3 / 4, mpmath.mpf(ht) * 3 / 4,
                         wp + 5)
    return first, second, wp


def _gram_part(func: Any, expr: Any, parity: int, d: int, s: Any, ls: list[int], jmax: int,
               dps: int, strict: bool) -> _Partial | DomainError | None:
    """The levels of a smooth part of σ at small d by :func:`rf_gram.gram_float`, two orders
    compared; None when float64 overflows (the caller falls back to Nyström); with ``strict``
    and fewer than ``dps`` digits confirmed, the DomainError to raise if no other route can
    do better."""
    from fltheory.engine.hermite.quadrature import kink_points

    if kink_points(expr):
        return None  # refused by the Nyström route with its reason
    passes = _gram_float_passes(expr, d, s, ls)
    if passes is None:
        return None
    first, second = passes
    out, traces, traces_digits, worst = _gram_levels(first, second, d, ls, jmax, dps)
    trace = mpmath.mpf(second.kernel_trace)
    trace_digits = _agreement(mpmath.mpf(first.kernel_trace), trace, trace * 1e-14,
                              min(dps, 15))
    if strict and worst is not None:
        l, j, digits = worst
        return DomainError("dps", dps, f"at most {digits} digits for this σ, d and s (or dps = "
                           "None, without --dps: each value with its own digits)",
                           reason=f"cannot be reached: λ_({l},{j}) is confirmed to {digits} "
                                  "digits only (float64 Gram route; the mpmath route would "
                                  "exceed its work bound here)")
    if strict and trace_digits < dps:
        return DomainError("dps", dps, f"at most {trace_digits} digits for this σ, d and s",
                           reason=f"cannot be reached: the trace E_r E_z σ(rz)² is confirmed "
                                  f"to {trace_digits} digits only (float64 Gram route)")
    kind = {1: "even", -1: "odd"}[parity]
    notes = [f"Gram route on the {kind} part of σ (sphere factorisation, no Mehler series; "
             f"float64): trapezoid in log r² and log ‖x‖² with {first.nodes} and "
             f"{second.nodes} nodes, Gauss–Jacobi in t with {first.angle_nodes} and "
             f"{second.angle_nodes}; each λ is shown to the digits on which the two agree"]
    return _Partial(out, traces, trace, None, [], notes, "gram", trace_digits, traces_digits)


def _gram_float_passes(expr: Any, d: int, s: Any, ls: list[int]) -> tuple[Any, Any] | None:
    """The two float64 passes of :func:`_gram_part`: the log rule's step h (as
    :func:`_numeric_plan`'s hx at 22 digits) and 3/4 h, Gauss–Jacobi nodes in t for σ(a t) up
    to the radial node of weight 1e-16 (1.5 times as many in the second); None when float64
    overflows."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.papers.rf_spectrum.gram import gram_float

    fn = sp.lambdify(Z if expr.has(Z) else sp.Symbol("z", real=True), expr,
                     modules=["scipy", "numpy"])
    s2 = float(sp.N(s**2, 20))
    # the step of the log rule for 10^{−wp} (as _numeric_plan's hx), wp = 22 > 16 so that
    # the first pass is already converged to float64 and the comparison measures rounding
    wp = 22
    ln10 = math.log(10)
    h = min(math.pi**2 / (wp * ln10), math.pi * math.sqrt(4 / (d * wp * ln10)))
    passes: list[Any] = []
    try:
        for step, cut in ((h, 1e-30), (0.75 * h, 1e-34)):
            # Gauss–Jacobi in t: σ(a t) analytic within ~1/a of [−1, 1] needs ~a·16·ln10/π
            # nodes, a = 2 s u/√d at the radial node u of weight 1e-16 (beyond, √ω·error
            # is below float64's rounding)
            u_max = d / 2 + 2 * math.sqrt(d / 2 * 16 * ln10) + 16 * ln10
            a_max = 2 * math.sqrt(s2) * u_max / math.sqrt(d)
            n_t = int(min(3000, 40 + math.ceil(a_max * 16 * ln10 / (2 * math.pi))))
            if passes:
                n_t = int(1.5 * n_t)
            passes.append(gram_float(fn, d, s2, ls, step, n_t, cut))
    except (ArithmeticError, FloatingPointError, OverflowError):
        return None
    return passes[0], passes[1]


def _gram_levels(first: Any, second: Any, d: int, ls: list[int], jmax: int, dps: int
                 ) -> tuple[dict[int, list[RFLevel]], dict[int, Any], dict[int, int],
                            tuple[int, int, int] | None]:
    """λ_(l,j) of the second float64 pass, each with the digits (at most 15) on which the two
    passes agree within its rounding bound (the difference kept as its error where none is
    confirmed); the radial traces and their digits; the least confirmed level (l, j, digits)
    short of ``dps`` (None if none). A j beyond the radial nodes is a DomainError."""
    out: dict[int, list[RFLevel]] = {}
    traces: dict[int, Any] = {}
    traces_digits: dict[int, int] = {}
    worst: tuple[int, int, int] | None = None
    for l in ls:
        N = multiplicity(d, l)
        levels = out.setdefault(l, [])
        traces[l] = mpmath.mpf(second.traces[l])
        traces_digits[l] = _agreement(mpmath.mpf(first.traces[l]), traces[l],
                                      mpmath.mpf(second.traces[l]) * 1e-14, min(dps, 15))
        for j in range(jmax + 1):
            if j >= len(second.eigenvalues[l]):
                raise DomainError("jmax", jmax, f"j < {len(second.eigenvalues[l])} at l = {l}",
                                  reason=f"exceeds the {second.nodes} radial nodes")
            a, b = first.eigenvalues[l][j], second.eigenvalues[l][j]
            digits = _agreement(mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(second.rounding[l][j]),
                                min(dps, 15))
            if digits < dps and (worst is None or digits < worst[2]):
                worst = (l, j, digits)
            error = None if digits else mpmath.mpf(abs(a - b) + second.rounding[l][j])
            levels.append(RFLevel(l, j, mpmath.mpf(b), N, False, digits, "gram", error=error))
    return out, traces, traces_digits, worst


def kernel_trace(sigma: Any, d: int, scale: Any = 1, dps: int = 30) -> Any:
    """E_w K(w, w) = E_r E_z σ(rz)², the m → ∞ limit of trace J (= Σ_l N(d, l) Σ_j λ_{l,j}).

    Arguments as in :func:`spectrum`. Returns an mpmath number at ``dps`` digits: exact
    (Gamma ratios) for σ polynomial on each half-line, else Gauss–Laguerre in r with the
    trapezoidal rule in z.

    >>> kernel_trace("relu", 5, 2)
    mpf('2.0')
    """
    return spectrum(sigma, d, scale, lmax=0, jmax=0, dps=dps).trace


@dataclass(frozen=True)
class RFApproach(ShowsTable):
    """:func:`large_d_approach`: for each d, λ_{l,0}(d), the rank-one limit form
    c_{l,l}(d) μ_l(s)², their ratio − 1, and λ_{l,1}/λ_{l,0} (mpmath; None where undefined)."""

    sigma: str
    l: int
    scale: str
    mu_l: Any
    rows: tuple[tuple[int, Any, Any, Any, Any], ...]

    def table(self) -> Table:
        """d, λ_{l,0}, c_{l,l} μ_l(s)², relative gap, λ_{l,1}/λ_{l,0}."""
        def shown(x: Any) -> str:
            return "-" if x is None else str(mpmath.nstr(x, 8))

        return Table(columns=["d", "λ_l,0", "c_ll μ_l(s)²", "λ/limit − 1", "λ_l,1/λ_l,0"],
                     rows=[[str(d), *(shown(x) for x in rest)] for d, *rest in self.rows],
                     caption=(f"Approach to the rank-one large-d limit, σ = {self.sigma}, "
                              f"l = {self.l}, s = {self.scale}"))


def large_d_approach(sigma: Any, l: int, d_values: Sequence[int], scale: Any = 1,
                     dps: int = 15) -> RFApproach:
    """λ_{l,0}(d) against its large-d form c_{l,l}(d) μ_l(s)² (the radial law concentrates
    at r = s, R_l tends to rank one), and λ_{l,1}/λ_{l,0} → 0, for each d in ``d_values``.

    ``l`` in [0, 60]; ``d_values``: 1 to 20 integers d >= 2; other arguments as in
    :func:`spectrum`. μ_l(s) comes from the Hermite engine (exact where it can). Returns an
    :class:`RFApproach` (a table in a notebook).

    For σ = z², l = 0: λ_{0,0} = E[r⁴](1 + 2/d) = (1 + 2/d)², limit μ_0(1)² = 1, gap
    4/d + 4/d²:

    >>> a = large_d_approach("z**2", 0, [10, 1000], dps=10)
    >>> [mpmath.nstr(row[3], 4) for row in a.rows]
    ['0.44', '0.004004']
    """
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.hermite import coefficient
    from fltheory.papers.rf_spectrum.radial import funk_hecke

    l = read_count(l, "l", 0, MAX_L)
    values = list(d_values)
    if not 1 <= len(values) <= 20:
        raise DomainError("d_values", len(values), "1 to 20 dimensions")
    ds = [_check_d(d) for d in values]
    dps = read_dps(dps)
    s = _scale(scale)
    func = _sympy_function(sigma)
    mu = coefficient(func.expr.subs(Z, s * Z), l, dps=dps)
    with mpmath.workdps(dps + 5):
        mu_l = mpmath.mpf(sp.N(mu.exact, dps + 5)) if mu.exact is not None else mu.numeric
    rows = []
    for d in ds:
        spec = spectrum(func, d, s, lmax=l, jmax=1, dps=dps)
        lam0, lam1 = spec.eigenvalue(l, 0), spec.eigenvalue(l, 1)
        c = funk_hecke(d, l, l)
        with mpmath.workdps(dps + 5):
            limit = mpmath.mpf(c.numerator) / c.denominator * mu_l**2
            gap = lam0 / limit - 1 if limit != 0 else None
            ratio = lam1 / lam0 if lam0 != 0 else None
        rows.append((d, lam0, limit, gap, ratio))
    return RFApproach(func.text, l, str(s), mu_l, tuple(rows))


_ = Fraction  # re-exported type used in annotations of helpers
