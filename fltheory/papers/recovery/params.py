"""The sequential-recovery paper's parameters, as frozen objects read once at construction by
:mod:`fltheory.args` and trusted afterwards by the theory, the simulator, the runs and the claims.

=======================  ===================================================================
object                   what it holds
=======================  ===================================================================
:class:`Features`        the first layer: degree-q Hermite features of x ∈ R^d, the dimension
                         the thresholds use (``D`` = C(d+q−1, q) or ``dq`` = d^q)
:class:`Strengths`       the strengths λ_k of the directions: k^(−γ) for k <= d1 (d1 = ∞ or
                         None allowed) or explicit values λ_1, λ_2, … (any size, exact)
:class:`ThresholdQuery`  the thresholds n_k asked for: features, strengths, the k, C, dps
:class:`Model`           the finite-δ target of the Lu–Li theory: d1 <= 64 directions of
                         strengths k^(−γ), a bounded label transform (rank or sign)
:class:`RecoveryQuery`   one sample size n > 0 of a model on features, at ``dps`` digits
:class:`LawQuery`        the d1 = ∞ MSE law of exponent γ for a constant C > 0, at ``dps``
:class:`SpectralRun`     one run of the simulated spectral algorithm (sizes, modes, memory)
:class:`Simulation`      the runs ``recovery simulate`` compares with the theory (seconds of
                         work: d <= 60, D <= 4000, n <= 2·10^6, seeds <= 100)
:class:`DepthRun`        one run of the depth comparison: the spectral method and kernel ridge
                         regression on the same n points of the sphere of radius √d
=======================  ===================================================================

Definitions, not formulas: the bounds are written here once (the command and the Python API
refuse the same values with the same one-line message); the feature count C(d+q−1, q) that
the bounds need is the size of the feature space, which the simulator shares (the theory
computes its own, :func:`fltheory.papers.recovery.counting.feature_dimension`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fltheory.args import (
    read_choice,
    read_count,
    read_dps,
    read_exact,
    read_real,
    settle,
)
from fltheory.exact import DomainError, Infinity, check_cost, short_rational, to_float

__all__ = ["DEPTH_MAX_N", "DIMS", "FEATURES", "LATENTS", "MAX_D1", "MAX_DIGITS", "MAX_Q",
           "MAX_SIM_BYTES", "MAX_THRESHOLD_ROWS", "SIM_MAX_D", "SIM_MAX_D1", "SIM_MAX_D_OTHER",
           "SIM_MAX_FEATURES", "SIM_MAX_Q", "SIM_MAX_SEEDS", "SIM_N", "SIM_TRANSFORMS",
           "TRANSFORMS", "DepthRun", "Features", "LawQuery", "Model", "RecoveryQuery",
           "Simulation", "SpectralRun", "Strengths", "ThresholdQuery", "feature_count", "k_text"]

#: Hermite degree q of the first layer (the CLI's --q): D = C(d + q − 1, q).
MAX_Q = 64
#: digits of D and of an exact threshold: beyond, integers are slow to print (Python refuses
#: more than 4300 digits) and no sample size is meaningful.
MAX_DIGITS = 1000
#: directions of the finite-δ theory (Ruben's series, or the Fourier inversion, per direction)
MAX_D1 = 64
#: rows of a threshold table: each is a few mpmath evaluations (~0.1 ms) plus a printed line,
#: so 10^4 rows ≈ 1 s
MAX_THRESHOLD_ROWS = 10_000
#: the dimension the thresholds use: D = C(d+q−1, q) or d^q
DIMS = ("D", "dq")
#: the bounded label transforms of the finite-δ theory
TRANSFORMS = ("rank", "sign")
#: the simulator's feature modes, label transforms and laws of the latent directions
FEATURES = ("gaussian", "hermite")
SIM_TRANSFORMS = ("rank", "sign", "identity")
LATENTS = ("flat", "random")
#: Memory of a run: Ĉ and its eigenvectors (D × D each), a chunk of features (chunk × D, two
#: with prefetch), the labels (n) and the second layer's design (n_fit or n_test rows of
#: keep + 2): 2 GiB keeps a run on a small machine.
MAX_SIM_BYTES = 2 * 1024**3
#: bounds of ``recovery simulate`` (:class:`Simulation`): seconds of work
SIM_MAX_Q = 4
SIM_MAX_D = {2: 60}  # q = 2; other q: SIM_MAX_D_OTHER
SIM_MAX_D_OTHER = 20
SIM_MAX_FEATURES = 4000
SIM_N = (10, 2 * 10**6)
SIM_MAX_D1 = 64
SIM_MAX_SEEDS = 100
#: the rows of the simulator's chunks (the moment matrix is accumulated chunk by chunk)
CHUNK = 8192


def feature_count(d: int, q: int) -> int:
    """The number of degree-q Hermite features of d variables, C(d + q − 1, q) (exact), for the
    bounds and the simulator; ``d``, ``q`` already read.

    >>> feature_count(10, 2), feature_count(10, 3)
    (55, 220)
    """
    return math.comb(d + q - 1, q)


def k_text(ks: Sequence[int]) -> str:
    """A list of directions as the CLI writes it: ``a..b`` when consecutive, else ``a,b,c``.

    >>> k_text([1, 2, 3]), k_text([2, 5])
    ('1..3', '2,5')
    """
    if len(ks) > 1 and list(ks) == list(range(ks[0], ks[0] + len(ks))):
        return f"{ks[0]}..{ks[-1]}"
    return ",".join(map(str, ks[:20])) + (",…" if len(ks) > 20 else "")


def _read_d1(d1: Any) -> int | float | None:
    """d1: None (no normalisation), math.inf (d1 = ∞; also the command line's ``inf``) or an
    integer >= 1."""
    if d1 is None or (isinstance(d1, float) and d1 == math.inf):
        return d1
    if isinstance(d1, Infinity):
        return math.inf
    return read_count(d1, "d1", 1)


def _read_ks(ks: Any) -> tuple[int, ...]:
    """A non-empty list of directions k >= 1, at most MAX_THRESHOLD_ROWS of them."""
    if isinstance(ks, str | bytes) or not isinstance(ks, Sequence) or not ks:
        raise DomainError("k", repr(ks), "a non-empty list of integers >= 1")
    out = tuple(read_count(k, "k", 1) for k in ks)
    check_cost(f"k = {k_text(out)}", len(out), MAX_THRESHOLD_ROWS, "rows",
               "ask for fewer directions")
    return out


def _read_values(values: Any) -> tuple[Fraction, ...]:
    """Explicit strengths λ_1, λ_2, …: a non-empty list of positive exact numbers."""
    allowed = "positive numbers λ_1,λ_2,…"
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise DomainError("strengths", repr(values), allowed)
    out = tuple(read_exact(a, "strengths") for a in values)
    if not out or min(out) <= 0:
        raise DomainError("strengths", ",".join(map(short_rational, out)), allowed)
    return out


@dataclass(frozen=True)
class Features:
    """The first layer: degree-``q`` Hermite features of x ∈ R^``d`` (d >= 1, 1 <= q <=
    MAX_Q, D = C(d+q−1, q) of at most MAX_DIGITS digits); ``dim``: the dimension the thresholds
    use, ``D`` or ``dq`` (d^q; they differ by about q!).

    >>> Features(100).q, Features(10**6, 3, "dq").dim
    (2, 'dq')
    >>> Features(10**600, 4)
    Traceback (most recent call last):
    fltheory.exact.DomainError: d = 1e600 (about) gives D of about 2399 digits at q = 4; ...
    """

    d: Any
    q: Any = 2
    dim: Any = "D"

    def __post_init__(self) -> None:
        d = read_count(self.d, "d", 1)
        q = read_count(self.q, "q", 1, MAX_Q)
        # d^q/q! <= D <= d^q·e^q/q!... : refuse on the lower bound, in logs (d may be huge)
        digits = q * math.log10(d) - math.lgamma(q + 1) / math.log(10)
        if digits > MAX_DIGITS:
            shown = d if d.bit_length() < 100 else f"1e{math.log10(d):.0f} (about)"
            raise DomainError("d", shown, f"d with D = C(d + q − 1, q) of at most {MAX_DIGITS} "
                              "digits", reason=f"gives D of about {digits:.0f} digits at q = {q}")
        settle(self, d=d, q=q, dim=read_choice(self.dim, "dim", DIMS))

    @property
    def label(self) -> str:
        """The dimension as the outputs name it: ``D`` or ``d^q``."""
        return "D" if self.dim == "D" else f"d^{self.q}"


@dataclass(frozen=True)
class Strengths:
    """The strengths of the directions, normalised by the model to c_k = λ_k/‖λ‖: λ_k = k^(−γ)
    (γ > 0 exact, of any size) for k <= ``d1`` (an integer >= 1; ``math.inf``: every k, ‖λ‖² =
    ζ(2γ); None: the k^(−γ) taken as normalised), or explicit ``values`` λ_1, λ_2, … (positive,
    exact; then ``d1`` is their number and γ is not used).

    >>> Strengths("3/2").gamma, Strengths(values=[1, "1/2"]).d1
    (Fraction(3, 2), 2)
    """

    gamma: Any = 1
    d1: Any = math.inf
    values: Any = None

    def __post_init__(self) -> None:
        if self.values is not None:
            values = _read_values(self.values)
            settle(self, gamma=None, d1=len(values), values=values)
        else:
            settle(self, gamma=read_exact(self.gamma, "gamma", 0, open_low=True),
                   d1=_read_d1(self.d1))


@dataclass(frozen=True)
class ThresholdQuery:
    """The thresholds n_k = C·D/c_k² asked for: on ``features``, for ``strengths``, at the
    directions ``ks`` (a non-empty list of k >= 1, each <= d1, at most MAX_THRESHOLD_ROWS), the
    weak-direction constant ``C`` > 0 (exact) and ``dps`` digits.

    >>> ThresholdQuery(Features(100), Strengths(1, 2), [1, 2], "1/2").C
    Fraction(1, 2)
    """

    features: Features
    strengths: Strengths
    ks: Any = (1,)
    C: Any = 1
    dps: Any = 30

    def __post_init__(self) -> None:
        ks = _read_ks(self.ks)
        dps = read_dps(self.dps)
        C = read_exact(self.C, "C", 0, open_low=True)
        s = self.strengths
        if s.values is not None and max(ks) > s.d1:
            raise DomainError("k", max(ks), f"k <= {s.d1} (the number of strengths)")
        if s.values is None and s.d1 is not None and max(ks) > s.d1:
            raise DomainError("k", max(ks), f"k <= d1 = {s.d1}")
        settle(self, ks=ks, C=C, dps=dps)


@dataclass(frozen=True)
class Model:
    """The target of the finite-δ (Lu–Li) theory: ``d1`` directions (1 <= d1 <= MAX_D1) of
    strengths λ_k = k^(−γ) (γ > 0, exact), a bounded label transform ``rank`` or ``sign``. The
    cost of its label law is the theory's (:class:`~fltheory.papers.recovery.luli.RecoveryModel`).

    >>> Model(2, "3/2").gamma
    Fraction(3, 2)
    >>> Model(2, 1, "identity")
    Traceback (most recent call last):
    fltheory.exact.DomainError: transform = identity is not one of the choices; ...
    """

    d1: Any = 8
    gamma: Any = 1
    transform: Any = "rank"

    def __post_init__(self) -> None:
        d1 = read_count(self.d1, "d1", 1, MAX_D1)
        gamma = read_exact(self.gamma, "gamma", 0, open_low=True)
        settle(self, d1=d1, gamma=gamma,
               transform=read_choice(self.transform, "transform", TRANSFORMS))


@dataclass(frozen=True)
class RecoveryQuery:
    """One sample size ``n`` > 0 (exact; δ = n/D must be a double, checked by the theory) of a
    ``model`` on ``features``, its law at ``dps`` digits.

    >>> RecoveryQuery(Features(100), Model(2), "1e6").n
    Fraction(1000000, 1)
    """

    features: Features
    model: Model
    n: Any
    dps: Any = 30

    def __post_init__(self) -> None:
        settle(self, dps=read_dps(self.dps), n=read_exact(self.n, "n", 0, open_low=True))


@dataclass(frozen=True)
class LawQuery:
    """The d1 = ∞ MSE law for the exponent ``gamma`` (exact; the law needs γ > 1/2, the
    theory's rule) and a weak-direction constant ``C`` > 0 (exact), at ``dps`` digits.

    >>> LawQuery("3/2", "0.211513").C
    Fraction(211513, 1000000)
    >>> LawQuery(1, 0)
    Traceback (most recent call last):
    fltheory.exact.DomainError: C = 0 is outside the allowed range C > 0
    """

    gamma: Any
    C: Any = 1
    dps: Any = 30

    def __post_init__(self) -> None:
        settle(self, gamma=read_exact(self.gamma, "gamma"),
               C=read_exact(self.C, "C", 0, open_low=True), dps=read_dps(self.dps))


def _read_lam(lam: Any) -> tuple[float, ...]:
    """Explicit strengths of a simulation: a non-empty list of positive finite numbers."""
    listed = isinstance(lam, Sequence) or type(lam).__name__ == "ndarray"
    if isinstance(lam, str | bytes) or not listed or len(lam) == 0:
        raise DomainError("lam", repr(lam), "a non-empty list of positive numbers")
    return tuple(read_real(x, "lam", 0, open_low=True) for x in lam)


@dataclass(frozen=True)
class SpectralRun:
    """One run of the simulated spectral algorithm
    (:func:`fltheory.papers.recovery.sim.run`): inputs of dimension ``d`` >= 1, ``n`` >= 2
    samples, Hermite degree ``q`` (<= MAX_Q; ``hermite`` features need q = 2), ``d1`` latent
    directions (<= D) of strengths i^(−γ) (γ > 0) or ``lam`` (positive numbers; then d1 is
    their number), label noise ``sigma`` >= 0, the feature mode, label transform and latent law,
    ``keep`` top eigenvectors (1 <= keep <= D, default d1), ``n_fit`` (>= 2, default n) and
    ``n_test`` >= 2 samples of the second layer, ``chunk`` rows at a time; the arrays within
    MAX_SIM_BYTES.

    >>> SpectralRun(10, 1000).D
    55
    >>> SpectralRun(10, 1000, q=3, features="hermite")
    Traceback (most recent call last):
    fltheory.exact.DomainError: q = 3 is outside the allowed range q = 2 with hermite features
    """

    d: Any
    n: Any
    q: Any = 2
    d1: Any = 8
    gamma: Any = 1.0
    lam: Any = None
    features: Any = "gaussian"
    transform: Any = "rank"
    sigma: Any = 0.0
    keep: Any = None
    n_fit: Any = None
    n_test: Any = 20000
    latents: Any = "flat"
    chunk: Any = CHUNK

    def __post_init__(self) -> None:
        lam = None if self.lam is None else _read_lam(self.lam)
        gamma = None if lam is not None else read_real(self.gamma, "gamma", 0, open_low=True)
        sigma = read_real(self.sigma, "sigma", 0)
        d1 = read_count(self.d1 if lam is None else len(lam), "d1", 1)
        d, n = read_count(self.d, "d", 1), read_count(self.n, "n", 2)
        q = read_count(self.q, "q", 1, MAX_Q)
        chunk = read_count(self.chunk, "chunk", 1)
        n_test = read_count(self.n_test, "n_test", 2)
        features = read_choice(self.features, "features", FEATURES)
        transform = read_choice(self.transform, "transform", SIM_TRANSFORMS)
        latents = read_choice(self.latents, "latents", LATENTS)
        if features == "hermite" and q != 2:
            raise DomainError("q", q, "q = 2 with hermite features")
        D = feature_count(d, q)
        if d1 > D:
            raise DomainError("d1", d1, f"d1 <= D = {D}")
        keep = None if self.keep is None else read_count(self.keep, "keep", 1, D)
        n_fit = None if self.n_fit is None else read_count(self.n_fit, "n_fit", 2)
        width = d1 if keep is None else keep
        rows = max(n if n_fit is None else n_fit, n_test)
        need = (8 * (2 * D * D + 2 * min(chunk, n) * D + 2 * n)
                + 8 * (width + 2) * min(rows, 10**15))
        if need > MAX_SIM_BYTES:
            raise DomainError("d", d, f"{MAX_SIM_BYTES >> 30} GiB of arrays (D = C(d+q−1, q) = "
                                      f"{D}, n = {n}: about {need >> 20} MiB)")
        settle(self, d=d, n=n, q=q, d1=d1, gamma=gamma, lam=lam, features=features,
               transform=transform, sigma=sigma, keep=keep, n_fit=n_fit, n_test=n_test,
               latents=latents, chunk=chunk)

    @property
    def D(self) -> int:
        """The number of features, C(d + q − 1, q)."""
        return feature_count(self.d, self.q)


@dataclass(frozen=True)
class Simulation:
    """The runs that ``recovery simulate`` compares with the Lu–Li prediction: ``seeds`` runs
    (1..SIM_MAX_SEEDS, run s from the s-th SeedSequence child of ``seed``) of the spectral
    algorithm at ``n`` samples (SIM_N), input dimension ``d`` >= 2 (at most 60 at q = 2, 20
    otherwise; D = C(d+q−1, q) <= 4000), 1 <= q <= 4 (q = 2 with hermite features),
    1 <= ``d1`` <= min(64, D) directions of strengths k^(−γ) (γ > 0, exact), a feature mode and
    a label transform (``identity`` has no prediction). Bounds: seconds of work.

    >>> Simulation(6, 2000, d1=2).D, Simulation(6, 2000, transform="identity").model
    (21, None)
    >>> Simulation(61, 1000)
    Traceback (most recent call last):
    fltheory.exact.DomainError: d = 61 is outside the allowed range integers in [2, 60]
    """

    d: Any
    n: Any
    d1: Any = 8
    gamma: Any = 1
    features: Any = "gaussian"
    transform: Any = "rank"
    seed: Any = 0
    seeds: Any = 1
    q: Any = 2
    #: the model the theory predicts for (None for the identity transform)
    model: Model | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        gamma = read_exact(self.gamma, "gamma", 0, open_low=True)
        to_float(gamma, "gamma")  # the simulator takes γ as a double
        # in the order the command has always checked them
        q = read_count(self.q, "q", 1, SIM_MAX_Q)
        features = read_choice(self.features, "features", FEATURES)
        if features == "hermite" and q != 2:
            raise DomainError("q", q, "q = 2 with --features hermite (any q <= 4 with gaussian)")
        d = read_count(self.d, "d", 2, SIM_MAX_D.get(q, SIM_MAX_D_OTHER))
        d1 = read_count(self.d1, "d1", 1, SIM_MAX_D1)
        seeds = read_count(self.seeds, "seeds", 1, SIM_MAX_SEEDS)
        D = feature_count(d, q)
        if D > SIM_MAX_FEATURES:
            raise DomainError("d", d, f"C(d+q−1, q) <= {SIM_MAX_FEATURES} (here D = {D})")
        n = read_count(self.n, "n", *SIM_N)
        if d1 > D:
            raise DomainError("d1", d1, f"d1 <= D = {D}")
        transform = read_choice(self.transform, "transform", SIM_TRANSFORMS)
        settle(self, d=d, n=n, d1=d1, gamma=gamma, features=features, q=q, seeds=seeds,
               transform=transform, seed=read_count(self.seed, "seed", 0),
               model=None if transform == "identity" else Model(d1, gamma, transform))

    @property
    def D(self) -> int:
        """The number of features, C(d + q − 1, q)."""
        return feature_count(self.d, self.q)


#: samples of one depth comparison (:class:`DepthRun`): kernel ridge regression solves an
#: n × n system, O(n³): n = 12000 is about a minute on one core
DEPTH_MAX_N = 12_000


@dataclass(frozen=True)
class DepthRun:
    """One run of the depth comparison (:func:`fltheory.papers.recovery.sim.depth_simulate`):
    ``n`` >= 10 inputs (at most DEPTH_MAX_N) uniform on the sphere of radius √d in ℝ^d (4 <= d
    <= 60, D = d(d+1)/2 degree-2 Hermite features), ``d1`` flat latent directions (1 <= d1 <= D) of
    strengths i^(−γ) (γ > 0), ``n_test`` >= 10 test points (at most DEPTH_MAX_N); the arrays
    within MAX_SIM_BYTES.

    >>> DepthRun(12, 780).D
    78
    >>> DepthRun(12, 10**5)
    Traceback (most recent call last):
    fltheory.exact.DomainError: n = 100000 is outside the allowed range integers in [10, 12000]
    """

    d: Any
    n: Any
    d1: Any = 8
    gamma: Any = 1.0
    n_test: Any = 2000

    def __post_init__(self) -> None:
        d = read_count(self.d, "d", 4, SIM_MAX_D[2])
        n = read_count(self.n, "n", 10, DEPTH_MAX_N)
        n_test = read_count(self.n_test, "n_test", 10, DEPTH_MAX_N)
        D = feature_count(d, 2)
        d1 = read_count(self.d1, "d1", 1, D)
        gamma = read_real(self.gamma, "gamma", 0, open_low=True)
        # the Gram matrix and its factor (n × n each), the test kernel (n_test × n), the
        # features (n × D) and Ĉ with its eigenvectors (D × D each)
        need = 8 * (2 * n * n + n_test * n + n * D + 2 * D * D)
        if need > MAX_SIM_BYTES:
            raise DomainError("n", n, f"{MAX_SIM_BYTES >> 30} GiB of arrays (about "
                                      f"{need >> 20} MiB at d = {d}, n_test = {n_test})")
        settle(self, d=d, n=n, d1=d1, gamma=gamma, n_test=n_test)

    @property
    def D(self) -> int:
        """The number of degree-2 features, d(d+1)/2."""
        return feature_count(self.d, 2)
