"""The commands of the sample-complexity paper, ``samples`` and ``leap``: the answers in every
format, a light ``leap`` query, and every bad input refused in one line (exit 2)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from fltheory.cli import cli


def test_directions_in_the_answer():
    r = CliRunner().invoke(cli, ["leap", "z1 + z2*z3*z4", "--directions",
                                 "1,0,0,0,0; 0,3/5,4/5,0,0; 0,-4/5,3/5,0,0; 0,0,0,1,0",
                                 "--format", "json"])
    assert r.exit_code == 0, r.output
    import json
    out = json.loads(r.output)
    assert out["details"]["directions"][1] == ["0", "3/5", "4/5", "0", "0"]
    assert "checked orthonormal exactly" in out["conventions"]["coordinates"]
    assert "NOT computed" in out["conventions"]["coordinates"]
    assert out["value"]["leap"] == 3 and out["value"]["generative_leap"] == 2


def test_leap_query_is_light():
    from heavy import loaded_after

    code = ("from fltheory.cli import main\n"
            "try:\n    main(['leap', 'z1 + z1*z2*z3', '--format', 'json'])\n"
            "except SystemExit:\n    pass\n")
    assert loaded_after(code, ("sympy", "mpmath", "numpy")) == []


@pytest.mark.parametrize(("args", "param"), [
    (["leap", "exp(z1)"], "TARGET"),
    (["leap", "exp(z1) + z2"], "TARGET"),  # relu(z1) + z2 is a target since issue 37
    (["leap", "z1/z2"], "TARGET"),
    (["leap", "z9"], "TARGET"),
    (["leap", "z1*z2 - z2*z1 + 3"], "TARGET"),  # constant after expansion
    (["leap", "z1**30"], "TARGET"),
    (["leap", "(" * 300 + "z1" + ")" * 300], "TARGET"),
    (["leap", "z1*z2", "--directions", "1,0; 1,1"], "⟨u_1, u_2⟩ = 1"),
    (["leap", "z1*z2", "--directions", "1,0; 0,2"], "|u_2|² = 4"),
    (["leap", "z1*z2", "--directions", "1,0"], "uses z2"),
    (["leap", "z1*z2", "--directions", "1,0; 0,1,0"], "dimension 3"),
    (["leap", "z1*z2", "--directions", "1,0; 0,x"], "not a list of exact numbers"),
    (["leap", "z1", "--directions", "1; 1"], "at most d"),
    (["samples", "He3", "--noise", "-1"], "noise"),
    (["samples", "He3", "--kmax", "0"], "kmax"),
    (["samples", "log(z)"], "EXPR"),
])
def test_bad_input_one_line_exit_2(args, param):
    p = subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                       text=True)
    assert p.returncode == 2, p.stderr
    assert p.stdout == "" and len(p.stderr.strip().splitlines()) == 1
    assert param in p.stderr and "Traceback" not in p.stderr


def test_cli_formats():
    r = CliRunner().invoke(cli, ["leap", "z1 + z1*z2 + z1*z2*z3", "--format", "json"])
    assert r.exit_code == 0 and '"leap": 1' in r.output
    r = CliRunner().invoke(cli, ["samples", "He2", "--format", "latex", "--kmax", "4"])
    assert r.exit_code == 0 and r"d\log d" in r.output


def test_samples_table_fits_100_columns_with_numbered_sources(invoke):
    """The text table (caption, rows and notes) fits 100 columns; each row's source is a
    numbered note below it, and the note holds the row's source (issue 37, item 7)."""
    from fltheory.papers.samples.theory import sample_table

    for g in ("He3", "relu", "He8", "abs(z)*exp(-z**2/2)"):
        out = invoke("samples", g).stdout.splitlines()
        start = next(i for i, line in enumerate(out) if line.startswith("Samples n"))
        end = next(i for i, line in enumerate(out) if line.startswith("[model]"))
        assert max(len(line) for line in out[start:end]) <= 100, g
        rows = sample_table(g, kmax=8, dps=20).rows
        body = out[start + 3:start + 3 + len(rows)]
        notes = "\n".join(out[start + 3 + len(rows):end])
        for row, line in zip(rows, body, strict=True):
            mark = line.split()[-1]
            assert mark.startswith("[") and line.startswith(row.algorithm)
            note = notes.split(mark + " ")[1].split("\n[")[0].replace("\n    ", " ")
            assert note.startswith(row.source), (g, row.algorithm)


def _samples_help_examples() -> list[list[str]]:
    """The command lines ``fltheory samples --help`` gives as examples (its docstring and its
    epilog), each as arguments without ``--format`` (they are run in text)."""
    import re
    import shlex

    from fltheory.papers.samples.cli import samples_command

    found: list[list[str]] = []
    for text in (samples_command.help or "", samples_command.epilog or ""):
        for block in re.findall(r"Examples?:\s*(fltheory .*?)(?:\n\s*\n|$)", text, re.S):
            for line in " ".join(block.split()).split(";"):
                line = re.sub(r"\s+\(.*\)\s*$", "", line.strip())  # a trailing "(what it says)"
                words = shlex.split(line)[2:]
                args = [w for i, w in enumerate(words)
                        if w != "--format" and (i == 0 or words[i - 1] != "--format")]
                if args not in found:
                    found.append(args)
    return found


def test_samples_help_examples_fit_100_columns_of_text(invoke):
    """Every line of every help example's text output, summary and conventions included, fits
    100 columns (issue 37, item 7): the renderer's wrapping rule, continuation lines indented by
    four spaces, and no word of the output lost to the wrapping."""
    from fltheory.papers.samples.cli import samples_result
    from fltheory.papers.samples.params import Link

    examples = _samples_help_examples()
    assert ["He3"] in examples and ["relu", "--noise", "1/2"] in examples
    assert ["z**2*sign(z)"] in examples and len(examples) == 3
    for args in examples:
        r = invoke("samples", *args)
        assert r.exit_code == 0, r.stderr
        lines = r.stdout.splitlines()
        assert max(len(line) for line in lines) <= 100, (args, max(map(len, lines)))
        noise = args[args.index("--noise") + 1] if "--noise" in args else "0"
        result = samples_result(Link(args[0], noise))
        # each convention and summary line is printed, wrapped: its words in order
        words = " ".join(r.stdout.split())
        for text in [*result.summary, *(f"[{k}] {v}" for k, v in result.conventions.items())]:
            assert " ".join(text.split()) in words, text
        assert any(len(line) > 100 for line in result.summary) or args != ["He3"]


def test_samples_latex_caption_from_sympy(invoke):
    tex = invoke("samples", "He3", "--format", "latex").stdout
    assert "$g(z) = z^{3} - 3 z$" in tex and "3*z" not in tex
    assert r"Gheissari \& Jagannath" in tex
