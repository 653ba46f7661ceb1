"""numba-compiled versions of :mod:`fltheory.papers.quadratic.rhs` and of the package's one
integrator around it (imported only when numba is installed; compiled on first use and cached
on disk).

Each function is compiled from the plain version's code with the helpers it calls bound to
their compiled versions (a function passed as an argument would defeat numba's on-disk cache):
:data:`dop853` is :func:`fltheory.engine.odes.dop853_loop` whose right side is
``block_rhs_loops(y, *args)``, ``args`` its first argument."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numba
import numpy as np

from fltheory.engine import odes
from fltheory.papers.quadratic import rhs as _rhs

#: numba's disk cache checks only the file defining a function: the integrator compiled around
#: the right side is cached under a name carrying a hash of the right side's source file
_RHS_KEY = hashlib.sha1(Path(_rhs.__file__).read_bytes()).hexdigest()[:12]

bulk_dq = numba.njit(cache=True)(_rhs.bulk_dq)
_block_overlaps = numba.njit(cache=True)(_rhs._block_overlaps)
_block_products = numba.njit(cache=True)(_rhs._block_products)
block_rhs_loops = odes.compiled(_rhs.block_rhs_loops, "block_rhs_loops", True, bulk_dq=bulk_dq,
                                _block_overlaps=_block_overlaps,
                                _block_products=_block_products)


def _eval_py(args: Any, y: np.ndarray) -> np.ndarray:
    return block_rhs_loops(y, *args)


dop853 = odes.compiled_loop(odes.compiled(_eval_py, f"eval_block_rhs_{_RHS_KEY}", True),
                            f"dop853_block_rhs_{_RHS_KEY}", True)
