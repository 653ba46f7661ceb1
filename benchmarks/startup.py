"""Start-up cost of a light query against the floor of importing click.

Prints the median wall time of ``fltheory lambda --a1 .4 --a2 .3`` (the installed console script)
and of ``python -c "import click"`` over repeated, interleaved runs, and their ratio
(issue target: <= 1.3). Usage: python benchmarks/startup.py [--runs 40]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import time


def _time(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    # The console script next to this interpreter (not a pyenv shim, which adds its own start-up).
    script = os.path.join(sysconfig.get_path("scripts"), "fltheory")
    if not os.path.exists(script):
        sys.exit("fltheory is not installed (pip install .)")
    query = [script, "lambda", "--a1", ".4", "--a2", ".3"]
    floor = [sys.executable, "-c", "import click"]
    for cmd in (query, floor):  # warm the file cache
        _time(cmd)
    t_query, t_floor = [], []
    for _ in range(args.runs):  # interleaved, so drifts in machine load hit both alike
        t_query.append(_time(query))
        t_floor.append(_time(floor))
    mq, mf = statistics.median(t_query), statistics.median(t_floor)
    print(f"fltheory lambda --a1 .4 --a2 .3 : median {mq * 1000:7.1f} ms over {args.runs} runs")
    print(f"python -c 'import click'        : median {mf * 1000:7.1f} ms over {args.runs} runs")
    print(f"ratio                           : {mq / mf:.2f}  (target <= 1.3)")


if __name__ == "__main__":
    main()
