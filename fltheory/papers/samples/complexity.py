r"""From a single-index link's exponents to the sample size each algorithm needs.

Target: y = g(⟨w*, x⟩) + ε, x ~ N(0, I_d), ‖w*‖ = 1, ε independent of x (noise σ >= 0,
Gaussian). The two exponents come from the Hermite engine (:mod:`fltheory.engine.hermite`, the
same functions as ``fltheory exponent``; orthonormal h_k = He_k/√(k!)):

* the **information exponent** k = min{k >= 1 : E[g(z) h_k(z)] ≠ 0} (Ben Arous, Gheissari &
  Jagannath 2021);
* the **generative exponent** k* = min{k >= 1 : E[h_k(z) | y] ≠ 0} (Damian, Pillaud-Vivien, Lee &
  Bruna 2024), k* <= k.

**Noise.** Neither exponent depends on an independent additive noise whose characteristic
function has no zero (Gaussian ε with σ > 0): E[y h_k] = E[g h_k] since E[ε] = 0, and
E[h_k(z) | y] p(y) is the convolution of the signed measure g_#(h_k φ) with the law of ε, which
vanishes iff that measure does (the convolution with a Gaussian is injective), i.e. iff
E[h_k(z) | g(z)] = 0. (This derivation is ours; the sources state their results for general
noisy or deterministic links.) The noise changes the constants, not the powers of d.

The rows (each as its source states it; n counts samples, ≍ up to constants, Õ also up to
powers of log d where the source has them):

* **online SGD** (Ben Arous, Gheissari & Jagannath 2021, JMLR, main theorem on the sample
  complexity of online SGD for single-index models): with the student's activation equal to g,
  correlation or square loss, one fresh sample per step from a uniform start on the sphere,
  n ≍ d for k = 1, d log d for k = 2 and d^{k−1} for k >= 3 suffice for weak recovery (overlap
  bounded away from 0), and these orders are necessary for online SGD; strong recovery then
  follows within the same order.
* **smoothed online SGD** (Damian, Nichani, Ge & Lee 2023, NeurIPS, Theorem 1): online SGD on a
  smoothed loss learns w* with n ≳ d^{k/2} (k >= 3; logarithmic factors as in the theorem),
  matching the **CSQ lower bound** n ≳ d^{k/2} for correlational statistical queries; for
  k <= 2 the information-theoretic d dominates.
* **SQ / low-degree lower bound** (Damian, Pillaud-Vivien, Lee & Bruna 2024, COLT, Section 3):
  any SQ or low-degree-polynomial algorithm needs n ≳ d^{k*/2}; and n ≳ d for any estimator.
* **partial-trace (label-transformed spectral) estimator** (same paper, Section 4): n ≍
  d^{max(k*/2, 1)} (up to log factors) suffices, matching the lower bound: a
  computational-statistical gap whenever k* > 2.
* **GD reusing its batch** (Dandi et al. 2024; Lee, Oko, Suzuki & Wu 2024; Arnaboldi et al.
  2024): reusing samples makes the label transformation implicit, so the generative exponent
  replaces the information exponent: Õ(d) samples for k* <= 2 (Lee et al.: polynomial links,
  which all have k* <= 2; Arnaboldi et al.: O(d log d) steps; Dandi et al.: two steps on one
  batch of n = O(d)). For k* >= 3 these sources give no matching upper bound: open, and the
  SQ bound d^{k*/2} still applies.
* **information-theoretic** (same 2024 paper, Section 6): n ≍ d (inefficient estimator).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = [
    "ALGORITHMS",
    "Row",
    "SampleTable",
    "Scale",
    "online_sgd_scale",
    "rows_for",
    "sample_table",
]

#: the algorithms, in the order of the table
ALGORITHMS = ("online SGD", "smoothed online SGD", "CSQ lower bound", "SQ / low-degree bound",
              "partial-trace spectral", "batch-reusing GD", "information-theoretic")


@dataclass(frozen=True)
class Scale:
    """A sample order n ≍ d^power (log d)^log_power: ``power`` an exact rational, ``log_power``
    a whole number (constants are dropped)."""

    power: Fraction
    log_power: int = 0

    def text(self) -> str:
        """Plain text: ``d^2``, ``d log d``, ``d^(3/2)``."""
        p = self.power
        base = "d" if p == 1 else ("1" if p == 0 else f"d^{p}" if p.denominator == 1
                                                else f"d^({p})")
        return base + ("" if self.log_power == 0 else " log d" if self.log_power == 1
                       else f" (log d)^{self.log_power}")

    def latex(self) -> str:
        """LaTeX: ``$d^{2}$``, ``$d\\log d$``."""
        p = self.power
        base = "d" if p == 1 else f"d^{{{p}}}" if p.denominator == 1 \
            else rf"d^{{{p.numerator}/{p.denominator}}}"
        return f"${base}" + ("" if self.log_power == 0 else r"\log d" if self.log_power == 1
                             else rf"(\log d)^{{{self.log_power}}}") + "$"


def online_sgd_scale(k: int) -> Scale:
    """Ben Arous, Gheissari & Jagannath (2021): d (k = 1), d log d (k = 2), d^{k−1} (k >= 3).

    >>> [online_sgd_scale(k).text() for k in (1, 2, 3, 4)]
    ['d', 'd log d', 'd^2', 'd^3']
    """
    if k < 1:
        raise ValueError("the information exponent is >= 1")
    if k == 1:
        return Scale(Fraction(1))
    if k == 2:
        return Scale(Fraction(1), 1)
    return Scale(Fraction(k - 1))


def _half(k: int) -> Scale:
    """d^{max(k/2, 1)}: the CSQ/SQ orders, never below the information-theoretic d."""
    return Scale(max(Fraction(k, 2), Fraction(1)))


@dataclass(frozen=True)
class Row:
    """One algorithm: the sample ``scale`` (None: open or undecided, see ``note``), what kind of
    statement it is (``kind``: sufficient, necessary, tight, open), the ``exponent`` it rests
    on with its value, the ``recovery`` notion, the ``source`` and its ``assumptions``."""

    algorithm: str
    scale: Scale | None
    kind: str
    exponent: str
    recovery: str
    source: str
    assumptions: str
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        """The row as JSON (the scale as text and as its power and log power)."""
        return {"algorithm": self.algorithm,
                "scale": None if self.scale is None else self.scale.text(),
                "power": None if self.scale is None else str(self.scale.power),
                "log_power": None if self.scale is None else self.scale.log_power,
                "kind": self.kind, "exponent": self.exponent, "recovery": self.recovery,
                "source": self.source, "assumptions": self.assumptions, "note": self.note}


_WEAK = "weak (overlap bounded away from 0)"
_BAGJ = "Ben Arous, Gheissari & Jagannath 2021 (JMLR)"
_DNGL = "Damian, Nichani, Ge & Lee 2023 (NeurIPS), Theorem 1"
_DPLB = "Damian, Pillaud-Vivien, Lee & Bruna 2024 (COLT)"
_REUSE = "Dandi et al. 2024; Lee, Oko, Suzuki & Wu 2024; Arnaboldi et al. 2024"


def rows_for(k: int | None, k_gen: int | None, kmax: int) -> list[Row]:
    """The table's rows for information exponent ``k`` and generative exponent ``k_gen``
    (None: no non-zero found up to ``kmax``).

    >>> [r.scale.text() for r in rows_for(3, 1, 8)]
    ['d^2', 'd^(3/2)', 'd^(3/2)', 'd', 'd', 'd', 'd']
    """
    ki = f"information exponent k = {k if k is not None else f'> {kmax}'}"
    kg = f"generative exponent k* = {k_gen if k_gen is not None else f'> {kmax}'}"
    undecided = f"no non-zero found up to kmax = {kmax}: at least the order at k = {kmax + 1}"
    rows = [
        Row("online SGD", None if k is None else online_sgd_scale(k),
            "tight for online SGD", ki, _WEAK + "; strong recovery within the same order",
            _BAGJ, "student activation = g, correlation or square loss, one fresh sample per "
                   "step, uniform start on the sphere, step size scaled with d as in the theorem",
            "" if k is not None else undecided),
        Row("smoothed online SGD",
            None if k is None else (_half(k) if k >= 3 else online_sgd_scale(k)),
            "sufficient", ki, _WEAK + " (then strong)", _DNGL,
            "online SGD on a smoothed (averaged over a sphere) correlation loss, two-stage "
            "step-size/smoothing schedule; Õ: log factors as in the theorem",
            "" if k is None or k >= 3 else "no gain over online SGD for k <= 2"),
        Row("CSQ lower bound", None if k is None else _half(k), "necessary", ki,
            _WEAK, f"{_DNGL} (CSQ argument)",
            "correlational statistical queries (gradient methods on correlation/square loss "
            "with fresh samples); n ≳ d always (information-theoretic)",
            "" if k is not None else undecided),
        Row("SQ / low-degree bound", None if k_gen is None else _half(k_gen), "necessary", kg,
            _WEAK, f"{_DPLB}, Section 3",
            "statistical-query and low-degree-polynomial algorithms; n ≳ d always",
            "" if k_gen is not None else undecided),
        Row("partial-trace spectral", None if k_gen is None else _half(k_gen),
            "sufficient (matches the SQ bound)", kg, _WEAK, f"{_DPLB}, Section 4",
            "knows the joint law of (y, z); label transformation T(y) by the k*-th Hermite "
            "tensor, up to log factors",
            "" if k_gen is not None else undecided),
        Row("batch-reusing GD",
            Scale(Fraction(1)) if k_gen is not None and k_gen <= 2 else None,
            "sufficient, up to polylog d" if k_gen is not None and k_gen <= 2 else "open",
            kg, _WEAK + " (then strong)", _REUSE,
            "GD/SGD that reuses each sample (two steps on one batch, or each minibatch twice); "
            "Õ(d) shown for k* <= 2 (polynomial links: Lee et al.)",
            "" if k_gen is not None and k_gen <= 2 else
            "k* >= 3 (or undecided): no upper bound in these sources; the SQ bound d^{k*/2} "
            "applies"),
        Row("information-theoretic", Scale(Fraction(1)), "tight (any estimator)",
            "none (d parameters)", "weak and strong", f"{_DPLB}, Section 6",
            "computationally inefficient estimator"),
    ]
    return rows


@dataclass(frozen=True)
class SampleTable(ShowsTable):
    """The sample-complexity table of one link: its ``information`` and ``generative``
    exponents (:class:`fltheory.engine.hermite.Exponent`) and the ``rows``."""

    link: str
    function: str
    noise: Fraction
    kmax: int
    information: Any
    generative: Any
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = field(default=())

    def row(self, algorithm: str) -> Row:
        """The row of ``algorithm`` (one of :data:`ALGORITHMS`)."""
        return next(r for r in self.rows if r.algorithm == algorithm)

    def table(self) -> Table:
        """The rows as a table; the assumptions and exponents' reasons in its notes."""
        cols = ["algorithm", "n ≍", "kind", "exponent", "recovery", "source"]
        rows = [[r.algorithm, "open" if r.scale is None else r.scale.text(), r.kind,
                 r.exponent, r.recovery, r.source] for r in self.rows]
        latex_rows = [[r.algorithm, "open" if r.scale is None else r.scale.latex(), r.kind,
                       r.exponent.replace("k* =", "$k^*$ =").replace("k =", "$k$ ="),
                       r.recovery, r.source] for r in self.rows]
        return Table(columns=cols, rows=rows, latex_rows=latex_rows,
                     caption=(f"Samples n needed to recover w* for y = g(w*·x) + noise, g(z) = "
                              f"{self.function}: information exponent {self.information}, "
                              f"generative exponent {self.generative}"),
                     label="tab:samples", align="llllll",
                     notes=[f"{r.algorithm}: {r.assumptions}" + (f"; {r.note}" if r.note
                                                                   else "")
                            for r in self.rows] + list(self.notes))


def sample_table(g: str, noise: Fraction | int = 0, kmax: int = 8, dps: int = 20
                 ) -> SampleTable:
    """The table for the link ``g`` (the grammar and catalogue of ``fltheory exponent``) with
    additive Gaussian noise of standard deviation ``noise`` (>= 0; it changes no exponent, see
    the module docstring). ``kmax`` and ``dps`` are the engine's (kmax in [1, 40]).

    >>> t = sample_table("He3", kmax=4, dps=15)
    >>> t.row("online SGD").scale.text(), t.row("batch-reusing GD").scale.text()
    ('d^2', 'd')
    """
    from fltheory.engine.hermite import expansion, generative_exponent, information_exponent
    from fltheory.exact import DomainError

    noise = Fraction(noise)
    if noise < 0:
        raise DomainError("noise", noise, "σ >= 0")
    e = expansion(g, kmax, dps)
    info = information_exponent(e.function, kmax, dps, e)
    gen = generative_exponent(e.function, kmax, dps, e)
    notes = [f"information exponent: {info.reason}", f"generative exponent: {gen.reason}"]
    for ex in (info, gen):
        if ex.near_zero:
            notes.append(f"{ex.kind} exponent undecided at dps = {dps}: coefficients "
                         f"{', '.join(f'k = {k}' for k in ex.near_zero)} are near zero (see "
                         "the reason above for their size); raise --dps to resolve them")
    if noise:
        notes.append(f"noise σ = {noise}: independent additive Gaussian noise changes neither "
                     "exponent (E[y h_k] = E[g h_k]; E[h_k | y] is a Gaussian convolution of "
                     "E[h_k | g], zero iff it is), only the constants")
    return SampleTable(g, str(e.function.expr), noise, kmax, info, gen,
                       tuple(rows_for(info.value, gen.value, kmax)), tuple(notes))
