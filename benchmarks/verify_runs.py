"""Assemble the committed verification runs from ``fltheory verify --format json`` outputs.

``docs/verify-small.json`` is the CI-size run of every registered claim (seed 0). A full run takes
a quarter of an hour; when only some papers' claims changed, their runs are made again
(``fltheory verify PAPER --format json``) and spliced into the committed file. Each claim's run
keeps its own provenance (code version and date of the run that produced it), so a spliced file
says exactly which code made each verdict.

``docs/verify-large.json`` holds the large-size runs of the claims that the CI size cannot decide
(issue 37 item 9), one ``fltheory verify CLAIM --size large --format json`` each, merged in the
same format, with the machine's load at the time.

    python benchmarks/verify_runs.py splice BASE.json RUN.json [RUN.json …] -o OUT.json
    python benchmarks/verify_runs.py large CLAIM [CLAIM …] -o OUT.json [--from RUN.json …]
                                           [--note TEXT …]

``splice`` takes BASE's runs, replaces or adds every claim of each RUN, keeps the registry's order,
drops claims no longer registered, and recomputes the counts and the table. ``large`` runs each
CLAIM at ``--size large`` (``--no-cache``, seed 0), or takes already made runs with ``--from``
(a later file's run of a claim replaces an earlier one's, so the committed file can come first).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _load(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def _row(claim: dict[str, Any]) -> list[str]:
    return [claim["id"], claim["predicted"], claim["measured"], claim["tolerance"],
            claim["status"]]


def _assemble(template: dict[str, Any], claims: list[dict[str, Any]],
              runs: dict[str, Any], code_version: str, inputs: dict[str, Any],
              caption: str, notes: list[str]) -> dict[str, Any]:
    out = dict(template)
    out["inputs"] = inputs
    out["value"] = {s: sum(c["status"] == s for c in claims)
                    for s in ("pass", "fail", "inconclusive")}
    out["details"] = {"claims": claims, "errors": [],
                      "provenance": {"code_version": code_version,
                                     "runs": {c["id"]: runs[c["id"]] for c in claims}}}
    table = dict(template["table"])
    table["rows"] = [_row(c) for c in claims]
    table["caption"] = caption
    out["table"] = table
    out["notes"] = notes
    return out


def splice(base_path: str, run_paths: list[str]) -> dict[str, Any]:
    from fltheory.claims.registry import all_claims

    base = _load(base_path)
    claims = {c["id"]: c for c in base["details"]["claims"]}
    runs = dict(base["details"]["provenance"]["runs"])
    version = base["details"]["provenance"]["code_version"]
    for path in run_paths:
        run = _load(path)
        if run["details"]["errors"]:
            raise SystemExit(f"{path}: the run has errors: {run['details']['errors']}")
        if run["inputs"].get("size") != base["inputs"]["size"] or \
                run["inputs"].get("seed") != base["inputs"]["seed"]:
            raise SystemExit(f"{path}: size/seed {run['inputs']} differ from the base's")
        for c in run["details"]["claims"]:
            claims[c["id"]] = c
            runs[c["id"]] = run["details"]["provenance"]["runs"][c["id"]]
        version = run["details"]["provenance"]["code_version"]
    registered = [c.id for c in all_claims()]
    missing = [cid for cid in registered if cid not in claims]
    if missing:
        raise SystemExit(f"no run of the registered claims {missing}: run their paper and splice")
    ordered = [claims[cid] for cid in registered]
    return _assemble(base, ordered, runs, version, base["inputs"], base["table"]["caption"],
                     base.get("notes", []))


def large(claim_ids: list[str], from_paths: list[str], notes_in: list[str] | None = None
          ) -> dict[str, Any]:
    made: list[dict[str, Any]] = [_load(p) for p in from_paths]
    done = {c["id"] for run in made for c in run["details"]["claims"]}
    env = {**os.environ, "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS", "1")}
    for cid in claim_ids:
        if cid in done:
            continue
        start = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "fltheory", "verify", cid, "--size", "large",
                            "--no-cache", "--seed", "0", "--format", "json"],
                           capture_output=True, text=True, env=env, check=False)
        if p.returncode not in (0, 1):
            raise SystemExit(f"{cid}: exit {p.returncode}: {p.stderr.strip()}")
        print(f"{cid}: {time.perf_counter() - start:.0f} s wall", file=sys.stderr)
        made.append(json.loads(p.stdout))
    chosen: dict[str, dict[str, Any]] = {}
    runs, version = {}, ""
    for run in made:  # a later run of a claim replaces an earlier one (e.g. the committed file)
        if run["inputs"].get("size") != "large":
            raise SystemExit(f"a run of {run['inputs']} is not at the large size")
        for c in run["details"]["claims"]:
            if not claim_ids or c["id"] in claim_ids:
                chosen[c["id"]] = c
                runs[c["id"]] = run["details"]["provenance"]["runs"][c["id"]]
        version = run["details"]["provenance"]["code_version"]
    order = claim_ids or list(chosen)
    claims = [chosen[cid] for cid in order if cid in chosen]
    load = os.getloadavg()
    notes = [f"the claims the CI size cannot decide, each run at --size large, seed 0, one "
             f"process each ({os.cpu_count()} cores; load average when assembled "
             f"{load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}); each claim's 'seconds' is its run "
             f"time, its provenance the code that made it", *(notes_in or [])]
    return _assemble(made[0], claims, runs, version,
                     {"which": [c["id"] for c in claims], "size": "large", "seed": 0},
                     "fltheory verify (large size, seed 0): the claims CI cannot decide", notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("splice")
    s.add_argument("base")
    s.add_argument("runs", nargs="+")
    s.add_argument("-o", "--out", required=True)
    g = sub.add_parser("large")
    g.add_argument("claims", nargs="*")
    g.add_argument("--from", dest="from_paths", nargs="*", default=[])
    g.add_argument("--note", action="append", default=[],
                   help="a line on how the runs were made (the load); repeatable")
    g.add_argument("-o", "--out", required=True)
    args = parser.parse_args()
    result = splice(args.base, args.runs) if args.what == "splice" else \
        large(args.claims, args.from_paths, args.note)
    text = json.dumps(result, indent=2, ensure_ascii=False) + "\n"
    tmp = Path(args.out + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(args.out)
    print(f"{args.out}: {result['value']}", file=sys.stderr)


if __name__ == "__main__":
    main()
