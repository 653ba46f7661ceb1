r"""The generative leap of a non-polynomial multi-index target y = f(z_1, …, z_r) (Damian, Lee &
Bruna 2025; the sequential reading of :mod:`fltheory.papers.samples.multiindex`: from the
subspace S already found, the next exponent is the least k with E[He_k(z_{S⊥}) | y, z_S] ≠ 0,
the span of its images is added to S, k* is the largest exponent met).

A non-polynomial f has no finite Hermite support, so the polynomial path's label tests (the
Hermite coefficients of f^m) are not available. Four kinds of target are recognised, tried in
this order; each answer says which one decided it:

1. **Coordinate-wise threshold links** (exact): every coordinate enters only through
   sign(a·z_i + b) or Heaviside(a·z_i + b) — products of coordinates inside sign split,
   sign(z_1 z_2 z_3) = sign(z_1) sign(z_2) sign(z_3) — so y is a function of which of finitely
   many intervals each z_i lies in (a *pattern*). Given the pattern the coordinates are
   independent, so every conditional moment is a finite sum of products of one-dimensional
   integrals over the intervals [a, b]:

   .. math::  \int_a^b \mathrm{He}_n φ = φ(a)\,\mathrm{He}_{n-1}(a) − φ(b)\,\mathrm{He}_{n-1}(b)
              \ (n ≥ 1), \qquad \int_a^b φ = Φ(b) − Φ(a).

   E[He_α(z_N) | y, z_S] depends on z_S only through its pattern, so the chain is computed by
   the definition, every tensor entry as a polynomial with rational coefficients in the symbols
   φ(t), Φ(t) of the thresholds t (Φ(0) = 1/2): an entry that is the zero polynomial is exactly
   zero; one that is not is evaluated at 40 digits, and |value| > 10⁻²⁰ certifies it non-zero
   (an entry that is neither stops the chain with bounds). The images' span is checked to be
   coordinate axes by an elimination at 40 digits with pivots > 10⁻²⁰. So k* is exact.
2. **Single-index targets** f = h(w·z) (w a rational vector: f unchanged, exactly, along a
   basis of w⊥): conditionally on y the part of z orthogonal to w is an independent Gaussian, so
   E[He_k(z) | y] = E[He_k(t) | h(|w| t)] (w/|w|)^{⊗k} and k* is the generative exponent of
   t ↦ h(|w| t), from the Hermite engine (zeros decided as it decides them).
3. **Product links** f = c Π_i h_i(z_i) (each factor a function of one coordinate, e.g.
   z1·sign(z2)): the label tests y^m He_β(z_S) factorise, E[y^m He_γ(z)] = Π_i E[h_i^m He_{γ_i}],
   each a Hermite coefficient of h_i^m from the Hermite engine (m <= 2, degrees <= 8); zeros by
   the sign flips that keep f (from the parity of each h_i) and non-zeros by these products feed
   the same chain as the polynomial path (``fltheory.papers.samples._chain.chain``),
   which reports bounds where it cannot decide.
   **Additive links** f = Σ_i h_i(z_i) likewise: E[y He_γ] = c_{γ_i}(h_i) for γ on one
   coordinate, and y² = Σ h_i² + 2 Σ_{i<j} h_i h_j gives products of one-coordinate
   coefficients; the flips of coordinates whose h_i is even keep f.
4. **Anything else** (relu(z1) + z2 z3, tanh(z1 z2), …): only the sign flips ε with
   f(εz) = f(z) (proved by sympy) are used: they make E[He_α | y] = 0 for every α that some ε
   makes odd, so k* is at least the least degree they do not kill; no upper bound.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp

from fltheory.exact import parse_rational
from fltheory.papers.samples._chain import DPS as _DPS
from fltheory.papers.samples._chain import NONZERO_EXPONENT, GenerativeLeap, chain, numeric_rank
from fltheory.papers.samples.params import LEAP_LIMITS

__all__ = ["COORDINATES", "DISCRETE_LIMITS", "function_generative_leap", "to_sympy"]

#: the coordinates z1 … z8 as real sympy symbols
COORDINATES = tuple(sp.Symbol(f"z{i}", real=True) for i in range(1, LEAP_LIMITS["coordinates"]
                                                                 + 1))
#: bounds of the exact threshold-link path: interval patterns, tensor entries × patterns (work),
#: largest degree examined
DISCRETE_LIMITS = {"patterns": 4096, "work": 400_000, "degree": 12}
_NONZERO = mpmath.mpf(10) ** -NONZERO_EXPONENT
_SECONDS = 10.0


def to_sympy(text: str) -> sp.Expr:
    """The target ``text`` (already checked by
    :func:`~fltheory.papers.samples.params.check_function_target`) as an exact sympy expression
    in :data:`COORDINATES`, node by node (nothing is evaluated from the text).

    >>> to_sympy("sign(z1*z2) + relu(z3 - 1/2)")
    sign(z1*z2) + Max(0, z3 - 1/2)
    """
    from fltheory.engine.expressions import hermite_He

    functions: dict[str, Any] = {
        "sign": sp.sign, "Heaviside": sp.Heaviside, "Abs": sp.Abs, "abs": sp.Abs,
        "relu": lambda x: sp.Max(x, 0), "Max": sp.Max, "Min": sp.Min, "tanh": sp.tanh,
        "erf": sp.erf, "sigmoid": lambda x: 1 / (1 + sp.exp(-x))}
    source = text.strip().replace("^", "**")

    def node(n: ast.AST) -> Any:
        if isinstance(n, ast.Constant):
            q = parse_rational(ast.get_source_segment(source, n) or repr(n.value), "TARGET")
            return sp.Rational(q.numerator, q.denominator)
        if isinstance(n, ast.Name):
            return COORDINATES[int(n.id[1:]) - 1]
        if isinstance(n, ast.UnaryOp):
            return -node(n.operand) if isinstance(n.op, ast.USub) else node(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = node(n.left), node(n.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.Div: lambda: a / b, ast.Pow: lambda: a ** b}
            return ops[type(n.op)]()
        assert isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        name, args = n.func.id, [node(a) for a in n.args]
        if name.startswith("He") and name[2:].isdigit():
            return hermite_He(int(name[2:]), args[0])
        return functions[name](*args)

    return sp.sympify(node(ast.parse(source, mode="eval").body))


def function_generative_leap(text: str, r: int, kmax: int = 8, dps: int = 30) -> GenerativeLeap:
    """Bounds on the generative leap of the non-polynomial target ``text`` in z1 … z``r`` (the
    module docstring: threshold links exactly, single-index targets by the Hermite engine,
    product links by the factorised label tests, anything else by its sign symmetries).
    ``kmax``: the largest degree examined; ``dps``: the Hermite engine's digits.

    >>> g = function_generative_leap("sign(z1*z2*z3)", 3)
    >>> g.lower, g.upper, g.steps
    (3, 3, ((3, (1, 2, 3)),))
    >>> function_generative_leap("relu(z1 + z2)", 2).value
    1
    """
    f = to_sympy(text)
    used = sorted(int(str(s)[1:]) - 1 for s in f.free_symbols)
    found = _threshold_link(f, used, r, min(kmax, DISCRETE_LIMITS["degree"]))
    if found is not None:
        return found
    found = _single_index(f, used, kmax, dps)
    if found is not None:
        return found
    found = _product_link(f, used, r, kmax, dps)
    if found is not None:
        return found
    found = _additive_link(f, used, r, kmax, dps)
    if found is not None:
        return found
    return _symmetry_only(f, used, r, kmax)


# --------------------------------------------------------------------------- 1. thresholds


@dataclass(frozen=True)
class _Atoms:
    """The threshold atoms of a target: y as an expression in placeholders s[(i, t)] (the sign
    of z_i − t) and, per coordinate i, its sorted thresholds."""

    expr: sp.Expr
    symbols: dict[tuple[int, Fraction], sp.Symbol]


class _NotThreshold(Exception):
    pass


def _sign_atoms(f: sp.Expr) -> _Atoms | None:
    """f with every sign/Heaviside of a coordinate-wise argument replaced by placeholders; None
    when a coordinate is left outside them."""
    symbols: dict[tuple[int, Fraction], sp.Symbol] = {}

    def placeholder(i: int, t: Fraction) -> sp.Symbol:
        return symbols.setdefault((i, t), sp.Symbol(f"s_{i}_{len(symbols)}"))

    def sgn(arg: sp.Expr) -> sp.Expr:
        arg = sp.factor(arg)
        if arg.is_number:
            return sp.sign(arg)
        if arg.is_Mul:
            return sp.Mul(*(sgn(a) for a in arg.args))
        if arg.is_Pow and arg.exp.is_Integer and arg.exp > 0:
            return sgn(arg.base) ** int(arg.exp)
        free = [s for s in COORDINATES if arg.has(s)]
        if len(free) == 1:
            p = sp.Poly(arg, free[0]) if arg.is_polynomial(free[0]) else None
            if p is not None and p.degree() == 1:
                a, b = p.all_coeffs()
                if a.is_Rational and b.is_Rational:
                    t = Fraction(str(-b / a))
                    return sp.sign(a) * placeholder(COORDINATES.index(free[0]), t)
        raise _NotThreshold

    def walk(e: sp.Expr) -> sp.Expr:
        if isinstance(e, sp.sign):
            return sgn(e.args[0])
        if isinstance(e, sp.Heaviside):
            return (1 + sgn(e.args[0])) / 2
        if not e.args:
            return e
        return e.func(*(walk(a) for a in e.args))

    try:
        out = walk(f)
    except _NotThreshold:
        return None
    if any(out.has(s) for s in COORDINATES) or not symbols:
        return None
    return _Atoms(out, symbols)


def _phi_symbol(t: Fraction) -> sp.Symbol:
    return sp.Symbol(f"phi({t})", positive=True)


def _cdf_symbol(t: Fraction) -> sp.Expr:
    return sp.Rational(1, 2) if t == 0 else sp.Symbol(f"Phi({t})", positive=True)


def _He(n: int, t: Fraction) -> Fraction:
    """He_n(t), exactly (He_{n+1} = t He_n − n He_{n−1})."""
    prev, cur = Fraction(1), t
    if n == 0:
        return prev
    for m in range(1, n):
        prev, cur = cur, t * cur - m * prev
    return cur


def _moment(lo: Fraction | None, hi: Fraction | None, n: int) -> sp.Expr:
    """∫_lo^hi He_n φ (None: ∓∞) in the symbols φ(t), Φ(t)."""
    if n == 0:
        return (1 if hi is None else _cdf_symbol(hi)) - (0 if lo is None else _cdf_symbol(lo))
    out = sp.Integer(0)
    if lo is not None:
        out += _phi_symbol(lo) * sp.Rational(str(_He(n - 1, lo)))
    if hi is not None:
        out -= _phi_symbol(hi) * sp.Rational(str(_He(n - 1, hi)))
    return out


def _numeric(expr: sp.Expr) -> Any:
    """A polynomial in φ(t), Φ(t) with rational coefficients, at ``_DPS`` digits."""
    with mpmath.workdps(_DPS):
        values = []
        for s in sorted(expr.free_symbols, key=str):
            name = str(s)
            q = Fraction(name[name.index("(") + 1:-1])
            t = mpmath.mpf(q.numerator) / q.denominator
            values.append((s, mpmath.npdf(t) if name.startswith("phi") else mpmath.ncdf(t)))
        if not values:
            q = sp.Rational(expr)
            return mpmath.mpf(int(q.p)) / int(q.q)
        fn = sp.lambdify([s for s, _ in values], expr, modules="mpmath")
        return mpmath.mpf(fn(*(v for _, v in values)))


def _real(expr: sp.Expr) -> sp.Expr:
    """The symbols φ(t), Φ(t) as their values (for display)."""
    subs = {}
    for s in expr.free_symbols:
        name = str(s)
        t = sp.Rational(name[name.index("(") + 1:-1])
        subs[s] = (sp.exp(-t ** 2 / 2) / sp.sqrt(2 * sp.pi) if name.startswith("phi")
                   else (1 + sp.erf(t / sp.sqrt(2))) / 2)
    return expr.subs(subs)


def _threshold_link(f: sp.Expr, used: list[int], r: int, kmax: int) -> GenerativeLeap | None:
    """The exact chain of a coordinate-wise threshold link (module docstring, 1.); None when f
    is not one."""
    atoms = _sign_atoms(f)
    if atoms is None:
        return None
    cuts = {i: sorted({t for (j, t) in atoms.symbols if j == i}) for i in used}
    pieces = {i: list(zip([None, *cuts[i]], [*cuts[i], None], strict=True)) for i in used}
    count = 1
    for i in used:
        count *= len(pieces[i])
    if count > DISCRETE_LIMITS["patterns"]:
        return None
    # y on every pattern (piece index per used coordinate)
    value_of: dict[tuple[int, ...], sp.Expr] = {}
    for pattern in itertools.product(*(range(len(pieces[i])) for i in used)):
        subs = {}
        for (i, t), s in atoms.symbols.items():
            lo = pieces[i][pattern[used.index(i)]][0]
            subs[s] = 1 if lo is not None and lo >= t else -1
        value_of[pattern] = sp.nsimplify(atoms.expr.subs(subs))
    moments: dict[tuple[int, int, int], sp.Expr] = {}

    def moment(i: int, p: int, n: int) -> sp.Expr:
        key = (i, p, n)
        if key not in moments:
            moments[key] = _moment(*pieces[i][p], n)
        return moments[key]

    known: list[int] = []
    steps: list[tuple[int, tuple[int, ...]]] = []
    shown = ""
    work = 0
    while len(known) < len(used):
        new = [i for i in used if i not in known]
        # the labels: (y, pattern of the known coordinates) → the patterns of the new ones
        groups: dict[tuple[Any, ...], list[tuple[int, ...]]] = {}
        for pattern, y in value_of.items():
            label = (y, *(pattern[used.index(i)] for i in known))
            groups.setdefault(label, []).append(tuple(pattern[used.index(i)] for i in new))
        for k in range(1, kmax + 1):
            alphas = [a for a in _compositions(k, len(new))]
            work += len(alphas) * len(value_of)
            if work > DISCRETE_LIMITS["work"]:
                return _stopped(steps, k, f"step {len(steps) + 1}: the exact sums exceed "
                                f"{DISCRETE_LIMITS['work']} terms at degree {k}: undecided "
                                "from there")
            columns: dict[tuple[Any, ...], dict[int, Any]] = {}
            for label, members in sorted(groups.items(), key=lambda g: -float(g[0][0])):
                for alpha in alphas:
                    entry = sp.expand(sum((sp.Mul(*(moment(i, p[n], alpha[n])
                                                    for n, i in enumerate(new)))
                                           for p in members), sp.Integer(0)))
                    if entry == 0:
                        continue
                    value = _numeric(entry)
                    if abs(value) <= _NONZERO:
                        return _stopped(steps, k, f"step {len(steps) + 1}: a degree-{k} entry "
                                        f"is not the zero polynomial but |value| <= 1e-20 at "
                                        f"{_DPS} digits: undecided from there")
                    if not steps and not shown:
                        shown = _shown_moment(label[0], alpha, new, entry, groups[label],
                                              moment)
                    for n, i in enumerate(new):
                        if alpha[n]:
                            rest = tuple(a - (m == n) for m, a in enumerate(alpha))
                            columns.setdefault((label, rest), {})[i] = value
            if columns:
                rows = sorted({i for col in columns.values() for i in col})
                if numeric_rank([[col.get(i, 0) for col in columns.values()] for i in rows]
                                 ) != len(rows):
                    steps.append((k, ()))
                    return _stopped(steps, k, f"step {len(steps)}: exponent {k}, but the "
                                    "directions found do not span coordinate axes (at "
                                    f"{_DPS} digits): the chain stops there", certain=True)
                steps.append((k, tuple(i + 1 for i in rows)))
                known.extend(rows)
                break
        else:
            return _stopped(steps, kmax + 1, f"step {len(steps) + 1}: every conditional "
                            f"moment of degree <= {kmax} of the new coordinates is exactly 0: "
                            f"the step's exponent is > {kmax}")
    exps = [k for k, _ in steps]
    chain_text = "; ".join(f"k = {k}: " + ", ".join(f"z{j}" for j in c) for k, c in steps)
    return GenerativeLeap(max(exps), max(exps), tuple(steps), (
        f"exactly {max(exps)}: chain {chain_text} (threshold link of the coordinates: every "
        "conditional moment E[He_α(z_new) | y, z_known] a finite sum of Gaussian interval "
        f"integrals, zeros exact, non-zeros at {_DPS} digits){shown}"))


def _stopped(steps: list[tuple[int, tuple[int, ...]]], at_least: int, why: str,
             certain: bool = False) -> GenerativeLeap:
    """Bounds when the exact chain stops: every step so far started from the true subspace."""
    exps = [k for k, _ in steps]
    lower = max([*exps, at_least]) if not certain else max(exps)
    chain_text = "; ".join(f"k = {k}: " + (", ".join(f"z{j}" for j in c) if c else "—")
                           for k, c in steps) or "—"
    return GenerativeLeap(lower, None, tuple(steps),
                          f"between {lower} and (not bounded): chain {chain_text}; {why}")


def _compositions(k: int, n: int) -> list[tuple[int, ...]]:
    """Every α in ℕ^n with |α| = k."""
    if n == 1:
        return [(k,)]
    return [(a, *rest) for a in range(k, -1, -1) for rest in _compositions(k - a, n - 1)]


def _shown_moment(y: Any, alpha: tuple[int, ...], new: list[int], entry: sp.Expr,
                  members: list[tuple[int, ...]], moment: Any) -> str:
    """'; E[z1·z2·z3 | y = 1] = …' for the first non-zero entry (exact, then 12 digits)."""
    from fltheory.engine.timer import Timeout, time_limit

    prob = sp.expand(sum((sp.Mul(*(moment(i, p[n], 0) for n, i in enumerate(new)))
                          for p in members), sp.Integer(0)))
    term = "·".join(f"He{a}(z{i + 1})" if a > 1 else f"z{i + 1}"
                    for a, i in zip(alpha, new, strict=True) if a)
    value = _real(entry / prob)
    try:
        with time_limit(_SECONDS):
            value = sp.simplify(value)
    except Timeout:
        pass
    number = mpmath.nstr(_numeric(entry) / _numeric(prob), 12)
    return f"; E[{term} | y = {y}] = {value} = {number}"


# --------------------------------------------------------------------------- 2. single index


def _single_index(f: sp.Expr, used: list[int], kmax: int, dps: int) -> GenerativeLeap | None:
    """f = h(w·z) for a rational w read off a linear argument of f (module docstring, 2.)."""
    from fltheory.engine.expressions import Z
    from fltheory.engine.timer import Timeout, time_limit

    zs = [COORDINATES[i] for i in used]
    candidates = []
    for e in sp.preorder_traversal(f):
        if isinstance(e, sp.Expr) and e.is_polynomial(*zs) and not e.is_number:
            p = sp.Poly(e, *zs)
            if p.total_degree() == 1:
                w = [p.coeff_monomial(z) for z in zs]
                if all(c.is_Rational for c in w) and w not in candidates:
                    candidates.append(w)
    s = sp.Symbol("s", real=True)
    for w in candidates:
        norm2 = sum(c * c for c in w)
        try:
            with time_limit(_SECONDS):
                invariant = True
                for j in range(len(zs)):  # e_j − (w_j/|w|²) w spans w⊥
                    v = [(1 if m == j else 0) - w[j] * w[m] / norm2 for m in range(len(zs))]
                    moved = f.subs({z: z + s * v[m] for m, z in enumerate(zs)},
                                   simultaneous=True)
                    if sp.simplify(moved - f) != 0:
                        invariant = False
                        break
        except Timeout:
            continue
        if not invariant:
            continue
        from fltheory.engine.hermite import generative_exponent

        norm = sp.sqrt(norm2)
        h = f.subs({z: Z * w[m] / norm for m, z in enumerate(zs)}, simultaneous=True)
        e = generative_exponent(h, kmax=kmax, dps=dps)
        direction = "(" + ", ".join(str(c) for c in w) + ")"
        text = (f"f depends on z only through w·z, w = {direction} (f is unchanged along w⊥, "
                f"proved by sympy): k* is the generative exponent of h(z) = {h}, z = w·x/|w| "
                f"(Hermite engine): {e} ({e.reason})")
        if e.value is None:
            return GenerativeLeap(kmax + 1, None, (), "between "
                                  f"{kmax + 1} and (not bounded): " + text)
        coords = tuple(i + 1 for i, c in zip(used, w, strict=True) if c != 0)
        return GenerativeLeap(e.value, e.value, ((e.value, coords),),
                              f"exactly {e.value}: " + text)
    return None


# --------------------------------------------------------------------------- 3. product links


def _parity(h: sp.Expr, z: sp.Symbol) -> int:
    """+1 even, −1 odd, 0 neither (or undecided), proved by sympy."""
    from fltheory.engine.timer import Timeout, time_limit

    try:
        with time_limit(_SECONDS):
            if sp.simplify(h.subs(z, -z) - h) == 0:
                return 1
            if sp.simplify(h.subs(z, -z) + h) == 0:
                return -1
    except Timeout:
        pass
    return 0


def _flips(parities: dict[int, int], r: int) -> list[tuple[int, ...]]:
    """The sign flips ε of the r coordinates with f(εz) = f(z) for f = Π h_i(z_i): flip only
    coordinates of definite parity, an even number of odd ones."""
    out = []
    for e in itertools.product((1, -1), repeat=r):
        flipped = [i for i in range(r) if e[i] < 0]
        if all(parities.get(i, 1) != 0 for i in flipped) and \
                sum(1 for i in flipped if parities.get(i, 1) == -1) % 2 == 0:
            out.append(e)
    return out


def _product_link(f: sp.Expr, used: list[int], r: int, kmax: int, dps: int
                  ) -> GenerativeLeap | None:
    """f = c Π h_i(z_i) (module docstring, 3.): the chain with factorised label tests."""
    from fltheory.engine.expressions import Z
    from fltheory.engine.hermite import expansion

    factors = _one_coordinate_terms(f, sp.Mul.make_args)
    if factors is None:
        return None
    constant = sp.Mul(*(a for a in sp.Mul.make_args(f) if not a.free_symbols))
    first = min(factors)
    factors[first] = constant * factors[first]
    degree = min(kmax, 8)
    near = False
    cache: dict[sp.Expr, Any] = {}
    powers: list[dict[tuple[int, ...], Any]] = []
    for m in (1, 2):
        coeffs: dict[int, list[Any]] = {}
        for i, h in factors.items():
            hm = sp.expand(h ** m).subs(COORDINATES[i], Z)
            if hm not in cache:  # the same factor on several coordinates: expanded once
                cache[hm] = expansion(hm, degree, dps)
            e = cache[hm]
            near = near or any(c.near_zero for c in e.coefficients)
            coeffs[i] = [mpmath.mpf(0) if c.zero else c.numeric_in("He")
                         for c in e.coefficients]
        table: dict[tuple[int, ...], Any] = {}
        for gamma in itertools.product(*(range(degree + 1) for _ in factors)):
            if sum(gamma) > degree:
                continue
            value = mpmath.mpf(1)
            for n, i in zip(gamma, factors, strict=True):
                value *= coeffs[i][n]
            if value != 0:
                key = [0] * r
                for n, i in zip(gamma, factors, strict=True):
                    key[i] = n
                table[tuple(key)] = value
        powers.append(table)
    parities = {i: _parity(h, COORDINATES[i]) for i, h in factors.items()}
    out = chain(powers, _flips(parities, r), used, r, degree,
                "(zeros by sign symmetries of f, non-zeros by the factorised label tests "
                "E[y^m He_γ(z)] = Π_i E[h_i(z_i)^m He_γ_i(z_i)] of the Hermite engine)")
    note = ("; product link: f = " + " · ".join(f"({h})" for h in factors.values())
            + ", label tests y and y² up to degree " + str(degree)
            + ("; some coefficients are zero at --dps digits without proof" if near else ""))
    return GenerativeLeap(out.lower, out.upper, out.steps, out.reason + note)


def _one_coordinate_terms(f: sp.Expr, split: Any) -> dict[int, sp.Expr] | None:
    """f split by ``split`` (Mul.make_args or Add.make_args) into one function per coordinate
    (a constant goes with the first); None when a part involves two coordinates or fewer than two
    coordinates appear."""
    parts: dict[int, sp.Expr] = {}
    constant = []
    for a in split(f):
        free = [COORDINATES.index(s) for s in a.free_symbols]
        if len(free) > 1:
            return None
        if free:
            parts[free[0]] = a if free[0] not in parts else (
                parts[free[0]] * a if split is sp.Mul.make_args else parts[free[0]] + a)
        else:
            constant.append(a)
    if len(parts) < 2:
        return None
    return parts


def _additive_link(f: sp.Expr, used: list[int], r: int, kmax: int, dps: int
                   ) -> GenerativeLeap | None:
    """f = Σ_i h_i(z_i) (+ a constant): the label tests y and y² factorise as well,
    E[y He_γ] = c_{γ_i}(h_i) when γ sits on coordinate i alone (0 otherwise) and
    E[y² He_γ] = Σ_i c_γ(h_i²) + 2 Σ_{i<j} c_{γ_i}(h_i) c_{γ_j}(h_j) over γ supported in {i, j}
    (monic He coefficients, Hermite engine); zeros by the flips of coordinates whose h_i is even.
    """
    from fltheory.engine.expressions import Z
    from fltheory.engine.hermite import expansion

    terms = _one_coordinate_terms(f, sp.Add.make_args)
    if terms is None:
        return None
    degree = min(kmax, 8)
    near = False

    def coefficients(h: sp.Expr, i: int) -> list[Any]:
        nonlocal near
        e = expansion(h.subs(COORDINATES[i], Z), degree, dps)
        near = near or any(c.near_zero for c in e.coefficients)
        return [mpmath.mpf(0) if c.zero else c.numeric_in("He") for c in e.coefficients]

    one = {i: coefficients(h, i) for i, h in terms.items()}
    two = {i: coefficients(sp.expand(h * h), i) for i, h in terms.items()}
    first: dict[tuple[int, ...], Any] = {}
    second: dict[tuple[int, ...], Any] = {}

    def add(table: dict[tuple[int, ...], Any], key: list[int], value: Any) -> None:
        if value != 0:
            table[tuple(key)] = table.get(tuple(key), 0) + value

    for i in terms:
        for n in range(1, degree + 1):
            key = [0] * r
            key[i] = n
            add(first, key, one[i][n])
            add(second, key, two[i][n])
    for i, j in itertools.combinations(sorted(terms), 2):
        for a in range(0, degree + 1):
            for b in range(0, degree + 1 - a):
                if a and b:
                    key = [0] * r
                    key[i], key[j] = a, b
                    add(second, key, 2 * one[i][a] * one[j][b])
                elif a or b:  # the cross term on one coordinate: 2 c_a(h_i) c_0(h_j)
                    key = [0] * r
                    key[i if a else j] = a or b
                    add(second, key, 2 * (one[i][a] * one[j][0] if a else one[i][0] * one[j][b]))
    parities = {i: _parity(h, COORDINATES[i]) for i, h in terms.items()}
    group = [e for e in itertools.product((1, -1), repeat=r)
             if all(parities.get(i, 1) == 1 for i in range(r) if e[i] < 0)]
    out = chain([first, second], group, used, r, degree,
                "(zeros by sign symmetries of f, non-zeros by the factorised label tests of y "
                "and y² from the one-coordinate terms' Hermite coefficients)")
    note = ("; additive link: f = " + " + ".join(f"({h})" for h in terms.values())
            + ", label tests y and y² up to degree " + str(degree)
            + ("; some coefficients are zero at --dps digits without proof" if near else ""))
    return GenerativeLeap(out.lower, out.upper, out.steps, out.reason + note)


# --------------------------------------------------------------------------- 4. symmetry only


def _symmetry_only(f: sp.Expr, used: list[int], r: int, kmax: int) -> GenerativeLeap:
    """k* >= the least degree that the sign flips keeping f do not kill (module docstring,
    4.); no upper bound."""
    from fltheory.engine.timer import Timeout, time_limit
    from fltheory.papers.samples._chain import all_odd

    group = []
    points = [mpmath.mpf(x) / 7 for x in (3, -5, 8, -11, 13, -2, 17, 6)]
    for e in itertools.product((1, -1), repeat=r):
        if all(x == 1 for x in e):
            group.append(e)
            continue
        moved = f.subs({COORDINATES[i]: e[i] * COORDINATES[i] for i in range(r)},
                       simultaneous=True)
        values = {COORDINATES[i]: sp.Rational(3 + 5 * i, 7 + i) for i in range(r)}
        if abs(sp.N((moved - f).subs(values), 30)) > 1e-20:
            continue
        try:
            with time_limit(_SECONDS):
                if sp.simplify(moved - f) == 0:
                    group.append(e)
        except Timeout:
            continue
    del points
    k = next((k for k in range(1, kmax + 1) if not all_odd(used, k, group)), None)
    if k is None:
        return GenerativeLeap(kmax + 1, None, (), (
            f"between {kmax + 1} and (not bounded): every He_α of degree <= {kmax} is made odd "
            "by a sign flip that keeps f, and no conditional moment of f is known in closed "
            "form here (f is not a threshold link, a single-index function, or a product or a "
            "sum of one-coordinate functions)"))
    return GenerativeLeap(k, None, (), (
        f"between {k} and (not bounded): the sign flips that keep f make every E[He_α | y] of "
        f"degree < {k} vanish (so k* >= {k}); no conditional moment of f is known in closed "
        "form here (f is not a threshold link, a single-index function, or a product or a sum "
        "of one-coordinate functions), so no upper bound"))
