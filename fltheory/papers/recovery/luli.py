r"""The Lu–Li overlaps of sequential recovery (:mod:`fltheory.papers.recovery.theory`, derivation in
its docstring): the laws of the label transform T (rank, sign) and their size-biased versions,
from the generalised χ² of :mod:`fltheory.papers.recovery.chi2`, and the model RecoveryModel:
θ_i, the large-δ thresholds, the weak-direction constant, the Lu–Li ρ_i²(δ) and the MSE curve."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from fltheory.args import read_choice, read_count, read_real
from fltheory.engine.spectral.luli import DiscreteLaw, luli_overlap
from fltheory.engine.spectral.spikes import semicircle_overlap_ratio
from fltheory.exact import CostError, DomainError, check_cost, short_rational
from fltheory.papers.recovery.chi2 import (
    _FourierChi2,
    _GenChi2,
    _weights,
    ruben_terms,
)
from fltheory.papers.recovery.params import MAX_D1, Model

_Floats = Sequence[float] | np.ndarray

__all__ = ["LabelLaw", "Overlap", "RecoveryModel", "ruben_work"]


@dataclass(frozen=True)
class LabelLaw(DiscreteLaw):
    """The law of T (nodes ``t`` with weights ``base``) and its size-biased versions
    (``biased[i]``: weights of E[h_i² ·]); sup of the support ``tau``: the engine's
    :class:`~fltheory.engine.spectral.luli.DiscreteLaw` (its ψ and φ sums), with the transform's
    ``name``, the ``slope`` E[T'(s)] and, for the rank transform, ψ in closed form. Built by
    :class:`RecoveryModel` (its ``law``), not by hand."""

    name: str
    slope: float  # E[T'(s)]: θ_i = √2 c_i E[T'(s)] + O(c_i²) (Stein)

    @property
    def second_moment(self) -> float:
        return float(self.base @ self.t ** 2)

    def theta(self) -> np.ndarray:
        """θ_i = E[T (h_i² − 1)]."""
        return self.biased @ self.t - self.base @ self.t

    def psi(self, lam: float, delta: float) -> tuple[float, float]:
        """ψ_δ(λ) and ψ_δ'(λ): the engine's sums, or the closed form for the rank transform
        (T uniform on [−1, 1]). φ_i(λ) is the engine's sum over the size-biased weights."""
        if self.name == "rank":  # closed form, T uniform on [−1, 1]
            L = math.log((lam + 1) / (lam - 1))
            return (lam / delta - lam + lam * lam * L / 2,
                    1 / delta - 1 + lam * L - lam * lam / (lam * lam - 1))
        return super().psi(lam, delta)


def _family(w: np.ndarray, method: str) -> tuple[Any, list[Any]]:
    """The law of Q = Σ w_i χ²_1 and its d1 size-biased versions (χ²_3 in term i), by Ruben's
    series (``ruben``) or by Fourier inversion (``fourier``)."""
    if method == "fourier":
        return _FourierChi2.family(w)
    biased = []
    for i in range(len(w)):
        m = np.ones_like(w)
        m[i] = 3
        biased.append(_GenChi2(w, m))
    return _GenChi2(w, np.ones_like(w)), biased


def _rank_law(w: np.ndarray, method: str = "ruben", nodes: int = 6001) -> LabelLaw:
    """T = 2F(s) − 1 on a grid x = u² (Simpson in u), where the singular corners of the χ²
    densities are smooth."""
    base, laws = _family(w, method)
    xmax = 2 * w.max() * 40 + 4 * float(np.sum(w))  # 1 − F < 1e-15 well before xmax
    u = np.linspace(0.0, math.sqrt(xmax), nodes)
    x = u * u
    simpson = np.ones(nodes)
    simpson[1:-1:2], simpson[2:-1:2] = 4, 2
    jac = simpson * (u[1] - u[0]) / 3 * 2 * u  # dx = 2u du
    p = base.pdf(x)  # +inf at x = 0 when d1 = 1 (s is a scaled χ²_1)
    t = 1 - 2 * base.sf(x)
    with np.errstate(invalid="ignore"):
        weights = p * jac
    # at u = 0 the weight is (h/3)·lim 2u p(u²): finite for d1 = 1, where p·jac is inf·0
    weights[0] = simpson[0] * (u[1] - u[0]) / 3 * base.density_at_zero_in_u()
    biased = [law.pdf(x) * jac for law in laws]
    # E[T'(s)] = 2∫p²: infinite for d1 = 1 (p ~ x^{−1/2} at 0), finite for d1 >= 2
    slope = float(2 * weights @ p) if np.isfinite(p[0]) else math.inf
    return LabelLaw(t, weights, np.array(biased), 1.0, name="rank", slope=slope)


def _sign_law(w: np.ndarray, method: str = "ruben") -> LabelLaw:
    """T = sign(s − median s): two atoms; the biased masses come from the size-biased CDFs."""
    from scipy.optimize import brentq

    base, laws = _family(w, method)
    hi = 2 * w.max() * 40 + 4 * float(np.sum(w))
    med = brentq(lambda z: float(base.sf(np.array([z]))[0]) - 0.5, 0.0, hi, xtol=1e-14)
    biased = []
    for law in laws:
        up = float(law.sf(np.array([med]))[0])
        biased.append([1 - up, up])
    return LabelLaw(np.array([-1.0, 1.0]), np.array([0.5, 0.5]), np.array(biased), 1.0,
                    name="sign", slope=float(2 * base.pdf(np.array([med]))[0]))


LAWS = {"rank": _rank_law, "sign": _sign_law}


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class Overlap:
    """The Lu–Li answer for one direction at δ: ρ² = ⟨Â, A_i⟩² (0 below threshold), the
    eigenvalue of the attached outlier (None below threshold) and the bulk edge ψ(λ̄)."""

    rho2: float
    outlier: float | None  # eigenvalue of the attached outlier (None below threshold)
    edge: float  # bulk edge ψ(λ̄)


#: Bound on the work of one model by Ruben's series: (d1 + 2) series of R terms, each O(R²/2)
#: multiply-adds, R ≈ 20·(c_max/c_min) (:func:`ruben_terms`). Measured on the 2-core test machine
#: under a load of ~13: d1 = 8, γ = 3 (6.9e8) takes 24-55 s (4 s unloaded); beyond the bound the
#: Fourier inversion is used instead (:func:`law_method`).
MAX_RUBEN_WORK = 3e8
#: Bound on the work of one model by Fourier inversion: (d1 + 1) laws × N points (two FFTs and
#: a few exponentials per point): about 0.1-0.3 µs per law-point measured (shared machine), so
#: the bound is a few seconds.
MAX_FOURIER_WORK = 2e7
#: seconds per unit of work, measured (benchmarks/recovery.py; 2-core machine, unloaded): used
#: only to pick the cheaper of the two methods
_RUBEN_SECONDS, _FOURIER_SECONDS = 6e-9, 1.5e-7


def ruben_work(c: _Floats) -> float:
    """Estimated multiply-adds (a float) to build the label law of strengths ``c`` (a non-empty
    list of positive numbers): (d1 + 2)·R²/2 with R = :func:`ruben_terms` (see MAX_RUBEN_WORK).

    >>> ruben_work([1.0, 0.5])
    6050.0
    """
    w = _weights(c, "strengths")
    return (len(w) + 2) * ruben_terms(w) ** 2 / 2


def fourier_work(c: _Floats) -> float:
    """Estimated law-points (a float) to build the label law of strengths ``c`` by Fourier
    inversion: (d1 + 1)·N, N the FFT length of
    :func:`~fltheory.papers.recovery.chi2.fourier_size` for the weights c/(‖c‖√2) (at least
    131072 for the grid's resolution);
    infinite for d1 = 1 (the χ²_1 density is singular at 0: Ruben's series is exact there).

    >>> fourier_work([1.0, 0.5, 0.25, 0.125])
    20971520.0
    """
    w = _weights(c, "strengths")
    if len(w) < 2:
        return math.inf
    w = w / (np.linalg.norm(w) * math.sqrt(2))
    return float((len(w) + 1) * _FourierChi2.points(w))


def law_method(c: _Floats) -> tuple[str, float, float]:
    """How the label law of strengths ``c`` is built: ``("ruben", work, limit)`` (Ruben's
    series, exact mixture of χ² laws) or ``("fourier", work, limit)`` (Fourier inversion), the
    one of smaller estimated time among those within their bound; when neither is, the one of
    smaller work relative to its bound (the caller refuses it: work > limit).

    >>> law_method([1.0, 0.5])[0], law_method(np.arange(1, 17.0) ** -3)[0]
    ('ruben', 'fourier')
    """
    ruben, fourier = ruben_work(c), fourier_work(c)
    options = [("ruben", ruben, MAX_RUBEN_WORK, ruben * _RUBEN_SECONDS),
               ("fourier", fourier, MAX_FOURIER_WORK, fourier * _FOURIER_SECONDS)]
    within = [o for o in options if o[1] <= o[2]]
    best = (min(within, key=lambda o: o[3]) if within
            else min(options, key=lambda o: o[1] / o[2]))
    return best[0], best[1], best[2]


def _deltas(deltas: Any) -> np.ndarray:
    """A list of δ = n/D > 0 as doubles."""
    if isinstance(deltas, str | bytes) or not isinstance(deltas, Sequence | np.ndarray):
        raise DomainError("deltas", repr(deltas), "a list of numbers δ > 0")
    return np.array([read_real(x, "delta", 0, open_low=True) for x in deltas], dtype=float)


class RecoveryModel:
    """The hierarchical target with strengths λ (a non-empty list of at most MAX_D1 positive
    numbers, normalised to c = λ/‖λ‖) and a bounded label transform (``rank`` or ``sign``).

    Its label law is built on construction by Ruben's series or by Fourier inversion,
    whichever :func:`law_method` finds cheaper (``method`` forces one), refused when beyond the
    bound (MAX_RUBEN_WORK, MAX_FOURIER_WORK); ``self.method`` says which was used.
    Methods (doubles, numpy arrays): ``theta()`` θ_i = E[T(h_i² − 1)], ``bbp_thresholds()``
    δ_i = E[T²]/θ_i², ``weak_constant()`` C, ``overlap(i, δ)`` the Lu–Li :class:`Overlap`,
    ``overlaps(δs)``, ``mse(δs)`` = 1 − Σ c_i² ρ_i⁴, ``crossing(i)`` δ at ρ_i² = 1/2.

    >>> m = RecoveryModel.power_law(2, Fraction(1))
    >>> m.c.round(4).tolist(), m.bbp_thresholds().round(3).tolist()
    ([0.8944, 0.4472], [1.025, 2.07])
    >>> round(m.overlap(0, 10.0).rho2, 4), round(float(m.mse([10.0])[0]), 4)
    (0.8346, 0.3368)
    """

    def __init__(self, lam: _Floats, transform: str = "rank", _what: str | None = None,
                 method: str | None = None):
        transform = read_choice(transform, "transform", tuple(LAWS))
        lam_arr = _weights(lam, "strengths")
        # the finite-δ theory sums Ruben's series per direction
        read_count(len(lam_arr), "d1", 1, MAX_D1)
        spread = float(lam_arr.max() / lam_arr.min())
        if method is not None:
            method = read_choice(method, "method", ("ruben", "fourier"))
        auto, work, limit = law_method(lam_arr)
        if method is not None and method != auto:
            work, limit = ((ruben_work(lam_arr), MAX_RUBEN_WORK) if method == "ruben"
                           else (fourier_work(lam_arr), MAX_FOURIER_WORK))
        method = method or auto
        unit = ("multiply-adds of Ruben's series" if method == "ruben"
                else "law-points of the Fourier inversion")
        check_cost(_what or f"strengths = (spread max/min {spread:.3g})", work, limit, unit,
                   "Ruben's series needs about 20·max/min strength terms, the Fourier inversion "
                   "a grid set by how fast the weakest directions damp the characteristic "
                   "function: lower gamma, or raise d1")
        self.c = lam_arr / np.linalg.norm(lam_arr)
        self.transform = transform
        #: how the law of s was computed: "ruben" (series) or "fourier" (inversion)
        self.method = method
        self.law = LAWS[transform](self.c / math.sqrt(2), method)

    @classmethod
    def power_law(cls, d1: int, gamma: float | Fraction, transform: str = "rank"
                  ) -> RecoveryModel:
        """λ_k = k^{−γ}, k = 1..d1 (1 <= d1 <= MAX_D1, γ > 0 exact or float; the strengths are
        doubles k^{−float(γ)}): :meth:`of` the :class:`~fltheory.papers.recovery.params.Model`
        (d1, γ, transform)."""
        return cls.of(Model(d1, gamma, transform))

    @classmethod
    def of(cls, model: Model) -> RecoveryModel:
        """The Lu–Li model of a target read once (:class:`~fltheory.papers.recovery.params.Model`).
        The cost is checked from γ before any strength is formed (k^{−γ} underflows for large
        γ)."""
        d1, gamma = model.d1, model.gamma
        g = float(min(gamma, Fraction(10**300)))
        what = f"gamma = {short_rational(gamma)}, d1 = {d1}"
        if d1 > 1 and g * math.log(d1) > math.log(1e200):  # d1^{−γ} near underflow: in logs
            raise CostError(what, (d1 + 2) * (20 * math.exp(min(g * math.log(d1), 300.0))) ** 2
                            / 2, MAX_RUBEN_WORK, "multiply-adds of Ruben's series",
                            "strengths spread beyond 1e200: lower gamma, or lower d1")
        return cls(np.arange(1, d1 + 1, dtype=float) ** (-g), model.transform, _what=what)

    @property
    def d1(self) -> int:
        return len(self.c)

    def theta(self) -> np.ndarray:
        return self.law.theta()

    def weak_constant(self) -> float:
        """C = E[T²]/(√2 E[T'(s)])²: n_i → C·D/c_i² for weak directions (c_i → 0).

        Undefined for the rank transform at d1 = 1: s is a scaled χ²_1 whose density is not
        square-integrable (p ~ s^{−1/2} at 0), so E[T'(s)] = 2∫p² is infinite (DomainError).
        """
        if not math.isfinite(self.law.slope):
            raise DomainError("d1", self.d1, "d1 >= 2 for the weak-direction constant C",
                              reason="has no weak direction: E[T'(s)] = 2∫p_s² diverges for "
                                     "s = c·χ²_1")
        return self.law.second_moment / (2 * self.law.slope ** 2)

    def bbp_thresholds(self) -> np.ndarray:
        """δ_i = E[T²]/θ_i²: where the large-δ form 1 − 1/x_i reaches zero."""
        return self.law.second_moment / self.theta() ** 2

    def _index(self, i: int) -> int:
        return read_count(i, "i", 0, self.d1 - 1)

    def overlap(self, i: int, delta: float) -> Overlap:
        """Lu–Li ρ_i² at δ = n/D > 0 (i from 0 to d1 − 1), solved by the shared
        :func:`fltheory.engine.spectral.luli.luli_overlap`."""
        i = self._index(i)
        delta = read_real(delta, "delta", 0, open_low=True)
        r = luli_overlap(self.law, i, delta)
        return Overlap(r.rho2, r.outlier, r.edge)

    def overlaps(self, deltas: _Floats) -> np.ndarray:
        """len(deltas) × d1 array of Lu–Li ρ_i² (every δ > 0)."""
        return np.array([[self.overlap(i, dl).rho2 for i in range(self.d1)]
                         for dl in _deltas(deltas)])

    def bbp_overlaps(self, deltas: _Floats) -> np.ndarray:
        """len(deltas) × d1 array of the large-δ forms max(0, 1 − δ_i/δ) (the semicircle
        spike of :func:`fltheory.engine.spectral.spikes.semicircle_overlap_ratio`)."""
        x = np.outer(_deltas(deltas), 1 / self.bbp_thresholds())
        out: np.ndarray = semicircle_overlap_ratio(1 / x)
        return out

    def mse(self, deltas: _Floats, bbp: bool = False) -> np.ndarray:
        """1 − Σ c_i² ρ_i⁴ (Var y = 1) at each δ, Lu–Li overlaps (or their large-δ forms)."""
        rho2 = self.bbp_overlaps(deltas) if bbp else self.overlaps(deltas)
        out: np.ndarray = 1 - (rho2 ** 2) @ (self.c ** 2)
        return out

    def crossing(self, i: int, level: float = 0.5) -> float:
        """δ at which the Lu–Li ρ_i² reaches ``level`` (0 < level < 1)."""
        from scipy.optimize import brentq

        i = self._index(i)
        if isinstance(level, bool) or not isinstance(level, int | float | Fraction) \
                or not 0 < level < 1:
            raise DomainError("level", level, "0 < level < 1")
        level = float(level)
        lo = hi = float(self.bbp_thresholds()[i])
        while self.overlap(i, lo).rho2 >= level:
            lo /= 2
        while self.overlap(i, hi).rho2 < level:
            hi *= 2
        return float(brentq(lambda z: self.overlap(i, z).rho2 - level, lo, hi, rtol=1e-10))
