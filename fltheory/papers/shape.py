"""The shape of a paper package, written down once and checked: the same rules for a built-in
paper (``fltheory/papers/<key>/``) and for an installed plugin.

A paper package holds these modules, each with one role (``docs/adding-a-paper.md`` walks
through them with a small example paper):

==============  ===========================================================================
module          role
==============  ===========================================================================
``__init__``    ``PAPER = Paper(...)``: names only (and the lazy public face)
``params``      the paper's parameters as frozen, typed objects, validated at construction by
                :mod:`fltheory.args` and trusted afterwards: definitions, not formulas, so the
                simulator may import them
``theory``      the predictions (exact rationals, sympy, mpmath), the face docs and notebooks use;
                helper modules of the theory may sit beside it under any other name
``sim``         the numpy simulator: numpy/scipy, :mod:`fltheory.args`, :mod:`fltheory.exact`,
                :mod:`fltheory.simkit`, its own ``params`` and other papers' simulators only
``runs``        both-sides runs (a prediction next to its simulation) that the command, the
                views and the claims call
``claims``      the claim records (``CLAIMS``) and their small predict / simulate / compare
                functions; nothing else of the paper imports it
``views``       tables, figures, notebook cells: present, compute no theory, check no domain
``cli``         (optional) the command: parse, build the parameters, call, render
``light``       (optional) the plain form of a command answered without click
                (:mod:`fltheory.cli.light`): its options, and the result both paths print
``sweeps``      (optional) the sweep tasks
==============  ===========================================================================

Between papers: no module of a paper imports another paper's modules, except that a simulator
may use another paper's simulator or parameters (a simulation may reuse a sampler; it still
shares no formula with any theory).

:func:`problems` lists what breaks these rules in one package folder; tests/framework/
test_architecture.py runs it on every built-in paper and on the example paper of the docs.
Standard library only.
"""

from __future__ import annotations

import ast
from pathlib import Path

__all__ = ["OPTIONAL", "REQUIRED", "ROLES", "imports", "problems", "role"]

#: the folder of the built-in papers
_BUILTIN = Path(__file__).resolve().parent
#: the modules every paper has
REQUIRED = ("__init__", "params", "theory", "sim", "runs", "claims", "views")
#: the modules a paper may have (a paper without a command has no ``cli``)
OPTIONAL = ("cli", "light", "sweeps")
#: every role that is not "theory" (any other module of the package is a theory helper)
ROLES = (*REQUIRED, *OPTIONAL)

#: third-party libraries only the theory side may import
_SYMBOLIC = ("sympy", "mpmath")
#: fltheory modules every side may import: ground definitions (numbers, readers, result records)
_GROUND = ("fltheory.exact", "fltheory.args", "fltheory.results")
#: what a simulator may import of fltheory besides the ground and its own package's params/sim
_SIM_KIT = ("fltheory.simkit",)
#: the expression grammars a parameter object may call (inside a function) to parse its text:
#: expressions in z, kernels in t
_GRAMMARS = ("fltheory.engine.expressions", "fltheory.engine.kernels.parse")


def role(stem: str) -> str:
    """The role of a module of a paper package from its file stem: one of :data:`ROLES`, or
    ``"theory"`` for every other module (a theory helper).

    >>> role("sim"), role("plateau"), role("_flat")
    ('sim', 'theory', 'theory')
    """
    return stem if stem in ROLES else "theory"


def imports(path: Path, package: str) -> list[tuple[str, bool]]:
    """Every module a file imports, as ``(absolute name, at module level)``: ``from x import y``
    gives ``x`` and ``x.y``; relative imports are resolved against ``package`` (the file's own
    package); imports under ``if TYPE_CHECKING:`` are left out (they never run)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, top) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*parts, *([base] if base else [])])
                found.append((base, top))
                found.extend((f"{base}.{alias.name}", top) for alias in child.names)
            inner = top and not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef
                                           | ast.Lambda)
            visit(child, inner)

    visit(tree, True)
    return found


def _under(name: str, prefixes: tuple[str, ...] | list[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _raises_domain(path: Path) -> list[int]:
    """Lines where a module raises a DomainError/CostError or calls check_cost (a domain or a
    cost rule: the parameters' and the theory's business, never a view's or a command's)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and node.exc is not None:
            call = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if ast.unparse(call).split(".")[-1] in {"DomainError", "CostError"}:
                lines.append(node.lineno)
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "check_cost":
            lines.append(node.lineno)
    return lines


def _public_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
            names.append(node.name)
    return names


def problems(folder: Path | str, package: str) -> list[str]:
    """What breaks the shape in the paper package at ``folder`` whose import name is
    ``package`` (e.g. ``fltheory.papers.committee``): missing modules, imports across the
    walls, domains or theory in the presenting modules. Empty when the package is in shape."""
    folder = Path(folder)
    out: list[str] = []
    stems = {p.stem for p in folder.glob("*.py")}
    out += [f"{package}: no {name}.py" for name in REQUIRED if name not in stems]
    papers_root = package.rsplit(".", 1)[0]
    own = package + "."
    for path in sorted(folder.glob("*.py")):
        r = role(path.stem)
        where = f"{package}.{path.stem}"
        for name, top in imports(path, package):
            out += _import_problem(where, r, name, top, own, papers_root)
        if r in ("views", "cli", "light"):
            out += [f"{where}:{line}: raises a domain or cost error (a rule of the parameters or "
                    "the theory, not of a view or command)" for line in _raises_domain(path)]
        if r == "claims":
            extra = [n for n in _public_names(path) if n != "clear_cache"]
            if extra:
                out.append(f"{where}: defines public {', '.join(extra)} (claims.py holds the "
                           "claim records; both-sides runs belong in runs.py)")
    return out


def _other_paper(name: str, own: str, papers_root: str) -> str | None:
    """The role of the module ``name`` names in a paper other than ``own`` (a built-in paper
    ``fltheory.papers.<key>`` or a sibling of a plugin package), or None."""
    parts = name.split(".")
    if (parts[:2] == ["fltheory", "papers"] and len(parts) >= 3 and not name.startswith(own)
            and name != own[:-1] and (_BUILTIN / parts[2] / "__init__.py").is_file()):
        return role(parts[3]) if len(parts) >= 4 else "__init__"
    if (papers_root != "fltheory.papers" and name.startswith(papers_root + ".")
            and not name.startswith(own) and name.count(".") >= papers_root.count(".") + 2):
        return role(name[len(papers_root) + 1:].split(".")[1])
    return None


def _import_problem(where: str, r: str, name: str, top: bool, own: str,
                    papers_root: str) -> list[str]:
    """The rule ``name`` (imported by module ``where`` of role ``r``) breaks, if any."""
    if not name.startswith(("fltheory", own.split(".")[0])) and not _under(name, _SYMBOLIC):
        if r == "params" and top and _under(name, ("numpy", "scipy")):
            return [f"{where}: imports {name} at module level (parameters stay light)"]
        if r == "light" and _under(name, ("click",)):
            return [f"{where}: imports {name} (the light form of a command answers without "
                    "click)"]
        return []
    if _under(name, _SYMBOLIC):
        if r in ("sim", "params") or (r in ("cli", "light") and top):
            return [f"{where}: imports {name} (the {r} holds no symbolic maths)"]
        return []
    in_own = name.startswith(own)
    target = role(name[len(own):].split(".")[0]) if in_own else ""
    other = _other_paper(name, own, papers_root)
    if other is not None:
        if r == "sim" and other in ("sim", "params"):
            return []
        return [f"{where}: imports {name} (no paper imports another)"]
    if r == "sim":
        ok = (_under(name, _GROUND) or _under(name, _SIM_KIT) or (in_own and target in
              ("sim", "params")) or name in ("fltheory", papers_root) or name == own[:-1])
        return [] if ok else [f"{where}: imports {name} (a simulator imports no theory, engine "
                              "or claims)"]
    if r == "params":
        ok = (_under(name, _GROUND) or _under(name, ("fltheory.simkit.activations",))
              or (not top and _under(name, _GRAMMARS))
              or (in_own and target == "params") or name in ("fltheory", own[:-1]))
        return [] if ok else [f"{where}: imports {name} (parameters are definitions: the "
                              "readers, the catalogue's names, the grammar inside a function)"]
    if in_own and target == "claims" and r != "claims":
        return [f"{where}: imports {name} (only the registry reads a paper's claims)"]
    if in_own and target in ("cli", "views") and r not in ("cli", "views", "__init__"):
        return [f"{where}: imports {name} (nothing below the views imports them)"]
    if r == "theory" and in_own and target in ("sim", "runs", "sweeps"):
        return [f"{where}: imports {name} (the theory never sees the simulator)"]
    return []
