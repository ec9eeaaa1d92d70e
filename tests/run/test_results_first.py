"""80-column tables with a legend and a column footer; several models side by side; progress only on a terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

from _run_fixtures import write_tiny_suite

from s2lct.run.report import COLUMN_HELP, CaseOutcome, build_report, tables_text

LONG = "A capability whose name is far too long to fit in an eighty-column terminal table row"


def _outcome(cid: str, cap: str, passed: bool, seed_case: str | None = None) -> CaseOutcome:
    probs = {"negative": 0.1, "neutral": 0.2, "positive": 0.7}
    return CaseOutcome(cid, cap, f"text {cid}", ("negative",), "negative" if passed else "positive", probs, passed,
                       seed_case=seed_case, seed_passed=True if seed_case else None)


def _report(model: str, fail_lc10: bool = True):
    outs = [_outcome("LC10-a", "LC10", not fail_lc10), _outcome("LC10-b", "LC10", False, seed_case="LC10-a"),
            _outcome("LC2-a", "LC2", True)]
    return build_report(model, model, outs, {"LC10": LONG, "LC2": "Short"})


def test_run_table_fits_80_columns_and_explains_every_column():
    text = tables_text([_report("vader")], width=80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, text
    assert any(line.strip().startswith("LC10") and line.endswith("…") for line in lines), text  # names in a legend, cut
    footer = " ".join(text.split())
    for col in ("Cases", "Fails", "Rate", "Exp.", "Exp.fail|seed ok"):
        assert f"{col}: {' '.join(COLUMN_HELP[col].split())}" in footer, col


def test_several_models_side_by_side_in_one_table():
    text = tables_text([_report("vader"), _report("textblob", fail_lc10=False)], width=80)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    side = text[text.index("s2lct: vader vs textblob"):]
    row = next(line for line in side.splitlines() if line.startswith("│ LC10"))
    assert "100.0% (2)" in row and "50.0% (1)" in row  # one column per model, same row


def _run_cli(args: list[str], tty: bool, cwd: Path, stdout_too: bool = False) -> str:
    """stderr of the command (on a pseudo-terminal when ``tty``); with ``stdout_too`` both streams
    share the terminal, as in a user's shell."""
    cmd = [sys.executable, "-m", "s2lct.cli", *args]
    env = {**os.environ, "COLUMNS": "100"}
    if not tty:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, env=env, timeout=300).stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=slave if stdout_too else subprocess.DEVNULL, stderr=slave, cwd=cwd, env=env)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace")


def test_run_progress_on_a_terminal_not_when_piped_unless_asked(tmp_path):
    write_tiny_suite(tmp_path / "generated")
    args = ["run", "--model", "vader", "--no-cache"]
    on_tty = _run_cli(args, tty=True, cwd=tmp_path)
    assert "vader LC1" in on_tty and "3/3" in on_tty and "100%" in on_tty, on_tty  # a bar per model and capability
    piped = _run_cli(args, tty=False, cwd=tmp_path)
    assert "vader LC1" not in piped and "3/3" not in piped, piped
    forced = _run_cli([*args, "--progress"], tty=False, cwd=tmp_path)
    assert "vader LC1" in forced
    quiet = _run_cli([*args, "--quiet"], tty=True, cwd=tmp_path)
    assert "vader LC1" not in quiet


def test_progress_is_erased_before_the_table_and_never_redrawn_over_it(tmp_path):
    """Bars and table share the terminal: once the table starts, no cursor-up or erase-line
    sequence may follow (that redraw is what wiped the legend and footer)."""
    write_tiny_suite(tmp_path / "generated")
    screen = _run_cli(["run", "--model", "vader", "--no-cache"], tty=True, cwd=tmp_path, stdout_too=True)
    table = screen.index("s2lct: vader")
    assert "vader LC1" in screen[:table], screen  # the bars were drawn, before the table
    after = screen[table:]
    for control in ("\x1b[2K", "\x1b[1A", "\x1b[A"):
        assert control not in after, repr(after)
    text = " ".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", after).split())
    assert "LC4" in text and "Exp.fail|seed ok: expansions that fail" in text, text  # legend and footer survive
