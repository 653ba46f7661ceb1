"""LaTeX rendering: booktabs tables and display maths. Needs ``booktabs`` (and ``amsmath``)."""

from __future__ import annotations

import functools
import re

from fltheory.results import Result, Table, finite

__all__ = ["latex_code", "latex_escape", "latex_fraction", "render_latex", "tabular"]

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}"}
#: symbols written as maths (text: each in its own $…$; inside maths: the bare command); all of
#: them typeset with amsmath alone (no amssymb: ℝ is \mathbf{R})
_SYMBOLS = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ι": r"\iota", "κ": r"\kappa",
    "λ": r"\lambda", "μ": r"\mu", "µ": r"\mu", "ν": r"\nu", "ξ": r"\xi", "π": r"\pi",
    "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "υ": r"\upsilon", "φ": r"\phi",
    "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta",
    "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi", "Σ": r"\Sigma",
    "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega", "ℓ": r"\ell", "ℝ": r"\mathbf{R}",
    "𝒜": r"\mathcal{A}", "≥": r"\geq", "≤": r"\leq", "≍": r"\asymp", "√": r"\surd",
    "∞": r"\infty", "×": r"\times", "·": r"\cdot", "→": r"\to", "←": r"\leftarrow",
    "↦": r"\mapsto", "⟺": r"\iff", "‖": r"\|", "≠": r"\neq", "≈": r"\approx",
    "≃": r"\simeq", "≡": r"\equiv", "≢": r"\not\equiv", "∝": r"\propto",
    # ≳, ≲ without amssymb (a paper's preamble may have only amsmath)
    "≳": r"\mathrel{\substack{>\\ \sim}}", "≲": r"\mathrel{\substack{<\\ \sim}}",
    "≫": r"\gg", "≪": r"\ll", "∈": r"\in",
    "∉": r"\notin", "±": r"\pm", "∓": r"\mp", "⟨": r"\langle", "⟩": r"\rangle",
    "∫": r"\int", "∂": r"\partial", "∇": r"\nabla", "⊥": r"\perp", "⟂": r"\perp",
    "⊙": r"\odot", "⊕": r"\oplus", "⊗": r"\otimes", "∘": r"\circ", "∨": r"\vee",
    "∧": r"\wedge", "⌊": r"\lfloor", "⌋": r"\rfloor", "⌈": r"\lceil", "⌉": r"\rceil",
    "⋯": r"\cdots", "∑": r"\sum", "∏": r"\prod", "ᵀ": r"^{\top}", "²": "^2", "³": "^3",
    "⁴": "^4", "⁵": "^5", "⁶": "^6", "¹": "^1", "⁰": "^0", "⁺": "^+", "⁻": "^-", "⁽": "^(",
    "⁾": "^)", "ⁱ": "^i", "ʲ": "^j", "₀": "_0", "₁": "_1", "₂": "_2", "ₖ": "_k", "₊": "_+",
    "₋": "_-", "½": r"\tfrac{1}{2}", "¼": r"\tfrac{1}{4}", "Ĉ": r"\hat{C}",
    "Â": r"\hat{A}", "ŵ": r"\hat{w}", "ĝ": r"\hat{g}", "ĥ": r"\hat{h}", "û": r"\hat{u}",
    "ũ": r"\tilde{u}", "ṽ": r"\tilde{v}", "ȳ": r"\bar{y}", "ŷ": r"\hat{y}", "∮": r"\oint",
    "⁷": "^7", "⁸": "^8", "⁹": "^9", "₄": "_4", "ℕ": r"\mathbf{N}",
}
#: combining accents (after the letter they sit on), as maths accents
_COMBINING = {"\u0300": r"\grave", "\u0301": r"\acute", "\u0302": r"\hat", "\u0303": r"\tilde",
              "\u0304": r"\bar", "\u0307": r"\dot", "\u0308": r"\ddot", "\u030c": r"\check"}
#: text symbols with a text command of their own
_TEXT = {"−": "-", "…": r"\dots{}", "–": "--", "—": "---", "§": r"\S{}"}
#: text symbols as written outside maths
_UNICODE = {**{ch: f"${cmd}$" for ch, cmd in _SYMBOLS.items()}, **_TEXT}


# Inside maths: the Greek letters and symbols as commands (no $ of their own).
_MATH = {**{ch: cmd + (" " if cmd[-1].isalpha() else "") for ch, cmd in _SYMBOLS.items()},
         "−": "-"}
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


def _accents(text: str) -> str:
    """A letter followed by a combining accent (x̃, ŷ written as y + U+0302) as one maths
    accent ($\\tilde{x}$), escaped."""
    return re.sub("(.)([" + "".join(_COMBINING) + "])",
                  lambda m: f"${_COMBINING[m.group(2)]}{{{_math(m.group(1))}}}$", text)


def _escape_plain(text: str) -> str:
    out = "".join(_UNICODE.get(ch, _ESCAPES.get(ch, ch)) for ch in text)
    return _accents(out) if any(ch in text for ch in _COMBINING) else out


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
    # two maths runs that touch are one ($\\hat{w}$$^{\\top}$ → $\\hat{w}^{\\top}$): never a $$
    return re.sub(r"(?<!\\)\$\$", "", "".join(out))


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
