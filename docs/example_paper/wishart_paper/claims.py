"""The claim records: one statement, its prediction (the theory), its simulation (the simulator)
and the rule that compares them, with the reason for the tolerance."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fltheory.claims.registry import Claim, Verdict
from wishart_paper.params import Sample, Wishart
from wishart_paper.sim import top_eigenvalue
from wishart_paper.theory import edge

_SIZES = {"small": {"gamma": "1/2", "n": 400}, "large": {"gamma": "1/2", "n": 2000}}


def _predict(p: Mapping[str, Any]) -> tuple[float, float]:
    """The edge, and the scale n^(−2/3) of the top eigenvalue's fluctuations."""
    return float(edge(Wishart(p["gamma"]))), float(p["n"]) ** (-2.0 / 3.0)


def _simulate(p: Mapping[str, Any], seed: int) -> float:
    return top_eigenvalue(Wishart(p["gamma"]), Sample(p["n"], seed))


def _compare(prediction: tuple[float, float], measured: float) -> Verdict:
    # Tracy–Widom: the top eigenvalue fluctuates on the scale n^(−2/3) (times a prefactor of
    # order (1 + √γ)^(4/3) <= 2.6) around the edge; ten scales hold the TW tails (P < 1e-6) and
    # the O(n^(−2/3)) mean shift, and leave out an edge wrong by O(1)
    edge_, scale = prediction
    band = 10 * scale
    ok = abs(measured - edge_) <= band
    return Verdict("pass" if ok else "fail", f"{edge_:.6f}", f"{measured:.6f}",
                   f"±{band:.3g} (10 n^(-2/3))")


CLAIMS = [Claim(
    id="wishart.edge",
    statement="the largest eigenvalue of XᵀX/n (X n × γn Gaussian, one draw) is within "
              "10 n^(−2/3) of (1 + √γ)², at γ = 1/2, n = 400 (small) and n = 2000 (large)",
    predict=_predict,
    simulate=_simulate,
    compare=_compare,
    why="Tracy–Widom fluctuations are O(n^(-2/3)); the band is ten such scales",
    sizes=_SIZES,
    source="Marchenko & Pastur 1967; Geman 1980; Johnstone 2001",
)]
