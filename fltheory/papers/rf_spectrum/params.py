"""The random-feature paper's parameters, read once by :mod:`fltheory.args`.

The model itself (σ, d, s, lmax, jmax, dps) is shared theory, read by
:class:`fltheory.engine.randomfeatures.RFModel` (σ needs the expression grammar and the growth
check, s may be a sympy number); what is this paper's own:

* :class:`Approach`: the large-d table's degree l, dimensions and digits;
* :class:`Run`: the claims' simulated runs (d, s, widths, draws per width, harmonic degrees,
  radial degree, the digits asked of the prediction).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fltheory.args import read_count, read_dps, read_rational, settle

__all__ = ["Approach", "Run"]

#: the engine's ranges of d and l (:mod:`fltheory.engine.randomfeatures.levels`; a test holds
#: them equal)
MAX_D = 10**12
MAX_L = 60


@dataclass(frozen=True)
class Approach:
    """:func:`~fltheory.papers.rf_spectrum.theory.large_d_approach`'s request: degree ``l`` in
    [0, 60], 1 to 20 dimensions ``d_values`` in [2, 10^12], ``dps`` in [5, 100]; ``sigma`` and
    ``scale`` are kept as given (the engine's model reads them).

    >>> Approach("tanh", 1, [10, 100]).d_values
    (10, 100)
    """

    sigma: Any
    l: Any
    d_values: Any
    scale: Any = 1
    dps: Any = 15

    def __post_init__(self) -> None:
        from fltheory.exact import DomainError

        l = read_count(self.l, "l", 0, MAX_L)
        values = list(self.d_values)
        if not 1 <= len(values) <= 20:
            raise DomainError("d_values", len(values), "1 to 20 dimensions")
        ds = tuple(read_count(d, "d", 2, MAX_D) for d in values)
        settle(self, l=l, d_values=ds, dps=read_dps(self.dps))


@dataclass(frozen=True)
class Run:
    """The simulated runs of a claim at one size: dimension ``d``, scale ``s`` > 0, widths
    ``m`` (each >= 2), ``seeds`` draws per width, harmonic degrees l <= ``lmax`` (<= 50) with
    radial polynomials of degree ``radial`` (<= 10), predictions at ``dps`` digits.

    >>> Run.of({"d": 6, "scale": 1, "m": (480, 960), "seeds": 3, "lmax": 3, "radial": 1,
    ...         "dps": 5}).m
    (480, 960)
    """

    d: Any
    scale: Any
    m: Any
    seeds: Any
    lmax: Any
    radial: Any
    dps: Any

    def __post_init__(self) -> None:
        read_rational(self.scale, "scale", 0, open_low=True)
        settle(self, d=read_count(self.d, "d", 2), m=tuple(read_count(m, "m", 2) for m in self.m),
               seeds=read_count(self.seeds, "seeds", 1), lmax=read_count(self.lmax, "lmax", 0, 50),
               radial=read_count(self.radial, "radial", 0, 10), dps=read_dps(self.dps))

    @classmethod
    def of(cls, size: Mapping[str, Any]) -> Run:
        """The run of a claim's size (its mapping of parameters)."""
        return cls(size["d"], size["scale"], size["m"], size["seeds"], size["lmax"],
                   size["radial"], size["dps"])
