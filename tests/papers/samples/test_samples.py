"""The sample-complexity paper: its table and leap against references written by hand or
computed by independent methods (brute force over orderings, numpy's HermiteE conversion), its
bad inputs, and its simulator's exact reduction against the d-dimensional algorithm."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from fltheory.cli import cli
from fltheory.papers.samples.complexity import online_sgd_scale, sample_table
from fltheory.papers.samples.multiindex import (
    hermite_support,
    leap,
    leap_of_support,
    parse_polynomial,
)

# --------------------------------------------------------------------------- single index


@pytest.mark.parametrize(("g", "online", "smoothed", "sq", "reuse"), [
    # written from the statements: Ben Arous, Gheissari & Jagannath 2021 (d, d log d, d^{k-1}),
    # Damian, Nichani, Ge & Lee 2023 (d^{k/2}, k >= 3), Damian, Pillaud-Vivien, Lee & Bruna
    # 2024 (d^{max(k*/2, 1)}), batch reuse Õ(d) for k* <= 2; the exponents by hand: He_k has
    # information exponent k; He3 is not even, so E[z | y] ≠ 0 (k* = 1); He2, He4 are even and
    # y determines z² up to finitely many values (k* = 2); |z| even (k* = 2), relu μ_1 = 1/2.
    ("He1", "d", "d", "d", "d"),
    ("He2", "d log d", "d log d", "d", "d"),
    ("He3", "d^2", "d^(3/2)", "d", "d"),
    ("He4", "d^3", "d^2", "d", "d"),
    ("abs", "d log d", "d log d", "d", "d"),
    ("relu", "d", "d", "d", "d"),
])
def test_table_rows_against_hand_values(g, online, smoothed, sq, reuse):
    t = sample_table(g, kmax=6, dps=15)
    assert t.row("online SGD").scale.text() == online
    assert t.row("smoothed online SGD").scale.text() == smoothed
    assert t.row("SQ / low-degree bound").scale.text() == sq
    assert t.row("batch-reusing GD").scale.text() == reuse
    assert t.row("information-theoretic").scale.text() == "d"


GEN4 = "abs(z)*exp(-z**2/2)"


def _level_set_conditional(y: float, j: int) -> float:
    """E[He_j(z) | g(z) = y] for g = |z| e^{−z²/2}, 0 < y < e^{−1/2}, from the level set alone:
    the four preimages ±u, ±s (u² = −W_0(−y²), s² = −W_{−1}(−y²), Lambert W) weighted by
    φ(z)/|g'(z)| (the coarea formula). No Hermite engine involved."""
    from numpy.polynomial import hermite_e as H
    from scipy.special import lambertw

    u = math.sqrt(-lambertw(-y * y, 0).real)
    s = math.sqrt(-lambertw(-y * y, -1).real)
    pts = [u, -u, s, -s]
    w = [1 / abs(1 - z * z) for z in pts]  # φ(z)/|g'(z)| up to the common 1/√(2π)
    return sum(wi * H.hermeval(z, [0] * j + [1]) for wi, z in zip(w, pts, strict=True)) / sum(w)


def test_generative_exponent_four_link_independently():
    """g = |z| e^{−z²/2}: E[He_j(z) | y] = 0 for j = 1, 2, 3 and ≠ 0 for j = 4, by two routes
    that do not use the engine: (a) the level sets via Lambert W at generic y; (b) E[He_j(z)
    1{g(z) < t}] by quadrature in z (every label test T is a limit of such indicators' sums),
    and the engine's exponents and μ_4 = −1/√(48π) (by hand: 2/√(2π) ∫_0^∞ z He_4(z) e^{−z²} dz
    = 2/√(2π)·(1 − 3 + 3/2)) against them."""
    from numpy.polynomial import hermite_e as H
    from scipy.integrate import quad
    from scipy.special import lambertw

    from fltheory.engine.hermite import expansion, generative_exponent, information_exponent

    ymax = math.exp(-0.5)
    for y in (0.137 * ymax, 0.5123 * ymax, 0.9071 * ymax):
        assert all(abs(_level_set_conditional(y, j)) < 1e-12 for j in (1, 2, 3))
        assert abs(_level_set_conditional(y, 4)) > 0.1
    for t in (0.2113, 0.4437):  # generic thresholds below the maximum e^{−1/2} ≈ 0.607
        # {g < t} ∩ [0, ∞) = [0, u) ∪ (s, ∞); even g: odd He_j integrate to 0 by symmetry,
        # so integrate He_j φ over [0, u) ∪ (s, ∞) and double for even j
        u = math.sqrt(-float(lambertw(-t * t, 0).real))
        s = math.sqrt(-float(lambertw(-t * t, -1).real))

        def piece(j, a, b):
            return quad(lambda z: H.hermeval(z, [0] * j + [1]) * math.exp(-z * z / 2)
                        / math.sqrt(2 * math.pi), a, b, epsabs=1e-14)[0]
        he2 = 2 * (piece(2, 0, u) + piece(2, s, math.inf))
        he4 = 2 * (piece(4, 0, u) + piece(4, s, math.inf))
        assert abs(he2) < 1e-10 and abs(he4) > 1e-3, (t, he2, he4)
    e = expansion(GEN4, 6, 30)
    info = information_exponent(e.function, 6, 30, e)
    gen = generative_exponent(e.function, 6, 30, e)
    assert (info.value, gen.value) == (4, 4)
    assert float(e.coefficients[4].numeric) == pytest.approx(-1 / math.sqrt(48 * math.pi),
                                                             rel=1e-12)


def test_generative_four_row_of_the_table():
    # k = k* = 4 (above): online SGD d^3, smoothed and CSQ d^2, SQ d^2, reuse d^{k*−1} = d^3
    t = sample_table(GEN4, kmax=6, dps=20)
    assert [t.row(a).scale.text() for a in ("online SGD", "smoothed online SGD",
                                            "SQ / low-degree bound", "batch-reusing GD")] == \
        ["d^3", "d^2", "d^2", "d^3"]
    assert "not settled" in t.row("batch-reusing GD").note


def test_online_scale_by_hand():
    # d^{k−1} for k >= 3: powers 2, 3, 4 for k = 3, 4, 5; log factor only at k = 2
    assert [(online_sgd_scale(k).power, online_sgd_scale(k).log_power) for k in range(1, 6)] == \
        [(1, 0), (1, 1), (2, 0), (3, 0), (4, 0)]


def test_noise_changes_no_exponent_and_is_noted():
    quiet, noisy = sample_table("He3", 0, 4, 15), sample_table("He3", Fraction(1, 2), 4, 15)
    assert [r.scale for r in quiet.rows] == [r.scale for r in noisy.rows]
    assert any("noise σ = 1/2" in n for n in noisy.notes)


def test_undecided_exponent_leaves_rows_open():
    # He5 at kmax = 4: no non-zero μ_k up to 4, so online SGD's row cannot be given
    t = sample_table("He5", kmax=4, dps=15)
    assert t.information.value is None and t.row("online SGD").scale is None
    assert "kmax = 4" in t.row("online SGD").note


# --------------------------------------------------------------------------- leap


def _brute_leap(support):
    """Leap by its definition: every ordering of the support, the largest new degree."""
    best = None
    for order in itertools.permutations(support):
        known, worst = set(), 0
        for a in order:
            worst = max(worst, sum(x for j, x in enumerate(a) if x and j not in known))
            known |= {j for j, x in enumerate(a) if x}
        best = worst if best is None else min(best, worst)
    return best


@pytest.mark.parametrize(("target", "value"), [
    # by hand from Abbe, Boix-Adserà & Misiakiewicz's definition
    ("z1 + z1*z2 + z1*z2*z3", 1),  # merged staircase: each term adds one new degree
    ("z1*z2*z3", 3),
    ("z1 + z2*z3*z4", 3),
    ("z1 + z1*z2", 1),
    ("He3(z1)", 3),
    ("He2(z1) + z1*z2", 2),  # He2(z1) brings degree 2, then z2 comes with 1
    ("z1 + He3(z2)", 3),
    ("z1*z2", 2),
    ("z1**2", 2),  # z² = He2 + 1
    ("z1**3 - 3*z1", 3),  # He3: the linear parts cancel exactly
    ("z1**3", 1),  # z³ = He3 + 3 He1
])
def test_leap_by_hand(target, value):
    assert leap(target, generative=False).value == value


def test_leap_equals_brute_force_on_random_supports():
    rng = np.random.default_rng(5)
    for _ in range(150):
        r, m = int(rng.integers(1, 5)), int(rng.integers(1, 6))
        support = {tuple(int(v) for v in rng.integers(0, 3, r)) for _ in range(m)}
        support = [a for a in support if any(a)]
        if not support:
            continue
        assert leap_of_support(support)[0] == _brute_leap(support), support


def test_stages_order_of_staircase():
    L = leap("z1 + z1*z2 + z1*z2*z3", generative=False)
    assert [s.coordinates for s in L.stages] == [(1,), (2,), (3,)]
    assert L.merged_staircase and L.sgd_power == 1
    L3 = leap("z1*z2*z3", generative=False)
    assert [s.increment for s in L3.stages] == [3] and L3.sgd_power == 2  # d^{max(3−1, 1)}


def test_hermite_support_against_numpy_hermite_e():
    """The exact conversion against numpy's HermiteE (monic He) conversion, coordinatewise."""
    from numpy.polynomial import hermite_e as H

    text = "3*z1**4*z2 - 2*z1**2 + z2**3 + 1/2"
    got = hermite_support(parse_polynomial(text))
    # by monomial: z1^4 z2, z1^2, z2^3, 1 with their coefficients
    expect: dict[tuple[int, int], float] = {}
    for (a, b), c in {(4, 1): 3.0, (2, 0): -2.0, (0, 3): 1.0, (0, 0): 0.5}.items():
        ca = H.poly2herme([0] * a + [1])
        cb = H.poly2herme([0] * b + [1])
        for i, x in enumerate(ca):
            for j, y in enumerate(cb):
                if x * y:
                    expect[(i, j)] = expect.get((i, j), 0.0) + c * x * y
    expect = {k: v for k, v in expect.items() if abs(v) > 1e-12}
    assert {k[:2]: float(v) for k, v in got.items()} == pytest.approx(expect)
    assert set(k[:2] for k in got) == set(expect)


def test_generative_leap_one_coordinate():
    # He3(z1): not even, E[z | y] ≠ 0 → 1; z1² − 1: even → 2 (hand reasoning as above)
    assert leap("He3(z1)").generative == 1
    assert leap("z1**2 - 1").generative == 2
    assert leap("z1*z2", generative=False).generative is None


@pytest.mark.parametrize(("target", "lower", "upper"), [
    # by hand, each step: a zero from a sign flip preserving y, a non-zero from a moment
    # z1 z2: flipping (z1, z2) → (−z1, −z2) keeps y, so E[z | y] = 0; E[y He2-tensor] is
    # [[0, 1], [1, 0]] (E[y z1 z2] = 1), whose image is all of R²: both axes at once → 2
    ("z1*z2", 2, 2),
    ("z1*z2*z3", 2, 2),  # E[z_i | y] = 0 (flip two others); E[y² He2(z_i)] = 2
    ("z1 + z1*z2 + z1*z2*z3", 1, 1),  # E[y z1] = 1; E[y² z2] = 2, E[y² z3] = 2 (expand)
    ("z1 + z2*z3*z4", 2, 2),  # z1 at 1 (E[y z1] = 1); then y − z1 = z2 z3 z4: as above, 2
    ("z1*z2 + z3", 2, 2),  # z3 at 1, z1, z2 killed at 1 by the flip (−1, −1, 1); then 2
    ("He2(z1)*He2(z2)", 2, 2),  # even in each: 1 killed; E[y² He2(z1)] = 8·2 ≠ 0
    ("z1 + He3(z2)", 1, 1),  # E[y z1] = 1; E[y³ z2] ≠ 0 (He3³ has an He1 part: 1 step)
])
def test_generative_leap_several_coordinates_by_hand(target, lower, upper):
    g = leap(target).generative_bounds
    assert (g.lower, g.upper) == (lower, upper), g.reason
    assert leap(target).generative == (lower if lower == upper else None)


def test_generative_leap_stops_honestly_on_rotated_directions():
    # He3(z1) + He3(z2) is symmetric under z1 ↔ z2: the order-1 vectors E[T(y) z] are ∝ (1, 1),
    # not a coordinate axis: the chain stops, only the lower bound 1 is given
    g = leap("He3(z1) + He3(z2)").generative_bounds
    assert (g.lower, g.upper) == (1, None) and "do not span coordinate axes" in g.reason


@pytest.mark.parametrize("text", ["z1**2 - 1", "He3(z1)", "He4(z1)", "z1**3 + z1**2",
                                  "He5(z1) + He2(z1)", "He6(z1)"])
def test_generative_chain_agrees_with_the_engine_on_one_coordinate(text):
    """The exact chain (symmetries + Hermite coefficients of f^m) against the Hermite engine's
    generative exponent (conditional expectations on level sets, numeric), one coordinate."""
    from fltheory.engine.hermite import generative_exponent
    from fltheory.papers.samples.multiindex import generative_leap

    poly = {k[:1]: v for k, v in parse_polynomial(text).items()}
    g = generative_leap(poly, hermite_support(poly))
    engine = generative_exponent(text.replace("z1", "z"), 8, 30).value
    assert g.lower == g.upper == engine


def test_directions_in_the_answer():
    r = CliRunner().invoke(cli, ["leap", "z1 + z2*z3*z4", "--directions",
                                 "1,0,0,0,0; 0,3/5,4/5,0,0; 0,-4/5,3/5,0,0; 0,0,0,1,0",
                                 "--format", "json"])
    assert r.exit_code == 0, r.output
    import json
    out = json.loads(r.output)
    assert out["details"]["directions"][1] == ["0", "3/5", "4/5", "0", "0"]
    assert "checked orthonormal exactly" in out["conventions"]["coordinates"]
    assert "NOT computed" in out["conventions"]["coordinates"]
    assert out["value"]["leap"] == 3 and out["value"]["generative_leap"] == 2


def test_leap_query_is_light():
    code = ("import sys\nfrom fltheory.cli import main\n"
            "try:\n    main(['leap', 'z1 + z1*z2*z3', '--format', 'json'])\n"
            "except SystemExit:\n    pass\n"
            "print('HEAVY', sorted(m for m in ('sympy', 'mpmath', 'numpy') if m in "
            "sys.modules), file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in p.stderr, p.stderr


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("args", "param"), [
    (["leap", "exp(z1)"], "TARGET"),
    (["leap", "relu(z1) + z2"], "TARGET"),
    (["leap", "z1/z2"], "TARGET"),
    (["leap", "z9"], "TARGET"),
    (["leap", "z1*z2 - z2*z1 + 3"], "TARGET"),  # constant after expansion
    (["leap", "z1**30"], "TARGET"),
    (["leap", "(" * 300 + "z1" + ")" * 300], "TARGET"),
    (["leap", "z1*z2", "--directions", "1,0; 1,1"], "⟨u_1, u_2⟩ = 1"),
    (["leap", "z1*z2", "--directions", "1,0; 0,2"], "|u_2|² = 4"),
    (["leap", "z1*z2", "--directions", "1,0"], "uses z2"),
    (["leap", "z1*z2", "--directions", "1,0; 0,1,0"], "dimension 3"),
    (["leap", "z1*z2", "--directions", "1,0; 0,x"], "not a list of exact numbers"),
    (["leap", "z1", "--directions", "1; 1"], "at most d"),
    (["samples", "He3", "--noise", "-1"], "noise"),
    (["samples", "He3", "--kmax", "0"], "kmax"),
    (["samples", "log(z)"], "EXPR"),
])
def test_bad_input_one_line_exit_2(args, param):
    p = subprocess.run([sys.executable, "-m", "fltheory", *args], capture_output=True,
                       text=True)
    assert p.returncode == 2, p.stderr
    assert p.stdout == "" and len(p.stderr.strip().splitlines()) == 1
    assert param in p.stderr and "Traceback" not in p.stderr


def test_cli_formats():
    r = CliRunner().invoke(cli, ["leap", "z1 + z1*z2 + z1*z2*z3", "--format", "json"])
    assert r.exit_code == 0 and '"leap": 1' in r.output
    r = CliRunner().invoke(cli, ["samples", "He2", "--format", "latex", "--kmax", "4"])
    assert r.exit_code == 0 and r"d\log d" in r.output


# --------------------------------------------------------------------------- simulator


def test_reduced_chain_has_the_law_of_the_full_algorithm():
    """The exact reduction (three random numbers per step) against online SGD in R^d: the mean
    log first-passage count of two independent simulations agree within 4 standard errors."""
    from fltheory.papers.samples import sim

    d, R, k, eta = 24, 600, 2, 1.0 / 24
    full = sim.online_full(k, d, eta, R, 5000, 0.5, 1)
    red = sim.online_first_passage(k, np.full(R, d), np.full(R, eta), np.full(R, 5000), 0.5, 2)
    assert np.all(full > 0) and np.all(red > 0)
    a, b = np.log(full), np.log(red)
    se = math.sqrt(a.var(ddof=1) / R + b.var(ddof=1) / R)
    assert abs(a.mean() - b.mean()) <= 4 * se, (a.mean(), b.mean(), se)


def test_reuse_steps_against_finite_differences_of_the_loss():
    """The batch-reuse update on a tiny generic case against a direct computation written
    independently: the loss L(w) = −(1/n) Σ y_i tanh(⟨w, x_i⟩) evaluated by a Python loop over
    samples (math.tanh), its gradient by central finite differences, then w ← (w − η (∇L −
    ⟨∇L, w⟩ w)) / ‖·‖, three steps on the same batch."""
    from fltheory.papers.samples import sim

    rng = np.random.default_rng(7)
    n, d, eta = 5, 3, 0.7
    X = rng.standard_normal((n, d))
    y = np.array([0.3, -1.2, 2.1, 0.4, -0.8])
    w0 = np.array([0.6, -0.3, 0.9])

    def loss(w):
        return -sum(y[i] * math.tanh(sum(w[j] * X[i, j] for j in range(d)))
                    for i in range(n)) / n

    w = w0 / math.sqrt(sum(v * v for v in w0))
    expected = [w]
    for _ in range(3):
        h = 1e-6
        grad = np.array([(loss(w + h * e) - loss(w - h * e)) / (2 * h) for e in np.eye(d)])
        step = -(grad - (grad @ w) * w)
        w = w + eta * step
        w = w / math.sqrt(sum(v * v for v in w))
        expected.append(w)
    got = sim.reuse_steps(X, y, w0, eta, 3)
    assert np.allclose(got, np.array(expected), rtol=0, atol=1e-8), (got, expected)
    # the batch really is reused: a second batch changes the second step, not the first
    X2 = rng.standard_normal((n, d))
    again = sim.reuse_steps(X2, y, got[1], eta, 1)[1]
    assert not np.allclose(again, got[2], atol=1e-3)


def test_reuse_and_fresh_runs_share_the_first_step_only():
    """reuse_overlaps draws the first replica's w_0 and first batch identically with and
    without ``fresh``: its first step agrees (to rounding), the second differs (a new batch)."""
    from fltheory.papers.samples import sim

    a = sim.reuse_overlaps(3, 12, 4, 4.0, 3, 2, 5)
    b = sim.reuse_overlaps(3, 12, 4, 4.0, 3, 2, 5, fresh=True)
    assert np.allclose(a[0, :2], b[0, :2], rtol=0, atol=1e-12)  # w_0 renormalised twice
    assert abs(a[0, 2] - b[0, 2]) > 1e-3


@pytest.mark.parametrize(("reuse_power", "noise", "status"), [
    (0.0, 0.05, "pass"), (-0.5, 0.05, "fail"), (0.0, 3.0, "inconclusive")])
def test_reuse_verdict_is_three_way(reuse_power, noise, status):
    """samples.reuse_vs_online's rule on synthetic overlaps (no simulation): reuse ∝ d^power,
    online ∝ d^{−1/2}, each replica's value times a log-normal factor of spread ``noise``. A flat
    reuse curve passes, a reuse curve at the random level fails, and a noise that leaves the
    slope's interval across the boundary −1/4 is inconclusive, with the reason."""
    from fltheory.papers.samples.claims import _compare_reuse

    rng = np.random.default_rng(11)
    ds = (64, 128, 256, 512)
    R = 24

    def rows(power, scale):
        return [scale * d ** power * np.exp(noise * rng.standard_normal(R)) for d in ds]

    meas = {"d": ds, "ratio": 8.0, "reuse": rows(reuse_power, 0.4 * 8 ** 0.5 if reuse_power
                                                 else 0.4),
            "online": rows(-0.5, 0.8), "fresh": []}
    pred = {"k": 3, "k_gen": 1, "reuse": "d", "online": "d^2", "separated": True}
    v = _compare_reuse(pred, meas)
    assert v.status == status, v
    assert (v.reason != "") == (status != "pass")
