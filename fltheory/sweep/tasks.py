"""The simulations a sweep can run: each takes its parameters and one seed and returns a flat
dict of numbers (what the aggregation averages).

Each parameter is declared with its kind — ``int``, ``rational`` (exact on the command line, a
float at evaluation), ``str`` or a tuple of choices —, its default and its domain (a range); a
task may add a joint check (constraints between parameters, the estimated cost of one run). A
grid point is the defaults overridden by ``--grid`` values, and every point is validated
(:func:`validate`) before any run starts, so a bad value is one line and exit status 2, never a
failed run. A paper's tasks name their functions by ``"module:attribute"``
(:class:`TaskFunction`, imported on first call), so listing tasks is light.

Bounds on the work (checked before any run):

* one run: its cost is estimated from the parameters and refused above :data:`MAX_RUN_SECONDS`
  (seconds on one core of the development machine — 2 shared cores —, each formula measured
  at two sizes, see the ``_cost_*`` functions);
* one sweep: at most :data:`MAX_RUNS` grid points × seeds.

The per-parameter ranges follow the bounds of the corresponding commands (``twostep simulate``,
``fisher simulate``, ``quadratic simulate``, ``recovery simulate``); where those commands accept
runs of more than a minute, the sweep task is tighter through its cost check.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from fltheory.exact import (
    DomainError,
    check_cost,
    fraction_str,
    parse_count,
    parse_rational,
    to_float,
)

if TYPE_CHECKING:
    from fltheory.papers import Paper

__all__ = ["CORE_TASKS", "MAX_RUNS", "MAX_RUN_SECONDS", "Param", "Task", "TaskFunction",
           "all_tasks", "as_float", "canonical", "check_runs", "get_task", "grid_points",
           "parse_value", "run_cost", "short_value", "validate"]

Kind = str | tuple[str, ...]

#: grid points × seeds of one sweep (a sweep is resumable and cached, so this bounds the size of
#: one request and its bookkeeping — 10⁴ rows of output, 10⁴ futures —, not the hours it runs)
MAX_RUNS = 10_000
#: estimated seconds of one run on one core: an accepted run finishes well within a minute
MAX_RUN_SECONDS = 30.0


@dataclass(frozen=True)
class Param:
    """One parameter of a task: kind, default and domain ``[low, high]`` (ends open when
    ``low_open``/``high_open``; ``None`` is unbounded)."""

    kind: Kind
    default: Any
    low: Fraction | int | None = None
    high: Fraction | int | None = None
    low_open: bool = False
    high_open: bool = False

    def allowed(self) -> str:
        if isinstance(self.kind, tuple):
            return " or ".join(self.kind)
        if self.kind == "str":
            return "text"
        noun = "integers" if self.kind == "int" else "numbers"
        lo = "-inf" if self.low is None else fraction_str(self.low)
        hi = "inf" if self.high is None else fraction_str(self.high)
        return (f"{noun} in {'(' if self.low_open or self.low is None else '['}{lo}, {hi}"
                f"{')' if self.high_open or self.high is None else ']'}")

    def check(self, name: str, value: Any) -> Any:
        if isinstance(self.kind, tuple) or self.kind == "str":
            return value
        low_ok = self.low is None or (value > self.low if self.low_open else value >= self.low)
        high_ok = self.high is None or (value < self.high if self.high_open
                                        else value <= self.high)
        if not (low_ok and high_ok):
            raise DomainError(name, short_value(value), self.allowed(), reason="is out of range")
        if self.kind == "rational":
            to_float(value, name)  # a double must hold it (no silent inf or 0)
        return value


def short_value(value: Fraction | int) -> str:
    """A value for an error message: exact, or its first digits when it is long."""
    text = fraction_str(value)
    return text if len(text) <= 40 else f"{text[:12]}… ({len(text)} characters)"


class TaskFunction:
    """A task's function or check named by a ``"module:attribute"`` string and imported on its
    first call, so that declaring tasks (and listing them) imports no simulator: a paper's
    declaration (``Paper.sweep_tasks``) names the functions of its simulator or claims module.
    It pickles as its name (what travels to a worker process).

    >>> f = TaskFunction("fltheory.sweep.tasks:as_float")
    >>> f, f("1/4")
    (TaskFunction('fltheory.sweep.tasks:as_float'), 0.25)
    """

    __slots__ = ("_func", "target")

    def __init__(self, target: str) -> None:
        self.target = target
        self._func: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        if self._func is None:
            from fltheory.papers import load

            self._func = load(self.target)
        return self._func(*args)

    def __reduce__(self) -> tuple[type, tuple[str]]:
        return TaskFunction, (self.target,)

    def __repr__(self) -> str:
        return f"TaskFunction({self.target!r})"


@dataclass(frozen=True)
class Task:
    id: str
    description: str
    params: Mapping[str, Param]
    #: ``func(values, seed)``: the grid point's values parsed exactly (``int``, ``Fraction``,
    #: ``str``) and the run's seed, a ``numpy.random.SeedSequence`` derived from (user seed,
    #: task, point) — or the user's integer seed unchanged when ``derive_seed`` is False
    func: Callable[[dict[str, Any], Any], dict[str, Any]]
    derive_seed: bool = True  # False: the user's seed is passed unchanged (claims)
    #: joint constraints and the cost check, on the parsed values (after the per-parameter ones)
    check: Callable[[dict[str, Any]], None] | None = None


def parse_value(task: Task, name: str, text: str) -> Any:
    """A grid value from the command line, exactly (rationals stay Fractions), checked against
    the parameter's domain."""
    if name not in task.params:
        raise DomainError("grid", name, "one of " + ", ".join(task.params),
                          reason=f"is not a parameter of {task.id}")
    param = task.params[name]
    kind = param.kind
    if kind == "int":
        try:
            value: Any = parse_count(text, name, -(10**18))
        except DomainError as exc:
            raise DomainError(name, text[:40], param.allowed(),
                              reason=exc.reason or "is not an integer") from None
        return param.check(name, value)
    if kind == "rational":
        return param.check(name, parse_rational(text, name))
    if kind == "str":
        return str(text)
    if text not in kind:
        raise DomainError(name, text[:40], " or ".join(kind), reason="is not a choice")
    return text


def canonical(task: Task, overrides: Mapping[str, Any]) -> dict[str, str]:
    """All parameters (defaults filled) as strings: the store key and what tasks receive."""
    out = {}
    for name, param in sorted(task.params.items()):
        value = overrides.get(name, param.default)
        out[name] = fraction_str(value) if isinstance(value, Fraction) else str(value)
    return out


def validate(task: Task, point: Mapping[str, str]) -> None:
    """Check one grid point (canonical strings) against the task's domain and cost bound;
    raise :class:`DomainError` naming the parameter and its allowed range."""
    unknown = [name for name in point if name not in task.params]
    if unknown:
        raise DomainError("grid", unknown[0], "one of " + ", ".join(task.params),
                          reason=f"is not a parameter of {task.id}")
    values = {name: parse_value(task, name, str(point.get(name, _default_text(p))))
              for name, p in task.params.items()}
    if task.check is not None:
        task.check(values)


def _default_text(param: Param) -> str:
    d = param.default
    return fraction_str(d) if isinstance(d, Fraction) else str(d)


def check_runs(points: int, seeds: int) -> None:
    """At most :data:`MAX_RUNS` runs (grid points × seeds) in one sweep."""
    check_cost(f"runs = {points} grid point(s) × {seeds} seed(s)", points * seeds, MAX_RUNS,
               "runs", "fewer grid values or seeds; split the sweep (the store keeps the runs)")


def run_cost(what: str, seconds: float, hint: str) -> None:
    check_cost(what, seconds, MAX_RUN_SECONDS, "s per run (estimated, one core)", hint)


def as_float(value: Fraction | int | str) -> float:
    """A grid value (exact, or its canonical text) as a float, where a simulator needs one.

    >>> as_float(Fraction(1, 3)) == as_float("1/3") == 1 / 3
    True
    """
    return float(Fraction(value))


# --------------------------------------------------------------------------- the tasks


def _check_normal(p: dict[str, Any], seed: Any) -> dict[str, float]:
    from fltheory.simkit.seeding import rng

    z = rng(seed).standard_normal(int(p["n"]))
    return {"mean": float(z.mean()), "second_moment": float(z @ z / len(z))}


def _check_fail(p: dict[str, Any], seed: int) -> dict[str, float]:
    if int(p["x"]) == int(p["bad"]):
        raise RuntimeError(f"check.fail: x = {p['x']} is the failing value")
    return {"x": float(p["x"])}


def _check_sleep(p: dict[str, Any], seed: int) -> dict[str, float]:
    time.sleep(as_float(p["seconds"]))
    return {"slept": as_float(p["seconds"])}


def _claims(p: dict[str, Any], seed: int) -> dict[str, Any]:
    """Claims of one paper in one process, so that claims sharing simulations (the paper
    modules cache them) compute them once."""
    from fltheory.claims.registry import run_claim, select

    wanted = p["claims"].split(",")
    claims = {c.id: c for c in select(wanted[0].split(".")[0])}
    return {"runs": [run_claim(claims[i], p["size"], seed).as_json() for i in wanted]}


# --------------------------------------------------------------------------- domains and costs
# Each cost formula: seconds on one core (one BLAS thread, as sweeps run), fitted on the
# development machine (2 cores shared with other jobs) at two sizes; the constants are rounded
# up, so the estimate errs on the safe side.


def _check_claims(v: dict[str, Any]) -> None:
    from fltheory.claims.registry import select

    wanted = str(v["claims"]).split(",")
    paper = wanted[0].split(".")[0]
    known = {c.id for c in select(paper)}
    for claim_id in wanted:
        if claim_id not in known:
            raise DomainError("claims", claim_id, "claim ids of one paper (fltheory verify "
                              "--list), comma-separated", reason="is not a claim of " + paper)


#: the tasks of the sweep machinery itself; the papers contribute theirs (``Paper.sweep_tasks``)
CORE_TASKS: tuple[Task, ...] = (
    Task("check.normal", "self-check: mean and second moment of n seeded normals",
         {"n": Param("int", 1000, 1, 10**7)}, _check_normal),
    Task("check.fail", "self-check: raises when x equals bad (failure reporting)",
         {"x": Param("int", 0, -10**9, 10**9), "bad": Param("int", 1, -10**9, 10**9)},
         _check_fail),
    Task("check.sleep", "self-check: sleeps (parallel speed-up, interruption)",
         {"seconds": Param("rational", Fraction(1, 10), 0, 30)}, _check_sleep),
    Task("verify.claims", "registered claims of one paper at a size (what `verify` runs in "
         "parallel, one task per paper; not aggregated)",
         {"claims": Param("str", "hermite.coefficient"),
          "size": Param(("small", "large"), "small")},
         _claims, derive_seed=False, check=_check_claims),
)


def grid_points(task_id: str, specs: Sequence[str]) -> list[dict[str, str]]:
    """The grid points of ``specs`` (``"NAME=v1,v2,…"`` each; the grid is their product) as
    canonical strings, each checked against the task's domain and cost bound, and their number
    against :data:`MAX_RUNS` (counted before any value is parsed).

    >>> grid_points("check.normal", ["n=10,20"])
    [{'n': '10'}, {'n': '20'}]
    >>> grid_points("check.normal", ["n=0"])
    Traceback (most recent call last):
    fltheory.exact.DomainError: n = 0 is out of range; allowed: integers in [1, 10000000]
    """
    from itertools import product

    task = get_task(task_id)
    texts: dict[str, list[str]] = {}
    for spec in specs:
        name, eq, values = spec.partition("=")
        if not eq or not values:
            raise DomainError("grid", spec[:60], "NAME=v1,v2,… (e.g. N=500,1000)",
                              reason="is not NAME=values")
        if name in texts:
            raise DomainError("grid", spec[:60], "each parameter once", reason="repeats " + name)
        texts[name] = values.split(",")
    size = 1
    for values_ in texts.values():
        size *= len(values_)
        if size > MAX_RUNS:
            check_cost(f"grid = {' × '.join(str(len(v)) for v in texts.values())} points",
                       size, MAX_RUNS, "grid points", "fewer grid values; split the sweep")
    axes = {name: [parse_value(task, name, v) for v in values_]
            for name, values_ in texts.items()}
    names = list(axes)
    points = [canonical(task, dict(zip(names, combo, strict=True)))
              for combo in product(*(axes[n] for n in names))]
    for point in points:
        validate(task, point)
    return points


def all_tasks(which: Iterable[Paper] | None = None) -> dict[str, Task]:
    """Task id → task: the core tasks, then every paper's (``Paper.sweep_tasks``; ``which``
    restricts the papers, default all discovered); imports the papers' declarations
    (``<key>/sweeps.py``), which import their simulators only when a task runs. A task id
    declared twice is a RuntimeError naming both declarers (a paper's key, or ``core`` for
    :data:`CORE_TASKS`).

    >>> "verify.claims" in all_tasks()
    True
    """
    from fltheory.papers import load, papers

    found: list[tuple[Task, str]] = [(task, "core") for task in CORE_TASKS]
    for paper in papers() if which is None else which:
        if paper.sweep_tasks is not None:
            found.extend((task, paper.key) for task in load(paper.sweep_tasks))
    tasks: dict[str, Task] = {}
    owners: dict[str, str] = {}
    for task, owner in found:
        if task.id in tasks:
            raise RuntimeError(f"sweep task {task.id!r} is declared twice: by {owners[task.id]} "
                               f"and by {owner}")
        tasks[task.id], owners[task.id] = task, owner
    return tasks


def get_task(task_id: str) -> Task:
    """The task ``task_id`` (see :func:`all_tasks`)."""
    tasks = all_tasks()
    if task_id not in tasks:
        raise DomainError("TASK", task_id, "one of " + ", ".join(sorted(tasks)),
                          reason="is not a sweepable simulation (fltheory sweep --list)")
    return tasks[task_id]
