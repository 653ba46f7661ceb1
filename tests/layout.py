"""Where things live: one package per paper under ``fltheory/papers/<key>/``, the shared theory
under ``fltheory/engine/``, the shared numpy kit under ``fltheory/simkit/``.

Inside a paper package the roles are :mod:`fltheory.papers.shape`'s: ``__init__`` (the
declaration), ``params``, ``theory``, ``sim``, ``runs``, ``claims``, ``views``, ``cli``,
``light``, ``sweeps``; every other module is a helper of the paper's theory. Used by the tests
that read the tree (the wall, the public API, the docs' API reference)."""

from __future__ import annotations

from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent
ROOT = TESTS_DIR.parent
PKG = ROOT / "fltheory"
#: the roles of a paper package's modules that are not its theory (theory.py and its helpers)
ROLES = ("__init__", "params", "sim", "runs", "claims", "views", "cli", "light", "sweeps")


def paper_keys() -> list[str]:
    return sorted(p.name for p in (PKG / "papers").iterdir()
                  if (p / "__init__.py").is_file() and not p.name.startswith("_"))


def paper_files(role: str) -> list[Path]:
    """``role`` = one of :data:`ROLES`, or ``theory`` (theory.py and every other module)."""
    found = []
    for key in paper_keys():
        for path in sorted((PKG / "papers" / key).glob("*.py")):
            if (path.stem == role) or (role == "theory" and path.stem not in ROLES):
                found.append(path)
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def public(paths: list[Path]) -> list[str]:
    return sorted(module_name(p) for p in paths
                  if not p.name.startswith("_") or p.name == "__init__.py")


def theory_modules() -> list[str]:
    """Public modules of predictions: the engine's and each paper's theory."""
    return public([*PKG.joinpath("engine").rglob("*.py"), *paper_files("theory")])


def sim_modules() -> list[str]:
    """Public modules of the simulators: the kit and each paper's ``sim``."""
    return public([*PKG.joinpath("simkit").rglob("*.py"), *paper_files("sim")])
