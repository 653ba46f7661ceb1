r"""The Hermite engine: Hermite expansions, information exponent and generative exponent of a
function of one variable — the public face of the ``hermite_*`` implementation modules, one
concern each, whose public names it re-exports (``from fltheory.engine.hermite import …``).

Conventions: probabilists' Hermite polynomials He_k, orthogonal under the standard normal
weight φ(z) = e^{-z²/2}/√(2π), with E[He_j He_k] = k! δ_jk; orthonormal h_k = He_k/√(k!).
The coefficients of f are μ_k = E[f(z) h_k(z)], z ~ N(0, 1), so that in L²(φ)

.. math::

    f = \sum_{k \ge 0} \mu_k\, h_k, \qquad
    \mu_k = \mathbb{E}[f(z)\, h_k(z)], \qquad h_k = \frac{\mathrm{He}_k}{\sqrt{k!}};

in the ``He`` basis c_k = μ_k/√(k!) and f = Σ c_k He_k.

Where each piece lives:

* :mod:`fltheory.engine.hermite.analysis`: :func:`analyse` — expansion, then information
  exponent, then generative exponent, from the same coefficients (:class:`HermiteAnalysis`,
  shown as a table in a notebook);
* :mod:`fltheory.engine.hermite.coefficients`: :func:`expansion`, :func:`coefficient`,
  :func:`parseval` — which path computes each coefficient (exact:polynomial, exact:piecewise,
  exact:gaussian-ibp, exact:sympy, numeric:quad), the zero test, the digits confirmed;
* :mod:`fltheory.engine.hermite.exponents`: :func:`information_exponent`,
  :func:`generative_exponent` (Damian, Pillaud-Vivien, Lee & Bruna 2024: conditional
  expectations E[h_k | y] at atoms and at generic values by the co-area formula);
* :mod:`fltheory.engine.hermite.exact`: closed-form Gaussian expectations (:func:`gauss_moment`,
  interval moments by integration by parts, Gaussian integrals);
* :mod:`fltheory.engine.hermite.quadrature`: mpmath tanh-sinh quadrature split at the kinks;
* :mod:`fltheory.engine.hermite.bounds`: the domains of K, kmax and the sympy budget
  (:data:`K_MAX`, :data:`KMAX_MAX`), checked before any work;
* the functions themselves (parser, catalogue, square integrability, the sympy time limit):
  :mod:`fltheory.engine.functions`.

>>> a = analyse("abs", kmax=4, dps=15)
>>> [str(c.exact) for c in a.expansion.coefficients[:3]], str(a.information), str(a.generative)
(['sqrt(2)/sqrt(pi)', '0', '1/sqrt(pi)'], '2', '2')
"""

from __future__ import annotations

from fltheory.engine.hermite.analysis import HermiteAnalysis, analyse
from fltheory.engine.hermite.bounds import K_MAX, KMAX_MAX
from fltheory.engine.hermite.coefficients import (
    Basis,
    Coefficient,
    Expansion,
    Parseval,
    coefficient,
    expansion,
    parseval,
)
from fltheory.engine.hermite.exact import gauss_moment
from fltheory.engine.hermite.exponents import Exponent, generative_exponent, information_exponent
from fltheory.engine.hermite.quadrature import quad_expectation

__all__ = [
    "KMAX_MAX",
    "K_MAX",
    "Basis",
    "Coefficient",
    "Expansion",
    "Exponent",
    "HermiteAnalysis",
    "Parseval",
    "analyse",
    "coefficient",
    "expansion",
    "gauss_moment",
    "generative_exponent",
    "information_exponent",
    "parseval",
    "quad_expectation",
]
