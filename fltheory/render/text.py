"""Plain-text and JSON rendering."""

from __future__ import annotations

from fltheory.results import Result, Table, finite

__all__ = ["WIDTH", "render_json", "render_text", "text_table", "wrap_line"]

#: the columns a text line may take where a command asks for wrapping (issue 37, item 7)
WIDTH = 100


def wrap_line(line: str, width: int = WIDTH) -> list[str]:
    """``line`` in lines of at most ``width`` characters, broken at spaces (not at a hyphen:
    ``k*-th`` stays whole; inside a word only when that word alone is longer than the width,
    textwrap's rule, so no line is ever longer), continuation lines indented by four spaces; a
    line that fits comes back whole.

    >>> wrap_line("short")
    ['short']
    >>> wrap_line("[n ≍] order of the number of samples in d (constants dropped)", 30)
    ['[n ≍] order of the number of', '    samples in d (constants', '    dropped)']
    """
    if len(line) <= width:
        return [line]
    import textwrap  # only a long line needs it: keep light queries light

    return textwrap.wrap(line, width, subsequent_indent="    ", break_on_hyphens=False) or [""]


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


def render_text(result: Result, width: int | None = None) -> str:
    """The result as plain text: summary, table, conventions ``[key] text``, notes ``note: …``.
    With ``width``, each summary, convention and note line and each of the table's notes
    longer than ``width`` is wrapped by :func:`wrap_line` (the table's own rows are laid out
    as they are: a command that asks for a width keeps its table within it); without it,
    every line is printed whole."""
    result = finite(result)

    def lines(texts: list[str]) -> list[str]:
        return texts if width is None else [w for t in texts for w in wrap_line(t, width)]

    parts = lines(list(result.summary))
    if result.table is not None:
        parts.append("")
        table = result.table if width is None else result.table.replace(
            notes=lines(result.table.notes))
        parts.append(text_table(table))
    if result.conventions:
        parts.append("")
        parts.extend(lines([f"[{key}] {text}" for key, text in result.conventions.items()]))
    if result.notes:
        parts.append("")
        parts.extend(lines([f"note: {note}" for note in result.notes]))
    return "\n".join(parts).strip("\n") + "\n"


def render_json(result: Result) -> str:
    import json  # not needed by text output: keep light queries light

    # finite() turns declared-undefined fields into null and refuses any other NaN/inf;
    # allow_nan=False is the last guard: never print the invalid tokens NaN / Infinity.
    return json.dumps(finite(result).as_json(), indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"
