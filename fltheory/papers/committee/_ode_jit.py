"""numba-compiled versions of the package's one integrator,
:func:`fltheory.engine.odes.dop853_loop`, for the committee ODE (imported only when numba is
installed; compiled on first use): the plain loop's code with its right-side hook bound to a
compiled call (:func:`fltheory.engine.odes.compiled_loop`).

* :data:`dop853_loops` calls the model's compiled ``loops(y, *args)``
  (:mod:`fltheory.papers.committee._jit`, what ``flat_rhs`` returns exposes ``loops``/``args``):
  one compiled integrator for every model and step, cached on disk;
* :data:`dop853` takes any compiled right side f(y) as its first argument (compiled once per
  function in a process, not cached on disk: its signature holds the function's type)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba.core.registry import CPUDispatcher

from fltheory.engine import odes
from fltheory.papers.committee import _jit as _cj

_model_loops = _cj.loops
#: numba's disk cache checks only the file defining a function, not what it calls: the
#: integrator compiled around the model's loops is cached under a name carrying a hash of
#: the loops' source file, so an edited right side is never run from a stale cache
_FLAT_KEY = hashlib.sha1(Path(_cj._flat.__file__).read_bytes()).hexdigest()[:12]


def _eval_loops_py(args: Any, y: np.ndarray) -> np.ndarray:
    return _model_loops(y, *args)


_eval_loops = odes.compiled(_eval_loops_py, f"eval_loops_{_FLAT_KEY}", True)
dop853 = odes.compiled_loop(None, "dop853_any_rhs", False)
dop853_loops = odes.compiled_loop(_eval_loops, f"dop853_model_loops_{_FLAT_KEY}", True)
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
