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
from fltheory.papers.hermite.sim import hermite_orthonormal
from fltheory.papers.twostep import phases as tw
from fltheory.papers.twostep import sim as stw
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

def test_float_alphas_read_as_typed():
    assert tw.lambda_details(.4, .3).boundary_k == 3
    assert tw.lambda_details(.4, .3) == tw.lambda_details(Fraction(2, 5), Fraction(3, 10))
    assert tw.lambda_count(0.01, 0.49) == tw.lambda_count("1/100", "49/100") == 1
    assert tw.check_alpha(0.4) == tw.check_alpha(".4") == Fraction(2, 5)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 49), st.integers(0, 49))
def test_lambda_count_float_equals_fraction(a: int, b: int):
    assert tw.lambda_count(a / 100, b / 100) == tw.lambda_count(Fraction(a, 100), Fraction(b, 100))




def test_sims_take_text_where_they_take_floats():
    x = stw.singular_values(20, 0, 0.4, 0.3)
    y = stw.singular_values(20, 0, "2/5", "3/10")
    assert all(np.array_equal(x[k], y[k]) for k in ("W0", "W1", "W2"))


# ------------------------------------------------------------------ 2: bounded work

def test_gauss_moment_bounded_before_work():
    assert gauss_moment(MAX_MOMENT) > 0
    _refused(gauss_moment, 10**7, param="n")
    _refused(gauss_moment, 10**100, param="n")
    _refused(gauss_moment, 2.0, param="n", text="is not an integer")


# ------------------------------------------------------------------ 3: DomainError, never NaN

@pytest.mark.parametrize("call", [
    lambda: stw.top_right_singular_vector(np.ones(3)),
    lambda: stw.top_right_singular_vector(np.ones((1, 3))),
    lambda: stw.top_right_singular_vector("M"),
    lambda: stw.bounded_odd_tau3("a"),
    lambda: stw.hermite_sigma([]),
    lambda: stw.hermite_sigma([NAN]),
    lambda: hermite_orthonormal([NAN], 3),
    lambda: hermite_orthonormal("z", 3),
    lambda: seeding.children(0, "3"),
    lambda: seeding.children(0, -1),
    lambda: seeding.children(0, 2.0),
])
def test_listed_calls_refused(call):
    with pytest.raises(DomainError):
        call()


BAD_REALS = st.one_of(st.just(NAN), st.just(math.inf), st.just(-math.inf), st.text(max_size=3),
                      st.none(), st.booleans(), st.lists(st.integers(), max_size=2))


@settings(max_examples=50, deadline=None)
@given(BAD_REALS)
def test_bad_reals_refused(bad):
    for call in (lambda: tw.lambda_count(bad, Fraction(3, 10)),):
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
        gauss_moment(bad)


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
    _refused(tw.term_exponent, Fraction(2, 5), Fraction(3, 10), 1.5, param="k",
             text="is not an integer")
    _refused(tw.lambda_count, Fraction(2, 5), Fraction(3, 10), L="3", param="L",
             text="is not an integer")
