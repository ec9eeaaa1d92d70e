"""Frequency adverbs against a frequency the sentence states already.

"a church in Dallas that [sometimes] assembles an elaborate haunted house each year" (read 45, both
reads): the seed says how often ("each year"), and an inserted "sometimes" says it again, otherwise.
A closed list of frequency adverbs and of the time nouns "each"/"every" quantify; no library
lists either.
"""

from __future__ import annotations

from collections.abc import Sequence

FREQUENCY_ADVERBS = frozenset({"sometimes", "often", "occasionally", "usually", "always", "frequently", "rarely", "seldom",
                               "regularly", "periodically", "constantly", "routinely", "typically", "normally", "generally"})
TIME_NOUNS = frozenset({"year", "day", "week", "month", "night", "time", "season", "summer", "winter", "spring", "fall",
                        "autumn", "weekend", "morning", "evening", "hour", "minute", "decade", "christmas", "holiday"})
STATED = frozenset({"annually", "daily", "weekly", "monthly", "nightly", "yearly", "hourly"})


def frequency_stated(toks: Sequence[str]) -> bool:
    """Whether the (lower-cased) tokens state a frequency: "each year", "every night", "annually"."""
    return any(t in STATED for t in toks) or any(
        a in ("each", "every") and b in TIME_NOUNS for a, b in zip(toks, toks[1:]))
