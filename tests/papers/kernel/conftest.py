"""Fixtures of the kernel tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def taylor_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(J, working dps) of every Taylor series the engine computes during the test."""
    from fltheory.engine.kernels import series

    calls: list[tuple[int, int]] = []
    original = series.taylor

    def counted(f, J, dps, *args, **kw):  # type: ignore[no-untyped-def]
        calls.append((J, dps))
        return original(f, J, dps, *args, **kw)

    monkeypatch.setattr(series, "taylor", counted)
    return calls
