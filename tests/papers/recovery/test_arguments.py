"""The recovery paper's Python API validates its own arguments: every parameter object of
fltheory.papers.recovery.params and every public function of fltheory.papers.recovery.theory,
fltheory.papers.recovery.sim and fltheory.papers.recovery.runs, called with a bad argument
(negative, zero, huge, NaN/inf, a non-integer for an integer, a wrong type a user might pass),
raises DomainError (with the parameter's name) and never another exception; numbers are read as
typed (a float as the decimal it was typed as)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.exact import CostError, DomainError
from fltheory.papers.recovery import params, runs, sim
from fltheory.papers.recovery import theory as th

SETTINGS = settings(max_examples=50, deadline=None)

# --------------------------------------------------------------------------- strategies

#: values that are not integers, for integer parameters
NOT_INT = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                    st.fractions().filter(lambda f: f.denominator != 1),
                    st.just(True), st.just(None), st.just("3"), st.just([2]))
#: numbers <= 0, for positive parameters
NON_POSITIVE = st.one_of(st.integers(max_value=0), st.fractions(max_value=0),
                         st.floats(max_value=0, allow_nan=False))
#: values that are not finite numbers at all
NOT_NUMBER = st.one_of(st.just(math.nan), st.just(math.inf), st.just(-math.inf),
                       st.just(None), st.just("abc"), st.just(True), st.just(object()),
                       st.just([1, 2]))
BAD_POSITIVE = st.one_of(NON_POSITIVE, NOT_NUMBER)
BAD_COUNT = st.one_of(NOT_INT, st.integers(max_value=0))


def _refused(param: str | None, call, *args, **kwargs) -> None:
    with pytest.raises(DomainError) as info:
        call(*args, **kwargs)
    if param is not None:
        assert info.value.param == param, (info.value.param, str(info.value))


# --------------------------------------------------------------------------- counting


@SETTINGS
@given(d=BAD_COUNT, q=st.one_of(BAD_COUNT, st.integers(min_value=th.MAX_Q + 1)))
def test_feature_dimension_refuses(d, q):
    _refused("d", th.feature_dimension, d, 2)
    _refused("q", th.feature_dimension, 10, q)


def test_feature_dimension_refuses_huge_d():
    _refused("d", th.feature_dimension, 10**600, 4)


@SETTINGS
@given(bad=BAD_POSITIVE, k=BAD_COUNT)
def test_threshold_refuses(bad, k):
    one = Fraction(1)
    _refused("gamma", th.threshold, 10, 2, 1, bad)
    _refused("C", th.threshold, 10, 2, 1, one, bad)
    if bad is not None:  # None: no strength given, a_k = k^(−γ)
        _refused("strengths", th.threshold, 10, 2, 1, one, one, strength=bad)
    _refused("k", th.threshold, 10, 2, k, one)
    _refused("gamma", th.threshold_exact, 10, 2, 1, bad)
    _refused("C", th.threshold_exact, 10, 2, 1, one, bad)
    _refused("k", th.threshold_exact, 10, 2, k, one)
    _refused("gamma", th.power_strength, 2, bad)
    _refused("k", th.power_strength, k, one)


@SETTINGS
@given(dps=st.one_of(st.integers(max_value=4), st.integers(min_value=101), NOT_INT),
       dim=st.one_of(st.text(max_size=3).filter(lambda t: t not in ("D", "dq")),
                     st.just(None), st.just(2)))
def test_threshold_refuses_precision_and_dimension(dps, dim):
    _refused("dps", th.threshold, 10, 2, 1, Fraction(1), dps=dps)
    _refused("dps", th.power_strength, 2, Fraction(1), dps=dps)
    _refused("dim", th.threshold, 10, 2, 1, Fraction(1), dim=dim)
    _refused("dim", th.threshold_exact, 10, 2, 1, Fraction(1), dim=dim)


@SETTINGS
@given(bad=BAD_POSITIVE)
def test_recovered_and_continuum_counts_refuse(bad):
    n, g = Fraction(10**6), Fraction(1)
    for call in (th.recovered_count, th.continuum_count):
        _refused("n", call, bad, 100, 2, g)
        _refused("gamma", call, n, 100, 2, bad)
        _refused("C", call, n, 100, 2, g, bad)
        _refused("d", call, n, 0, 2, g)


@SETTINGS
@given(exponent=st.integers(min_value=10, max_value=10**4))
def test_recovered_count_tiny_gamma_is_a_domain_error(exponent):
    """γ tiny, down to far below double range (the float of γ is 0): refused with a
    DomainError naming gamma (n/(C·D) is small, the exponent 1/(2γ) makes k* astronomically
    long), never a ZeroDivisionError; a huge n at γ = 1/10 names n only when n/(C·D) alone has
    too many digits."""
    gamma = Fraction(1, 10**exponent)
    _refused("gamma", th.recovered_count, Fraction(10**6), 100, 2, gamma)
    _refused("n", th.recovered_count, Fraction(10**(1100 + exponent)), 100, 2, Fraction(1, 10))
    if exponent >= 320:
        assert th.recovered_count(Fraction(5050), 100, 2, gamma) == 1  # R = 1: only k = 1
        assert th.power_strength(2, gamma, dps=10) == 1  # 2^(−γ) = 1 to 10 digits


@SETTINGS
@given(ks=st.one_of(st.just([]), st.just("1..3"), st.just(3), st.lists(BAD_COUNT, min_size=1,
                                                                         max_size=3)),
       strengths=st.one_of(st.lists(NON_POSITIVE, min_size=1, max_size=3),
                           st.just("1,2"), st.just(2)))
def test_thresholds_refuse(ks, strengths):
    _refused("k", th.thresholds, 10, 2, ks, Fraction(1))
    _refused("strengths", th.thresholds, 10, 2, [1], Fraction(1), strengths=strengths)


def test_thresholds_refuse_too_many_rows_and_missing_strengths():
    _refused("k", th.thresholds, 10, 2, list(range(1, th.MAX_THRESHOLD_ROWS + 2)), Fraction(1))
    _refused("k", th.thresholds, 10, 2, [1, 2, 3], Fraction(1), strengths=[1, Fraction(1, 2)])


@SETTINGS
@given(bad=st.one_of(BAD_COUNT, st.integers(min_value=th.MAX_Q // 2 + 1, max_value=10**6)))
def test_depth_rows_refuse(bad):
    _refused(None, th.depth_rows, [10], [bad])
    _refused("d", th.depth_rows, [bad if bad is not None else 0], [2]) if not (
        isinstance(bad, int) and not isinstance(bad, bool) and bad >= 1) else None
    _refused("d", th.depth_rows, 10, [2])
    _refused("q", th.depth_rows, [10], "2")


# --------------------------------------------------------------------------- the model


@SETTINGS
@given(bad=BAD_POSITIVE, d1=st.one_of(BAD_COUNT, st.integers(min_value=th.MAX_D1 + 1)))
def test_power_law_refuses(bad, d1):
    _refused("gamma", th.RecoveryModel.power_law, 4, bad)
    _refused("d1", th.RecoveryModel.power_law, d1, Fraction(1))


@SETTINGS
@given(transform=st.one_of(st.text(max_size=5).filter(lambda t: t not in ("rank", "sign")),
                           st.just(None), st.just(["rank"]), st.just("identity")))
def test_model_refuses_transforms(transform):
    _refused("transform", th.RecoveryModel.power_law, 2, Fraction(1), transform)
    _refused("transform", th.RecoveryModel, [1.0, 0.5], transform)


@SETTINGS
@given(lam=st.one_of(st.just([]), st.just("1,2"), st.just(3.0), st.just([[1.0]]),
                     st.lists(st.one_of(st.floats(max_value=0), st.just(math.nan),
                                        st.just(math.inf)), min_size=1, max_size=3)))
def test_model_refuses_strengths(lam):
    _refused("strengths", th.RecoveryModel, lam)
    _refused("strengths", th.ruben_work, lam)
    _refused("w", th.ruben_terms, lam)


def test_model_refuses_huge_gamma_and_spread_before_work():
    _refused("gamma", th.RecoveryModel.power_law, 8, Fraction(10**400))
    _refused("gamma", th.RecoveryModel.power_law, 8, 1e300)
    _refused("strengths", th.RecoveryModel, [1.0, 1e-300])
    _refused("d1", th.RecoveryModel, [1.0] * (th.MAX_D1 + 1))


_MODEL = None


def _model() -> th.RecoveryModel:
    global _MODEL
    if _MODEL is None:
        _MODEL = th.RecoveryModel.power_law(2, Fraction(1))
    return _MODEL


@SETTINGS
@given(delta=st.one_of(BAD_POSITIVE, st.just(Fraction(10**400)), st.just(Fraction(1, 10**400))),
       i=st.one_of(NOT_INT, st.integers(max_value=-1), st.integers(min_value=2)),
       level=st.one_of(st.floats(max_value=0), st.floats(min_value=1), st.just(math.nan),
                       st.just("1/2"), st.just(None)))
def test_model_methods_refuse(delta, i, level):
    m = _model()
    _refused("delta", m.overlap, 0, delta)
    _refused("i", m.overlap, i, 10.0)
    _refused("delta", m.overlaps, [delta])
    _refused("delta", m.mse, [10.0, delta])
    _refused("delta", m.bbp_overlaps, [delta])
    _refused("deltas", m.overlaps, 10.0)
    _refused("i", m.crossing, i)
    _refused("level", m.crossing, 0, level)


# --------------------------------------------------------------------------- the law


@SETTINGS
@given(gamma=st.one_of(st.fractions(max_value=Fraction(1, 2)), NOT_NUMBER,
                       st.floats(max_value=0.5)),
       bad=BAD_POSITIVE,
       dps=st.one_of(st.integers(max_value=4), st.integers(min_value=101), NOT_INT))
def test_law_refuses(gamma, bad, dps):
    g = Fraction(3, 2)
    for call in (th.law_exponent,):
        _refused("gamma", call, gamma)
    _refused("gamma", th.law_prefactor, gamma, 1)
    _refused("gamma", th.law_a1_squared, gamma, 1.0)
    _refused("gamma", th.mse_law, gamma)
    _refused("a1_squared", th.law_prefactor, g, bad)
    _refused("a1_squared", th.mse_law, g, bad)
    _refused("C", th.law_a1_squared, g, bad)
    _refused("dps", th.mse_law, g, 1, dps)
    _refused("dps", th.law_prefactor, g, 1, dps)
    _refused("dps", th.law_a1_squared, g, 1.0, dps)


def test_law_value_refuses_bad_delta():
    law = th.mse_law(Fraction(1))
    for bad in (0, -1, math.nan, math.inf, None, "x"):
        _refused("delta", law.value, bad)


# --------------------------------------------------------------------------- at a sample size


@SETTINGS
@given(n=st.one_of(BAD_POSITIVE, st.just(Fraction(10**400)), st.just(Fraction(1, 10**400))),
       d1=st.one_of(BAD_COUNT, st.integers(min_value=th.MAX_D1 + 1)),
       gamma=BAD_POSITIVE)
def test_recovery_at_refuses(n, d1, gamma):
    g, n0 = Fraction(1), Fraction(10**6)
    _refused("n", th.recovery_at, 100, 2, g, n)
    _refused("d1", th.recovery_at, 100, 2, g, n0, d1)
    _refused("gamma", th.recovery_at, 100, 2, gamma, n0, 2)
    _refused("d", th.recovery_at, 0, 2, g, n0, 2)
    _refused("transform", th.recovery_at, 100, 2, g, n0, 2, "identity")


# --------------------------------------------------------------------------- the simulator


@SETTINGS
@given(count=BAD_COUNT, positive=BAD_POSITIVE)
def test_sim_run_refuses(count, positive):
    _refused("d", sim.run, count, 100, 0)
    _refused("n", sim.run, 5, count, 0)
    _refused("d1", sim.run, 5, 100, 0, d1=count)
    _refused("n_test", sim.run, 5, 100, 0, n_test=count)
    if count is not None:  # None: the default (n_fit = n, keep = d1)
        _refused("n_fit", sim.run, 5, 100, 0, n_fit=count)
        _refused("keep", sim.run, 5, 100, 0, keep=count)
    _refused("q", sim.run, 5, 100, 0, q=count)
    _refused("chunk", sim.run, 5, 100, 0, chunk=count)
    _refused("gamma", sim.run, 5, 100, 0, gamma=positive)
    _refused("lam", sim.run, 5, 100, 0, lam=[1.0, positive])


@SETTINGS
@given(seed=st.one_of(st.integers(max_value=-1), NOT_INT.filter(lambda v: v is not True)),
       choice=st.one_of(st.text(max_size=4), st.just(None), st.just(1)))
def test_sim_run_refuses_seed_and_choices(seed, choice):
    _refused("seed", sim.run, 5, 100, seed)
    if choice not in sim.FEATURES:
        _refused("features", sim.run, 5, 100, 0, features=choice)
    if choice not in sim.TRANSFORMS:
        _refused("transform", sim.run, 5, 100, 0, transform=choice)
        _refused("transform", sim.label_transform, np.ones(3), choice)
    if choice not in sim.LATENTS:
        _refused("latents", sim.run, 5, 100, 0, latents=choice)


def test_sim_refuses_sizes_and_arrays():
    _refused("d", sim.run, 10**4, 100, 0)
    _refused("d", sim.run, 10, 100, 0, n_test=10**12)
    _refused("d1", sim.run, 2, 100, 0, d1=4)
    _refused("q", sim.run, 5, 100, 0, features="hermite", q=3)
    _refused("sigma", sim.run, 5, 100, 0, sigma=-1.0)
    _refused("sigma", sim.run, 5, 100, 0, sigma=math.nan)
    _refused("y", sim.label_transform, np.array([1.0, math.nan]), "rank")
    _refused("y", sim.label_transform, np.ones((2, 2)), "rank")
    _refused("y", sim.label_transform, [], "rank")
    _refused("X", sim.hermite_features, np.ones(3))
    _refused("X", sim.hermite_features, np.array([[math.inf, 1.0]]))
    _refused("d1", sim.flat_latents, 3, 7, np.random.default_rng(0))
    _refused("rng", sim.flat_latents, 3, 2, 0)
    _refused("d", sim.feature_dim, 0, 2)
    _refused("q", sim.feature_dim, 5, 65)
    _refused("gamma", sim.strengths, 3, -1.0)
    _refused("d1", sim.strengths, 2.5, 1.0)


def test_sim_accepts_a_seed_sequence():
    from fltheory.simkit import seeding

    a = sim.run(5, 200, seeding.child(3, 1), d1=2, n_test=200)
    b = sim.run(5, 200, seeding.child(3, 1), d1=2, n_test=200)
    c = sim.run(5, 200, seeding.child(3, 2), d1=2, n_test=200)
    assert np.array_equal(a.overlaps, b.overlaps) and not np.array_equal(a.overlaps, c.overlaps)


# --------------------------------------------------------------------------- the runs


@SETTINGS
@given(count=BAD_COUNT, gamma=st.one_of(NON_POSITIVE, st.just(math.nan), st.just("abc")))
def test_compare_simulation_refuses(count, gamma):
    _refused("gamma", runs.compare_simulation, 10, 1000, gamma=gamma)
    _refused("d", runs.compare_simulation, count, 1000)
    _refused("n", runs.compare_simulation, 10, count)
    _refused("seeds", runs.compare_simulation, 10, 1000, seeds=count)
    _refused("q", runs.compare_simulation, 10, 1000, q=count)


def test_compare_simulation_bounds():
    _refused("d", runs.compare_simulation, 61, 1000)
    _refused("d", runs.compare_simulation, 25, 1000, q=3)
    _refused("n", runs.compare_simulation, 10, 3 * 10**6)
    _refused("q", runs.compare_simulation, 10, 1000, q=3, features="hermite")
    _refused("d1", runs.compare_simulation, 3, 1000, d1=7)
    _refused("seeds", runs.compare_simulation, 10, 1000, seeds=101)
    _refused("gamma", runs.compare_simulation, 10, 1000, gamma=Fraction(10**400))
    _refused("transform", runs.compare_simulation, 10, 1000, transform="log")


# --------------------------------------------------------------------------- bounds and messages


def test_recovery_api_validates():
    with pytest.raises(DomainError, match="C = -3"):
        th.threshold(10, 2, 1, Fraction(1), Fraction(-3))
    with pytest.raises(DomainError, match="C = -3"):
        th.threshold_exact(10, 2, 1, Fraction(1), Fraction(-3))
    with pytest.raises(DomainError, match="gamma = 0"):
        th.recovered_count(Fraction(10**6), 100, 2, Fraction(0))
    with pytest.raises(DomainError, match="n = 0"):
        th.recovered_count(Fraction(0), 100, 2, Fraction(1))
    with pytest.raises(DomainError, match="k = 0"):
        th.threshold(10, 2, 0, Fraction(1))
    with pytest.raises(DomainError, match="q = 65"):
        th.feature_dimension(10, 65)
    with pytest.raises(CostError, match="gamma = 5"):
        th.RecoveryModel.power_law(8, Fraction(5))
    with pytest.raises(CostError, match="strengths"):
        th.RecoveryModel([1.0, 1e-6])
    with pytest.raises(DomainError, match="d1 = 1"):
        th.RecoveryModel.power_law(1, 1.0).weak_constant()


def test_sim_sizes_validated_at_the_api():
    with pytest.raises(DomainError, match="d = 10000"):
        sim.run(10**4, 100, 0)
    with pytest.raises(DomainError, match="n = 1"):
        sim.run(10, 1, 0)


def test_reads_floats_as_typed():
    assert th.recovered_count(930, 30, 2, 0.1) == th.recovered_count(930, 30, 2, Fraction(1, 10))
    assert th.recovered_count(930, 30, 2, "1/10") == th.recovered_count(930, 30, 2,
                                                                        Fraction(1, 10))


@settings(max_examples=50, deadline=None)
@given(st.one_of(st.just(math.nan), st.just(math.inf), st.just(-math.inf), st.text(max_size=3),
                 st.none(), st.booleans(), st.lists(st.integers(), max_size=2)))
def test_bad_reals_refused(bad):
    try:
        th.recovered_count(930, 30, 2, bad)
    except DomainError:
        return
    # text such as "1" may be a valid number: then no NaN
    result = th.recovered_count(930, 30, 2, bad)
    assert not (isinstance(result, float) and math.isnan(result))


def test_messages():
    with pytest.raises(DomainError) as info:
        th.mse_law(Fraction(3, 2), 0)
    assert str(info.value).startswith("a1_squared = ")
    # γ = 1e-9 at d1 = 8: the scaling count is capped at d1, so it is answered
    assert th.recovery_at(30, 2, 1e-9, 10**6).recovered_scaling == 8
    with pytest.raises(DomainError) as info:
        th.recovered_count(1e300, 30, 2, Fraction(1, 10))
    message = str(info.value)
    assert "1e300" in message and len(message) < 250, message


# --------------------------------------------------------------------------- the parameters


def test_parameters_are_read_once_and_trusted():
    """The objects hold what was read (exact rationals, ints, choices); the API and the
    command refuse the same values, naming the same parameter."""
    q = params.ThresholdQuery(params.Features(100, 2), params.Strengths(0.5, 4), [1, 2], "1/2")
    assert (q.features.d, q.strengths.gamma, q.strengths.d1, q.ks, q.C) == (
        100, Fraction(1, 2), 4, (1, 2), Fraction(1, 2))
    _refused("k", params.ThresholdQuery, params.Features(10), params.Strengths(1, 3), [4])
    _refused("C", params.LawQuery, 1, 0)
    _refused("dim", params.Features, 10, 2, "d")
    _refused("transform", params.Model, 2, 1, "identity")
    _refused("d", params.Simulation, 61, 1000)
    _refused("q", params.Simulation, 10, 1000, q=3, features="hermite")
    s = params.Simulation(6, 2000, d1=2, gamma="3/2")
    assert s.gamma == Fraction(3, 2) and s.D == 21 and s.model == params.Model(2, "3/2")
    assert params.Simulation(6, 2000, transform="identity").model is None
