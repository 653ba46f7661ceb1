"""The example paper of ``docs/adding-a-paper.md``: the largest eigenvalue of a Wishart matrix
sits at the Marchenko–Pastur edge (1 + √γ)².

The declaration names things only: discovering every paper imports this file and nothing else.
"""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="wishart",
    title="Example: the Marchenko–Pastur edge of a Wishart matrix",
    claims="wishart_paper.claims",
    commands={"wishart": "wishart_paper.cli:wishart_command"},
    tables={"wishart": "wishart_paper.views:edge_table"},
)

# the public face: each name is imported from its module on first use
_NAMES = {"params": ("Sample", "Wishart"), "theory": ("edge", "edge_value"),
          "runs": ("EdgeRun", "edge_run")}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
