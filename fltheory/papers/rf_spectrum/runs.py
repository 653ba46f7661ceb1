"""Both sides of the random-feature paper, side by side, for the views and the claims: the
simulated records the claims keep (cached for an integer seed: the claims share them) and a
simulated spectrum with the predicted levels. The comparison of one simulated J with the levels
(``fisher simulate --sigma``) is the command's, in :mod:`fltheory.papers.fisher.runs`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from fltheory.engine import randomfeatures as rf
from fltheory.papers.rf_spectrum import sim
from fltheory.papers.rf_spectrum.params import Run
from fltheory.simkit import seeding

__all__ = ["RUNS", "RFRecord", "clear_cache", "record", "records", "sigma_function",
           "spectrum_sample"]

#: Seeding key: repetition s at width m of activation σ draws W from child(seed, RUNS, m, s)
#: (the same W for every σ: the activations are compared on common draws).
RUNS = 0


def sigma_function(sigma: str) -> str | Callable[..., Any]:
    """What the simulator takes for the activation ``sigma`` (EXPR as in ``fltheory hermite``):
    the simulator's own definition when ``sigma`` is a name it knows (closed forms for relu,
    abs, erf, quadratic), else the parsed expression as a numpy function (scipy's erf etc.).
    Not square-integrable under N(0, 1): DomainError naming sigma."""
    return rf.numpy_face(sigma, sim.ACTIVATIONS)


@dataclass(frozen=True)
class RFRecord:
    """What a claim keeps of one simulated J: m, the leading eigenvalues, the harmonic shares of
    their eigenvectors (rows: eigenvectors, columns: l = 0..lmax), and the diagonal K(w_i, w_i)
    summed and squared-summed (for the trace)."""

    m: int
    eigenvalues: np.ndarray
    content: np.ndarray
    diag_sum: float
    diag_sq_sum: float

    @property
    def trace(self) -> float:
        """trace J = (1/m) Σ_i K(w_i, w_i)."""
        return self.diag_sum / self.m


def record(sigma: str, d: int, m: int, seed: seeding.SeedLike, scale: Any, lmax: int,
           top: int, radial: int = 1) -> RFRecord:
    """Sample J (:func:`fltheory.papers.rf_spectrum.sim.sample`) and keep an :class:`RFRecord` of
    its
    ``top`` leading eigenpairs (harmonic shares up to degree ``lmax``, radial polynomials of
    degree ``radial``)."""
    s = sim.sample(sigma_function(sigma), d, m, seed, scale)
    top = min(top, m)
    content = sim.harmonic_content(s.W, s.eigenvectors[:, :top], lmax, radial)
    return RFRecord(m, s.eigenvalues[:top].copy(), content, float(s.diagonal.sum()),
                    float((s.diagonal**2).sum()))


@lru_cache(maxsize=96)
def _cached(sigma: str, d: int, m: int, seed: int, s: int, scale: str, lmax: int, top: int,
            radial: int) -> RFRecord:
    return record(sigma, d, m, seeding.child(seed, RUNS, m, s), scale, lmax, top, radial)


def clear_cache() -> None:
    """Forget cached simulations (tests use it to check reproducibility for real)."""
    _cached.cache_clear()


def records(run: Run, sigma: str, top: int, seed: seeding.SeedLike) -> list[RFRecord]:
    """The records of ``run`` for ``sigma`` (``top`` leading eigenpairs each): ``run.seeds``
    draws at each width, repetition s at width m from child(seed, RUNS, m, s)."""
    out = []
    for m in run.m:
        for s in range(run.seeds):
            args = (sigma, run.d, m)
            if isinstance(seed, int):
                out.append(_cached(*args, seed, s, str(run.scale), run.lmax, top, run.radial))
            else:
                out.append(record(*args, seeding.child(seed, RUNS, m, s), run.scale, run.lmax,
                                  top, run.radial))
    return out


def spectrum_sample(sigma: str, d: int, m: int, seed: seeding.SeedLike = 0, scale: Any = 1,
                    lmax: int = 4, jmax: int = 2) -> dict[str, Any]:
    """A simulated spectrum of J for ``sigma`` with the predicted levels (l, j, λ, N(d, l)), for
    figures."""
    s = sim.sample(sigma_function(sigma), d, m, seed, scale)
    spec = rf.spectrum(rf.RFModel(sigma, d, scale, lmax, jmax, 5))
    return {"sigma": sigma, "d": d, "m": m, "scale": scale, "eigenvalues": s.eigenvalues,
            "levels": [(lev.l, lev.j, float(lev.value), int(lev.multiplicity))
                       for lev in spec.levels]}
