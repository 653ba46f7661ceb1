"""The design rules that keep the simulation an independent witness and light queries light."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "fltheory"


def _imports(path: Path) -> set[str]:
    """Every module a file imports, as absolute names: ``from fltheory import theory`` gives
    ``fltheory`` and ``fltheory.theory``, ``from .. import theory`` in a sub-package of fltheory
    gives ``fltheory.theory`` (relative imports resolved against the file's package)."""
    package = ".".join(path.relative_to(PKG.parent).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def test_import_reader_resolves_every_form(tmp_path):
    """The reader sees the forms that would smuggle theory into a simulator."""
    path = PKG / "sim" / "_probe.py"
    text = "from fltheory import theory\nfrom .. import claims\nfrom ..theory.fisher import x\n"
    try:
        path.write_text(text, encoding="utf-8")
        names = _imports(path)
    finally:
        path.unlink()
    assert {"fltheory.theory", "fltheory.claims", "fltheory.theory.fisher"} <= names


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
                    or name == "fltheory.exact" or name.startswith("fltheory.exact.")), \
                f"{path.name} imports {name}: the simulator may use only numpy/scipy, sim/ " \
                "and fltheory.exact"


def test_theory_does_not_import_simulators():
    for path in (PKG / "theory").rglob("*.py"):
        for name in _imports(path):
            assert not name.startswith("fltheory.sim"), f"{path.name} imports {name}"


def test_declarations_and_render_stay_in_their_room():
    """A paper's declaration names things and imports nothing but :mod:`fltheory.papers` (whose
    discovery uses only the standard library and fltheory.exact's DomainError);
    render/ formats and draws, it reaches neither the theory, the claims nor a simulator."""
    for path in (PKG / "papers").rglob("*.py"):
        for name in _imports(path):
            assert name in {"fltheory.papers", "fltheory.papers.Paper", "__future__",
                            "__future__.annotations", "fltheory.exact",
                            "fltheory.exact.DomainError"} or not name.startswith("fltheory"), \
                f"{path.name} imports {name}"
    for path in (PKG / "render").rglob("*.py"):
        for name in _imports(path):
            assert not name.startswith(("fltheory.theory", "fltheory.claims", "fltheory.sim",
                                        "fltheory.views")), f"render/{path.name} imports {name}"


def test_light_query_imports_no_heavy_engine():
    code = ("import sys\nfrom fltheory.cli import main\n"
            "try:\n    main(['lambda', '--a1', '.4', '--a2', '.3', '--format', 'json'])\n"
            "except SystemExit:\n    pass\n"
            "heavy = sorted(m for m in ('sympy', 'mpmath', 'numpy', 'scipy') if m in sys.modules)\n"
            "print('HEAVY', heavy, file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in p.stderr, p.stderr
