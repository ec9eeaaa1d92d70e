"""The spec language (``language``: the whole spec, over ``terms``, ``seed_rules``, ``templates``,
``expansion_section``, ``perturbation_section`` and ``sampling``) and reading spec files safely
(``loader``).

Everything a user or another stage needs is re-exported here: ``from s2lct.spec import load_specs``.
"""

from s2lct.spec.expansion_section import Expansion
from s2lct.spec.language import CapabilitySpec, json_schema
from s2lct.spec.sampling import Sampling
from s2lct.spec.seed_rules import Length, SearchRule, SeedPool
from s2lct.spec.templates import Insert, SeedLabel, SeedSlot, Template
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
