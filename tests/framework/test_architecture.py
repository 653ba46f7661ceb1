"""The design rules that keep the simulation an independent witness and light queries light."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from layout import PKG, paper_files, paper_keys


def _imports(path: Path) -> set[str]:
    """Every module a file imports, as absolute names: ``from fltheory import theory`` gives
    ``fltheory`` and ``fltheory.theory``, ``from .. import engine`` in a sub-package of fltheory
    gives ``fltheory.engine`` (relative imports resolved against the file's package)."""
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
    path = PKG / "simkit" / "_probe.py"
    text = ("from fltheory import engine\nfrom .. import claims\n"
            "from ..papers.fisher.theory import x\n")
    try:
        path.write_text(text, encoding="utf-8")
        names = _imports(path)
    finally:
        path.unlink()
    assert {"fltheory.engine", "fltheory.claims", "fltheory.papers.fisher.theory"} <= names


def _is_sim(name: str) -> bool:
    """A simulator module: the shared numpy kit or a paper's ``sim``."""
    parts = name.split(".")
    return name.startswith("fltheory.simkit") or (
        len(parts) >= 4 and parts[:2] == ["fltheory", "papers"] and parts[3] == "sim")


def test_simulators_import_no_theory_and_no_symbolic_engine():
    """A simulator (simkit/, papers/<key>/sim.py) imports numpy/scipy, other simulator modules,
    the parameter objects of a paper (definitions: fields read by the argument readers, no
    formula), fltheory.args (the readers) and fltheory.exact (exact numbers and DomainError);
    never sympy, mpmath, the engine, a paper's theory or the claims."""
    files = [*PKG.joinpath("simkit").rglob("*.py"), *paper_files("sim")]
    assert len(files) >= 9
    for path in files:
        for name in _imports(path):
            root = name.lstrip(".").split(".")[0]
            assert root not in {"sympy", "mpmath"}, f"{path} imports {name}"
            assert (not name.startswith("fltheory") or name in {"fltheory", "fltheory.exact"}
                    or name.startswith(("fltheory.exact.", "fltheory.args")) or _is_sim(name)
                    or _is_params(name) or name in {"fltheory.simkit", "fltheory.papers"}), \
                f"{path} imports {name}: the simulator may use only numpy/scipy, simulator " \
                "modules, parameter objects, fltheory.args and fltheory.exact"


def _is_params(name: str) -> bool:
    parts = name.split(".")
    return len(parts) >= 4 and parts[:2] == ["fltheory", "papers"] and parts[3] == "params"


@pytest.mark.parametrize("key", paper_keys())
def test_every_paper_has_the_shape(key):
    """Every paper package has the same modules in the same roles, and the walls between them
    hold (fltheory.papers.shape: no paper imports another, the simulator sees no theory, only the
    registry reads the claims, views and commands check no domain)."""
    from fltheory.papers import shape

    assert shape.problems(PKG / "papers" / key, f"fltheory.papers.{key}") == []


def test_the_shape_rules_can_fail(tmp_path):
    """The checker reports what it is there to find, on a package written to break each rule."""
    from fltheory.papers import shape

    pkg = tmp_path / "bad"
    pkg.mkdir()
    files = {"__init__.py": "", "params.py": "import numpy\n", "theory.py": "from bad import sim\n",
             "sim.py": "import sympy\nfrom fltheory.engine import expressions\n",
             "runs.py": "from bad import claims\n",
             "claims.py": "def helper():\n    pass\nCLAIMS = []\n",
             "views.py": "from fltheory.papers.fisher import theory\n",
             "cli.py": "from fltheory.exact import DomainError\n"
                       "def f():\n    raise DomainError('x', 1, 'y')\n",
             "light.py": "import click\nimport mpmath\n"}
    for name, text in files.items():
        (pkg / name).write_text(text, encoding="utf-8")
    found = "\n".join(shape.problems(pkg, "bad"))
    for expected in ("params: imports numpy at module level", "theory: imports bad.sim",
                     "sim: imports sympy", "sim: imports fltheory.engine.expressions",
                     "runs: imports bad.claims", "claims: defines public helper",
                     "views: imports fltheory.papers.fisher.theory", "cli:3: raises",
                     "light: imports click", "light: imports mpmath"):
        assert expected in found, (expected, found)


def test_the_framework_names_no_paper():
    """Nothing below the papers imports one: the engine, the kit, the readers, the registry, the
    renderers, the report, the sweeps and the command find papers by discovery."""
    keys = paper_keys()
    below = [p for p in PKG.rglob("*.py") if "papers" not in p.relative_to(PKG).parts]
    assert len(below) > 40
    for path in below:
        for name in _imports(path):
            parts = name.split(".")
            assert not (parts[:2] == ["fltheory", "papers"] and len(parts) >= 3
                        and parts[2] in keys), f"{path} imports {name}"


#: simulator-kit modules the theory side may use, each with why it is a definition, not a formula
SHARED_DEFINITIONS = {
    # how a sampled curve becomes a time (first record past a level, ln-interpolated): both
    # sides must read their curves alike for the comparison to mean anything, and it predicts
    # nothing about the curve, so the simulation cannot inherit a wrong prediction through it
    "fltheory.simkit.observables": "the crossing rule",
}


def test_theory_does_not_import_simulators():
    files = [*PKG.joinpath("engine").rglob("*.py"), *paper_files("theory")]
    assert len(files) >= 40
    for path in files:
        for name in _imports(path):
            shared = any(name == m or name.startswith(m + ".") for m in SHARED_DEFINITIONS)
            assert not _is_sim(name) or shared, f"{path} imports {name}"


def test_shared_definitions_import_nothing_of_the_theory():
    """What the theory side takes from the kit is itself a simulator module (checked above):
    no sympy, mpmath, engine or paper theory; and it holds no model of any paper."""
    for module in SHARED_DEFINITIONS:
        path = PKG.parent.joinpath(*module.split(".")).with_suffix(".py")
        assert path.is_file(), module
        assert all(not n.startswith("fltheory.papers") for n in _imports(path)), module


def test_declarations_and_render_stay_in_their_room():
    """A paper's declaration names things and imports nothing but :mod:`fltheory.papers` (whose
    discovery uses only the standard library and fltheory.exact's DomainError; ``lazy_names``
    loads the paper's public names on first use);
    render/ formats and draws, it reaches neither the theory, the claims nor a simulator."""
    for path in [PKG / "papers" / "__init__.py", *paper_files("__init__")]:
        for name in _imports(path):
            assert name in {"fltheory.papers", "fltheory.papers.Paper",
                            "fltheory.papers.lazy_names", "__future__",
                            "__future__.annotations", "fltheory.exact",
                            "fltheory.exact.DomainError"} or not name.startswith("fltheory"), \
                f"{path} imports {name}"
    for path in (PKG / "render").rglob("*.py"):
        for name in _imports(path):
            assert not name.startswith(("fltheory.engine", "fltheory.claims", "fltheory.simkit"))
            assert name.split(".")[:3] not in [["fltheory", "papers", k] for k in paper_keys()], \
                f"render/{path.name} imports {name}"


def test_light_query_imports_no_heavy_engine():
    from heavy import loaded_after

    code = ("from fltheory.cli import main\n"
            "try:\n    main(['lambda', '--a1', '.4', '--a2', '.3', '--format', 'json'])\n"
            "except SystemExit:\n    pass\n")
    assert loaded_after(code) == []
