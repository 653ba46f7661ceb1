r"""The shallow side of the depth comparison: what kernel ridge regression learns of the
target's degree-4 part at the hierarchical method's sample sizes.

On inputs uniform on the sphere of radius √d the target y = Σ_i c_i (h_i² − 1)/√2 of
:mod:`~fltheory.papers.recovery.theory` (q = 2) is a polynomial of harmonic degrees 0, 2 and 4
of u = x/√d. A dot-product kernel κ(u·u') acts on the degree-k harmonics as μ_k (Funk–Hecke,
multiplicity N(d, k)); the eigenlearning equations (:mod:`fltheory.engine.kernels.curves`:
Bordelon, Canatar & Pehlevan 2020; Simon et al. 2023) give, for ridgeless regression on n
points and a target with energy in degree 4 only,

.. math::

    \frac{\mathbb E_x (\hat f - f_4)^2}{\lVert f_4 \rVert^2} = E_0 (1 - L_4)^2, \qquad
    L_4 = \frac{\mu_4}{\mu_4 + \kappa_{\rm eff}}, \qquad E_0 = \frac{n}{n - \sum_k N_k L_k^2},

the share of the degree-4 energy the kernel leaves as test error. A ridge λ > 0 only raises
κ_eff, so L_4 at λ = 0 bounds it at every ridge: the share is at least (1 − L_4)² (E_0 >= 1).
The kernel is the NTK of a two-layer ReLU network (exact μ_k by the arc-cosine closed forms,
:mod:`fltheory.engine.kernels.networks`). The equations are an approximation at finite n that
is accurate when many modes sit near the cut-off (here N(d, 2) and N(d, 4) are in the
hundreds to thousands).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fltheory.args import read_count
from fltheory.engine.spherical import multiplicity

__all__ = ["KERNEL_DEGREES", "KernelShare", "kernel_half_point", "kernel_share"]

#: degrees of the spectrum kept explicitly; beyond, the trace κ(1) − Σ N_k μ_k enters as an
#: effective ridge (exact when μ_K << κ_eff: the reported ``tail_ratio``)
KERNEL_DEGREES = 12


@dataclass(frozen=True)
class KernelShare:
    """Eigenlearning at (d, n) for the two-layer ReLU NTK, ridgeless: the degree-4
    learnability ``L4``, ``E0``, the share E_0(1 − L_4)² of the degree-4 energy left as test
    error, the degree-2 learnability ``L2`` and μ_K/κ_eff (``tail_ratio``)."""

    d: int
    n: int
    L4: float
    E0: float
    share: float
    L2: float
    tail_ratio: float


def kernel_share(d: int, n: int, dps: int = 20) -> KernelShare:
    """The eigenlearning share of the degree-4 energy that ridgeless regression with the
    two-layer ReLU NTK leaves on n points of S^{d−1} (module docstring). d >= 4, n >= 1
    integers.

    >>> s = kernel_share(12, 780)
    >>> round(s.share, 3), round(s.L4, 3)
    (0.809, 0.176)
    """
    from fltheory.engine.expressions import parse_expression
    from fltheory.engine.kernels.activations import activation_form
    from fltheory.engine.kernels.curves import Spectrum, curve_point
    from fltheory.engine.kernels.networks import Network, network_eigenvalues

    d = read_count(d, "d", 4)
    n = read_count(n, "n", 1)
    net = Network(activation_form(parse_expression("relu")), "ntk", 2)
    eig = network_eigenvalues(net, d, KERNEL_DEGREES, dps)
    mult = [multiplicity(d, k) for k in range(KERNEL_DEGREES + 1)]
    spec = Spectrum.from_values(list(eig.values), mult, float(eig.at_one))
    energies = np.zeros(KERNEL_DEGREES + 1)
    energies[4] = 1.0
    p = curve_point(spec, energies, float(n), 0.0, 0.0)
    return KernelShare(d, n, float(p.L[4]), p.E0, p.error, float(p.L[2]), p.tail_ratio)


def kernel_half_point(d: int, dps: int = 20) -> int:
    """The smallest n at which :func:`kernel_share` is at most 1/2: where ridgeless regression
    with the two-layer ReLU NTK has learned half of the degree-4 energy on S^{d−1} (the share
    decreases with n; bisection on integers up to 10^7). 4 <= d <= 60.

    >>> kernel_half_point(8)
    422
    """
    d = read_count(d, "d", 4, 60)
    lo, hi = 1, 10**7
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if kernel_share(d, mid, dps).share <= 0.5:
            hi = mid
        else:
            lo = mid
    return hi
