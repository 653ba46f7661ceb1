"""Shared pieces of the quadratic-network theory modules (Bocchi et al. 2026): the work bounds, the
divergence error and the argument readers (exact steps, finite reals, matrices). Private: the
public names are re-exported by :mod:`fltheory.papers.quadratic.theory`."""

from __future__ import annotations

from fltheory.exact import DomainError

#: bounds on the work one call may ask for (see :func:`ode_cost`, :func:`escape_cost`): an
#: accepted request finishes in well under a minute on a 2-core machine
ODE_SECONDS_LIMIT = 20.0
ESCAPE_SECONDS_LIMIT = 60.0
MEMORY_LIMIT_BYTES = 2**30


class ODEDivergence(DomainError):
    """The ODE left every bounded region: finite-time blow-up at about time ``t`` (the step is
    above the stability limits, :func:`~fltheory.papers.quadratic.theory.stability_bounds`). A
    :class:`~fltheory.exact.DomainError` on ``eta``, so the CLI prints it as one line."""

    def __init__(self, eta: object, t: float):
        self.t = t
        super().__init__("eta", eta, "steps for which the ODE stays bounded "
                         "(see stability_bounds)",
                         reason=f"makes the ODE diverge: the order parameters exceed 1e8 times "
                                f"their scale by t ≈ {t:.3g} (finite-time blow-up)")
