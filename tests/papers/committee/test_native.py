"""The C extension of the committee ODE (fltheory/papers/committee/_native.c with the engine's
fltheory/engine/dop853.h): its erf right side and its Dormand–Prince loop are ports of the
plain-Python functions (_flat.erf_loops, engine.odes.dop853_loop), same operations in the same
order without fused multiply-adds, so they are held to those functions *bit for bit* (Python's
floats and math.asin are the same IEEE doubles and C library); the right side is also held to
the batched numpy averages (gaussian.py, an independent formulation: Saad–Solla's I3, I4 per
field quadruple) at generic states. The extension is built by ``pip install`` (setup.py); these
tests fail, not skip, when it is missing, so that a build that silently failed is seen."""

from __future__ import annotations

import numpy as np
import pytest

from fltheory.engine import odes
from fltheory.exact import DomainError
from fltheory.papers.committee import _compiled, _flat
from fltheory.papers.committee import ode as co
from fltheory.papers.committee.model import CommitteeModel, build_flat, rhs

CASES = [  # g, K, M, second layers, noise, weight decay, η, order
    ("erf_ss", 1, 1, None, 0, 0, "1/2", 2),
    ("erf_ss", 3, 2, [1, "1/2", "-3/10"], "3/10", "1/10", "7/10", 2),
    ("erf", 2, 3, None, 0, "1/20", "3/2", 2),  # erf(x): s² = 2
    ("erf_ss", 4, 4, None, "1/5", 0, "1/3", 1),  # order 1: no η² terms
]


def _state(K: int, M: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    W = np.random.default_rng(seed).standard_normal((K + M, K + M + 3))
    G = W @ W.T / (K + M + 3)
    return G[:K, :K], G[:K, K:], G[K:, K:]


def _model(g, K, M, a, noise, decay):
    return CommitteeModel(g, K, M, a=a, noise=noise, weight_decay=decay)


def test_the_extension_is_built():
    assert _compiled.native() is not None, "pip install did not build the C extension"


@pytest.mark.parametrize(("g", "K", "M", "a", "noise", "decay", "eta", "order"), CASES)
def test_c_right_side_is_the_python_loops_bit_for_bit(g, K, M, a, noise, decay, eta, order):
    m = _model(g, K, M, a, noise, decay)
    Q, R, T = _state(K, M)
    f = build_flat(m, eta, T, order)
    assert f.loops is _compiled.native_loops
    y = np.concatenate([Q.ravel(), R.ravel()])
    c = f(y)
    python = _flat.erf_loops(y, *f.args[:9], f.args[10])  # the plain function, not numba
    assert c.tobytes() == python.tobytes()
    # and the independent numpy averages (Saad–Solla per quadruple), to round-off
    dQ, dR = rhs(m, eta, order=order, engine="numpy")(Q, R, T)
    ref = np.concatenate([dQ.ravel(), dR.ravel()])
    assert np.abs(c - ref).max() <= 1e-13 * np.abs(ref).max()


def test_a_wrong_right_side_would_be_seen():
    """The bit-for-bit test compares values, not objects: a changed η moves them."""
    m = CommitteeModel("erf_ss", 2, 2)
    Q, R, T = _state(2, 2)
    y = np.concatenate([Q.ravel(), R.ravel()])
    assert build_flat(m, "1/2", T)(y).tobytes() != build_flat(m, "1/2", T * (1 + 2**-40))(
        y).tobytes()


def _both(args, y0, t, rtol=1e-10, atol=1e-12, max_steps=10**5, y_max=1e8):
    c = _compiled.native_dop853(args, y0, t, rtol, atol, max_steps, y_max, *odes.tableau())
    p = odes.dop853_loop(lambda y: _compiled.native_loops(y, *args), y0, t, rtol, atol,
                         max_steps, y_max, *odes.tableau())
    return c, p


@pytest.mark.parametrize(("g", "K", "M", "a", "noise", "decay", "eta", "order"), CASES[:3])
def test_c_integrator_is_the_python_loop_bit_for_bit(g, K, M, a, noise, decay, eta, order):
    m = _model(g, K, M, a, noise, decay)
    _, _, T = _state(K, M)
    f = build_flat(m, eta, T, order)
    y0 = np.concatenate([0.3 * np.eye(K).ravel(), 1e-3 * np.ones(K * M)])
    t = np.array([0.0, 0.5, 0.5, 3.0, 7.25, 20.0])  # a repeated time and uneven gaps
    (Yc, nc, sc, tc), (Yp, np_, sp, tp) = _both(tuple(f.args), y0, t)
    assert (nc, sc, tc) == (np_, sp, tp) == (nc, 0, 20.0)
    assert Yc.tobytes() == Yp.tobytes()


def test_c_integrator_rejects_steps_as_the_python_loop():
    """Through the plateau and its escape (η = 1/2, K = M = 2, to t = 300): 96 steps tried,
    14 of them rejected (counted by wrapping odes._next_step when this test was written), so
    the rejection branch and the step-size control are compared too."""
    f = build_flat(CommitteeModel("erf_ss", 2, 2), "1/2", np.eye(2))
    y0 = np.concatenate([0.3 * np.eye(2).ravel(), 1e-3 * np.arange(1, 5)])
    (Yc, nc, sc, tc), (Yp, np_, sp, tp) = _both(tuple(f.args), y0, np.array([0.0, 300.0]))
    assert (nc, sc, tc) == (np_, sp, tp) == (1 + 12 * 96, 0, 300.0)
    assert Yc.tobytes() == Yp.tobytes()


def test_c_integrator_statuses_are_the_python_loop_s():
    m = CommitteeModel("erf_ss", 2, 2)
    f = build_flat(m, "1/2", np.eye(2))
    y0 = np.concatenate([0.3 * np.eye(2).ravel(), 1e-3 * np.ones(4)])
    t = np.array([0.0, 50.0])
    (Yc, nc, sc, tc), (Yp, np_, sp, tp) = _both(tuple(f.args), y0, t, max_steps=3)
    assert (sc, nc, tc) == (sp, np_, tp) and sc == 1  # over max_steps
    assert np.isnan(Yc[1]).all() and Yc.tobytes() == Yp.tobytes()
    (Yc, nc, sc, tc), (Yp, np_, sp, tp) = _both(tuple(f.args), y0, t, y_max=0.35)
    assert (sc, nc, tc) == (sp, np_, tp) and sc == 3  # left the box max|y| <= 0.35
    assert 0.0 < tc < 50.0 and Yc.tobytes() == Yp.tobytes()


def test_ode_runs_in_c_and_agrees_with_scipy():
    m = CommitteeModel("erf_ss", 3, 2)
    Q0, R0 = 0.25 * np.eye(3), 1e-3 * np.arange(1, 7).reshape(3, 2)
    t = np.linspace(0, 40, 9)
    c = co.integrate(m, "1/2", Q0, R0, np.eye(2), t)
    s = co.integrate(m, "1/2", Q0, R0, np.eye(2), t, method="dop853")
    assert c.method == "dopri (C)" and s.method == "dop853 (scipy)"
    assert np.abs(c.eps_g - s.eps_g).max() < 1e-9


def test_without_the_extension_numba_or_scipy_runs(monkeypatch):
    m = CommitteeModel("erf_ss", 2, 2)
    Q0, R0, t = 0.25 * np.eye(2), 1e-3 * np.ones((2, 2)), np.linspace(0, 10, 3)
    c = co.integrate(m, "1/2", Q0, R0, np.eye(2), t)
    monkeypatch.setattr(_compiled, "native", lambda: None)
    other = co.integrate(m, "1/2", Q0, R0, np.eye(2), t)
    assert other.method in ("dopri (numba)", "dop853 (scipy)")
    if other.method == "dopri (numba)":  # numba compiles the same loops: the same numbers
        assert other.eps_g.tobytes() == c.eps_g.tobytes()
    monkeypatch.setattr(_compiled, "integrator", lambda: None)
    assert co.integrate(m, "1/2", Q0, R0, np.eye(2), t).method == "dop853 (scipy)"
    with pytest.raises(DomainError) as info:
        co.integrate(m, "1/2", Q0, R0, np.eye(2), t, method="dopri")
    assert info.value.param == "method"


def test_bad_buffers_are_refused_not_read():
    native = _compiled.native()
    T, a, w = np.eye(1), np.ones(1), np.array([-1.0, 1.0])
    with pytest.raises(TypeError, match="y: expected float64"):
        native.erf_rhs(np.zeros(2, dtype=np.float32), np.empty(2), 1, 1, T, a, w, 0.5, 0.0,
                       0.0, 2, 1.0)
    with pytest.raises(ValueError, match="out: expected 2 values"):
        native.erf_rhs(np.zeros(2), np.empty(3), 1, 1, T, a, w, 0.5, 0.0, 0.0, 2, 1.0)
    with pytest.raises(ValueError, match="w: expected 2 values"):
        native.erf_rhs(np.zeros(2), np.empty(2), 1, 1, T, a, np.ones(3), 0.5, 0.0, 0.0, 2, 1.0)
    with pytest.raises(ValueError, match="K, M"):
        native.erf_rhs(np.zeros(2), np.empty(2), 0, 1, T, a, w, 0.5, 0.0, 0.0, 2, 1.0)
    with pytest.raises((ValueError, BufferError)):  # read-only output
        out = np.empty(2)
        out.flags.writeable = False
        native.erf_rhs(np.zeros(2), out, 1, 1, T, a, w, 0.5, 0.0, 0.0, 2, 1.0)
    with pytest.raises(ValueError, match="the C right side serves erf only"):
        _compiled.native_loops(np.zeros(2), 1, 1, T, a, w, 0.5, 0.0, 0.0, 2, _flat.KIND_RELU,
                               1.0)
