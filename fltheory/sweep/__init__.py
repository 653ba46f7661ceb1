"""Sweeps: one simulation over a grid of parameters and seeds, in parallel, with a results store.

* :mod:`.tasks` — the sweepable simulations (one seed in, a flat dict of numbers out);
* :mod:`.store` — completed runs in SQLite, keyed by (task, parameters, seed, code version);
* :mod:`.claims` — claims run as sweep tasks (``fltheory verify --size large``);
* :mod:`.runner` — serial, local worker processes, or a Dask cluster; the same seeds and the
  same numbers whichever is used (one BLAS thread per task everywhere).
"""

from importlib import import_module
from typing import Any

__all__ = ["claims", "runner", "store", "tasks"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'fltheory.sweep' has no attribute {name!r}")
    return import_module(f"{__name__}.{name}")


def __dir__() -> list[str]:
    return sorted(__all__)
