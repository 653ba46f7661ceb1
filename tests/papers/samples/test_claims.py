"""The claims of the sample-complexity paper: their verdict rules on synthetic measurements (no
simulation), and the sizes and runs they read (fltheory.papers.samples.params and runs)."""

from __future__ import annotations

import numpy as np
import pytest

from fltheory.exact import DomainError
from fltheory.papers.samples import params, runs


@pytest.mark.parametrize(("reuse_power", "noise", "status"), [
    (0.0, 0.05, "pass"), (-0.5, 0.05, "fail"), (0.0, 3.0, "inconclusive")])
def test_reuse_verdict_is_three_way(reuse_power, noise, status):
    """samples.reuse_vs_online's rule on synthetic overlaps (no simulation): reuse ∝ d^power,
    online ∝ d^{−1/2}, each replica's value times a log-normal factor of spread ``noise``. A flat
    reuse curve passes, a reuse curve at the random level fails, and a noise that leaves the
    slope's interval across the boundary −1/4 is inconclusive, with the reason."""
    from fltheory.papers.samples.claims import _compare_reuse

    rng = np.random.default_rng(11)
    ds = (64, 128, 256, 512)
    R = 24

    def rows(power, scale):
        return [scale * d ** power * np.exp(noise * rng.standard_normal(R)) for d in ds]

    meas = {"d": ds, "ratio": 8.0, "reuse": rows(reuse_power, 0.4 * 8 ** 0.5 if reuse_power
                                                 else 0.4),
            "online": rows(-0.5, 0.8), "fresh": []}
    pred = {"k": 3, "k_gen": 1, "reuse": "d", "online": "d^2", "separated": True}
    v = _compare_reuse(pred, meas)
    assert v.status == status, v
    assert (v.reason != "") == (status != "pass")


def test_claims_and_figure_read_the_same_sizes():
    """The sizes are written once (params): the claims carry them as they are, and every one of
    them is a valid parameter object."""
    from fltheory.papers.samples.claims import CLAIMS

    by_id = {c.id: c for c in CLAIMS}
    for k in (1, 2, 3):
        assert by_id[f"samples.online_sgd_k{k}"].sizes == params.SLOPE_SIZES[k]
        for size in ("small", "large"):
            params.SlopeSizes(**params.SLOPE_SIZES[k][size])
    assert by_id["samples.staircase_vs_leap3"].sizes == params.STAGE_SIZES
    assert by_id["samples.reuse_vs_online"].sizes == params.REUSE_SIZES
    for size in ("small", "large"):
        params.StageSizes(**params.STAGE_SIZES[size])
        params.ReuseSizes(**params.REUSE_SIZES[size])
    for bad, param in (({"k": 5}, "k"), ({"d": (2, 64)}, "d"), ({"c": (0.0,)}, "c"),
                       ({"replicas": 0}, "replicas"), ({"cap": -1}, "cap")):
        with pytest.raises(DomainError) as info:
            params.SlopeSizes(**(params.SLOPE_SIZES[1]["small"] | bad))
        assert info.value.param == param


def test_medians_of_the_slope_runs():
    """runs.medians: log d, the log median first-passage count at the best step and a finite
    bootstrap error, on a small run."""
    sizes = params.SlopeSizes(1, (32, 64), (1.0, 2.0), 16, 100)
    meas = runs.slope_runs(sizes, 3)
    x, y, se = runs.medians(meas)
    assert list(x) == pytest.approx([np.log(32), np.log(64)])
    for d, value in zip((32, 64), y, strict=True):
        assert value == pytest.approx(np.log(meas["best"][d]["median"]))
    assert np.all(np.isfinite(se)) and np.all(se > 0)
