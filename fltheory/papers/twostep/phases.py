r"""Two steps of gradient descent in a linear-width two-layer network (Moniri & Hassani 2026).

Source: Moniri & Hassani (2026), *Feature Learning in Linear-Width Two-Layer Networks: Two vs.
One Step of Gradient Descent*, arXiv 2605.17767.

Model (the paper's, restated): :math:`f(x) = a^\top\sigma(Wx)`, :math:`x \sim N(0, I_d)`, N hidden
units, n samples, :math:`N \asymp n \asymp d`; :math:`W_0` and :math:`a_0` Gaussian, a stays
:math:`a_0`; correlation loss; two full-batch GD steps on W with learning rates
:math:`\eta_1 \asymp N^{\alpha_1}`, :math:`\eta_2 \asymp N^{\alpha_2}`,
:math:`\alpha_1, \alpha_2 \in [0, 1/2)`.

For a σ whose Hermite expansion has degree L the second update is a finite sum of L terms; the
k-th (k = 0, …, L − 1) scales as :math:`N^{\alpha_2 + k(\alpha_1 - 1/2)}` times a matrix whose
spike is O(1), so it is a spectral outlier when its exponent is positive. The k = 0 term
merges with the spike of the first step, so

.. math::

    \Lambda(\alpha_1, \alpha_2; L)
      = \min\Bigl(L - 1, \Bigl\lfloor \frac{\alpha_2}{1/2 - \alpha_1} \Bigr\rfloor\Bigr)

counts the outliers of :math:`W_2` *beyond* the one-step spike: :math:`W_2` has :math:`1 + \Lambda`
outliers in all.

Everything in this module is exact rational arithmetic on :class:`fractions.Fraction` and uses
the standard library only (and :mod:`fltheory.results`, itself standard library only), so
``fltheory lambda`` starts without sympy, numpy or scipy.
"""

from __future__ import annotations

from fractions import Fraction

from fltheory.args import read_count
from fltheory.exact import INF, DomainError, Infinity, fraction_str, to_decimal_str
from fltheory.papers.twostep.params import HALF, TwoStepSetting, check_alpha
from fltheory.render.shows import ShowsTable
from fltheory.results import FrozenRecord, Table

__all__ = ["GENERIC_CONDITION", "HALF", "MAX_ROWS", "TWO_STEP_SIGMA", "TWO_STEP_SIGMA_NAME",
           "LambdaResult", "PhaseRegion", "TermExponent", "check_alpha", "exponent_of",
           "lambda_count", "lambda_details", "lambda_of", "phase_line", "phase_of",
           "phase_region_count", "region_count_of", "term_exponent"]

#: The activation of the paper's examples, σ = (h1 + h2 + h3)/√3 with h_k = He_k/√(k!), as an
#: expression in z (the theory's one definition: tables, claims, CLI default and notebook use
#: it; the simulator's numpy coefficients ``fltheory.papers.twostep.sim.TWO_STEP_SIGMA`` are tested
#: to
#: be the same function). Degree L = 3.
TWO_STEP_SIGMA = "(He1(z) + He2(z)/sqrt(2) + He3(z)/sqrt(6))/sqrt(3)"
#: how the tables and captions name :data:`TWO_STEP_SIGMA`
TWO_STEP_SIGMA_NAME = "(h1 + h2 + h3)/√3"

#: What Λ assumes about σ, in one sentence (``fltheory lambda`` without ``--sigma`` prints it;
#: :mod:`fltheory.papers.twostep.sigma` derives the condition and checks it for a given σ).
GENERIC_CONDITION = (
    "the count is for a generic activation: term k is an outlier only if its spike constant is "
    "non-zero, i.e. E[σ^(k+1)(z) σ'(z)^p] ≠ 0 for some p <= k (a fresh batch: the Hermite "
    "coefficient μ_{k+1}(σ) ≠ 0), and the one-step spike needs μ_1(σ) ≠ 0 (with μ_1(σ) = 0 "
    "only p with k − p even count: an even σ has no outlier term); an odd σ (tanh, erf) "
    "loses every odd k, ReLU with a fresh batch every even k >= 2 (μ_3 = μ_5 = … = 0); "
    "--sigma EXPR gives the count for your σ")

#: Rows listed by :func:`lambda_details` and :func:`phase_line` by default. Near α1 = 1/2 there
#: are ~1/(1 − 2α1) of them (billions at α1 = 0.4999999999) while Λ itself is one division: the
#: first and last MAX_ROWS/2 rows are listed, the middle ones (all outliers, resp. regions
#: Λ = k, k + 1, …) are summarised. 64 rows cost well under a millisecond at any --dps.
MAX_ROWS = 64


class TermExponent(FrozenRecord):
    """The N-exponent α2 + k(α1 − 1/2) of the k-th term of the second update, exact, with its
    :attr:`status` (outlier, boundary or bulk)."""

    _fields = __slots__ = ("k", "exponent")
    k: int
    exponent: Fraction

    def __init__(self, k: int, exponent: Fraction) -> None:
        object.__setattr__(self, "k", k)
        object.__setattr__(self, "exponent", exponent)

    @property
    def status(self) -> str:
        """``outlier`` (exponent > 0), ``boundary`` (= 0: decided by constants) or ``bulk``."""
        if self.exponent > 0:
            return "outlier"
        return "boundary" if self.exponent == 0 else "bulk"


class LambdaResult(FrozenRecord, ShowsTable):
    """Λ with everything needed to explain it: the exact inputs α1, α2, L, the value Λ, the
    ratio α2/(1/2 − α1), the boundary term (exponent exactly 0) if any, the exponents of the
    listed terms and the range of terms left out of the listing (see :func:`lambda_details`)."""

    _fields = __slots__ = ("alpha1", "alpha2", "L", "value", "ratio", "boundary_k", "exponents",
                           "omitted")
    alpha1: Fraction
    alpha2: Fraction
    L: int | Infinity
    value: int
    ratio: Fraction
    boundary_k: int | None
    exponents: tuple[TermExponent, ...]
    #: terms k = first..last not listed in ``exponents`` (all outliers: exponent > 0), or None
    omitted: tuple[int, int] | None

    def __init__(self, alpha1: Fraction, alpha2: Fraction, L: int | Infinity, value: int,
                 ratio: Fraction, boundary_k: int | None,
                 exponents: tuple[TermExponent, ...] = (),
                 omitted: tuple[int, int] | None = None) -> None:
        for name, v in zip(self._fields, (alpha1, alpha2, L, value, ratio, boundary_k,
                                          exponents, omitted), strict=True):
            object.__setattr__(self, name, v)

    @property
    def outliers_of_w2(self) -> int:
        """Outliers of W2 in all: the one-step spike plus Λ."""
        return 1 + self.value

    def table(self, dps: int | None = None) -> Table:
        """The exponents table: the listed terms k with their exact exponents and status (a
        notebook shows it); with ``dps``, also each exponent's decimal to ``dps`` digits and
        the LaTeX face (the table of ``fltheory lambda``). Terms left out of the listing
        (α1 near 1/2, all outliers) are one summary row.

        >>> lambda_details(Fraction(2, 5), Fraction(3, 10)).table().rows[2]
        ['3', '0', 'boundary']
        >>> lambda_details(Fraction(2, 5), Fraction(3, 10)).table(dps=5).rows[1]
        ['2', '1/10', '0.1', 'outlier']
        """
        from fltheory.render.latex import latex_fraction

        def dec(q: Fraction) -> list[str]:
            return [] if dps is None else [to_decimal_str(q, dps)]

        rows = [[str(t.k), fraction_str(t.exponent), *dec(t.exponent), t.status]
                for t in self.exponents]
        latex_rows = [[str(t.k), "$" + latex_fraction(t.exponent) + "$", *dec(t.exponent),
                       t.status] for t in self.exponents]
        if self.omitted is not None:  # α1 near 1/2: the middle terms are summarised
            lo, hi = self.omitted
            rows.insert(lo - 1, [f"{lo}..{hi}", "(not listed) > 0", "outlier"] if dps is None
                        else [f"{lo}..{hi}", "(not listed)", "> 0", "outlier"])
            latex_rows.insert(lo - 1, [f"${lo}..{hi}$", "(not listed)", "$> 0$", "outlier"])
        a1, a2 = fraction_str(self.alpha1), fraction_str(self.alpha2)
        if dps is None:
            return Table(columns=["k", "exponent α2 + k(α1 − 1/2)", "status"], rows=rows,
                         caption=f"Λ(α1 = {a1}, α2 = {a2}; L = {self.L}) = {self.value}")
        L = "\\infty" if isinstance(self.L, Infinity) else str(self.L)
        return Table(
            columns=["k", "exponent α2 + k(α1 − 1/2)", "decimal", "status"], rows=rows,
            latex_columns=["$k$", r"$\alpha_2 + k(\alpha_1 - \tfrac12)$", "decimal", "status"],
            latex_rows=latex_rows,
            caption=(f"Exponents of the terms of the second update at α1 = {a1}, α2 = {a2}, "
                     f"L = {self.L}: Λ = {self.value}"),
            latex_caption=(r"Exponents of the terms of the second update at $\alpha_1 = "
                           + latex_fraction(self.alpha1) + r"$, $\alpha_2 = "
                           + latex_fraction(self.alpha2) + r"$, $L = " + L
                           + r"$: $\Lambda = " + str(self.value) + "$."),
            label="tab:fltheory-lambda-exponents", align="rrrl")

    @property
    def capped(self) -> bool:
        """Λ is L − 1 because σ has degree L (the ratio alone would give more or as many)."""
        return not isinstance(self.L, Infinity) and self.value == self.L - 1 \
            and self.ratio >= self.L

    @property
    def one_step_equivalent(self) -> bool:
        """α1 + α2 < 1/2: Λ = 0 and the second step acts like one step of size η1 + η2."""
        return self.alpha1 + self.alpha2 < HALF

    @property
    def regime(self) -> str:
        """The regime in words: linear σ, one-step equivalent (α1 + α2 < 1/2), or Λ outliers."""
        if self.L == 1:
            return "L = 1 (linear σ): the second update has no k >= 1 terms, Λ = 0"
        if self.one_step_equivalent:
            return ("α1 + α2 < 1/2: Λ = 0, the second step acts like one step "
                    "of size η1 + η2")
        return f"α1 + α2 >= 1/2: the second step adds Λ = {self.value} outlier(s)"


def lambda_of(setting: TwoStepSetting, L: int | Infinity | None = None,
              max_rows: int | None = MAX_ROWS) -> LambdaResult:
    """Λ of a setting with its exponents and boundary flag (:func:`lambda_details`), for the
    setting's α1, α2 and degree ``L`` (default the setting's own; the σ-aware theory passes
    σ's degree).

    >>> lambda_of(TwoStepSetting("2/5", "3/10")).value
    3
    """
    rows = None if max_rows is None else read_count(max_rows, "max_rows", 0)
    return _details(setting.alpha1, _alpha2_of(setting), _degree_of(setting, L), rows)


def _alpha2_of(setting: TwoStepSetting) -> Fraction:
    """α2 of a setting that must have one (a phase line has none)."""
    if setting.alpha2 is None:
        raise DomainError("a2", "None", "[0, 1/2)", reason="is missing (Λ needs α2)")
    return setting.alpha2


def _degree_of(setting: TwoStepSetting, L: int | Infinity | None) -> int | Infinity:
    """``L`` if given, else the setting's degree (None for a σ-aware setting: σ's degree, which
    only the theory knows, must then be given)."""
    degree = setting.L if L is None else L
    if degree is None:
        raise DomainError("L", "None", "integers in [1, inf] or inf", reason="is not known")
    return degree


def term_exponent(alpha1: Fraction | int | float | str, alpha2: Fraction | int | float | str,
                  k: int) -> Fraction:
    """The N-exponent α2 + k(α1 − 1/2) of the k-th term of the second update (k >= 0), exactly.

    >>> term_exponent(Fraction(2, 5), Fraction(3, 10), 2)
    Fraction(1, 10)
    """
    return exponent_of(TwoStepSetting(alpha1, alpha2), k)


def exponent_of(setting: TwoStepSetting, k: int) -> Fraction:
    """:func:`term_exponent` at a setting's α1, α2: the N-exponent α2 + k(α1 − 1/2) of term k.

    >>> exponent_of(TwoStepSetting("2/5", "3/10"), 3)
    Fraction(0, 1)
    """
    return _exponent(setting.alpha1, _alpha2_of(setting), read_count(k, "k", 0))


def _exponent(alpha1: Fraction, alpha2: Fraction, k: int) -> Fraction:
    return alpha2 + k * (alpha1 - HALF)


def lambda_count(alpha1: Fraction | int | float | str, alpha2: Fraction | int | float | str,
                 L: int | Infinity = INF) -> int:
    """Λ(α1, α2; L) = min(L − 1, ⌊α2 / (1/2 − α1)⌋), exactly.

    Number of spectral outliers of W2 beyond the one-step spike (Moniri & Hassani 2026).
    Arguments are exact rationals (read by :class:`~fltheory.papers.twostep.params.
    TwoStepSetting`); the floor is taken on a :class:`~fractions.Fraction`, so
    ``floor(0.3/0.1)`` is 3, not the 2 of floating point.

    >>> from fractions import Fraction as F
    >>> lambda_count(F(2, 5), F(3, 10))
    3
    >>> lambda_count(F(9, 20), F(3, 10))
    6
    >>> lambda_count(F(9, 20), F(3, 10), L=3)
    2
    """
    setting = TwoStepSetting(alpha1, alpha2, L)
    return _value(setting.alpha1, _alpha2_of(setting), _degree_of(setting, None))


def _value(alpha1: Fraction, alpha2: Fraction, L: int | Infinity) -> int:
    """Λ of already-read arguments."""
    ratio = alpha2 / (HALF - alpha1)
    value = ratio.numerator // ratio.denominator
    if not isinstance(L, Infinity):
        value = min(L - 1, value)
    return value


def lambda_details(alpha1: Fraction | int | float | str, alpha2: Fraction | int | float | str,
                   L: int | Infinity = INF,
                   max_rows: int | None = MAX_ROWS) -> LambdaResult:
    """Λ with the exponents of the terms k = 1, …, Λ + 1 and the boundary flag.

    When there are more than ``max_rows`` terms (α1 close to 1/2), only the first and the last
    ``max_rows // 2`` are listed and ``omitted`` gives the range of the others, all outliers
    (their exponents are > 0); ``max_rows=None`` lists every term (unbounded work).

    The k-th term of the second update has exponent α2 + k(α1 − 1/2); terms with positive
    exponent are outliers. When α2/(1/2 − α1) is an integer K with 1 <= K <= L − 1, the K-th
    term has exponent exactly 0: whether it is an outlier depends on its O(1) constant, not on
    the exponent, and ``boundary_k`` is K. (K = 0, i.e. α2 = 0, concerns the k = 0 term, which
    merges with the one-step spike and does not enter Λ, so it is not flagged.)

    >>> from fractions import Fraction as F
    >>> r = lambda_details(F(2, 5), F(3, 10))
    >>> r.value, r.boundary_k, [str(t.exponent) for t in r.exponents]
    (3, 3, ['1/5', '1/10', '0', '-1/10'])
    """
    return lambda_of(TwoStepSetting(alpha1, alpha2, L), max_rows=max_rows)


def _details(alpha1: Fraction, alpha2: Fraction, L: int | Infinity,
             max_rows: int | None) -> LambdaResult:
    """:func:`lambda_details` of already-read arguments."""
    value = _value(alpha1, alpha2, L)
    ratio = alpha2 / (HALF - alpha1)
    K = ratio.numerator if ratio.denominator == 1 else 0
    boundary = K if K >= 1 and (isinstance(L, Infinity) or K <= L - 1) else None
    last = value + 1
    if not isinstance(L, Infinity):
        last = min(last, L - 1)  # terms exist only for k <= L - 1
    ks: list[int] | range = range(1, last + 1)
    omitted = None
    if max_rows is not None and last > max(max_rows, 2):
        head = max_rows // 2
        ks = [*range(1, head + 1), *range(last - (max_rows - head) + 1, last + 1)]
        omitted = (head + 1, last - (max_rows - head))
    exponents = tuple(TermExponent(k, _exponent(alpha1, alpha2, k)) for k in ks)
    return LambdaResult(alpha1, alpha2, L, value, ratio, boundary, exponents, omitted)


# --------------------------------------------------------------------------- phase diagram


class PhaseRegion(FrozenRecord):
    """An interval [alpha2_low, alpha2_high) of α2 (at fixed α1) on which Λ = ``value`` is
    constant; ``boundary_at_low``: the low end is a boundary case (a term with exponent 0)."""

    _fields = __slots__ = ("alpha2_low", "alpha2_high", "value", "boundary_at_low")
    alpha2_low: Fraction
    alpha2_high: Fraction | None  # None: up to (not including) 1/2
    value: int
    boundary_at_low: bool

    def __init__(self, alpha2_low: Fraction, alpha2_high: Fraction | None, value: int,
                 boundary_at_low: bool) -> None:
        for name, v in zip(self._fields, (alpha2_low, alpha2_high, value, boundary_at_low),
                           strict=True):
            object.__setattr__(self, name, v)


def phase_region_count(alpha1: Fraction, L: int | Infinity = INF) -> int:
    """Number of regions of constant Λ along α2 ∈ [0, 1/2): #{k >= 0 : k(1/2 − α1) < 1/2,
    k <= L − 1}, exactly (without listing them).

    >>> phase_region_count(Fraction(2, 5)), phase_region_count(Fraction(2, 5), L=3)
    (5, 3)
    """
    return region_count_of(TwoStepSetting(alpha1, L=L))


def _region_count(alpha1: Fraction, L: int | Infinity) -> int:
    ratio = HALF / (HALF - alpha1)  # k < ratio
    count = -((-ratio.numerator) // ratio.denominator)  # ceil(ratio): k = 0, …, ceil − 1
    return count if isinstance(L, Infinity) else min(count, L)


def phase_line(alpha1: Fraction, L: int | Infinity = INF,
               max_regions: int | None = MAX_ROWS) -> list[PhaseRegion]:
    """Regions of constant Λ along α2 ∈ [0, 1/2) at fixed α1: boundaries α2 = k(1/2 − α1).

    The low end of region k >= 1 is a boundary case (exponent exactly 0 there). When there are
    more than ``max_regions`` regions (α1 close to 1/2) only the first and the last
    ``max_regions // 2`` are listed: a jump in ``value`` between consecutive list entries marks
    the omitted ones (:func:`phase_region_count` gives the total). ``None`` lists them all.

    >>> [(str(r.alpha2_low), r.value) for r in phase_line(Fraction(2, 5))]
    [('0', 0), ('1/10', 1), ('1/5', 2), ('3/10', 3), ('2/5', 4)]
    """
    return phase_of(TwoStepSetting(alpha1, L=L), max_regions=max_regions)


def phase_of(setting: TwoStepSetting, L: int | Infinity | None = None,
             max_regions: int | None = MAX_ROWS) -> list[PhaseRegion]:
    """The regions of constant Λ along α2 at the setting's α1 (:func:`phase_line`), for the
    degree ``L`` (default the setting's own; the σ-aware theory passes σ's degree). The total
    number of regions is :func:`region_count_of`.

    >>> [r.value for r in phase_of(TwoStepSetting("2/5", L=3))]
    [0, 1, 2]
    """
    degree = _degree_of(setting, L)
    alpha1 = setting.alpha1
    count = _region_count(alpha1, degree)
    max_regions = None if max_regions is None else read_count(max_regions, "max_regions", 0)
    gap = HALF - alpha1
    ks: list[int] | range = range(count)
    if max_regions is not None and count > max(max_regions, 2):
        head = max_regions // 2
        ks = [*range(head), *range(count - (max_regions - head), count)]
    regions: list[PhaseRegion] = []
    for k in ks:
        low = k * gap
        high = (k + 1) * gap
        last = not isinstance(degree, Infinity) and k == degree - 1
        regions.append(PhaseRegion(low, None if high >= HALF or last else high, k, k >= 1))
    return regions


def region_count_of(setting: TwoStepSetting, L: int | Infinity | None = None) -> int:
    """:func:`phase_region_count` at the setting's α1 and degree ``L`` (default the setting's).

    >>> region_count_of(TwoStepSetting("2/5"))
    5
    """
    return _region_count(setting.alpha1, _degree_of(setting, L))
