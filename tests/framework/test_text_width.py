"""Text output fits 100 columns (issue 37, item 7): summary, conventions and notes wrap
(``wrap_line``), and a table wider than the line is printed in blocks of columns that repeat
its first column, a last column still too wide wrapping its cells (``text_table``)."""

from __future__ import annotations

import pytest

from fltheory.render.text import WIDTH, text_table
from fltheory.results import Table


def test_a_wide_table_is_split_into_blocks_that_repeat_the_key_column():
    columns = ["α", *(f"column {i}" + "x" * 20 for i in range(6))]
    rows = [[str(a), *(f"{a * i:.6f}" for i in range(6))] for a in (1, 2, 3)]
    out = text_table(Table(columns, rows, caption="a caption"), 80)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert lines[0] == "a caption"
    blocks = [b.splitlines() for b in "\n".join(lines[1:]).split("\n\n")]
    assert len(blocks) > 1
    # every block: header, rule, one line per row, the key column first; every column once
    seen = []
    for block in blocks:
        assert len(block) == 2 + len(rows) and block[0].startswith("α  ")
        assert [line.split()[0] for line in block[2:]] == ["1", "2", "3"]
        seen += [c for c in columns[1:] if c in block[0]]
    assert seen == columns[1:]
    # without a width (and when it fits) the table is one block, as before
    assert "\n\n" not in text_table(Table(columns, rows))
    assert text_table(Table(columns[:2], rows[:1]), 80).count("\n") == 2


def test_a_last_column_too_wide_wraps_its_cells_under_itself():
    text = "word " * 40
    out = text_table(Table(["k", "why"], [["1", text.strip()], ["2", "short"]]), 60)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 60
    assert lines[2].startswith("1  word") and lines[3].startswith("   word")
    assert " ".join(line[3:].strip() for line in lines[2:-1]) == text.strip()
    assert lines[-1] == "2  short"


@pytest.mark.parametrize("argv", [
    ("lambda", "--a1", ".4", "--a2", ".3", "--sigma", "tanh"),   # was 114 columns
    ("link", "--g", "He4"),                                         # caption 114
    ("twostep", "learn", "--target", "He1", "--target", "He3", "--a1", ".45", "--a2", ".3",
     "--batch", "reused"),                                          # was 130
])
def test_examples_that_were_wide_now_fit(invoke, argv):
    r = invoke(*argv)
    assert r.exit_code == 0, r.stderr
    assert max(len(line) for line in r.stdout.splitlines()) <= WIDTH
