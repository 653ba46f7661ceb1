"""The public Python API: every public module of the theory (fltheory.engine, each paper's theory
modules) and of the simulators (fltheory.simkit, each paper's ``sim``) declares ``__all__``,
and every public function has a docstring with a runnable example (the examples themselves run
as doctests: ``--doctest-modules`` in pyproject.toml)."""

from __future__ import annotations

import importlib
import inspect

import pytest
from layout import sim_modules, theory_modules

MODULES = [m for m in theory_modules() + sim_modules()
           if m not in ("fltheory.engine", "fltheory.simkit")] + ["fltheory.args"]


@pytest.mark.parametrize("name", MODULES)
def test_public_module_declares_and_documents_its_api(name):
    module = importlib.import_module(name)
    assert module.__doc__ and len(module.__doc__.split()) >= 20, f"{name}: module docstring"
    public = getattr(module, "__all__", None)
    assert public, f"{name} declares no __all__"
    missing = [n for n in public if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what it does not define: {missing}"
    undocumented, no_example = [], []
    for attr in public:
        obj = getattr(module, attr)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        doc = inspect.getdoc(obj) or ""
        if len(doc.split()) < 8:
            undocumented.append(attr)
        elif inspect.isfunction(obj) and ">>>" not in doc:
            no_example.append(attr)
    assert not undocumented, f"{name}: public names without a docstring: {undocumented}"
    assert not no_example, f"{name}: public functions without an example (>>>): {no_example}"
