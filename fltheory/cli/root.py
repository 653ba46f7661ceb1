"""The click side of the ``fltheory`` command: the root group, whose sub-commands are loaded
lazily by name, and its one-line errors (:mod:`fltheory.cli.exits`). :func:`fltheory.cli.main`
comes here for everything the light path (:mod:`fltheory.cli.light`) does not answer."""

from __future__ import annotations

import sys
from typing import Any

import click

from fltheory import __version__
from fltheory.cli.exits import PipeClosed, exit_for, fail
from fltheory.cli.registry import CORE_COMMANDS, commands

__all__ = ["cli"]


def _untranslated(message: str) -> str:
    return message


# click asks gettext for a translation of every message it builds, the --help option's text of
# each command among them, at every start-up; gettext's first look-up imports locale and
# searches the file system (≈ 2 ms of a light query's start-up). click ships no translations
# and fltheory prints its messages in English, so the messages are used as they are.
for _module in (click.core, click.decorators):
    if getattr(getattr(_module, "_", None), "__module__", None) == "gettext":
        setattr(_module, "_", _untranslated)  # noqa: B010 (a name mypy cannot see)

class _LazyRoot(click.Group):
    """Root group: lazily loaded sub-commands and one-line errors with exit status 2."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(commands())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from fltheory.papers import builtin_command, load

        # a built-in name is found without scanning the installed distributions for plugins
        # (and without importing every paper's declaration: papers.command_homes)
        target = (CORE_COMMANDS.get(cmd_name) or builtin_command(cmd_name)
                  or commands().get(cmd_name))
        if target is None:
            return None
        command = load(target)
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:  # click would turn it into exit status 1
            raise PipeClosed() from exc

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            rv = super().main(args, prog_name or "fltheory", complete_var,
                              standalone_mode=False, **extra)
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        except Exception as exc:
            exit_for(exc)
        except KeyboardInterrupt:
            fail("aborted", 130)
        sys.exit(rv if isinstance(rv, int) else 0)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    # click.version_option would look up a gettext translation of its message when the module is
    # loaded (≈ 1 ms of locale and file-system look-ups on every start-up); this prints the same
    # line without it
    if value and not ctx.resilient_parsing:
        click.echo(f"fltheory, version {__version__}")
        ctx.exit()


@click.group(cls=_LazyRoot, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the version and exit.")
def cli() -> None:
    """fltheory -- query, render and verify the theory of feature learning in two-layer nets.

    Numbers on the command line are exact rationals (.4 is 2/5, 1e-3 is 1/1000, 1/3 is 1/3) of
    at most 1000 digits and magnitude in [1e-300, 1e300] (or 0); floats enter only at
    evaluation, at --dps significant digits. Every query takes --format text|json|latex; JSON
    is strict (no NaN), a number that would print as nan is an internal error instead.
    Bad input: one line on stderr, exit status 2; internal error: one line, exit status 1.
    """
