"""The generative-leap chain that the polynomial targets
(:mod:`~fltheory.papers.samples.multiindex`) and the non-polynomial ones
(:mod:`~fltheory.papers.samples.nonpoly`) share: label tests and sign symmetries in, the
exponents of the steps and their bounds out (the method is the docstring of
:mod:`fltheory.papers.samples.multiindex`). Standard library only at import (mpmath inside
:func:`numeric_rank`, for numbers that are not exact rationals)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from typing import Any

__all__ = ["DPS", "NONZERO_EXPONENT", "GenerativeLeap", "all_odd", "chain", "numeric_rank"]

#: digits of the numbers that are not exact rationals (the product links' integrals)
DPS = 40
#: such a number counts as zero at or below 10^-NONZERO_EXPONENT
NONZERO_EXPONENT = 20


@dataclass(frozen=True)
class GenerativeLeap:
    """The generative leap of a polynomial target of two or more coordinates (module
    docstring): ``lower`` <= k* <= ``upper`` (``upper`` None: no upper bound found), ``value``
    when they meet, ``steps``: (exponent, coordinates added (1-based)) along the chain, and the
    ``reason`` (with where the chain stopped, if it did)."""

    lower: int
    upper: int | None
    steps: tuple[tuple[int, tuple[int, ...]], ...]
    reason: str

    @property
    def value(self) -> int | None:
        """k* when the bounds meet, else None."""
        return self.lower if self.upper == self.lower else None


def _rank(rows: list[list[Any]]) -> int:
    """Exact rank by Gaussian elimination over the rationals (numbers that are not Fractions,
    from the product links, are decided non-zero above 1e-20 at 40 digits instead)."""
    if any(not isinstance(x, Fraction | int) for row in rows for x in row):
        return numeric_rank(rows)
    m = [list(r) for r in rows if any(r)]
    rank, col = 0, 0
    ncol = len(m[0]) if m else 0
    while rank < len(m) and col < ncol:
        piv = next((i for i in range(rank, len(m)) if m[i][col]), None)
        if piv is None:
            col += 1
            continue
        m[rank], m[piv] = m[piv], m[rank]
        for i in range(len(m)):
            if i != rank and m[i][col]:
                f = m[i][col] / m[rank][col]
                m[i] = [x - f * y for x, y in zip(m[i], m[rank], strict=True)]
        rank += 1
        col += 1
    return rank


def chain(powers: list[dict[tuple[int, ...], Any]], group: list[tuple[int, ...]],
          used: list[int], r: int, kmax: int, how: str) -> GenerativeLeap:
    """The generative-leap chain from label tests and sign symmetries: ``powers[m − 1]`` holds
    the monic-He coefficients c_γ of the label y^m (E[y^m He_γ(z)] = γ! c_γ; exact Fractions, or
    numbers decided non-zero elsewhere), ``group`` the sign flips ε with f(εz) = f(z), ``used``
    the coordinates (0-based) of f, degrees up to ``kmax``; ``how`` ends an exact answer's
    reason. See the module docstring (the polynomial path and the product links of
    :mod:`fltheory.papers.samples.nonpoly` share it)."""
    mmax = len(powers)
    known: set[int] = set()
    steps: list[tuple[int, tuple[int, ...]]] = []
    certain = 0  # the steps whose starting subspace is the true one (their exponent is exact)
    complete = True  # every revealed subspace so far is certified to be all of V
    while len(known) < len(used):
        new = [j for j in used if j not in known]
        fixing = [e for e in group if all(e[j] == 1 for j in known)]
        if complete:
            certain += 1
        for k in range(1, kmax + 1):
            columns = _label_columns(powers, new, k, r)
            if columns:
                rows = sorted({j for col in columns.values() for j in col})
                if not _spans_axes(columns, rows):
                    steps.append((k, ()))
                    return _bounds(steps, certain, complete, kmax, (
                        f"step {len(steps)}: exponent {k}, but the directions found (exact "
                        f"vectors on z{', z'.join(str(j + 1) for j in rows)}) do not span "
                        "coordinate axes: the chain stops there"), how)
                # V is exactly these axes when every other new coordinate is made odd
                rest_new = [j for j in new if j not in rows]
                complete = complete and all(all_odd(new, k, fixing, j) for j in rest_new)
                steps.append((k, tuple(j + 1 for j in rows)))
                known.update(rows)
                break
            if not all_odd(new, k, fixing):
                return _bounds(steps, certain, complete, k, (
                    f"step {len(steps) + 1}: at degree {k} no label test y^m He_β(z_S) (m <= "
                    f"{mmax}) correlates with He_α of the new coordinates, and no sign symmetry "
                    "of f makes them vanish: undecided from there"), how)
        else:
            return _bounds(steps, certain, complete, kmax + 1, (
                f"step {len(steps) + 1}: no label test y^m He_β(z_S) (m <= {mmax}) up to "
                f"degree {kmax} reaches the new coordinates: undecided from there"), how)
    return _bounds(steps, certain, complete, 0, "every coordinate reached", how)


def _label_columns(powers: list[dict[tuple[int, ...], Fraction]], new: list[int], k: int,
                   r: int) -> dict[tuple[Any, ...], dict[int, Fraction]]:
    """The degree-k label tests E[y^m He_β(z_S) He_α]: one column per (m, β), keyed by j."""
    columns: dict[tuple[Any, ...], dict[int, Fraction]] = {}
    for m, h in enumerate(powers, 1):
        for g, c in h.items():
            if sum(g[j] for j in new) != k:
                continue
            value = c * _factorial_of(g)
            for j in new:
                if g[j]:
                    rest = tuple(g[i] - (i == j) for i in range(r))
                    columns.setdefault((m, rest), {})[j] = value
    return columns


def _spans_axes(columns: dict[tuple[Any, ...], dict[int, Fraction]], rows: list[int]) -> bool:
    """Whether the label tests' vectors span the coordinate axes ``rows`` (full rank)."""
    matrix = [[col.get(j, Fraction(0)) for col in columns.values()] for j in rows]
    return _rank(matrix) == len(rows)


def _sign(e: tuple[int, ...], a: tuple[int, ...]) -> int:
    out = 1
    for x, n in zip(e, a, strict=True):
        if x < 0 and n % 2:
            out = -out
    return out


def _factorial_of(a: tuple[int, ...]) -> int:
    out = 1
    for n in a:
        out *= factorial(n)
    return out


def all_odd(new: list[int], k: int, fixing: list[tuple[int, ...]],
             involving: int | None = None) -> bool:
    """Every α of degree k on the coordinates ``new`` (with α_involving > 0, if given) is made
    odd by some ε in ``fixing`` (only α's parities matter: α_j > 0 allows either parity of
    α_j, and popcount <= k with k's parity is what a degree-k α can have).

    >>> all_odd([0, 1], 2, [(-1, 1)])  # z1² and z2² are even under z1 → −z1
    False
    >>> all_odd([0], 1, [(-1,)])
    True
    """
    from itertools import product

    for bits in product((0, 1), repeat=len(new)):
        ones = sum(bits)
        if (k - ones) % 2 or ones > k:
            continue
        if involving is not None:
            i = new.index(involving)
            # α_involving > 0 with this parity: odd always possible; even needs 2 of the degree
            if not bits[i] and ones + 2 > k:
                continue
        if not any(sum(1 for j, b in zip(new, bits, strict=True) if b and e[j] < 0) % 2
                   for e in fixing):
            return False
    return True


def _bounds(steps: list[tuple[int, tuple[int, ...]]], certain: int, complete: bool,
            at_least: int, why: str, how: str) -> GenerativeLeap:
    """lower: the largest exponent of the steps that start from the true subspace (and, when
    the chain stopped undecided at such a step, the degree it reached); upper: the chain's
    largest exponent when it reached every coordinate."""
    exps = [k for k, _ in steps]
    finished = why == "every coordinate reached"
    lower = max(exps[:certain] or [1])
    if not finished and len(steps) < certain:  # stopped undecided at a certain step
        lower = max(lower, at_least)
    upper = max(exps) if finished else None
    chain = "; ".join(f"k = {k}: " + (", ".join(f"z{j}" for j in c) if c else "—")
                      for k, c in steps) or "—"
    if upper == lower:
        text = (f"exactly {lower}: chain {chain}"
                + ("" if complete else "; the first step's exponent bounds it below")
                + " " + how)
    else:
        text = (f"between {lower} and {upper if upper is not None else '(not bounded)'}: "
                f"chain {chain}; {why}"
                + ("" if complete or not finished else
                   "; a revealed subspace is not certified complete, so the later steps' "
                   "exponents are upper bounds only"))
    return GenerativeLeap(lower, upper, tuple(steps), text)


def numeric_rank(rows: list[list[Any]]) -> int:
    """Rank at ``DPS`` digits by elimination with partial pivoting; pivots <= 1e-20 count as
    zero.

    >>> numeric_rank([[1, 2], [2, 4]]), numeric_rank([[1, 2], [2, 5]])
    (1, 2)
    """
    import mpmath

    with mpmath.workdps(DPS):
        nonzero = mpmath.mpf(10) ** -NONZERO_EXPONENT
        m = [[mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction)
              else mpmath.mpf(x) for x in row] for row in rows]
        rank, ncol = 0, len(m[0]) if m else 0
        for col in range(ncol):
            if rank == len(m):
                break
            piv = max(range(rank, len(m)), key=lambda i: abs(m[i][col]))
            if abs(m[piv][col]) <= nonzero:
                continue
            m[rank], m[piv] = m[piv], m[rank]
            for i in range(rank + 1, len(m)):
                factor = m[i][col] / m[rank][col]
                m[i] = [x - factor * y for x, y in zip(m[i], m[rank], strict=True)]
            rank += 1
        return rank
