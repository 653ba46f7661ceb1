"""Which compiled pieces of the committee ODE this interpreter has (private), one place to ask,
so a test can take them away:

* :func:`native` — the C extension :mod:`fltheory.papers.committee._native` (built by pip when
  a C compiler is there): the erf right side and the engine's Dormand–Prince loop in C, loaded
  in under a millisecond. It serves g = erf(s x/√2) (kind :data:`~._flat.KIND_ERF`).
* :func:`loops` / :func:`integrator` — numba's twins of the scalar-loop right side
  (:mod:`fltheory.papers.committee._jit`) and of the Dormand–Prince loop
  (:mod:`fltheory.papers.committee._ode_jit`), each imported on first use (numba's own start-up
  is ~0.5 s), or None when numba is absent or unusable: every kind.

:func:`field` picks, per kind of average: C for erf when built, else numba, else None."""

from __future__ import annotations

from typing import Any

import numpy as np

from fltheory.papers.committee._flat import KIND_ERF


def native() -> Any:
    """The C extension module, or None when it was not built."""
    try:
        from fltheory.papers.committee import _native
    except ImportError:
        return None
    return _native


def loops() -> Any:
    """numba's compiled ``loops`` of the flat right side, or None."""
    try:
        from fltheory.papers.committee._jit import loops as jit_loops
    except ImportError:
        return None
    return jit_loops


def integrator() -> Any:
    """numba's compiled integrator module (``dop853``, ``dop853_loops``, ``njit_rhs``), or
    None."""
    try:
        from fltheory.papers.committee import _ode_jit
    except ImportError:
        return None
    return _ode_jit


def _erf_args(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The C functions' model arguments (K, M, T, a, w, η, σ², κ, order, s²) from
    :func:`fltheory.papers.committee._flat.loops`'s (which carry the kind and the tables of the
    other kinds)."""
    K, M, T, a, w, eta, sigma2, kappa, order, kind, s2 = args[:11]
    if kind != KIND_ERF:
        raise ValueError(f"the C right side serves erf only (kind {KIND_ERF}), not kind {kind}")
    return (int(K), int(M), np.ascontiguousarray(T, dtype=float),
            np.ascontiguousarray(a, dtype=float), np.ascontiguousarray(w, dtype=float),
            float(eta), float(sigma2), float(kappa), int(order), float(s2))


def native_loops(y: np.ndarray, *args: Any) -> np.ndarray:
    """The C erf right side with :func:`fltheory.papers.committee._flat.loops`'s signature."""
    out = np.empty(y.shape[0])
    native().erf_rhs(np.ascontiguousarray(y, dtype=float), out, *_erf_args(args))
    return out


def native_dop853(args: tuple[Any, ...], y0: np.ndarray, t: np.ndarray, rtol: float,
                  atol: float, max_steps: int, y_max: float, *table: np.ndarray
                  ) -> tuple[np.ndarray, int, int, float]:
    """:func:`fltheory.engine.odes.dop853_loop` on the C erf right side, in C: numba's
    ``dop853_loops`` signature and returns (states on the grid, evaluations, status, time
    reached)."""
    y0 = np.ascontiguousarray(y0, dtype=float)
    t = np.ascontiguousarray(t, dtype=float)
    out = np.full((t.shape[0], y0.shape[0]), np.nan)
    A, B, E3, E5 = (np.ascontiguousarray(c, dtype=float) for c in table)
    nfev, status, t_end = native().erf_dop853(y0, t, out, *_erf_args(args), float(rtol),
                                              float(atol), int(max_steps), float(y_max),
                                              A, B, E3, E5)
    return out, nfev, status, t_end


def _in_c(kind: str | None) -> bool:
    """Whether the C extension serves averages of ``kind`` (erf only, and only when built)."""
    return kind == "erf" and native() is not None


def field(kind: str) -> Any:
    """The compiled ``loops(y, *args)`` for averages of ``kind`` ("erf", "relu", ...: the
    averages' ``kind``): C for erf when the extension is built, else numba's, else None."""
    return native_loops if _in_c(kind) else loops()


def available(kind: str | None) -> bool:
    """Whether a compiled right side and integrator exist for averages of ``kind`` (numba is
    imported only when C does not serve it)."""
    return _in_c(kind) or integrator() is not None
