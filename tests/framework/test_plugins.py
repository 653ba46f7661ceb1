"""Papers as plugins: a throw-away paper, written by a fixture into a temporary directory as an
installed distribution (a package and its ``.dist-info`` with an entry point), appears in every
listing — claims, ``verify``, tables, figures, sweep tasks, the root command, the notebook
builder — without a single file of fltheory being edited.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from layout import ROOT, TESTS_DIR

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


def _tree_snapshot() -> dict[str, str]:
    """Every tracked-and-changed or untracked file of the repository (``git status``, ignored
    files left out) → a hash of its content: a file written by a run changes the snapshot even
    when the tree was already dirty before the run."""
    r = subprocess.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"],
                       cwd=ROOT, capture_output=True, text=True, check=True)
    snapshot = {}
    for entry in filter(None, r.stdout.split("\0")):
        path = ROOT / entry[3:]
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "-"
        snapshot[entry] = digest
    return snapshot


def test_toy_paper_runs(toy_env, tmp_path):
    """Its claim verifies, its table renders, its figure draws, its sweep task runs, its notebook
    builds: the machinery is generic, and nothing of the repository's tree is written."""
    before = _tree_snapshot()
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
    figure = tmp_path / "fig" / "x.png"
    r = _run(toy_env, "plot", "toy_figure", "-o", str(figure))
    assert r.returncode == 0, r.stderr
    assert figure.read_bytes().startswith(b"\x89PNG")
    code = ("import sys; sys.path.insert(0, 'notebooks'); import build; "
            f"print(build.build('toy', build.notebooks()['toy'], {str(tmp_path / 'nb')!r}))")
    r = _run(toy_env, code=code)
    assert r.returncode == 0, r.stderr
    written = json.loads((tmp_path / "nb" / "toy.ipynb").read_text(encoding="utf-8"))
    outputs = [o for c in written["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    assert outputs and "".join(outputs[0].get("text", "")) == "0.5\n", outputs
    assert _tree_snapshot() == before, "a run of the toy paper wrote into the repository"


def test_the_tree_snapshot_sees_a_write(tmp_path):
    """The snapshot above does catch a file written into the tree (then removed again)."""
    before = _tree_snapshot()
    probe = ROOT / "tests" / f"_plugin_probe_{os.getpid()}.tmp"
    try:
        probe.write_text("x", encoding="utf-8")
        assert _tree_snapshot() != before
    finally:
        probe.unlink()
    assert _tree_snapshot() == before


@pytest.mark.parametrize(("twin", "call", "message"), [
    ("tables={'lambda': 'x:y'}", "contributions('tables', [*papers(), twin])",
     "table 'lambda' is declared by two papers: twostep and twin"),
    ("sweep_tasks='toy_fltheory_paper.views:SWEEP_TASKS'", "all_tasks([*papers(), twin])",
     "sweep task 'toy.mean' is declared twice: by toy and by twin"),
])
def test_a_name_declared_twice_names_both_papers(toy_env, twin, call, message):
    """A plugin may not take a name another paper declares (a built-in table, the toy paper's
    sweep task): the error names both papers."""
    code = ("from fltheory.papers import Paper, contributions, papers\n"
            "from fltheory.sweep.tasks import all_tasks\n"
            f"twin = Paper(key='twin', title='t', {twin})\n"
            f"try:\n    {call}\nexcept RuntimeError as e:\n    print(e)\n")
    r = _run(toy_env, code=code)
    assert message in r.stdout, r.stderr


def test_a_table_builder_returning_no_table_is_a_type_error(monkeypatch):
    """build_table checks what a paper's builder returns without ``assert`` (python -O keeps
    the check), naming the builder."""
    import fltheory.papers
    from fltheory.render.tables import build_table

    monkeypatch.setattr(fltheory.papers, "contribution", lambda kind, name: lambda: "text")
    monkeypatch.setattr(fltheory.papers, "contributions", lambda kind: {"bad": "toy.views:bad"})
    with pytest.raises(TypeError, match=r"table 'bad': its builder toy.views:bad returned str"):
        build_table("bad")


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


def test_command_homes_name_the_paper_that_declares_each_command():
    """The command homes read from the declarations' text are exactly the imported declarations'
    commands (every built-in command, each at the paper that declares it), and `fltheory
    lambda` imports one paper's declaration only."""
    from fltheory.papers import builtin_papers, command_homes

    declared = {name: p.key for p in builtin_papers() for name in p.commands}
    assert command_homes() == declared
    code = ("import sys\nfrom fltheory.cli import main\n"
            "try:\n    main(['lambda', '--a1', '.4', '--a2', '.3'])\n"
            "except SystemExit:\n    pass\n"
            "print('PAPERS', sorted(m for m in sys.modules if m.count('.') == 2\n"
            "      and m.startswith('fltheory.papers.')), file=sys.stderr)\n"
            "print('DATACLASSES', 'dataclasses' in sys.modules, file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                       env={**os.environ, "PYTHONPATH": str(TESTS_DIR)})
    assert "PAPERS ['fltheory.papers.twostep']" in r.stderr, r.stderr
    # no dataclass is built on the light path (≈ 0.6 ms each at import): results.Record
    assert "DATACLASSES False" in r.stderr, r.stderr
