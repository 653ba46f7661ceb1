"""Simulators: numpy (and scipy) only, one module per paper.

Nothing here imports sympy, mpmath or :mod:`fltheory.theory`: a simulation that shared a formula
with the prediction it checks could share its mistake. ``tests/test_architecture.py`` enforces it.
"""
