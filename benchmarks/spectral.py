"""Query times asked for by the spectral-threshold issue (27): a closed-form case (target
<= 0.5 s), a numeric bulk at 30 digits (target <= 5 s), and, for information, a sample of
eigenvalues, a quadrature link and a noisy link. Each is a whole ``fltheory`` process (start-up
included): the median wall time of ``--runs`` runs, output discarded.

Measured (farm-bench, median of 3–5 whole processes; 2 cores shared with other jobs):

    spike --theta 3/2,1/2 (semicircle, exact)                           0.10 s   target 0.5
    spike --ell 3 --gamma 1/2 (Marchenko–Pastur, exact)                0.10 s   target 0.5
    spike --theta 2 --bulk density (semicircle density), --dps 30      1.29 s   target 5
    spike --ell 3 --bulk density (MP density, γ = 1/4), --dps 30       1.38 s   target 5
    spike --theta 2,1/2 --eigenvalues (1500 GOE eigenvalues)           0.20 s
    link --g He4 (quadrature, --dps 30)                                1.18 s
    link --g z**2 --noise 3/5 (doubles, two resolutions)               1.92 s

Usage: python benchmarks/spectral.py [--runs 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from _common import median_wall

SEMICIRCLE = "sqrt(Max(4 - x**2, 0))/(2*pi)"
MP_QUARTER = "sqrt(Max((9/4 - x)*(x - 1/4), 0))/(pi*x/2)"  # γ = 1/4 on [1/4, 9/4]


def cases(eigenvalue_file: str) -> list[tuple[str, list[str], float | None]]:
    """(label, arguments of fltheory, target seconds or None)."""
    return [
        ("spike semicircle, exact", ["spike", "--theta", "3/2,1/2"], 0.5),
        ("spike Marchenko–Pastur, exact", ["spike", "--ell", "3", "--gamma", "1/2"], 0.5),
        ("spike density (semicircle), dps 30",
         ["spike", "--theta", "2", "--bulk", "density", "--density", SEMICIRCLE, "--support",
          "-2,2", "--dps", "30"], 5.0),
        ("spike density (MP γ = 1/4), dps 30",
         ["spike", "--ell", "3", "--bulk", "density", "--density", MP_QUARTER, "--support",
          "1/4,9/4", "--dps", "30"], 5.0),
        ("spike --eigenvalues (1500 GOE)",
         ["spike", "--theta", "2,1/2", "--eigenvalues", eigenvalue_file], None),
        ("link He4 (quadrature, dps 30)", ["link", "--g", "He4"], None),
        ("link z**2 --noise 3/5", ["link", "--g", "z**2", "--noise", "3/5"], None),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not 1 <= args.runs <= 20:
        sys.exit("--runs: 1 to 20")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((1500, 1500))
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "goe.txt")
        np.savetxt(path, np.linalg.eigvalsh((a + a.T) / np.sqrt(2 * 1500)))
        for label, argv, target in cases(path):
            wall = median_wall([sys.executable, "-m", "fltheory", *argv], args.runs)
            verdict = "" if target is None else (
                f"   target <= {target:g} s: {'met' if wall <= target else 'MISSED'}")
            print(f"{label:40s} {wall:6.2f} s{verdict}", flush=True)


if __name__ == "__main__":
    main()
