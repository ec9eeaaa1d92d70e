"""Explanations of model decisions: word relevances per failing case, and where the blame falls.

Stage package (imports ``models``, ``suite``, ``runner``/``report`` and bottom modules; nothing
imports it back). Modules: :mod:`.base` (interface, registry), :mod:`.words` (word spans, subword
aggregation), :mod:`.adapters` (torch and black-box model access), one module per method family
(:mod:`.gradient`, :mod:`.deeplift`, :mod:`.perturbation`, :mod:`.lime`, :mod:`.limsse`),
:mod:`.registry`, :mod:`.localise` (fragments, localisation), :mod:`.command` (``s2lct explain``)
and :mod:`.html`.

``s2lct.explain(...)`` is the Python API (:func:`s2lct.explain.command.explain`): this package
module is callable, because ``s2lct.explain`` names both the API function and this package once
any of its modules has been imported.
"""

from __future__ import annotations

import sys
import types
from typing import Any


def __getattr__(name: str) -> Any:
    if name == "explain":
        from .command import explain

        return explain
    raise AttributeError(f"module 's2lct.explain' has no attribute {name!r}")


class _CallablePackage(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .command import explain

        return explain(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
