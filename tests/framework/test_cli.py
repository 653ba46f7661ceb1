"""The CLI as a user meets it: formats, the shared JSON shape, and bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

JSON_KEYS = {"command", "fltheory_version", "inputs", "value", "numeric", "conventions",
             "details", "table", "notes"}


def test_lambda_text(invoke):
    r = invoke("lambda", "--a1", ".4", "--a2", ".3")
    assert r.exit_code == 0
    assert "Λ(α1 = 2/5, α2 = 3/10; L = inf) = 3" in r.stdout
    assert "1 + Λ = 4" in r.stdout
    assert "boundary case" in r.stdout


def test_lambda_json_shape(invoke):
    r = invoke("lambda", "--a1", ".45", "--a2", ".3", "--format", "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert set(data) == JSON_KEYS
    assert data["value"] == 6 and data["inputs"]["a1"] == "9/20"
    assert data["details"]["boundary"] is True and data["details"]["boundary_k"] == 6
    assert [e["exponent"] for e in data["details"]["exponents"]][:2] == ["1/4", "1/5"]


def test_lambda_json_not_boundary_and_L(invoke):
    data = json.loads(invoke("lambda", "--a1", "2/5", "--a2", "1/4", "-L", "2",
                             "--format", "json").stdout)
    assert data["value"] == 1 and data["details"]["boundary"] is False
    assert data["inputs"]["L"] == "2"
    assert any("capped" in n for n in data["notes"])


def test_lambda_one_step_regime(invoke):
    data = json.loads(invoke("lambda", "--a1", ".1", "--a2", ".2", "--format", "json").stdout)
    assert data["value"] == 0 and data["details"]["one_step_equivalent"] is True


def test_lambda_latex(invoke):
    r = invoke("lambda", "--a1", ".4", "--a2", ".3", "--format", "latex")
    assert r.exit_code == 0
    assert r"\Lambda(\alpha_1 = \tfrac{2}{5}, \alpha_2 = \tfrac{3}{10}) = 3" in r.stdout
    assert r"\toprule" in r.stdout and r"\bottomrule" in r.stdout


@pytest.mark.parametrize(
    ("args", "param"),
    [(["--a1", ".5", "--a2", ".3"], "a1"), (["--a1", "-.1", "--a2", ".3"], "a1"),
     (["--a1", "nan", "--a2", ".3"], "a1"), (["--a1", "abc", "--a2", ".3"], "a1"),
     (["--a1", ".1", "--a2", "0.5"], "a2"), (["--a1", ".1", "--a2", "1/0"], "a2"),
     (["--a1", ".1", "--a2", ".2", "-L", "0"], "L"), (["--a1", ".1", "--a2", ".2", "-L", "x"], "L"),
     (["--a1", ".1", "--a2", ".2", "--dps", "0"], "dps"),
     (["--a2", ".3"], "--a1"), (["--a1", ".1", "--a2", ".2", "--format", "xml"], "--format"),
     (["--a1", ".1", "--a2", ".2", "--bogus"], "--bogus")],
)
def test_bad_input_is_one_line_exit_2(invoke, args, param):
    r = invoke("lambda", *args)
    assert r.exit_code == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fltheory: error: ")
    assert param in lines[0]
    assert "Traceback" not in r.stderr


def test_unknown_command_and_claim(invoke):
    assert invoke("lamda").exit_code == 2
    r = invoke("verify", "nosuchpaper")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "claim = nosuchpaper" in r.stderr


def test_real_process_bad_input():
    """Through the installed entry point in a real process: exit 2, one line, no traceback."""
    p = subprocess.run([sys.executable, "-m", "fltheory", "lambda", "--a1", "0.5", "--a2", ".1"],
                       capture_output=True, text=True, check=False)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "fltheory: error: a1 = 1/2 is outside the allowed range [0, 1/2)\n"


def test_help_lists_commands(invoke):
    r = invoke("--help")
    assert r.exit_code == 0
    for name in ("lambda", "table", "verify"):
        assert name in r.stdout


def test_table_writes_file_and_leaves_nothing_on_error(invoke, tmp_path):
    out = tmp_path / "sub" / "l.tex"
    r = invoke("table", "lambda", "-o", str(out))
    assert r.exit_code == 0 and out.read_text().startswith(r"\begin{table}")
    r = invoke("table", "nosuch", "-o", str(tmp_path / "x.tex"))
    assert r.exit_code == 2 and not (tmp_path / "x.tex").exists()
    assert os.listdir(out.parent) == ["l.tex"]  # no temporary file left behind


def test_verify_text_and_json(invoke):
    r = invoke("verify", "twostep.lambda")
    assert r.exit_code == 0
    assert "twostep.lambda" in r.stdout and "inconclusive" in r.stdout
    data = json.loads(invoke("verify", "twostep.lambda", "--format", "json").stdout)
    assert set(data) == JSON_KEYS
    run = next(c for c in data["details"]["claims"] if c["id"] == "twostep.lambda")
    assert run["status"] == "inconclusive" and "feasible N" in run["reason"]


@pytest.mark.parametrize("C", ["0", "-1"])
def test_api_error_names_the_option(invoke, C):
    """`recovery law --C`: the message names the option the user typed."""
    r = invoke("recovery", "law", "--gamma", "3/2", "--C", C)
    assert r.exit_code == 2
    assert r.stderr.startswith(f"fltheory: error: C = {C} ")
