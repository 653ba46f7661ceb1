"""The one shape every query returns, whatever the command.

A :class:`Result` holds the inputs (exact, as strings), the main value (exact where exact), its
numeric evaluation at the requested precision, the conventions used, command-specific details,
an optional :class:`Table`, and notes. The renderers in :mod:`fltheory.render` turn it into text,
JSON or LaTeX without computing anything. Standard library only.

Non-finite numbers (the one rule, applied by :func:`finite` before every renderer prints):

* a NaN or infinity that reaches a renderer is a bug: nothing is printed and
  :class:`NonFiniteResult` names the field (the CLI reports it as an internal error, exit 1);
  this covers float values anywhere in the result and numbers already formatted as strings
  (``nan``, ``inf``, ``+inf``, ``-inf``) in the value, the numeric fields, the details and the
  table cells;
* where "undefined" is a legitimate answer (the standard error of one sample, a time at which
  nothing happened), the command says so by listing the field in ``Result.undefined``
  (a dotted path, ``*`` for any key or index) with the reason: the value is printed as
  ``null`` and the reason is added to the notes. A command may also put ``None`` itself.
"""

from __future__ import annotations

import math
import re
from typing import Any, TypeVar

__all__ = ["FrozenRecord", "NonFiniteResult", "Record", "Result", "Table", "finite"]


class Record:
    """Base of the light path's data classes: fields named in ``_fields`` (the ``__slots__``),
    ``__init__`` written by hand, and what a dataclass would add — ``repr``, ``==`` field by
    field within one class, :meth:`replace`, pickling. A plain class because building a
    dataclass costs ≈ 0.6 ms at import, which every query (``fltheory lambda`` among them)
    would pay for each one it imports."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as an unfrozen dataclass

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._values())

    def replace(self: _R, **changes: Any) -> _R:
        """A copy with ``changes`` (field name → value), as :func:`dataclasses.replace`."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        return type(self)(**{name: changes.get(name, getattr(self, name))
                             for name in self._fields})


class FrozenRecord(Record):
    """A :class:`Record` whose fields cannot be re-assigned once ``__init__`` has set them
    (with ``object.__setattr__``); hashable by its fields, as a frozen dataclass."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._values())


_R = TypeVar("_R", bound=Record)


class Table(Record):
    """A rectangular table with plain-text and (optionally) LaTeX cells.

    ``latex_columns``/``latex_rows`` default to the plain cells, escaped; give them when a cell
    needs mathematics (``$\\alpha_1$``).
    """

    _fields = __slots__ = ("columns", "rows", "caption", "label", "latex_columns", "latex_rows",
                           "align", "notes", "latex_notes", "latex_caption")
    columns: list[str]
    rows: list[list[str]]
    caption: str
    label: str
    latex_columns: list[str] | None
    latex_rows: list[list[str]] | None
    align: str | None
    notes: list[str]
    latex_notes: list[str] | None
    latex_caption: str | None

    def __init__(self, columns: list[str], rows: list[list[str]], caption: str = "",
                 label: str = "", latex_columns: list[str] | None = None,
                 latex_rows: list[list[str]] | None = None, align: str | None = None,
                 notes: list[str] | None = None, latex_notes: list[str] | None = None,
                 latex_caption: str | None = None) -> None:
        self.columns, self.rows, self.caption, self.label = columns, rows, caption, label
        self.latex_columns, self.latex_rows, self.align = latex_columns, latex_rows, align
        self.notes = [] if notes is None else notes
        self.latex_notes, self.latex_caption = latex_notes, latex_caption

    def as_json(self) -> dict[str, Any]:
        return {"columns": self.columns, "rows": self.rows, "caption": self.caption,
                "notes": self.notes}


class Result(Record):
    """What a query command computed, in the shape shared by every command.

    JSON (``--format json``) is ``as_json()``: keys ``command``, ``fltheory_version``,
    ``inputs``, ``value``, ``numeric``, ``conventions``, ``details``, ``table``, ``notes`` —
    always all of them, ``null`` where a command has nothing to say.
    """

    _fields = __slots__ = ("command", "inputs", "value", "numeric", "conventions", "summary",
                           "details", "table", "notes", "latex_value", "undefined")
    command: str
    inputs: dict[str, Any]
    value: Any
    numeric: str | None
    conventions: dict[str, str]
    summary: list[str]
    details: dict[str, Any]
    table: Table | None
    notes: list[str]
    latex_value: str | None
    #: fields where a non-finite number means "undefined" (printed as null): path -> reason
    undefined: dict[str, str]

    def __init__(self, command: str, inputs: dict[str, Any], value: Any,
                 numeric: str | None = None, conventions: dict[str, str] | None = None,
                 summary: list[str] | None = None, details: dict[str, Any] | None = None,
                 table: Table | None = None, notes: list[str] | None = None,
                 latex_value: str | None = None,
                 undefined: dict[str, str] | None = None) -> None:
        self.command, self.inputs, self.value, self.numeric = command, inputs, value, numeric
        self.conventions = {} if conventions is None else conventions
        self.summary = [] if summary is None else summary
        self.details = {} if details is None else details
        self.table = table
        self.notes = [] if notes is None else notes
        self.latex_value = latex_value
        self.undefined = {} if undefined is None else undefined

    def as_json(self) -> dict[str, Any]:
        from fltheory import __version__

        return {
            "command": self.command,
            "fltheory_version": __version__,
            "inputs": self.inputs,
            "value": self.value,
            "numeric": self.numeric,
            "conventions": self.conventions,
            "details": self.details,
            "table": None if self.table is None else self.table.as_json(),
            "notes": self.notes,
        }


class NonFiniteResult(ArithmeticError):
    """A NaN or infinity reached a renderer in a field not declared undefined: a bug."""

    def __init__(self, command: str, where: str, value: object):
        self.command, self.where, self.value = command, where, value
        super().__init__(f"{command}: non-finite number {value!r} at {where}; nothing printed")


# Python and mpmath spell non-finite numbers nan, inf, +inf, -inf (numpy the same); prose says
# "NaN", so the match is on the lowercase spelling as a whole token.
# The patterns are compiled (by re's own cache) only for a string that holds "nan" or "inf",
# without which neither can match: most results have none, and a light query's start-up is
# spared the compilation.
_NON_FINITE = r"(?<![\w.])[+-]?(?:nan|inf|infinity)(?![\w])"
_NAN = r"(?<![\w.])[+-]?nan(?![\w])"


def _has_non_finite(text: str) -> bool:
    return ("nan" in text or "inf" in text) and re.search(_NON_FINITE, text) is not None


def _has_nan(text: str) -> bool:
    return "nan" in text and re.search(_NAN, text) is not None
# keys whose strings are prose (an error message may quote "nan"), not numbers
_PROSE = frozenset({"error", "errors", "reason", "reasons", "evidence", "statement", "why",
                    "note", "notes", "description", "function", "expr", "caption"})


def _is_non_finite(x: object) -> bool:
    if isinstance(x, bool | int | str) or x is None:
        return False
    if isinstance(x, float):
        return not math.isfinite(x)
    try:  # numpy / mpmath / Decimal scalars
        return not math.isfinite(float(x))  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return False


def _where(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _matches(pattern: str, path: tuple[str | int, ...]) -> bool:
    parts = pattern.split(".")
    return len(parts) == len(path) and all(
        p == "*" or p == str(q) for p, q in zip(parts, path, strict=True))


def _clean(obj: Any, path: tuple[str | int, ...], result: Result, used: dict[str, str],
           scan_strings: bool) -> Any:
    if isinstance(obj, dict):
        return {k: _clean(v, (*path, str(k)), result, used,
                          scan_strings and str(k) not in _PROSE) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_clean(v, (*path, i), result, used, scan_strings) for i, v in enumerate(obj)]
    if _is_non_finite(obj) or (scan_strings and isinstance(obj, str)
                               and _has_non_finite(obj)):
        for pattern, reason in result.undefined.items():
            if _matches(pattern, path):
                used[pattern] = reason
                return None
        raise NonFiniteResult(result.command, _where(path), obj)
    return obj


def finite(result: Result) -> Result:
    """The result as it may be printed: declared-undefined non-finite fields set to ``None``
    (with their reasons in the notes); any other non-finite number raises
    :class:`NonFiniteResult` naming the field. The one place where the rule lives.

    >>> r = Result("x", {}, value={"se": float("nan")}, undefined={"value.se": "one seed"})
    >>> finite(r).value, finite(r).notes
    ({'se': None}, ['null = undefined at value.se: one seed'])
    >>> finite(Result("x", {}, value=[1.0, float("inf")]))
    Traceback (most recent call last):
    ...
    fltheory.results.NonFiniteResult: x: non-finite number inf at value[1]; nothing printed
    """
    used: dict[str, str] = {}
    value = _clean(result.value, ("value",), result, used, True)
    numeric = _clean(result.numeric, ("numeric",), result, used, True)
    details = _clean(result.details, ("details",), result, used, True)
    inputs = _clean(result.inputs, ("inputs",), result, used, False)
    for i, line in enumerate(result.summary):  # prose, where "L = inf" is an answer
        if _has_nan(line):
            raise NonFiniteResult(result.command, f"summary[{i}]", line)
    table = result.table
    if table is not None:
        table = table.replace(rows=_cells(table.rows, "rows", result, used),
                        latex_rows=None if table.latex_rows is None else
                        _cells(table.latex_rows, "latex_rows", result, used))
    notes = list(result.notes) + [f"null = undefined at {pattern}: {reason}"
                                  for pattern, reason in used.items()]
    return result.replace(value=value, numeric=numeric, details=details, inputs=inputs,
                   table=table, notes=notes)


def _cells(rows: list[list[str]], name: str, result: Result,
           used: dict[str, str]) -> list[list[str]]:
    cleaned = _clean(rows, ("table", name), result, used, True)
    return [["undefined" if c is None else c for c in row] for row in cleaned]
