"""The domains of the two-step paper: its parameter objects (fltheory.papers.twostep.params) read
every argument once and refuse a bad one with DomainError (the CLI's one-line message), never
another exception; every public function of the theory (phases, terms, sigma, learning) and of
the simulator refuses through them or through fltheory.args. Plus: the theory's σ expression and
the simulator's σ coefficients are the same function."""

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
from fltheory.papers.twostep.params import Simulation, StepPairs, TwoStepSetting

NAN = float("nan")

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


# --------------------------------------------------------------------------- Λ and the phase line


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


def test_messages_name_the_parameter_and_the_reason():
    assert str(_refused(th.term_exponent, Fraction(2, 5), Fraction(3, 10), 1.5)).startswith(
        "k = 1.5 is not an integer")
    assert str(_refused(th.lambda_count, Fraction(2, 5), Fraction(3, 10), L="3")).startswith(
        "L = '3' is not an integer")


BAD_REALS = st.one_of(st.just(NAN), st.just(math.inf), st.just(-math.inf), st.text(max_size=3),
                      st.none(), st.booleans(), st.lists(st.integers(), max_size=2))


@FEW
@given(BAD_REALS)
def test_bad_reals_refused(bad):
    try:
        th.lambda_count(bad, Fraction(3, 10))
    except DomainError:
        return
    # text such as "0" may be a valid number: then an integer count
    assert isinstance(th.lambda_count(bad, Fraction(3, 10)), int)


# --------------------------------------------------------------------------- the parameters


def test_setting_reads_each_field_once_and_is_frozen():
    s = TwoStepSetting(".4", "7/20", sigma="tanh", targets="He1", dps=20)
    assert (s.alpha1, s.alpha2, s.L, s.sigma, s.targets, s.batch, s.psi, s.dps) == (
        Fraction(2, 5), Fraction(7, 20), None, "tanh", ("He1",), "reused", Fraction(1), 20)
    assert TwoStepSetting(".4", sigma="relu", batch="fresh").psi == 2  # fresh halves
    assert TwoStepSetting(".4", sigma="relu", batch="fresh", psi="1/2").psi == Fraction(1, 2)
    assert TwoStepSetting(".4", L=3).L == 3 and TwoStepSetting(".4").L is INF
    assert TwoStepSetting(".4", sigma="z**3", L=INF).L is None  # ∞ with σ: σ's own degree
    with pytest.raises(AttributeError):
        s.alpha1 = Fraction(0)  # type: ignore[misc]
    assert s == s.replace(dps=20) and hash(s) == hash(s.replace(dps=20))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"targets": ["He1"]}, "target = He1 needs --sigma"),
    ({"batch": "fresh"}, "batch = fresh needs --sigma"),
    ({"L": None}, "L = None is not an integer"),
    ({"L": 0}, "L = 0 is outside the allowed range integers in [1, inf]"),
    ({"dps": 4}, "dps = 4 is outside the allowed range integers in [5, 100]"),
    ({"sigma": 3}, "sigma = 3 is not an expression"),
    ({"sigma": "tanh", "batch": "reuse"}, "batch = reuse is not one of the choices"),
    ({"sigma": "tanh", "psi": 0}, "psi = 0 is outside the allowed range psi > 0"),
    ({"sigma": "tanh", "targets": [1]}, "target = [1] is outside the allowed range"),
])
def test_setting_refuses(kwargs, message):
    assert str(_refused(TwoStepSetting, ".4", ".3", **kwargs)).startswith(message)


def test_simulation_defaults_are_the_papers_model():
    r = Simulation(30)
    assert (r.N, r.n, r.d, r.alpha1, r.alpha2, r.batch, r.noise, r.seed) == (
        30, 30, 30, Fraction(2, 5), Fraction(3, 10), "reused", 0, 0)
    assert Simulation(30, n=60, d=10, noise="1/10").noise == Fraction(1, 10)


def test_table_points_pair_up():
    assert StepPairs([Fraction(1, 10)], [Fraction(1, 5)]).points == (
        (Fraction(1, 10), Fraction(1, 5)),)
    assert str(_refused(StepPairs, [Fraction(1, 10)], [Fraction(1, 5), Fraction(1, 4)])) == (
        "alpha2 = 0.2,0.25 does not pair with alpha1; allowed: as many values as alpha1 (1)")
    _refused(StepPairs, [Fraction(1, 10)], [Fraction(1)])


def test_params_stay_light():
    """The parameters build no dataclass and import no numpy: ``fltheory lambda`` reads them."""
    import subprocess
    import sys

    code = ("import sys\nimport fltheory.papers.twostep.params as p\n"
            "p.TwoStepSetting('.4', '.3'); p.Simulation(10)\n"
            "print(sorted(m for m in ('numpy', 'sympy', 'dataclasses') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# --------------------------------------------------------------------------- terms and learning


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


# --------------------------------------------------------------------------- the simulator

_RUN = ("N", "n", "d", "alpha1", "alpha2", "batch", "noise", "seed")


def _sim(**kw):
    """A small simulation; the keywords of the run go to Simulation, the others to simulate."""
    run = {"N": 20, "alpha1": 0.4, "alpha2": 0.3} | {k: v for k, v in kw.items() if k in _RUN}
    args = {"sigma": sim.TWO_STEP_SIGMA, "targets": [sim.TARGETS["He1"]]} | {
        k: v for k, v in kw.items() if k not in _RUN}
    return sim.simulate(Simulation(**run), **args)


@FEW
@given(bad_size)
def test_simulate_refuses_bad_sizes(value):
    for name in ("N", "n", "d"):
        if value is None and name != "N":
            assert _sim(**{name: value}).W2.shape == (20, 20)  # n, d default to N
            continue
        _refused(_sim, **{name: value})
    _refused(lambda v: sim.model_run(Simulation(v)), value)
    _refused(lambda v: sim.spike_summary(Simulation(v)), value)
    _refused(lambda v: sim.singular_values(Simulation(v)), value)
    _refused(lambda v: sim.measure(Simulation(v, alpha1=GOOD, alpha2=GOOD)), value)


@FEW
@given(bad_alpha)
def test_simulate_refuses_bad_alphas(alpha):
    _refused(_sim, alpha1=alpha)
    _refused(_sim, alpha2=alpha)
    _refused(Simulation, 20, alpha1=alpha)
    _refused(Simulation, 20, alpha2=alpha)


@FEW
@given(bad_seed)
def test_simulate_refuses_bad_seeds(seed):
    _refused(_sim, seed=seed)
    _refused(Simulation, 10, seed=seed)


@FEW
@given(bad_batch)
def test_simulate_refuses_bad_batch(batch):
    _refused(_sim, batch=batch)
    _refused(Simulation, 20, batch=batch)


@FEW
@given(st.one_of(st.floats(allow_nan=True).filter(lambda x: not 0 <= x < math.inf),
                 st.sampled_from(["x", "-1/10", None, True])))
def test_simulate_refuses_bad_noise(noise):
    _refused(_sim, noise=noise)


def test_simulate_reads_text_noise_as_typed():
    """Text is read as on the command line (fltheory.args): "0" is 0."""
    assert np.array_equal(_sim(noise="0").W2, _sim(noise=0.0).W2)


def test_simulations_take_text_where_they_take_floats():
    x = sim.singular_values(Simulation(20, alpha1=0.4, alpha2=0.3))
    y = sim.singular_values(Simulation(20, alpha1="2/5", alpha2="3/10"))
    assert all(np.array_equal(x[k], y[k]) for k in ("W0", "W1", "W2"))


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
    run = Simulation(kwargs.pop("N", 20), alpha1=GOOD, alpha2=GOOD)
    assert str(_refused(sim.measure, run, **kwargs)).startswith(message)


def test_measure_is_the_commands_model():
    """``twostep simulate`` measures N = n = d: another shape is refused, not reinterpreted."""
    _refused(sim.measure, Simulation(20, n=40))


@FEW
@given(st.one_of(st.integers(max_value=-1), st.integers(min_value=10),
                 st.sampled_from([1.0, "1", None, True])))
def test_measurements_refuse_bad_counts(value):
    run = _small_run()
    _refused(sim.directions, Simulation(10), value)
    # the run has d = 20 inputs and 3 terms: 10..20 targets are allowed, k = 10 is not
    too_many = 21 if isinstance(value, int) and 0 <= value <= 20 else value
    _refused(sim.target_overlaps, run, too_many)
    _refused(run.spike_constant, value, np.ones(20))


@FEW
@given(st.one_of(st.floats(allow_nan=True).filter(lambda x: not 0 < x < math.inf),
                 st.sampled_from(["x", "0", "1/0", None, True])))
def test_count_outliers_refuses_bad_factor(factor):
    _refused(sim.count_outliers, _small_run(), factor)


def test_count_outliers_reads_text_as_typed():
    """The one reading of a real (fltheory.args.read_real): "1" is 1, "11/10" is 1.1."""
    run = _small_run()
    assert sim.count_outliers(run, "1") == sim.count_outliers(run, 1.0)
    assert sim.count_outliers(run, "11/10") == sim.count_outliers(run, 1.1)


@lru_cache(maxsize=1)
def _small_run() -> sim.TwoStepRun:
    return _sim()


def test_seed_sequences_are_accepted_and_keyed():
    """A SeedSequence is a seed; the run and the random direction draw from different keys."""
    from fltheory.simkit.seeding import child

    a = sim.spike_summary(Simulation(20, seed=child(0, 3)))
    b = sim.spike_summary(Simulation(20, seed=child(0, 3)))
    c = sim.spike_summary(Simulation(20, seed=child(0, 4)))
    assert np.array_equal(a.C, b.C) and not np.array_equal(a.C, c.C)


def test_sim_sizes_validated_at_the_api():
    with pytest.raises(DomainError, match="N = 100000"):
        sim.simulate(Simulation(10**5), sim.SIGMAS["He1"], [sim.TARGETS["He1"]])
    with pytest.raises(ValueError, match="seed = -1"):
        Simulation(20, seed=-1)


@pytest.mark.parametrize("call", [
    lambda: sim.top_right_singular_vector(np.ones(3)),
    lambda: sim.top_right_singular_vector(np.ones((1, 3))),
    lambda: sim.top_right_singular_vector("M"),
    lambda: sim.bounded_odd_tau3("a"),
    lambda: sim.hermite_sigma([]),
    lambda: sim.hermite_sigma([NAN]),
])
def test_listed_calls_refused(call):
    with pytest.raises(DomainError):
        call()


@pytest.mark.parametrize(("args", "param"), [
    (["twostep", "simulate", "--N", "6000"], "N"),
    (["twostep", "simulate", "--N", "1e9"], "N"),
    (["twostep", "simulate", "--N", "1e400"], "N"),
    (["twostep", "simulate", "--N", "3500"], "N"),
])
def test_twostep_simulate_refusals(invoke, args, param):
    """Exit 2, exactly one line on stderr, naming the parameter, no traceback."""
    r = invoke(*args)
    assert r.exit_code == 2, (r.exit_code, r.stderr)
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("fltheory: error: "), r.stderr
    assert f"{param} = " in r.stderr and "Traceback" not in r.stderr


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
