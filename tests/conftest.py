"""Shared fixtures: mpmath precision is reset around every test (never leaks between tests)."""

from __future__ import annotations

import os

import pytest

#: under pytest-xdist (one worker per core) every worker, and every process it starts, uses one
#: BLAS/OpenMP thread: with the default (one per core) the workers' OpenBLAS threads spin
#: against each other and the suite ran about 3× slower than in one process
_ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def pytest_configure(config):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        for name in _ONE_THREAD:
            os.environ[name] = "1"
        from threadpoolctl import threadpool_limits

        config._fltheory_blas_limit = threadpool_limits(limits=1)  # kept for the session


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    import mpmath

    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps


@pytest.fixture
def invoke():
    """Run the CLI in-process like a user would; returns click's Result (exit_code, stdout,
    stderr)."""
    from click.testing import CliRunner

    from fltheory.cli import cli

    runner = CliRunner()

    def _invoke(*args: str):
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return _invoke


@pytest.fixture(autouse=True)
def _private_results_store(monkeypatch, tmp_path_factory):
    """fltheory verify keeps its runs in the results store: each test gets its own (never the
    user's ~/.cache, never another test's runs)."""
    monkeypatch.setenv("FLTHEORY_CACHE", str(tmp_path_factory.mktemp("store") / "runs.sqlite"))
