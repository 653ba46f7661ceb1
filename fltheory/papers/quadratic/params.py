"""The quadratic-network paper's parameters (Bocchi et al. 2026): the model and its runs.

Definitions, not formulas: each field is read once, here, by the readers of
:mod:`fltheory.args` when the object is built, with the domain error naming the parameter; the
objects are then trusted by the theory, the simulator, the runs and the claims alike (the
simulator may import this module: it holds no formula of the theory).

=========================  =============================================================
object                     what it holds
=========================  =============================================================
:class:`Model`             p, p*, the teacher's eigenvalues, the label noise σ, the
                           normalisation (mean field or the literal fixed step)
:class:`Coefficients`      a, b, η_w, σ as floats: the coefficients one-pass SGD and its ODE
                           share
:class:`Overlaps`          a start of the ODE: Q(0), ρ(0) and T
:class:`Integration`       the ODE's time grid, method and tolerances
:class:`ODEStart`          ``quadratic ode``: η, Q(0) = q0 I, the scale and seed of ρ(0), t_max
:class:`EscapeRequest`     ``quadratic escape``: η, the N's, q0, threshold, samples, seed, dt
:class:`Comparison`        ``quadratic simulate``: SGD at N against the ODE (η, t_max, seed…)
:class:`CurvatureRequest`  ``quadratic hessian``: the input dimension N and the step η
=========================  =============================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fltheory.args import (
    fraction_text,
    read_choice,
    read_count,
    read_grid,
    read_matrix,
    read_rational,
    read_rationals,
    read_real,
    read_step,
    settle,
)
from fltheory.exact import DomainError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["INTEGRATORS", "MAX_ENTRY", "SCALE_MAX", "SCALINGS", "Coefficients", "Comparison",
           "CurvatureRequest", "EscapeRequest", "Integration", "Model", "ODEStart", "Overlaps",
           "mean_field_step"]

#: the largest order-parameter scale a user may give (q0, the scale of ρ(0), σ, teacher
#: eigenvalues)
SCALE_MAX = 1000
#: the normalisations: mean field a = 1/p, η_w = pη (a·η_w = η for every p); fixed: the
#: literal fixed step a = 1/p, η_w = η (a·η_w = η/p)
SCALINGS = ("mean-field", "fixed")
#: the ODE's integrators (:func:`fltheory.papers.quadratic.theory.integrate`)
INTEGRATORS = ("auto", "dopri", "lsoda")
#: overlaps are O(1); entries up to 1e6 keep the ODE's q³ terms far from overflow
MAX_ENTRY = 1e6


def mean_field_step(eta: Fraction | int | float | str, p: int,
                    scaling: str = "mean-field") -> Fraction:
    """The mean-field step a·η_w of a normalisation: ``mean-field`` (a = 1/p, η_w = pη) gives
    η itself; ``fixed`` (the literal fixed step a = 1/p, η_w = η) gives η/p — the dynamics of
    W' = √a W depends on a and η_w only through a·η_w. Exact (Fraction); η > 0, p >= 1.

    >>> mean_field_step(Fraction(2, 5), 4, "fixed")
    Fraction(1, 10)
    """
    p = read_count(p, "p", 1)
    step = read_step(eta)
    return step / p if read_choice(scaling, "scaling", SCALINGS) == "fixed" else step


@dataclass(frozen=True)
class Coefficients:
    """The coefficients one-pass SGD and its ODE share, as floats: the prefactors a > 0 of the
    student and b >= 0 of the teacher, the per-weight step η_w > 0 and the label noise σ >= 0
    (:meth:`Model.coefficients` gives the mean-field ones).

    >>> Coefficients(0.25, 0.5, 0.4).sigma
    0.0
    """

    a: Any
    b: Any
    eta_w: Any
    sigma: Any = 0.0

    def __post_init__(self) -> None:
        settle(self, a=read_real(self.a, "a", low=0.0, open_low=True),
               b=read_real(self.b, "b", low=0.0),
               eta_w=read_real(self.eta_w, "eta_w", low=0.0, open_low=True),
               sigma=read_real(self.sigma, "sigma", low=0.0))


@dataclass(frozen=True)
class Model:
    """The quadratic student–teacher pair: p students, p* teachers (integers >= 1), the
    teacher's eigenvalues T = diag(τ) (``None``, ``"identity"``: T = I; else p* exact values in
    [1/1000, 1000], as a sequence or as the command's text ``"diag:3/2,1/2"``), the label noise
    σ in [0, 1000] (exact) and the normalisation ``scaling`` (:data:`SCALINGS`).

    >>> m = Model(4, 2, teacher="diag:3/2,1/2")
    >>> m.taus, m.isotropic, m.step(Fraction(1, 10))
    ((Fraction(3, 2), Fraction(1, 2)), False, Fraction(1, 10))
    >>> Model(4, 2, teacher="diag:1")
    Traceback (most recent call last):
    fltheory.exact.DomainError: teacher = 1 is outside the allowed range 2 eigenvalues in \
[1/1000, 1000]
    """

    p: Any
    p_star: Any
    noise: Any = 0
    teacher: Any = None
    scaling: Any = "mean-field"

    def __post_init__(self) -> None:
        p, p_star = read_count(self.p, "p", 1), read_count(self.p_star, "p_star", 1)
        teacher = self.teacher
        if isinstance(teacher, str) and teacher != "identity":
            if not teacher.startswith("diag:"):
                raise DomainError("teacher", teacher[:40],
                                  "identity or diag:t1,t2,… (p* values, mean 1)")
            teacher = teacher[5:]
        taus = None if teacher is None or teacher == "identity" else read_rationals(
            teacher, "teacher", Fraction(1, SCALE_MAX), SCALE_MAX)
        if taus is not None and len(taus) != p_star:
            raise DomainError("teacher", ",".join(map(fraction_text, taus))[:40],
                              f"{p_star} eigenvalues in [1/{SCALE_MAX}, {SCALE_MAX}]")
        settle(self, p=p, p_star=p_star,
               noise=read_rational(self.noise, "noise", 0, SCALE_MAX), teacher=taus,
               scaling=read_choice(self.scaling, "scaling", SCALINGS))

    @property
    def taus(self) -> tuple[Fraction, ...]:
        """The teacher's eigenvalues τ (all 1 for T = I)."""
        return (Fraction(1),) * self.p_star if self.teacher is None else self.teacher

    @property
    def isotropic(self) -> bool:
        """T = I."""
        return all(t == 1 for t in self.taus)

    def step(self, eta: Fraction) -> Fraction:
        """The mean-field step a·η_w of this normalisation at a step η already read (see
        :func:`mean_field_step`)."""
        return eta / self.p if self.scaling == "fixed" else eta

    def coefficients(self, eta: Fraction) -> Coefficients:
        """a = 1/p, b = 1/p*, η_w = p·(a·η_w) and σ as floats: the dynamics at step η."""
        return Coefficients(1.0 / self.p, 1.0 / self.p_star, self.p * float(self.step(eta)),
                            float(self.noise))

    def T(self) -> np.ndarray:
        """The teacher overlap T = diag(τ) as a float matrix."""
        import numpy as np

        return np.diag([float(t) for t in self.taus])


@dataclass(frozen=True)
class Overlaps:
    """A start of the ODE: Q(0) (p × p), ρ(0) (p × p*) and T (p* × p*), finite float matrices
    with entries of magnitude <= :data:`MAX_ENTRY` (p, p* read from ρ(0)'s shape).

    >>> Overlaps([[0.25]], [[0.001, 0.0]], [[1, 0], [0, 1]]).R0.shape
    (1, 2)
    """

    Q0: Any
    R0: Any
    T: Any

    def __post_init__(self) -> None:
        import numpy as np

        R0 = read_matrix(self.R0, "R0")
        p, ps = R0.shape
        read_count(p, "p", 1)
        read_count(ps, "p_star", 1)
        Q0 = read_matrix(self.Q0, "Q0", (p, p))
        T = np.ascontiguousarray(read_matrix(self.T, "T", (ps, ps)))
        for M, name in ((Q0, "Q0"), (R0, "R0"), (T, "T")):
            if np.abs(M).max() > MAX_ENTRY:
                raise DomainError(name, f"a matrix with entries up to {np.abs(M).max():.3g}",
                                  f"entries of magnitude <= {MAX_ENTRY:g}")
        settle(self, Q0=Q0, R0=R0, T=T)


@dataclass(frozen=True)
class Integration:
    """How the ODE is integrated: the output grid ``t_grid`` (non-decreasing, finite), the
    method (:data:`INTEGRATORS`), the tolerances rtol, atol > 0, and whether the state is
    first reduced exactly (``reduce``).

    >>> Integration([0, 1, 2]).t_grid.tolist()
    [0.0, 1.0, 2.0]
    """

    t_grid: Any
    method: Any = "auto"
    rtol: Any = 1e-9
    atol: Any = 1e-12
    reduce: bool = True

    def __post_init__(self) -> None:
        settle(self, rtol=read_real(self.rtol, "rtol", low=0.0, open_low=True),
               atol=read_real(self.atol, "atol", low=0.0, open_low=True),
               t_grid=read_grid(self.t_grid),
               method=read_choice(self.method, "method", INTEGRATORS), reduce=bool(self.reduce))


@dataclass(frozen=True)
class ODEStart:
    """The run of ``quadratic ode``: the step η > 0, Q(0) = q0 I (0 < q0 <= 1000), ρ(0) = rho0
    × a Gaussian p × p* pattern from ``seed`` (0 <= rho0 <= 1000; 0 is the exact fixed point
    ρ ≡ 0), integrated to t_max in [1/100, 10^5]; all exact.

    >>> ODEStart("1/10", t_max=50).t_max
    Fraction(50, 1)
    """

    eta: Any
    q0: Any = Fraction(1, 4)
    rho0: Any = Fraction(1, 1000)
    seed: Any = 0
    t_max: Any = 200

    def __post_init__(self) -> None:
        settle(self, eta=read_step(self.eta),
               q0=read_rational(self.q0, "q0", 0, SCALE_MAX, open_low=True),
               rho0=read_rational(self.rho0, "rho0", 0, SCALE_MAX),
               seed=read_count(self.seed, "seed", 0),
               t_max=read_rational(self.t_max, "t_max", Fraction(1, 100), 10**5))


@dataclass(frozen=True)
class EscapeRequest:
    """The escape law from cold starts W0 ~ N(0, q0) (``quadratic escape``): the step η > 0
    (exact), the input dimensions ``Ns`` (integers >= 1), q0 in (0, 1000], the escape level
    ``threshold`` in [1e-6, 1), ``samples`` >= 2 Monte Carlo draws of the initial overlaps from
    ``seed`` >= 0, and the grid step dt > 0 (q0, threshold, dt as floats).

    >>> EscapeRequest("1/10", [250, 1000]).Ns
    (250, 1000)
    """

    eta: Any
    Ns: Any
    q0: Any = 0.25
    threshold: Any = 0.5
    samples: Any = 400
    seed: Any = 0
    dt: Any = 0.125

    def __post_init__(self) -> None:
        Ns = self.Ns
        if isinstance(Ns, str | bytes) or not isinstance(Ns, Sequence) or not Ns:
            raise DomainError("N", str(Ns)[:40], "a non-empty sequence of integers >= 1")
        settle(self, samples=read_count(self.samples, "samples", 2), eta=read_step(self.eta),
               q0=read_real(self.q0, "q0", 0.0, SCALE_MAX, open_low=True),
               threshold=read_real(self.threshold, "threshold", 1e-6, 1.0, open_high=True),
               dt=read_real(self.dt, "dt", low=0.0, open_low=True),
               seed=read_count(self.seed, "seed", 0),
               Ns=tuple(read_count(N, "N", 1) for N in Ns))


@dataclass(frozen=True)
class Comparison:
    """One-pass SGD at N (10 <= N <= 20000) from a cold start against the ODE from the same
    initial overlaps (``quadratic simulate``): the step η > 0 (exact), the end time t_max in
    (0, 1000] (exact), the seed, the number of test inputs ``n_test`` >= 0 and of ``records``
    >= 2 (equally spaced times on [0, t_max]).

    >>> float(Comparison(1000, "1/10", 40).grid()[-1])
    40.0
    """

    N: Any
    eta: Any
    t_max: Any
    seed: Any = 0
    n_test: Any = 2000
    records: Any = 21

    def __post_init__(self) -> None:
        settle(self, N=read_count(self.N, "N", 10, 20000), eta=read_step(self.eta),
               t_max=read_rational(self.t_max, "t_max", 0, 1000, open_low=True),
               seed=read_count(self.seed, "seed", 0), n_test=read_count(self.n_test, "n_test", 0),
               records=read_count(self.records, "records", 2))

    def grid(self) -> np.ndarray:
        """The record times: ``records`` equally spaced points of [0, t_max]."""
        import numpy as np

        return np.linspace(0, float(self.t_max), self.records)


@dataclass(frozen=True)
class CurvatureRequest:
    """The curvature counts of ``quadratic hessian``: the input dimension N >= 1 of the full
    weight space (N >= p + p* is the counts' own domain) and the step η > 0 (exact) of the ODE
    Jacobian.

    >>> CurvatureRequest(100, "1/10").eta
    Fraction(1, 10)
    """

    N: Any
    eta: Any = Fraction(1, 10)

    def __post_init__(self) -> None:
        settle(self, N=read_count(self.N, "N", 1), eta=read_step(self.eta))
