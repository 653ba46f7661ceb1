"""The spectral-threshold kit as a paper: one entry point per question, dispatching to the
shared formulas of :mod:`fltheory.engine.spectral` (BBP spikes, link thresholds, Lu–Li), and the
catalogue of links of the table. Nothing here is a formula of its own: the normalisation and
the sources are stated once, in :mod:`fltheory.engine.spectral.spikes` and
:mod:`fltheory.engine.spectral.links`.

The questions take the paper's parameter objects (:mod:`fltheory.papers.spectral.params`) and
the kit's bulks (:mod:`fltheory.engine.spectral.bulks`), read once when they were built.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from fltheory.engine.spectral.bulks import (
    BULKS,
    Density,
    MarchenkoPastur,
    Sample,
    Semicircle,
    SpikeBulk,
    read_bulk,
)
from fltheory.engine.spectral.spikes import (
    Spike,
    bulk_spikes,
    density_bulk,
    mp_spikes,
    sample_spikes,
    semicircle_spikes,
)
from fltheory.exact import DomainError
from fltheory.papers.spectral.params import Link, Spikes

if TYPE_CHECKING:  # the link engine imports sympy: a spike query does not need it
    import numpy as np

    from fltheory.engine.spectral.links import LinkAnswer

# the questions' parameters are shown with them: the paper's (Spikes, Link) and the kit's bulks
__all__ = ["BULKS", "LINK_CATALOGUE", "Density", "Link", "LinkOverlap", "MarchenkoPastur",
           "Sample", "Semicircle", "Spikes", "link_answer", "link_overlaps", "link_rows",
           "read_bulk", "semicircle_overlap_curve", "spike_query"]

#: Links of the table (``fltheory table spectral_links``): even links whose y determines |z|
#: (α_c = 1/2 exactly), even polynomial links that do not (α_c by quadrature), and links with
#: E[z|y] ≠ 0 (the linear estimator: α_c = 0).
LINK_CATALOGUE = ("z**2", "abs", "He2", "exp(-z**2)", "He4", "z**4 - 3*z**2",
                  "z**2*(z**2 - 1)**2", "tanh", "relu", "He3")


def spike_query(spikes: Spikes, bulk: SpikeBulk | None = None,
                dps: int = 30) -> tuple[Spike, ...]:
    """BBP answers for ``spikes`` on ``bulk`` (default the semicircle): the closed forms of the
    semicircle (additive θ, exact) and of Marchenko–Pastur (multiplicative ℓ, exact), numeric
    at ``dps`` digits for a :class:`~fltheory.engine.spectral.bulks.Density` (either model), an
    estimate with standard errors for a :class:`~fltheory.engine.spectral.bulks.Sample` (either
    model, :func:`~fltheory.engine.spectral.spikes.sample_spikes`).

    >>> [str(s.outlier) for s in spike_query(Spikes(theta=["3/2", 2]))]
    ['13/6', '5/2']
    >>> str(spike_query(Spikes(ell=[3]), MarchenkoPastur("1/2"))[0].overlap)
    '7/10'
    """
    bulk = Semicircle() if bulk is None else bulk
    strengths, model = spikes.strengths, spikes.model
    if isinstance(bulk, Semicircle):
        if model != "additive":
            raise DomainError("bulk", bulk.name, "semicircle with the additive model and no γ")
        return semicircle_spikes(strengths)
    if isinstance(bulk, MarchenkoPastur):
        if model != "multiplicative":
            raise DomainError("model", model, "multiplicative (the MP bulk is a covariance)")
        return mp_spikes(strengths, bulk)
    if isinstance(bulk, Sample):
        return sample_spikes(bulk, strengths, model, dps)
    if not isinstance(bulk, Density):
        raise DomainError("bulk", repr(bulk)[:40], "Semicircle(), MarchenkoPastur(γ), "
                          "Density(expr, support) or Sample(eigenvalues)")
    density = bulk
    return bulk_spikes(lambda: density_bulk(density, dps=dps), strengths, model, dps)


def semicircle_overlap_curve(thetas: np.ndarray) -> np.ndarray:
    """The squared overlap 1 − 1/θ² of the semicircle spike (0 for |θ| <= 1) on a numpy grid of
    θ >= 0 (:func:`~fltheory.engine.spectral.spikes.semicircle_overlap_ratio` with r = 1/θ²;
    θ = 0 stands for a tiny θ, overlap 0): the curve of the figure.

    >>> import numpy as np
    >>> semicircle_overlap_curve(np.array([0.0, 1.0, 2.0])).tolist()
    [0.0, 0.0, 0.75]
    """
    import numpy as np

    from fltheory.engine.spectral.spikes import semicircle_overlap_ratio

    return semicircle_overlap_ratio(1 / np.maximum(np.asarray(thetas, dtype=float), 1e-9) ** 2)


# --------------------------------------------------------------------------- links


def link_rows(links: tuple[str, ...] = LINK_CATALOGUE, dps: int = 15) -> list[LinkAnswer]:
    """:func:`~fltheory.engine.spectral.links.link_threshold` for each link of ``links``.

    >>> [str(r.alpha_c) for r in link_rows(("z**2", "tanh"))]
    ['1/2', '0']
    """
    from fltheory.engine.spectral.links import link_threshold

    return [link_threshold(g, dps) for g in links]


def link_answer(link: Link, dps: int = 30) -> LinkAnswer:
    """α_c, T* and how they were found for ``link`` (with its noise):
    :func:`~fltheory.engine.spectral.links.link_threshold`.

    >>> str(link_answer(Link("z**2"), 15).alpha_c)
    '1/2'
    """
    from fltheory.engine.spectral.links import link_threshold

    return link_threshold(link.g, dps, link.noise)


@dataclass(frozen=True)
class LinkOverlap:
    """The Lu–Li answer at one α of a link (:func:`link_overlaps`): the squared overlap
    ``rho2`` (fine resolution of the label law) and ``rho2_coarse`` (half of it), the
    significant ``digits`` on which the two agree (at most 15), and the ``outlier`` eigenvalue
    (None below the threshold) and bulk ``edge`` of D at the fine resolution."""

    alpha: Fraction
    rho2: float
    rho2_coarse: float
    digits: int
    outlier: float | None
    edge: float


def link_overlaps(link: Link) -> tuple[LinkOverlap, ...]:
    """The Lu–Li overlap of the spectral estimator at each α of ``link`` (T, or the optimal T*
    when ``link.T`` is None), the law of (T(y), z²) discretised at two resolutions whose
    agreement gives the digits (:func:`~fltheory.engine.spectral.links.preprocessing_law`, with
    noise :func:`~fltheory.engine.spectral.links.noisy_preprocessing_law`).

    >>> [round(o.rho2, 6) for o in link_overlaps(Link("z**2", alphas="2"))]
    [0.638881]
    """
    from fltheory.engine.spectral.links import noisy_preprocessing_law, preprocessing_law
    from fltheory.engine.spectral.luli import luli_overlap

    t_used = link.T or "optimal"
    if link.noise:
        fine = noisy_preprocessing_law(link.g, t_used, link.noise, panels=600, hermite=48,
                                       inner=150)
        coarse = noisy_preprocessing_law(link.g, t_used, link.noise, panels=300, hermite=32,
                                         inner=100)
    else:
        fine = preprocessing_law(link.g, t_used, panels=1200)
        coarse = preprocessing_law(link.g, t_used, panels=600)
    out = []
    for a in link.alphas:
        r1, r2 = luli_overlap(fine, 0, float(a)), luli_overlap(coarse, 0, float(a))
        out.append(LinkOverlap(a, r1.rho2, r2.rho2, _confirmed(r1.rho2, r2.rho2), r1.outlier,
                               r1.edge))
    return tuple(out)


def _confirmed(a: float, b: float) -> int:
    """Significant digits on which two doubles agree (at most 15)."""
    if a == b:
        return 15
    scale = max(abs(a), abs(b))
    return max(0, min(15, int(-math.log10(abs(a - b) / scale)) - 1)) if scale else 15
