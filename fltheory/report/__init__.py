"""The verification report: every claim's verdict as a static, self-contained HTML page.

``fltheory report`` (:mod:`fltheory.cli.report`) gathers the runs of the selected claims — from
the results store (what ``fltheory verify`` saved), computing and storing the missing ones, or
from a saved ``fltheory verify --format json`` output — and writes a directory:

* ``index.html``: the summary (counts, size, seed), a table of the claims linking to one
  section per claim (statement, source, prediction, measurement, tolerance and why, reason,
  verdict, figure, provenance);
* ``figures/<claim>.svg``: prediction against simulation, drawn from the claim's
  :class:`~fltheory.claims.registry.Point` values (matplotlib, Agg);
* ``assets/report.css``: the one style sheet; nothing is fetched from the network;
* ``.fltheory-report``: the marker that lets a later report replace this directory.

Modules: :mod:`.inputs` (the runs: store, computation, or a verify JSON file),
:mod:`.figures` (the drawings), :mod:`.page` (the HTML), :mod:`.build` (the directory, written
to a temporary sibling and renamed at the end, so that an error leaves nothing behind).
"""

from __future__ import annotations

from fltheory.report.build import (
    MARKER,
    ReportOutcome,
    check_out_dir,
    report_result,
    write_report,
)
from fltheory.report.inputs import ReportRuns, runs_from_file, runs_from_store

__all__ = ["MARKER", "ReportOutcome", "ReportRuns", "check_out_dir", "report_result",
           "runs_from_file",
           "runs_from_store", "write_report"]
