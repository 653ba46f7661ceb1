"""The command names of ``fltheory``: the core's and the papers' (read by the entry point and by
the click root, :mod:`fltheory.cli.root`)."""

from __future__ import annotations

__all__ = ["CORE_COMMANDS", "commands"]

#: the commands of the machinery itself, name -> "module:attribute"; the papers contribute
#: theirs (``Paper.commands``, :mod:`fltheory.papers`)
CORE_COMMANDS: dict[str, str] = {
    "cache": "fltheory.cli.sweep:cache_command",
    "plot": "fltheory.cli.plot:plot_command",
    "report": "fltheory.cli.report:report_command",
    "sweep": "fltheory.cli.sweep:sweep_command",
    "table": "fltheory.cli.table:table_command",
    "verify": "fltheory.cli.verify:verify_command",
}


def commands(every: bool = True) -> dict[str, str]:
    """Command name -> "module:attribute": the core commands and the papers' (``every=False``:
    the built-in papers only, which needs no scan of the installed distributions)."""
    from fltheory.papers import builtin_papers, contributions

    papers = None if every else builtin_papers()
    found = {**CORE_COMMANDS}
    for name, target in contributions("commands", papers).items():
        if name in found:
            raise RuntimeError(f"command {name!r} is declared by a paper and by the core")
        found[name] = target
    return found
