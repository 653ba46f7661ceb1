"""The commands ``fltheory spike`` and ``fltheory link``: bad input is one line and exit status 2,
with the message the Python API gives for the same parameters (the command builds the parameter
objects and checks nothing itself); exact and numeric outputs; ``link`` says the same thing in
every format (α_c and T* in text, JSON and LaTeX, with or without --alpha: the LaTeX output once
held only its header comment)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from unwrap import unwrap

from fltheory.cli import cli
from fltheory.engine.spectral.bulks import read_bulk
from fltheory.exact import DomainError
from fltheory.papers.spectral.params import Link, Spikes
from fltheory.papers.spectral.theory import link_answer, spike_query


def _run(args):
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.output


@pytest.mark.parametrize(("args", "word"), [
    (["spike", "--theta", "0"], "theta"),
    (["spike", "--theta", "2", "--bulk", "density", "--density", "x", "--support", "-1,1"],
     "negative"),
    (["spike", "--theta", "2", "--bulk", "density", "--density", "1", "--support", "0,2"],
     "integrates to 2"),
    (["spike", "--theta", "2", "--bulk", "density", "--density", "1/2", "--support", "2,0"],
     "support"),
    (["spike", "--ell", "3", "--gamma", "0"], "gamma"),
    (["spike", "--ell", "3", "--gamma", "-1/2"], "gamma"),
    (["spike", "--ell", "-1", "--gamma", "1/2"], "ell"),
    (["spike", "--ell", "3"], "gamma"),
    (["spike", "--theta", "2", "--ell", "3"], "theta"),
    (["link", "--g", "cos(z)"], "not implemented"),
    (["link", "--g", "z**2", "--alpha", "1", "--T", "y"], "bounded above"),
    (["link", "--g", "z**2", "--alpha", "0"], "alpha"),
])
def test_bad_input_is_one_line_exit_2(args, word):
    code, out = _run(args)
    assert code == 2, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and word in lines[0], out


def test_cli_outputs_exact_and_numeric():
    code, out = _run(["spike", "--theta", "3/2,1", "--format", "json"])
    assert code == 0
    spikes_out = json.loads(out)["value"]
    assert [s["outlier"] for s in spikes_out] == ["13/6", None]
    assert spikes_out[1]["phase"] == "critical"
    code, out = _run(["link", "--g", "z**2", "--alpha", "2", "--format", "json"])
    data = json.loads(out)
    assert code == 0 and data["value"]["alpha_c"] == "1/2"
    assert data["details"]["overlaps"][0]["rho2"].startswith("0.6388812")


def test_link_without_spectral_signal_prints_infinity():
    """y = 1 carries no information: E[z²|y] ≡ 1, so E[(m − 1)²] = 0 and α_c = 1/0 = ∞ by the
    Mondelli–Montanari formula; every format answers (found by the CLI fuzz: it was an internal
    error on a non-finite number)."""
    for fmt in ("text", "json", "latex"):
        res = CliRunner().invoke(cli, ["link", "--g", "1", "--format", fmt])
        assert res.exit_code == 0, res.output
        assert fmt == "latex" or "∞" in res.output  # latex: no table without --alpha


# --------------------------------------------------------------------------- link formats


def _link(*args):
    r = CliRunner().invoke(cli, ["link", *args])
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("g, alpha_tex, cell, cell_tex, tstar", [
    ("z**2", r"\alpha_c = \tfrac{1}{2}", "1/2", "$1/2$", "1 - 1/y"),
    # a linear link: the linear estimator's 0 and the spectral estimator's own 1/2 (issue 37)
    ("tanh", r"\alpha_c = 0", "0 (linear); 1/2 (spectral)", "$0$ (linear); $1/2$ (spectral)",
     "1 − 1/z(y)² on the monotone pieces")])
def test_link_latex_without_alpha_has_the_table(g, alpha_tex, cell, cell_tex, tstar):
    data = json.loads(_link("--g", g, "--format", "json"))
    tex = _link("--g", g, "--format", "latex")
    assert alpha_tex in tex and r"\begin{tabular}" in tex
    row = data["table"]["rows"][0]
    assert row[0] == g and row[1] == cell and row[2] == tstar
    assert cell.split(" ")[0] == data["value"]["alpha_c"]
    assert f"& {cell_tex} &" in tex
    assert data["value"]["alpha_c"] in _link("--g", g)


def test_link_latex_quadrature_digits_match_json():
    data = json.loads(_link("--g", "He4", "--dps", "15", "--format", "json"))
    tex = _link("--g", "He4", "--dps", "15", "--format", "latex")
    a = data["value"]["alpha_c"]
    assert a.startswith("0.6448504699") and rf"\alpha_c \approx {a}" in tex and f"${a}$" in tex


def test_link_latex_with_alpha_names_the_threshold():
    tex = _link("--g", "z**2", "--alpha", "1", "--format", "latex")
    rho2 = json.loads(_link("--g", "z**2", "--alpha", "1", "--format", "json"))["details"][
        "overlaps"][0]["rho2"]
    assert r"\alpha_c = \tfrac{1}{2}" in tex and "T*(y) = 1 - 1/y" in tex and rho2 in tex


# --------------------------------------------------------------------------- the API's messages

def _api_spike(theta=None, ell=None, bulk=None, gamma=None, density=None, support=None,
               eigenvalues=None):
    """What ``fltheory spike`` does with its options, through the public API."""
    spikes = Spikes(theta=theta, ell=ell)
    return spike_query(spikes, read_bulk(bulk, spikes.model, gamma=gamma, density=density,
                                         support=support, eigenvalues=eigenvalues), 15)


@pytest.mark.parametrize("options", [
    {"theta": "0"}, {"ell": "3"}, {"theta": "2", "ell": "3"}, {},
    {"ell": "3", "gamma": "0"}, {"theta": "2", "gamma": "1/2"},
    {"theta": "2", "bulk": "mp", "gamma": "1/2"}, {"ell": "2", "bulk": "semicircle"},
    {"theta": "2", "bulk": "sample"}, {"theta": "2", "density": "x"},
    {"theta": "2", "bulk": "density", "density": "1/2", "support": "2,0"},
    {"theta": "2", "bulk": "density", "density": "1", "support": "0,2"},
    {"theta": ",".join(["1"] * 21)},
])
def test_spike_command_refuses_what_the_api_refuses(invoke, options):
    with pytest.raises(DomainError) as err:
        _api_spike(**options)
    args = [a for k, v in options.items() for a in (f"--{k}", v)]
    r = invoke("spike", *args, "--dps", "15")
    assert r.exit_code == 2 and r.stderr == f"fltheory: error: {err.value}\n", r.stderr


@pytest.mark.parametrize("options", [
    {"alpha": "0"}, {"alpha": "1,-2"}, {"noise": "-1"}, {"noise": "200"},
    {"alpha": ",".join(["1"] * 21)},
])
def test_link_command_refuses_what_the_api_refuses(invoke, options):
    with pytest.raises(DomainError) as err:
        link_answer(Link("z**2", noise=options.get("noise", 0), alphas=options.get("alpha")))
    args = [a for k, v in options.items() for a in (f"--{k}", v)]
    r = invoke("link", "--g", "z**2", *args)
    assert r.exit_code == 2 and r.stderr == f"fltheory: error: {err.value}\n", r.stderr


def test_sample_bulk_from_a_file(tmp_path):
    # the file is read once, by the Sample the command builds: its name is in the answer
    rng = np.random.default_rng(1)
    f = tmp_path / "spectrum.txt"
    np.savetxt(f, 4 * rng.beta(1.5, 1.5, size=3000) - 2)
    r = CliRunner().invoke(cli, ["spike", "--theta", "3", "--eigenvalues", str(f),
                                 "--format", "json"])
    data = json.loads(r.output)
    assert r.exit_code == 0 and data["inputs"]["eigenvalues"] == str(f)
    assert data["inputs"]["bulk"] == "sample" and data["inputs"]["gamma"] is None
    r = CliRunner().invoke(cli, ["spike", "--theta", "3", "--eigenvalues", str(f)])
    assert f"1 spike(s) on the bulk of the 3000 eigenvalues of {f}" in unwrap(r.output)
