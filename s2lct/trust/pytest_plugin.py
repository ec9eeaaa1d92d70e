"""pytest plugin of the trust stage: the failure messages and reports of ``--s2lct-explain`` carry the
explainer's trust score on the model under test when ``s2lct trust`` has made a card for it.

Wraps the ``pytest_s2lct_explain_failure`` hook (:mod:`s2lct.run.hookspecs`) that the explain stage
implements; registered through the ``pytest11`` entry point ``s2lct_trust``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

_CARDS = pytest.StashKey[dict[str, Any]]()


def card_for(config: pytest.Config, model: Any) -> dict[str, Any] | None:
    from ..config import get_settings
    from .card import load_cached_card

    cards = config.stash.setdefault(_CARDS, {})
    identity = model.identity
    if identity not in cards:
        cards[identity] = load_cached_card(get_settings().cache_dir, identity)
    return cards[identity]


def add_trust(result: dict[str, Any] | None, card: dict[str, Any] | None) -> dict[str, Any] | None:
    """The explain hook's result with the trust line appended to its message and explanation."""
    from .ranking import trust_line

    if not result or card is None:
        return result
    line = trust_line(card, result.get("explanation", {}).get("explainer", ""))
    if line:
        result = {**result, "message": f"{result['message']}\n  trust: {line}", "explanation": {**result["explanation"], "trust": line}}
    return result


@pytest.hookimpl(wrapper=True)
def pytest_s2lct_explain_failure(config: pytest.Config, case: Any, model: Any, prediction: Any) -> Generator[None, Any, Any]:
    result = yield
    if not result:
        return result
    return add_trust(result, card_for(config, model))
