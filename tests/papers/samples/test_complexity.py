"""The single-index table of the sample-complexity paper (fltheory.papers.samples.complexity):
its rows against values written by hand from the sources, the exponents against an independent
computation, noise, undecided exponents, and the link's parameters read once."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from fltheory.exact import DomainError
from fltheory.papers.samples.params import Link
from fltheory.papers.samples.theory import link_table, online_sgd_scale, sample_table


@pytest.mark.parametrize(("g", "online", "smoothed", "sq", "reuse"), [
    # written from the statements: Ben Arous, Gheissari & Jagannath 2021 (d, d log d, d^{k-1}),
    # Damian, Nichani, Ge & Lee 2023 (d^{k/2}, k >= 3), Damian, Pillaud-Vivien, Lee & Bruna
    # 2024 (d^{max(k*/2, 1)}), batch reuse Õ(d) for k* <= 2; the exponents by hand: He_k has
    # information exponent k; He3 is not even, so E[z | y] ≠ 0 (k* = 1); He2, He4 are even and
    # y determines z² up to finitely many values (k* = 2); |z| even (k* = 2), relu μ_1 = 1/2.
    ("He1", "d", "d", "d", "d"),
    ("He2", "d log d", "d log d", "d", "d"),
    ("He3", "d^2", "d^(3/2)", "d", "d"),
    ("He4", "d^3", "d^2", "d", "d"),
    ("abs", "d log d", "d log d", "d", "d"),
    ("relu", "d", "d", "d", "d"),
])
def test_table_rows_against_hand_values(g, online, smoothed, sq, reuse):
    t = sample_table(g, kmax=6, dps=15)
    assert t.row("online SGD").scale.text() == online
    assert t.row("smoothed online SGD").scale.text() == smoothed
    assert t.row("SQ / low-degree bound").scale.text() == sq
    assert t.row("batch-reusing GD").scale.text() == reuse
    assert t.row("information-theoretic").scale.text() == "d"


GEN4 = "abs(z)*exp(-z**2/2)"


def _level_set_conditional(y: float, j: int) -> float:
    """E[He_j(z) | g(z) = y] for g = |z| e^{−z²/2}, 0 < y < e^{−1/2}, from the level set alone:
    the four preimages ±u, ±s (u² = −W_0(−y²), s² = −W_{−1}(−y²), Lambert W) weighted by
    φ(z)/|g'(z)| (the coarea formula). No Hermite engine involved."""
    from numpy.polynomial import hermite_e as H
    from scipy.special import lambertw

    u = math.sqrt(-lambertw(-y * y, 0).real)
    s = math.sqrt(-lambertw(-y * y, -1).real)
    pts = [u, -u, s, -s]
    w = [1 / abs(1 - z * z) for z in pts]  # φ(z)/|g'(z)| up to the common 1/√(2π)
    return sum(wi * H.hermeval(z, [0] * j + [1]) for wi, z in zip(w, pts, strict=True)) / sum(w)


def test_generative_exponent_four_link_independently():
    """g = |z| e^{−z²/2}: E[He_j(z) | y] = 0 for j = 1, 2, 3 and ≠ 0 for j = 4, by two routes
    that do not use the engine: (a) the level sets via Lambert W at generic y; (b) E[He_j(z)
    1{g(z) < t}] by quadrature in z (every label test T is a limit of such indicators' sums),
    and the engine's exponents and μ_4 = −1/√(48π) (by hand: 2/√(2π) ∫_0^∞ z He_4(z) e^{−z²} dz
    = 2/√(2π)·(1 − 3 + 3/2)) against them."""
    from numpy.polynomial import hermite_e as H
    from scipy.integrate import quad
    from scipy.special import lambertw

    from fltheory.engine.hermite import expansion, generative_exponent, information_exponent

    ymax = math.exp(-0.5)
    for y in (0.137 * ymax, 0.5123 * ymax, 0.9071 * ymax):
        assert all(abs(_level_set_conditional(y, j)) < 1e-12 for j in (1, 2, 3))
        assert abs(_level_set_conditional(y, 4)) > 0.1
    for t in (0.2113, 0.4437):  # generic thresholds below the maximum e^{−1/2} ≈ 0.607
        # {g < t} ∩ [0, ∞) = [0, u) ∪ (s, ∞); even g: odd He_j integrate to 0 by symmetry,
        # so integrate He_j φ over [0, u) ∪ (s, ∞) and double for even j
        u = math.sqrt(-float(lambertw(-t * t, 0).real))
        s = math.sqrt(-float(lambertw(-t * t, -1).real))

        def piece(j, a, b):
            return quad(lambda z: H.hermeval(z, [0] * j + [1]) * math.exp(-z * z / 2)
                        / math.sqrt(2 * math.pi), a, b, epsabs=1e-14)[0]
        he2 = 2 * (piece(2, 0, u) + piece(2, s, math.inf))
        he4 = 2 * (piece(4, 0, u) + piece(4, s, math.inf))
        assert abs(he2) < 1e-10 and abs(he4) > 1e-3, (t, he2, he4)
    e = expansion(GEN4, 6, 30)
    info = information_exponent(e.function, 6, 30, e)
    gen = generative_exponent(e.function, 6, 30, e)
    assert (info.value, gen.value) == (4, 4)
    assert float(e.coefficients[4].numeric) == pytest.approx(-1 / math.sqrt(48 * math.pi),
                                                             rel=1e-12)


def test_generative_four_row_of_the_table():
    # k = k* = 4 (above): online SGD d^3, smoothed and CSQ d^2, SQ d^2, reuse d^{k*−1} = d^3
    t = sample_table(GEN4, kmax=6, dps=20)
    assert [t.row(a).scale.text() for a in ("online SGD", "smoothed online SGD",
                                            "SQ / low-degree bound", "batch-reusing GD")] == \
        ["d^3", "d^2", "d^2", "d^3"]
    assert "not settled" in t.row("batch-reusing GD").note


def test_online_scale_by_hand():
    # d^{k−1} for k >= 3: powers 2, 3, 4 for k = 3, 4, 5; log factor only at k = 2
    assert [(online_sgd_scale(k).power, online_sgd_scale(k).log_power) for k in range(1, 6)] == \
        [(1, 0), (1, 1), (2, 0), (3, 0), (4, 0)]


def test_noise_changes_no_exponent_and_is_noted():
    quiet, noisy = sample_table("He3", 0, 4, 15), sample_table("He3", Fraction(1, 2), 4, 15)
    assert [r.scale for r in quiet.rows] == [r.scale for r in noisy.rows]
    assert any("noise σ = 1/2" in n for n in noisy.notes)


def test_undecided_exponent_leaves_rows_open():
    # He5 at kmax = 4: no non-zero μ_k up to 4, so online SGD's row cannot be given
    t = sample_table("He5", kmax=4, dps=15)
    assert t.information.value is None and t.row("online SGD").scale is None
    assert "kmax = 4" in t.row("online SGD").note


def test_link_is_read_once():
    """The link's parameters are read at construction (exact noise, bounded kmax and dps) and the
    table of the object is the table of the arguments."""
    link = Link("He3", 0.5, 4, 15)
    assert (link.noise, link.kmax, link.dps) == (Fraction(1, 2), 4, 15)
    assert link_table(link).rows == sample_table("He3", Fraction(1, 2), 4, 15).rows
    for bad, param in (({"noise": -1}, "noise"), ({"kmax": 0}, "kmax"), ({"kmax": 41}, "kmax"),
                       ({"dps": 4}, "dps")):
        with pytest.raises(DomainError) as info:
            Link("He3", **bad)
        assert info.value.param == param
