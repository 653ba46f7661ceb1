"""Parameters of the tables and figures (``fltheory table NAME --help``, ``fltheory plot NAME
--help``) and the progress lines of the slow ones.

A view function (a table builder or a figure) takes its parameters as keyword arguments whose
defaults are the committed output; :func:`view_params` declares, for each of them, its kind, its
domain and one line of help. ``fltheory table`` and ``fltheory plot`` build one sub-command per
view from these declarations: every parameter becomes an option (``--d 3,5``, ``--eta 1/2``),
parsed exactly by the readers of :mod:`fltheory.cli.options` and :mod:`fltheory.exact`
(rationals stay Fractions) and checked against its domain before any work. Lists are given
comma-separated. From Python, call the function with the same names.

Kinds: ``int``, ``rational``, ``str``, a tuple of choices, or a list of one of these
(``ints``, ``rationals``, ``strs``). Standard library only (light).
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from fltheory.exact import DomainError, fraction_str

__all__ = ["ViewParam", "declared_params", "format_value", "parse_param", "progress",
           "reporting", "view_params"]

F = TypeVar("F", bound=Callable[..., Any])

_LISTS = {"ints": "int", "rationals": "rational", "strs": "str"}


@dataclass(frozen=True)
class ViewParam:
    """One parameter of a view: ``kind`` (see the module), one line of ``help`` and the domain
    ``[low, high]`` of a number (of each element of a list), ``low_open`` for ``(low, high]``."""

    kind: str | tuple[str, ...]
    help: str
    low: int | Fraction | None = None
    high: int | Fraction | None = None
    low_open: bool = False

    @property
    def is_list(self) -> bool:
        return isinstance(self.kind, str) and self.kind in _LISTS

    def allowed(self) -> str:
        if isinstance(self.kind, tuple):
            return "one of " + ", ".join(self.kind)
        base = _LISTS.get(self.kind, self.kind)
        if base == "str":
            return "text" if not self.is_list else "comma-separated text"
        noun = "integers" if base == "int" else "numbers"
        lo = "-inf" if self.low is None else fraction_str(self.low)
        hi = "inf" if self.high is None else fraction_str(self.high)
        text = (f"{noun} in {'(' if self.low_open or self.low is None else '['}{lo}, {hi}"
                f"{')' if self.high is None else ']'}")
        return ("comma-separated " + text) if self.is_list else text


def view_params(**params: ViewParam) -> Callable[[F], F]:
    """Declare the parameters of a view function (every keyword parameter it has, no other)."""

    def decorate(func: F) -> F:
        names = [p.name for p in inspect.signature(func).parameters.values()
                 if p.default is not inspect.Parameter.empty]
        if sorted(names) != sorted(params):
            raise TypeError(f"{func.__qualname__}: declared {sorted(params)}, "
                            f"has keyword parameters {sorted(names)}")
        func.__view_params__ = params  # type: ignore[attr-defined]
        return func

    return decorate


def declared_params(func: Callable[..., Any]) -> dict[str, tuple[ViewParam, Any]]:
    """Name -> (declaration, default) of a view's parameters, in signature order (a view
    without declarations, e.g. a plugin's, has none)."""
    declared: Mapping[str, ViewParam] = getattr(func, "__view_params__", {})
    sig = inspect.signature(func).parameters
    return {name: (declared[name], sig[name].default) for name in sig if name in declared}


def format_value(value: Any) -> str:
    """A parameter value as typed on the command line: ``1/10``, ``2,3,5``, ``erf,relu``."""
    if isinstance(value, tuple | list):
        return ",".join(format_value(v) for v in value)
    if isinstance(value, Fraction):
        return fraction_str(value)
    return str(value)


def parse_param(name: str, param: ViewParam, text: str) -> Any:
    """The value of option ``name`` from its text, exactly, checked against its domain: one
    :class:`DomainError` naming the option and what it allows otherwise."""
    if param.is_list:
        assert isinstance(param.kind, str)
        items = text.split(",")
        if any(not item.strip() for item in items):
            raise DomainError(name, text[:40], param.allowed(), reason="has an empty item")
        one = ViewParam(_LISTS[param.kind], param.help, param.low, param.high, param.low_open)
        out = []
        for item in items:
            try:
                out.append(parse_param(name, one, item.strip()))
            except DomainError as exc:  # the element, and what the list allows
                raise DomainError(name, item.strip()[:40], param.allowed(),
                                  reason=exc.reason) from None
        return tuple(out)
    if isinstance(param.kind, tuple):
        if text not in param.kind:
            raise DomainError(name, text[:40], param.allowed(), reason="is not a choice")
        return text
    if param.kind == "str":
        return text
    from fltheory.exact import parse_count, parse_rational, to_float

    value: Any
    if param.kind == "int":
        try:
            value = parse_count(text, name, -(10**18))
        except DomainError as exc:
            raise DomainError(name, text[:40], param.allowed(),
                              reason=exc.reason or "is not an integer") from None
    else:
        value = parse_rational(text, name)
        to_float(value, name)  # a double must hold it
    low_ok = param.low is None or (value > param.low if param.low_open else value >= param.low)
    if not (low_ok and (param.high is None or value <= param.high)):
        raise DomainError(name, fraction_str(value)[:40], param.allowed(),
                          reason="is out of range")
    return value


# ---------------------------------------------------------------------------------- progress

_REPORT: ContextVar[Callable[[str], None] | None] = ContextVar("fltheory_view_progress",
                                                                default=None)


def progress(message: str) -> None:
    """One progress line of a slow view (a step of a table or figure that may take seconds):
    given to the reporter installed by :func:`reporting` (the CLI's: stderr), else dropped."""
    report = _REPORT.get()
    if report is not None:
        report(message)


@contextmanager
def reporting(report: Callable[[str], None]) -> Iterator[None]:
    """Send the :func:`progress` lines of the views run inside the block to ``report``, each
    prefixed with the seconds elapsed since the block started."""
    start = time.perf_counter()
    token = _REPORT.set(lambda m: report(f"[{time.perf_counter() - start:5.1f} s] {m}"))
    try:
        yield
    finally:
        _REPORT.reset(token)
