"""Committed tables are exactly what `fltheory table NAME` writes, and they compile."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from fltheory.render.latex import tabular
from fltheory.render.tables import build_table, table_names

ROOT = Path(__file__).resolve().parent.parent
TABLE_DIR = ROOT / "tables"


@pytest.mark.parametrize("name", table_names())
def test_committed_table_is_regenerated_identically(name):
    committed = TABLE_DIR / f"{name}.tex"
    assert committed.exists(), f"run: fltheory table {name}"
    assert committed.read_text(encoding="utf-8") == tabular(build_table(name)), (
        f"tables/{name}.tex differs from what the code computes now. Do not simply regenerate "
        "it: the committed file is a record, not an independent check. If the change is "
        "intended, the formula's independent tests (tests/test_independent_*.py) must pass "
        f"first; then run `fltheory table {name}` and name the changed numbers in the commit.")


def test_no_orphan_tables():
    assert {p.stem for p in TABLE_DIR.glob("*.tex")} == set(table_names())


def test_lambda_table_content():
    t = build_table("lambda")
    row = {r[0]: r[1:] for r in t.rows}
    cols = t.columns[1:]
    # α1 = 0.4, α2 = 0.3: Λ = 3, a boundary case; α1 = 0.35, α2 = 0.15: exactly 1 (floats say 0).
    assert row["0.4"][cols.index("0.3")] == "3*"
    assert row["0.35"][cols.index("0.15")] == "1*"
    assert row["0.1"][cols.index("0.35")] == "0"


def _cells(name):
    t = build_table(name)
    return t.columns, t.rows


def test_hermite_table_cells_against_independent_quadrature():
    """Every printed μ_k of the Hermite table against numpy Gauss–Hermite quadrature (written
    here; 200 nodes, piecewise functions by scipy quad split at the kink), to the 6 printed
    digits."""
    import math

    import numpy as np
    from scipy import integrate, special

    fns = {"relu": lambda x: np.maximum(x, 0), "tanh": np.tanh,
           "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "softplus": lambda x: np.logaddexp(0, x),
           "gelu": lambda x: x * (1 + special.erf(x / math.sqrt(2))) / 2, "erf": special.erf,
           "abs": np.abs, "sign": np.sign, "quadratic": lambda x: x**2, "cubic": lambda x: x**3,
           "He2": lambda x: x**2 - 1, "He3": lambda x: x**3 - 3 * x,
           "He4": lambda x: x**4 - 6 * x**2 + 3}
    kinked = {"relu", "abs", "sign"}
    x, w = np.polynomial.hermite_e.hermegauss(200)
    w = w / math.sqrt(2 * math.pi)
    _, rows = _cells("hermite")
    assert [r[0] for r in rows] == list(fns)
    for row in rows:
        f = fns[row[0]]
        for k in range(5):
            He = np.polynomial.hermite_e.HermiteE([0] * k + [1])
            if row[0] in kinked:
                ref = sum(integrate.quad(lambda z, f=f, He=He: float(f(z)) * He(z)
                                         * math.exp(-z * z / 2), lo, hi)[0]
                          for lo, hi in ((-np.inf, 0), (0, np.inf)))
                ref /= math.sqrt(2 * math.pi)
            else:
                ref = float(np.sum(w * f(x) * He(x)))
            ref /= math.sqrt(math.factorial(k))
            printed = float(row[1 + k])
            assert abs(printed - ref) <= 5e-6 * max(abs(ref), 1e-1), (row[0], k, printed, ref)


def test_fisher_table_cells_against_independent_quadrature():
    """λ_0 and λ_2 of the Fisher table against scipy quadrature of the Funk–Hecke integral
    written here (arc-cosine kernel κ, Gegenbauer polynomial from scipy), and N(d, 2) against
    d(d + 1)/2 − 1, to the printed 6 digits."""
    import math

    from scipy import integrate, special

    def lam(d, l):
        def kappa(t):
            return (math.sqrt(1 - t * t) + (math.pi - math.acos(t)) * t) / (2 * math.pi)

        alpha = (d - 2) / 2
        P = (lambda t: special.eval_gegenbauer(l, alpha, t) / special.eval_gegenbauer(l, alpha, 1)
             ) if d > 2 else (lambda t: special.eval_chebyt(l, t))
        # t = cos θ: weight sin^{d−2}θ dθ, smooth for every d
        num = integrate.quad(lambda th: kappa(math.cos(th)) * P(math.cos(th))
                             * math.sin(th) ** (d - 2), 0, math.pi, limit=200)[0]
        den = integrate.quad(lambda th: math.sin(th) ** (d - 2), 0, math.pi, limit=200)[0]
        return d * num / den

    _, rows = _cells("fisher")
    for row in rows:
        d = int(row[0])
        assert float(row[1]) == pytest.approx(lam(d, 0), rel=5e-6), d
        assert float(row[3]) == pytest.approx(lam(d, 2), rel=5e-6), d
        assert float(row[2]) == pytest.approx((2 * d + 1) / (4 * math.pi), rel=5e-6)
        assert float(row[4]) == pytest.approx(1 / (2 * math.pi * (d + 2)), rel=5e-6)
        assert int(row[5]) == d * (d + 1) // 2 - 1


def test_tables_compile_with_pdflatex(tmp_path):
    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex missing in CI: .ci/run must install texlive")
        pytest.skip("pdflatex not installed on this machine (CI installs texlive)")
    body = "\n".join(r"\input{" + str(p) + "}" for p in sorted(TABLE_DIR.glob("*.tex")))
    doc = (r"\documentclass{article}\usepackage{booktabs}\usepackage{amsmath}"
           "\n\\begin{document}\n" + body + "\n\\end{document}\n")
    (tmp_path / "doc.tex").write_text(doc, encoding="utf-8")
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
                       cwd=tmp_path, capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 1000
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "Missing character" not in log and "Undefined control sequence" not in log
