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

The rows (each as its source states it, from what was read: the sources' abstracts and
introductions through the ``search`` tool, quoted in each row's ``read`` field; theorem numbers
and log powers not printed there are not claimed; n counts samples, ≍ up to constants):

* **online SGD** (Ben Arous, Gheissari & Jagannath 2021, JMLR): online SGD from a random start,
  one fresh sample per step; "nearly sharp thresholds" (sharp up to log factors) for the samples
  needed, governed by the information exponent k of the population loss; "almost all of the data
  is used in the initial search phase", after which the descent is rapid (weak, then strong
  recovery). Restated by Damian et al. 2023 as "n ≳ d^{k−1} samples suffice ... and this is tight
  for online SGD" and by later work as n ≳ d^{max(1, k−1)} "necessary and sufficient for online
  SGD"; for k = 2 (quadratic link) the order is d log d ("one-pass SGD requires n ≳ d log d samples
  to achieve weak recovery", 2026 full-batch-GD paper, arXiv 2602.02431).
* **smoothed online SGD** (Damian, Nichani, Ge & Lee 2023, NeurIPS): "online SGD on a smoothed
  loss learns w* with n ≳ d^{k/2} samples" (k >= 3; for k <= 2 the d of any estimator dominates,
  restated later as d^{max(1, k/2)}); log factors not in the text read.
* **CSQ lower bound** (same paper): "the CSQ lower bound for gradient based methods only shows that
  n ≳ d^{k/2} samples are necessary".
* **SQ / low-degree bound** (Damian, Pillaud-Vivien, Lee & Bruna 2024, COLT): algorithms in the SQ
  and low-degree-polynomial classes "necessarily require Ω(d^{k*/2}) samples"; with the
  information-theoretic d the table prints d^{max(k*/2, 1)}.
* **partial-trace estimator** (same paper): "this sample complexity is also sufficient ... using a
  partial-trace algorithm": a computational-statistical gap whenever k* > 2.
* **GD reusing its batch**: Lee, Oko, Suzuki & Wu 2024 (NeurIPS): a two-layer network trained by
  SGD that reuses its minibatch, squared loss: n ≃ T = Θ(d·polylog d) for every polynomial link,
  and "more generally n ≳ d^{(k*−1) ∨ 1} samples are sufficient", k* the generative exponent —
  the online-SGD law with k* in place of k. Arnaboldi et al. 2024 ("Repetita iuvant"): two
  gradient steps per sample learn "(almost) all directions ... with at most O(d log d) steps"
  (exceptions include sparse parities). Dandi et al. 2024 (ICML): multi-pass GD with a finite
  step reaches an overlap with the target subspace "in just two time steps", beyond the
  information and leap exponents (a DMFT analysis: n ∝ d, our reading of the regime). Whether
  reuse reaches the SQ order d^{k*/2} for k* >= 3 is not settled in these sources.
* **information-theoretic** (Damian, Pillaud-Vivien, Lee & Bruna 2024): "the
  information-theoretic sample complexity to recover the hidden direction is linear in the
  dimension" (an inefficient estimator).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fltheory.papers.samples.params import Link
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = [
    "ALGORITHMS",
    "Row",
    "SampleTable",
    "Scale",
    "link_table",
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
    on with its value, the ``recovery`` notion, the ``source`` and its ``assumptions``, and
    ``read``: what of the source was read to state the row (quoted, with where)."""

    algorithm: str
    scale: Scale | None
    kind: str
    exponent: str
    recovery: str
    source: str
    assumptions: str
    note: str = ""
    read: str = ""

    def as_json(self) -> dict[str, Any]:
        """The row as JSON (the scale as text and as its power and log power)."""
        return {"algorithm": self.algorithm,
                "scale": None if self.scale is None else self.scale.text(),
                "power": None if self.scale is None else str(self.scale.power),
                "log_power": None if self.scale is None else self.scale.log_power,
                "kind": self.kind, "exponent": self.exponent, "recovery": self.recovery,
                "source": self.source, "assumptions": self.assumptions, "note": self.note,
                "read": self.read}


_WEAK = "weak (overlap bounded away from 0)"
_BAGJ = "Ben Arous, Gheissari & Jagannath 2021 (JMLR 22), arXiv 2003.10409"
_DNGL = "Damian, Nichani, Ge & Lee 2023 (NeurIPS), arXiv 2305.10633"
_DPLB = "Damian, Pillaud-Vivien, Lee & Bruna 2024 (COLT, PMLR 247), arXiv 2403.05529"
_REUSE = ("Lee, Oko, Suzuki & Wu 2024 (NeurIPS), arXiv 2406.01581; Arnaboldi, Dandi, Krzakala, "
          "Pesce & Stephan 2024, arXiv 2405.15459; Dandi et al. 2024 (ICML, PMLR 235), "
          "arXiv 2402.03220")

#: what was read for each row (abstracts and introductions, through the search tool)
READ = {
    "online SGD": (
        "BAGJ abstract: 'nearly sharp thresholds for the number of samples needed ... depend only "
        "on ... the information exponent'; 'almost all of the data is used simply in the initial "
        "search phase'. DNGL 2023 abstract: 'Ben Arous et al. showed that n ≳ d^{k−1} samples "
        "suffice ... and that this is tight for online SGD'. arXiv 2602.02431 abstract (quadratic "
        "link, k = 2): 'one-pass SGD requires n ≳ d log d samples to achieve weak recovery'. The "
        "step-size schedule and the exact log powers of the theorem were not read."),
    "smoothed online SGD": (
        "DNGL 2023 abstract: 'online SGD on a smoothed loss learns w* with n ≳ d^{k/2} samples'; "
        "restated later as n ≳ d^{max(1, k/2)}, 'optimal in the worst case'. Log factors of the "
        "theorem not read."),
    "CSQ lower bound": (
        "DNGL 2023 abstract: 'the CSQ lower bound for gradient based methods only shows that "
        "n ≳ d^{k/2} samples are necessary'."),
    "SQ / low-degree bound": (
        "DPLB 2024 abstract: 'efficient algorithms, both within the SQ and the Low-Degree "
        "Polynomial framework, necessarily require Ω(d^{k*/2}) samples'."),
    "partial-trace spectral": (
        "DPLB 2024 abstract: 'this sample complexity is also sufficient, by establishing matching "
        "upper bounds using a partial-trace algorithm'; 'a sharp computational-to-statistical gap "
        "... whenever k* > 2'."),
    "batch-reusing GD": (
        "Lee et al. 2024 abstract: 'for arbitrary polynomial single-index models ... n ≃ T = "
        "Θ(d·polylog d)'; 'more generally, n ≳ d^{(p*−1) ∨ 1} samples are sufficient ..., p* ≤ p "
        "the generative exponent'; 'reuse of minibatch in the gradient computation'. Arnaboldi "
        "et al. 2024 abstract: '(almost) all directions are learned with at most O(d log d) "
        "steps. Among the exceptions is a set of hard functions that includes sparse parities'. "
        "Dandi et al. 2024 abstract: 'multi-pass GD with finite stepsize ... achieves in just two "
        "time steps an overlap with the target subspace'."),
    "information-theoretic": (
        "DPLB 2024 abstract: 'the information-theoretic sample complexity to recover the hidden "
        "direction is linear in the dimension d'."),
}


def _reuse(k_gen: int | None) -> Scale | None:
    """Lee, Oko, Suzuki & Wu 2024: d^{max(k* − 1, 1)}, up to polylog d."""
    return None if k_gen is None else Scale(Fraction(max(k_gen - 1, 1)))


def rows_for(k: int | None, k_gen: int | None, kmax: int) -> list[Row]:
    """The table's rows for information exponent ``k`` and generative exponent ``k_gen``
    (None: no non-zero found up to ``kmax``).

    >>> [r.scale.text() for r in rows_for(3, 1, 8)]
    ['d^2', 'd^(3/2)', 'd^(3/2)', 'd', 'd', 'd', 'd']
    >>> rows_for(4, 4, 8)[5].scale.text()
    'd^3'
    """
    ki = f"information exponent k = {k if k is not None else f'> {kmax}'}"
    kg = f"generative exponent k* = {k_gen if k_gen is not None else f'> {kmax}'}"
    undecided = f"no non-zero found up to kmax = {kmax}: at least the order at k = {kmax + 1}"
    gap = k_gen is not None and k_gen >= 3
    rows = [
        Row("online SGD", None if k is None else online_sgd_scale(k),
            "tight for online SGD, up to log factors", ki,
            _WEAK + "; then strong recovery (the descent is rapid once the overlap is "
                    "non-trivial)",
            _BAGJ, "online SGD from a uniform random start, one fresh sample per step, loss "
                   "whose population landscape has information exponent k (e.g. correlation "
                   "or square loss with student activation g); step size scaled with d as in "
                   "the theorem",
            "" if k is not None else undecided),
        Row("smoothed online SGD",
            None if k is None else (_half(k) if k >= 3 else online_sgd_scale(k)),
            "sufficient", ki, _WEAK + " (then strong)", _DNGL,
            "online SGD on a smoothed loss (the loss averaged over a sphere around the "
            "iterate); log factors as in the theorem (not read)",
            "" if k is None or k >= 3 else "no gain over online SGD for k <= 2"),
        Row("CSQ lower bound", None if k is None else _half(k), "necessary", ki,
            _WEAK, f"{_DNGL} (CSQ argument)",
            "correlational statistical queries (gradient methods on correlation/square loss "
            "with fresh samples); n ≳ d always (information-theoretic)",
            "" if k is not None else undecided),
        Row("SQ / low-degree bound", None if k_gen is None else _half(k_gen), "necessary", kg,
            _WEAK, _DPLB,
            "statistical-query and low-degree-polynomial algorithms: Ω(d^{k*/2}); n ≳ d always",
            "" if k_gen is not None else undecided),
        Row("partial-trace spectral", None if k_gen is None else _half(k_gen),
            "sufficient (matches the SQ bound)", kg, _WEAK, _DPLB,
            "knows the joint law of (y, z); label transformation by the k*-th Hermite "
            "tensor (partial trace); log factors not read",
            "" if k_gen is not None else undecided),
        Row("batch-reusing GD", _reuse(k_gen),
            "sufficient, up to polylog d" if k_gen is not None else "undecided",
            kg, _WEAK + " (then strong)", _REUSE,
            "two-layer network, SGD on the squared loss reusing each minibatch (Lee et al.: "
            "d^{max(k*−1, 1)}, Θ(d polylog d) for polynomial links; Arnaboldi et al.: two "
            "steps per sample, O(d log d) steps for almost all targets; Dandi et al.: two GD "
            "steps on one batch)",
            (undecided if k_gen is None else
             f"above the SQ order d^{{{Fraction(k_gen, 2)}}} for k* = {k_gen}: whether reuse "
             "reaches it is not settled in these sources" if gap else "")),
        Row("information-theoretic", Scale(Fraction(1)), "tight (any estimator)",
            "none (d parameters)", "weak and strong", _DPLB,
            "computationally inefficient estimator"),
    ]
    return [Row(r.algorithm, r.scale, r.kind, r.exponent, r.recovery, r.source, r.assumptions,
                r.note, READ[r.algorithm]) for r in rows]


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
    #: g(z) by sympy's LaTeX printer (the caption of --format latex)
    function_latex: str = ""

    def row(self, algorithm: str) -> Row:
        """The row of ``algorithm`` (one of :data:`ALGORITHMS`)."""
        return next(r for r in self.rows if r.algorithm == algorithm)

    def table(self) -> Table:
        """The rows as a table that fits 100 columns of text: short cells (the exponent as
        k = …, the recovery as weak / weak, then strong), the sources as numbered notes [1], [2],
        … below it, then each row's assumptions and the exponents' reasons, each note whole
        (``fltheory samples`` prints text wrapped at 100 columns by the renderer's rule,
        :func:`fltheory.render.text.wrap_line`; LaTeX: the kind and recovery as paragraph
        columns, g(z) in the caption from sympy's LaTeX printer)."""
        from fltheory.render.latex import latex_escape

        sources: list[str] = []
        for r in self.rows:
            if r.source not in sources:
                sources.append(r.source)
        cols = ["algorithm", "n ≍", "kind", "exponent", "recovery", "source"]
        rows, latex_rows = [], []
        for r in self.rows:
            mark = f"[{sources.index(r.source) + 1}]"
            kind = r.kind.replace(" for online SGD", "").replace(" (matches the SQ bound)",
                                                                   " (= SQ bound)")
            exponent = r.exponent.split(" exponent ")[-1] if " exponent " in r.exponent \
                else r.exponent.split(" (")[0]
            recovery = ("weak and strong" if r.recovery.startswith("weak and strong") else
                        "weak, then strong" if "then strong" in r.recovery else "weak")
            rows.append([r.algorithm, "open" if r.scale is None else r.scale.text(), kind,
                         exponent, recovery, mark])
            latex_rows.append([latex_escape(r.algorithm),
                               "open" if r.scale is None else r.scale.latex(),
                               latex_escape(kind), _latex_exponent(exponent),
                               latex_escape(recovery), mark])
        notes = ([f"[{i + 1}] {src}" for i, src in enumerate(sources)]
                 + ["weak: overlap bounded away from 0; strong: overlap → 1"]
                 + [f"{r.algorithm}: {r.assumptions}" + (f"; {r.note}" if r.note else "")
                    for r in self.rows] + list(self.notes))
        caption = (f"Samples n to recover w* for y = g(w*·x) + noise (information exponent "
                   f"{self.information}, generative {self.generative})")
        function = self.function_latex or latex_escape(self.function)
        return Table(columns=cols, rows=rows, latex_rows=latex_rows,
                     latex_columns=["algorithm", "$n \\asymp$", "kind", "exponent",
                                    "recovery", "source"],
                     caption=caption,
                     latex_caption=(f"Samples $n$ to recover $w^*$ for $y = g(w^*\\cdot x) + "
                                    f"\\varepsilon$, $g(z) = {function}$: information "
                                    f"exponent $k = {self.information}$, generative exponent "
                                    f"$k^* = {self.generative}$"),
                     label="tab:samples", align="llp{3.2cm}lp{2.2cm}l",
                     notes=notes,
                     latex_notes=[latex_escape(n) for n in notes])


def _latex_exponent(text: str) -> str:
    """``k = 3`` → ``$k = 3$``, ``k* = > 8`` → ``$k^* > 8$``."""
    if not text.startswith(("k ", "k* ")):
        return text
    symbol, _, value = text.partition(" = ")
    value = value.replace(">", "").strip()
    relation = ">" if ">" in text else "="
    return f"${'k^*' if symbol == 'k*' else 'k'} {relation} {value}$"


def sample_table(g: str, noise: Fraction | int = 0, kmax: int = 8, dps: int = 20
                 ) -> SampleTable:
    """The table for the link ``g`` (the grammar and catalogue of ``fltheory exponent``) with
    additive Gaussian noise of standard deviation ``noise`` (>= 0; it changes no exponent, see
    the module docstring). ``kmax`` (in [1, 40]) and ``dps`` (in [5, 100]) are the engine's:
    :func:`link_table` of the :class:`~fltheory.papers.samples.params.Link` they make.

    >>> t = sample_table("He3", kmax=4, dps=15)
    >>> t.row("online SGD").scale.text(), t.row("batch-reusing GD").scale.text()
    ('d^2', 'd')
    """
    return link_table(Link(g, noise, kmax, dps))


def link_table(link: Link) -> SampleTable:
    """The sample-complexity table of a link read once
    (:class:`~fltheory.papers.samples.params.Link`): its two exponents from the Hermite engine
    and one row per algorithm.

    >>> t = link_table(Link("He4", kmax=4, dps=15))
    >>> t.row("online SGD").scale.text(), t.row("SQ / low-degree bound").scale.text()
    ('d^3', 'd')
    """
    from fltheory.engine.hermite import expansion, generative_exponent, information_exponent

    g, noise, kmax, dps = link.g, link.noise, link.kmax, link.dps
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
        from fltheory.engine.spectral.spikes import short_fraction

        notes.append(f"noise σ = {short_fraction(noise)}: independent additive Gaussian noise "
                     "changes neither exponent (E[y h_k] = E[g h_k]; E[h_k | y] is a Gaussian "
                     "convolution of E[h_k | g], zero iff it is), only the constants")
    import sympy as sp

    return SampleTable(g, str(e.function.expr), noise, kmax, info, gen,
                       tuple(rows_for(info.value, gen.value, kmax)), tuple(notes),
                       sp.latex(e.function.expr))
