r"""The d1 = ∞ MSE law of sequential recovery (:mod:`fltheory.papers.recovery.theory`, derivation in
its docstring): MSE ≈ P·δ^{−1 + 1/(2γ)}, P = 8γ²/((4γ² − 1) ζ(2γ))·(a_1²)^{−1 + 1/(2γ)}, defined
for γ > 1/2, with a_1² = 1/(ζ(2γ)·C) for a model of weak-direction constant C."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fltheory.args import read_dps, read_exact, read_real
from fltheory.exact import DomainError, fraction_str, short_rational
from fltheory.papers.recovery.params import LawQuery

__all__ = ["MSELaw", "law_a1_squared", "law_exponent", "law_prefactor", "mse_law", "mse_law_for"]


def law_exponent(gamma: Fraction) -> Fraction:
    """The exponent −1 + 1/(2γ) of the d1 = ∞ MSE law (an exact ``Fraction``), defined for
    γ > 1/2 (else DomainError: Σ k^{−2γ} diverges).

    >>> law_exponent(Fraction(3, 2))
    Fraction(-2, 3)
    """
    return _exponent(read_exact(gamma, "gamma"))


def _exponent(gamma: Fraction) -> Fraction:
    """:func:`law_exponent` of an exact γ (the domain γ > 1/2 is the law's)."""
    if gamma <= Fraction(1, 2):
        raise DomainError("gamma", short_rational(gamma), "γ > 1/2",
                          reason="for γ <= 1/2 Σ k^{-2γ} diverges: the target has infinite "
                                 "variance and the MSE law does not exist")
    return -1 + 1 / (2 * gamma)


def law_a1_squared(gamma: Fraction, C: float, dps: int = 30) -> Any:
    """a_1² = c_1²/C in the d1 = ∞ normalisation c_k² = k^{−2γ}/ζ(2γ): 1/(ζ(2γ)·C) (mpmath
    ``mpf`` at ``dps`` + 10 digits); γ > 1/2, C > 0 the weak-direction constant (a double).

    >>> import mpmath
    >>> mpmath.nstr(law_a1_squared(Fraction(1), 1.0, dps=10), 10)  # 6/π²
    '0.6079271019'
    """
    gamma = read_exact(gamma, "gamma")
    _exponent(gamma)
    return _a1_squared_of(gamma, read_real(C, "C", 0, open_low=True), read_dps(dps))


def _a1_squared_of(gamma: Fraction, C: float, dps: int) -> Any:
    """:func:`law_a1_squared` on read arguments."""
    import mpmath

    with mpmath.workdps(dps + 10):
        return +(1 / (mpmath.zeta(2 * mpmath.mpf(gamma.numerator) / gamma.denominator)
                      * mpmath.mpf(C)))


def _a1_squared(a1_squared: Any) -> Any:
    """a_1² > 0: an mpmath number kept as it is, or a rational (mpmath at the working dps)."""
    import mpmath

    if isinstance(a1_squared, mpmath.mpf):
        if not (mpmath.isfinite(a1_squared) and a1_squared > 0):
            raise DomainError("a1_squared", a1_squared, "a_1² > 0")
        return a1_squared
    a1 = read_exact(a1_squared, "a1_squared", 0, open_low=True)
    return mpmath.mpf(a1.numerator) / a1.denominator


def law_prefactor(gamma: Fraction, a1_squared: Any, dps: int = 30) -> Any:
    """P = 8γ²/((4γ² − 1) ζ(2γ)) · (a_1²)^{−1 + 1/(2γ)} (mpmath ``mpf`` at ``dps`` + 10 digits),
    see the module docstring; γ > 1/2, a_1² > 0 (rational or mpmath).

    >>> import mpmath
    >>> mpmath.nstr(law_prefactor(Fraction(1), 1, dps=10), 10)  # 16/π²
    '1.621138938'
    """
    import mpmath

    gamma = read_exact(gamma, "gamma")
    _exponent(gamma)
    dps = read_dps(dps)
    with mpmath.workdps(dps + 10):
        return _prefactor(gamma, _a1_squared(a1_squared), dps)


def _prefactor(gamma: Fraction, a1_squared: Any, dps: int) -> Any:
    """:func:`law_prefactor` on read arguments (a_1² an mpmath number)."""
    import mpmath

    with mpmath.workdps(dps + 10):
        g = mpmath.mpf(gamma.numerator) / gamma.denominator
        return +(8 * g ** 2 / ((4 * g ** 2 - 1) * mpmath.zeta(2 * g))
                 * mpmath.power(a1_squared, -1 + 1 / (2 * g)))


@dataclass(frozen=True)
class MSELaw:
    """The d1 = ∞ law MSE ≈ P·δ^e, e = −1 + 1/(2γ) (exact), P an mpmath ``mpf`` (see
    :func:`mse_law`)."""

    gamma: Fraction
    a1_squared: Any
    exponent: Fraction
    prefactor: Any
    dps: int

    def value(self, delta: float) -> Any:
        """P·δ^e at δ = n/D > 0 (mpmath at ``dps``; the exponent as a double)."""
        import mpmath

        delta = read_real(delta, "delta", 0, open_low=True)
        with mpmath.workdps(self.dps):
            return self.prefactor * mpmath.power(mpmath.mpf(delta), float(self.exponent))

    def prefactor_formula(self) -> str:
        """P as written: 8·γ²/((4·γ² − 1)·ζ(2γ))·(a_1²)^e, with the given numbers."""
        g = fraction_str(self.gamma)
        a1 = (fraction_str(self.a1_squared) if isinstance(self.a1_squared, int | Fraction)
              else str(self.a1_squared))
        return (f"8·({g})²/((4·({g})² − 1)·ζ({fraction_str(2 * self.gamma)}))·({a1})^"
                f"({fraction_str(self.exponent)})")

    def _repr_latex_(self) -> str:
        import mpmath

        from fltheory.render.latex import latex_fraction

        return (rf"$\mathrm{{MSE}} \approx {mpmath.nstr(self.prefactor, min(self.dps, 15))}"
                rf"\,\delta^{{{latex_fraction(self.exponent)}}}$")


def mse_law(gamma: Fraction, a1_squared: Any = 1, dps: int = 30) -> MSELaw:
    """The d1 = ∞ MSE law MSE ≈ P·δ^{−1 + 1/(2γ)}, δ = n/D, P = :func:`law_prefactor`
    (γ > 1/2 rational; a_1² > 0, rational or mpmath, in the weak-direction normalisation
    a_k² = a_1² k^{−2γ}; P to ``dps`` digits).

    >>> law = mse_law(Fraction(3, 2), dps=15)
    >>> law.exponent, str(law.prefactor)[:12]
    (Fraction(-2, 3), '1.8717915883')
    >>> law.prefactor_formula()
    '8·(3/2)²/((4·(3/2)² − 1)·ζ(3))·(1)^(-2/3)'
    """
    import mpmath

    dps = read_dps(dps)
    if not isinstance(a1_squared, mpmath.mpf):
        a1_squared = read_exact(a1_squared, "a1_squared", 0, open_low=True)
    gamma = read_exact(gamma, "gamma")
    return _law(gamma, a1_squared, dps)


def _law(gamma: Fraction, a1_squared: Any, dps: int) -> MSELaw:
    """:func:`mse_law` on read arguments (γ exact, a_1² rational or mpmath, both > 0)."""
    import mpmath

    expo = _exponent(gamma)
    with mpmath.workdps(dps):
        a1 = _a1_squared(a1_squared)
        P = _prefactor(gamma, a1, dps)
    return MSELaw(gamma, a1_squared, expo, P, dps)


def mse_law_for(query: LawQuery) -> MSELaw:
    """The d1 = ∞ law of :func:`mse_law` in the normalisation of every recovery command: for a
    model of weak-direction constant C, c_k² = k^(−2γ)/ζ(2γ) and n_k = C·D/c_k², so
    a_1² = c_1²/C = 1/(ζ(2γ)·C) (mpmath at ``dps`` + 10 digits, exact C); γ > 1/2.

    >>> from fltheory.papers.recovery.params import LawQuery
    >>> law = mse_law_for(LawQuery("3/2", 1, dps=15))
    >>> law.exponent, str(law.prefactor)[:10]
    (Fraction(-2, 3), '2.11612268')
    """
    import mpmath

    gamma, C, dps = query.gamma, query.C, query.dps
    _exponent(gamma)
    with mpmath.workdps(dps + 10):
        s = mpmath.mpf(2 * gamma.numerator) / gamma.denominator
        a1 = 1 / (mpmath.zeta(s) * mpmath.mpf(C.numerator) / C.denominator)
    return _law(gamma, a1, dps)
