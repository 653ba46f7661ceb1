"""The example paper's parameters: the model (γ = d/n) and one sample of it (n, seed).

Definitions, not formulas: each field is read once, here, by :mod:`fltheory.args`, and the
objects are trusted afterwards by the theory, the simulator, the runs and the claims alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fltheory.args import check_memory, read_count, read_rational, settle

__all__ = ["MAX_N", "Sample", "Wishart"]

#: the largest n of a sample: a d × d eigendecomposition with d <= n is a second at 4000
MAX_N = 4000


@dataclass(frozen=True)
class Wishart:
    """S = XᵀX/n with X an n × d matrix of i.i.d. N(0, 1) entries, aspect ratio γ = d/n in (0, 1].

    >>> Wishart("1/2").gamma
    Fraction(1, 2)
    """

    gamma: Any

    def __post_init__(self) -> None:
        settle(self, gamma=read_rational(self.gamma, "gamma", 0, 1, open_low=True))


@dataclass(frozen=True)
class Sample:
    """One draw of the model: n rows (d = ⌈γ n⌉ columns), a seed.

    >>> Sample(400, seed=3).d(Wishart("1/2"))
    200
    """

    n: Any
    seed: Any = 0

    def __post_init__(self) -> None:
        n = read_count(self.n, "n", 10, MAX_N)
        check_memory("n", n, 8.0 * n * n)
        settle(self, n=n, seed=read_count(self.seed, "seed", 0))

    def d(self, model: Wishart) -> int:
        """The number of columns, ⌈γ n⌉."""
        return -(-model.gamma.numerator * self.n // model.gamma.denominator)
