"""From Python, a result's LaTeX is the LaTeX that ``--format latex`` prints.

Every result object of the API that is a table (``ShowsTable``) has ``to_latex()``; where the
command renders the same object, the command's table is that string byte for byte. The LaTeX never
shows plain-text mathematics escaped letter by letter (``$\\mu$\\_3``, ``sqrt(6)``,
``z\\textasciicircum{}3``), and it compiles with pdflatex.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from latexcheck import compile_body

from fltheory.render.latex import latex_escape, render_latex

#: plain-text mathematics escaped character by character: what the API used to give
_SPELLED_OUT = re.compile(r"\$\\[A-Za-z]+\$\\_|sqrt\(|\*\*|\\textasciicircum")


def _objects():
    from fltheory.engine.hermite import analysis as ha
    from fltheory.engine.hermite import coefficients as hc
    from fltheory.papers.fisher import theory as fisher
    from fltheory.papers.recovery import counting as rc
    from fltheory.papers.recovery import theory as recovery
    from fltheory.papers.rf_spectrum import theory as rf
    from fltheory.papers.twostep import phases as twostep

    return {
        "Expansion": hc.expansion("relu", 3, 15),
        "Expansion He basis": hc.expansion("He3", 3, 15),
        "HermiteAnalysis": ha.analyse("He3", 3, 15),
        "FisherSpectrum": fisher.spectrum(5, 3, 15),
        "RFSpectrum": rf.spectrum("relu", 5, lmax=2, jmax=1, dps=10),
        "RecoveryAt": recovery.recovery_at(30, 2, Fraction(3, 2), Fraction(10**5), 4),
        "Thresholds": rc.thresholds(100, 2, [1, 2, 3], Fraction(3, 2)),
        "LambdaResult": twostep.lambda_details(Fraction(2, 5), Fraction(3, 10)),
    }


@pytest.fixture(scope="module")
def objects():
    return _objects()


def test_every_table_object_has_latex_without_spelled_out_maths(objects):
    for name, obj in objects.items():
        latex = obj.to_latex()
        assert latex.startswith(r"\begin{table}"), name
        assert not _SPELLED_OUT.findall(latex), (name, _SPELLED_OUT.findall(latex), latex)


def test_hermite_api_latex_is_the_command_table(invoke):
    from fltheory.engine.hermite.coefficients import expansion

    for expr, basis in (("relu", "h"), ("tanh", "h"), ("He3", "He")):
        out = invoke("hermite", expr, "-K", "3", "--basis", basis, "--dps", "15",
                     "--format", "latex")
        assert out.exit_code == 0, out.output
        table = expansion(expr, 3, 15).table(basis)
        table.notes = []  # the command prints the notes once, as the result's own
        from fltheory.render.latex import tabular

        assert tabular(table) in out.output
        # the exact values are LaTeX, not sympy code
        assert "sqrt(" not in out.output and "**" not in out.output


@pytest.mark.parametrize("command, attribute", [
    (("fisher", "--d", "5", "--lmax", "3", "--dps", "15", "--format", "latex"), "fisher"),
    (("threshold", "--d", "100", "--q", "2", "--gamma", "3/2", "--k", "1..3",
      "--format", "latex"), "threshold"),
])
def test_pass_through_commands_print_the_api_latex(invoke, command, attribute):
    from fltheory.papers.fisher import theory as fisher
    from fltheory.papers.recovery import counting as rc

    out = invoke(*command)
    assert out.exit_code == 0, out.output
    obj = (fisher.spectrum(5, 3, 15) if attribute == "fisher"
           else rc.thresholds(100, 2, [1, 2, 3], Fraction(3, 2)))
    assert obj.to_latex() in out.output


def test_plain_maths_becomes_maths():
    # hand-written expectations: each plain-text form and the LaTeX a reader would type
    cases = {
        "μ_3": r"$\mu_{3}$",
        "λ_(l,j)": r"$\lambda_{l,j}$",
        "10^-15": r"$10^{-15}$",
        "sqrt(6)": r"$\sqrt{6}$",
        "a_k^2": r"$a_{k}^{2}$",
        "E[σ^(2)]": r"E[$\sigma^{2}$]",
        "50% & α": r"50\% \& $\alpha$",
    }
    for text, expected in cases.items():
        assert latex_escape(text) == expected, text


def test_api_latex_compiles(objects, tmp_path):
    from fltheory.results import Result

    body = "\n".join(obj.to_latex() for obj in objects.values())
    body += render_latex(Result("x", {}, None, notes=[], latex_value="x^2"))
    compile_body(body, tmp_path)


def test_numeric_cells_of_the_hermite_table():
    # hand-written: a confirmed number in maths, an exponent as a power of ten, the digit count
    # in words, "unconfirmed" as words
    from fltheory.engine.hermite.coefficients import _latex_numeric

    assert _latex_numeric("0.5") == "$0.5$"
    assert _latex_numeric("1.25e-5 (3 digits)") == r"$1.25 \times 10^{-5}$ (3 digits)"
    assert _latex_numeric("unconfirmed (0 digits agree)") == "unconfirmed (0 digits agree)"
