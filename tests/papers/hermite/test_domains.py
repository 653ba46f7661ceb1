"""The Hermite paper's parameters (fltheory.papers.hermite.params) read their fields once and
refuse a bad one with DomainError naming it; the engine keeps its own bounds (K <= 60, kmax <=
40, the budget) at its door, so a command refuses what it always refused, with the same line.
The simulator's functions refuse what they cannot use."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fltheory.exact import DomainError
from fltheory.papers.hermite import sim
from fltheory.papers.hermite.params import CatalogueTable, ExpansionQuery, ExponentQuery, Sample

NAN = float("nan")


def _refused(fn, *args, **kwargs) -> str:
    with pytest.raises(DomainError) as info:
        fn(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_queries_read_their_fields():
    q = ExpansionQuery("relu", K=12, basis="He", dps=20, budget="2")
    assert (q.expr, q.K, q.basis, q.dps, q.budget) == ("relu", 12, "He", 20, "2")
    assert ExponentQuery("He3", kmax=4).kmax == 4
    with pytest.raises(AttributeError):
        q.K = 3  # type: ignore[misc]


@pytest.mark.parametrize(("call", "start"), [
    (lambda: ExpansionQuery(3), "EXPR = 3 is not an expression"),
    (lambda: ExpansionQuery("relu", K=-1), "K = -1 is outside"),
    (lambda: ExpansionQuery("relu", K=2.0), "K = 2.0 is not an integer"),
    (lambda: ExpansionQuery("relu", basis="H"), "basis = H is not one of the choices"),
    (lambda: ExpansionQuery("relu", dps=4), "dps = 4 is outside"),
    (lambda: ExponentQuery("relu", kmax=0), "kmax = 0 is outside"),
    (lambda: CatalogueTable(("relu",), K=9, kmax=8), "K = 9 exceeds kmax"),
    (lambda: CatalogueTable((None,)), "functions = None is not an expression"),
    (lambda: Sample("relu2", 2, 100), "name = relu2 is not one of the choices"),
    (lambda: Sample("relu", 201, 100), "K = 201 is outside"),
    (lambda: Sample("relu", 2, 1), "n = 1 is outside"),
    (lambda: Sample("relu", 2, 100, seed=-1), "seed = -1 is outside"),
    (lambda: Sample("relu", 2, 100, chunk=0), "chunk = 0 is outside"),
])
def test_params_refuse(call, start):
    assert _refused(call).startswith(start)


@pytest.mark.parametrize(("args", "param", "bound"), [
    (["hermite", "relu", "-K", "61"], "K", "[0, 60]"),
    (["hermite", "relu", "--budget", "1e309"], "budget", "[0, 600]"),
    (["exponent", "relu", "--kmax", "41"], "kmax", "[1, 40]"),
])
def test_the_engine_keeps_its_bounds(invoke, args, param, bound):
    r = invoke(*args)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith(f"fltheory: error: {param} = ") and bound in r.stderr


def test_a_sample_is_its_parameters():
    """sample_coefficients reads its arguments into a Sample: the same draw either way."""
    a = sim.sample_coefficients("tanh", 3, 2000, 5)
    b = sim.sample(Sample("tanh", 3, 2000, seed=5))
    assert np.array_equal(a.mean, b.mean) and np.array_equal(a.stderr, b.stderr)


@pytest.mark.parametrize("call", [
    lambda: sim.hermite_orthonormal([NAN], 3),
    lambda: sim.hermite_orthonormal("z", 3),
    lambda: sim.hermite_orthonormal([0.0], math.inf),
])
def test_listed_calls_refused(call):
    with pytest.raises(DomainError):
        call()
