"""Committed tables are exactly what `fltheory table NAME` writes, and they compile."""

from __future__ import annotations

import pytest
from latexcheck import compile_body
from layout import ROOT

from fltheory.render.latex import tabular
from fltheory.render.tables import build_table, table_names

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


def _cells(name, **params):
    t = build_table(name, **params)
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

    for params in ({}, {"d": (4, 7)}):  # the committed dimensions, and a researcher's
        _, rows = _cells("fisher", **params)
        assert [int(r[0]) for r in rows] == list(params.get("d", (2, 3, 5, 10, 100, 1000)))
        _check_fisher_rows(rows, lam)


def _check_fisher_rows(rows, lam):
    import math

    for row in rows:
        d = int(row[0])
        assert float(row[1]) == pytest.approx(lam(d, 0), rel=5e-6), d
        assert float(row[3]) == pytest.approx(lam(d, 2), rel=5e-6), d
        assert float(row[2]) == pytest.approx((2 * d + 1) / (4 * math.pi), rel=5e-6)
        assert float(row[4]) == pytest.approx(1 / (2 * math.pi * (d + 2)), rel=5e-6)
        assert int(row[5]) == d * (d + 1) // 2 - 1


def test_tables_compile_with_pdflatex(tmp_path):
    body = "\n".join(r"\input{" + str(p) + "}" for p in sorted(TABLE_DIR.glob("*.tex")))
    compile_body(body, tmp_path)


# ------------------------------------------------------------------ parameters of the views


def _views():
    from fltheory.papers import contribution
    from fltheory.render.plots import figure_names

    return ([("table", n, contribution("tables", n)) for n in table_names()]
            + [("plot", n, contribution("figures", n)) for n in figure_names()])


@pytest.mark.parametrize("kind,name,func", _views(), ids=lambda v: v if isinstance(v, str)
                         else "")
def test_every_view_documents_its_parameters(kind, name, func):
    """Each view has a docstring naming its parameters, and each keyword parameter is declared
    (kind, domain, help) so that `fltheory KIND NAME --help` lists it with its default."""
    import inspect

    from fltheory.render.params import declared_params, format_value

    doc = inspect.getdoc(func) or ""
    declared = declared_params(func)
    keywords = [p for p in inspect.signature(func).parameters.values()
                if p.default is not inspect.Parameter.empty]
    assert declared and len(declared) == len(keywords), name
    assert "Parameters" in doc, name
    params_doc = doc.split("Parameters", 1)[1]
    for key in declared:
        assert key in params_doc, (name, key)
    from click.testing import CliRunner

    from fltheory.cli import cli

    out = CliRunner().invoke(cli, [kind, name, "--help"]).output
    for key, (_, default) in declared.items():
        assert "--" + key.replace("_", "-") in out, (name, key)
        if default is not None:  # None: the docstring says what the default rows are
            assert "".join(format_value(default).split()) in "".join(out.split()), (name, key)


def test_table_with_parameters_through_the_cli(invoke, tmp_path, monkeypatch):
    """`table NAME --param value`: the same text as the Python call, progress on stderr only,
    and a variant never overwrites the committed file (it goes to NAME-KEY=VALUE.tex)."""
    monkeypatch.chdir(tmp_path)
    r = invoke("table", "hermite", "--functions", "relu,z**3", "--K", "2", "--kmax", "4", "-o", "-")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == tabular(build_table("hermite", functions=("relu", "z**3"), K=2, kmax=4))
    assert r"\texttt{z**3}" in r.stdout and "(examined up to $k = 4$)" in r.stdout
    assert "fltheory table hermite: [" in r.stderr and "relu (1/2)" in r.stderr
    r = invoke("table", "lambda", "--n", "4")
    assert r.exit_code == 0 and r.stderr == "wrote tables/lambda-n=4.tex\n"
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == ["lambda-n=4.tex"]
    text = (tmp_path / "tables" / "lambda-n=4.tex").read_text()
    # Λ = ⌊α2/(1/2 − α1)⌋ by hand on the grid 0, 1/8, 1/4, 3/8: α1 = 3/8, α2 = 3/8 gives 3
    # (a boundary case), α1 = 1/4, α2 = 1/8 gives 0.5 → 0
    rows = {line.split(" & ")[0]: line.rstrip(" \\").split(" & ")[1:]
            for line in text.splitlines() if " & " in line and "alpha" not in line}
    assert rows["0.375"][3] == "$3^\\dagger$" and rows["0.25"][1] == "0"
    r = invoke("table", "lambda", "--n", "10")  # the defaults, typed: the committed name
    assert r.stderr == "wrote tables/lambda.tex\n"


@pytest.mark.parametrize("args,message", [
    (["fisher", "--d", "1"], "d = 1 is out of range; allowed: comma-separated integers in "
                             "[2, 1000000]"),
    (["fisher", "--d", "3,,4"], "d = 3,,4 has an empty item"),
    (["fisher", "--d", "x"], "d = x is not a number"),
    (["committee", "--eta", "0"], "eta = 0 is out of range"),
    (["committee", "--g", "erf,relu", "--eta", "1/2,1,2"], "does not pair with g"),
    (["twostep", "--alpha1", "1/10", "--alpha2", "1/5,1/4"], "does not pair with alpha1"),
    (["hermite", "--K", "9"], "K = 9 exceeds kmax"),
    (["lambda", "--n", "1/2"], "n = 1/2"),
])
def test_table_bad_parameter_is_one_line_and_no_file(invoke, tmp_path, args, message):
    out = tmp_path / "t.tex"
    r = invoke("table", *args, "-o", str(out))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and message in r.stderr, r.stderr
    assert r.stdout == "" and not list(tmp_path.iterdir())


def test_variant_name_is_bounded(invoke, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke("table", "hermite", "--functions", ",".join(["tanh"] * 40))
    assert r.exit_code == 2 and "-o FILE" in r.stderr and not list(tmp_path.iterdir())
