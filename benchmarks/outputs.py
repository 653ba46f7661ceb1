"""Capture what the commands print, to compare two versions of the code byte for byte.

A refactor that must not change a number ("one paper, one shape") is checked by running the same
fixed list of command lines before and after and comparing the files. The list: every
``fltheory …`` example of the README (plots, sweeps, the store and the verification aside), each
in ``--format text``, ``json`` and ``latex``; every registered table (``fltheory table NAME
--out``); and ``fltheory verify --format json --no-cache`` at CI size (seed 0), with each run's
``seconds`` removed (wall time is not a number of the theory).

    python benchmarks/outputs.py capture DIR [--jobs 2] [--no-verify] [--lines INDEX]
                                             [--match REGEX]
    python benchmarks/outputs.py compare DIR_BEFORE DIR_AFTER [--present-only]
    python benchmarks/outputs.py claims DIR_BEFORE PAPER

``--match`` keeps the command lines a regular expression finds (``'^(committee|table
committee)'``), ``--present-only`` compares only the files the second directory holds, and
``claims`` runs ``fltheory verify PAPER`` here and compares each of its claim runs with the same
claim's run in the whole verification captured in DIR_BEFORE.

``capture`` writes one file per command line (stdout, then ``--- stderr``, then ``--- exit N``)
and ``index.json`` (the command lines; ``--lines`` runs those of an earlier capture's
``index.json`` again, so that a README edited since does not change the list); ``compare``
lists the files that differ and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = ("plot", "verify", "report", "sweep", "cache", "table", "COMMAND")
EXTRA = [
    # commands a README line does not show but a refactor of the parameters touches
    "committee plateau --g erf_ss --K 3 --M 2 --eta 1/2",
    "committee simulate --g erf_ss --K 2 --M 2 --eta 1 --N 200 --t-max 5 --seed 1",
    "quadratic simulate --N 200 --seed 1",
    "spike --bulk mp --gamma 1/2 --theta 2",
    "link --g relu --alpha 1,2",
    "twostep learn --target He1 --target He2 --a1 .45 --a2 .3 --batch fresh --sigma tanh",
    "fisher simulate --d 4 --m 400 --seed 2",
    "recovery simulate --d 12 --n 3000 --seed 1",
    "hermite gelu -K 6",
    "threshold --d 100 --q 2 --gamma 1 --k 1..4 --dim dq",
]


def readme_commands() -> list[str]:
    found, in_block = [], False
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```sh"
        if not in_block or not line.startswith("fltheory "):
            continue
        words = shlex.split(line.split("  #")[0])
        if len(words) < 2 or words[1] in SKIP:
            continue
        words = [w for i, w in enumerate(words)
                 if w != "--format" and (i == 0 or words[i - 1] != "--format")]
        found.append(shlex.join(words[1:]))
    return found


def command_lines(verify: bool) -> list[list[str]]:
    lines = [[*shlex.split(c), "--format", f] for c in readme_commands() + EXTRA
             for f in ("text", "json", "latex")]
    tables = subprocess.run([_fltheory(), "table", "--list", "--format", "json"],
                            capture_output=True, text=True, check=True)
    lines += [["table", name, "--output", "{tmp}"] for name in json.loads(tables.stdout)["value"]]
    if verify:
        lines.append(["verify", "--format", "json", "--no-cache", "--seed", "0"])
    return lines


def _strip_seconds(text: str) -> str:
    return re.sub(r'"seconds": [0-9.eE+-]+', '"seconds": 0', text)


def run_one(argv: list[str]) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        real = [a.replace("{tmp}", f"{tmp}/out.tex") for a in argv]
        p = subprocess.run([_fltheory(), *real], capture_output=True, text=True, cwd=tmp,
                           env={"FLTHEORY_CACHE": f"{tmp}/cache", "PATH": _path(),
                                "HOME": tmp, "LC_ALL": "C.UTF-8"})
        out = p.stdout
        if "{tmp}" in " ".join(argv) and Path(tmp, "out.tex").exists():
            out += Path(tmp, "out.tex").read_text(encoding="utf-8")
        out = out.replace(tmp, "{tmp}")
        err = p.stderr.replace(tmp, "{tmp}")
    if argv[0] == "verify":
        out = _strip_seconds(out)
    return f"{out}\n--- stderr\n{err}\n--- exit {p.returncode}\n"


def _fltheory() -> str:
    """The console script of the Python running this script (so that a second virtual
    environment, e.g. one holding the code before a change, captures its own outputs)."""
    return str(Path(sys.executable).parent / "fltheory")


def _path() -> str:
    return str(Path(sys.executable).parent) + ":/usr/bin:/bin"


def name_of(argv: list[str]) -> str:
    text = " ".join(argv)
    slug = re.sub(r"[^A-Za-z0-9]+", "_", text)[:60]
    return f"{slug}-{hashlib.sha1(text.encode()).hexdigest()[:8]}.txt"


def capture(out: Path, jobs: int, verify: bool, index: Path | None,
            match: str | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    lines = (command_lines(verify) if index is None
             else [shlex.split(c) for c in json.loads(index.read_text())])
    if not verify:
        lines = [a for a in lines if a[0] != "verify"]
    if match is not None:
        lines = [a for a in lines if re.search(match, shlex.join(a))]
    (out / "index.json").write_text(json.dumps([shlex.join(a) for a in lines], indent=1))

    def one(argv: list[str]) -> None:
        (out / name_of(argv)).write_text(run_one(argv), encoding="utf-8")
        print(" ".join(argv), file=sys.stderr, flush=True)

    with ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, lines))
    print(f"{len(lines)} command lines captured in {out}")


#: wall-clock figures in progress lines on stderr ("[  0.5 s]", "estimated 12 s"): not numbers
#: of the theory, so a comparison reads them as one placeholder
_CLOCK = re.compile(r"\[\s*[0-9.]+ s\]|estimated [0-9.]+ s")


def _normal(path: Path) -> str:
    return _CLOCK.sub("[clock]", path.read_text(encoding="utf-8"))


def compare(a: Path, b: Path, present_only: bool = False) -> int:
    """Files of ``a`` and ``b`` that differ (stderr progress timings aside)."""
    names = sorted({p.name for p in b.glob("*.txt")} if present_only
                   else {p.name for p in a.glob("*.txt")} | {p.name for p in b.glob("*.txt")})
    differ = [n for n in names if not (a / n).is_file() or not (b / n).is_file()
              or _normal(a / n) != _normal(b / n)]
    for n in differ:
        print("differs:", n)
    print(f"{len(names) - len(differ)} of {len(names)} files byte-identical")
    return 1 if differ else 0


def _claim_runs(text: str) -> dict[str, str]:
    data = json.loads(_strip_seconds(text.split("\n--- stderr")[0]))
    return {run["id"]: json.dumps(run, sort_keys=True) for run in data["details"]["claims"]}


def claims(before: Path, paper: str) -> int:
    """Each claim run of ``fltheory verify PAPER`` (here, now) against the same claim's run in
    the whole verification captured in ``before``."""
    argv = ["verify", "--format", "json", "--no-cache", "--seed", "0"]
    old = _claim_runs((before / name_of(argv)).read_text(encoding="utf-8"))
    new = _claim_runs(run_one([*argv[:1], paper, *argv[1:]]))
    differ = [cid for cid in new if old.get(cid) != new[cid]]
    for cid in differ:
        print("differs:", cid)
    print(f"{len(new) - len(differ)} of {len(new)} claim runs of {paper} identical")
    return 1 if differ or not new else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    c = sub.add_parser("capture")
    c.add_argument("dir", type=Path)
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--no-verify", action="store_true")
    c.add_argument("--lines", type=Path, help="index.json of an earlier capture")
    c.add_argument("--match", help="keep the command lines this regular expression finds")
    k = sub.add_parser("compare")
    k.add_argument("before", type=Path)
    k.add_argument("after", type=Path)
    k.add_argument("--present-only", action="store_true")
    v = sub.add_parser("claims")
    v.add_argument("before", type=Path)
    v.add_argument("paper")
    args = ap.parse_args()
    if args.verb == "capture":
        capture(args.dir, args.jobs, not args.no_verify, args.lines, args.match)
        return 0
    if args.verb == "claims":
        return claims(args.before, args.paper)
    return compare(args.before, args.after, args.present_only)


if __name__ == "__main__":
    sys.exit(main())
