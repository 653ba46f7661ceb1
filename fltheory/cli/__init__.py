"""The ``fltheory`` command: parse, call one function, render.

Sub-commands live in their own modules and are imported only when invoked (or when ``--help``
lists them), so a light query such as ``fltheory lambda`` never imports sympy, numpy or scipy.
Every error caused by the input -- a malformed number, a parameter outside its domain, an
unknown option -- ends as one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from fltheory import __version__
from fltheory.exact import DomainError

__all__ = ["cli", "main"]

#: command name -> "module:attribute"
_COMMANDS: dict[str, str] = {
    "cache": "fltheory.cli.sweep:cache_command",
    "exponent": "fltheory.cli.hermite:exponent_command",
    "fisher": "fltheory.cli.fisher:fisher_command",
    "hermite": "fltheory.cli.hermite:hermite_command",
    "lambda": "fltheory.cli.twostep:lambda_command",
    "phase": "fltheory.cli.twostep:phase_command",
    "plot": "fltheory.cli.plot:plot_command",
    "quadratic": "fltheory.cli.quadratic:quadratic_group",
    "recovery": "fltheory.cli.recovery:recovery_group",
    "sweep": "fltheory.cli.sweep:sweep_command",
    "table": "fltheory.cli.table:table_command",
    "threshold": "fltheory.cli.recovery:threshold_command",
    "twostep": "fltheory.cli.twostep:twostep_group",
    "verify": "fltheory.cli.verify:verify_command",
}


class _LazyRoot(click.Group):
    """Root group: lazily loaded sub-commands and one-line errors with exit status 2."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        command = getattr(importlib.import_module(module), attr)
        assert isinstance(command, click.Command)
        return command

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            rv = super().main(args, prog_name or "fltheory", complete_var,
                              standalone_mode=False, **extra)
        except DomainError as exc:
            _fail(str(exc), 2)
        except click.UsageError as exc:
            _fail(exc.format_message(), 2)
        except click.ClickException as exc:
            _fail(exc.format_message(), exc.exit_code)
        except click.exceptions.Abort:
            _fail("aborted", 130)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        sys.exit(rv if isinstance(rv, int) else 0)


def _fail(message: str, status: int) -> None:
    click.echo("fltheory: error: " + " ".join(message.split()), err=True)
    sys.exit(status)


@click.group(cls=_LazyRoot, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="fltheory")
def cli() -> None:
    """fltheory -- query, render and verify the theory of feature learning in two-layer nets.

    Numbers on the command line are exact rationals (.4 is 2/5, 1e-3 is 1/1000, 1/3 is 1/3);
    floats enter only at evaluation, at --dps significant digits. Every query takes
    --format text|json|latex. Bad input: one line on stderr, exit status 2.
    """


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    cli.main(args=argv, prog_name="fltheory")
