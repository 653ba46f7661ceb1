"""Text output wraps its summary, conventions and notes at 100 columns (continuation lines
indented by four spaces: fltheory.render.text.wrap_line); tests that look for a phrase read the
text with each wrapped line joined back."""

from __future__ import annotations

import re

__all__ = ["unwrap"]


def unwrap(text: str) -> str:
    """``text`` with every continuation line (four spaces, then a non-space) joined to the line
    before it by one space.

    >>> unwrap("[a] one two\\n    three\\nnext")
    '[a] one two three\\nnext'
    """
    return re.sub(r"\n    (?=\S)", " ", text)
