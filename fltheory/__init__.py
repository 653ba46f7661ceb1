"""fltheory: a symbolic-numeric calculator for feature learning in two-layer networks.

A paper is one package, ``fltheory.papers.<key>`` (``hermite``, ``twostep``,
``fisher``, ``quadratic``, ``recovery``, ``rf_spectrum``, ``committee``): its theory modules
(exact rationals, sympy, mpmath), its numpy simulator ``sim`` (importing nothing from the
theory), its ``claims`` (the only place that sees both), its ``views`` and its command ``cli``.
``from fltheory.papers import committee`` gives a paper's public names (``dir(committee)``).
Below the papers, naming none of them:

* :mod:`fltheory.engine` -- the shared theory: expressions and the Hermite engine;
* :mod:`fltheory.simkit` -- the shared numpy kit: seeding, the activations' numpy face;
* :mod:`fltheory.claims` -- the registry that runs every paper's claims;
* :mod:`fltheory.render` -- text / JSON / LaTeX / HTML output, computing nothing;
* :mod:`fltheory.cli` -- the ``fltheory`` command: parse, call, render.

Importing :mod:`fltheory` is cheap on purpose (no sympy, numpy or scipy): light queries such
as ``fltheory lambda`` must start as fast as ``click`` itself.
"""

from fltheory.exact import DomainError, parse_rational

__version__ = "0.1.0"

__all__ = ["DomainError", "__version__", "parse_rational"]
