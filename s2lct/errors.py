"""User-facing errors.

Every error a user can cause (bad spec, missing file, unknown model) is an ``S2LCTError`` whose
message is a single line naming the file/line/value and what would be valid. The CLI prints it
without a traceback and exits non-zero.
"""

from __future__ import annotations

from pathlib import Path


class S2LCTError(Exception):
    """An error caused by input or configuration; its message is one line for the user."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split("\n")))


class SpecError(S2LCTError):
    """A capability spec is invalid. Formatted as ``FILE:LINE: message``."""

    exit_code = 2

    def __init__(self, path: str | Path, line: int | None, message: str) -> None:
        self.path = str(path)
        self.line = line
        self.detail = message
        where = f"{path}:{line}" if line is not None else f"{path}"
        super().__init__(f"{where}: {message}")


class MissingResourceError(S2LCTError):
    """A data file or model is missing; the message says how to obtain it."""

    exit_code = 2

    def __init__(self, what: str | Path, how: str) -> None:
        super().__init__(f"missing {what}: {how}")


class SuiteFormatError(S2LCTError):
    """A suite file is corrupt or does not follow docs/suite-format.md."""

    exit_code = 2
