"""The generative leap of non-polynomial multi-index targets (fltheory.papers.samples.nonpoly),
against an independent Monte Carlo written from the definition: z ~ N(0, I_r) sampled with
numpy, y = f(z) evaluated with numpy, E[He_α(z) | y] (He_α = Π_i He_{α_i}(z_i), numpy's
HermiteE) estimated per label value with its standard error. A conditional moment the theory
says is zero must be within 5 standard errors of 0; the first non-zero one must be more than
10 standard errors from 0 and agree with the value the answer prints within 5 standard errors.
Sizes: 2·10⁶ samples (standard errors about 1e-3)."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest
from numpy.polynomial import hermite_e as H

from fltheory.exact import DomainError
from fltheory.papers.samples.params import Target
from fltheory.papers.samples.theory import leap, leap_of

N = 2_000_000


def _sample(r: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((N, r))


def _he(z: np.ndarray, alpha: tuple[int, ...]) -> np.ndarray:
    out = np.ones(len(z))
    for i, a in enumerate(alpha):
        if a:
            out = out * H.hermeval(z[:, i], [0] * a + [1])
    return out


def _conditional(values: np.ndarray, mask: np.ndarray) -> tuple[float, float]:
    v = values[mask]
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(len(v)))


def _alphas(r: int, k: int) -> list[tuple[int, ...]]:
    return [a for a in itertools.product(range(k + 1), repeat=r) if sum(a) == k]


def _printed(reason: str) -> float:
    """The number the reason prints after 'E[… | y = v] = … = '."""
    return float(re.search(r"E\[[^]]*\| y = [^]]*\] = .* = (-?[0-9.]+)", reason).group(1))


def test_parity_sign_of_the_product():
    """sign(z1 z2 z3): generative leap 3 (every conditional moment of degree <= 2 vanishes) and
    E[z1 z2 z3 | y = 1] = (2/π)^{3/2} (|z| is independent of the signs: Π E|z_i|)."""
    L = leap("sign(z1*z2*z3)")
    assert L.generative == 3 and L.value is None
    assert L.generative_bounds.steps == ((3, (1, 2, 3)),)
    assert "2*sqrt(2)/pi**(3/2)" in L.generative_reason
    assert _printed(L.generative_reason) == pytest.approx((2 / math.pi) ** 1.5, abs=1e-11)
    z = _sample(3, 1)
    y = np.sign(z[:, 0] * z[:, 1] * z[:, 2])
    for label in (1, -1):
        for k in (1, 2):
            for a in _alphas(3, k):
                m, se = _conditional(_he(z, a), y == label)
                assert abs(m) < 5 * se, (label, a, m, se)
        m, se = _conditional(_he(z, (1, 1, 1)), y == label)
        assert abs(m - label * (2 / math.pi) ** 1.5) < 5 * se and abs(m) > 10 * se


def test_threshold_breaks_the_parity():
    """sign((z1 − 7/10)·z2): a generic threshold. E[z2 | y] ≠ 0 already (P(z1 > 7/10) ≠ 1/2),
    E[z1 | y] = 0 (z2's sign is uniform given y), and given (y, sign z2), z1's side of 7/10 is
    known: E[z1 | y, z2] ≠ 0. Chain k = 1: z2, then k = 1: z1; against sign(z1 z2), leap 2."""
    L = leap("sign((z1 - 7/10)*z2)")
    assert L.generative == 1
    assert L.generative_bounds.steps == ((1, (2,)), (1, (1,)))
    z = _sample(2, 2)
    y = np.sign((z[:, 0] - 0.7) * z[:, 1])
    m, se = _conditional(z[:, 0], y == 1)
    assert abs(m) < 5 * se
    m, se = _conditional(z[:, 1], y == 1)
    assert abs(m - _printed(L.generative_reason)) < 5 * se and abs(m) > 10 * se
    for label, side in itertools.product((1, -1), (1, -1)):
        m, se = _conditional(z[:, 0], (y == label) & (np.sign(z[:, 1]) == side))
        assert abs(m) > 10 * se
    assert leap("sign(z1*z2)").generative == 2
    z2 = z[:, :2]
    y2 = np.sign(z2[:, 0] * z2[:, 1])
    for a in _alphas(2, 1):
        m, se = _conditional(_he(z2, a), y2 == 1)
        assert abs(m) < 5 * se
    m, se = _conditional(z2[:, 0] * z2[:, 1], y2 == 1)
    assert abs(m - 2 / math.pi) < 5 * se  # E|z1| E|z2|


def test_single_index_targets():
    """relu(z1 + z2) and Abs(z1 − 2 z2) depend on one direction w: k* is the generative exponent
    of the one-dimensional link (relu 1, |·| 2). Monte Carlo for |w·z|: E[u | y] = 0 and
    E[He_2(u) | y > median] > 0 for u = w·z/|w|, while the orthogonal v has E[He_2(v) | y] = 0."""
    assert leap("relu(z1 + z2)").generative == 1
    L = leap("Abs(z1 - 2*z2)")
    assert L.generative == 2 and L.generative_bounds.steps == ((2, (1, 2)),)
    z = _sample(2, 3)
    u = (z[:, 0] - 2 * z[:, 1]) / math.sqrt(5)
    v = (2 * z[:, 0] + z[:, 1]) / math.sqrt(5)
    y = np.abs(u)
    high = y > np.median(y)
    m, se = _conditional(u, high)
    assert abs(m) < 5 * se
    m, se = _conditional(u * u - 1, high)
    assert m > 10 * se
    m, se = _conditional(v * v - 1, high)
    assert abs(m) < 5 * se


def test_product_link():
    """z1·sign(z2): E[z_i | y] = 0 (the flip (z1, z2) → (−z1, −z2) keeps f) and
    E[z1 z2 | y > 0] = E[y | y > 0] E|z2| = 2/π: k* = 2 in one step."""
    L = leap("z1*sign(z2)")
    assert L.generative == 2 and L.generative_bounds.steps == ((2, (1, 2)),)
    z = _sample(2, 4)
    y = z[:, 0] * np.sign(z[:, 1])
    for a in _alphas(2, 1):
        m, se = _conditional(_he(z, a), y > 0)
        assert abs(m) < 5 * se
    m, se = _conditional(z[:, 0] * z[:, 1], y > 0)
    assert abs(m - 2 / math.pi) < 5 * se


def test_additive_link():
    """|z1| + |z2|: both flips keep f, so degree 1 vanishes; E[y He_2(z_i)] ≠ 0: k* = 2 in one
    step. relu(z1) + z2: E[y z_i] ≠ 0 for both: k* = 1."""
    L = leap("Abs(z1) + Abs(z2)")
    assert L.generative == 2 and L.generative_bounds.steps == ((2, (1, 2)),)
    assert leap("relu(z1) + z2").generative_bounds.steps == ((1, (1, 2)),)
    z = _sample(2, 6)
    y = np.abs(z[:, 0]) + np.abs(z[:, 1])
    high = y > np.median(y)
    for a in [*_alphas(2, 1), (1, 1)]:
        m, se = _conditional(_he(z, a), high)
        assert abs(m) < 5 * se, a
    for a in ((2, 0), (0, 2)):
        m, se = _conditional(_he(z, a), high)
        assert m > 10 * se


def test_symmetry_only_bound():
    """tanh(z1 z2): the flip (−z1, −z2) keeps f, so degree 1 vanishes: 2 <= k*, no upper bound
    (no closed form); the Monte Carlo sees the degree-1 zeros."""
    L = leap("tanh(z1*z2)")
    assert L.generative is None
    assert (L.generative_bounds.lower, L.generative_bounds.upper) == (2, None)
    assert "between 2 and (not bounded)" in L.generative_reason
    z = _sample(2, 5)
    y = np.tanh(z[:, 0] * z[:, 1])
    for a in _alphas(2, 1):
        m, se = _conditional(_he(z, a), y > 0.3)
        assert abs(m) < 5 * se


@pytest.mark.parametrize(("text", "why"), [
    ("exp(z1)", "not one of the functions allowed"),
    ("sign(z9)", "coordinates are z1"),
    ("sign(z1)/z2", "divides by something that is not a number"),
    ("sign(z1)**z2", "whole number"),
    ("sign(3)", "no coordinate"),
])
def test_function_targets_refused(text, why):
    with pytest.raises(DomainError, match=re.escape(why)):
        Target(text)


def test_not_asked():
    L = leap_of(Target("sign(z1*z2)", generative=False))
    assert L.generative is None and L.generative_reason == "not computed (not asked)"


def test_leap_command_non_polynomial(invoke):
    r = invoke("leap", "sign(z1*z2*z3)")
    assert r.exit_code == 0
    assert "generative leap = 3 (exactly 3" in r.stdout
    assert "leap: not computed (f is not a polynomial" in r.stdout
    r = invoke("leap", "sign(z1*z2*z3)", "--format", "json")
    assert '"generative_leap": 3' in r.stdout and '"leap": null' in r.stdout
    r = invoke("leap", "exp(z1)")
    assert r.exit_code == 2 and "TARGET = exp(z1)" in r.stderr
