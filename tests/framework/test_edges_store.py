"""Hard edges of `fltheory sweep`, `fltheory cache` and the results store (issue 13): a corrupt
or read-only store, bad --store / --scheduler values, workers that outlive their parent, grid
values outside a task's domain, and NaN in JSON."""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from layout import ROOT

from fltheory.exact import DomainError
from fltheory.sweep import runner, tasks
from fltheory.sweep.store import Store


def _one_line(stderr: str, *words: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(extra)
    return env


def _fltheory(*args: str, timeout: float = 120, wrap: tuple[str, ...] = (),
              **popen: object) -> subprocess.CompletedProcess:
    return subprocess.run([*wrap, sys.executable, "-m", "fltheory", *args], capture_output=True,
                          text=True, timeout=timeout, env=_env(), **popen)  # type: ignore[call-overload]


def _real_store(path: Path, rows: int = 300) -> None:
    with Store(path) as store:
        for i in range(rows):
            store.put("check.normal", {"n": str(i)}, 0, "v", {"mean": float(i), "pad": "x" * 200},
                      0.0)
    con = sqlite3.connect(path)  # fold the WAL into the file, so that the file holds the rows
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def _corrupt(kind: str, path: Path) -> bytes:
    if kind == "random":
        path.write_bytes(os.urandom(8192))
    elif kind == "text":
        path.write_text("this is not a database\n")
    elif kind == "garbled":  # SQLite's header, then noise
        path.write_bytes(b"SQLite format 3\x00" + os.urandom(8192))
    else:  # a real store cut in the middle
        _real_store(path)
        for side in ("-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    return path.read_bytes()


# --------------------------------------------------------------------------- 1. corrupt store


@pytest.mark.parametrize("kind", ["garbled", "truncated"])
def test_corrupt_store_is_moved_aside_and_the_sweep_runs(invoke, tmp_path, kind):
    db = tmp_path / "runs.sqlite"
    original = _corrupt(kind, db)
    r = invoke("sweep", "check.normal", "--grid", "n=10", "--seeds", "0..1", "--workers", "1",
               "--store", str(db), "--format", "json")
    assert r.exit_code == 0
    _one_line(r.stderr, "warning", "corrupt", "moved it to", "new empty store")
    copies = list(tmp_path.glob("runs.sqlite.corrupt-*"))
    assert len(copies) == 1 and copies[0].read_bytes() == original  # nothing lost
    with Store(db) as store:  # the new store holds this sweep's runs
        assert store.check() == "ok" and store.summary()[0][2] == 2
    again = invoke("sweep", "check.normal", "--grid", "n=10", "--seeds", "0..1", "--workers",
                   "1", "--store", str(db), "--format", "json")
    assert again.exit_code == 0 and again.stderr == ""
    assert all(run["cached"] for run in json.loads(again.stdout)["details"]["runs"])


@pytest.mark.parametrize("kind", ["garbled", "truncated"])
def test_cache_info_and_clear_on_a_corrupt_store(invoke, tmp_path, kind):
    db = tmp_path / "runs.sqlite"
    _corrupt(kind, db)
    info = invoke("cache", "info", "--store", str(db))
    assert info.exit_code == 0
    _one_line(info.stderr, "corrupt", "moved it to")
    assert "integrity ok" in info.stdout and "corrupt store moved aside" in info.stdout
    _corrupt(kind, db)  # corrupt again: clear deletes it, and the copy moved aside before
    clear = invoke("cache", "clear", "--store", str(db))
    assert clear.exit_code == 0
    _one_line(clear.stderr, "corrupt", "deleted it")
    assert "removed 0 run(s)" in clear.stdout and "deleted 1 corrupt" in clear.stdout
    assert not list(tmp_path.glob("runs.sqlite.corrupt-*"))
    with Store(db) as store:
        assert store.check() == "ok" and store.summary() == []


@pytest.mark.parametrize("kind", ["random", "text"])
@pytest.mark.parametrize("command", [
    ["cache", "clear"], ["cache", "info"], ["verify", "hermite.coefficient"],
    ["sweep", "check.normal", "--grid", "n=10", "--seeds", "0", "--workers", "1"]])
def test_a_file_that_is_not_a_store_is_left_untouched(invoke, tmp_path, kind, command):
    """--store naming someone's file (no SQLite header): one line, exit 2, the file unchanged
    and not moved (cache clear would otherwise delete it)."""
    db = tmp_path / "notes.txt"
    original = _corrupt(kind, db)
    r = invoke(*command, "--store", str(db))
    assert r.exit_code == 2
    _one_line(r.stderr, "store", "not a results store")
    assert db.read_bytes() == original and sorted(tmp_path.iterdir()) == [db]


def _open_store(path: str, queue: multiprocessing.Queue) -> None:
    warnings: list[str] = []
    with Store(path, warn=warnings.append) as store:
        queue.put((store.check(), len(warnings)))


def test_corrupt_store_found_by_several_processes_at_once(tmp_path):
    """Four processes open the same corrupt store together: one moves it aside, none fails,
    no second copy (the replacement is done under a lock on the directory)."""
    db = tmp_path / "runs.sqlite"
    _corrupt("garbled", db)
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_open_store, args=(str(db), queue)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    answers = [queue.get(timeout=5) for _ in procs]
    assert all(check == "ok" for check, _ in answers)
    assert sum(warned for _, warned in answers) == 1
    assert len(list(tmp_path.glob("runs.sqlite.corrupt-*"))) == 1


# --------------------------------------------------------------------------- 2. read-only store

_SETPRIV = shutil.which("setpriv")


def _unprivileged() -> tuple[str, ...]:
    """A prefix that makes file permissions bind: as root, drop the capabilities that bypass
    them (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH); as another user, nothing."""
    if os.geteuid() != 0:
        return ()
    if _SETPRIV is None:
        pytest.skip("running as root without setpriv: cannot make a file read-only")
    return (_SETPRIV, "--bounding-set=-dac_override,-dac_read_search")


@pytest.fixture
def readonly_store(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "runs.sqlite"
    first = _fltheory("sweep", "check.normal", "--grid", "n=10,20", "--seeds", "0..1",
                      "--workers", "1", "--store", str(db), "--format", "json")
    assert first.returncode == 0, first.stderr
    db.chmod(0o444)
    folder.chmod(0o555)  # not even the WAL index can be created next to it
    wrap = _unprivileged()
    probe = subprocess.run([*wrap, sys.executable, "-c", f"open({str(db)!r}, 'a')"],
                           capture_output=True)
    assert probe.returncode != 0  # the store is really read-only for the commands below
    yield db, wrap, json.loads(first.stdout)
    folder.chmod(0o755)
    db.chmod(0o644)


def test_readonly_store_cache_info(readonly_store):
    db, wrap, _ = readonly_store
    r = _fltheory("cache", "info", "--store", str(db), wrap=wrap)
    assert r.returncode == 0 and r.stderr == ""
    assert "read-only" in r.stdout and "4 runs" in r.stdout


def test_readonly_store_fully_cached_sweep(readonly_store):
    db, wrap, first = readonly_store
    r = _fltheory("sweep", "check.normal", "--grid", "n=10,20", "--seeds", "0..1", "--workers",
                  "1", "--store", str(db), "--format", "json", wrap=wrap)
    assert r.returncode == 0 and r.stderr == ""  # nothing to save: nothing to warn about
    out = json.loads(r.stdout)
    assert all(run["cached"] for run in out["details"]["runs"])
    assert out["value"] == first["value"]


def test_readonly_store_new_work_runs_and_warns(readonly_store):
    db, wrap, _ = readonly_store
    before = db.read_bytes()
    r = _fltheory("sweep", "check.normal", "--grid", "n=10,20", "--seeds", "0..2", "--workers",
                  "1", "--store", str(db), "--format", "json", wrap=wrap)
    assert r.returncode == 0
    _one_line(r.stderr, "warning", "not saved", str(db), "read-only")
    runs = json.loads(r.stdout)["details"]["runs"]
    assert sum(run["cached"] for run in runs) == 4 and len(runs) == 6
    assert all(run["result"] is not None for run in runs)
    assert db.read_bytes() == before


def test_readonly_store_cannot_be_cleared(readonly_store):
    db, wrap, _ = readonly_store
    r = _fltheory("cache", "clear", "--store", str(db), wrap=wrap)
    assert r.returncode == 2
    _one_line(r.stderr, "store", "read-only")


def test_store_path_without_permission(readonly_store):
    db, wrap, _ = readonly_store
    for target in (db.parent / "new.sqlite", db.parent / "sub" / "new.sqlite"):
        r = _fltheory("sweep", "check.normal", "--seeds", "0", "--workers", "1", "--store",
                      str(target), wrap=wrap)
        assert r.returncode == 2
        _one_line(r.stderr, "store", "cannot be created")
        assert not target.exists()


class _ReadOnlyConnection:
    """Stands in for a connection whose every write fails like a read-only database."""

    def __init__(self, real: sqlite3.Connection):
        self.real = real

    def execute(self, sql: str, *args: object) -> object:
        if sql.lstrip().upper().startswith(("INSERT", "DELETE")):
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return self.real.execute(sql, *args)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


def test_write_failure_during_a_sweep_warns_once_and_goes_on(tmp_path):
    warnings: list[str] = []
    store = Store(tmp_path / "runs.sqlite", warn=warnings.append)
    store.db = _ReadOnlyConnection(store.db)  # type: ignore[assignment]
    points = [tasks.canonical(tasks.get_task("check.normal"), {"n": n}) for n in (10, 20)]
    outcome = runner.sweep("check.normal", points, [0, 1, 2], store=store)
    assert not outcome.failed and all(run.result is not None for run in outcome.runs)
    assert len(warnings) == 1 and "not saved" in warnings[0] and "readonly" in warnings[0]
    store.db = store.db.real  # type: ignore[attr-defined]
    assert store.summary() == []
    store.close()


# ----------------------------------------------------------------- 3. --store, --scheduler


@pytest.mark.parametrize(("target", "reason"), [
    ("DIR", "is a directory"),
    ("/proc/nope/x.sqlite", "cannot be created"),
    ("/dev/null", "is not a regular file"),
])
@pytest.mark.parametrize("command", [["sweep", "check.normal", "--seeds", "0", "--workers", "1"],
                                     ["cache", "info"], ["cache", "clear"]])
def test_bad_store_path_is_one_line(invoke, tmp_path, target, reason, command):
    path = str(tmp_path) if target == "DIR" else target
    r = invoke(*command, "--store", path)
    if command == ["cache", "info"] and target.startswith("/proc"):  # nothing there: no runs
        assert r.exit_code == 0 and r.stdout == f"{path}: empty (no runs stored yet)\n"
        return
    assert r.exit_code == 2
    _one_line(r.stderr, "store", reason)


@pytest.mark.parametrize("address", ["nope", "tcp://host:99999", "tcp://", "http://h:1",
                                     "x" * 5000])
def test_malformed_scheduler_is_one_line(invoke, address):
    r = invoke("sweep", "check.normal", "--seeds", "0", "--no-cache", "--scheduler", address)
    assert r.exit_code == 2
    _one_line(r.stderr, "scheduler", "not a scheduler address")


def _with_timeout(seconds: float, *args: str) -> subprocess.CompletedProcess:
    code = ("import sys\nfrom fltheory.sweep import runner\n"
            f"runner.CONNECT_TIMEOUT = {seconds}\nfrom fltheory.cli import main\n"
            "main(sys.argv[1:])\n")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=90, env=_env())


def test_refused_scheduler_is_one_line():
    with socket.socket() as s:  # a free port, closed again: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = _with_timeout(3, "sweep", "check.normal", "--seeds", "0", "--no-cache", "--scheduler",
                      f"tcp://127.0.0.1:{port}")
    assert r.returncode == 2
    _one_line(r.stderr, "scheduler", "cannot be reached")


def test_silent_scheduler_times_out():
    """Something listens but never speaks Dask: refused after the stated timeout, no hang."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(server.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        start = time.monotonic()
        r = _with_timeout(2, "sweep", "check.normal", "--seeds", "0", "--no-cache",
                          "--scheduler", f"tcp://127.0.0.1:{server.getsockname()[1]}")
        elapsed = time.monotonic() - start
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        server.close()
    assert r.returncode == 2
    _one_line(r.stderr, "scheduler", "within 2 s")
    assert elapsed < 60


# ----------------------------------------------------------------- 4. workers die with parent


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every process, from /proc."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            out[int(entry)] = (int(fields[1]), fields[0])
    return out


def _alive(pids: list[int]) -> list[int]:
    table = _processes()
    return [p for p in pids if p in table and table[p][1] != "Z"]


SLOW_SWEEP = ["sweep", "check.sleep", "--grid", "seconds=30", "--seeds", "0..3", "--workers",
              "2", "--no-cache", "--no-progress"]


def _wait_for_workers(proc: subprocess.Popen, count: int = 2) -> list[int]:
    """The live child processes of ``proc`` once there are ``count`` of them (60 s at most)."""
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(workers) < count:
        time.sleep(0.1)
        workers = [pid for pid, (ppid, state) in _processes().items()
                   if ppid == proc.pid and state != "Z"]
    return workers


def _start_and_kill(sig: int, prelude: str = "") -> tuple[subprocess.Popen, list[int], str, str]:
    """Start a slow --workers 2 sweep, wait for its two workers, send ``sig`` to the parent;
    return the process, the worker pids, stdout and stderr (the pipes must close promptly)."""
    code = (f"import sys\n{prelude}\nfrom fltheory.cli import main\nmain(sys.argv[1:])\n")
    proc = subprocess.Popen([sys.executable, "-c", code, *SLOW_SWEEP], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env())
    workers: list[int] = []
    try:
        workers = _wait_for_workers(proc)
        assert len(workers) >= 2, "the sweep did not start its workers"
        time.sleep(0.5)  # the workers are inside their 30-second task
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=15)  # before the fix: the workers hold the pipes
        deadline = time.monotonic() + 5
        while _alive(workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        return proc, _alive(workers), out, err
    finally:
        for pid in _alive(workers):  # never leave a worker behind, even when the test fails
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired, ValueError):
            proc.communicate(timeout=10)  # and close the pipes


linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


@linux_only
def test_workers_die_when_the_parent_is_killed():
    proc, alive, _, _ = _start_and_kill(signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert alive == []


@linux_only
def test_workers_die_with_the_parent_by_the_watchdog_alone():
    """The portable fallback: without PR_SET_PDEATHSIG, the watchdog thread ends the worker."""
    proc, alive, _, _ = _start_and_kill(
        signal.SIGKILL, "from fltheory.sweep import runner\nrunner._USE_PDEATHSIG = False")
    assert proc.returncode == -signal.SIGKILL
    assert alive == []


@linux_only
def test_sigterm_stops_the_pool_and_reports():
    proc, alive, out, err = _start_and_kill(signal.SIGTERM)
    assert proc.returncode == 143, err
    assert alive == []
    assert "Traceback" not in err and "interrupted" in out


# --------------------------------------------------------------------------- 5. grid validation


@pytest.mark.parametrize(("args", "param", "word"), [
    (["fisher.clusters", "--grid", "d=1"], "d", "[2, 1000]"),
    (["fisher.clusters", "--grid", "m=10"], "m", "N(d, 2) = 20"),
    (["fisher.clusters", "--grid", "d=30", "--grid", "m=400"], "m", "N(d, 2) = 495"),
    (["fisher.clusters", "--grid", "m=20000"], "m", "at most 30 s"),
    (["quadratic.escape", "--grid", "eta=0"], "eta", "(0, 1]"),
    (["quadratic.escape", "--grid", "eta=2"], "eta", "(0, 1]"),
    (["quadratic.escape", "--grid", "eta=1e-400"], "eta", "double"),
    (["quadratic.escape", "--grid", "t_max=1000"], "t_max", "at most 30 s"),
    (["quadratic.escape", "--grid", "N=1e9"], "N", "[10, 20000]"),
    (["recovery.spectral", "--grid", "delta=1e-9"], "delta", "n = 0"),
    (["recovery.spectral", "--grid", "gamma=0"], "gamma", "(0, 1000]"),
    (["recovery.spectral", "--grid", "gamma=1e309"], "gamma", "(0, 1000]"),
    (["recovery.spectral", "--grid", "d=2", "--grid", "d1=8"], "d1", "D = 3"),
    (["recovery.spectral", "--grid", "d=60", "--grid", "delta=1000"], "delta", "at most 30 s"),
    (["twostep.term_constants", "--grid", "N=6000"], "N", "at most 30 s"),
    (["twostep.term_constants", "--grid", "N=1.5"], "N", "integer"),
    (["check.sleep", "--grid", "seconds=-1"], "seconds", "[0, 30]"),
    (["check.normal", "--grid", "n=" + "9" * 2000], "n", ""),
    (["check.normal", "--seeds", "0..20000"], "runs", "at most 1e+04"),
    (["check.normal", "--seeds", "-1"], "seeds", ""),
    (["check.normal", "--workers", "100000"], "workers", "integers in [1, "),
    (["check.fail", "--grid", "x=" + ",".join(map(str, range(101))),
      "--grid", "bad=" + ",".join(map(str, range(101)))], "grid", "at most 1e+04"),
])
def test_bad_grid_is_refused_before_any_run(invoke, tmp_path, args, param, word):
    db = tmp_path / "runs.sqlite"
    r = invoke("sweep", *args, "--store", str(db))
    assert r.exit_code == 2
    line = _one_line(r.stderr, word)
    assert line.startswith(f"fltheory: error: {param} = ")
    assert not db.exists()  # refused before the store was even opened


def test_grid_validated_at_the_api_before_any_run():
    def never(done: int, total: int, run: runner.Run) -> None:
        raise AssertionError("a run started")

    good = tasks.canonical(tasks.get_task("fisher.clusters"), {"m": 200})
    bad = tasks.canonical(tasks.get_task("fisher.clusters"), {"d": 1})
    with pytest.raises(DomainError, match=r"^d = 1 is out of range"):
        runner.sweep("fisher.clusters", [good, bad], [0], progress=never)
    with pytest.raises(DomainError, match="claims"):
        runner.sweep("verify.claims", [{"claims": "hermite.nope", "size": "small"}], [0],
                     progress=never)
    with pytest.raises(DomainError, match="workers"):
        runner.sweep("fisher.clusters", [good], [0], workers=10**6, progress=never)
    with pytest.raises(DomainError, match="runs"):
        runner.sweep("check.normal", [tasks.canonical(tasks.get_task("check.normal"), {})],
                     list(range(tasks.MAX_RUNS + 1)), progress=never)


def test_every_default_point_is_valid():
    for task in tasks.all_tasks().values():
        tasks.validate(task, tasks.canonical(task, {}))


def test_single_seed_zero_is_valid(invoke):
    r = invoke("sweep", "check.normal", "--seeds", "0", "--no-cache", "--workers", "1")
    assert r.exit_code == 0 and r.stderr == ""


def test_list_states_the_ranges(invoke):
    out = invoke("sweep", "--list").stdout
    assert "d=5 (integers in [2, 1000])" in out and "eta=1/10 (numbers in (0, 1])" in out


# --------------------------------------------------------------------------- 6. JSON, text, LaTeX


def _strict(text: str) -> object:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in JSON")

    return json.loads(text, parse_constant=refuse)


def test_single_seed_json_has_null_standard_error(invoke):
    r = invoke("sweep", "check.normal", "--seeds", "0", "--no-cache", "--workers", "1",
               "--format", "json")
    assert r.exit_code == 0
    metrics = _strict(r.stdout)["value"][0]["metrics"]  # type: ignore[index]
    assert metrics["mean"]["se"] is None and metrics["mean"]["n"] == 1
    assert math.isfinite(metrics["mean"]["mean"])


def test_no_nan_in_any_format_when_runs_give_nan(invoke):
    """quadratic.escape with a t_max too short to escape: every escape time is NaN."""
    args = ("sweep", "quadratic.escape", "--grid", "N=100", "--grid", "t_max=1/10", "--seeds",
            "0..1", "--no-cache", "--workers", "1")
    js = invoke(*args, "--format", "json")
    assert js.exit_code == 0
    out = _strict(js.stdout)
    escape = out["value"][0]["metrics"]["escape_time"]  # type: ignore[index]
    assert escape == {"mean": None, "se": None, "n": 0, "nan": 2}
    assert all(run["result"]["escape_time"] is None
               for run in out["details"]["runs"])  # type: ignore[index]
    for fmt in ("text", "latex"):
        r = invoke(*args, "--format", fmt)
        assert r.exit_code == 0 and "n/a" in r.stdout
        assert re.search(r"\b(nan|inf)\b", r.stdout) is None, r.stdout


def test_aggregate_undefined_statistics_are_none():
    outcome = runner.SweepOutcome("t", [
        runner.Run({"a": "1"}, 0, {"x": 1.0, "y": math.nan}),
        runner.Run({"a": "2"}, 0, {"x": 1.0, "y": 2.0}),
        runner.Run({"a": "2"}, 1, {"x": 3.0, "y": math.inf}),
    ], "serial")
    one, two = runner.aggregate(outcome)
    assert one["metrics"]["x"] == {"mean": 1.0, "se": None, "n": 1, "nan": 0}
    assert one["metrics"]["y"] == {"mean": None, "se": None, "n": 0, "nan": 1}
    assert two["metrics"]["x"]["se"] == pytest.approx(1.0)  # stdev(1, 3)/√2 = √2/√2
    assert two["metrics"]["y"] == {"mean": 2.0, "se": None, "n": 1, "nan": 1}
    json.dumps(runner.aggregate(outcome), allow_nan=False)


@linux_only
def test_a_worker_killed_from_outside_is_a_failed_run_not_a_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "fltheory", *SLOW_SWEEP], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env())
    workers: list[int] = []
    try:
        workers = _wait_for_workers(proc)
        assert len(workers) >= 2
        time.sleep(0.5)
        os.kill(workers[0], signal.SIGKILL)  # as the kernel's OOM killer would
        out, err = proc.communicate(timeout=30)
    finally:
        for pid in _alive(workers):
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
    assert proc.returncode == 1 and "Traceback" not in err
    assert out.count("a worker process died") == 4  # every run of the broken pool, listed


def test_quadratic_escape_task_reports_divergence():
    """η = 1 is above the mean-field stability bound for p = 4, p* = 2 (η_max = 3/10): the sweep
    task says the run diverged (metric 'diverged' = 1) instead of passing NaN off as a loss."""
    from fltheory.sweep.tasks import get_task

    out = get_task("quadratic.escape").func(
        {"N": "50", "p": "4", "p_star": "2", "eta": "1", "t_max": "5"}, 0)
    assert out["diverged"] == 1.0
    calm = get_task("quadratic.escape").func(
        {"N": "50", "p": "4", "p_star": "2", "eta": "1/10", "t_max": "1"}, 0)
    assert calm["diverged"] == 0.0 and math.isfinite(calm["final_test_loss"])


@pytest.mark.parametrize("make", [
    lambda tmp: tmp / ("x" * 300 + ".sqlite"),             # a name beyond NAME_MAX
    lambda tmp: tmp.joinpath(*["d"] * 1500, "t.sqlite"),    # deeper than directory creation
    lambda tmp: tmp.joinpath(*["d" * 200] * 25, "t.sqlite"),  # beyond PATH_MAX
])
@pytest.mark.parametrize("args", [("cache", "info"), ("sweep", "check.normal", "--seeds", "0..1",
                                                      "--workers", "1")])
def test_store_path_beyond_file_system_limits_is_one_line(invoke, tmp_path, make, args):
    """Found by benchmarks/fuzz_cli.py: a 300-byte name made `cache info` raise ENAMETOOLONG
    and a 2000-level path made `sweep --store` recurse out of the stack."""
    r = invoke(*args, "--store", str(make(tmp_path)))
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1 and "store = " in r.stderr
