r"""Taylor coefficients of a kernel known pointwise, and its eigenvalues through them.

A dot-product kernel positive definite on every sphere is κ(t) = Σ_j b_j t^j with b_j >= 0 and
Σ_j b_j = κ(1) < ∞ (Schoenberg 1942), analytic in the open unit disc and bounded there by κ(1).
Its coefficients are the Cauchy integrals b_j = (2πi)^{-1} ∮_{|z|=r} κ(z) z^{-j-1} dz, r < 1;
the trapezoidal rule on N equally spaced points is the discrete Fourier transform

.. math::  \hat b_j = \frac{1}{N r^j} \sum_{m<N} \kappa(r\omega^m)\,\omega^{-jm}
           = b_j + \sum_{i \ge 1} b_{j+iN}\, r^{iN},

so the aliasing error is at most κ(1) r^{N−j} (b >= 0), and rounding at ε relative to κ(1)
costs ε r^{−j}. With N >= 4(J + 1) and r^N = ε, both stay below 2 ε κ(1) r^{−j} <= 2 ε^{3/4} κ(1)
for every j <= J: the working precision is 4/3 of the digits asked for (:func:`taylor`). The
transform itself runs in fixed point on Python integers (exact up to one rounding per
butterfly, counted in the bound).

:func:`series_eigenvalues` then takes μ_k = Σ_j b_j a_{j,k} with the bounds of
:func:`~fltheory.engine.kernels.moments.funk_hecke`: the coefficients' errors, and the mass beyond
J by parity, (κ(1) ± κ(−1))/2 minus what was found. The truncation J grows fourfold until every μ_k
is confirmed to ``dps`` digits, J reaches ``jmax``, or the decay of the bound (a power of J for
a kernel singular at ±1) shows that ``jmax`` cannot reach them: fewer digits, reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath

from fltheory.engine.kernels.moments import FunkHecke, funk_hecke

__all__ = ["JMAX", "MAX_EXTRA", "SeriesSpectrum", "Taylor", "series_eigenvalues", "taylor"]

#: the largest truncation degree of the Taylor series (N = 4·JMAX evaluations of κ)
JMAX = 4096
#: the most digits a ``relative`` series adds to ``dps`` (κ at N points and an N-point
#: transform at dps + MAX_EXTRA digits; measured: exp(2t − 2) with kmax 200 and dps 30 took
#: 641 more at d = 3, 405 at d = 10⁶; with kmax 400 and dps 100 at d = 3, 22.8 s in all)
MAX_EXTRA = 2000


@dataclass(frozen=True)
class Taylor:
    """b_0 … b_J (mpmath) with ``errors[j]`` >= |b_j − coefficients[j]|, from ``points``
    evaluations on the circle of ``radius``; ``negative``: the degrees whose coefficient is
    negative beyond its error (not a kernel positive definite on every sphere)."""

    coefficients: tuple[Any, ...]
    errors: tuple[Any, ...]
    radius: Any
    points: int
    negative: tuple[int, ...]


def _fft(re: list[int], im: list[int], P: int, twiddles: tuple[list[int], list[int]]) -> None:
    """In-place forward DFT (X_j = Σ x_m e^{−2πi jm/N}) of fixed-point numbers (value·2^P),
    radix 2, iterative."""
    n = len(re)
    j = 0
    for i in range(1, n):  # bit reversal
        bit = n >> 1
        while j & bit:
            j ^= bit
            bit >>= 1
        j |= bit
        if i < j:
            re[i], re[j] = re[j], re[i]
            im[i], im[j] = im[j], im[i]
    cos_t, sin_t = twiddles
    size = 2
    while size <= n:
        half, step = size // 2, n // size
        for start in range(0, n, size):
            for k in range(half):
                wr, wi = cos_t[k * step], -sin_t[k * step]
                a, b = start + k, start + k + half
                xr, xi = re[b], im[b]
                tr = (wr * xr - wi * xi) >> P
                ti = (wr * xi + wi * xr) >> P
                re[b], im[b] = re[a] - tr, im[a] - ti
                re[a], im[a] = re[a] + tr, im[a] + ti
        size *= 2


_TWIDDLES: dict[tuple[int, int], tuple[list[int], list[int]]] = {}


def _twiddles(n: int, P: int) -> tuple[list[int], list[int]]:
    key = (n, P)
    if key not in _TWIDDLES:
        with mpmath.workprec(P + 20):
            scale = mpmath.mpf(2) ** P
            angles = [2 * mpmath.pi * k / n for k in range(n // 2)]
            _TWIDDLES[key] = ([int(mpmath.nint(mpmath.cos(a) * scale)) for a in angles],
                              [int(mpmath.nint(mpmath.sin(a) * scale)) for a in angles])
    return _TWIDDLES[key]


def taylor(f: Callable[[Any], Any], J: int, dps: int, mass: Any) -> Taylor:
    """b_0 … b_J of a kernel f (real on the real axis, analytic on |z| < 1, non-negative
    coefficients summing to ``mass`` = f(1)) at ``dps`` digits relative to ``mass``.

    >>> t = taylor(lambda z: mpmath.exp(2 * z - 2), 6, 20, mpmath.exp(0))
    >>> [mpmath.nstr(c * mpmath.e**2, 12) for c in t.coefficients[:4]]
    ['1.0', '2.0', '2.0', '1.33333333333']
    """
    n = 64
    while n < 4 * (J + 1):
        n *= 2
    wdps = math.ceil(4 * (dps + 5) / 3) + 5
    P = math.ceil((wdps + 10) * math.log2(10)) + 2 * n.bit_length()
    with mpmath.workdps(wdps + 10):
        eps = mpmath.mpf(10) ** (-wdps)
        r = eps ** (mpmath.mpf(1) / n)
        scale = mpmath.mpf(2) ** P
        re, im = [0] * n, [0] * n
        for m in range(n // 2 + 1):
            z = r * mpmath.expjpi(mpmath.mpf(2 * m) / n)
            v = mpmath.mpc(f(z)) if m not in (0, n // 2) else mpmath.mpc(f(z.real))
            re[m], im[m] = int(mpmath.nint(v.real * scale)), int(mpmath.nint(v.imag * scale))
            if 0 < m < n // 2:  # f(conj z) = conj f(z)
                re[n - m], im[n - m] = re[m], -im[m]
        _fft(re, im, P, _twiddles(n, P))
        mass = mpmath.mpf(mass)
        coefficients, errors, negative = [], [], []
        for j in range(J + 1):
            rj = r**j
            c = mpmath.mpf(re[j]) / scale / n / rj
            e = 2 * (eps * abs(mass) + mpmath.mpf(n.bit_length()) / scale) / rj
            if abs(c) <= e:
                c = mpmath.mpf(0)
            elif c < 0:
                negative.append(j)
            coefficients.append(c)
            errors.append(e)
    return Taylor(tuple(coefficients), tuple(errors), r, n // 2 + 1, tuple(negative))


@dataclass(frozen=True)
class SeriesSpectrum:
    """μ_0 … μ_kmax from the Taylor series truncated at ``J`` (``spectrum``, with bounds), the
    coefficients found (``taylor``) and the parity masses beyond J (``tail``)."""

    spectrum: FunkHecke
    taylor: Taylor
    J: int
    tail: tuple[Any, Any]


def series_eigenvalues(f: Callable[[Any], Any], at_one: Any, at_minus_one: Any, d: int,
                       kmax: int, dps: int, jmax: int = JMAX,
                       progress: Callable[[str], None] | None = None,
                       settled: Callable[[SeriesSpectrum], bool] | None = None,
                       relative: bool = False) -> SeriesSpectrum:
    """Eigenvalues of the kernel f on S^{d−1} through its Taylor series (module docstring);
    ``at_one``, ``at_minus_one``: f(1) and f(−1) (the parity masses); ``settled``: asked after
    each truncation whether the answer so far already decides (e.g. a kernel that is not
    positive semi-definite, to be refused): then no longer series are computed.

    ``relative``: f can be evaluated at any precision, f(±1) included (an expression). The
    coefficients' errors are then not left at ``dps`` digits of κ(1): μ_k ≈ b_k·a_{k,k} falls
    far below κ(1) at high degree (exp(2t − 2) at d = 3: μ_40 ≈ 10⁻⁴⁹, μ_200 ≈ 10⁻³¹⁴), so
    the working precision of the Cauchy integral (and of the parity masses, whose difference
    bounds the tail) grows by the digits the worst bound lacks, :data:`MAX_EXTRA` at most.

    >>> s = series_eigenvalues(lambda z: z**3 + z, 2, -2, 3, 3, 20)
    >>> [mpmath.nstr(v, 10) for v in s.spectrum.values], s.spectrum.digits(3)
    (['0.0', '0.5333333333', '0.0', '0.05714285714'], 20)
    """
    J = max(2 * kmax + 32, 64)
    extra = 0          # digits beyond dps of the Taylor coefficients (``relative``)
    extend, seen_nonzero = True, -1
    raised: Any = None     # the worst bound before the last raise of the working digits
    previous: tuple[int, Any] | None = None
    while True:
        wdps = dps + extra + 10
        with mpmath.workdps(wdps):
            if extra:
                at_one, at_minus_one = (mpmath.mpf(mpmath.mpmathify(f(mpmath.mpf(x))).real)
                                        for x in (1, -1))
            even = (mpmath.mpf(at_one) + mpmath.mpf(at_minus_one)) / 2
            odd = (mpmath.mpf(at_one) - mpmath.mpf(at_minus_one)) / 2
        if progress is not None:
            more = f" at {dps + extra} digits" if extra else ""
            progress(f"Taylor series of the kernel to degree {J} ({4 * (J + 1)} points){more}")
        t = taylor(f, J, dps + extra, at_one)
        with mpmath.workdps(wdps):
            found_even = mpmath.fsum(t.coefficients[0::2])
            found_odd = mpmath.fsum(t.coefficients[1::2])
            slack = mpmath.fsum(t.errors)
            tail = (max(even - found_even, mpmath.mpf(0)) + slack,
                    max(odd - found_odd, mpmath.mpf(0)) + slack)
        spec = funk_hecke(d, kmax, t.coefficients, dps, errors=t.errors, tail=tail)
        # a value found to be 0 (every coefficient of its parity decided zero) is settled by
        # its bound alone; the others need dps confirmed digits
        with mpmath.workdps(dps + 10):
            worst = max((spec.bounds[k] / abs(spec.values[k]) for k in range(kmax + 1)
                         if spec.values[k] != 0), default=mpmath.mpf(0))
            target = mpmath.mpf(10) ** (-dps - 1)
            if worst <= target:
                return SeriesSpectrum(spec, t, J, tail)
        if settled is not None and settled(SeriesSpectrum(spec, t, J, tail)):
            return SeriesSpectrum(spec, t, J, tail)
        with mpmath.workdps(dps + 10):
            if raised is not None and worst > raised / 10:
                # the last raise of the working digits did not shrink the worst bound ten-fold:
                # the truncation limits, not the precision (a kernel singular at ±1 whose odd
                # coefficients past 1 are 0, as the arc-cosine kernels: each raise was
                # 19 digits more for nothing, minutes in all)
                relative = False
            raised = None
            if relative and extra < MAX_EXTRA:
                nonzero = sum(1 for v in spec.values if v != 0)
                extend = extend and nonzero > seen_nonzero
                seen_nonzero = nonzero
                lack = _precision_lack(spec, t, tail, slack, kmax, target, extend)
                if lack > 0:
                    raised = worst
                    # the bounds scale as 10^(−3/4 of the working digits) (taylor): 4/3 of
                    # what they lack, and a margin
                    extra = min(MAX_EXTRA, extra + math.ceil(4 * lack / 3) + 5)
                    continue
            if jmax <= J:
                return SeriesSpectrum(spec, t, J, tail)
            if previous is not None:
                # the bound falls like a power of J for a kernel singular at ±1: stop when
                # that power cannot reach the target within jmax (fewer digits, said so)
                J0, worst0 = previous
                power = mpmath.log(worst0 / worst) / mpmath.log(mpmath.mpf(J) / J0) \
                    if worst0 > worst else mpmath.mpf(0)
                if power <= 0 or J * (worst / target) ** (1 / power) > jmax:
                    return SeriesSpectrum(spec, t, J, tail)
        previous = (J, worst)
        J = min(4 * J, jmax)


def _precision_lack(spec: FunkHecke, t: Taylor, tail: tuple[Any, Any], slack: Any, kmax: int,
                    target: Any, extend: bool) -> float:
    """The decimal digits the working precision lacks (0: the truncation J is what limits).

    The precision limits when the coefficients up to kmax are not resolved to the target
    (one of them decided 0 while its parity has mass, or its error above target × itself), or
    the mass beyond J is not resolved above the rounding (the parity difference at most
    twice the slack): then the worst μ_k's bound over the target, that μ_k taken from its
    value where the value is confirmed and else extrapolated from the confirmed values of its
    parity (ln μ_k a parabola in k through the last three, bent down only; a line through two
    at first): it may still over-estimate μ_k, and a further pass then follows. ``extend``:
    a μ_k found 0 while its parity has mass counts too (its coefficients may lie below the
    rounding: exp(2t − 2) at d = 10⁶, μ_200 ≈ 10⁻¹¹⁴¹); the caller stops that once a pass at
    more digits finds no new non-zero value (exp(t²) + t: its odd μ_k >= 3 are 0)."""
    cs, es = t.coefficients, t.errors
    live = [any(c != 0 for c in cs[p::2]) for p in (0, 1)]
    coarse = any(live[j % 2] and (cs[j] == 0 or es[j] > target * abs(cs[j]))
                 for j in range(min(kmax, len(cs) - 1) + 1))
    noisy = any(live[p] and tail[p] <= 3 * slack for p in (0, 1))
    if not (coarse or noisy):
        return 0.0
    lack = 0.0
    known: dict[int, list[tuple[int, Any]]] = {0: [], 1: []}
    for k, (v, b) in enumerate(zip(spec.values, spec.bounds, strict=True)):
        if v == 0 and (not live[k % 2] or not extend):
            continue     # every coefficient from k on of its parity decided 0: its bound
        seen = known[k % 2]
        if v != 0 and b < abs(v) * mpmath.mpf("1e-3"):
            size = abs(v)
            seen.append((k, size))
        elif len(seen) >= 3:
            # ln μ through the last three confirmed values, a parabola in k (an entire
            # kernel's ln μ_k bends down like −k ln k: a line would ask too little)
            (k1, v1), (k2, v2), (k3, v3) = seen[-3:]
            l1, l2, l3 = mpmath.log(v1), mpmath.log(v2), mpmath.log(v3)
            s12, s23 = (l2 - l1) / (k2 - k1), (l3 - l2) / (k3 - k2)
            bend = min((s23 - s12) / (k3 - k1), mpmath.mpf(0))
            size = mpmath.exp(l3 + (s23 + bend * (k3 - k2)) * (k - k3) + bend * (k - k3) ** 2)
        elif len(seen) == 2:
            (k1, v1), (k2, v2) = seen
            size = v2 * (v2 / v1) ** (mpmath.mpf(k - k2) / (k2 - k1))
        else:
            return 10.0     # nothing to extrapolate from: ten more digits
        if b > target * size:
            lack = max(lack, float(mpmath.log10(b / (target * size))))
    return lack
