r"""One-pass SGD on a soft committee machine with any activation, numpy only.

Student f(x) = Σ_{k<K} a_k g(λ_k), λ_k = w_k·x/√N; teacher y = Σ_{m<M} a*_m g(ν_m) + σξ,
ν_m = w*_m·x/√N, x ~ N(0, I_N), ξ ~ N(0, 1). Online SGD on ½(f − y)², one fresh sample per
step:

.. math::

    w_k \leftarrow w_k + \frac{\eta}{\sqrt N}\, a_k (y - f)\, g'(\lambda_k)\, x
        - \frac{\eta\kappa}{N}\, w_k \qquad (\kappa\text{: weight decay, default } 0),

t = steps/N. Recorded at the times of a grid: the overlaps Q = WWᵀ/N (K × K), R = WW*ᵀ/N
(K × M), and optionally the generalisation error ε_g = ½ E(f − y_clean)² (against the noiseless
teacher) measured on a fixed set of fresh test inputs, with its standard error.

This module is the independent witness of the committee-machine theory: it imports no theory
and knows no Gaussian average. Its activations are its own numpy functions with analytic
derivatives (:func:`activation`): ``erf_ss`` is g(x) = erf(x/√2) (Saad–Solla's choice),
``erf`` is erf(x) (as in every command), ``relu``, ``tanh``,
``sigmoid``, ``linear``, ``quadratic``, ``cubic``, the Hermite polynomials ``He1``…``He8``,
polynomials written in x or z (``x**2``, ``z**3 - 3*z``), or an :class:`Activation` built from
any pair of numpy functions (g, g').

Seeds (:mod:`fltheory.simkit.seeding`): every function takes ``seed`` (an integer >= 0 or a numpy
SeedSequence) and draws each independent part from its own child, keyed by the constants below:
the training samples (``KEY_SAMPLES``), the test inputs (``KEY_TEST``), the teacher
(``KEY_TEACHER``), the initial student (``KEY_START``). :func:`cold_start` and :func:`sgd` may be
given the same seed; repetitions take ``seeding.children(seed, n)``.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from fltheory.args import check_memory, read_count, read_grid, read_matrix, read_real
from fltheory.exact import DomainError, did_you_mean
from fltheory.papers.committee.params import CommitteeModel, SGDSettings, read_layer
from fltheory.simkit.observables import crossing_time
from fltheory.simkit.teachers import orthonormal_teacher

if TYPE_CHECKING:
    from fltheory.simkit.seeding import SeedLike


# the seeding module builds numpy.random's SeedSequence (~10 ms of imports): imported on
# first use, so that a run from given overlaps (the ODE's) does not pay for it
def child(seed: SeedLike, *key: int) -> np.random.SeedSequence:
    """:func:`fltheory.simkit.seeding.child`."""
    from fltheory.simkit import seeding

    return seeding.child(seed, *key)


def sequence(seed: SeedLike) -> np.random.SeedSequence:
    """:func:`fltheory.simkit.seeding.sequence`."""
    from fltheory.simkit import seeding

    return seeding.sequence(seed)

__all__ = ["ACTIVATIONS", "KEY_SAMPLES", "KEY_START", "KEY_TEACHER", "KEY_TEST", "SWEEP_N_TEST",
           "SWEEP_RECORDS", "Activation", "CommitteeRun", "activation", "cold_start",
           "crossing_time", "held_out_error", "model_cold_start", "model_sgd", "sgd", "sgd_cost",
           "sgd_replicas", "sgd_task", "specialisation", "start_from_overlaps", "sweep_times"]

#: seeding keys (children of a run's seed) of the independent parts of a simulation
KEY_SAMPLES, KEY_TEST, KEY_TEACHER, KEY_START = 0, 1, 2, 3

#: most samples a block of the blocked SGD holds (its Gram matrix is chunk × chunk)
_MAX_CHUNK = 4096
#: largest polynomial degree :func:`activation` accepts
_MAX_DEGREE = 12
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_INV_SQRT2 = 1 / math.sqrt(2)


@dataclass(frozen=True)
class Activation:
    """An activation for the simulator: ``name``, ``g`` and its derivative ``dg`` (numpy
    functions of an array, elementwise). ``kind`` and ``coef`` let the compiled SGD loop
    evaluate the catalogue activations itself (kind 0 erf(x/√2) = erf_ss, 1 relu, 2 tanh, 3 sigmoid,
    4 the polynomial Σ coef[j] xʲ); kind −1 (an Activation built from any numpy pair) runs
    the numpy loop.

    >>> act = activation("relu")
    >>> act.g(np.array([-1.0, 2.0])).tolist(), act.dg(np.array([-1.0, 2.0])).tolist()
    ([0.0, 2.0], [0.0, 1.0])
    """

    name: str
    g: Callable[[np.ndarray], np.ndarray]
    dg: Callable[[np.ndarray], np.ndarray]
    kind: int = -1
    coef: tuple[float, ...] = ()


def _catalogue() -> dict[str, Activation]:
    """The named non-polynomial activations, from the numpy face of the one catalogue
    (:mod:`fltheory.simkit.activations`), with the kind the compiled loop evaluates."""
    from fltheory.simkit.activations import NUMPY_CATALOGUE as faces

    def of(name: str, face: str, kind: int) -> Activation:
        return Activation(name, faces[face].g, faces[face].dg, kind)

    # erf(x) has no kind of the compiled loop (its kind 0 is erf(x/√2)): the numpy loop runs it
    return {"erf": of("erf", "erf", -1), "erf_ss": of("erf_ss", "erf_ss", 0),
            "relu": of("relu", "relu", 1), "tanh": of("tanh", "tanh", 2),
            "sigmoid": of("sigmoid", "sigmoid", 3)}


#: the named non-polynomial activations (each with its analytic derivative); polynomials are
#: parsed by :func:`activation`. ``erf_ss`` is Saad–Solla's erf(x/√2) (the committee commands'
#: default), ``erf`` is erf(x): the same names, with the same meanings, as in every command.
ACTIVATIONS = ("erf_ss", "erf", "relu", "tanh", "sigmoid")
_CATALOGUE: dict[str, Activation] = {}


def _polynomial(text: str) -> np.polynomial.Polynomial:
    """A polynomial in x (or z) from text: numbers, x, z, +, −, *, / by a number, ** by an
    integer in [0, 12], Hermite names He1…He8 and the names linear/quadratic/cubic."""
    P = np.polynomial.Polynomial
    named = {"linear": P([0, 1]), "quadratic": P([0, 0, 1]), "cubic": P([0, 0, 0, 1])}
    for k in range(1, 9):
        named[f"He{k}"] = np.polynomial.hermite_e.HermiteE.basis(k).convert(kind=P)
    if text in named:
        return named[text]
    allowed = "a catalogue name (" + ", ".join([*ACTIVATIONS, *named]) + ") or a polynomial " \
        "in x or z (e.g. x**3 - 3*x; see fltheory committee ode --help)"
    if len(text) > 200:
        raise DomainError("g", text[:40] + "…", allowed, reason="is longer than 200 characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise DomainError("g", text, allowed, reason="is not a known activation") from None
    if isinstance(tree.body, ast.Name) and tree.body.id not in ("x", "z"):
        raise DomainError("g", text, allowed, reason="is an unknown activation "
                          f"{tree.body.id!r}{did_you_mean(tree.body.id, [*ACTIVATIONS, *named])}")

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) \
                and not isinstance(node.value, bool) and math.isfinite(node.value):
            return P([float(node.value)])
        if isinstance(node, ast.Name) and node.id in ("x", "z"):
            return P([0.0, 1.0])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            left, right = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
            if isinstance(node.op, ast.Div) and right.degree() == 0 and right.coef[0] != 0:
                return left / float(right.coef[0])
            if isinstance(node.op, ast.Pow) and right.degree() == 0:
                n = float(right.coef[0])
                if n == int(n) and 0 <= n <= _MAX_DEGREE:
                    return left ** int(n)
        raise DomainError("g", text, allowed, reason="is not a known activation")

    poly = ev(tree)
    if poly.degree() > _MAX_DEGREE:
        raise DomainError("g", text, f"polynomials of degree <= {_MAX_DEGREE}")
    return poly


def activation(g: str | Activation) -> Activation:
    """The simulator's activation for a name, a polynomial text, or an :class:`Activation`.

    ``erf_ss`` is erf(x/√2) (Saad–Solla), g' = √(2/π) e^(−x²/2); ``erf`` is erf(x), g' =
    (2/√π) e^(−x²); ``relu`` has g' = 1(x > 0);
    ``tanh``, ``sigmoid`` their analytic derivatives; a polynomial (text in x or z, or
    linear/quadratic/cubic/He1…He8) its exact derivative (numpy.polynomial). A g with g' ≡ 0
    (a constant) is refused: SGD would not move.

    >>> act = activation("x**3 - 3*x")
    >>> float(act.g(np.array(2.0))), float(act.dg(np.array(2.0)))
    (2.0, 9.0)
    >>> round(float(activation("erf_ss").g(np.array(1.0))), 6)  # erf(1/√2) = P(|z| < 1)
    0.682689
    >>> round(float(activation("erf").g(np.array(1.0))), 6)  # erf(1)
    0.842701
    """
    if isinstance(g, Activation):
        return g
    if not isinstance(g, str):
        raise DomainError("g", type(g).__name__, "an activation name, a polynomial in x or an "
                          "Activation")
    if g in ACTIVATIONS:
        if not _CATALOGUE:
            _CATALOGUE.update(_catalogue())
        return _CATALOGUE[g]
    poly = _polynomial(g)
    deriv = poly.deriv()
    if not np.any(deriv.coef != 0):
        raise DomainError("g", g, "a non-constant activation", reason="has g' ≡ 0")
    return Activation(g, lambda x: poly(np.asarray(x, dtype=float)),
                      lambda x: deriv(np.asarray(x, dtype=float)), 4,
                      tuple(float(v) for v in poly.coef))


def cold_start(N: int, K: int, M: int, seed: SeedLike, q0: float | Fraction | str = 0.25
               ) -> tuple[np.ndarray, np.ndarray]:
    """A cold random start: (W0, W*) with W0 ~ N(0, q0) i.i.d. (K × N: Q(0) ≈ q0 I, R(0) and
    the off-diagonal of Q(0) of order N^(−1/2)) and an orthonormal teacher W*W*ᵀ/N = I
    (M × N), drawn from the children ``KEY_START`` and ``KEY_TEACHER`` of ``seed``.

    >>> W0, W_star = cold_start(50, 2, 3, 0)
    >>> W0.shape, W_star.shape, bool(np.allclose(W_star @ W_star.T / 50, np.eye(3)))
    ((2, 50), (3, 50), True)
    """
    q0 = read_real(q0, "q0", low=0.0, open_low=True)
    K, M = read_count(K, "K", 1), read_count(M, "M", 1)
    N = read_count(N, "N", M)
    return _cold_start(N, K, M, seed, q0)


def _cold_start(N: int, K: int, M: int, seed: SeedLike, q0: float
                ) -> tuple[np.ndarray, np.ndarray]:
    check_memory("N", N, 8.0 * (K + 3 * M) * N)
    W_star = orthonormal_teacher(N, M, np.random.default_rng(child(seed, KEY_TEACHER)))
    W0 = math.sqrt(q0) * np.random.default_rng(child(seed, KEY_START)).standard_normal((K, N))
    return W0, W_star


def model_cold_start(model: CommitteeModel, run: SGDSettings) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cold_start` of the run's N, seed and q0 for the model's K and M (both read at
    their construction: nothing is read again).

    >>> W0, W_star = model_cold_start(CommitteeModel("erf_ss", 2, 1), SGDSettings(1, 50, 1))
    >>> W0.shape, W_star.shape
    ((2, 50), (1, 50))
    """
    if run.N < model.M:
        raise DomainError("N", run.N, f"N >= M = {model.M} (an orthonormal teacher)",
                          reason="is smaller than M")
    return _cold_start(run.N, model.K, model.M, run.seed, float(run.q0))


def start_from_overlaps(Q: Any, R: Any, T: Any, N: int, seed: SeedLike
                        ) -> tuple[np.ndarray, np.ndarray]:
    """(W0, W*) with exactly the given overlaps WWᵀ/N = Q (K × K), WW*ᵀ/N = R (K × M),
    W*W*ᵀ/N = T (M × M): the rows are a factor L (LLᵀ = [[T, Rᵀ], [R, Q]], by eigenvalues)
    applied to a random orthonormal (K + M)-frame of R^N (child ``KEY_START`` of ``seed``).

    Refused (DomainError): T not symmetric positive semi-definite (``T``), Q not symmetric or
    the joint matrix [[Q, R], [Rᵀ, T]] not PSD (``Q``: not a Gram matrix consistent with R and
    T), N < K + M. PSD up to 1e-10 relative to the largest eigenvalue.

    >>> W, Ws = start_from_overlaps([[0.5, 0.1], [0.1, 0.5]], [[0.2], [0.0]], [[1.0]], 20, 0)
    >>> bool(np.allclose(W @ W.T / 20, [[0.5, 0.1], [0.1, 0.5]])), \
bool(np.allclose(W @ Ws.T / 20, [[0.2], [0.0]]))
    (True, True)
    """
    Qa, Ta = read_matrix(Q, "Q"), read_matrix(T, "T")
    for name, S in (("Q", Qa), ("T", Ta)):
        if S.shape[0] != S.shape[1]:
            raise DomainError(name, f"an array of shape {S.shape}", "a square matrix")
    K, M = Qa.shape[0], Ta.shape[0]
    Ra = read_matrix(R, "R", (K, M))
    N = read_count(N, "N", K + M)
    check_memory("N", N, 8.0 * 3 * (K + M) * N)
    for name, S in (("T", Ta), ("Q", Qa)):
        if not np.allclose(S, S.T, rtol=0, atol=1e-12 * max(1.0, np.abs(S).max())):
            raise DomainError(name, S.tolist(), "a symmetric matrix")
    joint = np.block([[Ta, Ra.T], [Ra, Qa]])
    for name, S in (("T", Ta), ("Q", joint)):
        w = np.linalg.eigvalsh(S)
        if w.min() < -1e-10 * max(1.0, abs(w).max()):
            what = ("positive semi-definite" if name == "T" else
                    "a Gram matrix consistent with R and T ([[Q, R], [Rᵀ, T]] positive "
                    "semi-definite)")
            raise DomainError(name, f"a matrix with eigenvalue {w.min():.3g}", what)
    w, V = np.linalg.eigh(joint)
    L = V * np.sqrt(np.clip(w, 0.0, None))
    frame, _ = np.linalg.qr(np.random.default_rng(child(seed, KEY_START))
                            .standard_normal((N, K + M)))
    rows = (L @ frame.T) * math.sqrt(N)
    return rows[M:], rows[:M]


@dataclass
class CommitteeRun:
    """A one-pass SGD run of :func:`sgd`: record times ``t``; overlaps ``Q`` (n × K × K) and
    ``R`` (n × K × M) at the records; the teacher overlap ``T``; final weights ``W`` and the
    teacher ``W_star``; the second layers ``a``, ``a_star``; with ``n_test`` > 0 the test
    estimate of ε_g = ½E(f − y_clean)² at each record (``eps_g``) and its standard error
    (``eps_g_se``, the spread of ½(f − y)² over the test inputs / √n_test); the divergence time
    (None if SGD stayed bounded: records after it are NaN)."""

    t: np.ndarray
    Q: np.ndarray
    R: np.ndarray
    T: np.ndarray
    W: np.ndarray
    W_star: np.ndarray
    a: np.ndarray
    a_star: np.ndarray
    eps_g: np.ndarray | None = None
    eps_g_se: np.ndarray | None = None
    diverged_at: float | None = None


def _floats(layer: tuple[Fraction, ...]) -> np.ndarray:
    return np.array([float(v) for v in layer])


def _numba_available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def sgd_cost(N: int, K: int, M: int, t_max: float, n_test: int = 0, records: int = 21,
             replicas: int = 1, engine: str = "auto") -> float:
    """Estimated seconds of :func:`sgd_replicas` (``replicas`` runs; :func:`sgd` is one) with
    ``engine`` (``auto``: numba when installed), for t_max·N steps of each replica:

    * numba, per replica-step: 1e-6 + N(1.4e-8 + 1.4e-9 K + 3e-10 M) s (the N normals of the
      sample, the field and update loops, the teacher's labels);
    * numpy, per step: 1.5e-5 + replicas·(5e-6 + N(1.8e-8 + 6e-10 (K + M))) s (the Python
      overhead of a step is shared by the replicas);

    plus, with n_test > 0, replicas·n_test·N·(1.2e-8 + (2 + 0.3 K)·1e-9·records) s for the test
    inputs and ε_g at each record. Fitted on this machine (2 cores shared by several jobs, one
    BLAS thread) to runs of N = 500…4000, K, M = 2…20, 1 and 4 replicas. Measured at N = 1000
    (g = erf, median of 3 runs of 10⁴ steps): numba 17.8 µs/step at K = M = 2 and 27.9 at
    K = 10, M = 5 (estimates 18.4, 30.5); numpy 39.2 and 49.1 (estimates 40.4, 47).

    >>> round(sgd_cost(1000, 2, 2, 10.0, engine="numba"), 3)
    0.184
    >>> round(sgd_cost(1000, 2, 2, 10.0, engine="numpy"), 3)
    0.404
    """
    N, K, M = (read_count(v, n, 1) for v, n in ((N, "N"), (K, "K"), (M, "M")))
    n_test, records = read_count(n_test, "n_test", 0), read_count(records, "records", 0)
    replicas = read_count(replicas, "replicas", 1)
    t_max = read_real(t_max, "t_max", low=0.0)
    if engine not in ("auto", "numpy", "numba"):
        raise DomainError("engine", engine, "auto, numpy or numba")
    if engine == "auto":
        engine = "numba" if _numba_available() else "numpy"
    if engine == "numba":
        per_step = replicas * (1e-6 + N * (1.4e-8 + 1.4e-9 * K + 3e-10 * M))
    else:
        per_step = 1.5e-5 + replicas * (5e-6 + N * (1.8e-8 + 6e-10 * (K + M)))
    test = replicas * n_test * N * (1.2e-8 + (2 + 0.3 * K) * 1e-9 * records)
    return t_max * N * per_step + test


def held_out_error(W: np.ndarray, W_star: np.ndarray, g: str | Activation, X: np.ndarray,
               a: Any = None, a_star: Any = None) -> tuple[float, float]:
    """(ε_g estimate, its standard error) on the test inputs X (n × N): the mean of
    ½(f(x) − y_clean(x))² over the rows of X, and its spread / √n.

    >>> W0, Ws = cold_start(30, 2, 2, 0)
    >>> X = np.random.default_rng(1).standard_normal((500, 30))
    >>> held_out_error(Ws, Ws, "erf_ss", X)
    (0.0, 0.0)
    """
    act = activation(g)
    W, W_star, X = (np.asarray(v, dtype=float) for v in (W, W_star, X))
    N = X.shape[1]
    a_ = _floats(read_layer(a, W.shape[0], "a", "K"))
    as_ = _floats(read_layer(a_star, W_star.shape[0], "a_star", "M"))
    sq = math.sqrt(N)
    d = act.g(X @ W.T / sq) @ a_ - act.g(X @ W_star.T / sq) @ as_
    e = 0.5 * d * d
    se = float(e.std(ddof=1) / math.sqrt(len(e))) if len(e) > 1 else math.nan
    return float(e.mean()), se


def sgd(W0: np.ndarray, W_star: np.ndarray, g: str | Activation, eta: float | Fraction | str,
        t_grid: Any, seed: SeedLike, a: Any = None, a_star: Any = None,
        noise: float | Fraction | str = 0.0, weight_decay: float | Fraction | str = 0.0,
        n_test: int = 0, chunk: int = 64, divergence_factor: float = 1e6,
        engine: str = "auto") -> CommitteeRun:
    """One-pass SGD of the committee machine from W0 (K × N) with teacher W* (M × N): one run
    of :func:`sgd_replicas` (which documents the parameters and the blocked algorithm).

    >>> W0, Ws = cold_start(100, 2, 2, 0)
    >>> run = sgd(W0, Ws, "erf_ss", 0.5, [0.0, 1.0], 0, n_test=200)
    >>> run.Q.shape, run.R.shape, run.diverged_at, bool(run.eps_g[1] < run.eps_g[0])
    ((2, 2, 2), (2, 2, 2), None, True)
    """
    return sgd_replicas([(W0, W_star)], g, eta, t_grid, [seed], a, a_star, noise, weight_decay,
                        n_test, chunk, divergence_factor, engine)[0]


def model_sgd(model: CommitteeModel, run: SGDSettings, W0: Any, W_star: Any,
              t_grid: Any = None, seed: SeedLike | None = None) -> CommitteeRun:
    """One-pass SGD of ``model`` (g, K, M, a, a*, σ, κ as read at its construction) at the
    step and with the test inputs of ``run`` (read at its construction too: nothing is read
    again), from W0 (K × N) with teacher W* (M × N): the run :func:`sgd` makes with those
    values. Records at ``t_grid`` (default the run's own grid); samples from ``seed``
    (default the run's seed; a repetition passes its own SeedSequence).

    >>> model, run = CommitteeModel("erf_ss", 2, 2), SGDSettings("1/2", 100, 1, records=2)
    >>> W0, Ws = model_cold_start(model, run)
    >>> model_sgd(model, run, W0, Ws).Q.shape
    (2, 2, 2)
    """
    act = activation(model.g)
    W0s, Wss = _stack([(W0, W_star)])
    _, K, N = W0s.shape
    M = Wss.shape[1]
    if (K, M) != (model.K, model.M):
        raise DomainError("W0", f"a start of {K} students and {M} teachers",
                          f"K = {model.K} students, M = {model.M} teachers (the model's)")
    eta, kappa = float(run.eta), float(model.weight_decay)
    if eta * kappa >= N:
        raise DomainError("weight_decay", model.weight_decay, f"η κ < N = {N}")
    t = run.grid if t_grid is None else _times(t_grid, N)
    seqs = [sequence(run.seed if seed is None else seed)]
    chunk = 64
    check_memory("n_test", run.n_test, 8.0 * ((run.n_test + chunk) * N + chunk * chunk
                                             + (K + M) * (N + run.n_test) + len(t) * K * (K + M)))
    return _run(act, W0s, Wss, seqs, eta, t, _floats(model.a),
                _floats(model.a_star), float(model.noise), kappa, run.n_test, chunk, 1e6,
                "auto")[0]


def _stack(starts: Sequence[tuple[Any, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """The replicas' starts (W0, W*) stacked: each a finite matrix
    (:func:`fltheory.args.read_matrix`), W0 K × N and W* M × N, all of one size."""
    if not isinstance(starts, Sequence) or len(starts) < 1:
        raise DomainError("starts", repr(starts)[:40], "a non-empty list of (W0, W*) pairs")
    W0s: list[np.ndarray] = []
    Wss: list[np.ndarray] = []
    for W0, Ws in starts:
        W0, Ws = read_matrix(W0, "W0"), read_matrix(Ws, "W_star")
        if min(W0.shape) < 1:
            raise DomainError("W0", f"an array of shape {W0.shape}",
                              "a finite K × N matrix, K, N >= 1")
        if Ws.shape[1] != W0.shape[1] or Ws.shape[0] < 1:
            raise DomainError("W_star", f"an array of shape {Ws.shape}",
                              f"a finite M × N matrix with N = {W0.shape[1]}")
        if W0s and (W0.shape != W0s[0].shape or Ws.shape != Wss[0].shape):
            raise DomainError("starts", "pairs of different shapes", "replicas of one size")
        W0s.append(W0)
        Wss.append(Ws)
    return np.stack(W0s), np.stack(Wss)


def _times(t_grid: Any, N: int) -> np.ndarray:
    """Record times (:func:`fltheory.args.read_grid`) >= 0, at most 1e12 steps."""
    t = read_grid(t_grid)
    if t.min() < 0:
        raise DomainError("t_grid", f"a grid from t = {t.min():.3g}", "times >= 0")
    if float(t[-1]) * N > 1e12:
        raise DomainError("t_grid", f"up to t = {t[-1]:.3g}", "at most 1e12 steps (t·N)")
    return t


def sgd_replicas(starts: Sequence[tuple[Any, Any]], g: str | Activation,
                 eta: float | Fraction | str, t_grid: Any, seeds: Sequence[SeedLike],
                 a: Any = None, a_star: Any = None, noise: float | Fraction | str = 0.0,
                 weight_decay: float | Fraction | str = 0.0, n_test: int = 0, chunk: int = 64,
                 divergence_factor: float = 1e6, engine: str = "auto") -> list[CommitteeRun]:
    """Independent one-pass SGD runs in lockstep, replica s from ``starts[s]`` = (W0, W*) with
    the samples of ``seeds[s]``: each is exactly the run :func:`sgd` makes alone (the same
    samples in the same order; only the rounding of the batched products may differ), the
    per-step Python overhead shared by the replicas.

    Parameters: ``g`` (:func:`activation`), step η > 0, ``t_grid`` (record times, steps/N),
    ``a`` and ``a_star`` (second layers: None = 1 for every unit, a number or a list),
    ``noise`` σ >= 0 (training labels only), ``weight_decay`` κ >= 0 with ηκ < N, ``n_test``
    test inputs per replica (child ``KEY_TEST``) for ε_g, ``chunk`` samples per block,
    ``engine``: ``numba`` (compiled loops: needs numba, extra ``fast``, and a catalogue or
    polynomial g), ``numpy`` (the blocked BLAS algorithm below), ``auto`` (numba when it can).

    Exact sequential SGD either way; the labels of a block come from one BLAS product with the
    teacher. The compiled loop takes the steps one by one (λ = Wx/√N, W ← cW + u xᵀ). The numpy
    loop is organised around BLAS: with c = 1 − ηκ/N, the weights after i steps
    of a block are W_i = cⁱ(W_start + Σ_{j<i} c^(−j−1) u_j x_jᵀ), u_j = (η/√N) a ⊙ (y_j − f_j)
    g'(λ_j); so the fields of sample i are λ_i = cⁱ(W_start x_i/√N + Σ_{j<i} c^(−j−1) u_j
    (x_j·x_i)/√N) — one chunk × chunk Gram matrix and one chunk × K product per block, O(K i)
    per step, and W is updated once per block.

    Divergence (per replica): after each block, a non-finite weight or max_k ‖w_k‖²/N above
    ``divergence_factor``·max(1, its initial value, the teacher's) stops that replica;
    ``diverged_at`` is the time, its later records NaN.

    >>> starts = [cold_start(60, 2, 1, s) for s in (0, 1)]
    >>> runs = sgd_replicas(starts, "relu", 0.2, [0.0, 2.0], [0, 1])
    >>> alone = sgd(*starts[1], "relu", 0.2, [0.0, 2.0], 1)
    >>> bool(np.allclose(runs[1].Q, alone.Q, rtol=1e-10, atol=1e-12))
    True
    """
    act = activation(g)
    W0s, Wss = _stack(starts)
    S, K, N = W0s.shape
    M = Wss.shape[1]
    if not isinstance(seeds, Sequence) or len(seeds) != S:
        raise DomainError("seeds", repr(seeds)[:40], f"{S} seeds, one per start")
    seqs = [sequence(s) for s in seeds]
    eta_f = read_real(eta, "eta", low=0.0, open_low=True)
    sigma = read_real(noise, "noise", low=0.0)
    kappa = read_real(weight_decay, "weight_decay", low=0.0)
    if eta_f * kappa >= N:
        raise DomainError("weight_decay", weight_decay, f"η κ < N = {N}")
    t = _times(t_grid, N)
    chunk = min(read_count(chunk, "chunk", 1), _MAX_CHUNK)
    n_test = read_count(n_test, "n_test", 0)
    check_memory("n_test", n_test, 8.0 * S * ((n_test + chunk) * N + chunk * chunk
                                              + (K + M) * (N + n_test) + len(t) * K * (K + M)))
    limit_factor = read_real(divergence_factor, "divergence_factor", low=0.0, open_low=True)
    a_, as_ = _floats(read_layer(a, K, "a", "K")), _floats(read_layer(a_star, M, "a_star", "M"))
    if engine not in ("auto", "numpy", "numba"):
        raise DomainError("engine", engine, "auto, numpy or numba")
    return _run(act, W0s, Wss, seqs, eta_f, t, a_, as_, sigma, kappa, n_test, chunk,
                limit_factor, engine)


#: records (equally spaced times in [0, t_max]) of a committee sweep run
SWEEP_RECORDS = 101
#: held-out test inputs of a committee.sgd run (ε_g and its standard error)
SWEEP_N_TEST = 2000


def sweep_times(t_max: Any) -> np.ndarray:
    """The record times of a committee sweep run (``committee.sgd``, ``committee.ode``):
    ``SWEEP_RECORDS`` equally spaced times in [0, t_max].

    >>> sweep_times(Fraction(1, 2))[:3]
    array([0.   , 0.005, 0.01 ])
    """
    return np.linspace(0.0, float(Fraction(t_max)), SWEEP_RECORDS)


def sgd_task(p: dict[str, Any], seed: Any) -> dict[str, float]:
    """The sweep task ``committee.sgd`` (declared in :mod:`fltheory.papers.committee.sweeps`):
    one cold start and one SGD run from the same ``seed`` (the simulator keys teacher, W0,
    samples and test apart), ``SWEEP_N_TEST`` held-out inputs, records at :func:`sweep_times`;
    returns ε_g at t_max and its standard error, the escape time (the specialisation
    ‖R − mean(R)‖_F first reaching 1/2, :func:`crossing_time`; NaN if not by t_max or if the
    run diverged), the final specialisation and whether it diverged (0/1). ``p``: g, K, M, N
    (integers but g), eta, t_max, q0 (exact rationals).

    >>> out = sgd_task({"g": "erf_ss", "K": 2, "M": 2, "N": 20, "eta": Fraction(1),
    ...                 "t_max": Fraction(1, 2), "q0": Fraction(1, 4)}, 0)
    >>> sorted(out), out["diverged"]
    (['diverged', 'eps_g', 'eps_g_se', 'escape_time', 'specialisation'], 0.0)
    """
    N, K, M = int(p["N"]), int(p["K"]), int(p["M"])
    W0, W_star = cold_start(N, K, M, seed, q0=p["q0"])
    t = sweep_times(p["t_max"])
    run = sgd(W0, W_star, str(p["g"]), p["eta"], t, seed, n_test=SWEEP_N_TEST)
    assert run.eps_g is not None and run.eps_g_se is not None
    spec = specialisation(run.R)
    diverged = run.diverged_at is not None
    # a diverged run has NaN records after its stop: ε_g NaN (the aggregate counts it apart)
    return {"eps_g": float(run.eps_g[-1]), "eps_g_se": float(run.eps_g_se[-1]),
            "escape_time": float("nan") if diverged else crossing_time(t, spec, 0.5),
            "specialisation": float(spec[-1]),
            "diverged": 1.0 if diverged else 0.0}


def _run(act: Activation, W0s: np.ndarray, Wss: np.ndarray,
         seqs: list[np.random.SeedSequence], eta: float, t: np.ndarray, a: np.ndarray,
         a_star: np.ndarray, sigma: float, kappa: float, n_test: int, chunk: int,
         limit_factor: float, engine: str) -> list[CommitteeRun]:
    S, K, N = W0s.shape
    M = Wss.shape[1]
    scale = np.maximum(1.0, np.maximum(np.sum(W0s * W0s, axis=2).max(axis=1),
                                       np.sum(Wss * Wss, axis=2).max(axis=1)) / N)
    limit = limit_factor * scale
    rngs = [np.random.Generator(np.random.SFC64(child(s, KEY_SAMPLES))) for s in seqs]
    X_test, y_test = _replica_test_sets(act, seqs, n_test, Wss, a_star) if n_test \
        else (None, None)
    record_steps = np.rint(t * N).astype(np.int64)
    n = len(record_steps)
    Qs, Rs = np.full((n, S, K, K), np.nan), np.full((n, S, K, M), np.nan)
    eps = np.full((n, S), np.nan) if n_test else None
    eps_se = np.full((n, S), np.nan) if n_test else None
    W = W0s.copy()
    alive = np.ones(S, dtype=bool)
    diverged: list[float | None] = [None] * S
    c = 1.0 - eta * kappa / N
    powers = c ** np.arange(chunk + 1)  # cⁱ
    inv = c ** -(np.arange(chunk) + 1.0)  # c^(−j−1)
    coef = eta / math.sqrt(N)
    jit = _block_engine(act, engine)
    poly = np.array(act.coef if act.coef else (0.0,))
    work = np.empty(K)
    X = np.empty((S, 0, N))
    ys = np.empty((S, 0))
    step, r, used = 0, 0, 0
    while r < n:
        while r < n and record_steps[r] == step:
            Qs[r][alive] = (W @ W.transpose(0, 2, 1) / N)[alive]
            Rs[r][alive] = (W @ Wss.transpose(0, 2, 1) / N)[alive]
            if X_test is not None and eps is not None and eps_se is not None:
                eps[r], eps_se[r] = _test_errors(act.g, W, a, X_test, y_test, alive)
            r += 1
        if r >= n or not alive.any():
            break
        if used == X.shape[1]:  # the next block of samples, each replica from its own stream
            X, ys = _draw_block(act.g, rngs, chunk, Wss, a_star, sigma)
            used = 0
        m = int(min(X.shape[1] - used, record_steps[r] - step))
        Xb, yb = X[:, used:used + m], ys[:, used:used + m]
        with np.errstate(over="ignore", invalid="ignore"):  # a blow-up is checked below
            if jit is not None:
                jit(W, Xb, yb, a, c, coef, act.kind, poly, alive, work)
            else:
                W = _block_numpy(act, W, Xb, yb, a, powers, inv, coef)
            norms = np.sum(W * W, axis=2).max(axis=1) / N
        used += m
        step += m
        for s in np.flatnonzero(alive & ~(norms <= limit)):  # also catches inf and NaN
            alive[s] = False
            diverged[s] = step / N
    T = Wss @ Wss.transpose(0, 2, 1) / N
    return [CommitteeRun(t.copy(), Qs[:, s], Rs[:, s], T[s], W[s], Wss[s], a.copy(),
                         a_star.copy(), None if eps is None else eps[:, s],
                         None if eps_se is None else eps_se[:, s], diverged[s])
            for s in range(S)]


def _block_engine(act: Activation, engine: str) -> Any:
    """The compiled block step (numba) for a catalogue or polynomial activation unless
    ``engine`` is "numpy"; None for the numpy step; "numba" without it is a DomainError."""
    jit = _compiled_block() if act.kind >= 0 and engine != "numpy" else None
    if engine == "numba" and jit is None:
        raise DomainError("engine", engine, "numpy or auto", reason="needs numba and a "
                          "catalogue or polynomial activation")
    return jit


def _replica_test_sets(act: Activation, seqs: list[np.random.SeedSequence], n_test: int,
                       Wss: np.ndarray, a_star: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each replica's ``n_test`` fixed test inputs (child ``KEY_TEST`` of its seed) and the
    teacher's noiseless labels (S × n_test)."""
    N = Wss.shape[2]
    X_test = np.stack([np.random.default_rng(child(s, KEY_TEST)).standard_normal((n_test, N))
                       for s in seqs])
    return X_test, act.g(X_test @ Wss.transpose(0, 2, 1) / math.sqrt(N)) @ a_star


def _test_errors(g: Callable[[np.ndarray], np.ndarray], W: np.ndarray, a: np.ndarray,
                 X_test: np.ndarray, y_test: Any, alive: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """ε_g = ½ mean (f − y)² on the test set and its standard error, per replica (NaN for a
    replica that diverged)."""
    n_test, N = X_test.shape[1], X_test.shape[2]
    d = g(X_test @ W.transpose(0, 2, 1) / math.sqrt(N)) @ a - y_test
    e = 0.5 * d * d
    return (np.where(alive, e.mean(axis=1), np.nan),
            np.where(alive, e.std(axis=1, ddof=1) / math.sqrt(n_test)
                     if n_test > 1 else np.nan, np.nan))


def _draw_block(g: Callable[[np.ndarray], np.ndarray], rngs: list[np.random.Generator],
                chunk: int, Wss: np.ndarray, a_star: np.ndarray, sigma: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The next ``chunk`` samples of every replica, each from its own stream, and their
    labels (teacher plus noise σ, drawn after the inputs)."""
    N = Wss.shape[2]
    X = np.stack([rg.standard_normal((chunk, N)) for rg in rngs])
    ys = g(X @ Wss.transpose(0, 2, 1) / math.sqrt(N)) @ a_star
    if sigma:
        ys = ys + sigma * np.stack([rg.standard_normal(chunk) for rg in rngs])
    return X, ys


def _block_numpy(act: Activation, W: np.ndarray, Xb: np.ndarray, yb: np.ndarray,
                 a: np.ndarray, powers: np.ndarray, inv: np.ndarray, coef: float) -> np.ndarray:
    """One block of m sequential steps for every replica, by the Gram-matrix identity (see
    :func:`sgd_replicas`): returns the weights after the block."""
    S, m, N = Xb.shape
    K = W.shape[1]
    sq = math.sqrt(N)
    G = Xb @ Xb.transpose(0, 2, 1) / sq  # S × m × m
    lam0 = Xb @ W.transpose(0, 2, 1) / sq  # S × m × K
    U = np.zeros((S, m, K))
    for i in range(m):
        li = powers[i] * (lam0[:, i] + np.matmul(G[:, i, None, :i], U[:, :i])[:, 0])
        delta = yb[:, i] - act.g(li) @ a
        U[:, i] = (coef * inv[i]) * delta[:, None] * a * act.dg(li)
    out: np.ndarray = powers[m] * (W + U.transpose(0, 2, 1) @ Xb)
    return out


def _act_eval(kind: int, x: float, poly: np.ndarray) -> tuple[float, float]:
    """(g(x), g'(x)) of a catalogue activation (the :class:`Activation` kinds), for the
    compiled loop."""
    if kind == 0:
        return math.erf(x * 0.7071067811865476), 0.7978845608028654 * math.exp(-0.5 * x * x)
    if kind == 1:
        return (x, 1.0) if x > 0 else (0.0, 0.0)
    if kind == 2:
        th = math.tanh(x)
        return th, 1.0 - th * th
    if kind == 3:
        e = math.exp(-abs(x))
        sg = 1.0 / (1.0 + e) if x >= 0 else e / (1.0 + e)
        return sg, sg * (1.0 - sg)
    v, d = 0.0, 0.0
    for j in range(len(poly) - 1, -1, -1):  # Horner, value and derivative together
        d = d * x + v
        v = v * x + poly[j]
    return v, d


def _block_loops(W: np.ndarray, X: np.ndarray, yb: np.ndarray, a: np.ndarray, c: float,
                 coef: float, kind: int, poly: np.ndarray, alive: np.ndarray,
                 dv: np.ndarray) -> None:
    """One block of m sequential steps for every live replica, in place, as plain loops (the
    compiled path): λ = W x/√N, then W ← c W + (η/√N)(y − f) (a ⊙ g'(λ)) xᵀ."""
    S, K, N = W.shape
    m = X.shape[1]
    sq = math.sqrt(N)
    for s in range(S):
        if not alive[s]:
            continue
        for i in range(m):
            f = 0.0
            for k in range(K):
                acc = 0.0
                for n in range(N):
                    acc += W[s, k, n] * X[s, i, n]
                gk, dk = _act_eval(kind, acc / sq, poly)
                f += a[k] * gk
                dv[k] = dk
            delta = yb[s, i] - f
            for k in range(K):
                u = coef * a[k] * delta * dv[k]
                for n in range(N):
                    W[s, k, n] = c * W[s, k, n] + u * X[s, i, n]


_JIT: list[Any] = []


def _compiled_block() -> Any:
    """The numba-compiled :func:`_block_loops` (cached on disk), or None without numba."""
    if not _JIT:
        try:
            import types

            import numba
        except ImportError:
            _JIT.append(None)
        else:
            act = numba.njit(cache=True)(_act_eval)
            code = _block_loops.__code__
            namespace = dict(globals()) | {"_act_eval": act}
            _JIT.append(numba.njit(cache=True)(types.FunctionType(code, namespace,
                                                                  "_block_loops")))
    return _JIT[0]


def specialisation(R: Any) -> np.ndarray:
    """How far the student-teacher overlaps are from the unspecialised (symmetric) subspace
    R_km = r: ‖R − mean(R)‖_F per record (R: n × K × M, as in :class:`CommitteeRun`). Zero on
    the plateau; O(1) once the students have specialised (K = M, T = I: R → a permutation).

    >>> specialisation(np.array([[[0.3, 0.3], [0.3, 0.3]], [[1.0, 0.0], [0.0, 1.0]]])).tolist()
    [0.0, 1.0]
    """
    R = np.asarray(R, dtype=float)
    if R.ndim != 3:
        raise DomainError("R", f"an array of shape {R.shape}", "overlaps of shape n × K × M")
    dev = R - R.mean(axis=(1, 2), keepdims=True)
    out: np.ndarray = np.sqrt(np.sum(dev * dev, axis=(1, 2)))
    return out
