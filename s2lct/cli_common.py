"""What every ``s2lct`` command shares: usage-error handling, ``--quiet``/``--progress``, settings.

Typer ≥ 0.29 bundles its own copy of click, so ``except click.ClickException`` misses its usage
errors; the click exception classes are therefore found from typer's own ``BadParameter`` (whatever
click it uses) plus the installed ``click``, and handled by ``run_app``. New commands (explain,
trust, retrain, ...) get the same behaviour by taking the ``Quiet``/``ShowProgress`` options and
calling ``progress_for`` and ``settings_for``; see docs/running.md, "Command-line conventions".
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from s2lct.errors import S2LCTError
from s2lct.progress import progress_enabled, progress_for  # noqa: F401  (re-exported: the commands' conventions)

Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars (also off when stderr is not a terminal).")]
ShowProgress = Annotated[bool, typer.Option("--progress", help="Progress bars even when stderr is not a terminal.")]
EngineName = Annotated[str, typer.Option("--engine", help="Where batch stages run: local (this process) or ray (a Ray cluster; pip install 's2lct[ray]'). The output does not depend on it.")]
RayAddress = Annotated[Optional[str], typer.Option("--address", help="With --engine ray: auto or ray://HOST:PORT of a running cluster (default: start a local one).")]
NumWorkers = Annotated[Optional[int], typer.Option("--num-workers", min=1, help="With --engine ray: actors per stage (default: one per CPU of the cluster).")]
ThreadsPerWorker = Annotated[Optional[int], typer.Option("--threads-per-worker", min=1, help="With --engine ray: torch threads per actor (default: this process's, which keeps the output byte-identical to --engine local; 1 per core is faster).")]
GpusPerWorker = Annotated[Optional[float], typer.Option("--gpus-per-worker", min=0, help="With --engine ray: GPUs each actor reserves (e.g. 1, or 0.5 to share one); the model under test and the parser use CUDA where Ray gives them one.")]
ConfigFile = Annotated[Optional[Path], typer.Option("--config", help="Configuration file (default: s2lct.toml or \\[tool.s2lct] in pyproject.toml, found upward; env S2LCT_CONFIG).")]


def _click_exception_classes() -> tuple[type[BaseException], ...]:
    """``ClickException`` of typer's bundled click (if any) and of the installed click."""
    found: list[type[BaseException]] = []
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            found.append(cls)
    try:
        import click

        found.append(click.ClickException)
    except ImportError:  # pragma: no cover - typer without click
        pass
    return tuple(dict.fromkeys(found))


def _exit_classes() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = [typer.Exit]
    try:
        import click

        found.append(click.exceptions.Exit)
    except ImportError:  # pragma: no cover
        pass
    return tuple(dict.fromkeys(found))


def _abort_classes() -> tuple[type[BaseException], ...]:
    found: list[type[BaseException]] = [typer.Abort]
    try:
        import click

        found.append(click.exceptions.Abort)
    except ImportError:  # pragma: no cover
        pass
    return tuple(dict.fromkeys(found))


def _context_for(app: typer.Typer, args: list[str]) -> Any:
    """A click context for the (sub)command named in ``args``, for errors raised without one."""
    import os

    group = typer.main.get_command(app)
    prog = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "s2lct"
    if prog in ("__main__.py", "cli.py"):
        prog = "s2lct"
    ctx = group.context_class(group, info_name=prog)
    sub = next((a for a in args if not a.startswith("-")), None)
    commands = getattr(group, "commands", {})
    if sub in commands:
        ctx = commands[sub].context_class(commands[sub], info_name=sub, parent=ctx)
    return ctx


def show_usage_error(exc: Any, app: typer.Typer | None = None, args: list[str] | None = None) -> int:
    """Print click's usage line and one ``Error: ...`` line (no box, no traceback); return the exit code."""
    ctx = getattr(exc, "ctx", None)
    if ctx is None and app is not None:
        ctx = _context_for(app, sys.argv[1:] if args is None else args)
    if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:  # bare ``s2lct``: show the help
        typer.echo(ctx.get_help())
        return 0
    if ctx is not None:
        typer.echo(ctx.get_usage().splitlines()[0] + f"   (try '{ctx.command_path} --help')", err=True)
    message = " ".join(exc.format_message().split())
    typer.echo(f"Error: {message}", err=True)
    return 2


def run_app(app: typer.Typer, args: list[str] | None = None) -> int:
    """Run a typer app the way every s2lct entry point does; return the process exit code.

    Usage errors → usage line + one error line, exit 2. ``S2LCTError`` → ``error: <message>`` with
    its exit code (2 for user errors). Ctrl-C → one line, 130. Anything else is a bug and keeps its
    traceback.
    """
    try:
        code = app(args=args, standalone_mode=False)
    except S2LCTError as exc:
        for line in exc.lines():
            typer.echo(f"error: {line}", err=True)
        return exc.exit_code
    except _exit_classes() as exc:
        return int(getattr(exc, "exit_code", 0))
    except _abort_classes():
        typer.echo("aborted", err=True)
        return 130
    except KeyboardInterrupt:
        typer.echo("interrupted; finished work is kept, run the same command again to resume", err=True)
        return 130
    except _click_exception_classes() as exc:
        return show_usage_error(exc, app, args)
    return code if isinstance(code, int) else 0


def settings_for(config: Path | None = None, **flags: object):
    """Settings with flags > environment > configuration file > defaults.

    Given flags are also exported as ``S2LCT_*`` for this process, so library code that calls
    ``get_settings()`` itself (parsers, caches, model loading) sees the same values.
    """
    import os

    from s2lct.config import get_settings

    settings = get_settings(config_file=config, **flags)
    for key, value in flags.items():
        if value is not None:
            os.environ[f"S2LCT_{key.upper()}"] = str(value)
    return settings
