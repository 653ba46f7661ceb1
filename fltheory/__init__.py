"""fltheory: a symbolic-numeric calculator for feature learning in two-layer networks.

A paper is one package, ``fltheory.papers.<key>``; ``from fltheory.papers import committee``
gives its public names (``dir(committee)``), ``fltheory.papers.papers()`` lists them all:

* ``hermite`` -- the Hermite engine's paper: expansions, information and generative exponents;
* ``twostep`` -- Moniri & Hassani (2026), two steps of gradient descent;
* ``fisher`` -- the Fisher information of random ReLU features (Takeishi et al. line);
* ``quadratic`` -- Bocchi, Lucibello, Saglietti, Cammarota et al. (2026), quadratic networks
  under one-pass SGD;
* ``recovery`` -- Dandi, Krzakala, Loureiro et al. (2026), sequential feature recovery;
* ``rf_spectrum`` -- the random-feature spectrum of any activation (Mehler + Funk–Hecke);
* ``committee`` -- Saad & Solla (1995), Goldt et al. (2019): soft committee machines;
* ``samples`` -- from exponents to sample complexity: online SGD, CSQ/SQ, batch reuse, leaps;
* ``spectral`` -- spectral thresholds: BBP spikes for any bulk, weak recovery of links;
* ``kernel`` -- kernel spectra on the sphere (NNGP/NTK of any activation) and kernel-ridge
  learning curves: eigenlearning, proportional ridge, the n ≍ d^ℓ staircase.
* ``glm`` -- Barbier et al. (2019): Bayes-optimal GLMs, state evolution, α_WR/α_IT/α_alg.

Every paper has the same shape (``docs/adding-a-paper.md``): ``params`` (its parameters as
typed objects, validated once), ``theory`` (its predictions: exact rationals, sympy, mpmath),
``sim`` (its numpy simulator, importing nothing from any theory), ``runs`` (prediction next to
simulation), ``claims`` (the claim records), ``views`` and ``cli``. Below the papers, naming none
of them:

* :mod:`fltheory.engine` -- the shared theory: expressions, the Hermite engine, spectral kit;
* :mod:`fltheory.simkit` -- the shared numpy kit: seeding, the activations' numpy face;
* :mod:`fltheory.args` -- the one set of argument readers, for both sides;
* :mod:`fltheory.claims` -- the registry that runs every paper's claims;
* :mod:`fltheory.render` -- text / JSON / LaTeX / HTML output, computing nothing;
* :mod:`fltheory.sweep` -- simulations over grids of parameters, in parallel, stored;
* :mod:`fltheory.cli` -- the ``fltheory`` command: parse, call, render.

Importing :mod:`fltheory` is cheap on purpose (no sympy, numpy or scipy): light queries such
as ``fltheory lambda`` must start as fast as ``click`` itself.

>>> import fltheory
>>> "papers" in dir(fltheory)
True
>>> [p.key for p in fltheory.papers.papers()][:3]
['hermite', 'twostep', 'fisher']
"""

from typing import Any

from fltheory.exact import DomainError, parse_rational

__version__ = "0.1.0"

__all__ = ["DomainError", "__version__", "args", "claims", "engine", "papers", "parse_rational",
           "simkit", "sweep"]

#: sub-packages reached as attributes (imported on first use, so ``import fltheory`` stays light)
_SUBPACKAGES = ("args", "claims", "engine", "papers", "simkit", "sweep")


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'fltheory' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SUBPACKAGES})
