"""The spectral-threshold kit as a paper: one entry point per question, dispatching to the
shared formulas of :mod:`fltheory.engine.spectral` (BBP spikes, link thresholds, Lu–Li), and the
catalogue of links of the table. Nothing here is a formula of its own: the normalisation and
the sources are stated once, in :mod:`fltheory.engine.spectral.spikes` and
:mod:`fltheory.engine.spectral.links`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fltheory.engine.spectral.spikes import (
    Spike,
    bulk_spikes,
    density_bulk,
    mp_spikes,
    sample_spikes,
    semicircle_spikes,
)
from fltheory.exact import DomainError

if TYPE_CHECKING:  # the link engine imports sympy: a spike query does not need it
    from fltheory.engine.spectral.links import LinkAnswer

__all__ = ["BULKS", "LINK_CATALOGUE", "link_rows", "spike_query"]

#: The bulks a spike query names: closed forms, a density given by the user, or a sample of
#: eigenvalues.
BULKS = ("semicircle", "mp", "density", "sample")

#: Links of the table (``fltheory table spectral_links``): even links whose y determines |z|
#: (α_c = 1/2 exactly), even polynomial links that do not (α_c by quadrature), and links with
#: E[z|y] ≠ 0 (the linear estimator: α_c = 0).
LINK_CATALOGUE = ("z**2", "abs", "He2", "exp(-z**2)", "He4", "z**4 - 3*z**2",
                  "z**2*(z**2 - 1)**2", "tanh", "relu", "He3")


def spike_query(strengths: Any, bulk: str = "semicircle", gamma: Any = None,
                density: str | None = None, support: tuple[Any, Any] | None = None,
                model: str | None = None, dps: int = 30, eigenvalues: Any = None
                ) -> tuple[Spike, ...]:
    """BBP answers for the spikes ``strengths`` on ``bulk``: ``"semicircle"`` (θ, exact),
    ``"mp"`` (ℓ with ratio ``gamma``, exact), ``"density"`` (``density`` on ``support``,
    additive θ or multiplicative ℓ by ``model``, numeric at ``dps`` digits) or ``"sample"``
    (``eigenvalues``: an estimate with standard errors,
    :func:`~fltheory.engine.spectral.spikes.sample_spikes`). ``model`` defaults to the bulk's
    own: additive for the semicircle, a density and a sample, multiplicative for MP.

    >>> [str(s.outlier) for s in spike_query(["3/2", 2])]
    ['13/6', '5/2']
    >>> str(spike_query([3], "mp", gamma="1/2")[0].overlap)
    '7/10'
    """
    if bulk not in BULKS:
        raise DomainError("bulk", bulk, " or ".join(BULKS))
    if bulk != "density" and (density is not None or support is not None):
        raise DomainError("density", density, "--density only with --bulk density")
    if (bulk == "sample") != (eigenvalues is not None):
        raise DomainError("eigenvalues", "given" if eigenvalues is not None else None,
                          "eigenvalues with bulk sample (and only then)")
    model = model or ("multiplicative" if bulk == "mp" else "additive")
    if bulk == "semicircle":
        if gamma is not None or model != "additive":
            raise DomainError("bulk", bulk, "semicircle with the additive model and no γ")
        return semicircle_spikes(strengths)
    if bulk == "mp":
        if gamma is None:
            raise DomainError("gamma", None, "γ = p/n > 0 (required by --bulk mp)")
        if model != "multiplicative":
            raise DomainError("model", model, "multiplicative (the MP bulk is a covariance)")
        return mp_spikes(strengths, gamma)
    if bulk == "sample":
        if gamma is not None:
            raise DomainError("gamma", gamma, "no γ with a sample of eigenvalues")
        return sample_spikes(eigenvalues, strengths, model, dps)
    if density is None or support is None:
        raise DomainError("density", density, "an expression and its support a,b (both given)")
    if gamma is not None:
        raise DomainError("gamma", gamma, "no γ with --bulk density")
    dens = density
    sup = support
    return bulk_spikes(lambda: density_bulk(dens, sup, dps), strengths, model, dps)


def link_rows(links: tuple[str, ...] = LINK_CATALOGUE, dps: int = 15) -> list[LinkAnswer]:
    """:func:`~fltheory.engine.spectral.links.link_threshold` for each link of ``links``.

    >>> [str(r.alpha_c) for r in link_rows(("z**2", "tanh"))]
    ['1/2', '0']
    """
    from fltheory.engine.spectral.links import link_threshold

    return [link_threshold(g, dps) for g in links]
