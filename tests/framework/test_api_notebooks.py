"""The notebooks use only the public API: every ``from fltheory... import name`` in a code cell
of a paper's ``NOTEBOOK`` (``fltheory.papers.<paper>.views``) names a public name of that module:
listed in its ``__all__``, or a public submodule — never one with a leading underscore; and every
paper's claims and views module declares an ``__all__`` naming only what it
defines."""

from __future__ import annotations

import ast
import importlib
import importlib.util

import pytest
from layout import module_name, paper_files

VIEWS = [module_name(p) for p in paper_files("views")]
CLAIMS = [module_name(p) for p in paper_files("claims")]


def _code(source: str) -> ast.Module:
    """A cell's source as Python: IPython magics (``%matplotlib inline``) are blanked."""
    lines = ["" if line.lstrip().startswith(("%", "!")) else line
             for line in source.splitlines()]
    return ast.parse("\n".join(lines))


def _imports(notebook: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(module, name) of every ``from fltheory... import name`` in the code cells."""
    found: list[tuple[str, str]] = []
    for kind, source in notebook:
        if kind != "code":
            continue
        for node in ast.walk(_code(source)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fltheory"):
                found.extend((str(node.module), alias.name) for alias in node.names)
            elif isinstance(node, ast.Import):
                found.extend((alias.name, "") for alias in node.names
                             if alias.name.startswith("fltheory"))
    return found


def _is_public(module_name: str, name: str) -> bool:
    if any(part.startswith("_") for part in [*module_name.split("."), name] if part):
        return False
    if not name:  # import fltheory.x.y
        return importlib.util.find_spec(module_name) is not None
    module = importlib.import_module(module_name)
    if hasattr(module, "__path__") and importlib.util.find_spec(f"{module_name}.{name}"):
        return True  # a public submodule of a package (from fltheory.papers import fisher)
    return name in getattr(module, "__all__", ())


@pytest.mark.parametrize("name", VIEWS)
def test_notebook_imports_only_public_names(name):
    module = importlib.import_module(name)
    notebook = getattr(module, "NOTEBOOK", None)
    if notebook is None:
        pytest.skip(f"{name} has no notebook")
    imports = _imports(notebook)
    assert imports, f"{name}: the notebook imports nothing from fltheory"
    private = [f"{m}:{n}" for m, n in imports if not _is_public(m, n)]
    assert not private, f"{name}: notebook imports non-public names {private}"


def test_the_check_sees_a_private_import():
    """The checker itself: a leading underscore or a name missing from __all__ is refused."""
    cells = [("code", "%matplotlib inline\nfrom fltheory.papers.fisher.runs import _sample, "
                      "residuals_vs_m\nfrom fltheory.papers.fisher.views import np")]
    bad = [f"{m}:{n}" for m, n in _imports(cells) if not _is_public(m, n)]
    assert bad == ["fltheory.papers.fisher.runs:_sample", "fltheory.papers.fisher.views:np"]


@pytest.mark.parametrize("name", VIEWS + CLAIMS)
def test_module_declares_all(name):
    module = importlib.import_module(name)
    public = getattr(module, "__all__", None)
    assert public, f"{name} declares no __all__"
    missing = [n for n in public if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what it does not define: {missing}"
    assert not [n for n in public if n.startswith("_")], f"{name}.__all__ has private names"


def test_claims_seed_keys_are_disjoint_from_the_simulators():
    """claims.quadratic draws the anisotropic mixture from child(run seed, KEY_MIX), under the
    same run seed as the simulator's own keys: KEY_MIX must be none of them."""
    from fltheory.papers.quadratic import claims, sim

    declared = {getattr(sim, n) for n in sim.__all__ if n.startswith("KEY_")}
    assert declared and declared == claims.SIM_KEYS
    assert claims.KEY_MIX not in declared
    assert claims.KEY_MIX == 5  # unchanged: the claims' verdicts keep their numbers


def test_draw_fisher_takes_the_theory_spectrum():
    """draw_fisher's exact levels: triples (spectrum_sample), a FisherSpectrum in the mapping, or
    a FisherSpectrum as ``exact`` — the same drawing."""
    from fltheory.papers.fisher.runs import residuals_vs_m, spectrum_sample
    from fltheory.papers.fisher.theory import spectrum
    from fltheory.papers.fisher.views import draw_fisher

    sample = spectrum_sample(3, 200, 0)
    residuals = residuals_vs_m(3, (100, 200), seeds=2, n_test=300)
    exact = spectrum(3, 4, 20)
    figures = [draw_fisher(sample, residuals), draw_fisher(dict(sample, levels=exact), residuals),
               draw_fisher({k: v for k, v in sample.items() if k != "levels"}, residuals,
                           exact=exact)]
    labels = [[t.get_text() for t in fig.axes[0].texts] for fig in figures]
    assert labels[0] == ["l=0, ×1", "l=1, ×3", "l=2, ×5", "l=4, ×9"]
    assert labels[0] == labels[1] == labels[2]
