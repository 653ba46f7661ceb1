r"""Which terms of the second update are outliers for a given activation σ (and targets).

Λ(α1, α2; L) (:mod:`fltheory.papers.twostep.phases`) counts the terms k = 1, …, Λ of the second
update whose N-exponent α2 + k(α1 − 1/2) is positive. Each is an outlier only if its spike is
non-zero, and that depends on σ. The derivation (normalisation of
:mod:`fltheory.papers.twostep.sim`;
the notation of :mod:`fltheory.papers.twostep.terms`):

Row j of the second gradient is (a_j/(n√N)) Σ_i σ'(z_ji + ε a_j D̃_ji) y_i x_i with ε = η1/√N,
z_ji = w0_j·x_i ≈ N(0, 1) and D̃_ji = ψ2 σ'(z_ji) y_i + ξ_ji + r_i (reused batch; without the
first, the sample's own contribution, for a fresh one), r_i = μ_σ b·x_i (b = Xᵀy/n: its part
along the targets and a data-noise part common to all neurons), ξ_ji a neuron-specific Gaussian
of variance ψ1 (E[σ'²] − μ_σ²) E[y²], μ_σ = E[σ'(z)] = μ_1(σ). Taylor expansion in ε a_j gives
the k-th term, with row profile a_j^{k+1} and right vector u_k = (1/n) Σ_i h_k(i) x_i,

.. math::

    h_k(i) = \frac{y_i}{k!} \sum_{p=0}^{k} \binom{k}{p} \psi_2^p\, M_{k,p}\,
             \mathbb{E}_\xi\bigl[(\xi + r_i)^{k-p}\bigr],

    M_{k,p} = \mathbb{E}_z\bigl[\sigma^{(k+1)}(z)\, \sigma'(z)^p\bigr],
    \qquad M_{k,0} = \sqrt{(k+1)!}\, \mu_{k+1}(\sigma) \quad \text{(Stein's lemma)}

(only p = 0 for a fresh batch). Its spike is (η2 ε^k/√N) a^{k+1} u_kᵀ, of norm
N^{α2 + k(α1 − 1/2)} √((2k+1)!!) ‖u_k‖ with ‖u_k‖² ≈ Σ_l C_k(β_l)² + ψ2 E[h_k²] (the
target part and the data-noise part). So **term k is an outlier iff its exponent is > 0 and
h_k ≢ 0**. h_k is a polynomial in (y, r) whose y^{p+1}-coefficient is C(k, p) ψ2^p M_{k,p}
P_{k−p}(r) with P_m(r) = E[(ξ + r)^m] monic of degree m in r; (y, r) has a joint density when
μ_σ ≠ 0 (r contains the Gaussian data-noise part), so

.. math::

    h_k \not\equiv 0 \iff M_{k,p} \neq 0 \text{ for some } p
    \quad (p = 0 \text{ only for a fresh batch}),

and when μ_σ = 0 (r ≡ 0, no one-step spike) additionally k − p even (E[ξ^{k−p}] ≠ 0). In
particular: a fresh batch keeps term k iff μ_{k+1}(σ) ≠ 0 (ReLU: μ_3 = μ_5 = … = 0 removes k =
2, 4, …); an odd σ has M_{k,p} = 0 for every odd k (σ^{(k+1)} odd, σ' even): the expected update
is odd in a_j at every order, its even profiles a², a⁴, … vanish, in both batch modes.

Targets. The count does not depend on the targets (for a y with at least k + 2 values): a term's
spike always has the data-noise part. What the targets decide is the *alignment*: target
direction β_l is in the spike of term k iff C_k(β_l) = E[h_k s_l] ≠ 0 (the constant of
:func:`fltheory.papers.twostep.terms.term_prediction`, here for any smooth σ). With several
targets each term is still ONE outlier (one row profile a^{k+1}, one right vector u_k, which mixes
the target directions it reaches): the effective count is the number of terms 1 <= k <= Λ with
h_k ≢ 0, plus the one-step spike when μ_1(σ) ≠ 0; per target, the report lists the terms that
carry it.

Scope. When σ' jumps (ReLU, leaky ReLU, |z|) and the batch is reused, the self-term
ψ2 σ'(z) y jumps at the kink and the update is not one power series in ε a_j: it is a one-sided
expansion, whose term k has an a^{k+1} part (the rule above with the symmetric moments
E_sym[σ^{(k+1)}σ'^p], σ'^p at a kink = the mean of its one-sided values) and an |a|a^k part,
each one outlier; derived in :mod:`fltheory.papers.twostep.kinks` for piecewise-linear σ (a σ'
that jumps and is not constant between its jumps is refused). A fresh batch needs no such
care: Φ(t) = E σ'(z + t) is smooth and its Taylor coefficients are the M_{k,0}. A σ with σ' = 0
almost everywhere (sign) gives no gradient and is refused.

Exactness. M_{k,p} = E[σ^{(k+1)} σ'^p] is exact for polynomial σ (sympy) and exactly 0 by
parity when σ^{(k+1)} σ'^p is odd (odd σ, even σ, σ = linear + even such as GELU and softplus;
parities of σ' and σ'' proved by sympy). A smooth non-polynomial σ gets every M_{k,p}, k <= Λ,
from one pass of Taylor jets over a nested trapezoidal rule
(:mod:`fltheory.papers.twostep._moments`: working precision dps + 10, confirmed at dps + 20 on
the coarser step), kept in the run store for the next query. A numeric M is zero when
|M| <= max(10^−dps E|σ^{(k+1)}σ'^p|, 10 × its error bound) — a rule local to these terms (the
Hermite engine has its own). A kinked σ (ReLU) takes M_{k,0} from the Hermite engine
(exact:piecewise), M_{0,p} from mpmath quadrature at dps + 10 and dps + 20 and, k >= 1, p >= 1,
the exact symmetric moment (exact:kink). Every reason
quotes the moments it rests on, to the digits their error bounds confirm (at most 5). A
C_k(β_l) is zero when exactly 0 or, numerically, |C| <= 10^−(dps//2) (the bound of
``fltheory twostep learn``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath
import sympy as sp

from fltheory.args import read_choice, read_count, read_dps, read_rational
from fltheory.engine.functions import Function, Z, parse_function
from fltheory.engine.hermite import coefficient, gauss_moment
from fltheory.exact import INF, DomainError, Infinity, fraction_str
from fltheory.papers.twostep.params import (
    BATCH_PSI,
    BATCHES,
    TwoStepSetting,
    target_texts,
)
from fltheory.papers.twostep.phases import LambdaResult, PhaseRegion, lambda_of, phase_of
from fltheory.papers.twostep.terms import TwoStepModel, _expect, _symbols
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = ["KMAX", "EffectiveOutliers", "EffectivePhase", "SpikePresence", "TermOutlier",
           "derivative_moment", "effective_outliers", "effective_phase", "effective_phase_of",
           "outliers_of", "spike_presence", "term_constants"]

#: largest term index examined (M_{k,p} needs σ^{(k+1)}; beyond this Λ is reported as generic)
KMAX = 12


@dataclass(frozen=True)
class TermOutlier:
    """Term k of the second update: its exponent and exponent status (outlier / boundary),
    whether its spike is non-zero (``present``; None: not covered), why, and the constants
    C_k(β_l) along the target directions with the indices l where they are non-zero."""

    k: int
    exponent: Fraction
    status: str
    present: bool | None
    reason: str
    constants: tuple[Any, ...] = ()
    aligned: tuple[int, ...] = ()
    #: outliers of this term when present: 1, or 2 for a kinked σ with a reused batch whose
    #: a^(k+1) and |a|a^k parts are both non-zero (:mod:`fltheory.papers.twostep.kinks`)
    parts: int = 1
    #: C_k^odd(β_l) of the |a|a^k part (kinked σ, reused batch; () otherwise, None: several
    #: targets, not computed)
    odd_constants: tuple[Any, ...] | None = ()


@dataclass(frozen=True)
class EffectiveOutliers(ShowsTable):
    """The generic Λ and the effective outlier count of W2 for σ (and targets): see
    :func:`effective_outliers`."""

    sigma: str
    targets: tuple[str, ...]
    batch: str
    generic: LambdaResult
    one_step: bool
    one_step_reason: str
    terms: tuple[TermOutlier, ...]
    odd: bool
    dps: int
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """One line: :meth:`summary` (the reasons are in :meth:`table`)."""
        return f"EffectiveOutliers({self.summary()})"

    @property
    def count(self) -> int | None:
        """Terms 1 <= k <= Λ whose spike is non-zero (None when one is not covered)."""
        if any(t.present is None for t in self.terms):
            return None
        return sum(t.parts for t in self.terms if t.present)

    @property
    def outliers_of_w2(self) -> int | None:
        """The one-step spike (if μ_1(σ) ≠ 0) plus :attr:`count`."""
        return None if self.count is None else int(self.one_step) + self.count

    @property
    def present_ks(self) -> list[int]:
        """The terms k <= Λ that are outliers (boundary terms included, as Λ includes them)."""
        return [t.k for t in self.terms if t.present]

    def table(self) -> Table:
        """One row per term k = 1..Λ: exponent, status, spike non-zero, targets carried, why.

        >>> r = effective_outliers("2/5", "3/10", "tanh", dps=15)
        >>> [row[3] for row in r.table().rows]
        ['no', 'yes', 'no']
        """
        rows = []
        for t in self.terms:
            present = "not covered" if t.present is None else ("yes" if t.present else "no")
            carried = ", ".join(f"β{i + 1}" for i in t.aligned) if self.targets else "-"
            rows.append([str(t.k), fraction_str(t.exponent), t.status, present,
                         carried or "none", t.reason])
        return Table(columns=["k", "exponent", "status", "spike ≠ 0", "targets", "why"],
                     rows=rows, caption=self.summary(), label="tab:fltheory-effective-outliers",
                     align="rrlllp{7cm}")

    def summary(self) -> str:
        """One sentence: generic and effective count."""
        g = self.generic
        head = (f"σ = {self.sigma} ({self.batch} batch): generic Λ = {g.value}, ")
        if self.count is None:
            return head + "effective count not covered (see the terms)"
        ks = ", ".join(map(str, self.present_ks)) or "none"
        return (head + f"effective {self.count} (terms k = {ks}); W2 has "
                f"{int(self.one_step)} + {self.count} = {self.outliers_of_w2} outliers")


def _kinks(expr: sp.Expr) -> list[Any]:
    """Real points where σ' jumps (arguments of DiracDelta in σ''), as mpmath numbers."""
    points = []
    for delta in sp.diff(expr, Z, 2).atoms(sp.DiracDelta):
        try:
            roots = sp.solve(delta.args[0], Z)
        except NotImplementedError:
            raise DomainError("sigma", str(expr), "a σ whose kinks sympy can locate (write "
                              "nested Max/Min as a sum of relu terms)",
                              reason=f"has a kink at the zeros of {delta.args[0]}, which sympy "
                                     "cannot solve") from None
        for root in roots:
            if root.is_real:
                points.append(mpmath.mpf(sp.N(root, 30)))
    return sorted(points)


def _is_odd(expr: sp.Expr) -> bool:
    return _parity(expr) == -1


def _quad(expr: sp.Expr, dps: int, points: list[Any]) -> Any:
    fn = sp.lambdify(Z, expr.rewrite(sp.Piecewise), "mpmath")
    with mpmath.workdps(dps):
        return mpmath.quad(lambda x: fn(x) * mpmath.npdf(x), [-mpmath.inf, *points, mpmath.inf])


def derivative_moment(sigma: str | Function, k: int, p: int, dps: int = 30) -> tuple[Any, str]:
    r"""M_{k,p} = E[σ^{(k+1)}(z) σ'(z)^p], z ~ N(0, 1), for 0 <= k <= 12, 0 <= p <= k + 1.

    Returns (value, path): p = 0 by Stein's lemma M_{k,0} = √((k+1)!) μ_{k+1}(σ) from the
    Hermite engine (exact sympy value or mpmath at ``dps``, zero flag of the engine); p >= 1
    exactly for polynomial σ, exactly 0 for odd σ and odd k (parity); when σ' jumps (k >= 1,
    σ^{(k+1)} σ'^p a product of distributions) the exact symmetric moment of
    :func:`fltheory.papers.twostep.kinks.symmetric_moment` (σ'^p at a kink = the mean of its
    one-sided values: the a^{k+1} part of the one-sided expansion); else an mpmath quadrature at
    ``dps + 10`` digits, 0 when |M| <= max(10^−dps, 10 |M(dps+10) − M(dps+20)|).

    >>> derivative_moment("z**3", 2, 1)
    (18, 'exact:polynomial')
    >>> derivative_moment("tanh", 1, 2)
    (0, 'exact:parity')
    >>> derivative_moment("relu", 1, 0)[0]
    sqrt(2)/(2*sqrt(pi))
    >>> derivative_moment("relu", 1, 1)
    (sqrt(2)/(4*sqrt(pi)), 'exact:kink')
    """
    dps = read_dps(dps)
    f = sigma if isinstance(sigma, Function) else parse_function(sigma, "sigma")
    return _moment(f, read_count(k, "k", 0, KMAX), read_count(p, "p", 0, KMAX + 1), dps)


def _parity(expr: sp.Expr) -> int:
    """+1 if expr is even in z, −1 if odd, 0 if neither, decided exactly.

    A numeric look at three points first rules a parity out cheaply (f(−x) ∓ f(x) clearly
    non-zero there); only a parity that survives is proved, by sympy's automatic evaluation
    (tanh(−z) = −tanh(z)) or, failing that, by ``simplify``."""
    flipped = expr.subs(Z, -Z)
    for sign in (1, -1):
        d = flipped - sign * expr
        if d == 0:
            return sign
        fn = sp.lambdify(Z, d, "mpmath")
        try:
            with mpmath.workdps(30):
                looks_zero = all(abs(fn(mpmath.mpf(x))) < mpmath.mpf(10) ** -20
                                 for x in ("0.3183", "1.2071", "2.7183"))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, NameError):
            looks_zero = True  # undecided numerically (or a DiracDelta): let sympy decide
        if looks_zero and sp.simplify(d) == 0:
            return sign
    return 0


@lru_cache(maxsize=64)
def _parities(f: Function) -> tuple[int, int]:
    """Parities (+1 even, −1 odd, 0 neither) of σ' and σ''."""
    return _parity(sp.diff(f.expr, Z)), _parity(sp.diff(f.expr, Z, 2))


def _parity_zero(f: Function, k: int, p: int) -> bool:
    """σ^{(k+1)} σ'^p is an odd function, so M_{k,p} = 0 exactly: σ^{(k+1)} has parity
    (parity of σ'')·(−1)^(k−1) for k >= 1 (of σ' for k = 0), σ'^p has parity (parity of σ')^p.
    Covers odd σ (σ' even, σ'' odd), even σ (σ' odd, σ'' even) and σ = linear + even (GELU,
    softplus: σ'' even, σ' of no parity, so only p = 0 decides)."""
    d1, d2 = _parities(f)
    first = d1 if k == 0 else (d2 * (-1) ** (k - 1))
    if first == 0:
        return False
    if p == 0:
        return first == -1
    return d1 != 0 and first * d1**p == -1


#: M_{k,p} tables of smooth non-polynomial σ (Taylor jets + trapezoidal rule), by (σ, dps)
_TABLES: dict[tuple[Function, int], Any] = {}


def _table(f: Function, k: int, dps: int) -> Any:
    """The jets' table of every M_{k',p}, k' <= max(k, 4), or None (σ not covered by the jets:
    the caller integrates one moment at a time)."""
    from fltheory.papers.twostep._moments import cached_moments

    key = (f, dps)
    have = _TABLES.get(key)
    if key in _TABLES and (have is None or have.kmax >= k):
        return have
    _TABLES[key] = cached_moments(f.expr, max(k, 2, have.kmax + 1 if have else 0), dps)
    return _TABLES[key]


#: error bounds of the numeric M_{k,p}, by (σ, k, p, dps) (0 for exact values)
_ERRORS: dict[tuple[Function, int, int, int], Any] = {}


def moment_error(f: Function, k: int, p: int, dps: int) -> Any:
    """The error bound of :func:`derivative_moment`'s value (0 when exact), as an mpf."""
    _moment(f, k, p, dps)
    return _ERRORS.get((f, k, p, dps), mpmath.mpf(0))


@lru_cache(maxsize=4096)
def _moment(f: Function, k: int, p: int, dps: int) -> tuple[Any, str]:
    """:func:`derivative_moment` after its checks (cached: the claims and tables ask the same
    moments for both batch modes and every region).

    Zero rule (local to the two-step terms): exact zeros are polynomial or parity zeros; a
    numeric M is zero when |M| <= max(10^−dps · E|σ^{(k+1)}σ'^p|, 10 × its error bound), i.e.
    when it is indistinguishable from 0 at the requested precision relative to the size of
    its integrand (Hermite-engine coefficients, used for kinked σ, keep the engine's rule)."""
    expr = f.expr
    if expr.is_polynomial(Z):
        integrand = sp.diff(expr, Z, k + 1) * sp.diff(expr, Z) ** p
        poly = sp.Poly(sp.expand(integrand), Z)
        return sum((c * gauss_moment(m[0]) for m, c in poly.terms()), sp.Integer(0)), \
            "exact:polynomial"
    if _parity_zero(f, k, p):
        return sp.Integer(0), "exact:parity"
    kinks = _kinks(expr)
    if not kinks:
        table = _table(f, k, dps)
        if table is not None:
            value, err, scale = table.values[k][p], table.errors[k][p], table.scales[k][p]
            if abs(value) <= max(mpmath.mpf(10) ** (-dps) * scale, 10 * err):
                _ERRORS[(f, k, p, dps)] = err
                return sp.Integer(0), "numeric:zero"
            _ERRORS[(f, k, p, dps)] = err
            return sp.Float(value, dps), "numeric:trapezoid"
    if p == 0:
        c = coefficient(f, k + 1, dps)
        root = sp.sqrt(sp.factorial(k + 1))
        if c.exact is not None:
            return sp.Integer(0) if c.exact == 0 else \
                sp.simplify(c.exact * root), c.path
        with mpmath.workdps(dps + 10):
            _ERRORS[(f, k, p, dps)] = mpmath.mpf(10) ** (-(c.agreement or 0)) * abs(
                c.numeric) * mpmath.sqrt(mpmath.factorial(k + 1))
        return (sp.Integer(0) if c.zero else sp.Float(c.numeric * mpmath.sqrt(
            mpmath.factorial(k + 1)), dps)), c.path
    integrand = sp.diff(expr, Z, k + 1) * sp.diff(expr, Z) ** p
    if kinks and k >= 1:
        from fltheory.papers.twostep.kinks import kink_structure, symmetric_moment

        structure = kink_structure(expr, f.text)  # refuses a σ' not constant between jumps
        assert structure is not None
        value = symmetric_moment(structure, k, p)
        return (sp.Integer(0) if value == 0 else value), "exact:kink"
    v1, v2 = _quad(integrand, dps + 10, kinks), _quad(integrand, dps + 20, kinks)
    if not mpmath.isfinite(v2):
        raise DomainError("sigma", f.text, "functions whose derivatives are integrable",
                          reason=f"gives a non-finite E[σ^({k + 1}) σ'^{p}]")
    _ERRORS[(f, k, p, dps)] = abs(v1 - v2)
    if abs(v2) <= max(mpmath.mpf(10) ** (-dps), 10 * abs(v1 - v2)):
        return sp.Integer(0), "numeric:zero"
    return sp.Float(v2, dps), "numeric:quad"


def _zero(value: Any, dps: int) -> bool:
    if value == 0:
        return True
    return bool(abs(sp.N(value, dps)) <= sp.Float(10) ** (-(dps // 2)))


def _short(value: Any, err: Any = 0) -> str:
    """A value quoted in a reason: 5 significant digits, fewer when its error bound ``err``
    confirms fewer (exact values: 5 digits of their decimal expansion)."""
    try:
        v = mpmath.mpf(sp.N(value, 20))
    except (TypeError, ValueError):
        return str(value)
    if v == 0:
        return "0"
    digits = 5
    if err:
        digits = max(1, min(5, int(mpmath.floor(mpmath.log10(abs(v) / err)))))
    return mpmath.nstr(v, digits)


def _mu_text(f: Function, k: int, dps: int, M0: Any) -> str:
    """'μ_{k+1}(σ) = value' from M_{k,0} = √((k+1)!) μ_{k+1}(σ) (Stein's lemma)."""
    root = sp.sqrt(sp.factorial(k + 1))
    err = moment_error(f, k, 0, dps) / mpmath.sqrt(mpmath.factorial(k + 1))
    return f"μ_{k + 1}(σ) = {_short(M0 / root, err)}"


def _m_text(f: Function, k: int, p: int, dps: int, M: Any) -> str:
    """'μ_{k+1}(σ) = …' for p = 0, else 'E[σ^(k+1)σ'^p] = …'."""
    if p == 0:
        return _mu_text(f, k, dps, M)
    return f"E[σ^({k + 1})σ'^{p}] = {_short(M, moment_error(f, k, p, dps))}"


def _term_presence(f: Function, k: int, batch: str, mu1_zero: bool, odd: bool, dps: int
                   ) -> tuple[bool | None, str, list[Any], int]:
    """Whether term k is present, why, the M_{k,p} computed so far and its number of outliers
    (1; 2 for a kinked σ with a reused batch whose even and odd parts are both non-zero:
    :func:`_kinked_presence`)."""
    if batch == "reused" and _kinks(f.expr):
        return _kinked_presence(f, k, mu1_zero, dps)
    return (*_smooth_presence(f, k, batch, mu1_zero, odd, dps), 1)


def _kinked_presence(f: Function, k: int, mu1_zero: bool, dps: int
                     ) -> tuple[bool | None, str, list[Any], int]:
    """Term k of a piecewise-linear σ with a reused batch (:mod:`fltheory.papers.twostep.kinks`):
    its even part (profile a^(k+1), the smooth rule with the symmetric moments N_{k,p}) and its
    odd part (profile |a|a^k), each one outlier when non-zero. The reason quotes the values
    both rest on."""
    from fltheory.papers.twostep.kinks import _weight as _weight_of
    from fltheory.papers.twostep.kinks import kink_structure, odd_slope_coefficients

    structure = kink_structure(f.expr, f.text)
    assert structure is not None
    even, even_why, M = _smooth_presence(f, k, "reused", mu1_zero, False, dps)
    # the even part's moments are the symmetric ones (σ'^p at a kink: its one-sided mean)
    even_why = even_why.replace("reused batch (p = 0..", "symmetric moments (p = 0..") \
        .replace("E[σ^(", "E_sym[σ^(")
    coef = odd_slope_coefficients(structure, k, mu1_zero)
    where = ", ".join(f"z = {q.point}" for q in structure)
    odd_present = bool(coef)
    if coef:
        odd_why = ("y Σ_s c_s Q_k(ψys + r) with " + ", ".join(
            f"c_{s} = {_short(c)}" for s, c in coef.items())
            + f" ≠ 0 (kinks at {where}" + ("; folded onto |s|: μ_1(σ) = 0)" if mu1_zero
                                           else ")"))
    else:
        weights = [_weight_of(q, k) for q in structure]
        odd_why = (f"every c_s = 0 (kinks at {where}: "
                   + (f"J φ(c) He_{k - 1}(c) = 0 at each)" if not any(weights) else
                      "their contributions cancel" + (" on |s|, μ_1(σ) = 0)" if mu1_zero
                                                      else ")")))
    parts = int(bool(even)) + int(bool(odd_present))
    why = (("two outliers: " if parts == 2 else "") + f"a^{k + 1} part: {even_why}; |a|a^{k} "
           "part (σ' jumps, reused batch): " + odd_why)
    if even is None:
        return None, why, M, parts
    return (parts > 0), why, M, max(parts, 1)


def _smooth_presence(f: Function, k: int, batch: str, mu1_zero: bool, odd: bool, dps: int
                     ) -> tuple[bool | None, str, list[Any]]:
    """Whether h_k ≢ 0, why, and the M_{k,p} computed so far (lazily: stops at the first
    non-zero one; None where not computed or undefined).

    The rule (module docstring): h_k ≢ 0 iff M_{k,p} ≠ 0 for some p <= k (p = 0 only for a
    fresh batch) whose factor E[(ξ + r)^(k−p)] is not zero; with μ_1(σ) ≠ 0 that factor is a
    monic polynomial in r, never zero; with μ_1(σ) = 0 (r ≡ 0) it is E[ξ^(k−p)], zero for odd
    k − p. Every reason quotes the moments it rests on, with their values."""
    ps = list(range(k + 1)) if batch == "reused" else [0]
    usable = [p for p in ps if not mu1_zero or (k - p) % 2 == 0]
    dropped = [p for p in ps if p not in usable]
    M: list[Any] = [None] * len(ps)
    if odd and k % 2 == 1:
        M = [sp.Integer(0)] * len(ps)
        return False, (f"σ odd: every M_{k},p = E[σ^({k + 1})σ'^p] = 0 (σ^({k + 1}) odd, σ' "
                       f"even); the expected update is odd in a_j, no a_j^{k + 1} profile"), M
    no_shift = (f"μ_1(σ) = 0, so there is no first-step shift r and M_{k},p enters with "
                f"E[ξ^({k}−p)], zero for odd {k} − p")
    undefined = False
    for p in usable:
        M[p] = derivative_moment(f, k, p, dps)[0]
        if M[p] is None:
            undefined = True
        elif M[p] != 0:
            why = f"{_m_text(f, k, p, dps, M[p])} ≠ 0"
            if mu1_zero:
                why += f" (with E[ξ^{k - p}] ≠ 0: k − p = {k - p} even; {no_shift})"
            return True, why, M
    if undefined:
        return None, ("not covered: σ' jumps and the reused batch's self-term ψσ'(z)y jumps "
                      "with it, so the update is not a power series in ε a_j (use --batch fresh)"
                      ), M
    facts = [f"{_m_text(f, k, p, dps, M[p])}" for p in usable]
    if batch == "fresh" and not mu1_zero:
        return False, (f"fresh batch: the term is ∝ E[σ^({k + 1})] = √({k + 1}!) μ_{k + 1}(σ) "
                       f"and {facts[0]}"), M
    parts = []
    if facts:
        parts.append(", ".join(facts) + (" (the only p that count)" if mu1_zero else ""))
    if mu1_zero:
        quoted = []
        for p in dropped:
            value = derivative_moment(f, k, p, dps)[0]
            if value is not None:
                quoted.append(f"{_m_text(f, k, p, dps, value)}")
        parts.append(no_shift + (": " + ", ".join(quoted) + " enter(s) multiplied by 0"
                                 if quoted else ""))
    where = "fresh batch (p = 0 only)" if batch == "fresh" else f"reused batch (p = 0..{k})"
    return False, f"{where}: " + "; ".join(parts), M


@dataclass(frozen=True)
class SpikePresence:
    """For σ and a batch mode: whether the one-step spike exists (μ_1(σ) ≠ 0) and, for
    k = 1..kmax, whether term k's spike is non-zero (None: not covered) and why — independent
    of α1, α2 (they only decide which terms are outliers)."""

    sigma: str
    batch: str
    odd: bool
    one_step: bool
    one_step_reason: str
    present: tuple[bool | None, ...]
    reasons: tuple[str, ...]
    #: outliers per present term (2 where a kinked σ's term has both parts, reused batch)
    parts: tuple[int, ...] = ()


def _parse_sigma(sigma: str | Function) -> Function:
    f = sigma if isinstance(sigma, Function) else parse_function(sigma, "sigma")
    _check_derivative(f)
    return f


@lru_cache(maxsize=64)
def _check_derivative(f: Function) -> None:
    """:func:`_check_derivative_now`, remembered in the run store once it has passed (the
    square-integrability check of σ' can take seconds of sympy limits)."""
    from fltheory.papers.twostep._moments import disk_get, disk_put

    params = {"sigma": sp.srepr(f.expr)}
    if disk_get("twostep.sigma_derivative_ok", params) is not None:
        return
    start = time.perf_counter()
    _check_derivative_now(f)
    disk_put("twostep.sigma_derivative_ok", params, {"ok": True}, time.perf_counter() - start)


def _check_derivative_now(f: Function) -> None:
    """σ' must be a function (no DiracDelta), not 0, and square-integrable: the first step's
    fluctuation ξ has variance ∝ E[σ'²] (e.g. |z|^(−1/4) is in L² but its σ' is not)."""
    from fltheory.engine.integrability import check_square_integrable

    d1 = sp.diff(f.expr, Z)
    if d1.has(sp.DiracDelta) or d1 == 0:
        raise DomainError("sigma", f.text, "activations with a non-zero derivative almost "
                          "everywhere", reason="has σ' = 0 almost everywhere (no gradient)")
    try:
        check_square_integrable(d1, "sigma", f.text)
    except DomainError as exc:
        raise DomainError("sigma", f.text, "activations with E[σ'(z)²] < ∞",
                          reason=f"has a derivative that is not square-integrable ({exc.reason})"
                          ) from None


def spike_presence(sigma: str | Function, kmax: int, batch: str = "reused", dps: int = 30
                   ) -> SpikePresence:
    r"""Which terms k = 1..``kmax`` (1..12) of the second update have a non-zero spike for σ
    (a catalogue name or expression in z) with a ``reused`` or ``fresh`` batch, and why
    (criterion and precision: :func:`effective_outliers`); ``dps`` 5..100 digits.

    >>> spike_presence("relu", 4, "fresh", dps=15).present
    (True, False, True, False)
    >>> spike_presence("tanh", 3, dps=15).present
    (False, True, False)
    """
    dps, batch = read_dps(dps), read_choice(batch, "batch", BATCHES)
    kmax = read_count(kmax, "kmax", 0, KMAX)
    return _presence(_parse_sigma(sigma), kmax, batch, dps)


def _presence(f: Function, kmax: int, batch: str, dps: int) -> SpikePresence:
    """:func:`spike_presence` of a parsed σ and already-read arguments."""
    L = _degree(f.expr)
    if not isinstance(L, int) and not _kinks(f.expr):
        _table(f, kmax, dps)  # every M_{k,p}, k <= kmax, in one pass over the nodes
    odd = _is_odd(f.expr)
    mu_sigma, _ = derivative_moment(f, 0, 0, dps)
    mu1_zero = mu_sigma == 0
    out = [_term_presence(f, k, batch, mu1_zero, odd, dps) if isinstance(L, Infinity)
           or k <= L - 1 else (False, f"k > L − 1 = {L - 1}: σ has degree {L}", [], 1)
           for k in range(1, kmax + 1)]
    one = (f"{_mu_text(f, 0, dps, mu_sigma)} ≠ 0: W1 has the one-step spike" if not mu1_zero
           else "μ_1(σ) = 0: no one-step spike (and no k = 0 term)")
    return SpikePresence(f.text, batch, odd, not mu1_zero, one,
                         tuple(o[0] for o in out), tuple(o[1] for o in out),
                         tuple(o[3] for o in out))


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """All tuples of ``parts`` integers >= 0 summing to ``total``."""
    if parts == 1:
        return [(total,)]
    return [(i, *rest) for i in range(total + 1) for rest in _compositions(total - i, parts - 1)]


def _multinomial(parts: tuple[int, ...]) -> int:
    out, n = 1, 0
    for q in parts:
        n += q
        out *= math.comb(n, q)
    return out


def _alignment(model: TwoStepModel, M: list[Any], k: int, batch: str, Esq: Any,
               mu_sigma: Any, dps: int) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    """C_k(β_l) = (1/k!) Σ_p C(k,p) ψ2^p M_{k,p} E[y^{p+1}(ξ + m·s)^{k−p} s_l] and the l with
    C ≠ 0 (ξ ~ N(0, ψ1 E[σ'²] E[y²]), m_i = μ_σ μ_1(g_i)).

    The expectation is expanded by multinomials: with A = √(ψ1 E[σ'²] E[y²]) and B_i = m_i,
    E[y^{p+1}(Aξ + Σ B_i s_i)^j s_l] = Σ C(j; q, a) C(p+1; e) A^q E[ξ^q] Π_i B_i^{a_i}
    E[s_i^{a_i + [i = l]} g_i(s_i)^{e_i}] over q + Σa = j, Σe = p + 1 (the targets are
    independent). Exact (sympy) when every input is exact, else in mpmath at dps + 10 digits."""
    K = len(model.targets)
    s, G = _symbols(model)
    y = sum(G, sp.Integer(0))
    Ey2 = _expect(y**2, model, s, G)
    a_val = sp.sqrt(sp.sympify(model.psi1) * Esq * Ey2)
    b_val = [mu_sigma * model.mu1(i) for i in range(K)]
    ps = [p for p in (range(k + 1) if batch == "reused" else range(1))
          if M[p] is not None and M[p] != 0]
    inputs = [a_val, *b_val, *(M[p] for p in ps)]
    exact = not any(sp.sympify(v).has(sp.Float) for v in inputs)
    work = dps + 10

    def num(value: Any) -> Any:
        return sp.sympify(value) if exact else mpmath.mpf(sp.N(value, work))

    with mpmath.workdps(work):
        A, Bs = num(a_val), [num(b) for b in b_val]
        moment: dict[tuple[int, int, int], Any] = {}

        def tm(i: int, c: int, e: int) -> Any:
            if (i, c, e) not in moment:
                moment[i, c, e] = num(model.target_moment(i, c, e))
            return moment[i, c, e]

        consts = []
        for ell in range(K):
            total: Any = num(0)
            for p in ps:
                j = k - p
                T: Any = num(0)
                for q in range(0, j + 1, 2):  # E[ξ^q] = (q − 1)!! for even q, 0 for odd
                    xi_part = math.comb(j, q) * math.prod(range(q - 1, 0, -2)) * A**q
                    for a in _compositions(j - q, K):
                        if any(a[i] and Bs[i] == 0 for i in range(K)):
                            continue
                        ca = _multinomial(a)
                        for e in _compositions(p + 1, K):
                            term: Any = ca * _multinomial(e) * xi_part
                            for i in range(K):
                                if a[i]:
                                    term *= Bs[i] ** a[i]
                                term *= tm(i, a[i] + (i == ell), e[i])
                                if term == 0:
                                    break
                            T += term
                total += math.comb(k, p) * num(model.psi2) ** p * num(M[p]) * T
            consts.append(total / math.factorial(k) if exact
                          else sp.Float(total / math.factorial(k), work))
    aligned = tuple(ell for ell, c in enumerate(consts) if not _zero(c, dps))
    return tuple(consts), aligned


def _degree_for(f: Function, L: int | Infinity | None) -> int | Infinity:
    """σ's Hermite degree; ``L`` (a setting's) must be None or equal to it."""
    degree = _degree(f.expr)
    if L is not None and degree != L:
        raise DomainError("L", L, f"the Hermite degree of σ ({degree}) or omitted",
                          reason="contradicts --sigma")
    return degree


def _degree(expr: sp.Expr) -> int | Infinity:
    return int(sp.Poly(expr, Z).degree()) if expr.is_polynomial(Z) else INF


def effective_outliers(alpha1: Fraction | int | float | str, alpha2: Fraction | int | float | str,
                       sigma: str | Function, targets: tuple[str, ...] | list[str] = (),
                       batch: str = "reused", psi: Fraction | None = None,
                       dps: int = 30, L: int | Infinity | None = None) -> EffectiveOutliers:
    r"""The outliers of W2 for activation ``sigma``: which terms 1 <= k <= Λ have a non-zero
    spike, why the others vanish, and which target directions each term carries.

    Parameters: α1, α2 in [0, 1/2) (exact rationals, as :func:`~fltheory.papers.twostep.params.
    check_alpha` reads them); ``sigma`` a catalogue name or expression in z (L²(N(0, 1)); its
    Hermite degree is L, ∞ for a non-polynomial); ``targets`` functions of z, one per orthonormal
    direction β_l (may be empty: the count does not depend on them); ``batch`` reused or fresh;
    ``psi`` = d/n per step (> 0; default 1 reused, 2 fresh); ``dps`` 5..100 digits; ``L``
    None or ∞ (σ's own degree) or that degree itself (anything else is refused: L is σ's, not
    free). The arguments are read once, into a :class:`~fltheory.papers.twostep.params.
    TwoStepSetting` (:func:`outliers_of` takes one).
    Returns :class:`EffectiveOutliers`: the generic :class:`~fltheory.papers.twostep.phases.
    LambdaResult` for L, whether the one-step spike exists (μ_1(σ) ≠ 0), and per term k <= Λ
    a :class:`TermOutlier`. Term k is an outlier iff α2 + k(α1 − 1/2) > 0 and
    M_{k,p} = E[σ^{(k+1)}σ'^p] ≠ 0 for some p <= k (p = 0 only for a fresh batch; the module
    docstring derives this), exact or numeric as stated there. Λ is examined up to k = 12.

    >>> r = effective_outliers("2/5", "3/10", "tanh", dps=15)
    >>> r.generic.value, r.count, r.outliers_of_w2, r.present_ks
    (3, 1, 2, [2])
    >>> effective_outliers("2/5", "3/10", "relu", batch="fresh", dps=15).present_ks
    [1, 3]
    """
    f = sigma if isinstance(sigma, Function) else None
    return outliers_of(TwoStepSetting(alpha1, alpha2, L, sigma if f is None else f.text,
                                      targets, batch, psi, dps), f)


def outliers_of(setting: TwoStepSetting, f: Function | None = None) -> EffectiveOutliers:
    """:func:`effective_outliers` of a setting with σ (α1, α2, σ, targets, batch, ψ, dps and
    L, checked against σ's degree); ``f`` is σ already parsed, when the caller has it.

    >>> outliers_of(TwoStepSetting("2/5", "3/10", sigma="tanh", dps=15)).present_ks
    [2]
    """
    f = _parse_sigma(_sigma_of(setting) if f is None else f)
    degree = _degree_for(f, setting.L)
    generic = lambda_of(setting, degree)
    if generic.value > KMAX:
        raise DomainError("a1", fraction_str(setting.alpha1), f"step sizes with Λ <= {KMAX} "
                          f"when σ is given (here Λ = {generic.value}: each term needs σ^(k+1))")
    dps, batch, targets = setting.dps, str(setting.batch), setting.targets
    if not isinstance(degree, int) and not _kinks(f.expr):
        _table(f, generic.value, dps)  # every M_{k,p}, k <= Λ, in one pass over the nodes
    odd = _is_odd(f.expr)
    mu_sigma, _ = derivative_moment(f, 0, 0, dps)
    mu1_zero = mu_sigma == 0
    psi = BATCH_PSI[batch] if setting.psi is None else setting.psi
    terms = _term_outliers(f, generic, targets, batch, psi, mu_sigma, odd, dps)
    one_reason = (f"{_mu_text(f, 0, dps, mu_sigma)} ≠ 0: W1 has the one-step spike"
                  if not mu1_zero else "μ_1(σ) = 0: no one-step spike (and no k = 0 term)")
    notes = _notes(generic, odd, batch, targets, batch == "reused" and bool(_kinks(f.expr)))
    return EffectiveOutliers(f.text, targets, batch, generic, not mu1_zero, one_reason,
                             tuple(terms), odd, dps, notes)


def _sigma_of(setting: TwoStepSetting) -> str:
    """σ of a setting that must have one."""
    if setting.sigma is None:
        raise DomainError("sigma", "None", "an activation (the σ-aware count needs σ)",
                          reason="is missing")
    return setting.sigma


def _term_outliers(f: Function, generic: LambdaResult, targets: tuple[str, ...], batch: str,
                   psi: Fraction, mu_sigma: Any, odd: bool, dps: int) -> list[TermOutlier]:
    """Per term k <= Λ of :func:`effective_outliers`: whether its spike is present and why
    (:func:`_term_presence`), and with ``targets`` the constants and aligned directions of a
    present term (:func:`_alignment`)."""
    mu1_zero = mu_sigma == 0
    model = TwoStepModel(f, tuple(parse_function(t, "target") for t in targets), psi, psi,
                         Fraction(0), dps)
    Esq = derivative_moment(f, 0, 1, dps)[0] if targets else None
    terms = []
    for t in generic.exponents:
        if t.k > generic.value:
            continue
        present, reason, M, parts = _term_presence(f, t.k, batch, mu1_zero, odd, dps)
        consts: tuple[Any, ...] = ()
        aligned: tuple[int, ...] = ()
        odd_consts: tuple[Any, ...] | None = ()
        if targets and present:
            M = [m if m is not None else derivative_moment(f, t.k, p, dps)[0]
                 for p, m in enumerate(M)]
            consts, aligned = _alignment(model, M, t.k, batch, Esq, mu_sigma, dps)
            if batch == "reused" and _kinks(f.expr):
                odd_consts = _odd_alignment(f, model, t.k, Esq, mu_sigma, dps)
                if odd_consts is not None:
                    aligned = tuple(sorted(set(aligned) | {
                        i for i, c in enumerate(odd_consts) if not _zero(c, dps)}))
        terms.append(TermOutlier(t.k, t.exponent, t.status, present, reason, consts, aligned,
                                 parts, odd_consts))
    return terms


def _odd_alignment(f: Function, model: TwoStepModel, k: int, Esq: Any, mu_sigma: Any,
                   dps: int) -> tuple[Any, ...] | None:
    """C_k^odd(β) of the |a|a^k part of a kinked σ's term k (reused batch), for one target
    (:func:`fltheory.papers.twostep.kinks.odd_part_constant`, a nested trapezoidal rule at
    dps + 10);
    None for several targets (a K-dimensional integral, not implemented)."""
    from fltheory.papers.twostep.kinks import kink_structure, odd_part_constant

    if len(model.targets) != 1:
        return None
    structure = kink_structure(f.expr, f.text)
    assert structure is not None
    s, G = _symbols(model)
    y = sum(G, sp.Integer(0))
    A = sp.sqrt(sp.sympify(model.psi1) * Esq * _expect(y**2, model, s, G))
    m = mu_sigma * model.mu1(0)
    g = sp.lambdify(Z, model.targets[0].expr, "mpmath")
    value = odd_part_constant(structure, k, g, sp.sympify(model.psi2), A, m, dps)
    return (sp.Integer(0) if _zero(value, dps) else sp.Float(value, dps),)


def _notes(generic: LambdaResult, odd: bool, batch: str, targets: tuple[str, ...],
           kinked: bool = False) -> tuple[str, ...]:
    notes = []
    if generic.omitted is not None:
        notes.append("terms not listed by Λ's exponent table are examined too")
    if kinked:
        notes.append("σ' jumps: with a reused batch the update is a one-sided expansion in "
                     "ε a_j; term k has an a^(k+1) part (symmetric moments E_sym: σ'^p at a "
                     "kink is the mean of its one-sided values) and an |a|a^k part, each one "
                     "outlier (fltheory.papers.twostep.kinks); the effective count can exceed "
                     "1 + Λ. This extension is derived here, not in the paper (which takes a "
                     "smooth σ); simulation checks the |a|a part's presence "
                     "(twostep.kinked_reused_parts), not the outlier count")
        if len(targets) > 1:
            notes.append("with several targets the |a|a^k parts' constants are not computed: "
                         "'targets' lists the a^(k+1) parts' only")
    if odd and not kinked:
        notes.append("σ is odd: the terms k = 1, 3, 5, … vanish at every order in both batch "
                     "modes (the update of row j is odd under (w0_j, a_j) → (−w0_j, −a_j))")
    if not targets:
        notes.append("no targets given: the count does not depend on them (each term's spike "
                     "has a data-noise part); give --target to see which directions it carries")
    else:
        notes.append("each term is one outlier however many targets it carries (one row "
                     "profile a^(k+1)); 'targets' lists the β_l with C_k(β_l) ≠ 0")
    return tuple(notes)


@dataclass(frozen=True)
class EffectivePhase:
    """The regions of constant Λ along α2 at fixed α1 (L = σ's degree) with, per region, the
    effective number of outliers of W2 for σ (None: a term is not covered or beyond
    :data:`KMAX`) and the σ-dependent facts they rest on (:class:`SpikePresence`)."""

    alpha1: Fraction
    L: int | Infinity
    regions: tuple[PhaseRegion, ...]
    effective: tuple[int | None, ...]
    presence: SpikePresence


def effective_phase(alpha1: Fraction | int | float | str, sigma: str | Function,
                    batch: str = "reused",
                    dps: int = 30, L: int | Infinity | None = None) -> EffectivePhase:
    """:func:`~fltheory.papers.twostep.phases.phase_line` (L = degree of σ) with the effective
    outlier
    count of W2 in each region: (μ_1(σ) ≠ 0) + #{1 <= k <= Λ : term k present}
    (:func:`spike_presence`; terms k > 12 are not examined: None). Arguments as for
    :func:`effective_outliers`.

    >>> r = effective_phase("2/5", "tanh", dps=15)
    >>> [(reg.value, n) for reg, n in zip(r.regions, r.effective)]
    [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3)]
    """
    f = sigma if isinstance(sigma, Function) else None
    return effective_phase_of(TwoStepSetting(alpha1, L=L, sigma=sigma if f is None else f.text,
                                             batch=batch, dps=dps), f)


def effective_phase_of(setting: TwoStepSetting, f: Function | None = None) -> EffectivePhase:
    """:func:`effective_phase` at the setting's α1, for its σ (``f`` when already parsed),
    batch mode and dps; L checked against σ's degree.

    >>> r = effective_phase_of(TwoStepSetting("2/5", sigma="tanh", dps=15))
    >>> r.effective
    (1, 1, 2, 2, 3)
    """
    f = _parse_sigma(_sigma_of(setting) if f is None else f)
    degree = _degree_for(f, setting.L)
    regions = tuple(phase_of(setting, degree))
    top = min(max(r.value for r in regions), KMAX)
    pres = _presence(f, top, str(setting.batch), setting.dps)
    effective: list[int | None] = []
    for r in regions:
        seen = pres.present[:r.value]
        if r.value > KMAX or any(p is None for p in seen):
            effective.append(None)
        else:
            parts = pres.parts or (1,) * len(pres.present)
            effective.append(int(pres.one_step) + sum(
                n for p, n in zip(seen, parts[:len(seen)], strict=True) if p))
    return EffectivePhase(setting.alpha1, degree, regions, tuple(effective), pres)


def term_constants(sigma: str | Function, k: int, targets: tuple[str, ...] | list[str],
                   batch: str = "reused", psi: Fraction | None = None, dps: int = 30
                   ) -> tuple[Any, ...]:
    r"""C_k(β_l) for every target l, for any σ with a continuous σ' (or a fresh batch):

    .. math::

        C_k(\beta_l) = \frac{1}{k!} \sum_p \binom{k}{p} \psi_2^p\, M_{k,p}\,
          \mathbb{E}\Bigl[y^{p+1}
            \Bigl(\xi + \mu_\sigma \sum_i \mu_1(g_i)\, s_i\Bigr)^{k-p} s_l\Bigr]

    (p = 0 only for a fresh batch; ξ ~ N(0, ψ1 E[σ'²] E[y²]); M_{k,p} as in
    :func:`derivative_moment`), the leading-order constant of term k's spike along β_l
    (:func:`fltheory.papers.twostep.terms.term_prediction` for polynomial σ, which it equals).
    ``k`` in 0..12, ``targets`` non-empty (functions of z), ``psi`` = d/n (default 1 reused, 2
    fresh), ``dps`` 5..100. Returns sympy values (exact, or Floats at ``dps``). For a σ whose
    σ' jumps with a reused batch these are the constants of the a^{k+1} part (symmetric
    moments); the |a|a^k part's are :attr:`TermOutlier.odd_constants` of
    :func:`effective_outliers`.

    >>> [round(float(c), 4) for c in term_constants("gelu", 2, ["He1"], dps=15)]
    [-0.6432]
    """
    dps, batch = read_dps(dps), read_choice(batch, "batch", BATCHES)
    k = read_count(k, "k", 0, KMAX)
    targets = target_texts(targets)
    if not targets:
        raise DomainError("target", "(none)", "a non-empty list of functions of z")
    psi = BATCH_PSI[batch] if psi is None else read_rational(psi, "psi", 0, open_low=True)
    f = _parse_sigma(sigma)
    M = [derivative_moment(f, k, p, dps)[0] for p in (range(k + 1) if batch == "reused"
                                                       else range(1))]
    if any(m is None for m in M):
        raise DomainError("sigma", f.text, "a σ with a continuous derivative for a reused batch",
                          reason="has a jump in σ' (the terms are not covered)")
    model = TwoStepModel(f, tuple(parse_function(t, "target") for t in targets), psi, psi,
                         Fraction(0), dps)
    mu_sigma = derivative_moment(f, 0, 0, dps)[0]
    esq = derivative_moment(f, 0, 1, dps)[0]
    return _alignment(model, M, k, batch, esq, mu_sigma, dps)[0]
