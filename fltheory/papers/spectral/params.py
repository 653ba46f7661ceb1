"""The paper's parameters: the spikes of a query (additive θ or multiplicative ℓ) and a
single-index link with its preprocessing, noise and sample ratios.

Definitions, not formulas: each field is read once, here, by :mod:`fltheory.args`, and the
objects are trusted afterwards by the theory, the runs and the command alike. The bulks a spike
query takes (``Semicircle()``, ``MarchenkoPastur(γ)``, ``Density(expr, support)``,
``Sample(eigenvalues)``) are the kit's, :mod:`fltheory.engine.spectral.bulks` (the engine's
formulas take them, and the engine names no paper); the paper's face shows them with these.

What depends on the bulk is the theory's to refuse: θ ≠ 0, ℓ > 0 (ℓ ≠ 1 on a numeric bulk), at
most :data:`~fltheory.engine.spectral.spikes.MAX_SPIKES` spikes (each numeric spike costs
quadratures), a noise level the quadrature resolves, a preprocessing bounded above.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from fltheory.args import read_noise, read_rationals, settle
from fltheory.exact import DomainError

__all__ = ["MAX_ALPHA", "MAX_ALPHAS", "Link", "Spikes"]

#: Most sample ratios α of one link query (each is a Lu–Li solve at two resolutions).
MAX_ALPHAS: Final = 20
#: Largest sample ratio α = n/d of the Lu–Li overlaps: beyond it 1/α is below the doubles'
#: resolution of ψ_δ near λ̄ and the solver overflows (α = 10^300 did); there the squared
#: overlap is within about 1/α of 1 (phase retrieval: 1 to the printed digits at α = 10^6)
MAX_ALPHA: Final = 10**6


@dataclass(frozen=True)
class Spikes:
    """The spikes of a query, exactly one of: ``theta``, additive strengths θ_1, θ_2, … (M = W +
    Σ θ_i u_i u_iᵀ), or ``ell``, multiplicative population eigenvalues ℓ_1, ℓ_2, … (Σ = I +
    Σ (ℓ_i − 1) v_i v_iᵀ); each a list of exact numbers ("3/2,1/2" or a sequence).

    >>> Spikes(theta="3/2,1/2").strengths, Spikes(ell=[3]).model
    ((Fraction(3, 2), Fraction(1, 2)), 'multiplicative')
    >>> Spikes(theta=2, ell=3)
    Traceback (most recent call last):
    fltheory.exact.DomainError: theta = 2 and --ell: give one of them; allowed: exactly one of \
--theta (additive) and --ell (multiplicative)
    """

    theta: Any = None
    ell: Any = None

    def __post_init__(self) -> None:
        if (self.theta is None) == (self.ell is None):
            raise DomainError("theta", self.theta, "exactly one of --theta (additive) and --ell "
                              "(multiplicative)", reason="and --ell: give one of them")
        if self.theta is not None:
            settle(self, theta=read_rationals(self.theta, "theta"))
        else:
            settle(self, ell=read_rationals(self.ell, "ell"))

    @property
    def model(self) -> str:
        """``"additive"`` (θ) or ``"multiplicative"`` (ℓ)."""
        return "additive" if self.theta is not None else "multiplicative"

    @property
    def param(self) -> str:
        """The parameter's name: ``"theta"`` or ``"ell"``."""
        return "theta" if self.theta is not None else "ell"

    @property
    def strengths(self) -> tuple[Fraction, ...]:
        """θ_i or ℓ_i, exact."""
        return tuple(self.theta if self.theta is not None else self.ell)


@dataclass(frozen=True)
class Link:
    """A single-index link y = g(z) + σε, z = β·x ~ N(0, 1), ε ~ N(0, 1), for the spectral
    estimator: ``g`` a catalogue name or an expression in z, ``T`` the preprocessing T(y) of the
    overlaps (an expression in y, or None for the optimal T*), ``noise`` σ >= 0 (exact), and the
    sample ratios ``alphas`` α = n/d in (0, :data:`MAX_ALPHA`] at which to give the Lu–Li
    overlap (at most :data:`MAX_ALPHAS`; none by default). ``g`` and ``T`` are kept as typed:
    the theory parses them (g's answer quotes it as given).

    >>> link = Link("z**2", noise="1/3", alphas="1,2")
    >>> link.noise, link.alphas
    (Fraction(1, 3), (Fraction(1, 1), Fraction(2, 1)))
    >>> Link("z**2", alphas=[0])
    Traceback (most recent call last):
    fltheory.exact.DomainError: alpha = 0 is outside the allowed range (0, 1000000]
    """

    g: str
    T: str | None = None
    noise: Any = 0
    alphas: Any = ()

    def __post_init__(self) -> None:
        none = self.alphas is None or (isinstance(self.alphas, tuple | list) and not self.alphas)
        settle(self, noise=read_noise(self.noise),
               alphas=() if none else read_rationals(self.alphas, "alpha", low=0, open_low=True,
                                                     high=MAX_ALPHA, most=MAX_ALPHAS))
