"""Hard edges of the expression engine (issue 13): every bad expression one line and exit 2,
every explosive one refused before the work, every non-square-integrable one refused with the
reason, and the accepted boundary cases answered correctly (values checked independently)."""

from __future__ import annotations

import math
import re
import signal
import subprocess
import sys
import threading

import mpmath
import pytest
import sympy as sp

from fltheory.engine.functions import LIMITS, Z, check_square_integrable, parse_function, time_limit
from fltheory.exact import DomainError


def _refused(result, param: str, *words: str) -> str:
    """Exit 2, exactly one line on stderr naming ``param`` and each of ``words``, no stdout."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    line = lines[0]
    assert line.startswith(f"fltheory: error: {param} = "), line
    for word in words:
        assert word in line, (word, line)
    assert result.stdout == ""
    return line


# --------------------------------------------------------------------------- tracebacks -> one line

@pytest.mark.parametrize("expr, words", [
    ("z**z", ["power that depends on z"]),
    ("He12(z, z)", ["He12 with 2 argument(s)"]),
    ("0x10*z", ["0x10", "not a decimal"]),
    ("1_0*z", ["not a decimal"]),
    ("2j*z", ["not a valid expression"]),
    ("Max(z)", ["Max with 1 argument(s)"]),
    ("exp(z, 2)", ["exp with 2 argument(s)"]),
    ("exp()", ["exp with 0 argument(s)"]),
    ("foo(z)", ["unknown function 'foo'"]),
    ("y + z", ["unknown name 'y'"]),
    ("é*z", ["unknown name"]),
    ("", ["is empty"]),
    ("z" + "+z" * 1200, ["longer than 2000 characters"]),
    ("+".join(["z"] * 400), ["syntax nodes"]),
    ("exp(" * 60 + "z" + ")" * 60, ["nested deeper"]),
    ("(" * 300 + "z" + ")" * 300, ["nested too deeply"]),
    ("-" * 120 + "z", ["nested deeper"]),
    ("(lambda: z)()", ["not a function name"]),
    ("z.real", ["attribute access"]),
    ("__import__('os')", ["unknown function"]),
    ("exp(x=z)", ["keyword argument"]),
    ("sqrt(z)", ["not real-valued"]),
    ("log(z)", ["not real-valued"]),
    ("sqrt(z**2 - 1)", ["not real-valued"]),
    ("(-1)**(1/3)", ["not a finite real number"]),
    ("1/(z - z)", ["divides by zero"]),
    ("1e5000*z", ["exponent too large"]),
])
def test_bad_expressions_are_one_line(invoke, expr, words):
    _refused(invoke("hermite", "-K", "2", "--", expr), "EXPR", *words)


@pytest.mark.parametrize("expr", ["sign(z**2-1)", "z**100"])
def test_exponent_examples_answer(invoke, expr):
    """Both were tracebacks (DiracDelta in f', mpmath's findroot on a flat z¹⁰⁰ − y); both are
    valid, even functions: information exponent 2 (μ_2 ≠ 0 exactly), generative exponent 2."""
    r = invoke("exponent", expr, "--kmax", "4", "--format", "json")
    assert r.exit_code == 0, r.stderr
    import json

    value = json.loads(r.stdout)["value"]
    assert value == {"information": "2", "generative": "2"}


def test_z100_coefficients_are_exact(invoke):
    """E[z^100] = 99!! (independently: the double factorial) and μ_2 = E[z^100 (z² − 1)]/√2."""
    import json

    r = invoke("hermite", "z**100", "-K", "2", "--format", "json")
    assert r.exit_code == 0, r.stderr
    coeffs = json.loads(r.stdout)["details"]["coefficients"]
    m100 = math.prod(range(99, 0, -2))
    m102 = math.prod(range(101, 0, -2))
    assert sp.sympify(coeffs[0]["exact"]) == m100
    assert sp.simplify(sp.sympify(coeffs[2]["exact"]) - (m102 - m100) / sp.sqrt(2)) == 0


def test_twostep_target_and_sigma_go_through_the_same_checks(invoke):
    _refused(invoke("twostep", "learn", "--target", "1/z", "--a1", ".4", "--a2", ".3"),
             "target", "not square-integrable")
    _refused(invoke("twostep", "learn", "--sigma", "z**z", "--target", "He3", "--a1", ".4",
                    "--a2", ".3"), "sigma", "power that depends on z")


def test_budget_beyond_double_is_one_line(invoke):
    _refused(invoke("hermite", "relu", "--budget", "1e309"), "budget", "[0, 600]")
    _refused(invoke("hermite", "relu", "--budget", "-1"), "budget", "[0, 600]")
    _refused(invoke("hermite", "relu", "-K", "61"), "K", "[0, 60]")
    _refused(invoke("exponent", "relu", "--kmax", "41"), "kmax", "[1, 40]")


def test_help_states_the_bounds(invoke):
    """The CLI restates LIMITS (to keep sympy off its import path): they must agree."""
    text = " ".join(invoke("hermite", "--help").stdout.split())
    for key in ("characters", "degree", "terms", "digits", "depth", "nodes", "kink degree"):
        assert str(LIMITS[key]) in text, key
    assert "at most 60" in text and "[0, 600]" in text
    assert "at most 40" in " ".join(invoke("exponent", "--help").stdout.split())


# --------------------------------------------------------------------------- hangs -> refusals

_HANGS = [
    ("((9**999)**999)**999", "digits"),
    ("He12(z)**100", "degree about 1200"),
    ("(z+1)**1000", "degree about 1000"),
    ("(exp(z)+sin(z)+cos(z)+tanh(z)+z)**60", "terms"),
    ("9**(9**(9**9))", "exponent of magnitude above 1000"),
    ("Abs((z+1)**100 - 1)", "at most 40 inside Abs"),
    ("z**1001", "exponent of magnitude above 1000"),
]


@pytest.mark.parametrize("expr, words", _HANGS)
def test_explosive_expressions_refused_before_work(expr, words):
    """Run as a user would, under a 20 s timeout: a regression fails instead of hanging."""
    for command in ("hermite", "exponent"):
        p = subprocess.run([sys.executable, "-m", "fltheory", command, expr],
                           capture_output=True, text=True, timeout=20)
        assert p.returncode == 2, (p.returncode, p.stderr[-500:])
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("fltheory: error: EXPR = "), p.stderr
        assert words in lines[0], lines[0]


def test_degree_within_bound_is_answered_quickly():
    """Degree 192 (He12¹⁶) is within the bound and is answered exactly (Poly arithmetic)."""
    p = subprocess.run([sys.executable, "-m", "fltheory", "hermite", "He12(z)**16", "-K", "2",
                        "--format", "json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr[-500:]
    import json

    mu0 = sp.sympify(json.loads(p.stdout)["details"]["coefficients"][0]["exact"])
    # independently: He12 by its recursion and the 16th power in plain integer lists, then
    # E[z^n] = (n − 1)!!
    prev, cur = [1], [0, 1]
    for j in range(1, 12):
        nxt = [0, *cur]
        for i, c in enumerate(prev):
            nxt[i] -= j * c
        prev, cur = cur, nxt
    power = [1]
    for _ in range(16):
        out = [0] * (len(power) + len(cur) - 1)
        for i, a in enumerate(power):
            for j, b in enumerate(cur):
                out[i + j] += a * b
        power = out
    expect = sum(c * math.prod(range(n - 1, 0, -2)) for n, c in enumerate(power) if n % 2 == 0)
    assert mu0 == expect


# --------------------------------------------------------------------------- L²(N(0, 1))

@pytest.mark.parametrize("expr, words", [
    ("exp(z**2)", "+∞"),
    ("exp(z**2/4)", "+∞"),            # E[exp(z²/2)] = ∫ 1/√(2π) dz: diverges (boundary)
    ("1/Abs(z)", "z → 0"),
    ("1/z", "z → 0"),
    ("Abs(z)**(-1/2)", "z → 0"),      # |z|^{-1}: the boundary exponent, not integrable
    ("exp(1/z)", "z → 0"),
    ("1/(z**2 - 1)", "z → -1"),
    ("tan(z)", "infinitely many"),
    ("exp(exp(z))", "+∞"),
    ("exp(z**2/4)*sin(z)", "numeric"),  # sympy's limit is undecided: the numeric criterion
    ("1/Max(z, 0)", "undefined"),
])
def test_not_square_integrable_refused(invoke, expr, words):
    line = _refused(invoke("hermite", expr, "-K", "2"), "EXPR", "not square-integrable")
    assert words in line, line
    _refused(invoke("exponent", expr, "--kmax", "2"), "EXPR", "not square-integrable")


def test_boundary_exp_z2_over_5_is_accepted_and_exact(invoke):
    """exp(z²/5): E[f²] = E[exp(2z²/5)] = 1/√(1 − 4/5) = √5, and μ_0 = 1/√(1 − 2/5) = √(5/3)."""
    import json

    r = invoke("hermite", "exp(z**2/5)", "-K", "2", "--format", "json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)["details"]
    assert sp.simplify(sp.sympify(d["coefficients"][0]["exact"]) - sp.sqrt(sp.Rational(5, 3))) == 0
    assert sp.simplify(sp.sympify(d["norm2"]["exact"]) - sp.sqrt(5)) == 0


@pytest.mark.parametrize("a", [sp.Rational(-1, 3), sp.Rational(-2, 5)])
def test_abs_power_singular_but_square_integrable(invoke, a):
    """|z|^a, −1/2 < a < 0: f² = |z|^{2a} is integrable at 0, so f is accepted and expanded.
    Independently (closed form): E|z|^a = 2^{a/2} Γ((a + 1)/2)/√π, and μ_2 = E[|z|^a (z² − 1)]/√2
    = (E|z|^{a+2} − E|z|^a)/√2."""
    import json

    r = invoke("hermite", f"Abs(z)**({a})", "-K", "2", "--format", "json")
    assert r.exit_code == 0, r.stderr
    coeffs = json.loads(r.stdout)["details"]["coefficients"]

    def moment(p):
        return mpmath.mpf(2) ** (mpmath.mpf(p) / 2) * mpmath.gamma((mpmath.mpf(p) + 1) / 2) \
            / mpmath.sqrt(mpmath.pi)

    with mpmath.workdps(40):
        pa = mpmath.mpf(a.p) / a.q
        mu0 = moment(pa)
        mu2 = (moment(pa + 2) - mu0) / mpmath.sqrt(2)
        for c, truth in ((coeffs[0], mu0), (coeffs[2], mu2)):
            printed = c["numeric"].split(" ")[0]
            digits = c["agreement_digits"]
            assert digits >= 10, c
            assert abs(mpmath.mpf(printed) - truth) <= abs(truth) * mpmath.mpf(10) ** (1 - digits)
        assert coeffs[1]["zero"] is True  # f is even


def test_log_abs_is_accepted(invoke):
    """log|z| is in L² (log² is integrable at 0). Independently: E log|z| = −(γ + log 2)/2 and
    μ_2 = E[log|z|(z² − 1)]/√2 = 1/√2 (Gaussian integration by parts: E[f He_2] = E[f' He_1]
    = E[(1/z)·z] = 1)."""
    import json

    r = invoke("hermite", "log(Abs(z))", "-K", "2", "--format", "json")
    assert r.exit_code == 0, r.stderr
    coeffs = json.loads(r.stdout)["details"]["coefficients"]
    with mpmath.workdps(40):
        for c, truth in ((coeffs[0], -(mpmath.euler + mpmath.log(2)) / 2),
                         (coeffs[2], 1 / mpmath.sqrt(2))):
            digits = c["agreement_digits"]
            assert digits >= 10, c
            printed = mpmath.mpf(c["numeric"].split(" ")[0])
            assert abs(printed - truth) <= abs(truth) * mpmath.mpf(10) ** (1 - digits)


def test_square_integrability_api_both_sides_of_boundaries():
    assert check_square_integrable(sp.exp(Z**2 / 5)) == "exact"
    # the tail boundary exactly: e^{z²/4}/(1 + z²) has f²φ ~ z^{-4}/√(2π): integrable
    assert check_square_integrable(sp.exp(Z**2 / 4) / (1 + Z**2)) == "exact"
    # e^{z²/4}/(1 + z²)^{1/4}: f²φ ~ 1/(√(2π)|z|): not integrable
    with pytest.raises(DomainError, match="not square-integrable"):
        check_square_integrable(sp.exp(Z**2 / 4) / (1 + Z**2) ** sp.Rational(1, 4))
    # at a point: |z|^{-1/2 + 1/100} accepted, |z|^{-1/2} refused
    assert check_square_integrable(sp.Abs(Z) ** sp.Rational(-49, 100)) == "exact"
    with pytest.raises(DomainError, match="not square-integrable"):
        check_square_integrable(sp.Abs(Z) ** sp.Rational(-1, 2))


def test_numeric_square_integrability_is_said(invoke):
    """sin(z)·exp(z²/5): sympy's limit is undecided (oscillation); accepted by the numeric
    criterion, and the output says so."""
    f = parse_function("sin(z)*exp(z**2/5)")
    assert f.l2 in ("exact", "numeric")
    r = invoke("hermite", "sin(z)*exp(z**2/5)", "-K", "1")
    assert r.exit_code == 0, r.stderr
    if f.l2 == "numeric":
        assert "decided numerically" in r.stdout


def test_every_printed_coefficient_is_finite_and_real(invoke):
    import json

    for expr in ("Abs(z)**(-1/3)", "exp(z**2/5)", "log(1 + z**2)", "sigmoid"):
        r = invoke("hermite", expr, "-K", "3", "--format", "json")
        assert r.exit_code == 0, (expr, r.stderr)
        for c in json.loads(r.stdout)["details"]["coefficients"]:
            text = c["numeric"]
            assert text is not None and re.fullmatch(r"-?[0-9.e+-]+( \(\d+ digits\))?", text), c


# --------------------------------------------------------------------------- the alarm

def _spin(seconds: float) -> None:
    """Busy for ``seconds`` of this process's CPU time (what the limit counts)."""
    import time

    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_time_limit_leaves_no_alarm_and_restores_handler():
    before = signal.getsignal(signal.SIGPROF)
    with time_limit(5) as limited:
        assert limited
        assert signal.getitimer(signal.ITIMER_PROF)[0] > 0
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) is before


def test_time_limit_counts_cpu_time_not_the_wall_clock():
    """A budget is CPU seconds of this process: a block that waits (as it would while other
    processes hold the machine) is not cut short, one that computes is; and a caller's own
    wall-clock alarm (SIGALRM) is neither touched nor consumed."""
    import time

    from fltheory.engine.functions import Timeout

    with time_limit(0.05) as limited:
        assert limited
        time.sleep(0.3)  # waiting spends no CPU time
    with pytest.raises(Timeout), time_limit(0.05):
        _spin(5)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with time_limit(5):
            pass
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 0.3
        time.sleep(0.6)
        assert fired == [1]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_time_limit_keeps_an_outer_limit():
    """A limit inside another gives the outer one back, re-armed with what it had left."""
    from fltheory.engine.functions import Timeout

    with pytest.raises(Timeout), time_limit(0.3):
        with time_limit(5):
            _spin(0.05)
        assert 0 < signal.getitimer(signal.ITIMER_PROF)[0] <= 0.3  # the outer one, re-armed
        _spin(5)
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)


def test_time_limit_off_main_thread_arms_nothing():
    seen = []

    def worker():
        with time_limit(5) as limited:
            seen.append((limited, signal.getitimer(signal.ITIMER_PROF)[0]))

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == [(False, 0.0)]


def test_time_limit_is_not_lost_in_a_gc_callback():
    """The alarm landing inside a garbage-collector callback (hypothesis installs one) would be
    an unraisable exception (a warning, and the block ran on unbounded): it is re-armed and
    raised in the block itself. Checked by a callback that is busy past the deadline."""
    import gc
    import time

    from fltheory.engine.timer import Timeout, time_limit

    def busy(phase, info):
        end = time.process_time() + 0.03
        while time.process_time() < end:
            pass

    gc.callbacks.append(busy)
    try:
        with pytest.raises(Timeout), time_limit(0.01):
            gc.collect()  # the alarm (10 ms) lands in the callback (busy for 2 × 30 ms)
            _spin(5)
    finally:
        gc.callbacks.remove(busy)


@pytest.mark.parametrize("a,b", [
    ("sqrt(z**2)", "Abs(z)"), ("z*(1+1)/2", "z"), ("exp(log(Abs(z)))", "Abs(z)"),
    ("Abs(z)**2", "z**2"), ("sign(z)*Abs(z)", "z"), ("tanh(z)", "sign(z)"), ("z**2", "Abs(z)"),
    ("Max(0, z)", "Max(z, 0)"), ("cos(z)**2 + sin(z)**2", "1"), ("z**3", "z"),
])
def test_equal_expressions_is_simplify_where_it_decides(a, b):
    """The three-point shortcut of equal_expressions never changes sympy's answer: against
    (a − b).simplify() == 0 alone, on pairs that are equal and pairs that agree at z = 0, ±1."""
    from fltheory.engine.expressions import equal_expressions, parse_expression

    ea, eb = parse_expression(a), parse_expression(b)
    assert equal_expressions(ea, eb) == ((ea - eb).simplify() == 0)
