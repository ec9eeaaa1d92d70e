"""Contractions (CheckList's "contractions"): contract ("it is" → "it's", "do not" → "don't"), or,
when there is nothing to contract, expand.

The pairs come from a minimal rule set, not from the ``contractions`` package (PyPI, checked: it
installs): that package only expands (``fix``), its table maps one expansion to several forms
("are not" ← "aren't", "ain't"; "shall not" ← "shan't", "sha'n't", "shalln't") and holds slang,
archaic and possessive-ambiguous entries ("gonna", "'tis", "everyone's" → "everyone is"), and it
builds Aho-Corasick automata (a compiled dependency) at import. Filtering its table down to safe
pairs takes more rules than generating them: an auxiliary plus "not" (``NEGATABLE``, with "will",
"shall" and "cannot" irregular), and a pronoun plus an auxiliary (``PRONOUN_AUX``).

"'s" and "'d" are ambiguous ("it's been" is "it has been", "he'd seen" "he had seen", "I'd better"
"I had better"), so neither direction touches them before a possible past participle (lemminflect,
which generation already uses) or "better"/"best"; "have" is contracted only before a participle
("I've seen", not "I've a dog"); a pronoun and its auxiliary are contracted only when a word
follows ("what it is." stays) and not when "not" does ("it isn't" over "it's not"). With these
rules, expanding what was contracted gives the text back.
"""

from __future__ import annotations

import functools
import random
import re
from typing import TYPE_CHECKING

from .base import Change, Perturbed, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: auxiliaries whose negation contracts regularly (+ "n't"); "will", "shall" and "can" below
NEGATABLE = ("is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "could", "should", "would", "must")
IRREGULAR_NEGATIONS = {"will": "wo", "shall": "sha"}  # "won't", "shan't"
#: auxiliary → (clitic, pronouns it contracts after)
PRONOUN_AUX = {
    "am": ("m", ("i",)),
    "are": ("re", ("you", "we", "they")),
    "is": ("s", ("he", "she", "it", "that", "there", "here", "what", "who", "where", "how")),
    "will": ("ll", ("i", "you", "he", "she", "it", "we", "they", "that")),
    "would": ("d", ("i", "you", "he", "she", "it", "we", "they")),
    "have": ("ve", ("i", "you", "we", "they")),
}
AMBIGUOUS_CLITICS = frozenset({"s", "d"})  # is/has, would/had

_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
_NEG_STEMS = {aux: aux for aux in NEGATABLE} | IRREGULAR_NEGATIONS
_STEM_TO_AUX = {stem: aux for aux, stem in _NEG_STEMS.items()}
_CLITIC_TO_AUX = {clitic: aux for aux, (clitic, _) in PRONOUN_AUX.items()}


@functools.cache
def maybe_participle(word: str) -> bool:
    """Whether ``word`` can be a past participle or past tense (lemminflect), or is "better"/"best"
    (after "'d": "had better"): where "'s" and "'d" could stand for "has" and "had"."""
    from lemminflect import getAllLemmas, getInflection

    w = word.lower()
    if w in ("better", "best"):
        return True
    for lemma in getAllLemmas(w, upos="VERB").get("VERB", ()):
        if w in getInflection(lemma, "VBN") or w in getInflection(lemma, "VBD"):
            return True
    return False


def _casing(word: str) -> str | None:
    if word.islower():
        return "lower"
    if word.isupper():
        return "upper"
    if word[:1].isupper() and word[1:].islower():
        return "title"
    return None


def _cased(word: str, casing: str) -> str:
    return {"lower": word.lower(), "upper": word.upper(), "title": word[:1].upper() + word[1:].lower()}[casing]


def _words(text: str) -> list[re.Match[str]]:
    return list(_WORD.finditer(text))


def _adjacent(text: str, a: re.Match[str], b: re.Match[str]) -> bool:
    return text[a.end() : b.start()] == " "


def _contract_pair(text: str, ws: list[re.Match[str]], i: int) -> Change | None:
    """The contraction of words i and i+1 (and how far it reaches), or None."""
    first, second = ws[i], ws[i + 1]
    a, b = first.group(), second.group()
    follow = ws[i + 2].group() if i + 2 < len(ws) and text[second.end() : ws[i + 2].start()].isspace() else None
    case_b = _casing(b)
    if case_b is None or _casing(a) is None:
        return None
    if b.lower() == "not" and a.lower() in _NEG_STEMS and case_b != "title":
        stem = _cased(_NEG_STEMS[a.lower()], _casing(a) or "lower") if a.lower() in IRREGULAR_NEGATIONS else a
        return Change(first.start(), second.end(), text[first.start() : second.end()], stem + _cased("n't", case_b))
    aux = PRONOUN_AUX.get(b.lower())
    if aux is None or a.lower() not in aux[1] or case_b == "title" or follow is None:
        return None
    clitic = aux[0]
    if follow.lower() == "not" and b.lower() in _NEG_STEMS:
        return None  # "it isn't", made when the scan reaches "is"
    if clitic in AMBIGUOUS_CLITICS and maybe_participle(follow):
        return None
    if clitic == "ve" and not maybe_participle(follow):
        return None
    return Change(first.start(), second.end(), text[first.start() : second.end()], a + "'" + _cased(clitic, case_b))


def contract(text: str) -> list[Change]:
    ws = _words(text)
    changes: list[Change] = []
    i = 0
    while i < len(ws):
        w = ws[i].group()
        if w.lower() == "cannot" and _casing(w):
            changes.append(Change(ws[i].start(), ws[i].end(), w, w[:3] + _cased("'t", _casing(w) or "lower")))
            i += 1
            continue
        if i + 1 < len(ws) and _adjacent(text, ws[i], ws[i + 1]) and (c := _contract_pair(text, ws, i)):
            changes.append(c)
            i += 2
            continue
        i += 1
    return changes


def _expand_word(word: str, follow: str | None) -> str | None:
    parts = re.split(r"['’]", word)
    if len(parts) != 2 or not all(parts):
        return None
    base, clitic = parts
    if clitic.lower() == "t" and base[-1:].lower() == "n":
        stem, n = base[:-1], base[-1]
        case = _casing(n + clitic)
        if not stem or case is None or _casing(stem) is None:
            return None
        if stem.lower() == "ca":
            return stem + _cased("nnot", case)
        aux = _STEM_TO_AUX.get(stem.lower())
        if aux is None:
            return None
        return (_cased(aux, _casing(stem) or "lower") if stem.lower() in IRREGULAR_NEGATIONS.values() else stem) + " " + _cased("not", case)
    aux = _CLITIC_TO_AUX.get(clitic.lower())
    case = _casing(clitic)
    if aux is None or case is None or base.lower() not in PRONOUN_AUX[aux][1]:
        return None
    if clitic.lower() in AMBIGUOUS_CLITICS and follow is not None and maybe_participle(follow):
        return None
    return base + " " + _cased(aux, case)


def expand(text: str) -> list[Change]:
    ws = _words(text)
    changes = []
    for i, m in enumerate(ws):
        follow = ws[i + 1].group() if i + 1 < len(ws) and text[m.end() : ws[i + 1].start()].isspace() else None
        new = _expand_word(m.group(), follow)
        if new is not None:
            changes.append(Change(m.start(), m.end(), m.group(), new))
    return changes


class Contractions:
    name = "contractions"
    kind = "inv"
    direction = None
    needs_doc = False

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        return perturbed(text, contract(text) or expand(text), self.name)


perturbations.register("contractions", func=Contractions)
