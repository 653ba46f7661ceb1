"""The public API of the Fisher paper checks its own arguments: bad input to any public function
of fltheory.papers.fisher.theory and fltheory.papers.fisher.sim raises DomainError (CostError is
one), never
ZeroDivisionError, ValueError of numpy, TypeError or IndexError; and the typed results behave
like the lists they replace."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fltheory.exact import DomainError
from fltheory.papers.fisher import sim
from fltheory.papers.fisher import theory as th

SETTINGS = settings(max_examples=50, deadline=None)

#: what a user might pass where an integer is expected, but is not one
NOT_INTEGERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.none(),
    st.booleans(),
    st.fractions(),
    st.lists(st.integers(), max_size=2),
)
BAD_D = st.one_of(st.integers(max_value=1), NOT_INTEGERS)
BAD_L = st.one_of(st.integers(max_value=-1), st.integers(min_value=th.MAX_L + 1), NOT_INTEGERS)
BAD_DPS = st.one_of(st.integers(max_value=4), st.integers(min_value=101), NOT_INTEGERS)


def _refused(call, *args):
    with pytest.raises(DomainError):
        call(*args)


# --------------------------------------------------------------------------- theory


@SETTINGS
@given(d=BAD_D)
def test_bad_d_refused_everywhere(d):
    for call, args in ((th.multiplicity, (d, 0)), (th.legendre_coefficients, (d, 2)),
                       (th.eigenvalue, (d, 0)), (th.eigenvalue_quadrature, (d, 0)),
                       (th.paper_approximation, (d, 0)), (th.trace, (d,)),
                       (th.spectrum, (d, 2)), (th.trace_share, (d, 2)),
                       (th.spectrum_work, (d, 2)), (th.eigenfunction_gram, (d,))):
        _refused(call, *args)


@SETTINGS
@given(l=BAD_L)
def test_bad_degree_refused_everywhere(l):
    for call, args in ((th.multiplicity, (3, l)), (th.legendre_coefficients, (3, l)),
                       (th.eigenvalue, (3, l)), (th.eigenvalue_quadrature, (3, l)),
                       (th.paper_approximation, (3, l)), (th.spectrum, (3, l)),
                       (th.trace_share, (3, l)), (th.spectrum_work, (3, l))):
        _refused(call, *args)


@SETTINGS
@given(dps=BAD_DPS)
def test_bad_dps_refused_everywhere(dps):
    for call, args in ((th.eigenvalue, (3, 0, dps)), (th.eigenvalue_quadrature, (3, 0, dps)),
                       (th.paper_approximation, (3, 0, dps)), (th.paper_top3_limit, (dps,)),
                       (th.spectrum, (3, 2, dps)), (th.trace_share, (3, 2, dps)),
                       (th.spectrum_work, (3, 2, dps))):
        _refused(call, *args)


@SETTINGS
@given(exact=st.one_of(st.integers(), st.text(max_size=3), st.floats()))
def test_bad_exact_flag_refused(exact):
    _refused(th.eigenvalue, 3, 2, 30, exact)
    _refused(th.spectrum, 3, 2, 30, exact)


@SETTINGS
@given(digits=st.integers(min_value=17, max_value=5000), lmax=st.integers(2, th.MAX_L))
def test_huge_requests_refused_before_work(digits, lmax):
    """d with many digits at a high lmax: refused by the multiplicity or the work bound, at
    once (the bound is checked before any level is computed)."""
    d = 10**digits
    if th.spectrum_work(d, lmax) <= th.MAX_SPECTRUM_WORK and (lmax - 1) * digits <= 1000:
        return  # an honest request
    _refused(th.spectrum, d, lmax)
    _refused(th.eigenvalue, d, lmax)


def test_one_range_of_lmax():
    """lmax is [0, MAX_L] in theory and in the CLI alike (the CLI takes it from here)."""
    assert th.MAX_L == 60
    assert len(th.spectrum(2, th.MAX_L, 5, exact=False)) == th.MAX_L + 1
    with pytest.raises(DomainError, match=r"lmax = 61 is outside the allowed range integers in "
                                          r"\[0, 60\]"):
        th.spectrum(3, 61)


@SETTINGS
@given(x=st.one_of(
    st.just([[1.0]]), st.just([1.0, 2.0]), st.just([]), st.just("abc"), st.none(),
    st.just([[1.0, float("nan")]]), st.just([[float("inf"), 1.0]]), st.just(np.zeros((0, 3))),
    st.just(np.zeros((2, 3, 4)))), l=st.sampled_from([0, 1, 2]))
def test_eigenfunction_basis_bad_inputs(x, l):
    _refused(th.eigenfunction_basis, x, l)


@SETTINGS
@given(l=st.one_of(st.integers(max_value=-1), st.integers(min_value=3), NOT_INTEGERS))
def test_eigenfunction_basis_bad_degree(l):
    _refused(th.eigenfunction_basis, np.ones((2, 3)), l)


def test_eigenfunction_basis_zero_row_and_memory():
    _refused(th.eigenfunction_basis, np.zeros((2, 3)), 2)
    assert th.eigenfunction_basis(np.zeros((2, 3)), 0).shape == (2, 1)  # ‖0‖ = 0 is fine
    # n·N(d, 2)·8 bytes: 10^5 rows at d = 300 (N = 45149) is 36 GB, refused before allocating
    big = np.broadcast_to(np.ones(300), (10**5, 300))
    with pytest.raises(DomainError, match="GiB"):
        th.eigenfunction_basis(big, 2)


# --------------------------------------------------------------------------- sim


BAD_SEED = st.one_of(st.integers(max_value=-1), st.floats(), st.text(max_size=3), st.none(),
                     st.booleans())


@SETTINGS
@given(d=st.one_of(st.integers(max_value=0), NOT_INTEGERS))
def test_sim_bad_d(d):
    _refused(sim.sample, d, 10, 0)
    _refused(sim.check_sample, d, 10, 0)
    _refused(sim.sample_bytes, d, 10)


@SETTINGS
@given(m=st.one_of(st.integers(max_value=1), NOT_INTEGERS))
def test_sim_bad_m(m):
    _refused(sim.sample, 3, m, 0)


@SETTINGS
@given(seed=BAD_SEED)
def test_sim_bad_seed(seed):
    _refused(sim.sample, 3, 10, seed)


@SETTINGS
@given(d=st.integers(min_value=1, max_value=10**400), m=st.integers(min_value=2,
                                                                     max_value=10**400))
def test_sim_memory_bound_before_allocation(d, m):
    if sim.sample_bytes(d, m) <= sim.MAX_BYTES:
        return
    with pytest.raises(DomainError, match="GiB"):
        sim.sample(d, m, 0)


def test_sim_accepts_seed_sequences_and_int_seeds_alike():
    a = sim.sample(3, 40, 7)
    b = sim.sample(3, 40, np.random.SeedSequence(7))
    assert np.array_equal(a.W, b.W)
    # and the integer seed is the generator's seed, as before the SeedSequence scheme
    assert np.array_equal(a.W, np.random.default_rng(7).standard_normal((3, 40)) / math.sqrt(40))


@SETTINGS
@given(W=st.one_of(st.just([1.0, 2.0]), st.just("x"), st.none(), st.just([[1.0, 0.0]]),
                   st.just([[float("nan"), 1.0], [1.0, 1.0]]), st.just(np.zeros((3, 0)))))
def test_fisher_matrix_bad_weights(W):
    """Not a matrix, NaN, or a zero column (whose direction is undefined)."""
    _refused(sim.fisher_matrix, W)


def test_fisher_matrix_memory_bound():
    W = np.broadcast_to(np.ones((1, 1)), (1, 20_000))
    with pytest.raises(DomainError, match="GiB"):
        sim.fisher_matrix(W)


@SETTINGS
@given(n=st.one_of(st.integers(max_value=0), st.integers(min_value=10**9), NOT_INTEGERS))
def test_monte_carlo_bad_n(n):
    _refused(sim.fisher_matrix_monte_carlo, np.eye(2), n, 0)


def _not_a_ratio(text: str) -> bool:
    """Text that is not a number > 1 (text such as "2" is one: read as on the command line)."""
    from fltheory.exact import as_rational

    try:
        return not as_rational(text) > 1
    except DomainError:
        return True


@SETTINGS
@given(count=st.one_of(st.integers(max_value=0), NOT_INTEGERS),
       ratio=st.one_of(st.floats(max_value=1.0), st.just(float("nan")), st.just(float("inf")),
                       st.text(max_size=2).filter(_not_a_ratio), st.none()))
def test_gap_clusters_bad_arguments(count, ratio):
    eig = np.array([2.0, 1.0, 0.5])
    _refused(sim.gap_clusters, eig, count)
    _refused(sim.gap_clusters, eig, 3, ratio)
    for bad in ([[1.0]], [float("nan")], "x", None, []):
        _refused(sim.gap_clusters, bad, 3)


def test_project_outputs_and_paper_functions_bad_arguments():
    s = sim.sample(2, 20, 0)
    x = np.ones((5, 2))
    _refused(sim.project_outputs, "sample", slice(0, 1), x, x)
    _refused(sim.project_outputs, s, slice(30, 40), x, x)
    _refused(sim.project_outputs, s, 3, x, x)
    _refused(sim.project_outputs, s, slice(0, 1), x, np.ones((5, 3)))
    _refused(sim.project_outputs, s, slice(0, 1), np.ones((4, 2)), x)
    for bad in (np.ones((3, 1)), np.zeros((2, 2)), [[np.nan, 1.0]], "x"):
        _refused(sim.paper_functions, bad)


# --------------------------------------------------------------------------- typed results


def test_spectrum_is_a_sequence_and_a_table():
    spec = th.spectrum(d=5)
    assert len(spec) == 5 and spec[0].l == 0 and [lev.l for lev in spec] == list(range(5))
    assert spec[-1] is spec.levels[-1] and spec[1:3] == spec.levels[1:3]
    html = spec._repr_html_()
    assert html.count("<tr>") == 6 and "λ_l exact" in html
    # the trace shares: one rule, cumulative, the top three equal to the summed levels
    with mpmath.workdps(40):
        top = sum(lev.multiplicity * lev.value for lev in spec.levels[:3]) / mpmath.mpf(5 / 2)
    assert abs(spec.share.top3 - top) < mpmath.mpf(10) ** -29
    assert spec.share.cumulative == tuple(sorted(spec.share.cumulative))
    assert th.trace_share(5).top3 == spec.share.top3
    assert th.spectrum(5, 1).share.top3 is None and th.spectrum(5, 1).share.paper is None


def test_trace_share_exact_for_huge_d():
    """d/2 is taken at the working precision: at d = 10^100 the share of λ_0 is 1/π to all
    printed digits (relative O(1/d) corrections), not to the 16 digits of a double."""
    share = th.trace_share(10**100, 2, 30).cumulative[0]
    with mpmath.workdps(35):
        assert abs(share - 1 / mpmath.pi) < mpmath.mpf(10) ** -30


def test_cluster_comparison_shows_a_table():
    from fltheory.papers.fisher.runs import compare_clusters

    cmp = compare_clusters(4, 300, 0)
    assert cmp.clusters.sizes == (1, 4, 9)
    rows = cmp.table().rows
    assert [r[0] for r in rows] == ["0", "1", "2"] and "<table" in cmp._repr_html_()
    rel = (cmp.clusters.means[0] - float(cmp.levels[0].value)) / float(cmp.levels[0].value)
    assert cmp.relative_errors[0] == rel
