# The C extension built from _native.c (see there and setup.py); buffers are C-contiguous
# float64 arrays, the outputs writable (or None: that sum is skipped).
from typing import Any

def square_moments(w: Any, y: Any, slo: Any, shi: Any, nx: Any, gl_x: Any, gl_w: Any, z: Any,
                   dz: Any, m2: Any, V: float, sigma: float, c1: float, c2: float, xs: float,
                   s_star: float) -> None: ...
