"""Each paper package is the door to its API: ``from fltheory.papers import committee`` gives the
paper's public names (``__all__``, ``dir()``), each the very object its module defines, loaded on
first use so that paper discovery stays light.

The reference for a face is computed here from the modules themselves (the union of the
``__all__`` of the paper's public theory modules, read from the tree by tests/layout.py), not
from the face's own table."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from layout import PKG, module_name, paper_files, paper_keys


def _theory_modules(key: str) -> list[str]:
    """The modules whose public names a paper's face shows: its theory (and helpers), its
    parameters and its runs."""
    if key == "hermite":  # the Hermite paper shows the shared engine
        return ["fltheory.engine.hermite"]
    return [module_name(p) for role in ("theory", "params", "runs") for p in paper_files(role)
            if p.parent.name == key and not p.name.startswith("_")]


@pytest.mark.parametrize("key", paper_keys())
def test_face_lists_every_public_name_of_the_paper(key):
    face = importlib.import_module(f"fltheory.papers.{key}")
    expected: dict[str, object] = {}
    for name in _theory_modules(key):
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            assert expected.setdefault(attr, obj) is obj, f"{attr}: two objects in {key}"
    assert expected, key
    assert sorted(face.__all__) == sorted(["PAPER", *expected])
    for attr, obj in expected.items():
        assert getattr(face, attr) is obj, f"fltheory.papers.{key}.{attr}"
    assert set(face.__all__) <= set(dir(face))
    with pytest.raises(AttributeError, match="no attribute"):
        face.no_such_name  # noqa: B018


@pytest.mark.parametrize("key", paper_keys())
def test_no_public_name_is_shadowed_by_a_module(key):
    """A module ``plateau.py`` beside a public function ``plateau`` would replace the function
    by the module as soon as anything imported the module."""
    modules = {p.stem for p in (PKG / "papers" / key).glob("*.py")}
    face = importlib.import_module(f"fltheory.papers.{key}")
    assert not modules & set(face.__all__)


def test_importing_every_paper_stays_light():
    code = ("import sys\nfrom fltheory.papers import builtin_papers\n"
            "keys = [p.key for p in builtin_papers()]\n"
            "import fltheory.engine, fltheory.simkit\n"
            "print(len(keys), sorted(m for m in ('sympy', 'mpmath', 'numpy', 'scipy', 'click')"
            " if m in sys.modules))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.split() == [str(len(paper_keys())), "[]"], p.stdout + p.stderr


def test_shared_packages_list_their_contents():
    import fltheory.engine
    import fltheory.simkit

    for package in (fltheory.engine, fltheory.simkit):
        folder = PKG / package.__name__.split(".")[1]
        children = {p.stem for p in folder.glob("*.py") if not p.name.startswith("_")}
        children |= {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
        assert set(dir(package)) == children == set(package.__all__)
        for name in package.__all__:
            assert getattr(package, name).__name__ == f"{package.__name__}.{name}"


def test_the_package_points_to_every_paper():
    """``dir(fltheory)`` shows the papers, the package docstring names every built-in paper
    (a new paper's folder without its line fails here), and ``fltheory.sweep`` lists its
    modules."""
    import fltheory
    import fltheory.sweep
    from fltheory.papers import builtin_papers

    assert {"papers", "engine", "args", "claims", "sweep"} <= set(dir(fltheory))
    for p in builtin_papers():
        assert f"``{p.key}``" in (fltheory.__doc__ or ""), p.key
    assert dir(fltheory.sweep) == ["claims", "runner", "store", "tasks"]
    assert fltheory.sweep.store.__name__ == "fltheory.sweep.store"
