# mypy: disable-error-code="arg-type"
"""The defects of the newcomer review of the public API (issue #14): one reading of a number
(fltheory.exact.as_rational) everywhere, bounded work, DomainError on bad input, an expansion
checked to be of f, messages that name the parameter and the real domain. (mypy: the tests
pass wrong types on purpose.)"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.engine.hermite.exact import MAX_MOMENT, gauss_moment
from fltheory.exact import DomainError
from fltheory.papers.quadratic import sim as sq
from fltheory.papers.quadratic import theory as qd
from fltheory.papers.recovery import theory as rc
from fltheory.simkit import seeding

NAN = float("nan")


def _refused(fn, *args, param: str | None = None, text: str | None = None, **kwargs) -> str:
    with pytest.raises(DomainError) as info:
        fn(*args, **kwargs)
    message = str(info.value)
    if param is not None:
        assert message.startswith(f"{param} = "), message
    if text is not None:
        assert text in message, message
    return message


# ------------------------------------------------------------------ 1, 4: one reading of numbers

def test_recovery_reads_floats_as_typed():
    assert rc.recovered_count(930, 30, 2, 0.1) == rc.recovered_count(930, 30, 2, Fraction(1, 10))
    assert rc.recovered_count(930, 30, 2, "1/10") == rc.recovered_count(930, 30, 2, Fraction(1, 10))


def test_quadratic_takes_text_steps():
    assert qd.plateau(4, 2, "1/10") == qd.plateau(4, 2, Fraction(1, 10)) == qd.plateau(4, 2, 0.1)
    assert qd.linear_rate("2/3", 4, 2, "1/10") == Fraction(1, 5)


def test_sims_take_text_where_they_take_floats():
    W0, W_star = sq.cold_start(50, 2, 1, 0)
    a = sq.sgd(W0, W_star, 0.1, [0.0, 0.5], 0)
    b = sq.sgd(W0, W_star, "1/10", [0.0, 0.5], 0, sigma="0")
    assert np.array_equal(a.Q, b.Q) and np.array_equal(a.R, b.R)


# ------------------------------------------------------------------ 2: bounded work

def test_gauss_moment_bounded_before_work():
    assert gauss_moment(MAX_MOMENT) > 0
    _refused(gauss_moment, 10**7, param="n")
    _refused(gauss_moment, 10**100, param="n")
    _refused(gauss_moment, 2.0, param="n", text="is not an integer")


def test_wick_bounded_before_work():
    assert qd.wick_expectation([0] * 4, [[1]]) == 3
    message = _refused(qd.wick_expectation, [0] * 40, [[1]], param="indices")
    assert "matchings" in message and "e+23" in message
    _refused(qd.wick_expectation, [0] * 10**6, [[1]], param="indices")
    _refused(qd.wick_expectation, [0.5, 0], [[1]], param="indices")


# ------------------------------------------------------------------ 3: DomainError, never NaN

@pytest.mark.parametrize("call", [
    lambda: qd.linear_rate("a", 4, 2, Fraction(1, 10)),
    lambda: qd.linear_rate(NAN, 4, 2, Fraction(1, 10)),
    lambda: qd.linear_rate(0.5, 4, 2, math.inf),
    lambda: qd.plateau_noise_rate(0.5, 1, 1, NAN),
    lambda: qd.plateau_noise_rate(0.5, 1, 1, 0.1, NAN),
    lambda: qd.escape_cost(4, 2, NAN, 10),
    lambda: qd.escape_cost(4, 2, 100, 0),
    lambda: qd.escape_cost(4, 2, 100, 1.5),
    lambda: qd.ode_cost(-1, 4, 2, 0.1, 10.0, 11),
    lambda: qd.ode_cost(5, 4, 2, 0.1, 10.0, 11),
    lambda: qd.ode_cost(2, 4, 2, NAN, 10.0, 11),
    lambda: qd.crossing_time([0, 1], [-0.1, 0.2], 0.1),
    lambda: qd.crossing_time([0, NAN], [0.1, 0.2], 0.1),
    lambda: seeding.children(0, "3"),
    lambda: seeding.children(0, -1),
    lambda: seeding.children(0, 2.0),
])
def test_listed_calls_refused(call):
    with pytest.raises(DomainError):
        call()


def test_k_zero_is_a_start_on_the_plateau():
    """ode_cost(k = 0) is the reduced ODE of a start with ρ(0) = 0 (integrate passes it)."""
    seconds, memory = qd.ode_cost(0, 4, 2, 0.1, 10.0, 11)
    assert seconds > 0 and memory > 0


BAD_REALS = st.one_of(st.just(NAN), st.just(math.inf), st.just(-math.inf), st.text(max_size=3),
                      st.none(), st.booleans(), st.lists(st.integers(), max_size=2))


@settings(max_examples=50, deadline=None)
@given(BAD_REALS)
def test_bad_reals_refused(bad):
    for call in (lambda: qd.linear_rate(bad, 4, 2, Fraction(1, 10)),
                 lambda: qd.plateau_noise_rate(0.5, 1, 1, 0.1, bad),
                 lambda: qd.escape_cost(4, 2, bad, 10),
                 lambda: rc.recovered_count(930, 30, 2, bad),
                 lambda: qd.plateau(4, 2, bad)):
        try:
            call()
        except DomainError:
            continue
        # text such as "1" or a list such as [] may be a valid number or array: then no NaN
        result = call()
        assert not (isinstance(result, float) and math.isnan(result))


@settings(max_examples=50, deadline=None)
@given(st.one_of(st.integers(max_value=-1), st.floats(allow_nan=True), st.text(max_size=3),
                 st.booleans()))
def test_bad_counts_refused(bad):
    with pytest.raises(DomainError):
        seeding.children(0, bad)
    with pytest.raises(DomainError):
        qd.escape_cost(4, 2, 100, bad)
    with pytest.raises(DomainError):
        gauss_moment(bad)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=2, max_size=5))
def test_crossing_time_negative_or_infinite_norms(norms):
    t = list(range(len(norms)))
    if any(x < 0 or math.isinf(x) for x in norms):
        with pytest.raises(DomainError):
            qd.crossing_time(t, norms, 0.5)
    else:
        qd.crossing_time(t, norms, 0.5)


# ------------------------------------------------------------------ 5: expansion of f

def test_expansion_of_another_function_refused():
    from fltheory.engine import hermite as he

    tanh = he.expansion("tanh", 4, 15)
    _refused(he.information_exponent, "relu", 4, 15, expansion_=tanh, param="expansion_",
             text="is not an expansion of f")
    _refused(he.generative_exponent, "relu", 4, 15, expansion_=tanh, param="expansion_")
    _refused(he.information_exponent, "relu", 4, 15, expansion_="tanh", param="expansion_")
    assert he.information_exponent("tanh", 4, 15, expansion_=tanh).value == 1


# ------------------------------------------------------------------ messages

def test_messages():
    _refused(qd.stability_text, 4, 2, noise=NAN, param="noise", text="noise >= 0")
    message = _refused(qd.plateau, 4, 2, NAN, param="eta", text="eta >= 0")
    assert "steps > 0" not in message
    _refused(rc.mse_law, Fraction(3, 2), 0, param="a1_squared")
    # γ = 1e-9 at d1 = 8: the scaling count is capped at d1, so it is answered (issue 24)
    assert rc.recovery_at(30, 2, 1e-9, 10**6).recovered_scaling == 8
    message = _refused(rc.recovered_count, 1e300, 30, 2, Fraction(1, 10))
    assert "1e300" in message and len(message) < 250, message
    _refused(qd.plateau, 4, 2, 1.5, param="eta")
    _refused(sq.sgd, *sq.cold_start(20, 2, 1, 0), NAN, [0.0], 0, param="eta",
             text="is not a finite number; allowed: eta > 0")
