"""The committee paper's parameters, each read once, here, by :mod:`fltheory.args`, and trusted
afterwards by the theory, the simulator, the runs and the claims alike:

* :class:`CommitteeModel` — the soft committee machine: activation g, K students, M teachers,
  the second layers a, a* (within :data:`A_RANGE`), output noise σ and weight decay κ;
* :class:`ODESettings` — one integration of its ODEs: the step η, the output grid, the start
  (q0, rho0 and a seed, or Q0, R0; the teacher overlaps T), the tolerances and the method;
* :class:`SGDSettings` — one-pass SGD against the ODE from the same sampled start: η, the
  input dimension N, t_max, the seed, the cold start's q0, the test inputs and the records.

Definitions, not formulas: the simulator may import them (the wall of
tests/framework/test_architecture.py says so). Light: the standard library and the readers at
start-up; numpy inside the functions that build arrays, the expression grammar inside the one
that reads g.
"""

from __future__ import annotations

import itertools
import numbers
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from fltheory.args import (
    fraction_text,
    read_choice,
    read_count,
    read_grid,
    read_matrix,
    read_noise,
    read_rational,
    read_rationals,
    read_real,
    read_step,
    settle,
)
from fltheory.exact import DomainError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["A_RANGE", "MAX_FIELDS", "MAX_OVERLAP", "METHODS", "CommitteeModel", "ODESettings",
           "SGDSettings", "paired", "read_layer", "read_overlaps", "read_times"]

#: bound on K and on M (the state has K² + KM numbers; each right side ~K²(K + M)² averages)
MAX_FIELDS = 50
#: the second-layer weights a model accepts: 0 or 1/100 <= |a| <= 4. The ODE with (a, a*, η)
#: is the ODE with (a/c, a*/c, c²η) (ε_g times c²), so |a| = 100 is η × 10^4 (a runaway far
#: above η_max) and a student with |a| = 1e-3 must grow to |w|² ~ 10^6 |a*|² before it fits
#: (measured: --a 1e-3 … 1e-9 ended in a non-finite I3 or LinAlgError, --a 1e4 … 1e100 in a
#: "vanishing step size at t ≈ 0"/nan)
A_RANGE = (Fraction(1, 100), Fraction(4))
#: largest magnitude of an overlap entry of a start or a teacher (Q0, R0, T)
MAX_OVERLAP = 1e6
#: the integrators of :func:`fltheory.papers.committee.ode.integrate`
METHODS = ("auto", "dopri", "dop853", "lsoda")
#: longest integration time of an ODE run (``committee ode --t-max``)
MAX_T_ODE = 10**5
#: the local tolerances an integration accepts (below 1e-13 relative, float64 rounding is the
#: error; above 1e-3 the printed digits would be noise) and the most output times of one run
RTOL_RANGE = (1e-13, 1e-3)
ATOL_RANGE = (1e-16, 1e-3)
MAX_RECORDS = 10**6
#: longest simulated time and the input dimensions of an SGD run (``committee simulate``)
MAX_T_SGD = 1000
N_RANGE = (10, 20000)


def read_layer(value: Any, n: int, param: str, count: str) -> tuple[Fraction, ...]:
    """A second layer of ``n`` units as exact rationals: None (every weight 1), one number for
    every unit, the text "1/K" (``count`` names the units: every weight 1/n), or n numbers.

    >>> read_layer("1/K", 2, "a", "K"), read_layer([1, 0.5], 2, "a_star", "M")
    ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 1), Fraction(1, 2)))
    >>> read_layer([1, 2], 3, "a", "K")
    Traceback (most recent call last):
    fltheory.exact.DomainError: a = 2 numbers is outside the allowed range 3 numbers (K = 3)
    """
    if value is None:
        return (Fraction(1),) * n
    if isinstance(value, str) and value.replace(" ", "").upper() == f"1/{count}":
        return (Fraction(1, n),) * n
    if isinstance(value, str | numbers.Real) and not isinstance(value, bool):
        return (read_rational(value, param),) * n
    try:
        values = [read_rational(v, param) for v in value]
    except TypeError:
        raise DomainError(param, str(value)[:40], f"a number, '1/{count}' or {n} numbers") \
            from None
    if len(values) != n:
        raise DomainError(param, f"{len(values)} numbers", f"{n} numbers ({count} = {n})")
    return tuple(values)


def read_overlaps(value: Any, param: str, shape: tuple[int, int] | None = None) -> np.ndarray:
    """Overlaps (a start Q0, R0 or a teacher T) as a float matrix: array-like or text with rows
    separated by ';' (:func:`fltheory.args.read_matrix`), of ``shape`` when given, with
    entries of magnitude <= :data:`MAX_OVERLAP`.

    >>> read_overlaps("1,1/2;1/2,1", "T").tolist()
    [[1.0, 0.5], [0.5, 1.0]]
    >>> read_overlaps([[1e7]], "Q0")
    Traceback (most recent call last):
    fltheory.exact.DomainError: Q0 = a matrix with entries up to 1e+07 is outside ...
    """
    import numpy as np

    out = read_matrix(value, param, shape)
    if np.abs(out).max(initial=0.0) > MAX_OVERLAP:
        raise DomainError(param, f"a matrix with entries up to {np.abs(out).max():.3g}",
                          "entries of magnitude <= 1e6")
    return out


def read_times(value: Any, param: str = "times") -> tuple[Fraction, ...]:
    """Output times of an ODE run: increasing rationals in [0, :data:`MAX_T_ODE`], at most 1000,
    0 put first when absent, the last > 0.

    >>> read_times("100, 600")
    (Fraction(0, 1), Fraction(100, 1), Fraction(600, 1))
    >>> read_times("5,1")
    Traceback (most recent call last):
    fltheory.exact.DomainError: times = 5,1 is outside the allowed range increasing times ...
    """
    values = read_rationals(value, param, 0, MAX_T_ODE, most=1000)
    if values[0] != 0:
        values = (Fraction(0), *values)
    if len(values) < 2 or any(b <= a for a, b in itertools.pairwise(values)):
        raise DomainError(param, str(value)[:40], "increasing times in [0, 100000], the last > 0")
    return values


def paired(g: Sequence[str], eta: Sequence[Any]) -> list[tuple[str, Any]]:
    """The (g, η) rows of a table or figure: each g with its η, or one of them for all.

    >>> paired(["erf_ss", "relu"], [Fraction(1, 2)])
    [('erf_ss', Fraction(1, 2)), ('relu', Fraction(1, 2))]
    >>> paired(["erf", "relu"], [1, 2, 3])
    Traceback (most recent call last):
    fltheory.exact.DomainError: eta = 1,2,3 does not pair with g; allowed: one η, or one per g (2)
    """
    gs, etas = list(g), list(eta)
    if len(gs) == 1:
        gs = gs * len(etas)
    if len(etas) == 1:
        etas = etas * len(gs)
    if len(gs) != len(etas):
        raise DomainError("eta", ",".join(map(fraction_text, etas)),
                          f"one η, or one per g ({len(gs)})", reason="does not pair with g")
    return list(zip(gs, etas, strict=True))


def _activation_text(g: Any) -> str:
    """g as given (a name or an expression in z or x), checked against the expression grammar
    (the one the theory parses it with); what the theory cannot average (a g growing like
    e^(c z²), a polynomial of too high a degree) is the theory's to refuse."""
    if not isinstance(g, str):
        raise DomainError("g", str(g)[:40], "an activation name or expression")
    text = g.strip()
    if text != "erf_ss":  # Saad & Solla's erf(x/√2): the theory's own name, not the grammar's
        from fltheory.engine.expressions import parse_expression

        parse_expression(re.sub(r"\bx\b", "z", text), "g")
    return g


@dataclass(frozen=True)
class CommitteeModel:
    """A soft committee machine learned by online SGD (:mod:`fltheory.papers.committee.model`
    states the model): activation ``g`` (a name such as ``erf_ss``, ``relu``, ``tanh``, or an
    expression in z or x), K students, M teachers, second layers ``a`` and ``a_star`` (None:
    all 1; a number; "1/K" / "1/M"; or one number per unit; each 0 or within
    :data:`A_RANGE`), output noise σ = ``noise`` >= 0 and weight decay κ = ``weight_decay``
    >= 0, all kept as exact Fractions. 1 <= K, M <= :data:`MAX_FIELDS`.

    >>> m = CommitteeModel("erf_ss", 2, 1, a="1/K")
    >>> m.a, m.a_star, m.noise
    ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 1),), Fraction(0, 1))
    >>> CommitteeModel("erf_ss", 1, 1, a=5)
    Traceback (most recent call last):
    fltheory.exact.DomainError: a = 5 is outside the allowed range 0 or 1/100 <= |a| <= 4 ...
    """

    g: str
    K: int
    M: int
    a: Any = None
    a_star: Any = None
    noise: Any = 0
    weight_decay: Any = 0

    def __post_init__(self) -> None:
        K = read_count(self.K, "K", 1, MAX_FIELDS)
        M = read_count(self.M, "M", 1, MAX_FIELDS)
        a, a_star = read_layer(self.a, K, "a", "K"), read_layer(self.a_star, M, "a_star", "M")
        settle(self, K=K, M=M, a=a, a_star=a_star, noise=read_noise(self.noise, "noise"),
               weight_decay=read_step(self.weight_decay, "weight_decay", allow_zero=True),
               g=_activation_text(self.g))
        lo, hi = A_RANGE
        for param, values in (("a", a), ("a_star", a_star)):
            for v in values:
                if v and not lo <= abs(v) <= hi:
                    raise DomainError(param, fraction_text(v), f"0 or {fraction_text(lo)} <= "
                                      f"|{param}| <= {fraction_text(hi)} (the ODE of a second "
                                      "layer c·a is the ODE at step c²η: outside this range it "
                                      "is stiff or runs away)")

    @property
    def w(self) -> np.ndarray:
        """δ = Σ_c w_c g(ρ_c) + σξ over the K + M fields: w = (−a, a*) (float64)."""
        import numpy as np

        return np.array([-float(v) for v in self.a] + [float(v) for v in self.a_star])

    def __str__(self) -> str:
        parts = [f"g = {self.g}", f"K = {self.K}", f"M = {self.M}"]
        if self.noise:
            parts.append(f"σ = {fraction_text(self.noise)}")
        if self.weight_decay:
            parts.append(f"κ = {fraction_text(self.weight_decay)}")
        return ", ".join(parts)


@dataclass(frozen=True, eq=False)
class ODESettings:
    """One integration of the committee ODE: step η > 0; the output grid (``t_grid``, or
    ``records`` <= 10^6 equally spaced times in [0, t_max], 0 < t_max <= 10^5); the start —
    Q0 and R0 when given, else Q = q0 I (0 < q0 <= 1000) and R = rho0 (0 <= rho0 <= 1000)
    times a Gaussian K × M pattern seeded by ``seed`` —, the teacher overlaps T (default the
    identity); local tolerances ``rtol`` in [1e-13, 1e-3], ``atol`` in [1e-16, 1e-3] (atol
    None: the activation's default) and the integrator ``method`` (:data:`METHODS`). The
    matrices are read as overlaps (:func:`read_overlaps`); their shapes and the joint matrix's
    positivity are the model's business (checked where the model meets them,
    :func:`fltheory.papers.committee.ode.trajectory`).

    >>> s = ODESettings("1/2", t_max=10, records=3)
    >>> s.eta, s.grid.tolist()
    (Fraction(1, 2), [0.0, 5.0, 10.0])
    >>> ODESettings(1, t_max=0)
    Traceback (most recent call last):
    fltheory.exact.DomainError: t_max = 0 is outside the allowed range (0, 100000]
    """

    eta: Any
    t_max: Any = 200
    records: Any = 201
    q0: Any = Fraction(1, 4)
    rho0: Any = Fraction(1, 1000)
    seed: Any = 0
    T: Any = None
    Q0: Any = None
    R0: Any = None
    rtol: Any = 1e-10
    atol: Any = None
    method: Any = "auto"
    t_grid: Any = None

    def __post_init__(self) -> None:
        settle(self, eta=read_step(self.eta, "eta"),
               t_max=read_rational(self.t_max, "t_max", 0, MAX_T_ODE, open_low=True),
               records=read_count(self.records, "records", 1, MAX_RECORDS),
               q0=read_rational(self.q0, "q0", 0, 1000, open_low=True),
               rho0=read_rational(self.rho0, "rho0", 0, 1000),
               seed=read_count(self.seed, "seed", 0),
               **{name: None if value is None else read_overlaps(value, name)
                  for name, value in (("T", self.T), ("Q0", self.Q0), ("R0", self.R0))},
               rtol=read_real(self.rtol, "rtol", *RTOL_RANGE),
               atol=None if self.atol is None else read_real(self.atol, "atol", *ATOL_RANGE),
               method=read_choice(self.method, "method", METHODS),
               t_grid=None if self.t_grid is None else read_grid(self.t_grid))

    @property
    def grid(self) -> np.ndarray:
        """The output times: ``t_grid``, or ``records`` equally spaced times in [0, t_max]."""
        import numpy as np

        if self.t_grid is not None:
            return np.asarray(self.t_grid)
        return np.linspace(0, float(self.t_max), self.records)


@dataclass(frozen=True)
class SGDSettings:
    """One-pass SGD at input dimension N (10 <= N <= 20000) with step η > 0 to t_max
    (0 < t_max <= 1000, in t = steps/N), from a cold start W0 ~ N(0, q0) (q0 > 0) and an
    orthonormal teacher drawn from ``seed``; ``n_test`` held-out inputs for ε_g and
    ``records`` equally spaced record times in [0, t_max]. The ODE beside it is integrated
    with the default tolerances and method (:attr:`rtol`, :attr:`atol`, :attr:`method`).

    >>> s = SGDSettings("3/2", 1000, 80, records=3)
    >>> s.eta, s.grid.tolist()
    (Fraction(3, 2), [0.0, 40.0, 80.0])
    >>> SGDSettings(1, 5, 1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: N = 5 is outside the allowed range integers in [10, 20000]
    """

    eta: Any
    N: Any
    t_max: Any
    seed: Any = 0
    q0: Any = Fraction(1, 4)
    n_test: Any = 2000
    records: Any = 41

    #: the ODE's integration beside the SGD run: the defaults of :class:`ODESettings`
    rtol: ClassVar[float] = 1e-10
    atol: ClassVar[float | None] = None
    method: ClassVar[str] = "auto"

    def __post_init__(self) -> None:
        settle(self, eta=read_step(self.eta, "eta"), N=read_count(self.N, "N", *N_RANGE),
               t_max=read_rational(self.t_max, "t_max", 0, MAX_T_SGD, open_low=True),
               seed=read_count(self.seed, "seed", 0),
               q0=read_rational(self.q0, "q0", 0, open_low=True),
               n_test=read_count(self.n_test, "n_test", 0),
               records=read_count(self.records, "records", 1))

    @property
    def grid(self) -> np.ndarray:
        """The record times: ``records`` equally spaced times in [0, t_max]."""
        import numpy as np

        return np.linspace(0, float(self.t_max), self.records)
