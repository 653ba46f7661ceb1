"""fltheory: a symbolic-numeric calculator for feature learning in two-layer networks.

The package is split in rooms that never see each other except through the claims:

* :mod:`fltheory.theory` -- predictions (exact rationals, sympy, mpmath), one module per paper;
* :mod:`fltheory.sim` -- numpy simulators of the same models, importing nothing from ``theory``;
* :mod:`fltheory.claims` -- the registry pairing each prediction with a simulation;
* :mod:`fltheory.render` -- text / JSON / LaTeX output, computing nothing;
* :mod:`fltheory.cli` -- the ``fltheory`` command: parse, call, render.

Importing :mod:`fltheory` is cheap on purpose (no sympy, numpy or scipy): light queries such
as ``fltheory lambda`` must start as fast as ``click`` itself.
"""

from fltheory.exact import DomainError, parse_rational

__version__ = "0.1.0"

__all__ = ["DomainError", "__version__", "parse_rational"]
