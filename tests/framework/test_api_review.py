# mypy: disable-error-code="arg-type"
"""The defects of the newcomer review of the public API (issue #14): one reading of a number
(fltheory.exact.as_rational) everywhere, bounded work, DomainError on bad input, an expansion
checked to be of f, messages that name the parameter and the real domain. (mypy: the tests
pass wrong types on purpose.)"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.engine.hermite.exact import MAX_MOMENT, gauss_moment
from fltheory.exact import DomainError
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


# ------------------------------------------------------------------ 2: bounded work

def test_gauss_moment_bounded_before_work():
    assert gauss_moment(MAX_MOMENT) > 0
    _refused(gauss_moment, 10**7, param="n")
    _refused(gauss_moment, 10**100, param="n")
    _refused(gauss_moment, 2.0, param="n", text="is not an integer")


# ------------------------------------------------------------------ 3: DomainError, never NaN

@pytest.mark.parametrize("call", [
    lambda: seeding.children(0, "3"),
    lambda: seeding.children(0, -1),
    lambda: seeding.children(0, 2.0),
])
def test_listed_calls_refused(call):
    with pytest.raises(DomainError):
        call()


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
