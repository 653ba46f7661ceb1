"""numba-compiled version of :func:`fltheory.theory.committee_ode.dop853_loop` (imported only when
numba is installed; compiled on first use and cached on disk).

The right side is passed as a compiled function (a numba dispatcher): the integrator is
specialised once per right side in a process; a plain function is compiled here first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
from numba.core.registry import CPUDispatcher

from fltheory.theory import committee_ode as _ode

dop853 = numba.njit(cache=True)(_ode.dop853_loop)
_compiled: dict[int, tuple[Any, Any]] = {}


def njit_rhs(f: Callable[..., Any]) -> Any:
    """``f`` as a numba dispatcher (compiled once per function object in this process)."""
    if isinstance(f, CPUDispatcher):
        return f
    hit = _compiled.get(id(f))
    if hit is None or hit[0] is not f:
        hit = (f, numba.njit(f))
        _compiled[id(f)] = hit
    return hit[1]
