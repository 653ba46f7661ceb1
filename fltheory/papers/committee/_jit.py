"""numba-compiled versions of :mod:`fltheory.papers.committee._flat` (imported only when numba
is installed; compiled on first use and cached on disk), built as
:mod:`fltheory.papers.quadratic._jit` builds its functions: each plain function's code with the
helpers it calls bound to their compiled versions."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numba

from fltheory.papers.committee import _flat


def _compile(func: Callable[..., Any], **compiled: Any) -> Any:
    namespace = dict(vars(_flat)) | compiled
    return numba.njit(cache=True)(types.FunctionType(func.__code__, namespace, func.__name__))


erf_i2 = _compile(_flat.erf_i2)
erf_i3 = _compile(_flat.erf_i3)
erf_i4 = _compile(_flat.erf_i4)
safe_rho = _compile(_flat.safe_rho)
orthant2 = _compile(_flat.orthant2, safe_rho=safe_rho)
relu_relu = _compile(_flat.relu_relu, safe_rho=safe_rho)
density0 = _compile(_flat.density0)
relu_i3 = _compile(_flat.relu_i3, orthant2=orthant2)
_clip_pair = _compile(_flat._clip_pair)
relu_theta = _compile(_flat.relu_theta, safe_rho=safe_rho)
theta_relu_relu = _compile(_flat.theta_relu_relu, safe_rho=safe_rho, relu_theta=relu_theta)
same_field = _compile(_flat.same_field)
ttr_pair = _compile(_flat.ttr_pair, safe_rho=safe_rho, orthant2=orthant2)
relu_i4 = _compile(_flat.relu_i4, relu_relu=relu_relu, density0=density0, ttr_pair=ttr_pair,
                   _clip_pair=_clip_pair, theta_relu_relu=theta_relu_relu,
                   same_field=same_field)
poly_eval = _compile(_flat.poly_eval)
average = _compile(_flat.average, erf_i2=erf_i2, erf_i3=erf_i3, erf_i4=erf_i4,
                   orthant2=orthant2, relu_i3=relu_i3, relu_i4=relu_i4, poly_eval=poly_eval)
overlaps = _compile(_flat.overlaps)
erf_loops = _compile(_flat.erf_loops, overlaps=overlaps)
mix_loops = _compile(_flat.mix_loops, overlaps=overlaps)
loops = _compile(_flat.loops, average=average, erf_loops=erf_loops, mix_loops=mix_loops,
                 overlaps=overlaps)
