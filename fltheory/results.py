"""The one shape every query returns, whatever the command.

A :class:`Result` holds the inputs (exact, as strings), the main value (exact where exact), its
numeric evaluation at the requested precision, the conventions used, command-specific details,
an optional :class:`Table`, and notes. The renderers in :mod:`fltheory.render` turn it into text,
JSON or LaTeX without computing anything. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Result", "Table"]


@dataclass
class Table:
    """A rectangular table with plain-text and (optionally) LaTeX cells.

    ``latex_columns``/``latex_rows`` default to the plain cells, escaped; give them when a cell
    needs mathematics (``$\\alpha_1$``).
    """

    columns: list[str]
    rows: list[list[str]]
    caption: str = ""
    label: str = ""
    latex_columns: list[str] | None = None
    latex_rows: list[list[str]] | None = None
    align: str | None = None
    notes: list[str] = field(default_factory=list)
    latex_notes: list[str] | None = None
    latex_caption: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"columns": self.columns, "rows": self.rows, "caption": self.caption,
                "notes": self.notes}


@dataclass
class Result:
    """What a query command computed, in the shape shared by every command.

    JSON (``--format json``) is ``as_json()``: keys ``command``, ``fltheory_version``,
    ``inputs``, ``value``, ``numeric``, ``conventions``, ``details``, ``table``, ``notes`` —
    always all of them, ``null`` where a command has nothing to say.
    """

    command: str
    inputs: dict[str, Any]
    value: Any
    numeric: str | None = None
    conventions: dict[str, str] = field(default_factory=dict)
    summary: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    table: Table | None = None
    notes: list[str] = field(default_factory=list)
    latex_value: str | None = None

    def as_json(self) -> dict[str, Any]:
        from fltheory import __version__

        return {
            "command": self.command,
            "fltheory_version": __version__,
            "inputs": self.inputs,
            "value": self.value,
            "numeric": self.numeric,
            "conventions": self.conventions,
            "details": self.details,
            "table": None if self.table is None else self.table.as_json(),
            "notes": self.notes,
        }
