"""One figure per claim, drawn from its points (:class:`~fltheory.claims.registry.Point`, here
as their JSON dicts): prediction against simulation.

Rules (each one a reader's question answered by the figure, not by the table of numbers):

* **one quantity per panel**: points go to one panel per (``quantity``, ``x_label``); the
  y-axis is labelled with the quantity (points from files written before points had one: the
  series' name when the panel has one series, else "measured value"). Points with an ``x``
  come first, points without an ``x`` (one column per point) last;
* **tested or not**: a point with ``predicted`` and ``band`` is *tested*: its prediction is a
  solid line (a bar for a lone or discrete point) in its series' colour with the acceptance
  interval ``predicted ± band`` shaded. A point with ``predicted`` but no ``band`` is a
  *reference* the verdict does not test (a power check, a reported law): grey and dashed,
  never shaded, and labelled "reference (not tested)"; a reference equal to a tested prediction
  at the same place is drawn once, as the tested one. A point without ``predicted`` (a
  qualitative rule: a sign, an ordering) is drawn as measured only;
* **scales**: a panel whose values (measured and predicted) are all positive and span more
  than 1.5 decades gets a log y-axis; x is logarithmic when it is a positive geometric grid
  (three or more values, a constant ratio: the sizes N, m, D, κ, δ of the simulations) or,
  unless it is discrete (below), positive and spanning 4-fold or more. A claim that tests a
  log-log slope (a label with "log-log slope" or "d ln … / d ln …") draws its positive data
  on log-log axes, where that slope is a straight line; no line of the predicted slope is
  invented (the points do not carry one);
* **discrete x** (a few integer or half-integer values on a linear axis: a degree, a case, a
  direction, a time of a few checkpoints): markers only, no line or shaded wedge between
  values, ticks at the values themselves, series side by side;
* **series named "A: B", "A, B" or "A (B)"** where both parts repeat (e.g. "direction 3,
  D = 231" and "direction 3, D → ∞ fit"): colour by A, marker by B, one compact legend of A's
  then B's (a fit shares the colour of the data it extrapolates); else one colour per series;
* points without ``x``: the point labels are the tick labels when there are few of them, else
  the point numbers of the report's table of numbers.

Figures are SVG with text kept as text (``svg.fonttype = none``: the browser's own sans-serif
font, no embedded glyphs, no web font), deterministic (no date, fixed ids).
"""

from __future__ import annotations

import itertools
import math
import os
import re
import textwrap
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["Panel", "build_figure", "caption", "draw_claim_figure", "is_reference", "is_tested",
           "log_y", "panels", "usable_points", "x_scale", "y_label"]

#: colour of references the verdict does not test
REF_COLOUR = "0.45"
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
#: series colours: the default cycle without its grey (C7), kept for references
_COLOURS = tuple(f"C{k}" for k in (0, 1, 2, 3, 4, 5, 6, 8, 9))
_POWER_LAW = re.compile(r"log-log slope|d ln [^/]*/ ?d ln")


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def usable_points(points: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The points that can be drawn (finite measured value) and how many were left out."""
    good = [p for p in points if _finite(p.get("measured"))]
    return good, len(points) - len(good)


def is_tested(p: dict[str, Any]) -> bool:
    """A point whose prediction the verdict tests: ``predicted`` and ``band`` both finite."""
    return _finite(p.get("predicted")) and _finite(p.get("band"))


def is_reference(p: dict[str, Any]) -> bool:
    """A point with a predicted value but no acceptance band: reported, not tested."""
    return _finite(p.get("predicted")) and not _finite(p.get("band"))


def _aggregated(points: list[dict[str, Any]]) -> bool:
    """The claim judges aggregates (a point with an error bar or a band): its points with
    neither are single runs, the data of a fit or a mean."""
    return any(_finite(p.get("se")) or _finite(p.get("band")) for p in points)


def _single_run(p: dict[str, Any], aggregated: bool = True) -> bool:
    """A point drawn small and faint: on an x-axis, with neither a prediction nor an error
    bar, in a claim that judges aggregates (one run, the data of a fit, not judged alone)."""
    return (aggregated and _finite(p.get("x")) and not _finite(p.get("predicted"))
            and not _finite(p.get("se")))


def caption(points: list[dict[str, Any]], tolerance: str) -> str:
    """What the figure shows, in words (only the parts it has)."""
    good, dropped = usable_points(points)
    aggregated = _aggregated(good)
    parts = ["Markers: the simulation's measured values, one colour per series as the legend "
             "names them"]
    if any(_finite(p.get("se")) for p in good):
        parts[0] += ", with ± 1 standard error bars"
    if any(_single_run(p, aggregated) for p in good):
        parts[0] += " (small faint markers: single runs, the data of a fit, not judged alone)"
    if any(is_tested(p) for p in good):
        parts.append("solid lines and bars: the prediction the verdict tests, in the colour of "
                     "the series it is compared with; shaded: its acceptance interval "
                     "(prediction ± tolerance)")
    if any(is_reference(p) for p in good):
        parts.append("grey dashed: reference values that are reported, not tested")
    text = "; ".join(parts) + ". Each panel holds one quantity (its y-axis label)."
    if any(not _finite(p.get("predicted")) and not _single_run(p, aggregated) for p in good):
        text += (" Points without a predicted value are judged by a qualitative rule: "
                 f"{tolerance}.")
    if dropped:
        text += (f" {dropped} points with a non-finite measured value are not drawn."
                 if dropped > 1 else " 1 point with a non-finite measured value is not drawn.")
    return text


class Panel(NamedTuple):
    """One panel: its x-axis name (``None``: points side by side), its quantity (``""``: not
    stated) and its points, each with its number (1-based: the row of the table of numbers)."""

    axis: str | None
    quantity: str
    points: list[tuple[int, dict[str, Any]]]


def panels(points: list[dict[str, Any]]) -> list[Panel]:
    """The figure's panels: one per (``x_label``, ``quantity``) for the points with a finite
    ``x``, then one per quantity for the points without.

    >>> pts = [{"measured": 1, "x": 1, "x_label": "N"}, {"measured": 2},
    ...        {"measured": 3, "x": 2, "x_label": "t"}, {"measured": float("nan"), "x": 1},
    ...        {"measured": 4, "x": 2, "x_label": "N", "quantity": "slope"}]
    >>> [(p.axis, p.quantity, [i for i, _ in p.points]) for p in panels(pts)]
    [('N', '', [1]), ('t', '', [3]), ('N', 'slope', [5]), (None, '', [2])]
    """
    by_key: dict[tuple[str | None, str], list[tuple[int, dict[str, Any]]]] = {}
    for i, p in enumerate(points, 1):
        if not _finite(p.get("measured")):
            continue
        axis = str(p.get("x_label") or "x") if _finite(p.get("x")) else None
        by_key.setdefault((axis, str(p.get("quantity") or "")), []).append((i, p))
    named = [Panel(a, q, v) for (a, q), v in by_key.items() if a is not None]
    return named + [Panel(a, q, v) for (a, q), v in by_key.items() if a is None]


def y_label(panel: Panel) -> str:
    """The panel's y-axis label: its quantity, else its one series' name, else the series'
    common beginning, else "measured value".

    >>> y_label(Panel("m", "", [(1, {"series": "residual, l = 0 (per draw)"}),
    ...                         (2, {"series": "residual, l = 1 (per draw)"})]))
    'residual'
    """
    if panel.quantity:
        return panel.quantity
    names = list(dict.fromkeys(str(p.get("series") or "") for _, p in panel.points))
    if len(names) == 1 and names[0]:
        return names[0]
    # the series' common beginning, up to a separator ("λ0 (per draw)", "λ0 (m → ∞ fit)")
    common = os.path.commonprefix(names)  # noqa: RUF071 (characters are what is meant)
    cut = max(common.rfind(", "), common.rfind(" ("), common.rfind(": "))
    return common[:cut].strip() if cut >= 3 else "measured value"


def _values(part: list[tuple[int, dict[str, Any]]]) -> list[float]:
    return [float(p[k]) for _, p in part for k in ("measured", "predicted") if _finite(p.get(k))]


def log_y(part: list[tuple[int, dict[str, Any]]], power_law: bool = False) -> bool:
    """A log y-axis: every value positive, spanning more than 1.5 decades (or any span when
    the claim tests a log-log slope: ``power_law``).

    >>> log_y([(1, {"measured": 0.16, "predicted": 0.16}), (2, {"measured": 2e-4})])
    True
    >>> log_y([(1, {"measured": 0.9}), (2, {"measured": -0.1})])
    False
    """
    values = _values(part)
    if not values or min(values) <= 0:
        return False
    return power_law or max(values) / min(values) > 10 ** 1.5


def _geometric(xs: list[float]) -> bool:
    grid = sorted(set(xs))
    if len(grid) < 3 or grid[0] <= 0:
        return False
    ratios = [b / a for a, b in itertools.pairwise(grid)]
    return min(ratios) >= 1.4 and max(ratios) / min(ratios) <= 1.1


def x_scale(xs: list[float]) -> str:
    """``"log"`` for a positive geometric grid (three or more values, a constant ratio),
    ``"discrete"`` for a few small integer or half-integer values (at most 12, within 24 units:
    a degree, a case, a direction, a checkpoint), ``"log"`` again for other positive values
    spanning 4-fold or more, else ``"linear"``.

    >>> x_scale([250, 500, 1000, 250]), x_scale([1, 2, 3]), x_scale([0, 0.002, 0.001])
    ('log', 'discrete', 'linear')
    >>> x_scale([250, 1000, 2000]), x_scale([1.5, 2.5, 3.5])
    ('log', 'discrete')
    """
    grid = sorted(set(xs))
    if _geometric(grid):
        return "log"
    if (len(grid) <= 12 and grid[-1] - grid[0] <= 24
            and all(float(2 * x).is_integer() for x in grid)):
        return "discrete"
    if grid[0] > 0 and grid[-1] / grid[0] >= 4:
        return "log"
    return "linear"


def _power_law(points: list[dict[str, Any]]) -> bool:
    return any(_POWER_LAW.search(str(p.get(key) or "")) for p in points
               for key in ("label", "quantity"))


def _value(p: dict[str, Any], key: str) -> float | None:
    return float(p[key]) if _finite(p.get(key)) else None


def _segment(x: float, scale: str, span: float, slots: int = 1) -> tuple[float, float]:
    """The x extent of a bar drawn at ``x`` (``slots``: series side by side at one value)."""
    if scale == "log":
        return x / 1.09, x * 1.09
    half = 0.3 / slots if scale == "discrete" else 0.025 * (span or 1.0)
    return x - half, x + half


def _bar(ax: Any, x0: float, x1: float, p: dict[str, Any], colour: str) -> None:
    """A tested prediction (solid, band shaded) or a reference (grey dashed) over [x0, x1]."""
    if not _finite(p.get("predicted")):
        return
    mid = float(p["predicted"])
    if is_tested(p):
        band = float(p["band"])
        ax.fill_between([x0, x1], [mid - band] * 2, [mid + band] * 2, color=colour, alpha=0.18,
                        lw=0)
        ax.plot([x0, x1], [mid, mid], "-", color=colour, lw=1.6)
    else:
        ax.plot([x0, x1], [mid, mid], "--", color=REF_COLOUR, lw=1.3)


class _Style(NamedTuple):
    colour: str
    marker: str
    head: str
    tail: str


def _styles(names: list[str]) -> dict[str, _Style]:
    """Colour and marker per series: when every name is "A: B" (or "A, B", or "A (B)") and
    both the A's and the B's repeat (e.g. "direction 2, D = 231" and "direction 2, D → ∞
    fit"), colour by A and marker by B, so that a fit and the data it extrapolates share a
    colour; else one colour per series.

    >>> [tuple(s[:2]) for s in _styles(["d1: mean", "d1: fit", "d2: mean", "d2: fit"]).values()]
    [('C0', 'o'), ('C0', 's'), ('C1', 'o'), ('C1', 's')]
    """
    for sep in (": ", ", ", " ("):
        if not all(sep in n for n in names):
            continue
        split = {n: (n.split(sep, 1)[0], sep.strip(" ,:") + n.split(sep, 1)[1]) for n in names}
        heads = list(dict.fromkeys(h for h, _ in split.values()))
        tails = list(dict.fromkeys(t for _, t in split.values()))
        if len(heads) < len(names) and len(tails) < len(names):
            break
    else:
        return {n: _Style(_COLOURS[k % len(_COLOURS)], "o", n, "") for k, n in enumerate(names)}
    out = {}
    for n in names:
        head, tail = split[n]
        out[n] = _Style(_COLOURS[heads.index(head) % len(_COLOURS)],
                        _MARKERS[tails.index(tail) % len(_MARKERS)], head, tail)
    return out


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (float(a["x"]) == float(b["x"])
            and math.isclose(float(a["predicted"]), float(b["predicted"]), rel_tol=1e-9,
                             abs_tol=1e-15))


def _draw_x(ax: Any, panel: Panel, power_law: bool, aggregated: bool) -> dict[str, Any]:
    """Draw a panel with an x-axis; the legend entries it needs (label -> handle)."""
    from matplotlib.lines import Line2D

    part = panel.points
    xs = [float(p["x"]) for _, p in part]
    scale = x_scale(xs)
    span = max(xs) - min(xs)
    groups: dict[str, list[dict[str, Any]]] = {}
    for _, p in part:
        groups.setdefault(str(p.get("series", "")), []).append(p)
    styles = _styles(list(groups))
    tested = [p for _, p in part if is_tested(p)]
    entries: dict[str, Any] = {}
    tails: dict[str, Any] = {}
    shown = {"reference": False}
    tail_names = list(dict.fromkeys(s.tail for s in styles.values()))
    for k, (name, group) in enumerate(groups.items()):
        style = styles[name]
        group = sorted(group, key=lambda p: float(p["x"]))
        marks = [p for p in group if is_tested(p)] + [
            p for p in group if is_reference(p) and not any(_same(p, t) for t in tested)]
        shown["reference"] |= any(is_reference(p) for p in marks)
        shift, factor = 0.0, 1.0
        if scale == "discrete" and len(groups) > 1:
            shift = (k - (len(groups) - 1) / 2) * 0.7 / len(groups)
        elif scale == "log" and len(tail_names) > 1:
            factor = 1.05 ** (tail_names.index(style.tail) - (len(tail_names) - 1) / 2)
        _draw_predictions(ax, marks, style.colour, scale, span, shift,
                          len(groups) if scale == "discrete" else 1)
        # a measurement also compared with a reference (the same value at the same place as a
        # tested point's) is drawn once, with the tested point
        group = [p for p in group if not (is_reference(p) and any(
            float(t["x"]) == float(p["x"]) and float(t["measured"]) == float(p["measured"])
            for t in tested))]
        if not group:
            continue
        judged = not all(_single_run(p, aggregated) for p in group)
        ax.errorbar([(float(p["x"]) + shift) * factor for p in group],
                    [float(p["measured"]) for p in group],
                    yerr=[_value(p, "se") or 0.0 for p in group], fmt=style.marker,
                    ms=4 if judged else 3, alpha=1 if judged else 0.5, color=style.colour,
                    capsize=2, lw=1, ls="none")
        if style.tail:
            entries.setdefault(style.head, Line2D([], [], color=style.colour, marker="o", ls=""))
            tails.setdefault(style.tail, Line2D([], [], color="0.2", marker=style.marker,
                                                ls=""))
        else:
            entries[name or "measured"] = Line2D([], [], color=style.colour, marker=style.marker,
                                                 ls="", alpha=1 if judged else 0.5)
    _scales(ax, part, scale, power_law, xs)
    ax.set_xlabel(panel.axis)
    return {**entries, **tails, **_line_entries(part, shown["reference"])}


def _draw_predictions(ax: Any, marks: list[dict[str, Any]], colour: Any, scale: str,
                      span: float, shift: float, slots: int) -> None:
    """The predictions of one series' marked points: a line (with the tolerance band of
    tested points, dashed for references) when they are two or more at distinct x on a
    continuous axis and all of one kind, else a bar per point."""
    line = scale != "discrete" and len(marks) >= 2 and len({float(p["x"]) for p in marks}) \
        == len(marks) and (all(is_tested(p) for p in marks)
                           or all(is_reference(p) for p in marks))
    if line:
        mx = [float(p["x"]) for p in marks]
        mid = [float(p["predicted"]) for p in marks]
        if is_tested(marks[0]):
            ax.fill_between(mx, [m - float(p["band"]) for m, p in zip(mid, marks, strict=True)],
                            [m + float(p["band"]) for m, p in zip(mid, marks, strict=True)],
                            color=colour, alpha=0.15, lw=0)
            ax.plot(mx, mid, "-", color=colour, lw=1.2)
        else:
            ax.plot(mx, mid, "--", color=REF_COLOUR, lw=1.2)
    else:
        for p in marks:
            _bar(ax, *_segment(float(p["x"]) + shift, scale, span, slots), p, colour)


def _scales(ax: Any, part: list[tuple[int, dict[str, Any]]], scale: str, power_law: bool,
            xs: list[float]) -> None:
    from matplotlib.ticker import NullFormatter

    grid = sorted(set(xs))
    if scale == "log":
        ax.set_xscale("log")
        if len(grid) <= 12:
            ax.set_xticks(grid, [f"{x:g}" for x in grid])
            ax.xaxis.set_minor_formatter(NullFormatter())
    elif scale == "discrete":
        ax.set_xticks(grid, [f"{x:g}" for x in grid])
        ax.set_xlim(grid[0] - 0.6, grid[-1] + 0.6)
    label = str(part[0][1].get("quantity") or part[0][1].get("series") or "")
    already_log = label.startswith(("ln ", "log "))
    if log_y(part, power_law and scale == "log" and not already_log):
        ax.set_yscale("log", nonpositive="clip")


def _tick_labels(part: list[tuple[int, dict[str, Any]]]) -> tuple[list[str], str]:
    """Tick labels of a panel without x: the point labels (wrapped) when few and readable,
    else the point numbers; and the x-axis label."""
    labels = [str(p.get("label", "")) for _, p in part]
    if len(part) <= 6:
        wrapped = []
        for text in labels:
            lines = textwrap.wrap(text, 26) or [""]
            wrapped.append("\n".join(lines[:4]) + ("…" if len(lines) > 4 else ""))
        return wrapped, ""
    if len(part) <= 24 and max(len(t) for t in labels) <= 14:
        return labels, ""
    return [str(n) for n, _ in part], "point (its number in the table of numbers below)"


def _draw_labels(ax: Any, panel: Panel) -> dict[str, Any]:
    from matplotlib.lines import Line2D

    part = panel.points
    for k, (_, p) in enumerate(part):
        if _finite(p.get("predicted")):
            _bar(ax, k - 0.3, k + 0.3, p, "C0")
        ax.errorbar([k], [float(p["measured"])], yerr=[_value(p, "se") or 0.0], fmt="o", ms=4,
                    color="C1", capsize=2, lw=1)
    ticks, xlabel = _tick_labels(part)
    step = max(1, len(part) // 30)
    few = len(part) <= 6
    ax.set_xticks(range(0, len(part), step), ticks[::step], fontsize=6.5 if few else 7,
                  rotation=0 if few or xlabel else 40, ha="center" if few or xlabel else "right")
    ax.set_xlim(-0.6, len(part) - 0.4)
    if xlabel:
        ax.set_xlabel(xlabel)
    if log_y(part):
        ax.set_yscale("log", nonpositive="clip")
    return {"measured": Line2D([], [], color="C1", marker="o", ls=""),
            **_line_entries(part, any(is_reference(p) for _, p in part))}


def _line_entries(part: list[tuple[int, dict[str, Any]]], reference: bool) -> dict[str, Any]:
    """Legend entries saying what the lines mean (only those drawn)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    entries: dict[str, Any] = {}
    if any(is_tested(p) for _, p in part):
        entries["prediction (tested)"] = Line2D([], [], color="0.2", lw=1.6)
        entries["acceptance interval"] = Patch(color="0.2", alpha=0.18, lw=0)
    if reference:
        entries["reference (not tested)"] = Line2D([], [], color=REF_COLOUR, lw=1.3, ls="--")
    return entries


def _legend(ax: Any, entries: dict[str, Any]) -> None:
    """The legend; beside the axes when it has many entries."""
    if len(entries) == 1 and "measured" in entries:
        return
    kwargs: dict[str, Any] = {"fontsize": 6.5}
    if len(entries) > 5:
        kwargs.update(loc="center left", bbox_to_anchor=(1.01, 0.5),
                      ncol=2 if len(entries) > 16 else 1)
    ax.legend(list(entries.values()), list(entries), **kwargs)


def _rc() -> dict[str, Any]:
    return {"svg.fonttype": "none", "svg.hashsalt": "fltheory-report",
            "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"], "font.size": 8}


def build_figure(points: list[dict[str, Any]], title: str) -> Any:
    """The claim's figure (a matplotlib ``Figure``, the caller closes it), one panel per
    :func:`panels`; ``None`` when no point has a finite measured value."""
    import warnings

    from fltheory.render.plots import pyplot

    parts = panels(points)
    if not parts:
        return None
    power_law = _power_law(points)
    aggregated = _aggregated(usable_points(points)[0])
    plt = pyplot()
    heights = [3.1 if p.axis is None and len(p.points) <= 6 else 2.8 for p in parts]
    with plt.rc_context(_rc()), warnings.catch_warnings():
        # a layout that cannot fit every label draws the figure anyway: never an error
        warnings.simplefilter("ignore", UserWarning)
        fig, axes = plt.subplots(len(parts), 1, figsize=(7.0, 0.4 + sum(heights)),
                                 squeeze=False, layout="constrained",
                                 gridspec_kw={"height_ratios": heights})
        try:
            for ax, panel in zip(axes[:, 0], parts, strict=True):
                entries = (_draw_labels(ax, panel) if panel.axis is None
                           else _draw_x(ax, panel, power_law, aggregated))
                ax.set_ylabel("\n".join(textwrap.wrap(y_label(panel), 38)[:3]))
                ax.grid(alpha=0.3)
                _legend(ax, entries)
            fig.suptitle(title, fontsize=9)
        except BaseException:
            plt.close(fig)
            raise
    return fig


def draw_claim_figure(points: list[dict[str, Any]], title: str, path: Path) -> bool:
    """Draw the claim's points to ``path`` (SVG, :func:`build_figure`); ``False`` (nothing
    written) when no point has a finite measured value."""
    import warnings

    from fltheory.render.plots import pyplot

    fig = build_figure(points, title)
    if fig is None:
        return False
    plt = pyplot()
    try:
        with plt.rc_context(_rc()), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            fig.savefig(path, format="svg", metadata={"Date": None})
    finally:
        plt.close(fig)
    return True
