"""The random-feature model and the spectrum asked of it, as one typed object read once:
:class:`RFModel` (σ, d, s, lmax, jmax, dps). The routes behind :func:`~.assembly.spectrum` trust
what it holds."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from fltheory.args import read_count, read_dps, read_rational, settle
from fltheory.engine.randomfeatures.levels import MAX_D, MAX_JMAX, MAX_L
from fltheory.exact import DomainError

__all__ = ["RFModel", "numpy_face"]


def _scale(scale: Any) -> Any:
    """s as a positive sympy number: a rational as :func:`fltheory.args.read_rational` reads
    it, a sympy number such as sqrt(5), or its text ("sqrt(5)", read by the engine's safe
    parser)."""
    import sympy as sp

    if isinstance(scale, str) and any(ch.isalpha() for ch in scale):
        from fltheory.engine.expressions import parse_expression

        scale = parse_expression(scale, "scale")  # the safe parser: "sqrt(5)", "2*pi"
    if isinstance(scale, sp.Basic):
        if not scale.is_number or scale.is_positive is not True:
            raise DomainError("scale", scale, "positive numbers s > 0")
        return scale
    q = read_rational(scale, "scale", 0, open_low=True)
    return sp.Rational(q.numerator, q.denominator)


@dataclass(frozen=True)
class RFModel:
    """Random features of activation σ at dimension d with weights w ~ N(0, s² I_d/d), and the
    levels asked of the m → ∞ spectrum: l <= ``lmax``, j <= ``jmax``, at ``dps`` digits (None:
    the highest precision of :data:`~.levels.AUTO_DPS` within the work bound, each value with
    its own confirmed digits).

    Read once, in the order d, lmax, jmax, dps, scale, sigma (the first bad one is the error):
    ``sigma`` a catalogue name or an expression in z (:func:`fltheory.engine.functions.
    parse_function`: square-integrable under N(0, 1)) of at most polynomial growth
    (:func:`fltheory.engine.integrability.check_polynomial_growth`), kept as the parsed
    :class:`~fltheory.engine.functions.Function`; ``d`` an integer in [2, 10^12]; ``scale``
    s > 0 as a sympy number; ``lmax`` in [0, 60]; ``jmax`` in [0, 20]; ``dps`` in [5, 100]
    or None.

    >>> m = RFModel("relu", 3, "3/2", lmax=2, jmax=1, dps=15)
    >>> m.sigma.text, m.d, m.scale, m.lmax, m.jmax, m.dps
    ('relu', 3, 3/2, 2, 1, 15)
    >>> RFModel("tanh", 1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: d = 1 is outside the allowed range integers in [2, 1000000000000]
    """

    sigma: Any
    d: Any
    scale: Any = 1
    lmax: Any = 4
    jmax: Any = 2
    dps: Any = 30

    def __post_init__(self) -> None:
        from fltheory.engine.functions import parse_function
        from fltheory.engine.integrability import check_polynomial_growth

        d = read_count(self.d, "d", 2, MAX_D)
        lmax = read_count(self.lmax, "lmax", 0, MAX_L)
        jmax = read_count(self.jmax, "jmax", 0, MAX_JMAX)
        dps = None if self.dps is None else read_dps(self.dps)
        scale = _scale(self.scale)
        func = parse_function(self.sigma, "sigma")
        check_polynomial_growth(func.expr, func.text)
        settle(self, d=d, lmax=lmax, jmax=jmax, dps=dps, scale=scale, sigma=func)


def numpy_face(sigma: Any, known: Collection[str]) -> str | Callable[..., Any]:
    """The activation ``sigma`` (EXPR as in ``fltheory hermite``) as a simulator takes it: its
    catalogue name when the simulator knows it (``known``: the names of its own numpy
    definitions), else the parsed expression as a numpy function (scipy's erf etc.), broadcast
    to its argument's shape. Not square-integrable under N(0, 1): DomainError naming sigma.

    >>> numpy_face("tanh", {"tanh"}), float(numpy_face("z**2 + 1", ())(2.0))
    ('tanh', 5.0)
    """
    import numpy as np
    import sympy as sp

    from fltheory.engine.functions import Z, parse_function

    f = parse_function(sigma, "sigma")
    if f.name in known:
        return f.name
    fn = sp.lambdify(Z, f.expr, modules=["numpy", "scipy"])
    return lambda z: np.broadcast_to(np.asarray(fn(z), dtype=float), np.shape(z))

