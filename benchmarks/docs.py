"""Figures asked for by the documentation issue (#17): the docs build, the verification report
from a populated store against from scratch, the report's page weight, the browser check.

* docs build: ``sphinx-build -W --keep-going -b html docs OUT`` in a fresh output directory
  (wall time, and CPU time of the build process and its children);
* link check (offline, every page) and the headless-Chromium check of the pages
  tests/framework/test_docs.py opens (wall time, pages);
* ``fltheory report PAPER`` from scratch (fresh store: the claims are simulated and stored)
  and again from the populated store (nothing recomputed), wall and CPU; and the report of the
  committed CI-size run (``--from docs/verify-small.json``, every claim);
* page weight of each report: bytes and files.

Usage: python benchmarks/docs.py [--paper hermite] [--skip-build]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of the child processes) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def weight(directory: Path) -> tuple[int, int]:
    files = [p for p in directory.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", default="hermite", help="paper of the store/scratch report")
    parser.add_argument("--skip-build", action="store_true", help="no docs build or browser")
    args = parser.parse_args()
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    env.pop("FLTHEORY_DOCS_REPORT", None)
    cli = [sys.executable, "-m", "fltheory"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if not args.skip_build:
            out = work / "html"
            wall, cpu = timed([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                               "html", "-d", str(work / "doctrees"), str(ROOT / "docs"),
                               str(out)], env)
            size, files = weight(out)
            print(f"docs build: {wall:.1f} s wall, {cpu:.1f} s CPU; site {size / 1e6:.1f} MB, "
                  f"{files} files")
            import pagecheck
            import test_docs

            start = time.perf_counter()
            links = pagecheck.check_links(out)
            print(f"link check: {links.pages} pages, {links.references} internal references, "
                  f"{len(links.errors)} errors, {time.perf_counter() - start:.1f} s wall")
            reason = pagecheck.browser_available()
            if reason:
                print(f"browser check: skipped ({reason})")
            else:
                pages = test_docs._representative()
                start = time.perf_counter()
                seen = pagecheck.check_in_browser(out, pages)
                bad = sum(not p.ok for p in seen)
                print(f"browser check: {len(seen)} pages, {bad} with problems, "
                      f"{time.perf_counter() - start:.1f} s wall")
        store = work / "runs.sqlite"
        for label in ("from scratch", "from the populated store"):
            report = work / f"report-{label.split()[-1]}"
            wall, cpu = timed([*cli, "report", args.paper, "--store", str(store), "--out",
                               str(report), "--no-progress"], env)
            size, files = weight(report)
            print(f"report {args.paper} {label}: {wall:.1f} s wall, {cpu:.1f} s CPU; "
                  f"{size / 1e3:.0f} kB in {files} files")
        committed = ROOT / "docs" / "verify-small.json"
        if committed.is_file():
            report = work / "report-ci"
            wall, cpu = timed([*cli, "report", "--from", str(committed), "--out", str(report)],
                              env)
            size, files = weight(report)
            print(f"report of the committed CI run (every claim, --from): {wall:.1f} s wall, "
                  f"{cpu:.1f} s CPU; {size / 1e6:.2f} MB in {files} files "
                  f"(index.html {(report / 'index.html').stat().st_size / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
