"""Papers as plugins: a throw-away paper, written by a fixture into a temporary directory as an
installed distribution (a package and its ``.dist-info`` with an entry point), appears in every
listing — claims, ``verify``, tables, figures, sweep tasks, the root command, the notebook
builder — without a single file of fltheory being edited.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

TOY_PACKAGE = {
    "__init__.py": '"""A throw-away paper for the plugin test."""\n',
    "paper.py": '''
from fltheory.papers import Paper

PAPER = Paper(
    key="toy",
    title="Toy paper (test fixture)",
    claims="toy_fltheory_paper.claims",
    commands={"toy": "toy_fltheory_paper.cli:toy_command"},
    tables={"toy_table": "toy_fltheory_paper.views:toy_table"},
    figures={"toy_figure": "toy_fltheory_paper.views:toy_figure"},
    sweep_tasks="toy_fltheory_paper.views:SWEEP_TASKS",
    notebook="toy_fltheory_paper.views:NOTEBOOK",
)
''',
    "claims.py": '''
from fractions import Fraction

from fltheory.claims.registry import Claim, Verdict


def _compare(pred, meas):
    ok = abs(meas - pred) < Fraction(1, 10)
    return Verdict("pass" if ok else "fail", str(pred), str(meas), "1/10")


CLAIMS = [Claim(
    id="toy.half",
    statement="the mean of a fair coin is 1/2",
    predict=lambda p: Fraction(1, 2),
    simulate=lambda p, seed: Fraction(sum((seed * 7 + i) % 2 for i in range(p["n"])), p["n"]),
    compare=_compare,
    why="exact up to one toss in n",
    sizes={"small": {"n": 100}, "large": {"n": 1000}},
)]
''',
    "cli.py": '''
import click


@click.command("toy")
def toy_command():
    """The toy paper's command."""
    click.echo("toy says 1/2")
''',
    "views.py": '''
from fltheory.results import Table
from fltheory.sweep.tasks import Param, Task


def toy_table():
    return Table(columns=["x"], rows=[["1/2"]], caption="toy", label="tab:toy")


def toy_figure():
    from fltheory.render.plots import pyplot

    fig, ax = pyplot().subplots()
    ax.plot([0, 1], [0, 1])
    return fig


def _mean(p, seed):
    return {"x": float(p["n"]) / 2}


SWEEP_TASKS = (Task("toy.mean", "toy: half of n", {"n": Param("int", 4, 1, 100)}, _mean),)
NOTEBOOK = [("markdown", "# Toy"), ("code", "print(1 / 2)")]
''',
}


@pytest.fixture(scope="module")
def toy_env(tmp_path_factory):
    """Environment of a process that sees the toy paper installed (PYTHONPATH holds the package
    and its dist-info, as ``pip install`` would leave them in site-packages)."""
    site = tmp_path_factory.mktemp("site")
    package = site / "toy_fltheory_paper"
    package.mkdir()
    for name, text in TOY_PACKAGE.items():
        (package / name).write_text(text.lstrip("\n"), encoding="utf-8")
    info = site / "toy_fltheory_paper-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-fltheory-paper\n"
                                   "Version: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[fltheory.papers]\ntoy = toy_fltheory_paper.paper\n",
                                           encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT), env.get("PYTHONPATH", "")])
    return env


def _run(env, *args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-c", code] if code else [sys.executable, "-m", "fltheory", *args]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


def test_toy_paper_appears_in_every_listing(toy_env, tmp_path):
    r = _run(toy_env, "verify", "--list")
    assert r.returncode == 0, r.stderr
    assert "toy.half" in r.stdout
    for command, name in (("table", "toy_table"), ("plot", "toy_figure")):
        r = _run(toy_env, command, "--list", "--format", "json")
        assert r.returncode == 0, r.stderr
        assert name in json.dumps(json.loads(r.stdout)), (command, r.stdout)
    r = _run(toy_env, "sweep", "--list")
    assert r.returncode == 0, r.stderr
    assert any(line.startswith("toy.mean\t") for line in r.stdout.splitlines())
    r = _run(toy_env, "--help")
    assert r.returncode == 0, r.stderr
    assert " toy " in r.stdout
    r = _run(toy_env, "toy")
    assert (r.returncode, r.stdout) == (0, "toy says 1/2\n"), r.stderr
    code = ("import sys; sys.path.insert(0, 'notebooks'); import build; "
            "print(sorted(build.notebooks()))")
    r = _run(toy_env, code=code)
    assert r.returncode == 0, r.stderr
    assert "'toy'" in r.stdout and "'fisher'" in r.stdout


def test_toy_paper_runs(toy_env, tmp_path):
    """Its claim verifies, its table renders, its sweep task runs: the machinery is generic."""
    r = _run(toy_env, "verify", "toy", "--format", "json")
    assert r.returncode == 0, r.stderr
    runs = json.loads(r.stdout)["details"]["claims"]
    assert [(c["id"], c["status"]) for c in runs] == [("toy.half", "pass")]
    r = _run(toy_env, "table", "toy_table", "-o", "-")
    assert r.returncode == 0, r.stderr
    assert "tab:toy" in r.stdout
    r = _run(toy_env, "sweep", "toy.mean", "--grid", "n=4,6", "--seeds", "0..1",
             "--store", str(tmp_path / "store.sqlite"), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert "toy.mean" in r.stdout


def test_a_name_declared_twice_is_an_error(toy_env):
    """A plugin may not take a built-in name: the error names both papers."""
    code = ("from fltheory.papers import Paper, contributions, papers\n"
            "twin = Paper(key='twin', title='t', tables={'lambda': 'x:y'})\n"
            "try:\n    contributions('tables', [*papers(), twin])\n"
            "except RuntimeError as e:\n    print(e)\n")
    r = _run(toy_env, code=code)
    assert "table 'lambda' is declared by two papers: twostep and twin" in r.stdout, r.stderr


def test_light_query_does_not_scan_installed_distributions(toy_env):
    """`fltheory lambda` finds its command among the built-in papers: the entry points (and the
    toy paper) are not read."""
    code = ("import sys\nfrom fltheory.cli import main\n"
            "try:\n    main(['lambda', '--a1', '.4', '--a2', '.3'])\n"
            "except SystemExit:\n    pass\n"
            "print('LOADED', 'toy_fltheory_paper' in sys.modules,\n"
            "      'importlib.metadata' in sys.modules, file=sys.stderr)\n")
    r = _run(toy_env, code=code)
    assert "LOADED False False" in r.stderr, r.stderr
