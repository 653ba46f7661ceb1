"""The simulator of random features for any activation at finite width m: the kernel matrix
J = (1/m)[E_x σ(w_i·x)σ(w_j·x)], its spectrum and its clusters identified by spherical-harmonic
degree.

The sampler is shared with the ReLU Fisher paper, whose command ``fisher simulate --sigma`` uses
it too: it lives in the simulators' kit, :mod:`fltheory.simkit.randomfeatures` (numpy only,
independent of every theory); this module is the paper's face of it.
"""

from __future__ import annotations

from fltheory.simkit.activations import ACTIVATIONS
from fltheory.simkit.randomfeatures import (
    CLOSED_FORMS,
    KMAX,
    MAX_BYTES,
    MAX_FLOPS,
    REFUSE,
    TOL,
    HarmonicCluster,
    KernelMatrix,
    RFSample,
    activation,
    arc_cosine_matrix,
    check_rf_sample,
    degree_clusters,
    draw_weights,
    harmonic_clusters,
    harmonic_content,
    hermite_coefficients,
    kernel_cubature,
    kernel_matrix,
    multiplicity,
    rf_flops,
    sample,
)

__all__ = ["ACTIVATIONS", "CLOSED_FORMS", "KMAX", "MAX_BYTES", "MAX_FLOPS", "REFUSE", "TOL",
           "HarmonicCluster", "KernelMatrix", "RFSample", "activation", "arc_cosine_matrix",
           "check_rf_sample", "degree_clusters", "draw_weights", "harmonic_clusters",
           "harmonic_content", "hermite_coefficients", "kernel_cubature", "kernel_matrix",
           "multiplicity", "rf_flops", "sample"]
