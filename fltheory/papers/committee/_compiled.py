"""Which compiled pieces of the committee ODE this interpreter has (private): numba's twins of
the scalar-loop right side (:mod:`fltheory.papers.committee._jit`) and of the Dormand–Prince
loop (:mod:`fltheory.papers.committee._ode_jit`), each imported on first use, or None when numba
is absent or unusable. One place to ask, so a test can take both away at once."""

from __future__ import annotations

from typing import Any


def loops() -> Any:
    """The compiled ``loops`` of the flat right side, or None."""
    try:
        from fltheory.papers.committee._jit import loops as jit_loops
    except ImportError:
        return None
    return jit_loops


def integrator() -> Any:
    """The compiled integrator module (``dop853``, ``dop853_loops``, ``njit_rhs``), or None."""
    try:
        from fltheory.papers.committee import _ode_jit
    except ImportError:
        return None
    return _ode_jit
