"""Counts in the docs follow the suite: the block in docs/specs.md is what `s2lct docs-counts` writes."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from _run_fixtures import write_tiny_suite

from s2lct.errors import S2LCTError
from s2lct.suite_counts import BEGIN, END, FIX_COMMAND, counts_block, replace_block, rewrite_doc


def _block(text: str) -> str:
    return text[text.index(BEGIN) + len(BEGIN) : text.index(END)].strip()


def test_docs_counts_block_matches_the_committed_suite(repo_dir):
    doc = (repo_dir / "docs" / "specs.md").read_text(encoding="utf-8")
    assert _block(doc) == counts_block(repo_dir / "generated"), f"docs/specs.md counts differ from generated/: run `{FIX_COMMAND}`"


def test_no_suite_count_outside_the_block(repo_dir):
    """A number of cases/seeds/expansions written in prose goes stale; only the block may hold them."""
    stale = re.compile(r"\b\d[\d,]* (template cases|expansions|seed cases|seeds)\b")
    for path in [repo_dir / "README.md", *sorted((repo_dir / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        if BEGIN in text:
            text = text[: text.index(BEGIN)] + text[text.index(END) :]
        assert not stale.findall(text), f"{path.name}: suite counts in prose {stale.findall(text)}; use the block of docs/specs.md"


def test_block_counts_seeds_template_cases_and_expansions(tmp_path):
    # the tiny suite: LC1 three cases from one seed sentence; LC4 two template cases and three expansions
    suite = write_tiny_suite(tmp_path / "suite")
    rows = [line for line in counts_block(suite).splitlines() if line.startswith("| LC") or line.startswith("| all")]
    assert rows == [
        "| LC1 | Short sentences with sentiment words | 1 | 3 | 0 | 3 |",
        "| LC4 | Negated positive sentences | 1 | 2 | 3 | 5 |",
        "| all | | | 5 | 3 | 8 |",
    ]


def test_rewrite_keeps_the_text_around_the_block(tmp_path):
    suite = write_tiny_suite(tmp_path / "suite")
    doc = tmp_path / "doc.md"
    doc.write_text(f"before\n{BEGIN}\n| stale | 692 |\n{END}\nafter\n", encoding="utf-8")
    assert rewrite_doc(doc, suite) is True
    text = doc.read_text(encoding="utf-8")
    assert text.startswith(f"before\n{BEGIN}\n") and text.endswith(f"{END}\nafter\n")
    assert "692" not in text and "| LC4 |" in text
    assert rewrite_doc(doc, suite) is False  # already current: untouched


def test_a_doc_without_markers_is_one_clear_error(tmp_path):
    with pytest.raises(S2LCTError, match="suite-counts:begin"):
        replace_block("no markers here", "x", "doc.md")
    suite = write_tiny_suite(tmp_path / "suite")
    doc = tmp_path / "doc.md"
    doc.write_text("no markers\n", encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "docs-counts", "--suite", str(suite), "--doc", str(doc)],
                         capture_output=True, text=True)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().count("\n") == 0 and str(doc) in res.stderr and BEGIN in res.stderr
