"""One figure per claim, drawn from its points (:class:`~fltheory.claims.registry.Point`, here
as their JSON dicts): prediction against simulation.

* points with ``x``: one panel per ``x_label``; measured ± se (error bars) against x, one
  colour per ``series`` (the legend names the series); the predicted values as a line of the
  same colour (a bar for a lone point) and the acceptance interval ``predicted ± band``
  shaded;
* points without ``x``: one panel, one column per point, numbered as in the report's table of
  numbers (labels are sentences: they are in the table, not under the axis); measured ± se,
  predicted (a horizontal bar) and its band (a shaded box);
* a point with ``predicted`` ``None`` (a qualitative rule: a sign, an ordering) is drawn as
  measured only; the caption says which rule decides.

Figures are SVG with text kept as text (``svg.fonttype = none``: the browser's own sans-serif
font, no embedded glyphs, no web font), deterministic (no date, fixed ids).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

__all__ = ["caption", "draw_claim_figure", "panels", "usable_points"]


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def usable_points(points: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The points that can be drawn (finite measured value) and how many were left out."""
    good = [p for p in points if _finite(p.get("measured"))]
    return good, len(points) - len(good)


def caption(points: list[dict[str, Any]], tolerance: str) -> str:
    """What the figure shows, in words (only the parts it has)."""
    good, dropped = usable_points(points)
    parts = ["Dots: the simulation's measured values (faint: single runs)"]
    if any(_finite(p.get("se")) for p in good):
        parts[0] += " with ± 1 standard error bars"
    if any(_finite(p.get("predicted")) for p in good):
        parts.append("lines and bars (same colour as the series): the prediction")
    if any(_finite(p.get("band")) and _finite(p.get("predicted")) for p in good):
        parts.append("shaded: the acceptance interval (prediction ± tolerance)")
    text = "; ".join(parts) + "."
    if any(not _finite(p.get("predicted")) for p in good):
        text += (" Points without a predicted value are judged by a qualitative rule: "
                 f"{tolerance}.")
    if dropped:
        text += f" {dropped} point(s) with a non-finite measured value are not drawn."
    return text


def _series(points: list[tuple[int, dict[str, Any]]]) -> dict[str, list[tuple[int, dict]]]:
    groups: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for i, p in points:
        groups.setdefault(str(p.get("series", "")), []).append((i, p))
    return groups


Panel = tuple[str | None, list[tuple[int, dict[str, Any]]]]


def panels(points: list[dict[str, Any]]) -> list[Panel]:
    """The figure's panels: one per ``x_label`` for the points with a finite ``x``, then one
    for the points without (``x_label`` ``None``); each point with its number (1-based, its
    place among all the claim's points: the row of the report's table of numbers).

    >>> pts = [{"measured": 1, "x": 1, "x_label": "N"}, {"measured": 2},
    ...        {"measured": 3, "x": 2, "x_label": "t"}, {"measured": float("nan"), "x": 1}]
    >>> [(name, [i for i, _ in part]) for name, part in panels(pts)]
    [('N', [1]), ('t', [3]), (None, [2])]
    """
    by_axis: dict[str | None, list[tuple[int, dict[str, Any]]]] = {}
    for i, p in enumerate(points, 1):
        if not _finite(p.get("measured")):
            continue
        axis = str(p.get("x_label") or "x") if _finite(p.get("x")) else None
        by_axis.setdefault(axis, []).append((i, p))
    named: list[Panel] = [(k, v) for k, v in by_axis.items() if k is not None]
    return named + ([(None, by_axis[None])] if None in by_axis else [])


def _value(p: dict[str, Any], key: str) -> float | None:
    return float(p[key]) if _finite(p.get(key)) else None


def _draw_x(ax: Any, axis: str, points: list[tuple[int, dict[str, Any]]]) -> None:
    for k, (name, group) in enumerate(_series(points).items()):
        colour = f"C{k % 10}"
        group = sorted(group, key=lambda item: float(item[1]["x"]))
        pred = [(float(p["x"]), float(p["predicted"]), _value(p, "band")) for _, p in group
                if _finite(p.get("predicted"))]
        if len(pred) >= 2:
            ax.plot([q[0] for q in pred], [q[1] for q in pred], "-", color=colour, lw=1.2)
            banded = [(x, y, b) for x, y, b in pred if b is not None]
            if banded:
                ax.fill_between([q[0] for q in banded], [q[1] - q[2] for q in banded],
                                [q[1] + q[2] for q in banded], color=colour, alpha=0.15, lw=0)
        for x, y, band in pred if len(pred) == 1 else ():
            if band is not None:
                ax.plot([x, x], [y - band, y + band], "-", color=colour, lw=7, alpha=0.2)
            ax.plot([x], [y], "_", color=colour, ms=16, mew=1.5)
        se = [_value(p, "se") or 0.0 for _, p in group]
        judged = any(_finite(p.get("predicted")) or _finite(p.get("se")) for _, p in group)
        ax.errorbar([float(p["x"]) for _, p in group], [float(p["measured"]) for _, p in group],
                    yerr=se, fmt="o", ms=4 if judged else 3, alpha=1 if judged else 0.6,
                    color=colour, capsize=2, lw=1, label=name or "measured")
    xs = [float(p["x"]) for _, p in points]
    if min(xs) > 0 and max(xs) / min(xs) >= 20:
        ax.set_xscale("log")
    ax.set_xlabel(axis)


def _draw_labels(ax: Any, points: list[tuple[int, dict[str, Any]]]) -> None:
    for k, (_, p) in enumerate(points):
        first = k == 0
        mid, band = _value(p, "predicted"), _value(p, "band")
        if mid is not None:
            if band is not None:
                ax.fill_between([k - 0.3, k + 0.3], [mid - band] * 2, [mid + band] * 2,
                                color="C0", alpha=0.18, lw=0,
                                label="acceptance interval" if first else None)
            ax.plot([k - 0.3, k + 0.3], [mid, mid], "-", color="C0", lw=1.5,
                    label="predicted" if first else None)
        ax.errorbar([k], [float(p["measured"])], yerr=[_value(p, "se") or 0.0], fmt="o", ms=4,
                    color="C1", capsize=2, lw=1, label="measured" if first else None)
    step = max(1, len(points) // 30)
    ax.set_xticks(range(0, len(points), step), [str(n) for n, _ in points][::step],
                  fontsize=7)
    ax.set_xlim(-0.6, len(points) - 0.4)
    ax.set_xlabel("point (numbered as in the table of numbers)")


def _legend(ax: Any) -> None:
    """The legend inside the axes, or beside them when it has many entries."""
    entries = len(ax.get_legend_handles_labels()[1])
    if entries > 5:
        ax.legend(fontsize=6.5, loc="center left", bbox_to_anchor=(1.01, 0.5))
    elif entries:
        ax.legend(fontsize=6.5)


def draw_claim_figure(points: list[dict[str, Any]], title: str, path: Path) -> bool:
    """Draw the claim's points to ``path`` (SVG), one panel per :func:`panels`; ``False``
    (nothing written) when no point has a finite measured value."""
    import warnings

    from fltheory.render.plots import pyplot

    parts = panels(points)
    if not parts:
        return False
    plt = pyplot()
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "fltheory-report",
                         "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"],
                         "font.size": 8}), \
            warnings.catch_warnings():
        # a layout that cannot fit every label draws the figure anyway: never an error
        warnings.simplefilter("ignore", UserWarning)
        fig, axes = plt.subplots(len(parts), 1, figsize=(6.4, 0.4 + 2.8 * len(parts)),
                                 squeeze=False, layout="constrained")
        try:
            for ax, (axis, part) in zip(axes[:, 0], parts, strict=True):
                if axis is None:
                    _draw_labels(ax, part)
                else:
                    _draw_x(ax, axis, part)
                ax.grid(alpha=0.3)
                _legend(ax)
            fig.suptitle(title, fontsize=9)
            fig.savefig(path, format="svg", metadata={"Date": None})
        finally:
            plt.close(fig)
    return True
