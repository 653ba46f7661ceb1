"""`fltheory link` says the same thing in every format: α_c and T* in text, JSON and LaTeX,
with or without --alpha (the LaTeX output once held only its header comment)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fltheory.cli import cli


def _run(*args):
    r = CliRunner().invoke(cli, ["link", *args])
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("g, alpha_tex, tstar", [("z**2", r"\alpha_c = \tfrac{1}{2}", "1 - 1/y"),
                                                 ("tanh", r"\alpha_c = 0", "E[z|y] (linear)")])
def test_link_latex_without_alpha_has_the_table(g, alpha_tex, tstar):
    data = json.loads(_run("--g", g, "--format", "json"))
    tex = _run("--g", g, "--format", "latex")
    assert alpha_tex in tex and r"\begin{tabular}" in tex
    row = data["table"]["rows"][0]
    assert row[0] == g and row[1] == data["value"]["alpha_c"] and row[2] == tstar
    assert f"& ${row[1]}$ &" in tex and tstar in tex
    assert data["value"]["alpha_c"] in _run("--g", g)


def test_link_latex_quadrature_digits_match_json():
    data = json.loads(_run("--g", "He4", "--dps", "15", "--format", "json"))
    tex = _run("--g", "He4", "--dps", "15", "--format", "latex")
    a = data["value"]["alpha_c"]
    assert a.startswith("0.6448504699") and rf"\alpha_c \approx {a}" in tex and f"${a}$" in tex


def test_link_latex_with_alpha_names_the_threshold():
    tex = _run("--g", "z**2", "--alpha", "1", "--format", "latex")
    rho2 = json.loads(_run("--g", "z**2", "--alpha", "1", "--format", "json"))["details"][
        "overlaps"][0]["rho2"]
    assert r"\alpha_c = \tfrac{1}{2}" in tex and "T*(y) = 1 - 1/y" in tex and rho2 in tex
