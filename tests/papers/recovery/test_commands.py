"""The commands of sequential recovery: ``threshold``, ``recovery``, ``recovery law`` and
``recovery simulate``: exact answers, formats, and every bad argument refused in one line (exit
2) before any work, costs included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import mpmath
import pytest
from layout import ROOT

from fltheory.papers.recovery import theory as th


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess with a time bound: a regression that hangs fails, not hangs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, check=False)


def _refused(result: object, param: str) -> None:
    """Exit 2, exactly one line on stderr, naming the parameter, no traceback."""
    code = getattr(result, "exit_code", getattr(result, "returncode", None))
    err = result.stderr  # type: ignore[attr-defined]
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith("fltheory: error: "), err
    assert f"{param} = " in err, err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- answers


def test_threshold_json_exact(invoke):
    """n_k = C·D/c_k² = C·D·H_{d1}(2γ)·k^{2γ}: exact at 2γ = 3, d1 = 4 (H_4(3) = 1 + 1/8 +
    1/27 + 1/64, summed here by hand); at d1 = ∞ ζ(3) is not rational (numeric only)."""
    r = invoke("threshold", "--d", "1000", "--q", "3", "--gamma", "1.5", "--k", "1..3",
               "--C", "1/2", "--d1", "4", "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    D = th.feature_dimension(1000, 3)
    assert data["details"]["dimension"] == D
    H = 1 + Fraction(1, 8) + Fraction(1, 27) + Fraction(1, 64)
    assert [Fraction(v) for v in data["value"]] == [Fraction(D, 2) * H * k ** 3
                                                    for k in (1, 2, 3)]


def test_threshold_strengths_and_latex(invoke):
    r = invoke("threshold", "--d", "10", "--strengths", ".5,.25", "--k", "1,2", "--format",
               "latex")
    assert r.exit_code == 0 and r"\toprule" in r.stdout
    data = json.loads(invoke("threshold", "--d", "10", "--strengths", ".5,.25", "--k", "1,2",
                             "--format", "json").stdout)
    # the strengths are normalised as in the model: n_k = D·(λ_1² + λ_2²)/λ_k²
    norm = Fraction(1, 4) + Fraction(1, 16)
    assert [Fraction(v) for v in data["value"]] == [55 * 4 * norm, 55 * 16 * norm]


def test_recovery_query(invoke):
    data = json.loads(invoke("recovery", "--d", "100", "--n", "1e6", "--format", "json").stdout)
    assert data["details"]["D"] == 5050 and data["details"]["recovered_luli"] == 8
    assert data["details"]["law_exponent"] == "-1/2"
    r = invoke("recovery", "--d", "100", "--n", "1e6", "--gamma", "1/2")
    assert r.exit_code == 0 and "no MSE law" in r.stdout


def test_recovery_law_cli_closed_form(invoke):
    """γ = 1, C: P = 8γ²/((4γ² − 1)ζ(2γ))·(ζ(2γ)·C)^{1 − 1/(2γ)} = (8/3)·√C/√ζ(2) =
    (8/3)·√(6C)/π (ζ(2) = π²/6, by hand), checked to 28 digits at C = 1 and C = 3/7."""
    for C, text in ((Fraction(1), "1"), (Fraction(3, 7), "3/7")):
        data = json.loads(invoke("recovery", "law", "--gamma", "1", "--C", text, "--dps", "40",
                                 "--format", "json").stdout)
        assert data["value"]["exponent"] == "-1/2"
        with mpmath.workdps(40):
            ref = mpmath.mpf(8) / 3 * mpmath.sqrt(6 * mpmath.mpf(C.numerator) / C.denominator) \
                / mpmath.pi
            assert abs(mpmath.mpf(data["numeric"]) - ref) < mpmath.mpf(10) ** -28


def test_recovery_simulate_q3_gaussian(invoke):
    data = json.loads(invoke("recovery", "simulate", "--q", "3", "--d", "8", "--n", "3000",
                             "--format", "json").stdout)
    assert data["details"]["D"] == th.feature_dimension(8, 3) == 120
    assert data["inputs"]["q"] == 3


def test_recovery_simulate_json(invoke):
    r = invoke("recovery", "simulate", "--d", "10", "--n", "2000", "--seeds", "2", "--format",
               "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert len(data["value"]["rho2"]) == 8 and len(data["details"]["predicted_rho2"]) == 8


def test_recovery_gamma_two_answers_quickly():
    """γ = 2 (9 s before, quadratic Python loop) is accepted and finite."""
    p = _run("recovery", "--d", "100", "--n", "1e6", "--gamma", "2", "--format", "json",
             timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    rho2 = [r["rho2"] for r in out["details"]["directions"]]
    assert all(0 <= r <= 1 for r in rho2) and rho2 == sorted(rho2, reverse=True)
    assert out["value"]["recovered"] == 5


def test_recovery_gamma_with_huge_denominator_answers():
    """Issue: γ = 0.7000001 formed R^(10^7). The scaling count now compares logarithms; checked
    against a direct mpmath count at 50 digits."""
    p = _run("recovery", "--d", "100", "--n", "1e6", "--gamma", "0.7000001", "--format",
             "json", timeout=60)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    C = Fraction(out["details"]["C"]).limit_denominator(10**12)
    with mpmath.workdps(50):
        # n_k = C·D·H_8(2γ)·k^(2γ) (the model's c_k² = k^(−2γ)/H_8(2γ)), counted up to d1 = 8
        g = mpmath.mpf(7000001) / 10**7
        H = sum(mpmath.mpf(i) ** (-2 * g) for i in range(1, 9))
        R = mpmath.mpf(10**6) / (mpmath.mpf(C.numerator) / C.denominator * 5050 * H)
        kstar = min(8, int(mpmath.floor(R ** (1 / (2 * g)))))
    assert out["value"]["recovered"] >= 1
    assert out["details"]["recovered_scaling"] == kstar


def test_threshold_huge_gamma_answers_with_right_digits():
    """Issue: --gamma 1e100 hung (k^(2·10^100) as an exact integer). Now mpmath with guard
    digits: n_2 = 55·ζ(2γ)·2^(2·10^100) with ζ(2γ) = 1 + 4^(−10^100) (1 to every digit shown);
    its decimal exponent and mantissa are checked against log10 computed at 130 digits. n_1 =
    55·ζ(2γ) is irrational (no exact value) and shows as 55.0."""
    p = _run("threshold", "--d", "10", "--gamma", "1e100", "--k", "1..2", "--format", "json",
             "--dps", "15", timeout=30)
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)["details"]["thresholds"]
    assert rows[0]["exact"] is None and rows[1]["exact"] is None
    assert rows[0]["numeric"] == "55.0"
    with mpmath.workdps(130):
        lg = 2 * mpmath.mpf(10) ** 100 * mpmath.log10(2) + mpmath.log10(55)
        exponent = int(mpmath.floor(lg))
        mantissa = mpmath.power(10, lg - exponent)
    mant, _, exp = rows[1]["numeric"].partition("e+")
    assert int(exp) == exponent
    assert abs(float(mant) - float(mantissa)) < 1e-12
    a2 = rows[1]["strength"]
    m2, _, e2 = a2.partition("e-")
    with mpmath.workdps(130):
        la = -mpmath.mpf(10) ** 100 * mpmath.log10(2)
        ea = int(mpmath.floor(la))
    assert -int(e2) == ea and abs(float(m2) - float(mpmath.power(10, la - ea))) < 1e-12


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("args", "param"),
    [(["threshold", "--d", "10", "--gamma", "0"], "gamma"),
     (["threshold", "--d", "0"], "d"),
     (["threshold", "--d", "10", "--k", "0..3"], "k"),
     (["threshold", "--d", "10", "--C", "-1"], "C"),
     (["threshold", "--d", "10", "--strengths", "1,-2"], "strengths"),
     (["threshold", "--d", "10", "--strengths", "1", "--k", "1..2"], "k"),
     (["recovery", "--d", "10", "--n", "-5"], "n"),
     (["recovery", "--d", "10", "--n", "100", "--d1", "65"], "d1"),
     (["recovery", "--d", "10"], "--n"),
     (["recovery", "simulate", "--d", "100"], "d"),
     (["recovery", "simulate", "--features", "spherical"], "--features"),
     (["recovery", "simulate", "--q", "3", "--features", "hermite"], "q"),
     (["recovery", "law", "--gamma", "1/2"], "gamma"),
     (["recovery", "law", "--gamma", "1", "--C", "0"], "C"),
     (["threshold", "--d", "10", "--gamma", "1/2"], "gamma"),
     (["threshold", "--d", "10", "--d1", "3"], "k")],
)
def test_bad_input_one_line_exit_2(invoke, args, param):
    r = invoke(*args)
    assert r.exit_code == 2, r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fltheory: error: ") and param in lines[0]


def test_recovery_large_gamma_refused_before_work():
    """Issue: γ = 3 hung, then was refused (Ruben's series ~ 20·d1^γ terms, quadratic work); the
    Fourier inversion answers it (issue 24). γ = 5 at d1 = 8 is beyond both methods: refused at
    once with the estimate, naming γ and only options that exist (--gamma, --d1)."""
    p = _run("recovery", "--d", "100", "--n", "1e6", "--gamma", "5", timeout=30)
    _refused(p, "gamma")
    assert "Fourier" in p.stderr and "at most 2e+07" in p.stderr
    assert "lower gamma, or raise d1" in p.stderr


@pytest.mark.parametrize("gamma", ["1e309", "1e100", "40"])
def test_recovery_huge_gamma_refused(invoke, gamma):
    _refused(invoke("recovery", "--d", "100", "--n", "1e6", "--gamma", gamma), "gamma")


@pytest.mark.parametrize(("args", "param"), [
    (["recovery", "--d", "100", "--n", "1e400"], "n"),
    (["recovery", "--d", "100", "--n", "1e-400"], "n"),
    (["recovery", "--d", "1e600", "--n", "1e6"], "d"),
    (["recovery", "--d", "10", "--n", "100", "--gamma", "0"], "gamma"),
    # (γ = 1e-9 at d1 = 2 was refused for a k* of 3.5e8 digits; the count is now the model's,
    # capped at d1, and answered.) At d1 = ∞, ‖λ‖² = ζ(2γ) needs γ > 1/2:
    (["threshold", "--d", "10", "--gamma", "1/2"], "gamma"),
    (["recovery", "simulate", "--gamma", "1e309"], "gamma"),
    (["threshold", "--d", "10", "--C", "-3"], "C"),
    (["threshold", "--d", "10", "--gamma", "0"], "gamma"),
    (["threshold", "--d", "10", "--k", "1..100000"], "k"),
    (["threshold", "--d", "10", "--k", "1..10000000"], "k"),
    (["threshold", "--d", "1e600"], "d"),
    (["threshold", "--d", "10", "--q", "65"], "q"),
])
def test_recovery_and_threshold_refusals(invoke, args, param):
    _refused(invoke(*args), param)


def test_threshold_gamma_beyond_float_range_is_refused(invoke):
    # every rational option is bounded to double range at parse time (cli/options.RationalType);
    # gamma = 1e100 above shows the mpmath path answers far beyond float exponents
    r = invoke("threshold", "--d", "10", "--gamma", "1e309", "--k", "1..3", "--format", "json")
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "gamma = 1e309" in r.stderr
