r"""State evolution and the replica-symmetric free entropy of a GLM, on the curve of fixed
points parametrised by q̂ (Barbier et al. 2019).

The state evolution of GAMP (Barbier et al. 2019; Rangan 2011) is
q̂_t = α Q(q_t), q_{t+1} = F(q̂_t) with F(q̂) = ρ − mmse(q̂) (the prior's scalar channel) and
Q(q) = E g_out² (the channel). Its fixed points are, for each q̂ > 0, exactly the pairs
(q = F(q̂), α = A(q̂)) with

    A(q̂) = q̂ / Q(F(q̂)),

so every fixed point at every α lies on one explicit curve. A fixed point is stable iff
A'(q̂) > 0 (the slope α Q'(q) F'(q̂) of the map is then < 1); the local extrema of A are the
spinodals (saddle-node bifurcations) where a branch of stable fixed points ends. The end
q̂ → 0 is the uninformative point q = 0 (a fixed point when E w = 0 and E[z | y] = 0 a.s.),
with A(0⁺) = α_WR = ρ'⁴/(ρ² E_y[(E[z'² | y] − ρ')²]) (linearisation of the map at q = 0); the
end q̂ → ∞ is perfect recovery q = ρ (a fixed point of a noiseless channel), stable for
α > A(∞).

The free entropy of a fixed point (Barbier et al. 2019) with the q-independent entropy of the labels
subtracted is f(q̂) = ψ₀(q̂) + α ΔΨ(q) − q q̂/2; the Bayes-optimal overlap is the fixed point of
largest f (the sup–inf of the replica formula is reached at a fixed point).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from scipy import optimize

from fltheory.exact import Unconfirmed
from fltheory.papers.glm._channels import ChannelNumerics, channel_numerics
from fltheory.papers.glm._priors import PriorNumerics
from fltheory.papers.glm.params import Channel, Prior

__all__ = ["SE", "Branch", "Curve", "FixedPoint", "NotConverged"]

#: the smallest q̂ of the curve (q ~ ρ² q̂: far below every digit printed)
_QH_MIN = 1e-7

#: half-width in ln q̂ of the window where a finer level looks for a coarser level's extremum
#: (the two levels' extrema differ by ~1e-12 relative in A, far less than this in ln q̂), and
#: the Brent tolerance there, which also decides "at its edge"
_WINDOW, _WINDOW_EDGE = 1e-3, 1e-8

_EPS = float(np.finfo(float).eps)

#: a finer level samples one grid point in _STRIDE (two decades of q̂; the grid has four per
#: decade) away from the coarser level's extrema, and every cell where the coarser A changes
#: by less than _MARGIN times the largest relative difference of the two levels seen there
_STRIDE, _MARGIN = 8, 1e3

#: the largest t = ln q̂ a root search goes to (q̂ = 1e300)
_T_MAX = math.log(1e300)

#: the step in ln q̂ of the finite differences that confirm a coarser level's extremum (and the
#: least spacing of the points Curve._slope differentiates)
_H = 1e-4


class NotConverged(Unconfirmed):
    """A state evolution that did not reach a fixed point (never printed as a number; the
    command says so in one line, :class:`fltheory.exact.Unconfirmed`)."""


@dataclass(frozen=True)
class FixedPoint:
    """One fixed point: q̂, q, α, its free entropy f (NaN on an interior point until asked
    for: :meth:`SE.f_of`), stability, and its kind (``uninformative``, ``interior``,
    ``perfect``)."""

    qh: float
    q: float
    alpha: float
    f: float
    stable: bool
    kind: str


@dataclass(frozen=True)
class Branch:
    """A monotone piece of the curve between q̂ = a and q̂ = b (A increasing: stable)."""

    a: float
    b: float
    Aa: float
    Ab: float
    stable: bool


@dataclass
class SE:
    """The state evolution of one prior × channel at one quadrature ``level``."""

    prior: Prior
    channel: Channel
    level: int = 1
    P: PriorNumerics = field(init=False)
    C: ChannelNumerics = field(init=False)

    def __post_init__(self) -> None:
        self.P = PriorNumerics.of(self.prior)
        self.C = channel_numerics(self.channel, self.P.rho)
        self._cache: dict[float, tuple[float, float, float]] = {}
        self._qv: dict[float, tuple[float, float]] = {}
        self._dpsi: dict[float, float] = {}

    # ------------------------------------------------------------------ the two halves

    def F(self, qh: float) -> float:
        """q = ρ − mmse(q̂)."""
        return self.P.overlap(qh, self.level)

    def Q(self, q: float, V: float | None = None) -> float:
        return self.C.Q(q, self.level, V)

    def A(self, qh: float) -> float:
        """The α at which q̂ is a fixed point: q̂ / Q(F(q̂))."""
        hit = self._cache.get(qh)
        if hit is None:
            q, v = self.q_and_v(qh)
            Qv = self.Q(q, v)
            if math.isnan(Qv):      # never silently a threshold (it became α_WR)
                raise NotConverged(f"the channel average Q is not a number at q̂ = {qh:g} "
                                   f"(q = {q:.6g}, mmse {v:.3g}): no answer is printed")
            # Q underflows to 0 only where q̂ is so small that q ≈ 0: there A is its limit
            # A(0⁺) = α_WR (the curve leaves q = 0 there)
            hit = (q, v, qh / Qv if Qv > 0 else self.alpha_wr())
            self._cache[qh] = hit
        return hit[2]

    def q_and_v(self, qh: float) -> tuple[float, float]:
        """(q, mmse) at q̂ (the prior's half only), remembered."""
        hit = self._qv.get(qh)
        if hit is None:
            hit = self._qv[qh] = self.P.q_and_v(qh, self.level)
        return hit

    def q_of(self, qh: float) -> float:
        return self.q_and_v(qh)[0]

    def v_of(self, qh: float) -> float:
        """The mmse ρ − q at q̂."""
        return self.q_and_v(qh)[1]

    def free_entropy(self, qh: float, alpha: float) -> float:
        """f = ψ₀(q̂) + α ΔΨ(q) − q q̂/2 at q = F(q̂)."""
        q = self.q_of(qh)
        return self.P.psi(qh, self.level) + alpha * self.delta_psi(qh) - q * qh / 2

    def f_of(self, p: FixedPoint) -> float:
        """p's free entropy: its own when computed, else (a point whose f was left NaN: an
        interior root, or a followed point) f at its q̂ and α now (ΔΨ remembered)."""
        if not math.isnan(p.f):
            return p.f
        return self.free_entropy(p.qh, p.alpha)

    def delta_psi(self, qh: float) -> float:
        """ΔΨ(q) at q = F(q̂), remembered: at a fixed point it is df/dα (the envelope
        theorem: f is stationary in q̂ there)."""
        hit = self._dpsi.get(qh)
        if hit is None:
            q, v = self.q_and_v(qh)
            hit = self._dpsi[qh] = self.C.dpsi(q, self.level, v)
        return hit

    # ------------------------------------------------------------------ the ends of the curve

    @property
    def uninformative(self) -> bool:
        """q = 0 is a fixed point (centred prior, E[z | y] = 0)."""
        return self.P.mean == 0 and self.C.mean_free

    def alpha_wr(self) -> float:
        """A(0⁺) = ρ'⁴/(ρ² E_y[(E[z'²|y] − ρ')²]) when q = 0 is a fixed point, else 0."""
        if not self.uninformative:
            return 0.0
        # each resolution its own (a single y-integral: one level finer than the averages)
        spread = self.C.m2_spread(self.level + 1)
        if spread == 0:
            return math.inf
        return self.C.rho1 ** 4 / (self.P.rho ** 2 * spread)

    @property
    def perfect(self) -> bool:
        """q = ρ is a fixed point: a noiseless channel and a prior that reaches mmse 0
        (a discrete prior, or a density with labels that have one)."""
        return ((self.C.perfect and (self.prior.discrete or self.C.c_continuous > 0))
                or (self.C.jumps and self.prior.discrete))

    def alpha_perfect(self) -> float:
        """A(∞): perfect recovery is stable for α above it. Discrete prior: 0 (the mmse falls
        exponentially in q̂, Q grows as a power of 1/V); a prior with a density, noiseless
        labels with a density with probability c_y: c_w/c_y (mmse ~ c_w/q̂, Q ~ c_y/V)."""
        if not self.perfect:
            return math.inf
        if self.prior.discrete:
            return 0.0
        return float(self.prior.continuous_weight) / self.C.c_continuous

    def f_perfect(self, alpha: float) -> float:
        """Free entropy of q = ρ: −H(P₀) + α I(y; z) for a discrete prior (±inf when the
        labels have a density: one label then pins w down); ±inf for a prior with a density
        (f ~ ½(α c_y − c_w) ln q̂ as q̂ → ∞)."""
        if self.prior.discrete:
            return -self.P.entropy() + alpha * self.C.info_full()
        return math.inf if alpha > self.alpha_perfect() else -math.inf

    def qh_max(self) -> float:
        """The largest q̂ of the curve: discrete prior, mmse < 1e-13 ρ; else 1e9."""
        if not self.prior.discrete:
            return 1e9
        qh = 1.0
        while self.P.mmse(qh, self.level) > 1e-13 * self.P.rho and qh < 1e6:
            qh *= 2.0
        return qh


@dataclass
class Curve:
    """The fixed-point curve A(q̂) of one SE: its monotone pieces and spinodals."""

    se: SE
    #: the same curve at a coarser level: its extrema say where to look for this one's (the
    #: search is still this level's own, and falls back to the whole cell when it ends at the
    #: window's edge)
    guide: Curve | None = None
    grid: np.ndarray = field(init=False)
    values: np.ndarray = field(init=False)
    extrema: list[tuple[float, float, str]] = field(init=False)
    branches: list[Branch] = field(init=False)
    _ts: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        se = self.se
        hi = se.qh_max()
        #: every A(e^t) this curve has evaluated, by t = ln q̂: a root's bracket is the tightest
        #: pair of them around α on its monotone piece, and its search interpolates through
        #: the nearest of them (_solve)
        self._tA: dict[float, float] = {}
        self._t0 = math.log(_QH_MIN)
        self._lin: tuple[float, float] | None = None
        if se.uninformative and math.isfinite(se.alpha_wr()) and se.alpha_wr() > 0:
            self._lin = (se.alpha_wr(), self._At(self._t0))
        ts = np.linspace(math.log(_QH_MIN), math.log(hi), int(4 * math.log10(hi / _QH_MIN)) + 1)
        self._cells: list[int] = []       # the grid index of each extremum's cell (its middle)
        g = self.guide
        if g is not None and np.array_equal(g._ts, ts) and all(float(t) in g._tA for t in ts):
            index = self._sparse(ts, g)
        else:
            index = np.arange(len(ts))
        self._ts = ts
        self.values = np.array([self._At(float(t)) for t in ts[index]])
        self.grid = np.exp(ts[index])
        d = np.sign(np.diff(self.values))
        self.extrema = []
        for i in range(1, len(d)):
            if d[i] != d[i - 1] and d[i] != 0 and d[i - 1] != 0:
                kind = "max" if d[i - 1] > 0 else "min"
                self._cells.append(int(index[i]))
                self.extrema.append(self._refine(self.grid[i - 1], self.grid[i + 1], kind))
        ends = [(_QH_MIN, self.values[0])] + [(x, a) for x, a, _ in self.extrema] + \
            [(float(self.grid[-1]), float(self.values[-1]))]
        if se.uninformative and math.isfinite(se.alpha_wr()):
            ends[0] = (1e-30, se.alpha_wr())   # the curve leaves q = 0 at A(0⁺) = α_WR
        elif not se.uninformative:
            # q = 0 is no fixed point: A(q̂) = q̂/Q(F(q̂)) → 0 with q̂ (Q(F(0)) > 0), so the
            # first piece reaches down to α → 0; from q̂ = 1e-30 (A linear there to ~1e-30)
            # every α the command takes has its root on it (α < A(1e-7) ≈ 1.6e-7 for the
            # perceptron had none: q = 1 or an empty list was printed)
            ends[0] = (1e-30, se.A(1e-30))
        self.branches = [Branch(a, b, Aa, Ab, Ab > Aa)
                         for (a, Aa), (b, Ab) in itertools.pairwise(ends)]

    def _sparse(self, ts: np.ndarray, g: Curve) -> np.ndarray:
        """The grid points a finer level evaluates on the coarser level ``g``'s grid: the ends,
        one point in _STRIDE, the three points of each extremum's cell ``g`` found (so that
        this level finds, or misses, each of them by its own values), and both ends of every
        cell where ``g``'s A changes by less than _MARGIN times the relative difference between
        the two levels measured at the nearest of those points on either side (only there could
        this level's A turn where ``g``'s does not; the difference is taken to vary slowly
        between points _STRIDE apart)."""
        n = len(ts)
        keep = set(range(0, n, _STRIDE)) | {n - 1}
        for c in g._cells:
            keep |= {c - 1, c, c + 1}     # the cell itself (c is never an end)
        coarse = np.array([g._tA[float(t)] for t in ts])
        seen = np.array(sorted(keep))
        gaps = np.array([abs(self._At(float(ts[k])) - coarse[k]) / max(abs(coarse[k]), 1e-300)
                         for k in seen])
        step = np.abs(np.diff(coarse))
        scale = np.maximum(np.abs(coarse[1:]), np.abs(coarse[:-1]))
        for k in range(n - 1):
            # the differences measured at the nearest points on either side of the cell
            left = gaps[max(0, int(np.searchsorted(seen, k, side="right")) - 1)]
            right = gaps[min(len(seen) - 1, int(np.searchsorted(seen, k + 1)))]
            if step[k] <= _MARGIN * max(left, right) * scale[k]:
                keep |= {k, k + 1}
        return np.array(sorted(keep))

    def _At(self, t: float) -> float:
        """A(e^t), remembered by t. Below q̂ = _QH_MIN, where the curve leaves the
        uninformative point, A is analytic in q̂ with A(0⁺) = α_WR, so it is the chord
        α_WR + (A(_QH_MIN) − α_WR) q̂/_QH_MIN (off by ~A''·q̂·_QH_MIN: below every digit
        printed); a quadrature at q ~ ρ²q̂ there loses its relative digits (at q̂ = 1e-30,
        noisy phase retrieval: 0.49961 for α_WR = 0.50209)."""
        v = self._tA.get(t)
        if v is None:
            if self._lin is not None and t < self._t0:
                a0, a1 = self._lin
                v = self._tA[t] = a0 + (a1 - a0) * math.exp(t - self._t0)
            else:
                v = self._tA[t] = self.se.A(math.exp(t))
        return v

    def _local(self, t: float) -> tuple[float, float, float, float, float]:
        """A at t, t − _H, t + _H and, by central differences, A' and A'' at t."""
        a0, am, ap = self._At(t), self._At(t - _H), self._At(t + _H)
        return a0, am, ap, (ap - am) / (2 * _H), (ap - 2 * a0 + am) / (_H * _H)

    def _at_guide(self, t1: float, sgn: float) -> tuple[float, float, str] | None:
        """The extremum of A at the coarser level's t1 = ln q̂*, if A' there is so small that
        A(t1) is within 1e-15 relative of the extremum's value (A near its extremum is
        A* + A''(t − t*)²/2, so A(t1) − A* = A'(t1)²/(2A'')): A at t1 ± _H gives A' and A''
        by central differences (A' then carries ~A'''·_H²/6 too, which makes the bound
        larger, not smaller); None when t1 is no extremum of that kind here or the bound is
        larger (the caller then searches)."""
        a0, am, ap, d1, d2 = self._local(t1)
        if sgn * d2 <= 0 or sgn * (am - a0) < 0 or sgn * (ap - a0) < 0:
            return None
        if d1 * d1 / (2 * abs(d2)) > 1e-15 * abs(a0):
            return None
        x = math.exp(t1)
        self._tA.setdefault(math.log(x), a0)
        return x, a0, ("max" if sgn < 0 else "min")

    def _zero(self, t: float, alpha: float) -> float:
        """A(e^t) − α, and 0 within rounding of α (8 ulp): the root search (:meth:`_solve`)
        then stops at the first iterate that A cannot tell from the root (near an extremum of
        A it otherwise bisects the rounding noise, ~10 evaluations more)."""
        d = self._At(t) - alpha
        return 0.0 if abs(d) <= 8 * _EPS * abs(alpha) else d

    def _refine(self, lo: float, hi: float, kind: str) -> tuple[float, float, str]:
        """The extremum of A in [lo, hi] (bounded Brent in ln q̂): first within 10⁻³ of the
        guide's extremum in that cell, if it has one, and kept when it is inside that window."""
        sgn = -1.0 if kind == "max" else 1.0
        tlo, thi = math.log(lo), math.log(hi)

        def search(a: float, b: float, xatol: float = 1e-10) -> float:
            res = optimize.minimize_scalar(lambda t: sgn * self._At(t), bounds=(a, b),
                                           method="bounded", options={"xatol": xatol})
            return float(res.x)

        near = [math.log(x) for x, _a, k in (self.guide.extrema if self.guide else ())
                if k == kind and lo < x < hi]
        t = None
        if near:
            close = self._at_guide(near[0], sgn)
            if close is not None:
                return close
            a, b = max(tlo, near[0] - _WINDOW), min(thi, near[0] + _WINDOW)
            # to 1e-8 in ln q̂: A's value there is off by ~A''·1e-16, below its rounding
            t = search(a, b, _WINDOW_EDGE)
            if not (a + 10 * _WINDOW_EDGE < t < b - 10 * _WINDOW_EDGE):
                t = None                   # at the window's edge: not this level's extremum
        if t is None:
            t = search(tlo, thi)
        x = math.exp(t)
        self._tA.setdefault(math.log(x), self.se.A(x))
        return x, self.se.A(x), kind

    # ------------------------------------------------------------------ fixed points at α

    def _root(self, br: Branch, alpha: float) -> float:
        lo, hi, fa, fb = self._bracket(br, alpha)
        if fa * fb > 0:
            # α within rounding of the piece's end value: the end as computed here (e.g. A at
            # q̂ = 1e-30 by quadrature) and as the piece records it (α_WR by its own formula)
            # differ in the last digits, so no sign change is left to find; the fixed point is
            # that end to every digit the curve resolves
            return math.exp(lo if abs(fa) <= abs(fb) else hi)
        if fa == 0 or fb == 0:
            return math.exp(lo if fa == 0 else hi)
        return math.exp(self._solve(alpha, (math.log(br.a), math.log(br.b)), lo, hi))

    def _bracket(self, br: Branch, alpha: float) -> tuple[float, float, float, float]:
        """(t_lo, t_hi, A − α at both) of the tightest pair of evaluated points t = ln q̂
        inside the monotone piece ``br`` where A crosses α (the piece itself when none
        brackets it): the search (:meth:`_solve`) then starts from the cell left by the last
        root found nearby (the roots of a threshold's search are close to each other), and its
        two ends are already known."""
        ta, tb = math.log(br.a), math.log(br.b)
        ts = [ta, *sorted(t for t in self._tA if ta < t < tb), tb]
        vs = [br.Aa - alpha] + [self._tA[t] - alpha for t in ts[1:-1]] + [br.Ab - alpha]
        self._tA.setdefault(ta, br.Aa)     # the piece's ends as it records them
        self._tA.setdefault(tb, br.Ab)
        for i in range(len(ts) - 1):
            if vs[i] * vs[i + 1] <= 0:
                return ts[i], ts[i + 1], vs[i], vs[i + 1]
        return ta, tb, vs[0], vs[-1]

    def fixed_points(self, alpha: float) -> list[FixedPoint]:
        """Every fixed point at α that an iteration can settle in, in increasing q: the stable
        ones (the uninformative and perfect points are listed with their stability; the
        unstable interior roots, which no start reaches and no answer uses, are not computed)."""
        memo = self.__dict__.setdefault("_memo", {})
        if alpha not in memo:
            memo[alpha] = list(self._points(alpha))
        return list(memo[alpha])

    def _points(self, alpha: float) -> Iterator[FixedPoint]:
        """The fixed points of :meth:`fixed_points`, computed one at a time in increasing q
        (AMP's, the first stable one, needs no root beyond its own)."""
        se = self.se
        if se.uninformative:
            yield FixedPoint(0.0, 0.0, alpha, 0.0, alpha <= se.alpha_wr(), "uninformative")
        for br in self.branches:
            lo, hi = min(br.Aa, br.Ab), max(br.Aa, br.Ab)
            if br.stable and lo < alpha < hi:
                qh = self._root(br, alpha)
                yield FixedPoint(qh, se.q_of(qh), alpha, math.nan, True, "interior")
        last = self.branches[-1]
        if last.stable and last.Ab <= alpha < se.alpha_perfect():
            qh = self._extend(alpha)
            yield FixedPoint(qh, se.q_of(qh), alpha, math.nan, True, "interior")
        if se.perfect:
            # at α = A(∞) exactly the interior branch has run into q = ρ (q̂ → ∞)
            yield FixedPoint(math.inf, se.P.rho, alpha, se.f_perfect(alpha),
                             alpha >= se.alpha_perfect(), "perfect")

    def _extend(self, alpha: float) -> float:
        """The root of A = α beyond the sampled curve (an increasing last piece), bracketed by
        the tightest pair of points already evaluated there (:meth:`_solve` looks above the
        last one below α when none is above it)."""
        ta = math.log(self.branches[-1].b)
        known = sorted((t, v) for t, v in self._tA.items() if t >= ta)
        lo: float | None = None
        hi: float | None = None
        for t, v in known:
            if v < alpha:
                lo = t
            else:
                hi = t
                break
        if lo is None:
            lo = ta
            self._tA.setdefault(ta, self.branches[-1].Ab)
        if hi is not None and self._At(hi) == alpha:
            return math.exp(hi)
        return math.exp(self._solve(alpha, (ta, math.inf), lo, hi))

    def _solve(self, alpha: float, piece: tuple[float, float], lo: float,
               hi: float | None) -> float:
        """The root t = ln q̂ of A(e^t) = α on the monotone ``piece`` (t from, t to), between
        the evaluated points ``lo`` < ``hi`` where A − α changes sign (``hi`` None: A increases
        on the piece, A(e^lo) < α, and no point above α is known: the search goes up from lo).

        Each step is inverse interpolation: the polynomial t(A) through the (at most four)
        points of the piece evaluated so far that are nearest α in A (the roots of earlier α
        of a curve are among them), at α, kept inside the bracket and at least half Brent's
        tolerance from its ends; after an interpolation step that did not halve the residual,
        one bisection (doubling q̂ when there is no upper end), so the search never takes
        much more than twice a bisection's count. It stops as Brent's method does (scipy's
        brentq, xtol = rtol = 1e-15): at a point where A is within 8 ulp of α
        (:meth:`_zero`), or when the bracket is narrower than 1e-15(1 + |t|) (its end of
        smaller residual). Along a curve of α this takes ~3 evaluations a root against
        Brent's ~6 from the same brackets (Rademacher × noisy square, σ = 1/10). Every root
        is evaluated: A is smooth only to ~1e-13 relative (the quadrature's panels change with
        q), so two interpolants that agree can both be off by that much (measured: 8e-14 in t
        at α = 0.08 on that curve, when a root was returned unevaluated where they agreed)."""
        flo = self._zero(lo, alpha)
        fhi = None if hi is None else self._zero(hi, alpha)
        if flo == 0:
            return lo
        if fhi == 0:
            assert hi is not None
            return hi
        last = math.inf         # the residual of the last interpolation step
        bisect = False
        for _ in range(400):
            best = lo if hi is None or abs(flo) <= abs(fhi or 0.0) else hi
            delta = 0.5e-15 * (1.0 + abs(best))
            if hi is not None and hi - lo < 2 * delta:
                return best
            g = None if bisect else self._interpolate(alpha, piece)
            interpolated = g is not None
            if g is None:
                g = lo + math.log(2.0) if hi is None else 0.5 * (lo + hi)
            # inside the bracket, at least delta from either end: an estimate at (or past) an
            # end that has converged to within rounding of α steps by delta across the root,
            # which closes the bracket (Brent's least step)
            if hi is None:
                g = max(g, lo + delta)
                if g > _T_MAX:
                    raise NotConverged(f"no fixed point found at alpha = {alpha:g}")
            else:
                g = min(max(g, lo + delta), hi - delta)
            f = self._zero(g, alpha)
            if f == 0:
                return g
            if (f < 0) == (flo < 0):
                lo, flo = g, f
            else:
                hi, fhi = g, f
            if interpolated:        # a bisection next if it did not halve the residual
                bisect = abs(f) > 0.5 * last
                last = abs(f)
            else:                   # after one bisection, interpolation again
                bisect = False
        raise NotConverged(f"the fixed point at alpha = {alpha:g} was not located in 400 steps")

    def _interpolate(self, alpha: float, piece: tuple[float, float]) -> float | None:
        """t(α) by Neville's scheme through the (at most four) evaluated points of ``piece``
        nearest α in A, each at least a tenth of its distance from α apart in A from those
        nearer; None when there are fewer than two, or the result is not a number (the caller
        keeps it inside its bracket)."""
        xs: list[float] = []
        p: list[float] = []
        for d, v, t in sorted((abs(v - alpha), v, t) for t, v in self._tA.items()
                              if piece[0] <= t <= piece[1]):
            # a point within a tenth of its own distance from α of one already taken adds
            # nothing but rounding (e.g. A at t ± 1e-4 beside an earlier root, 0.03 away)
            if all(abs(v - x) >= 0.1 * d for x in xs):
                xs.append(v)
                p.append(t)
                if len(xs) == 4:
                    break
        if len(xs) < 2:
            return None
        for k in range(1, len(xs)):
            for i in range(len(xs) - k):
                den = xs[i] - xs[i + k]
                if den == 0:
                    return None
                p[i] = ((alpha - xs[i + k]) * p[i] + (xs[i] - alpha) * p[i + 1]) / den
        return p[0] if math.isfinite(p[0]) else None

    def _slope(self, t1: float, alpha: float) -> tuple[float, float, float] | None:
        """(A', A'', a bound on the error of A') at the root t1 of A = α from the points
        evaluated already (a curve's earlier roots, its grid): the cubic through t1 and the
        three nearest points at least _H from it and from each other, within 0.3 in t, where A
        is monotone; the bound is the difference from the quadratic through the nearer two.
        The spacing _H because A is smooth only to ~1e-13 relative (the quadrature's panels
        change with q): points 1e-6 apart gave A' off by 1e-7 relative on Rademacher × noisy
        square, 100 times that bound; at _H the roughness adds ~1e-9, and the bounds measured
        there are 1e-5 … 7.5e-3 relative. None when there are too few such points (a curve's
        first roots)."""
        a1 = self._tA.get(t1, alpha)     # a root's A is α
        chosen: list[float] = []
        for t in sorted((t for t in self._tA if _H <= abs(t - t1) <= 0.3),
                        key=lambda t: abs(t - t1)):
            if all(abs(t - c) >= _H for c in chosen):
                chosen.append(t)
                if len(chosen) == 3:
                    break
        if len(chosen) < 3:
            return None
        vs = [a for _t, a in sorted([(t1, a1), *((t, self._tA[t]) for t in chosen)])]
        d = np.sign(np.diff(vs))
        if not (np.all(d > 0) or np.all(d < 0)):
            return None
        c3 = _derivatives([t1, *chosen], [a1, *(self._tA[t] for t in chosen)], t1)
        c2 = _derivatives([t1, *chosen[:2]], [a1, *(self._tA[t] for t in chosen[:2])], t1)
        return c3[0], c3[1], abs(c3[0] - c2[0])

    def amp(self, alpha: float) -> FixedPoint:
        """The fixed point reached from the uninformative start q₀ = 0⁺: the stable fixed point
        of smallest q."""
        memo = self.__dict__.setdefault("_memo", {})
        pts = memo.get(alpha)
        return next(p for p in (pts if pts is not None else self._points(alpha)) if p.stable)

    def follow(self, p: FixedPoint, coarse: Curve) -> FixedPoint | None:
        """This curve's counterpart of ``coarse``'s stable fixed point ``p`` (same α, same
        branch): an interior one by one Newton step in t = ln q̂ from p's, with this level's
        residual A(e^t) − α and the coarse level's slope: from the points it has evaluated near
        p's (:meth:`_slope`, e.g. the earlier roots of a curve of α) when the step's error from
        that slope's error bound is below 1e-15, else by central differences (step _H: its
        error ~A'''_H²/6 is ~1e-9 of A', on a step of ~1e-12); the step's own error
        A''δt²/(2A') is estimated from the same points. None (the caller then solves this
        level's fixed point in full) when the step exceeds 1e-6 in t or that error 1e-15."""
        se, alpha = self.se, p.alpha
        if p.kind == "uninformative":
            return FixedPoint(0.0, 0.0, alpha, 0.0, alpha <= se.alpha_wr(), p.kind)
        if p.kind == "perfect":
            return FixedPoint(math.inf, se.P.rho, alpha, se.f_perfect(alpha),
                              alpha >= se.alpha_perfect(), p.kind)
        t1 = math.log(p.qh)
        r = self._At(t1) - alpha
        slope = coarse._slope(t1, alpha)
        if slope is not None and slope[0] > 0 and abs(r / slope[0]) * slope[2] > 1e-15 * slope[0]:
            slope = None                 # the cached points' slope is not good enough here
        if slope is None:
            _a0, _am, _ap, d1, d2 = coarse._local(t1)
        else:
            d1, d2, _err = slope
        if d1 <= 0:
            return None
        step = -r / d1
        if abs(step) > 1e-6 or abs(d2) * step * step / (2 * d1) > 1e-15:
            return None
        qh = math.exp(t1 + step)
        # f left NaN (its ΔΨ is a whole fine average): SE.f_of computes it when asked
        return FixedPoint(qh, se.q_of(qh), alpha, math.nan, True, p.kind)

    def informed(self, alpha: float) -> FixedPoint:
        """The fixed point reached from q₀ = ρ⁻: the stable fixed point of largest q."""
        return [p for p in self.fixed_points(alpha) if p.stable][-1]

    def bayes(self, alpha: float) -> FixedPoint:
        """The fixed point of largest free entropy (the Bayes-optimal one)."""
        pts = [p for p in self.fixed_points(alpha) if p.stable]
        # f only where there is a choice (an interior point's is a whole ΔΨ average)
        return pts[0] if len(pts) == 1 else max(pts, key=self.se.f_of)


@dataclass(frozen=True)
class Transition:
    """A threshold: its α, kind (``continuous`` or ``first order``, ``spinodal``), the overlaps
    just below and just above, and what it is (``WR``, ``IT``, ``alg``)."""

    name: str
    alpha: float
    kind: str
    q_below: float
    q_above: float
    exact: str = ""
    #: an α_IT found between two stable branches: their indices in _stable_branches
    pair: tuple[int, int] | None = None


def _amp_piece(curve: Curve, alpha: float) -> Branch | None:
    """The interior piece that holds AMP's fixed point at α (the first stable one, as in
    :meth:`Curve._points`), or None (the uninformative point, or beyond the sampled curve)."""
    se = curve.se
    if se.uninformative and alpha <= se.alpha_wr():
        return None
    for br in curve.branches:
        if br.stable and min(br.Aa, br.Ab) < alpha < max(br.Aa, br.Ab):
            return br
    return None


def _stable_branches(curve: Curve) -> list[tuple[str, float, float, Branch | None]]:
    """(kind, α from, α to, piece) of every branch of stable fixed points."""
    se = curve.se
    out: list[tuple[str, float, float, Branch | None]] = []
    if se.uninformative and se.alpha_wr() > 0:
        out.append(("uninformative", 0.0, se.alpha_wr(), None))
    for i, br in enumerate(curve.branches):
        if br.stable:
            top = math.inf if (i == len(curve.branches) - 1 and not se.perfect) else br.Ab
            out.append(("interior", br.Aa, top, br))
    if se.perfect:
        out.append(("perfect", se.alpha_perfect(), math.inf, None))
    return out


def _on_branch(curve: Curve, kind: str, alpha: float,
               source: tuple[Curve, Branch | None]) -> tuple[float, float, float]:
    """(f, df/dα, q) of a stable branch of ``curve`` at α: 0 on the uninformative point;
    −H + αI on perfect recovery (discrete prior: df/dα = I(y; z)); on an interior branch, at the
    fixed point of ``source`` = (a curve, its piece): this curve's own, or a coarser one's, where
    f is stationary (see :func:`_it_from`), and df/dα = ΔΨ (the envelope theorem; free once f
    is computed, :meth:`SE.delta_psi` remembers it)."""
    se = curve.se
    if kind == "uninformative":
        return 0.0, 0.0, 0.0
    if kind == "perfect":
        return se.f_perfect(alpha), se.C.info_full(), se.P.rho
    qh = _qh_on(*source, alpha)
    return se.free_entropy(qh, alpha), se.delta_psi(qh), se.q_of(qh)


def _qh_on(curve: Curve, br: Branch | None, alpha: float) -> float:
    """q̂ of the fixed point at α on the interior piece ``br``."""
    assert br is not None
    if alpha == br.Aa or (alpha == br.Ab and br.b < math.inf):
        return br.a if alpha == br.Aa else br.b   # an end of the piece: no root to find
    if br.Ab <= alpha and br is curve.branches[-1]:
        return curve._extend(alpha)
    return curve._root(br, alpha)


def transitions(curve: Curve, guide: list[Transition] | None = None) -> list[Transition]:
    """α_WR, the spinodals (α_alg the first one on AMP's path) and α_IT of one curve.

    ``guide``: the transitions of the same curve at the coarser level ``curve.guide``. Each
    α is still this curve's own; the guide spares work that would only repeat it: the
    overlaps just below and above a transition the guide has too (they are printed to a few
    digits, and agree to ~1e-12), and the search for an α_IT, which becomes one Newton step
    from the guide's (:func:`_it_from`)."""
    se = curve.se
    out: list[Transition] = []
    coarse = {t.name: t for t in guide or () if t.name in ("WR", "alg")}

    def overlap(name: str, a: float) -> Transition | None:
        t = coarse.get(name)
        return t if t is not None and abs(t.alpha - a) <= 1e-6 * a else None

    def amp_q(a: float) -> float:
        return curve.amp(a).q

    # weak recovery: the uninformative point loses stability
    if se.uninformative:
        a_wr = se.alpha_wr()
        first = curve.branches[0]
        if math.isfinite(a_wr):
            kind = "continuous" if first.stable else "first order"
            g = overlap("WR", a_wr)
            above = 0.0 if first.stable else (g.q_above if g else amp_q(a_wr * (1 + 1e-9)))
            out.append(Transition("WR", a_wr, kind, 0.0, above))
    # spinodals along AMP's path: the first local maximum of A reached from q̂ = 0
    for x, a, kind in curve.extrema:
        if kind == "max":
            g = overlap("alg", a)
            if g:
                below = g.q_below
            elif (piece := _amp_piece(curve, a * (1 - 1e-9))) is not None and piece.b == x:
                below = se.q_of(x)         # AMP's branch ends here (no root near the extremum)
            else:
                below = amp_q(a * (1 - 1e-9))
            above = g.q_above if g else amp_q(a * (1 + 1e-9))
            if above - below > 1e-6:
                if not g and abs(below - se.q_of(x)) < 1e-3:
                    # AMP's branch ends at the spinodal itself: its q there (at α(1 − 1e-9)
                    # the overlap is ~√1e-9 away from it, printed to 17 digits in JSON)
                    below = se.q_of(x)
                out.append(Transition("alg", a, "spinodal", below, above))
                break
    if se.uninformative and not curve.branches[0].stable and math.isfinite(se.alpha_wr()):
        g = overlap("alg", se.alpha_wr())
        out.append(Transition("alg", se.alpha_wr(), "spinodal", 0.0,
                              g.q_above if g else amp_q(se.alpha_wr() * (1 + 1e-9))))
    # information-theoretic: the Bayes-optimal branch changes
    out.extend(_it(curve, _stable_branches(curve),
                   [t for t in guide or () if t.name == "IT"]))
    order = {"WR": 0, "IT": 1, "alg": 2}
    return sorted(out, key=lambda t: (order[t.name], t.alpha))


def _it_from(curve: Curve, branches: list[tuple[str, float, float, Branch | None]],
             g: Transition) -> Transition | None:
    """This curve's α_IT between the pair of branches where the coarser ``curve.guide``
    found ``g``: one Newton step α = α₁ − D(α₁)/D'(α₁) on the difference D of the two
    branches' free entropies at this level, from the guide's α₁.

    Each interior f is evaluated at the guide's fixed point q̂₁ instead of this level's q̂:
    f(q̂) = ψ₀(q̂) + αΔΨ(F(q̂)) − F(q̂)q̂/2 is stationary in q̂ at this level's fixed point
    (its derivative is F'(q̂)(αQ(F(q̂)) − q̂)/2), so the two differ by O((q̂ − q̂₁)²) ~
    1e-24 relative. D' = ΔΨ_j − ΔΨ_i (df/dα = ΔΨ(q) at a fixed point, the envelope theorem;
    f_perfect = −H + αI). The step's own error is O(D''·(α − α₁)²/D'), with α − α₁ ~ 1e-12 α.
    None (the caller then searches) when the two levels' branches differ, or the step is
    larger than 1e-8 α."""
    coarse = curve.guide
    if coarse is None or g.pair is None:
        return None
    cb = _stable_branches(coarse)
    if [b[0] for b in cb] != [b[0] for b in branches]:
        return None
    se, a1 = curve.se, g.alpha
    f, slope, q = [], [], []
    for k in g.pair:
        kind = branches[k][0]
        if kind == "perfect" and not se.prior.discrete:
            return None
        fk, sk, qk = _on_branch(curve, kind, a1, (coarse, cb[k][3]))
        f.append(fk)
        slope.append(sk)
        q.append(qk)
    d, dd = f[1] - f[0], slope[1] - slope[0]
    if not (math.isfinite(d) and math.isfinite(dd)) or dd == 0:
        return None
    a2 = a1 - d / dd
    if abs(a2 - a1) > 1e-8 * a1:
        return None
    return Transition("IT", a2, "first order", min(q), max(q), pair=g.pair)


def _it(curve: Curve, branches: list[tuple[str, float, float, Branch | None]],
        guide: list[Transition] | None = None) -> list[Transition]:
    """Where the branch of largest free entropy changes (a first-order transition), found by
    root finding on the difference of two branches' free entropies; for a pair of branches
    where the coarser level's transitions ``guide`` have one, by one Newton step from it
    (:func:`_it_from`)."""
    se = curve.se
    out = []
    confirmed: set[int] = set()        # guide transitions kept there: not re-checked below
    coarse = curve.guide
    cb = _stable_branches(coarse) if coarse is not None else None
    guided = cb is not None and [b[0] for b in cb] == [b[0] for b in branches]

    def f_at(k: int, al: float) -> tuple[float, float, float]:
        """(f, df/dα, q) of stable branch k at α (:func:`_on_branch`); on an interior branch of
        a guided curve, at the coarser level's fixed point, which spares this level's root
        finding."""
        kind, _lo, _hi, br = branches[k]
        source = (curve, br)
        if guided:
            assert coarse is not None and cb is not None
            source = (coarse, cb[k][3])
        return _on_branch(curve, kind, al, source)

    for i in range(len(branches)):
        for j in range(i + 1, len(branches)):
            from_guide = [g for g in guide or () if g.pair == (i, j)]
            step = _it_from(curve, branches, from_guide[0]) if from_guide else None
            if step is not None:
                out.append(step)
                confirmed.add(id(step))
                continue
            ki, lo_i, hi_i, bi = branches[i]
            kj, lo_j, hi_j, _bj = branches[j]
            lo, hi = max(lo_i, lo_j), min(hi_i, hi_j)
            if not lo < hi and not (kj == "perfect" and not se.prior.discrete):
                continue
            if kj == "perfect" and not se.prior.discrete:
                # f_perfect jumps from −∞ to +∞ at A(∞) = c_w/c_y (exact)
                runs_in = (bi is not None and bi is curve.branches[-1] and bi.stable
                           and 0 <= lo_j - hi_i < 1e-3 * lo_j)  # A(q̂) → A(∞) from below
                if lo_i < lo_j <= hi_i * (1 + 1e-6) or runs_in:
                    if bi is not None and lo_j * (1 - 1e-12) >= hi_i:
                        qb = se.q_of(bi.b)      # the branch runs into q = ρ as α → A(∞)
                    else:
                        qb = _on_branch(curve, ki, lo_j * (1 - 1e-12), (curve, bi))[2]
                    kind = "continuous" if se.P.rho - qb < 1e-6 else "first order"
                    out.append(Transition("IT", lo_j, kind, qb, se.P.rho,
                                          _fraction(se.prior.continuous_weight,
                                                    se.C.c_continuous)))
                continue
            if kj == "perfect" and math.isinf(se.f_perfect(1.0)):
                # labels with a density pin a discrete w* down at every α > 0 (I(y; z) = ∞):
                # one transition at α = 0, however many branches perfect recovery beats
                if not any(t.alpha == 0.0 for t in out):
                    out.append(Transition("IT", 0.0, "first order", 0.0, se.P.rho, "0"))
                continue
            # the pieces' ends are their extrema (or α_WR): a fixed point known there, where a
            # root would be ill-conditioned (A is flat: Brent took ~13 evaluations)
            a_lo = lo if lo > 0 else 1e-9
            a_hi = hi if math.isfinite(hi) else max(4 * lo, 4.0)

            seen: dict[float, tuple[float, float, float, float]] = {}

            def both(al: float, i: int = i, j: int = j,
                     memo: dict[float, tuple[float, float, float, float]] = seen
                     ) -> tuple[float, float, float, float]:
                """(D, D', q_i, q_j) at α: D = f_j − f_i, D' = df_j/dα − df_i/dα."""
                if al not in memo:
                    fi, si, qi = f_at(i, al)
                    fj, sj, qj = f_at(j, al)
                    memo[al] = (fj - fi, sj - si, qi, qj)
                return memo[al]

            def diff(al: float) -> float:
                return both(al)[0]

            d_lo, d_hi = diff(a_lo), diff(a_hi)
            while not math.isfinite(hi) and d_hi * d_lo > 0 and a_hi < 1e4:
                a_hi *= 2
                d_hi = diff(a_hi)
            if d_lo * d_hi >= 0:
                continue
            if kj == "perfect" and bi is not None:
                # parametrise the interior branch by q̂: one root, no nesting
                def g(t: float) -> float:
                    al = curve._At(t)
                    return se.f_perfect(al) - se.free_entropy(math.exp(t), al)
                ta = math.log(_qh_on(curve, bi, a_lo))
                tb = math.log(_qh_on(curve, bi, a_hi)) if a_hi <= bi.Ab else math.log(bi.b)
                t = optimize.brentq(g, ta, tb, xtol=1e-14, rtol=1e-15, maxiter=200)
                a_it = curve._At(t)
                qi, qj = se.q_of(math.exp(t)), se.P.rho
            else:
                a_it, last = _newton(both, a_lo, a_hi, d_lo, d_hi)
                # q of each branch at the last α evaluated, within 1e-10 of α_IT (q is printed
                # to 4 digits)
                qi, qj = seen[last][2], seen[last][3]
            out.append(Transition("IT", a_it, "first order", min(qi, qj), max(qi, qj),
                                  pair=(i, j)))
    # keep the crossings where the global maximum changes (a guide's was checked there)
    kept = []
    for t in out:
        if t.alpha == 0.0 or t.kind == "continuous" or id(t) in confirmed:
            kept.append(t)
            continue
        present = [k for k, (_kind, lo, hi, _br) in enumerate(branches) if lo < t.alpha < hi]
        if t.pair is not None and present == sorted(t.pair):
            kept.append(t)             # only these two branches exist here: the maximum changes
            continue
        below = curve.bayes(t.alpha * (1 - 1e-7)).q if t.alpha > 0 else 0.0
        above = curve.bayes(t.alpha * (1 + 1e-7)).q
        if abs(above - below) > 1e-5 or t.kind == "continuous":
            kept.append(t)
    return kept


def _derivatives(ts: list[float], vs: list[float], x: float) -> tuple[float, float]:
    """The first and second derivatives at x of the polynomial through (ts, vs) (Newton's
    divided differences, the form differentiated twice by the product rule)."""
    n = len(ts)
    c = list(vs)
    for k in range(1, n):
        for i in range(n - 1, k - 1, -1):
            c[i] = (c[i] - c[i - 1]) / (ts[i] - ts[i - k])
    # p(x) = c0 + c1 w1 + c2 w2 + …, w_k = Π_{j<k} (x − t_j): carry (w, w', w'') along
    p1 = p2 = 0.0
    w, w1, w2 = 1.0, 0.0, 0.0
    for k in range(1, n):
        w, w1, w2 = w * (x - ts[k - 1]), w1 * (x - ts[k - 1]) + w, w2 * (x - ts[k - 1]) + 2 * w1
        p1 += c[k] * w1
        p2 += c[k] * w2
    return p1, p2


def _newton(fd: Callable[[float], tuple[float, ...]], lo: float, hi: float, f_lo: float,
            f_hi: float) -> tuple[float, float]:
    """(root, the last point evaluated) of f in [lo, hi], f(lo)·f(hi) < 0, by Newton's method
    with f' from ``fd`` (x ↦ (f, f', …)), started at the secant point and kept inside the
    shrinking bracket (a step that leaves it is replaced by bisection). It stops once a step is
    below 1e-10 of x, returning x + step: the error left is ~f''·step²/(2f'), ~1e-20 x for the
    free-entropy differences it serves (their D' is the difference of the branches' ΔΨ,
    exact at no cost: Rademacher × tanh(z), σ = 1/5, 23 coarse averages against Brent's 33
    from the same bracket; 0–25 % fewer over the noisy pairs measured)."""
    x = lo - f_lo * (hi - lo) / (f_hi - f_lo)
    for _ in range(200):
        f, d = fd(x)[:2]
        if f == 0:
            return x, x
        if (f > 0) == (f_lo > 0):
            lo, f_lo = x, f
        else:
            hi, f_hi = x, f
        step = -f / d if d != 0 else math.inf
        nxt = x + step
        if lo < nxt < hi:
            if abs(step) <= 1e-10 * abs(x):
                return nxt, x
        else:
            nxt = 0.5 * (lo + hi)
        if hi - lo <= 4 * _EPS * max(abs(lo), abs(hi)):
            return nxt, x
        x = nxt
    raise NotConverged(f"the free entropies' crossing did not converge in 200 Newton steps "
                       f"(bracket [{lo:.17g}, {hi:.17g}])")


def _fraction(a: Fraction, b: float) -> str:
    """a/b exactly (b a float such as 1/2), as text."""
    try:
        return str(Fraction(a) / Fraction(b).limit_denominator(1000))
    except (TypeError, ValueError, ZeroDivisionError):
        return ""
