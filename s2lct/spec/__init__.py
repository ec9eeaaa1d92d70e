"""The spec language (``language``) and reading spec files safely (``loader``).

Everything a user or another stage needs is re-exported here: ``from s2lct.spec import load_specs``.
"""

from s2lct.spec.language import (
    CapabilitySpec,
    Expansion,
    Insert,
    Length,
    Sampling,
    SearchRule,
    SeedLabel,
    SeedPool,
    SeedSlot,
    Template,
    json_schema,
)
from s2lct.spec.loader import check_specs, load_spec, load_specs, spec_files, spec_hash

__all__ = [
    "CapabilitySpec",
    "Expansion",
    "Insert",
    "Length",
    "Sampling",
    "SearchRule",
    "SeedLabel",
    "SeedPool",
    "SeedSlot",
    "Template",
    "check_specs",
    "json_schema",
    "load_spec",
    "load_specs",
    "spec_files",
    "spec_hash",
]
