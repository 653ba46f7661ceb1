"""Additive label noise y = g(z') + σε on piecewise-linear channels (issue 36, item 1).

The references here are other computations than the one under test (the closed forms of the
linear channel, the noiseless channels' own code as σ → 0, exact limits); the definitions
themselves are integrated independently in test_independent_noisy.py.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from fltheory.engine.expressions import Z, linear_pieces, parse_expression
from fltheory.exact import DomainError
from fltheory.papers.glm._channels import channel_numerics
from fltheory.papers.glm.params import Channel, rademacher
from fltheory.papers.glm.theory import thresholds


@pytest.mark.parametrize("rho,sigma,probit,q_frac", [(1.0, Fraction(3, 10), 0, 0.3),
                                                     (1.5, Fraction(7, 10), Fraction(1, 3), 0.8),
                                                     (0.6, Fraction(1, 5), 0, 0.97)])
def test_identity_written_as_pieces_is_the_linear_channel(rho, sigma, probit, q_frac):
    """g = Max(z, 2z) − Max(0, z) + 1/2 is z + 1/2 written with kinks: its pieces merge into
    one (a = 1, b = 1/2), and the piecewise path must give the linear channel's closed forms
    (a shift of y changes none of them) Q = 1/(V' + σ²), ΔΨ = −½ ln((V' + σ²)/(ρ' + σ²)),
    error V' + σ² (V' = ρ − q + σ_in²)."""
    ch = Channel("expr", noise=sigma, probit=probit,
                 expression="Max(z, 2*z) - Max(0, z) + 1/2")
    C = channel_numerics(ch, rho)
    assert type(C).__name__ == "_PiecewiseNoisy"
    q = q_frac * rho
    s2, v1 = float(sigma) ** 2, rho - q + float(probit) ** 2
    for level in (1, 2):
        assert C.Q(q, level) == pytest.approx(1 / (v1 + s2), rel=1e-11)
        assert C.dpsi(q, level) == pytest.approx(
            -0.5 * math.log((v1 + s2) / (rho + float(probit) ** 2 + s2)), abs=1e-11)
        assert C.gen_error(q, level) == pytest.approx(v1 + s2, rel=1e-11)


@pytest.mark.parametrize("kind,K", [("sign", None), ("door", Fraction(3, 4))])
@pytest.mark.parametrize("q", [0.35, 0.8])
def test_small_noise_tends_to_the_noiseless_channel(kind, K, q):
    """σ → 0: Q and the information ΔΨ of the noisy ±1 channel tend to the noiseless one's
    (computed by the interval code, another class); the gap closes like the overlap of the two
    label clusters, e^(−2/σ²) — at σ = 1/20 it is below every printed digit."""
    noisy = channel_numerics(Channel(kind, K=K, noise=Fraction(1, 20)), 1.0)
    clean = channel_numerics(Channel(kind, K=K), 1.0)
    assert noisy.Q(q, 2) == pytest.approx(clean.Q(q, 2), rel=1e-9)
    assert noisy.dpsi(q, 2) == pytest.approx(clean.dpsi(q, 2), abs=1e-9)


def test_noisy_relu_tends_to_relu_and_its_error_adds_sigma2():
    """ReLU + σε at small σ approaches the noiseless ReLU channel in the information ΔΨ only
    slowly (the point mass at y = 0 is smeared), but the Bayes MSE is exact in σ: E(y − ŷ)² =
    σ² + (noiseless error), ŷ = E[g(z') | ω] does not depend on σ."""
    clean = channel_numerics(Channel("relu"), 1.0)
    for sigma in (Fraction(1, 2), Fraction(1, 10)):
        noisy = channel_numerics(Channel("relu", noise=sigma), 1.0)
        for q in (0.3, 0.9):
            assert noisy.gen_error(q, 2) == pytest.approx(clean.gen_error(q, 2) + float(sigma) ** 2,
                                                          rel=1e-12)


def test_limits_at_q_zero_and_rho():
    """q = 0: ΔΨ = 0 (ω carries nothing) and the error is σ² + E g(z)² − (E g)²; q = ρ: the
    error is σ² (ŷ = g(ω) exactly) and ΔΨ = I(y; z)."""
    sigma = Fraction(2, 5)
    C = channel_numerics(Channel("relu", noise=sigma), 1.0)
    assert C.dpsi(0.0) == 0.0
    mean = 1 / math.sqrt(2 * math.pi)                  # E max(0, z), z ~ N(0, 1)
    assert C.gen_error(0.0) == pytest.approx(0.16 + 0.5 - mean ** 2, rel=1e-13)
    assert C.gen_error(1.0, 1, 0.0) == pytest.approx(0.16, rel=1e-15)
    assert C.dpsi(1.0, 2, 0.0) == pytest.approx(C.info_full(), rel=1e-10)


def test_mean_free_and_jumps():
    sigma = Fraction(1, 4)
    assert channel_numerics(Channel("abs", noise=sigma), 1.0).mean_free
    assert channel_numerics(Channel("door", K=1, noise=sigma), 1.0).mean_free
    assert channel_numerics(Channel("expr", noise=sigma, expression="Abs(Abs(z) - 1)"),
                            1.0).mean_free
    assert not channel_numerics(Channel("relu", noise=sigma), 1.0).mean_free
    assert channel_numerics(Channel("sign", noise=sigma), 1.0).jumps
    assert not channel_numerics(Channel("sign", noise=sigma, probit=Fraction(1, 10)), 1.0).jumps
    assert not channel_numerics(Channel("relu", noise=sigma), 1.0).jumps


def test_noisy_perceptron_thresholds_tend_to_the_noiseless_ones():
    """Rademacher teacher, y = sign(z) + σε: a jump with additive noise keeps q = ρ a stable
    fixed point (Q ~ 1/√(ρ − q)), so the first-order transition survives; as σ → 0 its α_IT
    and α_alg tend to the noiseless perceptron's (1.24468, 1.49263, located by the interval
    code), from above (noise removes information)."""
    clean = thresholds(rademacher(), Channel("sign"))
    noisy = thresholds(rademacher(), Channel("sign", noise=Fraction(1, 5)))
    for name in ("IT", "alg"):
        a0, a1 = clean.get(name).value, noisy.get(name).value
        assert a0 < a1 < a0 + 1e-3
        assert noisy.get(name).digits >= 10      # the bar (α_IT had 9 before the
        # y-panels met the labels' switch between the levels ±1, see the test below)


@pytest.mark.parametrize("sigma", [Fraction(1, 5), Fraction(1, 2), Fraction(1)])
def test_label_entropy_of_a_noisy_sign_against_mpmath(sigma):
    """∫ p ln p dy for p = ½N(y; −1, σ²) + ½N(y; 1, σ²) (y = sign(z) + σε, z ~ N(0, 1)) by
    mpmath's tanh-sinh quadrature at 30 digits, split at −1, −σ², 0, σ², 1: each resolution
    to 1e-13. ln p switches between the two levels on the scale σ²/2 about y = 0
    (ln cosh(y/σ²)): with panels of 2σ and no breakpoint there, level 1 was off by 7.7e-11 at
    σ = 1/5."""
    import mpmath as mp

    with mp.workdps(30):
        s2 = mp.mpf(sigma.numerator) / sigma.denominator
        s2 = s2 * s2

        def f(y):
            p = (mp.exp(-(y - 1) ** 2 / (2 * s2)) + mp.exp(-(y + 1) ** 2 / (2 * s2))) / (
                2 * mp.sqrt(2 * mp.pi * s2))
            return p * mp.log(p)

        lim = 1 + 12 * mp.sqrt(s2)
        ref = float(mp.quad(f, [-lim, -1, -s2, 0, s2, 1, lim]))
    C = channel_numerics(Channel("sign", noise=sigma), 1.0)
    for level in (1, 2):
        assert C._plogp(level) == pytest.approx(ref, rel=1e-13, abs=1e-15)


def test_linear_pieces_reference_by_evaluation():
    """The pieces reproduce the expression at random points of every piece (sympy evaluation
    of the expression itself)."""
    rng = np.random.default_rng(3)
    for text in ("Max(0, z) - z/3", "Abs(Abs(z) - 1) + sign(z - 1/2)/4", "Max(-1, Min(1, 2*z))",
                 "2*Heaviside(z + 1) - 1"):
        expr = parse_expression(text)
        pieces = linear_pieces(expr)
        assert pieces is not None
        for c, d, a, b in pieces:
            lo = float(c) if c.is_finite else float(d) - 5
            hi = float(d) if d.is_finite else float(c) + 5
            for t in rng.uniform(lo, hi, 5):
                assert float(a) * t + float(b) == pytest.approx(float(expr.subs(Z, t)),
                                                                abs=1e-12)


@pytest.mark.parametrize("text", ["Abs(z**2 - 1)", "sign(sin(z))", "Max(0, z**3)"])
def test_kinks_with_a_curved_part_are_refused_before_work(text):
    """Neither piecewise linear (closed forms per piece) nor smooth (the t-quadrature of the
    smooth channels assumes no kink): refused, naming what is implemented."""
    with pytest.raises(DomainError, match="mixes kinks or jumps with a curved part"):
        Channel("expr", noise=1, expression=text)


@pytest.mark.parametrize("text", ["tanh(z)", "z**2 - 1", "erf(z)"])
def test_smooth_g_with_noise_is_accepted(text):
    assert Channel("expr", noise=1, expression=text).expression == text


def test_cli_noisy_channels(invoke):
    out = json.loads(invoke("glm", "--prior", "gaussian", "--channel", "relu", "--noise", "1/2",
                            "--alpha", "1", "--format", "json").stdout)
    q = float(out["table"]["rows"][0][1].lstrip("~"))
    assert 0.3 < q < 0.4
    bad = invoke("glm", "--channel", "square", "--noise", "1e-9")
    assert bad.exit_code == 2
    assert "too small" in bad.stderr and bad.stderr.count("\n") == 1


def test_the_noisy_claim_quotes_the_values_it_rests_on():
    """glm.amp_noisy's statement quotes α_IT ≈ 1.2472, α_alg ≈ 1.4956 and q ≈ 0.5598 of the
    noisy perceptron (σ = 3/10): held to the computed values at the quoted digits."""
    from fltheory.claims.registry import select
    from fltheory.papers.glm.theory import point

    (claim,) = select("glm.amp_noisy")
    text = claim.statement
    ch = Channel("sign", noise=Fraction(3, 10))
    th = thresholds(rademacher(), ch)
    for name, quoted in (("IT", "1.2472"), ("alg", "1.4956")):
        assert quoted in text
        assert f"{th.get(name).value:.4f}" == quoted
    assert "0.5598" in text
    assert f"{point(rademacher(), ch, 1.0).amp_q.value:.4f}" == "0.5598"


def test_a_noisy_expression_channel_says_it_may_take_minutes():
    """A noisy expression channel (here 2·Heaviside(z) − 1, not recognised as sign: it differs
    at z = 0) warns on stderr before the thresholds, which for several kinks take minutes."""
    from click.testing import CliRunner

    from fltheory.cli import cli

    r = CliRunner().invoke(cli, ["glm", "--channel", "2*Heaviside(z) - 1", "--noise", "1/4"])
    assert r.exit_code == 0, r.output
    assert "can take minutes" in r.stderr and "take minutes" not in r.stdout
    assert "Heaviside" in r.stdout


def test_small_noise_on_a_sloped_piece_is_refused_for_cost_before_work(invoke):
    """The y grid has a panel every 2σ over the range of g: relu + σ = 1/100 would need about
    1.35e7 quadrature nodes at the finer resolution (limit 1e7), refused in one line naming
    --noise; sign + σ = 1/1000 (flat pieces: the grid follows the label clusters) answers."""
    r = invoke("glm", "--channel", "relu", "--noise", "1/100", "--alpha", "1")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert "noise = 1/100" in r.stderr and "larger --noise" in r.stderr
    assert channel_numerics(Channel("sign", noise=Fraction(1, 1000)), 1.0).cells() < 1e6


def test_sloped_piece_between_breakpoints_against_scipy_quadrature():
    """g = clip(z − 1/2, 0, 1) (a = 1, b = −1/2 on (1/2, 3/2): the only case where the cross
    term 2ab·r·(φ(c') − φ(d')) of E g² is not zero): the error at q = 0 is σ² + Var g(z),
    Var g by scipy.integrate.quad of the definition."""
    from scipy import integrate, stats

    sigma = Fraction(1, 3)
    C = channel_numerics(Channel("expr", noise=sigma, expression="Max(0, Min(1, z - 1/2))"),
                         1.0)
    g = lambda z: min(max(z - 0.5, 0.0), 1.0)  # noqa: E731
    m1 = integrate.quad(lambda z: g(z) * stats.norm.pdf(z), -12, 12, points=[0.5, 1.5],
                        epsabs=1e-14, epsrel=1e-13)[0]
    m2 = integrate.quad(lambda z: g(z) ** 2 * stats.norm.pdf(z), -12, 12, points=[0.5, 1.5],
                        epsabs=1e-14, epsrel=1e-13)[0]
    assert C.gen_error(0.0) == pytest.approx(1 / 9 + m2 - m1 * m1, rel=1e-12)


def test_limit_q_to_rho_of_a_continuous_g():
    """Hard tanh + σε at q = ρ (V' = 0): Z_out = N(y; g(ω), σ²), so Q = E g'(z)²/σ² =
    P(|z| < 1)/σ² = erf(1/√2)/σ²; the grid at ρ − q = 10⁻⁸ is within 10⁻³ of it (Q is
    continuous in V' when g has no jump); sign + σε has Q → ∞ there (a jump)."""
    sigma = Fraction(1, 4)
    C = channel_numerics(Channel("expr", noise=sigma, expression="Max(-1, Min(1, z))"), 1.0)
    exact = math.erf(1 / math.sqrt(2)) * 16
    assert C.Q(1.0, 2, 0.0) == pytest.approx(exact, rel=1e-14)
    assert C.Q(1 - 1e-8, 2) == pytest.approx(exact, rel=1e-3)
    assert channel_numerics(Channel("sign", noise=sigma), 1.0).Q(1.0, 2, 0.0) == math.inf


def test_branch_starting_at_the_weak_recovery_threshold_is_rooted():
    """Sparse Rademacher(1/3) with the door(1/2) and σ = 1/5: the stable branch leaves q = 0 at
    α_WR, and the search for α_IT asks for its fixed point at α_WR(1 + 1e-9), where A computed
    by quadrature at q̂ = 1e-30 and the α_WR of the spread's formula differ in the last digits
    (no sign change left for Brent: an internal error before). The threshold is found, with
    ≥ 10 digits, just above the noiseless one (1.301634782407, the interval code) as noise
    removes information."""
    from fltheory.papers.glm.params import sparse_rademacher

    clean = thresholds(sparse_rademacher("1/3"), Channel("door", K="1/2")).get("IT")
    noisy = thresholds(sparse_rademacher("1/3"), Channel("door", K="1/2", noise="1/5"))
    it = noisy.get("IT")
    assert it.digits >= 10
    assert clean.value < it.value < clean.value + 1e-4


@pytest.mark.parametrize("text", ["abs", "relu", "sign", "door(674/1000)", "door(3)",
                                  "sign(Abs(z) - 1/2)", "Max(z, 0)", "Abs(z)"])
def test_catalogue_pieces_are_the_expression_pieces(text):
    """The pieces written out for the catalogue (no sympy) are the ones sympy derives from the
    channel's text, to the bit."""
    from fltheory.papers.glm import _channels as chs
    from fltheory.papers.glm.params import read_channel

    channel = read_channel(text, noise="1/5")
    assert chs._catalogue_pieces(channel) == chs._expression_pieces(channel.phi_text)


def test_a_noisy_catalogue_channel_does_not_import_sympy():
    """`glm --channel abs --noise 1/5` never needed sympy; its import cost ~0.2–0.5 s a command."""
    from heavy import loaded_after

    code = ("from fractions import Fraction as F\n"
            "from fltheory.papers.glm import theory\n"
            "from fltheory.papers.glm.params import gaussian, Channel\n"
            "theory.thresholds(gaussian(), Channel('relu', noise=F(1, 2)))\n")
    assert loaded_after(code, ("sympy",)) == []


@pytest.mark.parametrize("text", ["z", "sign(z)", "Abs(z)", "abs(z)", "z**2", "z ^ 2", "z*z",
                                  "Max(0, z)", "Max(z, 0)", "max(0,z)", "max(z,0)", "relu(z)"])
def test_usual_spellings_are_read_as_sympy_reads_them(text):
    """The spellings read without sympy (params._SPELLINGS) name the channel that sympy proves
    the expression equal to (params._recognise, the general route)."""
    from fltheory.papers.glm import params

    assert params.read_channel(text).kind == params._recognise(text)[0]


def test_a_usual_spelling_does_not_import_sympy():
    """`glm --channel 'z**2' --noise 1` (noisy phase retrieval as the paper writes it) paid
    ~0.3 s of sympy import to recognise z**2."""
    from heavy import loaded_after

    code = ("from fltheory.papers.glm.params import read_channel\n"
            "assert read_channel('z**2', noise='1').kind == 'square'\n"
            "assert read_channel('Max(0, z)').kind == 'relu'\n")
    assert loaded_after(code, ("sympy",)) == []


@pytest.mark.parametrize("text,noise,even,odd", [("tanh(z)", "1/5", False, True),
                                                 ("cos(z)", "1/2", True, False),
                                                 ("erf(2*z)", "1/3", False, True),
                                                 ("tanh(z - 1/2)", "1/2", False, False)])
def test_smooth_channel_sums_half_the_omega_rule_by_symmetry(text, noise, even, odd):
    """An even or odd smooth g: the (ω, y) integrands at −ω are those at ω (even) or at (ω, −y)
    (odd), so only ω > 0 is summed, twice; against the sum over the whole rule, at both
    resolutions, to rounding. A g of neither parity keeps the whole rule."""
    from fltheory.papers.glm import _channels as chs
    from fltheory.papers.glm.params import read_channel

    C = chs.channel_numerics(read_channel(text, noise=noise), 1.0)
    assert (C.mean_free, C.odd) == (even, odd)

    def whole(q, level, what):
        """The sum over the whole ω rule, written out from the grids."""
        V = C.V1(q, 1.0 - q)
        w, ww = C._wgrid(q, level)
        y, wy = C._ygrid(level)
        parts = C._core(w, y, V, level, ("Z", "dZ") if what == "Q" else ("Z",))
        return chs._grid_average(parts[0], parts[-1], V, ww, wy, what)

    for q in (1e-3, 0.4, 0.97):
        for what in ("Q", "psi"):
            for level in (1, 2):
                a, b = C._avg(q, level, None, what), whole(q, level, what)
                assert a == pytest.approx(b, rel=2e-15, abs=1e-17), (q, what, level)


@pytest.mark.parametrize("text,noise", [("tanh(z)", "1/5"), ("cos(z) + z/2", "1/3")])
def test_smooth_core_against_the_sum_written_out(text, noise):
    """_core (blocks laid out (ω, y, t), the exponent formed in place, the t-sum one matrix
    product) against E_t N(y; g(ω + √V t), σ²)·{1, √V t, V t²} written out node by node with
    math.exp over a few ω and y (its own t rule), to 1e-13 relative (rounding only)."""
    from fltheory.papers.glm import _channels as chs
    from fltheory.papers.glm.params import read_channel

    C = chs.channel_numerics(read_channel(text, noise=noise), 1.0)
    g, _ = C._g()
    sig = float(C.sigma)
    for level in (1, 2):
        V = 0.37
        t, wt = C._tgrid(V, level)
        w = np.array([-1.3, 0.0, 0.4, 2.2])
        y = np.array([-1.1, 0.05, 0.9, 1.7])
        got = C._core(w, y, V, level, ("Z", "dZ", "m2"))
        s = math.sqrt(V)
        for i, om in enumerate(w):
            G = g(om + s * t)
            for j, yy in enumerate(y):
                norm = math.sqrt(2 * math.pi * sig ** 2)
                dens = [math.exp(-0.5 * (yy - Gk) ** 2 / sig ** 2) / norm for Gk in G]
                want = [sum(a * d for a, d in zip(wt, dens, strict=True)),
                        sum(a * s * tk * d for a, tk, d in zip(wt, t, dens, strict=True)),
                        sum(a * V * tk * tk * d for a, tk, d in zip(wt, t, dens, strict=True))]
                scale = sum(abs(a) * d for a, d in zip(wt, dens, strict=True)) * (1 + V)
                for k in range(3):
                    assert abs(got[k][i, j] - want[k]) <= 1e-13 * scale, (level, om, yy, k)


@pytest.mark.parametrize("channel,noise", [("square", "1/10"), ("tanh(z)", "1/5")])
def test_the_sums_are_the_same_on_any_number_of_threads(channel, noise, monkeypatch):
    """The three-dimensional sums are split among threads into pieces fixed without regard to
    their number (the square: each (ω, y) pair's x-sum whole in one piece; a smooth g: blocks of
    _SMOOTH_BLOCK terms): Q and the Z ln Z term to the last bit on 1, 2 and 3 threads."""
    from fltheory.papers.glm import _channels as chs
    from fltheory.papers.glm.params import read_channel

    C = chs.channel_numerics(read_channel(channel, noise=noise), 1.0)
    seen = {}
    for n in ("1", "2", "3"):
        monkeypatch.setenv("FLTHEORY_THREADS", n)
        seen[n] = [C._avg(q, level, None, what) for q in (0.3, 0.99) for level in (1, 2)
                   for what in ("Q", "psi")]
    assert seen["1"] == seen["2"] == seen["3"]
