"""Renderers: text, JSON and LaTeX views of a :class:`fltheory.results.Result`; they compute
nothing."""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["latex_escape", "latex_fraction", "render_json", "render_latex", "render_text",
           "tabular", "text_table"]

#: name -> the module that defines it; loaded on first use, so that a text query does not
#: import the LaTeX renderer at start-up
_HOME = {"latex_escape": "latex", "latex_fraction": "latex", "render_latex": "latex",
         "tabular": "latex", "render_json": "text", "render_text": "text", "text_table": "text"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'fltheory.render' has no attribute {name!r}")
    return getattr(import_module(f"fltheory.render.{_HOME[name]}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
