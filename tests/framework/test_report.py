"""``fltheory report`` and the claim runs in the results store (issue 17, item 2).

Synthetic claims carry points of every kind (an x-series with se and band in two series,
categorical labels, qualitative points without a prediction, a non-finite measurement, no
points at all, a claim that raises); real claims are the cheapest registered ones
(twostep.lambda, 0.4 s). The HTML is checked with the standard library's parser: balanced
tags, unique ids, every internal link and image resolving, nothing fetched from the network.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from unwrap import unwrap

from fltheory.claims.registry import Claim, Point, Verdict
from fltheory.report import MARKER, runs_from_store, write_report
from fltheory.sweep.claims import TASK, claim_version, run_claims
from fltheory.sweep.store import Store

pytest.importorskip("matplotlib")

VOID = {"meta", "link", "img", "br", "hr", "input", "source", "wbr", "col", "area", "base"}


class _Page(HTMLParser):
    """Tags balanced, ids, links, images and external references of one HTML file."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.srcs: list[str] = []
        self.errors: list[str] = []
        self.doctype = ""

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.append(str(found["id"]))
        if tag in ("a", "link") and found.get("href"):
            self.hrefs.append(str(found["href"]))
        if tag in ("img", "script") and found.get("src"):
            self.srcs.append(str(found["src"]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def check_page(directory: Path) -> _Page:
    """Parse DIR/index.html and assert what a reader needs of it offline."""
    page = _Page()
    page.feed((directory / "index.html").read_text(encoding="utf-8"))
    page.close()
    assert page.doctype.lower() == "doctype html"
    assert not page.errors and not page.stack, (page.errors, page.stack)
    assert len(page.ids) == len(set(page.ids)), "duplicate ids"
    for ident in page.ids:  # an HTML5 id: non-empty, no whitespace (ours: [A-Za-z0-9_-])
        assert ident and all(c.isalnum() or c in "_-" for c in ident), ident
    for ref in page.hrefs + page.srcs:
        assert "://" not in ref and not ref.startswith("//"), f"network reference {ref}"
        if ref.startswith("#"):
            assert ref[1:] in page.ids, f"dangling link {ref}"
        else:
            assert (directory / ref).is_file(), f"missing file {ref}"
    for path in directory.rglob("*"):
        if path.suffix in (".svg", ".css", ".html"):
            text = path.read_text(encoding="utf-8")
            for bad in ('href="http', "src=\"http", "url(http", "@import", "xlink:href=\"http"):
                assert bad not in text, f"{path.name} fetches from the network ({bad})"
    return page


# --------------------------------------------------------------------------- synthetic claims

def _points_series() -> tuple[Point, ...]:
    out = []
    for series, slope in (("relu", 1.0), ("tanh", 0.5)):
        for n in (100, 400, 1600):
            pred = slope / math.sqrt(n)
            out.append(Point(f"N={n}", pred * 1.05, predicted=pred, se=0.1 * pred,
                             band=0.3 * pred, x=n, x_label="N", series=series))
    return tuple(out)


_POINTS = {
    "series": _points_series(),
    "labels": (Point("λ1", 1.02, predicted=1.0, se=0.03, band=0.1),
               Point("λ2", 0.48, predicted=0.5, se=0.02, band=0.1),
               Point("λ3", 0.26, predicted=0.25, se=None, band=None)),
    # numpy scalars, as a simulator hands them: stored and drawn as plain numbers
    "qualitative": (Point("slope", np.float32(-0.8), se=np.float32(0.1)),
                    Point("gap", np.int64(3))),
    "nan": (Point("ok", 1.0, predicted=1.0, se=0.1, band=0.5), Point("bad", float("nan"))),
    "mixed": (Point("a", 2.0, predicted=2.1, se=0.2, band=0.4, x=1.0, x_label="t"),
              Point("b", 3.0, predicted=2.9, se=0.2, band=0.4, x=2.0, x_label="t"),
              Point("total", 5.0, predicted=5.0, se=0.3, band=0.6)),
    "none": (),
}


def _synthetic(kind: str, calls: list[str]) -> Claim:
    def simulate(params, seed):
        calls.append(kind)
        if kind == "boom":
            raise RuntimeError("the simulator broke")
        return seed

    def compare(prediction, measured):
        status = "inconclusive" if kind == "none" else "pass"
        return Verdict(status, "p", "m ± s", "|z| ≤ 3", reason="cannot tell" if kind == "none"
                       else "", points=_POINTS.get(kind, ()))

    return Claim(id=f"synth.{kind}", statement=f"the {kind} claim <holds> & more",
                 predict=lambda params: 1, simulate=simulate, compare=compare,
                 why="a z-score is N(0, 1)", sizes={"small": {"n": 3}, "large": {"n": 9}},
                 source="a test")


KINDS = ["series", "labels", "qualitative", "nan", "mixed", "none", "boom"]


def test_report_of_every_kind_of_point(tmp_path):
    calls: list[str] = []
    claims = [_synthetic(k, calls) for k in KINDS]
    with Store(tmp_path / "s.sqlite") as store:
        data = runs_from_store(claims, "synth", "small", 0, store=store)
    assert [r["status"] for r in data.runs] == ["pass"] * 5 + ["inconclusive", "error"]
    assert data.runs[-1]["reason"] == "RuntimeError: the simulator broke"
    outcome = write_report(data, tmp_path / "out")
    out = outcome.directory
    page = check_page(out)
    html = (out / "index.html").read_text(encoding="utf-8")
    # five figures: the claims with at least one finite measured point (not none, not boom)
    figures = sorted(p.name for p in (out / "figures").iterdir())
    assert figures == sorted(f"synth-{k}.svg" for k in KINDS[:5])
    assert sorted(s for s in page.srcs) == sorted(f"figures/{f}" for f in figures)
    assert "No figure: no numbers recorded for this claim." in html
    assert "No figure: the run failed." in html
    assert "the series claim &lt;holds&gt; &amp; more" in html  # escaped, not markup
    assert "judged by a qualitative rule: |z| ≤ 3" in html
    assert "1 point with a non-finite measured value is not drawn" in html
    assert "RuntimeError: the simulator broke" in html and "why inconclusive" in html
    # the x-series figure has both series, measured with error bars and the predicted line
    svg = (out / "figures" / "synth-series.svg").read_text(encoding="utf-8")
    assert ">relu<" in svg and ">tanh<" in svg and "<path" in svg
    assert "the 6 numbers behind the verdict" in html  # every point also as text
    # the label says N=1600: the "at" column does not repeat it
    assert "<td>N=1600</td><td></td><td>0.02625</td><td>0.0025</td><td>0.025</td>" in html
    # mixed: one panel per x axis and one for the labelled points (few: labels as ticks)
    mixed = (out / "figures" / "synth-mixed.svg").read_text(encoding="utf-8")
    assert mixed.count('id="axes_') == 2 and ">total<" in mixed
    assert (out / MARKER).is_file() and (out / "assets" / "report.css").is_file()
    assert outcome.bytes == sum((out / f).stat().st_size for f in outcome.files)


def test_store_serves_the_second_report_and_refuses_stale_rows(tmp_path):
    calls: list[str] = []
    claims = [_synthetic(k, calls) for k in ("series", "qualitative", "boom")]
    with Store(tmp_path / "s.sqlite") as store:
        first = run_claims(claims, "small", 0, store=store, catch=True)
        assert first.computed == ["synth.series", "synth.qualitative"] and not first.cached
        assert calls == ["series", "qualitative", "boom"]
        again = run_claims(claims, "small", 0, store=store, catch=True)
        assert again.cached == ["synth.series", "synth.qualitative"] and not again.computed
        assert calls == ["series", "qualitative", "boom", "boom"]  # a failed run is not stored
        for kind in ("series", "qualitative"):
            assert again.runs[f"synth.{kind}"]["points"] == first.runs[f"synth.{kind}"]["points"]
        assert again.runs["synth.qualitative"]["points"][1]["measured"] == 3
        # another seed or size is another row
        run_claims(claims[:1], "small", 1, store=store)
        assert calls[-1] == "series"
        # a row under another code version is never read
        key = {"claim": "synth.labels", "size": "small"}
        store.put(TASK, key, 7, "0.0.1+000000000000", {"id": "synth.labels", "stale": 1}, 1.0)
        fresh = run_claims([_synthetic("labels", calls)], "small", 7, store=store)
        assert fresh.computed == ["synth.labels"] and "stale" not in fresh.runs["synth.labels"]
        assert claim_version(claims[0]) in fresh.runs["synth.labels"]["version"]


# --------------------------------------------------------------------------- the command

def _fake_claims(monkeypatch):
    """twostep's claims with predict and simulate that raise: a report that needs them fails."""
    from fltheory.papers.twostep import claims as twostep

    def boom(*args):
        raise AssertionError("recomputed")

    monkeypatch.setattr(twostep, "CLAIMS", [replace(c, predict=boom, simulate=boom)
                                            for c in twostep.CLAIMS])


def test_verify_then_report_does_not_recompute(invoke, tmp_path, monkeypatch):
    store = str(tmp_path / "s.sqlite")
    r = invoke("verify", "twostep.lambda", "--store", store, "--format", "json")
    assert r.exit_code == 0, r.stderr
    verified = json.loads(r.stdout)
    assert verified["details"]["provenance"]["runs"]["twostep.lambda"]["from_store"] is False
    (tmp_path / "verify.json").write_text(r.stdout, encoding="utf-8")
    _fake_claims(monkeypatch)
    r = invoke("report", "twostep.lambda", "--store", store, "--out", str(tmp_path / "a"),
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    value = json.loads(r.stdout)["value"]
    assert value["from_store"] == ["twostep.lambda"] and value["computed"] == []
    assert value["counts"] == {"pass": 0, "fail": 0, "inconclusive": 1, "error": 0}
    assert "index.html" in value["files"] and value["bytes"] > 1000
    check_page(tmp_path / "a")
    html = (tmp_path / "a" / "index.html").read_text(encoding="utf-8")
    assert "(from the store)" in html and "N = 1000" in html and "feasible N" in html
    # --from: the same claims from the verify JSON, no store, no computation
    r = invoke("report", "--from", str(tmp_path / "verify.json"), "--out",
               str(tmp_path / "b"))
    assert r.exit_code == 0, r.stderr
    check_page(tmp_path / "b")
    assert "feasible N" in (tmp_path / "b" / "index.html").read_text(encoding="utf-8")
    # --no-cache ignores the store: the faked claim now raises and is shown as an error
    r = invoke("report", "twostep.lambda", "--no-cache", "--out", str(tmp_path / "c"))
    assert r.exit_code == 0, r.stderr
    assert "AssertionError: recomputed" in (tmp_path / "c" / "index.html").read_text("utf-8")


def test_report_from_scratch_computes_and_stores(invoke, tmp_path):
    store = tmp_path / "fresh.sqlite"
    r = invoke("report", "twostep.lambda", "--store", str(store), "--out", str(tmp_path / "a"),
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["value"]["computed"] == ["twostep.lambda"]
    r = invoke("verify", "twostep.lambda", "--store", str(store), "--format", "json")
    provenance = json.loads(r.stdout)["details"]["provenance"]["runs"]["twostep.lambda"]
    assert provenance["from_store"] is True
    # a second report replaces the first (the marker allows it)
    r = invoke("report", "twostep.lambda", "--store", str(store), "--out", str(tmp_path / "a"))
    assert r.exit_code == 0 and "1 from the store, 0 computed now" in unwrap(r.stdout)
    assert sorted(os.listdir(tmp_path)) == ["a", "fresh.sqlite", "fresh.sqlite-shm",
                                            "fresh.sqlite-wal"] or "a" in os.listdir(tmp_path)
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".")]  # no temporary left


def test_verify_no_cache_writes_no_store(invoke, tmp_path):
    store = tmp_path / "s.sqlite"
    r = invoke("verify", "twostep.lambda", "--store", str(store), "--no-cache")
    assert r.exit_code == 0 and not store.exists()


def _one_line_exit_2(r, *words):
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    for word in words:
        assert word in r.stderr, r.stderr


@pytest.mark.parametrize("content, words", [
    ("not json", ("from", "is not JSON")),
    ('{"command": "lambda"}', ("is not the JSON output of fltheory verify",)),
    ('{"command": "verify", "inputs": {"size": "small", "seed": 0}, "details": {}}',
     ("lacks",)),
    ('{"command": "verify", "inputs": {"size": "small", "seed": 0}, '
     '"details": {"claims": [{"id": "x"}]}}', ("without",)),
    ("\udcff", ("from",)),
])
def test_bad_from_file(invoke, tmp_path, content, words):
    path = tmp_path / "in.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    r = invoke("report", "--from", str(path), "--out", str(tmp_path / "o"))
    _one_line_exit_2(r, *words)
    assert not (tmp_path / "o").exists()


def test_bad_out_and_which(invoke, tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    store = str(tmp_path / "s.sqlite")
    for out, words in ((tmp_path / "file", ("is not a directory",)),
                       (tmp_path / "full", ("not a report",)),
                       (tmp_path / "no" / "such" / "dir", ("no parent directory",))):
        r = invoke("report", "twostep.lambda", "--store", store, "--out", str(out))
        _one_line_exit_2(r, "out", *words)
    assert (tmp_path / "full" / "keep.txt").read_text() == "mine"
    r = invoke("report", "nosuchpaper", "--store", store, "--out", str(tmp_path / "r"))
    _one_line_exit_2(r, "claim")
    r = invoke("report", "twostep", "--store", store, "--no-cache", "--out", str(tmp_path / "r"))
    _one_line_exit_2(r, "store")
    r = invoke("report", "--from", store, "--store", store, "--out", str(tmp_path / "r"))
    _one_line_exit_2(r, "from")
    for inside in ("r", "r/s.sqlite"):  # a store the report would replace (found by fuzz_cli)
        r = invoke("report", "twostep.lambda", "--store", str(tmp_path / inside), "--out",
                   str(tmp_path / "r"))
        _one_line_exit_2(r, "store", "report directory")
    assert sorted(os.listdir(tmp_path)) == ["file", "full"]  # nothing else written


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_unwritable_parent(invoke, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        r = invoke("report", "twostep.lambda", "--no-cache", "--out", str(locked / "r"))
        _one_line_exit_2(r, "out", "cannot be written")
    finally:
        locked.chmod(0o700)


def test_claim_texts_are_plain_unicode():
    """The page shows claim texts as typed (no MathJax): none holds TeX."""
    from fltheory.claims.registry import all_claims

    for claim in all_claims():
        for text in (claim.statement, claim.why, claim.source):
            assert "$" not in text and "\\" not in text, (claim.id, text)


def test_unusable_default_store_is_a_warning(invoke, monkeypatch, tmp_path):
    """The default store (no --store) that cannot be created costs no answer: one warning."""
    monkeypatch.setenv("FLTHEORY_CACHE", os.devnull + "/runs.sqlite")
    r = invoke("verify", "twostep.lambda")
    assert r.exit_code == 0 and "inconclusive" in r.stdout
    assert r.stderr.count("\n") == 1 and "runs are not kept" in r.stderr
    r = invoke("verify", "twostep.lambda", "--store", os.devnull + "/runs.sqlite")
    _one_line_exit_2(r, "store")


def test_from_an_older_verify_file(invoke, tmp_path):
    """A verify JSON without points or provenance (written before them): shown, with "no
    numbers recorded" and "date not recorded"; WHICH filters it; a --size that is not the
    file's is refused."""
    run = {"id": "p.one", "paper": "p", "statement": "s", "source": "", "size": "small",
           "seed": 3, "params": {"n": "10"}, "status": "pass", "predicted": "1",
           "measured": "1.01 ± 0.02", "tolerance": "|z| ≤ 3", "reason": "", "why": "w",
           "seconds": 0.5}
    data = {"command": "verify", "fltheory_version": "0.0.9",
            "inputs": {"which": "p", "size": "small", "seed": 3},
            "details": {"claims": [run, {**run, "id": "q.two", "paper": "q"}], "errors": []}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = invoke("report", "p", "--from", str(path), "--out", str(tmp_path / "o"), "--format",
               "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["details"]["claims"] == [
        {"id": "p.one", "status": "pass", "origin": "file"}]
    html = (tmp_path / "o" / "index.html").read_text(encoding="utf-8")
    assert "no numbers recorded for this claim" in html and "date not recorded" in html
    assert "fltheory 0.0.9" in html and "seed 3" in html and "q.two" not in html
    check_page(tmp_path / "o")
    r = invoke("report", "--from", str(path), "--size", "large", "--out", str(tmp_path / "x"))
    _one_line_exit_2(r, "size", "differs")
    r = invoke("report", "nope", "--from", str(path), "--out", str(tmp_path / "x"))
    _one_line_exit_2(r, "claim", "matches no claim")
    assert not (tmp_path / "x").exists()


def test_verify_through_the_sweep_path_stores_per_claim(invoke, tmp_path, monkeypatch):
    """--workers 2 runs the claims as sweep tasks (one per paper); each claim's run is kept
    under its own key too, so that a report of the claim reads it."""
    from fltheory.sweep.store import code_version

    store = tmp_path / "s.sqlite"
    r = invoke("verify", "twostep.lambda", "--workers", "2", "--store", str(store))
    assert r.exit_code == 0, r.stderr
    with Store(store) as s:
        rows = {(task, version): n for task, version, n, _ in s.summary()}
    assert rows == {(TASK, code_version()): 1, ("verify.claims", code_version()): 1}
    _fake_claims(monkeypatch)
    r = invoke("report", "twostep.lambda", "--store", str(store), "--out", str(tmp_path / "o"))
    assert r.exit_code == 0 and "1 from the store, 0 computed now" in unwrap(r.stdout), r.stderr


@pytest.mark.parametrize("command", ["verify", "report"])
def test_seed_beyond_the_store_is_refused(invoke, tmp_path, command):
    """Runs are stored with their seed as an SQLite INTEGER (64-bit): a larger seed is bad
    input (exit 2, one line), not an OverflowError."""
    r = invoke(command, "hermite", "--seed", str(2**63), *(["--out", str(tmp_path / "r")]
                                                           if command == "report" else []))
    assert r.exit_code == 2 and "seed" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()
