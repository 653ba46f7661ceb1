"""Spectral thresholds shared by every paper: BBP outliers and overlaps of spiked random
matrices for any bulk (:mod:`~fltheory.engine.spectral.spikes`), the weak-recovery threshold and
the optimal preprocessing of a single-index link (:mod:`~fltheory.engine.spectral.links`), and
the Lu–Li equations of a spectral estimator (:mod:`~fltheory.engine.spectral.luli`).

Importing this package imports nothing heavy; name a sub-module to load it.
"""

from __future__ import annotations

__all__: list[str] = []
