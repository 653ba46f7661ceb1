"""The ReLU Fisher paper's parameters, each read once by :mod:`fltheory.args` and trusted
afterwards by the theory, the simulator and the runs.

* :class:`Levels`: which levels of the exact m → ∞ spectrum (d, lmax), at which precision
  (dps), with or without the sympy closed forms (exact);
* :class:`Sample`: one simulated network (d, m, seed), its memory bounded before anything is
  allocated.

The random-feature model of any activation (``fltheory fisher --sigma``) is shared theory:
:class:`fltheory.engine.randomfeatures.RFModel` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fltheory.args import read_count, read_dps, settle
from fltheory.exact import DomainError

__all__ = ["MAX_BYTES", "MAX_L", "Levels", "Sample"]

#: The one range of the degree l and of lmax, [0, MAX_L], for every function of the theory and
#: the command's --lmax. Work grows as lmax³ (the theory's MAX_SPECTRUM_WORK); at d = 2,
#: dps = 30 the spectrum up to l = 60 takes a few seconds, and the trace identity is checked to
#: 1e-4·d there.
MAX_L = 60

#: Memory of one sample: W (d × m), J and its eigenvectors (m × m each) and eigh's workspace
#: (about one more m × m): 8·(d·m + 3·m²) bytes. 2 GiB keeps a sample on a small machine. The
#: same bound holds for every array a function of the simulator allocates.
MAX_BYTES = 2 * 1024**3


@dataclass(frozen=True)
class Levels:
    """The levels l = 0..lmax of the exact spectrum at dimension d: ``d`` an integer >= 2,
    ``lmax`` in [0, 60], ``dps`` in [5, 100], ``exact`` True, False or None (the sympy closed
    forms; None: for d <= 1000).

    >>> Levels(3, 2).lmax, Levels(10**6).exact
    (2, None)
    >>> Levels(1)
    Traceback (most recent call last):
    fltheory.exact.DomainError: d = 1 is outside the allowed range integers in [2, inf]
    """

    d: Any
    lmax: Any = 4
    dps: Any = 30
    exact: Any = None

    def __post_init__(self) -> None:
        d = read_count(self.d, "d", 2)
        lmax = read_count(self.lmax, "lmax", 0, MAX_L)
        dps = read_dps(self.dps)
        if self.exact is not None and not isinstance(self.exact, bool):
            raise DomainError("exact", self.exact, "True, False or None (default: d <= 1000)")
        settle(self, d=d, lmax=lmax, dps=dps)


def _gib(nbytes: int) -> str:
    """Bytes as GiB for a message (no float overflow for absurd sizes)."""
    if nbytes.bit_length() < 1000:
        return f"{nbytes / 1024**3:.3g} GiB"
    return f"about 2^{nbytes.bit_length() - 30} GiB"


@dataclass(frozen=True)
class Sample:
    """One network of m random ReLU features in dimension d, drawn at ``seed``: ``d`` an integer
    >= 1, ``m`` an integer >= 2, ``seed`` an integer >= 0 or a numpy SeedSequence; its memory
    8·(d·m + 3·m²) bytes (:attr:`nbytes`) at most :data:`MAX_BYTES`, checked before anything is
    allocated.

    >>> Sample(5, 1000).nbytes
    24040000
    >>> Sample(5, 10**6)
    Traceback (most recent call last):
    fltheory.exact.DomainError: m = 1000000 is outside the allowed range 8·(d·m + 3·m²) ...
    """

    d: Any
    m: Any
    seed: Any = 0

    def __post_init__(self) -> None:
        d = read_count(self.d, "d", 1)
        m = read_count(self.m, "m", 2)
        seed = self.seed
        if type(seed).__name__ != "SeedSequence":
            seed = read_count(seed, "seed", 0)
        settle(self, d=d, m=m, seed=seed)
        need = self.nbytes
        if need > MAX_BYTES:
            name, value = ("d", d) if d > 3 * m else ("m", m)
            shown = value if value.bit_length() < 64 else f"about 2^{value.bit_length()}"
            raise DomainError(name, shown, f"8·(d·m + 3·m²) bytes <= {MAX_BYTES >> 30} GiB "
                              f"(here {_gib(need)})")

    @property
    def nbytes(self) -> int:
        """Memory of the sample in bytes, 8·(d·m + 3·m²) (exact int)."""
        return 8 * (self.d * self.m + 3 * self.m * self.m)
