"""Issue 13 (hard edges) for the two-step commands: every argument that sets the work is bounded
before the work starts, values beyond float range are one-line errors, and the public
theory/sim functions validate their arguments. (The recovery/threshold edges are in
tests/papers/recovery, the Fisher ones in tests/papers/fisher.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest
from layout import ROOT

from fltheory.exact import DomainError


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess with a time bound: a regression that hangs fails, not hangs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, check=False)


def _refused(result: object, param: str) -> None:
    """Exit 2, exactly one line on stderr, naming the parameter, no traceback."""
    code = getattr(result, "exit_code", getattr(result, "returncode", None))
    err = result.stderr  # type: ignore[attr-defined]
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and err.startswith("fltheory: error: "), err
    assert f"{param} = " in err, err
    assert "Traceback" not in err


# --------------------------------------------------------------------------- lambda / phase


def test_lambda_near_half_answers_fast_and_exactly():
    """Issue: billions of exponent rows. Λ = ⌊0.3/1e-10⌋ = 3·10^9 exactly; the rows are capped."""
    p = _run("lambda", "--a1", "0.4999999999", "--a2", ".3", "--format", "json", timeout=30)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["value"] == 3 * 10**9
    assert out["details"]["boundary_k"] == 3 * 10**9
    rows = out["details"]["exponents"]
    assert len(rows) == 64 and rows[-1]["k"] == 3 * 10**9 + 1 and rows[-1]["status"] == "bulk"
    assert out["details"]["exponents_omitted"] == {"k_from": 33, "k_to": 3 * 10**9 - 31,
                                                   "status": "outlier"}
    # every listed exponent is exact: α2 + k(α1 − 1/2)
    for r in rows:
        assert Fraction(r["exponent"]) == Fraction(3, 10) + r["k"] * Fraction(-1, 10**10)


def test_lambda_near_half_imports_no_heavy_engine():
    code = ("import sys\nfrom fltheory.cli import main\n"
            "try:\n    main(['lambda', '--a1', '0.4999999999', '--a2', '.3'])\n"
            "except SystemExit:\n    pass\n"
            "try:\n    main(['phase', '--a1', '0.4999999999'])\n"
            "except SystemExit:\n    pass\n"
            "heavy = sorted(m for m in ('sympy', 'mpmath', 'numpy', 'scipy') if m in sys.modules)\n"
            "print('HEAVY', heavy, file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert "HEAVY []" in p.stderr, p.stderr


def test_phase_near_half_is_summarised():
    p = _run("phase", "--a1", "0.4999999999", "--format", "json", timeout=30)
    assert p.returncode == 0, p.stderr
    regions = json.loads(p.stdout)["details"]["regions"]
    omitted = [r for r in regions if "omitted" in r]
    assert omitted == [{"omitted": {"lambda_from": 32, "lambda_to": 5 * 10**9 - 33}}]
    assert regions[-1]["lambda"] == 5 * 10**9 - 1 and regions[-1]["alpha2_high"] == "1/2"


def _phase_brute(alpha1: Fraction, L: int | None) -> list[tuple[Fraction, int]]:
    """The definition, looped: region k is [k·g, (k+1)·g) ∩ [0, 1/2), k <= L − 1."""
    g, out, k = Fraction(1, 2) - alpha1, [], 0
    while k * g < Fraction(1, 2) and (L is None or k <= L - 1):
        out.append((k * g, k))
        k += 1
    return out


@pytest.mark.parametrize("a1", [Fraction(0), Fraction(1, 4), Fraction(2, 5), Fraction(9, 20),
                                Fraction(49, 100), Fraction(1, 3), Fraction(123, 250)])
@pytest.mark.parametrize("L", [None, 1, 3, 40])
def test_phase_region_count_and_capped_list_match_the_loop(a1, L):
    from fltheory.exact import INF
    from fltheory.papers.twostep.phases import phase_line, phase_region_count

    brute = _phase_brute(a1, L)
    Lv = INF if L is None else L
    assert phase_region_count(a1, Lv) == len(brute)
    listed = phase_line(a1, Lv, max_regions=8)
    expect = brute if len(brute) <= 8 else brute[:4] + brute[-4:]
    assert [(r.alpha2_low, r.value) for r in listed] == expect
    assert [(r.alpha2_low, r.value) for r in phase_line(a1, Lv, max_regions=None)] == brute


# --------------------------------------------------------------------------- twostep simulate


@pytest.mark.parametrize(("args", "param"), [
    (["twostep", "simulate", "--N", "6000"], "N"),
    (["twostep", "simulate", "--N", "1e9"], "N"),
    (["twostep", "simulate", "--N", "1e400"], "N"),
    (["twostep", "simulate", "--N", "3500"], "N"),
])
def test_twostep_simulate_refusals(invoke, args, param):
    _refused(invoke(*args), param)


def test_sim_sizes_validated_at_the_api():
    from fltheory.papers.twostep import sim as tsim

    with pytest.raises(DomainError, match="N = 100000"):
        tsim.simulate(10**5, 10**5, 10**5, 0.4, 0.3, tsim.SIGMAS["He1"], [tsim.TARGETS["He1"]], 0)
    with pytest.raises(ValueError, match="seed = -1"):
        tsim.simulate(20, 20, 20, 0.4, 0.3, tsim.SIGMAS["He1"], [tsim.TARGETS["He1"]], -1)
