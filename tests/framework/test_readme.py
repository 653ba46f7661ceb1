"""README opens with the two commands, and CI runs exactly the README's test command."""

from __future__ import annotations

from layout import ROOT


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_readme_opens_with_two_commands():
    main_job, tests = _readme_commands()
    assert main_job.startswith("pip install") and "fltheory verify" in main_job
    assert tests.startswith("pip install") and tests.endswith(("pytest", "pytest -n auto"))


def test_ci_runs_the_readme_test_command():
    _, tests = _readme_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci


def test_readme_python_examples_run():
    """Every ```python block of the README's "Python API" section runs (the API's first
    examples; other sections show code that needs a cluster)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    text = text.split("## Python API", 1)[1].split("\n## ", 1)[0]
    blocks = [part.split("```", 1)[0] for part in text.split("```python\n")[1:]]
    assert blocks
    for block in blocks:
        namespace: dict[str, object] = {}
        exec(compile(block, "README.md", "exec"), namespace)


def test_docs_install_page_has_the_readme_commands():
    """The site's install page shows the README's two commands verbatim."""
    page = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    block = page.split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line for line in block.splitlines() if line.strip()] == _readme_commands()
