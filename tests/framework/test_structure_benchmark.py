"""benchmarks/structure.py, the static structure figures of issue 25, on a tiny tree written
under tmp_path in the new layout (``papers/<key>/``, ``engine/``): every expected figure below
was counted by hand from the files written here, not by running the script."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from layout import ROOT

_spec = importlib.util.spec_from_file_location("structure_benchmark",
                                               ROOT / "benchmarks" / "structure.py")
assert _spec is not None and _spec.loader is not None
structure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(structure)

TREE = {
    "__init__.py": "",
    "papers/__init__.py": "class Paper:\n    pass\n",
    "papers/alpha/__init__.py": (
        'from fltheory.papers import Paper\n\n'
        'PAPER = Paper(key="alpha", claims="fltheory.papers.alpha.claims",\n'
        '              commands={"a": "fltheory.cli.run:command"})\n'),
    # the old layout: a declaration papers/<key>.py and modules named after the key
    "papers/beta.py": 'from fltheory.papers import Paper\n\nPAPER = Paper(key="beta")\n',
    "theory/_beta_x.py": "",
    "theory/betamax.py": "",  # not beta's: the key is followed by "_" or nothing
    # top-level import of the theory; the theory imports the claims back lazily: one circle
    "papers/alpha/claims.py": "import fltheory.papers.alpha.theory.core\n",
    "papers/alpha/theory/__init__.py": "",
    "papers/alpha/theory/core.py": (
        "def f():\n"
        "    from fltheory.papers.alpha import claims\n"
        "    return claims\n"),
    # engine/__init__ imports cli/run, and cli/run imports engine.odes: no circle, because an
    # import of a.b.c is not an edge to a/b/__init__.py
    "engine/__init__.py": "from fltheory.cli import run\n",
    "engine/_util.py": "def helper():\n    return 1\n",
    "engine/odes.py": (
        "from typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n"
        "    from fltheory.cli import run\n\n\n"
        "def _step():\n    return 0\n"),
    # a private name across folders (_step), a private module (_util), and a public name of a
    # private module (helper); sibling import of engine._util from engine/odes is not across
    "cli/__init__.py": "",
    "cli/run.py": (
        "import fltheory.engine.odes\n"
        "from fltheory.engine import _util\n"
        "from fltheory.engine._util import helper\n"
        "from fltheory.engine.odes import _step\n\n\n"
        "@staticmethod\n"
        "def command():\n"
        "    return helper() + _step() + _util.helper()\n"),
}


@pytest.fixture
def tree(tmp_path: Path):
    for name, text in TREE.items():
        path = tmp_path / "fltheory" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return structure.Tree(tmp_path)


def test_folders_per_paper_fold_subfolders_into_the_paper_folder(tree):
    # alpha: papers/alpha/{__init__,claims}.py, papers/alpha/theory/{__init__,core}.py (named
    # after the key by their folder) and cli/run.py (named by the declaration): 2 folders;
    # beta: papers/beta.py and theory/_beta_x.py: 2 folders
    found = structure.paper_folders(tree)
    assert set(found) == {"alpha", "beta"}
    assert found["beta"] == {"fltheory/papers": ["papers/beta.py"],
                             "fltheory/theory": ["theory/_beta_x.py"]}
    assert found["alpha"] == {
        "fltheory/cli": ["cli/run.py"],
        "fltheory/papers/alpha": ["papers/alpha/__init__.py", "papers/alpha/claims.py",
                                  "papers/alpha/theory/__init__.py",
                                  "papers/alpha/theory/core.py"]}


def test_largest_folder_counts_py_files_directly_in_it(tree):
    assert structure.largest_folders(tree)[0] == (3, "fltheory/engine")


def test_circles_count_lazy_imports_but_not_parents_or_type_checking(tree):
    assert structure.circles(tree) == [{
        "files": ["papers/alpha/claims.py", "papers/alpha/theory/core.py"],
        "edges": [["papers/alpha/claims.py", "papers/alpha/theory/core.py", False],
                  ["papers/alpha/theory/core.py", "papers/alpha/claims.py", True]]}]


def test_strongly_connected_components():
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c", "e"}, "e": set()}
    assert structure.strongly_connected(graph) == [["a", "b"], ["c", "d"], ["e"]]


def test_private_imports_by_kind(tree):
    counts = structure.private_counts(tree)["across_folders"]
    # _step (a name) and _util (a module) at one site each; helper of _util, and _util.helper
    # is an attribute, not an import: one site
    assert counts["name+module"] == {"pairs": 2, "sites": 2}
    assert counts["name"] == {"pairs": 1, "sites": 1}
    assert counts["via"] == {"pairs": 1, "sites": 1}


def test_function_lengths_exclude_decorators(tree):
    assert structure.function_lengths(tree, "cli/") == [(2, "cli/run.py:command")]


def test_repeated_blocks_and_normalised_lines():
    texts = {"a": list("abcdefg"), "b": list("xbcdefgy"), "c": list("bcdefg")}
    # only "bcdefg" is in two or more files (all three): 1 window, 3 file pairs
    found = structure.repeated_blocks(texts)
    assert (found["windows"], found["file_pairs"]) == (1, 3)
    source = "import os\nfrom a import (b,\n    c)\n\nif y:\n    x = 1  \n    # note\ny = 2\n"
    assert structure.normalised_lines(source) == [
        "import os", "from a import (b,", "c)", "if y:", "x = 1", "y = 2"]
    assert structure.normalised_lines(source, imports=False) == ["if y:", "x = 1", "y = 2"]


def test_json_report_runs_on_another_root(tree):
    p = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "structure.py"), "--root",
                        str(tree.root), "--format", "json"],
                       capture_output=True, text=True, check=True)
    report = json.loads(p.stdout)
    assert report["folders_per_paper"]["alpha"]["folders"] == 2
    assert len(report["import_circles"]) == 1
