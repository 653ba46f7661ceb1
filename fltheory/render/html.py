"""HTML rendering of a :class:`~fltheory.results.Table`, for notebooks (``_repr_html_``)."""

from __future__ import annotations

from html import escape

from fltheory.results import Result, Table, finite

__all__ = ["html_table"]


def html_table(table: Table) -> str:
    """A ``<table>`` with the caption, the plain-text cells (escaped) and the notes.

    >>> from fltheory.results import Table
    >>> print(html_table(Table(columns=["k", "μ_k"], rows=[["1", "1/2"]], caption="a < b")))
    <table>
    <caption>a &lt; b</caption>
    <thead><tr><th>k</th><th>μ_k</th></tr></thead>
    <tbody>
    <tr><td>1</td><td>1/2</td></tr>
    </tbody>
    </table>
    """
    checked = finite(Result("table", {}, None, table=table)).table  # no nan in a cell
    assert checked is not None
    lines = ["<table>"]
    if checked.caption:
        lines.append(f"<caption>{escape(checked.caption)}</caption>")
    lines.append("<thead><tr>" + "".join(f"<th>{escape(c)}</th>" for c in checked.columns)
                 + "</tr></thead>")
    lines.append("<tbody>")
    lines += ["<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
              for row in checked.rows]
    lines.append("</tbody>")
    lines.append("</table>")
    lines += [f"<p>{escape(note)}</p>" for note in checked.notes]
    return "\n".join(lines)
