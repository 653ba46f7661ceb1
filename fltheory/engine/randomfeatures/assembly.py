"""The spectrum of the random-feature operator for any σ (:func:`spectrum`): σ split into its
even and odd parts, each sent to its route (exact, Gram, Nyström), the levels merged with the
trace identity."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mpmath

from fltheory.engine.randomfeatures._route_exact import exact_part
from fltheory.engine.randomfeatures._route_gram import (
    GRAM_FLOAT_MAX_DPS,
    GRAM_FLOAT_TRY_DPS,
    GRAM_MAX_D,
    GRAM_MP_MAX_DPS,
    gram_mp_part,
    gram_part,
)
from fltheory.engine.randomfeatures._route_nystrom import numeric_part
from fltheory.engine.randomfeatures.levels import (
    AUTO_DPS,
    GUARD,
    Partial,
    RFLevel,
    RFSpectrum,
    level_zero,
    multiplicity,
)
from fltheory.engine.randomfeatures.model import RFModel
from fltheory.exact import DomainError

__all__ = ["kernel_trace", "spectrum"]


def spectrum(model: RFModel) -> RFSpectrum:
    """The eigenvalues λ_{l,j} (l <= lmax, j <= jmax) of the m → ∞ random-feature operator of
    ``model`` (:class:`~.model.RFModel`: σ, d, w ~ N(0, s² I_d/d)), each with its
    multiplicity N(d, l), plus the trace identity.

    Exact (sympy closed forms, values to all ``dps`` digits) for σ polynomial on each
    half-line; otherwise Gram (d < 200) or Nyström, each value verified on ``digits`` >= dps
    digits (else DomainError naming the eigenvalue and the digits reached). The work is bounded
    before it starts. ``dps=None``: the highest precision of :data:`~.levels.AUTO_DPS`
    (15, 10, 6, 5) whose work is within the bound (checked before any work), and instead of a
    refusal each value keeps the digits it is confirmed to, with a note naming the shortest
    (small d needs many Mehler terms and nodes). Returns an :class:`~.levels.RFSpectrum`.

    λ_{l,j} = j-th eigenvalue of K_l(r, r') = Σ_k c_{k,l} μ_k(r) μ_k(r') on the law of r = ‖w‖.

    >>> spec = spectrum(RFModel("relu", 3, lmax=2, jmax=1, dps=15))
    >>> [str(v.closed) for v in spec.levels]
    ['3/16', '0', '1/12', '0', '3/256', '0']
    >>> spec.eigenvalue(2, 0) == mpmath.mpf(3) / 256
    True
    >>> auto = spectrum(RFModel("erf", 3, lmax=3, jmax=2, dps=None))
    >>> auto.level(3, 2).method, auto.level(3, 2).digits >= 10
    ('gram', True)
    """
    if model.dps is None:
        return _spectrum_auto(model)
    return _spectrum(model, model.dps, True)


def _spectrum(model: RFModel, dps: int, strict: bool) -> RFSpectrum:
    """:func:`spectrum` at ``dps``; ``strict``: a value short of ``dps`` digits is a
    DomainError (else it keeps its own ``digits`` and a note says so)."""
    from fltheory.engine.functions import Z
    from fltheory.engine.randomfeatures.piecewise import piecewise_parts

    func, d, s, lmax, jmax = model.sigma, model.d, model.scale, model.lmax, model.jmax
    parts = piecewise_parts(func.expr, Z)
    if parts is not None:
        partials = [exact_part(parts, _parity(func.expr), d, s, list(range(lmax + 1)), jmax,
                               dps)]
    else:
        partials = [_part(func, expr, parity, d, s, lmax, jmax, dps, strict)
                    for expr, parity in _parity_parts(func.expr)]
    return _merge(func, d, s, dps, lmax, jmax, partials)


def _spectrum_auto(model: RFModel) -> RFSpectrum:
    """:func:`spectrum` at the highest precision of AUTO_DPS whose work is within the bound
    (checked before any work), each value with the digits it is confirmed to."""
    error: DomainError | None = None
    for dps in AUTO_DPS:
        try:
            return _spectrum(model, dps, False)
        except DomainError as exc:
            if "multiply-adds (Nyström)" not in str(exc):
                raise
            error = exc
    assert error is not None
    raise error


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
          dps: int, strict: bool = True) -> Partial:
    from fltheory.engine.functions import Z
    from fltheory.engine.randomfeatures.piecewise import piecewise_parts

    ls = [l for l in range(lmax + 1) if l % 2 == (0 if parity == 1 else 1)]
    kind, other = ("even", "odd") if parity == 1 else ("odd", "even")
    if expr == 0:
        why = (f"σ is {other}: its {kind} part is 0, so μ_k(r) = 0 for {kind} k and every "
               f"{kind} l vanishes (c_(k,l) = 0 unless k ≡ l mod 2)")
        levels = {l: [level_zero(l, j, multiplicity(d, l), dps, "zero:parity", why)
                      for j in range(jmax + 1)] for l in ls}
        return Partial(levels, dict.fromkeys(ls, mpmath.mpf(0)), mpmath.mpf(0),
                        0, [why], [], "")
    parts = piecewise_parts(expr, Z)
    if parts is not None:
        partial = exact_part(parts, parity, d, s, ls, jmax, dps, f"the {kind} part of σ")
        partial.notes.append(f"the {kind} part of σ, {expr}, is polynomial on each half-line: "
                             f"{kind} l exact")
        return partial
    if d < GRAM_MAX_D and strict and GRAM_FLOAT_MAX_DPS < dps <= GRAM_MP_MAX_DPS \
            and not _kinks_of(expr):
        if dps <= GRAM_FLOAT_TRY_DPS:  # float64 first: it often confirms these digits
            gram = gram_part(func, expr, parity, d, s, ls, jmax, dps, strict)
            if isinstance(gram, Partial):
                return gram
        return gram_mp_part(func, expr, parity, d, s, ls, jmax, dps)
    if d < GRAM_MAX_D and (dps <= GRAM_FLOAT_MAX_DPS or not strict):
        gram = gram_part(func, expr, parity, d, s, ls, jmax, dps, strict)
        if isinstance(gram, Partial):
            return gram
        if gram is not None:  # short of dps: the mpmath route if affordable, else say so
            try:
                return numeric_part(func, expr, parity, d, s, ls, jmax, dps, strict)
            except DomainError as exc:
                if "multiply-adds (Nyström)" not in str(exc):
                    raise
                raise gram from None
    return numeric_part(func, expr, parity, d, s, ls, jmax, dps, strict)


def _merge(func: Any, d: int, s: Any, dps: int, lmax: int, jmax: int,
           partials: list[Partial]) -> RFSpectrum:
    levels: list[RFLevel] = []
    traces = []
    for l in range(lmax + 1):
        owner = next(p for p in partials if l in p.levels)
        levels.extend(owner.levels[l])
        traces.append(owner.traces[l])
    with mpmath.workdps(dps + GUARD):
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


def _kinks_of(expr: Any) -> bool:
    from fltheory.engine.hermite.quadrature import kink_points

    return bool(kink_points(expr))


def kernel_trace(sigma: Any, d: int, scale: Any = 1, dps: int = 30) -> Any:
    """E_w K(w, w) = E_r E_z σ(rz)², the m → ∞ limit of trace J (= Σ_l N(d, l) Σ_j λ_{l,j}).

    Arguments as :class:`~.model.RFModel` reads them. Returns an mpmath number at ``dps``
    digits: exact (Gamma ratios) for σ polynomial on each half-line, else by the numeric
    routes.

    >>> kernel_trace("relu", 5, 2)
    mpf('2.0')
    """
    return spectrum(RFModel(sigma, d, scale, lmax=0, jmax=0, dps=dps)).trace
