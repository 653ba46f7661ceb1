"""Sweeps: one simulation over a grid of parameters and seeds, in parallel, with a results store.

* :mod:`.tasks` — the sweepable simulations (one seed in, a flat dict of numbers out);
* :mod:`.store` — completed runs in SQLite, keyed by (task, parameters, seed, code version);
* :mod:`.runner` — serial, local worker processes, or a Dask cluster; the same seeds and the
  same numbers whichever is used (one BLAS thread per task everywhere).
"""
