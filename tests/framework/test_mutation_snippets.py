"""benchmarks/mutation_check.py perturbs formulas and expects a named test to fail; a snippet that
a later edit changed no longer perturbs anything, and the script only says so when it is run
(one had gone stale unseen after a refactor). Here, without running pytest: every mutation's
snippet is found exactly once (the script's own ``locate``), differs from its replacement, and
names test paths that exist."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    path = ROOT / "benchmarks" / "mutation_check.py"
    spec = importlib.util.spec_from_file_location("mutation_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_mutation_snippet_is_found_once():
    mc = _script()
    problems = []
    for m in mc.MUTATIONS:
        path, problem = mc.locate(m)
        if path is None:
            problems.append(f"{m.label}: {problem}")
        if m.old == m.new:
            problems.append(f"{m.label}: the mutation changes nothing")
        for arg in m.tests:
            if arg.startswith("tests/") and not (ROOT / arg.split("::")[0]).exists():
                problems.append(f"{m.label}: no test path {arg}")
    assert not problems, "\n".join(problems)
