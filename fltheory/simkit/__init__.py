"""The shared numpy kit of the simulators: the seeding scheme
(:mod:`fltheory.simkit.seeding`), the activation catalogue's numpy face
(:mod:`fltheory.simkit.activations`, tested equal to the sympy face of
:mod:`fltheory.engine.expressions`), the orthonormal teacher of the online-SGD papers
(:mod:`fltheory.simkit.teachers`), the random-feature sampler of the papers on Fisher/Gram
spectra (:mod:`fltheory.simkit.randomfeatures`) and the crossing rule by which both sides read a
curve (:mod:`fltheory.simkit.observables`).

Nothing here imports sympy, mpmath, the engine or a paper's theory: a simulation that shared a
formula with the prediction it checks could share its mistake
(``tests/framework/test_architecture.py`` enforces it). What is shared with the theory side is
definitions, never formulas (the activation names, the crossing rule). Arguments are read by
:mod:`fltheory.args`, the one set of readers of both sides.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["activations", "observables", "randomfeatures", "seeding", "teachers"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'fltheory.simkit' has no attribute {name!r}")
    return import_module(f"{__name__}.{name}")


def __dir__() -> list[str]:
    return sorted(__all__)
