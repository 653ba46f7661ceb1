"""A time limit for a block of sympy work, used by the Hermite engine and the
square-integrability check to bound sympy's ``integrate``, ``limit``, ``solveset`` and
``simplify``, which can run for minutes on an innocent-looking input.

The time is the process's CPU time (``ITIMER_PROF``, signal SIGPROF), not the wall clock: a
budget of 5 s is the same amount of sympy work on a quiet machine and on a loaded one, so the
same command gives the same answer (an exact coefficient on a loaded machine does not become a
numeric one because other processes took the processor), and a caller's own wall-clock alarm
(SIGALRM, e.g. a test timeout) is left alone.

The limit is a context manager, :func:`time_limit`; it raises :class:`Timeout` inside its block
when the time is up. It works only on the main thread (where CPython runs signal handlers) and
where ``signal.setitimer`` exists; elsewhere it yields False and limits nothing, so a caller that
needs a bound falls back to something that is bounded by construction (a numeric criterion).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Timeout", "time_limit"]


class Timeout(BaseException):
    """Raised by :func:`time_limit` when its time is up; a BaseException so that sympy's
    ``except Exception`` (inside ``integrate``, ``limit``, …) lets it pass."""


def _pending_signals() -> None:
    """A Python-level call: CPython runs pending signal handlers on entering it."""


def _unraisable(frame: Any) -> bool:
    """Whether the handler interrupted code whose exceptions CPython does not propagate: a
    garbage-collector callback (hypothesis installs one) or a finaliser (``__del__``)."""
    import gc

    code = getattr(frame, "f_code", None)
    return code is not None and (code.co_name == "__del__" or any(
        getattr(cb, "__code__", None) is code for cb in gc.callbacks))


@contextmanager
def time_limit(seconds: float) -> Iterator[bool]:
    """Yield True and raise :class:`Timeout` inside the block after ``seconds``; yield False
    (no limit) off the main thread, without ``setitimer``, or for ``seconds <= 0``.

    Parameters: ``seconds``, CPU seconds of this process (float).

    Safe by construction: the alarm is armed only from the main thread (where CPython runs
    signal handlers), the handler raises only while its own block is active, the timer is
    disarmed and any alarm already delivered is consumed (by a Python call, while the handler
    is still installed) before the previous handler is restored, and an enclosing timer
    (of an outer ``time_limit`` or of the caller) is shortened to nothing more than it had and
    re-armed with its remaining time on exit.

    >>> with time_limit(5) as limited:
    ...     limited
    True
    >>> try:
    ...     with time_limit(0.01):
    ...         while True:
    ...             pass
    ... except Timeout:
    ...     print("stopped")
    stopped
    """
    usable = (seconds > 0 and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield False
        return
    state = {"active": True}

    def _raise(signum: int, frame: Any) -> None:
        if state["active"]:
            if _unraisable(frame):  # an exception there is lost: try again in a millisecond
                signal.setitimer(signal.ITIMER_PROF, 1e-3)
                return
            state["active"] = False
            raise Timeout

    start = time.process_time()
    previous = signal.signal(signal.SIGPROF, _raise)
    outer, _ = signal.getitimer(signal.ITIMER_PROF)
    signal.setitimer(signal.ITIMER_PROF, min(seconds, outer) if outer > 0 else seconds)
    try:
        yield True
    finally:
        state["active"] = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        _pending_signals()
        signal.signal(signal.SIGPROF, previous)
        if outer > 0:
            signal.setitimer(signal.ITIMER_PROF,
                             max(outer - (time.process_time() - start), 1e-3))
