"""The simulator: a teacher w* from the prior, n = αd Gaussian samples labelled by the channel,
and the learners — generalised approximate message passing (GAMP, Rangan 2011) with the
prior's Bayes denoiser and the channel's output function, ridge regression by a linear
solve, ℓ2-penalised logistic regression by L-BFGS on the primal, and the ℓ2-penalised hinge
loss (the soft-margin SVM) by L-BFGS-B on its dual, a box-constrained quadratic programme.
numpy/scipy only; it imports no theory (the wall of tests/framework/test_architecture.py):
its denoisers and output functions are written here, from the definitions
Z_out(y, ω, V) = E_u P_out(y | ω + √V u) and Z₀ = ∫dP₀(w) e^{Bw − Aw²/2}.

GAMP with scalar variances (the i.i.d. Gaussian matrix makes every row of X/√d of norm ≈ 1):
V = mean v̂, ω = Xŵ/√d − V g, g = ∂_ω ln Z_out, A = −α mean ∂_ω g, B = Xᵀg/√d + Aŵ,
ŵ = E[w | B, A], v̂ = Var[w | B, A]. The matrix is stored in float32 (half the memory; the
products carry 7 digits, far below the O(d^(−1/2)) fluctuations measured).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from fltheory.papers.glm.params import AmpRun, Channel, ErmRun, Prior

__all__ = ["FIT_TOLERANCE", "AmpResult", "amp_overlap", "erm_fit", "labels", "ridge_fit",
           "teacher"]

_LOG2PI = 0.5 * math.log(2 * math.pi)


def teacher(prior: Prior, d: int, rng: np.random.Generator) -> np.ndarray:
    """The teacher w*: ``d`` i.i.d. draws from the prior's mixture of point masses and
    Gaussians (a component with variance 0 is a point mass).

    >>> from fltheory.papers.glm.params import rademacher
    >>> teacher(rademacher(), 6, np.random.default_rng(0))
    array([-1.,  1.,  1.,  1., -1., -1.])
    """
    w = np.array([float(c[0]) for c in prior.components])
    k = rng.choice(len(w), size=d, p=w / w.sum())
    mu = np.array([float(c[1]) for c in prior.components])[k]
    sd = np.sqrt(np.array([float(c[2]) for c in prior.components]))[k]
    return mu + sd * rng.standard_normal(d)


def labels(channel: Channel, z: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The labels y = φ(z + σ_in ε') + σ ε of the channel at the teacher's fields ``z``.

    >>> labels(Channel("sign"), np.array([-1.0, 0.5, 2.0]), np.random.default_rng(0))
    array([-1.,  1.,  1.])
    """
    zp = z + float(channel.probit) * rng.standard_normal(z.shape)
    k = channel.kind
    if k == "sign":
        y = np.where(zp > 0, 1.0, -1.0)
    elif k == "door":
        y = np.where(np.abs(zp) > float(channel.K), 1.0, -1.0)
    elif k == "abs":
        y = np.abs(zp)
    elif k == "square":
        y = zp * zp
    elif k == "relu":
        y = np.maximum(zp, 0.0)
    elif k == "linear":
        y = zp
    else:
        raise ValueError(f"the simulator has no channel {k}")
    if channel.noise:
        y = y + float(channel.noise) * rng.standard_normal(z.shape)
    return y


# ----------------------------------------------------------------------------- denoisers


def _prior_posterior(prior: Prior, B: np.ndarray, A: float) -> tuple[np.ndarray, np.ndarray]:
    """E[w | B] and Var[w | B] under P₀(w) e^{Bw − Aw²/2} (component by component: a point
    mass μ weighs e^{Bμ − Aμ²/2}, a Gaussian N(μ, s) integrates to a Gaussian in B)."""
    logs, means, vars_ = [], [], []
    for p, mu, s in prior.components:
        p, mu, s = float(p), float(mu), float(s)
        prec = 1.0 / s + A if s > 0 else math.inf
        if s > 0:
            # ∫N(w; μ, s) e^{Bw − Aw²/2} dw: completing the square
            h = mu / s + B
            logs.append(math.log(p) - 0.5 * math.log(s * prec) + h * h / (2 * prec)
                        - mu * mu / (2 * s))
            means.append(h / prec)
            vars_.append(np.full_like(B, 1.0 / prec))
        else:
            logs.append(math.log(p) + B * mu - A * mu * mu / 2)
            means.append(np.full_like(B, mu))
            vars_.append(np.zeros_like(B))
    L = np.stack([np.broadcast_to(x, B.shape) for x in logs])
    L = L - L.max(axis=0)
    r = np.exp(L)
    r /= r.sum(axis=0)
    M = np.stack(means)
    S = np.stack(vars_)
    mean = (r * M).sum(axis=0)
    second = (r * (S + M * M)).sum(axis=0)
    return mean, np.maximum(second - mean * mean, 0.0)


def _ratio(log_num: np.ndarray, log_den: np.ndarray) -> np.ndarray:
    return np.exp(log_num - log_den)


def _output(channel: Channel, y: np.ndarray, w: np.ndarray,
            V: float) -> tuple[np.ndarray, np.ndarray]:
    """g_out = ∂_ω ln Z_out and its ω-derivative, from the channel's definition."""
    Vp = V + float(channel.probit) ** 2
    k = channel.kind
    if k == "linear":
        tot = Vp + float(channel.noise) ** 2
        return (y - w) / tot, np.full_like(w, -1.0 / tot)
    s = math.sqrt(Vp)
    if channel.noise and k == "sign":
        return _noisy_sign_output(y, w, s, float(channel.noise))
    if channel.noise and k == "relu":
        return _noisy_relu_output(y, w, Vp, float(channel.noise))
    if channel.noise:
        raise ValueError(f"the simulator has no output function for {k} with additive noise")
    if k == "sign":
        x = y * w / s
        R = _ratio(-0.5 * x * x - _LOG2PI, special.log_ndtr(x))      # φ(x)/Φ(x)
        return y * R / s, (-x * R - R * R) / Vp
    if k == "door":
        K = float(channel.K)
        a, b = (K - w) / s, (-K - w) / s           # inner interval (−K, K) in units of s
        # Z(−1) = Φ(a) − Φ(b); Z(+1) = Φ(−a) + Φ(b)
        la, lb = special.log_ndtr(a), special.log_ndtr(b)
        lza = special.log_ndtr(-a)
        z_minus_log = la + np.log1p(-np.exp(np.minimum(lb - la, 0.0)))
        z_plus_log = np.logaddexp(lza, lb)
        pa, pb = -0.5 * a * a - _LOG2PI, -0.5 * b * b - _LOG2PI
        # ∂_ω Z(−1) = (−φ(a) + φ(b))/s, ∂²_ω Z(−1) = (−aφ(a) + bφ(b))/V
        zl = np.where(y < 0, z_minus_log, z_plus_log)
        sg = np.where(y < 0, 1.0, -1.0)
        d1 = sg * (-_ratio(pa, zl) + _ratio(pb, zl)) / s
        d2 = sg * (-a * _ratio(pa, zl) + b * _ratio(pb, zl)) / Vp
        return d1, d2 - d1 * d1
    if k in ("abs", "square"):
        a = np.abs(y) if k == "abs" else np.sqrt(np.maximum(y, 0.0))
        t = np.tanh(a * w / Vp)
        return (a * t - w) / Vp, (a * a * (1 - t * t) / Vp - 1.0) / Vp
    if k == "relu":
        x = w / s
        R = _ratio(-0.5 * x * x - _LOG2PI, special.log_ndtr(-x))     # φ(x)/Φ(−x)
        g0, d0 = -R / s, -R * (R - x) / Vp
        return np.where(y > 0, (y - w) / Vp, g0), np.where(y > 0, -1.0 / Vp, d0)
    raise ValueError(f"the simulator has no output function for {k}")


def _noisy_sign_output(y: np.ndarray, w: np.ndarray, s: float,
                       sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """y = sign(z') + σε: Z = Φ(x)N(y; 1, σ²) + Φ(−x)N(y; −1, σ²), x = ω/s, so
    ∂_ω Z = φ(x)(N₊ − N₋)/s and ∂²_ω Z = −xφ(x)(N₊ − N₋)/s² (each N scaled by the larger)."""
    x = w / s
    lp, lm = -0.5 * ((y - 1) / sigma) ** 2, -0.5 * ((y + 1) / sigma) ** 2
    top = np.maximum(lp, lm)
    npl, nmi = np.exp(lp - top), np.exp(lm - top)
    Z = special.ndtr(x) * npl + special.ndtr(-x) * nmi
    d1 = np.exp(-0.5 * x * x - _LOG2PI) * (npl - nmi) / s
    g = d1 / Z
    return g, -x * d1 / (s * Z) - g * g


def _noisy_relu_log_z(y: np.ndarray, w: np.ndarray, V: float, sigma: float) -> np.ndarray:
    """ln Z for y = max(0, z') + σε: Z = Φ(−ω/√V)N(y; 0, σ²) + N(y; ω, V + σ²)Φ(m/τ),
    m = (ωσ² + Vy)/(V + σ²), τ² = Vσ²/(V + σ²) (the Gaussian product on z' > 0)."""
    s2, S2 = sigma * sigma, V + sigma * sigma
    a = special.log_ndtr(-w / math.sqrt(V)) - 0.5 * y * y / s2 - 0.5 * math.log(s2)
    m = (w * s2 + V * y) / S2
    tau = math.sqrt(V * s2 / S2)
    b = -0.5 * (y - w) ** 2 / S2 - 0.5 * math.log(S2) + special.log_ndtr(m / tau)
    return np.logaddexp(a, b)


def _noisy_relu_output(y: np.ndarray, w: np.ndarray, V: float,
                       sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """g_out and its ω-derivative as central differences of ln Z (step 10⁻⁴√V: the error,
    ~10⁻⁸ relative, is far below GAMP's finite-d fluctuations)."""
    h = 1e-4 * math.sqrt(V)
    lo, mid, hi = (_noisy_relu_log_z(y, w + e, V, sigma) for e in (-h, 0.0, h))
    return (hi - lo) / (2 * h), (hi - 2 * mid + lo) / (h * h)


def _predict(channel: Channel, w: np.ndarray, V: float) -> np.ndarray:
    """The Bayes prediction of a fresh label from ω = x·ŵ/√d and V: the most probable label
    (±1 channels), else E[y | ω]."""
    Vp = V + float(channel.probit) ** 2
    s = math.sqrt(Vp)
    k = channel.kind
    if channel.noise and k == "sign":        # E[y | ω] = Φ(x) − Φ(−x)
        return np.sign(w) if s == 0 else 2.0 * special.ndtr(w / s) - 1.0
    if k == "sign":
        return np.where(w > 0, 1.0, -1.0)
    if k == "door":
        K = float(channel.K)
        inner = special.ndtr((K - w) / s) - special.ndtr((-K - w) / s)
        return np.where(inner > 0.5, -1.0, 1.0)
    x = w / s
    if k == "abs":
        return s * (2 * np.exp(-0.5 * x * x - _LOG2PI) + x * (2 * special.ndtr(x) - 1))
    if k == "square":
        return w * w + Vp
    if k == "relu":
        return w * special.ndtr(x) + s * np.exp(-0.5 * x * x - _LOG2PI)
    return w


@dataclass(frozen=True)
class AmpResult:
    """GAMP's final overlap m = ŵ·w*/d (times ρ d/|w*|²; its modulus for a channel even in z),
    the test error of its Bayes prediction on fresh
    samples, the iterates of m, the seconds per iteration and of its two products."""

    overlap: float
    test_error: float
    trajectory: tuple[float, ...]
    seconds_per_iteration: float
    matvec_seconds: float


def amp_overlap(prior: Prior, channel: Channel, run: AmpRun, n_test: int = 4000) -> AmpResult:
    """One GAMP run (uninformative start: ŵ = E w + 10⁻³ noise, v̂ = Var w).

    >>> from fltheory.papers.glm.params import rademacher, Channel, AmpRun
    >>> r = amp_overlap(rademacher(), Channel("sign"), AmpRun(400, 1, 30, seed=1))
    >>> 0.4 < r.overlap < 0.7
    True
    """
    rng = np.random.default_rng(run.seed)
    d, n = run.d, run.n
    w_star = teacher(prior, d, rng)
    X = rng.standard_normal((n, d), dtype=np.float32)
    y = labels(channel, X @ w_star.astype(np.float32) / math.sqrt(d), rng)
    mean = sum(float(p) * float(mu) for p, mu, _ in prior.components)
    rho = sum(float(p) * (float(mu) ** 2 + float(s)) for p, mu, s in prior.components)
    w_hat = mean + 1e-3 * rng.standard_normal(d)
    v_hat = np.full(d, rho - mean * mean)
    g = np.zeros(n)
    alpha = n / d
    traj = []
    sq = math.sqrt(d)
    # the overlap in units of this teacher's norm (|w*|²/d fluctuates by √(2/d) for a
    # Gaussian prior), up to the global sign that a symmetric channel cannot see
    norm = rho / float(w_star @ w_star / d)
    symmetric = channel.kind in ("door", "abs", "square")
    t_mv = 0.0
    t0 = time.perf_counter()
    for _ in range(run.iterations):
        V = float(v_hat.mean())
        t1 = time.perf_counter()
        Xw = X @ w_hat.astype(np.float32)
        t_mv += time.perf_counter() - t1
        omega = Xw.astype(float) / sq - V * g
        g, dg = _output(channel, y, omega, V)
        A = max(-alpha * float(dg.mean()), 1e-12)
        t1 = time.perf_counter()
        Xg = X.T @ g.astype(np.float32)
        t_mv += time.perf_counter() - t1
        B = Xg.astype(float) / sq + A * w_hat
        w_hat, v_hat = _prior_posterior(prior, B, A)
        m = float(w_hat @ w_star / d) * norm
        traj.append(abs(m) if symmetric else m)
        if float(v_hat.mean()) < 1e-12 * rho:
            break
    per_it = (time.perf_counter() - t0) / len(traj)
    Xt = rng.standard_normal((n_test, d))
    yt = labels(channel, Xt @ w_star / sq, rng)
    pred = _predict(channel, Xt @ w_hat / sq, float(v_hat.mean()))
    err = float(np.mean(pred != yt)) if channel.discrete else float(np.mean((pred - yt) ** 2))
    return AmpResult(traj[-1], err, tuple(traj), per_it, t_mv / len(traj))


def ridge_fit(prior: Prior, channel: Channel, run: AmpRun, lam: float,
              n_test: int = 4000) -> tuple[float, float, float]:
    """Ridge ŵ = (XᵀX/d + λI)⁻¹Xᵀy/√d on one sample: (m, q, test error) with m = ŵ·w*/d,
    q = |ŵ|²/d, the error of sign(x·ŵ/√d) (±1 labels) or its mean-square error.

    >>> from fltheory.papers.glm.params import gaussian
    >>> [round(v, 2) for v in ridge_fit(gaussian(), Channel("sign"), AmpRun(400, 2), 0.5708)]
    [0.55, 0.44, 0.19]
    """
    rng = np.random.default_rng(run.seed)
    d, n = run.d, run.n
    w_star = teacher(prior, d, rng)
    X = rng.standard_normal((n, d))
    sq = math.sqrt(d)
    y = labels(channel, X @ w_star / sq, rng)
    w = np.linalg.solve(X.T @ X / d + lam * np.eye(d), X.T @ y / sq)
    Xt = rng.standard_normal((n_test, d))
    yt = labels(channel, Xt @ w_star / sq, rng)
    pred = Xt @ w / sq
    if channel.discrete:
        err = float(np.mean(np.where(pred > 0, 1.0, -1.0) != yt))
    else:
        err = float(np.mean((pred - yt) ** 2))
    return float(w @ w_star / d), float(w @ w / d), err


def _logistic_fit(X: np.ndarray, y: np.ndarray, lam: float) -> tuple[np.ndarray, float]:
    """argmin_w Σ ln(1 + e^{−y x·w/√d}) + ½λ|w|² by L-BFGS (stopping when the objective no
    longer decreases in double precision), and a bound on |ŵ − argmin|/|ŵ|: the objective is
    λ-strongly convex, so the distance to the minimiser is at most |∇|/λ."""
    d = X.shape[1]
    sq = math.sqrt(d)
    Xy = X * (y / sq)[:, None]

    def fg(w: np.ndarray) -> tuple[float, np.ndarray]:
        t = Xy @ w
        loss = float(np.sum(np.logaddexp(0.0, -t))) + 0.5 * lam * float(w @ w)
        grad = -(Xy.T @ special.expit(-t)) + lam * w
        return loss, grad

    res = optimize.minimize(fg, np.zeros(d), jac=True, method="L-BFGS-B",
                            options={"maxiter": 20000, "gtol": 1e-10, "ftol": 1e-15,
                                     "maxcor": 30})
    w = np.asarray(res.x)
    return w, float(np.linalg.norm(fg(w)[1])) / lam / max(float(np.linalg.norm(w)), 1e-300)


def _hinge_fit(X: np.ndarray, y: np.ndarray, lam: float) -> tuple[np.ndarray, float]:
    """argmin_w Σ max(0, 1 − y x·w/√d) + ½λ|w|² through its dual,
    max_{0 <= β <= 1} Σβ − |Σ β y x/√d|²/(2λ), w = Σ β y x/(λ√d) (L-BFGS-B with the box), and a
    bound on |ŵ − argmin|/|ŵ| from the duality gap G = primal(ŵ) − dual(β): the primal is
    λ-strongly convex, so |ŵ − argmin|² <= 2G/λ."""
    n, d = X.shape
    sq = math.sqrt(d)
    Xy = X * (y / sq)[:, None]

    def fg(b: np.ndarray) -> tuple[float, np.ndarray]:
        v = Xy.T @ b
        return 0.5 * float(v @ v) / lam - float(b.sum()), (Xy @ v) / lam - 1.0

    res = optimize.minimize(fg, np.full(n, 0.5), jac=True, method="L-BFGS-B",
                            bounds=[(0.0, 1.0)] * n,
                            options={"maxiter": 50000, "gtol": 1e-10, "ftol": 1e-15,
                                     "maxcor": 30})
    w = np.asarray(Xy.T @ res.x) / lam
    primal = float(np.sum(np.maximum(0.0, 1.0 - Xy @ w))) + 0.5 * lam * float(w @ w)
    gap = max(primal + float(res.fun), 0.0)
    return w, math.sqrt(2 * gap / lam) / max(float(np.linalg.norm(w)), 1e-300)


#: the largest relative distance |ŵ − argmin|/|ŵ| a fit may leave (far below the O(d^(−1/2))
#: spread of m and q over instances)
FIT_TOLERANCE = 1e-3


def erm_fit(prior: Prior, channel: Channel, loss: str, run: ErmRun,
            n_test: int = 4000) -> tuple[float, float, float]:
    """One fit of ``loss`` (ridge, logistic or hinge) at penalty run.lam on one sample:
    (m, q, test error) with m = ŵ·w*/d, q = |ŵ|²/d and the error of sign(x·ŵ/√d) on
    ``n_test`` fresh samples. A fit whose certified distance to the exact minimiser exceeds
    :data:`FIT_TOLERANCE` (relative) raises ArithmeticError rather than return it.

    >>> from fltheory.papers.glm.params import gaussian, Channel, ErmRun
    >>> m, q, e = erm_fit(gaussian(), Channel("sign"), "hinge", ErmRun(200, 2, "1/10"))
    >>> 0.1 < e < 0.3
    True
    """
    rng = np.random.default_rng(run.seed)
    d, n = run.d, run.n
    lam = float(run.lam)
    w_star = teacher(prior, d, rng)
    X = rng.standard_normal((n, d))
    sq = math.sqrt(d)
    y = labels(channel, X @ w_star / sq, rng)
    if loss == "logistic":
        w, off = _logistic_fit(X, y, lam)
    elif loss == "hinge":
        w, off = _hinge_fit(X, y, lam)
    else:
        w, off = np.linalg.solve(X.T @ X / d + lam * np.eye(d), X.T @ y / sq), 0.0
    if not off <= FIT_TOLERANCE:
        raise ArithmeticError(f"the {loss} fit at d = {d}, lambda = {lam:g} stopped with "
                              f"|w - argmin|/|w| up to {off:.2g} (> {FIT_TOLERANCE:g})")
    Xt = rng.standard_normal((n_test, d))
    yt = labels(channel, Xt @ w_star / sq, rng)
    err = float(np.mean(np.where(Xt @ w > 0, 1.0, -1.0) != yt))
    return float(w @ w_star / d), float(w @ w / d), err
