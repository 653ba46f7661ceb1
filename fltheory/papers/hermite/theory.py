r"""The predictions of the Hermite paper: the face of the shared Hermite engine
(:mod:`fltheory.engine.hermite`), whose names it re-exports — expansions μ_k = E[f(z) h_k(z)]
(exact or mpmath, each with its path), Parseval, the information and generative exponents, and
the Gaussian expectations they rest on.

Conventions: probabilists' He_k, orthonormal h_k = He_k/√(k!), z ~ N(0, 1). The engine reads and
bounds its own arguments (:mod:`fltheory.engine.hermite.bounds`).

>>> [str(c.exact) for c in expansion("He3", K=3, dps=15).coefficients]
['0', '0', '0', 'sqrt(6)']
"""

from __future__ import annotations

from fltheory.engine import hermite as _engine
from fltheory.engine.hermite import *  # noqa: F403 (the paper's names are the engine's)

__all__ = list(_engine.__all__)
