"""The shared Hermite engine: expansions of any activation or target, information and generative
exponents (:mod:`fltheory.engine.hermite`; its face here is
:mod:`fltheory.papers.hermite.theory`), checked against Monte Carlo
(:mod:`fltheory.papers.hermite.runs`)."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="hermite",
    title="Hermite engine (shared): expansions, information and generative exponents",
    claims="fltheory.papers.hermite.claims",
    commands={"hermite": "fltheory.papers.hermite.cli:hermite_command",
              "exponent": "fltheory.papers.hermite.cli:exponent_command"},
    tables={"hermite": "fltheory.papers.hermite.views:hermite_table"},
    order=0,
)

# The paper's public names (the engine's, whose face is ``theory``), each imported from its
# module on first use: importing this package (as paper discovery does) costs no more than the
# declaration above. The parameters, the simulator and the runs are at their homes
# (``fltheory.papers.hermite.params``, ``.sim``, ``.runs``).
_NAMES = {
    "theory": (
        "Basis", "Coefficient", "Expansion", "Exponent", "HermiteAnalysis", "KMAX_MAX", "K_MAX",
        "Parseval", "analyse", "coefficient", "expansion", "gauss_moment", "generative_exponent",
        "information_exponent", "parseval", "quad_expectation"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
