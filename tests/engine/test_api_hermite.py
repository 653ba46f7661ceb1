"""The Hermite engine's public API refuses bad arguments with a DomainError, and only with one.

Every public function of fltheory.engine.hermite (and of fltheory.engine.functions, the
bounds module and fltheory.papers.hermite.sim) is called with bad degrees (negative, beyond the
bound,
huge, non-integers, NaN/inf, strings, None, bools), bad precisions, bad budgets, garbage or
non-square-integrable expressions: the answer is always a DomainError naming the parameter,
raised before any work (the bounds are checked first, so these calls are fast). Also: the one
pipeline ``analyse`` gives what expansion → information → generative give separately, and the
bounds the CLI shows come from the API.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fltheory.args import read_count
from fltheory.engine import hermite as th
from fltheory.engine.functions import Z, check_square_integrable, hermite_He, parse_function
from fltheory.engine.hermite.bounds import BUDGET_MAX, K_MAX, KMAX_MAX, check_budget
from fltheory.exact import DomainError
from fltheory.papers.hermite import sim

SETTINGS = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# A degree that is not an integer in range: what a user (or a notebook) might pass.
NOT_INTEGERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions().filter(lambda q: q.denominator != 1),
    st.text(max_size=5),
    st.just(None), st.just(True), st.just(False), st.just([3]),
)


def _too_large(maximum: int):
    return st.one_of(st.integers(maximum + 1, maximum + 10**6), st.integers(10**30, 10**400))


def _bad_degree(minimum: int, maximum: int):
    return st.one_of(NOT_INTEGERS, st.integers(max_value=minimum - 1), _too_large(maximum))


BAD_DPS = st.one_of(NOT_INTEGERS, st.integers(max_value=4), st.integers(min_value=101))
BAD_BUDGETS = st.one_of(
    st.floats(max_value=-1e-9), st.floats(min_value=BUDGET_MAX + 1e-6),
    st.just(math.nan), st.just(math.inf), st.just(-math.inf),
    st.integers(max_value=-1), st.integers(min_value=BUDGET_MAX + 1),
    st.sampled_from(["-1", "601", "1e309", "nan", "inf", "abc", "", "1/0", "5 s"]),
    st.just(True), st.just(None),
)


def _refuses(call, *args, param: str | None = None, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as info:
        call(*args, **kwargs)
    if param is not None:
        assert info.value.param == param, str(info.value)
    return info.value


# --------------------------------------------------------------------------- degrees


@SETTINGS
@given(K=_bad_degree(0, K_MAX))
def test_expansion_and_parseval_refuse_bad_K(K):
    _refuses(th.expansion, "He3", K, 15, param="K")
    _refuses(th.parseval, "He3", K, 15, param="K")


@SETTINGS
@given(k=_bad_degree(0, K_MAX))
def test_coefficient_and_quadrature_refuse_bad_k(k):
    _refuses(th.coefficient, "He3", k, 15, param="k")
    _refuses(th.quad_expectation, "He3", k, 15, param="k")


@SETTINGS
@given(kmax=_bad_degree(1, K_MAX))
def test_information_exponent_refuses_bad_kmax(kmax):
    _refuses(th.information_exponent, "He3", kmax, 15, param="kmax")


@SETTINGS
@given(kmax=_bad_degree(1, KMAX_MAX))
def test_generative_exponent_and_analyse_refuse_bad_kmax(kmax):
    _refuses(th.generative_exponent, "He3", kmax, 15, param="kmax")
    _refuses(th.analyse, "He3", kmax, 15, param="kmax")


@SETTINGS
@given(n=st.one_of(NOT_INTEGERS, st.integers(max_value=-1)))
def test_gauss_moment_refuses_bad_n(n):
    _refuses(th.gauss_moment, n, param="n")


@SETTINGS
@given(k=_bad_degree(0, 200))
def test_hermite_He_refuses_bad_k(k):
    _refuses(hermite_He, k, param="k")


def test_an_expansion_given_must_reach_kmax():
    e = th.expansion("He3", 2, 15)
    _refuses(th.information_exponent, "He3", 4, 15, e, param="kmax")
    _refuses(th.parseval, "He3", 4, 15, e, param="K")


# --------------------------------------------------------------------------- dps and budget


@SETTINGS
@given(dps=BAD_DPS)
def test_every_function_refuses_bad_dps(dps):
    for call in (th.expansion, th.parseval, th.information_exponent, th.generative_exponent,
                 th.analyse):
        _refuses(call, "He3", 2, dps, param="dps")
    _refuses(th.coefficient, "He3", 1, dps, param="dps")
    _refuses(th.quad_expectation, "He3", 1, dps, param="dps")


@SETTINGS
@given(budget=BAD_BUDGETS)
def test_expansion_and_analyse_refuse_bad_budgets(budget):
    _refuses(th.expansion, "He3", 2, 15, budget, param="budget")
    _refuses(th.coefficient, "He3", 1, 15, budget, param="budget")
    _refuses(th.analyse, "He3", 2, 15, budget, param="budget")
    _refuses(check_budget, budget, param="budget")


def test_budget_accepts_exact_forms():
    assert check_budget("1/2") == 0.5 and check_budget(Fraction(600)) == 600.0
    assert check_budget(0) == 0.0 and th.expansion("He3", 1, 15, "0").budget == 0.0


def test_bounds_are_the_ones_the_cli_shows():
    """The CLI states no range of its own: its messages are the API's."""
    assert (K_MAX, KMAX_MAX, BUDGET_MAX) == (60, 40, 600)
    assert str(_refuses(read_count, 61, "K", 0, K_MAX)) == \
        "K = 61 is outside the allowed range integers in [0, 60]"
    assert str(_refuses(th.analyse, "relu", 41)) == \
        "kmax = 41 is outside the allowed range integers in [1, 40]"
    assert str(_refuses(th.expansion, "relu", 2, 3)) == \
        "dps = 3 is outside the allowed range integers in [5, 100]"


# --------------------------------------------------------------------------- expressions

GARBAGE = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="z()+-*/^.,0123456789eEpi ", max_size=16),
    st.sampled_from(["import os", "__import__('os')", "lambda: 1", "[z]", "z if z else 1",
                     "exp(z)(1)", "x**2", "1/0", "z/(z - z)", "sqrt(z)", "log(z)", "z**z",
                     "He13(z)", "Max(z)", "nan", "inf", "None", "", "(" * 60 + "z" + ")" * 60,
                     "9**999**999", "He12(z)**100", "z" + "+z" * 600]),
)


@SETTINGS
@given(f=GARBAGE)
def test_garbage_expressions_are_a_domain_error_or_a_function(f):
    """Random text is refused with a DomainError naming EXPR, or it is a valid function whose
    expansion is finite (no other exception, ever)."""
    try:
        e = th.expansion(f, 1, 15, budget=0)
    except DomainError as exc:
        assert exc.param == "EXPR", str(exc)
        return
    assert all(math.isfinite(float(c.numeric)) for c in e.coefficients)


@pytest.mark.parametrize("f", ["exp(z**2)", "exp(z**2/4)", "1/z", "1/Abs(z)", "tan(z)",
                               "Abs(z)**(-1/2)", "1/(z**2 - 1)", "log(Abs(z))**2/z"])
def test_non_square_integrable_is_a_domain_error_everywhere(f):
    for call in (th.expansion, th.information_exponent, th.generative_exponent, th.analyse):
        exc = _refuses(call, f, 2, 15, param="EXPR")
        assert "square-integrable" in str(exc) or "infinite" in str(exc), str(exc)


@pytest.mark.parametrize("f", [None, math.nan, math.inf, [1, 2], {"z": 1}, b"z", 10**5000,
                               sp.Symbol("x"), sp.true, sp.Interval(0, 1)],
                         ids=["None", "nan", "inf", "list", "dict", "bytes", "huge-int", "x",
                              "true", "interval"])
def test_wrong_types_for_f_are_a_domain_error(f):
    _refuses(parse_function, f, param="EXPR")
    _refuses(th.expansion, f, 1, 15, param="EXPR")


@pytest.mark.parametrize("f", ["z", 3, sp.Integer(2), Fraction(1, 2)])
def test_numbers_and_sympy_expressions_are_functions(f):
    e = th.expansion(f, 1, 15)
    assert len(e.coefficients) == 2


@pytest.mark.parametrize("expr", ["z", None, 3.5, sp.Symbol("x") + Z])
def test_check_square_integrable_wants_a_sympy_expression_in_z(expr):
    _refuses(check_square_integrable, expr, param="EXPR")


def test_coefficient_basis_is_h_or_He():
    c = th.coefficient("He3", 3, 15)
    assert c.exact_in("He") == 1 and c.exact_in("h") == sp.sqrt(6)
    _refuses(c.exact_in, "x", param="basis")
    _refuses(c.numeric_in, None, param="basis")


# --------------------------------------------------------------------------- the pipeline


def test_analyse_is_expansion_then_both_exponents():
    a = th.analyse("abs", kmax=4, dps=15)
    e = th.expansion("abs", 4, 15)
    assert [c.exact for c in a.expansion.coefficients] == [c.exact for c in e.coefficients]
    assert str(a.information) == str(th.information_exponent("abs", 4, 15, e)) == "2"
    assert str(a.generative) == str(th.generative_exponent("abs", 4, 15, e)) == "2"
    html = a._repr_html_()
    assert "information exponent 2" in html and "exact:piecewise" in html


# --------------------------------------------------------------------------- the simulator


@SETTINGS
@given(K=_bad_degree(0, 200))
def test_sample_coefficients_refuses_bad_K(K):
    _refuses(sim.sample_coefficients, "relu", K, 100, 0, param="K")
    _refuses(sim.hermite_orthonormal, [0.0], K, param="K")


@SETTINGS
@given(n=st.one_of(NOT_INTEGERS, st.integers(max_value=1), _too_large(10**10)))
def test_sample_coefficients_refuses_bad_n(n):
    _refuses(sim.sample_coefficients, "relu", 2, n, 0, param="n")


@SETTINGS
@given(seed=st.one_of(st.integers(max_value=-1), st.floats(), st.text(max_size=3),
                      st.just(None), st.just(True)))
def test_sample_coefficients_refuses_bad_seeds(seed):
    _refuses(sim.sample_coefficients, "relu", 2, 100, seed, param="seed")


@pytest.mark.parametrize("name", ["Max(z, 0)", "gelu2", None, 3, ""])
def test_sample_coefficients_refuses_unknown_activations(name):
    _refuses(sim.sample_coefficients, name, 2, 100, 0, param="name")
