"""Every command-line usage error: click's usage line, one error line, exit 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
import typing

import pytest
import typer

from s2lct.cli import app, main

COMMAND = typer.main.get_command(app)
NAMES = sorted(COMMAND.commands)


def _run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    out, err = capsys.readouterr()
    return int(exit_info.value.code), out + err


def _assert_usage_error(code: int, output: str, needle: str) -> None:
    assert code == 2, output
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, output
    assert needle in errors[0], output
    assert output.splitlines()[0].startswith("Usage:"), output
    assert len(output.splitlines()) == 2, output


def _required(name: str) -> list[str]:
    """The smallest valid-looking arguments so that only the error under test remains."""
    args: list[str] = []
    for p in COMMAND.commands[name].params:
        if p.required:
            args += ([p.opts[0]] if p.param_type_name == "option" else []) + ["x"]
    return args


@pytest.mark.parametrize("name", NAMES)
def test_unknown_option(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, output = _run(capsys, [name, *_required(name), "--no-such-option"])
    _assert_usage_error(code, output, "--no-such-option")


@pytest.mark.parametrize("name", NAMES)
def test_missing_argument_or_option_value(capsys: pytest.CaptureFixture[str], name: str) -> None:
    params = COMMAND.commands[name].params
    required = [p for p in params if p.required]
    if required:  # leave the first required parameter out
        code, output = _run(capsys, [name])
        _assert_usage_error(code, output, "Missing")
    else:  # give an option that takes a value without one
        opt = next(p for p in params if p.param_type_name == "option" and not p.is_flag)
        code, output = _run(capsys, [name, opt.opts[0]])
        _assert_usage_error(code, output, "requires an argument")


def _int_option(name: str) -> str | None:
    """An option typed ``int`` (read from the command function's annotations, whatever typer's internals)."""
    callback = next(c.callback for c in app.registered_commands if (c.name or c.callback.__name__) == name)
    hints = typing.get_type_hints(callback)
    for p in COMMAND.commands[name].params:
        if p.param_type_name == "option" and hints.get(p.name) in (int, typing.Optional[int]):
            return p.opts[0]
    return None


@pytest.mark.parametrize("name", [n for n in NAMES if _int_option(n)])
def test_wrong_type(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, output = _run(capsys, [name, *_required(name), _int_option(name), "abc"])
    _assert_usage_error(code, output, "Invalid value")


def test_every_command_with_a_number_option_is_swept() -> None:
    assert {"generate", "run", "diversity"} <= {n for n in NAMES if _int_option(n)}


def test_unknown_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, output = _run(capsys, ["bogus"])
    _assert_usage_error(code, output, "No such command 'bogus'")


def test_misspelt_option_names_the_right_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, output = _run(capsys, ["run", "--modle", "vader"])
    _assert_usage_error(code, output, "--model")


def test_entry_point_in_a_fresh_process() -> None:
    proc = subprocess.run([sys.executable, "-m", "s2lct.cli", "run", "--modle", "vader"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("Error:") == 1
