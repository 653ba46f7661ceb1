"""The design rules that keep the simulation an independent witness and light queries light."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "fltheory"


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module if node.level == 0 else "." * node.level + node.module)
    return names


def test_simulators_import_no_theory_and_no_symbolic_engine():
    files = list((PKG / "sim").rglob("*.py"))
    assert files
    for path in files:
        for name in _imports(path):
            root = name.lstrip(".").split(".")[0]
            assert root not in {"sympy", "mpmath"}, f"{path.name} imports {name}"
            assert not name.startswith(("fltheory.theory", "fltheory.claims", "..theory",
                                        "..claims")), f"{path.name} imports {name}"
            # fltheory.exact is standard library only (exact numbers, DomainError): no formula
            assert (not name.startswith("fltheory.") or name.startswith("fltheory.sim")
                    or name == "fltheory.exact"), \
                f"{path.name} imports {name}: the simulator may use only numpy/scipy, sim/ " \
                "and fltheory.exact"


def test_theory_does_not_import_simulators():
    for path in (PKG / "theory").rglob("*.py"):
        for name in _imports(path):
            assert "sim" not in name.lstrip(".").split(".")[:2], f"{path.name} imports {name}"


def test_light_query_imports_no_heavy_engine():
    code = ("import sys\nfrom fltheory.cli import main\n"
            "try:\n    main(['lambda', '--a1', '.4', '--a2', '.3', '--format', 'json'])\n"
            "except SystemExit:\n    pass\n"
            "heavy = sorted(m for m in ('sympy', 'mpmath', 'numpy', 'scipy') if m in sys.modules)\n"
            "print('HEAVY', heavy, file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in p.stderr, p.stderr
