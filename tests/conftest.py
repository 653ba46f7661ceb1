"""Shared fixtures: mpmath precision is reset around every test (never leaks between tests)."""

from __future__ import annotations

import pytest


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
