"""How many times one command reads one parameter (issue 34: "η is read five times by four
readers with three different messages").

Runs ``fltheory ARGS…`` in this process under :func:`sys.setprofile` and records every call of
a function of fltheory (or click's parameter conversion) that is handed the parameter's name as
the argument it reads under (``param``, ``name``, ``param_name``; or click's option object for
``--eta``): each such call, unless it runs inside another such call (``as_rational`` inside
``read_step`` is one read), is one read of the parameter at one door. Prints the count and, per
read, the reader and where it was called from.

    python benchmarks/reads.py eta -- committee simulate --g erf_ss --K 2 --M 2 --eta 3/2 \\
        --N 200 --t-max 5
"""

from __future__ import annotations

import argparse
import io
import sys
from contextlib import redirect_stdout
from types import FrameType
from typing import Any

_NAMES = ("param", "name", "param_name")


def reads(param: str, argv: list[str]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    active: set[int] = set()  # frames of reads in progress

    def inside_a_read(frame: FrameType) -> bool:
        outer = frame.f_back
        while outer is not None:
            if id(outer) in active:
                return True
            outer = outer.f_back
        return False

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "return":
            active.discard(id(frame))
            return
        if event != "call":
            return
        code = frame.f_code
        module = frame.f_globals.get("__name__", "")
        if not (module.startswith("fltheory") or (module.startswith("click") and
                                                   code.co_name == "convert")):
            return
        local = frame.f_locals
        hit = any(local.get(n) == param for n in _NAMES if n in code.co_varnames[
            :code.co_argcount + code.co_kwonlyargcount])
        if code.co_name == "convert" and module.startswith(("click", "fltheory.cli")):
            option = local.get("param")
            hit = getattr(option, "name", None) == param
        if hit and not inside_a_read(frame):
            active.add(id(frame))
            caller = frame.f_back
            where = (f"{caller.f_globals.get('__name__')}:{caller.f_code.co_name}"
                     if caller else "?")
            found.append((f"{module}.{code.co_qualname}", where))

    from fltheory.cli import main

    sys.setprofile(profile)
    try:
        with redirect_stdout(io.StringIO()):
            main(argv)
    except SystemExit:
        pass
    finally:
        sys.setprofile(None)
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("param")
    ap.add_argument("argv", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
    found = reads(args.param, argv)
    readers = sorted({r for r, _ in found})
    print(f"{args.param} read {len(found)} times by {len(readers)} readers")
    for reader, where in found:
        print(f"  {reader}  (from {where})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
