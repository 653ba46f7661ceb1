"""Shared pieces of the quadratic-network theory modules (seed 003): the work bounds, the
divergence error and the argument readers (exact steps, finite reals, matrices). Private: the
public names are re-exported by :mod:`fltheory.theory.quadratic`."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.exact import DomainError, check_integer, to_float

#: bounds on the work one call may ask for (see :func:`ode_cost`, :func:`escape_cost`): an
#: accepted request finishes in well under a minute on a 2-core machine
ODE_SECONDS_LIMIT = 20.0
ESCAPE_SECONDS_LIMIT = 60.0
MEMORY_LIMIT_BYTES = 2**30


class ODEDivergence(DomainError):
    """The ODE left every bounded region: finite-time blow-up at about time ``t`` (the step is
    above the stability limits, :func:`~fltheory.theory.quadratic.stability_bounds`). A
    :class:`~fltheory.exact.DomainError` on ``eta``, so the CLI prints it as one line."""

    def __init__(self, eta: object, t: float):
        self.t = t
        super().__init__("eta", eta, "steps for which the ODE stays bounded "
                         "(see stability_bounds)",
                         reason=f"makes the ODE diverge: the order parameters exceed 1e8 times "
                                f"their scale by t ≈ {t:.3g} (finite-time blow-up)")


def _step(eta: Any, param: str = "eta", allow_zero: bool = False) -> Fraction:
    """A step as an exact rational: a Fraction (or int) is kept exactly — every caller inside
    fltheory (CLI, claims, views) passes the user's Fraction. A float typed by a Python user is
    read as the decimal it stands for, its shortest round-tripping repr (so 0.1 is 1/10 and
    1e-13 is 1/10^13; no limit_denominator, which turned 1.23456789e-5 into
    5365622/434615385955); this is reading a float, not a round trip of a rational. Refuses
    values a double cannot hold, and steps <= 0 (or < 0 with ``allow_zero``)."""
    if isinstance(eta, bool) or not isinstance(eta, int | float | Fraction):
        raise DomainError(param, eta, "a rational or float step")
    if isinstance(eta, float):
        if not math.isfinite(eta):
            raise DomainError(param, eta, "finite steps > 0")
        eta = Fraction(repr(eta))  # the shortest decimal that is this float: what was typed
    eta = Fraction(eta)
    to_float(eta, param)
    if eta < 0 or (eta == 0 and not allow_zero):
        raise DomainError(param, _fstr(eta), f"{param} >= 0" if allow_zero else f"{param} > 0")
    return eta


def _count(value: Any, param: str, minimum: int | None = None, maximum: int | None = None
           ) -> int:
    """An integer argument (not a bool, float or string) within inclusive bounds."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise DomainError(param, str(value)[:40], "integers" if minimum is None
                          else f"integers >= {minimum}")
    return check_integer(int(value), param, minimum, maximum)


def _fstr(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _real(x: Any, param: str, low: float | None = None, strict: bool = False) -> float:
    """A finite real argument (float, int or Fraction) >= ``low`` (> with ``strict``)."""
    if isinstance(x, bool) or not isinstance(x, int | float | Fraction | np.floating | np.integer):
        raise DomainError(param, x, "a real number")
    v = to_float(Fraction(x), param) if isinstance(x, Fraction | int) else float(x)
    if not math.isfinite(v) or (low is not None and (v < low or (strict and v == low))):
        raise DomainError(param, x, f"finite numbers {'>' if strict else '>='} {low}"
                          if low is not None else "finite numbers")
    return v


def _noise(sigma: Any, param: str = "noise") -> Fraction:
    """A label-noise standard deviation σ >= 0 as an exact rational (a float read as by
    :func:`_step`)."""
    return _step(sigma, param, allow_zero=True)


def _matrix(M: Any, param: str, shape: tuple[int, int]) -> np.ndarray:
    A = np.asarray(M, dtype=float)
    if A.shape != shape:
        raise DomainError(param, f"an array of shape {A.shape}", f"shape {shape}")
    if not np.isfinite(A).all():
        raise DomainError(param, "a matrix with non-finite entries", "finite entries")
    return A
