"""Did-you-mean for names the user types (models, explainers, capabilities): one wording everywhere."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(value: str, valid: Iterable[str]) -> str | None:
    """The valid name a typo most likely meant (difflib's ratio, case-insensitive), or None."""
    by_lower = {v.lower(): v for v in valid}
    match = difflib.get_close_matches(value.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[match[0]] if match else None


def unknown_names(kind: str, values: Iterable[str], valid: Iterable[str], *, valid_label: str = "valid") -> str:
    """One line: ``unknown model 'vadr' (did you mean 'vader'?); known: vader, textblob, ...``."""
    valid = list(valid)
    named = []
    for value in values:
        guess = closest(value, valid)
        named.append(f"{value!r} (did you mean {guess!r}?)" if guess else repr(value))
    noun = kind if len(named) == 1 else f"{kind}s" if not kind.endswith("y") else f"{kind[:-1]}ies"
    return f"unknown {noun} {', '.join(named)}; {valid_label}: {', '.join(valid) or 'none'}"


def unknown_name(kind: str, value: str, valid: Iterable[str], *, valid_label: str = "valid") -> str:
    return unknown_names(kind, [value], valid, valid_label=valid_label)
