"""The results store: completed runs in SQLite (standard library), one row per
(task, parameters, seed, code version).

The code version is the package version plus a fingerprint of the package's source files, so
a changed simulator never answers from stale rows. WAL journaling and a busy timeout let several
processes write at once; every row is committed when it arrives, so a killed sweep loses at
most the runs in flight.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = ["Store", "code_version", "default_path"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    task TEXT NOT NULL,
    params TEXT NOT NULL,
    seed INTEGER NOT NULL,
    version TEXT NOT NULL,
    result TEXT NOT NULL,
    seconds REAL NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (task, params, seed, version)
)
"""


def default_path() -> Path:
    """$FLTHEORY_CACHE, else $XDG_CACHE_HOME/fltheory/runs.sqlite, else ~/.cache/…"""
    if os.environ.get("FLTHEORY_CACHE"):
        return Path(os.environ["FLTHEORY_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fltheory" / "runs.sqlite"


@lru_cache(maxsize=1)
def code_version() -> str:
    """``<version>+<sha256 of the package's .py files, 12 hex digits>``."""
    from fltheory import __version__

    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


def params_key(params: dict[str, str]) -> str:
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


class Store:
    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=60)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(_SCHEMA)
        self.db.commit()

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, task: str, params: dict[str, str], seeds: Iterable[int],
            version: str) -> dict[int, dict[str, Any]]:
        """Stored results of these seeds at one grid point (seed -> result)."""
        key = params_key(params)
        seeds = list(seeds)
        out: dict[int, dict[str, Any]] = {}
        for start in range(0, len(seeds), 500):
            part = seeds[start:start + 500]
            marks = ",".join("?" * len(part))
            rows = self.db.execute(
                f"SELECT seed, result FROM runs WHERE task = ? AND params = ? AND version = ? "
                f"AND seed IN ({marks})", (task, key, version, *part))
            out.update({seed: json.loads(result) for seed, result in rows})
        return out

    def put(self, task: str, params: dict[str, str], seed: int, version: str,
            result: dict[str, Any], seconds: float) -> None:
        self.db.execute("INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (task, params_key(params), seed, version, json.dumps(result), seconds,
                         time.time()))
        self.db.commit()

    def summary(self) -> list[tuple[str, str, int, float]]:
        """(task, version, runs, total seconds) per task and version."""
        return list(self.db.execute(
            "SELECT task, version, COUNT(*), SUM(seconds) FROM runs GROUP BY task, version "
            "ORDER BY task, version"))

    def clear(self, task: str | None = None) -> int:
        cur = (self.db.execute("DELETE FROM runs") if task is None else
               self.db.execute("DELETE FROM runs WHERE task = ?", (task,)))
        self.db.commit()
        return cur.rowcount

    def check(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])
