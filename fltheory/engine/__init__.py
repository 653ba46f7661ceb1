"""The shared theory below the papers: it never names a paper.

* :mod:`fltheory.engine.hermite` -- the Hermite engine: exact or mpmath expansions, information
  and generative exponents (start here: :func:`~fltheory.engine.hermite.analyse`);
* :mod:`fltheory.engine.expressions` -- the one activation catalogue (sympy face) and the
  expression grammar of every ``--sigma``/``--g``;
* :mod:`fltheory.engine.functions` -- a function of ``z`` as the engine takes it;
* :mod:`fltheory.engine.integrability` -- square integrability under N(0, 1), decided first;
* :mod:`fltheory.engine.odes` -- the one ODE integrator (Dormand–Prince 8(5,3), compiled by
  numba around a paper's right side) of the committee and quadratic ODEs;
* :mod:`fltheory.engine.randomfeatures` -- the m → ∞ spectrum of random features for any
  activation (Mehler + Funk–Hecke radial operators);
* :mod:`fltheory.engine.spherical` -- spherical harmonics: N(d, l), Legendre/Gegenbauer P_l;
* :mod:`fltheory.engine.kernels` -- dot-product kernels on the sphere: Gegenbauer moments,
  Funk–Hecke eigenvalues of power series with bounds, arc-cosine closed forms, NNGP/NTK
  recursions for any activation and depth;
* :mod:`fltheory.engine.spectral` -- BBP outliers and overlaps for any bulk, the weak-recovery
  threshold and optimal preprocessing of a link, the Lu–Li equations;
* :mod:`fltheory.engine.threads` -- independent pieces of one numerical sum on the machine's
  cores (the same bits on one core or many);
* :mod:`fltheory.engine.timer` -- a wall-clock bound on a block of sympy work.

Modules here use exact rationals, sympy and mpmath (odes: numpy); none imports a simulator.
This ``__init__`` imports nothing (a sub-module is loaded when first named), so light
queries stay light.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["expressions", "functions", "hermite", "integrability", "kernels", "odes",
           "randomfeatures", "spectral", "spherical", "threads", "timer"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'fltheory.engine' has no attribute {name!r}")
    return import_module(f"{__name__}.{name}")


def __dir__() -> list[str]:
    return sorted(__all__)
