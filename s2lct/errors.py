"""User-facing errors.

Every error a user can cause (bad spec, missing file, unknown model) is an ``S2LCTError`` whose
message is a single line naming the file/line/value and what would be valid. The CLI prints it
without a traceback and exits 2 (exit 1 is kept for "the model failed some tests").
"""

from __future__ import annotations

from pathlib import Path


class S2LCTError(Exception):
    """An error caused by input or configuration; its message is one line for the user."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split("\n")))

    def lines(self) -> list[str]:
        """What the CLI prints, one line per problem."""
        return [str(self)]


class SpecError(S2LCTError):
    """A capability spec is invalid. Formatted as ``FILE:LINE: message``."""

    exit_code = 2

    def __init__(self, path: str | Path, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.detail = message
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")


class SpecErrors(SpecError):
    """Every problem found in one spec file (or across files); ``str`` is the first, ``lines()`` all."""

    def __init__(self, errors: list[SpecError]) -> None:
        first = errors[0]
        super().__init__(first.path, first.line, first.detail)
        self.errors = list(errors)

    def lines(self) -> list[str]:
        return [str(e) for e in self.errors]


class MissingResourceError(S2LCTError):
    """A data file or model is missing; the message says how to obtain it."""

    exit_code = 2

    def __init__(self, what: str | Path, how: str) -> None:
        super().__init__(f"missing {what}: {how}")


class SuiteFormatError(S2LCTError):
    """A suite file is corrupt or does not follow docs/suite-format.md."""

    exit_code = 2
