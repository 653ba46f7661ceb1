"""The Nyström route (:mod:`.radial`) for a smooth part of σ: two passes (more radial nodes, a
finer z step, more digits), each eigenvalue kept to the digits on which they agree and that the
Mehler truncation bound guarantees; the work bounded before it starts."""

from __future__ import annotations

import math
from typing import Any

import mpmath

from fltheory.engine.randomfeatures.levels import (
    FLOAT_MAX_DPS,
    FLOAT_SPEEDUP,
    GUARD,
    KMAX,
    MAX_WORK,
    Partial,
    RFLevel,
    agreement,
    multiplicity,
)
from fltheory.exact import DomainError, check_cost

__all__ = ["numeric_part"]


#: Below this d the radial law is wide and the Laguerre rule converges slowly (μ_k(r) is not
#: analytic at r = 0 for, e.g., tanh): the trapezoidal rule in log r² is used instead.
_LOG_RULE_D = 200


def _numeric_plan(d: int, lmax: int, jmax: int, dps: int) -> tuple[int, int, int, Any, Any]:
    """(K, n_r, wp, h0, hx) of the first Nyström pass: Mehler truncation K (smallest with
    E|t|^{K+1} <= 10^{−wp}, plus lmax + 2, at most 80), Laguerre nodes n_r (d >= 200) or the
    log-rule step hx (d < 200), working digits wp, z-step h0."""
    from fltheory.engine.randomfeatures.radial import abs_t_moment_mp

    # λ_{l,j}/λ_{l,0} falls like ~d^{−2j}: the eigen-solver's absolute error 10^{−wp}‖A‖
    # must leave dps digits on the smallest asked eigenvalue.
    wp = dps + GUARD + jmax * (3 + int(2 * math.log10(d)))
    K = lmax
    with mpmath.workdps(20):
        while K < KMAX and abs_t_moment_mp(d, K + 1) > mpmath.mpf(10) ** (-wp):
            K += 1
    K = min(KMAX, K + lmax + 2)
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


def numeric_part(func: Any, expr: Any, parity: int, d: int, s: Any, ls: list[int], jmax: int,
                  dps: int, strict: bool = True) -> Partial:
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
        traces_digits = {l: agreement(first.traces[l], second.traces[l],
                                       second.truncation[l], dps) for l in ls}
    return Partial(out, traces, second.kernel_trace, None, [], notes, "nystrom", trace_digits,
                    traces_digits)


def _nystrom_passes(func: Any, expr: Any, parity: int, d: int, s: Any, ls: list[int],
                    jmax: int, dps: int) -> tuple[Any, Any, int, int, Any, bool]:
    """The two Nyström passes of :func:`numeric_part` (the second with 6 more radial nodes, a
    z-step 4/5 as long and 10 more digits), in float64 when ``dps`` <= ``FLOAT_MAX_DPS``, else
    in mpmath (the first pass redone with more digits when its eigenvalues spread wider than
    the guard); refused for σ with kinks and above ``MAX_WORK``. Returns (first, second, K,
    wp, hx, float64 or not) with K, hx of :func:`_numeric_plan` and the first pass's wp."""
    import sympy as sp

    from fltheory.engine.functions import Z
    from fltheory.engine.hermite.quadrature import kink_points
    from fltheory.engine.randomfeatures.radial import nystrom

    if kink_points(expr):
        raise DomainError("sigma", func.text, "smooth activations, or activations that are "
                          "polynomial on each half-line (exact route)",
                          reason="has kinks but is not polynomial on each half-line: the "
                                 "Nyström route (trapezoidal rule in z) needs a smooth σ")
    lmax = max(ls, default=0)  # no l of this parity asked: its trace is still needed
    K, n_r, wp, h0, hx = _numeric_plan(d, lmax, jmax, dps)
    use_float = dps <= FLOAT_MAX_DPS
    work = _numeric_work(d, s, K, n_r, wp, h0, hx) / (FLOAT_SPEEDUP if use_float else 1)
    check_cost(f"d = {d} (lmax = {lmax}, jmax = {jmax}, dps = {dps})", work, MAX_WORK,
               "multiply-adds (Nyström)",
               "lower dps or lmax, or raise d: small d needs many Mehler terms and nodes")
    s2 = mpmath.mpf(sp.N(s**2, wp + 20))
    finer = mpmath.mpf(4) / 5
    if use_float:
        from fltheory.engine.randomfeatures.radial import nystrom_float

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
            wp = dps + GUARD + spread
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


