"""Start-up cost of light queries against the floor of their imports.

Prints the median wall time, over repeated interleaved runs, of
``fltheory lambda --a1 .4 --a2 .3`` (the installed console script) against
``python -c "import click"`` (issue 24 target: <= 1.15), and of
``fltheory fisher --d 1000000 --dps 50`` (answered without click, :mod:`fltheory.cli.light`)
against ``python -c "import mpmath"`` (issue 37 item 8 target: <= 1.3), and their ratios.
The figures reported in the issues come from farm-bench (whole processes, paired, pinned);
this script is the quick look. Usage: python benchmarks/startup.py [--runs 40]
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
    pairs = [("fltheory lambda --a1 .4 --a2 .3", [script, "lambda", "--a1", ".4", "--a2", ".3"],
              "python -c 'import click'", [sys.executable, "-c", "import click"], 1.15),
             ("fltheory fisher --d 1000000 --dps 50",
              [script, "fisher", "--d", "1000000", "--dps", "50"],
              "python -c 'import mpmath'", [sys.executable, "-c", "import mpmath"], 1.3)]
    for label, query, floor_label, floor, target in pairs:
        for cmd in (query, floor):  # warm the file cache
            _time(cmd)
        t_query, t_floor = [], []
        for _ in range(args.runs):  # interleaved, so drifts in machine load hit both alike
            t_query.append(_time(query))
            t_floor.append(_time(floor))
        mq, mf = statistics.median(t_query), statistics.median(t_floor)
        print(f"{label:38s}: median {mq * 1000:7.1f} ms over {args.runs} runs")
        print(f"{floor_label:38s}: median {mf * 1000:7.1f} ms over {args.runs} runs")
        print(f"{'ratio':38s}: {mq / mf:.2f}  (target <= {target})")

if __name__ == "__main__":
    main()
