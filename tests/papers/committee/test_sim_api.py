"""The public API of the committee-machine simulator (issue 16): every public function refuses bad
arguments with DomainError (never ZeroDivisionError, ValueError, TypeError, IndexError…), memory
is bounded before work, exact steps are read as the user typed them."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.exact import DomainError
from fltheory.papers.committee import sim

SETTINGS = settings(max_examples=40, deadline=None)

bad_counts = st.one_of(st.integers(max_value=0), st.floats(allow_nan=True), st.text(max_size=3),
                       st.none(), st.just(True), st.just([2]))
bad_steps = st.one_of(st.fractions(max_value=0), st.integers(max_value=0),
                      st.floats(max_value=0.0), st.just(math.nan), st.just(math.inf),
                      st.just("x"), st.none(), st.just(True), st.just(Fraction(10**400)),
                      st.just([0.1]))
bad_g = st.one_of(st.sampled_from(["exp(x)", "sin(x)", "x**20", "3", "x**-1", "lambda: 0",
                                   "x**0.5", "", "()", "1/x", "erf(x)", "relu(x)"]),
                  st.integers(), st.none(), st.floats())


def _refuses(f, *args, **kwargs):
    with pytest.raises(DomainError):
        f(*args, **kwargs)


@SETTINGS
@given(bad=bad_counts, which=st.sampled_from([0, 1, 2]))
def test_counts_refused(bad, which):
    args = [20, 2, 1]
    args[which] = bad
    _refuses(sim.cold_start, *args, 0)
    _refuses(sim.sgd_cost, *args, 1.0)


@SETTINGS
@given(eta=bad_steps)
def test_steps_refused(eta):
    W0, Ws = sim.cold_start(20, 2, 1, 0)
    _refuses(sim.sgd, W0, Ws, "erf_ss", eta, [0.0, 1.0], 0)


@SETTINGS
@given(g=bad_g)
def test_activations_refused(g):
    _refuses(sim.activation, g)


@pytest.mark.parametrize("seed", [-1, 1.5, "0", None, True])
def test_seeds_refused(seed):
    W0, Ws = sim.cold_start(20, 2, 1, 0)
    _refuses(sim.sgd, W0, Ws, "erf_ss", 0.1, [0.0, 1.0], seed)
    _refuses(sim.cold_start, 20, 2, 1, seed)
    _refuses(sim.start_from_overlaps, np.eye(2), np.zeros((2, 1)), np.eye(1), 20, seed)


def test_shapes_and_values_refused():
    W0, Ws = sim.cold_start(20, 2, 1, 0)
    _refuses(sim.sgd, W0, Ws[:, :10], "erf_ss", 0.1, [0.0, 1.0], 0)
    _refuses(sim.sgd, W0 * np.nan, Ws, "erf_ss", 0.1, [0.0, 1.0], 0)
    _refuses(sim.sgd, W0, Ws, "erf_ss", 0.1, [[0.0, 1.0]], 0)
    _refuses(sim.sgd, W0, Ws, "erf_ss", 0.1, [0.0, 1e12], 0)
    _refuses(sim.sgd, W0, Ws, "erf_ss", 0.1, "abc", 0)
    _refuses(sim.sgd, W0, Ws, "erf_ss", 0.1, [0.0, 1.0], 0, a_star=[1, 2])
    _refuses(sim.sgd, W0, Ws, "erf_ss", 0.1, [0.0, 1.0], 0, a=math.nan)
    _refuses(sim.sgd, W0, Ws, "erf_ss", 0.1, [0.0, 1.0], 0, n_test=10**9)
    _refuses(sim.sgd_replicas, [], "erf_ss", 0.1, [0.0, 1.0], [])
    _refuses(sim.sgd_replicas, [(W0, Ws)], "erf_ss", 0.1, [0.0, 1.0], [0, 1])
    _refuses(sim.sgd_replicas, [(W0, Ws), (W0[:1], Ws)], "erf_ss", 0.1, [0.0, 1.0], [0, 1])
    _refuses(sim.start_from_overlaps, [[1.0, 0.5], [0.4, 1.0]], np.zeros((2, 1)), [[1.0]], 20, 0)
    _refuses(sim.start_from_overlaps, np.eye(2), np.zeros((3, 1)), [[1.0]], 20, 0)
    _refuses(sim.start_from_overlaps, np.eye(2), np.zeros((2, 1)), [[-1.0]], 20, 0)
    _refuses(sim.start_from_overlaps, "Q", np.zeros((2, 1)), [[1.0]], 20, 0)
    _refuses(sim.cold_start, 10**30, 2, 1, 0)
    _refuses(sim.cold_start, 20, 2, 1, 0, q0=0)
    _refuses(sim.specialisation, np.zeros((2, 2)))
    _refuses(sim.crossing_time, [0.0, 1.0], [0.1], 0.5)
    _refuses(sim.crossing_time, [0.0, 1.0], [0.1, 0.2], 0.0)
    _refuses(sim.sgd_cost, 100, 2, 2, 1.0, engine="gpu")


def test_exact_step_is_the_typed_decimal():
    """η = Fraction(1, 10), "1/10", "0.1" and 0.1 are one step: the same run."""
    W0, Ws = sim.cold_start(30, 2, 1, 0)
    runs = [sim.sgd(W0, Ws, "erf_ss", eta, [0.0, 1.0], 0).Q for eta in
            (Fraction(1, 10), "1/10", "0.1", 0.1)]
    assert all(np.array_equal(runs[0], r) for r in runs[1:])
