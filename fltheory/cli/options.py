"""Options and rendering shared by every command (light: no sympy/numpy)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

import click

from fltheory.cli.light import DEFAULT_DPS, FORMATS, count_value, rendered
from fltheory.exact import (
    MAX_DPS,
    MIN_DPS,
    DomainError,
    Infinity,
    parse_rational,
    to_float,
)
from fltheory.exact import check_dps as _check_dps
from fltheory.results import Result

if TYPE_CHECKING:
    from pathlib import Path

F = TypeVar("F", bound=Callable[..., Any])



class RationalType(click.ParamType):
    """A command-line number parsed as an exact rational; errors name the option.

    Every number goes through :func:`fltheory.exact.parse_rational` (at most 1000 digits) and
    :func:`fltheory.exact.to_float` (a magnitude a double can hold, or 0): the value stays
    exact, but one that no evaluation could use is refused here, for every command."""

    name = "rational"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Fraction:
        if isinstance(value, Fraction):
            return value
        q = parse_rational(value, _name(param))
        to_float(q, _name(param))
        return q


class CountType(click.ParamType):
    """An integer in [``minimum``, ``maximum``] (``1e3`` accepted when it is an integer).

    Parsed by :func:`fltheory.cli.light.count_value` (:func:`fltheory.exact.parse_count`): at
    most 1000 digits, and a value a double can hold, whatever the command."""

    name = "integer"

    def __init__(self, minimum: int = 1, allow_inf: bool = False, maximum: int | None = None):
        self.minimum = minimum
        self.maximum = maximum
        self.allow_inf = allow_inf

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int | Infinity:
        return count_value(value, _name(param), self.minimum, self.maximum, self.allow_inf)


def _name(param: click.Parameter | None) -> str:
    return param.name if param is not None and param.name else "value"


RATIONAL = RationalType()


def format_option(func: F) -> F:
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
                        show_default=True, help="Output format.")(func)


def list_option(what: str) -> Callable[[F], F]:
    """``--list`` (name the WHAT a command knows) and the ``--format`` of that list."""

    def decorate(func: F) -> F:
        func = click.option("--list", "list_only", is_flag=True,
                            help=f"List the {what} and exit.")(func)
        return click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
                            show_default=True, help="Format of --list.")(func)

    return decorate


def list_result(command: str, columns: list[str], rows: list[list[str]], fmt: str) -> None:
    """Print a ``--list``: text is one tab-separated line per entry (for scripts); json and
    latex go through the shared :class:`Result` shape (``value``: the names, or one object per
    entry when there are several columns)."""
    from fltheory.results import Table

    if fmt == "text":
        for row in rows:
            click.echo("\t".join(row))
        return
    value: list[Any] = ([row[0] for row in rows] if len(columns) == 1 else
                        [dict(zip(columns, row, strict=True)) for row in rows])
    emit(Result(command=command, inputs={"list": True}, value=value,
                summary=[f"{len(rows)} {columns[0]}s"],
                table=Table(columns=columns, rows=rows, caption=f"fltheory {command} --list",
                            align="l" * len(columns))), fmt)


def names_result(command: str, names: list[str], fmt: str) -> None:
    """``--list`` of a command whose entries are bare names."""
    list_result(command, ["name"], [[n] for n in names], fmt)


def pick_name(command: str, kind: str, names: list[str], name: str | None, list_only: bool,
              fmt: str) -> str | None:
    """NAME of ``table``/``plot``: ``None`` once ``--list`` has been printed; otherwise the
    checked name (one line, exit 2, when missing, unknown, or ``--format`` is given)."""
    from fltheory.exact import DomainError

    if list_only:
        names_result(command, names, fmt)
        return None
    if name is None:
        raise click.UsageError(f"Missing argument 'NAME' (fltheory {command} --list names them).")
    if fmt != "text":
        raise DomainError("format", fmt, "text (json and latex format the --list)",
                          reason="applies to --list only")
    if name not in names:
        raise DomainError("NAME", name, "one of " + ", ".join(names),
                          reason=f"is not a known {kind}")
    return name


def dps_option(func: F) -> F:
    """``--dps``: the bound [MIN_DPS, MAX_DPS] of :mod:`fltheory.exact` is enforced by the option
    type, so every command that takes ``--dps`` refuses the same values with the same line."""
    return click.option("--dps", type=CountType(minimum=MIN_DPS, maximum=MAX_DPS),
                        default=DEFAULT_DPS, show_default=True,
                        help=f"Significant digits of numeric evaluations, {MIN_DPS} to {MAX_DPS} "
                             "(the heaviest command takes seconds at the maximum).")(func)


def check_dps(dps: int) -> int:
    """The one ``dps`` bound (:func:`fltheory.exact.check_dps`); the option type already
    applies it, this serves callers that build a result without the option."""
    return _check_dps(dps)


def emit(result: Result, fmt: str, wrap: bool = True) -> None:
    """Render a result in the requested format on stdout; ``wrap``: text lines wrapped to the
    renderer's width (:data:`fltheory.render.text.WIDTH`, issue 37 item 7), JSON and LaTeX
    unchanged."""
    click.echo(rendered(result, fmt, wrap), nl=False)


def check_output_path(path: Path) -> Path:
    """The file a command may write: a new path or an existing regular file (a symlink is
    followed to its target). Anything else (a directory, a device such as /dev/full, a fifo, a
    socket) is refused with a :class:`DomainError` naming the path, before any work starts."""
    import os
    import stat
    from pathlib import Path

    real = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    except OSError as exc:
        raise _path_error(path, exc) from None
    if not stat.S_ISREG(mode):
        kind = ("a directory" if stat.S_ISDIR(mode) else
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                "a fifo" if stat.S_ISFIFO(mode) else
                "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise DomainError("output", str(path), "a regular file or a new path",
                          reason=f"is {kind}")
    return real


def _path_error(path: Path | str, exc: OSError) -> DomainError:
    import os

    why = exc.strerror or type(exc).__name__
    name = str(exc.filename or "")
    temporary = os.path.basename(name).startswith(f".{os.path.basename(path)}.")
    # name the directory that failed, if it is not the path itself or our temporary file
    where = f" ({name})" if name and name != str(path) and not temporary else ""
    return DomainError("output", str(path), "a path this process can write",
                       reason=f"cannot be written: {why}{where}")


@contextmanager
def atomic_output(path: Path, suffix: str = ".tmp") -> Iterator[str]:
    """Yield a temporary file name next to ``path``; when the block succeeds the file becomes
    ``path`` at once (``os.replace``), otherwise it is removed -- with any directory created for
    it -- so an error leaves nothing behind.

    The file gets the permissions of a newly created file (0o666 minus the umask), or keeps
    those of the regular file it replaces. Errors of the file system (no such directory,
    permission denied, read-only, full) become one :class:`DomainError` naming the path."""
    import os
    import tempfile
    from pathlib import Path

    target = check_output_path(path)
    created: list[Path] = []
    tmp: str | None = None
    done = False
    try:
        for parent in reversed([target.parent, *target.parent.parents]):
            if not parent.exists():
                parent.mkdir()
                created.append(parent)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=suffix)
        try:
            os.fchmod(fd, _new_file_mode(target))
        finally:
            os.close(fd)
        yield tmp
        os.replace(tmp, target)
        done = True
    except OSError as exc:
        raise _path_error(path, exc) from None
    finally:
        if not done:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            for parent in reversed(created):
                try:
                    parent.rmdir()
                except OSError:
                    break


def _new_file_mode(target: Path) -> int:
    import os
    import stat

    try:
        return stat.S_IMODE(os.stat(target).st_mode)  # replacing a file keeps its permissions
    except FileNotFoundError:
        umask = os.umask(0)  # the only way to read the umask; restored at once
        os.umask(umask)
        return 0o666 & ~umask


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through :func:`atomic_output`: the whole file or nothing."""
    import os

    with atomic_output(path) as tmp, open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
