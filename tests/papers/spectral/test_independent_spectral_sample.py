"""BBP answers from a sample of eigenvalues (``sample_spikes``, ``fltheory spike
--eigenvalues``) against the closed forms (semicircle: outlier θ + 1/θ, overlap 1 − 1/θ²;
Marchenko–Pastur: ℓ(1 + γ/(ℓ − 1)), (1 − γ/(ℓ − 1)²)/(1 + γ/(ℓ − 1)); BBP 2005, Paul 2007 —
exact rationals from ``semicircle_spikes``/``mp_spikes``, themselves checked by quadrature in
test_independent_spectral.py).

Tolerance: the standard errors the estimate reports, which treat the eigenvalues as independent
draws. For independent draws of μ (the iid tests) that is the statistic itself, and 4 standard
errors fail by chance with probability ~6e-5 at a fixed seed. For one matrix's spectrum (GOE,
Wishart) the errors are conservative (linear statistics fluctuate O(1/N)) and the finite-N
bias is O(1/N), so 3 standard errors hold with room. Each test also bounds the standard error
itself, so a test cannot pass through a huge error bar.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from fltheory.cli import cli
from fltheory.engine.spectral.spikes import (
    mp_spikes,
    sample_bulk,
    sample_spikes,
    semicircle_spikes,
)
from fltheory.exact import DomainError


@pytest.fixture(scope="module")
def goe():
    rng = np.random.default_rng(20261205)
    n = 1000
    a = rng.standard_normal((n, n))
    return np.linalg.eigvalsh((a + a.T) / np.sqrt(2 * n))  # off-diagonal variance 1/n


@pytest.fixture(scope="module")
def wishart():
    rng = np.random.default_rng(7)
    p, n = 600, 1200  # γ = 1/2
    z = rng.standard_normal((p, n))
    return np.linalg.eigvalsh(z @ z.T / n)


def _close(est, exact, k):
    se = est.stderr
    assert est.phase == exact.phase == "outlier"
    assert abs(est.outlier - float(exact.outlier)) <= k * se["outlier"], (est.outlier, se)
    assert abs(est.overlap - float(exact.overlap)) <= k * se["overlap"], (est.overlap, se)


@pytest.mark.parametrize("theta", [Fraction(2), Fraction(-5, 2), Fraction(13, 8)])
def test_goe_spectrum_against_semicircle(goe, theta):
    est = sample_spikes(goe, [theta])[0]
    _close(est, semicircle_spikes([theta])[0], 3)
    assert est.stderr["outlier"] < 0.05 and est.stderr["overlap"] < 0.1 and est.sample_size == 1000


def test_goe_threshold_and_phases(goe):
    lo, hi = sample_spikes(goe, ["1/2", "11/10"])
    # θ_c = 1: the extrapolated edge estimate within 3 of its standard errors, which are < 0.15
    assert abs(lo.threshold - 1) <= 3 * lo.stderr["threshold"] < 0.45
    assert lo.phase == "no outlier" and lo.overlap == 0
    # θ = 11/10: ρ = 2.009 sits within the edge scale 4·1000^(−2/3) = 0.04 of λ_max: undecided
    assert hi.phase == "unresolved" and hi.outlier is None


def test_iid_semicircle_draws():
    # x = 4B − 2 with B ~ Beta(3/2, 3/2) is exactly semicircular on [−2, 2]
    rng = np.random.default_rng(11)
    x = 4 * rng.beta(1.5, 1.5, size=40000) - 2
    for theta in (Fraction(7, 4), Fraction(-3)):
        est = sample_spikes(x, [theta])[0]
        _close(est, semicircle_spikes([theta])[0], 4)
        assert est.stderr["overlap"] < 0.02


@pytest.mark.parametrize("ell", [Fraction(3), Fraction(5, 2)])
def test_wishart_spectrum_against_marchenko_pastur(wishart, ell):
    est = sample_spikes(wishart, [ell], model="multiplicative")[0]
    _close(est, mp_spikes([ell], Fraction(1, 2))[0], 3)
    assert est.stderr["outlier"] < 0.1
    # ℓ_c = 1 + √(1/2), the field holds ℓ_c like bulk_spikes
    assert abs(est.threshold - (1 + 0.5 ** 0.5)) <= 3 * est.stderr["threshold"]


def test_sample_digits_follow_the_standard_error(goe, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# no eigenvalues\n")
    r = CliRunner().invoke(cli, ["spike", "--theta", "2", "--format", "json",
                                 "--eigenvalues", str(empty)])
    assert r.exit_code == 2 and "too few" in r.output
    est = sample_spikes(goe, ["2"])[0]
    assert est.digits <= 4  # two standard errors of ~0.03 leave at most 2–3 digits of ρ ≈ 2.5


@pytest.mark.parametrize("content, word", [
    ("1 2 nan " + " ".join(str(k) for k in range(200)), "not finite"),
    (" ".join(str(k) for k in range(50)), "too few"),
    ("1 2 x3 " + " ".join(str(k) for k in range(200)), "not a number"),
    ("5 " * 300, "point mass"),
])
def test_bad_eigenvalue_files(tmp_path, content, word):
    f = tmp_path / "eig.txt"
    f.write_text(content)
    r = CliRunner().invoke(cli, ["spike", "--theta", "2", "--eigenvalues", str(f)])
    assert r.exit_code == 2 and word in r.output and len(r.output.strip().splitlines()) == 1


def test_unreadable_and_conflicting(tmp_path):
    for args in (["--eigenvalues", str(tmp_path / "missing.txt")],
                 ["--eigenvalues", str(tmp_path)],
                 ["--eigenvalues", "/dev/zero"],  # never ends: refused before reading
                 ["--bulk", "sample"],
                 ["--bulk", "mp", "--eigenvalues", str(tmp_path / "x")]):
        r = CliRunner().invoke(cli, ["spike", "--theta", "2", *args])
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    with pytest.raises(DomainError):
        sample_spikes(np.linspace(-1, 1, 200), ["2"], model="multiplicative")  # λ < 0
    with pytest.raises(DomainError):
        sample_bulk([*np.ones((10, 10)).tolist(), [1.0]])  # ragged


def test_every_format_says_it_is_an_estimate(goe, tmp_path):
    f = tmp_path / "goe.txt"
    np.savetxt(f, goe)
    for fmt in ("text", "json", "latex"):
        r = CliRunner().invoke(cli, ["spike", "--theta", "2", "--eigenvalues", str(f),
                                     "--format", fmt])
        assert r.exit_code == 0 and "estimates from 1000 eigenvalues" in r.output, fmt
