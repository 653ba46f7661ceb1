"""ruff and mypy, configured in pyproject.toml, are part of the suite."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from layout import ROOT


@pytest.mark.parametrize("tool", [["ruff", "check", "."], ["mypy"]])
def test_tool_passes(tool):
    if shutil.which(tool[0]) is None:
        pytest.skip(f"{tool[0]} not installed (it is in the [test] extra)")
    p = subprocess.run([sys.executable, "-m", *tool], cwd=ROOT, capture_output=True, text=True,
                       check=False)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
