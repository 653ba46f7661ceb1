"""numba-compiled versions of :func:`fltheory.theory.committee_ode.dop853_loop` (imported only when
numba is installed; compiled on first use and cached on disk), built as
:mod:`fltheory.theory._quadratic_jit` builds its functions: the plain loop's code with its
right-side hook ``_eval`` bound to a compiled call.

* :data:`dop853_loops` calls the model's compiled ``loops(y, *args)``
  (:mod:`fltheory.theory._committee_jit`, what ``flat_rhs`` returns exposes ``loops``/``args``):
  one compiled integrator for every model and step, cached on disk;
* :data:`dop853` takes any compiled right side f(y) as its first argument (specialised once per
  function in a process: a right side passed as an argument defeats the on-disk cache)."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from numba.core.registry import CPUDispatcher

from fltheory.theory import _committee_jit as _cj
from fltheory.theory import committee_ode as _ode


def _compile(func: Callable[..., Any], **compiled: Any) -> Any:
    namespace = dict(vars(_ode)) | compiled
    return numba.njit(cache=True)(types.FunctionType(func.__code__, namespace, func.__name__))


_model_loops = _cj.loops


@numba.njit(cache=True)
def _eval_loops(args: Any, y: np.ndarray) -> np.ndarray:
    return _model_loops(y, *args)


_eval_call = numba.njit(cache=True)(_ode._eval)
dop853 = _compile(_ode.dop853_loop, _eval=_eval_call)
dop853_loops = _compile(_ode.dop853_loop, _eval=_eval_loops)
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
