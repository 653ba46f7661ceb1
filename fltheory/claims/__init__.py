"""Claims: the only place that sees both a prediction (:mod:`fltheory.theory`) and the
simulation that checks it (:mod:`fltheory.sim`). See :mod:`fltheory.claims.registry`."""

from fltheory.claims.registry import Claim, ClaimRun, Verdict, all_claims, run_claim, select

__all__ = ["Claim", "ClaimRun", "Verdict", "all_claims", "run_claim", "select"]
