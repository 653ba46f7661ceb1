"""The bulks of the spectral kit as parameter objects, each validated once, at construction:
:class:`Semicircle`, :class:`MarchenkoPastur` (γ), :class:`Density` (an expression on a support)
and :class:`Sample` (eigenvalues, or a file of them). The kit's functions
(:mod:`fltheory.engine.spectral.spikes`) take them and trust what they hold.

They live here, beside the formulas that take them, and not in a paper's ``params.py``: the
engine names no paper, and several papers use the kit. They are definitions, not formulas (each
field read by :mod:`fltheory.args`, a density by the expression grammar), and light to import:
the standard library, :mod:`fltheory.args` and :mod:`fltheory.exact` (numpy when a sample is
built, sympy when a density is parsed). A paper shows them on its public face.

:func:`read_bulk` builds the bulk a command names from its options (``--bulk``, ``--gamma``,
``--density``, ``--support``, ``--eigenvalues``), refusing an option that belongs to another bulk.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from fltheory.args import read_choice, read_number_file, read_rational, read_rationals, settle
from fltheory.exact import DomainError, fraction_str

__all__ = ["BULKS", "MAX_FILE_BYTES", "MAX_SAMPLE", "MIN_SAMPLE", "MODELS", "Density",
           "MarchenkoPastur", "Sample", "Semicircle", "SpikeBulk", "read_bulk", "support_text"]

#: The bulks a spike query names (the ``name`` of each class below).
BULKS: Final = ("semicircle", "mp", "density", "sample")
#: The spiked models: additive (M = W + Σ θ_i u_i u_iᵀ) and multiplicative (a sample covariance).
MODELS: Final = ("additive", "multiplicative")
#: Fewest eigenvalues a sample bulk accepts: below, the standard errors of its estimates are not
#: a reliable guide (and one eigenvalue is a sizeable share of the transform).
MIN_SAMPLE: Final = 100
#: Most eigenvalues a sample bulk accepts (each root costs ~100 passes over the sample).
MAX_SAMPLE: Final = 10**6
#: Largest eigenvalue file read (bytes): MAX_SAMPLE numbers of ~25 characters, with room.
MAX_FILE_BYTES: Final = 64 * 2**20


@dataclass(frozen=True)
class Semicircle:
    """The semicircle law on [−2, 2] (W = G/√N, G a GOE matrix of off-diagonal variance 1): the
    closed form of the additive model.

    >>> Semicircle().name, Semicircle().model
    ('semicircle', 'additive')
    """

    name: ClassVar[str] = "semicircle"
    #: the spiked model of its closed form
    model: ClassVar[str | None] = "additive"


@dataclass(frozen=True)
class MarchenkoPastur:
    """The Marchenko–Pastur law of ratio γ = p/n > 0 (X = ZZᵀ/n, Z p × n standard Gaussian): the
    closed form of the multiplicative model. ``gamma`` is read as an exact rational.

    >>> MarchenkoPastur("1/2").gamma
    Fraction(1, 2)
    >>> MarchenkoPastur(0)
    Traceback (most recent call last):
    fltheory.exact.DomainError: gamma = 0 is outside the allowed range gamma > 0
    """

    gamma: Any

    name: ClassVar[str] = "mp"
    model: ClassVar[str | None] = "multiplicative"

    def __post_init__(self) -> None:
        settle(self, gamma=read_rational(self.gamma, "gamma", low=0, open_low=True))


@dataclass(frozen=True)
class Density:
    """A bulk given by its density ρ(x) on the support [a, b]: ``expr`` is an expression in x (or
    z) of the :mod:`fltheory.engine.expressions` grammar, e.g. ``sqrt(Max(4 - x**2, 0))/(2*pi)``,
    kept as typed and parsed once (``parsed``); ``support`` is two exact numbers a < b ("a,b" or a
    pair; an end may be an exact constant such as ``sqrt(3)``, kept exact). That ρ is >= 0 and
    integrates to 1 is checked where the quadrature runs, at the working precision
    (:func:`fltheory.engine.spectral.spikes.density_bulk`).

    >>> d = Density("3/4*(1 - x**2)", "-1,1")
    >>> d.support, d.parsed
    ((Fraction(-1, 1), Fraction(1, 1)), 3/4 - 3*z**2/4)
    >>> Density("1/(2*sqrt(3))", "-sqrt(3),sqrt(3)").support
    (-sqrt(3), sqrt(3))
    >>> Density("1/2", (2, 0))
    Traceback (most recent call last):
    fltheory.exact.DomainError: support = 2,0 is outside the allowed range two numbers a,b \
with a < b
    """

    expr: Any
    support: Any
    #: the expression as sympy parsed it (in the symbol z)
    parsed: Any = field(init=False, repr=False, compare=False)

    name: ClassVar[str] = "density"
    model: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        from fltheory.engine.expressions import parse_expression

        try:
            ends: tuple[Any, ...] = read_rationals(self.support, "support")
        except DomainError:
            if not isinstance(self.support, str):
                raise
            ends = _exact_ends(self.support)
        if len(ends) != 2 or not bool(ends[0] < ends[1]):
            shown = (self.support if isinstance(self.support, str)
                     else ",".join(support_text(v) for v in ends))
            raise DomainError("support", shown, "two numbers a,b with a < b")
        settle(self, expr=str(self.expr), support=ends,
               parsed=parse_expression(self.expr, "density"))


def support_text(value: Any) -> str:
    """An end of a support as text: a rational as a fraction, a surd as sympy prints it.

    >>> from fractions import Fraction
    >>> support_text(Fraction(-3, 2))
    '-3/2'
    """
    from fractions import Fraction

    return fraction_str(value) if isinstance(value, Fraction) else str(value)


def _exact_ends(text: str) -> tuple[Any, ...]:
    """The ends "a,b" of a support written with exact surds ("-sqrt(3),sqrt(3)"): each a
    rational, or a real constant of the expression grammar (exact, no float); the text is split
    at the commas outside parentheses."""
    from fltheory.exact import parse_rational

    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    ends: list[Any] = []
    for part in (p.strip() for p in parts):
        try:
            ends.append(parse_rational(part, "support"))
            continue
        except DomainError:
            pass
        from fltheory.engine.expressions import parse_expression

        value = parse_expression(part, "support")
        if not value.is_number or not value.is_real or not value.is_finite:
            raise DomainError("support", text, "two exact numbers a,b with a < b (rationals or "
                              "constants such as sqrt(3))", reason=f"has {part}, not a number")
        ends.append(value)
    return tuple(ends)


@dataclass(frozen=True, eq=False)
class Sample:
    """A bulk given by n eigenvalues λ_1 <= … <= λ_n (a spectrum, or a sample of μ): its empirical
    Stieltjes transform G_n(z) = (1/n) Σ 1/(z − λ_i) stands for G
    (:func:`fltheory.engine.spectral.spikes.sample_spikes`). ``eigenvalues``: any sequence of
    real numbers or a numpy array, MIN_SAMPLE to MAX_SAMPLE finite values, not all equal; stored
    sorted as a float64 array. ``source``: the file they were read from (:meth:`from_file`), if
    any. Compared by identity.

    >>> s = Sample([k / 100 for k in range(-100, 101)])
    >>> s.n, s.lower, s.upper
    (201, -1.0, 1.0)
    >>> Sample([1.0] * 300)
    Traceback (most recent call last):
    fltheory.exact.DomainError: eigenvalues = 300 copies of 1.0 are a point mass; allowed: ...
    """

    eigenvalues: Any
    source: str | None = None

    name: ClassVar[str] = "sample"
    model: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        import numpy as np

        try:
            arr = np.asarray(self.eigenvalues, dtype=float).ravel()
        except (TypeError, ValueError):
            raise DomainError("eigenvalues", "this input", "real numbers",
                              reason="is not a list of real numbers") from None
        if not MIN_SAMPLE <= arr.size <= MAX_SAMPLE:
            raise DomainError("eigenvalues", f"{arr.size} values",
                              f"{MIN_SAMPLE} to {MAX_SAMPLE} eigenvalues",
                              reason="are too few to estimate a transform"
                              if arr.size < MIN_SAMPLE else "are too many")
        bad = np.flatnonzero(~np.isfinite(arr))
        if bad.size:
            raise DomainError("eigenvalues", f"value #{bad[0] + 1} ({arr[bad[0]]})",
                              "finite real numbers", reason="is not finite")
        arr = np.sort(arr)
        if arr[0] == arr[-1]:
            raise DomainError("eigenvalues", f"{arr.size} copies of {arr[0]}",
                              "eigenvalues that are not all equal", reason="are a point mass")
        settle(self, eigenvalues=arr, source=None if self.source is None else str(self.source))

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Sample:
        """The eigenvalues in the text file ``path`` (numbers separated by white space or
        commas, ``#`` starts a comment line; a regular file of at most MAX_FILE_BYTES:
        :func:`fltheory.args.read_number_file`)."""
        return cls(read_number_file(path, "eigenvalues", MAX_FILE_BYTES), source=str(path))

    @property
    def n(self) -> int:
        return int(self.eigenvalues.size)

    @property
    def lower(self) -> float:
        return float(self.eigenvalues[0])

    @property
    def upper(self) -> float:
        return float(self.eigenvalues[-1])


#: Any bulk of a spike query.
SpikeBulk = Semicircle | MarchenkoPastur | Density | Sample


def read_bulk(name: str | None = None, model: str = "additive", *, gamma: Any = None,
              density: Any = None, support: Any = None, eigenvalues: Any = None) -> SpikeBulk:
    """The bulk ``name`` (one of :data:`BULKS`) built from the options a command gives, each
    option allowed only with its own bulk: ``gamma`` with ``"mp"``, ``density`` and ``support``
    with ``"density"``, ``eigenvalues`` (a file of them, :meth:`Sample.from_file`, or the numbers
    themselves) with ``"sample"``. Without a name: ``"sample"`` when eigenvalues are given, else
    the closed form of ``model`` (semicircle for ``"additive"``, Marchenko–Pastur for
    ``"multiplicative"``).

    >>> read_bulk(None, "multiplicative", gamma="1/4")
    MarchenkoPastur(gamma=Fraction(1, 4))
    >>> read_bulk("semicircle", gamma="1/4")
    Traceback (most recent call last):
    fltheory.exact.DomainError: bulk = semicircle is outside the allowed range semicircle with \
the additive model and no γ
    """
    model = read_choice(model, "model", MODELS)
    if name is None:
        name = ("sample" if eigenvalues is not None else
                "semicircle" if model == "additive" else "mp")
    name = read_choice(name, "bulk", BULKS)
    if (name == "sample") != (eigenvalues is not None):
        raise DomainError("eigenvalues", eigenvalues, "--eigenvalues FILE with --bulk sample "
                          "(or alone), and only then")
    if name != "density" and (density is not None or support is not None):
        raise DomainError("density", density, "--density only with --bulk density")
    if name == "semicircle":
        if gamma is not None:
            raise DomainError("bulk", name, "semicircle with the additive model and no γ")
        return Semicircle()
    if name == "mp":
        if gamma is None:
            raise DomainError("gamma", None, "γ = p/n > 0 (required by --bulk mp)")
        return MarchenkoPastur(gamma)
    if gamma is not None:
        raise DomainError("gamma", gamma, "no γ with a sample of eigenvalues" if name == "sample"
                          else "no γ with --bulk density")
    if name == "sample":
        return (Sample.from_file(eigenvalues) if isinstance(eigenvalues, str | os.PathLike)
                else Sample(eigenvalues))
    if density is None or support is None:
        raise DomainError("density", density, "an expression and its support a,b (both given)")
    return Density(density, support)
