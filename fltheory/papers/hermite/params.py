"""The Hermite paper's parameters: a query of the engine's expansion (``fltheory hermite``: the
function, the degree K, the basis shown, the digits, the sympy budget), of its exponents
(``fltheory exponent``: the function, kmax, the digits), the catalogue table (functions, K,
kmax) and one Monte-Carlo sample of an activation's coefficients (name, K, n, seed, chunk).

Definitions, not formulas: each field is read here by :mod:`fltheory.args` and trusted
afterwards, with one division of labour. The engine (:mod:`fltheory.engine.hermite`) keeps the
bounds of its own arguments at its door, where they are stated once
(:mod:`fltheory.engine.hermite.bounds`: K <= 60, kmax <= 40, the sympy budget in [0, 600]
seconds): a query reads what the command itself bounds (K >= 0, kmax >= 1, dps, the basis) and
passes the budget, which only the engine reads, as it was given. The function is text (a
catalogue name or an expression in z), parsed by the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fltheory.args import read_choice, read_count, read_dps, settle
from fltheory.exact import DomainError

__all__ = ["BASES", "CatalogueTable", "ExpansionQuery", "ExponentQuery", "Sample"]

#: the bases a coefficient is shown in: orthonormal h_k (μ_k), or monic He_k (c_k = μ_k/√(k!))
BASES = ("h", "He")


def _function_text(expr: Any, param: str = "EXPR") -> str:
    """A function of z as the commands take it: text."""
    if not isinstance(expr, str):
        raise DomainError(param, repr(expr)[:40], "a catalogue name or an expression in z",
                          reason="is not an expression")
    return expr


@dataclass(frozen=True)
class ExpansionQuery:
    """μ_0..μ_K of ``expr`` (``fltheory hermite``): K >= 0 (the engine's bound K <= 60 is
    checked at its door), the ``basis`` shown (``h`` or ``He``), ``dps`` digits (5..100) and
    the seconds ``budget`` of sympy's integrate (read by the engine: [0, 600]).

    >>> ExpansionQuery("relu", K=12).K, ExpansionQuery("z**3", basis="He").basis
    (12, 'He')
    """

    expr: Any
    K: Any = 8
    basis: Any = "h"
    dps: Any = 30
    budget: Any = 5.0

    def __post_init__(self) -> None:
        settle(self, expr=_function_text(self.expr), K=read_count(self.K, "K", 0),
               basis=read_choice(self.basis, "basis", BASES), dps=read_dps(self.dps))


@dataclass(frozen=True)
class ExponentQuery:
    """The information and generative exponents of ``expr`` (``fltheory exponent``), examined
    up to ``kmax`` >= 1 (the engine's bound kmax <= 40 is checked at its door), at ``dps``
    digits.

    >>> ExponentQuery("He3").kmax
    12
    """

    expr: Any
    kmax: Any = 12
    dps: Any = 30

    def __post_init__(self) -> None:
        settle(self, expr=_function_text(self.expr), kmax=read_count(self.kmax, "kmax", 1),
               dps=read_dps(self.dps))


@dataclass(frozen=True)
class CatalogueTable:
    """The rows of the Hermite table: the ``functions`` (catalogue names or expressions in z),
    the coefficients μ_0..μ_K shown and the degree ``kmax`` up to which the exponents are
    looked for (K <= kmax: the coefficients shown are those the exponents were decided on).

    >>> CatalogueTable(("relu", "tanh"), K=4, kmax=8).functions
    ('relu', 'tanh')
    >>> CatalogueTable(("relu",), K=9, kmax=8)
    Traceback (most recent call last):
    ...
    fltheory.exact.DomainError: K = 9 exceeds kmax; allowed: integers in [0, kmax = 8]
    """

    functions: Sequence[str]
    K: Any = 4
    kmax: Any = 8

    def __post_init__(self) -> None:
        functions = tuple(_function_text(f, "functions") for f in self.functions)
        K, kmax = read_count(self.K, "K", 0), read_count(self.kmax, "kmax", 1)
        if kmax < K:
            raise DomainError("K", K, f"integers in [0, kmax = {kmax}]", reason="exceeds kmax")
        settle(self, functions=functions, K=K, kmax=kmax)


@dataclass(frozen=True)
class Sample:
    """One Monte-Carlo sample of an activation's coefficients: ``name`` in the simulator's
    catalogue (:data:`fltheory.simkit.activations.ACTIVATIONS`), the highest degree ``K``
    (0..200), ``n`` samples z ~ N(0, 1) (2..10^10), the ``seed`` (an integer >= 0 or a numpy
    ``SeedSequence``) and the samples drawn per batch, ``chunk`` (1..2^24: the memory).

    >>> Sample("relu", 4, 1000).n
    1000
    """

    name: Any
    K: Any
    n: Any
    seed: Any = 0
    chunk: Any = 1 << 18

    def __post_init__(self) -> None:
        from fltheory.simkit.activations import ACTIVATIONS

        name = read_choice(self.name, "name", tuple(ACTIVATIONS))
        K, n = read_count(self.K, "K", 0, 200), read_count(self.n, "n", 2, 10**10)
        # a SeedSequence passes as it is (numpy is not imported here: the class is named)
        seed = self.seed if type(self.seed).__name__ == "SeedSequence" \
            else read_count(self.seed, "seed", 0)
        settle(self, name=name, K=K, n=n, seed=seed,
               chunk=read_count(self.chunk, "chunk", 1, 1 << 24))
