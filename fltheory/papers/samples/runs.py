"""The simulated side of the sample-complexity paper, in the form the claims and the figure read
it: the first-passage counts of online SGD per (d, step constant) with the best step per d
(:func:`slope_runs`), their log medians with bootstrap errors (:func:`medians`), and the final
overlaps of batch reuse against online SGD at n ∝ d (:func:`reuse_runs`). The claims put them
next to the theory's powers of d; the figure draws them.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from fltheory.papers.samples import sim
from fltheory.papers.samples.params import ReuseSizes, SlopeSizes
from fltheory.simkit import seeding

__all__ = ["BOOT", "THRESHOLD", "medians", "reuse_runs", "slope_runs", "step_power"]

#: the overlap whose first passage counts the samples
THRESHOLD = 0.5
#: bootstrap resamples of the replicas for the standard error of a median
BOOT = 400


def clear_cache() -> None:
    """Forget cached simulations (tests use it to check reproducibility for real)."""
    _slope_runs.cache_clear()
    _reuse_runs.cache_clear()


def step_power(k: int) -> float:
    """a of the step η = c·d^(−a): 1 for k <= 2, k/2 for k >= 3 (Ben Arous, Gheissari &
    Jagannath 2021)."""
    return 1.0 if k <= 2 else k / 2


@lru_cache(maxsize=8)
def _slope_runs(k: int, ds: tuple[int, ...], cs: tuple[float, ...], replicas: int,
                cap_factor: float, seed: int) -> dict[str, Any]:
    rows = [(d, c) for d in ds for c in cs]
    d = np.repeat([r[0] for r in rows], replicas).astype(float)
    eta = np.repeat([r[1] * r[0] ** -step_power(k) for r in rows], replicas)
    # the budget per row: cap_factor times d^{max(k−1, 1)} (log d for k = 2); a row not reached
    # by then counts as "not reached" (censored), never as a number
    scale = np.array([r[0] ** max(k - 1, 1) * (math.log(r[0]) if k == 2 else 1) for r in rows])
    cap = np.repeat(np.ceil(cap_factor * scale), replicas).astype(np.int64)
    hit = sim.online_first_passage(k, d, eta, cap, THRESHOLD, seeding.child(seed, k))
    return {"rows": rows, "hit": hit.reshape(len(rows), replicas)}


def slope_runs(sizes: SlopeSizes, seed: int) -> dict[str, Any]:
    """The first-passage counts of every (d, c) row of ``sizes`` and, per d, the best c (least
    median) and its counts (cached: :func:`clear_cache`)."""
    raw = _slope_runs(sizes.k, sizes.d, sizes.c, sizes.replicas, sizes.cap, seed)
    best: dict[int, dict[str, Any]] = {}
    for (d, c), h in zip(raw["rows"], raw["hit"], strict=True):
        reached = h[h > 0]
        med = float(np.median(np.where(h > 0, h, np.inf)))
        if d not in best or med < best[d]["median"]:
            best[d] = {"c": c, "median": med, "hits": h, "reached": len(reached)}
    return {"k": sizes.k, "best": best, "c_grid": sizes.c, "replicas": sizes.replicas}


def medians(meas: dict[str, Any], seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per d of :func:`slope_runs`: log d, log of the median n at the best step (censored runs
    count as +inf, so the median is exact while fewer than half are censored), and its
    bootstrap standard error (``BOOT`` resamples of the replicas)."""
    rng = np.random.default_rng(seeding.child(seed, 99))
    x, y, se = [], [], []
    for d, b in sorted(meas["best"].items()):
        h = np.where(b["hits"] > 0, b["hits"].astype(float), np.inf)
        boot = np.median(h[rng.integers(0, len(h), (BOOT, len(h)))], axis=1)
        boot = boot[np.isfinite(boot)]
        x.append(math.log(d))
        y.append(math.log(float(np.median(h))))
        se.append(float(np.std(np.log(boot), ddof=1)) if len(boot) > BOOT // 2 else math.inf)
    return np.array(x), np.array(y), np.array(se)


@lru_cache(maxsize=4)
def _reuse_runs(ds: tuple[int, ...], ratio: float, replicas: int, control: int, seed: int
                ) -> dict[str, Any]:
    out: dict[str, Any] = {"d": ds, "ratio": ratio, "reuse": [], "online": [], "fresh": []}
    for i, d in enumerate(ds):
        n = math.ceil(ratio * d)
        out["reuse"].append(sim.reuse_overlaps(3, d, ratio, ratio, replicas, 2,
                                               seeding.child(seed, 20, i))[:, -1])
        out["online"].append(np.abs(sim.online_overlap(
            3, np.full(replicas, d), np.full(replicas, 0.5 * d ** -1.5), n,
            seeding.child(seed, 21, i))))
        if control:
            out["fresh"].append(sim.reuse_overlaps(3, d, ratio, ratio, control, 2,
                                                   seeding.child(seed, 22, i), fresh=True)[:, -1])
    return out


def reuse_runs(sizes: ReuseSizes, seed: int) -> dict[str, Any]:
    """Final overlaps |⟨w, w*⟩| per d: two GD steps reusing one batch of n = ⌈C·d⌉ samples,
    online SGD with the same n (η = ½ d^(−3/2)), and the control on fresh batches (cached)."""
    return _reuse_runs(sizes.d, sizes.C, sizes.replicas, sizes.control, seed)
