"""Timings asked for by the sweeps issue.

* speed-up of a 16-task sweep of a CI-sized simulation (``recovery.spectral`` at d = 28,
  δ = 80, the largest cell of the recovery claims' grid: ≈ 0.4 s per task on one BLAS
  thread) with 2 local workers over 1 worker
  (target >= 1.7× on this 2-core machine);
* the overhead per task of the Dask path against the local one: 64 tiny tasks
  (``check.normal``), on a LocalCluster started once (cluster start-up reported apart);
* the wall time of a fully cached repeat of the 16-task sweep through the CLI (target < 1 s).
Usage: python benchmarks/sweep.py
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time

from _common import console_script

from fltheory.sweep import runner, tasks


def timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    task = tasks.get_task("recovery.spectral")
    points = [tasks.canonical(task, {"d": 28, "delta": 80})]
    seeds = list(range(16))
    t1, serial = timed(lambda: runner.sweep(task.id, points, seeds, workers=1))
    t2, par = timed(lambda: runner.sweep(task.id, points, seeds, workers=2))
    same = [r.result for r in serial.runs] == [r.result for r in par.runs]
    print(f"16 × recovery.spectral (d = 28, δ = 80): 1 worker {t1:.2f} s, 2 workers {t2:.2f} s "
          f"(incl. process start-up); speed-up {t1 / t2:.2f} (target >= 1.7); identical: {same}")

    tiny = [tasks.canonical(tasks.get_task("check.normal"), {"n": 100})]
    many = list(range(64))
    tl, _ = timed(lambda: runner.sweep("check.normal", tiny, many, workers=2))
    from distributed import Client, LocalCluster

    ts, cluster = timed(lambda: LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                             dashboard_address=None))
    with cluster, Client(cluster):
        td, _ = timed(lambda: runner.sweep("check.normal", tiny, many, workers=2,
                                           scheduler=cluster.scheduler_address))
    print(f"64 tiny tasks: local pool {tl:.2f} s ({tl / 64 * 1e3:.1f} ms/task incl. pool "
          f"start-up), Dask {td:.2f} s ({td / 64 * 1e3:.1f} ms/task, cluster already running); "
          f"Dask − local = {(td - tl) / 64 * 1e3:+.1f} ms/task; LocalCluster start-up {ts:.2f} s")

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, FLTHEORY_CACHE=os.path.join(tmp, "runs.sqlite"))
        cmd = [console_script(), "sweep", "recovery.spectral", "--grid", "d=28", "--grid",
               "delta=80", "--seeds", "0..15", "--workers", "2"]
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
        times = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        times.sort()
        print(f"fully cached repeat through the CLI: median {times[2]:.3f} s (target < 1 s)")


if __name__ == "__main__":
    main()
