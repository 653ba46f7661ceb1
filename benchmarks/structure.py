"""The structure figures of issue 25 ("a paper is one package"), measured on the source tree.

Everything but ``--papers`` is read statically with :mod:`ast` from ``<root>/fltheory`` (nothing of
the package is imported), so the script runs on any checkout, old layout (``theory/``, ``sim/``,
…) or new (``papers/<key>/``, ``engine/``, ``simkit/``). Definitions, as the report prints them:

folders per paper
    The keys are read from the declarations ``PAPER = Paper(key="…", …)`` in
    ``fltheory/papers/<key>.py`` or ``fltheory/papers/<key>/__init__.py``. A module belongs to a
    paper if the declaration names it (the module part of a ``"pkg.mod:attr"`` string, or
    ``claims``), or its file stem (leading ``_`` ignored) is the key or starts with ``key_``, or
    one of its folders below ``fltheory/`` is named so; ``rf_spectrum`` also owns the prefix
    ``rf`` (its helpers ``rf_exact``, ``rf_gram``, ``rf_nystrom``), ``fisher`` is its own key. A
    module's folder is its directory, or the highest folder between ``fltheory/`` and it that is
    named after the key (so ``papers/committee/theory/x.py`` counts as ``papers/committee``).
largest folder
    the directory under ``fltheory/`` with the most ``.py`` files directly in it (``__init__.py``
    included).
import circles
    File-level graph of ``fltheory/``: an edge for every ``import`` / ``from … import`` anywhere in
    a module (top level and inside functions; the bodies of ``if TYPE_CHECKING:`` excluded;
    ``importlib.import_module`` strings not followed). ``import a.b.c`` is an edge to
    ``a/b/c.py`` (or ``a/b/c/__init__.py``) only, not to the parents' ``__init__``; ``from pkg
    import name`` is an edge to ``pkg/name.py`` when that is a module, else to the module ``pkg``.
    A circle is a strongly connected component of two or more files (Tarjan).
private names imported
    An imported name is private if it starts with ``_`` (not a dunder) or the module it is taken
    from has a ``_``-component below ``fltheory`` (``from fltheory.theory._quadratic_common import
    step`` is private too); ``import a._m`` and ``from a import _m`` (a module) import the private
    module itself. A pair is (module imported from, name); a site is one name in one import
    statement of one file. Counted twice: across folders (the importing file's folder differs from
    the folder of the module imported from; re-exports are not traced to their definition) and
    across modules (any other module). Public names of private modules are reported apart.
longest functions
    lines from ``def`` to its end, decorators not counted, every function and method of
    ``fltheory/`` (nested ones on their own too); the same for ``fltheory/cli/`` (target <= 40).
repeated blocks
    exact-text repetition only: each line stripped, blank and comment-only lines dropped (docstrings
    kept), every window of 6 consecutive such lines of each file; a window is repeated when its text
    occurs in two or more files. Reported: distinct repeated windows, file pairs sharing at least
    one; once more with the lines of import statements dropped too (the same import header opens
    many files and changes with every move). (The lead's ``duplicates`` tool also finds renamed
    repetitions; this script does not call it.)
public API
    public modules (no ``_`` component) declaring ``__all__``; public functions (names of
    ``__all__`` defined by ``def`` in the module or re-exported from another module of the tree)
    whose docstring holds a doctest ``>>>``.

before (main at bcb4e91):
    folders per paper: committee 6, fisher 6, hermite 6, quadratic 6, recovery 6, twostep 6 (papers,
    theory, sim, claims, views, cli), rf_spectrum 5 (no cli); largest folder fltheory/theory, 50 .py
    files (49 modules and __init__; the issue says 45); import circles 3 components, every one
    closed by a lazy import: 5 files (theory/_committee_flat, _committee_jit, _committee_ode_jit,
    committee_equations, committee_ode), 3 files (results, render/html, render/latex), 2 files
    (theory/twostep_sigma, twostep_terms); the issue names 4 circles: its two committee circles are
    one component here, joined by committee_ode <-> committee_equations and committee_ode ->
    _committee_flat; private names imported across folders 5 pairs at 7 sites (plus 1 public name of
    a _module at 2 sites), across modules 66 pairs at 121 sites, of which _names 58 at 110
    (_quadratic_common 31, _recovery_args 17, as in the issue's 62 at 112), plus 11 public names of
    _modules at 25 sites; longest function 137 lines (theory/committee_ode.py dop853_loop; then
    rf_gram.gram_mp 132, quadratic_integrate.integrate and rf_spectrum._exact_part 117); in cli/ 97
    (committee converge_command); repeated 6-line blocks 19 distinct windows in 11 file pairs, 5 in
    1 pair with import statements dropped (committee_ode / quadratic_ode: the Dormand-Prince start);
    public API 86/110 public modules with __all__, 314/433 public functions with a doctest (theory/
    and sim/ alone: 47/47 and 279/279; the import-based count of the earlier version said 276/276).

Start-up: ``python benchmarks/startup.py`` (run it from a non-editable install).

Usage: python benchmarks/structure.py [--root DIR] [--top 5] [--format text|json] [--papers]
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "fltheory"
#: extra file-name prefixes owned by a paper (rf_spectrum's helpers rf_exact, rf_gram, …)
ALIASES = {"rf_spectrum": ("rf",)}
WINDOW = 6


# -- the tree -------------------------------------------------------------------------------------

class Tree:
    """The modules of ``<root>/fltheory``: dotted name → path, parsed on demand."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Path] = {}
        for path in sorted((root / PACKAGE).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "__pycache__" in parts:
                continue
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            self.files[name] = path
        self._ast: dict[str, ast.Module] = {}

    def parse(self, module: str) -> ast.Module:
        if module not in self._ast:
            source = self.files[module].read_text(encoding="utf-8")
            self._ast[module] = ast.parse(source)
        return self._ast[module]

    def rel(self, module: str) -> str:
        """The module's file, relative to ``<root>/fltheory``."""
        return self.files[module].relative_to(self.root / PACKAGE).as_posix()

    def folder(self, module: str) -> str:
        folder = self.files[module].parent.relative_to(self.root).as_posix()
        return folder

    def is_package(self, module: str) -> bool:
        return self.files[module].name == "__init__.py"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_nodes(node: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement under ``node`` and whether it is lazy (inside a function), the
    bodies of ``if TYPE_CHECKING:`` excluded."""
    stack: list[tuple[ast.AST, bool]] = [(node, False)]
    while stack:
        current, lazy = stack.pop()
        if isinstance(current, ast.Import | ast.ImportFrom):
            yield current, lazy
        if isinstance(current, ast.If) and _is_type_checking(current):
            stack.extend((child, lazy) for child in current.orelse)
            continue
        inner = lazy or isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        stack.extend((child, inner) for child in ast.iter_child_nodes(current))


def _base(tree: Tree, module: str, node: ast.ImportFrom) -> str:
    """The absolute module name a ``from … import`` takes from (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    package = module if tree.is_package(module) else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imported(tree: Tree, module: str) -> Iterator[tuple[int, str, str, bool]]:
    """``(line, target module, name, lazy)`` for every name ``module`` imports from the tree;
    ``name`` is ``""`` when the module itself is imported."""
    for node, lazy in import_nodes(tree.parse(module)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in tree.files:
                    yield node.lineno, alias.name, "", lazy
            continue
        base = _base(tree, module, node)
        for alias in node.names:
            if f"{base}.{alias.name}" in tree.files:
                yield node.lineno, f"{base}.{alias.name}", "", lazy
            elif base in tree.files:
                yield node.lineno, base, alias.name, lazy


# -- folders per paper, largest folder ------------------------------------------------------------

def paper_declarations(tree: Tree) -> dict[str, set[str]]:
    """Paper key → modules its ``PAPER = Paper(...)`` names, for the built-in papers."""
    found: dict[str, set[str]] = {}
    for module in tree.files:
        parts = module.split(".")
        if parts[:2] != [PACKAGE, "papers"] or len(parts) != 3 or parts[2].startswith("_"):
            continue
        for node in ast.walk(tree.parse(module)):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and any(isinstance(t, ast.Name) and t.id == "PAPER" for t in node.targets)):
                key = next((k.value for k in node.value.keywords if k.arg == "key"), None)
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    strings = {s.value.partition(":")[0] for s in ast.walk(node.value)
                               if isinstance(s, ast.Constant) and isinstance(s.value, str)}
                    found[key.value] = {s for s in strings if s in tree.files}
    return found


def _named_after(name: str, prefixes: tuple[str, ...]) -> bool:
    name = name.lstrip("_")
    return any(name == p or name.startswith(p + "_") for p in prefixes)


def paper_folders(tree: Tree) -> dict[str, dict[str, list[str]]]:
    """Paper key → folder → the modules of the paper in it (see the module docstring)."""
    result = {}
    for key, declared in sorted(paper_declarations(tree).items()):
        prefixes = (key, *ALIASES.get(key, ()))
        folders: dict[str, list[str]] = defaultdict(list)
        for module, path in tree.files.items():
            dirs = path.parent.relative_to(tree.root).parts
            named = [i for i, d in enumerate(dirs) if i and _named_after(d, prefixes)]
            if module in declared or named or _named_after(path.stem, prefixes):
                folder = "/".join(dirs[: named[0] + 1] if named else dirs)
                folders[folder].append(tree.rel(module))
        result[key] = dict(sorted(folders.items()))
    return result


def largest_folders(tree: Tree) -> list[tuple[int, str]]:
    counts: dict[str, int] = defaultdict(int)
    for module in tree.files:
        counts[tree.folder(module)] += 1
    return sorted(((n, folder) for folder, n in counts.items()), key=lambda r: (-r[0], r[1]))


# -- import circles -------------------------------------------------------------------------------

def import_graph(tree: Tree) -> dict[str, dict[str, bool]]:
    """Module → imported module → whether every import of it there is lazy."""
    graph: dict[str, dict[str, bool]] = {}
    for module in tree.files:
        edges = graph[module] = {}
        for _, target, _, lazy in imported(tree, module):
            if target != module:
                edges[target] = edges.get(target, True) and lazy
    return graph


def circles(tree: Tree) -> list[dict[str, Any]]:
    """The strongly connected components of two or more files, with their edges."""
    graph = import_graph(tree)
    found = []
    for component in strongly_connected({m: set(e) for m, e in graph.items()}):
        if len(component) >= 2:
            edges = [[tree.rel(a), tree.rel(b), graph[a][b]] for a in component
                     for b in sorted(graph[a]) if b in component]
            found.append({"files": [tree.rel(m) for m in component], "edges": edges})
    return found


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively; each sorted, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(sorted(component))
    return sorted(components, key=lambda c: (-len(c), c))


# -- private names --------------------------------------------------------------------------------

def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def private_imports(tree: Tree) -> list[tuple[str, str, str, str]]:
    """``(kind, importing module, module imported from, name)`` of every private import, one per
    name per statement; kind ``name`` (``from m import _x``), ``module`` (``import a._m``,
    ``from a import _m``) or ``via`` (``from a._m import x``, a public name of a private
    module)."""
    sites = []
    for module in tree.files:
        for _, target, name, _ in imported(tree, module):
            if target == module:
                continue
            if _private(name):
                sites.append(("name", module, target, name))
            elif not name and _private(target.rpartition(".")[2]):
                sites.append(("module", module, target, name))
            elif any(_private(p) for p in target.split(".")[1:]):
                sites.append(("via", module, target, name))
    return sites


def private_counts(tree: Tree) -> dict[str, Any]:
    """Pairs (module, name) and sites of private imports, by kind, across folders (the
    importing file's folder differs from the imported module's) and across modules."""
    sites = private_imports(tree)
    result: dict[str, Any] = {}
    for scope in ("folders", "modules"):
        chosen = [s for s in sites if scope == "modules" or tree.folder(s[1]) != tree.folder(s[2])]
        counts = {}
        for kinds in (("name", "module"), ("name",), ("via",)):
            of = [s for s in chosen if s[0] in kinds]
            counts["+".join(kinds)] = {"pairs": len({(t, n) for _, _, t, n in of}),
                                       "sites": len(of)}
        by_module: dict[str, int] = defaultdict(int)
        for kind, _, target, _ in chosen:
            by_module[tree.rel(target)] += kind != "via"
        counts["by_module"] = dict(sorted(((m, n) for m, n in by_module.items() if n),
                                          key=lambda r: (-r[1], r[0])))
        result[f"across_{scope}"] = counts
    return result


# -- function lengths, repeated blocks, public API ------------------------------------------------

def function_lengths(tree: Tree, under: str = "") -> list[tuple[int, str]]:
    """``(lines, "file:qualified name")`` of every function whose file is under ``under``
    (a folder relative to ``fltheory/``), longest first."""
    rows = []
    for module in tree.files:
        if not tree.rel(module).startswith(under):
            continue
        stack: list[tuple[ast.AST, str]] = [(tree.parse(module), "")]
        while stack:
            node, prefix = stack.pop()
            for child in ast.iter_child_nodes(node):
                name = prefix
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    name = f"{prefix}{child.name}."
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    assert child.end_lineno is not None
                    rows.append((child.end_lineno - child.lineno + 1,
                                 f"{tree.rel(module)}:{name[:-1]}"))
                stack.append((child, name))
    return sorted(rows, key=lambda r: (-r[0], r[1]))


def normalised_lines(source: str, imports: bool = True) -> list[str]:
    """The lines compared for repetition: stripped, blank and comment-only lines dropped (and the
    lines of import statements, if not ``imports``)."""
    skip: set[int] = set()
    if not imports:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import | ast.ImportFrom):
                assert node.end_lineno is not None
                skip.update(range(node.lineno, node.end_lineno + 1))
    lines = (line.strip() for n, line in enumerate(source.splitlines(), 1) if n not in skip)
    return [line for line in lines if line and not line.startswith("#")]


def repeated_blocks(texts: dict[str, list[str]], window: int = WINDOW) -> dict[str, Any]:
    """Windows of ``window`` lines whose text occurs in two or more of ``texts`` (file name →
    its normalised lines): how many distinct ones, and which file pairs share at least one."""
    where: dict[str, set[str]] = defaultdict(set)
    for name, lines in texts.items():
        for i in range(len(lines) - window + 1):
            where["\n".join(lines[i:i + window])].add(name)
    shared: dict[tuple[str, str], int] = defaultdict(int)
    repeated = 0
    for files in where.values():
        if len(files) >= 2:
            repeated += 1
            ordered = sorted(files)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1:]:
                    shared[a, b] += 1
    pairs = sorted(shared.items(), key=lambda r: (-r[1], r[0]))
    return {"windows": repeated, "file_pairs": len(pairs),
            "top_pairs": [[a, b, n] for (a, b), n in pairs]}


def _all_names(module: ast.Module) -> list[str]:
    for node in module.body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                 for t in node.targets)
                and isinstance(node.value, ast.List | ast.Tuple)):
            return [e.value for e in node.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _function_doc(tree: Tree, module: str, name: str, depth: int = 0) -> str | None:
    """The docstring of the function ``name`` of ``module`` (following one re-export), or None
    when ``name`` is not a function."""
    body = tree.parse(module).body
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return ast.get_docstring(node) or ""
    for node in body:
        if isinstance(node, ast.ImportFrom) and depth < 2:
            base = _base(tree, module, node)
            for alias in node.names:
                if (alias.asname or alias.name) == name and base in tree.files:
                    return _function_doc(tree, base, alias.name, depth + 1)
    return None


def api_coverage(tree: Tree) -> dict[str, int]:
    modules = with_all = functions = with_example = 0
    for module in tree.files:
        if any(_private(p) for p in module.split(".")[1:]):
            continue
        public = _all_names(tree.parse(module))
        modules += 1
        with_all += bool(public)
        for name in public:
            doc = _function_doc(tree, module, name)
            if doc is not None:
                functions += 1
                with_example += ">>>" in doc
    return {"modules": modules, "with_all": with_all, "functions": functions,
            "with_example": with_example}


# -- the report -----------------------------------------------------------------------------------

#: names of argument readers that do not say so in their prefix (the private readers issue 34
#: found: a count, an integer, a rational, a matrix, second-layer weights …)
_READER_NAMES = {"_count", "_integer", "_rational", "_rationals", "_positive_float", "_matrix",
                 "_array", "_weights", "_real_fraction", "_support", "positive_int",
                 "finite_real", "_units", "_teacher"}


def _is_reader(name: str) -> bool:
    bare = name.lstrip("_")
    return (bare.startswith(("read_", "check_", "parse_")) and bare != "check_cost") \
        or name in _READER_NAMES


def readers(tree: Tree) -> dict[str, Any]:
    """Argument readers: functions named ``read_*``, ``check_*`` or ``parse_*`` (leading ``_``
    allowed; ``check_cost`` is a cost rule, not a reader) or one of :data:`_READER_NAMES`, per
    file; parameters annotated ``Any`` whose name is a model or parameter object (``model``,
    ``params``, ``setting``, ``run``, ``bulk``); ``getattr`` calls with a default (three
    arguments)."""
    per_file: dict[str, int] = {}
    loose, defaults = 0, 0
    for module in tree.files:
        body = tree.parse(module)
        for node in ast.walk(body):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if _is_reader(node.name):
                    per_file[tree.rel(module)] = per_file.get(tree.rel(module), 0) + 1
                for a in [*node.args.args, *node.args.kwonlyargs]:
                    if (a.arg in ("model", "params", "setting", "run", "bulk")
                            and a.annotation is not None
                            and ast.unparse(a.annotation) == "Any"):
                        loose += 1
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id == "getattr" and len(node.args) == 3):
                defaults += 1
    return {"readers": sum(per_file.values()), "files": len(per_file),
            "by_file": dict(sorted(per_file.items(), key=lambda kv: -kv[1])),
            "loose_parameters": loose, "getattr_defaults": defaults}


def largest_modules(tree: Tree) -> list[tuple[int, str]]:
    return sorted(((len(p.read_text(encoding="utf-8").splitlines()), tree.rel(m))
                   for m, p in tree.files.items()), reverse=True)


def measure(root: Path, top: int) -> dict[str, Any]:
    tree = Tree(root)
    folders = paper_folders(tree)
    largest = largest_folders(tree)
    sources = {tree.rel(m): p.read_text(encoding="utf-8") for m, p in tree.files.items()}
    blocks = {}
    for label, imports in (("all_lines", True), ("imports_dropped", False)):
        texts = {name: normalised_lines(text, imports) for name, text in sources.items()}
        blocks[label] = repeated_blocks(texts)
        blocks[label]["top_pairs"] = blocks[label]["top_pairs"][:top]
    return {
        "root": str(root),
        "folders_per_paper": {k: {"folders": len(v), "where": v} for k, v in folders.items()},
        "largest_folder": {"folder": largest[0][1], "py_files": largest[0][0],
                           "next": [[f, n] for n, f in largest[1:top]]},
        "import_circles": circles(tree),
        "private_imports": private_counts(tree),
        "longest_functions": [[n, f] for n, f in function_lengths(tree)[:top]],
        "longest_cli_functions": [[n, f] for n, f in function_lengths(tree, "cli/")[:top]],
        "repeated_blocks": blocks,
        "public_api": api_coverage(tree),
        "readers": readers(tree),
        "largest_modules": [[n, f] for n, f in largest_modules(tree)[:top]],
    }


def _print_layout(r: dict[str, Any]) -> None:
    print(f"structure of {r['root']}/{PACKAGE} (static, ast; definitions: module docstring)")
    print("folders per paper (target 1; a module is the paper's if its declaration names it or "
          "its file or folder is named after the key, rf_* -> rf_spectrum):")
    for key, v in r["folders_per_paper"].items():
        where = ", ".join(f"{f}({len(m)})" for f, m in v["where"].items())
        print(f"  {key:12s} {v['folders']}  {where}")
    lf = r["largest_folder"]
    print(f"largest folder: {lf['folder']} with {lf['py_files']} .py files (next: "
          + ", ".join(f"{f} {n}" for f, n in lf["next"]) + ")")


def _print_imports(r: dict[str, Any], top: int) -> None:
    found = r["import_circles"]
    print(f"import circles, lazy imports counted (strongly connected components; target 0): "
          f"{len(found)}")
    for c in found:
        print(f"  {len(c['files'])} files: " + ", ".join(c["files"]))
        print("    " + "; ".join(f"{a} -> {b}{' (lazy)' if lazy else ''}"
                                 for a, b, lazy in c["edges"]))
    for scope in ("folders", "modules"):
        v = r["private_imports"][f"across_{scope}"]
        both, name, via = v["name+module"], v["name"], v["via"]
        print(f"private names imported across {scope}: {both['pairs']} (module, name) pairs at "
              f"{both['sites']} sites (_names {name['pairs']} at {name['sites']}, the rest "
              f"_modules); and {via['pairs']} public names of _modules at {via['sites']} sites")
        print("  most from: " + ", ".join(
            f"{m} {n}" for m, n in list(v["by_module"].items())[:top]))


def _print_text(r: dict[str, Any], top: int) -> None:
    _print_layout(r)
    _print_imports(r, top)
    for label, rows in (("fltheory/ (target <= 60)", r["longest_functions"]),
                        ("fltheory/cli/ (target <= 40)", r["longest_cli_functions"])):
        print(f"longest functions in {label}:")
        for n, name in rows:
            print(f"  {n:4d}  {name}")
    for label, what in (("all_lines", "blank/comment lines dropped"),
                        ("imports_dropped", "import statements dropped too")):
        rb = r["repeated_blocks"][label]
        print(f"repeated blocks of {WINDOW} lines (exact text, {what}): {rb['windows']} distinct "
              f"windows in 2+ files, {rb['file_pairs']} file pairs")
        for a, b, n in rb["top_pairs"]:
            print(f"  {n:4d}  {a} ~ {b}")
    rd = r["readers"]
    print(f"argument readers: {rd['readers']} functions in {rd['files']} files (most: "
          + ", ".join(f"{f} {n}" for f, n in list(rd["by_file"].items())[:top]) + ")")
    print(f"model/parameter arguments typed Any: {rd['loose_parameters']}; getattr with a "
          f"default: {rd['getattr_defaults']}")
    print("largest modules: " + ", ".join(f"{f} {n}" for n, f in r["largest_modules"]))
    api = r["public_api"]
    print(f"public API: {api['with_all']}/{api['modules']} public modules declare __all__; "
          f"{api['with_example']}/{api['functions']} public functions have a doctest example")


def _papers(root: Path) -> list[dict[str, Any]]:
    """The papers' contributions, imported from ``root`` (``fltheory.papers`` is light)."""
    sys.path.insert(0, str(root))
    from fltheory.papers import papers

    return [{"key": p.key, "claims": p.claims is not None, "commands": len(p.commands),
             "tables": len(p.tables), "figures": len(p.figures),
             "sweep": p.sweep_tasks is not None, "notebook": p.notebook is not None}
            for p in papers()]


PLUGIN = ("files of fltheory edited to add a paper: 0 (tests/framework/test_plugins.py installs "
          "one from a fixture: 5 new files outside the tree)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="checkout to measure (holds fltheory/); default: this script's")
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--papers", action="store_true",
                        help="also import fltheory.papers from ROOT and list contributions")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if not (root / PACKAGE).is_dir():
        parser.error(f"--root {root}: no {PACKAGE}/ folder there")
    report = measure(root, args.top)
    if args.papers:
        report["papers"] = _papers(root)
    report["plugin"] = PLUGIN
    if args.format == "json":
        print(json.dumps(report, indent=1))
        return
    _print_text(report, args.top)
    if args.papers:
        print("papers discovered (imported from ROOT):")
    for p in report.get("papers", []):
        print(f"  {p['key']:10s} claims={p['claims']} commands={p['commands']} "
              f"tables={p['tables']} figures={p['figures']} sweep={p['sweep']} "
              f"notebook={p['notebook']}")
    print(PLUGIN)


if __name__ == "__main__":
    main()
