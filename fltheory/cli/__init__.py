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

import gc
import sys
from typing import Any

__all__ = ["CORE_COMMANDS", "cli", "commands", "main"]

from fltheory.cli.registry import CORE_COMMANDS, commands


def __getattr__(name: str) -> Any:
    # the click root group (:mod:`fltheory.cli.root`) is imported only when it is asked for: a
    # light query (:mod:`fltheory.cli.light`) answers without click
    if name == "cli":
        from fltheory.cli.root import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point: the light path when it takes the command line whole
    (:func:`fltheory.cli.light.answer`), else the click command."""
    from fltheory.cli.light import answer

    # What is imported by now lives as long as the process: gc.freeze moves it out of the
    # collector's sight, so that the first full collection, which a light query's own
    # allocations trigger, does not walk through every module's objects (≈ 1 ms of
    # `fltheory lambda`). Objects made later are collected as usual.
    gc.freeze()
    answer(sys.argv[1:] if argv is None else list(argv))  # exits when it answers
    from fltheory.cli.root import cli

    gc.freeze()  # click and the root group, as above
    cli.main(args=argv, prog_name="fltheory")
