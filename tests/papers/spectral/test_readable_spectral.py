"""Readable output of ``spike`` and ``link`` (issue 37, item 7): a decimal beside every exact
non-integer, exact surds in ``--support``, long exact inputs echoed shortened, α bounded.

References: 13/6 = 2.1666…, 5/9 = 0.5555…, 15/4 = 3.75 by hand; the uniform bulk of unit
variance on [−√3, √3] has G(z) = log((z + √3)/(z − √3))/(2√3), so the outlier of θ solves
G(ρ) = 1/θ: ρ = √3 coth(√3/θ), and the squared overlap −1/(θ²G'(ρ)) = (ρ² − 3)/θ² (derived
here by hand, evaluated with the standard library)."""

from __future__ import annotations

import json
import math


def test_spike_decimals_beside_exact_values(invoke):
    r = invoke("spike", "--theta", "3/2,1/2")
    assert r.exit_code == 0
    assert "13/6 ≈ 2.16667" in r.stdout and "5/9 ≈ 0.555556" in r.stdout
    assert "outlier at θ + 1/θ = 13/6 ≈ 2.16667" in r.stdout
    r = invoke("spike", "--ell", "3", "--gamma", "1/2")
    assert "15/4 ≈ 3.75" in r.stdout and "1 + sqrt(1/2) ≈ 1.70711" in r.stdout
    data = json.loads(invoke("spike", "--theta", "3/2", "--format", "json").stdout)
    assert data["value"][0]["outlier"] == "13/6"  # the JSON value stays exact


def test_support_with_exact_surds(invoke):
    r = invoke("spike", "--theta", "2", "--bulk", "density", "--density", "1/(2*sqrt(3))",
               "--support=-sqrt(3),sqrt(3)", "--dps", "20", "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["inputs"]["support"] == ["-sqrt(3)", "sqrt(3)"]
    rho = math.sqrt(3) / math.tanh(math.sqrt(3) / 2)
    spike = data["value"][0]
    assert abs(float(spike["outlier"]) / rho - 1) < 1e-12
    assert abs(float(spike["overlap"]) - (rho * rho - 3) / 4) < 1e-12


def test_support_refusals(invoke):
    r = invoke("spike", "--theta", "2", "--bulk", "density", "--density", "1/2",
               "--support=sqrt(2),-sqrt(2)")
    assert r.exit_code == 2 and "a < b" in r.stderr
    r = invoke("spike", "--theta", "2", "--bulk", "density", "--density", "1/2",
               "--support=-1,z")
    assert r.exit_code == 2 and "support = -1,z" in r.stderr


def test_long_exact_inputs_are_echoed_short(invoke):
    r = invoke("spike", "--theta", "1e300")
    assert r.exit_code == 0
    assert "1.00000e+300 (exact: 301 characters)" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) < 300
    data = json.loads(invoke("samples", "He3", "--noise", "1e300", "--kmax", "4",
                             "--format", "json").stdout)
    assert data["inputs"]["noise"] == "1.00000e+300 (exact: 301 characters)"


def test_alpha_is_bounded(invoke):
    r = invoke("link", "--g", "z**2", "--alpha", "1e300")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "1000000" in r.stderr
