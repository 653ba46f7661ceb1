"""One-pass SGD on a quadratic two-layer network (Bocchi et al. 2026), numpy only.

Student f(x) = a Σ_k (w_k·x)²/N, teacher y = b Σ_m (w*_m·x)²/N + σξ, x ~ N(0, I_N), squared loss,
one fresh sample per step: w_k ← w_k − η_w·2a(f − y)(w_k·x/√N) x/√N. A step costs O(N(p + p*)).
Order parameters Q = WWᵀ/N and ρ = WW*ᵀ/N are recorded at times t = steps/N on a grid.

Seeds (:mod:`fltheory.simkit.seeding`): every function takes ``seed`` (an integer >= 0 or a numpy
SeedSequence) and draws each independent part from its own child, keyed by the constants
below: the stream of training samples (``KEY_SAMPLES``), the fixed test inputs
(``KEY_TEST``), the teacher (``KEY_TEACHER``), the initial student (``KEY_START``), the
inputs of a sampled Hessian (``KEY_HESSIAN``). So :func:`cold_start` and :func:`sgd` may be
given the same seed, and repetitions of an average take ``seeding.children(seed, n)``.

The escape rule is :func:`escape_time`: first ‖ρ‖_F >= 1/2 read by the crossing rule that the
theory side uses too (:mod:`fltheory.simkit.observables`, a definition of how a curve is read,
not a formula).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.args import check_memory, read_count, read_grid, read_matrix, read_real
from fltheory.exact import DomainError
from fltheory.papers.quadratic.params import Coefficients
from fltheory.simkit.observables import crossing_time
from fltheory.simkit.seeding import SeedLike, child, sequence
from fltheory.simkit.teachers import orthonormal_teacher

__all__ = ["ESCAPE_LEVEL", "ESCAPE_TASK_RECORDS", "KEY_HESSIAN", "KEY_SAMPLES", "KEY_START",
           "KEY_TEACHER", "KEY_TEST", "SGDRun", "cold_start", "escape_task", "escape_time",
           "hessian_counts_at_solution", "orthonormal_teacher", "plateau_point",
           "population_hessian_counts", "sgd", "sgd_cost", "sgd_run"]

#: seeding keys (children of a run's seed) of the independent parts of a simulation
KEY_SAMPLES, KEY_TEST, KEY_TEACHER, KEY_START, KEY_HESSIAN = 0, 1, 2, 3, 4

#: ‖ρ‖_F at which a run counts as escaped from the plateau
ESCAPE_LEVEL = 0.5

def sgd_cost(N: int, p: int, p_star: int, t_max: float, n_test: int = 0, records: int = 21
             ) -> float:
    """Estimated seconds of :func:`sgd`: t_max·N steps of ≈ 1e-5 + 2e-9·N(p + p* + 8) s each,
    plus the test loss, 2e-9·n_test·N·p s per record. Fitted on this machine (2 cores, the
    blocked sequential SGD; one or two BLAS threads alike): per step 2.4e-5 s at (N, p, p*) =
    (1000, 4, 2), 9.3e-5 at (4000, 4, 2), 1.8e-4 at (10000, 4, 2), 3.9e-5 at (1000, 32, 2); the
    estimate is 1.3–2.4 times each (an earlier fit, 5e-5 + 2e-8·N(p + p* + 8), was ten times
    too high for the blocked SGD). The one cost model of an SGD run: the CLI, the claims'
    comparisons and the sweep task ``quadratic.escape`` check their bounds with it.

    >>> round(sgd_cost(1000, 4, 2, 40.0), 2)
    1.52
    """
    N, p, p_star = (read_count(v, n, 1) for v, n in ((N, "N"), (p, "p"), (p_star, "p_star")))
    n_test, records = read_count(n_test, "n_test", 0), read_count(records, "records", 0)
    t_max = read_real(t_max, "t_max", low=0.0)
    steps = t_max * N
    return steps * (1e-5 + 2e-9 * N * (p + p_star + 8)) + 2e-9 * n_test * N * p * records


def cold_start(N: int, p: int, p_star: int, seed: SeedLike, q0: float = 0.25,
               eigenvalues: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A cold random start: (W0, W*) with W0 ~ N(0, q0) i.i.d. (p × N, so ρ(0) = O(N^(−1/2)))
    and an orthonormal teacher (p* × N, :func:`orthonormal_teacher`), drawn from the children
    ``KEY_START`` and ``KEY_TEACHER`` of ``seed``.

    >>> W0, W_star = cold_start(50, 2, 1, 0)
    >>> W0.shape, W_star.shape
    ((2, 50), (1, 50))
    """
    q0 = read_real(q0, "q0", low=0.0, open_low=True)
    W_star = orthonormal_teacher(N, p_star, np.random.default_rng(child(seed, KEY_TEACHER)),
                                 eigenvalues)
    p = read_count(p, "p", 1)
    check_memory("N", N, 8.0 * p * N)
    W0 = math.sqrt(q0) * np.random.default_rng(child(seed, KEY_START)).standard_normal((p, N))
    return W0, W_star


def escape_time(t: Any, R: Any, level: float = ESCAPE_LEVEL) -> float:
    """Escape time of a simulated run: the first time ‖ρ‖_F >= ``level`` (default 1/2) by the
    shared crossing rule (:func:`fltheory.simkit.observables.crossing_time`: ln‖ρ‖_F
    interpolated linearly between the records, exact for the linear stage's exponential
    growth); NaN if never reached (records after a divergence are NaN: not reached). ``t``:
    the record times (len n), ``R``: the overlaps (n × p × p*), as in :class:`SGDRun`.

    >>> escape_time(np.array([0.0, 1.0, 2.0]), np.array([[[0.1]], [[0.2]], [[0.8]]]), 0.4)
    1.5
    """
    t, R = np.asarray(t, dtype=float), np.asarray(R, dtype=float)
    if t.ndim != 1 or R.ndim != 3 or len(R) != len(t) or len(t) == 0:
        raise DomainError("R", f"arrays of shapes {t.shape}, {R.shape}",
                          "record times (n) and overlaps (n × p × p*)")
    return crossing_time(t, np.sqrt(np.sum(R * R, axis=(1, 2))), level)


@dataclass
class SGDRun:
    """A one-pass SGD run from :func:`sgd`: record times ``t``, overlaps ``Q`` (n × p × p) and
    ``R`` = ρ (n × p × p*) at the records, start ``W0``, teacher ``W_star``, final ``W``, and
    optionally the test loss at each record and the divergence time."""

    t: np.ndarray
    Q: np.ndarray
    R: np.ndarray
    W0: np.ndarray
    W_star: np.ndarray
    W: np.ndarray
    test_loss: np.ndarray | None = None  # ½ mean (f − y)² on fresh inputs, at each record
    #: time (steps/N, end of the block of samples) at which the weights left every bounded
    #: region (non-finite, or max_k ‖w_k‖²/N above ``divergence_factor`` times its scale);
    #: None if SGD stayed bounded. Records after it are NaN (not reached).
    diverged_at: float | None = None


def sgd(W0: np.ndarray, W_star: np.ndarray, eta: float | Fraction | str, t_grid: Any,
        seed: SeedLike, sigma: float | Fraction | str = 0.0, a: float | None = None,
        b: float | None = None, eta_w: float | None = None, chunk: int = 64, n_test: int = 0,
        divergence_factor: float = 1e6) -> SGDRun:
    """Run one-pass SGD from W0 (p × N); record Q and ρ at the times of ``t_grid`` (and, with
    ``n_test`` > 0, the loss on that many fixed fresh inputs, noise included).

    Exact sequential SGD, organised around BLAS: within a block of B = ``chunk`` samples the
    weights are W_i = W_start + Σ_{j<i} u_j x_jᵀ, so the local fields of sample i are
    λ_i = W_start x_i/√N + Σ_{j<i} u_j (x_j·x_i)/√N — one B × B Gram matrix and one B × p
    product per block, O(p i) per step, and W is updated once per block (W += Uᵀ X). The
    samples and their order are those of the plain loop; only the rounding differs.

    Divergence: after each block the row norms are checked; when a weight is non-finite or
    max_k ‖w_k‖²/N exceeds ``divergence_factor``·max(1, its initial value, the teacher's), the
    run stops, ``diverged_at`` records the time and the remaining records are NaN (SGD above
    its stability limit blows up: the loss grows like ‖w‖⁴, the step like ‖w‖³).

    Seeds: the samples from the child ``KEY_SAMPLES`` of ``seed``, the test inputs from
    ``KEY_TEST``. The arguments are read here, once (the coefficients a, b = 1/p, 1/p*,
    η_w = pη by default, and σ as a :class:`~fltheory.papers.quadratic.params.Coefficients`),
    then :func:`sgd_run` runs: η > 0 and the other reals finite (η a float or a Fraction),
    ``t_grid`` non-decreasing times >= 0, at most 1e12 steps.

    >>> W0, W_star = cold_start(100, 2, 1, 0)
    >>> run = sgd(W0, W_star, 0.1, [0.0, 1.0], 0)
    >>> run.R.shape, run.diverged_at
    ((2, 2, 1), None)
    """
    W0, W_star = read_matrix(W0, "W0"), read_matrix(W_star, "W_star")
    p, N = (read_count(n, name, 1) for n, name in zip(W0.shape, ("p", "N"), strict=True))
    ps = read_count(W_star.shape[0], "p_star", 1)
    if W_star.shape[1] != N:
        raise DomainError("W_star", f"an array of shape {W_star.shape}",
                          f"a finite p* × N matrix with N = {N}")
    step = read_real(eta, "eta", low=0.0, open_low=True)
    coef = Coefficients(1.0 / p if a is None else a, 1.0 / ps if b is None else b,
                        p * step if eta_w is None else eta_w, sigma)
    t_grid = read_grid(t_grid)
    if t_grid[0] < 0:
        raise DomainError("t_grid", f"starting at t = {t_grid[0]:.3g}", "times >= 0")
    if float(t_grid[-1]) * N > 1e12:
        raise DomainError("t_grid", f"up to t = {t_grid[-1]:.3g}", "at most 1e12 steps (t·N)")
    return sgd_run(W0, W_star, coef, t_grid, seed, read_count(n_test, "n_test", 0),
                   read_count(chunk, "chunk", 1),
                   read_real(divergence_factor, "divergence_factor", low=0.0, open_low=True))


def sgd_run(W0: np.ndarray, W_star: np.ndarray, coef: Coefficients, t_grid: np.ndarray,
            seed: SeedLike, n_test: int = 0, chunk: int = 64,
            divergence_factor: float = 1e6) -> SGDRun:
    """:func:`sgd` on arguments already read: finite float weights W0 (p × N) and W_star
    (p* × N), the coefficients (a, b, η_w, σ), a float grid of times >= 0, and the integers
    ``n_test`` >= 0 and ``chunk`` >= 1 (the test set is bounded in memory here).

    >>> from fltheory.papers.quadratic.params import Model
    >>> W0, W_star = cold_start(100, 2, 1, 0)
    >>> run = sgd_run(W0, W_star, Model(2, 1).coefficients(Fraction(1, 10)),
    ...               np.array([0.0, 1.0]), 0)
    >>> bool(np.array_equal(run.R, sgd(W0, W_star, 0.1, [0.0, 1.0], 0).R))
    True
    """
    seed = sequence(seed)
    N = W0.shape[1]
    check_memory("n_test", n_test, 8.0 * (n_test + chunk) * N * 2)
    a, b, sigma = coef.a, coef.b, coef.sigma
    scale = max(1.0, float(np.max(np.sum(W0 * W0, axis=1))) / N,
                float(np.max(np.sum(W_star * W_star, axis=1))) / N)
    # SFC64: the N normals per step are most of the cost; it draws them ~25 % faster than PCG64
    rng = np.random.Generator(np.random.SFC64(child(seed, KEY_SAMPLES)))
    test = _test_set(child(seed, KEY_TEST), n_test, W_star, b, sigma) if n_test else None
    W = W0.copy()
    records = _sgd_blocks(W, W_star, rng, np.rint(np.asarray(t_grid) * N).astype(int), chunk,
                          (a, b, sigma, -coef.eta_w * 2 * a / math.sqrt(N)),
                          divergence_factor * scale, test)
    return SGDRun(np.asarray(t_grid), records[0], records[1], W0, W_star, W, *records[2:])


def _test_set(seed: Any, n_test: int, W_star: np.ndarray, b: float, sigma: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """``n_test`` fixed fresh inputs (from ``seed``) and their labels, noise included."""
    test_rng = np.random.default_rng(seed)
    X_test = test_rng.standard_normal((n_test, W_star.shape[1]))
    y_test = b * np.sum((X_test @ W_star.T / math.sqrt(W_star.shape[1])) ** 2, axis=1)
    if sigma:
        y_test = y_test + sigma * test_rng.standard_normal(n_test)
    return X_test, y_test


def _sgd_blocks(W: np.ndarray, W_star: np.ndarray, rng: np.random.Generator,
                record_steps: np.ndarray, chunk: int, model: tuple[float, float, float, float],
                limit: float, test: tuple[np.ndarray, np.ndarray] | None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, float | None]:
    """The loop of :func:`sgd`, updating W in place: Q, ρ (and the test loss) at each record
    step, between them the samples in blocks of ``chunk`` (:func:`_sgd_block`); after a block
    whose row norms ‖w_k‖²/N exceed ``limit`` (or are not finite) the run stops and the
    remaining records are NaN. ``model`` = (a, b, σ, coef = −η_w·2a/√N). Returns Q, ρ, the
    losses and the divergence time."""
    a, b, sigma, coef = model
    (p, N), n = W.shape, len(record_steps)
    sqrtN = math.sqrt(N)
    Qs, Rs = np.empty((n, p, p)), np.empty((n, p, W_star.shape[0]))
    losses = np.empty(n) if test is not None else None
    diverged_at: float | None = None
    step, r, used = 0, 0, 0
    X, ys = np.empty((0, N)), np.empty(0)
    while r < n:
        if diverged_at is not None:  # the remaining records are not reached
            Qs[r:], Rs[r:] = np.nan, np.nan
            if losses is not None:
                losses[r:] = np.nan
            break
        while r < n and record_steps[r] == step:
            Qs[r], Rs[r] = W @ W.T / N, W @ W_star.T / N
            if losses is not None and test is not None:
                f = a * np.sum((test[0] @ W.T / sqrtN) ** 2, axis=1)
                losses[r] = 0.5 * np.mean((f - test[1]) ** 2)
            r += 1
        if r >= n:
            break
        if used == len(X):  # draw the next block of samples (same stream as a plain loop)
            X = rng.standard_normal((chunk, N))
            noise = sigma * rng.standard_normal(chunk) if sigma else np.zeros(chunk)
            ys = b * np.sum((X @ W_star.T / sqrtN) ** 2, axis=1) + noise
            used = 0
        # run up to the next record step or the end of the block
        m = int(min(len(X) - used, record_steps[r] - step))
        norms = _sgd_block(W, X[used:used + m], ys[used:used + m], a, coef)
        used += m
        step += m
        if not float(norms.max()) <= limit:  # also catches inf and NaN
            diverged_at = step / N
    return Qs, Rs, losses, diverged_at


def _sgd_block(W: np.ndarray, Xb: np.ndarray, ys: np.ndarray, a: float, coef: float
               ) -> np.ndarray:
    """Exact sequential SGD over the samples ``Xb`` (labels ``ys``), updating W in place with
    one Gram matrix (see :func:`sgd`); returns the row norms ‖w_k‖²/N after the block."""
    m, (p, N) = len(Xb), W.shape
    sqrtN = math.sqrt(N)
    G = Xb @ Xb.T / sqrtN
    lam = Xb @ W.T / sqrtN  # fields at the block start, m × p
    U = np.zeros((m, p))
    with np.errstate(over="ignore", invalid="ignore"):  # a blow-up is checked by the caller
        for i in range(m):
            li = lam[i] + G[i, :i] @ U[:i]
            U[i] = (coef * (a * (li @ li) - ys[i])) * li
        W += U.T @ Xb
        norms = np.sum(W * W, axis=1) / N
    return norms


def hessian_counts_at_solution(p: int, p_star: int, N: int, seed: SeedLike, n_samples: int = 0,
                               a: float | None = None, b: float | None = None
                               ) -> tuple[int, int, int]:
    """(negative, zero, positive) eigenvalue counts of the loss Hessian at a random zero-loss
    point W = M W* (a MᵀM = b I), in the full p·N weight space.

    At such a point f(x) = y(x) for every x, so each sample's loss Hessian is exactly
    ∇f(x)∇f(x)ᵀ; the Hessian of the sample loss over ``n_samples`` inputs (default 4pN) is
    computed from the gradients ∇_W f(x) = 2a (Wx) xᵀ/N and eigendecomposed. The teacher
    from the child ``KEY_TEACHER`` of ``seed``, the point and the inputs from ``KEY_HESSIAN``.

    >>> hessian_counts_at_solution(2, 1, 6, 0)
    (0, 6, 6)
    """
    p, p_star, N = (read_count(v, name, 1) for v, name in ((p, "p"), (p_star, "p_star"),
                                                          (N, "N")))
    if p < p_star or p_star > N:
        raise DomainError("p", p, f"p >= p* = {p_star} and N >= p*")
    a = 1.0 / p if a is None else read_real(a, "a", low=0.0, open_low=True)
    b = 1.0 / p_star if b is None else read_real(b, "b", low=0.0, open_low=True)
    n = read_count(n_samples, "n_samples", 0) or 4 * p * N
    check_memory("N", N, 8.0 * (n * p * N * 2 + (p * N) ** 2 * 2 + n * N))
    W_star = orthonormal_teacher(N, p_star, np.random.default_rng(child(seed, KEY_TEACHER)))
    rng = np.random.default_rng(child(seed, KEY_HESSIAN))
    O, _ = np.linalg.qr(rng.standard_normal((p, p_star)))
    W = (O * math.sqrt(b / a)) @ W_star
    X = rng.standard_normal((n, N))
    grads = 2 * a * (X @ W.T)[:, :, None] * X[:, None, :] / N  # n × p × N
    G = grads.reshape(n, p * N)
    H = G.T @ G / n
    ev = np.linalg.eigvalsh(H)
    tol = 1e-9 * ev[-1]
    return int(np.sum(ev < -tol)), int(np.sum(np.abs(ev) <= tol)), int(np.sum(ev > tol))


def population_hessian_counts(W: np.ndarray, W_star: np.ndarray, a: float, b: float,
                              h: float = 1e-4, rel_tol: float = 1e-7) -> tuple[int, int, int]:
    """(negative, zero, positive) eigenvalue counts of the population loss Hessian at W.

    For x ~ N(0, I) and f − y = xᵀAx with A = (a WᵀW − b W*ᵀW*)/N, E[(xᵀAx)²] = (tr A)² +
    2 tr(A²), so L = ½((tr A)² + 2 tr A²) and ∇_W L = (2a/N)(tr A·W + 2 W A). The Hessian is
    formed by central differences of that gradient (exact up to O(h²) for this cubic gradient)
    and eigendecomposed; |λ| <= rel_tol·max|λ| counts as zero.

    >>> W, W_star = plateau_point(1, 1, 4, 1 / 3, 0)
    >>> population_hessian_counts(W, W_star, 1.0, 1.0)
    (1, 2, 1)
    """
    W, W_star = np.asarray(W, dtype=float), np.asarray(W_star, dtype=float)
    if W.ndim != 2 or W_star.ndim != 2 or W.shape[1] != W_star.shape[1] or W.size == 0 \
            or W_star.size == 0 or not (np.isfinite(W).all() and np.isfinite(W_star).all()):
        raise DomainError("W", f"arrays of shapes {W.shape}, {W_star.shape}",
                          "finite p × N and p* × N matrices")
    a, b = read_real(a, "a", low=0.0, open_low=True), read_real(b, "b", low=0.0)
    h = read_real(h, "h", low=0.0, open_low=True)
    rel_tol = read_real(rel_tol, "rel_tol", low=0.0, open_low=True)
    p, N = W.shape
    check_memory("N", N, 8.0 * 3 * (p * N) ** 2)

    def grad(V: np.ndarray) -> np.ndarray:
        A = (a * V.T @ V - b * W_star.T @ W_star) / N
        return (2 * a / N) * (np.trace(A) * V + 2 * V @ A)

    H = np.empty((p * N, p * N))
    for i in range(p * N):
        E = np.zeros(p * N)
        E[i] = h
        E = E.reshape(p, N)
        H[:, i] = ((grad(W + E) - grad(W - E)) / (2 * h)).ravel()
    ev = np.linalg.eigvalsh((H + H.T) / 2)
    tol = rel_tol * np.abs(ev).max()
    return int(np.sum(ev < -tol)), int(np.sum(np.abs(ev) <= tol)), int(np.sum(ev > tol))


def plateau_point(p: int, p_star: int, N: int, q: float, seed: SeedLike
                  ) -> tuple[np.ndarray, np.ndarray]:
    """A student on the ρ = 0 plateau: (W, W*) with rows of W orthogonal to the teacher's and
    WWᵀ/N = q I exactly; teacher from the child ``KEY_TEACHER`` of ``seed``, student from
    ``KEY_START``. Integers p, p* >= 1, N >= p + p*; q >= 0.

    >>> W, W_star = plateau_point(2, 1, 10, 0.5, 0)
    >>> np.allclose(W @ W.T / 10, 0.5 * np.eye(2)), np.allclose(W @ W_star.T, 0)
    (True, True)
    """
    p = read_count(p, "p", 1)
    N = read_count(N, "N", p + read_count(p_star, "p_star", 1))
    q = read_real(q, "q", low=0.0)
    check_memory("N", N, 8.0 * 4 * N * (p + p_star))
    W_star = orthonormal_teacher(N, p_star, np.random.default_rng(child(seed, KEY_TEACHER)))
    G = np.random.default_rng(child(seed, KEY_START)).standard_normal((p, N))
    G -= (G @ W_star.T / N) @ W_star
    basis, _ = np.linalg.qr(G.T)
    return basis.T * math.sqrt(N * q), W_star


#: records (time points) of a ``quadratic.escape`` sweep run (:func:`escape_task`)
ESCAPE_TASK_RECORDS = 121


def escape_task(p: dict[str, Any], seed: Any) -> dict[str, float]:
    """The sweep task ``quadratic.escape`` (declared in :mod:`fltheory.papers.quadratic.sweeps`):
    one cold start and one SGD run from the same ``seed`` (the simulator keys the teacher, W0,
    samples and test set apart) with 1000 test inputs, ``ESCAPE_TASK_RECORDS`` records over
    [0, t_max]; returns the escape time, the final test loss, the initial ‖ρ‖_F and whether
    the run diverged (0/1). ``p``: N, p, p_star (integers), eta, t_max (exact rationals).

    >>> out = escape_task({"N": 20, "p": 2, "p_star": 1, "eta": Fraction(1, 10),
    ...                    "t_max": Fraction(1)}, 0)
    >>> sorted(out), out["diverged"]
    (['diverged', 'escape_time', 'final_test_loss', 'initial_overlap'], 0.0)
    """
    N, pw, ps = int(p["N"]), int(p["p"]), int(p["p_star"])
    W0, W_star = cold_start(N, pw, ps, seed)
    t = np.linspace(0, float(Fraction(p["t_max"])), ESCAPE_TASK_RECORDS)
    run = sgd(W0, W_star, float(Fraction(p["eta"])), t, seed, n_test=1000)
    norms = np.linalg.norm(run.R, axis=(1, 2))
    assert run.test_loss is not None
    # a diverged run (η above the stability bound) has NaN records after the stop: its final
    # loss is NaN (counted apart by the aggregate) and the fraction of diverged runs is a metric
    return {"escape_time": escape_time(run.t, run.R),
            "final_test_loss": float(run.test_loss[-1]),
            "initial_overlap": float(norms[0]),
            "diverged": 0.0 if run.diverged_at is None else 1.0}
