"""The committee paper's parameters (fltheory.papers.committee.params): each field read once, at
construction, with the readers of fltheory.args; the API refuses what the command refuses (the
second layers' range lived only in the command before); and on ``committee simulate`` the step
η is read once, by its parameter object, and trusted by the simulator, the ODE and the runs."""

from __future__ import annotations

import importlib
import inspect
import json
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from fltheory.exact import DomainError
from fltheory.papers.committee.params import (
    A_RANGE,
    CommitteeModel,
    ODESettings,
    SGDSettings,
    paired,
    read_layer,
    read_overlaps,
)


def test_model_fields_are_read_once_and_exact():
    m = CommitteeModel("erf_ss", 3, 2, a="1/K", a_star=[1, "1/2"], noise=0.1,
                       weight_decay="1e-3")
    assert m.a == (Fraction(1, 3),) * 3 and m.a_star == (Fraction(1), Fraction(1, 2))
    assert m.noise == Fraction(1, 10) and m.weight_decay == Fraction(1, 1000)
    assert np.allclose(m.w, [-1 / 3, -1 / 3, -1 / 3, 1, 0.5])
    assert CommitteeModel("erf_ss", 2, 2) == CommitteeModel("erf_ss", 2, 2, a=1, a_star=[1, 1])


@pytest.mark.parametrize("a", ["1e-3", "5", "-4.5", [1, 100]])
def test_the_api_refuses_the_second_layers_the_command_refuses(invoke, a):
    """A_RANGE was the command's alone: the API accepted --a 1e-3 and ran into a stiff ODE."""
    with pytest.raises(DomainError, match="0 or 1/100 <= \\|a\\| <= 4") as info:
        CommitteeModel("erf_ss", 2, 2, a=a)
    assert info.value.param == "a"
    if isinstance(a, str):
        r = invoke("committee", "plateau", "--eta", "1/2", "--a", a)
        assert r.exit_code == 2 and str(info.value) in r.stderr
    lo, hi = A_RANGE
    assert CommitteeModel("erf_ss", 2, 2, a=[0, lo]).a == (0, lo)
    assert CommitteeModel("erf_ss", 2, 2, a_star=-hi).a_star == (-hi, -hi)


@pytest.mark.parametrize(("call", "match"), [
    (lambda: CommitteeModel("import os", 1, 1), "g = import os is not a valid expression"),
    (lambda: CommitteeModel(None, 1, 1), "g = None"),
    (lambda: CommitteeModel("erf_ss", 51, 1), "K = 51"),
    (lambda: read_layer([1, 2], 3, "a", "K"), "a = 2 numbers"),
    (lambda: read_layer(object(), 3, "a", "K"), "a = "),
    (lambda: read_overlaps("1,2;3", "T"), "T = "),
    (lambda: read_overlaps([[1e7]], "Q0"), "entries of magnitude <= 1e6"),
    (lambda: read_overlaps(np.eye(2), "R0", (2, 1)), "shape \\(2, 1\\)"),
    (lambda: ODESettings(0), "eta = 0 is outside the allowed range eta > 0"),
    (lambda: ODESettings("x"), "eta = x"),
    (lambda: ODESettings(1, t_max=10**6), "t_max = 1000000"),
    (lambda: ODESettings(1, q0=0), "q0 = 0"),
    (lambda: ODESettings(1, rho0=-1), "rho0 = -1"),
    (lambda: ODESettings(1, method="euler"), "method = euler"),
    (lambda: ODESettings(1, rtol=0), "rtol = 0"),
    (lambda: ODESettings(1, t_grid=[1, 0]), "t_grid = "),
    (lambda: SGDSettings("-1/2", 100, 1), "eta = -1/2"),
    (lambda: SGDSettings(1, 20001, 1), "N = 20001"),
    (lambda: SGDSettings(1, 100, 1001), "t_max = 1001"),
    (lambda: SGDSettings(1, 100, 1, seed=-1), "seed = -1"),
    (lambda: SGDSettings(1, 100, 1, q0=0), "q0 = 0"),
    (lambda: paired(["erf", "relu"], [1, 2, 3]), "does not pair with g"),
])
def test_bad_parameters_are_one_line_domain_errors(call, match):
    with pytest.raises(DomainError, match=match) as info:
        call()
    assert "\n" not in str(info.value)


def test_settings_give_their_grids():
    assert ODESettings("1/2", t_max=10, records=3).grid.tolist() == [0.0, 5.0, 10.0]
    assert ODESettings(1, t_grid=[0, 2, 3]).grid.tolist() == [0.0, 2.0, 3.0]
    s = SGDSettings(0.1, 200, 5, records=6)
    assert s.eta == Fraction(1, 10) and s.grid.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert (s.rtol, s.atol, s.method) == (1e-10, None, "auto")


_MODULES = ("params", "model", "ode", "plateau", "sim", "runs", "claims", "cli")
_READERS = ("read_step", "read_rational", "read_real", "read_noise", "as_rational",
            "parse_rational")


def test_eta_is_read_once_on_simulate(invoke, monkeypatch):
    """``committee simulate``: η is read by SGDSettings and by no other reader on the way (the
    simulator, the ODE, the cost estimates and the run trust it). Every reader a committee
    module imported is wrapped to count the reads that name ``eta``."""
    reads: list[str] = []

    def counting(module: str, name: str, reader: Any) -> Any:
        signature = inspect.signature(reader)

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            if bound.arguments.get("param") == "eta":
                reads.append(f"{module}.{name}")
            return reader(*args, **kwargs)
        return wrapped

    for key in _MODULES:
        module = importlib.import_module(f"fltheory.papers.committee.{key}")
        for name in _READERS:
            if hasattr(module, name):
                monkeypatch.setattr(module, name, counting(key, name, getattr(module, name)))
    r = invoke("committee", "simulate", "--eta", "3/2", "--N", "100", "--t-max", "2",
               "--format", "json")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout)["inputs"]["eta"] == "3/2"
    assert reads == ["params.read_step"]
