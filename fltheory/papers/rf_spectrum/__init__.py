"""The spectrum of random features for any activation (extends the Takeishi et al. line of the
Fisher paper) — for each harmonic degree l
a radial operator whose eigenvalues λ_{l,j} (multiplicity N(d, l)) are the m → ∞ eigenvalues of
J = (1/m)[E_x σ(w_i·x)σ(w_j·x)] (:mod:`fltheory.papers.rf_spectrum.theory`).

The radial-operator spectrum for any σ is shared theory (:mod:`fltheory.engine.randomfeatures`)
and the sampler a shared simulator (:mod:`fltheory.simkit.randomfeatures`): the ReLU Fisher
paper's command ``fltheory fisher --sigma`` uses both. Its names that lived here are still
reachable from this face."""

from fltheory.papers import Paper, lazy_names

PAPER = Paper(
    key="rf_spectrum",
    title="Random-feature spectrum for any activation (Mehler + Funk–Hecke)",
    claims="fltheory.papers.rf_spectrum.claims",
    tables={"rf_spectrum": "fltheory.papers.rf_spectrum.views:rf_levels_table",
            "rf_spectrum_large_d": "fltheory.papers.rf_spectrum.views:rf_large_d_table"},
    figures={"rf_spectrum": "fltheory.papers.rf_spectrum.views:rf_spectrum_figure"},
    order=5,
)

# The paper's public names (the shared numerics of the spectrum, Gram and Nyström routes, are
# the engine's: fltheory.engine.randomfeatures), each imported from its module on first use:
# importing this package (as paper discovery does) costs no more than the declaration above.
_NAMES = {
    "params": ("Approach", "Run"),
    "runs": ("RUNS", "RFRecord", "clear_cache", "record", "records", "sigma_function",
             "spectrum_sample"),
    "theory": (
        "FLOAT_MAX_DPS", "MAX_D", "MAX_JMAX", "MAX_L", "MAX_WORK", "RFApproach", "RFLevel",
        "RFSpectrum",
        "kernel_trace", "large_d_approach", "multiplicity", "spectrum"),
}
__getattr__, __dir__ = lazy_names(__name__, _NAMES)
__all__ = ["PAPER", *sorted(n for names in _NAMES.values() for n in names)]
