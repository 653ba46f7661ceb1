"""The ``fltheory glm`` command: formats, bad input (one line, exit 2, before any work), and
the parameter objects refusing what the command refuses."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from fltheory.cli import cli
from fltheory.exact import DomainError
from fltheory.papers.glm.params import Channel, Prior, gauss_bernoulli, read_channel, read_prior


def _run(*args):
    return CliRunner().invoke(cli, ["glm", *args])


@pytest.mark.parametrize("args,needle", [
    (["--prior", "mixture(1/2*delta(1) + 1/3*delta(-1))"], "do not sum to one"),
    (["--prior", "mixture(-1/2*delta(1) + 3/2*delta(-1))"], "prior weight"),
    (["--prior", "gauss-bernoulli(0)"], "rho = 0"),
    # the line names the option the user typed (it said "rho = 0 …" alone)
    (["--prior", "sparse-rademacher(6/5)"], "prior = sparse-rademacher(6/5) has rho = 6/5"),
    (["--prior", "laplace"], "not a known prior"),
    (["--channel", "door(0)"], "K = 0"),
    (["--channel", "tanh(z)"], "likelihood undefined"),
    (["--channel", "log(z)"], "channel"),
    (["--noise", "-1"], "noise"),
    (["--alpha", "0"], "alpha = 0"),
    (["--alpha", "1,x"], "alpha"),
    (["--channel", "square", "--noise", "1e-7"], "noise = 1/10000000 is too small"),
    (["--channel", "tanh(z)", "--noise", "1/10"], "quadrature nodes"),   # cost, before work
    (["--channel", "Abs(z**2 - 1)", "--noise", "1/2"], "not implemented"),
    # the fuzz's internal errors (P(|z| > K) = 0; a spinodal search without a root)
    (["--channel", "door(39)"], "K/√ρ' in [0.001, 20]"),
    (["--channel", "door(1/1000000)"], "K/√ρ' in [0.001, 20]"),
])
def test_bad_input_is_one_line_and_exit_2(args, needle):
    r = _run(*args)
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], r.output


def test_the_objects_refuse_what_the_command_refuses():
    with pytest.raises(DomainError, match="sum to one"):
        Prior(((0.5, 1, 0), (0.25, -1, 0)))
    with pytest.raises(DomainError, match="rho"):
        gauss_bernoulli(2)
    with pytest.raises(DomainError, match="K"):
        Channel("door", K=-1)
    with pytest.raises(DomainError, match="point mass"):
        read_prior("mixture(1*delta(2))")


def test_expression_channels_are_recognised():
    assert read_channel("sign(Abs(z) - 1/2)").kind == "door"
    assert read_channel("z**2").kind == "square"
    assert read_channel("Max(z, 0)").kind == "relu"


def test_thresholds_text_json_latex():
    r = _run("--prior", "rademacher", "--channel", "sign")
    assert r.exit_code == 0, r.output
    assert "α_IT = 1.2446839898" in r.output and "α_alg = 1.4926318182" in r.output
    j = json.loads(_run("--prior", "rademacher", "--channel", "sign", "--format", "json").output)
    assert j["value"]["alpha_alg"]["kind"] == "spinodal"
    assert j["value"]["alpha_IT"]["digits"] >= 10
    assert _run("--prior", "rademacher", "--format", "latex").exit_code == 0


def test_door_expression_and_alphas():
    r = _run("--prior", "gaussian", "--channel", "sign(Abs(z) - 1/2)", "--alpha", "1,2,5")
    assert r.exit_code == 0, r.output
    assert "α_WR = 2*pi*" in r.output
    assert "0.382924922548" in r.output      # α = 1 < α_WR: q = 0, error min(p₊, p₋)


def test_ridge_column():
    r = _run("--prior", "gaussian", "--channel", "sign", "--alpha", "2", "--ridge", "opt")
    assert r.exit_code == 0, r.output
    assert "error ridge" in r.output


def test_just_above_the_weak_recovery_threshold_answers(invoke):
    """Phase retrieval (Gaussian prior, z²) just above α_WR = 1/2: the root finder evaluates the
    curve at q̂ ~ 1e-30, where Q underflowed to 0 and the command stopped with an internal error
    (ZeroDivisionError). Now it answers, and the transition being continuous, q grows linearly
    from α_WR: q/(α − α_WR) at α − α_WR = 1e-7 agrees with its value at 1e-3 to the printed
    digits (the check rests only on continuity, not on this code's numbers)."""
    out = json.loads(invoke("glm", "--prior", "gaussian", "--channel", "square", "--alpha",
                            "0.5000001,0.501", "--format", "json").stdout)
    near, far = (float(row[1].lstrip("~")) for row in out["table"]["rows"])
    assert 0 < near < 1e-6
    assert abs(near / 1e-7 - far / 1e-3) < 0.05 * far / 1e-3


@pytest.mark.parametrize("channel,alphas", [("linear", "999999/1000000,1"),
                                            ("relu", "1999998/1000000,2")])
def test_alpha_exactly_at_perfect_recovery_answers(invoke, channel, alphas):
    """Gaussian prior, noiseless linear or ReLU labels at α = A(∞) = c_w/c_y exactly (1 and 2:
    the fraction of labels with a density, 1 and 1/2): no fixed point was stable there (the
    interior branch reaches A(∞) only as q̂ → ∞, and q = ρ counted as stable only above it),
    and the command stopped with an internal error. Noiseless linear labels at n = d determine
    w* (a square Gaussian system), and the MMSE just below A(∞) tends to 0 (checked at
    A(∞)(1 − 10⁻⁶)), so the answer at A(∞) is q = ρ = 1."""
    out = json.loads(invoke("glm", "--prior", "gaussian", "--channel", channel, "--alpha",
                            alphas, "--format", "json").stdout)
    below, at = (float(row[2].lstrip("~")) for row in out["table"]["rows"])
    assert at == 0.0
    assert 0 < below < 1e-2
