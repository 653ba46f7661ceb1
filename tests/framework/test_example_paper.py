"""The example paper of docs/adding-a-paper.md, built and registered as a user would: its files
(docs/example_paper/wishart_paper/) copied into a temporary site directory with an entry point,
then used through the ``fltheory`` command. It has the shape every built-in paper has
(fltheory.papers.shape), its claim verifies, its command answers in every format, a bad
parameter is one line and exit 2, its table renders, and its doctests run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from layout import ROOT

EXAMPLE = ROOT / "docs" / "example_paper" / "wishart_paper"


@pytest.fixture(scope="module")
def example_env(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    shutil.copytree(EXAMPLE, site / "wishart_paper",
                    ignore=shutil.ignore_patterns("__pycache__"))
    info = site / "wishart_paper-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: wishart-paper\nVersion: 0.1\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text("[fltheory.papers]\nwishart = wishart_paper\n",
                                           encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT), env.get("PYTHONPATH", "")])
    return env, site


def _run(env, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fltheory", *args], env=env[0], cwd=env[1],
                          capture_output=True, text=True, timeout=300)


def test_example_paper_has_the_shape():
    from fltheory.papers import shape

    assert shape.problems(EXAMPLE, "wishart_paper") == []


def test_example_claim_verifies(example_env):
    r = _run(example_env, "verify", "wishart", "--format", "json", "--no-cache")
    assert r.returncode == 0, r.stderr
    (run,) = json.loads(r.stdout)["details"]["claims"]
    assert (run["id"], run["status"]) == ("wishart.edge", "pass")
    # the prediction is (1 + √(1/2))², computed here a second way
    assert float(run["predicted"]) == pytest.approx((1 + 0.5 ** 0.5) ** 2, abs=1e-6)


def test_example_command_answers_and_refuses(example_env):
    r = _run(example_env, "wishart", "--gamma", "1/4", "--n", "200", "--format", "json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert (out["value"], out["inputs"]["gamma"]) == ("9/4", "1/4")
    for fmt in ("text", "latex"):
        assert _run(example_env, "wishart", "--format", fmt).returncode == 0
    bad = _run(example_env, "wishart", "--gamma", "3/2")
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "gamma = 3/2" in bad.stderr, bad.stderr


def test_example_table_renders(example_env, tmp_path):
    out = tmp_path / "wishart.tex"
    r = _run(example_env, "table", "wishart", "--output", str(out))
    assert r.returncode == 0, r.stderr
    assert "9/4" in out.read_text(encoding="utf-8")


def test_example_doctests_run(example_env):
    package = str(example_env[1] / "wishart_paper")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "--doctest-modules", "-p",
                        "no:cacheprovider", "-o", "addopts=", package],
                       env=example_env[0], cwd=example_env[1], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-2000:]
