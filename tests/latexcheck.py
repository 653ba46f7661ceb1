"""Compile a LaTeX body with pdflatex as a paper would (booktabs, amsmath): shared by the tests of
the committed tables and of the API's LaTeX."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def compile_body(body: str, directory: Path) -> None:
    """Compile ``body`` in an article with booktabs and amsmath inside ``directory``; fail the
    test on a LaTeX error, a missing character or an undefined control sequence (skip where
    pdflatex is missing, except in CI, which must install it)."""
    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex missing in CI: .ci/run must install texlive")
        pytest.skip("pdflatex not installed on this machine (CI installs texlive)")
    doc = (r"\documentclass{article}\usepackage{booktabs}\usepackage{amsmath}"
           "\n\\begin{document}\n" + body + "\n\\end{document}\n")
    (directory / "doc.tex").write_text(doc, encoding="utf-8")
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
                       cwd=directory, capture_output=True, text=True, check=False)
    assert p.returncode == 0, p.stdout[-3000:]
    assert (directory / "doc.pdf").stat().st_size > 1000
    log = (directory / "doc.log").read_text(errors="replace")
    assert "Missing character" not in log and "Undefined control sequence" not in log
