"""The report's HTML: one HTML5 page, every text escaped, every id a valid fragment target.

Claim texts are plain unicode (the registry writes no TeX: a ``$`` in a statement would be
shown as typed; ``tests/framework/test_report.py`` checks that no claim has one).
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from fltheory.report.figures import caption
from fltheory.report.inputs import STATUSES, ReportRuns

__all__ = ["CSS", "anchor", "anchors", "render_page"]

CSS = """\
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto;
       max-width: 62rem; padding: 1rem 1.5rem 4rem; line-height: 1.45; color: #1d1d1f; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.25rem; margin-top: 2.5rem; }
h3 { font-size: 1.05rem; margin: 2rem 0 .3rem; border-top: 1px solid #ddd; padding-top: 1rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #e4e4e4;
         vertical-align: top; }
dl.claim { display: grid; grid-template-columns: 9.5rem 1fr; gap: .2rem 1rem; margin: 0; }
dl.claim dt { font-weight: 600; color: #555; } dl.claim dd { margin: 0; }
.verdict { font-weight: 700; padding: 0 .35rem; border-radius: .25rem; white-space: nowrap; }
.pass { background: #d8f3dc; color: #1b5e20; } .fail { background: #fde2e1; color: #a4161a; }
.inconclusive { background: #fff3c4; color: #7a5b00; } .error { background: #e9e1f7;
  color: #4a148c; }
figure { margin: .8rem 0; } figure img { max-width: 100%; height: auto; }
figcaption, .muted { color: #555; font-size: .85rem; }
code { font-size: .85rem; } .counts span { margin-right: 1rem; }
details { margin: .4rem 0; font-size: .85rem; } summary { cursor: pointer; color: #333; }
table.numbers td { font-variant-numeric: tabular-nums; }
"""


def anchor(claim_id: str) -> str:
    """The HTML id of a claim's section: ``claim-`` then the id with every character outside
    ``[A-Za-z0-9_-]`` replaced by ``-`` (a valid id and URL fragment, no escaping needed).

    >>> anchor("rf_spectrum.eigenvalues.relu")
    'claim-rf_spectrum-eigenvalues-relu'
    """
    return "claim-" + re.sub(r"[^A-Za-z0-9_-]", "-", claim_id)


def anchors(ids: list[str]) -> dict[str, str]:
    """Claim id -> its section's id (:func:`anchor`, made unique by a ``-2``, ``-3``, … suffix
    should two ids differ only in the characters replaced).

    >>> anchors(["a.b", "a-b"])
    {'a.b': 'claim-a-b', 'a-b': 'claim-a-b-2'}
    """
    out: dict[str, str] = {}
    taken: set[str] = set()
    for claim_id in ids:
        base = name = anchor(claim_id)
        k = 1
        while name in taken:
            k += 1
            name = f"{base}-{k}"
        taken.add(name)
        out[claim_id] = name
    return out


def _verdict(status: str) -> str:
    return f'<span class="verdict {escape(status)}">{escape(status)}</span>'


def _claims(n: int) -> str:
    """``1 claim``, ``2 claims``."""
    return f"{n} claim{'' if n == 1 else 's'}"


def _summary(data: ReportRuns, figures: dict[str, str], ids: dict[str, str]) -> list[str]:
    counts = data.counts()
    spans = "".join(f"<span>{_verdict(s)} {counts[s]}</span>" for s in STATUSES
                    if counts[s] or s != "error")
    rows = "\n".join(
        f'<tr><td><a href="#{ids[r["id"]]}">{escape(r["id"])}</a></td>'
        f'<td>{_verdict(r["status"])}</td><td>{escape(str(r["predicted"]))}</td>'
        f'<td>{escape(str(r["measured"]))}</td>'
        f'<td>{"figure" if r["id"] in figures else "—"}</td></tr>' for r in data.runs)
    return [
        f'<p class="counts">{spans}</p>',
        f"<p>{_claims(len(data.runs))} of "
        f"{'all papers' if data.which == 'all' else '<code>' + escape(data.which) + '</code>'}"
        ", size "
        f"<code>{escape(data.size)}</code>, seed {data.seed}; runs from "
        f"{escape(data.origin)}.</p>",
        *[f'<p class="muted">{escape(n)}</p>' for n in data.notes],
        '<table id="claims"><thead><tr><th>claim</th><th>verdict</th><th>predicted</th>'
        "<th>measured</th><th>figure</th></tr></thead>",
        f"<tbody>\n{rows}\n</tbody></table>",
    ]


def _params(params: Any) -> str:
    if not isinstance(params, dict) or not params:
        return "—"
    return "; ".join(f"{escape(str(k))} = {escape(str(v))}" for k, v in params.items())


def _number(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.6g}"
    return escape(str(value))


def _at(p: dict[str, Any]) -> str:
    """The table's "at" cell: ``x_label = x``, empty when the point's label already says it.

    >>> _at({"label": "run at 1/N = 0.002", "x": 0.002, "x_label": "1/N"})
    ''
    >>> _at({"label": "N=250: SGD mean", "x": 250.0, "x_label": "N"})
    ''
    >>> _at({"label": "relu μ_2", "x": 2.0, "x_label": "k"})
    'k = 2'
    """
    if p.get("x") is None:
        return ""
    text = f"{p.get('x_label') or 'x'} = {_number(p.get('x'))}"
    if text.replace(" ", "") in str(p.get("label", "")).replace(" ", ""):
        return ""
    return escape(text)


def _numbers(points: list[dict[str, Any]]) -> str:
    """Every point of the claim as a table row (folded: ``<details>``, no script)."""
    if not points:
        return ""
    rows = "\n".join(
        f"<tr><td>{i}</td><td>{escape(str(p.get('series') or ''))}</td>"
        f"<td>{escape(str(p.get('label', '')))}</td>"
        f"<td>{_at(p)}</td>"
        f"<td>{_number(p.get('measured'))}</td><td>{_number(p.get('se'))}</td>"
        f"<td>{_number(p.get('predicted'))}</td><td>{_number(p.get('band'))}</td></tr>"
        for i, p in enumerate(points, 1))
    return (f"<details><summary>the {len(points)} numbers behind the verdict</summary>\n"
            '<table class="numbers"><thead><tr><th>#</th><th>series</th><th>point</th>'
            "<th>at</th><th>measured</th><th>se</th><th>predicted</th><th>± band</th></tr>"
            f"</thead>\n<tbody>\n{rows}\n</tbody></table></details>")


def _figure(run: dict[str, Any], figures: dict[str, str]) -> str:
    if run["id"] not in figures:
        why = ("the run failed" if run["status"] == "error" else
               "no numbers recorded for this claim" if not run.get("points") else
               "no point has a finite measured value")
        return f'<p class="muted">No figure: {why}.</p>'
    return (f'<figure><img src="{escape(figures[run["id"]])}" '
            f'alt="{escape("prediction against simulation for " + run["id"])}">'
            f"<figcaption>{escape(caption(run['points'], str(run['tolerance'])))}"
            "</figcaption></figure>")


def _claim(run: dict[str, Any], data: ReportRuns, figures: dict[str, str],
           ids: dict[str, str]) -> str:
    fields = [("statement", escape(str(run["statement"]))),
              ("source", escape(str(run.get("source") or "—"))),
              ("prediction", escape(str(run["predicted"]))),
              ("measurement", escape(str(run["measured"]))),
              ("tolerance", escape(str(run["tolerance"]))),
              ("why this rule", escape(str(run["why"]))),
              ("verdict", _verdict(run["status"]))]
    if run.get("reason"):
        label = {"error": "error", "inconclusive": "why inconclusive"}.get(run["status"],
                                                                           "note")
        fields.append((label, escape(str(run["reason"]))))
    version = run.get("version") or data.code_version or "not recorded"
    fields.append(("provenance",
                   f"fltheory {escape(data.fltheory_version or 'version not recorded')}, code "
                   f"<code>{escape(str(version))}</code>; seed {escape(str(run['seed']))}; "
                   f"size {escape(str(run['size']))}: {_params(run.get('params'))}; wall time "
                   f"{float(run['seconds']):.2f} s; run "
                   f"{escape(str(run.get('date') or 'date not recorded'))}"
                   f"{' (from the store)' if run['id'] in data.cached else ''}"))
    body = "\n".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in fields)
    return (f'<section id="{ids[run["id"]]}">\n<h3>{escape(run["id"])} '
            f'{_verdict(run["status"])}</h3>\n<dl class="claim">\n{body}\n</dl>\n'
            f"{_figure(run, figures)}\n{_numbers(list(run.get('points') or []))}\n"
            '<p class="muted"><a href="#claims">back to the table</a></p>\n</section>')


def render_page(data: ReportRuns, figures: dict[str, str], generated: str) -> str:
    """The whole ``index.html`` (``figures``: claim id -> relative path of its figure)."""
    ids = anchors([r["id"] for r in data.runs])
    title = f"fltheory verification report: {data.which} ({data.size} size, seed {data.seed})"
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        '<link rel="stylesheet" href="assets/report.css">',
        "</head>",
        "<body>",
        '<header id="top">',
        f"<h1>{escape(title)}</h1>",
        f'<p class="muted">Written {escape(generated)} by fltheory report. Each claim pairs a '
        "prediction with a simulation of the same model; its verdict is pass or fail against "
        "the claim's stated tolerance, or inconclusive with the reason.</p>",
        "</header>",
        "<main>",
        '<h2 id="summary">Summary</h2>',
        *_summary(data, figures, ids),
        '<h2 id="details">Claims</h2>',
        *[_claim(run, data, figures, ids) for run in data.runs],
        "</main>",
        "</body>",
        "</html>",
        "",
    ])
