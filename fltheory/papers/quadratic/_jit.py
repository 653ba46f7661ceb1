"""numba-compiled versions of :mod:`fltheory.papers.quadratic.rhs` (imported only when numba is
installed; compiled on first use and cached on disk).

Each function is compiled from the plain version's code with the helpers it calls bound to
their compiled versions (a function passed as an argument would defeat numba's on-disk cache)."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numba

from fltheory.papers.quadratic import rhs as _ode


def _compile(func: Callable[..., Any], **compiled: Any) -> Any:
    namespace = dict(vars(_ode)) | compiled
    return numba.njit(cache=True)(types.FunctionType(func.__code__, namespace, func.__name__))


bulk_dq = numba.njit(cache=True)(_ode.bulk_dq)
block_rhs_loops = _compile(_ode.block_rhs_loops, bulk_dq=bulk_dq)
dopri5 = _compile(_ode.dopri5, block_rhs_loops=block_rhs_loops)
