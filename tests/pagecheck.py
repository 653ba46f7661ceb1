"""Check a built HTML tree as a reader would see it: offline links, then a real browser.

Two checks, usable on any directory of static HTML (the documentation site, the verification
report); this module imports nothing from fltheory (standard library, and selenium for the
browser part):

* :func:`check_links` — an **offline** link checker. Every internal ``href``/``src`` must resolve
  to an existing file (a directory to its ``index.html``) and, with a ``#fragment``, to an
  element of that page with that ``id`` (or an ``<a name>``). External ``http(s)`` links are
  (and any other scheme) are allowed only as ``<a href>`` (a reader may follow them) and are
  reported, never fetched; an external address anywhere else (script, stylesheet, image,
  iframe, …) would make the page load something from the network, and is an error.
* :func:`check_in_browser` — opens each page from ``file://`` in headless Chromium driven by
  selenium with Debian's ``chromedriver`` (never selenium-manager: no download), waits for
  MathJax to finish (``MathJax.startup.promise``), and reports the console errors (``SEVERE``),
  the number of typeset formulas (``mjx-container`` elements), raw TeX left in the text
  (``$…$``, ``\\(…\\)``, ``\\[…\\]``, ``$$``, ``\\begin{``: outside code, scripts and typeset
  maths; also reST markup shown instead of rendered, ``.. math::`` or ``:func:`…```, every
  element of class ``math`` that holds no typeset formula, and a ``$`` inside the TeX that
  MathJax typeset: prose and dollars set as one formula), MathJax's own errors
  (``mjx-merror``: an unknown macro, unbalanced braces) and every ``<img>`` that did not load
  (``complete && naturalWidth > 0``). Every resource the page fetched (scripts, styles, fonts,
  images: the Resource Timing entries) must come from ``file:``; anything else is an error.

``python tests/pagecheck.py DIR`` runs both over every page of DIR and prints the findings.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["CHROMEDRIVER", "CHROMIUM", "BrowserPage", "LinkReport", "browser_available",
           "check_in_browser", "check_links", "html_pages"]

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

#: attributes that name a resource or a link target
_URL_ATTRS = {"href", "src", "poster", "data"}
_SKIP_SCHEMES = ("mailto:", "javascript:", "data:", "tel:")


def html_pages(root: str | os.PathLike[str]) -> list[Path]:
    """Every ``*.html`` file under ``root`` (sorted), outside ``_static`` and ``_sources``."""
    base = Path(root)
    return sorted(p for p in base.rglob("*.html")
                  if not {"_static", "_sources"} & set(p.relative_to(base).parts[:-1]))


class _Page(HTMLParser):
    """Collects the ids/names of a page and its (tag, attribute, value, line) references."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.anchors: set[str] = set()
        self.refs: list[tuple[str, str, str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (name == "name" and tag == "a"):
                self.anchors.add(value)
            elif name in _URL_ATTRS:
                self.refs.append((tag, name, value.strip(), line))
            elif name == "srcset":
                for item in value.split(","):
                    if item.strip():
                        self.refs.append((tag, name, item.split()[0], line))

    handle_startendtag = handle_starttag


@dataclass
class LinkReport:
    """What :func:`check_links` found: ``errors`` (one line each: page:line, the reference and
    what is wrong), ``external`` (``<a href>`` to http(s), page and address; not fetched),
    ``pages`` (HTML pages read) and ``references`` (internal references checked)."""

    pages: int = 0
    references: int = 0
    errors: list[str] = field(default_factory=list)
    external: list[tuple[str, str]] = field(default_factory=list)


def _parse(path: Path, cache: dict[Path, _Page]) -> _Page:
    if path not in cache:
        page = _Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        page.close()
        cache[path] = page
    return cache[path]


def check_links(root: str | os.PathLike[str],
                pages: Iterable[str | os.PathLike[str]] | None = None) -> LinkReport:
    """Check every internal reference of the given pages (default: :func:`html_pages`) offline.

    A reference outside ``root`` is an error too (the tree must be self-contained), as is an
    absolute path (``/x``: it would not resolve from ``file://``).
    """
    base = Path(root).resolve()
    todo = [Path(p).resolve() for p in pages] if pages is not None else html_pages(base)
    cache: dict[Path, _Page] = {}
    report = LinkReport()
    for path in todo:
        page = _parse(path, cache)
        report.pages += 1
        where = path.relative_to(base).as_posix()
        for tag, attr, value, line in page.refs:
            problem = _check_one(base, path, tag, attr, value, cache, report, where)
            if problem:
                report.errors.append(f"{where}:{line}: <{tag} {attr}={value!r}>: {problem}")
    return report


def _check_one(base: Path, path: Path, tag: str, attr: str, value: str,
               cache: dict[Path, _Page], report: LinkReport, where: str) -> str | None:
    """One reference: None if fine, else what is wrong."""
    lowered = value.lower()
    if not value or lowered.startswith(_SKIP_SCHEMES):
        return None
    parts = urlsplit(value)
    if parts.scheme or parts.netloc:  # http(s), protocol-relative //host, tcp:, …
        if tag == "a" and attr == "href":
            report.external.append((where, value))
            return None
        return "network asset (only <a href> may point outside the tree)"
    report.references += 1
    if parts.path.startswith("/"):
        return "absolute path (does not resolve from file://)"
    target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
    if not target.is_relative_to(base):
        return "points outside the tree"
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return "missing file"
    if (parts.fragment and target.suffix == ".html"
            and unquote(parts.fragment) not in _parse(target, cache).anchors):
        return f"no id {parts.fragment!r} in {target.relative_to(base).as_posix()}"
    return None


# -- browser ---------------------------------------------------------------------------------

@dataclass
class BrowserPage:
    """What the browser saw on one page: console ``errors`` (SEVERE entries), ``maths`` (number
    of ``mjx-container`` elements), ``raw_tex`` (snippets of untypeset TeX in the text),
    ``broken_images`` (src of every ``<img>`` that did not load), ``mathjax`` (whether the page
    loads MathJax) and ``seconds`` (load and checks)."""

    page: str
    errors: list[str]
    maths: int
    raw_tex: list[str]
    broken_images: list[str]
    images: int
    mathjax: bool
    seconds: float

    @property
    def ok(self) -> bool:
        """No console error, no raw TeX, no broken image."""
        return not (self.errors or self.raw_tex or self.broken_images)


def browser_available() -> str | None:
    """None when Debian's Chromium and chromedriver are installed, else the reason.

    Only the browser is optional: selenium is a test dependency, and its absence is an error
    (ImportError from :func:`check_in_browser`), not a reason to skip.
    """
    for name in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.isfile(name) and os.access(name, os.X_OK)):
            return f"{name} is not installed (Debian packages chromium, chromium-driver)"
    return None


# Waits for every image to settle (lazy ones are made eager first) and for MathJax, then
# reports what the page shows. Runs as an async script: the last argument is the callback.
_INSPECT = r"""
const done = arguments[arguments.length - 1];
const imgs = Array.from(document.images);
imgs.forEach(i => { i.loading = "eager"; });
const settle = i => (i.complete ? Promise.resolve() : new Promise(r => {
    i.addEventListener("load", r, {once: true}); i.addEventListener("error", r, {once: true});
}));
const mj = window.MathJax && window.MathJax.startup && window.MathJax.startup.promise;
Promise.all([Promise.all(imgs.map(settle)), mj || Promise.resolve()]).then(() => {
    const skip = new Set(["SCRIPT", "STYLE", "PRE", "CODE", "TEXTAREA", "MJX-CONTAINER",
                          "NOSCRIPT", "KBD", "SAMP"]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
        acceptNode(node) {
            for (let e = node.parentElement; e; e = e.parentElement) {
                if (skip.has(e.tagName)) { return NodeFilter.FILTER_REJECT; }
            }
            return NodeFilter.FILTER_ACCEPT;
        }
    });
    const parts = [];
    while (walker.nextNode()) { parts.push(walker.currentNode.nodeValue); }
    done({
        text: parts.join(" "),
        maths: document.querySelectorAll("mjx-container").length,
        mathNodes: document.querySelectorAll(".math").length,
        texErrors: Array.from(document.querySelectorAll("mjx-merror"))
            .map(e => e.getAttribute("data-mjx-error") || e.textContent),
        texSources: (mj && window.MathJax.startup.document && window.MathJax.startup.document.math)
            ? Array.from(window.MathJax.startup.document.math).map(m => String(m.math)) : [],
        untypeset: Array.from(document.querySelectorAll(".math"))
            .filter(e => !e.querySelector("mjx-container")).length,
        images: imgs.length,
        broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
        mathjax: Boolean(window.MathJax && window.MathJax.startup),
        resources: performance.getEntriesByType("resource").map(r => r.name),
    });
}, err => done({error: String(err)}));
"""

#: untypeset TeX: $…$ on one line (not a lone dollar), $$, \( \) \[ \] and \begin{…}; and
#: reST markup a page shows instead of rendering (a docstring parsed as Markdown): ``.. math::``,
#: ``:func:`…```-style roles
_RAW_TEX = re.compile(r"\$\$|\$[^\s$][^$\n]{0,200}?(?<!\s)\$|\\\(|\\\)|\\\[|\\\]|\\begin\{"
                      r"|\.\. [a-z-]+::|:(?:math|func|mod|class|data|attr|meth|ref|doc):[`\s]")


_DOLLAR_IN_TEX = re.compile(r"(?<!\\)\$")


def _driver(profile: str) -> object:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-extensions",
                 f"--user-data-dir={profile}", "--window-size=1280,1024"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def check_in_browser(root: str | os.PathLike[str], pages: Sequence[str | os.PathLike[str]],
                     timeout: float = 60.0) -> list[BrowserPage]:
    """Open each page (a path, absolute or relative to ``root``) in headless Chromium.

    One browser serves every page (a fresh profile in a temporary directory, removed after).
    Raises RuntimeError with the reason when the browser is not available
    (:func:`browser_available`), ImportError without selenium.
    """
    reason = browser_available()
    if reason:
        raise RuntimeError(reason)
    os.environ.setdefault("SE_OFFLINE", "true")  # selenium-manager must not go online
    base = Path(root).resolve()
    profile = tempfile.mkdtemp(prefix="pagecheck-chromium-")
    results: list[BrowserPage] = []
    driver: object = None
    try:
        driver = _driver(profile)
        driver.set_script_timeout(timeout)  # type: ignore[attr-defined]
        driver.set_page_load_timeout(timeout)  # type: ignore[attr-defined]
        for page in pages:
            path = (Path(page) if Path(page).is_absolute() else base / page).resolve()
            if not path.is_file():
                results.append(BrowserPage(str(page), ["no such page"], 0, [], [], 0, False, 0.0))
                continue
            results.append(_inspect(driver, base, path))
    finally:
        if driver is not None:
            driver.quit()  # type: ignore[attr-defined]
        shutil.rmtree(profile, ignore_errors=True)
    return results


def _inspect(driver: object, base: Path, path: Path) -> BrowserPage:
    start = time.perf_counter()
    driver.get_log("browser")  # type: ignore[attr-defined]  # drop the previous page's
    driver.get(path.as_uri())  # type: ignore[attr-defined]
    seen = driver.execute_async_script(_INSPECT)  # type: ignore[attr-defined]
    logs = driver.get_log("browser")  # type: ignore[attr-defined]
    errors = [entry["message"] for entry in logs if entry.get("level") == "SEVERE"]
    name = path.relative_to(base).as_posix() if path.is_relative_to(base) else str(path)
    if "error" in seen:
        errors.append(f"page check failed: {seen['error']}")
        seen = {"text": "", "maths": 0, "images": 0, "broken": [], "mathjax": False,
                "untypeset": 0}
    raw = [seen["text"][max(m.start() - 30, 0):m.end() + 30].replace("\n", " ")
           for m in _RAW_TEX.finditer(seen["text"])]
    if seen["untypeset"]:
        raw.append(f"{seen['untypeset']} maths element(s) (class 'math') not typeset by MathJax")
    # a dollar inside typeset TeX: prose and $…$ typeset together as one formula
    raw += [f"dollar inside typeset TeX: {tex[:80]}" for tex in seen.get("texSources", [])
            if _DOLLAR_IN_TEX.search(tex)]
    errors += [f"MathJax error: {message}" for message in seen.get("texErrors", [])]
    errors += [f"loaded from outside file://: {url}" for url in seen.get("resources", [])
               if not url.startswith(("file:", "data:", "blob:"))]
    return BrowserPage(page=name, errors=errors, maths=int(seen["maths"]), raw_tex=raw,
                       broken_images=list(seen["broken"]), images=int(seen["images"]),
                       mathjax=bool(seen["mathjax"]), seconds=time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    """``python tests/pagecheck.py DIR [PAGE ...]``: links over every page, browser over the
    given pages (default: all). Exit 1 when anything is wrong."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print(__doc__)
        return 2
    root, pages = Path(args[0]), args[1:]
    links = check_links(root)
    print(f"links: {links.pages} pages, {links.references} internal references, "
          f"{len(links.external)} external <a> links (not fetched), {len(links.errors)} errors")
    for line in links.errors:
        print("  " + line)
    bad = bool(links.errors)
    reason = browser_available()
    if reason:
        print(f"browser: skipped ({reason})")
        return int(bad)
    seen = check_in_browser(root, pages or html_pages(root))
    for page in seen:
        flag = "ok " if page.ok else "BAD"
        print(f"{flag} {page.page}: {page.maths} maths, {page.images} images, "
              f"{page.seconds:.2f} s")
        for item in page.errors + [f"raw TeX: {t}" for t in page.raw_tex] + \
                [f"broken image: {s}" for s in page.broken_images]:
            print("      " + item)
        bad |= not page.ok
    return int(bad)


if __name__ == "__main__":
    raise SystemExit(main())
