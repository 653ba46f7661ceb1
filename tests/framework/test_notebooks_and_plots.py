"""Notebooks execute without error through the public API; figures are written atomically."""

from __future__ import annotations

import pytest
from layout import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_executes(path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.output_type == "error"]
    assert not errors
    images = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if "image/png" in o.get("data", {})]
    assert images, "a notebook reproduces a figure"


@pytest.mark.parametrize("name", ["lambda", "fisher", "twostep", "quadratic"])
def test_plot_writes_a_figure(invoke, tmp_path, name):
    pytest.importorskip("matplotlib")
    out = tmp_path / f"{name}.png"
    r = invoke("plot", name, "-o", str(out))
    assert r.exit_code == 0, r.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


def test_plot_bad_input(invoke, tmp_path):
    for args in (["nosuch", "-o", str(tmp_path / "x.png")], ["lambda", "-o",
                                                             str(tmp_path / "x.txt")]):
        r = invoke("plot", *args)
        assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert not list(tmp_path.iterdir())
