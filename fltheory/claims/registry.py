"""The claim registry.

A *claim* is one quantitative statement of a paper: a **prediction** (a function of the model's
parameters returning an exact or high-precision value), a **simulation** (a function of the same
parameters and a seed returning what was measured) and a **comparison** (a rule and tolerance,
justified in ``why``). Claims are data: ``fltheory verify``, the test suite, tables and figures
loop over this registry.

A claim whose simulation cannot confirm it at honest sizes returns ``inconclusive`` with the
reason; a claim whose simulation does not exist yet says so. No tolerance here is tuned to pass.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from fltheory.exact import DomainError

__all__ = ["Claim", "ClaimRun", "Point", "Verdict", "all_claims", "claim_modules", "clear_caches",
           "run_claim", "select"]

Status = Literal["pass", "fail", "inconclusive"]


def claim_modules() -> dict[str, str]:
    """Paper key -> module holding its claims (``CLAIMS`` list), as the papers declare them
    (:mod:`fltheory.papers`); the modules are imported only when claims are used."""
    from fltheory.papers import papers

    return {p.key: p.claims for p in papers() if p.claims is not None}

SIZES = ("small", "large")


@dataclass(frozen=True)
class Point:
    """One number a claim compares, for the figure of the verification report.

    ``measured`` is what the simulation gave, ``se`` its standard error (``None`` when the
    comparison is exact or not statistical), ``predicted`` the theory's value (``None`` when the
    prediction is qualitative: a sign, an ordering), ``band`` the half-width of the acceptance
    interval around ``predicted`` on the same scale (``None`` when the rule is not an interval).
    ``x`` places the point on an axis named by ``x_label`` (a size, a time, a degree); points
    without ``x`` are drawn side by side, one per ``label``. ``series`` groups points drawn
    as one curve (e.g. one activation). ``quantity`` names what ``measured`` is (the figure's
    y-axis label, e.g. "log-log slope of the residual in m"); points of different quantities
    are drawn in different panels (``""``: not stated, the report guesses a label).
    """

    label: str
    measured: float
    predicted: float | None = None
    se: float | None = None
    band: float | None = None
    x: float | None = None
    x_label: str = ""
    series: str = ""
    quantity: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"label": self.label, "measured": self.measured, "predicted": self.predicted,
                "se": self.se, "band": self.band, "x": self.x, "x_label": self.x_label,
                "series": self.series, "quantity": self.quantity}


@dataclass(frozen=True)
class Verdict:
    """The outcome of comparing a prediction with a measurement.

    ``points`` are the numbers behind the verdict, for the report's figure (:class:`Point`)."""

    status: Status
    predicted: str
    measured: str
    tolerance: str
    reason: str = ""
    points: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Claim:
    """One claim of one paper.

    ``sizes`` maps ``"small"`` (CI) and ``"large"`` to the parameters handed to both
    ``predict(params)`` and ``simulate(params, seed)``; ``compare(prediction, measurement)``
    returns the :class:`Verdict`. ``simulate`` may be ``None`` only with ``pending`` saying why.
    """

    id: str
    statement: str
    predict: Callable[[Mapping[str, Any]], Any]
    simulate: Callable[[Mapping[str, Any], int], Any] | None
    compare: Callable[[Any, Any], Verdict]
    why: str
    sizes: Mapping[str, Mapping[str, Any]]
    source: str = ""
    pending: str = ""
    describe: Callable[[Any], str] = field(default=str)

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]


@dataclass(frozen=True)
class ClaimRun:
    claim: Claim
    size: str
    seed: int
    verdict: Verdict
    seconds: float
    #: what the simulation returned (None for a claim without one); kept out of the JSON
    measurement: Any = field(default=None, repr=False, compare=False)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.claim.id,
            "paper": self.claim.paper,
            "statement": self.claim.statement,
            "source": self.claim.source,
            "size": self.size,
            "seed": self.seed,
            "params": {k: str(v) for k, v in self.claim.sizes[self.size].items()},
            "status": self.verdict.status,
            "predicted": self.verdict.predicted,
            "measured": self.verdict.measured,
            "tolerance": self.verdict.tolerance,
            "reason": self.verdict.reason,
            "why": self.claim.why,
            "seconds": round(self.seconds, 3),
            "points": [p.as_json() for p in self.verdict.points],
        }


def all_claims() -> list[Claim]:
    """Every registered claim, in paper order (imports the claim modules, hence numpy/sympy)."""
    claims: list[Claim] = []
    for key, module in claim_modules().items():
        found = importlib.import_module(module).CLAIMS
        strangers = [c.id for c in found if c.paper != key]
        if strangers:
            raise RuntimeError(f"claims {strangers} of paper {key} do not start with {key}.")
        claims.extend(found)
    ids = [c.id for c in claims]
    if len(set(ids)) != len(ids):
        raise RuntimeError(f"duplicate claim ids in {ids}")
    return claims


def clear_caches() -> None:
    """Drop every claim module's cached simulations (modules that cache define clear_cache)."""
    for module in claim_modules().values():
        clear = getattr(importlib.import_module(module), "clear_cache", None)
        if clear is not None:
            clear()


def select(which: str | None) -> list[Claim]:
    """Claims matching ``which``: ``None`` (all), a paper key, or a claim id (prefix match on
    ``paper.quantity``)."""
    claims = all_claims()
    allowed = ("a paper (" + ", ".join(claim_modules()) + ") or a claim id (see fltheory verify "
               "--list)")
    if which is None:
        return claims
    if not which.strip():
        raise DomainError("claim", "''", allowed, reason="is empty (omit it to run every claim)")
    chosen = [c for c in claims if c.paper == which or c.id == which
              or c.id.startswith(which + ".")]
    if not chosen:
        raise DomainError("claim", which, allowed, reason="matches no claim")
    return chosen


def run_claim(claim: Claim, size: str = "small", seed: int = 0) -> ClaimRun:
    """Predict, simulate and compare one claim at the given size."""
    if size not in claim.sizes:
        raise DomainError("size", size, " or ".join(claim.sizes))
    params = claim.sizes[size]
    start = time.perf_counter()
    prediction = claim.predict(params)
    measurement = None
    if claim.simulate is None:
        verdict = Verdict("inconclusive", claim.describe(prediction), "-", "-",
                          reason=claim.pending or "no simulation yet")
    else:
        measurement = claim.simulate(params, seed)
        verdict = claim.compare(prediction, measurement)
    return ClaimRun(claim, size, seed, verdict, time.perf_counter() - start, measurement)
