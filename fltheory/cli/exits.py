"""How a command's process ends (no click: the light path of :mod:`fltheory.cli.light` uses it
too, and the click path of :mod:`fltheory.cli.root`).

Input errors, and an answer the computation could not confirm
(:class:`fltheory.exact.Unconfirmed`), are one line on stderr and exit status 2; a closed pipe
141 (as a Unix filter killed by SIGPIPE); Ctrl-C 130; anything else an internal error, one line
and exit status 1, or its traceback with ``FLTHEORY_DEBUG=1``.
"""

from __future__ import annotations

import errno
import os
import sys

from fltheory.exact import DomainError, Unconfirmed

__all__ = ["PipeClosed", "exit_for", "fail"]


class PipeClosed(Exception):
    """stdout's reader went away (BrokenPipeError), carried past click's own handling."""


#: errors of writing stdout that are the machine's, not the program's (a full disk, /dev/full)
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})


def exit_for(exc: Exception) -> None:
    """End the process for an exception that left a command: input errors and unconfirmed
    answers one line and exit status 2, a closed pipe 141, anything else an internal error (1) —
    or its traceback with ``FLTHEORY_DEBUG=1``. click's own exceptions are recognised when click
    is loaded (a command that never imported it cannot have raised one)."""
    debug = os.environ.get("FLTHEORY_DEBUG", "") not in ("", "0")
    if isinstance(exc, DomainError | Unconfirmed):
        fail(str(exc), 2)
    click = sys.modules.get("click")
    if click is not None:
        if isinstance(exc, click.UsageError):
            fail(exc.format_message(), 2)
        if isinstance(exc, click.ClickException):
            fail(exc.format_message(), exc.exit_code)
        if isinstance(exc, click.exceptions.Abort):
            fail("aborted", 130)
        if isinstance(exc, click.exceptions.Exit):
            sys.exit(exc.exit_code)
    if isinstance(exc, PipeClosed | BrokenPipeError):
        _discard_stdout()
        sys.exit(141)
    if debug:
        raise exc
    if isinstance(exc, OSError) and exc.errno in _WRITE_ERRORS and not exc.filename:
        _discard_stdout()  # its unwritten buffer would fail again at exit
        fail(f"the output could not be written: {exc.strerror}", 2)
    if isinstance(exc, MemoryError):
        fail("the request is too large: it ran out of memory (MemoryError); ask for less", 2)
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        # Python refuses int <-> str beyond sys.get_int_max_str_digits() digits (4300); inputs
        # are limited to 1000 digits, so only a result grown from them gets here
        fail("the request is too large: a number in its answer has more than "
             f"{sys.get_int_max_str_digits()} digits, too many to print exactly", 2)
    _internal(exc)


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
    fail(f"{type(exc).__name__}: {message} (please report; FLTHEORY_DEBUG=1 shows the "
         "traceback)", 1, "internal error")


def fail(message: str, status: int, kind: str = "error") -> None:
    """One line ``fltheory: KIND: MESSAGE`` on stderr (the message on one line) and exit."""
    sys.stderr.write(f"fltheory: {kind}: " + " ".join(message.split()) + "\n")
    sys.stderr.flush()
    sys.exit(status)
