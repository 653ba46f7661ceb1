# The C extension built from _native.c (see there and setup.py); buffers are C-contiguous
# float64 arrays.
from typing import Any

def erf_rhs(y: Any, out: Any, K: int, M: int, T: Any, a: Any, w: Any, eta: float,
            sigma2: float, kappa: float, order: int, s2: float) -> None: ...
def erf_dop853(y0: Any, t_grid: Any, out: Any, K: int, M: int, T: Any, a: Any, w: Any,
               eta: float, sigma2: float, kappa: float, order: int, s2: float, rtol: float,
               atol: float, max_steps: int, y_max: float, A: Any, B: Any, E3: Any, E5: Any
               ) -> tuple[int, int, float]: ...
