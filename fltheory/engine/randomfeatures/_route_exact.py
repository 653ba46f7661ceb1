"""The exact route: σ polynomial on each half-line (:mod:`.piecewise`), each radial operator a
finite matrix of Gamma ratios whose eigenvalues are closed forms (sizes 1, 2) or confirmed by two
precisions."""

from __future__ import annotations

from typing import Any

import mpmath

from fltheory.engine.randomfeatures.levels import (
    GUARD,
    Partial,
    RFLevel,
    level_zero,
    multiplicity,
    parity_reason,
)
from fltheory.exact import DomainError, check_cost

__all__ = ["exact_part"]


def exact_part(parts: Any, parity: int, d: int, s: Any, ls: list[int], jmax: int,
                dps: int, label: str = "σ") -> Partial:
    """The levels of the degrees ``ls`` of a σ polynomial on each half-line (``parts``):
    for each l the radial matrices P, Q
    (:func:`~fltheory.engine.randomfeatures.piecewise.radial_matrices`), their eigenvalues in
    closed form or confirmed by two precisions (:func:`_exact_levels`), and the trace of the
    kernel in closed form."""
    import sympy as sp

    from fltheory.engine.randomfeatures.piecewise import GAMMA_D, kernel_trace_exact

    lmax = max(ls, default=0)
    check_cost(f"lmax = {lmax}", float(lmax + 1) * len(parts.degrees) ** 2 * (lmax + 1),
               2e5, "matrix entries", "lower lmax")
    method = ("exact:homogeneous" if parts.homogeneous else
              "exact:polynomial" if parts.polynomial else "exact:piecewise")
    s2 = sp.nsimplify(s**2) if s.is_Float else s**2
    wp = dps + GUARD
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
    return Partial(out, traces, trace, exact_trace, vanishing, [], method)


class _ExactNumbers:
    """Numbers of the exact route at ``wp`` working digits: a sympy expression (the symbol
    γ_d of :mod:`~fltheory.engine.randomfeatures.piecewise` substituted) as an mpmath number, and
    the eigenvalues of a matrix product P·Q."""

    def __init__(self, d: int, wp: int) -> None:
        from fltheory.engine.randomfeatures.piecewise import gamma_symbol

        self.d, self.wp = d, wp
        self.gamma_value = gamma_symbol(d, wp + 20)

    def num(self, expr: Any, prec: int | None = None) -> Any:
        import sympy as sp

        from fltheory.engine.randomfeatures.piecewise import GAMMA_D, gamma_symbol

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
        vanishing.append(parity_reason(parity))
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
    from fltheory.engine.randomfeatures.piecewise import radial_matrices

    N = multiplicity(d, l)
    degrees, _, P, Q = radial_matrices(parts, d, s2, l)
    size = len(degrees)
    if size == 0:
        why = (parity_reason(parity) if parity and (l % 2 == (1 if parity == 1 else 0))
               else f"b_(l,n) = E_t[σ_n(t) P_l(t)] = 0 for every homogeneous part σ_n "
                    f"(degrees {parts.degrees}) at l = {l}: the part of σ_n of the parity "
                    f"of l is 0 or c·t^n with n < l, orthogonal to P_l (e.g. relu = "
                    f"(t + |t|)/2: odd l >= 3 see only t/2)")
        return [level_zero(l, j, N, dps, "zero:parity" if parity and
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
            levels.append(level_zero(
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

    from fltheory.engine.randomfeatures.piecewise import EXACT_MAX_D

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

