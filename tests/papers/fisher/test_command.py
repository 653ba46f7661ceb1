"""The command ``fltheory fisher`` (ReLU closed forms; ``--sigma``: random features of any
activation) and ``fisher simulate``: its answers, and its edges (every argument that sets the
work bounded before the work starts, values beyond float range one-line errors, the public
functions behind it validating their arguments). The ReLU default is also compared byte for byte
by tests/framework/test_cli.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import mpmath
import pytest
from layout import ROOT

from fltheory.exact import CostError, DomainError


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess with a time bound: a regression that hangs fails, not hangs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, check=False)


def _refused(result: object, param: str) -> None:
    """Exit 2, exactly one line on stderr, naming the parameter, no traceback."""
    code = getattr(result, "exit_code", getattr(result, "returncode", None))
    err = result.stderr  # type: ignore[attr-defined]
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith("fltheory: error: "), err
    assert f"{param} = " in err, err
    assert "Traceback" not in err


def test_cli_fisher(invoke):
    r = invoke("fisher", "--d", "3", "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["value"][:3] == ["9/16", "1/4", "9/256"]
    assert data["details"]["trace"] == "3/2"
    r = invoke("fisher", "simulate", "--d", "4", "--m", "300", "--format", "json")
    assert r.exit_code == 0 and len(json.loads(r.stdout)["details"]["clusters"]) == 3
    for bad in (["--d", "0"], ["--d", "1.5"], ["--d", "5", "--lmax", "-1"], ["--d", "1"],
                ["simulate", "--d", "3", "--m", "0"], []):
        r = invoke("fisher", *bad)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1, bad


# --------------------------------------------------------------------------- edges


@pytest.mark.parametrize(("args", "param"), [
    (["fisher", "simulate", "--d", "1e9"], "d"),
    (["fisher", "simulate", "--d", "1e400"], "d"),
    (["fisher", "simulate", "--d", "5", "--m", "20000"], "m"),
    (["fisher", "simulate", "--d", "5", "--m", "1"], "m"),
    (["fisher", "--d", "1e16", "--lmax", "60"], "lmax"),
    (["fisher", "--d", "10", "--lmax", "60", "--dps", "1000"], "dps"),  # one --dps bound
    (["fisher", "--d", "1e4000", "--lmax", "1"], "d"),
    (["fisher", "--d", "3", "--lmax", "61"], "lmax"),
    (["fisher", "--d", "1"], "d"),
])
def test_fisher_refusals(invoke, args, param):
    _refused(invoke(*args), param)


def test_fisher_simulate_huge_d_refused_without_allocating():
    """Issue: `fisher simulate --d 1e9` tried to allocate 16 TB; refused at once."""
    p = _run("fisher", "simulate", "--d", "1e9", timeout=30)
    _refused(p, "d")


def test_fisher_huge_d_answers_finite(invoke):
    r = invoke("fisher", "--d", "1e100", "--lmax", "4", "--format", "json")
    assert r.exit_code == 0, r.stderr
    levels = json.loads(r.stdout)["details"]["levels"]
    assert "nan" not in r.stdout.lower() and "inf" not in r.stdout.lower()
    # λ_0 → d/(2π) + 1/(4π) for large d, λ_1 = 1/4, λ_3 = 0 (module docstring)
    with mpmath.workdps(40):
        lam0 = mpmath.mpf(levels[0]["numeric"])
        # the relative O(1/d) correction is 1/(2d) = 5e-101: all 30 printed digits agree
        assert abs(lam0 / (mpmath.mpf(10) ** 100 / (2 * mpmath.pi)) - 1) < mpmath.mpf(10) ** -28
    assert levels[1]["exact"] == "1/4" and levels[3]["exact"] == "0"


def test_fisher_api_validates():
    from fltheory.papers.fisher import sim
    from fltheory.papers.fisher import theory as th

    with pytest.raises(CostError, match="lmax = 60"):
        th.spectrum(10**16, 60)
    with pytest.raises(DomainError, match="d = 1 "):
        th.spectrum(1, 2)
    with pytest.raises(DomainError, match="d = 1000000000"):
        sim.sample(10**9, 2000, 0)
    with pytest.raises(ValueError, match="seed = -1"):
        sim.sample(3, 10, -1)


# --------------------------------------------------------------------------- --sigma


def test_fisher_sigma_json(invoke):
    """An odd, non-homogeneous polynomial (exact route): even l vanish, l = 1 has two radial
    levels (z and z³ parts), l = 3 one, and the levels' trace parts sum to E K(w, w)."""
    r = invoke("fisher", "--sigma", "z**3 + z", "--d", "5", "--lmax", "3", "--jmax", "1",
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    levels = {(o["l"], o["j"]): o for o in data["details"]["levels"]}
    assert float(levels[(0, 0)]["numeric"]) == 0 and float(levels[(2, 0)]["numeric"]) == 0
    assert float(levels[(1, 1)]["numeric"]) > 0 and float(levels[(3, 1)]["numeric"]) == 0
    assert float(levels[(1, 0)]["numeric"]) > float(levels[(3, 0)]["numeric"]) > 0
    assert data["inputs"]["sigma"] == "z**3 + z"
    total = sum(o["multiplicity"] * float(o["numeric"]) for o in levels.values())
    assert total == pytest.approx(float(data["details"]["trace"]), rel=1e-12)


def test_fisher_sigma_relu_matches_the_relu_paper(invoke):
    """--sigma relu --scale s: homogeneous of degree 1, so λ_l = (s²/d)·λ_l(ReLU paper)."""
    from fltheory.papers.fisher import theory as fisher

    r = invoke("fisher", "--sigma", "relu", "--d", "5", "--lmax", "2", "--jmax", "0",
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    got = {(o["l"], o["j"]): float(o["numeric"]) for o in json.loads(r.stdout)["details"]["levels"]}
    for lev in fisher.spectrum(5, 2, 30).levels:
        assert got[(lev.l, 0)] == pytest.approx(float(lev.value) / 5, rel=1e-12)


def test_fisher_simulate_sigma(invoke):
    r = invoke("fisher", "simulate", "--sigma", "z**3 + z", "--d", "4", "--m", "400",
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    found = {(o["l"], o["j"]): o for o in data["value"] if o["mean"] is not None}
    assert found[(1, 0)]["size"] == 4 and found[(3, 0)]["size"] == 16
    assert found[(1, 0)]["mean"] == pytest.approx(found[(1, 0)]["predicted"], rel=0.1)


@pytest.mark.parametrize("bad", [
    ["--sigma", "exp(z**2)", "--d", "5"],
    ["--sigma", "tanh", "--d", "5", "--scale", "0"],
    ["--sigma", "tanh", "--d", "5", "--scale", "-1/2"],
    ["--sigma", "tanh", "--d", "1"],
    ["--sigma", "tanh", "--d", "5", "--jmax", "-1"],
    ["--sigma", "import os", "--d", "5"],
    ["simulate", "--sigma", "exp(z**2)", "--d", "4", "--m", "100"],
    ["simulate", "--sigma", "tanh", "--d", "4", "--m", "100", "--scale", "0"],
    ["simulate", "--sigma", "tanh", "--d", "4", "--m", "100000"],
])
def test_fisher_sigma_bad_input(invoke, bad):
    r = invoke("fisher", *bad)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, (bad, r.stderr)


def test_plot_rf_spectrum(invoke, tmp_path):
    """The paper's figure (tanh and tanh(z + 1/2) at d = 6, m = 1000 against their levels)."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "rf.png"
    r = invoke("plot", "rf_spectrum", "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sigma_without_dps_answers_with_each_values_digits(invoke):
    """Without --dps a numeric σ at small d is answered with the digits each value is confirmed
    to (float64 Gram route, two orders compared), and no "digits asked" is mentioned. Reference:
    an independent checker's radial Nyström with the exact tanh kernel and a Mehler–Gram method,
    which agree on λ_{1,0} = 0.035617559017 (11 digits) and λ_{3,0} = 8.6330482e-5
    (/work/wt/VERIFY.md A4; tanh, d = 10, s = 1)."""
    out = invoke("fisher", "--sigma", "tanh", "--d", "10", "--format", "json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    levels = {(lev["l"], lev["j"]): lev for lev in data["details"]["levels"]}
    assert all(levels[(l, j)]["digits"] >= 10 for l in (1, 3) for j in range(3))
    assert abs(float(levels[(1, 0)]["numeric"]) - 0.035617559017) < 2e-12
    assert abs(float(levels[(3, 0)]["numeric"]) / 8.6330482e-5 - 1) < 2e-8
    assert "asked" not in out.stdout
    asked = invoke("fisher", "--sigma", "tanh", "--d", "10", "--dps", "8")
    assert asked.exit_code == 0, asked.stderr
