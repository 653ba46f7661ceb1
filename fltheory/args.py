"""The one set of argument readers, for both sides (theory and simulator) and every paper.

A reader takes what a user passed (command line text, a Python number, a numpy value, a list)
and returns the one type the code behind it works with, or raises one
:class:`~fltheory.exact.DomainError` naming the parameter, its value and what is allowed, as the
command prints it. Readers are definitions, not formulas, so a simulator may use them (the wall's
test says so). A paper's parameter objects (``papers/<key>/params.py``) call them once, at
construction; what was read is trusted afterwards.

========================  ===============================================================
reader                    returns
========================  ===============================================================
:func:`read_count`        an ``int`` in [low, high] (Python or numpy integer; not a bool or 3.0)
:func:`read_rational`     an exact ``Fraction`` in an interval (a float read as typed: 0.1 is 1/10)
:func:`read_exact`        the same of any size (no double range: γ = 10^-5000, n = 10^900)
:func:`read_real`         a finite ``float`` in an interval (read exactly, then rounded once)
:func:`read_finite`       a finite number or array, kept as it is
:func:`read_rationals`    a tuple of Fractions ("1,2,5" or a sequence), each in the interval
:func:`read_choice`       one of a fixed set of names ("did you mean …?")
:func:`read_matrix`       a finite float matrix (array-like, or text "1,1/2;1/2,1"), of a shape
:func:`read_grid`         a non-decreasing, finite 1-d grid of times
:func:`read_dps`          a working precision in digits, in [MIN_DPS, MAX_DPS]
:func:`read_number_file`  a float array from a text file of numbers (a regular file, bounded size)
:func:`check_memory`      refuses, before allocation, more than :data:`MEMORY_LIMIT_BYTES`
========================  ===============================================================

:func:`read_step` and :func:`read_noise` are :func:`read_rational` with the bounds of a step
(> 0) and of a noise level (>= 0). :func:`settle` stores what was read on a frozen dataclass.

Bounds are written once, in the form the message shows: ``low``/``high`` with ``open_low`` /
``open_high`` for strict inequalities (``read_rational(x, "eta", low=0, open_low=True)`` says
"eta > 0").

This module imports the standard library and :mod:`fltheory.exact` only at start-up (numpy when
an array is read), so a light query may use it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final

from fltheory.exact import (
    MAX_DPS,
    MIN_DPS,
    DomainError,
    as_rational,
    check_integer,
    did_you_mean,
    fraction_str,
    parse_rational,
    short_rational,
    to_float,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = ["MEMORY_LIMIT_BYTES", "check_memory", "fraction_text", "read_choice", "read_count",
           "read_dps", "read_exact", "read_finite", "read_grid", "read_matrix", "read_noise",
           "read_number_file", "read_rational", "read_rationals", "read_real", "read_step",
           "settle"]

#: memory one simulation or one table of numbers may allocate (dense Hessians are (pN)² doubles)
MEMORY_LIMIT_BYTES: Final = 2**30

#: the longest text a matrix or list argument may have (a typed argument, not a data file)
_MAX_TEXT: Final = 10000


def _is_float(x: object) -> bool:
    """A Python float or a numpy floating scalar (numpy registers its floats as numbers.Real)."""
    return isinstance(x, float) or (isinstance(x, numbers.Real)
                                    and not isinstance(x, numbers.Rational))


def _allowed(param: str, low: Any, high: Any, open_low: bool, open_high: bool,
             kind: str = "") -> str:
    """The domain as the message writes it: ``eta > 0``, ``noise >= 0``, ``[0, 1/2)``."""
    def show(v: Any) -> str:
        return fraction_str(v) if isinstance(v, int | Fraction) else f"{v:g}"

    if low is not None and high is not None:
        inner = (f"{'(' if open_low else '['}{show(low)}, {show(high)}"
                 f"{')' if open_high else ']'}")
        return f"{kind} in {inner}".strip() if kind else inner
    if low is not None:
        return f"{kind or param} {'>' if open_low else '>='} {show(low)}"
    if high is not None:
        return f"{kind or param} {'<' if open_high else '<='} {show(high)}"
    return kind or "finite numbers"


def _outside(v: Any, low: Any, high: Any, open_low: bool, open_high: bool) -> bool:
    return ((low is not None and (v < low or (open_low and v == low)))
            or (high is not None and (v > high or (open_high and v == high))))


def read_count(value: Any, param: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (a Python or numpy integer; not a bool, a float such as 3.0 or a string)
    in [``low``, ``high``] (``None``: unbounded), as an ``int``.

    >>> read_count(3, "K", 1, 50)
    3
    >>> read_count(2.0, "K", 1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: K = 2.0 is not an integer; allowed: integers in [1, inf]
    >>> read_count(0, "N", 1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: N = 0 is outside the allowed range integers in [1, inf]
    """
    if isinstance(value, str):
        lo = "-inf" if low is None else str(low)
        hi = "inf" if high is None else str(high)
        raise DomainError(param, repr(value)[:40], f"integers in [{lo}, {hi}]",
                          reason="is not an integer")
    return check_integer(value, param, low, high)


def _exact(value: Any, param: str, allowed: str) -> Fraction:
    """``value`` as an exact rational (finite; int, Fraction, float or text), the error naming
    ``param`` and the ``allowed`` range."""
    if _is_float(value) and not math.isfinite(float(value)):
        raise DomainError(param, float(value), f"finite numbers with {allowed}",
                          reason="is not a finite number")
    try:
        return as_rational(value, param)
    except DomainError as exc:
        raise DomainError(param, exc.value, f"rational numbers with {allowed} (int, Fraction, "
                          "float or text such as 1/10)", reason=exc.reason) from None


def read_rational(value: Any, param: str, low: Any = None, high: Any = None, *,
                  open_low: bool = False, open_high: bool = False) -> Fraction:
    """A number as an exact rational (:func:`fltheory.exact.as_rational`: int and Fraction
    exactly, text as on the command line, a float as the decimal it was typed as), finite, within
    what a double can hold, and in the interval given by ``low``/``high`` (inclusive unless
    ``open_low``/``open_high``).

    >>> read_rational("1/10", "eta", low=0, open_low=True), read_rational(0.1, "eta")
    (Fraction(1, 10), Fraction(1, 10))
    >>> read_rational(0, "eta", low=0, open_low=True)
    Traceback (most recent call last):
    fltheory.exact.DomainError: eta = 0 is outside the allowed range eta > 0
    >>> read_rational("1/2", "a1", 0, Fraction(1, 2), open_high=True)
    Traceback (most recent call last):
    fltheory.exact.DomainError: a1 = 1/2 is outside the allowed range [0, 1/2)
    """
    allowed = _allowed(param, low, high, open_low, open_high)
    q = _exact(value, param, allowed)
    to_float(q, param)
    if _outside(q, low, high, open_low, open_high):
        raise DomainError(param, short_rational(q), allowed)
    return q


def read_exact(value: Any, param: str, low: Any = None, high: Any = None, *,
               open_low: bool = False, open_high: bool = False) -> Fraction:
    """A number as an exact rational of any size: :func:`read_rational` without the double
    range, for exact computations that never round it (a threshold of a thousand digits, an
    exponent γ far below 1e-300).

    >>> read_exact("1e-400", "gamma", low=0, open_low=True) == Fraction(1, 10**400)
    True
    >>> read_exact(-1, "C", low=0, open_low=True)
    Traceback (most recent call last):
    fltheory.exact.DomainError: C = -1 is outside the allowed range C > 0
    """
    allowed = _allowed(param, low, high, open_low, open_high)
    q = _exact(value, param, allowed)
    if _outside(q, low, high, open_low, open_high):
        raise DomainError(param, short_rational(q), allowed)
    return q


def read_step(eta: Any, param: str = "eta", allow_zero: bool = False) -> Fraction:
    """A step (> 0, or >= 0 with ``allow_zero``) as an exact rational: :func:`read_rational`.

    >>> read_step(0.1), read_step("1/10")
    (Fraction(1, 10), Fraction(1, 10))
    >>> read_step(0)
    Traceback (most recent call last):
    fltheory.exact.DomainError: eta = 0 is outside the allowed range eta > 0
    """
    return read_rational(eta, param, low=0, open_low=not allow_zero)


def read_noise(sigma: Any, param: str = "noise") -> Fraction:
    """A noise standard deviation σ >= 0 as an exact rational: :func:`read_rational`.

    >>> read_noise("1/10")
    Fraction(1, 10)
    """
    return read_rational(sigma, param, low=0)


def read_real(value: Any, param: str, low: Any = None, high: Any = None, *,
              open_low: bool = False, open_high: bool = False) -> float:
    """A finite real in the interval as a double: a float kept as it is, anything else read
    exactly (:func:`fltheory.exact.as_rational`) and rounded once; NaN and ±inf refused.

    >>> read_real("1/4", "b", low=0, open_low=True)
    0.25
    >>> read_real(float("inf"), "t_max", low=0)
    Traceback (most recent call last):
    fltheory.exact.DomainError: t_max = inf is not a finite number; allowed: t_max >= 0
    """
    allowed = _allowed(param, low, high, open_low, open_high)
    if _is_float(value):
        v = float(value)
        if not math.isfinite(v):
            raise DomainError(param, v, allowed, reason="is not a finite number")
    else:
        try:
            v = to_float(as_rational(value, param), param)
        except DomainError as exc:
            raise DomainError(param, exc.value, allowed, reason=exc.reason) from None
    if _outside(v, low, high, open_low, open_high):
        raise DomainError(param, value if isinstance(value, str) else v, allowed)
    return v


def read_finite(x: Any, param: str) -> Any:
    """A finite real number or array, kept as it is (int/Fraction exact, float, numpy array of
    finite floats; text read by :func:`fltheory.exact.as_rational`); NaN, ±inf, bools and
    non-numbers are a DomainError naming ``param``.

    >>> read_finite("2/3", "x"), read_finite(0.5, "x")
    (Fraction(2, 3), 0.5)
    """
    if isinstance(x, list | tuple) or type(x).__name__ == "ndarray":
        import numpy as np

        try:
            arr = np.asarray(x, dtype=float)
        except (TypeError, ValueError):
            raise DomainError(param, str(x)[:40], "finite real numbers") from None
        if not np.isfinite(arr).all():
            raise DomainError(param, "an array with non-finite entries", "finite real numbers")
        return arr
    if _is_float(x):
        if not math.isfinite(float(x)):
            raise DomainError(param, x, "finite real numbers", reason="is not a finite number")
        return x
    if isinstance(x, int | Fraction) and not isinstance(x, bool):
        return x
    try:
        return as_rational(x, param)
    except DomainError as exc:
        raise DomainError(param, exc.value, "finite real numbers", reason=exc.reason) from None


def read_rationals(value: Any, param: str, low: Any = None, high: Any = None, *,
                   open_low: bool = False, open_high: bool = False,
                   most: int = 1000) -> tuple[Fraction, ...]:
    """A non-empty list of exact rationals, each in the interval: text ``"1,2,5"`` (commas) or
    a sequence of numbers; at most ``most`` of them.

    >>> read_rationals("1, 1/2,.25", "alpha", low=0, open_low=True)
    (Fraction(1, 1), Fraction(1, 2), Fraction(1, 4))
    >>> read_rationals("1,,2", "alpha")
    Traceback (most recent call last):
    fltheory.exact.DomainError: alpha = '' is not a number; ...
    """
    if isinstance(value, str):
        if len(value) > _MAX_TEXT:
            raise DomainError(param, value[:40] + "…", f"a list of at most {_MAX_TEXT} "
                              "characters")
        items: Sequence[Any] = [v.strip() for v in value.split(",")]
    elif isinstance(value, Sequence) or type(value).__name__ == "ndarray":
        items = list(value)
    else:
        items = [value]
    if not items or len(items) > most:
        raise DomainError(param, f"{len(items)} numbers", f"1 to {most} numbers")
    return tuple(read_rational(v, param, low, high, open_low=open_low, open_high=open_high)
                 for v in items)


def read_choice(value: Any, param: str, options: Sequence[str]) -> str:
    """One of ``options`` (exactly as written), else a DomainError listing them, with the
    nearest one suggested.

    >>> read_choice("fresh", "batch", ("reused", "fresh"))
    'fresh'
    >>> read_choice("reuse", "batch", ("reused", "fresh"))
    Traceback (most recent call last):
    fltheory.exact.DomainError: batch = reuse is not one of the choices; allowed: reused or \
fresh; did you mean reused?
    """
    if isinstance(value, str) and value in options:
        return value
    shown = value if isinstance(value, str) else repr(value)[:40]
    names = " or ".join(options) if len(options) <= 2 else "one of " + ", ".join(options)
    hint = did_you_mean(value, list(options)) if isinstance(value, str) else ""
    raise DomainError(param, shown, names + hint, reason="is not one of the choices")


def _matrix_text(text: str, param: str) -> list[list[float]]:
    """Rows separated by ';', entries by ',' (``1,1/2;1/2,1``), each an exact number."""
    if len(text) > _MAX_TEXT:
        raise DomainError(param, text[:40] + "…",
                          f"a matrix of at most {_MAX_TEXT} characters")
    rows = [[to_float(parse_rational(v.strip(), param), param) for v in row.split(",")]
            for row in text.split(";")]
    if len({len(r) for r in rows}) != 1:
        raise DomainError(param, text, "rows of equal length (rows ';', entries ',')")
    return rows


def read_matrix(M: Any, param: str, shape: tuple[int, int] | None = None, *,
                symmetric: bool = False) -> np.ndarray:
    """A real matrix with finite entries as a float array: array-like, or text with rows
    separated by ';' and entries by ',' (``"1,1/2;1/2,1"``, exact numbers rounded once); of the
    given ``shape`` when one is given; symmetric (to 1e-12 of its scale) with ``symmetric``.

    >>> read_matrix("1,1/2;1/2,1", "T").tolist()
    [[1.0, 0.5], [0.5, 1.0]]
    >>> read_matrix([[1, 0]], "T", (2, 2))
    Traceback (most recent call last):
    fltheory.exact.DomainError: T = an array of shape (1, 2) is outside the allowed range ...
    """
    import numpy as np

    if isinstance(M, str):
        M = _matrix_text(M, param)
    try:
        A = np.array(M, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(param, str(M)[:40], "a real matrix") from None
    if A.ndim != 2:
        raise DomainError(param, f"an array of shape {A.shape}",
                          "a matrix" if shape is None else f"shape {shape}")
    if shape is not None and A.shape != shape:
        raise DomainError(param, f"an array of shape {A.shape}", f"shape {shape}")
    if not np.isfinite(A).all():
        raise DomainError(param, "a matrix with non-finite entries", "finite entries")
    if symmetric and (A.shape[0] != A.shape[1]
                      or not np.allclose(A, A.T, rtol=0, atol=1e-12 * max(1.0, abs(A).max()))):
        raise DomainError(param, "a matrix that is not symmetric", "symmetric matrices")
    return A


def read_grid(t_grid: Any, param: str = "t_grid") -> np.ndarray:
    """A grid of output times: a non-empty, finite, non-decreasing 1-d float array (contiguous).

    >>> read_grid([0, 1, 2]).tolist()
    [0.0, 1.0, 2.0]
    >>> read_grid([1, 0])
    Traceback (most recent call last):
    fltheory.exact.DomainError: t_grid = an array of shape (2,) is outside the allowed range ...
    """
    import numpy as np

    try:
        t = np.ascontiguousarray(t_grid, dtype=float)
    except (TypeError, ValueError):
        raise DomainError(param, str(t_grid)[:40], "a 1-d grid of times") from None
    if t.ndim != 1 or len(t) < 1 or not np.isfinite(t).all() or np.any(np.diff(t) < 0):
        raise DomainError(param, f"an array of shape {t.shape}",
                          "a non-empty, finite, non-decreasing 1-d grid of times")
    return t


def read_dps(dps: Any) -> int:
    """A working precision in significant digits (any integral number) in
    [:data:`~fltheory.exact.MIN_DPS`, :data:`~fltheory.exact.MAX_DPS`], the one bound of
    every command and function that takes ``dps``.

    >>> read_dps(30)
    30
    >>> read_dps(1000)
    Traceback (most recent call last):
    fltheory.exact.DomainError: dps = 1000 is outside the allowed range integers in [5, 100]
    """
    return read_count(dps, "dps", MIN_DPS, MAX_DPS)


def read_number_file(path: Any, param: str, max_bytes: int) -> np.ndarray:
    """The numbers in the text file ``path`` as a float array: numbers separated by white space
    or commas, lines starting with ``#`` are comments. A file that is not a regular file (a
    directory, a device such as /dev/zero that never ends), one over ``max_bytes``, an unreadable
    one or a word that is not a number is a DomainError naming ``param``. What the numbers must
    be (finite, how many) is the caller's domain.

    >>> import os, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
    ...     _ = fh.write("# a spectrum\\n1, 2.5\\n-3\\n")
    >>> read_number_file(fh.name, "eigenvalues", 1000).tolist()
    [1.0, 2.5, -3.0]
    >>> os.remove(fh.name)
    >>> read_number_file(os.curdir, "eigenvalues", 1000)
    Traceback (most recent call last):
    fltheory.exact.DomainError: eigenvalues = . is not a regular file; allowed: a regular text \
file of numbers
    """
    import os
    import stat

    import numpy as np

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise DomainError(param, path, "a regular text file of numbers",
                              reason="is not a regular file")
        if info.st_size > max_bytes:
            raise DomainError(param, path, f"a text file of at most {max_bytes} bytes",
                              reason="is too large")
        with open(path, encoding="utf-8") as fh:
            text = fh.read(max_bytes + 1)
    except DomainError:
        raise
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise DomainError(param, path, "a readable text file of numbers",
                          reason=f"cannot be read ({exc.__class__.__name__})") from None
    words = [w for line in text.splitlines() if not line.lstrip().startswith("#")
             for w in line.replace(",", " ").split()]
    values = []
    for i, w in enumerate(words):
        try:
            values.append(float(w))
        except ValueError:
            raise DomainError(param, f"{path}: word #{i + 1} {w[:20]!r}",
                              "numbers separated by white space or commas",
                              reason="is not a number") from None
    return np.array(values, dtype=float)


def check_memory(param: str, value: object, nbytes: float) -> None:
    """Refuse, before any allocation, a request of ``nbytes`` above :data:`MEMORY_LIMIT_BYTES`
    (the error names ``param`` = ``value``, the cause of the size).

    >>> check_memory("N", 10**5, 8.0 * 10**10)
    Traceback (most recent call last):
    fltheory.exact.DomainError: N = 100000 would need about 8e+10 bytes...
    """
    if not nbytes <= MEMORY_LIMIT_BYTES:
        raise DomainError(param, value, f"at most {MEMORY_LIMIT_BYTES:.3g} bytes",
                          reason=f"would need about {nbytes:.3g} bytes")


def fraction_text(x: Fraction | int) -> str:
    """A rational as the command line writes it: ``3/4``, or ``2`` for an integer
    (:func:`fltheory.exact.fraction_str`).

    >>> fraction_text(Fraction(3, 4)), fraction_text(Fraction(4, 2))
    ('3/4', '2')
    """
    return fraction_str(x)


def settle(obj: object, **values: Any) -> None:
    """Store what a frozen dataclass's ``__post_init__`` read (``object.__setattr__``), so a
    parameter object holds the checked, typed values and nothing else.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Run:
    ...     eta: Any
    ...     def __post_init__(self) -> None:
    ...         settle(self, eta=read_step(self.eta))
    >>> Run("1/2").eta
    Fraction(1, 2)
    """
    for name, value in values.items():
        object.__setattr__(obj, name, value)
