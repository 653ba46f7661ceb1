"""numba-compiled versions of :func:`fltheory.papers.committee._dopri.dop853_loop` (imported
only when numba is installed; compiled on first use and cached on disk), built as
:mod:`fltheory.papers.quadratic._jit` builds its functions: the plain loop's code with its
right-side hook ``_eval`` bound to a compiled call.

* :data:`dop853_loops` calls the model's compiled ``loops(y, *args)``
  (:mod:`fltheory.papers.committee._jit`, what ``flat_rhs`` returns exposes ``loops``/``args``):
  one compiled integrator for every model and step, cached on disk;
* :data:`dop853` takes any compiled right side f(y) as its first argument (compiled once per
  function in a process, not cached on disk: its signature holds the function's type)."""

from __future__ import annotations

import hashlib
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba.core.registry import CPUDispatcher

from fltheory.papers.committee import _dopri
from fltheory.papers.committee import _jit as _cj


def _compile(func: Callable[..., Any], name: str, cache: bool, **compiled: Any) -> Any:
    """``func``'s code with names rebound, under its own qualified name: numba's on-disk cache
    is one index per (file, qualified name), and a variant taking a function argument must not
    share (or write) an index whose entries pickle that function's type."""
    namespace = dict(vars(_dopri)) | {"_model_loops": _model_loops} | compiled
    fn = types.FunctionType(func.__code__, namespace, name)
    fn.__qualname__ = name
    return numba.njit(cache=cache)(fn)


_model_loops = _cj.loops
#: numba's disk cache checks only the file defining a function, not what it calls: the
#: integrator compiled around the model's loops is cached under a name carrying a hash of
#: the loops' source file, so an edited right side is never run from a stale cache
_FLAT_KEY = hashlib.sha1(Path(_cj._flat.__file__).read_bytes()).hexdigest()[:12]


def _eval_loops_py(args: Any, y: np.ndarray) -> np.ndarray:
    return _model_loops(y, *args)


_eval_loops = _compile(_eval_loops_py, f"eval_loops_{_FLAT_KEY}", True)
_eval_call = _compile(_dopri._eval, "eval_call", False)
dop853 = _compile(_dopri.dop853_loop, "dop853_any_rhs", False, _eval=_eval_call)
dop853_loops = _compile(_dopri.dop853_loop, f"dop853_model_loops_{_FLAT_KEY}", True,
                        _eval=_eval_loops)
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
