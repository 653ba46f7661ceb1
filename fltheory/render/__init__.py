"""Renderers: text, JSON and LaTeX views of a :class:`fltheory.results.Result`; they compute
nothing."""

from fltheory.render.latex import latex_escape, latex_fraction, render_latex, tabular
from fltheory.render.text import render_json, render_text, text_table

__all__ = ["latex_escape", "latex_fraction", "render_json", "render_latex", "render_text",
           "tabular", "text_table"]
