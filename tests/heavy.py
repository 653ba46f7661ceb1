"""Which heavy modules a fresh interpreter imports to run some code: the light-query tests of
several papers share it."""

from __future__ import annotations

import ast
import subprocess
import sys

HEAVY = ("sympy", "mpmath", "numpy", "scipy")


def loaded_after(code: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    """The modules of ``heavy`` in ``sys.modules`` after a new interpreter ran ``code``."""
    tail = (f"\nimport sys\nprint('HEAVY', sorted(m for m in {heavy!r} if m in sys.modules), "
            "file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code + tail], capture_output=True, text=True,
                       check=True)
    line = [ln for ln in p.stderr.splitlines() if ln.startswith("HEAVY ")][-1]
    return ast.literal_eval(line[len("HEAVY "):])
