"""The public API of the quadratic-network paper (issue 14): every public theory and sim function
refuses bad arguments with DomainError (never ZeroDivisionError, ValueError, TypeError,
IndexError…), exact steps survive every path from the CLI to the theory, and the split theory
modules still answer under their old names. The command's runs (:mod:`runs`) take the
parameter objects, which refuse what the functions refuse."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.exact import DomainError, as_rational
from fltheory.papers.quadratic import runs, sim
from fltheory.papers.quadratic import theory as th
from fltheory.papers.quadratic.params import CurvatureRequest, EscapeRequest, Model, ODEStart

SETTINGS = settings(max_examples=50, deadline=None)

#: what a user might pass where a count (p, p*, N) belongs
bad_counts = st.one_of(st.integers(max_value=0), st.floats(allow_nan=True), st.text(max_size=3),
                       st.none(), st.just(True), st.just([2]))


def _not_number(text: str) -> bool:
    """Text that is not a number (text such as "1/10" is a number: read as on the command line)."""
    try:
        as_rational(text)
    except DomainError:
        return True
    return False


#: what a user might pass where a step η > 0 belongs
bad_steps = st.one_of(st.fractions(max_value=0), st.integers(max_value=0),
                      st.floats(max_value=0.0), st.just(math.nan), st.just(math.inf),
                      st.just(-math.inf), st.text(max_size=3).filter(_not_number), st.none(),
                      st.just(True), st.just(Fraction(10**400)), st.just([0.1]))


def _refuses(f, *args, **kwargs):
    with pytest.raises(DomainError):
        f(*args, **kwargs)


# --- theory ------------------------------------------------------------------------------------

@SETTINGS
@given(bad=bad_counts, which=st.sampled_from([0, 1]))
def test_plateau_refuses_bad_widths(bad, which):
    args = [4, 2]
    args[which] = bad
    _refuses(th.plateau, *args, Fraction(1, 10))
    _refuses(th.stability_bounds, *args)
    _refuses(th.manifold_dimension, *args)
    _refuses(th.hessian_plateau_counts, *args, 100)
    _refuses(th.hessian_solution_counts, *args, 100)
    _refuses(th.linear_rate, 0.5, *args, 0.1)


@SETTINGS
@given(eta=bad_steps)
def test_exact_step_functions_refuse_bad_steps(eta):
    # η = 0 is the plateau's own limit (q* = p/(p + 2)): allowed there
    zero = isinstance(eta, int | float | Fraction) and not isinstance(eta, bool) and eta == 0
    _refuses(th.plateau, 4, 2, -1 if zero else eta)
    _refuses(th.escape_time_law, 4, 2, eta, 1000, samples=2)
    _refuses(th.plateau_overlap_variance, 4, 2, eta, 1.0)
    _refuses(th.plateau_noise_integral, 4, 2, eta)
    _refuses(th.ode_jacobian_counts, 2, 1, eta)
    _refuses(th.mean_field_step, eta, 4)
    _refuses(lambda: runs.ode_run(Model(2, 2), ODEStart(eta, t_max=1)))
    _refuses(th.cold_start_drift, 4, 2, [eta], mc=10)


def test_plateau_refuses_a_step_above_its_bound():
    with pytest.raises(DomainError, match="3/10"):
        th.plateau(4, 2, Fraction(3, 10) + Fraction(1, 10**9))


@SETTINGS
@given(bad=bad_counts)
def test_hessian_counts_refuse_bad_N(bad):
    _refuses(th.hessian_plateau_counts, 2, 2, bad)
    _refuses(th.hessian_solution_counts, 2, 2, bad)
    _refuses(lambda: runs.curvature_counts(Model(2, 2), CurvatureRequest(bad)))


@SETTINGS
@given(eta=st.one_of(st.floats(max_value=0.0), st.just(math.nan), st.just(math.inf),
                     st.text(max_size=3).filter(_not_number), st.none()),
       t_grid=st.sampled_from([[], [1.0, 0.0], [[0.0, 1.0]], [0.0, math.nan], "ab"]))
def test_integrate_refuses_bad_arguments(eta, t_grid):
    Q0, R0, T = np.eye(2) / 4, np.full((2, 1), 1e-3), np.eye(1)
    _refuses(th.integrate, Q0, R0, T, eta, [0.0, 1.0])
    _refuses(th.integrate, Q0, R0, T, 0.1, t_grid)
    _refuses(th.integrate, np.eye(3), R0, T, 0.1, [0.0, 1.0])
    _refuses(th.integrate, Q0, R0, np.full((1, 1), math.nan), 0.1, [0.0, 1.0])


@SETTINGS
@given(q0=st.one_of(st.floats(max_value=0.0), st.floats(min_value=1001.0), st.just(math.nan),
                    st.text(max_size=2).filter(_not_number)),
       threshold=st.one_of(st.floats(max_value=1e-7), st.floats(min_value=1.0),
                           st.just(math.nan)),
       samples=st.one_of(st.integers(max_value=1), st.floats(), st.just("10")))
def test_escape_law_refuses_bad_arguments(q0, threshold, samples):
    _refuses(th.escape_time_law, 4, 2, Fraction(1, 10), 1000, q0=q0, samples=2)
    _refuses(th.escape_time_law, 4, 2, Fraction(1, 10), 1000, threshold=threshold, samples=2)
    _refuses(th.escape_time_law, 4, 2, Fraction(1, 10), 1000, samples=samples)
    _refuses(th.check_escape_request, 4, 2, Fraction(1, 10), [1000], q0=q0)
    _refuses(lambda: runs.escape_laws(Model(4, 2), EscapeRequest(Fraction(1, 10), [1000],
                                                                threshold=threshold, samples=2)))


@SETTINGS
@given(level=st.one_of(st.floats(max_value=0.0), st.just(math.nan), st.just("x")),
       shape=st.sampled_from([(0,), (3, 1), (2,)]))
def test_escape_rules_refuse_bad_arguments(level, shape):
    t = np.array([0.0, 1.0, 2.0])
    _refuses(th.crossing_time, t, np.array([0.1, 0.2, 0.8]), level)
    _refuses(sim.escape_time, t, np.array([[[0.1]], [[0.2]], [[0.8]]]), level)
    _refuses(th.crossing_time, t, np.zeros(shape))
    _refuses(sim.escape_time, t, np.zeros(shape))


def test_escape_rule_is_exact_for_exponential_growth():
    """Theory and simulator read escapes by one shared rule (simkit.observables). Reference,
    by hand: ‖ρ(t)‖_F = c·√2·e^t (a 2 × 1 ρ of equal entries c·e^t) reaches 1/2 at
    t* = ln(1/(2√2 c)), and ln-interpolation is exact for an exponential, on any grid."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        t = np.concatenate([[0.0], np.cumsum(rng.uniform(0.4, 1.0, 11))])  # t[-1] >= 4.4
        c = rng.uniform(0.01, 0.02)
        R = c * np.exp(t)[:, None, None] * np.ones((12, 2, 1))
        norms = np.linalg.norm(R, axis=(1, 2))
        t_star = math.log(1 / (2 * math.sqrt(2) * c))
        assert t[0] < t_star < t[-1]
        assert th.crossing_time(t, norms) == pytest.approx(t_star, rel=1e-12)
        assert sim.escape_time(t, R) == pytest.approx(t_star, rel=1e-12)
    assert math.isnan(th.crossing_time([0.0, 1.0], [0.1, 0.2]))
    assert math.isnan(sim.escape_time([0.0, 1.0], np.full((2, 1, 1), np.nan)))


@SETTINGS
@given(bad=st.one_of(st.integers(max_value=-1), st.floats(), st.text(max_size=2), st.none()))
def test_other_theory_arguments_are_checked(bad):
    _refuses(th.polar_factor, np.full((2, 2), math.nan))
    _refuses(th.polar_stack, np.zeros((1, 2, 2)))
    _refuses(th.cold_start_drift, 4, 2, [Fraction(1, 10)], mc=bad)
    _refuses(th.ode_jacobian_counts, 2, 1, Fraction(1, 10), seed=bad)
    _refuses(th.ode_jacobian_counts, 2, 1, Fraction(1, 10), at=bad)
    _refuses(th.wick_expectation, [0, 5], [[1, 0], [0, 1]])
    _refuses(lambda: runs.ode_run(Model(2, 2), ODEStart(Fraction(1, 10), seed=bad, t_max=1)))
    _refuses(th.mean_field_step, Fraction(1, 10), 4, scaling=bad)


# --- sim ---------------------------------------------------------------------------------------

@SETTINGS
@given(eta=st.one_of(st.floats(max_value=0.0), st.just(math.nan), st.just(math.inf),
                     st.text(max_size=2).filter(_not_number), st.none()),
       seed=st.one_of(st.integers(max_value=-1), st.floats(), st.text(max_size=2), st.none(),
                      st.just(True)))
def test_sgd_refuses_bad_arguments(eta, seed):
    W0, W_star = sim.cold_start(20, 2, 1, 0)
    _refuses(sim.sgd, W0, W_star, eta, [0.0, 1.0], 0)
    _refuses(sim.sgd, W0, W_star, 0.1, [0.0, 1.0], seed)
    _refuses(sim.sgd, W0, W_star[:, :10], 0.1, [0.0, 1.0], 0)
    _refuses(sim.sgd, W0, W_star, 0.1, [1.0, 0.0], 0)
    _refuses(sim.cold_start, 20, 2, 1, seed)
    _refuses(sim.plateau_point, 2, 1, 20, 0.5, seed)
    _refuses(sim.hessian_counts_at_solution, 2, 1, 6, seed)


@SETTINGS
@given(bad=bad_counts)
def test_sim_sizes_are_checked(bad):
    _refuses(sim.cold_start, bad, 2, 1, 0)
    _refuses(sim.cold_start, 20, bad, 1, 0)
    _refuses(sim.plateau_point, bad, 1, 20, 0.5, 0)
    _refuses(sim.hessian_counts_at_solution, 2, 1, bad, 0)
    _refuses(sim.sgd_cost, bad, 4, 2, 1.0)
    _refuses(sim.orthonormal_teacher, bad, 1, np.random.default_rng(0))


def test_sim_refuses_sizes_beyond_memory():
    _refuses(sim.cold_start, 10**30, 2, 1, 0)
    _refuses(sim.plateau_point, 2, 1, 10**30, 0.5, 0)
    _refuses(sim.hessian_counts_at_solution, 2, 1, 10**6, 0)


def test_sim_takes_a_seed_sequence_and_keys_its_parts_apart():
    from fltheory.simkit.seeding import child

    W0, W_star = sim.cold_start(50, 2, 1, child(3, 1))
    again = sim.cold_start(50, 2, 1, child(3, 1))
    assert np.array_equal(W0, again[0]) and np.array_equal(W_star, again[1])
    # the start and the teacher are independent draws (different keys of one seed)
    assert abs(float(np.corrcoef(W0[0], W_star[0])[0, 1])) < 0.5
    run = sim.sgd(W0, W_star, Fraction(1, 10), [0.0, 1.0], child(3, 1))
    assert run.R.shape == (2, 2, 1)


# --- exactness ---------------------------------------------------------------------------------

ETA = Fraction(123456789, 10**13)


def test_the_old_float_round_trip_changed_this_step():
    assert Fraction(float(ETA)).limit_denominator(10**12) == Fraction(5365622, 434615385955)


def test_an_exact_step_survives_every_theory_path():
    assert th.plateau(4, 2, ETA).eta == ETA
    assert th.mean_field_step(ETA, 4) == ETA
    assert th.mean_field_step(4 * ETA, 4, "fixed") == ETA
    assert runs.ode_run(Model(4, 2), ODEStart(ETA, t_max=1)).eta == ETA
    # at q = p/(p + 2) the rate is 2η(1 − q(1 + 2/p) + 2/p*) = 2η exactly
    assert th.linear_rate(Fraction(2, 3), 4, 2, ETA) == 2 * ETA


def test_an_exact_step_survives_the_cli(invoke):
    res = invoke("quadratic", "ode", "--p", "4", "--p-star", "2", "--eta", "0.0000123456789",
                 "--t-max", "1", "--format", "json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["inputs"]["eta"] == "123456789/10000000000000"
    assert data["details"]["q_star"] == str(th.plateau(4, 2, ETA).q_exact)
    res = invoke("quadratic", "ode", "--p", "4", "--p-star", "2", "--eta", "0.0000493827156",
                 "--scaling", "fixed", "--t-max", "1", "--format", "json")
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["details"]["q_star"] == str(th.plateau(4, 2, ETA).q_exact)


# --- the split keeps the old names ---------------------------------------------------------------

def test_every_name_is_still_importable_from_theory_quadratic():
    import importlib

    names = ["EscapeLaw", "ODEDivergence", "ODESolution", "PlateauResult",
             "check_escape_request", "check_ode_request", "crossing_time", "derive_elementwise",
             "escape_time_law", "hessian_plateau_counts", "hessian_solution_counts",
             "implicit_bias_drift", "integrate", "loss_matrix", "manifold_dimension",
             "ode_jacobian_counts", "plateau", "plateau_noise_moment", "plateau_overlap_variance",
             "polar_factor", "rhs_matrix", "stability_bounds", "wick_expectation",
             "plateau_noise_rate", "ode_cost", "escape_cost", "jacobian_cost",
             "ODE_SECONDS_LIMIT", "ESCAPE_SECONDS_LIMIT", "MEMORY_LIMIT_BYTES"]
    module = importlib.import_module("fltheory.papers.quadratic.theory")
    assert all(hasattr(module, n) for n in names)
    assert set(names) <= set(module.__all__)


# --- one reading of numbers, bounded work, DomainError never NaN (the review of issue 14) -------

NAN = float("nan")


def _refused(fn, *args, param: str | None = None, text: str | None = None, **kwargs) -> str:
    with pytest.raises(DomainError) as info:
        fn(*args, **kwargs)
    message = str(info.value)
    if param is not None:
        assert message.startswith(f"{param} = "), message
    if text is not None:
        assert text in message, message
    return message


def test_quadratic_takes_text_steps():
    assert th.plateau(4, 2, "1/10") == th.plateau(4, 2, Fraction(1, 10)) == th.plateau(4, 2, 0.1)
    assert th.linear_rate("2/3", 4, 2, "1/10") == Fraction(1, 5)


def test_sim_takes_text_where_it_takes_floats():
    W0, W_star = sim.cold_start(50, 2, 1, 0)
    a = sim.sgd(W0, W_star, 0.1, [0.0, 0.5], 0)
    b = sim.sgd(W0, W_star, "1/10", [0.0, 0.5], 0, sigma="0")
    assert np.array_equal(a.Q, b.Q) and np.array_equal(a.R, b.R)


def test_wick_bounded_before_work():
    assert th.wick_expectation([0] * 4, [[1]]) == 3
    message = _refused(th.wick_expectation, [0] * 40, [[1]], param="indices")
    assert "matchings" in message and "e+23" in message
    _refused(th.wick_expectation, [0] * 10**6, [[1]], param="indices")
    _refused(th.wick_expectation, [0.5, 0], [[1]], param="indices")


@pytest.mark.parametrize("call", [
    lambda: th.linear_rate("a", 4, 2, Fraction(1, 10)),
    lambda: th.linear_rate(NAN, 4, 2, Fraction(1, 10)),
    lambda: th.linear_rate(0.5, 4, 2, math.inf),
    lambda: th.plateau_noise_rate(0.5, 1, 1, NAN),
    lambda: th.plateau_noise_rate(0.5, 1, 1, 0.1, NAN),
    lambda: th.escape_cost(4, 2, NAN, 10),
    lambda: th.escape_cost(4, 2, 100, 0),
    lambda: th.escape_cost(4, 2, 100, 1.5),
    lambda: th.ode_cost(-1, 4, 2, 0.1, 10.0, 11),
    lambda: th.ode_cost(5, 4, 2, 0.1, 10.0, 11),
    lambda: th.ode_cost(2, 4, 2, NAN, 10.0, 11),
    lambda: th.crossing_time([0, 1], [-0.1, 0.2], 0.1),
    lambda: th.crossing_time([0, NAN], [0.1, 0.2], 0.1),
])
def test_listed_calls_refused(call):
    with pytest.raises(DomainError):
        call()


def test_k_zero_is_a_start_on_the_plateau():
    """ode_cost(k = 0) is the reduced ODE of a start with ρ(0) = 0 (integrate passes it)."""
    seconds, memory = th.ode_cost(0, 4, 2, 0.1, 10.0, 11)
    assert seconds > 0 and memory > 0


BAD_REALS = st.one_of(st.just(NAN), st.just(math.inf), st.just(-math.inf), st.text(max_size=3),
                      st.none(), st.booleans(), st.lists(st.integers(), max_size=2))


@settings(max_examples=50, deadline=None)
@given(BAD_REALS)
def test_bad_reals_refused(bad):
    for call in (lambda: th.linear_rate(bad, 4, 2, Fraction(1, 10)),
                 lambda: th.plateau_noise_rate(0.5, 1, 1, 0.1, bad),
                 lambda: th.escape_cost(4, 2, bad, 10),
                 lambda: th.plateau(4, 2, bad)):
        try:
            call()
        except DomainError:
            continue
        # text such as "1" or a list such as [] may be a valid number or array: then no NaN
        result = call()
        assert not (isinstance(result, float) and math.isnan(result))


@settings(max_examples=50, deadline=None)
@given(st.one_of(st.integers(max_value=-1), st.floats(allow_nan=True), st.text(max_size=3),
                 st.booleans()))
def test_bad_sample_counts_refused(bad):
    with pytest.raises(DomainError):
        th.escape_cost(4, 2, 100, bad)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=2, max_size=5))
def test_crossing_time_negative_or_infinite_norms(norms):
    t = list(range(len(norms)))
    if any(x < 0 or math.isinf(x) for x in norms):
        with pytest.raises(DomainError):
            th.crossing_time(t, norms, 0.5)
    else:
        th.crossing_time(t, norms, 0.5)


def test_messages():
    _refused(th.stability_text, 4, 2, noise=NAN, param="noise", text="noise >= 0")
    message = _refused(th.plateau, 4, 2, NAN, param="eta", text="eta >= 0")
    assert "steps > 0" not in message
    _refused(th.plateau, 4, 2, 1.5, param="eta")
    _refused(sim.sgd, *sim.cold_start(20, 2, 1, 0), NAN, [0.0], 0, param="eta",
             text="is not a finite number; allowed: eta > 0")
