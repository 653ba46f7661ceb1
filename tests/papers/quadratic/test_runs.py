"""What the commands compute (fltheory.papers.quadratic.runs), taking the parameter objects whole:
the SGD-vs-ODE comparison and its domain, the loss curves and the escape panel of the figure, the
ODE run and the escape laws (their numbers are compared with the commands' byte for byte by
benchmarks/outputs.py; here: the pieces agree with the theory and the simulator called
directly, and the domain of a comparison is the runs', not the command's)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from fltheory.exact import CostError, DomainError
from fltheory.papers.quadratic import runs, sim
from fltheory.papers.quadratic import theory as th
from fltheory.papers.quadratic.params import Comparison, EscapeRequest, Model, ODEStart

ETA = Fraction(1, 10)


def test_comparison_is_the_simulator_and_the_theory_from_one_start():
    """compare_sgd_ode = sim.cold_start + sim.sgd against theory.integrate from the sampled
    overlaps, the very numbers (the trusted paths sgd_run and solve are the public ones')."""
    run = Comparison(200, ETA, 2, seed=1, n_test=100)
    c = runs.compare_sgd_ode(Model(4, 2), run)
    W0, W_star = sim.cold_start(200, 4, 2, 1)
    sgd = sim.sgd(W0, W_star, 0.1, run.grid(), 1, n_test=100)
    ode = runs.ode_from_sample(W0, W_star, 0.1, run.grid())
    assert np.array_equal(c.sgd_loss, sgd.test_loss) and np.array_equal(c.ode_loss, ode.loss)
    assert np.array_equal(c.ode_rho, ode.overlap_norm)
    assert np.array_equal(c.sgd_rho, np.linalg.norm(sgd.R, axis=(1, 2)))


def test_comparison_announces_its_steps_after_the_checks():
    told: list[str] = []
    runs.compare_sgd_ode(Model(4, 2), Comparison(100, ETA, 1, n_test=10), announce=told.append)
    assert told == ["SGD: 100 steps at N = 100 ..."]
    with pytest.raises(CostError):
        runs.compare_sgd_ode(Model(4, 2), Comparison(20000, ETA, 1000), announce=told.append)
    assert len(told) == 1  # refused before the announcement


@pytest.mark.parametrize(("model", "eta", "param", "needle"), [
    (Model(4, 2), Fraction(1, 3), "eta", "3/10"),
    (Model(4, 2, noise=Fraction(1, 10)), ETA, "noise", "no label noise"),
    (Model(4, 2, teacher="diag:3/2,1/2"), ETA, "teacher", "T = I"),
    (Model(4, 2, scaling="fixed"), ETA, "scaling", "mean-field"),
])
def test_comparison_domain_is_the_runs(model, eta, param, needle):
    with pytest.raises(DomainError, match=rf"^{param} = .*{needle}"):
        runs.check_comparison(model, Comparison(100, eta, 1))


def test_loss_curves_are_comparisons_at_four_records_per_unit_time():
    d = runs.loss_curves(Model(4, 2), ETA, (100, 200), t_max=2, seed=3, n_test=50)
    assert np.array_equal(d["t"], np.linspace(0, 2.0, 9)) and d["eta"] == ETA
    c = runs.compare_sgd_ode(Model(4, 2), Comparison(200, ETA, 2, 3, 50, records=9))
    assert np.array_equal(d["curves"][1]["sgd"], c.sgd_loss)
    assert d["plateau_loss"] == th.plateau(4, 2, ETA).loss
    with pytest.raises(DomainError, match=r"^N = "):
        runs.loss_curves(Model(4, 2), ETA, ())


def test_escape_panel_is_the_law_and_escape_pairs():
    d = runs.escape_vs_p((2, 4), 200, ETA, 2, seeds=2, samples=10)
    law = th.escape_time_law(4, 2, ETA, 200, samples=10, dt=0.25)
    assert d["law"][1] == (law.mean, law.se) and d["sgd"].shape == (2, 2)


def test_ode_run_and_escape_laws_take_the_objects_whole():
    r = runs.ode_run(Model(4, 2, scaling="fixed"), ODEStart(4 * ETA, t_max=20))
    assert r.eta == ETA and r.plateau is not None and r.plateau.q == th.plateau(4, 2, ETA).q
    laws = runs.escape_laws(Model(4, 2), EscapeRequest(ETA, [500, 1000], samples=10))
    assert [L.mean for L in laws] == [th.escape_time_law(4, 2, ETA, N, samples=10).mean
                                      for N in (500, 1000)]
    with pytest.raises(DomainError, match=r"^N = 2 .*\[8, "):
        runs.escape_laws(Model(4, 2), EscapeRequest(ETA, [2], samples=10))
