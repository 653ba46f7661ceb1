"""Both sides of the kit's questions, the simulation measured where the theory is compared: the
sampled matrices per size for the finite-size fits of the claims (:func:`measure`,
:func:`fit_quantity`), and the sampled overlaps of the BBP figure (:func:`wigner_overlap`).

Finite-N effects are handled by finite-size scaling, not by wide tolerances: each quantity y(N)
(one value per sampled matrix) is fitted as y = a + b/N over a grid of sizes, and the
extrapolated a is compared with the N → ∞ prediction (:func:`fit_quantity`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from fltheory.claims.registry import Point
from fltheory.claims.stats import fit_points, linear_fit
from fltheory.papers.spectral import sim
from fltheory.simkit import seeding

__all__ = ["fit_quantity", "measure", "wigner_overlap"]


def measure(kind: str, params: Mapping[str, Any], strength: float, seed: int
            ) -> dict[str, np.ndarray]:
    """Per sampled matrix: 1/N, the top eigenvalue and the squared overlap, for ``kind``
    ``"wigner"`` (θ = strength, N = size), ``"wishart"`` (ℓ = strength, p = size, n = p/γ) or
    ``"phase"`` (α = strength, d = size); ``params`` holds the ``sizes``, the ``reps`` per size
    (and ``gamma`` for Wishart) of a claim's size; repetition r at size N draws from
    child(seed, index of strength, N, r).

    >>> m = measure("wigner", {"sizes": (50,), "reps": {50: 2}}, 3.0, 0)
    >>> m["inv_n"].tolist(), m["overlap"].shape
    ([0.02, 0.02], (2,))
    """
    inv, values, overlaps = [], [], []
    key = round(strength * 1000)
    for size in params["sizes"]:
        for r in range(params["reps"][size]):
            s = seeding.child(seed, key, size, r)
            if kind == "wigner":
                pair = sim.spiked_wigner(size, strength, s)
            elif kind == "wishart":
                pair = sim.spiked_wishart(size, round(size / params["gamma"]), strength, s)
            else:
                pair = sim.phase_retrieval(size, strength, s)
            inv.append(1 / size)
            values.append(pair.eigenvalue)
            overlaps.append(pair.overlap)
    return {"inv_n": np.array(inv), "eigenvalue": np.array(values),
            "overlap": np.array(overlaps)}


def fit_quantity(name: str, inv_n: np.ndarray, y: np.ndarray, pred: float, zc: float
                 ) -> tuple[float, str, list[Point]]:
    """Fit y = a + b/N; return |a − pred|/se, a text and the report's points.

    >>> z, text, _ = fit_quantity("x", np.array([.1, .1, .2, .2]), np.array([1., 1.02, 1.1,
    ...                           1.08]), 0.95, 3.0)
    >>> round(z, 2)   # a = 0.93 ± 0.0224 against 0.95
    0.89
    """
    a, se, b, se_b = linear_fit(inv_n, y)
    z = abs(a - pred) / se
    text = (f"{name}: N → ∞ fit {a:.4f}±{se:.2g} vs {pred:.4f} (|z| = {z:.2f}); finite-N "
            f"correction b/N with b = {b:+.3g}±{se_b:.2g}")
    pts = [replace(p, quantity=name) for p in fit_points(name, inv_n, y, a, se, pred, zc * se)]
    return z, text, pts


def wigner_overlap(theta: float, N: int, reps: int, seed: int, index: int
                   ) -> tuple[float, float]:
    """The mean and the standard error (0 for one matrix) of the squared overlap ⟨v₁, u⟩² of
    ``reps`` sampled spiked Wigner matrices of size N at θ
    (:func:`fltheory.papers.spectral.sim.spiked_wigner`),
    repetition r drawn from child(seed, index, r): a point of the BBP figure.

    >>> mean, err = wigner_overlap(3.0, 200, 2, 0, 0)
    >>> abs(mean - 8 / 9) < 0.1, err >= 0
    (True, True)
    """
    vals = np.array([sim.spiked_wigner(N, theta, seeding.child(seed, index, r)).overlap
                     for r in range(reps)])
    return float(vals.mean()), float(vals.std(ddof=1) / np.sqrt(reps)) if reps > 1 else 0.0
