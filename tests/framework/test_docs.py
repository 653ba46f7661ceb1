"""The documentation site: built with warnings as errors, then checked as a reader sees it.

One build per session (``sphinx-build -W --keep-going``, into a temporary directory; the
notebooks are rendered from their committed outputs, never executed). Then: the pages exist
(one per paper, the CLI reference with every sub-command, one API page per public module, every
notebook with its output images), every internal link of every page resolves offline
(``tests/pagecheck.py``), and a representative set of pages opened in headless Chromium shows
no console error, typeset maths, no raw TeX and every image loaded. The browser part (marker
``browser``, run by default and in CI) is skipped only when Chromium or chromedriver is missing
(``apt-get install chromium chromium-driver``); selenium comes with the ``test`` extra.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import click
import pagecheck
import pytest
from layout import ROOT, sim_modules, theory_modules

DOCS = ROOT / "docs"

#: the site is built once per process: under pytest -n, all these tests share one worker
pytestmark = pytest.mark.xdist_group("docs")


API_MODULES = ["fltheory.exact", "fltheory.results", "fltheory.papers", "fltheory.claims.registry",
               *theory_modules(), *sim_modules()]
NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))


def _paper_keys() -> list[str]:
    from fltheory.papers import builtin_papers

    return [p.key for p in builtin_papers()]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once: ``sphinx-build -W --keep-going -b html docs OUT``."""
    out = tmp_path_factory.mktemp("docs") / "html"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    env.pop("FLTHEORY_DOCS_REPORT", None)
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
               "-d", str(out.parent / "doctrees"), str(DOCS), str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    print(f"docs build: {time.perf_counter() - start:.1f} s wall")
    assert done.returncode == 0, f"sphinx-build failed:\n{done.stdout}\n{done.stderr}"
    return out


def _commands(group: click.Group, prefix: str) -> list[str]:
    """Every command path below ``group``, e.g. ``fltheory-twostep-learn`` (sphinx-click ids)."""
    ctx = click.Context(group)
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        found.append(f"{prefix}-{name}")
        if isinstance(command, click.Group):
            found += _commands(command, f"{prefix}-{name}")
    return found


def test_docs_tests_share_one_worker(request: pytest.FixtureRequest) -> None:
    """Under pytest -n with --dist loadgroup (pyproject's addopts), xdist marks each grouped
    test's id with "@docs" and sends the group to one worker, which builds the site once. With
    pytest 9.2 and pytest-xdist 3.8 the mark was silently lost (both workers built the site,
    80 s each): the id tells."""
    if os.environ.get("PYTEST_XDIST_WORKER") and request.config.getoption("dist") == "loadgroup":
        assert request.node.nodeid.endswith("@docs"), request.node.nodeid


def test_pages_exist(site: Path) -> None:
    for page in ["index", "install", "papers/index", "cli", "api", "notebooks", "report"]:
        assert (site / f"{page}.html").is_file(), page
    for key in _paper_keys():
        assert (site / "papers" / f"{key}.html").is_file(), f"no page for paper {key}"
    for module in API_MODULES:
        assert (site / "api" / "generated" / f"{module}.html").is_file(), module


def test_cli_reference_has_every_command(site: Path) -> None:
    from fltheory.cli import cli

    ids = pagecheck._parse(site / "cli.html", {}).anchors
    expected = _commands(cli, "fltheory")
    assert len(expected) > 20
    from docutils.nodes import make_id  # the anchor docutils makes: "_" becomes "-"

    missing = [name for name in expected if name not in ids and make_id(name) not in ids]
    assert not missing, f"commands absent from cli.html: {missing}"
    # options as typed: two hyphens, never typographic dashes (copied commands must run)
    text = (site / "cli.html").read_text(encoding="utf-8")
    assert "--format" in text and not re.search(r"[–—]-?[a-z]", text)


def test_notebooks_rendered_with_outputs(site: Path) -> None:
    assert NOTEBOOKS
    for name in NOTEBOOKS:
        notebook = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())
        pngs = sum("image/png" in out.get("data", {}) for cell in notebook["cells"]
                   for out in cell.get("outputs", []))
        page = site / "notebooks" / f"{name}.html"
        images = [src for tag, attr, src, _ in pagecheck._parse(page, {}).refs
                  if tag == "img" and attr == "src"]
        assert len(images) >= pngs > 0, (name, images, pngs)


def test_site_holds_the_report_of_the_committed_ci_run(site: Path) -> None:
    """docs/verify-small.json (``fltheory verify --format json``, small size, seed 0) becomes
    report/ at build time: the page links to it and its summary counts are the run's."""
    run = json.loads((DOCS / "verify-small.json").read_text(encoding="utf-8"))
    assert 'href="report/index.html"' in (site / "report.html").read_text(encoding="utf-8")
    index = (site / "report" / "index.html").read_text(encoding="utf-8")
    for status in ("pass", "fail", "inconclusive"):
        assert f'<span class="verdict {status}">{status}</span> {run["value"][status]}<' in index
    missing = [c["id"] for c in run["details"]["claims"] if f"<h3>{c['id']} " not in index]
    assert not missing, f"claims without a section in the report: {missing}"


def test_committed_ci_run_is_of_the_registered_claims() -> None:
    """The committed run is of today's claims (same ids, same statements): regenerate it with
    ``fltheory verify --format json > docs/verify-small.json`` when a claim changes."""
    from fltheory.claims.registry import all_claims

    run = json.loads((DOCS / "verify-small.json").read_text(encoding="utf-8"))
    assert run["inputs"] == {"which": "all", "size": "small", "seed": 0}
    committed = {c["id"]: c["statement"] for c in run["details"]["claims"]}
    assert committed == {c.id: c.statement for c in all_claims()}
    assert run["value"]["fail"] == 0 and not run["details"]["errors"]


def test_committed_large_run_is_of_registered_claims_and_decides_them() -> None:
    """docs/verify-large.json holds the large-size runs of the claims the CI size cannot decide
    (benchmarks/verify_runs.py large): each is a registered claim with today's statement, run
    at the large size, and decided (pass or fail: the reason the run is committed) — except a
    claim registered as inconclusive by design whose large run was tried and still could not
    decide (kept as the record of the attempt, with its reason)."""
    from fltheory.claims.registry import all_claims
    from framework.test_claims import INCONCLUSIVE_BY_DESIGN

    run = json.loads((DOCS / "verify-large.json").read_text(encoding="utf-8"))
    statements = {c.id: c.statement for c in all_claims()}
    assert run["inputs"]["size"] == "large" and run["details"]["claims"]
    tried = 0
    for claim in run["details"]["claims"]:
        assert statements.get(claim["id"]) == claim["statement"], claim["id"]
        assert claim["size"] == "large", claim["id"]
        if claim["status"] == "inconclusive":
            assert claim["id"] in INCONCLUSIVE_BY_DESIGN and claim["reason"], claim["id"]
            tried += 1
        else:
            assert claim["status"] in ("pass", "fail"), claim["id"]
        assert claim["id"] in run["details"]["provenance"]["runs"]
    assert run["value"]["pass"] + run["value"]["fail"] + tried == len(run["details"]["claims"])


def test_links_resolve_offline(site: Path) -> None:
    report = pagecheck.check_links(site)
    print(f"link check: {report.pages} pages, {report.references} internal references, "
          f"{len(report.external)} external <a> links")
    assert report.pages >= len(API_MODULES) + len(NOTEBOOKS) + 7
    assert not report.errors, "\n".join(report.errors[:50])


def _representative() -> list[str]:
    return ["index.html", "cli.html", "api/generated/fltheory.papers.fisher.theory.html",
            *(f"papers/{key}.html" for key in _paper_keys()),
            *(f"notebooks/{name}.html" for name in NOTEBOOKS), "report/index.html"]


@pytest.mark.browser
def test_pages_in_browser(site: Path) -> None:
    reason = pagecheck.browser_available()
    if reason:
        pytest.skip(f"headless browser check needs Chromium: {reason}")
    start = time.perf_counter()
    seen = pagecheck.check_in_browser(site, _representative())
    print(f"browser check: {len(seen)} pages, {time.perf_counter() - start:.1f} s wall")
    problems = [f"{p.page}: errors {p.errors}, raw TeX {p.raw_tex}, images {p.broken_images}"
                for p in seen if not p.ok]
    assert not problems, "\n".join(problems)
    by_page = {p.page: p for p in seen}
    for key in _paper_keys():
        page = by_page[f"papers/{key}.html"]
        assert page.mathjax and page.maths > 0, f"{key}: no typeset maths"
    for name in NOTEBOOKS:
        assert by_page[f"notebooks/{name}.html"].images > 0, name
    # the report: one figure per claim with numbers, every one loaded (checked above)
    run = json.loads((DOCS / "verify-small.json").read_text(encoding="utf-8"))
    drawn = sum(1 for c in run["details"]["claims"] if c.get("points"))
    assert by_page["report/index.html"].images == drawn > 40


# -- the checker itself, on a small tree with known faults (no site build needed) -------------

_GOOD = """<html><head><link rel="stylesheet" href="style.css"></head><body>
<h1 id="top">ok</h1><a href="#top">self</a> <a href="sub/">dir</a> <a href="https://example.org">out</a>
<img src="pixel.svg"></body></html>"""
# a network asset: checked offline only (the browser test must not try the network)
_NET = '<html><head><script src="https://cdn.example.org/x.js"></script></head></html>'
_BAD = """<html><body>
<a href="missing.html">gone</a> <a href="good.html#nowhere">no id</a> <a href="/abs.html">abs</a>
<p>raw maths $x^2$ and \\(y\\), a role :func:`f` left unrendered</p>
<img src="missing.png"><script>console.error("deliberate")</script></body></html>"""
_PIXEL = ('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">'
          '<rect width="4" height="4"/></svg>')


@pytest.fixture
def faulty_tree(tmp_path: Path) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "index.html").write_text("<html><body>sub</body></html>")
    (tmp_path / "style.css").write_text("body { color: black; }")
    (tmp_path / "pixel.svg").write_text(_PIXEL)
    (tmp_path / "good.html").write_text(_GOOD)
    (tmp_path / "bad.html").write_text(_BAD)
    (tmp_path / "net.html").write_text(_NET)
    return tmp_path


def test_link_checker_finds_known_faults(faulty_tree: Path) -> None:
    report = pagecheck.check_links(faulty_tree)
    assert report.pages == 4
    assert not [e for e in report.errors if e.startswith(("good.html", "sub/"))], report.errors
    bad = sorted(e.split(": ", 2)[2] for e in report.errors if e.startswith("bad.html"))
    assert bad == ["absolute path (does not resolve from file://)", "missing file",
                   "missing file", "no id 'nowhere' in good.html"], bad
    assert [e.split(": ", 2)[2] for e in report.errors if e.startswith("net.html")] == [
        "network asset (only <a href> may point outside the tree)"]
    assert report.external == [("good.html", "https://example.org")]


@pytest.mark.browser
def test_browser_check_finds_known_faults(faulty_tree: Path) -> None:
    reason = pagecheck.browser_available()
    if reason:
        pytest.skip(f"headless browser check needs Chromium: {reason}")
    good, bad = pagecheck.check_in_browser(faulty_tree, ["good.html", "bad.html"])
    assert good.ok and good.images == 1, good
    assert not bad.ok
    assert any("deliberate" in e for e in bad.errors), bad.errors
    assert any("missing.png" in s for s in bad.broken_images), bad.broken_images
    assert any("$x^2$" in t for t in bad.raw_tex) and any("\\(y\\)" in t for t in bad.raw_tex)
    assert any(":func:" in t for t in bad.raw_tex), bad.raw_tex
