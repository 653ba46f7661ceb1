r"""The one zero rule of the Hermite engine: when a coefficient (or any Gaussian expectation)
counts as zero at a working precision of ``dps`` digits.

**The rule** (:data:`ZERO_RULE`), the same for exact and numeric values: a value v of natural
scale s counts as zero at ``dps`` digits when |v| <= 10^{−dps}·s (the *zero bound*; for a
numeric value also when |v| is below its error estimate). An exact value is evaluated to
``dps`` + 10 significant digits by sympy's ``evalf`` (which raises its precision through
cancellations) before the comparison, so the exact and the numeric paths decide the same value
the same way. Three outcomes are told apart:

* **exactly zero**: sympy proves v = 0;
* **near zero**: v is not proved zero (for an exact value: proved *non*-zero, or undecided) but
  |v| <= 10^{−dps}·s. It counts as zero at this precision and is reported with its size and the
  precision that would resolve it (:meth:`ZeroTest.describe`), never as a bare "non-zero";
* **non-zero**: |v| > 10^{−dps}·s.

For the Hermite coefficients μ_k = E[f h_k] the scale is ‖f‖ = E[f²]^{1/2} (|μ_k| <= ‖f‖ by
Cauchy–Schwarz); for a conditional expectation E[h_k | y] it is 1 (‖h_k‖ = 1). The exponents of
:mod:`fltheory.engine.hermite.exponents` decide with this rule, and so should every other
"μ_k(σ) = 0" decision (the two-step rules): call :func:`decide_zero`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

__all__ = ["ZERO_RULE", "ZeroTest", "decide_zero", "zero_bound"]

#: The rule as a sentence (for conventions and notes).
ZERO_RULE = ("a value counts as zero at dps digits when |value| <= 10^-dps·scale (scale ‖f‖ for "
             "μ_k = E[f h_k], 1 for E[h_k | y]), exact values evaluated to dps + 10 digits first; "
             "one not proved exactly 0 but under that bound is reported as near zero, with its "
             "size")

_GUARD = 10


def zero_bound(dps: int, scale: Any = 1) -> Any:
    """The zero bound 10^{−dps}·scale (an mpmath number at ``dps`` + 10 digits).

    >>> zero_bound(30, 2)
    mpf('2.0e-30')
    """
    with mpmath.workdps(dps + _GUARD):
        bound = mpmath.mpf(10) ** (-dps) * mpmath.mpf(scale)
    return bound


@dataclass(frozen=True)
class ZeroTest:
    """The decision of :func:`decide_zero` on one value.

    ``zero``: the value counts as zero at ``dps`` digits; ``exactly_zero``: True when sympy proved
    it 0, False when it is proved non-zero (an exact value, or a numeric one above its error),
    None when undecided; ``magnitude``: |value| (mpmath, 0 when exactly zero); ``bound``: the zero
    bound 10^{−dps}·scale; ``exact``: the value was exact (sympy)."""

    zero: bool
    exactly_zero: bool | None
    magnitude: Any
    bound: Any
    dps: int
    exact: bool

    @property
    def near_zero(self) -> bool:
        """Counts as zero at this precision without being proved exactly zero."""
        return self.zero and self.exactly_zero is not True

    @property
    def resolving_dps(self) -> int | None:
        """The smallest ``dps`` at which the value would count as non-zero (None when it is
        exactly zero, or already non-zero)."""
        if not self.near_zero or self.magnitude == 0:
            return None
        scale = self.bound * mpmath.mpf(10) ** self.dps
        return math.floor(float(-mpmath.log10(self.magnitude / scale))) + 1

    def describe(self, name: str) -> str:
        """One phrase for ``name`` (e.g. "μ_2"): "μ_2 = 0 (exact)", "μ_2 ≈ -8.5958e-45: near
        zero, exactly non-zero but under the zero bound 7.0e-31 at dps 30 (counted as 0; --dps 45
        resolves it)", "|μ_2| <= 1.0e-30 (numeric zero)", or "μ_2 ≈ 0.5 (non-zero)"."""
        bound = mpmath.nstr(self.bound, 2)
        if self.exactly_zero is True:
            return f"{name} = 0 (exact)"
        if self.near_zero:
            if not self.exact:
                return f"|{name}| <= {bound} (numeric zero at dps {self.dps})"
            proved = ("exactly non-zero" if self.exactly_zero is False
                      else "not proved zero by sympy")
            resolve = self.resolving_dps
            more = f"; --dps {resolve} resolves it" if resolve is not None else ""
            return (f"{name} ≈ {mpmath.nstr(self.magnitude, 5)} in size: near zero, {proved} "
                    f"but under the zero bound {bound} at dps {self.dps} (counted as 0{more})")
        return f"|{name}| = {mpmath.nstr(self.magnitude, 5)} (non-zero)"


def _exact_magnitude(value: sp.Expr, digits: int) -> Any:
    """|value| to ``digits`` significant digits (sympy evalf, strict: it raises its working
    precision through cancellations), or None when evalf cannot confirm them."""
    try:
        number = sp.Abs(value).evalf(digits, strict=True)
    except (sp.core.evalf.PrecisionExhausted, TypeError, ValueError):
        return None
    if not number.is_Number:
        return None
    return mpmath.mpf(sp.Float(number, digits)._mpf_)


def decide_zero(value: Any, dps: int, scale: Any = 1, error: Any = 0) -> ZeroTest:
    """Whether ``value`` counts as zero at ``dps`` digits (the rule :data:`ZERO_RULE`).

    Parameters: ``value``, an exact sympy number or a numeric one (mpmath, float); ``dps``, the
    working precision in digits; ``scale``, the value's natural scale (‖f‖ for μ_k, 1 for
    E[h_k | y]), > 0; ``error``, for a numeric value an estimate of its absolute error (a value
    below 10 times it counts as zero too). Returns a :class:`ZeroTest`.

    >>> decide_zero(sp.Integer(0), 30).describe("μ_1")
    'μ_1 = 0 (exact)'
    >>> t = decide_zero(sp.exp(-sp.Integer(80)), 30)
    >>> t.zero, t.exactly_zero, t.resolving_dps
    (True, False, 35)
    >>> decide_zero(sp.Rational(1, 2), 30).zero
    False
    """
    bound = zero_bound(dps, scale)
    if isinstance(value, sp.Basic):
        if value == 0:
            return ZeroTest(True, True, mpmath.mpf(0), bound, dps, True)
        with mpmath.workdps(dps + _GUARD):
            magnitude = _exact_magnitude(value, dps + _GUARD)
        if magnitude is not None and magnitude > 0:  # digits confirmed: proved non-zero
            return ZeroTest(bool(magnitude <= bound), False, magnitude, bound, dps, True)
        proved = value.is_zero
        if proved is None:
            proved = sp.simplify(value).is_zero
        if proved:
            return ZeroTest(True, True, mpmath.mpf(0), bound, dps, True)
        with mpmath.workdps(4 * dps + _GUARD):  # undecided: a high-precision look at its size
            magnitude = abs(mpmath.mpmathify(sp.N(value, 4 * dps + _GUARD)))
        return ZeroTest(bool(magnitude <= bound), False if proved is False else None,
                        magnitude, bound, dps, True)
    with mpmath.workdps(dps + _GUARD):
        magnitude = abs(mpmath.mpmathify(value))
        err = abs(mpmath.mpmathify(error))
        zero = bool(magnitude <= bound or magnitude <= 10 * err)
    return ZeroTest(zero, (True if magnitude == 0 else None) if zero else False,
                    magnitude, max(bound, 10 * err), dps, False)
