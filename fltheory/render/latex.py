"""LaTeX rendering: booktabs tables and display maths. Needs ``booktabs`` (and ``amsmath``)."""

from __future__ import annotations

import functools
import re

from fltheory.results import Result, Table, finite

__all__ = ["latex_code", "latex_escape", "latex_fraction", "render_latex", "tabular"]

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}"}
_UNICODE = {"α": r"$\alpha$", "β": r"$\beta$", "γ": r"$\gamma$", "δ": r"$\delta$",
            "η": r"$\eta$", "λ": r"$\lambda$", "Λ": r"$\Lambda$", "μ": r"$\mu$", "ρ": r"$\rho$",
            "σ": r"$\sigma$", "θ": r"$\theta$", "−": "-", "≥": r"$\geq$", "≤": r"$\leq$",
            "≍": r"$\asymp$", "√": r"$\surd$", "∞": r"$\infty$", "×": r"$\times$",
            "…": r"\dots{}", "²": r"$^2$", "·": r"$\cdot$", "ₖ": r"$_k$", "₁": r"$_1$",
            "₂": r"$_2$", "→": r"$\to$", "‖": r"$\|$", "≠": r"$\neq$", "≈": r"$\approx$",
            "Σ": r"$\Sigma$", "ζ": r"$\zeta$", "φ": r"$\phi$", "ψ": r"$\psi$",
            "π": r"$\pi$", "ε": r"$\varepsilon$", "κ": r"$\kappa$", "τ": r"$\tau$",
            "χ": r"$\chi$", "∈": r"$\in$", "±": r"$\pm$", "⟨": r"$\langle$",
            "⟩": r"$\rangle$", "³": r"$^3$", "⁴": r"$^4$", "₀": r"$_0$"}


# Inside maths: the Greek letters and symbols as commands (no $ of their own).
_MATH = {"α": r"\alpha ", "β": r"\beta ", "γ": r"\gamma ", "δ": r"\delta ", "η": r"\eta ",
         "λ": r"\lambda ", "Λ": r"\Lambda ", "μ": r"\mu ", "ρ": r"\rho ", "σ": r"\sigma ",
         "θ": r"\theta ", "−": "-", "≥": r"\geq ", "≤": r"\leq ", "·": r"\cdot ",
         "×": r"\times ", "∞": r"\infty ", "√": r"\surd ", "→": r"\to ", "²": "^2",
         "Σ": r"\Sigma ", "ζ": r"\zeta ", "φ": r"\phi ", "ψ": r"\psi ", "π": r"\pi ",
         "ε": r"\varepsilon ", "κ": r"\kappa ", "τ": r"\tau ", "χ": r"\chi ", "‖": r"\| ",
         "≠": r"\neq ", "≈": r"\approx "}
_BASE = r"[A-Za-z\u0391-\u03a9\u03b1-\u03c9]"
_ARG = r"(?:\([^()]*\)|[A-Za-z0-9.'\u0391-\u03a9\u03b1-\u03c9]+)"
# plain-text mathematics in messages: μ_3, λ_(l,j), 10^-15, r^n, sqrt(6), E[σ^(2)]
_MATH_RUN_SOURCE = (rf"sqrt\((?P<root>[^()]*)\)"
                    rf"|(?P<sb>{_BASE})_(?P<sub>{_ARG})(?:(?:\^|\*\*)(?P<sup1>[-+]?{_ARG}))?"
                    rf"|(?P<pb>[A-Za-z0-9.'\u0391-\u03a9\u03b1-\u03c9)\]]+)(?:\^|\*\*)"
                    rf"(?P<sup>[-+]?{_ARG})")


@functools.cache
def _math_runs() -> re.Pattern[str]:
    # compiled on first use: a text query imports this module without escaping anything
    return re.compile(_MATH_RUN_SOURCE)


def _math(text: str) -> str:
    """Plain text already known to be mathematics, as the inside of ``$…$``."""
    out = "".join(_MATH.get(ch, ch) for ch in text)
    return re.sub(r"\\([a-zA-Z]+) (?=[^a-zA-Z]|$)", r"\\\1", out).strip()


def _group(arg: str) -> str:
    """A sub- or superscript: "(l,j)" -> "{l,j}", "3" -> "{3}"."""
    inner = arg[1:-1] if arg.startswith("(") and arg.endswith(")") else arg
    return "{" + _math(inner) + "}"


def _escape_plain(text: str) -> str:
    return "".join(_UNICODE.get(ch, _ESCAPES.get(ch, ch)) for ch in text)


def _math_run(m: re.Match[str]) -> str:
    if m.group("root") is not None:
        return "$\\sqrt{" + _math(m.group("root")) + "}$"
    if m.group("sb") is not None:
        sup = m.group("sup1")
        return ("$" + _math(m.group("sb")) + "_" + _group(m.group("sub"))
                + ("" if sup is None else "^" + _group(sup)) + "$")
    return "$" + _math(m.group("pb")) + "^" + _group(m.group("sup")) + "$"


def latex_code(text: str) -> str:
    """Escape text meant for ``\\texttt{…}`` (an expression as typed): specials escaped, no
    maths conversion.

    >>> latex_code("z^3")
    'z\\\\textasciicircum{}3'
    """
    return _escape_plain(text)


def latex_escape(text: str) -> str:
    """Escape LaTeX specials and spell the few Unicode symbols used in fltheory's messages;
    plain-text mathematics (``μ_3``, ``λ_(l,j)``, ``10^-15``, ``sqrt(6)``) becomes maths.

    >>> latex_escape("α1 + α2 < 1/2 & 50%")
    '$\\\\alpha$1 + $\\\\alpha$2 < 1/2 \\\\& 50\\\\%'
    >>> print(latex_escape("μ_3 = sqrt(6), |μ_3| > 10^-15, λ_(l,j)"))
    $\\mu_{3}$ = $\\sqrt{6}$, |$\\mu_{3}$| > $10^{-15}$, $\\lambda_{l,j}$
    """
    out, last = [], 0
    for m in _math_runs().finditer(text):
        out.append(_escape_plain(text[last:m.start()]))
        out.append(_math_run(m))
        last = m.end()
    out.append(_escape_plain(text[last:]))
    return "".join(out)


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
