"""Spectral thresholds shared by every paper: the bulks as parameter objects
(:mod:`~fltheory.engine.spectral.bulks`), BBP outliers and overlaps of spiked random
matrices for any bulk (:mod:`~fltheory.engine.spectral.spikes`), the weak-recovery threshold and
the optimal preprocessing of a single-index link (:mod:`~fltheory.engine.spectral.links`), and
the Lu–Li equations of a spectral estimator (:mod:`~fltheory.engine.spectral.luli`, also used by
the recovery paper).

This ``__init__`` imports nothing (a sub-module is loaded when first named), so a light query
stays light.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["bulks", "links", "luli", "spikes"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'fltheory.engine.spectral' has no attribute {name!r}")
    return import_module(f"{__name__}.{name}")


def __dir__() -> list[str]:
    return sorted(__all__)
