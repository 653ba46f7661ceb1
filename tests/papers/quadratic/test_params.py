"""The quadratic paper's parameter objects (fltheory.papers.quadratic.params): each field read
once, at construction, by the readers of fltheory.args, with one error naming the parameter and
its range; the objects are then trusted (frozen, hashable, typed) — and the API refuses what the
command refuses."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.exact import DomainError
from fltheory.papers.quadratic import params as P


def _refused(make, param: str, *needles: str) -> str:
    with pytest.raises(DomainError) as info:
        make()
    message = str(info.value)
    assert message.startswith(f"{param} = ") and "\n" not in message, message
    for needle in needles:
        assert needle in message, message
    return message


def test_model_reads_each_field_once_into_its_type():
    m = P.Model(4, 2, noise="1/10", teacher="diag:3/2,1/2", scaling="fixed")
    assert (m.p, m.p_star, m.noise, m.teacher, m.scaling) == (
        4, 2, Fraction(1, 10), (Fraction(3, 2), Fraction(1, 2)), "fixed")
    assert m == P.Model(4, 2, Fraction(1, 10), [Fraction(3, 2), "1/2"], "fixed")
    assert hash(m) == hash(P.Model(4, 2, Fraction(1, 10), [Fraction(3, 2), "1/2"], "fixed"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.p = 5  # type: ignore[misc]
    # the identity teacher, however it is written
    assert P.Model(4, 2).teacher is None and P.Model(4, 2, teacher="identity").teacher is None
    assert P.Model(4, 2).taus == (1, 1) and P.Model(4, 2, teacher=[1, 1]).isotropic
    assert not m.isotropic and np.array_equal(m.T(), np.diag([1.5, 0.5]))


def test_model_normalisation():
    """a·η_w is η (mean field) or η/p (fixed); the coefficients are a = 1/p, b = 1/p*,
    η_w = p·(a·η_w) as floats, exactly as the integrator and the simulator compute them."""
    eta = Fraction(2, 5)
    assert P.Model(4, 2).step(eta) == eta and P.Model(4, 2, scaling="fixed").step(eta) == eta / 4
    c = P.Model(4, 2, noise=Fraction(1, 5), scaling="fixed").coefficients(eta)
    assert (c.a, c.b, c.eta_w, c.sigma) == (0.25, 0.5, 4 * float(eta / 4), 0.2)
    assert P.mean_field_step(eta, 4, "fixed") == Fraction(1, 10)


@pytest.mark.parametrize(("make", "param", "needles"), [
    (lambda: P.Model(0, 2), "p", ["[1, inf]"]),
    (lambda: P.Model(4, 2.0), "p_star", ["not an integer"]),
    (lambda: P.Model(4, 2, noise=-1), "noise", ["[0, 1000]"]),
    (lambda: P.Model(4, 2, noise="1e300"), "noise", ["[0, 1000]"]),
    (lambda: P.Model(4, 2, teacher="foo"), "teacher", ["identity or diag:"]),
    (lambda: P.Model(4, 2, teacher="diag:1"), "teacher", ["2 eigenvalues"]),
    (lambda: P.Model(4, 2, teacher="diag:1e400,1"), "teacher", []),
    (lambda: P.Model(4, 2, teacher="diag:1e300,1e-300"), "teacher", ["[1/1000, 1000]"]),
    (lambda: P.Model(4, 2, scaling="fixd"), "scaling", ["did you mean fixed?"]),
    (lambda: P.Coefficients(0.0, 0.5, 0.4), "a", ["a > 0"]),
    (lambda: P.Coefficients(0.25, -1, 0.4), "b", ["b >= 0"]),
    (lambda: P.Coefficients(0.25, 0.5, math.nan), "eta_w", ["not a finite number"]),
    (lambda: P.Coefficients(0.25, 0.5, 0.4, -0.1), "sigma", ["sigma >= 0"]),
    (lambda: P.Overlaps(np.eye(3), np.zeros((2, 1)), np.eye(1)), "Q0", ["shape (2, 2)"]),
    (lambda: P.Overlaps(np.eye(2), np.zeros((2, 1)), 1e7 * np.eye(1)), "T", ["1e+06"]),
    (lambda: P.Overlaps(np.eye(2), np.zeros(2), np.eye(1)), "R0", ["a matrix"]),
    (lambda: P.Integration([1.0, 0.0]), "t_grid", ["non-decreasing"]),
    (lambda: P.Integration([0.0, 1.0], method="euler"), "method", ["auto, dopri, lsoda"]),
    (lambda: P.Integration([0.0, 1.0], rtol=0), "rtol", ["rtol > 0"]),
    (lambda: P.ODEStart(0), "eta", ["eta > 0"]),
    (lambda: P.ODEStart("1/10", q0=0), "q0", ["(0, 1000]"]),
    (lambda: P.ODEStart("1/10", rho0="1e300"), "rho0", ["[0, 1000]"]),
    (lambda: P.ODEStart("1/10", t_max=10**6), "t_max", ["[1/100, 100000]"]),
    (lambda: P.ODEStart("1/10", seed=-1), "seed", []),
    (lambda: P.EscapeRequest("1/10", "250"), "N", ["non-empty sequence"]),
    (lambda: P.EscapeRequest("1/10", [0]), "N", ["[1, inf]"]),
    (lambda: P.EscapeRequest("1/10", [250], samples=1), "samples", ["[2, inf]"]),
    (lambda: P.EscapeRequest("1/10", [250], threshold=1), "threshold", ["[1e-06, 1)"]),
    (lambda: P.EscapeRequest("1/10", [250], q0=2000), "q0", ["(0, 1000]"]),
    (lambda: P.EscapeRequest("1/10", [250], dt=0), "dt", ["dt > 0"]),
    (lambda: P.Comparison(5, "1/10", 10), "N", ["[10, 20000]"]),
    (lambda: P.Comparison(100, "1/10", 0), "t_max", ["(0, 1000]"]),
    (lambda: P.Comparison(100, "1e-400", 1), "eta", []),
    (lambda: P.Comparison(100, "1/10", 1, records=1), "records", ["[2, inf]"]),
    (lambda: P.CurvatureRequest(0), "N", ["[1, inf]"]),
    (lambda: P.CurvatureRequest(10, -1), "eta", ["eta > 0"]),
])
def test_each_field_is_refused_naming_its_domain(make, param, needles):
    _refused(make, param, *needles)


def test_runs_hold_exact_steps_and_typed_values():
    start = P.ODEStart("0.0000123456789", q0="1/4", rho0=0, seed=3, t_max="50")
    assert start.eta == Fraction(123456789, 10**13) and start.rho0 == 0
    assert (start.q0, start.t_max, start.seed) == (Fraction(1, 4), Fraction(50), 3)
    r = P.EscapeRequest(Fraction(1, 10), (250, 1000), q0=Fraction(1, 4), threshold="1/2")
    assert (r.q0, r.threshold, r.Ns, r.dt) == (0.25, 0.5, (250, 1000), 0.125)
    assert type(r.q0) is float and type(r.eta) is Fraction
    c = P.Comparison(1000, 0.1, 60.0, records=241)
    assert c.eta == Fraction(1, 10) and c.t_max == 60
    assert np.array_equal(c.grid(), np.linspace(0, 60.0, 241))


def test_the_api_refuses_what_the_command_refuses(invoke):
    """The teacher's text, its range, q0's and t_max's ranges exist once, in the parameters: the
    command and the Python API refuse the same values with the same one-line message."""
    for args, make in [
        (["--teacher", "foo"], lambda: P.Model(4, 2, teacher="foo")),
        (["--teacher", "diag:2000,1"], lambda: P.Model(4, 2, teacher="diag:2000,1")),
        (["--q0", "2000"], lambda: P.ODEStart("1/10", q0=2000)),
        (["--t-max", "1/1000"], lambda: P.ODEStart("1/10", t_max="1/1000"))]:
        r = invoke("quadratic", "ode", "--p", "4", "--p-star", "2", "--eta", "1/10", *args)
        with pytest.raises(DomainError) as info:
            make()
        assert r.exit_code == 2 and str(info.value) in r.stderr, (args, r.stderr)
