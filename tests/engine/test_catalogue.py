"""One activation catalogue and one expression grammar for every command (issue 24).

* The numpy face of every catalogue name (:mod:`fltheory.simkit.activations`, for the simulators)
  equals its sympy face (:data:`fltheory.engine.expressions.CATALOGUE`), value and derivative, at
  50 points: the reference is the sympy expression and its sympy derivative evaluated by mpmath
  at 30 digits, a computation independent of the numpy formulas.
* ``erf`` is erf(z) in both faces; ``erf_ss`` is Saad & Solla's erf(z/√2).
* Every command accepts ``x`` and ``z``; a mistyped name is one line, exit status 2, with the
  nearest name.
"""

from __future__ import annotations

import subprocess
import sys

import mpmath
import numpy as np
import pytest
import sympy as sp

from fltheory.engine.expressions import CATALOGUE, Z, parse_expression
from fltheory.simkit.activations import NUMPY_CATALOGUE

_POINTS = np.random.default_rng(24).normal(0.0, 2.0, 50)
_POINTS = _POINTS[np.abs(_POINTS) > 1e-3]  # off the kinks of relu/abs/sign


def test_both_faces_have_the_same_names():
    assert set(NUMPY_CATALOGUE) == set(CATALOGUE)


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_numpy_face_equals_sympy_face(name):
    expr = parse_expression(name)
    deriv = sp.diff(expr, Z).replace(sp.DiracDelta, lambda *_: sp.Integer(0))
    f = sp.lambdify(Z, expr, modules="mpmath")
    df = sp.lambdify(Z, deriv, modules="mpmath")
    face = NUMPY_CATALOGUE[name]
    g, dg = face.g(_POINTS), face.dg(_POINTS)
    with mpmath.workdps(30):
        for x, gx, dgx in zip(_POINTS, g, dg, strict=True):
            ref, dref = f(mpmath.mpf(float(x))), df(mpmath.mpf(float(x)))
            assert abs(gx - float(ref)) <= 1e-12 * (1 + abs(float(ref))), (name, x)
            assert abs(dgx - float(dref)) <= 1e-12 * (1 + abs(float(dref))), (name, x)


def test_erf_means_erf_z_and_erf_ss_is_saad_solla():
    # erf(1) = 0.8427007929497149 and erf(1/√2) = P(|z| < 1) = 0.6826894921370859 (tables)
    assert NUMPY_CATALOGUE["erf"].g(np.array(1.0)) == pytest.approx(0.8427007929497149, 1e-15)
    assert NUMPY_CATALOGUE["erf_ss"].g(np.array(1.0)) == pytest.approx(0.6826894921370859,
                                                                        1e-15)
    assert parse_expression("erf") == sp.erf(Z)
    assert sp.simplify(parse_expression("erf_ss") - sp.erf(Z / sp.sqrt(2))) == 0


def test_x_and_z_are_the_same_variable():
    assert parse_expression("x**3 - 3*x") == parse_expression("z**3 - 3*z")
    assert parse_expression("He3(x)") == parse_expression("He3")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize("args", [
    ["hermite", "{e}", "-K", "2"],
    ["exponent", "{e}", "--kmax", "2"],
    ["lambda", "--a1", ".4", "--a2", ".3", "--sigma", "{e}"],
    ["fisher", "--sigma", "{e}", "--d", "3", "--lmax", "2"],
    ["committee", "equations", "--g", "{e}", "--K", "1", "--M", "1"],
])
@pytest.mark.parametrize("var", ["x", "z"])
def test_every_command_accepts_x_and_z(args, var):
    expr = f"{var}**3 - 3*{var}"
    r = _cli(*[a.format(e=expr) for a in args])
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("args", [
    ["hermite", "rleu"],
    ["exponent", "rleu"],
    ["lambda", "--a1", ".4", "--a2", ".3", "--sigma", "rleu"],
    ["fisher", "--sigma", "rleu", "--d", "3"],
    ["committee", "ode", "--g", "rleu", "--eta", "1/2"],
])
def test_a_typo_gives_one_line_exit_2_and_the_nearest_name(args):
    r = _cli(*args)
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "unknown activation 'rleu'; did you mean relu?" in r.stderr
    assert "--help" in r.stderr
