"""Exact numbers in, domain errors out.

Every number that reaches fltheory from a user (command line, API) is an exact rational
:class:`fractions.Fraction`: ``".4"`` is 2/5, ``"3e-2"`` is 3/100, ``"1/3"`` is 1/3. Floats enter
only at evaluation, inside the function that evaluates. This module is imported by every light
query, so it depends on the standard library only.

Parameters outside a formula's domain raise :class:`DomainError`, whose message names the
parameter, its value and the allowed range; the CLI turns it into one line on stderr and exit
status 2.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from numbers import Integral
from typing import Final

__all__ = [
    "INF",
    "MAX_DPS",
    "MIN_DPS",
    "CostError",
    "DomainError",
    "Infinity",
    "Unconfirmed",
    "as_rational",
    "check_cost",
    "check_dps",
    "check_integer",
    "check_interval",
    "did_you_mean",
    "fraction_str",
    "parse_count",
    "parse_int_or_inf",
    "parse_int_range",
    "parse_rational",
    "short_rational",
    "to_decimal_str",
    "to_float",
]


class DomainError(ValueError):
    """A parameter outside the domain of a formula, or a malformed number.

    The message is a single line naming the parameter, the offending value and what is allowed.

    >>> str(DomainError("a1", "1/2", "[0, 1/2)"))
    'a1 = 1/2 is outside the allowed range [0, 1/2)'
    >>> str(DomainError("d", "x", "an integer >= 1", reason="is not a number"))
    'd = x is not a number; allowed: an integer >= 1'
    """

    def __init__(self, param: str, value: object, allowed: str, reason: str | None = None):
        self.param = param
        self.value = value
        self.allowed = allowed
        self.reason = reason
        if reason is None:
            msg = f"{param} = {value} is outside the allowed range {allowed}"
        else:
            msg = f"{param} = {value} {reason}; allowed: {allowed}"
        super().__init__(msg)

    def renamed(self, names: dict[str, str]) -> DomainError:
        """The same error naming the parameter as the caller knows it (an API argument
        ``a1_squared`` is the command line's ``--a1``); itself when ``names`` has no new name.

        >>> str(DomainError("a1_squared", 0, "a_1² > 0").renamed({"a1_squared": "a1"}))
        'a1 = 0 is outside the allowed range a_1² > 0'
        """
        if self.param not in names or type(self) is not DomainError:
            return self
        return DomainError(names[self.param], self.value, self.allowed, self.reason)


class Infinity:
    """The value ``inf`` of an integer parameter that may be infinite (e.g. the degree L)."""

    _instance: Infinity | None = None

    def __new__(cls) -> Infinity:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "inf"

    __str__ = __repr__

    def __gt__(self, other: object) -> bool:
        return not isinstance(other, Infinity)

    def __ge__(self, other: object) -> bool:
        return True

    def __lt__(self, other: object) -> bool:
        return False

    def __le__(self, other: object) -> bool:
        return isinstance(other, Infinity)


INF: Final = Infinity()

# A decimal (with optional exponent) or a ratio of integers; nothing else (no nan, no inf,
# no underscores, no hex). Exponents are bounded so that "1e999999999" cannot exhaust memory.
_DECIMAL = re.compile(r"^([+-]?)([0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?$")
_RATIO = re.compile(r"^([+-]?[0-9]+)\s*/\s*([0-9]+)$")


def did_you_mean(name: str, candidates: list[str]) -> str:
    """"; did you mean X?" for the candidate nearest to a mistyped ``name`` (difflib's ratio
    >= 0.6), else "": the suffix of a refusal of an unknown name, shared by every reader.

    >>> did_you_mean("rleu", ["relu", "tanh"]), did_you_mean("foo", ["relu"])
    ('; did you mean relu?', '')
    """
    from difflib import get_close_matches  # only when refusing: keep start-up light

    close = get_close_matches(name, candidates, n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def parse_rational(text: str | int | Fraction, param: str = "value") -> Fraction:
    """Parse a user-supplied number as an exact rational.

    >>> parse_rational(".4")
    Fraction(2, 5)
    >>> parse_rational("3e-2")
    Fraction(3, 100)
    >>> parse_rational("1/3")
    Fraction(1, 3)
    >>> parse_rational("-2.50")
    Fraction(-5, 2)
    >>> parse_rational("nan", "a1")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: a1 = nan is not a number; allowed: a decimal such as .4 ...
    """
    if isinstance(text, bool):
        raise DomainError(param, text, _NUMBER_FORMS, reason="is not a number")
    if isinstance(text, int | Fraction):
        return Fraction(text)
    s = str(text).strip()
    if sum(ch.isdigit() for ch in s) > MAX_DIGITS:
        raise DomainError(param, f"{s[:12]}… ({len(s)} characters)",
                          f"numbers of at most {MAX_DIGITS} digits",
                          reason="has too many digits")
    if len(s) > 2 * MAX_DIGITS:  # not a number of at most MAX_DIGITS digits, whatever it is
        raise DomainError(param, f"{s[:12]}… ({len(s)} characters)", _NUMBER_FORMS,
                          reason="is not a number")
    m = _RATIO.match(s)
    if m:
        den = int(m.group(2))
        if den == 0:
            raise DomainError(param, s, _NUMBER_FORMS, reason="divides by zero")
        return Fraction(int(m.group(1)), den)
    m = _DECIMAL.match(s)
    if m:
        value = Fraction(m.group(2))
        if m.group(3):
            exponent = int(m.group(3))
            if abs(exponent) > _MAX_EXPONENT:
                raise DomainError(param, s, f"exponents of magnitude <= {_MAX_EXPONENT}",
                                  reason="has an exponent too large to be exact")
            value *= Fraction(10) ** exponent
        return -value if m.group(1) == "-" else value
    raise DomainError(param, s if s else "''", _NUMBER_FORMS, reason="is not a number")


def as_rational(value: object, param: str = "value") -> Fraction:
    """The exact rational a Python user means by ``value``: the one reading of a number given
    to the public API, whatever its type.

    * ``int`` and ``Fraction`` (and numpy integers): exactly;
    * text: as on the command line (:func:`parse_rational`: ``".4"``, ``"3e-2"``, ``"1/3"``);
    * a finite ``float`` (or numpy float): the decimal it was typed as, its shortest
      round-tripping ``repr`` — ``0.1`` is 1/10, not 3602879701896397/2^55 —, so that
      ``lambda_count(0.01, 0.49)`` is the answer for 1/100 and 49/100, as on the command line
      (a float's binary value is an artefact of typing it, not the user's number);
    * anything else (bool, NaN, ±inf, None, a list): :class:`DomainError` naming ``param``.

    >>> as_rational(0.1), as_rational("2/5"), as_rational(3)
    (Fraction(1, 10), Fraction(2, 5), Fraction(3, 1))
    >>> as_rational(float("nan"), "eta")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: eta = nan is not a number; allowed: a decimal such as .4 ...
    """
    kind = type(value).__module__ + "." + type(value).__name__
    if isinstance(value, float) or (kind.startswith("numpy.") and hasattr(value, "is_integer")):
        x = float(value)  # type: ignore[arg-type]
        if not math.isfinite(x):
            raise DomainError(param, x, _NUMBER_FORMS, reason="is not a number")
        # the shortest text that reads back as this number at its own precision (numpy's str
        # of a float32 0.1 is "0.1", where float() would give 0.10000000149011612)
        return Fraction(repr(x) if isinstance(value, float) else str(value))
    if kind.startswith("numpy.") and hasattr(value, "__index__"):
        return Fraction(int(value))
    if isinstance(value, int | Fraction | str):  # a bool is refused there
        return parse_rational(value, param)
    raise DomainError(param, repr(value)[:40], _NUMBER_FORMS, reason="is not a number")


_MAX_EXPONENT: Final = 4000
#: digits of a number written on the command line (Python refuses int <-> str beyond 4300)
MAX_DIGITS: Final = 1000
_NUMBER_FORMS: Final = "a decimal such as .4 or 3e-2, or a ratio such as 1/3"


def parse_count(text: str | int, param: str, minimum: int = 1, maximum: int | None = None) -> int:
    """Parse an integer parameter (``"1e6"`` is accepted when it is an integer) >= ``minimum``.

    >>> parse_count("1e3", "n")
    1000
    >>> parse_count("1.5", "d")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: d = 1.5 is not an integer; allowed: an integer >= 1
    """
    allowed = f"an integer >= {minimum}" if maximum is None else \
        f"integers in [{minimum}, {maximum}]"
    try:
        value = parse_rational(text, param)
    except DomainError as exc:  # keep the reason (too many digits, exponent too large, ...)
        raise DomainError(param, exc.value, allowed, reason=exc.reason or "is not a number") \
            from None
    if value.denominator != 1:
        raise DomainError(param, text, allowed, reason="is not an integer")
    if maximum is None:  # a count a double cannot hold is no count any command can use
        to_float(value, param)
    return check_integer(int(value), param, minimum, maximum)


def parse_int_or_inf(text: str | int, param: str, minimum: int = 1) -> int | Infinity:
    """Parse an integer >= ``minimum`` or infinity (``inf``, ``oo``, ``infinity``, ``∞``).

    >>> parse_int_or_inf("inf", "L")
    inf
    >>> parse_int_or_inf("4", "L")
    4
    """
    if isinstance(text, str) and text.strip().lower() in {"inf", "+inf", "oo", "infinity", "∞"}:
        return INF
    try:
        return parse_count(text, param, minimum)
    except DomainError as exc:
        allowed = (exc.allowed if exc.allowed.startswith("magnitudes")
                   else f"an integer >= {minimum}, or inf")
        raise DomainError(param, exc.value, allowed, exc.reason) from None


def parse_int_range(text: str, param: str, minimum: int = 1, maximum: int = 10**7) -> list[int]:
    """Parse ``"3"``, ``"1..10"`` or ``"1,2,5"`` into a list of integers.

    >>> parse_int_range("1..4", "k")
    [1, 2, 3, 4]
    >>> parse_int_range("2,5", "k")
    [2, 5]
    """
    s = str(text).strip()
    allowed = f"an integer, a range a..b or a list a,b,c of integers in [{minimum}, {maximum}]"
    if ".." in s:
        lo_s, _, hi_s = s.partition("..")
        lo, hi = parse_count(lo_s, param, minimum), parse_count(hi_s, param, minimum)
        if hi < lo:
            raise DomainError(param, s, allowed, reason="is an empty range")
        values = list(range(lo, hi + 1)) if hi - lo < maximum else []
    else:
        values = [parse_count(part, param, minimum) for part in s.split(",")]
    if not values or max(values) > maximum:
        raise DomainError(param, s, allowed)
    return values


def check_integer(value: int, param: str, minimum: int | None = None,
                  maximum: int | None = None) -> int:
    """Check an integer against inclusive bounds; raise :class:`DomainError` naming ``param``.
    Only integers pass (``int`` or numpy integers; not a bool, a float such as 3.0, a string).

    >>> check_integer(3, "k", 0, 10)
    3
    >>> check_integer(2.0, "k", 0)
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: k = 2.0 is not an integer; allowed: integers in [0, inf]
    """
    if isinstance(value, bool) or not isinstance(value, Integral):
        lo = "-inf" if minimum is None else str(minimum)
        hi = "inf" if maximum is None else str(maximum)
        raise DomainError(param, repr(value)[:40], f"integers in [{lo}, {hi}]",
                          reason="is not an integer")
    value = int(value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        lo = "-inf" if minimum is None else str(minimum)
        hi = "inf" if maximum is None else str(maximum)
        raise DomainError(param, short_rational(Fraction(value)), f"integers in [{lo}, {hi}]")
    return value


#: The one bound on ``--dps`` (significant digits), for every command and every public function
#: that takes ``dps``. Below 5, hermite's zero test (|μ_k| <= 10^-dps·‖f‖) would call a
#: coefficient of 10 % of ‖f‖ zero. Above 100 the heaviest command is no longer a matter of
#: seconds: measured CPU time (this 2-core machine, under load) of
#: ``fltheory hermite "tanh(z)"`` (K = 8, quadrature at dps + 10 and dps + 25):
#: 2.7 s at dps 30, 7.2 s at 100, 10.9 s at 130, 29 s at 160 (mpmath's tanh-sinh steps up a
#: degree), over 60 s at 200; ``fltheory exponent "tanh(z)"`` (kmax 12) 10.5 s and
#: ``hermite "tanh(z)" -K 16`` 12.6 s at dps 100.
MIN_DPS: Final = 5
MAX_DPS: Final = 100


def check_dps(dps: int) -> int:
    """Check a precision in significant digits against the one bound, [MIN_DPS, MAX_DPS].

    >>> check_dps(30)
    30
    >>> check_dps(1000)
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: dps = 1000 is outside the allowed range integers in [5, 100]
    """
    if isinstance(dps, bool) or not isinstance(dps, int):
        raise DomainError("dps", dps, f"integers in [{MIN_DPS}, {MAX_DPS}]",
                          reason="is not an integer")
    return check_integer(dps, "dps", MIN_DPS, MAX_DPS)


def check_interval(value: Fraction, param: str, low: Fraction, high: Fraction,
                   closed_low: bool = True, closed_high: bool = False) -> Fraction:
    """Check ``value`` lies in the interval with the given ends; exact comparison.

    >>> check_interval(Fraction(1, 2), "a1", Fraction(0), Fraction(1, 2))
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: a1 = 1/2 is outside the allowed range [0, 1/2)
    """
    ok_low = value >= low if closed_low else value > low
    ok_high = value <= high if closed_high else value < high
    if not (ok_low and ok_high):
        interval = (f"{'[' if closed_low else '('}{fraction_str(low)}, "
                    f"{fraction_str(high)}{']' if closed_high else ')'}")
        raise DomainError(param, fraction_str(value), interval)
    return value


def fraction_str(value: Fraction | int) -> str:
    """``3`` for integers, ``2/5`` otherwise (the exact form used in JSON and text output)."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def to_decimal_str(value: Fraction | int, dps: int) -> str:
    """A rational rounded to ``dps`` significant digits, without floats.

    >>> to_decimal_str(Fraction(1, 3), 5)
    '0.33333'
    >>> to_decimal_str(Fraction(-3, 20), 30)
    '-0.15'
    """
    from decimal import ROUND_HALF_EVEN, Decimal, localcontext  # not at start-up: 1 ms

    value = Fraction(value)
    with localcontext() as ctx:
        ctx.prec = dps
        ctx.rounding = ROUND_HALF_EVEN
        dec = (Decimal(value.numerator) / Decimal(value.denominator)).normalize()
        return format(dec, "f") if dec != 0 else "0"


def to_float(value: Fraction | int, param: str, *, positive: bool = False) -> float:
    """``float(value)``, refusing values that a float cannot hold (overflow, or a non-zero value
    that would underflow to 0), so that no ``inf``/``0`` silently replaces the user's number.

    >>> to_float(Fraction(2, 5), "eta")
    0.4
    >>> to_float(Fraction(10**400), "gamma")
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: gamma = 1e400 ... is beyond double precision; allowed: ...
    """
    value = Fraction(value)
    allowed = "magnitudes in [1e-300, 1e300] (or 0)"
    try:
        out = float(value)
    except OverflowError:
        out = float("inf")
    if not abs(out) <= 1e300 or (value != 0 and abs(out) < 1e-300):
        raise DomainError(param, short_rational(value), allowed,
                          reason="is beyond double precision")
    if positive and out <= 0:
        raise DomainError(param, short_rational(value), "numbers > 0")
    return out


def short_rational(value: Fraction) -> str:
    """A rational for an error message: exact when short, else its order of magnitude.

    >>> short_rational(Fraction(3, 7)), short_rational(Fraction(10**100 + 1, 3))
    ('3/7', '1e100 (about)')
    """
    text = fraction_str(value) if max(value.numerator.bit_length(),
                                      value.denominator.bit_length()) < 200 else ""
    if text:
        return text
    import math

    digits = (math.log10(abs(value.numerator)) - math.log10(value.denominator)
              if value else 0.0)
    return f"{'-' if value < 0 else ''}1e{round(digits)} (about)"


def check_cost(what: str, estimate: float, limit: float, unit: str, hint: str) -> None:
    """Refuse work whose estimated cost exceeds ``limit`` before it starts.

    ``what`` names the request (parameters and values), ``unit`` the cost's unit, ``hint`` what
    the user can change. One line, like every other domain error.

    >>> check_cost("lmax = 9", 10.0, 100.0, "terms", "lower lmax")
    >>> check_cost("a1 = 0.4999", 2e9, 1e6, "exponent rows", "move a1 away from 1/2")
    Traceback (most recent call last):
    ...
    fltheory.exact.CostError: a1 = 0.4999 would need about 2e+09 exponent rows; allowed: ...
    """
    if not estimate <= limit:  # also refuses a NaN estimate
        raise CostError(what, estimate, limit, unit, hint)


class Unconfirmed(ArithmeticError):
    """A computation that could not confirm its answer for this request (a fixed point that did
    not converge, two resolutions that disagree): the command says so in one line, exit status
    2 as for a refused input, and prints no number (it is not an internal error: another
    request, e.g. another α, may be answered)."""


class CostError(DomainError):
    """A request whose estimated time or memory is beyond the stated bound."""

    def __init__(self, what: str, estimate: float, limit: float, unit: str, hint: str):
        self.estimate, self.limit = estimate, limit
        param, _, value = what.partition(" = ")
        ValueError.__init__(self, f"{what} would need about {estimate:.3g} {unit}; allowed: "
                                  f"at most {limit:.3g} {unit} ({hint})")
        self.param, self.value = param, value
        self.allowed = f"at most {limit:.3g} {unit}"
        self.reason = f"would need about {estimate:.3g} {unit}"
