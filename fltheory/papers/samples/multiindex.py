r"""The leap of a multi-index polynomial target (Abbe, Boix-Adserà & Misiakiewicz 2023), from its
exact Hermite support.

A target f(z_1, …, z_r) of orthonormal coordinates z = Uᵀx (x ~ N(0, I_d), so z ~ N(0, I_r)) is
given as a polynomial in ``z1 … z8`` (numbers are exact rationals, ``He0 … He12`` of one
coordinate allowed). Its expansion in products of probabilists' Hermite polynomials

.. math::

    f = \sum_{\alpha \in \mathbb{N}^r} c_\alpha\, \mathrm{He}_\alpha(z), \qquad
    \mathrm{He}_\alpha(z) = \prod_i \mathrm{He}_{\alpha_i}(z_i),

is computed exactly (z^n = Σ_m n!/(2^m m! (n−2m)!) He_{n−2m}(z), coordinate by coordinate); the
*support* is S = {α ≠ 0 : c_α ≠ 0}. The **leap** (Abbe, Boix-Adserà & Misiakiewicz 2023, the
isotropic-Gaussian leap of their Definition of Leap(f)) is

.. math::

    \mathrm{Leap}(f) = \min_{\pi} \max_{i} \sum_{j \notin \cup_{l<i} \mathrm{supp}\,\alpha^{\pi(l)}}
    \alpha^{\pi(i)}_j ,

the minimum over orderings α^{π(1)}, α^{π(2)}, … of S of the largest *new* degree an element
brings (its degree on coordinates that no earlier element touched). It is computed here by a
monotone closure, not by trying orderings: a threshold L is feasible iff repeatedly adding any
α whose new degree is <= L reaches every coordinate of the support (adding elements only lowers
the others' new degrees, so the closure does not depend on the order of additions); the leap is
the least feasible L. Leap 1 is the merged-staircase case (Abbe, Boix-Adserà & Misiakiewicz
2022: each new coordinate is reached one at a time, e.g. z1 + z1 z2 + z1 z2 z3).

The **stages** are the saddle-to-saddle order of ABM 2023: from the coordinates already learned,
the elements of least new degree ℓ are picked up next (together, on the same time scale), which
adds their new coordinates; the largest ℓ met is the leap (the closure argument again).

**Online SGD scale.** ABM 2023 (abstract, read through the ``search`` tool): "our main
conjecture states that the time complexity to learn a function f with low-dimensional support
is Θ̃(d^{max(Leap(f), 2)})"; "we prove a version of this conjecture for a class of functions on
Gaussian isotropic data and 2-layer neural networks, under additional technical assumptions on
how SGD is run"; the training "sequentially learns the function support with a
saddle-to-saddle dynamic", and the complexity "matches that of Correlational Statistical Query
(CSQ) lower-bounds". The source states a *time*; the table's samples Θ̃(d^{max(Leap − 1, 1)})
are **our reading** (online SGD, one fresh sample per step, each step costing d operations;
for Leap = k on one coordinate this is the online-SGD law d^{max(k−1, 1)} of Ben Arous,
Gheissari & Jagannath 2021), not a statement read in the source. Θ̃ hides logarithmic factors.

**Coordinates.** The leap is *not* rotation invariant: it is computed for the coordinates the
target is written in. The minimum over rotations of the coordinates (what SGD, which is rotation
equivariant, actually faces) is at most this value and is **not computed** here.

**Generative leap** (Damian, Lee & Bruna 2025: n = Θ(d^{max(1, k*/2)}) in the low-degree class,
k* the generative leap): computed only when f depends on a single coordinate, where it is the
generative exponent of f as a function of one variable (:mod:`fltheory.engine.hermite`); for two
or more coordinates it needs conditional laws on multi-dimensional level sets and is reported as
not computed.

Standard library only (exact :class:`fractions.Fraction`): a light query.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from fltheory.exact import DomainError, parse_rational

__all__ = ["LEAP_LIMITS", "Leap", "Stage", "hermite_support", "leap", "leap_of_support",
           "parse_polynomial"]

#: bounds checked before any work (characters, syntax nodes, coordinates, degrees, terms)
LEAP_LIMITS = {"characters": 2000, "nodes": 500, "coordinates": 8, "degree": 12,
               "total_degree": 24, "terms": 5000, "He": 12}

_PARAM = "TARGET"
_ALLOWED = ("a polynomial in z1 … z8 with exact rational coefficients, built from numbers, z1 … "
            "z8, + - * / (by a number) ** (a whole power) and He0 … He12 of one coordinate, e.g. "
            "'z1 + z1*z2 + He2(z1)*z3'")

Poly = dict[tuple[int, ...], Fraction]


def _refuse(text: str, reason: str) -> DomainError:
    shown = text if len(text) <= 60 else f"{text[:40]}… ({len(text)} characters)"
    return DomainError(_PARAM, shown, _ALLOWED, reason=reason)


def _he_monomials(k: int) -> list[Fraction]:
    """He_k(z) = Σ_j a_j z^j (He_{k+1} = z He_k − k He_{k−1}); a list indexed by j."""
    prev, cur = [Fraction(1)], [Fraction(0), Fraction(1)]
    if k == 0:
        return prev
    for n in range(1, k):
        nxt = [Fraction(0), *cur]
        for j, a in enumerate(prev):
            nxt[j] -= n * a
        prev, cur = cur, nxt
    return cur


class _Builder:
    """Polynomial arithmetic on an AST that passed the whitelist, bounded at every node."""

    def __init__(self, text: str, r: int):
        self.text, self.r = text, r

    def zero_key(self) -> tuple[int, ...]:
        return (0,) * self.r

    def const(self, c: Fraction) -> Poly:
        return {self.zero_key(): c} if c else {}

    def var(self, i: int, power: int = 1) -> Poly:
        key = [0] * self.r
        key[i] = power
        return {tuple(key): Fraction(1)}

    def check(self, p: Poly) -> Poly:
        if len(p) > LEAP_LIMITS["terms"]:
            raise _refuse(self.text, f"has more than {LEAP_LIMITS['terms']} terms after "
                                     "expansion")
        for key in p:
            if max(key, default=0) > LEAP_LIMITS["degree"]:
                raise _refuse(self.text, f"has degree above {LEAP_LIMITS['degree']} in one "
                                         "coordinate")
            if sum(key) > LEAP_LIMITS["total_degree"]:
                raise _refuse(self.text, f"has total degree above "
                                         f"{LEAP_LIMITS['total_degree']}")
        return p

    def add(self, a: Poly, b: Poly, sign: int = 1) -> Poly:
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, Fraction(0)) + sign * v
            if out[k] == 0:
                del out[k]
        return out

    def mul(self, a: Poly, b: Poly) -> Poly:
        deg = [max((k[i] for k in a), default=0) + max((k[i] for k in b), default=0)
               for i in range(self.r)]
        if max(deg, default=0) > LEAP_LIMITS["degree"]:
            raise _refuse(self.text, f"has degree above {LEAP_LIMITS['degree']} in one "
                                     "coordinate")
        if len(a) * len(b) > 50 * LEAP_LIMITS["terms"]:
            raise _refuse(self.text, f"has more than {LEAP_LIMITS['terms']} terms after "
                                     "expansion")
        out: Poly = {}
        for ka, va in a.items():
            for kb, vb in b.items():
                k = tuple(x + y for x, y in zip(ka, kb, strict=True))
                out[k] = out.get(k, Fraction(0)) + va * vb
        return self.check({k: v for k, v in out.items() if v != 0})

    def node(self, node: ast.AST) -> Poly:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                raise _refuse(self.text, f"contains {node.value!r}, not a number")
            segment = ast.get_source_segment(self.text, node) or repr(node.value)
            return self.const(parse_rational(segment, _PARAM))
        if isinstance(node, ast.Name):
            return self.var(_coordinate(node.id, self.text))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            p = self.node(node.operand)
            return {k: -v for k, v in p.items()} if isinstance(node.op, ast.USub) else p
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise _refuse(self.text, f"uses {type(node).__name__}, not a polynomial operation")

    def binop(self, node: ast.BinOp) -> Poly:
        if isinstance(node.op, ast.Pow):
            power = self.integer(node.right)
            if power < 0 or power > LEAP_LIMITS["total_degree"]:
                raise _refuse(self.text, f"raises to the power {power}, outside [0, "
                                         f"{LEAP_LIMITS['total_degree']}]: not a polynomial "
                                         "of bounded degree")
            base, out = self.node(node.left), self.const(Fraction(1))
            for _ in range(power):
                out = self.mul(out, base)
            return out
        a, b = self.node(node.left), self.node(node.right)
        if isinstance(node.op, ast.Add):
            return self.add(a, b)
        if isinstance(node.op, ast.Sub):
            return self.add(a, b, -1)
        if isinstance(node.op, ast.Mult):
            return self.mul(a, b)
        if isinstance(node.op, ast.Div):
            if any(any(k) for k in b) or not b:
                raise _refuse(self.text, "divides by a non-constant (or by zero): not a "
                                         "polynomial")
            c = next(iter(b.values()))
            return {k: v / c for k, v in a.items()}
        raise _refuse(self.text, f"uses the operator {type(node.op).__name__}, not a "
                                 "polynomial operation")

    def integer(self, node: ast.AST) -> int:
        p = self.node(node)
        if any(any(k) for k in p):
            raise _refuse(self.text, "has a power that depends on z: not a polynomial")
        c = next(iter(p.values()), Fraction(0))
        if c.denominator != 1:
            raise _refuse(self.text, f"raises to the non-integer power {c}: not a polynomial")
        return int(c)

    def call(self, node: ast.Call) -> Poly:
        name = node.func.id if isinstance(node.func, ast.Name) else "?"
        if not name.startswith("He") or not name[2:].isdigit():
            raise _refuse(self.text, f"uses {name}(…), which has no finite Hermite support "
                                     "(the leap needs a polynomial target)")
        k = int(name[2:])
        if k > LEAP_LIMITS["He"]:
            raise _refuse(self.text, f"uses He{k}: at most He{LEAP_LIMITS['He']}")
        if len(node.args) != 1 or node.keywords or not isinstance(node.args[0], ast.Name):
            raise _refuse(self.text, f"applies {name} to something other than one coordinate "
                                     "z1 … z8")
        i = _coordinate(node.args[0].id, self.text)
        out: Poly = {}
        for j, a in enumerate(_he_monomials(k)):
            if a:
                out = self.add(out, {next(iter(self.var(i, j))): a})
        return self.check(out)


def _coordinate(name: str, text: str) -> int:
    if name.startswith("z") and name[1:].isdigit():
        i = int(name[1:])
        if 1 <= i <= LEAP_LIMITS["coordinates"]:
            return i - 1
        raise _refuse(text, f"uses {name}: coordinates are z1 … z{LEAP_LIMITS['coordinates']}")
    raise _refuse(text, f"uses the name {name!r}; only z1 … z{LEAP_LIMITS['coordinates']} (and "
                        "He0 … He12 of one coordinate) may appear")


def parse_polynomial(text: str) -> Poly:
    """The polynomial ``text`` as {exponent tuple (length 8): exact coefficient}; every refusal
    is one :class:`~fltheory.exact.DomainError` naming TARGET and what is allowed.

    >>> parse_polynomial("z1*z2 - 1/2")[(1, 1, 0, 0, 0, 0, 0, 0)]
    Fraction(1, 1)
    """
    text = str(text).strip()
    if not text:
        raise _refuse("''", "is empty")
    if len(text) > LEAP_LIMITS["characters"]:
        raise _refuse(text, f"is longer than {LEAP_LIMITS['characters']} characters")
    source = text.replace("^", "**")
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise _refuse(text, "is not a valid expression") from None
    if sum(1 for _ in ast.walk(tree)) > LEAP_LIMITS["nodes"]:
        raise _refuse(text, f"has more than {LEAP_LIMITS['nodes']} syntax nodes")
    return _Builder(source, LEAP_LIMITS["coordinates"]).node(tree.body)


def _z_power_in_He(n: int) -> dict[int, Fraction]:
    """z^n = Σ_m n!/(2^m m! (n−2m)!) He_{n−2m}(z)."""
    return {n - 2 * m: Fraction(factorial(n), 2 ** m * factorial(m) * factorial(n - 2 * m))
            for m in range(n // 2 + 1)}


def hermite_support(poly: Poly) -> dict[tuple[int, ...], Fraction]:
    """The exact coefficients c_α of Σ c_α He_α(z) (monic He, product over coordinates), zero
    ones dropped; keys are exponent tuples of the same length as ``poly``'s.

    >>> hermite_support({(2,): Fraction(1)})  # z² = He_2 + He_0
    {(0,): Fraction(1, 1), (2,): Fraction(1, 1)}
    """
    out: dict[tuple[int, ...], Fraction] = {}
    for key, coeff in poly.items():
        parts: list[tuple[tuple[int, ...], Fraction]] = [((), coeff)]
        for n in key:
            parts = [((*alpha, j), c * a) for alpha, c in parts
                     for j, a in _z_power_in_He(n).items()]
        for alpha, c in parts:
            out[alpha] = out.get(alpha, Fraction(0)) + c
    return dict(sorted((k, v) for k, v in out.items() if v != 0))


@dataclass(frozen=True)
class Stage:
    """One stage of the saddle-to-saddle order: the least new degree ``increment`` among the
    remaining support elements, the ``coordinates`` (1-based) they add, the ``terms`` (support
    elements of that new degree) that add them, and the online-SGD scale of the stage,
    d^{max(increment − 1, 1)} samples (up to logarithmic factors)."""

    increment: int
    coordinates: tuple[int, ...]
    terms: tuple[tuple[int, ...], ...]

    @property
    def sgd_power(self) -> int:
        """p of the stage's online-SGD scale d^p, p = max(increment − 1, 1)."""
        return max(self.increment - 1, 1)


@dataclass(frozen=True)
class Leap:
    """The leap of a polynomial target for its given coordinates (see the module docstring).

    ``coefficients``: c_α (monic He basis) of the support, α over the ``r`` coordinates that
    appear; ``value``: Leap(f) (0 for a constant); ``stages``: the saddle-to-saddle order;
    ``generative``: the generative leap where computed (one coordinate), else None, with
    ``generative_reason``."""

    text: str
    r: int
    coefficients: dict[tuple[int, ...], Fraction]
    value: int
    stages: tuple[Stage, ...]
    generative: int | None = None
    generative_reason: str = "not computed"

    @property
    def merged_staircase(self) -> bool:
        """Leap 1: every coordinate is reached one new degree at a time."""
        return self.value == 1

    @property
    def sgd_power(self) -> int:
        """p of the online-SGD sample scale Θ̃(d^p), p = max(Leap − 1, 1) (ABM 2023)."""
        return max(self.value - 1, 1)


def _new_degree(alpha: tuple[int, ...], known: set[int]) -> int:
    return sum(a for j, a in enumerate(alpha) if a and j not in known)


def leap_of_support(support: list[tuple[int, ...]]) -> tuple[int, tuple[Stage, ...]]:
    """The leap and the stages of a Hermite support (exponent tuples, the zero tuple ignored).

    >>> leap_of_support([(1, 0, 0), (1, 1, 0), (1, 1, 1)])[0]
    1
    >>> leap_of_support([(1, 1, 1)])[0]
    3
    """
    elems = [a for a in support if any(a)]
    known: set[int] = set()
    stages: list[Stage] = []
    remaining = list(elems)
    while True:
        remaining = [a for a in remaining if _new_degree(a, known) > 0]
        if not remaining:
            break
        least = min(_new_degree(a, known) for a in remaining)
        picked = [a for a in remaining if _new_degree(a, known) == least]
        new = sorted({j for a in picked for j, x in enumerate(a) if x and j not in known})
        stages.append(Stage(least, tuple(j + 1 for j in new), tuple(picked)))
        known.update(new)
    return max((s.increment for s in stages), default=0), tuple(stages)


def leap(text: str, generative: bool = True) -> Leap:
    """The leap of the polynomial target ``text`` in z1 … z8 (module docstring).

    ``generative``: compute the generative leap when f depends on one coordinate (imports the
    Hermite engine, sympy); otherwise it is reported as not computed.

    >>> L = leap("z1 + z1*z2 + z1*z2*z3", generative=False)
    >>> L.value, L.merged_staircase, [s.coordinates for s in L.stages]
    (1, True, [(1,), (2,), (3,)])
    >>> leap("z1 + z2*z3*z4", generative=False).value
    3
    """
    coeffs = hermite_support(parse_polynomial(text))
    used = sorted({j for a in coeffs for j, x in enumerate(a) if x})
    r = used[-1] + 1 if used else 0
    coeffs = {a[:r]: c for a, c in coeffs.items()}
    if not used:
        raise _refuse(text, "is constant after expansion: there is no direction to learn")
    value, stages = leap_of_support(list(coeffs))
    gen, reason = None, "not computed (not asked)"
    if len(used) == 1 and generative:
        gen, reason = _one_coordinate_generative(coeffs, used[0])
    elif len(used) >= 2:
        reason = (f"not computed: f depends on {len(used)} coordinates; the generative leap "
                  "needs conditional laws on multi-dimensional level sets, which the Hermite "
                  "engine computes for one variable only")
    return Leap(text, r, coeffs, value, stages, gen, reason)


def _one_coordinate_generative(coeffs: dict[tuple[int, ...], Fraction], j: int
                               ) -> tuple[int | None, str]:
    """The generative exponent of f(z_j) = Σ c_k He_k(z_j), by the Hermite engine."""
    from fltheory.engine.hermite import generative_exponent

    expr = " + ".join(f"({c})*He{a[j]}(z)" for a, c in coeffs.items())
    e = generative_exponent(expr, kmax=max(2, max(a[j] for a in coeffs)), dps=30)
    return e.value, (f"f depends on z{j + 1} only: the generative leap is the generative "
                     f"exponent of f(z) = {expr} (Hermite engine): {e.value} ({e.reason})")
