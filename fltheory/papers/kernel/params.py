"""The kernel paper's parameters: a kernel (an expression in t, or a network's NNGP/NTK), the
levels asked for (d, kmax, dps), a learning-curve question (n, ridge, noise, target), a
proportional ridge question (γ, r², σ, λ) and one kernel-regression experiment of the simulator.

Definitions, not formulas: every field is read once, here, by :mod:`fltheory.args` (and the
expression grammar, inside a function), and the objects are trusted afterwards by the theory,
the simulator, the runs and the claims.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fltheory.args import (
    check_memory,
    read_choice,
    read_count,
    read_dps,
    read_noise,
    read_rational,
    settle,
)
from fltheory.exact import DomainError, fraction_str

__all__ = ["FAST_ACTIVATIONS", "KINDS", "MAX_D", "MAX_DEPTH", "MAX_KMAX", "MAX_N", "MAX_N_VALUES",
           "MAX_POLY_TARGET", "MAX_SIM_N", "MAX_TEST", "SIMULATE_WORK", "Curve", "Experiment",
           "KernelSpec", "Levels", "PolynomialTarget", "RandomFeatures", "Ridge", "Target",
           "check_simulate_work"]

#: the largest dimension d of the sphere S^{d−1}
MAX_D = 10**9
#: the highest degree k (exact multiplicities N(d, k) and Gegenbauer moments to this degree)
MAX_KMAX = 400
#: the deepest network (the recursion composes one dual per layer)
MAX_DEPTH = 8
#: the largest n of a learning curve (the equations are an asymptotic formula: any n is cheap)
MAX_N = 10**15
#: how many values of n one curve takes
MAX_N_VALUES = 2000
#: the largest n of a simulated kernel regression (an n × n Gram matrix, Cholesky in n³/3)
MAX_SIM_N = 10000
#: the largest number of fresh test points of one simulated regression
MAX_TEST = 100000
KINDS = ("nngp", "ntk")
#: the highest degree of a polynomial target p(x·u)
MAX_POLY_TARGET = 60
#: activations whose kernels are known without parsing (σ = a·relu(z) + c·relu(−z), or a step)
FAST_ACTIVATIONS = {"relu": ("linear", 1, 0), "abs": ("linear", 1, 1), "sign": ("step", 1, -1)}


@dataclass(frozen=True)
class KernelSpec:
    """A dot-product kernel κ(x·y) on the sphere: ``kernel``, an expression in t (the grammar of
    ``fltheory hermite`` with t in place of z, plus asin/acos), or the ``kind`` ("nngp" or "ntk")
    of a fully connected network of ``depth`` L in [2, 8] with activation ``activation`` (a
    catalogue name or an expression in z) and bias variance ``bias`` β² >= 0.

    >>> KernelSpec(activation="relu", kind="ntk").name
    'relu NTK, depth 2'
    >>> KernelSpec(kernel="exp(2*t - 2)").name
    'κ(t) = exp(2*t - 2)'
    >>> KernelSpec(kernel="t", activation="relu")
    Traceback (most recent call last):
    fltheory.exact.DomainError: kernel = t is not one of the choices; allowed: a kernel or an \
activation, not both
    >>> KernelSpec(kernel="t", depth=3)
    Traceback (most recent call last):
    fltheory.exact.DomainError: depth = 3 is given with --kernel; allowed: --depth only with \
--activation (a kernel given as an expression in t has no network)
    """

    kernel: Any = None
    activation: Any = None
    kind: Any = "nngp"
    depth: Any = 2
    bias: Any = 0
    expr: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if (self.kernel is None) == (self.activation is None):
            raise DomainError("kernel", self.kernel if self.kernel is not None else "none",
                              "a kernel or an activation, not both" if self.kernel is not None
                              else "--kernel EXPR (in t) or --activation NAME",
                              reason="is not one of the choices")
        kind = read_choice(self.kind, "kind", KINDS)
        depth = read_count(self.depth, "depth", 2, MAX_DEPTH)
        bias = read_rational(self.bias, "bias", 0, 100)
        if self.kernel is not None:
            # a network's options with a kernel given as κ(t) would be silently ignored
            for name, value, default in (("kind", kind, "nngp"), ("depth", depth, 2),
                                         ("bias", bias, 0)):
                if value != default:
                    raise DomainError(name, value, f"--{name} only with --activation (a kernel "
                                      "given as an expression in t has no network)",
                                      reason="is given with --kernel")
            from fltheory.engine.kernels.parse import parse_kernel

            settle(self, kernel=str(self.kernel).strip(), kind=kind, depth=depth, bias=bias,
                   expr=parse_kernel(str(self.kernel)))
            return
        text = str(self.activation).strip()
        if text in FAST_ACTIVATIONS:
            settle(self, activation=text, kind=kind, depth=depth, bias=bias, expr=None)
            return
        from fltheory.engine.expressions import parse_expression

        settle(self, activation=text, kind=kind, depth=depth, bias=bias,
               expr=parse_expression(text, "activation"))

    @property
    def name(self) -> str:
        """A short label: the kernel's formula, or the network's activation, kind and depth."""
        if self.kernel is not None:
            return f"κ(t) = {self.kernel}"
        bias = f", bias β² = {fraction_str(self.bias)}" if self.bias else ""
        return f"{self.activation} {self.kind.upper()}, depth {self.depth}{bias}"


@dataclass(frozen=True)
class Levels:
    """The eigenvalues asked for: the sphere S^{d−1} (d in [2, 10^9]), degrees 0 … ``kmax``
    (kmax in [0, 400]), ``dps`` significant digits.

    >>> Levels(3, 6).kmax
    6
    >>> Levels(1, 6)
    Traceback (most recent call last):
    fltheory.exact.DomainError: d = 1 is outside the allowed range integers in [2, 1000000000]
    """

    d: Any
    kmax: Any = 10
    dps: Any = 30

    def __post_init__(self) -> None:
        settle(self, d=read_count(self.d, "d", 2, MAX_D), kmax=read_count(self.kmax, "kmax", 0,
                                                                          MAX_KMAX),
               dps=read_dps(self.dps))


def _read_n_values(value: Any) -> tuple[int, ...]:
    """One n, a list "10,100,1000", or a geometric range "10..10000:50" (50 values, rounded)."""
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        return (read_count(value, "n", 1, MAX_N),)
    if isinstance(value, list | tuple):
        return tuple(read_count(v, "n", 1, MAX_N) for v in value)
    text = str(value).strip()
    if ".." in text:
        span, _, count = text.partition(":")
        lo_text, _, hi_text = span.partition("..")
        lo, hi = (read_count(_as_int(v.strip(), "n"), "n", 1, MAX_N) for v in (lo_text, hi_text))
        m = read_count(_as_int(count.strip() or "50", "n"), "n values", 2, MAX_N_VALUES)
        if hi <= lo:
            raise DomainError("n", text, "a range lo..hi:count with lo < hi")
        grid = sorted({round(lo * (hi / lo) ** (i / (m - 1))) for i in range(m)})
        return tuple(grid)
    items = [v.strip() for v in text.split(",")]
    if len(items) > MAX_N_VALUES:
        raise DomainError("n", f"{len(items)} values", f"at most {MAX_N_VALUES} values")
    return tuple(read_count(_as_int(v, "n"), "n", 1, MAX_N) for v in items)


def _as_int(text: str, param: str) -> int:
    from fltheory.exact import parse_count

    return parse_count(text, param, 0)


@dataclass(frozen=True)
class Target:
    """The target's energy per harmonic degree, Σ over the degree's N(d, k) modes of the squared
    coefficients: ``degree`` k (unit norm in that degree), or ``energies`` "k:e,k:e" (e >= 0).

    >>> Target(degree=2).energies
    {2: Fraction(1, 1)}
    >>> Target(energies="1:1/2, 3:1/2").energies
    {1: Fraction(1, 2), 3: Fraction(1, 2)}
    """

    degree: Any = None
    energies: Any = None

    def __post_init__(self) -> None:
        if (self.degree is None) == (self.energies is None):
            raise DomainError("target", "none" if self.degree is None else "both",
                              "--target-degree K or --target-energies 'k:e,…' (one of them)")
        if self.degree is not None:
            k = read_count(self.degree, "target_degree", 0, MAX_KMAX)
            settle(self, degree=k, energies={k: Fraction(1)})
            return
        found: dict[int, Fraction] = {}
        pairs = self.energies.items() if isinstance(self.energies, dict) else [
            item.split(":") for item in str(self.energies).split(",")]
        for pair in pairs:
            if len(pair) != 2:
                raise DomainError("target_energies", str(self.energies)[:40],
                                  "pairs k:e separated by commas (e.g. 1:1/2,3:1/2)")
            k = read_count(_as_int(str(pair[0]).strip(), "target_energies"),
                           "target_energies", 0, MAX_KMAX)
            found[k] = found.get(k, Fraction(0)) + read_rational(str(pair[1]).strip(),
                                                               "target_energies", 0, 10**6)
        if not any(found.values()):
            raise DomainError("target_energies", str(self.energies)[:40],
                              "at least one positive energy")
        settle(self, degree=None, energies=dict(sorted(found.items())))

    @property
    def top(self) -> int:
        """The highest degree with energy."""
        return max(k for k, e in self.energies.items() if e)


@dataclass(frozen=True)
class PolynomialTarget:
    """A single-index polynomial target f*(x) = p(x·u), u a fixed unit vector: ``polynomial``
    p(t), an expression in t with rational coefficients, of degree at most 60, not identically
    zero. Its energy per harmonic degree depends on d (:func:`~fltheory.papers.kernel.theory.
    polynomial_target`).

    >>> PolynomialTarget("t**3 - t").coefficients
    (Fraction(0, 1), Fraction(-1, 1), Fraction(0, 1), Fraction(1, 1))
    >>> PolynomialTarget("exp(t)")
    Traceback (most recent call last):
    fltheory.exact.DomainError: target_polynomial = exp(t) is not a polynomial in t with \
rational coefficients; allowed: a polynomial p(t) of degree <= 60 (the target p(x·u))
    """

    polynomial: Any
    coefficients: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        from fltheory.engine.kernels.parse import parse_kernel

        text = str(self.polynomial).strip()
        allowed = f"a polynomial p(t) of degree <= {MAX_POLY_TARGET} (the target p(x·u))"
        expr = parse_kernel(text, "target_polynomial")  # in its variable t (kept as z)
        (var,) = expr.free_symbols or {None}
        poly = expr.as_poly(var) if var is not None and expr.is_polynomial(var) else None
        raw = [expr] if var is None else poly.all_coeffs()[::-1] if poly is not None else None
        coeffs = None if raw is None or not all(c.is_Rational for c in raw) else [
            Fraction(int(c.p), int(c.q)) for c in raw]
        if coeffs is None:
            raise DomainError("target_polynomial", text, allowed,
                              reason="is not a polynomial in t with rational coefficients")
        while coeffs and coeffs[-1] == 0:
            coeffs.pop()
        if not coeffs:
            raise DomainError("target_polynomial", text, allowed, reason="is zero")
        if len(coeffs) - 1 > MAX_POLY_TARGET:
            raise DomainError("target_polynomial", text, allowed,
                              reason=f"has degree {len(coeffs) - 1}")
        settle(self, polynomial=text, coefficients=tuple(coeffs))


@dataclass(frozen=True)
class Curve:
    """A learning-curve question: sample sizes ``n`` (one, a list, or "lo..hi:count"), the ridge
    λ >= 0 of f̂ = k(x)ᵀ(K + λI)⁻¹y (a number, or "optimal"), the label noise's standard
    deviation σ >= 0 and the :class:`Target`.

    >>> Curve("10..1000:3", 0, "1/10", Target(degree=1)).n
    (10, 100, 1000)
    """

    n: Any
    ridge: Any = 0
    noise: Any = 0
    target: Any = None

    def __post_init__(self) -> None:
        ridge = "optimal" if str(self.ridge).strip() == "optimal" else read_rational(
            self.ridge, "ridge", 0, 10**12)
        if not isinstance(self.target, Target):
            raise DomainError("target", repr(self.target)[:40], "a Target")
        settle(self, n=_read_n_values(self.n), ridge=ridge, noise=read_noise(self.noise))


@dataclass(frozen=True)
class Ridge:
    """Ridge regression with isotropic Gaussian features in the proportional regime: γ = p/n in
    (0, 1000], signal r² = ‖β‖² >= 0, noise σ >= 0, ridge λ >= 0 of (1/n)‖y − Xβ‖² + λ‖β‖²
    (0: ridgeless) or "optimal".

    >>> Ridge("1/2", 1, 1, "optimal").ridge
    'optimal'
    """

    gamma: Any
    signal: Any = 1
    noise: Any = 1
    ridge: Any = "optimal"

    def __post_init__(self) -> None:
        ridge = "optimal" if str(self.ridge).strip() == "optimal" else read_rational(
            self.ridge, "ridge", 0, 10**6)
        gamma = read_rational(self.gamma, "gamma", 0, 1000, open_low=True)
        signal = read_rational(self.signal, "signal", 0, 10**6)
        noise = read_noise(self.noise)
        if ridge == "optimal" and signal == 0:
            raise DomainError("signal", 0, "signal > 0 for --ridge optimal (λ* = γσ²/r²)")
        settle(self, gamma=gamma, signal=signal, noise=noise, ridge=ridge)


@dataclass(frozen=True)
class RandomFeatures:
    """Random-features ridge regression in the proportional limit (Mei & Montanari 2019): an
    activation σ (a name or expression, as for the NNGP; normalised to E σ(G)² = 1), width
    ratio ψ_1 = N/d and sample ratio ψ_2 = n/d in (0, 10^6], ridge λ in (0, 10^6] of
    (1/n)‖y − Za‖² + (Nλ/d)‖a‖², linear signal F_1² >= 0, nonlinear energy F_*² >= 0, label
    noise τ >= 0.

    >>> RandomFeatures("relu", 2, 3, "1/10").psi2
    Fraction(3, 1)
    """

    activation: Any
    psi1: Any
    psi2: Any
    ridge: Any
    signal: Any = 1
    nonlinear: Any = 0
    noise: Any = 0
    spec: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        spec = KernelSpec(activation=self.activation, kind="nngp", depth=2)
        settle(self, spec=spec,
               psi1=read_rational(self.psi1, "psi1", 0, 10**6, open_low=True),
               psi2=read_rational(self.psi2, "psi2", 0, 10**6, open_low=True),
               ridge=read_rational(self.ridge, "ridge", 0, 10**6, open_low=True),
               signal=read_rational(self.signal, "signal", 0, 10**6),
               nonlinear=read_rational(self.nonlinear, "nonlinear", 0, 10**6),
               noise=read_noise(self.noise))


@dataclass(frozen=True)
class Experiment:
    """One kernel-regression experiment of the simulator: ``n`` training points uniform on
    S^{d−1} (d in [2, 1000], n in [1, 10^4]), ``n_test`` fresh test points, ridge λ >= 0, label
    noise σ >= 0, a target of one ``degree`` (√N(d, k)·P_k(x·u), unit norm), ``seed``.

    >>> Experiment(3, 100).n_test
    2000
    """

    d: Any
    n: Any
    ridge: Any = 0
    noise: Any = 0
    degree: Any = 1
    n_test: Any = 2000
    seed: Any = 0

    def __post_init__(self) -> None:
        n = read_count(self.n, "n", 1, MAX_SIM_N)
        n_test = read_count(self.n_test, "n_test", 10, MAX_TEST)
        check_memory("n", n, 8.0 * (3 * n * n + n * n_test))
        settle(self, d=read_count(self.d, "d", 2, 1000), n=n, n_test=n_test,
               ridge=read_rational(self.ridge, "ridge", 0, 10**12), noise=read_noise(self.noise),
               degree=read_count(self.degree, "degree", 0, 60),
               seed=read_count(self.seed, "seed", 0))

    @property
    def work(self) -> float:
        """Floating-point operations of one run: Gram, Cholesky, test kernel."""
        return self.n**3 / 3 + 2.0 * self.n * (self.n + self.n_test) * self.d


#: seeds·n³ of one ``kernel simulate`` call (8 regressions at n = 6000 take about a minute)
SIMULATE_WORK = 2 * 10 ** 12


def check_simulate_work(n: int, seeds: int) -> None:
    """Refuse, before any work, ``seeds`` regressions of size ``n`` beyond SIMULATE_WORK.

    >>> check_simulate_work(6000, 8)
    >>> try:
    ...     check_simulate_work(6000, 100)
    ... except DomainError as e:
    ...     print(str(e).split("allowed: ")[1])
    seeds·n³ <= 2e+12 (at n = 6000: seeds <= 9)
    """
    if seeds * n ** 3 > SIMULATE_WORK:
        raise DomainError("seeds", seeds, f"seeds·n³ <= {SIMULATE_WORK:.0e} (at n = {n}: seeds "
                          f"<= {max(2, SIMULATE_WORK // n ** 3)})",
                          reason=f"at n = {n} would solve {seeds} systems of size n (about "
                                 f"{seeds * n ** 3 / 3e10:.0f} s on one core)")
