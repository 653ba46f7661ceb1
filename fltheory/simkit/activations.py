r"""The activation catalogue's numpy face: every name of
:data:`fltheory.engine.expressions.CATALOGUE` as a numpy function g and its analytic derivative
g', for the simulators (numpy/scipy only: no sympy, so a simulation never loads the symbolic
engine).

The two faces are written independently (here from the textbook formulas, there as sympy
expressions) and a test holds them equal, value and derivative, at many points.

Names (one meaning everywhere, in every command): ``erf`` is erf(z); ``erf_ss`` is Saad &
Solla's erf(z/√2) (1995), the committee machine's activation, g' = √(2/π) e^{−z²/2};
``gelu`` is z Φ(z); ``relu`` has g' = 1(z > 0), ``abs`` g' = sign(z), ``sign`` g' = 0 (away
from 0); ``He1``…``He8`` are the probabilists' Hermite polynomials, He_k' = k He_{k−1};
``bounded3`` is the bounded odd target of :mod:`fltheory.engine.expressions` with μ_1 = 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["ACTIVATIONS", "NUMPY_CATALOGUE", "NumpyActivation", "numpy_activation"]

Array = np.ndarray
_SQRT2 = math.sqrt(2.0)
_INV_SQRT2 = 1 / math.sqrt(2)
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


@dataclass(frozen=True)
class NumpyActivation:
    """A catalogue activation for the simulators: ``g`` and its derivative ``dg`` (elementwise
    numpy functions of an array)."""

    name: str
    g: Callable[[Array], Array]
    dg: Callable[[Array], Array]


def _erf(x: Array) -> Array:
    from scipy.special import erf

    out: Array = erf(x)
    return out


def _expit(x: Array) -> Array:
    from scipy.special import expit

    out: Array = expit(x)
    return out


def _He(k: int, z: Array) -> Array:
    """He_k(z) by He_{k+1} = z He_k − k He_{k−1}."""
    z = np.asarray(z, dtype=float)
    prev, cur = np.ones_like(z), z
    if k == 0:
        return prev
    for j in range(1, k):
        prev, cur = cur, z * cur - j * prev
    return cur


def _hermite(k: int) -> NumpyActivation:
    return NumpyActivation(f"He{k}", lambda z: _He(k, z), lambda z: k * _He(k - 1, z))


# bounded3 = (A sin 2z − B sin z)/C (see fltheory.engine.expressions.CATALOGUE)
_A, _B = math.exp(2) / 2, math.exp(0.5)
_C = math.sqrt(math.exp(4) / 4 * (1 - math.exp(-8)) / 2
               - math.exp(2.5) * (math.exp(-0.5) - math.exp(-4.5)) / 2
               + math.exp(1) * (1 - math.exp(-2)) / 2)


# the numpy functions of the catalogue that numpy does not provide as they are


def _relu(x: Array) -> Array:
    return np.maximum(x, 0.0)


def _step(x: Array) -> Array:
    return (np.asarray(x) > 0).astype(float)


def _dtanh(x: Array) -> Array:
    out: Array = 1.0 - np.tanh(x) ** 2
    return out


def _dsigmoid(x: Array) -> Array:
    s = _expit(x)
    out: Array = s * (1.0 - s)
    return out


def _erf_ss(x: Array) -> Array:
    return _erf(np.asarray(x) * _INV_SQRT2)


def _derf_ss(x: Array) -> Array:
    out: Array = _SQRT_2_OVER_PI * np.exp(-0.5 * np.asarray(x) ** 2)
    return out


def _derf(x: Array) -> Array:
    out: Array = _TWO_OVER_SQRT_PI * np.exp(-np.asarray(x) ** 2)
    return out


def _gelu(x: Array) -> Array:
    x = np.asarray(x, dtype=float)
    out: Array = 0.5 * x * (1.0 + _erf(x / _SQRT2))
    return out


def _dgelu(x: Array) -> Array:  # Φ(x) + x φ(x)
    x = np.asarray(x, dtype=float)
    out: Array = 0.5 * (1.0 + _erf(x / _SQRT2)) + x * np.exp(-0.5 * x * x) / math.sqrt(
        2 * math.pi)
    return out


def _bounded3(x: Array) -> Array:
    x = np.asarray(x, dtype=float)
    out: Array = (_A * np.sin(2 * x) - _B * np.sin(x)) / _C
    return out


def _dbounded3(x: Array) -> Array:
    x = np.asarray(x, dtype=float)
    out: Array = (2 * _A * np.cos(2 * x) - _B * np.cos(x)) / _C
    return out


def _entries() -> dict[str, NumpyActivation]:
    entries = [
        NumpyActivation("relu", _relu, _step),
        NumpyActivation("tanh", np.tanh, _dtanh),
        NumpyActivation("sigmoid", _expit, _dsigmoid),
        NumpyActivation("softplus", lambda x: np.logaddexp(0.0, x), _expit),
        NumpyActivation("gelu", _gelu, _dgelu),
        NumpyActivation("erf", _erf, _derf),
        NumpyActivation("erf_ss", _erf_ss, _derf_ss),
        NumpyActivation("abs", np.abs, np.sign),
        NumpyActivation("sign", np.sign, lambda x: np.zeros_like(np.asarray(x, dtype=float))),
        NumpyActivation("quadratic", np.square, lambda x: 2.0 * np.asarray(x, dtype=float)),
        NumpyActivation("cubic", lambda x: np.asarray(x, dtype=float) ** 3,
                        lambda x: 3.0 * np.asarray(x, dtype=float) ** 2),
        *(_hermite(k) for k in range(1, 9)),
        NumpyActivation("bounded3", _bounded3, _dbounded3),
    ]
    return {a.name: a for a in entries}


#: every catalogue name -> its numpy face (the same names as the sympy catalogue; a test
#: holds them equal)
NUMPY_CATALOGUE: dict[str, NumpyActivation] = _entries()
#: name -> g alone, for simulators that need only the function
ACTIVATIONS: dict[str, Callable[[Array], Array]] = {
    name: act.g for name, act in NUMPY_CATALOGUE.items()}


def numpy_activation(name: str) -> NumpyActivation:
    """The numpy face of the catalogue activation ``name`` (a KeyError for another name: the
    callers name their parameter in their own refusal, with :func:`suggest`).

    >>> import numpy as np
    >>> relu = numpy_activation("relu")
    >>> relu.g(np.array([-1.0, 2.0])).tolist(), relu.dg(np.array([-1.0, 2.0])).tolist()
    ([0.0, 2.0], [0.0, 1.0])
    """
    return NUMPY_CATALOGUE[name]
