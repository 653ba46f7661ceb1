"""Sphinx configuration of the fltheory documentation site.

Build (warnings are errors; output outside the source tree)::

    pip install -e '.[docs]' && sphinx-build -W --keep-going -b html docs build/docs

Everything the pages load is local: MathJax 3 is copied from ``sphinx-mathjax-offline``, the
notebooks (``docs/notebooks`` is a link to ``notebooks/``) are rendered from their committed
outputs (never executed), and ``tests/pagecheck.py`` checks the built tree offline and in a
headless browser (``tests/framework/test_docs.py``).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import fltheory  # noqa: E402

project = "fltheory"
author = "the fltheory authors"
copyright = "the fltheory authors"
version = release = fltheory.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax 3 copied into _static/mathjax: no CDN
    "sphinx_click",
    "myst_nb",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "README.md", "notebooks/README.md", "**.ipynb_checkpoints"]

html_theme = "furo"
html_title = f"fltheory {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
# The verification report (CI size), when it exists, is served as report/index.html: either
# docs/_extra/report/ (copied in by html_extra_path) or the directory named by the environment
# variable FLTHEORY_DOCS_REPORT (copied at the end of the build). The page "report" links to it
# only then (tag "report"), so a build without the report has no dangling link.
#
# Without either, the report of the committed CI-size run (docs/verify-small.json, the output
# of ``fltheory verify --format json`` at small size, seed 0) is written at build time
# (``fltheory report --from``; nothing is recomputed) into a temporary directory.
REPORT_DIR = os.environ.get("FLTHEORY_DOCS_REPORT", "")
CI_RUN = os.path.join(HERE, "verify-small.json")


def _report_of_the_ci_run() -> str:
    """The report of docs/verify-small.json in a temporary directory ('' without the file)."""
    import atexit
    import shutil
    import tempfile
    from pathlib import Path

    from fltheory.report import runs_from_file, write_report

    if not os.path.isfile(CI_RUN):
        return ""
    parent = tempfile.mkdtemp(prefix="fltheory-docs-report-")
    atexit.register(shutil.rmtree, parent, ignore_errors=True)
    out = Path(parent) / "report"
    here = os.getcwd()
    os.chdir(os.path.dirname(HERE))  # the report names its input as docs/verify-small.json
    try:
        data = runs_from_file(Path(os.path.relpath(CI_RUN)), None)
    finally:
        os.chdir(here)
    write_report(data, out)
    return str(out)


def _versions_note() -> str:
    """Which code the committed run was made with, against the code of this build."""
    import json

    from fltheory.sweep.store import code_version

    if not os.path.isfile(CI_RUN):
        return ""
    with open(CI_RUN, encoding="utf-8") as f:
        provenance = json.load(f).get("details", {}).get("provenance", {})
    run, built = str(provenance.get("code_version", "unknown")), code_version()
    if run == built:
        return f"The run was made with the code of this build (`{built}`)."
    return (f"The run was made with code version `{run}`; this site was built from `{built}`: "
            "the claims' code may have changed since (regenerate the file to update it).")


if not REPORT_DIR and not os.path.isfile(os.path.join(HERE, "_extra", "report", "index.html")):
    REPORT_DIR = _report_of_the_ci_run()
html_extra_path = [p for p in ["_extra"] if os.path.isdir(os.path.join(HERE, p))]
HAS_REPORT = (os.path.isfile(os.path.join(HERE, "_extra", "report", "index.html"))
              or os.path.isfile(os.path.join(REPORT_DIR, "index.html")))
if HAS_REPORT:
    tags.add("report")  # type: ignore[name-defined]  # noqa: F821
# no smart quotes: "--opt" must stay two hyphens (copied commands would fail with an en dash)
smartquotes = False
html_show_sourcelink = False
html_copy_source = False

# -- maths ------------------------------------------------------------------------------------
mathjax_path = "mathjax/tex-chtml.js"
# TeX only between \( \) and \[ \] (what Sphinx writes): a stray $ stays visible, and
# tests/pagecheck.py reports it as raw TeX
mathjax3_config = {"tex": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]]}}

# -- autodoc / autosummary --------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
add_module_names = False

# -- notebooks: committed outputs only --------------------------------------------------------
nb_execution_mode = "off"
nb_merge_streams = True
nb_render_markdown_format = "myst"  # Markdown outputs (and text/latex with prose) get $…$ maths
myst_enable_extensions = ["dollarmath", "amsmath", "substitution"]
myst_substitutions = {"report_versions": _versions_note()}


def _copy_report(app: object, exc: BaseException | None) -> None:
    """Copy the report named by FLTHEORY_DOCS_REPORT to <out>/report (after a good build)."""
    import shutil

    if exc is None and REPORT_DIR and os.path.isfile(os.path.join(REPORT_DIR, "index.html")):
        target = os.path.join(app.outdir, "report")  # type: ignore[attr-defined]
        shutil.copytree(REPORT_DIR, target, dirs_exist_ok=True)


_BACKQUOTED = re.compile(r"(``.*?``|`[^`]*`)")


def _escape_bars(app: object, what: str, name: str, obj: object, options: object,
                 lines: list[str]) -> None:
    """Read ``|z|`` in a docstring's prose as an absolute value, not a reST substitution.

    The docstrings write absolute values as in the terminal (``|μ_k| <= 10^-dps``), which reST
    would take for substitution references. The bars are escaped in prose only: not inside
    backquotes (literals, roles such as :math:), directive or literal blocks (``.. math::``,
    ``::``), doctests, tables or line blocks. ``help()`` shows the source unchanged.
    """
    block: int | None = None  # indentation of the line that opened a directive/literal block
    doctest = False
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if not stripped:
            doctest = False
            continue
        if block is not None:
            if indent > block:
                continue
            block = None
        if doctest or stripped.startswith(">>>"):
            doctest = True
            continue
        if stripped.startswith((".. ", "| ", "+-", "+=")) or stripped == "|":
            if stripped.startswith(".. "):
                block = indent
            continue
        if "|" in line:
            parts = _BACKQUOTED.split(line)
            lines[i] = "".join(part if k % 2 else re.sub(r"(?<!\\)\|", r"\\|", part)
                               for k, part in enumerate(parts))
        if line.rstrip().endswith("::"):
            block = indent


def _text_latex_with_prose() -> None:
    """Render a notebook's ``text/latex`` output that mixes prose and ``$…$`` as Jupyter does.

    myst-nb puts every ``text/latex`` output in one display-maths block after stripping the
    outer dollars, so ``$q^* = …$, plateau loss $0.67$`` would be typeset with literal dollars
    and the prose as maths. When dollars remain inside, the output is read as Markdown with
    dollar maths instead (what Jupyter shows); a single formula keeps myst-nb's rendering.
    """
    from myst_nb.core.render import NbElementRenderer, strip_latex_delimiters

    original = NbElementRenderer.render_text_latex

    def render_text_latex(self: NbElementRenderer, data: Any) -> list[Any]:
        if "$" in strip_latex_delimiters(data.string):
            return self.render_markdown(data)
        return original(self, data)

    NbElementRenderer.render_text_latex = render_text_latex


def setup(app: object) -> None:
    _text_latex_with_prose()
    app.connect("build-finished", _copy_report)  # type: ignore[attr-defined]
    app.connect("autodoc-process-docstring", _escape_bars)  # type: ignore[attr-defined]
