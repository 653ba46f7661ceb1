"""The runs a report shows: from the results store (computing what is missing) or from a saved
``fltheory verify --format json`` output.

A run is the dict of :meth:`~fltheory.claims.registry.ClaimRun.as_json`, with ``date`` (UTC,
when it was computed or stored) and ``version`` (the code version it ran under) when known; a
claim whose run raised is a run with ``status`` ``"error"`` and the error as its ``reason``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fltheory.exact import DomainError

if TYPE_CHECKING:
    from fltheory.claims.registry import Claim
    from fltheory.sweep.claims import Progress
    from fltheory.sweep.store import Store

__all__ = ["STATUSES", "ReportRuns", "error_run", "runs_from_file", "runs_from_store"]

#: verdicts a report shows, in the order of its summary
STATUSES = ("pass", "fail", "inconclusive", "error")

#: keys every run of a verify JSON file must have (``points`` may be missing: older files)
_REQUIRED = ("id", "paper", "statement", "size", "seed", "params", "status", "predicted",
             "measured", "tolerance", "reason", "why", "seconds")

#: a verify JSON file larger than this is refused before it is read (the full small-size
#: output of every claim is about 100 kB)
MAX_FROM_BYTES = 50_000_000


@dataclass
class ReportRuns:
    """What a report shows: the runs in order, where they came from, and the size and seed."""

    which: str
    size: str
    seed: int
    runs: list[dict[str, Any]]
    origin: str  # "store PATH", "computed (--no-cache)" or "file PATH"
    cached: list[str] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)
    fltheory_version: str = ""
    code_version: str = ""
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {s: sum(r["status"] == s for r in self.runs) for s in STATUSES}


def error_run(claim: Claim, size: str, seed: int, error: str) -> dict[str, Any]:
    """The run shown for a claim whose run raised ``error``."""
    return {"id": claim.id, "paper": claim.paper, "statement": claim.statement,
            "source": claim.source, "size": size, "seed": seed,
            "params": {k: str(v) for k, v in claim.sizes.get(size, {}).items()},
            "status": "error", "predicted": "-", "measured": "-", "tolerance": "-",
            "reason": error, "why": claim.why, "seconds": 0.0, "points": []}


def runs_from_store(claims: Sequence[Claim], which: str, size: str, seed: int, *,
                    store: Store | None, progress: Progress | None = None) -> ReportRuns:
    """The runs of ``claims``: read from ``store``, the missing ones computed here (one after
    the other) and saved there; a claim that raises is shown as an error, the others go on.
    ``store=None`` computes every claim and saves nothing."""
    from fltheory import __version__
    from fltheory.sweep.claims import run_claims
    from fltheory.sweep.store import code_version

    for claim in claims:
        if size not in claim.sizes:
            raise DomainError("size", size, " or ".join(claim.sizes),
                              reason=f"is not a size of {claim.id}")
    done = run_claims(claims, size, seed, store=store, catch=True, progress=progress)
    runs = [done.runs[c.id] if c.id in done.runs else error_run(c, size, seed, done.errors[c.id])
            for c in claims]
    origin = f"store {store.path}" if store is not None else "computed (--no-cache)"
    return ReportRuns(which, size, seed, runs, origin, list(done.cached), list(done.computed),
                      __version__, code_version())


def _bad(path: Path | str, reason: str) -> DomainError:
    return DomainError("from", str(path), "a file written by fltheory verify --format json",
                       reason=reason)


def _read_json(path: Path) -> Any:
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise _bad(path, "is not a regular file")
        if size > MAX_FROM_BYTES:
            raise _bad(path, f"is {size} bytes (at most {MAX_FROM_BYTES})")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _bad(path, "does not exist") from None
    except UnicodeDecodeError:
        raise _bad(path, "is not UTF-8 text") from None
    except OSError as exc:
        raise _bad(path, f"cannot be read ({exc.strerror})") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise _bad(path, f"is not JSON ({str(exc)[:80]})") from None


def _check_run(path: Path, i: int, run: Any) -> dict[str, Any]:
    if not isinstance(run, dict):
        raise _bad(path, f"has a claim entry {i} that is not an object")
    missing = [k for k in _REQUIRED if k not in run]
    if missing:
        raise _bad(path, f"has a claim entry {i} without {', '.join(missing)}")
    if run["status"] not in ("pass", "fail", "inconclusive"):
        raise _bad(path, f"has a claim entry {i} with status {str(run['status'])[:20]!r}")
    points = run.get("points", [])
    if not isinstance(points, list) or not all(isinstance(p, dict) and "label" in p and
                                               "measured" in p for p in points):
        raise _bad(path, f"has a claim entry {i} whose points are not a list of points")
    # files written before points had a ``quantity`` still load (the report guesses a label)
    return {**run, "points": [{**p, "quantity": str(p.get("quantity") or "")} for p in points]}


def runs_from_file(path: Path, which: str | None) -> ReportRuns:
    """The runs of a saved ``fltheory verify --format json`` output (restricted to ``which``:
    a paper key or a claim id, as ``verify`` selects); a file that is not such an output is a
    :class:`DomainError` naming ``from``."""
    data = _read_json(path)
    if not isinstance(data, dict) or data.get("command") != "verify":
        raise _bad(path, "is not the JSON output of fltheory verify")
    details, inputs = data.get("details"), data.get("inputs")
    if (not isinstance(details, dict) or not isinstance(details.get("claims"), list)
            or not isinstance(inputs, dict) or inputs.get("size") not in ("small", "large")
            or not isinstance(inputs.get("seed"), int)):
        raise _bad(path, "lacks the verify output's inputs (size, seed) or details.claims")
    runs = [_check_run(path, i, run) for i, run in enumerate(details["claims"])]
    if which is not None:
        runs = [r for r in runs if r["paper"] == which or r["id"] == which
                or str(r["id"]).startswith(which + ".")]
        if not runs:
            raise DomainError("claim", which, "a paper or claim id present in " + str(path),
                              reason="matches no claim of the file")
    found = details.get("provenance")
    provenance: dict[str, Any] = found if isinstance(found, dict) else {}
    dates = provenance.get("runs", {}) if isinstance(provenance.get("runs"), dict) else {}
    for run in runs:
        stamp = dates.get(run["id"], {})
        if isinstance(stamp, dict):
            run.setdefault("date", stamp.get("date", ""))
            run.setdefault("version", stamp.get("version", ""))
    notes = [f"ERROR {e}" for e in details.get("errors", []) if isinstance(e, str)]
    return ReportRuns(which or str(inputs.get("which", "all")), inputs["size"], inputs["seed"],
                      runs, f"file {path}", fltheory_version=str(data.get("fltheory_version",
                                                                          "")),
                      code_version=str(provenance.get("code_version", "")), notes=notes)
