"""Hard edges of input and output (issue 13): strictly valid JSON, no NaN printed as a number,
--list everywhere it is advertised, files written like a Unix tool (umask, regular files only,
one line on a bad path), every numeric option through the exact parser, one --dps bound, and a
CLI root that never shows a traceback."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from layout import ROOT

from fltheory.cli.options import CountType, RationalType
from fltheory.exact import MAX_DPS, MIN_DPS, DomainError, check_dps
from fltheory.render import render_json, render_latex, render_text, tabular
from fltheory.results import NonFiniteResult, Result, Table, finite


def _strict_json(text: str) -> object:
    """json.loads with allow_nan=False semantics: NaN / Infinity / -Infinity are refused."""

    def refuse(token: str) -> object:
        raise ValueError(f"invalid JSON constant {token}")

    return json.loads(text, parse_constant=refuse)


def _one_line_error(r, status: int = 2, *words: str) -> str:
    assert r.exit_code == status, (r.exit_code, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _run(*args: str, env: dict[str, str] | None = None, timeout: float = 120,
         **kw) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                          text=True, timeout=timeout, env=full_env, check=False, **kw)


# --- 1. non-finite numbers: one rule (fltheory.results.finite), every renderer ----------------

def test_strict_json_helper_can_fail():
    with pytest.raises(ValueError, match="NaN"):
        _strict_json('{"se": NaN}')


@pytest.mark.parametrize("render", [render_json, render_text, render_latex])
@pytest.mark.parametrize(("field", "bad"), [
    ("value", {"mean": float("nan")}), ("value", [1.0, float("inf")]),
    ("numeric", "nan"), ("details", {"drift": float("-inf")}), ("details", {"x": "+inf"}),
    ("details", {"rows": [{"mu": "nan"}]}),
])
def test_non_finite_number_is_never_printed(render, field, bad):
    result = Result("demo", {"a": "1"}, **{"value": 1, field: bad})
    with pytest.raises(NonFiniteResult, match=field):
        render(result)


def test_non_finite_in_table_cell_or_summary_is_refused():
    table = Table(columns=["k", "μ"], rows=[["0", "0.5"], ["1", "nan"]])
    with pytest.raises(NonFiniteResult, match=r"table\.rows\[1\]\[1\]"):
        tabular(table)
    with pytest.raises(NonFiniteResult, match="summary"):
        render_text(Result("demo", {}, value=1, summary=["E[f²] = nan"]))


def test_prose_and_inputs_may_say_nan_and_inf():
    """'NaN' in prose and L = inf (an answer, not a float) are not non-finite numbers."""
    result = Result("demo", {"L": "inf"}, value={"L": 3},
                    summary=["Λ(α1 = 2/5, α2 = 3/10; L = inf) = 3"],
                    conventions={"aggregate": "NaN runs counted apart"},
                    details={"runs": [{"error": "ValueError: cannot convert nan to ratio"}]},
                    notes=["a nan note"])
    assert _strict_json(render_json(result))["inputs"] == {"L": "inf"}
    assert "L = inf" in render_text(result)


def test_declared_undefined_field_is_null_with_a_note():
    result = Result("demo", {}, value=[{"mean": 0.5, "se": float("nan")}],
                    table=Table(columns=["mean"], rows=[["nan"]]),
                    undefined={"value.*.se": "one seed: no standard error",
                               "table.rows.*.*": "no finite run"})
    data = _strict_json(render_json(result))
    assert data["value"] == [{"mean": 0.5, "se": None}]
    assert "null = undefined at value.*.se: one seed: no standard error" in data["notes"]
    assert "undefined" in render_text(result).splitlines()[2]  # the cell, not "nan"
    assert finite(result).value[0]["mean"] == 0.5
    # the declaration is per field: the mean is not covered by it
    bad = Result("demo", {}, value=[{"mean": float("nan")}], undefined={"value.*.se": "x"})
    with pytest.raises(NonFiniteResult, match=r"value\[0\]\.mean"):
        render_json(bad)


def test_non_finite_result_through_the_cli_is_an_internal_error_exit_1(monkeypatch, invoke):
    """A NaN that reaches emit(): nothing on stdout, one line naming the field, exit 1."""
    import fltheory.papers.twostep.cli as twostep

    real = twostep.lambda_result

    def broken(*args):
        result = real(*args)
        result.details["ratio_numeric"] = float("nan")
        return result

    monkeypatch.setattr(twostep, "lambda_result", broken)
    for fmt in ("json", "text", "latex"):
        r = invoke("lambda", "--a1", ".4", "--a2", ".3", "--format", fmt)
        line = _one_line_error(r, 1, "internal error", "NonFiniteResult",
                               "details.ratio_numeric")
        assert r.stdout == "" and "FLTHEORY_DEBUG=1" in line


def test_sweep_one_seed_prints_no_nan(tmp_path):
    """The issue's example (`sweep … --seeds 0 --format json` gave "se": NaN)."""
    p = _run("sweep", "check.normal", "--seeds", "0", "--no-cache", "--workers", "1",
             "--format", "json", env={"FLTHEORY_CACHE": str(tmp_path / "runs.sqlite")})
    if p.returncode == 0:  # once the sweep marks the undefined s.e. (null)
        data = _strict_json(p.stdout)
        assert data["value"][0]["metrics"]["mean"]["se"] is None
    else:  # the NaN reached the renderer: refused, named, exit 1
        assert p.returncode == 1 and p.stdout == ""
        assert p.stderr.count("\n") == 1 and "se" in p.stderr


@pytest.mark.parametrize("args", [
    ["lambda", "--a1", ".4", "--a2", ".3"], ["lambda", "--a1", ".45", "--a2", ".3", "-L", "3"],
    ["phase", "--a1", ".3"], ["hermite", "relu", "-K", "4"], ["exponent", "He3"],
    ["fisher", "--d", "5"], ["threshold", "--d", "30", "--q", "2", "--gamma", "1"],
    ["recovery", "law", "--gamma", "1"], ["quadratic", "equations", "--p", "2", "--p-star", "1"],
    ["verify", "--list"], ["table", "--list"], ["plot", "--list"],
    ["verify", "twostep.lambda"],
])
def test_every_json_output_is_strict(invoke, args):
    r = invoke(*args, "--format", "json")
    assert r.exit_code == 0, r.stderr
    data = _strict_json(r.stdout)
    assert isinstance(data, dict) and "value" in data


# --- 2. --list and --format json ---------------------------------------------------------------

def test_verify_list_json(invoke):
    r = invoke("verify", "--list", "--format", "json")
    assert r.exit_code == 0
    data = _strict_json(r.stdout)
    ids = [c["claim"] for c in data["value"]]
    assert "twostep.lambda" in ids and all(c["statement"] for c in data["value"])
    text = invoke("verify", "--list").stdout.splitlines()  # text stays one claim per line
    assert [line.split("\t")[0] for line in text] == ids


@pytest.mark.parametrize(("command", "module", "registry"), [
    ("table", "fltheory.render.tables", "table_names"),
    ("plot", "fltheory.render.plots", "figure_names")])
def test_table_and_plot_list(invoke, command, module, registry):
    import importlib

    names = getattr(importlib.import_module(module), registry)()
    r = invoke(command, "--list")
    assert r.exit_code == 0 and r.stdout.splitlines() == names
    data = _strict_json(invoke(command, "--list", "--format", "json").stdout)
    assert data["command"] == command and data["value"] == names
    assert "--list" in invoke(command, "--help").stdout


def test_table_and_plot_name_errors(invoke):
    _one_line_error(invoke("table"), 2, "NAME")
    _one_line_error(invoke("plot"), 2, "NAME")
    _one_line_error(invoke("table", "nosuch"), 2, "NAME = nosuch")
    _one_line_error(invoke("plot", "nosuch"), 2, "NAME = nosuch")
    _one_line_error(invoke("table", "lambda", "--format", "json"), 2, "format")


# --- 3. files: umask, regular files only, one line on a bad path, nothing left behind ----------

@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_table_file_mode_follows_the_umask(invoke, tmp_path, umask):
    old = os.umask(umask)
    try:
        out = tmp_path / "new" / "l.tex"
        r = invoke("table", "lambda", "-o", str(out))
    finally:
        os.umask(old)
    assert r.exit_code == 0, r.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE(out.parent.stat().st_mode) == 0o777 & ~umask


def test_plot_file_mode_follows_the_umask_and_a_failed_draw_leaves_nothing(monkeypatch, invoke,
                                                                          tmp_path):
    """The second atomic writer (plot's savefig) goes through the same helper."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import fltheory.render.plots as plots

    monkeypatch.setattr(plots, "make_figure", lambda name: plt.figure(figsize=(1, 1)))
    old = os.umask(0o027)
    try:
        out = tmp_path / "figs" / "l.png"
        r = invoke("plot", "lambda", "-o", str(out))
    finally:
        os.umask(old)
    assert r.exit_code == 0, r.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.read_bytes()[:4] == b"\x89PNG"

    class Broken:
        def savefig(self, *args, **kw):
            Path(args[0]).write_bytes(b"partial")
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(plots, "make_figure", lambda name: Broken())
    out2 = tmp_path / "new" / "l.pdf"
    _one_line_error(invoke("plot", "lambda", "-o", str(out2)), 2, "No space left on device")
    assert _listing(tmp_path) == ["figs"] and _listing(tmp_path / "figs") == ["l.png"]


def test_replacing_a_file_keeps_its_mode(invoke, tmp_path):
    out = tmp_path / "l.tex"
    out.write_text("old")
    out.chmod(0o640)
    assert invoke("table", "lambda", "-o", str(out)).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert out.read_text().startswith(r"\begin{table}")


def test_writing_through_a_symlink_writes_its_target(invoke, tmp_path):
    target = tmp_path / "real.tex"
    target.write_text("old")
    link = tmp_path / "link.tex"
    link.symlink_to(target)
    assert invoke("table", "lambda", "-o", str(link)).exit_code == 0
    assert link.is_symlink() and target.read_text().startswith(r"\begin{table}")


def _listing(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir())


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_refuses_a_target_that_is_not_a_regular_file(invoke, tmp_path, kind):
    if kind == "directory":
        target = tmp_path / "d"
        target.mkdir()
    elif kind == "fifo":
        target = tmp_path / "f"
        os.mkfifo(target)
    else:
        # a private twin of /dev/full (char 1, 7): as root, the old writer's os.replace put a
        # regular file in place of the device -- if this test ever fails it harms only a copy
        target = tmp_path / "full"
        try:
            os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        except (PermissionError, OSError):
            pytest.skip("cannot create a device node here")
    before = _listing(target.parent)
    r = invoke("table", "lambda", "-o", str(target))
    _one_line_error(r, 2, f"output = {target}", f"is a {kind}")
    assert _listing(target.parent) == before
    if kind == "device":
        assert stat.S_ISCHR(target.stat().st_mode)


def test_plot_refuses_a_directory_named_like_a_figure_before_drawing(invoke, tmp_path):
    target = tmp_path / "fig.pdf"
    target.mkdir()
    _one_line_error(invoke("plot", "lambda", "-o", str(target)), 2, "is a directory")
    assert _listing(tmp_path) == ["fig.pdf"]


@pytest.mark.parametrize("path", ["/proc/nope/t.tex", "/proc/t.tex"])
def test_unwritable_path_is_one_line_exit_2(invoke, path):
    """The issue's example (a traceback before): the path and the reason, nothing else."""
    _one_line_error(invoke("table", "lambda", "-o", path), 2, f"output = {path}",
                    "cannot be written")


def test_parent_that_is_a_file(invoke, tmp_path):
    (tmp_path / "file").write_text("x")
    out = tmp_path / "file" / "t.tex"
    _one_line_error(invoke("table", "lambda", "-o", str(out)), 2, "Not a directory")
    assert _listing(tmp_path) == ["file"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores permissions")
def test_permission_denied(invoke, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        _one_line_error(invoke("table", "lambda", "-o", str(locked / "t.tex")), 2,
                        "Permission denied")
    finally:
        locked.chmod(0o700)
    assert _listing(locked) == []


def test_write_error_midway_leaves_nothing(monkeypatch, tmp_path):
    """A full disk (ENOSPC) while writing: one DomainError naming the path; no temporary file
    and no directory created for it remain."""
    import errno

    from fltheory.cli import options

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    out = tmp_path / "a" / "b" / "t.tex"
    with pytest.raises(DomainError, match="No space left on device"):
        options.write_atomically(out, "text")
    assert _listing(tmp_path) == []


def test_read_only_file_system_is_one_line(monkeypatch, invoke, tmp_path):
    """EROFS when the temporary file is created (a read-only mount): one line naming the path,
    not the temporary file's name, and nothing left behind."""
    import errno
    import tempfile

    def read_only(*args, dir=None, prefix="", **kw):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.path.join(dir, prefix + "x"))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    out = tmp_path / "ro" / "t.tex"
    line = _one_line_error(invoke("table", "lambda", "-o", str(out)), 2, f"output = {out}",
                           "Read-only file system")
    assert ".tmp" not in line and ".t.tex." not in line
    assert _listing(tmp_path) == []


def test_write_to_dev_full_through_stdout_is_one_line():
    """`table lambda -o -` into a full device: the OS error, one line, no traceback."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "fltheory", "table", "lambda", "-o", "-"],
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
                           env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr == ("fltheory: error: the output could not be written: "
                        "No space left on device\n")


# --- 4. the CLI root: numbers, internal errors, memory, pipes ----------------------------------

BIG = "1" * 5000


@pytest.mark.parametrize(("args", "param", "why"), [
    (["fisher", "--d", BIG], "d", "too many digits"),
    (["fisher", "--d", "1e4000"], "d", "beyond double precision"),
    (["fisher", "--d", "5", "--lmax", "1e400"], "lmax", "beyond double precision"),
    (["lambda", "--a1", ".4", "--a2", ".3", "-L", BIG], "L", "too many digits"),
    (["lambda", "--a1", ".4", "--a2", ".3", "-L", "1e4000"], "L", "beyond double precision"),
    (["lambda", "--a1", "1e-400", "--a2", ".3"], "a1", "beyond double precision"),
    (["lambda", "--a1", ".4", "--a2", BIG], "a2", "too many digits"),
    (["lambda", "--a1", ".4", "--a2", "1e4000"], "a2", "beyond double precision"),
    (["lambda", "--a1", ".4", "--a2", "x" * 100000], "a2", "is not a number"),
    (["verify", "--seed", "1e4000", "--list"], "seed", "outside the allowed range"),
])
def test_every_numeric_option_goes_through_the_exact_parser(invoke, args, param, why):
    line = _one_line_error(invoke(*args), 2, f"{param} = ", why)
    assert len(line) < 300  # the 5000-digit value is not echoed


def test_option_types_refuse_out_of_range_and_oversize():
    with pytest.raises(DomainError, match="beyond double precision"):
        RationalType().convert("1e309", None, None)
    with pytest.raises(DomainError, match="too many digits"):
        CountType().convert(BIG, None, None)
    with pytest.raises(DomainError, match="beyond double precision"):
        CountType(allow_inf=True).convert("1e4000", None, None)
    assert CountType(allow_inf=True).convert("inf", None, None).__class__.__name__ == "Infinity"
    assert RationalType().convert("1e-300", None, None) == Fraction(1, 10**300)
    with pytest.raises(DomainError, match=r"\[1, 3\]"):
        CountType(maximum=3).convert("4", None, None)


def test_internal_error_is_one_line_exit_1_and_debug_shows_traceback(monkeypatch, invoke):
    import fltheory.papers.twostep.cli as twostep

    def boom(*args):
        raise KeyError("surprise\nsecond line")

    monkeypatch.setattr(twostep, "lambda_result", boom)
    r = invoke("lambda", "--a1", ".4", "--a2", ".3")
    line = _one_line_error(r, 1)
    assert line.startswith("fltheory: internal error: KeyError: ")
    assert "second line" in line and line.endswith(
        "(please report; FLTHEORY_DEBUG=1 shows the traceback)")
    monkeypatch.setenv("FLTHEORY_DEBUG", "1")
    with pytest.raises(KeyError, match="surprise"):
        invoke("lambda", "--a1", ".4", "--a2", ".3")


def test_memory_error_is_exit_2_keyboard_interrupt_130(monkeypatch, invoke):
    import fltheory.papers.twostep.cli as twostep

    def hungry(*args):
        raise MemoryError

    monkeypatch.setattr(twostep, "lambda_result", hungry)
    _one_line_error(invoke("lambda", "--a1", ".4", "--a2", ".3"), 2, "too large", "memory")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(twostep, "lambda_result", interrupted)
    r = invoke("lambda", "--a1", ".4", "--a2", ".3")
    assert r.exit_code == 130 and "Traceback" not in r.stderr


def test_int_str_limit_is_a_refused_request(monkeypatch, invoke):
    """A result too long to print exactly (Python's 4300-digit int-to-str limit): exit 2."""
    import fltheory.papers.twostep.cli as twostep

    real = twostep.lambda_result

    def huge(*args):
        result = real(*args)
        result.value = 10**5000
        return result

    monkeypatch.setattr(twostep, "lambda_result", huge)
    _one_line_error(invoke("lambda", "--a1", ".4", "--a2", ".3", "--format", "json"), 2,
                    "too large", "4300 digits")


def test_broken_pipe_is_a_quiet_exit():
    """`fltheory hermite relu | head -1`: the reader is gone before the output is written."""
    proc = subprocess.Popen([sys.executable, "-m", "fltheory", "lambda", "--a1", ".4", "--a2",
                             ".3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141
    assert err == b""


def test_real_process_internal_error_and_debug():
    """Through a real process: an exception the CLI does not expect is one line, exit 1; with
    FLTHEORY_DEBUG=1 the traceback."""
    code = ("import sys, fltheory.papers.twostep.cli as t\n"
            "def boom(*a):\n    raise RuntimeError('bug')\n"
            "t.lambda_result = boom\n"
            "from fltheory.cli import main\n"
            "main(['lambda', '--a1', '.4', '--a2', '.3'])\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=60, check=False)
    assert p.returncode == 1 and p.stderr.startswith(
        "fltheory: internal error: RuntimeError: bug (please report;")
    assert p.stderr.count("\n") == 1
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**env, "FLTHEORY_DEBUG": "1"}, timeout=60, check=False)
    assert p.returncode == 1 and "Traceback" in p.stderr and "RuntimeError: bug" in p.stderr


# --- 5. one --dps bound, enforced by the option type ---------------------------------------------

@pytest.mark.parametrize("command", [
    ["lambda", "--a1", ".4", "--a2", ".3"], ["phase", "--a1", ".3"], ["hermite", "relu"],
    ["exponent", "He3"], ["fisher", "--d", "5"], ["threshold", "--d", "30"],
    ["recovery", "law", "--gamma", "1"],
])
@pytest.mark.parametrize("dps", [str(MIN_DPS - 1), str(MAX_DPS + 1), "1e4000", BIG])
def test_dps_bound_is_the_same_for_every_command(invoke, command, dps):
    _one_line_error(invoke(*command, "--dps", dps), 2, "dps = ",
                    f"[{MIN_DPS}, {MAX_DPS}]")


@pytest.mark.parametrize("command", [["lambda"], ["hermite"], ["fisher"], ["threshold"]])
def test_dps_bound_is_stated_in_help(invoke, command):
    help_text = " ".join(invoke(*command, "--help").stdout.split())
    assert f"{MIN_DPS} to {MAX_DPS}" in help_text


def test_dps_bound_ends_are_accepted(invoke):
    for dps in (MIN_DPS, MAX_DPS):
        r = invoke("lambda", "--a1", ".4", "--a2", ".3", "--dps", str(dps), "--format", "json")
        assert r.exit_code == 0 and _strict_json(r.stdout)["inputs"]["dps"] == dps
    assert check_dps(MAX_DPS) == MAX_DPS
    with pytest.raises(DomainError):
        check_dps(MAX_DPS + 1)


def test_verify_empty_selector_is_refused(invoke):
    """Found by benchmarks/fuzz_cli.py: `verify ''` ran every claim (minutes) as if no selector
    had been given."""
    r = invoke("verify", "")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "claim = ''" in r.stderr
