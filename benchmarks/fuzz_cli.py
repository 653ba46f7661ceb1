"""Fuzz every command and sub-command of ``fltheory`` with bad, extreme and hostile values.

The commands and their options are discovered from the click tree (``fltheory.cli.cli``, whose
root lists ``fltheory.cli.commands()``; groups are walked, and a group that runs without a sub-
command is fuzzed itself), so a new command or option is fuzzed without editing this script.
Each invocation starts from a cheap valid command line (``BASE`` below; a command missing from
it gets one built from its options' types) and replaces one option -- sometimes two -- by a
value drawn from a pool chosen by the option's type and name: malformed and oversize numbers,
nan/inf, values beyond a double's range, edge values that are valid, hostile expressions,
unwritable or special paths, malformed grids and ranges.

Each invocation runs in its own process with a wall-time bound (--timeout), at most --jobs (<= 2)
at a time, in a fresh temporary cwd with a fresh FLTHEORY_CACHE, an address-space limit
(--mem-gib) and umask 022. Two runners:

* ``fork`` (default): one process imports fltheory and its heavy dependencies once, then forks a
  child per invocation that runs ``cli.main(argv)`` exactly as the console script does (exit
  status, stdout, stderr, uncaught tracebacks). A child past its time bound is killed with its
  whole process group; no state is shared between invocations (each child is a fresh copy of
  the parent, which never runs a command). ~20-50x faster than a cold start per invocation.
* ``subprocess``: the installed console script per invocation (full fidelity, slower); use it to
  cross-check a sample.

Classes: ok, refused (exit 2, exactly one stderr line 'fltheory: error: ...'), multiline_error
(exit 2 otherwise), traceback (a Python traceback, or exit 1 with 'internal error'), crash
(killed by a signal, e.g. the memory limit), hang (past --timeout), exit1 (exit 1 without a
traceback: a failed sweep run or claim), other_exit, and for exit 0 the oracle classes:
invalid_json (--format json not strict JSON: NaN/Infinity refused), silent_wrong (nan/inf printed
as a number, complex coefficients, a Parseval fraction above 1, a negative count, a coefficient
beyond a double's range, a negative option value or a known non-square-integrable / non-real
expression accepted, exit 0 with nothing printed nor written), warning (a Python warning on stderr
with exit 0), bad_file_mode (a written file whose mode ignores the umask), clobbered_special (a
device or FIFO replaced by a file); and for any failed run: leftover (a file or temp file left in
the cwd after a refused write).

Usage: python benchmarks/fuzz_cli.py [--budget 3000] [--seed 0] [--timeout 60] [--jobs 2]
       [--commands lambda,hermite] [--quick] [--runner fork|subprocess] [--out failures.jsonl]
Prints a summary table (invocations per class, per command), the distinct failure signatures
with one example each, and the throughput; writes every non-ok run (and oracle failures) as JSON
lines to --out. ``--serve`` reads JSON argv lists on stdin and answers one JSON result per line
(used by tests/framework/test_fuzz_cli.py).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import random
import re
import signal
import stat
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# --------------------------------------------------------------------------------------------
# Value pools
# --------------------------------------------------------------------------------------------

BIG_DIGITS = "1" + "0" * 5000  # 10^5000 written out
NINES = "9" * 5000
LONG = "x" * 10000

#: malformed, extreme and hostile numbers (for every numeric option)
NUM_HOSTILE = [
    "", " ", "abc", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "+inf", "1e309", "-1e309",
    "1e400", "1e-400", "-1e-400", BIG_DIGITS, NINES, "-" + NINES, "1" * 1001, "9" * 999,
    "1e999999999", "1e-999999999", "1/0", "0/0", "-1/0", "1/-2", "1/2/3", "1e", "e5", ".", "-",
    "--", "+", "1..2", "1,5", "1_000", "0x10", "0b11", "10**3", "2^10", "1e5e5", "1.5.5", "½",
    "٣", "１２", "∞", "١e٣", "1\u200b", "3 4", "1\t", LONG, "é" * 3000, "-1", "-0", "-1e-30",
]
#: valid values near the edges of rational domains
RATIONAL_EDGE = [
    "0", "1", "2", "1/2", "-1/2", "1/3", ".4999999999", ".5000000001", "1e-30", "1/1000000",
    "1e-300", "100", "1e6", "1e100", "1000", "3/2", "7/10", ".7000001", "0.25", "10",
]
#: valid values near the edges of integer domains
COUNT_EDGE = ["0", "1", "2", "3", "4", "5", "10", "64", "65", "1000", "1e3", "1e6", "1e9", "2.0",
              "2.5", "3/1", "inf", "2**10", "1e18"]
#: expressions: valid, not square-integrable under the Gaussian, explosive, malformed
EXPR_POOL = [
    "He3", "He1", "relu", "tanh", "tanh(z)", "z**3", "h1+h3", "sigmoid", "abs", "erf",
    "exp(-z**2)", "exp(z**2/5)", "Abs(z)**(-1/4)", "log(Abs(z))", "sign(z)",
    "exp(z**2)", "exp(z**2/4)", "1/Abs(z)", "Abs(z)**(-1/2)", "sqrt(z)", "1/z", "log(z)",
    "z**(1/3)", "I*z", "z + I", "zoo", "oo", "nan", "E", "0", "x", "y**2",
    "((9**999)**999)**999", "He12(z)**100", "z**100", "He1000(z)", "He99999", "exp(exp(z))",
    "factorial(z)", "gamma(z)", "sign(z**2-1)", "Piecewise((1, z > 0), (0, True))",
    "z**z", "He12(z, z)", "0x10*z", "__import__('os')", "__import__('os').system('true')",
    "lambda: 1", "(" * 200, "(" * 5000 + "z" + ")" * 5000, "z" + "+z" * 5000, LONG, "", " ",
    "z;z", "z\nz", "He", "h-1", "He-1", "Integral(z, z)", "Derivative(z, z)", "Sum(z, (z,1,oo))",
    "ℤ", "ζ(z)", "𝑧",
]
#: expressions no command may accept: not square-integrable under N(0, 1), not real on the
#: real line, not a function of z, or not an expression at all (ground truth for the oracle)
MUST_REFUSE_EXPR = {
    "exp(z**2)", "exp(z**2/4)", "1/Abs(z)", "Abs(z)**(-1/2)", "1/z", "exp(exp(z))", "log(z)",
    "sqrt(z)", "I*z", "z + I", "zoo", "oo", "nan", "gamma(z)", "factorial(z)", "x", "y**2",
    "Sum(z, (z,1,oo))", "z**z", "He12(z, z)", "0x10*z", "__import__('os')",
    "__import__('os').system('true')", "lambda: 1", "(" * 200, "", " ", "z;z", "z\nz", "He",
    "h-1", "He-1", "ℤ", "ζ(z)", LONG,
}
#: paths for -o/--output/--store ({RUN} is the invocation's temporary directory)
PATH_POOL = [
    "{RUN}/out.tex", "{RUN}/new/sub/out.pdf", "{RUN}/out.png", "-", "", " ", "/proc/nope/t.tex",
    "/proc/t.tex", "{RUN}/dir", "{RUN}/full", "{RUN}/fifo", "{RUN}/ro/t.tex", "{RUN}/out.nope",
    "{RUN}/" + "x" * 300 + ".tex", "{RUN}/" + "d/" * 2000 + "t.tex", "{RUN}/ü ñ.tex",
    "{RUN}/corrupt.sqlite", "{RUN}/empty.sqlite", "{RUN}/store.sqlite", "{RUN}/dir/",
    "{RUN}/out.tex/x.tex",
]
#: integer lists and ranges (--seeds, --k, --N lists)
RANGE_POOL = [
    "0", "1", "0..3", "1..10", "250,1000", "3..0", "0..0", "1..1", "0..1e9", "0..999999999",
    "0..10000000", "-1", "-3..-1", "a..b", "", ",", "0,", ",0", "0..", "..", "...", "0...3",
    "1e309", "0.." + BIG_DIGITS, BIG_DIGITS, "nan", "inf", "0..inf", "1.5", "1/2", "0,0,0",
    "1,2,3", "2..4", "0;1", "٠..٣", LONG, "0.." + NINES,
]
LIST_POOL = ["1,1/2", "1", "1/2,1/4,1/8", "", ",", "1,,2", "0", "0,0", "-1,1", "nan,1",
             "1e309,1", "1e-400", BIG_DIGITS, "1," * 5000 + "1", "abc", "1;2", LONG]
TEXT_POOL = ["", " ", "nope", "-", "--", "--help", "-h", LONG, "é" * 3000, "😀", "../../etc",
             "\x1b[31m", "a b", "'", '"', "%s", "{}", "$(true)"]

#: pools chosen by option name (the parameter's name in the click tree)
NAMED_POOLS: dict[str, list[str]] = {
    "teacher": ["identity", "diag:3/2,1/2", "diag:1,1", "diag:", "diag:0,2", "diag:-1,3",
                "diag:1e309,1", "diag:nan,1", "diag:1,1,1", "diag:2", "diag:1/0,1", "nope",
                "diag:" + "1," * 5000 + "1", "diag:" + BIG_DIGITS + ",1", "DIAG:1,1"],
    "scheduler": ["nope", "", "tcp://127.0.0.1:1", "tcp://nope.invalid:8786", "local",
                  "tcp://[::1", "tcp://127.0.0.1:99999", LONG],
    "metrics": ["mean", "nope", "", ",", "a,b", LONG],
    "task": ["check.normal", "nope", "", LONG],
}

#: claims cheap enough to verify inside a fuzz run (others are minutes by design)
CHEAP_CLAIMS = ["twostep.lambda", "twostep.taylor_identity", "hermite.coefficient"]

#: a cheap valid command line per command path: [(option or None for a positional, value)]
BASE: dict[str, list[tuple[str | None, str]]] = {
    "cache": [(None, "info")],
    "exponent": [(None, "He3")],
    "fisher": [("--d", "10")],
    "fisher simulate": [("--d", "5"), ("--m", "200")],
    "hermite": [(None, "relu"), ("-K", "6")],
    "lambda": [("--a1", ".4"), ("--a2", ".3")],
    "phase": [("--a1", ".45")],
    "plot": [(None, "lambda"), ("-o", "{RUN}/fig.png")],
    "quadratic equations": [("--p", "2"), ("--p-star", "2")],
    "quadratic escape": [("--N", "250"), ("--samples", "20")],
    "quadratic hessian": [("--p", "4"), ("--p-star", "2"), ("--N", "20")],
    "quadratic ode": [("--p", "4"), ("--p-star", "2"), ("--eta", ".1")],
    "quadratic simulate": [("--N", "200"), ("--t-max", "10")],
    "recovery": [("--d", "100"), ("--n", "1e6")],
    "recovery law": [("--gamma", "3/2")],
    "recovery simulate": [("--d", "20"), ("--n", "2000")],
    "sweep": [(None, "check.normal"), ("--seeds", "0..1"), ("--workers", "1")],
    "table": [(None, "lambda"), ("-o", "{RUN}/t.tex")],
    "threshold": [("--d", "1000"), ("--q", "3"), ("--gamma", "1.5")],
    "twostep learn": [("--target", "He1"), ("--target", "He3"), ("--a1", ".45"), ("--a2", ".3")],
    "twostep simulate": [("--N", "200"), ("--target", "He1")],
    "verify": [(None, "twostep.lambda")],
    "report": [(None, "twostep.lambda"), ("--out", "{RUN}/report")],
}
#: option values never drawn: valid, but documented to take long (not a defect to time out)
SKIP_VALUES: dict[tuple[str, str], set[str]] = {
    ("verify", "--size"): {"large"},
    ("report", "--size"): {"large"},
}


# --------------------------------------------------------------------------------------------
# Discovery
# --------------------------------------------------------------------------------------------

@dataclass
class Param:
    name: str
    flag: str | None  # None: positional argument
    opts: list[str]  # every spelling of the option (and its --no- form)
    kind: str
    required: bool
    multiple: bool = False
    choices: list[str] = field(default_factory=list)
    secondary: str | None = None  # --no-x of a boolean --x/--no-x


@dataclass
class Command:
    path: tuple[str, ...]
    params: list[Param]

    @property
    def key(self) -> str:
        return " ".join(self.path)


def _kind(p: Any) -> str:
    import click

    t = p.type
    tname = type(t).__name__
    if getattr(p, "is_flag", False) or isinstance(t, click.types.BoolParamType):
        return "flag"
    if isinstance(t, click.Choice):
        return "choice"
    if tname == "RationalType":
        return "rational"
    if tname == "CountType":
        return "count"
    if isinstance(t, click.types.IntParamType | click.types.FloatParamType):
        return "count"
    name = (p.name or "").lower()
    if name in ("expr", "sigma", "targets", "target"):
        return "expr"
    if name in ("output", "out", "store_path", "store", "path") or "path" in name:
        return "path"
    if name == "grid":
        return "grid"
    if name.endswith("_text") or name in ("seeds", "k", "n_list"):
        return "range"
    if name in ("strengths",):
        return "list"
    if name in ("budget",):
        return "rational"
    if name in NAMED_POOLS:
        return name
    return "text"


def _params(cmd: Any) -> list[Param]:
    out = []
    for p in cmd.params:
        if p.name in ("help", "version"):
            continue
        flag = None
        if p.param_type_name == "option":
            flag = next((o for o in p.opts if o.startswith("--")), p.opts[0])
        choices = [str(c) for c in getattr(p.type, "choices", [])]
        opts = [*p.opts, *getattr(p, "secondary_opts", [])]
        out.append(Param(p.name or "", flag, opts, _kind(p), bool(p.required),
                         bool(getattr(p, "multiple", False)), choices,
                         p.secondary_opts[0] if getattr(p, "secondary_opts", None) else None))
    return out


def discover() -> list[Command]:
    """Every runnable command path with its parameters, from the click tree."""
    import click

    from fltheory.cli import cli

    ctx = click.Context(cli)
    found: list[Command] = []

    def walk(cmd: Any, path: tuple[str, ...]) -> None:
        if isinstance(cmd, click.Group):
            if path and cmd.invoke_without_command:
                found.append(Command(path, _params(cmd)))
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                if sub is not None:
                    walk(sub, (*path, name))
        else:
            found.append(Command(path, _params(cmd)))

    walk(cli, ())
    return found


def _names_for(cmd: Command, param: Param) -> list[str]:
    """Valid values of a free-text positional known from the code (tables, tasks, claims)."""
    key = cmd.key
    try:
        if key == "table":
            from fltheory.render.tables import table_names
            return [*table_names(), "list", "--list"]
        if key == "plot":
            from fltheory.render.plots import figure_names
            return figure_names()
        if key == "sweep":
            from fltheory.sweep.tasks import all_tasks
            return [t for t in all_tasks() if t != "verify.claims"]
        if key in ("verify", "report"):
            return [*CHEAP_CLAIMS, "nope", "twostep.nope"]
    except ImportError:
        pass
    return []


def _grid_pool() -> list[str]:
    out = ["N", "=", "N=", "=1", "nope=1", "N=1,,2", "N=abc", "d=1", "d=0", "N=0", "N=-1",
           "n=1e309", "n=" + BIG_DIGITS, "n=nan", "n=inf", "x=" + LONG, "N=1=2", "n=1,1",
           "seconds=1e9", "seconds=-1", "seconds=nan", "x=1", "bad=0", "n=1e-400", "n=10"]
    try:
        from fltheory.sweep.tasks import all_tasks
        for task in all_tasks().values():
            for name in task.params:
                out += [f"{name}=0", f"{name}=1e309", f"{name}=-1", f"{name}=abc"]
    except ImportError:
        pass
    return sorted(set(out), key=out.index)


def pool(cmd: Command, param: Param) -> list[str]:
    """The values drawn for one parameter: hostile ones and valid ones near its edges."""
    kind = param.kind
    if kind == "flag":
        return ["<flag>"] + (["<secondary>"] if param.secondary else [])
    if kind == "choice":
        vals = [*param.choices, "", "nope",
                param.choices[0].upper() if param.choices else "X", LONG]
    elif kind == "rational":
        vals = NUM_HOSTILE + RATIONAL_EDGE
    elif kind == "count":
        vals = NUM_HOSTILE + COUNT_EDGE
    elif kind == "expr":
        vals = list(EXPR_POOL)
    elif kind == "path":
        vals = list(PATH_POOL)
    elif kind == "grid":
        vals = _grid_pool()
    elif kind == "range":
        vals = list(RANGE_POOL)
    elif kind == "list":
        vals = list(LIST_POOL)
    elif kind in NAMED_POOLS:
        vals = list(NAMED_POOLS[kind])
    else:
        vals = _names_for(cmd, param) + TEXT_POOL + NUM_HOSTILE[:20]
    skip = SKIP_VALUES.get((cmd.key, param.flag or param.name), set())
    return [v for v in vals if v not in skip]


_GENERIC_VALID = {"rational": "1/3", "count": "2", "expr": "He2", "path": "{RUN}/out.txt",
                  "range": "0..1", "list": "1,1/2", "grid": "N=500", "text": "1"}


def base_args(cmd: Command) -> list[tuple[str | None, str]]:
    if cmd.key in BASE:
        return list(BASE[cmd.key])
    if len(cmd.path) == 2 and cmd.path[0] in ("table", "plot"):  # one view, its defaults
        return [("-o", "{RUN}/t.tex" if cmd.path[0] == "table" else "{RUN}/fig.png")]
    out: list[tuple[str | None, str]] = []
    for p in cmd.params:
        if p.required:
            value = (p.choices[0] if p.kind == "choice" else
                     (_names_for(cmd, p) or [_GENERIC_VALID.get(p.kind, "1")])[0]
                     if p.flag is None else _GENERIC_VALID.get(p.kind, "1"))
            out.append((p.flag, value))
    return out


def build_argv(cmd: Command, args: list[tuple[str | None, str]]) -> list[str]:
    argv = list(cmd.path)
    pos = [v for f, v in args if f is None]
    argv += pos
    for f, v in args:
        if f is None:
            continue
        if v == "<flag>":
            argv.append(f)
        elif v.startswith("<secondary>"):
            argv.append(v[len("<secondary>"):])
        else:
            argv += [f, v]
    return argv


def mutate(cmd: Command, args: list[tuple[str | None, str]], param: Param,
           value: str) -> list[tuple[str | None, str]]:
    """``args`` with ``param`` set to ``value`` (all occurrences of a repeatable option)."""
    flag = param.flag
    if value == "<secondary>":
        value = "<secondary>" + (param.secondary or "")
    if flag is None:  # positional: replace the positional with the same index
        idx = [i for i, p in enumerate(cmd.params) if p.flag is None].index(
            cmd.params.index(param))
        pos_slots = [i for i, (f, _) in enumerate(args) if f is None]
        out = list(args)
        if idx < len(pos_slots):
            out[pos_slots[idx]] = (None, value)
        else:
            out.insert(len(pos_slots), (None, value))
        return out
    out = [(f, v) for f, v in args if f not in param.opts]
    out.append((flag, value))
    return out


def generate(commands: list[Command], budget: int, seed: int, quick: bool = False
             ) -> list[list[str]]:
    """Up to ``budget`` argv lists: every command's valid base line first, then one- and
    two-option mutations, drawn round-robin over commands (so each gets a fair share) and
    without repetition inside a command."""
    rng = random.Random(seed)
    per_cmd: dict[str, list[list[str]]] = {}
    for cmd in commands:
        base = base_args(cmd)
        singles: list[list[str]] = []
        for param in cmd.params:
            vals = pool(cmd, param)
            if quick:
                vals = rng.sample(vals, min(len(vals), 6))
            for v in vals:
                singles.append(build_argv(cmd, mutate(cmd, base, param, v)))
        if any(p.name == "fmt" for p in cmd.params):  # a third of them as JSON too
            singles = [[*a, "--format", "json"] if "--format" not in a and rng.random() < 1 / 3
                       else a for a in singles]
        rng.shuffle(singles)
        # pairs of numeric options at once (not for sweep/verify/cache: their combinations
        # multiply processes and runs; one hostile value at a time is the test there)
        pairs: list[list[str]] = []
        numeric = [p for p in cmd.params if p.kind in ("rational", "count")]
        if len(numeric) >= 2 and cmd.key not in ("sweep", "verify", "cache"):
            for _ in range(len(singles) // 5):
                p1, p2 = rng.sample(numeric, 2)
                v1 = rng.choice(pool(cmd, p1))
                v2 = rng.choice(pool(cmd, p2))
                pairs.append(build_argv(cmd, mutate(cmd, mutate(cmd, base, p1, v1), p2, v2)))
        line = build_argv(cmd, base)
        extra = [[*line, "--help"], [*line, "--nope", "1"],
                 [*line, "--format", "json"] if any(p.name == "fmt" for p in cmd.params)
                 else line]
        merged = singles + pairs
        rng.shuffle(merged)
        per_cmd[cmd.key] = [build_argv(cmd, base), *extra, *merged]
    per_cmd["(root)"] = [[], ["--version"], ["--help"], ["nope"], ["--nope"], [LONG], ["é"]]
    out: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    queues = [per_cmd[k] for k in sorted(per_cmd)]
    while len(out) < budget and any(queues):
        for q in queues:
            while q:
                argv = q.pop(0)
                if tuple(argv) not in seen:
                    seen.add(tuple(argv))
                    out.append(argv)
                    break
            if len(out) >= budget:
                break
    return out


# --------------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------------

@dataclass
class Outcome:
    argv: list[str]
    rc: int | None  # None: timed out; negative: killed by that signal
    stdout: str
    stderr: str
    seconds: float
    cls: str = ""
    detail: str = ""


def _prepare_run_dir(root: str) -> str:
    """A fresh cwd with the special targets the path pool names."""
    run = tempfile.mkdtemp(prefix="run", dir=root)
    os.makedirs(os.path.join(run, "dir"))
    os.makedirs(os.path.join(run, "ro"))
    os.chmod(os.path.join(run, "ro"), 0o555)
    os.makedirs(os.path.join(run, "cache"))
    try:  # a private copy of /dev/full: a fuzzed write may replace it, not the real one
        os.mknod(os.path.join(run, "full"), stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except OSError:
        os.symlink("/dev/full", os.path.join(run, "full"))
    os.mkfifo(os.path.join(run, "fifo"))
    with open(os.path.join(run, "corrupt.sqlite"), "wb") as fh:
        fh.write(b"SQLite format 3\x00" + bytes(random.Random(0).randrange(256)
                                                for _ in range(4096)))
    open(os.path.join(run, "empty.sqlite"), "wb").close()
    return run


def _walk(top: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk without recursion: a fuzzed path may create a tree thousands of levels deep."""
    stack = [top]
    while stack:
        here = stack.pop()
        dirs, files = [], []
        with contextlib.suppress(OSError), os.scandir(here) as entries:
            for entry in entries:
                is_dir = False
                with contextlib.suppress(OSError):
                    is_dir = entry.is_dir(follow_symlinks=False)
                (dirs if is_dir else files).append(entry.name)
        yield here, dirs, files
        stack.extend(os.path.join(here, d) for d in dirs)


def _snapshot(run: str) -> dict[str, tuple[int, int]]:
    """path -> (mode, mtime in ns) of everything under the run directory."""
    out = {}
    for dirpath, dirnames, filenames in _walk(run):
        for n in dirnames + filenames:
            p = os.path.join(dirpath, n)
            with contextlib.suppress(OSError):
                st = os.lstat(p)
                out[os.path.relpath(p, run)] = (st.st_mode, st.st_mtime_ns)
    return out


def _substitute(argv: list[str], run: str) -> list[str]:
    return [a.replace("{RUN}", run) for a in argv]


def _child_env(run: str) -> dict[str, str]:
    env = dict(os.environ)
    env["FLTHEORY_CACHE"] = os.path.join(run, "cache", "runs.sqlite")
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("MKL_NUM_THREADS", "1")
    env.setdefault("NUMBA_NUM_THREADS", "1")
    return env


def _limit(mem_gib: float) -> None:
    import resource

    os.setsid()
    os.umask(0o022)
    if mem_gib > 0:
        lim = int(mem_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))


def preload() -> None:
    """Import what the commands import, once, in the parent of the forked children."""
    import warnings

    filters = list(warnings.filters)  # the interpreter's defaults, as the console script has
    for mod in ("numpy", "scipy", "scipy.special", "scipy.integrate", "scipy.linalg", "mpmath",
                "sympy", "numba"):
        with contextlib.suppress(ImportError):
            __import__(mod)
    for cmd in discover():  # imports every command module
        del cmd
    for mod in ("fltheory.render", "fltheory.render.tables", "fltheory.sweep.tasks",
                "fltheory.sweep.runner", "fltheory.sweep.store", "fltheory.claims.registry"):
        with contextlib.suppress(ImportError):
            __import__(mod)
    warnings.filters[:] = filters  # type: ignore[index]


class Runner:
    """Run argv lists, at most ``jobs`` at a time, each in a fresh process and directory."""

    def __init__(self, mode: str = "fork", timeout: float = 60, jobs: int = 2,
                 mem_gib: float = 6, root: str | None = None):
        self.mode, self.timeout, self.jobs, self.mem_gib = mode, timeout, max(1, jobs), mem_gib
        self.root = root or tempfile.mkdtemp(prefix="fltheory-fuzz-")
        os.environ.setdefault("MPLCONFIGDIR", os.path.join(self.root, "mpl"))
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "NUMBA_NUM_THREADS"):
            os.environ.setdefault(var, "1")  # before numpy is imported (fork runner)
        if mode == "fork":
            preload()
        else:
            import sysconfig
            self.script = os.path.join(sysconfig.get_path("scripts"), "fltheory")

    # -- one process ---------------------------------------------------------------------
    def _start(self, argv: list[str]) -> dict[str, Any]:
        run = _prepare_run_dir(self.root)
        before = _snapshot(run)
        out_path, err_path = os.path.join(self.root, "o" + os.path.basename(run)), \
            os.path.join(self.root, "e" + os.path.basename(run))
        real = _substitute(argv, run)
        env = _child_env(run)
        start = time.monotonic()
        if self.mode == "fork":
            pid = os.fork()
            if pid == 0:  # child: behave as the console script
                code = 1
                try:
                    _limit(self.mem_gib)
                    os.chdir(run)
                    os.environ.clear()
                    os.environ.update(env)
                    fo = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    fe = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    fi = os.open(os.devnull, os.O_RDONLY)
                    os.dup2(fi, 0)
                    os.dup2(fo, 1)
                    os.dup2(fe, 2)
                    signal.signal(signal.SIGINT, signal.default_int_handler)
                    from fltheory.cli import main
                    try:
                        main(real)
                        code = 0
                    except SystemExit as exc:
                        c = exc.code
                        code = c if isinstance(c, int) else (0 if c is None else 1)
                        if c is not None and not isinstance(c, int):
                            print(c, file=sys.stderr)
                    except BaseException:  # what the interpreter would print
                        import traceback
                        traceback.print_exc()
                        code = 1
                finally:
                    try:
                        sys.stdout.flush()
                        sys.stderr.flush()
                    finally:
                        os._exit(code)
            proc = None
        else:
            import subprocess
            with open(out_path, "wb") as sink, open(err_path, "wb") as esink:
                proc = subprocess.Popen([self.script, *real], cwd=run, env=env, stdout=sink,
                                        stderr=esink, stdin=subprocess.DEVNULL,
                                        preexec_fn=lambda: _limit(self.mem_gib))
            pid = proc.pid
        return {"argv": argv, "pid": pid, "proc": proc, "start": start, "run": run,
                "before": before, "out": out_path, "err": err_path}

    def _finish(self, job: dict[str, Any], rc: int | None) -> Outcome:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(job["pid"], signal.SIGKILL)  # stray workers die with the run
        seconds = time.monotonic() - job["start"]
        with open(job["out"], encoding="utf-8", errors="replace") as fh:
            stdout = fh.read()
        with open(job["err"], encoding="utf-8", errors="replace") as fh:
            stderr = fh.read()
        out = Outcome(job["argv"], rc, stdout, stderr, seconds)
        out.cls, out.detail = classify(out, job["run"], job["before"])
        os.unlink(job["out"])
        os.unlink(job["err"])
        _rmtree(job["run"])
        return out

    def run_all(self, argvs: list[list[str]], on_done: Any = None) -> list[Outcome]:
        todo = list(enumerate(argvs))
        running: dict[int, dict[str, Any]] = {}
        results: list[Outcome | None] = [None] * len(argvs)
        while todo or running:
            while todo and len(running) < self.jobs:
                i, argv = todo.pop(0)
                job = self._start(argv)
                job["i"] = i
                running[job["pid"]] = job
            time.sleep(0.005)
            for pid, job in list(running.items()):
                rc: int | None
                try:
                    wpid, status = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    wpid, status = pid, 0
                if wpid == 0:
                    if time.monotonic() - job["start"] <= self.timeout:
                        continue
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    rc = None
                else:
                    rc = os.waitstatus_to_exitcode(status)
                del running[pid]
                res = self._finish(job, rc)
                results[job["i"]] = res
                if on_done:
                    on_done(res)
        return [r for r in results if r is not None]

    def close(self) -> None:
        _rmtree(self.root)


def _rmtree(path: str) -> None:
    dirs = []
    for dirpath, dirnames, filenames in _walk(path):
        for d in dirnames:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(dirpath, d), 0o755)
        for f in filenames:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(dirpath, f))
        dirs.append(dirpath)
    for d in reversed(dirs):  # deepest first, without recursion (shutil.rmtree recurses)
        with contextlib.suppress(OSError):
            os.rmdir(d)


# --------------------------------------------------------------------------------------------
# Classification and oracles
# --------------------------------------------------------------------------------------------

def _no_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


_NONFINITE = re.compile(r"(?<![\w.])[-+]?(nan|inf|infinity)(?![\w])", re.IGNORECASE)
_ALLOWED_NONFINITE = [re.compile(p) for p in (
    r"\bL = inf\b", r"\bL=inf\b", r"NaN runs", r"\bnan\) ", r"> kmax",
)]
_BIG_EXP = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d*)?[eE]\+?(\d{3,})\b")
_PARSEVAL = re.compile(r"^Parseval:.*=\s*([-+0-9.eE]+)\s*$", re.MULTILINE)
_COMPLEX = re.compile(r"(?<![A-Za-z_])I(?![A-Za-z_(])|\d[jJ]\b")
_COUNTS = re.compile(r"(-?\d+)/(-?\d+)/(-?\d+)")
_COUNT_KEYS = ("count", "multiplicit", "dimension", "recovered", "hessian", "jacobian")


def _argv_has_nonfinite(argv: list[str]) -> bool:
    return any(_NONFINITE.search(a) for a in argv)


def _strip_inputs(text: str, argv: list[str]) -> str:
    for pat in _ALLOWED_NONFINITE:
        text = pat.sub("", text)
    return text


def _json_walk(obj: Any, key: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "inputs":
                continue
            out += _json_walk(v, str(k))
    elif isinstance(obj, list):
        for v in obj:
            out += _json_walk(v, key)
    else:
        out.append((key, obj))
    return out


def oracle(argv: list[str], stdout: str) -> tuple[str, str] | None:
    """Exit 0: is the output plausibly right? (class, detail) when not."""
    cmd = argv[0] if argv else ""
    for flag, value in itertools.pairwise(argv):
        if flag.startswith("--") and flag != "--format" and \
                re.fullmatch(r"-(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?(/\d+)?", value.strip()) and \
                re.search(r"[1-9]", value):
            return "silent_wrong", f"accepted a negative value {flag} {value.strip()}"
    is_json = "--format" in argv and argv[argv.index("--format") + 1:][:1] == ["json"]
    if is_json and stdout.strip():
        try:
            doc = json.loads(stdout, parse_constant=_no_constant)
        except ValueError as exc:
            return "invalid_json", f"{type(exc).__name__}: {str(exc)[:80]}"
        for key, val in _json_walk(doc):
            if isinstance(val, str) and val.strip().lower().lstrip("+-") in (
                    "nan", "inf", "infinity") and not _argv_has_nonfinite(argv):
                return "silent_wrong", f"non-finite number as a string in json ({key})"
            if isinstance(val, int) and not isinstance(val, bool) and val < 0 and \
                    any(s in key.lower() for s in _COUNT_KEYS):
                return "silent_wrong", f"negative count in json ({key})"
            if key == "parseval_captured" and isinstance(val, str):
                try:
                    if float(val) > 1 + 1e-9:
                        return "silent_wrong", "Parseval fraction > 1"
                except ValueError:
                    pass
    text = _strip_inputs(stdout, argv)
    if not is_json:
        m = _NONFINITE.search(text)
        if m and not (_argv_has_nonfinite(argv) and m.group(1).lower().startswith("inf")):
            line = next((ln for ln in text.splitlines() if m.group(0) in ln), "")
            return "silent_wrong", f"non-finite '{m.group(0)}' printed: {line.strip()[:60]}"
    if cmd in ("hermite", "exponent", "twostep"):
        accepted = sorted(set(argv) & MUST_REFUSE_EXPR)
        if accepted:
            return "silent_wrong", f"accepted the expression {accepted[0][:30]!r} (not " \
                "square-integrable, not real, or not an expression of z)"
        # coefficients of a normalised function
        for m in _BIG_EXP.finditer(text):
            if int(m.group(1)) > 308:
                return "silent_wrong", "coefficient beyond double range printed (e+" + \
                    ("huge" if len(m.group(1)) > 6 else m.group(1)) + ")"
    for m in _PARSEVAL.finditer(text):
        try:
            if float(m.group(1)) > 1 + 1e-9:
                return "silent_wrong", "Parseval fraction > 1"
        except ValueError:
            pass
    if cmd in ("hermite", "exponent", "twostep"):
        table = "\n".join(ln for ln in text.splitlines()
                          if not ln.startswith(("[", "f(z)", "note", "Hermite coeff")))
        if _COMPLEX.search(table):
            return "silent_wrong", "complex number in coefficients"
    if cmd == "quadratic" and not is_json:
        for m in _COUNTS.finditer(text):
            if any(int(g) < 0 for g in m.groups()):
                return "silent_wrong", "negative count"
    return None


def _first_line(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return lines[0] if lines else ""


def _traceback_sig(stderr: str) -> str:
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    exc = next((ln for ln in reversed(lines) if re.match(r"^[\w.]+(Error|Exception|Warning|"
                                                         r"Interrupt|Exit)\b", ln)),
               lines[-1] if lines else "")
    frames = re.findall(r'File "([^"]*fltheory[^"]*)", line \d+, in (\w+)', stderr)
    where = ""
    if frames:
        f, fn = frames[-1]
        where = f" @ {f.split('fltheory/', 1)[-1]}:{fn}"
    return (exc[:140] + where).strip()


def classify(o: Outcome, run: str, before: dict[str, tuple[int, int]]) -> tuple[str, str]:
    snap = _snapshot(run)
    after = {p: m for p, (m, _) in snap.items()}
    new = {p: m for p, m in after.items() if p not in before and not p.startswith("cache")}
    changed = {p: m for p, (m, t) in snap.items() if p in before and before[p] != (m, t)}
    tmp = [p for p in new if os.path.basename(p).endswith(".tmp")]
    clobbered = [p for p in ("full", "fifo") if p in after and p in before and
                 stat.S_IFMT(after[p]) != stat.S_IFMT(before[p][0])]
    if o.rc is None:
        return "hang", f"no answer within the time bound ({o.seconds:.0f} s)"
    if "Traceback (most recent call last)" in o.stderr or (
            o.rc == 1 and "internal error" in o.stderr):
        return "traceback", _traceback_sig(o.stderr)
    if o.rc < 0:
        return "crash", f"killed by signal {-o.rc}"
    if clobbered:
        return "clobbered_special", "replaced " + ", ".join(clobbered)
    new_files = [p for p, m in new.items() if not stat.S_ISDIR(m)]
    if o.rc != 0 and new_files:
        return "leftover", "left " + ", ".join(sorted(new_files)[:3])
    if tmp:
        return "leftover", "left " + ", ".join(tmp[:3])
    if o.rc == 2:
        lines = [ln for ln in o.stderr.splitlines() if ln.strip()]
        if len(lines) == 1 and lines[0].startswith("fltheory: error:"):
            return "refused", lines[0]
        return "multiline_error", _first_line(o.stderr)
    if o.rc == 1:
        return "exit1", _first_line(o.stderr) or _first_line(o.stdout)
    if o.rc != 0:
        return "other_exit", f"exit {o.rc}: {_first_line(o.stderr)}"
    # exit 0
    written = {p: m for p, m in {**new, **changed}.items() if stat.S_ISREG(m)}
    for p, mode in written.items():
        if stat.S_IMODE(mode) != 0o644:
            return "bad_file_mode", f"mode {oct(stat.S_IMODE(mode))} under umask 022 " \
                f"(file {os.path.basename(p)})"
    if "--help" in o.argv or "-h" in o.argv:
        return "ok", ""
    if not o.stdout.strip() and not o.stderr.strip() and not written:
        return "silent_wrong", "exit 0 with nothing printed nor written"
    if re.search(r"\w+Warning\b", o.stderr):
        w = re.search(r"(\w+Warning\b.*)", o.stderr)
        return "warning", w.group(1)[:100] if w else "warning"
    bad = oracle(o.argv, o.stdout)
    if bad:
        return bad
    return "ok", ""


FAILURES = ("traceback", "hang", "crash", "invalid_json", "silent_wrong", "multiline_error",
            "leftover", "warning", "bad_file_mode", "clobbered_special", "exit1", "other_exit")


def command_key(argv: list[str], commands: list[Command]) -> str:
    best = ""
    for c in commands:
        if tuple(argv[:len(c.path)]) == c.path and len(c.key) > len(best):
            best = c.key
    return best or "(root)"


def signature(o: Outcome) -> str:
    d = re.sub(r"'/[^']*'", "'<path>'", o.detail)
    d = re.sub(r" \(file .*\)$", "", d)
    d = re.sub(r"\d+", "N", d)
    d = re.sub(r"'[^']{30,}'", "'…'", d)
    return f"{o.cls}: {d[:160]}"


def shorten(argv: list[str]) -> str:
    out = []
    for a in argv:
        a = a.replace("\n", "\\n")
        if len(a) > 40:
            a = f"{a[:12]}…({len(a)} chars)"
        out.append(repr(a) if (" " in a or not a) else a)
    return "fltheory " + " ".join(out)


# --------------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------------

def serve(args: argparse.Namespace) -> None:
    """One JSON argv list per stdin line -> one JSON result per stdout line."""
    runner = Runner("fork", timeout=args.timeout, jobs=1, mem_gib=args.mem_gib)
    out = sys.stdout
    sys.stdout = sys.stderr
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            argv = json.loads(line)
            (res,) = runner.run_all([argv])
            out.write(json.dumps({"argv": argv, "rc": res.rc, "stdout": res.stdout[-20000:],
                                  "stderr": res.stderr[-20000:], "seconds": res.seconds,
                                  "cls": res.cls, "detail": res.detail}) + "\n")
            out.flush()
    finally:
        runner.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", type=int, default=3000, help="maximum invocations")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60, help="wall-time bound per invocation")
    ap.add_argument("--jobs", type=int, default=2, choices=(1, 2), help="parallel invocations")
    ap.add_argument("--mem-gib", type=float, default=6, help="address-space limit per run")
    ap.add_argument("--commands", default="", help="comma-separated subset, e.g. 'lambda,"
                    "quadratic ode' (a group name selects its sub-commands)")
    ap.add_argument("--quick", action="store_true", help="6 values per option, budget 300")
    ap.add_argument("--runner", choices=("fork", "subprocess"), default="fork")
    ap.add_argument("--out", default="fuzz_failures.jsonl", help="JSONL of the failures")
    ap.add_argument("--log-all", default="", help="also write every run (output truncated) "
                    "as JSON lines here, to re-classify later")
    ap.add_argument("--replay", default="", help="run the argv lists of a JSONL (e.g. an earlier "
                    "--out) instead of generating: re-check known failures on a fixed tree")
    ap.add_argument("--list", action="store_true", help="print the discovered commands")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args)
        return
    commands = discover()
    if args.commands:
        wanted = [w.strip() for w in args.commands.split(",") if w.strip()]
        commands = [c for c in commands if any(c.key == w or c.path[0] == w for w in wanted)]
    if args.list:
        for c in commands:
            print(c.key, " ".join(f"{p.flag or p.name.upper()}:{p.kind}" for p in c.params))
        return
    budget = min(args.budget, 300) if args.quick and args.budget == 3000 else args.budget
    if args.replay:
        with open(args.replay, encoding="utf-8") as src:
            argvs = [json.loads(ln)["argv"] for ln in src if ln.strip()][:budget]
    else:
        argvs = generate(commands, budget, args.seed, args.quick)
    print(f"{len(argvs)} invocations over {len(commands)} commands; runner {args.runner}, "
          f"{args.jobs} at a time, timeout {args.timeout:g} s", file=sys.stderr)
    runner = Runner(args.runner, args.timeout, args.jobs, args.mem_gib)
    t0 = time.monotonic()
    done = [0]
    fh = open(args.out, "w", encoding="utf-8")  # noqa: SIM115 - written as runs finish
    log = open(args.log_all, "w", encoding="utf-8") if args.log_all else None  # noqa: SIM115

    def on_done(o: Outcome) -> None:
        done[0] += 1
        if o.cls in FAILURES:
            fh.write(json.dumps({"argv": o.argv, "command": shorten(o.argv), "class": o.cls,
                                 "detail": o.detail, "stderr": _first_line(o.stderr)[:300],
                                 "rc": o.rc, "seconds": round(o.seconds, 2)}) + "\n")
            fh.flush()
        if log is not None:
            log.write(json.dumps({"argv": o.argv, "rc": o.rc, "class": o.cls, "detail": o.detail,
                                  "seconds": round(o.seconds, 3), "stdout": o.stdout[:3000],
                                  "stderr": o.stderr[-3000:]}) + "\n")
            log.flush()
        if done[0] % 100 == 0:
            el = time.monotonic() - t0
            print(f"  {done[0]}/{len(argvs)} in {el:.0f} s", file=sys.stderr)

    try:
        results = runner.run_all(argvs, on_done)
    finally:
        fh.close()
        if log is not None:
            log.close()
        runner.close()
    wall = time.monotonic() - t0
    report(results, commands, wall, args)


def report(results: list[Outcome], commands: list[Command], wall: float,
           args: argparse.Namespace) -> None:
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for o in results:
        per[command_key(o.argv, commands)][o.cls] += 1
    classes = ["ok", "refused", *[c for c in FAILURES if any(o.cls == c for o in results)]]
    w = max(len(k) for k in per) if per else 8
    print(f"{'command':<{w}} " + " ".join(f"{c[:10]:>10}" for c in classes) + f" {'total':>6}")
    total: Counter[str] = Counter()
    for k in sorted(per):
        total.update(per[k])
        print(f"{k:<{w}} " + " ".join(f"{per[k][c]:>10}" for c in classes) +
              f" {sum(per[k].values()):>6}")
    print(f"{'TOTAL':<{w}} " + " ".join(f"{total[c]:>10}" for c in classes) +
          f" {sum(total.values()):>6}")
    secs = [o.seconds for o in results]
    print(f"\nthroughput: {len(results)} invocations in {wall:.0f} s wall = "
          f"{len(results) / max(wall, 1e-9):.2f}/s ({args.jobs} parallel, runner "
          f"{args.runner}); per-invocation median {sorted(secs)[len(secs) // 2]:.2f} s, "
          f"max {max(secs):.1f} s" if secs else "no invocations")
    sigs: dict[str, list[Outcome]] = defaultdict(list)
    for o in results:
        if o.cls in FAILURES:
            sig = f"hang: {command_key(o.argv, commands)}" if o.cls == "hang" else signature(o)
            sigs[sig].append(o)
    print(f"\n{len(sigs)} distinct failure signatures "
          f"({sum(len(v) for v in sigs.values())} failing runs):")
    for sig, runs in sorted(sigs.items(), key=lambda kv: (FAILURES.index(kv[1][0].cls),
                                                           -len(kv[1]))):
        ex = min(runs, key=lambda o: len(" ".join(o.argv)))
        print(f"[{len(runs):4d}] {sig}\n       e.g. {shorten(ex.argv)}")
    print(f"\nfailures written to {args.out}")


if __name__ == "__main__":
    main()
