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


def _column_blocks(widths: list[int], width: int | None) -> list[list[int]]:
    """The columns of each block of a table laid out within ``width`` characters: all of them
    when they fit (or no width is asked), else the first column (the row's key) followed by as
    many further columns as fit, block after block (a column wider than the rest of the line
    still gets a block of its own)."""
    every = list(range(len(widths)))
    if width is None or sum(widths) + 2 * (len(widths) - 1) <= width or len(widths) < 3:
        return [every]
    blocks: list[list[int]] = []
    block = [0]
    used = widths[0]
    for i in every[1:]:
        if len(block) > 1 and used + 2 + widths[i] > width:
            blocks.append(block)
            block, used = [0], widths[0]
        block.append(i)
        used += 2 + widths[i]
    blocks.append(block)
    return blocks


def _wrap_last(rows: list[list[str]], room: int) -> list[list[str]]:
    """The rows with each last cell longer than ``room`` broken into lines (header first)."""
    import textwrap  # only a wide table needs it

    out = [rows[0]]
    for row in rows[1:]:
        pieces = textwrap.wrap(row[-1], room, break_on_hyphens=False) or [""]
        out.append([*row[:-1], pieces[0]])
        out.extend([*([""] * (len(row) - 1)), piece] for piece in pieces[1:])
    return out


def text_table(table: Table, width: int | None = None) -> str:
    """Columns padded to their widest cell, a rule under the header, notes below. With
    ``width``, a table wider than that is printed as blocks of columns, each repeating the
    first column (pandas' layout of a wide frame), one blank line between blocks; a last
    column still too wide wraps its cells, and a long caption wraps.

    >>> t = Table(["k", "a" * 6, "b" * 6], [["1", "x", "y"]])
    >>> print(text_table(t, 12))
    k  aaaaaa
    -  ------
    1  x
    <BLANKLINE>
    k  bbbbbb
    -  ------
    1  y
    """
    cells = [table.columns, *table.rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]
    lines = [] if not table.caption else (
        [table.caption] if width is None else wrap_line(table.caption, width))
    for n, block in enumerate(_column_blocks(widths, width)):
        if n:
            lines.append("")
        part = [[row[i] for i in block] for row in cells]
        w = [widths[i] for i in block]
        room = None if width is None else width - sum(w[:-1]) - 2 * (len(w) - 1)
        if room is not None and w[-1] > room >= 20:
            # the last column alone is too wide: its cells wrap within the room left, their
            # continuation lines under it (the other cells blank)
            part, w[-1] = _wrap_last(part, room), room
        rows = ["  ".join(c.ljust(x) for c, x in zip(row, w, strict=True)).rstrip()
                for row in part]
        rows.insert(1, "  ".join("-" * x for x in w))
        lines.extend(rows)
    lines.extend(table.notes)
    return "\n".join(lines)


def render_text(result: Result, width: int | None = None) -> str:
    """The result as plain text: summary, table, conventions ``[key] text``, notes ``note: …``.
    With ``width``, each summary, convention and note line and each of the table's notes
    longer than ``width`` is wrapped by :func:`wrap_line`, and a table wider than ``width`` is
    printed in blocks of columns (:func:`text_table`); without it, every line is printed
    whole."""
    result = finite(result)

    def lines(texts: list[str]) -> list[str]:
        return texts if width is None else [w for t in texts for w in wrap_line(t, width)]

    parts = lines(list(result.summary))
    if result.table is not None:
        parts.append("")
        table = result.table if width is None else result.table.replace(
            notes=lines(result.table.notes))
        parts.append(text_table(table, width))
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
