"""One figure per claim, drawn from its points (:class:`~fltheory.claims.registry.Point`, here
as their JSON dicts): prediction against simulation.

* points with ``x``: measured ± se (error bars) against x, per ``series``; the predicted values
  as a line and the acceptance interval ``predicted ± band`` shaded;
* points without ``x``: one column per label, measured ± se (dots with error bars), predicted
  (a horizontal bar) and its band (a shaded box);
* a point with ``predicted`` ``None`` (a qualitative rule: a sign, an ordering) is drawn as
  measured only; the caption says which rule decides.

Figures are SVG with text kept as text (``svg.fonttype = none``: the browser's own sans-serif
font, no embedded glyphs, no web font), deterministic (no date, fixed ids).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

__all__ = ["caption", "draw_claim_figure", "usable_points"]


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def usable_points(points: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The points that can be drawn (finite measured value) and how many were left out."""
    good = [p for p in points if _finite(p.get("measured"))]
    return good, len(points) - len(good)


def caption(points: list[dict[str, Any]], tolerance: str) -> str:
    """What the figure shows, in words (only the parts it has)."""
    good, dropped = usable_points(points)
    parts = ["Dots: the simulation's measured values"]
    if any(_finite(p.get("se")) for p in good):
        parts[0] += " with ± 1 standard error bars"
    if any(_finite(p.get("predicted")) for p in good):
        parts.append("lines and bars: the prediction")
    if any(_finite(p.get("band")) and _finite(p.get("predicted")) for p in good):
        parts.append("shaded: the acceptance interval (prediction ± tolerance)")
    text = "; ".join(parts) + "."
    if any(not _finite(p.get("predicted")) for p in good):
        text += (" Points without a predicted value are judged by a qualitative rule: "
                 f"{tolerance}.")
    if dropped:
        text += f" {dropped} point(s) with a non-finite measured value are not drawn."
    return text


def _series(points: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for p in points:
        groups.setdefault(str(p.get("series", "")), []).append(p)
    return groups


def _draw_x(ax: Any, points: list[dict[str, Any]]) -> None:
    colours = iter(f"C{i % 10}" for i in range(10_000))
    for name, group in _series(points).items():
        group = sorted(group, key=lambda p: float(p["x"]))
        colour = next(colours)
        xs = [float(p["x"]) for p in group]
        pred: list[tuple[float, float, Any]] = [
            (float(p["x"]), float(p["predicted"]), p.get("band")) for p in group
            if _finite(p.get("predicted"))]
        if pred:
            ax.plot([q[0] for q in pred], [q[1] for q in pred], "-", color=colour, lw=1.2,
                    label=f"predicted {name}".strip())
            banded = [q for q in pred if _finite(q[2])]
            if banded:
                ax.fill_between([q[0] for q in banded], [q[1] - float(q[2]) for q in banded],
                                [q[1] + float(q[2]) for q in banded], color=colour, alpha=0.15,
                                lw=0)
        se = [float(p["se"]) if _finite(p.get("se")) else 0.0 for p in group]
        ax.errorbar(xs, [float(p["measured"]) for p in group], yerr=se, fmt="o", ms=4,
                    color=colour, capsize=3, label=f"measured {name}".strip())
    xs = [float(p["x"]) for p in points]
    if min(xs) > 0 and max(xs) / min(xs) >= 20:
        ax.set_xscale("log")
    labels = sorted({str(p.get("x_label", "")) for p in points} - {""})
    ax.set_xlabel(", ".join(labels))


def _draw_labels(ax: Any, points: list[dict[str, Any]]) -> None:
    names = [f"{p['series']}: {p['label']}" if p.get("series") else str(p["label"])
             for p in points]
    for i, p in enumerate(points):
        if _finite(p.get("predicted")):
            mid = float(p["predicted"])
            if _finite(p.get("band")):
                half = float(p["band"])
                ax.fill_between([i - 0.3, i + 0.3], [mid - half] * 2, [mid + half] * 2,
                                color="C0", alpha=0.15, lw=0,
                                label="acceptance interval" if i == 0 else None)
            ax.plot([i - 0.3, i + 0.3], [mid, mid], "-", color="C0", lw=1.5,
                    label="predicted" if i == 0 else None)
        se = float(p["se"]) if _finite(p.get("se")) else 0.0
        ax.errorbar([i], [float(p["measured"])], yerr=[se], fmt="o", ms=4, color="C1",
                    capsize=3, label="measured" if i == 0 else None)
    ax.set_xticks(range(len(points)), names, rotation=30 if len(points) > 4 else 0,
                  ha="right" if len(points) > 4 else "center", fontsize=8)
    ax.set_xlim(-0.6, len(points) - 0.4)


def draw_claim_figure(points: list[dict[str, Any]], title: str, path: Path) -> bool:
    """Draw the claim's points to ``path`` (SVG); ``False`` (nothing written) when no point
    has a finite measured value."""
    from fltheory.render.plots import pyplot

    good, _ = usable_points(points)
    if not good:
        return False
    plt = pyplot()
    with_x = [p for p in good if _finite(p.get("x"))]
    labelled = [p for p in good if not _finite(p.get("x"))]
    panels = [part for part in (with_x, labelled) if part]
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "fltheory-report",
                         "font.family": "sans-serif"}):
        fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.4), squeeze=False)
        try:
            for ax, part in zip(axes[0], panels, strict=True):
                (_draw_x if part is with_x else _draw_labels)(ax, part)
                ax.grid(alpha=0.3)
                ax.legend(fontsize=7)
            fig.suptitle(title, fontsize=9)
            fig.tight_layout()
            fig.savefig(path, format="svg", metadata={"Date": None})
        finally:
            plt.close(fig)
    return True
