"""numba-compiled versions of :mod:`fltheory.theory.quadratic_ode` (imported only when numba is
installed; compiled on first use and cached on disk).

The integrator is compiled from the same source as the plain version, with its global
``block_rhs_loops`` bound to the compiled right side (a function passed as an argument would
defeat numba's on-disk cache)."""

from __future__ import annotations

import types

import numba

from fltheory.theory import quadratic_ode as _ode

block_rhs_loops = numba.njit(cache=True)(_ode.block_rhs_loops)
_globals = dict(vars(_ode))
_globals["block_rhs_loops"] = block_rhs_loops
dopri5 = numba.njit(cache=True)(types.FunctionType(_ode.dopri5.__code__, _globals, "dopri5"))
