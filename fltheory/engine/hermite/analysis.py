"""One Hermite analysis of a function: its expansion, then its information exponent, then its
generative exponent, computed once from the same coefficients (the pipeline the ``exponent``
command, the ``hermite`` table and the two-step paper's ``learn`` command share).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from fltheory.args import read_count
from fltheory.engine.functions import Function
from fltheory.engine.hermite.bounds import KMAX_MAX, check_budget
from fltheory.engine.hermite.coefficients import Expansion, expansion
from fltheory.engine.hermite.exponents import Exponent, generative_exponent, information_exponent
from fltheory.exact import check_dps
from fltheory.render.shows import ShowsTable
from fltheory.results import Table

__all__ = ["HermiteAnalysis", "analyse"]


@dataclass(frozen=True)
class HermiteAnalysis(ShowsTable):
    """The Hermite view of a function: ``expansion`` (μ_0..μ_kmax, orthonormal basis), its
    ``information`` exponent and its ``generative`` exponent (both examined up to ``kmax``).
    In a notebook it shows the coefficients as a table, the exponents in the caption."""

    expansion: Expansion
    information: Exponent
    generative: Exponent

    @property
    def function(self) -> Function:
        """The parsed function."""
        return self.expansion.function

    def __repr__(self) -> str:
        """One line: f, both exponents and the expansion's repr (the reasons are in
        :meth:`table`'s notes).

        >>> analyse("He3", kmax=3, dps=15)  # doctest: +ELLIPSIS
        HermiteAnalysis(f(z) = z**3 - 3*z: information 3, generative 1; Expansion(...))
        """
        return (f"HermiteAnalysis(f(z) = {self.function.expr}: information {self.information}, "
                f"generative {self.generative}; {self.expansion!r})")

    def table(self) -> Table:
        """The expansion's table, with the exponents in the caption and their reasons in the
        notes."""
        table = self.expansion.table()
        table.caption = (f"f(z) = {self.function.expr}: information exponent "
                         f"{self.information}, generative exponent {self.generative}")
        table.latex_caption = (f"$f(z) = {sp.latex(self.function.expr)}$: information "
                               f"exponent {self.information}, generative exponent "
                               f"{self.generative}.")
        table.notes = [f"information: {self.information.reason}",
                       f"generative: {self.generative.reason}", *table.notes]
        return table


def analyse(f: str | sp.Expr | Function, kmax: int = 8, dps: int = 30,
            budget: float | str = 5.0) -> HermiteAnalysis:
    """Expansion of f to degree ``kmax``, then its information and generative exponents.

    Parameters: ``f``, a catalogue name, an expression in z, a sympy expression or a parsed
    :class:`~fltheory.engine.functions.Function` (real-valued, square-integrable under
    N(0, 1)); ``kmax``, the largest k examined, in [1, 40]; ``dps``, significant digits of the
    numeric values, in [5, 100]; ``budget``, seconds for sympy's ``integrate``, in [0, 600].
    All bounds are checked before any work. Why [1, 40] here and [1, 60] for
    :func:`~fltheory.engine.hermite.exponents.information_exponent` (and ``expansion``): a time
    bound, not a mathematical one. Both cost about 1 s per numeric coefficient at dps 30; the
    generative search adds a conditional expectation E[h_k | y] at every k up to ``kmax``, so
    its limit :data:`~fltheory.engine.hermite.bounds.KMAX_MAX` = 40 keeps the worst accepted
    case near the same minute as an expansion to :data:`~fltheory.engine.hermite.bounds.K_MAX`
    = 60 (see :mod:`fltheory.engine.hermite.bounds`). Returns a :class:`HermiteAnalysis` (μ_k exact
    sympy values where a structured path applies, else mpmath at ``dps`` digits).

    >>> a = analyse("He3", kmax=4, dps=15)
    >>> str(a.information), str(a.generative), str(a.expansion.coefficients[3].exact)
    ('3', '1', 'sqrt(6)')
    >>> str(analyse("relu", kmax=2, dps=15).generative)
    '1'
    """
    read_count(kmax, "kmax", 1, KMAX_MAX)
    check_dps(dps)
    e = expansion(f, kmax, dps, check_budget(budget))
    return HermiteAnalysis(e, information_exponent(e.function, kmax, dps, e),
                           generative_exponent(e.function, kmax, dps, e))
