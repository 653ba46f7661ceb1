"""The Python API of fltheory.papers.rf_spectrum.theory: result objects, their fields, JSON,
tables and argument handling (the numbers themselves are checked in
tests/papers/rf_spectrum/test_rf_spectrum.py)."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from fltheory.exact import DomainError
from fltheory.papers.fisher import theory as fisher
from fltheory.papers.rf_spectrum import theory as rf


def test_result_fields_and_access():
    spec = rf.spectrum("relu", 5, 1, lmax=3, jmax=1, dps=20)
    assert isinstance(spec, rf.RFSpectrum)
    assert len(spec) == len(spec.levels) == 4 * 2
    assert [(v.l, v.j) for v in spec] == [(l, j) for l in range(4) for j in range(2)]
    lev = spec.level(2, 0)
    assert isinstance(lev, rf.RFLevel) and lev.exact and lev.digits == 20
    assert lev.multiplicity == rf.multiplicity(5, 2) == fisher.multiplicity(5, 2) == 14
    assert spec.eigenvalue(2) == lev.value
    assert spec.eigenvalue(3, 1) == 0 and spec.level(3, 1).reason
    with pytest.raises(DomainError):
        spec.level(4, 0)
    with pytest.raises(DomainError):
        spec.level(0, 2)
    assert 0 < spec.trace_share <= 1
    assert "relu" in repr(spec) and "exact:homogeneous" in repr(spec)


def test_as_json_is_plain_json():
    spec = rf.spectrum("sigmoid", 10**6, 1, lmax=2, jmax=1, dps=6)
    data = json.loads(json.dumps(spec.as_json()))
    assert data["method"] == "exact:homogeneous+nystrom"  # even part 1/2, odd part numeric
    assert [lv["method"] for lv in data["levels"]] == [
        "exact:homogeneous", "zero:rank", "nystrom", "nystrom", "zero:degree", "zero:degree"]
    assert float(data["trace"]) == pytest.approx(float(spec.trace), rel=1e-5)  # 6 digits
    assert data["notes"] and data["vanishing"]


def test_table_rows_show_confirmed_digits():
    spec = rf.spectrum("z**3 - z/2 + 1/5", 5, "3/2", lmax=3, jmax=1, dps=15)
    table = spec.table()
    assert table.columns[:4] == ["l", "j", "N(d,l)", "λ_l,j"]
    assert table.rows[2] == ["1", "0", "5", "62.284199640886",
                             "2097*sqrt(56449)/16000 + 498321/16000", "15", "exact:polynomial"]
    assert any("trace" in note for note in table.notes)
    assert "<table" in spec._repr_html_()


@pytest.mark.parametrize("scale", [Fraction(3, 2), "3/2", "1.5", 1.5, sp.Rational(3, 2)])
def test_scale_is_read_exactly(scale):
    spec = rf.spectrum("z**2", 4, scale, lmax=0, jmax=0, dps=15)
    # σ = z²: λ_{0,0} = E[r⁴](1 + 2/d) = s⁴ (1 + 2/d)², exactly
    assert spec.level(0, 0).closed == sp.Rational(81, 16) * sp.Rational(3, 2) ** 2


def test_scale_as_text_of_an_irrational():
    spec = rf.spectrum("relu", 5, "sqrt(5)", lmax=1, jmax=0, dps=20)
    assert spec.level(0, 0).closed == sp.sympify(fisher.eigenvalue(5, 0).exact)


@pytest.mark.parametrize("scale", ["0", "-2", "z", "sqrt(-1)", None, "abc"])
def test_bad_scale(scale):
    with pytest.raises(DomainError) as err:
        rf.spectrum("relu", 5, scale, lmax=0, jmax=0)
    assert err.value.param == "scale"


def test_kernel_trace_exact():
    """He3(rz) = r³z³ − 3rz: E_z = 15r⁶ − 18r⁴ + 9r², E r^{2b} = Π_{i<b}(1 + 2i/d) at s = 1:
    at d = 9, 15·143/81 − 18·11/9 + 9 = 364/27."""
    with mpmath.workdps(25):
        assert mpmath.almosteq(rf.kernel_trace("He3", 9, 1, dps=20), mpmath.mpf(364) / 27,
                               rel_eps=1e-19)
    assert rf.spectrum("He3", 9, 1, lmax=0, jmax=0).trace_exact == sp.Rational(364, 27)


def test_large_d_approach_fields():
    app = rf.large_d_approach("relu", 2, [5, 50], scale=1, dps=10)
    assert isinstance(app, rf.RFApproach) and len(app.rows) == 2
    d, lam0, _, _, ratio = app.rows[0]
    assert d == 5 and ratio == 0  # relu: rank one at every d
    assert mpmath.almosteq(lam0, rf.spectrum("relu", 5, 1, lmax=2, jmax=0, dps=10)
                           .eigenvalue(2), rel_eps=1e-9)
    assert len(app.table().rows) == 2
    with pytest.raises(DomainError):
        rf.large_d_approach("relu", 2, [])
    with pytest.raises(DomainError):
        rf.large_d_approach("relu", 2, [1])


def test_work_is_bounded_before_it_starts():
    with pytest.raises(DomainError, match="multiply-adds"):
        rf.spectrum("tanh", 2, 1, lmax=20, jmax=5, dps=60)
