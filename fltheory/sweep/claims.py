"""Claim runs in the results store: what ``fltheory verify`` saves and ``fltheory report`` reads.

One row per (claim, size, seed, code version), task :data:`TASK`, parameters
``{"claim": id, "size": size}``; the row's result is the run as
:meth:`~fltheory.claims.registry.ClaimRun.as_json` gives it. The code version is
:func:`~fltheory.sweep.store.code_version` (fltheory's version and source fingerprint), extended
for a claim of a paper installed from another distribution by the fingerprint of that paper's
package (:func:`claim_version`): a changed simulator or claim never answers from a stale row.

:func:`run_claims` is the one loop of both commands: the stored runs first, then the missing
claims — in this process one after the other, or through the sweep machinery (worker
processes, one task per paper, so that claims sharing a paper's cached simulations compute them
once) — each saved as it completes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fltheory.sweep.store import Store, code_version

if TYPE_CHECKING:
    from fltheory.claims.registry import Claim

__all__ = ["TASK", "ClaimRuns", "claim_version", "run_claims", "stored_runs"]

#: the store's task name of one claim's run
TASK = "verify.claim"


@cache
def _package_fingerprint(module: str) -> str:
    """sha256 (12 hex digits) of the .py files of the top-level package holding ``module``
    ("" for fltheory itself, which :func:`code_version` covers)."""
    top = module.split(".")[0]
    if top == "fltheory":
        return ""
    spec = importlib.util.find_spec(top)
    if spec is None or spec.origin is None:
        return ""
    origin = Path(spec.origin)
    root = origin.parent if origin.name == "__init__.py" else origin
    files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(root.parent)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def claim_version(claim: Claim) -> str:
    """The code version a stored run of ``claim`` must carry: :func:`code_version`, plus the
    fingerprint of the claim's own package when it is not part of fltheory (a plugin paper).

    >>> from fltheory.claims.registry import select
    >>> claim_version(select("twostep.lambda")[0]) == code_version()
    True
    """
    from fltheory.claims.registry import claim_modules

    module = claim_modules().get(claim.paper, "fltheory")
    extra = _package_fingerprint(module)
    return code_version() + (f"+{extra}" if extra else "")


def _key(claim_id: str, size: str) -> dict[str, str]:
    return {"claim": claim_id, "size": size}


@dataclass
class ClaimRuns:
    """The runs of a selection of claims, in the selection's order.

    ``runs``: claim id -> run (``ClaimRun.as_json()`` plus ``"date"``, the UTC time it was
    stored or computed, and ``"version"``, its code version); ``errors``: claim id -> why its
    run failed; ``cached`` / ``computed``: the ids read from the store / run now."""

    order: list[str]
    runs: dict[str, dict[str, Any]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    cached: list[str] = field(default_factory=list)
    computed: list[str] = field(default_factory=list)
    #: the sweep's errors, one line per failed paper group (what verify prints)
    group_errors: list[str] = field(default_factory=list)

    def in_order(self) -> list[dict[str, Any]]:
        return [self.runs[i] for i in self.order if i in self.runs]


def _utc(stamp: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(stamp))


def stored_runs(store: Store, claims: Sequence[Claim], size: str,
                seed: int) -> dict[str, dict[str, Any]]:
    """The runs of ``claims`` at (size, seed) found in ``store`` under their current code
    version (claim id -> run with ``date`` and ``version``)."""
    out = {}
    for claim in claims:
        version = claim_version(claim)
        rows = store.rows(TASK, _key(claim.id, size), [seed], version)
        if seed in rows:
            result, _seconds, created = rows[seed]
            out[claim.id] = {**result, "date": _utc(created), "version": version}
    return out


def _plain(value: Any) -> Any:
    """A number type JSON does not know (numpy's int64, float32, …) as a Python number."""
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, int | float):
        return float(value)
    return str(value)


def _save(store: Store | None, claim: Claim, run: dict[str, Any], size: str,
          seed: int) -> dict[str, Any]:
    """Keep ``run`` in the store; the run as stored (JSON types only, as a later read gives
    it), with its date and version."""
    import json

    run = json.loads(json.dumps(run, default=_plain))
    version = claim_version(claim)
    if store is not None:
        store.put(TASK, _key(claim.id, size), seed, version, run, float(run["seconds"]))
    return {**run, "date": _utc(time.time()), "version": version}


Progress = Callable[[int, int, str, str], None]


def run_claims(claims: Sequence[Claim], size: str, seed: int, *, store: Store | None,
               workers: int = 1, catch: bool = False,
               progress: Progress | None = None) -> ClaimRuns:
    """Every claim's run at (size, seed): from ``store`` when it holds it, else computed and
    saved there (``store=None``: always computed, nothing saved).

    ``workers > 1`` or ``size == "large"`` runs the missing claims through the sweep machinery
    (its errors are recorded per claim); otherwise they run here, one after the other, and an
    exception of a claim propagates unless ``catch`` (then it is recorded as that claim's
    error and the others go on). ``progress(done, total, claim_id, state)`` is told of each
    claim (state ``cached``, ``running``, ``N s`` or ``failed``)."""
    out = ClaimRuns([c.id for c in claims])
    if store is not None:
        out.runs.update(stored_runs(store, claims, size, seed))
        out.cached = [c.id for c in claims if c.id in out.runs]
    missing = [c for c in claims if c.id not in out.runs]
    total, done = len(claims), len(out.cached)
    if progress is not None:
        for i, claim_id in enumerate(out.cached, 1):
            progress(i, total, claim_id, "cached")
    if missing and (size == "large" or workers > 1):
        _through_sweeps(missing, size, seed, workers, store, out, progress, done)
    else:
        _in_process(missing, size, seed, store, out, catch, progress, done)
    return out


def _in_process(missing: Sequence[Claim], size: str, seed: int, store: Store | None,
                out: ClaimRuns, catch: bool, progress: Progress | None, done: int) -> None:
    from fltheory.claims.registry import run_claim

    for claim in missing:
        done += 1
        if progress is not None:
            progress(done, len(out.order), claim.id, "running")
        try:
            run = run_claim(claim, size, seed).as_json()
        except Exception as exc:
            if not catch:
                raise
            out.errors[claim.id] = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
            continue
        out.runs[claim.id] = _save(store, claim, run, size, seed)
        out.computed.append(claim.id)


def _through_sweeps(missing: Sequence[Claim], size: str, seed: int, workers: int,
                    store: Store | None, out: ClaimRuns, progress: Progress | None,
                    done: int) -> None:
    """The missing claims as tasks of the sweep machinery, one task per paper; the sweep also
    keeps each paper's runs under its own task (an interrupted large run resumes)."""
    import click

    from fltheory.sweep.runner import Run, sweep

    by_id = {c.id: c for c in missing}
    papers: dict[str, list[str]] = {}
    for claim in missing:
        papers.setdefault(claim.paper, []).append(claim.id)
    points = [{"claims": ",".join(group), "size": size} for group in papers.values()]

    finished = [done]  # claims done so far (a sweep run is a paper's group of claims)

    def tell(k: int, n: int, run: Run) -> None:
        finished[0] += len(run.params["claims"].split(","))
        if progress is not None:
            state = "failed" if run.error else "cached" if run.cached else f"{run.seconds:.0f} s"
            progress(finished[0], len(out.order), run.params["claims"], state)

    outcome = sweep("verify.claims", points, [seed], workers=workers, store=store, progress=tell)
    if outcome.interrupted:
        raise click.exceptions.Abort()
    for run in outcome.runs:
        if run.result is None:
            out.group_errors.append(f"{run.params['claims']}: {run.error}")
            for claim_id in run.params["claims"].split(","):
                out.errors[claim_id] = str(run.error)
            continue
        for claim_run in run.result["runs"]:
            claim = by_id[claim_run["id"]]
            out.runs[claim.id] = _save(store, claim, claim_run, size, seed)
            (out.cached if run.cached else out.computed).append(claim.id)
