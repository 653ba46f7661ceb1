"""Papers as plugins: each paper declares, in one place, what it contributes.

A paper is a :class:`Paper` object named ``PAPER`` in a module. The declaration holds only names
(``"module:attribute"`` strings), so discovering every paper imports nothing heavy: ``fltheory
lambda`` reads the declarations and imports only the module of the command it runs.

Where papers come from, in this order:

1. the sub-packages of this package (``fltheory/papers/<key>/``, ``PAPER`` in its
   ``__init__``), the built-in papers;
2. the entry points of group ``fltheory.papers`` of any installed distribution, each naming a
   module that defines ``PAPER`` (a third-party paper: ``[project.entry-points."fltheory.papers"]
   mypaper = "mypackage.paper"`` in its ``pyproject.toml``). They are read only when a listing
   needs every paper or a name is not a built-in one, so a built-in light query never pays for
   the scan of installed distributions.

Everything that lists papers' contributions — the claim registry (``fltheory verify``),
``fltheory table``, ``fltheory plot``, ``fltheory sweep --list``, the root command's
sub-commands and ``notebooks/build.py`` — asks this module, so adding a paper is adding files:
its declaration, its theory, simulator, claims, command and views. Two papers may not contribute
the same name (a claim id, table, figure, sweep task or command): that is an error naming both.

>>> [p.key for p in builtin_papers()]
['hermite', 'twostep', 'fisher', 'quadratic', 'recovery', 'rf_spectrum', 'committee',
 'samples', 'spectral', 'kernel', 'glm']
>>> paper("fisher").tables
{'fisher': 'fltheory.papers.fisher.views:fisher_table'}
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["ENTRY_POINT_GROUP", "Paper", "builtin_command", "builtin_light", "builtin_papers",
           "clear", "command_homes", "contribution", "contributions", "lazy_names", "load",
           "paper", "papers"]

#: entry-point group through which installed distributions contribute papers
ENTRY_POINT_GROUP = "fltheory.papers"


class Paper:
    """What one paper contributes, by name.

    Every value is a ``"module:attribute"`` string (``claims``: a module name), resolved by
    :func:`load` only when it is used.

    key:
        short name, the prefix of the paper's claim ids (``twostep`` → ``twostep.lambda``).
    title:
        one line for listings: authors, year, subject.
    claims:
        module whose ``CLAIMS`` list holds the paper's :class:`~fltheory.claims.registry.Claim`
        objects (it may define ``clear_cache()``).
    commands:
        name → click command or group of the ``fltheory`` command.
    light:
        name → :class:`fltheory.cli.light.LightCommand`: the plain form of one of the paper's
        commands, answered without click (built-in papers; the click command stays the
        reference for every other form).
    tables:
        name → function returning a :class:`fltheory.results.Table` (``fltheory table NAME``).
    figures:
        name → function returning a matplotlib figure (``fltheory plot NAME``).
    sweep_tasks:
        ``"module:attribute"`` of a sequence of :class:`fltheory.sweep.tasks.Task`.
    notebook:
        ``"module:attribute"`` of the notebook's cells, a list of ``(kind, source)`` pairs,
        kind ``"markdown"`` or ``"code"`` (``notebooks/build.py`` writes ``<key>.ipynb``).
    order:
        position in listings (built-in papers: the order of the seeds).
    """

    # A plain class, not a dataclass: building a dataclass costs about a millisecond at import,
    # and every command, ``fltheory lambda`` included, reads the declarations.
    __slots__ = ("claims", "commands", "figures", "key", "light", "notebook", "order",
                 "sweep_tasks", "tables", "title")

    def __init__(self, key: str, title: str, claims: str | None = None,
                 commands: Mapping[str, str] | None = None,
                 tables: Mapping[str, str] | None = None,
                 figures: Mapping[str, str] | None = None, sweep_tasks: str | None = None,
                 notebook: str | None = None, order: int = 1000,
                 light: Mapping[str, str] | None = None) -> None:
        self.key, self.title, self.claims = key, title, claims
        self.commands: Mapping[str, str] = dict(commands or {})
        self.light: Mapping[str, str] = dict(light or {})
        self.tables: Mapping[str, str] = dict(tables or {})
        self.figures: Mapping[str, str] = dict(figures or {})
        self.sweep_tasks, self.notebook, self.order = sweep_tasks, notebook, order

    def __repr__(self) -> str:
        return f"Paper(key={self.key!r}, title={self.title!r})"


def load(target: str) -> Any:
    """The object a ``"module:attribute"`` string names (a bare module name: the module)."""
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


def _declared(module_name: str) -> Paper:
    declared = getattr(importlib.import_module(module_name), "PAPER", None)
    if not isinstance(declared, Paper):
        raise RuntimeError(f"paper module {module_name} defines no PAPER = Paper(...)")
    return declared


_found: dict[str, tuple[Paper, ...]] = {}


def builtin_papers() -> tuple[Paper, ...]:
    """The papers of this package (its sub-packages not starting with ``_``, each declaring
    ``PAPER`` in its ``__init__``), in their ``order``."""
    if "builtin" not in _found:
        names = sorted(entry for folder in __path__ for entry in os.listdir(folder)
                       if not entry.startswith(("_", "."))
                       and os.path.isfile(os.path.join(folder, entry, "__init__.py")))
        found = [_declared(f"{__name__}.{name}") for name in names]
        _found["builtin"] = tuple(sorted(found, key=lambda p: (p.order, p.key)))
    return _found["builtin"]


#: how a paper's ``__init__`` declares its commands, read as text by :func:`command_homes`
_COMMANDS_DECLARED = r"commands\s*=\s*\{([^}]*)\}"
_COMMAND_NAME = r"[\"']([\w-]+)[\"']\s*:"


_homes: dict[str, str] = {}


def command_homes() -> dict[str, str]:
    """Command name → key of the built-in paper whose declaration names it, read from the text of
    each ``papers/<key>/__init__.py`` (its ``commands={...}`` literal) without importing any of
    them: a light query imports one paper's declaration, not every paper's (the import of all
    of them costs a few milliseconds, the text scan a fraction of one). Derived, never written
    by hand: a new paper's commands are found the moment its folder exists, and
    tests/framework/test_plugins.py holds this map to the imported declarations. A declaration
    this scan cannot read only costs the full scan (:func:`builtin_command`).

    >>> command_homes()["lambda"]
    'twostep'
    """
    if _homes:
        return dict(_homes)
    import re

    homes: dict[str, str] = {}
    for folder in __path__:
        for key in sorted(os.listdir(folder)):
            if key.startswith(("_", ".")):
                continue
            try:
                with open(os.path.join(folder, key, "__init__.py"), encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:  # not a paper package
                continue
            declared = re.search(_COMMANDS_DECLARED, text)
            for name in re.findall(_COMMAND_NAME, declared.group(1)) if declared else ():
                homes.setdefault(name, key)
    _homes.update(homes)  # once a process (the light path and the click path both ask); clear()
    return homes


def builtin_command(name: str) -> str | None:
    """``"module:attribute"`` of the built-in command ``name`` (None if no built-in paper
    declares it): the paper :func:`command_homes` names is asked first, every built-in paper
    only when that one does not declare it."""
    home = command_homes().get(name) if "builtin" not in _found else None
    if home is not None:
        target = _declared(f"{__name__}.{home}").commands.get(name)
        if target is not None:
            return target
    return contributions("commands", builtin_papers()).get(name)


def builtin_light(name: str) -> str | None:
    """``"module:attribute"`` of the light form of the built-in command ``name``
    (:mod:`fltheory.cli.light`), if the paper that declares the command declares one: read from
    that one paper's declaration (:func:`command_homes`)."""
    home = command_homes().get(name)
    return None if home is None else _declared(f"{__name__}.{home}").light.get(name)


def _installed_papers() -> tuple[Paper, ...]:
    if "installed" not in _found:
        from importlib.metadata import entry_points

        found = [_declared(ep.value.partition(":")[0])
                 for ep in entry_points(group=ENTRY_POINT_GROUP)]
        _found["installed"] = tuple(sorted(found, key=lambda p: (p.order, p.key)))
    return _found["installed"]


def papers() -> tuple[Paper, ...]:
    """Every paper: the built-in ones, then the installed plugins; keys are unique."""
    every = builtin_papers() + _installed_papers()
    _unique("paper", ((p.key, p) for p in every))
    return every


def paper(key: str) -> Paper:
    """The paper with this key (built-in or installed); ``KeyError`` if there is none."""
    for p in papers():
        if p.key == key:
            return p
    raise KeyError(key)


def contributions(kind: str, which: Iterable[Paper] | None = None) -> dict[str, str]:
    """Name → ``"module:attribute"`` of every paper's ``kind`` (``commands``, ``tables`` or
    ``figures``), in paper order; a name contributed twice is an error naming both papers."""
    pairs = [(name, (p, target)) for p in (papers() if which is None else which)
             for name, target in getattr(p, kind).items()]
    _unique(kind[:-1], ((name, p) for name, (p, _) in pairs))
    return {name: target for name, (_, target) in pairs}


def contribution(kind: str, name: str) -> Any:
    """The object of the contribution ``name`` of ``kind`` (``tables``, ``figures``,
    ``commands``), loaded; an unknown name is a :class:`~fltheory.exact.DomainError` listing the
    known ones.

    >>> contribution("tables", "nope")
    Traceback (most recent call last):
    fltheory.exact.DomainError: NAME = nope is not a known table; allowed: one of committee, ...
    """
    from fltheory.exact import DomainError

    named = contributions(kind)
    if name not in named:
        raise DomainError("NAME", name, "one of " + ", ".join(sorted(named)),
                          reason=f"is not a known {kind[:-1]}")
    return load(named[name])


def _unique(what: str, items: Iterable[tuple[str, Paper]]) -> None:
    seen: dict[str, Paper] = {}
    for name, owner in items:
        if name in seen and seen[name] is not owner:
            raise RuntimeError(f"{what} {name!r} is declared by two papers: "
                               f"{seen[name].key} and {owner.key}")
        seen[name] = owner


def clear() -> None:
    """Forget the discovered papers (after installing a plugin in a running interpreter)."""
    _found.clear()
    _homes.clear()


def lazy_names(package: str, names: Mapping[str, Iterable[str]]) -> tuple[Any, Any]:
    """``__getattr__`` and ``__dir__`` for a paper package's face: ``names`` maps a module
    (relative to ``package``, or absolute when it starts with ``fltheory.``) to the public names
    it defines. A name is imported from its module on first use, so importing the package (as
    paper discovery does) stays as light as its declaration.

    >>> from fltheory.papers import fisher
    >>> fisher.multiplicity(3, 2)
    5
    >>> "spectrum" in dir(fisher)
    True
    """
    home = {name: module if module.startswith("fltheory.") else f"{package}.{module}"
            for module, public in names.items() for name in public}

    def __getattr__(name: str) -> Any:
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(home[name]), name)

    def __dir__() -> list[str]:
        import sys

        return sorted({*vars(sys.modules[package]), *home})

    return __getattr__, __dir__
