"""The light path of the command (:mod:`fltheory.cli.light`) against the click command it stands
in for (issue 37 item 8): the same bytes on stdout and stderr and the same exit status for every
command line (the light path answers the plain ones, the others fall back), click never imported
when the light path answers, and each light option the twin of the click option of that name
(same destination, default, requiredness, and the same value or the same refusal for every
probe)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fltheory.exact import DomainError

#: child process: run one command line through main() (light path first) or through the click
#: group alone, then record whether click was imported and the exit status in a side file
_CHILD = """
import json, sys
path, how, argv = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
status = 0
try:
    if how == "main":
        from fltheory.cli import main
        main(argv)
    else:
        from fltheory.cli.root import cli
        cli.main(args=argv, prog_name="fltheory")
except SystemExit as exc:
    status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
sys.stdout.flush()
with open(path, "w") as fh:
    json.dump({"click": "click" in sys.modules, "status": status,
               "heavy": sorted(m for m in ("sympy", "numpy", "scipy") if m in sys.modules)}, fh)
"""

#: the plain fisher queries the light path answers (help examples, every format, `--opt=value`,
#: exponent notation, the performance query of the issue)
ANSWERED = [
    ["fisher", "--d", "10"],
    ["fisher", "--d", "7", "--lmax", "6", "--format", "json"],
    ["fisher", "--d", "5", "--format", "latex"],
    ["fisher", "--d=1000000", "--dps=50"],
    ["fisher", "--format", "json", "--dps", "20", "--lmax", "8", "--d", "1e3"],
    ["fisher", "--d", "3", "--lmax", "0"],
    # refused by the theory after parsing: the light path prints the same one line (exit 2)
    ["fisher", "--d", "7", "--lmax", "61"],
    ["fisher", "--d", "1" + "0" * 60, "--lmax", "60"],
]

#: lines the light path leaves to click: bad values, a missing or repeated option, another
#: option, help, a sub-command
FALLEN_BACK = [
    ["fisher", "--d", "1"],
    ["fisher", "--lmax", "3"],
    ["fisher", "--d", "7", "--format", "xml"],
    ["fisher", "--d", "7", "--d", "8"],
    ["fisher", "--d", "7", "--dps", "5000"],
    ["fisher", "--d", "7", "--lmax", "-1"],
    ["fisher", "--d", "7", "--lmax"],
    ["fisher", "--d", "1/2"],
    ["fisher", "--d", "7", "--sigma", "relu", "--jmax", "1"],
    ["fisher", "--help"],
    ["fisher", "--d", "7", "--bogus", "1"],
    ["fisher", "simulate", "--d", "3", "--m", "20"],
]


def _run(argv: list[str], how: str, tmp_path) -> tuple[str, str, dict]:
    side = tmp_path / f"{how}.json"
    p = subprocess.run([sys.executable, "-c", _CHILD, str(side), how, json.dumps(argv)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout, p.stderr, json.loads(side.read_text())


@pytest.mark.parametrize("argv", ANSWERED + FALLEN_BACK, ids=" ".join)
def test_the_light_path_prints_what_the_click_command_prints(argv, tmp_path):
    light_out, light_err, light = _run(argv, "main", tmp_path)
    click_out, click_err, ref = _run(argv, "click", tmp_path)
    assert (light_out, light_err, light["status"]) == (click_out, click_err, ref["status"])
    assert ref["click"]
    if argv in ANSWERED:
        assert not light["click"], "the light path did not answer"
        assert light_out or light["status"] == 2
        if "--d=1000000" in argv:  # the closed forms in mpmath alone (d > 1000: no sympy)
            assert light["heavy"] == []
    else:
        assert light["click"], "the light path answered a line it should leave to click"


def test_the_answered_lines_include_output_and_refusals(tmp_path):
    """The list above is what it says: the light lines print a spectrum, except the two the
    theory refuses (one line on stderr, exit 2)."""
    out, err, meta = _run(["fisher", "--d", "10", "--lmax", "6", "--format", "json"], "main",
                          tmp_path)
    assert meta["status"] == 0 and json.loads(out)["inputs"] == {"d": 10, "lmax": 6, "dps": 30}
    out, err, meta = _run(["fisher", "--d", "7", "--lmax", "61"], "main", tmp_path)
    assert meta["status"] == 2 and out == "" and err.startswith("fltheory: error: lmax")


#: probes for every reader: valid, exponent, fraction, negative, zero, empty, huge, text
PROBES = ["2", "7", "1e3", "1/2", "-1", "0", "", "1" + "0" * 2000, "abc", "inf", "60", "61",
          "5000", "15"]


def _light_twins():
    from fltheory.cli import commands
    from fltheory.papers import builtin_papers, load

    for paper in builtin_papers():
        for name, target in paper.light.items():
            yield name, load(target), load(commands()[name])


def test_every_light_command_is_a_built_in_command():
    twins = list(_light_twins())
    assert [name for name, _, _ in twins] == ["fisher"]


@pytest.mark.parametrize("name,light,command", list(_light_twins()))
def test_light_options_are_their_click_twins(name, light, command):
    """Each light option has a click option of the same flag with the same destination,
    default and requiredness, and reads every probe to the same value or the same refusal;
    ``--format`` is the click command's choice of the same formats."""
    import click

    from fltheory.cli.light import FORMATS

    params = {opt: p for p in command.params for opt in p.opts}
    assert isinstance(params["--format"].type, click.Choice)
    assert tuple(params["--format"].type.choices) == FORMATS
    assert params["--format"].default == "text"
    for flag, option in light.options.items():
        twin = params[flag]
        assert twin.name == option.dest, flag
        assert (twin.default, bool(twin.required)) == (option.default, option.required) or (
            option.required and twin.default is None), flag
        for probe in PROBES:
            try:
                want = ("value", twin.type.convert(probe, twin, None))
            except DomainError as exc:
                want = ("refused", str(exc))
            try:
                got = ("value", option.read(probe, option.dest))
            except DomainError as exc:
                got = ("refused", str(exc))
            assert got == want, (flag, probe)


def test_the_light_path_leaves_completion_and_options_first_to_click():
    from fltheory.cli.light import answer

    # these return instead of answering (answering would exit)
    answer(["fisher", "--d", "7"], environ={"_FLTHEORY_COMPLETE": "bash_complete"})
    answer(["--version"])
    answer([])
    answer(["lambda", "--a1", ".4", "--a2", ".3"])  # no light form: click's
