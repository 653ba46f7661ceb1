"""The conventions of research software: a licence, a citation that names the version, a
changelog whose old → new module table is true, and the typed-package marker."""

from __future__ import annotations

import importlib
import importlib.util
import re
import tomllib

from layout import PKG, ROOT

import fltheory


def test_citation_names_this_version_and_licence():
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^version: "(.+)"$', text, re.M).group(1) == fltheory.__version__
    assert re.search(r"^license: (.+)$", text, re.M).group(1) == "MIT"
    assert text.startswith("cff-version: 1.2.0\n")


def test_licence_file_matches_the_metadata():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["license"] == "MIT"  # an SPDX expression (setuptools >= 77)
    assert any(r.startswith("setuptools>=77") for r in meta["build-system"]["requires"])
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_typed_marker_is_shipped():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert (PKG / "py.typed").is_file()
    assert "py.typed" in meta["tool"]["setuptools"]["package-data"]["fltheory"]


def test_changelog_maps_every_old_module_to_one_that_exists():
    rows = re.findall(r"^\| `(fltheory[\w.]*)` \| `(fltheory[\w.]*)` \|$",
                      (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert len(rows) >= 70
    for old, new in rows:
        assert importlib.util.find_spec(new) is not None, new
        try:
            gone = importlib.util.find_spec(old) is None
        except ModuleNotFoundError:  # its parent package is gone too
            gone = True
        assert gone or old == new, f"{old} still imports"
    assert len({new for _, new in rows}) == len(rows)
