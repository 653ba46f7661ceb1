r"""Bayes-optimal learning of a generalised linear model: the replica free entropy and state
evolution for any prior and channel, and the thresholds α_WR, α_IT, α_alg.

**Model and conventions** (Barbier, Krzakala, Macris, Miolane & Zdeborová, PNAS 116 (2019)
5451, *Optimal errors and phase transitions in high-dimensional generalized linear models*):
x ~ N(0, I_d), w* ∈ ℝ^d with i.i.d. entries from the prior P₀ (E w² = ρ), z = w*·x/√d,
y ~ P_out(· | z), n = αd samples, n, d → ∞. Overlaps are per coordinate: q = E[w*·⟨w⟩]/d,
MMSE = ρ − q. The free entropy is printed with the q-independent entropy of the labels
subtracted (it is then finite for noiseless channels with continuous labels); only differences
between fixed points matter. Everything is computed in double precision at two quadrature
resolutions and a digit is printed only when both agree (``digits``). The fine resolution
evaluates its own quadrature where the coarse one's searches ended and corrects from there
(its extremum at the coarse argmax, α_IT and each point by one Newton step: ``Curve.guide``,
``transitions``, ``Curve.follow``), the same numbers as its own full search to ~1e-15.

The fixed points of the state evolution (:mod:`fltheory.papers.glm._se`) lie on one curve
α = A(q̂) = q̂/Q(F(q̂)), so the thresholds are located on it by root finding and bounded
minimisation, not read off a grid: α_WR is A(0⁺) (closed form), α_alg a local maximum of A
(a spinodal), α_IT a zero of the difference of two branches' free entropies.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from fltheory.papers.glm._se import SE, Curve, FixedPoint, NotConverged, transitions
from fltheory.papers.glm.params import Channel, Prior

__all__ = ["NotConverged", "PointAnswer", "ThresholdAnswer", "Value", "alpha_wr_exact",
           "curve_points", "digits", "point", "state_evolution", "thresholds"]

#: digits a double-precision quadrature can confirm at most
MAX_DIGITS = 13


def digits(a: float, b: float) -> int:
    """Significant digits on which a and b agree (0 … MAX_DIGITS).

    >>> digits(1.2345678, 1.2345612), digits(2.0, 2.0)
    (5, 13)
    """
    if a == b:
        return MAX_DIGITS
    if not (math.isfinite(a) and math.isfinite(b)):
        return 0
    scale = max(abs(a), abs(b))
    if scale == 0:
        return MAX_DIGITS
    return max(0, min(MAX_DIGITS, math.floor(-math.log10(abs(a - b) / scale))))


@dataclass(frozen=True)
class Value:
    """A number confirmed by two resolutions: the finer value and the digits both give."""

    value: float
    digits: int
    #: a closed form evaluated (or a number the user gave): printed in its shortest form
    exact: bool = False

    def text(self) -> str:
        """The confirmed digits (at least one; a value confirmed to none is marked ~), trailing
        zeros kept (each is a confirmed digit: 1.492631818230 has 13); an exact value in its
        shortest form.

        >>> Value(1.49263181823, 13).text(), Value(0.5, 13, exact=True).text()
        ('1.492631818230', '0.5')
        """
        if not math.isfinite(self.value):
            return str(self.value)
        if self.value == 0:
            return "0"
        if self.exact:
            return f"{self.value:.{MAX_DIGITS}g}"
        d = max(1, self.digits)
        s = f"{self.value:#.{d}g}".rstrip(".")
        if "e" in s:
            mant, exp = s.split("e")
            s = mant.rstrip(".") + "e" + exp
        return s if self.digits >= 1 else "~" + s


def _confirm(a: float, b: float) -> Value:
    return Value(b, digits(a, b))


@lru_cache(maxsize=32)
def _curve(prior: Prior, channel: Channel, level: int) -> Curve:
    guide = _curve(prior, channel, level - 1) if level > 1 else None
    return Curve(SE(prior, channel, level), guide)


@dataclass(frozen=True)
class ThresholdAnswer:
    """The thresholds of one prior × channel. ``items``: (name, Value, kind, q below, q above,
    exact text or ""), in the order WR, IT, alg; ``notes``: what does not exist and why;
    ``seconds``: the time both resolutions took."""

    prior: Prior
    channel: Channel
    items: tuple[tuple[str, Value, str, float, float, str], ...]
    notes: tuple[str, ...]
    seconds: float

    def get(self, name: str) -> Value | None:
        for it in self.items:
            if it[0] == name:
                return it[1]
        return None


def thresholds(prior: Prior, channel: Channel) -> ThresholdAnswer:
    """α_WR, α_IT and α_alg of ``prior`` × ``channel``, each confirmed by a second, finer
    quadrature.

    >>> from fltheory.papers.glm.params import rademacher, Channel
    >>> t = thresholds(rademacher(), Channel("sign"))
    >>> t.get("IT").text(), t.get("alg").text()
    ('1.244683989851', '1.492631818230')
    """
    t0 = time.perf_counter()
    c1, c2 = _curve(prior, channel, 1), _curve(prior, channel, 2)
    t1 = transitions(c1)
    t2 = transitions(c2, t1)
    names1 = [(t.name, t.kind) for t in t1]
    names2 = [(t.name, t.kind) for t in t2]
    if names1 != names2:
        raise NotConverged("the two quadrature resolutions disagree on which transitions exist "
                           f"({names1} against {names2}): no threshold is printed")
    items = []
    for a, b in zip(t1, t2, strict=True):
        val = Value(b.alpha, MAX_DIGITS, True) if b.exact else _confirm(a.alpha, b.alpha)
        if b.name == "WR":
            ex = alpha_wr_exact(prior, channel)
            exact = ex or ""
            if ex:   # the closed form, evaluated: every printed digit is exact
                import sympy as sp

                val = Value(float(sp.N(sp.sympify(ex), 20)), MAX_DIGITS, True)
        else:
            exact = b.exact
        items.append((b.name, val, b.kind, b.q_below, b.q_above, exact))
    notes = _notes(c2, [t.name for t in t2])
    return ThresholdAnswer(prior, channel, tuple(items), tuple(notes),
                           time.perf_counter() - t0)


def _notes(curve: Curve, names: list[str]) -> list[str]:
    se = curve.se
    out = []
    if "WR" not in names:
        if se.P.mean != 0:
            out.append("no α_WR: the prior has a mean, so q > 0 at every α > 0")
        elif not se.C.mean_free:
            out.append("α_WR = 0: E[z | y] ≠ 0, the labels correlate with z linearly, so q > 0 "
                       "at every α > 0")
    if "IT" not in names:
        out.append("no α_IT: the fixed point of largest free entropy never jumps (the "
                   "Bayes-optimal overlap is continuous in α)")
    if "alg" not in names:
        out.append("no α_alg: the branch reached from the uninformative start never ends "
                   "(AMP is Bayes-optimal at every α)")
    if not se.perfect:
        out.append("no perfect recovery: " + (
            "noisy labels cannot pin down a prior with a density" if se.C.jumps
            else "the channel is noisy" if not se.C.perfect
            else "±1 labels cannot pin down a prior with a density"))
    return out


def alpha_wr_exact(prior: Prior, channel: Channel) -> str | None:
    """α_WR in closed form, as text, where it exists: phase retrieval ρ'²/(2ρ²) (ρ' = ρ + σ_in²;
    1/2 without noise: Mondelli & Montanari 2018), the door ρ'² p₊p₋/(ρ² (2κφ(κ))²) with
    κ = K/√ρ', p₊ = erfc(κ/√2), p₋ = 1 − p₊ (from α_WR = ρ'⁴/(ρ² E_y[(E[z'²|y] − ρ')²]),
    Barbier et al. 2019 SI). None when there is no uninformative fixed point.

    >>> from fltheory.papers.glm.params import gaussian, Channel
    >>> alpha_wr_exact(gaussian(), Channel("square"))
    '1/2'
    """
    if prior.mean != 0 or channel.noise != 0:
        return None     # (before sympy's import: a noisy channel's command never needs it)
    import sympy as sp

    rho = sp.Rational(prior.rho.numerator, prior.rho.denominator)
    s2 = sp.Rational(channel.probit.numerator, channel.probit.denominator) ** 2
    rho1 = rho + s2
    if channel.kind in ("abs", "square"):
        return str(sp.nsimplify(rho1 ** 2 / (2 * rho ** 2)))
    if channel.kind == "door":
        K = sp.Rational(channel.K.numerator, channel.K.denominator)
        kappa = K / sp.sqrt(rho1)
        pp = sp.erfc(kappa / sp.sqrt(2))
        dens = sp.exp(-kappa ** 2 / 2) / sp.sqrt(2 * sp.pi)
        return str(sp.simplify(rho1 ** 2 * pp * (1 - pp) / (rho ** 2 * (2 * kappa * dens) ** 2)))
    return None


@dataclass(frozen=True)
class PointAnswer:
    """At one α: the overlap, MMSE and generalisation error of the Bayes-optimal fixed point
    and of the one AMP reaches from the uninformative start, each confirmed; the free
    entropies; ``error_kind`` ("classification" or "mse")."""

    alpha: float
    bayes_q: Value
    amp_q: Value
    bayes_mmse: Value
    amp_mmse: Value
    bayes_error: Value
    amp_error: Value
    bayes_kind: str
    amp_kind: str
    error_kind: str
    #: () ↦ (bayes_f, amp_f), evaluated on first use: a followed fine fixed point's free
    #: entropy costs a whole fine average (ΔΨ), and no command prints it
    free: Callable[[], tuple[Value, Value]] = field(repr=False, compare=False)

    @cached_property
    def _free(self) -> tuple[Value, Value]:
        return self.free()

    @property
    def bayes_f(self) -> Value:
        """The Bayes-optimal fixed point's free entropy, confirmed at both resolutions."""
        return self._free[0]

    @property
    def amp_f(self) -> Value:
        """AMP's fixed point's free entropy, confirmed at both resolutions."""
        return self._free[1]


def _gen(se: SE, p: FixedPoint) -> float:
    if p.kind == "perfect":
        return 0.0 if se.C.perfect else se.C.gen_error(se.P.rho, se.level, 0.0)
    v = se.P.rho if p.kind == "uninformative" else se.v_of(p.qh)
    return se.C.gen_error(p.q, se.level, v)


def _mmse(se: SE, p: FixedPoint) -> float:
    if p.kind == "perfect":
        return 0.0
    return se.P.rho if p.kind == "uninformative" else se.v_of(p.qh)


def point(prior: Prior, channel: Channel, alpha: float) -> PointAnswer:
    """The Bayes-optimal and AMP fixed points at α, with MMSE and generalisation errors.

    >>> from fltheory.papers.glm.params import rademacher, Channel
    >>> p = point(rademacher(), Channel("sign"), 1.0)
    >>> p.bayes_q.text(), p.bayes_error.text()
    ('0.5607147370947', '0.2306260867420')
    """
    vals = []
    c1, c2 = _curve(prior, channel, 1), _curve(prior, channel, 2)
    b1, a1 = c1.bayes(alpha), c1.amp(alpha)
    b2 = _finer(c1, c2, b1, alpha)
    a2 = b2 if a1 is b1 and b2.kind == b1.kind else _finer(c1, c2, a1, alpha, amp=True)
    for c, b, a in ((c1, b1, a1), (c2, b2, a2)):
        se = c.se
        vals.append((b, a, _mmse(se, b), _mmse(se, a), _gen(se, b), _gen(se, a)))
    (b1, a1, mb1, ma1, eb1, ea1), (b2, a2, mb2, ma2, eb2, ea2) = vals
    if (b1.kind, a1.kind) != (b2.kind, a2.kind):
        raise NotConverged(f"at alpha = {alpha:g} the two resolutions pick different fixed "
                           "points (too close to a threshold to decide)")
    kind = "classification" if channel.discrete else "mse"
    se1, se2 = c1.se, c2.se

    def free() -> tuple[Value, Value]:
        return (_confirm(se1.f_of(b1), se2.f_of(b2)), _confirm(se1.f_of(a1), se2.f_of(a2)))

    return PointAnswer(alpha, _confirm(b1.q, b2.q), _confirm(a1.q, a2.q), _confirm(mb1, mb2),
                       _confirm(ma1, ma2), _confirm(eb1, eb2), _confirm(ea1, ea2),
                       b2.kind, a2.kind, kind, free)


def _finer(c1: Curve, c2: Curve, p: FixedPoint, alpha: float, amp: bool = False) -> FixedPoint:
    """Level 2's fixed point for level 1's ``p`` (the Bayes-optimal one, or AMP's): followed
    from ``p`` by one Newton step (:meth:`Curve.follow`) when level 1's choice is clear (its
    free entropy above every other stable point's by more than 1e-9, for the Bayes one), else
    level 2's own choice, solved in full."""
    if not amp:
        se1 = c1.se
        others = [se1.f_of(q) for q in c1.fixed_points(alpha) if q.stable and q is not p]
        f = se1.f_of(p) if others else 0.0
        if any(abs(f - g) <= 1e-9 * max(1.0, abs(f)) for g in others):
            return c2.bayes(alpha)
    got = c2.follow(p, c1)
    if got is None:
        return c2.amp(alpha) if amp else c2.bayes(alpha)
    return got


def curve_points(prior: Prior, channel: Channel, alphas: list[float]) -> list[PointAnswer]:
    """:func:`point` at each α of ``alphas``, in order (the fixed points, errors and free
    entropies of both starts).

    >>> from fltheory.papers.glm.params import rademacher, Channel
    >>> [round(p.bayes_q.value, 10) for p in curve_points(rademacher(), Channel("sign"), [1.0])]
    [0.5607147371]
    """
    return [point(prior, channel, a) for a in alphas]


def state_evolution(prior: Prior, channel: Channel, alpha: float, iterations: int = 1000,
                    q0: float = 1e-6, tol: float = 1e-13) -> list[float]:
    """The iterates q_t of the state evolution q_{t+1} = F(α Q(q_t)) from q₀ (Barbier et al.
    2019), until |q_{t+1} − q_t| < tol·ρ; a run that does not settle within
    ``iterations`` raises :class:`NotConverged` naming α and the count (never a number).

    >>> from fltheory.papers.glm.params import rademacher, Channel
    >>> round(state_evolution(rademacher(), Channel("sign"), 1.0)[-1], 10)
    0.5607147371
    """
    se = SE(prior, channel, 1)
    qs = [q0]
    for _ in range(iterations):
        q = qs[-1]
        qh = alpha * se.Q(q, se.P.rho - q)
        qn, v = se.P.q_and_v(qh, 1)
        qs.append(qn)
        if abs(qn - q) < tol * se.P.rho or v < 1e-14 * se.P.rho:
            return qs
    raise NotConverged(f"state evolution at alpha = {alpha:g} did not converge in {iterations} "
                       f"iterations (last step {abs(qs[-1] - qs[-2]):.2g})")
