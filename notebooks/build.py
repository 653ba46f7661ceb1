"""Write and execute the notebooks (run from the repository root: python notebooks/build.py).

The notebooks use the public API only; their committed outputs are what this script produced.
Each paper declares its notebook's cells (``Paper.notebook``, in ``fltheory.papers.<key>.views``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from fltheory.papers import load, papers

HERE = Path(__file__).resolve().parent


def build(name: str, cells: list[tuple[str, str]], out_dir: Path | str | None = None) -> Path:
    """Execute the notebook of ``cells`` and write it as ``<name>.ipynb`` in ``out_dir`` (default
    this directory, notebooks/; created if missing). Returns the path written."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell(src) if kind == "markdown"
                else nbformat.v4.new_code_cell(src) for kind, src in cells]
    NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    directory = HERE if out_dir is None else Path(out_dir)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def notebooks() -> dict[str, list[tuple[str, str]]]:
    """Paper key -> the cells of its notebook, as the papers declare them (fltheory.papers)."""
    return {p.key: load(p.notebook) for p in papers() if p.notebook is not None}


if __name__ == "__main__":
    declared = notebooks()
    for name in sys.argv[1:] or list(declared):
        if name not in declared:
            sys.exit(f"build.py: no paper declares a notebook {name!r}: one of {', '.join(declared)}")
        print("wrote", build(name, declared[name]))
