"""``fltheory table`` and ``fltheory plot``: one sub-command per table or figure, with the
view's parameters as options (:mod:`fltheory.render.params`).

Output path: ``-o FILE`` (``-o -``: stdout, tables only). Without ``-o``, a view run at its
defaults writes ``tables/NAME.tex`` (``figures/NAME.pdf``), the committed file; with any
parameter changed it writes ``tables/NAME-KEY=VALUE-....tex`` instead (the changed parameters
in signature order, ``/`` written ``_``, other characters outside ``[A-Za-z0-9.,=+-]`` as
``_``), so the committed file is never overwritten by a variant.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from fltheory.exact import DomainError

__all__ = ["ViewGroup", "variant_path"]

#: longest automatic file name; beyond it the command asks for -o
_MAX_NAME = 150


def variant_path(directory: str, name: str, changed: dict[str, str], suffix: str) -> Path:
    """The default output of view ``name`` with the ``changed`` parameters (option -> value as
    typed): ``DIRECTORY/NAME.SUFFIX`` at the defaults, else the parameters in the name.

    >>> variant_path("tables", "fisher", {}, ".tex")
    PosixPath('tables/fisher.tex')
    >>> variant_path("figures", "committee", {"g": "tanh", "K": "3", "eta": "1/2"}, ".pdf")
    PosixPath('figures/committee-g=tanh-K=3-eta=1_2.pdf')
    """
    stem = name + "".join(f"-{key}={re.sub(r'[^A-Za-z0-9.,=+-]', '_', value)}"
                          for key, value in changed.items())
    if len(stem) > _MAX_NAME:
        raise DomainError("output", "(automatic)", "-o FILE naming the output",
                          reason=f"would be a name of {len(stem)} characters for these "
                                 "parameters")
    return Path(directory) / f"{stem}{suffix}"


def _option_name(name: str) -> str:
    return "--" + name.replace("_", "-")


class _ViewValue(click.ParamType):
    """A view parameter's value, parsed exactly and checked (errors name the option)."""

    def __init__(self, name: str, param: Any):
        self.param_name, self.param = name, param
        self.name = param.allowed()

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        from fltheory.render.params import parse_param

        if not isinstance(value, str):
            return value
        return parse_param(self.param_name, self.param, value)


def _help(func: Callable[..., Any]) -> str:
    """The view's docstring up to its Parameters section (the options list them)."""
    import inspect

    doc = (inspect.getdoc(func) or "").split("\nParameters")[0].strip()
    return re.sub(r":\w+:`~?([^`]+)`", r"\1", doc).replace("``", "")


class ViewGroup(click.Group):
    """``fltheory table``/``fltheory plot``: ``--list`` and one lazily built sub-command per
    view; an unknown NAME is one line naming the known ones."""

    def __init__(self, *args: Any, kind: str, run: Callable[..., None], **kwargs: Any):
        kwargs["invoke_without_command"] = True  # --list, or a one-line error without NAME
        super().__init__(*args, **kwargs)
        self.kind, self.run = kind, run  # kind: "table" or "figure"

    def names(self) -> list[str]:
        from fltheory.papers import contributions

        return sorted(contributions(self.kind + "s"))

    def list_commands(self, ctx: click.Context) -> list[str]:
        return self.names()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.names():
            return None
        from fltheory.papers import contribution
        from fltheory.render.params import declared_params, format_value

        func = contribution(self.kind + "s", cmd_name)
        declared = declared_params(func)
        params: list[click.Parameter] = [click.Option(
            ["-o", "--output", "output"], type=str, default=None,
            help=self.output_help(cmd_name))]
        for name, (param, default) in declared.items():
            # the default as typed, parsed like a given value (so --help shows it as typed)
            params.append(click.Option(
                [_option_name(name), name], type=_ViewValue(name, param),
                default=None if default is None else format_value(default),
                show_default=default is not None, help=param.help))

        def callback(output: str | None, **values: Any) -> None:
            # the view receives the parameters that differ from its defaults, no others
            given = {k: v for k, v in values.items()
                     if v is not None and v != declared[k][1]}
            self.run(cmd_name, func, given, {k: format_value(v) for k, v in given.items()},
                     output)

        return click.Command(cmd_name, params=params, callback=callback, help=_help(func))

    def output_help(self, name: str) -> str:
        if self.kind == "table":
            return (f"Output file (default tables/{name}.tex at the default parameters, "
                    f"tables/{name}-KEY=VALUE….tex otherwise; '-' for stdout). A new path or a "
                    "regular file; directories are created.")
        return (f"Output file, .pdf/.png/.svg (default figures/{name}.pdf at the default "
                f"parameters, figures/{name}-KEY=VALUE….pdf otherwise). A new path or a regular "
                "file; directories are created.")

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else None
        if name is not None and not name.startswith("-") and name not in self.names():
            raise DomainError("NAME", name, "one of " + ", ".join(self.names()),
                              reason=f"is not a known {self.kind}")
        return super().resolve_command(ctx, args)


def group_callback(command: str, kind: str) -> Callable[..., None]:
    """The group's own callback: ``--list``, or the one-line errors of a missing NAME."""

    def callback(list_only: bool, fmt: str) -> None:
        from fltheory.cli.options import names_result

        ctx = click.get_current_context()
        group = ctx.command
        assert isinstance(group, ViewGroup)
        if list_only:
            names_result(command, group.names(), fmt)
            ctx.exit(0)
        if fmt != "text":
            raise DomainError("format", fmt, "text (json and latex format the --list)",
                              reason="applies to --list only")
        if ctx.invoked_subcommand is None:
            raise click.UsageError(f"Missing argument 'NAME' (fltheory {command} --list names "
                                   "them).")

    return callback


def report_progress(command: str, name: str) -> Callable[[str], None]:
    """The stderr reporter of a view's progress lines."""

    def report(message: str) -> None:
        click.echo(f"fltheory {command} {name}: {message}", err=True)
        sys.stderr.flush()

    return report
