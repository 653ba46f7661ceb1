"""Start-up cost of a light query against the floor of importing click.

Prints the median wall time of ``fltheory lambda --a1 .4 --a2 .3`` (the installed console script)
and of ``python -c "import click"`` over repeated, interleaved runs, and their ratio
(issue 24 target: <= 1.15). Usage: python benchmarks/startup.py [--runs 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from _common import console_script, median_wall


def _time(cmd: list[str]) -> float:
    return median_wall(cmd, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    script = console_script()
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
    print(f"ratio                           : {mq / mf:.2f}  (target <= 1.15)")


if __name__ == "__main__":
    main()
