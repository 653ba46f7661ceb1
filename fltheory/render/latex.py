"""LaTeX rendering: booktabs tables and display maths. Needs ``booktabs`` (and ``amsmath``)."""

from __future__ import annotations

from fltheory.results import Result, Table, finite

__all__ = ["latex_escape", "latex_fraction", "render_latex", "tabular"]

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}"}
_UNICODE = {"α": r"$\alpha$", "β": r"$\beta$", "γ": r"$\gamma$", "δ": r"$\delta$",
            "η": r"$\eta$", "λ": r"$\lambda$", "Λ": r"$\Lambda$", "μ": r"$\mu$", "ρ": r"$\rho$",
            "σ": r"$\sigma$", "θ": r"$\theta$", "−": "-", "≥": r"$\geq$", "≤": r"$\leq$",
            "≍": r"$\asymp$", "√": r"$\surd$", "∞": r"$\infty$", "×": r"$\times$",
            "…": r"\dots{}", "²": r"$^2$", "·": r"$\cdot$", "ₖ": r"$_k$", "₁": r"$_1$",
            "₂": r"$_2$", "→": r"$\to$"}


def latex_escape(text: str) -> str:
    """Escape LaTeX specials and spell the few Unicode symbols used in fltheory's messages.

    >>> latex_escape("α1 + α2 < 1/2 & 50%")
    '$\\\\alpha$1 + $\\\\alpha$2 < 1/2 \\\\& 50\\\\%'
    """
    return "".join(_UNICODE.get(ch, _ESCAPES.get(ch, ch)) for ch in text)


def latex_fraction(value: object) -> str:
    """An exact rational (anything ``Fraction`` accepts) as LaTeX: ``3``, ``\\tfrac{2}{5}``.

    >>> print(latex_fraction("-1/10"))
    -\\tfrac{1}{10}
    """
    from fractions import Fraction

    q = Fraction(str(value))
    if q.denominator == 1:
        return str(q.numerator)
    sign = "-" if q < 0 else ""
    return f"{sign}\\tfrac{{{abs(q.numerator)}}}{{{q.denominator}}}"


def tabular(table: Table) -> str:
    """A ``table`` environment holding a booktabs ``tabular``, with caption and label."""
    checked = finite(Result("table", {}, None, table=table)).table  # no nan in a cell
    assert checked is not None
    table = checked
    columns = table.latex_columns or [latex_escape(c) for c in table.columns]
    rows = table.latex_rows or [[latex_escape(c) for c in row] for row in table.rows]
    align = table.align or ("l" + "r" * (len(columns) - 1))
    lines = [r"\begin{table}[htbp]", r"\centering"]
    caption = table.latex_caption or latex_escape(table.caption)
    if caption:
        lines.append(r"\caption{" + caption + "}")
    if table.label:
        lines.append(r"\label{" + table.label + "}")
    lines.append(r"\begin{tabular}{" + align + "}")
    lines.append(r"\toprule")
    lines.append(" & ".join(columns) + r" \\")
    lines.append(r"\midrule")
    lines.extend(" & ".join(row) + r" \\" for row in rows)
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}")
    notes = table.latex_notes if table.latex_notes is not None else [
        latex_escape(n) for n in table.notes]
    if notes:
        lines.append(r"\par\smallskip")
        lines.append(r"{\footnotesize " + r" \par ".join(notes) + "}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def render_latex(result: Result) -> str:
    """The main value as display maths, then the result's table (if any), with the inputs as a
    LaTeX comment so that a pasted snippet records where it came from."""
    result = finite(result)
    inputs = ", ".join(f"{k}={v}" for k, v in result.inputs.items())
    lines = [f"% fltheory {result.command} {inputs}".rstrip()]
    if result.latex_value:
        lines.append(r"\[ " + result.latex_value + r" \]")
    if result.table is not None:
        lines.append(tabular(result.table).rstrip("\n"))
    return "\n".join(lines) + "\n"
