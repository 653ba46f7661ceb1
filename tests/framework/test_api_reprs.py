"""Result objects of the Python API print as one short, readable line (modelled on
FisherSpectrum's repr) and keep their HTML table in a notebook."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fltheory.engine.hermite import analyse, expansion
from fltheory.papers.fisher.theory import spectrum
from fltheory.papers.recovery.theory import recovery_at
from fltheory.papers.twostep.learning import learn
from fltheory.papers.twostep.terms import TWO_STEP_SIGMA, TwoStepModel

MAX_REPR = 400  # characters: one or two lines of a terminal, never a dataclass dump


def test_fisher_spectrum_repr_is_the_model():
    text = repr(spectrum(5, 2, 15))
    assert len(text) < MAX_REPR and text.startswith("FisherSpectrum(d=5")


def test_expansion_repr():
    text = repr(expansion("He2", 3, 15))
    assert text == "Expansion(f(z) = z**2 - 1, K = 3, dps = 15: μ = 0, 0, sqrt(2), 0)"
    long = repr(expansion("relu", 40, 15))  # 41 exact coefficients: only the first are shown
    assert len(long) < MAX_REPR and "K = 40" in long and "(32 more)" in long
    numeric = repr(expansion("tanh", 3, 15))
    assert "0.60570551" in numeric and len(numeric) < MAX_REPR


def test_hermite_analysis_repr():
    a = analyse("He3", kmax=3, dps=15)
    text = repr(a)
    assert len(text) < MAX_REPR
    assert "f(z) = z**3 - 3*z" in text and "information 3" in text and "generative 1" in text
    assert "sqrt(6)" in text
    assert "information exponent 3" in a._repr_html_()  # the table stays
    long = repr(analyse("relu", kmax=40, dps=15))
    assert len(long) < MAX_REPR + 100 and "information 1" in long


def test_learn_report_repr_and_one_target_as_a_string():
    one = learn(TWO_STEP_SIGMA, "He3", Fraction(9, 20), Fraction(3, 10), "reused")
    assert [d.target for d in one.directions] == ["He3"]  # not 'H', 'e', '3'
    text = repr(one)
    assert len(text) < MAX_REPR
    for fact in ("targets [He3]", "reused", "α1 = 9/20", "α2 = 3/10", "Λ = 2",
                 "β1 He3 (info 3, gen 1): step 2 via k = 2"):
        assert fact in text, (fact, text)
    two = repr(learn(TWO_STEP_SIGMA, ["He1", "He2"], Fraction(9, 20), Fraction(3, 10),
                     "fresh"))
    assert "β1 He1 (info 1, gen 1): step 1" in two and "β2 He2 (info 2, gen 2): not learned" in two
    assert "<table" in one._repr_html_()


def test_two_step_model_takes_one_target_as_a_string():
    assert [g.text for g in TwoStepModel.build(TWO_STEP_SIGMA, "He1").targets] == ["He1"]
    from fltheory.exact import DomainError

    with pytest.raises(DomainError):
        TwoStepModel.build(TWO_STEP_SIGMA, ["He1", 3])  # type: ignore[list-item]


def test_recovery_at_repr_and_notebook_answers():
    r = recovery_at(100, 2, Fraction(1), Fraction(10**5), d1=2)
    text = repr(r)
    assert len(text) < MAX_REPR
    for fact in ("d=100", "q=2", "γ=1", "d1=2", "n=100000", "δ=19.8", "recovered 2 (Lu–Li)",
                 "2 (scaling)", "MSE 0.1733", "law MSE 0.1757"):
        assert fact in text, (fact, text)
    html = r._repr_html_()
    # the scaling count is capped at d1 = 2 (11 uncapped before the model's ‖λ‖² entered it)
    for fact in ("recovered (Lu–Li outliers): 2 of 2",
                 "recovered (scaling count, n &gt;= C·D/c_k²): 2",
                 "MSE at δ = 19.8: 0.1733", "law (d1 = ∞, this C): MSE ≈ 0.782071·δ^(-1/2)"):
        assert fact in html, fact
    assert r.table().notes == []  # the CLI's table (its summary already says the answers)
    huge = repr(recovery_at(100, 2, Fraction(1), Fraction(10**40), d1=1))
    assert "n=1e+40" in huge and "- (scaling)" in huge and len(huge) < MAX_REPR


def test_records_behave_as_the_dataclasses_they_replace():
    """Table, Result (results.Record) and the two-step records (FrozenRecord) are plain classes
    for start-up's sake; the reference is a dataclass with the same fields, built here: the same
    repr and ==, replace() as dataclasses.replace, pickling, and frozen records refusing
    assignment and hashing by their fields."""
    import dataclasses
    import pickle
    from fractions import Fraction

    from fltheory.papers.twostep.phases import LambdaResult, PhaseRegion, TermExponent
    from fltheory.results import Result, Table

    ref_table = dataclasses.make_dataclass("Table", [(f, object) for f in Table._fields])
    ref_term = dataclasses.make_dataclass("TermExponent", [("k", int), ("exponent", Fraction)],
                                          frozen=True)
    t = Table(["a"], [["1"]], caption="c")
    values = {f: getattr(t, f) for f in Table._fields}
    assert repr(t) == repr(ref_table(**values))
    assert values["notes"] == [] and t.latex_rows is None
    assert t == Table(["a"], [["1"]], caption="c") and t != Table(["a"], [["2"]])
    assert t.replace(rows=[["2"]]) == Table(["a"], [["2"]], caption="c")
    assert pickle.loads(pickle.dumps(t)) == t
    with pytest.raises(TypeError):
        hash(t)
    with pytest.raises(TypeError, match="no field 'nope'"):
        t.replace(nope=1)
    r = Result("x", {"a": "1"}, 3, table=t)
    assert r.replace(value=4).value == 4 and r.value == 3 and pickle.loads(pickle.dumps(r)) == r
    e = TermExponent(2, Fraction(1, 10))
    assert repr(e) == repr(ref_term(2, Fraction(1, 10)))
    assert hash(e) == hash(TermExponent(2, Fraction(1, 10))) and e.status == "outlier"
    with pytest.raises(AttributeError):
        e.k = 3  # type: ignore[misc]
    lr = LambdaResult(Fraction(2, 5), Fraction(3, 10), 5, 3, Fraction(3), 3, (e,))
    assert pickle.loads(pickle.dumps(lr)) == lr and lr.omitted is None
    assert PhaseRegion(Fraction(0), None, 0, False) != PhaseRegion(Fraction(0), None, 1, False)
