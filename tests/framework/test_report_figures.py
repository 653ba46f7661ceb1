"""The plotting rules of the report's figures (fltheory/report/figures.py) on synthetic points:
references (a prediction without a band) drawn grey dashed and named "not tested", one
quantity per panel with its y label, log scales where values span decades or the grid is
geometric, discrete x as markers with integer ticks, a compact legend for many "A, B" series,
and verify files written before points had a ``quantity``.

Each test builds the matplotlib figure (:func:`build_figure`) and reads its axes, lines and
legends: what a reader sees, not the SVG's text.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from fltheory.claims.registry import Point

pytest.importorskip("matplotlib")

from fltheory.report import figures as F
from fltheory.report.inputs import runs_from_file


def _pts(*points: Point) -> list[dict[str, Any]]:
    return [p.as_json() for p in points]


def _build(points: list[dict[str, Any]]) -> Any:
    fig = F.build_figure(points, "synthetic")
    assert fig is not None
    return fig


def _close(fig: Any) -> None:
    from fltheory.render.plots import pyplot

    pyplot().close(fig)


def _legend_texts(ax: Any) -> list[str]:
    legend = ax.get_legend()
    return [] if legend is None else [t.get_text() for t in legend.get_texts()]


def _dashed_grey(ax: Any) -> list[Any]:
    from matplotlib.colors import to_rgba

    return [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"
            and to_rgba(ln.get_color()) == to_rgba(F.REF_COLOUR)]


def test_reference_is_grey_dashed_and_named_not_tested():
    # committee.plateau's shape: one tested mean, two references of the same quantity
    fig = _build(_pts(Point("tested", 0.035, 0.0349, 0.0002, 0.0008, quantity="ε_g"),
                      Point("against ε*(η)", 0.035, 0.0346, 0.0002, quantity="ε_g"),
                      Point("against ε*(0)", 0.035, 0.0116, 0.0002, quantity="ε_g")))
    try:
        (ax,) = fig.axes
        assert len(_dashed_grey(ax)) == 2  # the two references, nothing else
        solid = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-"
                 and len(ln.get_xdata()) == 2 and ln not in _dashed_grey(ax)]
        assert any(abs(ln.get_ydata()[0] - 0.0349) < 1e-12 for ln in solid)
        assert "reference (not tested)" in _legend_texts(ax)
        assert "prediction (tested)" in _legend_texts(ax)
        assert ax.get_ylabel() == "ε_g"
    finally:
        _close(fig)
    assert "grey dashed: reference values that are reported, not tested" in F.caption(
        _pts(Point("a", 1.0, 2.0)), "sign")
    # per-run data of a fit are not "judged by a qualitative rule"; a sign test is
    runs = _pts(Point("run", 0.2, x=0.002, x_label="1/N"),
                Point("fit", 0.18, 0.17, 0.01, 0.04, 0.0, "1/N"))
    assert "not judged alone" in F.caption(runs, "|z| <= 3")
    assert "qualitative rule" not in F.caption(runs, "|z| <= 3")
    assert "qualitative rule: z >= 3" in F.caption(_pts(Point("ln ratio", 0.8, se=0.05)),
                                                   "z >= 3")
    # twostep.terms_present_for_sigma: z statistics on the k axis, judged one by one
    zs = _pts(Point("tanh k=1", 0.9, x=1.0, x_label="k"), Point("tanh k=2", 17.0, x=2.0,
                                                               x_label="k"))
    assert "not judged alone" not in F.caption(zs, "present iff z > 3.76")
    assert "qualitative rule: present iff z > 3.76" in F.caption(zs, "present iff z > 3.76")


def test_reference_equal_to_the_tested_prediction_is_drawn_once():
    # recovery.mse's shape: per-D means carry the same prediction, untested; the fit tests it
    pts = []
    for delta, pred in ((2.5, 0.92), (5.0, 0.73), (10.0, 0.50)):
        pts.append(Point("fit", pred, pred, 0.02, 0.08, delta, "δ", "D → ∞ fit", "test MSE"))
        pts += [Point(f"D={d}", pred - 0.01, pred, 0.01, None, delta, "δ", f"D = {d}",
                      "test MSE") for d in (136, 231)]
    fig = _build(_pts(*pts))
    try:
        (ax,) = fig.axes
        assert _dashed_grey(ax) == [] and "reference (not tested)" not in _legend_texts(ax)
    finally:
        _close(fig)


def test_one_quantity_per_panel_with_its_label():
    # recovery.sequential's shape: crossings and log-ratios on one "direction" axis
    pts = [Point("crossing", v, x=float(i), x_label="direction", series="per run",
                 quantity="crossing δ_i") for i, v in ((1, 3.5), (2, 8.0), (3, 16.0))]
    pts += [Point("ratio", 0.8, se=0.05, x=1.5, x_label="direction", series="log-ratio",
                  quantity="ln(δ_(i+1)/δ_i)"),
            Point("slope", -0.45, -0.5, 0.1, 0.35, series="slope", quantity="log-log slope"),
            Point("no quantity", 2.0, series="convergence check")]
    fig = _build(_pts(*pts))
    try:
        assert [ax.get_ylabel() for ax in fig.axes] == [
            "crossing δ_i", "ln(δ_(i+1)/δ_i)", "log-log slope", "convergence check"]
    finally:
        _close(fig)
    panels = F.panels(_pts(*pts))
    assert [len({p.get("quantity") for _, p in panel.points}) for panel in panels] == [1] * 4


def test_log_scales():
    # rf_spectrum eigenvalues: 0.16, 1e-3 and 2e-4 on the 1/m axis (with the m → ∞ point at 0)
    pts = []
    for name, value in (("λ1", 0.156), ("λ3", 1.04e-3), ("λ11", 2.1e-4)):
        pts += [Point(name, value, x=x, x_label="1/m", series=name + " per draw")
                for x in (0.002, 0.001, 0.0005)]
        pts.append(Point(name, value, value, 0.1 * value, 0.26 * value, 0.0, "1/m", name))
    fig = _build(_pts(*pts))
    try:
        (ax,) = fig.axes
        assert ax.get_yscale() == "log" and ax.get_xscale() == "linear"  # 1/m holds 0
        # the smallest band is visible: its shaded patch spans a sizeable part of the axis
        low, high = ax.get_ylim()
        assert high / low < 1e4
    finally:
        _close(fig)
    # a power law in N (the claim tests a log-log slope): log-log even over a small span
    pts = [Point(f"run at N = {n}", 0.1 * (250 / n) ** 0.5, x=float(n), x_label="N",
                 series="per run", quantity="residual") for n in (250, 500, 1000, 2000)]
    pts.append(Point("d ln residual / d ln N", -0.5, -0.5, 0.05, 0.2, quantity="slope"))
    fig = _build(_pts(*pts))
    try:
        ax = fig.axes[0]
        assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
        assert [t.get_text() for t in ax.get_xticklabels()] == ["250", "500", "1000", "2000"]
        assert fig.axes[1].get_yscale() == "linear"  # the slope itself: negative
    finally:
        _close(fig)
    # a law in ln N (quadratic.escape_time_vs_N): log x, linear y
    pts = [Point(f"run at N = {n}", 5 + 1.4 * math.log(n / 250), x=float(n), x_label="N",
                 series="per run", quantity="t_esc") for n in (250, 500, 1000, 2000)]
    pts.append(Point("SGD's d t_esc/d ln N against the law's (reported)", 3.0, 2.8, 0.5,
                     quantity="d t_esc / d ln N"))
    fig = _build(_pts(*pts))
    try:
        assert (fig.axes[0].get_xscale(), fig.axes[0].get_yscale()) == ("log", "linear")
    finally:
        _close(fig)
    # values of one decade and mixed signs stay linear
    assert not F.log_y([(1, {"measured": 0.5}), (2, {"measured": 0.06})])
    assert not F.log_y([(1, {"measured": 5.0}), (2, {"measured": -0.01})])
    assert F.x_scale([2.5, 5, 10, 20, 40, 80]) == "log"
    assert F.x_scale([0.0, 0.0025, 0.0043]) == "linear"
    assert F.x_scale([1.5, 2.5, 3.5]) == "discrete"  # between directions 1..4


def test_discrete_x_markers_only_and_integer_ticks():
    # twostep.fresh_does_not and hermite.coefficient: k = 1, 2 and k = 0..3, two series
    pts = [Point(f"{s} μ_{k}", 0.1 * k, 0.1 * k + 0.01, 0.01, 0.04, float(k), "k", s)
           for s in ("relu", "tanh") for k in range(4)]
    fig = _build(_pts(*pts))
    try:
        (ax,) = fig.axes
        assert F.x_scale([float(k) for k in range(4)]) == "discrete"
        # no line joins two values of k: every drawn line spans less than one unit of x
        # (the measured values are markers: a "line" with no line style)
        for line in ax.get_lines():
            xs = [float(x) for x in line.get_xdata()]
            if xs and line.get_linestyle() not in ("None", "none", ""):
                assert max(xs) - min(xs) < 1, xs
        assert list(ax.get_xticks()) == [0, 1, 2, 3]
        assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3"]
    finally:
        _close(fig)


def test_many_series_get_a_compact_legend():
    # recovery.overlaps: 8 directions × (fit, 3 dimensions) = 32 series
    pts = []
    for i in range(1, 9):
        for delta in (10.0, 20.0, 40.0):
            pts.append(Point("fit", 0.5, 0.5, 0.02, 0.1, delta, "δ", f"direction {i}, D → ∞ fit"))
            pts += [Point("mean", 0.48, 0.5, 0.02, None, delta, "δ", f"direction {i}, D = {d}")
                    for d in (136, 231, 406)]
    fig = _build(_pts(*pts))
    try:
        texts = _legend_texts(fig.axes[0])
        assert texts[:8] == [f"direction {i}" for i in range(1, 9)]
        assert texts[8:12] == ["D → ∞ fit", "D = 136", "D = 231", "D = 406"]
        assert len(texts) <= 15
    finally:
        _close(fig)


def test_labels_as_ticks_when_few_numbers_when_many():
    few = _build(_pts(Point("SGD's window mean of ε_g", 1.0, 1.0, 0.1, 0.3),
                      Point("the same against ε*(0)", 1.0, 0.5, 0.1)))
    many = _build(_pts(*[Point(f"a long label that says a lot, number {k}", 1.0)
                         for k in range(12)]))
    try:
        ticks = [t.get_text() for t in few.axes[0].get_xticklabels()]
        assert ticks[0].replace("\n", " ") == "SGD's window mean of ε_g"
        assert many.axes[0].get_xlabel().startswith("point (its number in the table")
    finally:
        _close(few)
        _close(many)


def test_a_verify_file_without_quantity_still_loads_and_draws(tmp_path: Path):
    point = asdict(Point("λ", 0.5, 0.5, 0.01, 0.03, 0.0, "1/m", "λ fit"))
    del point["quantity"]  # written before points had one
    run = {"id": "p.one", "paper": "p", "statement": "s", "source": "", "size": "small",
           "seed": 0, "params": {}, "status": "pass", "predicted": "1", "measured": "1",
           "tolerance": "t", "reason": "", "why": "w", "seconds": 0.1, "points": [point]}
    data = {"command": "verify", "inputs": {"which": "p", "size": "small", "seed": 0},
            "details": {"claims": [run], "errors": []}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    runs = runs_from_file(path, None)
    assert runs.runs[0]["points"][0]["quantity"] == ""
    fig = _build(runs.runs[0]["points"])
    try:
        assert fig.axes[0].get_ylabel() == "λ fit"  # the series' name
    finally:
        _close(fig)
    assert F.draw_claim_figure(runs.runs[0]["points"], "p.one", tmp_path / "f.svg")


def test_point_quantity_is_in_its_json():
    assert Point("a", 1.0).as_json()["quantity"] == ""
    assert Point("a", 1.0, quantity="log-log slope").as_json()["quantity"] == "log-log slope"
