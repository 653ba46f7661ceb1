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


class NotConverged(Unconfirmed):
    """A state evolution that did not reach a fixed point (never printed as a number; the
    command says so in one line, :class:`fltheory.exact.Unconfirmed`)."""


@dataclass(frozen=True)
class FixedPoint:
    """One fixed point: q̂, q, α, its free entropy f, stability, and its kind
    (``uninformative``, ``interior``, ``perfect``)."""

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
            q, v = self.P.q_and_v(qh, self.level)
            Qv = self.Q(q, v)
            if math.isnan(Qv):      # never silently a threshold (it became α_WR)
                raise NotConverged(f"the channel average Q is not a number at q̂ = {qh:g} "
                                   f"(q = {q:.6g}, mmse {v:.3g}): no answer is printed")
            # Q underflows to 0 only where q̂ is so small that q ≈ 0: there A is its limit
            # A(0⁺) = α_WR (the curve leaves q = 0 there)
            hit = (q, v, qh / Qv if Qv > 0 else self.alpha_wr())
            self._cache[qh] = hit
        return hit[2]

    def q_of(self, qh: float) -> float:
        self.A(qh)
        return self._cache[qh][0]

    def v_of(self, qh: float) -> float:
        """The mmse ρ − q at q̂."""
        self.A(qh)
        return self._cache[qh][1]

    def free_entropy(self, qh: float, alpha: float) -> float:
        """f = ψ₀(q̂) + α ΔΨ(q) − q q̂/2 at q = F(q̂)."""
        q, v = self.q_of(qh), self.v_of(qh)
        return (self.P.psi(qh, self.level) + alpha * self.C.dpsi(q, self.level, v)
                - q * qh / 2)

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
    grid: np.ndarray = field(init=False)
    values: np.ndarray = field(init=False)
    extrema: list[tuple[float, float, str]] = field(init=False)
    branches: list[Branch] = field(init=False)

    def __post_init__(self) -> None:
        se = self.se
        hi = se.qh_max()
        self.grid = np.geomspace(_QH_MIN, hi, int(4 * math.log10(hi / _QH_MIN)) + 1)
        self.values = np.array([se.A(float(x)) for x in self.grid])
        d = np.sign(np.diff(self.values))
        self.extrema = []
        for i in range(1, len(d)):
            if d[i] != d[i - 1] and d[i] != 0 and d[i - 1] != 0:
                kind = "max" if d[i - 1] > 0 else "min"
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

    def _refine(self, lo: float, hi: float, kind: str) -> tuple[float, float, str]:
        """The extremum of A in [lo, hi] (bounded Brent in ln q̂)."""
        sgn = -1.0 if kind == "max" else 1.0
        res = optimize.minimize_scalar(lambda t: sgn * self.se.A(math.exp(t)),
                                       bounds=(math.log(lo), math.log(hi)), method="bounded",
                                       options={"xatol": 1e-10})
        x = math.exp(float(res.x))
        return x, self.se.A(x), kind

    # ------------------------------------------------------------------ fixed points at α

    def _root(self, br: Branch, alpha: float) -> float:
        f: Callable[[float], float] = lambda t: self.se.A(math.exp(t)) - alpha  # noqa: E731
        lo, hi = self._bracket(br, alpha)
        ta, tb = math.log(lo), math.log(hi)
        fa, fb = f(ta), f(tb)
        if fa * fb > 0:
            # α within rounding of the piece's end value: the end as computed here (e.g. A at
            # q̂ = 1e-30 by quadrature) and as the piece records it (α_WR by its own formula)
            # differ in the last digits, so no sign change is left to find; the fixed point is
            # that end to every digit the curve resolves
            return lo if abs(fa) <= abs(fb) else hi
        t = optimize.brentq(f, ta, tb, xtol=1e-15, rtol=1e-15, maxiter=200)
        return math.exp(float(t))

    def _bracket(self, br: Branch, alpha: float) -> tuple[float, float]:
        """The cell of the sampled curve inside the monotone piece ``br`` where A crosses α
        (the piece itself when no sampled cell brackets it): Brent then starts from a cell of
        a quarter decade instead of the whole piece (the same root, fewer evaluations)."""
        inside = (self.grid > br.a) & (self.grid < br.b)
        xs = np.concatenate([[br.a], self.grid[inside], [br.b]])
        vs = np.concatenate([[br.Aa], self.values[inside], [br.Ab]]) - alpha
        for i in range(len(xs) - 1):
            if vs[i] * vs[i + 1] <= 0:
                return float(xs[i]), float(xs[i + 1])
        return br.a, br.b

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
                yield FixedPoint(qh, se.q_of(qh), alpha, se.free_entropy(qh, alpha), True,
                                 "interior")
        last = self.branches[-1]
        if last.stable and last.Ab <= alpha < se.alpha_perfect():
            qh = self._extend(alpha)
            yield FixedPoint(qh, se.q_of(qh), alpha, se.free_entropy(qh, alpha), True,
                             "interior")
        if se.perfect:
            # at α = A(∞) exactly the interior branch has run into q = ρ (q̂ → ∞)
            yield FixedPoint(math.inf, se.P.rho, alpha, se.f_perfect(alpha),
                             alpha >= se.alpha_perfect(), "perfect")

    def _extend(self, alpha: float) -> float:
        """The root of A = α beyond the sampled curve (an increasing last piece)."""
        a = self.branches[-1].b
        b = 2 * a
        while self.se.A(b) < alpha:
            a, b = b, 2 * b
            if b > 1e300:
                raise NotConverged(f"no fixed point found at alpha = {alpha:g}")
        t = optimize.brentq(lambda t: self.se.A(math.exp(t)) - alpha, math.log(a), math.log(b),
                            xtol=1e-15, rtol=1e-15, maxiter=200)
        return math.exp(float(t))

    def amp(self, alpha: float) -> FixedPoint:
        """The fixed point reached from the uninformative start q₀ = 0⁺: the stable fixed point
        of smallest q."""
        memo = self.__dict__.setdefault("_memo", {})
        pts = memo.get(alpha)
        return next(p for p in (pts if pts is not None else self._points(alpha)) if p.stable)

    def informed(self, alpha: float) -> FixedPoint:
        """The fixed point reached from q₀ = ρ⁻: the stable fixed point of largest q."""
        return [p for p in self.fixed_points(alpha) if p.stable][-1]

    def bayes(self, alpha: float) -> FixedPoint:
        """The fixed point of largest free entropy (the Bayes-optimal one)."""
        pts = [p for p in self.fixed_points(alpha) if p.stable]
        return max(pts, key=lambda p: p.f)


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


def _f_on(curve: Curve, kind: str, br: Branch | None, alpha: float) -> tuple[float, float]:
    """(free entropy, q) of a stable branch at α."""
    se = curve.se
    if kind == "uninformative":
        return 0.0, 0.0
    if kind == "perfect":
        return se.f_perfect(alpha), se.P.rho
    assert br is not None
    if br.Ab <= alpha and br is curve.branches[-1]:
        qh = curve._extend(alpha)
    else:
        qh = curve._root(br, alpha)
    return se.free_entropy(qh, alpha), se.q_of(qh)


def transitions(curve: Curve) -> list[Transition]:
    """α_WR, the spinodals (α_alg the first one on AMP's path) and α_IT of one curve."""
    se = curve.se
    out: list[Transition] = []
    # weak recovery: the uninformative point loses stability
    if se.uninformative:
        a_wr = se.alpha_wr()
        first = curve.branches[0]
        if math.isfinite(a_wr):
            kind = "continuous" if first.stable else "first order"
            out.append(Transition("WR", a_wr, kind, 0.0,
                                  0.0 if first.stable else curve.amp(a_wr * (1 + 1e-9)).q))
    # spinodals along AMP's path: the first local maximum of A reached from q̂ = 0
    for _x, a, kind in curve.extrema:
        if kind == "max":
            below = curve.amp(a * (1 - 1e-9)).q
            above = curve.amp(a * (1 + 1e-9)).q
            if above - below > 1e-6:
                out.append(Transition("alg", a, "spinodal", below, above))
                break
    if se.uninformative and not curve.branches[0].stable and math.isfinite(se.alpha_wr()):
        out.append(Transition("alg", se.alpha_wr(), "spinodal", 0.0,
                              curve.amp(se.alpha_wr() * (1 + 1e-9)).q))
    # information-theoretic: the Bayes-optimal branch changes
    out.extend(_it(curve, _stable_branches(curve)))
    order = {"WR": 0, "IT": 1, "alg": 2}
    return sorted(out, key=lambda t: (order[t.name], t.alpha))


def _it(curve: Curve, branches: list[tuple[str, float, float, Branch | None]]) \
        -> list[Transition]:
    """Where the branch of largest free entropy changes (a first-order transition), found by
    root finding on the difference of two branches' free entropies."""
    se = curve.se
    out = []
    for i in range(len(branches)):
        for j in range(i + 1, len(branches)):
            ki, lo_i, hi_i, bi = branches[i]
            kj, lo_j, hi_j, bj = branches[j]
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
                        _, qb = _f_on(curve, ki, bi, lo_j * (1 - 1e-12))
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
            eps = 1e-9
            a_lo = lo * (1 + eps) if lo > 0 else 1e-9
            a_hi = hi * (1 - eps) if math.isfinite(hi) else max(4 * lo, 4.0)

            def diff(al: float, ki: str = ki, bi: Branch | None = bi, kj: str = kj,
                     bj: Branch | None = bj) -> float:
                return _f_on(curve, kj, bj, al)[0] - _f_on(curve, ki, bi, al)[0]

            d_lo, d_hi = diff(a_lo), diff(a_hi)
            while not math.isfinite(hi) and d_hi * d_lo > 0 and a_hi < 1e4:
                a_hi *= 2
                d_hi = diff(a_hi)
            if d_lo * d_hi >= 0:
                continue
            if kj == "perfect" and bi is not None:
                # parametrise the interior branch by q̂: one root, no nesting
                def g(t: float) -> float:
                    qh = math.exp(t)
                    al = se.A(qh)
                    return se.f_perfect(al) - se.free_entropy(qh, al)
                ta = math.log(curve._root(bi, a_lo))
                tb = math.log(curve._root(bi, a_hi)) if a_hi <= bi.Ab else math.log(bi.b)
                t = optimize.brentq(g, ta, tb, xtol=1e-14, rtol=1e-15, maxiter=200)
                a_it = se.A(math.exp(t))
            else:
                a_it = optimize.brentq(diff, a_lo, a_hi, xtol=1e-14, rtol=1e-15, maxiter=200)
            qi = _f_on(curve, ki, bi, a_it)[1]
            qj = _f_on(curve, kj, bj, a_it)[1]
            out.append(Transition("IT", a_it, "first order", min(qi, qj), max(qi, qj)))
    # keep the crossings where the global maximum changes
    kept = []
    for t in out:
        if t.alpha == 0.0 or t.kind == "continuous":
            kept.append(t)
            continue
        below = curve.bayes(t.alpha * (1 - 1e-7)).q if t.alpha > 0 else 0.0
        above = curve.bayes(t.alpha * (1 + 1e-7)).q
        if abs(above - below) > 1e-5 or t.kind == "continuous":
            kept.append(t)
    return kept


def _fraction(a: Fraction, b: float) -> str:
    """a/b exactly (b a float such as 1/2), as text."""
    try:
        return str(Fraction(a) / Fraction(b).limit_denominator(1000))
    except (TypeError, ValueError, ZeroDivisionError):
        return ""
