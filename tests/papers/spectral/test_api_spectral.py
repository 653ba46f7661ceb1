"""The paper's API: the parameters (spikes and link, papers/spectral/params.py), the kit's bulks
(engine/spectral/bulks.py), each read once at construction; the theory's questions taking them
whole; the runs and the simulator's sizes."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from fltheory.engine.spectral import bulks, spikes
from fltheory.engine.spectral.bulks import (
    Density,
    MarchenkoPastur,
    Sample,
    Semicircle,
    read_bulk,
)
from fltheory.exact import DomainError
from fltheory.papers import spectral
from fltheory.papers.spectral.params import MAX_ALPHAS, Link, Spikes
from fltheory.papers.spectral.theory import link_overlaps, spike_query

SEMICIRCLE = "sqrt(Max(4 - x**2, 0))/(2*pi)"


# --------------------------------------------------------------------------- spikes and links


def test_spikes_hold_one_model_read_once():
    s = Spikes(theta="3/2, -1/2")
    assert (s.strengths, s.model, s.param, s.ell) == ((Fraction(3, 2), Fraction(-1, 2)),
                                                      "additive", "theta", None)
    m = Spikes(ell=[3, 0.25])
    assert (m.strengths, m.model, m.param) == ((Fraction(3), Fraction(1, 4)), "multiplicative",
                                               "ell")
    assert Spikes(theta=2).strengths == (Fraction(2),)


@pytest.mark.parametrize("kwargs, word", [
    ({}, "theta"), ({"theta": 1, "ell": 2}, "give one of them"),
    ({"theta": "1,x"}, "theta = x is not a number"), ({"ell": float("nan")}, "ell"),
])
def test_spikes_refused(kwargs, word):
    with pytest.raises(DomainError, match=word):
        Spikes(**kwargs)


def test_link_reads_noise_and_alphas():
    link = Link("z**2", "Min(y, 3)", "1/3", "1, 2.5")
    assert (link.noise, link.alphas, link.T) == (Fraction(1, 3), (Fraction(1), Fraction(5, 2)),
                                                 "Min(y, 3)")
    assert Link("tanh").alphas == () and Link("tanh", alphas=None).alphas == ()
    assert Link("tanh").noise == 0


@pytest.mark.parametrize("kwargs, word", [
    ({"alphas": "1,0"}, r"alpha = 0 is outside the allowed range \(0, 1000000\]"),
    ({"alphas": ",".join(["1"] * (MAX_ALPHAS + 1))}, f"1 to {MAX_ALPHAS} numbers"),
    ({"noise": "-1/2"}, "noise = -1/2 is outside the allowed range noise >= 0"),
])
def test_link_refused(kwargs, word):
    with pytest.raises(DomainError, match=word):
        Link("z**2", **kwargs)


# --------------------------------------------------------------------------- the bulks


def test_bulks_read_their_fields():
    assert MarchenkoPastur("0.5").gamma == Fraction(1, 2)
    d = Density(SEMICIRCLE, "-2, 2")
    assert d.support == (Fraction(-2), Fraction(2)) and d.expr == SEMICIRCLE
    assert Density(SEMICIRCLE, (-2, 2)) == d  # the parsed form is not compared
    with pytest.raises(DomainError, match="gamma"):
        MarchenkoPastur("-1")


@pytest.mark.parametrize("support", ["1", "0,1,2", "1,1", (2, 0)])
def test_density_support_is_two_increasing_numbers(support):
    with pytest.raises(DomainError, match=r"support .* two numbers a,b with a < b"):
        Density("1", support)


def test_density_expression_is_read_by_the_grammar():
    with pytest.raises(DomainError, match=r"^density"):
        Density("__import__('os')", "0,1")


def test_density_bulk_takes_the_parsed_density():
    # the object and its text give the same transform (the expression parsed once, in Density)
    d = Density(SEMICIRCLE, "-2,2")
    a, b = spikes.density_bulk(d, dps=15), spikes.density_bulk(SEMICIRCLE, (-2, 2), 15)
    z = mpmath.mpf(3)
    assert a.G(z) == b.G(z) and str(a) == str(b)


def test_sample_reads_sorts_and_checks(tmp_path):
    f = tmp_path / "eig.txt"
    f.write_text("# eigenvalues\n" + "\n".join(f"{(k % 7) / 3}, {-k / 50}" for k in range(60)))
    s = Sample.from_file(f)
    assert s.n == 120 and s.source == str(f) and np.all(np.diff(s.eigenvalues) >= 0)
    assert (s.lower, s.upper) == (-59 / 50, 2.0)
    assert s != Sample(s.eigenvalues)  # compared by identity (an array has no one truth value)
    for content, word in (("1 x2 " * 80, "not a number"), ("3 " * 150, "point mass"),
                          ("1 2 inf " + "5 " * 200, "not finite"), ("1 2", "too few")):
        f.write_text(content)
        with pytest.raises(DomainError, match=word):
            Sample.from_file(f)


def test_sample_file_bounds(tmp_path, monkeypatch):
    f = tmp_path / "eig.txt"
    f.write_text(" ".join(str(k) for k in range(200)))
    monkeypatch.setattr(bulks, "MAX_FILE_BYTES", 100)
    with pytest.raises(DomainError, match="is too large"):
        Sample.from_file(f)
    for path in (tmp_path, "/dev/zero"):
        with pytest.raises(DomainError, match="not a regular file"):
            Sample.from_file(path)
    with pytest.raises(DomainError, match="cannot be read"):
        Sample.from_file(tmp_path / "missing.txt")


def test_sample_bulk_and_its_old_names_are_the_object():
    lam = np.linspace(-1, 1, 200)
    assert isinstance(spikes.sample_bulk(lam), Sample) and spikes.SampleBulk is Sample


def test_read_bulk_builds_the_named_bulk():
    assert read_bulk() == Semicircle()
    assert read_bulk(None, "multiplicative", gamma="1/4") == MarchenkoPastur("1/4")
    assert read_bulk("density", density="1/2", support="0,2") == Density("1/2", "0,2")
    lam = np.linspace(-1, 1, 200)
    s = read_bulk(None, eigenvalues=lam)
    assert isinstance(s, Sample) and s.n == 200 and s.source is None


@pytest.mark.parametrize("name, kwargs, message", [
    ("semicircle", {"gamma": "1/2"},
     "bulk = semicircle is outside the allowed range semicircle with the additive model and "
     "no γ"),
    ("mp", {}, "gamma = None is outside the allowed range γ = p/n > 0 (required by --bulk mp)"),
    ("mp", {"gamma": 1, "density": "1"},
     "density = 1 is outside the allowed range --density only with --bulk density"),
    ("density", {"density": "1", "support": "0,1", "gamma": 1},
     "gamma = 1 is outside the allowed range no γ with --bulk density"),
    ("density", {"density": "1"}, "density = 1 is outside the allowed range an expression and "
                                  "its support a,b (both given)"),
    ("sample", {"eigenvalues": [0.0] * 50 + [1.0] * 50, "gamma": 1},
     "gamma = 1 is outside the allowed range no γ with a sample of eigenvalues"),
    ("sample", {}, "eigenvalues = None is outside the allowed range --eigenvalues FILE with "
                   "--bulk sample (or alone), and only then"),
    ("mp", {"gamma": 1, "eigenvalues": "x.txt"}, "eigenvalues = x.txt is outside"),
    ("wigner", {}, "bulk = wigner is not one of the choices"),
])
def test_read_bulk_refuses_an_option_of_another_bulk(name, kwargs, message):
    with pytest.raises(DomainError) as err:
        read_bulk(name, **kwargs)
    assert str(err.value).startswith(message)


# --------------------------------------------------------------------------- the theory


def test_spike_query_dispatches_on_the_bulk():
    theta = Spikes(theta=["3/2"])
    assert spike_query(theta) == spikes.semicircle_spikes(["3/2"])
    # (a Surd compares by identity: the answers are compared as text)
    assert repr(spike_query(Spikes(ell=[3]), MarchenkoPastur("1/2"))) == repr(
        spikes.mp_spikes([3], "1/2"))
    numeric = spike_query(theta, Density(SEMICIRCLE, "-2,2"), dps=15)[0]
    assert numeric.digits >= 12 and abs(numeric.outlier - Fraction(13, 6)) < 1e-12
    lam = 2 * np.cos(np.pi * (np.arange(2000) + 0.5) / 2000)  # the arcsine law on [−2, 2]
    est = spike_query(theta, Sample(lam))[0]
    assert est == spikes.sample_spikes(lam, ["3/2"])[0] and est.sample_size == 2000


@pytest.mark.parametrize("query, message", [
    (lambda: spike_query(Spikes(theta=[2]), MarchenkoPastur("1/2")),
     "model = additive is outside the allowed range multiplicative (the MP bulk is a "
     "covariance)"),
    (lambda: spike_query(Spikes(ell=[2]), Semicircle()),
     "bulk = semicircle is outside the allowed range semicircle with the additive model"),
    (lambda: spike_query(Spikes(theta=[2]), "semicircle"), "bulk = 'semicircle' is outside"),
    (lambda: spike_query(Spikes(theta=[0])), "theta = 0"),
    (lambda: spike_query(Spikes(ell=[1]), Density("3/4*(1 - x**2)*2", "0,1"), 15),
     "ell = 1 is outside the allowed range ℓ > 0, ℓ ≠ 1"),
    (lambda: spike_query(Spikes(theta=list(range(1, 22)))), "theta = 21 numbers"),
])
def test_spike_query_refuses(query, message):
    with pytest.raises(DomainError) as err:
        query()
    assert str(err.value).startswith(message)


def test_link_overlaps_two_resolutions():
    from fltheory.engine.spectral.links import preprocessing_law
    from fltheory.engine.spectral.luli import luli_overlap

    below, above = link_overlaps(Link("z**2", alphas="2/5,2"))
    assert (below.rho2, below.outlier, below.digits) == (0.0, None, 15)
    fine = luli_overlap(preprocessing_law("z**2", "optimal", panels=1200), 0, 2.0)
    assert (above.rho2, above.outlier, above.edge) == (fine.rho2, fine.outlier, fine.edge)
    assert above.digits >= 8 and above.alpha == 2


def test_the_face_shows_parameters_and_bulks():
    names = set(dir(spectral))
    assert {"Spikes", "Link", "Semicircle", "MarchenkoPastur", "Density", "Sample",
            "read_bulk", "spike_query", "link_answer", "link_overlaps"} <= names
    assert spectral.Density is Density and spectral.Spikes is Spikes


# --------------------------------------------------------------------------- runs, simulator


def test_figure_points_and_curve():
    from fltheory.papers.spectral.runs import wigner_overlap
    from fltheory.papers.spectral.theory import semicircle_overlap_curve

    assert wigner_overlap(2.0, 100, 3, 5, 1) == wigner_overlap(2.0, 100, 3, 5, 1)
    assert wigner_overlap(2.0, 100, 1, 5, 1)[1] == 0.0
    curve = semicircle_overlap_curve(np.array([0.0, 0.5, 1.0, 3.0]))
    assert curve.tolist() == [0.0, 0.0, 0.0, 1 - 1 / 9.0]


@pytest.mark.parametrize("call, word", [
    (lambda sim: sim.spiked_wigner(1, 2.0, 0), "N = 1"),
    (lambda sim: sim.spiked_wishart(10, 2.0, 2.0, 0), "n = 2.0 is not an integer"),
    (lambda sim: sim.phase_retrieval(10, 0.1, 0), "n = 1"),
    (lambda sim: sim.spiked_wigner(5000, 2.0, 0), "N = 5000"),
])
def test_simulator_sizes_are_read_by_the_shared_reader(call, word):
    from fltheory.papers.spectral import sim

    with pytest.raises(DomainError, match=word):
        call(sim)
