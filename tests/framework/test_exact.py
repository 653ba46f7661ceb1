"""Exact parsing of command-line numbers and the domain-error type."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fltheory.exact import (
    INF,
    DomainError,
    parse_count,
    parse_int_or_inf,
    parse_int_range,
    parse_rational,
    to_decimal_str,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [(".4", Fraction(2, 5)), ("0.4", Fraction(2, 5)), ("3e-2", Fraction(3, 100)),
     ("1/3", Fraction(1, 3)), ("-1/3", Fraction(-1, 3)), ("1e-3", Fraction(1, 1000)),
     ("2.", Fraction(2)), ("+7", Fraction(7)), ("1E6", Fraction(10**6)), (" .1 ", Fraction(1, 10)),
     ("0.30000000000000004", Fraction(30000000000000004, 10**17))],
)
def test_parse_rational_is_exact(text, expected):
    assert parse_rational(text) == expected


def test_float_trap_is_avoided():
    # floor(0.3/0.1) is 2 in binary floating point; exactly it is 3.
    assert int(0.3 / 0.1) == 2
    q = parse_rational(".3") / parse_rational(".1")
    assert q.numerator // q.denominator == 3


@pytest.mark.parametrize("bad", ["", "abc", "nan", "inf", "-inf", "1/0", "0x10", "1_000", "1e",
                                 "e3", "1..2", "--1", "1/2/3", "1e99999", "½"])
def test_parse_rational_rejects_with_the_parameter_named(bad):
    with pytest.raises(DomainError) as info:
        parse_rational(bad, "a1")
    message = str(info.value)
    assert message.startswith("a1 = ")
    assert "\n" not in message


@given(st.fractions())
def test_ratio_roundtrip(q):
    assert parse_rational(f"{q.numerator}/{q.denominator}") == q


@given(st.integers(min_value=-10**12, max_value=10**12), st.integers(min_value=0, max_value=12))
def test_decimal_strings_are_exact(mantissa, places):
    text = f"{mantissa}e-{places}"
    assert parse_rational(text) == Fraction(mantissa, 10**places)


def test_counts_and_ranges():
    assert parse_count("1e3", "n") == 1000
    assert parse_int_or_inf("oo", "L") is INF
    assert parse_int_range("1..10", "k") == list(range(1, 11))
    for bad in ["0", "1.5", "-3", "x"]:
        with pytest.raises(DomainError, match=r"^d = "):
            parse_count(bad, "d")
    with pytest.raises(DomainError):
        parse_int_range("5..2", "k")


def test_decimal_rendering_needs_no_float():
    assert to_decimal_str(Fraction(1, 3), 40) == "0." + "3" * 40
    assert to_decimal_str(Fraction(10**40 + 1), 45) == str(10**40 + 1)


@pytest.mark.parametrize("text", ["١e٣", "１２", "٣/٤", "12\u0663"])
def test_only_ascii_digits_are_numbers(text):
    # Python's int() accepts any Unicode decimal digit; a number on the command line is ASCII
    # (the fuzzer found "١e٣" accepted as 1000 and "１２" as 12).
    with pytest.raises(DomainError):
        parse_rational(text, "gamma")
