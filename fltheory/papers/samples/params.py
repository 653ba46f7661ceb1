"""The sample-complexity paper's parameters, as frozen objects read once at construction by
:mod:`fltheory.args` and trusted afterwards by the theory, the simulators, the runs and the claims.

====================  =======================================================================
object                what it holds
====================  =======================================================================
:class:`Link`         a single-index link y = g(w*·x) + ε: g (a catalogue name or an expression
                      in z, read by the Hermite engine), the noise σ >= 0, kmax and dps
:class:`Target`       a multi-index polynomial target in z1 … z8, parsed here into its exact
                      monomial coefficients (:func:`parse_polynomial`), with the orthonormal
                      directions of its coordinates when given (:func:`parse_directions`)
:class:`SlopeSizes`   the online-SGD runs of a slope claim: link h_k, dimensions d, step
                      constants c, replicas, the budget factor
:class:`StageSizes`   the multi-index runs: d, replicas, n = alpha·d·ln d samples, step c/d
:class:`ReuseSizes`   the batch-reuse runs: dimensions d, n = C·d, replicas, control replicas
====================  =======================================================================

The sizes of the claims (:data:`SLOPE_SIZES`, :data:`STAGE_SIZES`, :data:`REUSE_SIZES`) are
written here once: the claims and the figure read the same ones.

Definitions, not formulas: the polynomial grammar (numbers, z1 … z8, + - * /, whole powers, He0
… He12 of one coordinate) and its bounds are the target's definition; its Hermite support and
leap are the theory's (:mod:`fltheory.papers.samples.multiindex`). Standard library only.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fltheory.args import read_count, read_dps, read_noise, read_real, settle
from fltheory.exact import DomainError, parse_rational

__all__ = ["DIRECTION_LIMITS", "FUNCTION_NAMES", "KMAX", "LEAP_LIMITS", "REUSE_SIZES",
           "SLOPE_SIZES", "STAGE_SIZES", "Link", "Poly", "ReuseSizes", "SlopeSizes", "StageSizes",
           "Target", "check_function_target", "parse_directions", "parse_polynomial"]

#: the largest degree examined for the exponents of a link (``fltheory samples --kmax``)
KMAX = 40

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


#: the functions a non-polynomial target may apply (to any sub-expression): bounded or of linear
#: growth, so that every conditional moment exists
FUNCTION_NAMES = ("sign", "Heaviside", "Abs", "abs", "relu", "Max", "Min", "tanh", "erf",
                  "sigmoid", *(f"He{k}" for k in range(LEAP_LIMITS["He"] + 1)))
_FUNCTION_ALLOWED = ("an expression in z1 … z8 built from numbers, + - * / (by a number), ** (a "
                     "whole power <= 12) and the functions " + ", ".join(FUNCTION_NAMES[:10])
                     + f", He0 … He{LEAP_LIMITS['He']}, e.g. 'sign(z1*z2*z3)'")


def _non_polynomial_call(tree: ast.AST) -> bool:
    """Whether the syntax tree calls a function other than He0 … He12 (a non-polynomial
    target, read by :func:`check_function_target`)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and not (n.func.id.startswith("He") and n.func.id[2:].isdigit())
               for n in ast.walk(tree))


def check_function_target(text: str) -> tuple[int, ...]:
    """Check a non-polynomial target in z1 … z8 against its grammar (:data:`FUNCTION_NAMES`;
    numbers exact, powers whole and at most 12, division by numbers only, the bounds of
    :data:`LEAP_LIMITS`) and return the coordinates it uses (0-based, sorted); every refusal is
    one :class:`~fltheory.exact.DomainError` naming TARGET. Standard library only: the theory
    builds the expression (:mod:`fltheory.papers.samples.nonpoly`).

    >>> check_function_target("sign(z1*z2*z3)")
    (0, 1, 2)
    >>> check_function_target("exp(z1)")
    Traceback (most recent call last):
    fltheory.exact.DomainError: TARGET = exp(z1) calls exp(…), which is not one of the functions ...
    """
    def refuse(reason: str) -> DomainError:
        shown = text if len(text) <= 60 else f"{text[:40]}… ({len(text)} characters)"
        return DomainError(_PARAM, shown, _FUNCTION_ALLOWED, reason=reason)

    source = str(text).strip().replace("^", "**")
    if len(source) > LEAP_LIMITS["characters"]:
        raise refuse(f"is longer than {LEAP_LIMITS['characters']} characters")
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise refuse("is not a valid expression") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > LEAP_LIMITS["nodes"]:
        raise refuse(f"has more than {LEAP_LIMITS['nodes']} syntax nodes")
    used: set[int] = set()
    called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    for node in nodes:
        if isinstance(node, ast.Expression | ast.Load | ast.operator | ast.unaryop):
            continue
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                raise refuse(f"contains {node.value!r}, not a number")
            parse_rational(ast.get_source_segment(source, node) or repr(node.value), _PARAM)
        elif isinstance(node, ast.Name):
            if id(node) not in called:
                used.add(_coordinate(node.id, text))
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.USub | ast.UAdd):
                raise refuse(f"uses the operator {type(node.op).__name__}")
        elif isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Pow):
                right = node.right
                if not (isinstance(right, ast.Constant) and type(right.value) is int
                        and 0 <= right.value <= LEAP_LIMITS["degree"]):
                    raise refuse(f"has a power that is not a whole number in [0, "
                                 f"{LEAP_LIMITS['degree']}]")
            elif isinstance(node.op, ast.Div):
                if any(isinstance(n, ast.Name) and n.id not in FUNCTION_NAMES
                       for n in ast.walk(node.right)) or any(
                           isinstance(n, ast.Call) for n in ast.walk(node.right)):
                    raise refuse("divides by something that is not a number")
            elif not isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
                raise refuse(f"uses the operator {type(node.op).__name__}")
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else "?"
            if name not in FUNCTION_NAMES:
                raise refuse(f"calls {name}(…), which is not one of the functions allowed")
            many = name in ("Max", "Min")
            if node.keywords or (len(node.args) < 2 if many else len(node.args) != 1):
                raise refuse(f"calls {name} with the wrong arguments ("
                             f"{'at least 2' if many else '1'} expected)")
        else:
            raise refuse(f"uses {type(node).__name__}, not part of the grammar")
    if not used:
        raise refuse("uses no coordinate: there is no direction to learn")
    return tuple(sorted(used))


#: bounds of --directions checked before any work
DIRECTION_LIMITS = {"characters": 20000, "dimension": 256}

_DIR_ALLOWED = ("orthonormal directions u_1; u_2; … (one per coordinate z1, z2, …, each a "
                "comma-separated list of d exact rationals, e.g. '1,0,0; 0,3/5,4/5'), d <= "
                f"{DIRECTION_LIMITS['dimension']}")


def parse_directions(text: str, r: int) -> tuple[tuple[Fraction, ...], ...]:
    """The directions u_1 … u_r of z = Uᵀx from ``text`` ('1,0,0; 0,3/5,4/5'), checked exactly:
    at least ``r`` of them (one for every coordinate up to the largest used), all of one length
    d, and orthonormal (⟨u_i, u_j⟩ = δ_ij); each refusal names the failing entry.

    >>> parse_directions("1,0,0; 0,3/5,4/5", 2)[1]
    (Fraction(0, 1), Fraction(3, 5), Fraction(4, 5))
    """
    shown = text if len(text) <= 60 else f"{text[:40]}… ({len(text)} characters)"

    def refuse(reason: str) -> DomainError:
        return DomainError("directions", shown, _DIR_ALLOWED, reason=reason)

    if len(text) > DIRECTION_LIMITS["characters"]:
        raise refuse(f"is longer than {DIRECTION_LIMITS['characters']} characters")
    groups = [g.strip() for g in text.strip().strip(";").split(";")]
    if not groups or not groups[0]:
        raise refuse("is empty")
    vectors = []
    for i, g in enumerate(groups):
        parts = [p.strip() for p in g.split(",")]
        if len(parts) > DIRECTION_LIMITS["dimension"]:
            raise refuse(f"has u_{i + 1} of dimension {len(parts)} > "
                         f"{DIRECTION_LIMITS['dimension']}")
        try:
            vectors.append(tuple(parse_rational(p, "directions") for p in parts))
        except DomainError:
            raise refuse(f"has u_{i + 1} = ({g}), not a list of exact numbers") from None
    d = len(vectors[0])
    for i, v in enumerate(vectors):
        if len(v) != d:
            raise refuse(f"has u_{i + 1} of dimension {len(v)}, u_1 of {d}")
    if len(vectors) < r:
        raise refuse(f"gives {len(vectors)} direction(s) but TARGET uses z{r}")
    if len(vectors) > d:
        raise refuse(f"gives {len(vectors)} directions in dimension d = {d}: at most d can be "
                     "orthonormal")
    for i, u in enumerate(vectors):
        for j in range(i, len(vectors)):
            dot = sum((a * b for a, b in zip(u, vectors[j], strict=True)), Fraction(0))
            if i == j and dot != 1:
                raise refuse(f"is not orthonormal: |u_{i + 1}|² = {dot}, not 1")
            if i != j and dot != 0:
                raise refuse(f"is not orthonormal: ⟨u_{i + 1}, u_{j + 1}⟩ = {dot}, not 0")
    return tuple(vectors)


@dataclass(frozen=True)
class Link:
    """A single-index link y = g(w*·x) + ε: ``g`` a catalogue name or an expression in z (the
    grammar and catalogue of ``fltheory exponent``; the Hermite engine reads it), Gaussian label
    noise of standard deviation ``noise`` >= 0 (exact; it changes no exponent), both exponents
    examined up to ``kmax`` (1..KMAX) at ``dps`` digits (5..100).

    >>> Link("He3", "1/2").noise
    Fraction(1, 2)
    >>> Link("He3", -1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: noise = -1 is outside the allowed range noise >= 0
    """

    g: Any
    noise: Any = 0
    kmax: Any = 8
    dps: Any = 20

    def __post_init__(self) -> None:
        if not isinstance(self.g, str):
            raise DomainError("g", repr(self.g)[:40], "a catalogue name or an expression in z")
        settle(self, noise=read_noise(self.noise), kmax=read_count(self.kmax, "kmax", 1, KMAX),
               dps=read_dps(self.dps))


@dataclass(frozen=True)
class Target:
    """A multi-index target ``text`` in z1 … z8: a polynomial (:func:`parse_polynomial`: exact
    rational coefficients, bounded), not constant, or a non-polynomial function of the
    coordinates (:func:`check_function_target`: sign, Heaviside, relu, … of sub-expressions;
    then ``polynomial`` is None and only the generative leap is defined); ``directions`` u_1;
    u_2; … of z = Uᵀx, one per coordinate up to the largest used, checked orthonormal exactly
    (:func:`parse_directions`; None: the coordinates only); ``generative``: whether the
    generative leap is asked for.
    Read once: ``polynomial`` (exponent tuples cut to the ``r`` coordinates up to the largest
    used, exact coefficients) and ``U`` (the directions, or None).

    >>> t = Target("z1 + z1*z2")
    >>> t.r, t.polynomial[(1, 1)]
    (2, Fraction(1, 1))
    >>> Target("z1*z2 - z2*z1 + 3")
    Traceback (most recent call last):
    fltheory.exact.DomainError: TARGET = z1*z2 - z2*z1 + 3 is constant after expansion: ...
    """

    text: Any
    directions: Any = None
    generative: Any = True
    polynomial: Poly | None = field(init=False, repr=False, compare=False)
    r: int = field(init=False, repr=False, compare=False)
    U: tuple[tuple[Fraction, ...], ...] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            poly: Poly | None = parse_polynomial(self.text)
        except DomainError:
            try:
                tree = ast.parse(str(self.text).strip().replace("^", "**"), mode="eval")
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                raise _refuse(str(self.text), "is not a valid expression") from None
            if not _non_polynomial_call(tree):
                raise
            poly = None
        if poly is None:  # a non-polynomial target: the generative leap only
            used = list(check_function_target(str(self.text)))
            r = used[-1] + 1
            U = None if self.directions is None else parse_directions(self.directions, r)
            settle(self, text=str(self.text), generative=bool(self.generative),
                   polynomial=None, r=r, U=U)
            return
        used = sorted({j for key, c in poly.items() for j, x in enumerate(key) if x and c})
        if not used:
            raise _refuse(str(self.text), "is constant after expansion: there is no direction "
                                          "to learn")
        r = used[-1] + 1
        U = None if self.directions is None else parse_directions(self.directions, r)
        settle(self, text=str(self.text), generative=bool(self.generative),
               polynomial={k[:r]: v for k, v in poly.items()}, r=r, U=U)


def _reals(values: Any, param: str) -> tuple[float, ...]:
    """A non-empty list of positive reals (doubles)."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not values:
        raise DomainError(param, repr(values)[:40], "a non-empty list of numbers > 0")
    return tuple(read_real(v, param, 0, open_low=True) for v in values)


def _counts(values: Any, param: str, low: int) -> tuple[int, ...]:
    """A non-empty list of integers >= ``low``."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not values:
        raise DomainError(param, repr(values)[:40], f"a non-empty list of integers >= {low}")
    return tuple(read_count(v, param, low) for v in values)


@dataclass(frozen=True)
class SlopeSizes:
    """The runs of a slope claim: online SGD with the link h_``k`` (k in 1..4) in every
    dimension of ``d`` (>= 3) at the step constants ``c`` (> 0; η = c·d^(−a)), ``replicas``
    (>= 1) each, with a budget of ``cap`` (> 0) times the predicted order of samples.

    >>> SlopeSizes(1, (64, 128), (0.5, 1.0), 8, 100).d
    (64, 128)
    """

    k: Any
    d: Any
    c: Any
    replicas: Any
    cap: Any

    def __post_init__(self) -> None:
        settle(self, k=read_count(self.k, "k", 1, 4), d=_counts(self.d, "d", 3),
               c=_reals(self.c, "c"), replicas=read_count(self.replicas, "replicas", 1),
               cap=read_real(self.cap, "cap", 0, open_low=True))


@dataclass(frozen=True)
class StageSizes:
    """The runs of the multi-index claim: dimension ``d`` (>= 3), ``replicas`` (>= 1) of online
    SGD for n = alpha·d·ln d samples (alpha > 0) at the step η = c/d (c > 0).

    >>> StageSizes(64, 24, 20, 0.05).c
    0.05
    """

    d: Any
    replicas: Any
    alpha: Any
    c: Any

    def __post_init__(self) -> None:
        settle(self, d=read_count(self.d, "d", 3), replicas=read_count(self.replicas,
                                                                       "replicas", 1),
               alpha=read_real(self.alpha, "alpha", 0, open_low=True),
               c=read_real(self.c, "c", 0, open_low=True))


@dataclass(frozen=True)
class ReuseSizes:
    """The runs of the batch-reuse claim: in every dimension of ``d`` (>= 3), ``replicas``
    (>= 2) runs of two GD steps on one batch of n = ⌈C·d⌉ samples (C > 0) and of online SGD
    with the same n, and ``control`` (>= 0; 0 for none, else >= 2) runs on fresh batches.

    >>> ReuseSizes((64, 128), 8, 24, 8).C
    8.0
    """

    d: Any
    C: Any
    replicas: Any
    control: Any = 0

    def __post_init__(self) -> None:
        control = read_count(self.control, "control", 0)
        if control == 1:
            raise DomainError("control", 1, "0 (no control) or integers >= 2 (a standard "
                                            "error needs two runs)")
        settle(self, d=_counts(self.d, "d", 3), C=read_real(self.C, "C", 0, open_low=True),
               replicas=read_count(self.replicas, "replicas", 2), control=control)


#: the sizes of the slope claims (k = 1, 2, 3): CI ("small") and "large"
SLOPE_SIZES: dict[int, dict[str, dict[str, Any]]] = {
    1: {"small": {"k": 1, "d": (64, 128, 256, 512, 1024), "c": (0.5, 1.0, 2.0, 4.0, 8.0),
                  "replicas": 32, "cap": 100},
        "large": {"k": 1, "d": (64, 128, 256, 512, 1024, 2048), "c": (0.5, 1.0, 2.0, 4.0, 8.0),
                  "replicas": 128, "cap": 100}},
    2: {"small": {"k": 2, "d": (32, 64, 128, 256, 512), "c": (0.25, 0.5, 1.0, 2.0, 4.0),
                  "replicas": 32, "cap": 40},
        "large": {"k": 2, "d": (32, 64, 128, 256, 512, 1024, 2048),
                  "c": (0.25, 0.5, 1.0, 2.0, 4.0), "replicas": 128, "cap": 40}},
    3: {"small": {"k": 3, "d": (64, 128, 256), "c": (0.5,), "replicas": 48, "cap": 4},
        "large": {"k": 3, "d": (64, 128, 256, 512), "c": (0.5,), "replicas": 96, "cap": 4}},
}
#: the sizes of the multi-index claim
STAGE_SIZES: dict[str, dict[str, Any]] = {
    "small": {"d": 64, "replicas": 24, "alpha": 20, "c": 0.05},
    "large": {"d": 128, "replicas": 48, "alpha": 20, "c": 0.05}}
#: the sizes of the batch-reuse claim
REUSE_SIZES: dict[str, dict[str, Any]] = {
    "small": {"d": (64, 128, 256, 512), "C": 8, "replicas": 24, "control": 8},
    "large": {"d": (64, 128, 256, 512, 1024), "C": 8, "replicas": 48, "control": 16}}
