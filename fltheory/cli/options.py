"""Options and rendering shared by every command (light: no sympy/numpy)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fltheory.exact import Infinity, check_integer, parse_count, parse_int_or_inf, parse_rational
from fltheory.results import Result

if TYPE_CHECKING:
    from pathlib import Path

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("text", "json", "latex")
DEFAULT_DPS = 30


class RationalType(click.ParamType):
    """A command-line number parsed as an exact rational; errors name the option."""

    name = "rational"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Fraction:
        if isinstance(value, Fraction):
            return value
        return parse_rational(value, _name(param))


class CountType(click.ParamType):
    """An integer >= ``minimum`` (``1e3`` accepted when it is an integer)."""

    name = "integer"

    def __init__(self, minimum: int = 1, allow_inf: bool = False):
        self.minimum = minimum
        self.allow_inf = allow_inf

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int | Infinity:
        if isinstance(value, int | Infinity) and not isinstance(value, bool):
            return value
        if self.allow_inf:
            return parse_int_or_inf(value, _name(param), self.minimum)
        return parse_count(value, _name(param), self.minimum)


def _name(param: click.Parameter | None) -> str:
    return param.name if param is not None and param.name else "value"


RATIONAL = RationalType()


def format_option(func: F) -> F:
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
                        show_default=True, help="Output format.")(func)


def dps_option(func: F) -> F:
    return click.option("--dps", type=CountType(minimum=1), default=DEFAULT_DPS,
                        show_default=True,
                        help="Significant digits of numeric evaluations.")(func)


def check_dps(dps: int) -> int:
    return check_integer(dps, "dps", 1, 10000)


def emit(result: Result, fmt: str) -> None:
    """Render a result in the requested format on stdout."""
    from fltheory import render

    renderer = {"text": render.render_text, "json": render.render_json,
                "latex": render.render_latex}[fmt]
    click.echo(renderer(result), nl=False)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so no partial file is left behind."""
    import os  # file-writing imports stay off the light query path
    import tempfile
    from pathlib import Path

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
