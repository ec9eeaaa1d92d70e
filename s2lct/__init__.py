"""s2lct: specification- and syntax-based linguistic capability tests for sentiment models.

The public API, imported lazily (the pytest plugin imports this package in every pytest run):

    from s2lct import load_specs, generate_suite, load_suite, get_settings
    specs = load_specs(["specs"])
    report = generate_suite("specs", "generated", get_settings(), seed=0, expand=False)
    for case in load_suite("generated"): ...
    result = explain("minilm-sst2", "generated", explainers="ig,occlusion1", out="explained")

    from s2lct import retrain
    result = retrain("minilm-sst2", "LC4", out="runs/lc4")   # result["accounting"]: what it fixed and broke
"""

from __future__ import annotations

import importlib
from typing import Any

from s2lct.constants import LABELS, __version__

_API = {
    "get_settings": "config",
    "Settings": "config",
    "load_spec": "spec",
    "load_specs": "spec",
    "CapabilitySpec": "spec",
    "load_sst": "corpus.sst",
    "load_table": "corpus.sst",
    "search_pools": "generate.search",
    "apply_ops": "generate.transforms",
    "build_capability": "generate.cases",
    "load_annotated_corpus": "corpus.annotate",
    "generate_suite": "pipeline",
    "Case": "suite",
    "load_suite": "suite",
    "read_cases": "suite",
    "load_manifest": "suite",
    "explain": "explain",
    "retrain": "retrain.loop",
}

__all__ = ["LABELS", "__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        attr = "generate" if name == "generate_suite" else name
        return getattr(importlib.import_module(f".{_API[name]}", __name__), attr)
    raise AttributeError(f"module 's2lct' has no attribute {name!r}")
