"""The ``fltheory`` command: parse, call one function, render.

Sub-commands live in their own modules and are imported only when invoked (or when ``--help``
lists them), so a light query such as ``fltheory lambda`` never imports sympy, numpy or scipy.
Every error caused by the input -- a malformed number, a parameter outside its domain, an
unknown option, a request too large for memory -- ends as one line on stderr and exit status 2,
never a traceback. Anything else is a bug: one line ``fltheory: internal error: ...`` and exit
status 1 (``FLTHEORY_DEBUG=1`` re-raises it with its traceback). Ctrl-C exits with 130; a reader
that stops reading (``fltheory hermite relu | head -1``) ends the command quietly with 141, as
a Unix filter killed by SIGPIPE does.
"""

from __future__ import annotations

import errno
import gc
import os
import sys
from typing import Any

import click

from fltheory import __version__
from fltheory.exact import DomainError

__all__ = ["CORE_COMMANDS", "cli", "commands", "main"]


def _untranslated(message: str) -> str:
    return message


# click asks gettext for a translation of every message it builds, the --help option's text of
# each command among them, at every start-up; gettext's first look-up imports locale and
# searches the file system (≈ 2 ms of a light query's start-up). click ships no translations
# and fltheory prints its messages in English, so the messages are used as they are.
for _module in (click.core, click.decorators):
    if getattr(getattr(_module, "_", None), "__module__", None) == "gettext":
        setattr(_module, "_", _untranslated)  # noqa: B010 (a name mypy cannot see)

#: the commands of the machinery itself, name -> "module:attribute"; the papers contribute
#: theirs (``Paper.commands``, :mod:`fltheory.papers`)
CORE_COMMANDS: dict[str, str] = {
    "cache": "fltheory.cli.sweep:cache_command",
    "plot": "fltheory.cli.plot:plot_command",
    "report": "fltheory.cli.report:report_command",
    "sweep": "fltheory.cli.sweep:sweep_command",
    "table": "fltheory.cli.table:table_command",
    "verify": "fltheory.cli.verify:verify_command",
}


def commands(every: bool = True) -> dict[str, str]:
    """Command name -> "module:attribute": the core commands and the papers' (``every=False``:
    the built-in papers only, which needs no scan of the installed distributions)."""
    from fltheory.papers import builtin_papers, contributions

    papers = None if every else builtin_papers()
    found = {**CORE_COMMANDS}
    for name, target in contributions("commands", papers).items():
        if name in found:
            raise RuntimeError(f"command {name!r} is declared by a paper and by the core")
        found[name] = target
    return found


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
            raise _PipeClosed() from exc

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            rv = super().main(args, prog_name or "fltheory", complete_var,
                              standalone_mode=False, **extra)
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        except Exception as exc:
            _exit_for(exc)
        except KeyboardInterrupt:
            _fail("aborted", 130)
        sys.exit(rv if isinstance(rv, int) else 0)


def _exit_for(exc: Exception) -> None:
    """End the process for an exception that left a command: input errors one line and exit
    status 2, a closed pipe 141, anything else an internal error (1) — or its traceback with
    ``FLTHEORY_DEBUG=1``."""
    debug = os.environ.get("FLTHEORY_DEBUG", "") not in ("", "0")
    if isinstance(exc, DomainError):
        _fail(str(exc), 2)
    if isinstance(exc, click.UsageError):
        _fail(exc.format_message(), 2)
    if isinstance(exc, click.ClickException):
        _fail(exc.format_message(), exc.exit_code)
    if isinstance(exc, click.exceptions.Abort):
        _fail("aborted", 130)
    if isinstance(exc, click.exceptions.Exit):
        sys.exit(exc.exit_code)
    if isinstance(exc, _PipeClosed | BrokenPipeError):
        _discard_stdout()
        sys.exit(141)
    if debug:
        raise exc
    if isinstance(exc, OSError) and exc.errno in _WRITE_ERRORS and not exc.filename:
        _discard_stdout()  # its unwritten buffer would fail again at exit
        _fail(f"the output could not be written: {exc.strerror}", 2)
    if isinstance(exc, MemoryError):
        _fail("the request is too large: it ran out of memory (MemoryError); ask for less", 2)
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        # Python refuses int <-> str beyond sys.get_int_max_str_digits() digits (4300); inputs
        # are limited to 1000 digits, so only a result grown from them gets here
        _fail("the request is too large: a number in its answer has more than "
              f"{sys.get_int_max_str_digits()} digits, too many to print exactly", 2)
    _internal(exc)


class _PipeClosed(Exception):
    """stdout's reader went away (BrokenPipeError), carried past click's own handling."""


#: errors of writing stdout that are the machine's, not the program's (a full disk, /dev/full)
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})


def _discard_stdout() -> None:
    # Nothing more can reach stdout; point it at /dev/null so that the interpreter's final
    # flush does not print "Exception ignored ... BrokenPipeError" (or ENOSPC).
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _internal(exc: BaseException) -> None:
    message = " ".join(str(exc).split())
    if len(message) > 300:
        message = message[:300] + "…"
    _fail(f"{type(exc).__name__}: {message} (please report; FLTHEORY_DEBUG=1 shows the "
          "traceback)", 1, "internal error")


def _fail(message: str, status: int, kind: str = "error") -> None:
    click.echo(f"fltheory: {kind}: " + " ".join(message.split()), err=True)
    sys.exit(status)


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


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    # What is imported by now (click, fltheory's light modules) lives as long as the process:
    # gc.freeze moves it out of the collector's sight, so that the first full collection,
    # which a light query's own allocations trigger, does not walk through every module's
    # objects (≈ 1 ms of `fltheory lambda`). Objects made later are collected as usual.
    gc.freeze()
    cli.main(args=argv, prog_name="fltheory")
