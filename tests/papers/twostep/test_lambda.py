"""Λ(α1, α2; L) of Moniri & Hassani (2026) and its phase line, checked against an independent
integer computation and the defining loop; floats read as typed; α1 near 1/2 answered fast,
exactly and without the heavy engine."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layout import ROOT

from fltheory.exact import INF, DomainError
from fltheory.papers.twostep import phases as tw
from fltheory.papers.twostep.params import TwoStepSetting
from fltheory.papers.twostep.phases import (
    lambda_count,
    lambda_details,
    lambda_of,
    phase_line,
    phase_of,
    phase_region_count,
    region_count_of,
)


def _lambda_by_enumeration(i: int, j: int, M: int, L: int | None = None) -> int:
    """Independent reference for α1 = i/M, α2 = j/M (M even): the largest k with
    α2 + k(α1 − 1/2) >= 0, i.e. k(M/2 − i) <= j, found by counting k upwards in integers
    (no division, no floor), then capped at L − 1."""
    k = 0
    while (k + 1) * (M // 2 - i) <= j:
        k += 1
    return k if L is None else min(k, L - 1)


GRID_M = 20  # step 0.05, the grid of `fltheory table lambda`


@pytest.mark.parametrize("L", [None, 1, 2, 3, 5])
def test_full_grid_against_enumeration(L):
    for i in range(GRID_M // 2):
        for j in range(GRID_M // 2):
            got = lambda_count(Fraction(i, GRID_M), Fraction(j, GRID_M), INF if L is None else L)
            assert got == _lambda_by_enumeration(i, j, GRID_M, L), (i, j, L)


def test_fine_grid_against_enumeration():
    M = 200  # step 0.005
    for i in range(M // 2):
        for j in range(0, M // 2, 7):
            assert lambda_count(Fraction(i, M), Fraction(j, M)) == _lambda_by_enumeration(i, j, M)


def test_float_traps_on_the_grid_are_exact():
    """Every grid point where floating-point division gives a wrong floor is right here."""
    traps = []
    for i in range(GRID_M // 2):
        for j in range(GRID_M // 2):
            a1, a2 = i / GRID_M, j / GRID_M
            if math.floor(a2 / (0.5 - a1)) != _lambda_by_enumeration(i, j, GRID_M):
                traps.append((i, j))
    # The grid does contain traps (e.g. α1 = .35, α2 = .15: floats give 0, exactly 1).
    assert (7, 3) in traps and len(traps) >= 3
    for i, j in traps:
        assert lambda_count(Fraction(i, GRID_M), Fraction(j, GRID_M)) == \
            _lambda_by_enumeration(i, j, GRID_M)


def test_values_quoted_in_the_issue():
    assert lambda_count(Fraction(2, 5), Fraction(3, 10)) == 3
    assert lambda_count(Fraction(9, 20), Fraction(3, 10)) == 6


def test_boundary_flag_and_exponents():
    r = lambda_details(Fraction(2, 5), Fraction(3, 10))
    assert r.boundary_k == 3 and r.outliers_of_w2 == 4
    assert [t.exponent for t in r.exponents] == [Fraction(1, 5), Fraction(1, 10), 0,
                                                 Fraction(-1, 10)]
    assert [t.status for t in r.exponents] == ["outlier", "outlier", "boundary", "bulk"]
    # Non-integer ratio: no flag, and the first non-outlier term has a negative exponent.
    r = lambda_details(Fraction(2, 5), Fraction(1, 4))
    assert r.value == 2 and r.boundary_k is None and r.exponents[-1].exponent < 0
    # A boundary beyond the last existing term (K > L − 1) is not flagged.
    assert lambda_details(Fraction(2, 5), Fraction(3, 10), L=3).boundary_k is None
    assert lambda_details(Fraction(2, 5), Fraction(3, 10), L=4).boundary_k == 3
    # α2 = 0 concerns only the k = 0 term, which merges with the one-step spike.
    assert lambda_details(Fraction(1, 4), Fraction(0)).boundary_k is None


alphas = st.fractions(min_value=0, max_value=Fraction(1, 2)).filter(lambda q: q < Fraction(1, 2))


@given(alphas, alphas, alphas)
def test_monotone_in_alpha2(a1, a2, b2):
    lo, hi = sorted((a2, b2))
    assert lambda_count(a1, lo) <= lambda_count(a1, hi)


@given(alphas, alphas, alphas)
def test_monotone_in_alpha1(a1, b1, a2):
    lo, hi = sorted((a1, b1))
    assert lambda_count(lo, a2) <= lambda_count(hi, a2)


@given(alphas, alphas)
def test_zero_iff_one_step_regime(a1, a2):
    assert (lambda_count(a1, a2) == 0) == (a1 + a2 < Fraction(1, 2))


@given(alphas, alphas, st.integers(min_value=1, max_value=6))
def test_capped_by_L(a1, a2, L):
    assert lambda_count(a1, a2, L) == min(L - 1, lambda_count(a1, a2))


@pytest.mark.parametrize(
    ("a1", "a2", "L", "param"),
    [(Fraction(1, 2), Fraction(0), INF, "a1"), (Fraction(-1, 10), Fraction(0), INF, "a1"),
     (Fraction(0), Fraction(1, 2), INF, "a2"), (Fraction(0), Fraction(1), INF, "a2"),
     (Fraction(0), Fraction(0), 0, "L")],
)
def test_domain(a1, a2, L, param):
    with pytest.raises(DomainError, match=rf"^{param} = "):
        lambda_count(a1, a2, L)


# --------------------------------------------------------------------------- floats as typed


def test_float_alphas_read_as_typed():
    assert tw.lambda_details(.4, .3).boundary_k == 3
    assert tw.lambda_details(.4, .3) == tw.lambda_details(Fraction(2, 5), Fraction(3, 10))
    assert tw.lambda_count(0.01, 0.49) == tw.lambda_count("1/100", "49/100") == 1
    assert tw.check_alpha(0.4) == tw.check_alpha(".4") == Fraction(2, 5)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 49), st.integers(0, 49))
def test_lambda_count_float_equals_fraction(a: int, b: int):
    assert tw.lambda_count(a / 100, b / 100) == tw.lambda_count(Fraction(a, 100), Fraction(b, 100))


def test_a_setting_gives_what_the_arguments_give():
    """The setting-taking functions and the argument-taking ones are the same computation."""
    s = TwoStepSetting(".4", ".3", L=5)
    assert lambda_of(s) == lambda_details(Fraction(2, 5), Fraction(3, 10), 5)
    assert phase_of(s) == phase_line(Fraction(2, 5), 5)
    assert region_count_of(s) == phase_region_count(Fraction(2, 5), 5)
    # a σ-aware setting leaves L to σ: the generic functions need it given
    with pytest.raises(DomainError, match=r"^L = "):
        lambda_of(TwoStepSetting(".4", ".3", sigma="tanh"))
    with pytest.raises(DomainError, match=r"^a2 = "):
        lambda_of(TwoStepSetting(".4"))


# --------------------------------------------------------------------------- the phase line


@pytest.mark.parametrize("a1", [Fraction(0), Fraction(1, 5), Fraction(2, 5), Fraction(9, 20)])
def test_phase_regions_agree_with_lambda(a1):
    for r in phase_line(a1):
        high = r.alpha2_high if r.alpha2_high is not None else Fraction(1, 2)
        mid = (r.alpha2_low + high) / 2
        assert lambda_count(a1, mid) == r.value
        assert lambda_count(a1, r.alpha2_low) == r.value  # the boundary belongs to the region
    assert phase_line(Fraction(2, 5), L=3)[-1].value == 2  # capped at L − 1


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
    brute = _phase_brute(a1, L)
    Lv = INF if L is None else L
    assert phase_region_count(a1, Lv) == len(brute)
    listed = phase_line(a1, Lv, max_regions=8)
    expect = brute if len(brute) <= 8 else brute[:4] + brute[-4:]
    assert [(r.alpha2_low, r.value) for r in listed] == expect
    assert [(r.alpha2_low, r.value) for r in phase_line(a1, Lv, max_regions=None)] == brute


# --------------------------------------------------------------------------- α1 near 1/2


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in a subprocess with a time bound: a regression that hangs fails, not hangs."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, check=False)


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
