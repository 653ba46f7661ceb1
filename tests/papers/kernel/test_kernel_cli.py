"""`fltheory kernel …`: the commands' answers, formats and refusals (one line, exit 2, before
any work)."""

from __future__ import annotations

import json
import math

import pytest


def test_spectrum_relu_ntk_exact(invoke):
    """The issue's example: ReLU NTK, depth 2, d = 3, exact rationals (the closed forms of
    Bietti & Mairal 2019 in the normalisation P_k(1) = 1: μ_0 = 1/2, μ_1 = 1/d, zeros at odd
    k >= 3), κ(1) = 2 and the Mercer partial sum."""
    r = invoke("kernel", "spectrum", "--activation", "relu", "--kind", "ntk", "--depth", "2",
               "--d", "3", "--kmax", "6", "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["value"] == ["1/2", "1/3", "5/64", "0", "1/192", "0", "23/16384"]
    assert data["details"]["kappa_1"] == "2"
    assert data["details"]["levels"][2]["multiplicity"] == "5"
    assert float(data["details"]["mercer_share"]) == pytest.approx(
        (1 / 2 + 1 + 25 / 64 + 9 / 192 + 13 * 23 / 16384) / 2, rel=1e-15)


def test_spectrum_kernel_expression(invoke):
    """exp(2t − 2) at d = 3: all digits confirmed, the Mercer sum close to κ(1) = 1."""
    r = invoke("kernel", "spectrum", "--kernel", "exp(2*t - 2)", "--d", "3", "--kmax", "6",
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert all(lev["digits"] == 30 for lev in data["details"]["levels"])
    # μ_0 = E_t[e^{2t−2}] on S² (t uniform on [−1, 1]) = (1 − e^{−4})/4
    import math

    assert float(data["value"][0]) == pytest.approx((1 - math.exp(-4)) / 4, rel=1e-15)


def test_spectrum_large_d_is_fast_and_light(invoke):
    """The performance case (ReLU NTK, d = 10^6, degrees 0 … 200): exact zeros at odd k >= 3,
    the last degree at all digits; sympy is not needed for it."""
    r = invoke("kernel", "spectrum", "--activation", "relu", "--kind", "ntk", "--d", "1000000",
               "--kmax", "200", "--format", "json")
    assert r.exit_code == 0, r.stderr
    levels = json.loads(r.stdout)["details"]["levels"]
    assert levels[199]["numeric"] == "0" and levels[200]["digits"] == 30
    assert levels[200]["numeric"].endswith("e-830")


@pytest.mark.parametrize("fmt", ["text", "latex"])
def test_formats(invoke, fmt):
    for args in (["spectrum", "--activation", "relu", "--d", "5", "--kmax", "3"],
                 ["curve", "--activation", "relu", "--d", "5", "--n", "10,100",
                  "--target-degree", "1"],
                 ["ridge", "--gamma", "2", "--ridge", "1/2"]):
        r = invoke("kernel", *args, "--format", fmt)
        assert r.exit_code == 0, (args, r.stderr)
        assert r.stdout.strip()


def test_curve_issue_example(invoke):
    r = invoke("kernel", "curve", "--kernel", "exp(2*t - 2)", "--d", "10", "--n", "100",
               "--ridge", "0", "--noise", "0", "--target-degree", "2", "--format", "json")
    assert r.exit_code == 0, r.stderr
    row = json.loads(r.stdout)["details"]["curve"][0]
    assert 0 < row["error"] < 1 and row["noisy_test_error"] == row["error"]
    assert row["learnability"]["2"] == pytest.approx(1 - (row["error"] / row["E0"]) ** 0.5,
                                                     rel=1e-9)


def test_curve_optimal_ridge_is_no_worse(invoke):
    args = ["kernel", "curve", "--activation", "relu", "--kind", "ntk", "--d", "10", "--n",
            "30,300", "--noise", "1", "--target-degree", "2", "--format", "json"]
    fixed = json.loads(invoke(*args).stdout)["value"]
    best = json.loads(invoke(*args, "--ridge", "optimal").stdout)["value"]
    assert all(b <= f * (1 + 1e-9) for b, f in zip(best, fixed, strict=True))


def test_ridge_issue_example(invoke):
    r = invoke("kernel", "ridge", "--gamma", "1/2", "--signal", "1", "--noise", "1", "--ridge",
               "optimal", "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["value"] == "-1 + sqrt(2)" and data["details"]["lambda"] == "1/2"
    assert data["details"]["ridgeless"] == "1"


def test_ridge_interpolation_peak(invoke):
    r = invoke("kernel", "ridge", "--gamma", "1", "--ridge", "0", "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["value"] == "oo" and data["numeric"] is None


def test_simulate_and_staircase(invoke):
    r = invoke("kernel", "simulate", "--activation", "relu", "--kind", "ntk", "--d", "5",
               "--n", "50", "--noise", "1/2", "--target-degree", "1", "--seeds", "3",
               "--n-test", "200", "--format", "json")
    assert r.exit_code == 0, r.stderr
    value = json.loads(r.stdout)["value"]
    assert value["predicted"] > 0 and value["measured"] > 0
    r = invoke("kernel", "staircase", "--activation", "relu", "--kind", "ntk", "--psi",
               "1000000", "--target-energies", "1:1/2,2:1/2", "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["value"][0] == pytest.approx(0.5, abs=1e-5)


def test_rf_is_the_theory_face(invoke):
    """kernel rf prints random_features()'s error (the face the tests check against the
    simulation and the kernel limit) and names its source."""
    from fltheory.papers.kernel.params import RandomFeatures
    from fltheory.papers.kernel.theory import random_features

    r = invoke("kernel", "rf", "--activation", "tanh", "--psi1", "2", "--psi2", "3", "--ridge",
               "1/10", "--noise", "1/2", "--nonlinear", "1/5", "--format", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    a = random_features(RandomFeatures("tanh", 2, 3, "1/10", 1, "1/5", "1/2"))
    assert out["value"] == a.risk
    assert "Mei & Montanari 2019" in out["conventions"]["source"]


def test_staircase_names_its_sources_and_locates_the_peak(invoke):
    """The plateau is e_{>ℓ} exactly (1/5), the peak's error is the table's error at ψ*
    (recomputed through --psi), and each output carries its source."""
    args = ("kernel", "staircase", "--kernel", "t/2 + t**2/20", "--noise", "1",
            "--target-energies", "1:1,2:1/5", "--format", "json")
    r = invoke(*args)
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["details"]["plateau"] == "1/5"
    peak = out["details"]["peak"]
    assert not peak["diverges"] and 0.9 < peak["psi"] < 1.1
    again = invoke(*args[:-2], "--psi", repr(peak["psi"]), "--format", "json")
    assert json.loads(again.stdout)["value"][0] == pytest.approx(peak["error"], rel=1e-12)
    assert {"source: learned", "source: level", "source: plateau",
            "source: peak"} <= set(out["conventions"])
    r = invoke("kernel", "staircase", "--kernel", "t**2", "--ell", "2", "--noise", "1/2",
               "--target-degree", "2", "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["details"]["peak"] == {"psi": "1/2", "alpha": 1, "error": None,
                                                       "diverges": True}


@pytest.mark.parametrize("bad", [
    ["spectrum", "--activation", "relu", "--d", "1"],
    ["spectrum", "--activation", "relu", "--d", "2000000000"],
    ["spectrum", "--activation", "relu", "--d", "3", "--kmax", "401"],
    ["spectrum", "--activation", "relu", "--d", "3", "--depth", "9"],
    ["spectrum", "--activation", "relu", "--d", "3", "--bias", "-1"],
    ["spectrum", "--activation", "nope", "--d", "3"],
    ["spectrum", "--activation", "sign", "--kind", "ntk", "--d", "3"],
    ["spectrum", "--activation", "relu(z)**2", "--d", "3"],
    ["spectrum", "--activation", "z**3", "--depth", "8", "--d", "3"],
    ["spectrum", "--activation", "tanh", "--depth", "8", "--d", "3", "--kmax", "40"],
    ["spectrum", "--activation", "tanh", "--bias", "1", "--d", "3", "--dps", "60"],
    ["spectrum", "--activation", "exp(z**2/3)", "--d", "3"],
    ["spectrum", "--kernel", "1/(1 - t)", "--d", "3"],
    ["spectrum", "--kernel", "sqrt(t)", "--d", "3"],
    ["spectrum", "--kernel", "Abs(t)", "--d", "3"],
    ["spectrum", "--kernel", "-t", "--d", "3"],
    ["spectrum", "--kernel", "sqrt(t**2 + 1/100)", "--d", "3"],
    ["spectrum", "--kernel", "t", "--activation", "relu", "--d", "3"],
    ["spectrum", "--kernel", "import os", "--d", "3"],
    ["spectrum", "--d", "3"],
    ["curve", "--activation", "relu", "--d", "3", "--kmax", "3", "--target-degree", "5"],
    ["curve", "--activation", "relu", "--d", "3", "--n", "0", "--target-degree", "1"],
    ["curve", "--activation", "relu", "--d", "3", "--ridge", "-1", "--target-degree", "1"],
    ["curve", "--activation", "relu", "--d", "3", "--noise", "-1", "--target-degree", "1"],
    ["curve", "--activation", "relu", "--d", "3"],
    ["curve", "--activation", "relu", "--d", "3", "--target-energies", "1:0"],
    ["curve", "--activation", "relu", "--d", "3", "--target-energies", "x"],
    ["ridge", "--gamma", "0"],
    ["rf", "--activation", "relu", "--psi1", "0", "--psi2", "3", "--ridge", "1/10"],
    ["rf", "--activation", "relu", "--psi1", "2", "--psi2", "3", "--ridge", "0"],
    ["rf", "--activation", "z", "--psi1", "2", "--psi2", "3", "--ridge", "1/10"],
    ["rf", "--activation", "nope", "--psi1", "2", "--psi2", "3", "--ridge", "1/10"],
    ["ridge", "--gamma", "1/2", "--signal", "0"],
    ["ridge", "--gamma", "1/2", "--ridge", "-1"],
    ["simulate", "--activation", "relu", "--d", "3", "--n", "100000", "--target-degree", "1"],
    ["simulate", "--activation", "z**2 + 1", "--d", "3", "--target-degree", "1"],
    ["staircase", "--activation", "relu", "--ell", "3", "--target-degree", "1"],
    ["staircase", "--activation", "relu", "--psi", "0", "--target-degree", "1"],
    # costs bounded before work: the Hermite route and the series route of the ReLU family
    ["spectrum", "--activation", "gelu", "--kind", "ntk", "--d", "2", "--kmax", "50", "--dps",
     "100"],
    ["spectrum", "--activation", "gelu", "--d", "2", "--kmax", "400"],
    ["spectrum", "--activation", "relu", "--kind", "ntk", "--depth", "8", "--bias", "100",
     "--d", "7", "--kmax", "400", "--dps", "100"],
    # polynomial targets
    ["curve", "--activation", "relu", "--d", "3", "--target-polynomial", "exp(t)"],
    ["curve", "--activation", "relu", "--d", "3", "--target-polynomial", "0*t"],
    ["curve", "--activation", "relu", "--d", "3", "--target-polynomial", "t**61"],
    ["curve", "--activation", "relu", "--d", "3", "--target-polynomial", "x**2"],
    ["curve", "--activation", "relu", "--d", "3", "--target-polynomial", "10000*t"],
    ["curve", "--activation", "relu", "--d", "3", "--target-polynomial", "t",
     "--target-degree", "1"],
    ["curve", "--activation", "relu", "--d", "1", "--target-polynomial", "t"],
    ["simulate", "--activation", "relu", "--d", "3", "--target-polynomial", "t**61"],
])
def test_bad_input(invoke, bad):
    r = invoke("kernel", *bad)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, (bad, r.stderr, r.stdout)


def test_polynomial_target_energies_are_its_harmonic_parts(invoke):
    """f*(x) = p(x·u), p(t) = 3t³/2 − t/3 + 1/5 at d = 7: the energies per degree sum to
    E_t[p(t)²] (Parseval), computed here from the sphere's moments E[t^(2i)] = (2i − 1)!!/
    (d(d + 2)…(d + 2i − 2)); degree 3's energy is N(7, 3)·E[p P_3]², E[p P_3] = (3/2)E[t³P_3]
    and, by hand at d = 7, P_3 = (3/2)(t³ − t/3) (Gegenbauer α = 5/2, P_3(1) = 1), so
    E[t³P_3] = (3/2)(E t⁶ − E t⁴/3) = (3/2)(15/693 − 11/693) = 6/693 = 3!/(d(d+2)(d+4)); and
    the curve equals the one given the same energies by hand."""
    from fractions import Fraction
    from math import comb, prod

    d = 7
    p = {0: Fraction(1, 5), 1: Fraction(-1, 3), 3: Fraction(3, 2)}

    def moment(j: int) -> Fraction:
        if j % 2:
            return Fraction(0)
        return Fraction(prod(range(j - 1, 0, -2)), prod(d + 2 * i for i in range(j // 2)))

    norm2 = sum((a * b * moment(i + j) for i, a in p.items() for j, b in p.items()),
                Fraction(0))
    r = invoke("kernel", "curve", "--activation", "relu", "--kind", "ntk", "--d", str(d),
               "--n", "10,100,1000", "--noise", "1/10", "--target-polynomial",
               "3*t**3/2 - t/3 + 1/5", "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    energies = {int(k): Fraction(v) for k, v in data["inputs"]["target"].items()}
    assert sum(energies.values()) == norm2
    n3 = comb(d + 2, 3) - comb(d, 1)  # N(d, 3) = C(k+d−1, k) − C(k+d−3, k−2)
    assert energies[3] == n3 * (Fraction(3, 2) * Fraction(6, d * (d + 2) * (d + 4))) ** 2
    assert data["inputs"]["target_polynomial"] == "3*t**3/2 - t/3 + 1/5"
    by_hand = invoke("kernel", "curve", "--activation", "relu", "--kind", "ntk", "--d", str(d),
                     "--n", "10,100,1000", "--noise", "1/10", "--target-energies",
                     ",".join(f"{k}:{e}" for k, e in energies.items()), "--format", "json")
    assert json.loads(by_hand.stdout)["value"] == data["value"]


def _json(invoke, *args):
    r = invoke(*args, "--format", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize(("activation", "d", "a", "c", "degree"), [
    ("3*relu(z)/2 - relu(-z)/3", 7, "3/2", "-1/3", 1),  # a leaky ReLU, generic slopes and d
    ("relu", 6, "1", "0", 1),  # the Fisher paper's σ, at an even d (values with 1/π²)
    ("sign", 5, "1", "-1", 0),  # a step: homogeneous of degree 0, no s in the relation
])
def test_spectrum_prints_its_relation_to_the_random_feature_spectrum(invoke, activation, d, a,
                                                                     c, degree):
    """``kernel spectrum`` of a depth-2 NNGP of a positively homogeneous σ prints, once, which
    command prints the random-feature spectrum and how its levels follow from μ_l (issue 35,
    item 1: state the relation). Held here to both commands' numbers: the printed command is
    run at a generic scale s = 5/3 and each λ_(l,0) must be s^{2q}·E[σ²]·μ_l, each λ_(l,j >= 1)
    zero. The reference E[σ²] = (a² + c²)/2 for σ = a·relu(z) + c·relu(−z) or a·1(z > 0) +
    c·1(z < 0) is worked out here by hand (E[relu(z)²] = E[1(z > 0)] = 1/2), not read."""
    import shlex
    from fractions import Fraction

    kmax, s = 5, Fraction(5, 3)
    kernel = _json(invoke, "kernel", "spectrum", "--activation", activation, "--d", str(d),
                   "--kmax", str(kmax))
    rel = kernel["details"]["random_features"]
    second = (Fraction(a) ** 2 + Fraction(c) ** 2) / 2
    assert Fraction(rel["second_moment"]) == second and rel["scale_power"] == 2 * degree
    # the line a reader sees says the same: the command and the factor, written out
    line = kernel["conventions"]["random features"]
    assert line.startswith(rel["command"] + " prints") and f"= {rel['lambda_l0']} " in line
    factor = ("" if second == 1 else f"({second})·" if second.denominator > 1
              else f"{second}·") + ("s²·" if degree else "")
    assert rel["lambda_l0"] == factor + "μ_l"
    mu = kernel["details"]["levels"]
    argv = shlex.split(rel["command"].replace("--scale s", f"--scale {s}"))
    assert argv[:2] == ["fltheory", "fisher"]
    rf = _json(invoke, *argv[1:], "--lmax", str(kmax), "--jmax", "2")
    levels = rf["details"]["levels"]
    assert len(levels) == 3 * (kmax + 1)
    want = s ** (2 * degree) * second
    for lev in levels:
        l, value = lev["l"], float(lev["numeric"])
        if lev["j"] > 0:
            assert value == 0 and lev["exact"] == "0"
            continue
        assert value == pytest.approx(float(want) * float(mu[l]["numeric"]), rel=1e-13, abs=0)
        if "pi" not in mu[l]["exact"]:  # rational on both sides: exactly
            assert Fraction(lev["exact"]) == want * Fraction(mu[l]["exact"])
    # the text form shows no λ of the fisher paper unless σ is ReLU, whose command it names
    if activation == "relu":
        assert rel["fisher_command"] == f"fltheory fisher --d {d}"
        assert Fraction(rel["fisher_factor"]) == Fraction(d, 2)
        assert f"{rel['fisher_command']} (ReLU, s = √d) prints λ_l = (d/2)·μ_l = {d // 2}·μ_l" \
            in line
        paper = _json(invoke, "fisher", "--d", str(d), "--lmax", str(kmax))["details"]["levels"]
        import mpmath

        with mpmath.workdps(40):  # both printed to 30 digits
            for lev in paper:
                want_l = mpmath.mpf(d) / 2 * mpmath.mpf(mu[lev["l"]]["numeric"])
                assert abs(mpmath.mpf(lev["numeric"]) - want_l) <= mpmath.mpf(10) ** -27 * want_l
    else:
        assert rel["fisher_command"] is None and "(ReLU, s = √d)" not in line


@pytest.mark.parametrize("args", [
    ("--activation", "relu", "--kind", "ntk"), ("--activation", "relu", "--depth", "3"),
    ("--activation", "relu", "--bias", "1/2"), ("--activation", "tanh"),
    ("--kernel", "exp(2*t - 2)"),
])
def test_spectrum_prints_no_random_feature_relation_where_none_holds(invoke, args):
    """The NTK, a deeper NNGP, a bias, a σ that is not homogeneous (the random-feature kernel
    then depends on ‖w‖ and ‖w'‖ apart: no rank one) and a kernel given in t: no relation
    printed, in any format."""
    data = _json(invoke, "kernel", "spectrum", *args, "--d", "5", "--kmax", "3")
    assert "random_features" not in data["details"]
    assert "random features" not in data["conventions"]
    r = invoke("kernel", "spectrum", *args, "--d", "5", "--kmax", "3", "--format", "latex")
    assert "random features" not in r.stdout and "fltheory fisher" not in r.stdout


def test_spectrum_relation_in_text_and_latex_once(invoke, tmp_path):
    """Text: one ``[random features]`` line; LaTeX: one table note naming the commands as
    typed, and the document compiles."""
    from latexcheck import compile_body

    text = invoke("kernel", "spectrum", "--activation", "abs", "--d", "4", "--kmax", "3").stdout
    assert text.count("fltheory fisher --sigma abs --d 4 --scale s prints") == 1
    assert text.count("[random features] ") == 1
    tex = invoke("kernel", "spectrum", "--activation", "abs", "--d", "4", "--kmax", "3",
                 "--format", "latex").stdout
    assert tex.count(r"random features: \texttt{fltheory fisher --sigma abs --d 4 --scale s}") \
        == 1
    compile_body(tex, tmp_path)


def _sphere_eigenvalue(kappa, d: int, k: int) -> float:
    """μ_k = E_t[κ(t) P_k(t)] on S^{d−1} by mpmath quadrature (density ∝ (1 − t²)^{(d−3)/2},
    P_k the Gegenbauer polynomial with P_k(1) = 1, from mpmath's gegenbauer)."""
    import mpmath

    with mpmath.workdps(30):
        lam = mpmath.mpf(d - 2) / 2
        weight = lambda t: (1 - t * t) ** ((d - 3) / mpmath.mpf(2))  # noqa: E731
        P = lambda t: mpmath.gegenbauer(k, lam, t) / mpmath.gegenbauer(k, lam, 1)  # noqa: E731
        return float(mpmath.quad(lambda t: kappa(t) * P(t) * weight(t), [-1, 1])
                     / mpmath.quad(weight, [-1, 1]))


def test_a_kernel_not_psd_is_refused_naming_its_negative_eigenvalue(invoke):
    """sqrt(1 − t²) on S^9: μ_2 < 0 (quadrature of its definition here), refused in one line
    that quotes it, and already at the first truncation of the series (kmax 400, dps 100 took
    29 s before, refining a series whose answer was already a refusal)."""
    import re

    import mpmath

    mu2 = _sphere_eigenvalue(lambda t: mpmath.sqrt(1 - t * t), 10, 2)
    assert mu2 < 0
    r = invoke("kernel", "spectrum", "--kernel", "sqrt(1-t**2)", "--d", "10", "--kmax", "6")
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "positive semi-definite" in r.stderr
    # the quoted μ_2 carries only the digits its bound confirms: right to its last digit
    quoted = re.search(r"μ_2 = (-[0-9.e-]+)", r.stderr).group(1)
    mantissa = quoted.split("e")[0].lstrip("-")
    last = 10.0 ** (math.floor(math.log10(abs(float(quoted)))) - (len(mantissa.replace(
        ".", "").lstrip("0")) - 1))
    assert abs(float(quoted) - mu2) <= last


def test_a_negative_taylor_coefficient_with_a_psd_kernel_is_answered(invoke):
    """t⁴eᵗ − t²/100 has a negative t² coefficient but every μ_k >= 0 on S^9 (the t⁴ term
    outweighs it at k = 2): answered, with the note on the negative coefficient; μ_2 against
    quadrature of the definition."""
    import json

    import mpmath

    r = invoke("kernel", "spectrum", "--kernel", "t**4*exp(t) - t**2/100", "--d", "10",
               "--kmax", "4", "--format", "json")
    assert r.exit_code == 0, r.stderr
    out = json.loads(r.stdout)
    assert any("negative" in n for n in out["notes"])
    mu2 = _sphere_eigenvalue(lambda t: t**4 * mpmath.exp(t) - t**2 / 100, 10, 2)
    row = next(row for row in out["table"]["rows"] if row[0] == "2")
    assert float(row[3]) == pytest.approx(mu2, rel=1e-12)


def test_the_series_stops_refining_once_settled():
    """series_eigenvalues asks ``settled`` after each truncation: a True ends the refinement at
    the first one (J = max(2 kmax + 32, 64))."""
    import mpmath

    from fltheory.engine.kernels.series import series_eigenvalues

    f = lambda z: mpmath.acos(-z)  # noqa: E731  (singular at ±1: it refines)
    first = series_eigenvalues(f, mpmath.pi, 0, 10, 40, 20, settled=lambda s: True)
    assert first.J == 112
    assert series_eigenvalues(f, mpmath.pi, 0, 10, 40, 20).J > 112


def test_the_refusal_of_a_kernel_not_psd_computes_one_series(taylor_calls):
    """expression_eigenvalues passes series_eigenvalues a ``settled`` test: sqrt(1 − t²), whose
    μ_2 < 0 already shows at the first truncation, is refused after one Taylor series (a
    kernel singular at ±1 would otherwise be refined to longer series first)."""
    from fltheory.engine.kernels import expression
    from fltheory.engine.kernels.parse import parse_kernel
    from fltheory.exact import DomainError

    with pytest.raises(DomainError, match="positive semi-definite"):
        expression.expression_eigenvalues(parse_kernel("sqrt(1-t**2)"), 10, 40, 30)
    assert [J for J, _dps in taylor_calls] == [112]
