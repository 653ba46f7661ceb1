"""Predictions: one module per paper plus the shared Hermite engine.

Modules here use exact rationals, sympy and mpmath; none of them imports :mod:`fltheory.sim`.
This package's ``__init__`` imports nothing, so that light modules (``twostep``'s Λ) stay light.
"""
