"""fltheory.engine.threads: pieces of one sum shared among threads, their number read from
FLTHEORY_THREADS (checked) or the cores, capped inside ``limited``; and the command's one line
for a bad FLTHEORY_THREADS."""

from __future__ import annotations

import threading

import pytest
from click.testing import CliRunner

from fltheory.cli import cli
from fltheory.engine import threads
from fltheory.exact import DomainError


def test_every_piece_once_in_order(monkeypatch):
    monkeypatch.setenv("FLTHEORY_THREADS", "3")
    seen = []
    lock = threading.Lock()

    def f(x):
        with lock:
            seen.append(x)
        return x * x

    assert threads.run_pieces(f, list(range(50))) == [x * x for x in range(50)]
    assert sorted(seen) == list(range(50))


def test_the_pieces_run_at_once(monkeypatch):
    """Two pieces that each wait for the other finish only if two threads run them (the
    barrier times out, and the test fails, otherwise)."""
    monkeypatch.setenv("FLTHEORY_THREADS", "2")
    barrier = threading.Barrier(2, timeout=10)
    names = threads.run_pieces(lambda _: (barrier.wait(), threading.current_thread().name)[1],
                               [0, 1])
    assert len(set(names)) == 2


def test_one_thread_runs_in_the_caller(monkeypatch):
    monkeypatch.setenv("FLTHEORY_THREADS", "1")
    me = threading.current_thread().name
    assert threads.run_pieces(lambda _: threading.current_thread().name, [0, 1, 2]) == [me] * 3


def test_an_error_in_a_piece_is_raised_after_all_threads(monkeypatch):
    monkeypatch.setenv("FLTHEORY_THREADS", "2")

    def f(x):
        if x == 3:
            raise ZeroDivisionError("piece 3")
        return x

    with pytest.raises(ZeroDivisionError, match="piece 3"):
        threads.run_pieces(f, list(range(8)))


def test_each_thread_runs_in_the_callers_context(monkeypatch):
    """A context variable set by the caller (numpy's errstate is one) is seen by every piece,
    whichever thread runs it."""
    import contextvars

    monkeypatch.setenv("FLTHEORY_THREADS", "2")
    var: contextvars.ContextVar[str] = contextvars.ContextVar("probe", default="unset")
    var.set("caller")
    barrier = threading.Barrier(2, timeout=10)
    assert threads.run_pieces(lambda _: (barrier.wait(), var.get())[1], [0, 1]) == \
        ["caller", "caller"]


def test_thread_count(monkeypatch):
    monkeypatch.delenv("FLTHEORY_THREADS", raising=False)
    n = threads.thread_count()
    assert 1 <= n <= threads.MAX_THREADS
    monkeypatch.setenv("FLTHEORY_THREADS", "5")
    assert threads.thread_count() == 5
    with threads.limited(2):
        assert threads.thread_count() == 2
        with threads.limited(1):
            assert threads.thread_count() == 1
        assert threads.thread_count() == 2
    assert threads.thread_count() == 5
    for bad in ("0", "-1", "two", "1.5", "257", "²", "٣"):
        monkeypatch.setenv("FLTHEORY_THREADS", bad)
        with pytest.raises(DomainError, match="FLTHEORY_THREADS"):
            threads.thread_count()


def test_a_bad_thread_count_is_one_line_before_work(monkeypatch):
    monkeypatch.setenv("FLTHEORY_THREADS", "many")
    r = CliRunner().invoke(cli, ["glm", "--prior", "rademacher", "--channel", "square",
                                 "--noise", "1/10"])
    assert r.exit_code == 2, r.output
    assert r.stderr.strip().count("\n") == 0 and "FLTHEORY_THREADS" in r.stderr
    assert r.stdout == ""
