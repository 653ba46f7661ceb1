"""Independent pieces of one numerical sum run on the machine's cores, in threads.

For work that releases the GIL (a C loop between ``Py_BEGIN_ALLOW_THREADS`` and
``Py_END_ALLOW_THREADS``, numpy's ufuncs and matrix products on large arrays). Each piece writes
only its own outputs, and a caller keeps its result independent of the number of threads in one
of two ways: its pieces are fixed without regard to that number (the smooth noisy channels'
blocks), or every output element is computed whole inside one piece, so that where the pieces
are cut changes no bit (the noisy square: each (ω, y) pair's sum). The callers' tests hold both
on 1, 2 and 3 threads. Each thread runs in a copy of the caller's context (contextvars: numpy's
errstate, :func:`limited`).

The threads live for one call only (no pool outlives it: a process forked later, e.g. by the
sweep runner, starts with one thread). ``FLTHEORY_THREADS`` sets their number (1: everything in
the calling thread); by default the cores this process may run on, at most :data:`MAX_THREADS`.
"""

from __future__ import annotations

import contextvars
import itertools
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from fltheory.exact import DomainError

__all__ = ["MAX_THREADS", "MAX_THREADS_ASKED", "limited", "run_pieces", "thread_count"]

T = TypeVar("T")
R = TypeVar("R")

#: the most threads one sum uses by default (the sums served here gain little past a few cores)
MAX_THREADS = 8

#: the most FLTHEORY_THREADS may ask for
MAX_THREADS_ASKED = 256

#: a cap set by :func:`limited` (None: none)
_CAP: ContextVar[int | None] = ContextVar("fltheory_threads_cap", default=None)


@contextmanager
def limited(n: int) -> Iterator[None]:
    """At most ``n`` threads a sum inside the block (the sweep runner's workers, one a core
    already, run with 1).

    >>> with limited(1):
    ...     thread_count()
    1
    """
    token = _CAP.set(n)
    try:
        yield
    finally:
        _CAP.reset(token)


def thread_count() -> int:
    """``FLTHEORY_THREADS`` when set (an integer from 1 to :data:`MAX_THREADS_ASKED`; anything
    else is a :class:`DomainError`), else the cores available to this process, at most
    :data:`MAX_THREADS`; never more than a :func:`limited` block allows.

    >>> 1 <= thread_count() <= MAX_THREADS_ASKED
    True
    """
    text = os.environ.get("FLTHEORY_THREADS", "").strip()
    if text:
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_THREADS_ASKED):
            raise DomainError("FLTHEORY_THREADS", repr(text),
                              f"an integer from 1 to {MAX_THREADS_ASKED}",
                              reason="is not a thread count")
        n = int(text)
    else:
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:          # not on Linux
            cores = os.cpu_count() or 1
        n = max(1, min(MAX_THREADS, cores))
    cap = _CAP.get()
    return n if cap is None else max(1, min(n, cap))


def run_pieces(fn: Callable[[T], R], pieces: Sequence[T]) -> list[R]:
    """``[fn(p) for p in pieces]``, the pieces shared among :func:`thread_count` threads (the
    calling thread is one of them; each takes the next piece not yet taken); the first
    exception raised by any piece is raised here, after every thread has finished.

    >>> run_pieces(lambda k: k * k, range(5))
    [0, 1, 4, 9, 16]
    """
    n = min(thread_count(), len(pieces))
    if n <= 1:
        return [fn(p) for p in pieces]
    out: list[R | None] = [None] * len(pieces)
    errors: list[BaseException] = []

    ticket = itertools.count()      # next() on it is atomic under the GIL

    def share() -> None:
        try:
            while not errors and (i := next(ticket)) < len(pieces):
                out[i] = fn(pieces[i])
        except BaseException as exc:    # re-raised in the calling thread
            errors.append(exc)

    threads = [threading.Thread(target=contextvars.copy_context().run, args=(share,),
                                name=f"fltheory-sum-{k}", daemon=True) for k in range(1, n)]
    for th in threads:
        th.start()
    share()
    for th in threads:
        th.join()
    if errors:
        raise errors[0]
    return out  # type: ignore[return-value]
