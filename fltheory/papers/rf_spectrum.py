"""Issue #15: the spectrum of random features for any activation — for each harmonic degree l
a radial operator whose eigenvalues λ_{l,j} (multiplicity N(d, l)) are the m → ∞ eigenvalues of
J = (1/m)[E_x σ(w_i·x)σ(w_j·x)] (:mod:`fltheory.theory.rf_spectrum`; the command is ``fltheory
fisher --sigma``, declared by the fisher paper)."""

from fltheory.papers import Paper

PAPER = Paper(
    key="rf_spectrum",
    title="Random-feature spectrum for any activation (Mehler + Funk–Hecke)",
    claims="fltheory.claims.rf_spectrum",
    tables={"rf_spectrum": "fltheory.views.rf_spectrum:rf_levels_table",
            "rf_spectrum_large_d": "fltheory.views.rf_spectrum:rf_large_d_table"},
    figures={"rf_spectrum": "fltheory.views.rf_spectrum:rf_spectrum_figure"},
    order=5,
)
