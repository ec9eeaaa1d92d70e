"""Which indefinite article a word takes, for ``function_words``' ``article`` rule ("a [honest] film").

A spelling heuristic with the common exceptions: no library in the dependencies says it, and the
rule needs it only for the word right after an inserted or existing article.
"""

from __future__ import annotations

_AN_EXCEPTIONS = ("hour", "honest", "honou", "honor", "heir")
_A_EXCEPTIONS = ("uni", "use", "usu", "uti", "eu", "one", "once", "ubiq", "ura", "uro")


def wants_an(word: str) -> bool | None:
    """Whether "an" (True) or "a" (False) goes before ``word`` (spelling heuristic); None for
    non-words (numbers, punctuation), which are not judged."""
    w = word.lower()
    if not w[:1].isalpha():
        return None
    if w.startswith(_AN_EXCEPTIONS):
        return True
    if w.startswith(_A_EXCEPTIONS):
        return False
    if 1 < len(word) <= 4 and word.isupper():  # acronyms: "an FBI agent"
        return w[0] in "aefhilmnorsx"
    return w[0] in "aeiou"
