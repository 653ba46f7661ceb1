"""The results store: completed runs in SQLite (standard library), one row per
(task, parameters, seed, code version).

The code version is the package version plus a fingerprint of the package's source files, so
a changed simulator never answers from stale rows. WAL journaling and a busy timeout let several
processes write at once; every row is committed when it arrives, so a killed sweep loses at
most the runs in flight.

Faults (the store is a cache: it must never cost the user an answer):

* a path that cannot hold a store (a directory, a device, a parent that cannot be created, no
  permission to create the file): :class:`StoreError` — one line naming ``store``, exit 2;
* a file that is not an SQLite database at all (no SQLite header: a mistyped ``--store``
  naming someone's notes): :class:`StoreError`, the file left untouched;
* a corrupt store (SQLite's header, but truncated or malformed; found on opening by SQLite's
  ``quick_check``): moved aside to ``<name>.corrupt-<UTC time>`` (with its ``-wal``/``-shm``),
  a new empty store started in its place, one warning line on stderr naming both paths.
  Opening for ``cache clear`` deletes the corrupt file instead (the user asked for an empty
  store), and ``cache clear`` also deletes copies moved aside earlier;
* a read-only store (file or directory not writable): opened read-only (``mode=ro``, or
  ``immutable=1`` when SQLite cannot create the WAL index next to it), so reading and fully
  cached sweeps work; the first result that cannot be saved prints one warning line, and the
  sweep goes on without saving. ``cache clear`` on it is a :class:`StoreError`;
* a write or read failing later (disk full, a lock held past the timeout, corruption found
  during a sweep): one warning line; reads count as misses, writes are skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fltheory.exact import DomainError

__all__ = ["Store", "StoreError", "code_version", "default_path"]

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


class StoreError(DomainError):
    """The results store cannot be used at this path (one line naming ``store``, exit 2)."""

    def __init__(self, path: Path | str, reason: str):
        super().__init__("store", str(path), "a writable SQLite file path, or --no-cache",
                         reason=reason)


#: limits on a store path, checked before the file system is touched: the kernel's PATH_MAX and
#: NAME_MAX (4096, 255 bytes on Linux), and a depth that directory creation can handle
MAX_PATH_BYTES, MAX_NAME_BYTES, MAX_PATH_DEPTH = 4095, 255, 200


#: the first bytes of every SQLite 3 database file
_SQLITE_HEADER = b"SQLite format 3\x00"


def check_store_path(path: Path) -> None:
    """Refuse (StoreError) a store path the file system cannot hold, before using it."""
    raw = os.fsencode(str(path))
    if len(raw) > MAX_PATH_BYTES:
        raise StoreError(f"{str(path)[:40]}…", f"is {len(raw)} bytes long (at most "
                                                f"{MAX_PATH_BYTES})")
    if any(len(os.fsencode(part)) > MAX_NAME_BYTES for part in path.parts):
        raise StoreError(f"{str(path)[:40]}…", f"has a name longer than {MAX_NAME_BYTES} bytes")
    if len(path.parts) > MAX_PATH_DEPTH:
        raise StoreError(f"{str(path)[:40]}…", f"is {len(path.parts)} directories deep (at "
                                                f"most {MAX_PATH_DEPTH})")


def _stderr_warning(message: str) -> None:
    sys.stderr.write("fltheory: warning: " + " ".join(message.split()) + "\n")
    sys.stderr.flush()


def _code(exc: BaseException) -> str:
    return str(getattr(exc, "sqlite_errorname", ""))


def _corrupt(exc: BaseException) -> bool:
    """SQLite says the file is not a database or is malformed (not: locked, read-only, …)."""
    name = _code(exc)
    if name:
        return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
    text = str(exc)
    return "malformed" in text or "not a database" in text


def _readonly(exc: BaseException) -> bool:
    name = _code(exc)
    return name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM",
                            "SQLITE_AUTH")) or "readonly" in str(exc)


class _Corrupt(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@contextlib.contextmanager
def _directory_lock(directory: Path) -> Iterator[None]:
    """An exclusive lock on the store's directory while a corrupt store is replaced, so that
    two processes finding it corrupt at once do not both move files (POSIX; elsewhere none)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


class Store:
    """The SQLite results store at ``path`` (see the module docstring for faults).

    ``on_corrupt``: ``"move"`` (keep the corrupt file aside) or ``"delete"``; ``warn`` receives
    one-line warnings (default: stderr)."""

    def __init__(self, path: Path | str, *, on_corrupt: str = "move",
                 warn: Callable[[str], None] | None = None):
        self.path = Path(path)
        self.warn = warn or _stderr_warning
        self.readonly = False
        self._writes_off = ""  # why results are no longer saved ("" while they are)
        self._reads_off = False
        check_store_path(self.path)
        self._check_path()
        self._check_header()
        existed = self.path.exists()
        try:
            self.db = self._open_rw()
        except _Corrupt as exc:
            self.db = self._replace_corrupt(exc.reason, on_corrupt)
        except sqlite3.Error as exc:
            if not (_readonly(exc) and existed):
                verb = "opened" if existed else "created"
                raise StoreError(self.path, f"cannot be {verb} ({exc})") from None
            self.db = self._open_ro(str(exc))

    # ------------------------------------------------------------------ opening

    def _check_path(self) -> None:
        path = self.path
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            mode = None
        except OSError as exc:
            raise StoreError(path, f"cannot be read ({exc.strerror})") from None
        if mode is not None and stat.S_ISDIR(mode):
            raise StoreError(path, "is a directory")
        if mode is not None and not stat.S_ISREG(mode):
            raise StoreError(path, "is not a regular file")
        if mode is None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(path, f"cannot be created ({exc.strerror})") from None
            if not path.parent.is_dir():
                raise StoreError(path, f"cannot be created ({path.parent} is not a directory)")

    def _open_rw(self) -> sqlite3.Connection:
        """Open for reading and writing. Switching a new file to WAL takes an exclusive lock
        that SQLite does not wait for (SQLITE_BUSY at once when several processes create the
        store together): retried for up to 30 s."""
        deadline = time.monotonic() + 30
        pause = 0.02
        while True:
            try:
                return self._open_rw_once()
            except sqlite3.OperationalError as exc:
                busy = _code(exc).startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or \
                    "locked" in str(exc)
                if not busy or time.monotonic() > deadline:
                    raise
            time.sleep(pause)
            pause = min(2 * pause, 0.5)

    def _open_rw_once(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=60)
        try:
            if str(db.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(_SCHEMA)
            db.commit()
            self._probe(db)
        except sqlite3.DatabaseError as exc:
            db.close()
            if _corrupt(exc):
                raise _Corrupt(str(exc)) from None
            raise
        except BaseException:
            db.close()
            raise
        return db

    @staticmethod
    def _probe(db: sqlite3.Connection) -> None:
        """Raise :class:`_Corrupt` when SQLite finds the file damaged. ``quick_check`` reads
        every page once (milliseconds for a store of a few MB), so a truncated or overwritten
        file is found now, not in the middle of a sweep."""
        try:
            answer = str(db.execute("PRAGMA quick_check(1)").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            if _corrupt(exc):
                raise _Corrupt(str(exc)) from None
            raise
        if answer != "ok":
            raise _Corrupt(answer)

    def _open_ro(self, why: str) -> sqlite3.Connection:
        """Read-only: ``mode=ro``, else ``immutable=1`` (a WAL store in a directory where
        SQLite cannot create the shared-memory index)."""
        uri = "file:" + quote(str(self.path.resolve()))
        last: Exception | None = None
        for flags in ("mode=ro", "mode=ro&immutable=1"):
            db = sqlite3.connect(f"{uri}?{flags}", uri=True, timeout=60)
            try:
                db.execute("SELECT name FROM sqlite_master").fetchall()
                self._probe(db)
            except _Corrupt as exc:
                db.close()
                raise StoreError(self.path, f"is corrupt ({exc.reason}) and read-only, so it "
                                            "cannot be moved aside") from None
            except sqlite3.Error as exc:
                db.close()
                last = exc
                continue
            self.readonly = True
            self._writes_off = f"the store is read-only ({why})"
            return db
        raise StoreError(self.path, f"cannot be opened ({last})")

    def _check_header(self) -> None:
        """Refuse a file that is not an SQLite database at all (a mistyped ``--store``: it is
        the user's file, never moved aside or deleted); a damaged store keeps its header."""
        try:
            with open(self.path, "rb") as f:
                head = f.read(len(_SQLITE_HEADER))
        except OSError:  # missing or unreadable: the opening below says what is wrong
            return
        if head and not _SQLITE_HEADER.startswith(head):
            raise StoreError(self.path, "is not a results store (not an SQLite file); it is "
                                        "left untouched: choose another --store")

    def _replace_corrupt(self, reason: str, on_corrupt: str) -> sqlite3.Connection:
        path = self.path
        try:
            with _directory_lock(path.parent):
                try:  # another process may have replaced it while we waited for the lock
                    return self._open_rw()
                except _Corrupt:
                    pass
                if on_corrupt == "delete":
                    for suffix in ("", "-wal", "-shm"):
                        Path(f"{path}{suffix}").unlink(missing_ok=True)
                    done = "deleted it"
                else:
                    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
                    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
                    k = 1
                    while aside.exists():
                        k += 1
                        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{k}")
                    for suffix in ("-wal", "-shm", ""):  # the database last: its name is the key
                        if Path(f"{path}{suffix}").exists():
                            os.replace(f"{path}{suffix}", f"{aside}{suffix}")
                    done = f"moved it to {aside}"
                db = self._open_rw()
        except (OSError, sqlite3.Error, _Corrupt) as exc:
            raise StoreError(path, f"is corrupt ({reason}) and could not be replaced "
                                   f"({exc}); remove it or use --store elsewhere") from None
        self.warn(f"the results store {path} was corrupt ({reason}); {done} and started a new "
                  "empty store")
        return db

    # ------------------------------------------------------------------ use

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, task: str, params: dict[str, str], seeds: Iterable[int],
            version: str) -> dict[int, dict[str, Any]]:
        """Stored results of these seeds at one grid point (seed -> result); a failing read
        is a miss (one warning)."""
        return {seed: row[0] for seed, row in self.rows(task, params, seeds, version).items()}

    def rows(self, task: str, params: dict[str, str], seeds: Iterable[int],
             version: str) -> dict[int, tuple[dict[str, Any], float, float]]:
        """Like :meth:`get`, with each run's seconds and the time it was stored (seconds
        since the epoch): seed -> (result, seconds, created); a failing read is a miss."""
        key = params_key(params)
        seeds = list(seeds)
        out: dict[int, tuple[dict[str, Any], float, float]] = {}
        if self._reads_off or not seeds:
            return out
        try:
            for start in range(0, len(seeds), 500):
                part = seeds[start:start + 500]
                marks = ",".join("?" * len(part))
                found = self.db.execute(
                    f"SELECT seed, result, seconds, created FROM runs WHERE task = ? AND "
                    f"params = ? AND version = ? AND seed IN ({marks})",
                    (task, key, version, *part))
                out.update({seed: (json.loads(result), float(seconds), float(created))
                            for seed, result, seconds, created in found})
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return out
            self._reads_off = True
            self.warn(f"cannot read the results store {self.path} ({exc}); running without it")
            return {}
        except (sqlite3.Error, ValueError) as exc:
            self._reads_off = True
            self.warn(f"cannot read the results store {self.path} ({exc}); running without it")
            return {}
        return out

    def put(self, task: str, params: dict[str, str], seed: int, version: str,
            result: dict[str, Any], seconds: float) -> bool:
        """Store one run; False (and one warning, the first time) when it cannot be saved."""
        if not self._writes_off:
            try:
                self.db.execute("INSERT OR REPLACE INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (task, params_key(params), seed, version, json.dumps(result),
                                 seconds, time.time()))
                self.db.commit()
                return True
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    self.db.rollback()
                self.readonly = self.readonly or _readonly(exc)
                self._writes_off = f"{exc}"
        if self._writes_off != "warned":
            self.warn(f"results are not saved in {self.path}: {self._writes_off}; the sweep "
                      "goes on (use --store PATH to keep them)")
            self._writes_off = "warned"
        return False

    def summary(self) -> list[tuple[str, str, int, float]]:
        """(task, version, runs, total seconds) per task and version."""
        try:
            return list(self.db.execute(
                "SELECT task, version, COUNT(*), SUM(seconds) FROM runs GROUP BY task, "
                "version ORDER BY task, version"))
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise StoreError(self.path, f"cannot be read ({exc})") from None
        except sqlite3.Error as exc:
            raise StoreError(self.path, f"cannot be read ({exc})") from None

    def clear(self, task: str | None = None) -> int:
        if self.readonly:
            raise StoreError(self.path, "is read-only, so it cannot be cleared")
        try:
            cur = (self.db.execute("DELETE FROM runs") if task is None else
                   self.db.execute("DELETE FROM runs WHERE task = ?", (task,)))
            self.db.commit()
        except sqlite3.Error as exc:
            raise StoreError(self.path, f"cannot be cleared ({exc})") from None
        return cur.rowcount

    def check(self) -> str:
        try:
            return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])
        except sqlite3.Error as exc:
            return f"failed ({exc})"

    def corrupt_copies(self) -> list[Path]:
        """Corrupt stores moved aside earlier (``<name>.corrupt-*``, not their -wal/-shm)."""
        return sorted(p for p in self.path.parent.glob(self.path.name + ".corrupt-*")
                      if not p.name.endswith(("-wal", "-shm")))
