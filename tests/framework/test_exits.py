"""How a command's process ends for an answer it could not confirm (fltheory.exact.Unconfirmed,
e.g. the GLM's NotConverged): one line 'fltheory: error: ...' and exit status 2, as for a
refused input — not an internal error asking for a bug report (exit 1)."""

from __future__ import annotations

import subprocess
import sys


def test_an_unconfirmed_answer_is_one_line_and_exit_2():
    code = ("from fltheory.cli.exits import exit_for\n"
            "from fltheory.papers.glm.theory import NotConverged\n"
            "exit_for(NotConverged('state evolution at alpha = 1.49 did not converge in 5\\n"
            "iterations'))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr == ("fltheory: error: state evolution at alpha = 1.49 did not converge in "
                        "5 iterations\n")


def test_any_other_arithmetic_error_is_still_internal():
    code = "from fltheory.cli.exits import exit_for\nexit_for(ArithmeticError('boom'))\n"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 1
    assert p.stderr.startswith("fltheory: internal error: ArithmeticError: boom")
