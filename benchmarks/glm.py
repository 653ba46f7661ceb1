"""Figures asked for by the GLM issue (36): each threshold of a one-dimensional prior/channel
pair to >= 10 confirmed digits (target <= 2 s), a curve of 50 values of α (target <= 5 s; the
noisy three-dimensional channels included), and
the per-α cost of GAMP at d = 8000 against its floor (the two matrix–vector products per
iteration). In-process, caches cleared before each case; wall and CPU time are both printed
(the machine's 2 cores are shared: ``uptime`` is printed first).

With ``--noisy-square``: the time of one average (Q and the Z ln Z average of ΔΨ) of noisy phase
retrieval y = z² + σε at both resolutions (median of 5, σ = 1, ρ = 1, q/ρ = 0.3, 0.8, 0.99),
then the Gaussian prior's thresholds with σ = 1 (both resolutions).

Usage: python benchmarks/glm.py [--d 8000] [--skip-amp] [--noisy-square]
"""

from __future__ import annotations

import argparse
import subprocess
import time

from fltheory.engine.threads import thread_count
from fltheory.papers.glm import theory
from fltheory.papers.glm._channels import square_kernel
from fltheory.papers.glm.params import (
    AmpRun,
    Channel,
    gauss_bernoulli,
    gaussian,
    rademacher,
)

PAIRS = [
    ("rademacher × sign", rademacher, Channel("sign")),
    ("gaussian × square", gaussian, Channel("square")),
    ("rademacher × door(0.674)", rademacher, Channel("door", K="0.674")),
    ("gaussian × relu", gaussian, Channel("relu")),
    ("gauss-bernoulli(1/2) × linear", lambda: gauss_bernoulli("1/2"), Channel("linear")),
]

#: additive noise y = g(z) + σε: a sum over (ω, y) per average (over (ω, y, x) for the square)
NOISY = [
    ("gaussian × abs, σ = 1/5", gaussian, Channel("abs", noise="1/5")),
    ("rademacher × abs, σ = 1/5", rademacher, Channel("abs", noise="1/5")),
    ("rademacher × relu, σ = 1/5", rademacher, Channel("relu", noise="1/5")),
    ("rademacher × abs, σ = 1/20", rademacher, Channel("abs", noise="1/20")),
    ("gaussian × tanh, σ = 1/2", gaussian, Channel("expr", noise="1/2", expression="tanh(z)")),
    ("rademacher × tanh, σ = 1/5", rademacher,
     Channel("expr", noise="1/5", expression="tanh(z)")),
    ("gaussian × square, σ = 1", gaussian, Channel("square", noise="1")),
    ("rademacher × square, σ = 1/10", rademacher, Channel("square", noise="1/10")),
]


def _timed(f):  # type: ignore[no-untyped-def]
    theory._curve.cache_clear()
    w0, c0 = time.perf_counter(), time.process_time()
    out = f()
    return out, time.perf_counter() - w0, time.process_time() - c0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=8000)
    parser.add_argument("--skip-amp", action="store_true")
    parser.add_argument("--noisy-square", action="store_true")
    args = parser.parse_args()
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print("threads for the three-dimensional sums:", thread_count(), "(FLTHEORY_THREADS)")
    if args.noisy_square:
        noisy_square()
        return
    print("\nthresholds (both resolutions; target <= 2 s each pair, >= 10 digits)")
    for name, make, ch in PAIRS:
        ans, wall, cpu = _timed(lambda make=make, ch=ch: theory.thresholds(make(), ch))
        cells = ", ".join(f"α_{n} = {e or v.text()} ({'exact' if e else v.digits})"
                          for n, v, _k, _a, _b, e in ans.items) or "none"
        print(f"  {name:32s} wall {wall:5.2f} s  cpu {cpu:5.2f} s   {cells}")
    print("\nnoisy channels (both resolutions; per threshold = wall / thresholds found; the "
          f"square's sum in {'C' if square_kernel() else 'numpy: the C extension is not built'})")
    for name, make, ch in NOISY:
        ans, wall, cpu = _timed(lambda make=make, ch=ch: theory.thresholds(make(), ch))
        cells = ", ".join(f"α_{n} = {e or v.text()} ({'exact' if e else v.digits})"
                          for n, v, _k, _a, _b, e in ans.items) or "none"
        per = wall / max(1, len(ans.items))
        print(f"  {name:32s} wall {wall:5.2f} s  cpu {cpu:5.2f} s  per threshold {per:5.2f} s"
              f"   {cells}")
    print("\ncurve of 50 α (thresholds + 50 points, both resolutions; target <= 5 s)")
    alphas = [0.04 * (i + 1) for i in range(50)]
    # the three-dimensional noisy channels last (their sums use the cores: threads below)
    for name, make, ch in [*PAIRS[:2], *NOISY[:2], *NOISY[4:]]:
        pts, wall, cpu = _timed(lambda make=make, ch=ch: (
            theory.thresholds(make(), ch), theory.curve_points(make(), ch, alphas)))
        low = min(min(p.bayes_q.digits, p.amp_q.digits) for p in pts[1])
        print(f"  {name:32s} wall {wall:5.2f} s  cpu {cpu:5.2f} s   (fewest digits of q: {low})")
    if args.skip_amp:
        return
    from fltheory.papers.glm.sim import amp_overlap

    print(f"\nGAMP at d = {args.d} (Rademacher × sign, α = 1.2, 30 iterations)")
    r = amp_overlap(rademacher(), Channel("sign"), AmpRun(args.d, "6/5", 30, 0))
    print(f"  per iteration {r.seconds_per_iteration * 1e3:.1f} ms, of which the two products "
          f"{r.matvec_seconds * 1e3:.1f} ms ({100 * r.matvec_seconds / r.seconds_per_iteration:.0f}"
          f" %); per α (30 iterations) {30 * r.seconds_per_iteration:.2f} s; overlap "
          f"{r.overlap:.4f}")


def noisy_square() -> None:
    """One average of y = z² + σε at levels 1 and 2, and the Gaussian prior's thresholds."""
    import statistics

    from fltheory.papers.glm._channels import channel_numerics

    C = channel_numerics(Channel("square", noise=1), 1.0)
    print("\nnoisy square σ = 1, ρ = 1: one average (median of 5 wall seconds; Q, Z ln Z)")
    for level in (1, 2):
        cells = []
        for q in (0.3, 0.8, 0.99):
            for what in ("Q", "psi"):
                runs = []
                for _ in range(5):
                    t0 = time.perf_counter()
                    C._avg(q, level, None, what)
                    runs.append(time.perf_counter() - t0)
                cells.append(f"{what}({q}) {statistics.median(runs):.3f}")
        print(f"  level {level}: " + ", ".join(cells))
    ans, wall, cpu = _timed(lambda: theory.thresholds(gaussian(), Channel("square", noise=1)))
    items = ", ".join(f"α_{n} = {v.text()} ({k}, {v.digits} digits)"
                      for n, v, k, _a, _b, _e in ans.items)
    print(f"  thresholds, Gaussian prior: wall {wall:5.2f} s  cpu {cpu:5.2f} s   {items}")


if __name__ == "__main__":
    main()
