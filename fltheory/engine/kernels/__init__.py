"""Dot-product kernels κ(x·y) on the sphere S^{d−1} and their Funk–Hecke eigenvalues μ_k
(multiplicity N(d, k), P_k(1) = 1):

* :mod:`~fltheory.engine.kernels.moments` -- Gegenbauer moments E_t[t^j P_k(t)] in closed form,
  μ_k of a power series with a bound on what the truncation leaves out;
* :mod:`~fltheory.engine.kernels.arccos` -- the arc-cosine kernels κ_0, κ_1 and their exact μ_k;
* :mod:`~fltheory.engine.kernels.series` -- Taylor coefficients of a kernel known pointwise
  (Cauchy integral), and μ_k through them;
* :mod:`~fltheory.engine.kernels.activations` -- activation families, Hermite coefficients in
  bulk (trapezoidal rule);
* :mod:`~fltheory.engine.kernels.networks` -- NNGP and NTK of a fully connected network, any
  activation, depth and bias, with their eigenvalues;
* :mod:`~fltheory.engine.kernels.parse` and :mod:`~fltheory.engine.kernels.expression` -- a
  kernel written as an expression in t, and its eigenvalues.

This ``__init__`` imports nothing (a sub-module is loaded when first named)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["activations", "arccos", "expression", "moments", "networks", "parse", "series"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'fltheory.engine.kernels' has no attribute {name!r}")
    return import_module(f"{__name__}.{name}")


def __dir__() -> list[str]:
    return sorted(__all__)
