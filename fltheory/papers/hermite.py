"""The shared Hermite engine: expansions of any activation or target, information and generative
exponents (:mod:`fltheory.theory.hermite`)."""

from fltheory.papers import Paper

PAPER = Paper(
    key="hermite",
    title="Hermite engine (shared): expansions, information and generative exponents",
    claims="fltheory.claims.hermite",
    commands={"hermite": "fltheory.cli.hermite:hermite_command",
              "exponent": "fltheory.cli.hermite:exponent_command"},
    tables={"hermite": "fltheory.views.hermite:hermite_table"},
    order=0,
)
