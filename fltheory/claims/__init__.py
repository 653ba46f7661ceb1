"""Claims: the registry and the statistics shared by every paper's claims. A paper's own claims
(``fltheory.papers.<key>.claims``) are the only place that sees both a prediction (the paper's
theory) and the simulation that checks it (its ``sim``). See :mod:`fltheory.claims.registry`."""

from fltheory.claims.registry import Claim, ClaimRun, Verdict, all_claims, run_claim, select

__all__ = ["Claim", "ClaimRun", "Verdict", "all_claims", "run_claim", "select"]
