"""The Gram route (:mod:`.gram`) for a smooth part of σ at small d: the sphere factorisation
x = ‖x‖ξ, no Mehler series; float64 (two orders compared) or mpmath (two passes with the
Rayleigh–Ritz bound), each eigenvalue kept to its confirmed digits."""

from __future__ import annotations

import math
from typing import Any

import mpmath

from fltheory.engine.randomfeatures.levels import Partial, RFLevel, agreement, multiplicity
from fltheory.exact import DomainError, check_cost

__all__ = ["GRAM_FLOAT_MAX_DPS", "GRAM_FLOAT_TRY_DPS", "GRAM_MAX_D", "GRAM_MP_MAX_DPS",
           "GRAM_MP_MAX_WORK", "gram_mp_part", "gram_part"]

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


def gram_mp_part(func: Any, expr: Any, parity: int, d: int, s: Any, ls: list[int],
                  jmax: int, dps: int) -> Partial:
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
            traces_digits[l] = agreement(first.traces[l], second.traces[l], 0, dps)
        for j in range(jmax + 1):
            if j >= len(second.eigenvalues[l]):
                raise DomainError("jmax", jmax, f"j < {len(second.eigenvalues[l])} at l = {l}",
                                  reason=f"exceeds the {second.nodes} radial nodes")
            a, b = first.eigenvalues[l][j], second.eigenvalues[l][j]
            with mpmath.workdps(wp + 15):
                digits = agreement(a, b, first.ritz_error[l][j] + second.ritz_error[l][j],
                                    dps)
            if digits < dps:
                raise DomainError("dps", dps, f"at most {digits} digits for this σ, d and s",
                                  reason=f"cannot be reached: λ_({l},{j}) is confirmed to "
                                         f"{digits} digits only (mpmath Gram route)")
            with mpmath.workdps(dps):
                levels.append(RFLevel(l, j, +b, N, False, digits, "gram"))
    with mpmath.workdps(wp + 15):
        trace_digits = agreement(first.kernel_trace, second.kernel_trace, 0, dps)
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
    return Partial(out, traces, second.kernel_trace, None, [], notes, "gram", trace_digits,
                    traces_digits)


def _gram_mp_passes(expr: Any, d: int, s: Any, ls: list[int], jmax: int, dps: int
                    ) -> tuple[Any, Any, int]:
    """The two passes of :func:`gram_mp_part`: the first at wp = dps + 12 digits (redone
    with more when its eigen-spread b_0/b_jmax costs more than 4 digits), the second with
    steps ×3/4 and five more digits; refused above ``GRAM_MP_MAX_WORK``. Returns (first,
    second, the first's wp)."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.randomfeatures.gram import gram_mp

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


def gram_part(func: Any, expr: Any, parity: int, d: int, s: Any, ls: list[int], jmax: int,
               dps: int, strict: bool) -> Partial | DomainError | None:
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
    trace_digits = agreement(mpmath.mpf(first.kernel_trace), trace, trace * 1e-14,
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
    return Partial(out, traces, trace, None, [], notes, "gram", trace_digits, traces_digits)


def _gram_float_passes(expr: Any, d: int, s: Any, ls: list[int]) -> tuple[Any, Any] | None:
    """The two float64 passes of :func:`gram_part`: the log rule's step h (as
    :func:`_numeric_plan`'s hx at 22 digits) and 3/4 h, Gauss–Jacobi nodes in t for σ(a t) up
    to the radial node of weight 1e-16 (1.5 times as many in the second); None when float64
    overflows."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.randomfeatures.gram import gram_float

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
        traces_digits[l] = agreement(mpmath.mpf(first.traces[l]), traces[l],
                                      mpmath.mpf(second.traces[l]) * 1e-14, min(dps, 15))
        for j in range(jmax + 1):
            if j >= len(second.eigenvalues[l]):
                raise DomainError("jmax", jmax, f"j < {len(second.eigenvalues[l])} at l = {l}",
                                  reason=f"exceeds the {second.nodes} radial nodes")
            a, b = first.eigenvalues[l][j], second.eigenvalues[l][j]
            digits = agreement(mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(second.rounding[l][j]),
                                min(dps, 15))
            if digits < dps and (worst is None or digits < worst[2]):
                worst = (l, j, digits)
            error = None if digits else mpmath.mpf(abs(a - b) + second.rounding[l][j])
            levels.append(RFLevel(l, j, mpmath.mpf(b), N, False, digits, "gram", error=error))
    return out, traces, traces_digits, worst

