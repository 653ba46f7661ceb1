"""Every command's ``--format latex`` compiles (issue 37): each example a command's help gives
and each example of the README's command list is run with ``--format latex``, wrapped in a
minimal article (booktabs, amsmath) and compiled with pdflatex, as a researcher pasting it into
a paper would."""

from __future__ import annotations

import re
import shlex

import click
import pytest
from latexcheck import compile_body
from layout import ROOT

#: README commands that print no query result (they write files, run claims, manage the store)
_NOT_QUERIES = ("plot", "table", "verify", "report", "sweep", "cache", "COMMAND")


def _leaves(group: click.Group, ctx: click.Context, prefix: list[str]):
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            yield [*prefix, name], cmd
            yield from _leaves(cmd, ctx, [*prefix, name])
        elif cmd is not None:
            yield [*prefix, name], cmd


def _help_examples() -> list[str]:
    from fltheory.cli import cli

    found = []
    for _, cmd in _leaves(cli, click.Context(cli), []):
        if not any(p.name == "fmt" for p in cmd.params):
            continue
        for block in re.findall(r"Examples?:\s*(fltheory .*?)(?:\n\s*\n|$)", cmd.help or "",
                                re.S):
            for line in " ".join(block.split()).split(";"):
                line = re.sub(r"\s+\(.*\)\s*$", "", line.strip())  # a trailing "(what it says)"
                if line.startswith("fltheory ") and line.split()[1] not in _NOT_QUERIES:
                    found.append(line)
    return found


def _readme_examples() -> list[str]:
    found, in_block = [], False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```sh"
        elif in_block and line.startswith("fltheory "):
            words = shlex.split(line.split("  #")[0])
            if len(words) > 1 and words[1] not in _NOT_QUERIES:
                found.append(shlex.join(words))
    return found


def _as_latex(line: str) -> tuple[str, ...]:
    words = shlex.split(line)[1:]
    out = [w for i, w in enumerate(words)
           if w != "--format" and (i == 0 or words[i - 1] != "--format")]
    return (*out, "--format", "latex")


EXAMPLES = sorted({_as_latex(line) for line in _help_examples() + _readme_examples()})


def test_the_examples_cover_every_query_command():
    """Each command that prints a result has at least one example here (a new command without
    an example in its help fails)."""
    from fltheory.cli import cli

    covered = {tuple(e[:2]) for e in EXAMPLES} | {tuple(e[:1]) for e in EXAMPLES}
    for path, cmd in _leaves(cli, click.Context(cli), []):
        if any(p.name == "fmt" for p in cmd.params) and path[0] not in _NOT_QUERIES:
            assert tuple(path) in covered, " ".join(path)


@pytest.mark.parametrize("argv", EXAMPLES, ids=" ".join)
def test_latex_output_compiles(invoke, argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if "--eigenvalues" in argv:  # the example reads a sample of a bulk: a GOE's, seeded
        import numpy as np

        G = np.random.default_rng(0).standard_normal((400, 400))
        values = np.linalg.eigvalsh((G + G.T) / np.sqrt(2 * 400))
        (tmp_path / argv[argv.index("--eigenvalues") + 1]).write_text(
            "\n".join(f"{v:.17g}" for v in values), encoding="utf-8")
    r = invoke(*argv)
    assert r.exit_code == 0, r.stderr
    compile_body(r.stdout, tmp_path)


def test_every_symbol_the_code_writes_is_typeset(tmp_path):
    """Every non-ASCII character in fltheory's source (messages, captions, notes are written
    there) goes through latex_escape into something pdflatex typesets: a new symbol without a
    LaTeX spelling fails here, before a user's paper does."""
    from fltheory.render.latex import latex_escape

    chars = sorted({ch for path in (ROOT / "fltheory").rglob("*.py")
                    for ch in path.read_text(encoding="utf-8") if ord(ch) > 127})
    assert len(chars) > 50
    # combining accents sit on a letter; the others stand alone, one per line
    lines = [latex_escape(("x" + ch) if 0x300 <= ord(ch) < 0x370 else ch) for ch in chars]
    compile_body(" \\par\n".join(lines), tmp_path)
