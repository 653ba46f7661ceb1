"""Spectral thresholds — BBP outliers and overlaps of spiked random matrices for any
bulk, the weak-recovery threshold and the optimal preprocessing of a single-index link, and the
Lu–Li overlap of a spectral estimator (:mod:`fltheory.papers.spectral.theory`; the formulas are
shared in :mod:`fltheory.engine.spectral`). The parameters: the spikes and the link
(:mod:`fltheory.papers.spectral.params`) and the kit's bulks
(:mod:`fltheory.engine.spectral.bulks`), both on this face."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="spectral",
    title="Spectral thresholds: BBP spikes for any bulk, weak recovery of links",
    claims="fltheory.papers.spectral.claims",
    commands={"spike": "fltheory.papers.spectral.cli:spike_command",
              "link": "fltheory.papers.spectral.cli:link_command"},
    tables={"spectral_links": "fltheory.papers.spectral.views:links_table"},
    figures={"spectral": "fltheory.papers.spectral.views:overlap_figure"},
    notebook="fltheory.papers.spectral.views:NOTEBOOK",
    order=8,
)

# The paper's public names, each imported from its module on first use: importing this
# package (as paper discovery does) costs no more than the declaration above.
_NAMES = {
    "params": ("Link", "MAX_ALPHA", "MAX_ALPHAS", "Spikes"),
    "fltheory.engine.spectral.bulks": (
        "BULKS", "Density", "MarchenkoPastur", "Sample", "Semicircle", "read_bulk"),
    "theory": (
        "LINK_CATALOGUE", "LinkOverlap", "link_answer", "link_overlaps", "link_rows",
        "semicircle_overlap_curve", "spike_query"),
    "runs": ("fit_quantity", "measure", "wigner_overlap"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
