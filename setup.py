"""The compiled pieces of fltheory, declared here because setuptools reads extension modules
from setup.py (its pyproject.toml table for them is still experimental); everything else is in
pyproject.toml.

``fltheory.papers.committee._native``: the committee machine's erf right side and the engine's
Dormand–Prince integrator (``fltheory/engine/dop853.h``) in C. numba's own start-up (~0.46 s)
was longer than a whole K = 10, M = 5 integration to t = 1000 (issue 24). Optional: without a C
compiler the install still succeeds and the ODE runs through numba (extra ``fast``) or scipy.

``fltheory.papers.glm._native``: the innermost sum of the noisy square's three-dimensional
averages (issue 36), 5–10 times faster than the same sum in numpy, which it falls back to.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "fltheory.papers.committee._native",
            sources=["fltheory/papers/committee/_native.c"],
            include_dirs=["fltheory/engine"],
            depends=["fltheory/engine/dop853.h", "fltheory/engine/pybuffers.h"],
            # no fused multiply-adds: the same rounding as the numba and Python paths
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "fltheory.papers.glm._native",
            sources=["fltheory/papers/glm/_native.c"],
            include_dirs=["fltheory/engine"],
            depends=["fltheory/engine/pybuffers.h"],
            # the same rounding as the numpy path it ports (no fused multiply-adds)
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        ),
    ]
)
