"""Counts of a suite (seeds, template cases, expansions per capability) and the docs block that shows them.

Counts in prose go stale the moment the suite is regenerated, so the docs hold them only inside a
marked block that ``s2lct docs-counts`` rewrites from the suite files and a test compares.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from s2lct.errors import S2LCTError
from s2lct.suite import load_manifest, natural_key, read_cases, suite_files

BEGIN = "<!-- suite-counts:begin -->"
END = "<!-- suite-counts:end -->"
FIX_COMMAND = "s2lct docs-counts"


@dataclass(frozen=True)
class CapabilityCount:
    capability: str
    name: str
    seeds: int  # distinct seed sentences behind the template cases
    template_cases: int
    expansions: int

    @property
    def total(self) -> int:
        return self.template_cases + self.expansions


def suite_counts(suite_dir: str | Path) -> list[CapabilityCount]:
    """Count the cases in the suite files themselves (names from the manifest), in natural order."""
    names = {cap: info.get("name", cap) for cap, info in load_manifest(suite_dir).get("capabilities", {}).items()}
    out = []
    for cap, path in sorted(suite_files(suite_dir).items(), key=lambda kv: natural_key(kv[0])):
        seeds: set[tuple[str, str, int]] = set()
        template = expansions = 0
        for case in read_cases(path):
            if case.expansion is None:
                template += 1
                seeds.update((s.source, s.split, s.index) for s in case.seeds)
            else:
                expansions += 1
        out.append(CapabilityCount(cap, names.get(cap, cap), len(seeds), template, expansions))
    return out


def counts_table(counts: list[CapabilityCount]) -> str:
    """The markdown table of the block (with a total row)."""
    lines = ["| id | name | seeds | template cases | expansions | total |", "|---|---|--:|--:|--:|--:|"]
    for c in counts:
        lines.append(f"| {c.capability} | {c.name} | {c.seeds} | {c.template_cases} | {c.expansions} | {c.total} |")
    t, e = sum(c.template_cases for c in counts), sum(c.expansions for c in counts)
    lines.append(f"| all | | | {t} | {e} | {t + e} |")  # seeds are shared across capabilities: no sum
    return "\n".join(lines)


def counts_block(suite_dir: str | Path) -> str:
    """What goes between the markers: a note naming the regenerating command, then the table."""
    note = f"<!-- generated from the suite by `{FIX_COMMAND}`; do not edit by hand -->"
    return f"{note}\n{counts_table(suite_counts(suite_dir))}"


def replace_block(doc: str, block: str, where: str = "the document") -> str:
    """``doc`` with the text between the markers replaced by ``block``."""
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < start:
        raise S2LCTError(f"{where}: no '{BEGIN}' ... '{END}' block to rewrite; add the two marker lines where the counts belong")
    return f"{doc[: start + len(BEGIN)]}\n{block}\n{doc[end:]}"


def rewrite_doc(doc_path: str | Path, suite_dir: str | Path) -> bool:
    """Rewrite the counts block of ``doc_path`` from ``suite_dir``; return whether the file changed."""
    from s2lct.atomic import write_text

    path = Path(doc_path)
    if not path.is_file():
        raise S2LCTError(f"--doc: {path} is not a file; give the markdown file holding the '{BEGIN}' block")
    old = path.read_text(encoding="utf-8")
    new = replace_block(old, counts_block(suite_dir), str(path))
    if new != old:
        write_text(path, new)
    return new != old
