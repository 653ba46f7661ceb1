"""Write the report directory: checked before any work, written to a temporary sibling, renamed
into place at the end (an error leaves nothing behind, and a previous report is replaced only
once the new one is complete).

``--out DIR`` may be a new path (its parent must exist), an empty directory, or a previous
report (a directory holding :data:`MARKER`). Anything else — a file, a non-empty directory
without the marker, a place this process cannot write — is refused before any claim runs.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fltheory.exact import DomainError
from fltheory.report.inputs import ReportRuns

if TYPE_CHECKING:
    from fltheory.results import Result

__all__ = ["MARKER", "ReportOutcome", "check_out_dir", "report_result", "write_report"]

#: the file that marks a directory as a report fltheory may replace
MARKER = ".fltheory-report"


def _refuse(path: Path | str, reason: str) -> DomainError:
    text = str(path) if str(path) else "''"
    return DomainError("out", text if len(text) <= 200 else text[:200] + "…",
                       f"a new directory, an empty one, or a previous report (holding {MARKER})",
                       reason=reason)


def check_out_dir(path: Path | str) -> Path:
    """The report directory ``path`` (absolute), or a :class:`DomainError` naming ``out``."""
    if not str(path).strip():
        raise _refuse(str(path), "is empty")
    try:
        return _check_out_dir(Path(os.path.abspath(path)))
    except DomainError:
        raise
    except OSError as exc:  # a name too long, a loop of links, …
        raise _refuse(Path(path), f"cannot be used ({exc.strerror})") from None
    except ValueError as exc:  # a NUL byte
        raise _refuse(Path(str(path)[:80]), f"cannot be used ({exc})") from None


def _check_out_dir(path: Path) -> Path:
    if path.is_symlink():
        raise _refuse(path, "is a symbolic link")
    if path.exists():
        if not path.is_dir():
            raise _refuse(path, "is not a directory")
        entries = os.listdir(path)
        if entries and MARKER not in entries:
            raise _refuse(path, f"is a non-empty directory that is not a report (no {MARKER})")
        if not os.path.isfile(path / MARKER) and entries:
            raise _refuse(path, f"holds a {MARKER} that is not a file")
    parent = path.parent
    if not parent.is_dir():
        raise _refuse(path, f"has no parent directory ({parent} does not exist)")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise _refuse(path, f"cannot be written (no permission in {parent})")
    if path == parent:
        raise _refuse(path, "is the root directory")
    return path


@dataclass
class ReportOutcome:
    directory: Path
    files: list[str]  # relative paths, sorted
    bytes: int
    seconds: float


def _write_tree(tmp: Path, data: ReportRuns) -> None:
    from fltheory.report.figures import draw_claim_figure
    from fltheory.report.page import CSS, anchors, render_page

    (tmp / "assets").mkdir()
    (tmp / "assets" / "report.css").write_text(CSS, encoding="utf-8")
    figures: dict[str, str] = {}
    ids = anchors([r["id"] for r in data.runs])
    for run in data.runs:
        name = ids[run["id"]].removeprefix("claim-") + ".svg"
        points = list(run.get("points") or [])
        if run["status"] == "error" or not points:
            continue
        (tmp / "figures").mkdir(exist_ok=True)
        if draw_claim_figure(points, f"{run['id']}: {run['status']}", tmp / "figures" / name):
            figures[run["id"]] = f"figures/{name}"
    generated = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    (tmp / "index.html").write_text(render_page(data, figures, generated), encoding="utf-8")
    (tmp / MARKER).write_text("written by fltheory report; a later report may replace this "
                              "directory\n", encoding="utf-8")


def write_report(data: ReportRuns, out: Path) -> ReportOutcome:
    """Write the report of ``data`` to the directory ``out`` (see the module docstring)."""
    start = time.perf_counter()
    out = check_out_dir(out)
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    except OSError as exc:
        raise _refuse(out, f"cannot be written ({exc.strerror})") from None
    old: Path | None = None
    try:
        os.chmod(tmp, 0o777 & ~_umask())
        _write_tree(tmp, data)
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
            os.replace(out, old / "report")
        os.replace(tmp, out)
    except OSError as exc:
        if old is not None and not out.exists():  # put the previous report back
            os.replace(old / "report", out)
        raise _refuse(out, f"cannot be written ({exc.strerror})") from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    size = sum((out / f).stat().st_size for f in files)
    return ReportOutcome(out, files, size, time.perf_counter() - start)


def _umask() -> int:
    mask = os.umask(0)  # the only way to read it; restored at once
    os.umask(mask)
    return mask


def report_result(data: ReportRuns, outcome: ReportOutcome) -> Result:
    """What ``fltheory report`` prints: the directory, its files, the counts, and which runs
    came from the store and which were computed now."""
    from fltheory.results import Result, Table

    counts = data.counts()
    return Result(
        command="report",
        inputs={"which": data.which, "size": data.size, "seed": data.seed,
                "origin": data.origin},
        value={"directory": str(outcome.directory), "index": str(outcome.directory /
                                                                 "index.html"),
               "files": outcome.files, "bytes": outcome.bytes, "counts": counts,
               "from_store": data.cached, "computed": data.computed},
        summary=[f"wrote {outcome.directory / 'index.html'} ({len(outcome.files)} files, "
                 f"{outcome.bytes} bytes, {outcome.seconds:.1f} s to write)",
                 f"{counts['pass']} passed, {counts['fail']} failed, {counts['inconclusive']} "
                 f"inconclusive, {counts['error']} error{'' if counts['error'] == 1 else 's'} "
                 f"({len(data.runs)} claim{'' if len(data.runs) == 1 else 's'}, "
                 f"{data.size} size, seed {data.seed}); runs: {len(data.cached)} from the "
                 f"store, {len(data.computed)} computed now"
                 + ("" if data.origin.startswith(("store", "computed"))
                    else f", all from {data.origin}")],
        details={"claims": [{"id": r["id"], "status": r["status"],
                             "origin": "store" if r["id"] in data.cached else
                             "computed" if r["id"] in data.computed else
                             "file" if data.origin.startswith("file") else "error"}
                            for r in data.runs]},
        table=Table(columns=["file", "bytes"],
                    rows=[[f, str((outcome.directory / f).stat().st_size)]
                          for f in outcome.files],
                    caption=f"fltheory report: {outcome.directory}", align="lr"),
        notes=list(data.notes),
    )
