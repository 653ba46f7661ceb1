"""The sympy derivation behind :func:`fltheory.papers.committee.model.equations` (private).

Every average is the activation's exact form (:meth:`GaussianAverages.symbolic`) with the
covariance entries of the fields it involves substituted by the overlap symbols Q_ik
(i <= k), R_in, T_nm (n <= m)."""

from __future__ import annotations

import time
from typing import Any

import sympy as sp

from fltheory.exact import check_cost
from fltheory.papers.committee.gaussian import GaussianAverages, averages
from fltheory.papers.committee.params import CommitteeModel

#: measured seconds per I4 term substitution and expansion for polynomial g (this machine,
#: 2 shared cores); the derivation is refused above SYMBOLIC_SECONDS_LIMIT
_SECONDS_PER_TERM = 2e-4
SYMBOLIC_SECONDS_LIMIT = 120.0


def symbols(K: int, M: int) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Symbol]:
    """Q (K × K symmetric), R (K × M), T (M × M symmetric) and η as sympy symbols."""
    # diagonal overlaps are squared norms (positive): sympy then reads asin(Q_11/|Q_11|) as π/2
    Q = sp.Matrix(K, K, lambda i, j: sp.Symbol(f"Q_{min(i, j) + 1}{max(i, j) + 1}", real=True,
                                               positive=True if i == j else None))
    R = sp.Matrix(K, M, lambda i, j: sp.Symbol(f"R_{i + 1}{j + 1}", real=True))
    T = sp.Matrix(M, M, lambda i, j: sp.Symbol(f"T_{min(i, j) + 1}{max(i, j) + 1}", real=True,
                                               positive=True if i == j else None))
    return Q, R, T, sp.Symbol("eta", positive=True)


def derive(model: CommitteeModel, order: int) -> dict[str, Any]:
    """dQ, dR, eps_g, symbols and terms for :class:`CommitteeEquations`."""
    av = averages(model.g)
    K, M = model.K, model.M
    n = K + M
    pairs = n * (n + 1) // 2 * K * (K + 1) // 2
    if av.kind == "polynomial":
        check_cost(f"g = {model.g}, K = {K}, M = {M} (symbolic derivation)",
                   pairs * len(av.tables["i4"].coef) * _SECONDS_PER_TERM,
                   SYMBOLIC_SECONDS_LIMIT, "seconds (estimated)", "lower K, M or the degree")
    Q, R, T, eta = symbols(K, M)
    C = sp.Matrix(sp.BlockMatrix([[Q, R], [R.T, T]]))
    a = [sp.Rational(v.numerator, v.denominator) for v in model.a]
    w = [-v for v in a] + [sp.Rational(v.numerator, v.denominator) for v in model.a_star]
    sigma2 = sp.Rational(model.noise.numerator, model.noise.denominator) ** 2
    kappa = sp.Rational(model.weight_decay.numerator, model.weight_decay.denominator)
    avg = _Averages(av, C, n)
    terms: list[tuple[str, Any, str, tuple[int, ...], Any]] = []

    def i3_sum(target: str, i: int, t: int, coef: sp.Expr) -> _Sum:
        total = avg.zero()
        for c in range(n):
            terms.append((target, coef * w[c], "I3", (i, t, c), avg.lazy("i3", (i, t, c))))
            total.add(coef * w[c], avg.get("i3", (i, t, c)))
        return total

    dR = sp.zeros(K, M)
    for i in range(K):
        for m in range(M):
            dR[i, m] = (i3_sum(f"dR[{i},{m}]", i, K + m, eta * a[i]).expr()
                        - eta * kappa * R[i, m])
    dQ = sp.zeros(K, K)
    for i in range(K):
        for k in range(i, K):
            target = f"dQ[{i},{k}]"
            val = i3_sum(target, i, k, eta * a[i])
            val.merge(i3_sum(target, k, i, eta * a[k]))
            if order == 2:
                coef = eta**2 * a[i] * a[k]
                for c in range(n):
                    for e in range(n):
                        idx = (i, k, min(c, e), max(c, e))
                        terms.append((target, coef * w[c] * w[e], "I4", (i, k, c, e),
                                      avg.lazy("i4", idx)))
                        val.add(coef * w[c] * w[e], avg.get("i4", idx))
                if sigma2:
                    terms.append((target, coef * sigma2, "I2", (i, k), avg.lazy("i2", (i, k))))
                    val.add(coef * sigma2, avg.get("i2", (i, k)))
            dQ[i, k] = dQ[k, i] = val.expr() - 2 * eta * kappa * Q[i, k]
    eps = avg.zero()
    for c in range(n):
        for e in range(n):
            eps.add(sp.Rational(1, 2) * w[c] * w[e], avg.get("e2", (c, e)))
    return {"dQ": dQ, "dR": dR, "eps_g": eps.expr(),
            "symbols": {"Q": Q, "R": R, "T": T, "eta": eta}, "terms": terms}


class _Lazy:
    """An average's sympy expression, built when first asked for (:meth:`expr`); sympy
    compares it by value (``lazy.expr() == other``)."""

    def __init__(self, build: Any):
        self._build = build
        self._expr: sp.Expr | None = None

    def expr(self) -> sp.Expr:
        if self._expr is None:
            self._expr = self._build()
        return self._expr

    def subs(self, *args: Any) -> Any:
        return self.expr().subs(*args)

    def __str__(self) -> str:
        return str(self.expr())


class _Sum:
    """A linear combination of averages: for polynomial g a dict over monomials in the
    overlap symbols (exact, no sympy expansion), otherwise a sympy sum."""

    def __init__(self, gens: list[sp.Symbol] | None):
        self.gens = gens
        self.poly: dict[tuple[int, ...], Any] = {}
        self.sym: sp.Expr = sp.Integer(0)

    def add(self, coef: sp.Expr, value: Any) -> None:
        if self.gens is None:
            self.sym += coef * value
            return
        # coef = (number) · η^p: keep η as the last generator
        num, eta_power = _split_eta(coef)
        for mono, c in value.items():
            key = (*mono[:-1], mono[-1] + eta_power)
            self.poly[key] = self.poly.get(key, 0) + num * c

    def merge(self, other: _Sum) -> None:
        self.sym += other.sym
        for key, c in other.poly.items():
            self.poly[key] = self.poly.get(key, 0) + c

    def expr(self) -> sp.Expr:
        if self.gens is None:
            return self.sym
        return _from_dict(self.poly, self.gens)


def _split_eta(coef: sp.Expr) -> tuple[Any, int]:
    from fractions import Fraction

    eta = sp.Symbol("eta", positive=True)
    power = int(sp.degree(coef, eta)) if coef.has(eta) else 0
    num = sp.Rational(coef / eta**power)
    return Fraction(int(num.p), int(num.q)), power


def _from_dict(poly: dict[tuple[int, ...], Any], gens: list[sp.Symbol]) -> sp.Expr:
    data = {mono: sp.Rational(c.numerator, c.denominator) if hasattr(c, "numerator") else c
            for mono, c in poly.items() if c != 0}
    if not data:
        return sp.Integer(0)
    return sp.Poly.from_dict(data, *gens).as_expr()


class _Averages:
    """The averages at field tuples: sympy expressions, or (polynomial g) dicts over
    monomials in the overlap symbols (each covariance entry is one overlap symbol, so a
    monomial in the entries is a monomial in the overlaps)."""

    def __init__(self, av: GaussianAverages, C: sp.Matrix, n: int):
        self.av = av
        self.C = C
        self.cache: dict[tuple[str, tuple[int, ...]], Any] = {}
        if av.kind == "polynomial":
            gens = sorted({s for s in C if isinstance(s, sp.Symbol)}, key=str)
            self.gens: list[sp.Symbol] | None = [*gens, sp.Symbol("eta", positive=True)]
            self.pos = {s: k for k, s in enumerate(self.gens)}
        else:
            self.gens = None

    def zero(self) -> _Sum:
        return _Sum(self.gens)

    def get(self, kind: str, idx: tuple[int, ...]) -> Any:
        key = (kind, idx)
        if key not in self.cache:
            if self.gens is None:
                C = self.C
                self.cache[key] = self.av.symbolic(kind, lambda p, q: C[idx[p - 1], idx[q - 1]])
            else:
                self.cache[key] = self._poly(kind, idx)
        return self.cache[key]

    def lazy(self, kind: str, idx: tuple[int, ...]) -> Any:
        if self.gens is None:
            return self.get(kind, idx)
        gens = self.gens
        return _Lazy(lambda: _from_dict(self.get(kind, idx), gens))

    def _poly(self, kind: str, idx: tuple[int, ...]) -> dict[tuple[int, ...], Any]:
        from fltheory.papers.committee import _wick as wick

        assert self.gens is not None
        table = self.av.tables[kind]
        where = [self.pos[self.C[idx[a], idx[b]]] for a, b in wick.entries(len(idx))]
        out: dict[tuple[int, ...], Any] = {}
        size = len(self.gens)
        for mono, c in table.poly.items():
            key = [0] * size
            for p, e in zip(where, mono, strict=True):
                key[p] += e
            k = tuple(key)
            out[k] = out.get(k, 0) + c
        return out


def _tidy(expr: sp.Expr, kind: str) -> sp.Expr:
    return sp.expand(expr) if kind == "polynomial" else expr


def timed_derivation(model: CommitteeModel, order: int = 2) -> float:
    """Seconds :func:`derive` takes (for the measurement the issue asks for)."""
    start = time.perf_counter()
    derive(model, order)
    return time.perf_counter() - start
