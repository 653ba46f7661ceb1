r"""Fast Gaussian moments of derivatives, M_{k,p} = E[σ^{(k+1)}(z) σ'(z)^p], z ~ N(0, 1).

Used by :mod:`fltheory.papers.twostep.sigma` for a smooth non-polynomial σ. All M_{k,p}
(0 <= p <= k + 1, 0 <= k <= kmax) come from ONE pass over the quadrature nodes:

* **Taylor jets.** At each node x the Taylor coefficients of σ(x + t) up to order kmax + 2 are
  computed by forward-mode (Taylor) arithmetic on σ's expression tree (sums, products,
  quotients, powers, exp, log, tanh, sinh, cosh, sin, cos, erf, erfc, atan: the standard
  recurrences for a jet w = F(u) from w' = F'(u) u'), so σ^{(m)}(x) = m!·(coefficient m) costs
  O(kmax²) multiplications at every order, instead of evaluating sympy's m-th derivative (whose
  size grows with m).
* **Trapezoidal rule on the real line.** For an integrand analytic in a strip |Im z| < d and
  decaying like the Gaussian density, the trapezoidal rule with step h has error
  O(exp(−2πd/h)) (Trefethen & Weideman, SIAM Review 56 (2014), §5); the step is halved (nested
  nodes: only the new half is evaluated) until two consecutive sums agree to the requested
  digits for every moment, and the range [−R, R] is widened until the outermost nodes
  contribute below the tolerance.
* **Two precisions.** The converged rule is evaluated again at ``dps + 20`` working digits on
  the same step; a moment's value is the second evaluation, its error bound the larger of the
  two differences (step halving, precision) — the digits printed are the ones both agree on.

A σ the jets cannot handle (a function outside the list above, or a kink: Abs, Max, Heaviside,
Piecewise) makes :func:`moments` return None and the caller falls back to mpmath.quad per
integrand.

The on-disk cache (:func:`cached_moments`) keeps the results in the run store of
:mod:`fltheory.sweep.store` (task ``twostep.moments``, keyed by σ's text, kmax and dps, and
invalidated with the package's code version), so a repeated query does not recompute them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from fltheory.engine.functions import Z

__all__ = ["MomentTable", "cached_moments", "jet", "moments"]

#: extra working digits of the first evaluation; the second adds as many again
_GUARD = 10


class _Unsupported(Exception):
    """σ has a node the jet arithmetic does not cover (the caller falls back)."""


def _mul(u: list[Any], v: list[Any]) -> list[Any]:
    n = len(u)
    return [mpmath.fdot(u[:m + 1], v[m::-1]) for m in range(n)]


def _div(u: list[Any], v: list[Any]) -> list[Any]:
    n = len(u)
    w: list[Any] = []
    for m in range(n):
        w.append((u[m] - mpmath.fdot(v[1:m + 1], w[m - 1::-1] if m else [])) / v[0])
    return w


def _integrate(u: list[Any], g: list[Any], w0: Any) -> list[Any]:
    """The jet w with w' = g·u' and w(x) = w0: w_m = (1/m) Σ_j j u_j g_{m−j}."""
    n = len(u)
    du = [j * u[j] for j in range(n)]  # (j u_j): the jet of u' shifted
    return [w0] + [mpmath.fdot(du[1:m + 1], g[m - 1::-1]) / m for m in range(1, n)]


def _exp(u: list[Any]) -> list[Any]:
    w = [mpmath.exp(u[0])]
    du = [j * u[j] for j in range(len(u))]
    for m in range(1, len(u)):
        w.append(mpmath.fdot(du[1:m + 1], w[m - 1::-1]) / m)
    return w


def _log(u: list[Any]) -> list[Any]:
    w = [mpmath.log(u[0])]
    dw: list[Any] = [0]
    for m in range(1, len(u)):
        w.append((u[m] - mpmath.fdot(dw[1:m], u[m - 1:0:-1]) / m) / u[0])
        dw.append(m * w[m])
    return w


def _pow_real(u: list[Any], a: Any) -> list[Any]:
    """u^a for real a, u(x) ≠ 0: w_m = (1/(m u_0)) Σ_j ((a + 1) j − m) u_j w_{m−j}."""
    w = [mpmath.power(u[0], a)]
    for m in range(1, len(u)):
        w.append(mpmath.fdot([((a + 1) * j - m) * u[j] for j in range(1, m + 1)],
                             w[m - 1::-1]) / (m * u[0]))
    return w


def _sin_cos(u: list[Any], hyperbolic: bool) -> tuple[list[Any], list[Any]]:
    s = [mpmath.sinh(u[0]) if hyperbolic else mpmath.sin(u[0])]
    c = [mpmath.cosh(u[0]) if hyperbolic else mpmath.cos(u[0])]
    sign = 1 if hyperbolic else -1
    du = [j * u[j] for j in range(len(u))]
    for m in range(1, len(u)):
        s.append(mpmath.fdot(du[1:m + 1], c[m - 1::-1]) / m)
        c.append(sign * mpmath.fdot(du[1:m + 1], s[m - 1::-1]) / m)
    return s, c


def _tanh(u: list[Any]) -> list[Any]:
    """t' = (1 − t²) u', built order by order."""
    t = [mpmath.tanh(u[0])]
    q = [1 - t[0] ** 2]
    du = [j * u[j] for j in range(len(u))]
    for m in range(1, len(u)):
        t.append(mpmath.fdot(du[1:m + 1], q[m - 1::-1]) / m)
        q.append(-mpmath.fdot(t, t[::-1]))
    return t


def jet(expr: sp.Expr, x: Any, order: int) -> list[Any]:
    """Taylor coefficients c_0..c_order of expr(x + t) in t at the current mpmath precision
    (σ^{(m)}(x) = m!·c_m); raises :class:`_Unsupported` for a node it does not cover."""
    return _Jet(x, order + 1)(expr)


class _Jet:
    """The truncated Taylor series (``n`` coefficients) at ``x`` of each node of an
    expression, built from its arguments' (memoised per node): z, numbers, sums and products,
    powers (:meth:`power`) and the elementary functions (:meth:`function`)."""

    def __init__(self, x: Any, n: int) -> None:
        self.x, self.n = x, n
        self.memo: dict[sp.Expr, list[Any]] = {}

    def const(self, value: Any) -> list[Any]:
        return [mpmath.mpf(value)] + [mpmath.mpf(0)] * (self.n - 1)

    def __call__(self, e: sp.Expr) -> list[Any]:
        if e in self.memo:
            return self.memo[e]
        n = self.n
        out: list[Any]
        if e == Z:
            out = [mpmath.mpf(self.x), mpmath.mpf(1)] + [mpmath.mpf(0)] * (n - 2)
        elif e.is_number:
            value = complex(sp.N(e, mpmath.mp.dps + 5))
            if value.imag != 0:
                raise _Unsupported(str(e))
            out = self.const(sp.N(e, mpmath.mp.dps + 5))
        elif isinstance(e, sp.Add):
            parts = [self(a) for a in e.args]
            out = [mpmath.fsum(p[m] for p in parts) for m in range(n)]
        elif isinstance(e, sp.Mul):
            numeric = [a for a in e.args if a.is_number]
            other = [a for a in e.args if not a.is_number]
            out = self(other[0])
            for a in other[1:]:
                out = _mul(out, self(a))
            if numeric:
                c = mpmath.mpf(sp.N(sp.Mul(*numeric), mpmath.mp.dps + 5))
                out = [c * v for v in out]
        elif isinstance(e, sp.Pow):
            out = self.power(e)
        else:
            out = self.function(e)
        self.memo[e] = out
        return out

    def power(self, e: sp.Expr) -> list[Any]:
        """base**ex: exp(ex·log base) for a symbolic exponent, repeated products (and one
        division) for an integer one, else a real power of a positive base."""
        base, ex = e.args
        if not ex.is_number:
            return _exp(self(ex * sp.log(base)))
        if ex.is_Integer and int(ex) >= 0:
            b = self(base)
            out = self.const(1)
            for _ in range(int(ex)):
                out = _mul(out, b)
            return out
        if ex.is_Integer:
            b = self(base)
            p = self.const(1)
            for _ in range(-int(ex)):
                p = _mul(p, b)
            return _div(self.const(1), p)
        b = self(base)
        if b[0] <= 0:
            raise _Unsupported(str(e))
        return _pow_real(b, mpmath.mpf(sp.N(ex, mpmath.mp.dps + 5)))

    def function(self, e: sp.Expr) -> list[Any]:
        """exp, log, tanh, sinh, cosh, sin, cos, erf, erfc and atan of an argument (erf and
        atan by integrating their derivative's series); anything else is unsupported."""
        if isinstance(e, sp.exp):
            return _exp(self(e.args[0]))
        if isinstance(e, sp.log):
            u = self(e.args[0])
            if u[0] <= 0:
                raise _Unsupported(str(e))
            return _log(u)
        if isinstance(e, sp.tanh):
            return _tanh(self(e.args[0]))
        if isinstance(e, sp.sinh | sp.cosh | sp.sin | sp.cos):
            s, c = _sin_cos(self(e.args[0]), isinstance(e, sp.sinh | sp.cosh))
            return s if isinstance(e, sp.sinh | sp.sin) else c
        if isinstance(e, sp.erf | sp.erfc):
            u = self(e.args[0])
            g = _exp([-v for v in _mul(u, u)])
            g = [2 / mpmath.sqrt(mpmath.pi) * v for v in g]
            out = _integrate(u, g, mpmath.erf(u[0]))
            if isinstance(e, sp.erfc):
                out = [1 - out[0]] + [-v for v in out[1:]]
            return out
        if isinstance(e, sp.atan):
            u = self(e.args[0])
            r = _div(self.const(1), [a + b for a, b in zip(self.const(1), _mul(u, u), strict=True)])
            return _integrate(u, r, mpmath.atan(u[0]))
        raise _Unsupported(type(e).__name__)


@dataclass(frozen=True)
class MomentTable:
    """M_{k,p} = E[σ^{(k+1)} σ'^p] for 0 <= k <= kmax, 0 <= p <= k + 1: ``values[k][p]`` (mpf
    at ``dps + 20`` working digits), ``errors[k][p]`` an error bound (the larger of the
    step-halving and the precision difference) and ``scales[k][p]`` = E|σ^{(k+1)} σ'^p| (the
    size a zero is judged against); ``seconds`` the time taken, ``nodes`` the nodes used."""

    kmax: int
    dps: int
    values: tuple[tuple[Any, ...], ...]
    errors: tuple[tuple[Any, ...], ...]
    scales: tuple[tuple[Any, ...], ...]
    nodes: int
    seconds: float


def _integrands(expr: sp.Expr, kmax: int) -> Callable[[Any], list[Any]]:
    """x ↦ σ^{(k+1)}(x)σ'(x)^p φ(x), flattened over 0 <= k <= kmax, 0 <= p <= k + 1."""
    fact = [math.factorial(m) for m in range(kmax + 3)]

    def f(x: Any) -> list[Any]:
        c = jet(expr, x, kmax + 1)
        d = [c[m] * fact[m] for m in range(kmax + 2)]  # d[m] = σ^{(m)}(x)
        powers = [mpmath.npdf(x)]
        for _ in range(kmax + 1):
            powers.append(powers[-1] * d[1])
        vals: list[Any] = []
        for k in range(kmax + 1):
            vals.extend(d[k + 1] * powers[p] for p in range(k + 2))
        return vals

    return f


def _colsum(rows: list[list[Any]], size: int) -> list[Any]:
    return [mpmath.fsum(r[i] for r in rows) for i in range(size)]


def _range(f: Callable[[Any], list[Any]], tol: Any) -> Any:
    """R such that the integrand at ±R is below tol/10 (the Gaussian tail beyond is smaller
    still for the sub-Gaussian growth of a σ in L²(N(0, 1)) with such derivatives), <= 40;
    past 40 the jets give up (:class:`_Unsupported`)."""
    R = mpmath.mpf(6)
    while max(max(abs(v) for v in f(R)), max(abs(v) for v in f(-R))) * 10 >= tol:
        R += 1
        if R > 40:  # a tail this heavy is left to mpmath.quad, one moment at a time
            raise _Unsupported("tail")
    return R


def _trapezoid(f: Callable[[Any], list[Any]], size: int, tol: Any, R: Any,
               max_halvings: int = 10) -> tuple[list[Any], list[Any], Any, Any, int]:
    """Nested trapezoidal rules h Σ_{|jh| <= R} f(jh), h = 1/2, 1/4, …, until two consecutive
    sums agree within ``tol`` in every component. Returns (finest sums, the sums one level
    coarser, their largest difference, the coarser step, nodes evaluated)."""
    h = mpmath.mpf(1) / 2
    J = int(R / h)
    rows = [f(j * h) for j in range(-J, J + 1)]
    count = len(rows)
    acc = _colsum(rows, size)
    prev = [h * a for a in acc]
    for _ in range(max_halvings):
        h /= 2
        J = int(R / h)
        rows = [f(j * h) for j in range(-J + (J % 2 == 0), J + 1, 2)]  # the new odd nodes
        count += len(rows)
        acc = [a + b for a, b in zip(acc, _colsum(rows, size), strict=True)]
        new = [h * a for a in acc]
        diff = max(abs(a - b) for a, b in zip(new, prev, strict=True))
        if diff <= tol:
            return new, prev, diff, 2 * h, count
        prev = new
    return new, prev, diff, 2 * h, count


def _fixed(f: Callable[[Any], list[Any]], size: int, h: Any, R: Any
           ) -> tuple[list[Any], list[Any]]:
    """One trapezoidal rule (step h on [−R, R]): the sums and the sums of absolute values."""
    J = int(R / h)
    rows = [f(j * h) for j in range(-J, J + 1)]
    acc = _colsum(rows, size)
    absacc = _colsum([[abs(x) for x in r] for r in rows], size)
    return [h * a for a in acc], [h * a for a in absacc]


def moments(expr: sp.Expr, kmax: int, dps: int, progress: Callable[[str], None] | None = None
            ) -> MomentTable | None:
    """All M_{k,p}, 0 <= k <= kmax, 0 <= p <= k + 1, of σ = ``expr`` (smooth, no kinks) at
    ``dps`` digits; None when the jets do not cover σ (the caller falls back)."""
    start = time.perf_counter()
    f = _integrands(expr, kmax)
    size = sum(k + 2 for k in range(kmax + 1))
    try:
        with mpmath.workdps(dps + _GUARD):
            tol = mpmath.mpf(10) ** (-(dps + 3))
            R = _range(f, tol)
            s1, coarse1, d1, h, n1 = _trapezoid(f, size, tol, R)
        if progress is not None:
            progress(f"moments E[σ^(k+1)σ'^p], k <= {kmax}: {n1} nodes at {dps + _GUARD} digits "
                     f"in {time.perf_counter() - start:.1f} s; confirming at {dps + 2 * _GUARD}")
        with mpmath.workdps(dps + 2 * _GUARD):
            coarse2, a2 = _fixed(f, size, h, R)
    except (_Unsupported, ValueError, ZeroDivisionError, OverflowError, TypeError):
        return None
    values, errors, scales = [], [], []
    i = 0
    for k in range(kmax + 1):
        row_v, row_e, row_s = [], [], []
        for _ in range(k + 2):
            row_v.append(s1[i])
            # discretisation: the last halving's change; rounding: the coarser rule at two
            # working precisions
            row_e.append(max(d1, abs(coarse1[i] - coarse2[i])))
            row_s.append(a2[i])
            i += 1
        values.append(tuple(row_v))
        errors.append(tuple(row_e))
        scales.append(tuple(row_s))
    return MomentTable(kmax, dps, tuple(values), tuple(errors), tuple(scales),
                       n1 + 2 * int(R / h) + 1, time.perf_counter() - start)


#: where progress lines go (the CLI sets it when stderr is a terminal; the API stays silent)
PROGRESS: Callable[[str], None] | None = None


def _progress(message: str) -> None:
    if PROGRESS is not None:
        PROGRESS(message)


_STORES: dict[str, Any] = {}  # path -> Store or None, opened on first use


def _store() -> Any:
    """The run store of :mod:`fltheory.sweep.store` at its current default path (None when it
    cannot be opened: the cache is never worth an error or a warning on a query)."""
    from fltheory.sweep.store import Store, default_path

    path = str(default_path())
    if path not in _STORES:
        try:
            _STORES[path] = Store(path, warn=lambda message: None)
        except Exception:  # any failure just turns the cache off
            _STORES[path] = None
    return _STORES[path]


def disk_get(task: str, params: dict[str, str]) -> dict[str, Any] | None:
    """A result stored under (task, params) by this code version, or None."""
    store = _store()
    if store is None:
        return None
    from fltheory.sweep.store import code_version

    try:
        return store.get(task, params, [0], code_version()).get(0)
    except Exception:
        return None


def disk_put(task: str, params: dict[str, str], result: dict[str, Any], seconds: float) -> None:
    """Keep a result under (task, params) for this code version (failures are ignored)."""
    store = _store()
    if store is None:
        return
    from fltheory.sweep.store import code_version

    try:
        store.put(task, params, 0, code_version(), result, seconds)
    except Exception:
        return


def _encode(table: MomentTable) -> dict[str, Any]:
    def rows(x: tuple[tuple[Any, ...], ...]) -> list[list[str]]:
        return [[mpmath.nstr(v, table.dps + 2 * _GUARD, min_fixed=1, max_fixed=0)
                 if mpmath.isfinite(v) else str(v) for v in row] for row in x]

    return {"kmax": table.kmax, "values": rows(table.values), "errors": rows(table.errors),
            "scales": rows(table.scales), "nodes": table.nodes}


def _decode(data: dict[str, Any], dps: int) -> MomentTable:
    with mpmath.workdps(dps + 2 * _GUARD):
        def rows(x: list[list[str]]) -> tuple[tuple[Any, ...], ...]:
            return tuple(tuple(mpmath.mpf(v) for v in row) for row in x)

        return MomentTable(int(data["kmax"]), dps, rows(data["values"]), rows(data["errors"]),
                           rows(data["scales"]), int(data["nodes"]), 0.0)


def cached_moments(expr: sp.Expr, kmax: int, dps: int) -> MomentTable | None:
    """:func:`moments`, read from / written to the run store (task ``twostep.moments``, keyed
    by σ's sympy form and dps; a table with a larger kmax answers a smaller one)."""
    params = {"sigma": sp.srepr(expr), "dps": str(dps)}
    found = disk_get("twostep.moments", params)
    if found is not None and int(found["kmax"]) >= kmax:
        try:
            return _decode(found, dps)
        except (KeyError, TypeError, ValueError):
            pass
    _progress(f"computing E[σ^(k+1)(z) σ'(z)^p] for k <= {kmax} at {dps} digits (Taylor jets "
              "on a trapezoidal grid; kept in the results store for the next query) ...")
    table = moments(expr, kmax, dps, _progress)
    if table is not None:
        disk_put("twostep.moments", params, _encode(table), table.seconds)
    return table
