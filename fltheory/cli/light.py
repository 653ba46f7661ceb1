"""The light path of the ``fltheory`` command: a query that a paper declares light is parsed and
answered without click.

A light query's cost is its imports: ``fltheory fisher --d 1000000 --dps 50`` spends about as
long importing click (which brings in typing, uuid, platform, datetime and gettext) as it spends
computing. A paper may declare, beside its click command, a :class:`LightCommand` for the plain
form of that command (``Paper.light``: name → ``"module:attribute"``): its few value options,
each read by the same function as the click option's type (:func:`count_value`,
:data:`FORMATS`), and the function that builds the :class:`~fltheory.results.Result` the click
command prints. :func:`answer` takes a command line only when it is exactly ``NAME`` followed by
those options, each at most once, each as ``--flag VALUE`` or ``--flag=VALUE``, every required one
present and every value valid; anything else (``--help``, another option or a sub-command, a
repeated option, a value its reader refuses, shell completion) goes to the click command, which
is the reference: it prints the same answer, and the error message, from the same functions.
tests/framework/test_light.py holds the two paths to byte-identical output and the light
options to their click twins.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from fltheory.exact import (
    DomainError,
    Infinity,
    check_integer,
    parse_count,
    parse_int_or_inf,
)

if TYPE_CHECKING:
    from fltheory.results import Result

__all__ = ["DEFAULT_DPS", "FORMATS", "LightCommand", "LightOption", "answer", "count_value",
           "light_command", "rendered"]

#: the output formats of every command (``--format``)
FORMATS = ("text", "json", "latex")
#: the default of every ``--dps`` option
DEFAULT_DPS = 30


def count_value(value: Any, name: str, minimum: int = 1, maximum: int | None = None,
                allow_inf: bool = False) -> int | Infinity:
    """An integer option's value in [minimum, maximum] (``1e3`` accepted when it is an integer;
    ``inf`` too with ``allow_inf``): what :class:`fltheory.cli.options.CountType` converts with.

    >>> count_value("1e3", "d", 2)
    1000
    >>> count_value("1", "d", 2)
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: d = 1 is outside the allowed range integers in [2, inf]
    """
    if isinstance(value, int | Infinity) and not isinstance(value, bool):
        out: int | Infinity = value
    elif allow_inf:
        out = parse_int_or_inf(value, name, minimum)
    else:
        out = parse_count(value, name, minimum, maximum)
    if isinstance(out, int):
        check_integer(out, name, minimum, maximum)
    elif maximum is not None:
        raise DomainError(name, out, f"integers in [{minimum}, {maximum}]")
    return out


def rendered(result: Result, fmt: str, wrap: bool = True) -> str:
    """The text a command prints for ``result`` in ``fmt``; ``wrap``: text lines wrapped to the
    renderer's width (:data:`fltheory.render.text.WIDTH`), JSON and LaTeX as they are."""
    # each renderer module is imported only for its format (the LaTeX one compiles regular
    # expressions that a text query does not need at start-up)
    if fmt == "latex":
        from fltheory.render.latex import render_latex

        return render_latex(result)
    from fltheory.render.text import WIDTH, render_json, render_text

    return render_json(result) if fmt == "json" else render_text(result, WIDTH if wrap else None)


class LightOption:
    """One value option of a light command: ``--FLAG VALUE`` read by ``read(value, dest)`` into
    the keyword ``dest``, ``default`` when absent (``required``: no default)."""

    __slots__ = ("default", "dest", "flag", "read", "required")

    def __init__(self, flag: str, dest: str, read: Callable[[str, str], Any],
                 default: Any = None, required: bool = False) -> None:
        self.flag, self.dest, self.read = flag, dest, read
        self.default, self.required = default, required


class LightCommand:
    """The plain form of a command: its value options and ``call(**values)`` → Result. The
    ``--format`` option (text, json, latex; default text) is every light command's."""

    __slots__ = ("call", "options")

    def __init__(self, options: tuple[LightOption, ...], call: Callable[..., Result]) -> None:
        self.options = {o.flag: o for o in options}
        self.call = call

    def values(self, args: list[str]) -> tuple[dict[str, Any], str] | None:
        """(keyword values, format) of the command line after the command's name, or None when
        the light path does not take it whole."""
        given: dict[str, str] = {}
        i = 0
        while i < len(args):
            flag, eq, value = args[i].partition("=")
            if not eq:
                if i + 1 >= len(args) or args[i + 1].startswith("--"):
                    return None
                value = args[i + 1]
                i += 1
            i += 1
            if flag in given or (flag != "--format" and flag not in self.options):
                return None
            given[flag] = value
        fmt = given.pop("--format", "text")
        if fmt not in FORMATS:
            return None
        out: dict[str, Any] = {}
        for flag, option in self.options.items():
            if flag in given:
                try:
                    out[option.dest] = option.read(given[flag], option.dest)
                except DomainError:  # the click command says it, in the same words
                    return None
            elif option.required:
                return None
            else:
                out[option.dest] = option.default
        return out, fmt


def light_command(name: str) -> LightCommand | None:
    """The light form of the built-in command ``name``, if its paper declares one (found from
    the declaration of that one paper: :func:`fltheory.papers.command_homes`)."""
    from fltheory.papers import builtin_light, load

    target = builtin_light(name)
    command = load(target) if target is not None else None
    return command if isinstance(command, LightCommand) else None


def answer(argv: list[str], environ: Mapping[str, str] = os.environ) -> None:
    """Answer ``argv`` (the words after ``fltheory``) on the light path and exit, when it takes
    it whole; return (having done nothing) otherwise."""
    if not argv or argv[0].startswith("-") or "_FLTHEORY_COMPLETE" in environ:
        return
    command = light_command(argv[0])
    parsed = command.values(argv[1:]) if command is not None else None
    if command is None or parsed is None:
        return
    from fltheory.cli.exits import PipeClosed, exit_for, fail

    values, fmt = parsed
    try:
        text = rendered(command.call(**values), fmt)
        try:
            sys.stdout.write(text)
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        except BrokenPipeError as exc:
            raise PipeClosed() from exc
    except Exception as exc:
        exit_for(exc)
    except KeyboardInterrupt:
        fail("aborted", 130)
    sys.exit(0)
