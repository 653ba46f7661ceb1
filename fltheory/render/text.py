"""Plain-text and JSON rendering."""

from __future__ import annotations

from fltheory.results import Result, Table, finite

__all__ = ["render_json", "render_text", "text_table"]


def text_table(table: Table) -> str:
    """Columns padded to their widest cell, a rule under the header, notes below."""
    cells = [table.columns, *table.rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if table.caption:
        lines.insert(0, table.caption)
    lines.extend(table.notes)
    return "\n".join(lines)


def render_text(result: Result) -> str:
    result = finite(result)
    parts = list(result.summary)
    if result.table is not None:
        parts.append("")
        parts.append(text_table(result.table))
    if result.conventions:
        parts.append("")
        parts.extend(f"[{key}] {text}" for key, text in result.conventions.items())
    if result.notes:
        parts.append("")
        parts.extend(f"note: {note}" for note in result.notes)
    return "\n".join(parts).strip("\n") + "\n"


def render_json(result: Result) -> str:
    import json  # not needed by text output: keep light queries light

    # finite() turns declared-undefined fields into null and refuses any other NaN/inf;
    # allow_nan=False is the last guard: never print the invalid tokens NaN / Infinity.
    return json.dumps(finite(result).as_json(), indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"
