"""The public API of the two-step paper checks its own arguments: every public function of
fltheory.papers.twostep.phases, fltheory.papers.twostep.terms and fltheory.papers.twostep.sim
refuses a bad
argument with DomainError (the CLI's one-line message), never another exception. Plus: the
theory's σ expression and the simulator's σ coefficients are the same function."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.exact import INF, DomainError
from fltheory.papers.twostep import learning as tl
from fltheory.papers.twostep import phases as th
from fltheory.papers.twostep import sim
from fltheory.papers.twostep import terms as tt

FEW = settings(max_examples=50, deadline=None)
FEWER = settings(max_examples=15, deadline=None)

HALF = Fraction(1, 2)
GOOD = Fraction(1, 5)

#: α outside [0, 1/2) or not a number at all
bad_alpha = st.one_of(
    st.fractions().filter(lambda q: q < 0 or q >= HALF),
    st.floats(allow_nan=True, allow_infinity=True).filter(lambda x: not 0 <= x < 0.5),
    st.integers().filter(lambda n: n < 0 or n >= 1),
    st.sampled_from(["x", "", "1/0", "nan", "inf", "1/2", "-1", "1e400", None, True, [0.1],
                     complex(0.1, 0)]),
)
#: L: an integer >= 1 or INF
bad_L = st.one_of(st.integers(max_value=0), st.floats(allow_nan=True),
                  st.sampled_from(["3", None, True, Fraction(3, 2)]))
#: a count that must be an integer >= low
bad_rows = st.one_of(st.integers(max_value=-1), st.floats(allow_nan=True),
                     st.sampled_from(["4", True, Fraction(1, 2)]))
#: a seed: integer >= 0 or SeedSequence
bad_seed = st.one_of(st.integers(max_value=-1), st.floats(allow_nan=True),
                     st.sampled_from(["0", None, True, Fraction(1, 2)]))
#: a size: integer >= 1 (floats, huge, negative)
bad_size = st.one_of(st.integers(max_value=0), st.integers(min_value=10**8),
                     st.floats(allow_nan=True), st.sampled_from(["100", None, True]))
bad_batch = st.one_of(st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                              max_size=8).filter(lambda t: t not in ("reused", "fresh")),
                      st.sampled_from([None, 1, True]))
#: ψ > 0 / noise >= 0
bad_positive = st.one_of(st.fractions(max_value=0), st.floats(allow_nan=True).filter(
    lambda x: not 0 < x < math.inf), st.sampled_from(["x", None, True, "1/0"]))


def _refused(fn, *args, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as info:
        fn(*args, **kwargs)
    assert "\n" not in str(info.value)
    return info.value


@lru_cache(maxsize=1)
def _model() -> tt.TwoStepModel:
    return tt.batch_model(["He1", "He3"], "reused")


# --------------------------------------------------------------------------- theory.twostep


@FEW
@given(bad_alpha)
def test_lambda_refuses_bad_alphas(alpha):
    for fn in (lambda a: th.lambda_count(a, GOOD), lambda a: th.lambda_count(GOOD, a),
               lambda a: th.lambda_details(a, GOOD), lambda a: th.lambda_details(GOOD, a),
               th.phase_region_count, th.phase_line, th.check_alpha,
               lambda a: th.term_exponent(a, GOOD, 1), lambda a: th.term_exponent(GOOD, a, 1)):
        _refused(fn, alpha)


@FEW
@given(bad_L)
def test_lambda_refuses_bad_L(L):
    for fn in (th.lambda_count, th.lambda_details):
        _refused(fn, GOOD, GOOD, L)
    _refused(th.phase_region_count, GOOD, L)
    _refused(th.phase_line, GOOD, L)


@FEW
@given(bad_rows)
def test_row_limits_and_k_are_checked(value):
    _refused(th.lambda_details, GOOD, GOOD, INF, value)
    _refused(th.phase_line, GOOD, INF, value)
    _refused(th.term_exponent, GOOD, GOOD, value)


def test_messages_are_the_cli_messages():
    assert str(_refused(th.lambda_count, HALF, GOOD)) == \
        "a1 = 1/2 is outside the allowed range [0, 1/2)"
    assert str(_refused(th.lambda_details, GOOD, Fraction(-1))) == \
        "a2 = -1 is outside the allowed range [0, 1/2)"
    assert th.lambda_count("2/5", 0.25) == th.lambda_count(Fraction(2, 5), Fraction(1, 4))


def test_term_exponent_is_the_rule_of_lambda():
    """Λ counts exactly the terms k >= 1 with exponent >= 0 (capped at L − 1)."""
    for a1 in (Fraction(0), Fraction(1, 10), Fraction(2, 5), Fraction(9, 20)):
        for a2 in (Fraction(0), Fraction(1, 10), Fraction(3, 10), Fraction(49, 100)):
            count = sum(1 for k in range(1, 200) if th.term_exponent(a1, a2, k) >= 0)
            assert th.lambda_count(a1, a2) == count
            r = th.lambda_details(a1, a2)
            assert all(t.exponent == th.term_exponent(a1, a2, t.k) for t in r.exponents)


# --------------------------------------------------------------------------- twostep_terms


@FEWER
@given(bad_positive)
def test_model_refuses_bad_ratios(value):
    _refused(tt.TwoStepModel.build, th.TWO_STEP_SIGMA, ["He1"], psi1=value)
    _refused(tt.TwoStepModel.build, th.TWO_STEP_SIGMA, ["He1"], psi2=value)
    _refused(tl.learn, th.TWO_STEP_SIGMA, ["He1"], GOOD, GOOD, "reused", value)


@FEWER
@given(st.one_of(st.integers(max_value=4), st.integers(min_value=101),
                 st.sampled_from([30.0, "30", None, True])))
def test_model_refuses_bad_dps(dps):
    _refused(tt.TwoStepModel.build, th.TWO_STEP_SIGMA, ["He1"], dps=dps)


@pytest.mark.parametrize(("sigma", "targets"), [
    (None, ["He1"]), (3, ["He1"]), (th.TWO_STEP_SIGMA, [1]),
    (th.TWO_STEP_SIGMA, []), (th.TWO_STEP_SIGMA, None), ("tanh", ["He1"])])
def test_model_refuses_bad_functions(sigma, targets):
    _refused(tt.TwoStepModel.build, sigma, targets)


def test_model_reads_one_target_given_as_text():
    """A single target given as a string is one target (not its characters)."""
    one = tt.TwoStepModel.build(th.TWO_STEP_SIGMA, "He3")
    assert [str(g.expr) for g in one.targets] == [str(g.expr) for g in
                                                   tt.TwoStepModel.build(th.TWO_STEP_SIGMA,
                                                                         ["He3"]).targets]


def test_model_refuses_negative_noise():
    _refused(tt.TwoStepModel.build, th.TWO_STEP_SIGMA, ["He1"], noise=Fraction(-1))


@FEW
@given(st.one_of(st.integers(max_value=-1), st.integers(min_value=3),
                 st.sampled_from([1.0, "1", None, True])))
def test_term_prediction_refuses_bad_k(k):
    _refused(tt.term_prediction, _model(), k, 0, "reused")


@FEW
@given(st.one_of(st.integers(max_value=-1), st.integers(min_value=2),
                 st.sampled_from([0.0, "0", True])))
def test_term_prediction_refuses_bad_direction(direction):
    _refused(tt.term_prediction, _model(), 1, direction, "reused")


@FEW
@given(bad_batch)
def test_batch_is_checked_everywhere(batch):
    _refused(tt.term_prediction, _model(), 1, 0, batch)
    _refused(tt.learnability, _model(), GOOD, GOOD, batch)
    _refused(tt.batch_psi, batch)
    _refused(tt.batch_model, ["He1"], batch)


@FEW
@given(bad_alpha)
def test_terms_refuse_bad_alphas(alpha):
    _refused(tt.learnability, _model(), alpha, GOOD, "reused")
    _refused(tt.learnability, _model(), GOOD, alpha, "reused")
    _refused(tt.one_step_overlap, _model(), alpha, 1000)
    _refused(tl.learn, th.TWO_STEP_SIGMA, ["He1"], alpha, GOOD, "reused")


@FEW
@given(st.one_of(st.integers(max_value=0), st.floats(allow_nan=True),
                 st.sampled_from(["1000", None, True])),
       st.one_of(st.fractions().filter(lambda q: q <= 0 or q > 1),
                 st.floats(allow_nan=True).filter(lambda x: not 0 < x <= 1)))
def test_overlap_refuses_bad_sizes(N, c):
    _refused(tt.one_step_overlap, _model(), GOOD, N)
    _refused(tt.one_step_overlap, _model(), GOOD, 1000, c)


def test_model_argument_must_be_a_model():
    for fn in (lambda m: tt.term_prediction(m, 0, 0, "reused"),
               lambda m: tt.learnability(m, GOOD, GOOD, "reused"),
               lambda m: tt.one_step_overlap(m, GOOD, 1000)):
        _refused(fn, "model")


# --------------------------------------------------------------------------- sim.twostep


def _sim(**kw):
    args = {"N": 20, "n": 20, "d": 20, "alpha1": 0.4, "alpha2": 0.3,
            "sigma": sim.TWO_STEP_SIGMA, "targets": [sim.TARGETS["He1"]], "seed": 0}
    return sim.simulate(**(args | kw))


@FEW
@given(bad_size)
def test_simulate_refuses_bad_sizes(value):
    for name in ("N", "n", "d"):
        _refused(_sim, **{name: value})
    _refused(sim.model_run, value, "reused", 0)
    _refused(sim.spike_summary, value, "reused", 0)
    _refused(sim.singular_values, value)
    _refused(sim.measure, value, GOOD, GOOD)


@FEW
@given(bad_alpha)
def test_simulate_refuses_bad_alphas(alpha):
    _refused(_sim, alpha1=alpha)
    _refused(_sim, alpha2=alpha)
    _refused(sim.model_run, 20, "reused", 0, alpha)
    _refused(sim.measure, 20, alpha, GOOD)


@FEW
@given(bad_seed)
def test_simulate_refuses_bad_seeds(seed):
    _refused(_sim, seed=seed)
    _refused(sim.directions, 10, 2, seed)
    _refused(sim.measure, 20, GOOD, GOOD, seed=seed)


@FEW
@given(bad_batch)
def test_simulate_refuses_bad_batch(batch):
    _refused(_sim, batch=batch)
    _refused(sim.model_run, 20, batch, 0)
    _refused(sim.measure, 20, GOOD, GOOD, batch)


@FEW
@given(st.one_of(st.floats(allow_nan=True).filter(lambda x: not 0 <= x < math.inf),
                 st.sampled_from(["x", "-1/10", None, True])))
def test_simulate_refuses_bad_noise(noise):
    _refused(_sim, noise=noise)


def test_simulate_reads_text_noise_as_typed():
    """Text is read as on the command line (fltheory.exact.as_rational): "0" is 0."""
    assert np.array_equal(_sim(noise="0").W2, _sim(noise=0.0).W2)


@pytest.mark.parametrize("sigma", ["softsign", None, 3, [], [1.0], [[0.0, 1.0]],
                                   [0.0, float("nan")]])
def test_simulate_refuses_bad_sigma(sigma):
    _refused(_sim, sigma=sigma)


@pytest.mark.parametrize("targets", [None, [1], "He1", [sim.TARGETS["He1"]] * 21])
def test_simulate_refuses_bad_targets(targets):
    _refused(_sim, targets=targets)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"sigma": "softsign"}, "sigma = softsign is not a simulator activation"),
    ({"targets": ("x",)}, "target = x is not a simulator target"),
    ({"N": 12, "targets": ("He1",) * 12}, "target = 12 is outside the allowed range fewer than"),
    ({"N": 5}, "N = 5 is outside the allowed range integers in [10, inf]"),
    ({"N": 3500}, "N = 3500 would need about 6e+11 floating-point operations"),
])
def test_measure_messages_are_the_cli_messages(kwargs, message):
    args = {"N": 20, "alpha1": GOOD, "alpha2": GOOD} | kwargs
    assert str(_refused(sim.measure, **args)).startswith(message)


@FEW
@given(st.one_of(st.integers(max_value=-1), st.integers(min_value=10),
                 st.sampled_from([1.0, "1", None, True])))
def test_measurements_refuse_bad_counts(value):
    run = _small_run()
    _refused(sim.directions, 10, value, 0)
    # the run has d = 20 inputs and 3 terms: 10..20 targets are allowed, k = 10 is not
    too_many = 21 if isinstance(value, int) and 0 <= value <= 20 else value
    _refused(sim.target_overlaps, run, too_many)
    _refused(run.spike_constant, value, np.ones(20))


@FEW
@given(st.one_of(st.floats(allow_nan=True).filter(lambda x: not 0 < x < math.inf),
                 st.sampled_from(["1", None, True])))
def test_count_outliers_refuses_bad_factor(factor):
    _refused(sim.count_outliers, _small_run(), factor)


@lru_cache(maxsize=1)
def _small_run() -> sim.TwoStepRun:
    return _sim()


def test_seed_sequences_are_accepted_and_keyed():
    """A SeedSequence is a seed; the run and the random direction draw from different keys."""
    from fltheory.simkit.seeding import child

    a = sim.spike_summary(20, "reused", child(0, 3))
    b = sim.spike_summary(20, "reused", child(0, 3))
    c = sim.spike_summary(20, "reused", child(0, 4))
    assert np.array_equal(a.C, b.C) and not np.array_equal(a.C, c.C)


# --------------------------------------------------------------------------- one σ


def test_sigma_of_theory_and_simulator_agree():
    """The theory's expression TWO_STEP_SIGMA and the simulator's He-coefficients are the same
    polynomial (evaluated by sympy and by numpy at a few points)."""
    import sympy as sp

    from fltheory.engine.functions import Z, parse_function

    expr = parse_function(th.TWO_STEP_SIGMA, "sigma").expr
    xs = np.linspace(-3, 3, 13)
    theory = np.array([float(expr.subs(Z, sp.Float(x))) for x in xs])
    numpy = np.polynomial.hermite_e.hermeval(xs, sim.TWO_STEP_SIGMA)
    np.testing.assert_allclose(theory, numpy, rtol=1e-13, atol=1e-13)
    assert len(sim.TWO_STEP_SIGMA) - 1 == tt.TwoStepModel.build(th.TWO_STEP_SIGMA, ["He1"]).degree


def test_model_targets_are_known_to_both_sides():
    from fltheory.engine.functions import parse_function

    for name in sim.MODEL_TARGETS:
        assert name in sim.TARGETS
        parse_function(name, "target")
