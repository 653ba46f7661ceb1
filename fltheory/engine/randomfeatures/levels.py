"""The levels of the random-feature spectrum and what every route shares: the result
records (:class:`RFLevel`, :class:`RFSpectrum`), the ranges of the arguments, the partial result
of one parity class of σ and the rule that counts confirmed digits."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import mpmath

from fltheory.args import read_count
from fltheory.engine.spherical import multiplicity as _multiplicity
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = ["AUTO_DPS", "FLOAT_MAX_DPS", "GUARD", "KMAX", "MAX_D", "MAX_JMAX", "MAX_L", "MAX_WORK",
           "Partial", "RFLevel", "RFSpectrum", "agreement", "level_zero", "multiplicity",
           "parity_reason"]

#: the one range of the harmonic degree l and of lmax, [0, MAX_L] (the work grows as lmax³)
MAX_L = 60


def multiplicity(d: int, l: int) -> int:
    """N(d, l), the multiplicity of the level λ_{l,j}, l in [0, MAX_L]
    (:func:`fltheory.engine.spherical.multiplicity`).

    >>> multiplicity(5, 2)
    14
    """
    return _multiplicity(d, l, MAX_L)


#: Largest d (N(d, l) and the log-Gamma ratios stay cheap far beyond 10^6).
MAX_D = 10**12
#: Largest radial index jmax.
MAX_JMAX = 20
#: Bound on the Nyström work (units of ~a multiply-add at the working precision, both passes),
#: checked before it starts. Measured on the 2-core machine under load: 2–8·10^{-7} s a unit
#: (tanh, d = 10^6, lmax 4, jmax 2, dps 30: 2.2e7 units, 8 s), so accepted requests stay
#: under about a minute.
MAX_WORK = 1e8
KMAX = 80  # largest Mehler truncation of the numeric route
#: Up to this dps the Nyström passes run in float64 (numpy; ~100× faster, measured: tanh at
#: d = 5 1.4 s against 22 s), their agreement still deciding the digits reported.
FLOAT_MAX_DPS = 10
FLOAT_SPEEDUP = 50.0
GUARD = 15


@dataclass(frozen=True)
class RFLevel:
    """λ_{l,j}: the j-th eigenvalue (descending) of the degree-l radial operator, multiplicity
    N(d, l). ``value`` is an mpmath number good to ``digits`` significant digits (all ``dps``
    on the exact routes); ``exact`` says it comes from a closed form (``closed``: the sympy
    value when d <= 1000 and the matrix is small, else None); ``method`` names the route
    ("exact:homogeneous", "exact:polynomial", "exact:piecewise", "nystrom", "zero:…");
    ``reason`` why a zero is exact."""

    l: int
    j: int
    value: Any
    multiplicity: int
    exact: bool
    digits: int
    method: str
    closed: Any = None
    reason: str = ""
    #: when ``digits`` is 0: a bound on |λ| (the value is below the error of its computation)
    error: Any = None

    def text(self, most: int = 15) -> str:
        """λ to its confirmed digits (at most ``most``); below its error: "< bound"."""
        if self.value == 0:
            return "0"
        if self.digits == 0 and self.error is not None:
            return "< " + mpmath.nstr(abs(self.value) + self.error, 1)
        return mpmath.nstr(self.value, max(1, min(self.digits, most)))



def parity_reason(parity: int) -> str:
    """Why a σ of this parity (1 even, −1 odd) has no spectrum at the other parity of l.

    >>> parity_reason(1)[:40]
    'σ is even: μ_k(r) = 0 for odd k and c_(k'
    """
    kind = "even" if parity == 1 else "odd"
    other = "odd" if parity == 1 else "even"
    return (f"σ is {kind}: μ_k(r) = 0 for {other} k and c_(k,l) = 0 unless k ≡ l (mod 2), so "
            f"every {other} l vanishes")



@dataclass(frozen=True)
class RFSpectrum(ShowsTable):
    """What :func:`spectrum` returns: the levels λ_{l,j} (l <= lmax, j <= jmax), the kernel
    trace E_w K(w, w) and the part Σ_{l<=lmax} N(d, l) tr R_l of it, the exact zeros and why.

    ``levels`` is a tuple of :class:`RFLevel` ordered by (l, j); ``trace`` and
    ``trace_captured`` are mpmath numbers at ``dps`` (``trace_exact`` the sympy value where
    σ is piecewise polynomial and d <= 1000); ``radial_traces[l]`` = tr R_l;
    ``vanishing`` the sentences saying which (l, j) are exactly 0 and why; ``method`` the
    route; ``notes`` the precision checks made.
    """

    sigma: str
    d: int
    scale: str
    dps: int
    lmax: int
    jmax: int
    method: str
    levels: tuple[RFLevel, ...]
    trace: Any
    trace_exact: Any
    radial_traces: tuple[Any, ...]
    trace_captured: Any
    vanishing: tuple[str, ...]
    notes: tuple[str, ...] = field(default=())
    #: significant digits confirmed of ``trace`` and of ``trace_captured`` (<= dps)
    trace_digits: int | None = None
    captured_digits: int | None = None

    def level(self, l: int, j: int) -> RFLevel:
        """The :class:`RFLevel` of (l, j) (DomainError outside l <= lmax, j <= jmax)."""
        l = read_count(l, "l", 0, self.lmax)
        j = read_count(j, "j", 0, self.jmax)
        return self.levels[l * (self.jmax + 1) + j]

    def eigenvalue(self, l: int, j: int = 0) -> Any:
        """λ_{l,j} as an mpmath number (see :meth:`level` for its digits and route)."""
        return self.level(l, j).value

    def __iter__(self) -> Iterator[RFLevel]:
        return iter(self.levels)

    def __len__(self) -> int:
        return len(self.levels)

    @property
    def confirmed_trace_digits(self) -> tuple[int, int]:
        """Digits confirmed of ``trace`` and of ``trace_captured`` (at least 1 shown)."""
        return (max(1, self.dps if self.trace_digits is None else self.trace_digits),
                max(1, self.dps if self.captured_digits is None else self.captured_digits))

    @property
    def trace_share(self) -> Any:
        """trace_captured / trace (1 when the trace is 0)."""
        with mpmath.workdps(self.dps):
            return self.trace_captured / self.trace if self.trace else mpmath.mpf(1)

    def as_json(self) -> dict[str, Any]:
        """Plain JSON-friendly fields (numbers as strings at ``dps`` digits)."""
        def num(x: Any) -> str:
            return str(mpmath.nstr(x, self.dps))

        return {
            "sigma": self.sigma, "d": self.d, "scale": self.scale, "dps": self.dps,
            "lmax": self.lmax, "jmax": self.jmax, "method": self.method,
            "levels": [{"l": v.l, "j": v.j, "value": v.text(self.dps),
                        "multiplicity": v.multiplicity, "exact": v.exact, "digits": v.digits,
                        "method": v.method,
                        "closed": None if v.closed is None else str(v.closed),
                        "reason": v.reason} for v in self.levels],
            "trace": str(mpmath.nstr(self.trace, self.confirmed_trace_digits[0])),
            "trace_digits": self.confirmed_trace_digits[0],
            "trace_exact": None if self.trace_exact is None else str(self.trace_exact),
            "radial_traces": [num(t) for t in self.radial_traces],
            "trace_captured": str(mpmath.nstr(self.trace_captured,
                                              self.confirmed_trace_digits[1])),
            "vanishing": list(self.vanishing), "notes": list(self.notes),
        }

    def __repr__(self) -> str:
        shown = ", ".join(f"λ_{v.l},{v.j}={mpmath.nstr(v.value, 8)}" for v in self.levels
                          if v.value != 0)
        return (f"RFSpectrum(sigma={self.sigma}, d={self.d}, scale={self.scale}, "
                f"{self.method}: {shown or 'all zero'})")

    def table(self) -> Table:
        """l, j, N(d, l), λ_{l,j} (to its digits), exact closed form, digits, route."""
        rows = []
        for v in self.levels:
            shown = v.text()
            rows.append([str(v.l), str(v.j), str(v.multiplicity), shown,
                         "-" if v.closed is None else str(v.closed), str(v.digits), v.method])
        tdig, cdig = self.confirmed_trace_digits
        notes = [*self.vanishing,
                 f"trace E_w K(w,w) = {mpmath.nstr(self.trace, min(tdig, 15))}; l <= {self.lmax} "
                 f"carry {mpmath.nstr(self.trace_captured, min(cdig, 15))} "
                 f"(share {mpmath.nstr(self.trace_share, min(tdig, cdig, 8))})", *self.notes]
        return Table(columns=["l", "j", "N(d,l)", "λ_l,j", "closed form", "digits", "route"],
                     rows=rows,
                     caption=(f"Random-feature spectrum, σ = {self.sigma}, d = {self.d}, "
                              f"s = {self.scale} (m → ∞)"),
                     notes=notes)


def level_zero(l: int, j: int, N: int, dps: int, method: str, reason: str) -> RFLevel:
    """The level (l, j) that is exactly 0, with the route and the reason that make it so.

    >>> level_zero(3, 0, 7, 30, "exact", "parity").value
    mpf('0.0')
    """
    return RFLevel(l, j, mpmath.mpf(0), N, True, dps, method, 0, reason)


#: the precisions tried, highest first, by ``spectrum(..., dps=None)``
AUTO_DPS = (15, 10, 6, 5)


@dataclass
class Partial:
    """Levels, radial traces and trace of one parity class of σ (or of all of σ)."""

    levels: dict[int, list[RFLevel]]
    traces: dict[int, Any]
    trace: Any
    trace_exact: Any
    vanishing: list[str]
    notes: list[str]
    method: str
    #: digits confirmed of ``trace`` and of each ``traces[l]`` (None: all the dps)
    trace_digits: int | None = None
    traces_digits: dict[int, int] = field(default_factory=dict)



def agreement(a: Any, b: Any, bound: Any, dps: int) -> int:
    """Significant digits of ``b`` confirmed by a second value ``a`` and an error ``bound``
    (at most ``dps``; 0 when the error reaches |b|).

    >>> agreement(mpmath.mpf("1.2345"), mpmath.mpf("1.2346"), 0, 30)
    4
    """
    err = abs(a - b) + bound
    if err == 0:
        return dps
    if b == 0:
        return 0
    return int(min(dps, max(0, mpmath.floor(-mpmath.log10(err / abs(b))))))

