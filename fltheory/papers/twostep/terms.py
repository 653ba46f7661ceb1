r"""The terms of the second gradient step: spike constants and what each batch mode can learn.

Normalisation (as in :mod:`fltheory.papers.twostep.sim`): f(x) = aᵀσ(Wx)/√N, W0 i.i.d. N(0, 1/d),
a i.i.d. N(0, 1), correlation loss, G = −∇L = (1/(n√N)) (a ⊙ σ'(WXᵀ) ⊙ y) X, η_i = N^{α_i}.
For polynomial σ of degree L the second update is η2 Σ_{k=0}^{L−1} ε^k H_k with ε = η1/√N and

.. math::

    H_k = \frac{1}{n\sqrt N}\Bigl(a \odot \sigma^{(k+1)}(Z_0) \odot \frac{D^k}{k!}
          \odot y\Bigr) X, \qquad D = \sqrt N\, G_0 X^\top \quad \text{(reused batch)}.

Leading-order law of one entry of D (derived here; checked by simulation in the claims).
For neuron j and sample i, D_ji = a_j D̃_ji with

.. math::

    \tilde D &= \psi\, \sigma'(z)\, y + \xi + \mu_\sigma \sum_k \mu_1(g_k)\, s_k
        &&\qquad\text{(reused; } \psi = d/n\text{)}\\
    \tilde D &= \xi + \mu_\sigma \sum_k \mu_1(g_k)\, s_k
        &&\qquad\text{(fresh: no sample meets itself)}

where z = w_j·x_i ~ N(0, 1), s_k = β_k·x_i ~ N(0, 1) independent, y = Σ_k g_k(s_k) + noise,
μ_σ = E[σ'(z)], and ξ ~ N(0, ψ1 E[σ'(z)²] E[y²]) is the fluctuation of (1/n1) Σ_{l≠i}
σ'(z_jl) y_l x_l·x_i (ψ1 = d/n1, n1 the first step's batch). The first term is the sample's own
contribution (x_i·x_i/n = ψ): it carries y_i and is what a reused batch adds. Consequently the
j-th entry of H_k v is (1/√N) a_j^{k+1} (C_k(v) + O(n^{−1/2})) with

.. math::

    C_k(v) = \mathbb{E}[c_k\, s_v], \qquad c_k = \frac{\sigma^{(k+1)}(z)\, \tilde D^k\, y}{k!},

and the mean square over neurons and data

.. math::

    \mathbb{E}\lVert H_k v\rVert^2 = (2k+1)!!\,\Bigl(C_k(v)^2
      + \frac{\mathbb{E}[c_k^2 s_v^2] - C_k(v)^2}{n_2}\Bigr)
    \qquad (\mathbb{E}\, a^{2k+2} = (2k+1)!!).

The spike constant of the k-th term along v is F_k(v) = √((2k+1)!!)|C_k(v)|; the 1/n2 part is the
(heavy-tailed) bulk seen along v. Expectations are exact Gaussian moments in z, ξ and
one-dimensional moments E[s^c g(s)^e] (exact for polynomial g, mpmath quadrature otherwise).

Learnability. A direction β_k is in the first update iff μ_1(g_k) ≠ 0 (and μ_σ ≠ 0). In the second
update it enters the k-th term iff C_k(β_k) ≠ 0 and that term is an outlier (1 <= k <= Λ). For a
fresh batch y enters c_k linearly and only through s-powers of directions with μ_1 ≠ 0, so
C_k(β) = 0 whenever μ_1(g) = 0, at every order. For a reused batch y^{r+1} appears (r <= k), so β
enters once E[g(s)^{r+1} s] ≠ 0 — possible for odd g (He_3 enters at k = 2: E[He_3(s)³ s] ≠ 0)
and impossible for even g, whose generative exponent is 2 (E[T(y) s] = 0 for every T).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from fltheory.args import read_choice, read_count, read_dps, read_rational, read_real
from fltheory.engine.functions import Function, Z, parse_function
from fltheory.engine.hermite import gauss_moment
from fltheory.engine.spectral.spikes import rectangular_spike
from fltheory.exact import DomainError, fraction_str
from fltheory.papers.twostep.params import (
    BATCH_PSI,
    BATCHES,
    TwoStepSetting,
    check_alpha,
    target_texts,
)
from fltheory.papers.twostep.phases import (
    TWO_STEP_SIGMA,
    TWO_STEP_SIGMA_NAME,
    exponent_of,
    lambda_of,
)

__all__ = ["TWO_STEP_SIGMA", "TWO_STEP_SIGMA_NAME", "DirectionLearning", "TermPrediction",
           "TwoStepModel", "batch_model", "batch_psi", "learnability", "learnability_of",
           "one_step_overlap", "one_step_ratio", "term_prediction"]


_XI = sp.Symbol("xi", real=True)


@dataclass
class TwoStepModel:
    """σ (a polynomial in z), targets g_k (functions of one variable, written in z), the
    aspect ratios ψ = d/n of each step's batch, and the label-noise standard deviation."""

    sigma: Function
    targets: tuple[Function, ...]
    psi1: Fraction = Fraction(1)
    psi2: Fraction = Fraction(1)
    noise: Fraction = Fraction(0)
    dps: int = 30
    _moment_cache: dict[tuple[int, int, int], Any] = field(default_factory=dict, repr=False)
    _poly_cache: dict[tuple[int, str, bool], sp.Poly] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, sigma: str, targets: str | list[str], psi1: Fraction = Fraction(1),
              psi2: Fraction = Fraction(1), noise: Fraction = Fraction(0),
              dps: int = 30, polynomial: bool = True) -> TwoStepModel:
        """The model from text: ``sigma`` a polynomial in z (catalogue names allowed, e.g.
        :data:`TWO_STEP_SIGMA`), ``targets`` one function of z per direction (non-empty, each
        with E[g] = 0), ψ1, ψ2 = d/n of each step's batch (rationals > 0), the label-noise
        standard deviation (>= 0), ``dps`` digits of the numerical moments (5..100). A single
        string is one target (``"He1"`` means ``["He1"]``). ``polynomial=False`` accepts any
        σ (then only :func:`learn`'s σ-aware path and :mod:`fltheory.papers.twostep.sigma`
        use the model: the terms H_k are a finite sum only for a polynomial).

        >>> TwoStepModel.build(TWO_STEP_SIGMA, ["He1", "He3"]).degree
        3
        >>> len(TwoStepModel.build(TWO_STEP_SIGMA, "He1").targets)
        1
        """
        if not isinstance(sigma, str):
            raise DomainError("sigma", sigma, "a polynomial in z", reason="is not an expression")
        texts = target_texts(targets)
        psi1 = read_rational(psi1, "psi", 0, open_low=True)
        psi2 = read_rational(psi2, "psi", 0, open_low=True)
        noise, dps = read_rational(noise, "noise", 0), read_dps(dps)
        return cls._make(sigma, texts, psi1, psi2, noise, dps, polynomial)

    @classmethod
    def of(cls, setting: TwoStepSetting, polynomial: bool = True) -> TwoStepModel:
        """The model of a setting: its σ (which must be given) and targets, ψ1 = ψ2 = its ψ,
        no label noise, its ``dps``; ``polynomial`` as for :meth:`build`.

        >>> TwoStepModel.of(TwoStepSetting("2/5", sigma="z**3", targets=["He1"])).degree
        3
        """
        if setting.sigma is None or setting.psi is None:
            raise DomainError("sigma", "None", "an activation (the model needs σ)",
                              reason="is missing")
        return cls._make(setting.sigma, setting.targets, setting.psi, setting.psi, Fraction(0),
                         setting.dps, polynomial)

    @classmethod
    def _make(cls, sigma: str, targets: tuple[str, ...], psi1: Fraction, psi2: Fraction,
              noise: Fraction, dps: int, polynomial: bool) -> TwoStepModel:
        """:meth:`build` of already-read arguments: parse σ and the targets, check E[g] = 0."""
        sig = parse_function(sigma, "sigma")
        if polynomial and not sig.expr.is_polynomial(Z):
            raise DomainError("sigma", sigma, "a polynomial in z (the terms H_k are a finite sum "
                              "only for polynomial σ)", reason="is not a polynomial")
        if not targets:
            raise DomainError("target", "(none)", "at least one target function")
        funcs = tuple(parse_function(t, "target") for t in targets)
        model = cls(sig, funcs, psi1, psi2, noise, dps)
        for i, g in enumerate(funcs):
            if model.target_moment(i, 0, 1) != 0 and abs(sp.N(model.target_moment(i, 0, 1))) \
                    > 1e-20:
                raise DomainError("target", g.text, "functions with E[g(z)] = 0",
                                  reason="has a non-zero mean")
        return model

    @property
    def degree(self) -> int:
        """L, the degree of σ (the second update has the terms k = 0..L − 1); a model of a
        non-polynomial σ (``build(..., polynomial=False)``) has no degree: DomainError."""
        if not self.sigma.expr.is_polynomial(Z):
            raise DomainError("sigma", self.sigma.text, "a polynomial in z",
                              reason="has no finite degree")
        return int(sp.Poly(self.sigma.expr, Z).degree())

    def target_moment(self, k: int, c: int, e: int) -> Any:
        """E[s^c g_k(s)^e], s ~ N(0, 1): exact for polynomial g, mpmath quadrature otherwise."""
        key = (k, c, e)
        if key not in self._moment_cache:
            expr = Z**c * self.targets[k].expr ** e
            if expr.is_polynomial(Z):
                poly = sp.Poly(sp.expand(expr), Z)
                value = sum((coef * gauss_moment(m[0]) for m, coef in poly.terms()),
                            sp.Integer(0))
            else:
                fn = sp.lambdify(Z, expr, "mpmath")
                with mpmath.workdps(self.dps + 10):
                    q = mpmath.quad(lambda x: fn(x) * mpmath.npdf(x),
                                    [-mpmath.inf, 0, mpmath.inf])
                value = sp.Float(q, self.dps + 10)
            self._moment_cache[key] = value
        return self._moment_cache[key]

    def mu1(self, k: int) -> Any:
        """μ_1(g_k) = E[s g_k(s)], the first Hermite coefficient of the k-th target."""
        return self.target_moment(k, 1, 1)


def batch_psi(batch: str) -> Fraction:
    """ψ = d/n of each step's batch in the paper's examples (n = d): 1 for a reused batch, 2 for
    a fresh one (each step sees one half of the n samples).

    >>> batch_psi("reused"), batch_psi("fresh")
    (Fraction(1, 1), Fraction(2, 1))
    """
    return BATCH_PSI[read_choice(batch, "batch", BATCHES)]


def batch_model(targets: str | list[str], batch: str, sigma: str = TWO_STEP_SIGMA) -> TwoStepModel:
    """:meth:`TwoStepModel.build` with ψ1 = ψ2 = :func:`batch_psi` (``batch``), the model of the
    paper's tables and claims (σ = :data:`TWO_STEP_SIGMA` by default).

    >>> batch_model(["He1"], "fresh").psi1
    Fraction(2, 1)
    """
    psi = batch_psi(batch)
    return TwoStepModel.build(sigma, targets, psi1=psi, psi2=psi)


def _expect(expr: sp.Expr | sp.Poly, model: TwoStepModel, s_syms: list[sp.Symbol],
            g_syms: list[sp.Symbol], shift: int | None = None) -> Any:
    """E of a polynomial in z, ξ, s_k, G_k (G_k = g_k(s_k)); all independent across groups.

    ``shift`` multiplies the polynomial by s_shift (and ``shift + 100`` by s_shift²) without
    re-expanding it.
    """
    gens = [Z, _XI, *s_syms, *g_syms]
    poly = expr if isinstance(expr, sp.Poly) else sp.Poly(sp.expand(expr), *gens)
    K = len(s_syms)
    extra = [0] * K
    if shift is not None:
        extra[shift % 100] = 1 + shift // 100
    total: Any = sp.Integer(0)
    for monom, coef in poly.terms():
        a, b = monom[0], monom[1]
        value: Any = coef * gauss_moment(a) * gauss_moment(b)
        if value == 0:
            continue
        for k in range(K):
            c, e = monom[2 + k] + extra[k], monom[2 + K + k]
            value *= model.target_moment(k, c, e)
            if value == 0:
                break
        total += value
    return total


@dataclass(frozen=True)
class TermPrediction:
    """C_k(v), the mean square E‖H_k v‖² at batch size n2, and F_k(v) = √((2k+1)!!)|C_k|."""

    k: int
    direction: str
    batch: str
    C: Any
    Q: Any

    @property
    def double_factorial(self) -> int:
        return math.prod(range(2 * self.k + 1, 0, -2))

    @property
    def spike(self) -> float:
        return float(math.sqrt(self.double_factorial) * abs(float(self.C)))

    def mean_square(self, n2: int) -> float:
        C2 = float(self.C) ** 2
        return self.double_factorial * (C2 + (float(self.Q) - C2) / n2)


def _symbols(model: TwoStepModel) -> tuple[list[sp.Symbol], list[sp.Symbol]]:
    K = len(model.targets)
    return ([sp.Symbol(f"s{k}", real=True) for k in range(K)],
            [sp.Symbol(f"G{k}", real=True) for k in range(K)])


def _term_polys(model: TwoStepModel, k: int, batch: str, square: bool) -> sp.Poly:
    """c_k = σ^{(k+1)}(z) D̃^k y/k! (or its square) as a polynomial, cached on the model."""
    cache = model._poly_cache
    key = (k, batch, square)
    if key in cache:
        return cache[key]
    s, G = _symbols(model)
    sig = model.sigma.expr
    d1 = sp.diff(sig, Z)
    mu_sigma = _expect(d1, model, s, G)
    E_d1sq = _expect(d1**2, model, s, G)
    y = sum(G, sp.Integer(0))
    # label noise is independent of everything and enters through E[y²] (ξ's variance) only
    Ey2 = _expect(y**2, model, s, G) + model.noise**2
    mean_part = mu_sigma * sum((model.mu1(i) * s[i] for i in range(len(s))), sp.Integer(0))
    xi = sp.sqrt(sp.sympify(model.psi1) * E_d1sq * Ey2) * _XI
    D = xi + mean_part + (sp.sympify(model.psi2) * d1 * y if batch == "reused" else 0)
    c = sp.diff(sig, Z, k + 1) * D**k * y / math.factorial(k)
    cache[key] = sp.Poly(sp.expand(c**2 if square else c), Z, _XI, *s, *G)
    return cache[key]


def term_prediction(model: TwoStepModel, k: int, direction: int | None, batch: str,
                    with_Q: bool = True) -> TermPrediction:
    """C_k(v) = E[c_k s_v] and Q = E[c_k² s_v²] (exact sympy values, or sympy Floats at the
    model's dps when a target is integrated numerically) along target direction ``direction``
    (index 0..K − 1) or, for None, a random unit direction orthogonal to every target
    direction; 0 <= k <= L − 1; ``batch`` reused or fresh; ``with_Q=False`` skips Q (nan).

    >>> m = batch_model(["He1", "He3"], "reused")
    >>> term_prediction(m, 0, 0, "reused", with_Q=False).C
    sqrt(3)/3
    """
    if not isinstance(model, TwoStepModel):
        raise DomainError("model", model, "a TwoStepModel")
    read_choice(batch, "batch", BATCHES)
    read_count(k, "k", 0, model.degree - 1)  # σ has degree L: the terms k = 0..L − 1
    if direction is not None:
        read_count(direction, "direction", 0, len(model.targets) - 1)  # a target index
    s, G = _symbols(model)
    if direction is None:
        C: Any = sp.Integer(0)
        Q = _expect(_term_polys(model, k, batch, True), model, s, G) if with_Q else sp.nan
        name = "random ⟂"
    else:
        C = _expect(_term_polys(model, k, batch, False), model, s, G, shift=direction)
        Q = (_expect(_term_polys(model, k, batch, True), model, s, G, shift=100 + direction)
             if with_Q else sp.nan)
        name = f"β{direction + 1}"
    return TermPrediction(k, name, batch, C, Q)


def _nonzero(value: Any, dps: int) -> bool:
    if value == 0:
        return False
    return bool(abs(sp.N(value, dps)) > sp.Float(10) ** (-(dps // 2)))


@dataclass(frozen=True)
class DirectionLearning:
    """The verdict on one target direction: learned in step 1 (μ_1(g) ≠ 0), in step 2 (through
    the term ``via_k``), and why."""

    target: str
    mu1: Any
    step1: bool
    step2: bool
    via_k: int | None
    reason: str
    #: learned in step 2 only through a boundary term (exponent exactly 0): whether that term
    #: is an outlier depends on its O(1) constant, so ``step2`` is False and this is True
    boundary: bool = False

    @property
    def step2_text(self) -> str:
        """``yes``, ``no`` or ``boundary`` (as ``fltheory lambda`` calls a term of exponent 0)."""
        return "yes" if self.step2 else "boundary" if self.boundary else "no"


def learnability(model: TwoStepModel, alpha1: Fraction, alpha2: Fraction, batch: str
                 ) -> tuple[int, list[DirectionLearning]]:
    """Which target directions are learned after step 1 and after step 2 (given batch mode).

    α1, α2 in [0, 1/2) exact; ``batch`` reused or fresh. Returns Λ (capped by L − 1, L = degree
    of σ) and, per direction, the verdict with its reason (a direction enters step 2 through the
    first outlier term 1 <= k <= Λ whose C_k(β) ≠ 0).

    >>> lam, dirs = learnability(batch_model(["He1", "He3"], "reused"), Fraction(9, 20),
    ...                          Fraction(3, 10), "reused")
    >>> lam, [(d.step1, d.step2, d.via_k) for d in dirs]
    (2, [(True, True, 2), (False, True, 2)])
    """
    if not isinstance(model, TwoStepModel):
        raise DomainError("model", model, "a TwoStepModel")
    setting = TwoStepSetting(alpha1, alpha2, sigma=model.sigma.text,
                             batch=read_choice(batch, "batch", BATCHES), dps=model.dps)
    return learnability_of(model, setting)


def learnability_of(model: TwoStepModel, setting: TwoStepSetting
                    ) -> tuple[int, list[DirectionLearning]]:
    """:func:`learnability` of the model (σ, targets, ψ, dps) at the setting's step exponents
    α1, α2 and batch mode (the setting's σ and targets are the model's own).

    >>> setting = TwoStepSetting("9/20", "3/10", sigma=TWO_STEP_SIGMA, targets=["He1", "He3"])
    >>> lam, dirs = learnability_of(batch_model(["He1", "He3"], "reused"), setting)
    >>> lam, [d.via_k for d in dirs]
    (2, [2, 2])
    """
    lam = lambda_of(setting, model.degree)
    batch = str(setting.batch)
    mu_sigma = _expect(sp.diff(model.sigma.expr, Z), model, *_symbols(model))
    out = []
    for i, g in enumerate(model.targets):
        mu1 = model.mu1(i)
        step1 = _nonzero(mu1, model.dps) and _nonzero(mu_sigma, model.dps)
        via = None
        for k in range(1, lam.value + 1):
            if _nonzero(term_prediction(model, k, i, batch, with_Q=False).C, model.dps):
                via = k
                break
        sigma_spike = _nonzero(mu_sigma, model.dps)
        if step1:
            reason = (f"μ_1(g) = {_short(mu1)} ≠ 0: in the one-step spike (rank one along "
                      "Σ μ_1(g_k) β_k)")
        elif via is not None:
            reason = _via_reason(via, exponent_of(setting, via), batch,
                                 _step1_clause(mu1, model.dps, sigma_spike))
        elif batch == "fresh" and not _nonzero(mu1, model.dps):
            reason = ("μ_1(g) = 0: with a fresh batch y enters every term linearly, so C_k(β) = 0 "
                      "at every order")
        else:
            reason = (f"{_step1_clause(mu1, model.dps, sigma_spike)} and C_k(β) = 0 for every "
                      f"outlier term 1 <= k <= Λ = {lam.value}")
        on_boundary = not step1 and via is not None and exponent_of(setting, via) == 0
        out.append(DirectionLearning(g.text, mu1, step1, step1 or (via is not None
                                                                 and not on_boundary),
                                     via, reason, on_boundary))
    return lam.value, out


def _step1_clause(mu1: Any, dps: int, sigma_spike: bool) -> str:
    """Why a direction is not in the one-step spike: μ_1(g) = 0, or μ_1(σ) = 0 (no spike)."""
    if _nonzero(mu1, dps):
        return f"μ_1(g) = {_short(mu1)} but μ_1(σ) = 0 (no one-step spike)"
    return "μ_1(g) = 0" if sigma_spike else "μ_1(g) = 0 and μ_1(σ) = 0"


def _via_reason(via: int, exponent: Fraction, batch: str, why_not_step1: str) -> str:
    """Why a direction missing from the one-step spike is (or, at the boundary, may be)
    learned in step 2."""
    if exponent > 0:
        return (f"{why_not_step1}, but C_{via}(β) ≠ 0 in the {batch} second step: term "
                f"k = {via} with exponent {fraction_str(exponent)} > 0")
    return (f"boundary: {why_not_step1}, and C_{via}(β) ≠ 0 in the {batch} second step, but "
            f"term k = {via} has exponent exactly 0, so whether it is an outlier depends on its "
            "O(1) constant (as in fltheory lambda)")


def _short(value: Any) -> str:
    return str(value) if not isinstance(value, sp.Float) else mpmath.nstr(mpmath.mpf(value), 6)


def one_step_overlap(model: TwoStepModel, alpha1: Fraction, N: int, c: Fraction = Fraction(1)
                     ) -> dict[str, float]:
    """Squared overlap of W1's top right-singular vector with the learned direction
    Σ_k μ_1(g_k) β_k / ‖·‖, after one step η1 = N^{α1} (BBP for rectangular matrices).

    W1 = W0 + η1 G0 with G0 = (μ_σ/√N) a bᵀ + (fluctuation of order N^{−1/2}), b = Xᵀy/n,
    ‖b‖² → B² = Σ μ_1(g_k)² + ψ E[y²]. With W0 (N × d, entries of variance 1/d, c = N/d <= 1) the
    spike has strength θ = η1 μ_σ B (‖a‖/√N → 1), and Benaych-Georges & Nadakuditi (2012) give
    |⟨ṽ, b/‖b‖⟩|² = 1 − (c + θ²)/(θ²(θ² + 1)) for θ > c^{1/4} (0 below: the rectangular BBP
    form of :func:`fltheory.engine.spectral.spikes.rectangular_spike`); b's noise part is
    isotropic, so ⟨b/‖b‖, learned⟩² = Σ μ_1²/B². The fluctuation term is neglected: it is of
    relative order N^{α1 − 1/2}.

    α1 in [0, 1/2), N an integer >= 1, c = N/d in (0, 1]. Returns floats (double precision):
    ``theta``, ``overlap_b``, ``b_alignment`` and ``overlap``.

    >>> out = one_step_overlap(batch_model(["He1", "bounded3"], "reused"), Fraction(1, 10), 1000)
    >>> round(out["overlap"], 4)
    0.2496
    """
    if not isinstance(model, TwoStepModel):
        raise DomainError("model", model, "a TwoStepModel")
    alpha1 = check_alpha(alpha1, "a1")
    N = read_count(N, "N", 1)
    c = read_rational(c, "c", 0, 1, open_low=True)  # c = N/d
    s, G = _symbols(model)
    d1 = sp.diff(model.sigma.expr, Z)
    mu_sigma = float(_expect(d1, model, s, G))
    y = sum(G, sp.Integer(0))
    Ey2 = float(_expect(y**2, model, s, G)) + float(model.noise) ** 2
    signal = sum(float(model.mu1(i)) ** 2 for i in range(len(model.targets)))
    B2 = signal + float(model.psi1) * Ey2
    theta = float(N) ** float(alpha1) * abs(mu_sigma) * math.sqrt(B2)
    along_b = rectangular_spike(theta, float(c)).right
    return {"theta": theta, "overlap_b": along_b, "b_alignment": signal / B2,
            "overlap": along_b * signal / B2}


def one_step_ratio(alpha1: float | Fraction, alpha2: float | Fraction, N: float, h1: float,
                   h2: float) -> float:
    r"""The relative Frobenius deviation of W2 from one step of size η1 + η2 (σ of degree 3):

    .. math::

        r_F(N) = \frac{\eta_2}{\eta_1 + \eta_2}\sqrt{\varepsilon^2 h_1 + \varepsilon^4 h_2},
        \qquad \varepsilon = \eta_1/\sqrt N, \qquad \eta_i = N^{\alpha_i},

    from the Taylor identity W2 − W0 − (η1+η2)G0 = η2(εH_1 + ε²H_2) with h_k = ‖H_k‖_F²/‖G0‖_F²
    (⟨H_1, H_2⟩ is odd in the second-layer weights a_j and averages out). α1, α2 in [0, 1/2),
    N > 0, h1, h2 >= 0 finite; a float (double precision).

    >>> round(one_step_ratio(0.1, 0.2, 1000.0, 300.0, 1.3e4), 4)
    0.7883
    """
    a1, a2 = float(check_alpha(alpha1, "a1")), float(check_alpha(alpha2, "a2"))
    N = read_real(N, "N", 0, open_low=True)
    h1, h2 = read_real(h1, "h1", 0), read_real(h2, "h2", 0)
    eta1, eta2 = N**a1, N**a2
    eps = eta1 / math.sqrt(N)
    return eta2 / (eta1 + eta2) * math.sqrt(eps**2 * h1 + eps**4 * h2)
