"""What WordNet (and lemminflect) say about a word, for the function-word rules
(``function_words``): whether an adverb can be graded, whether a word is a comparative by its form,
whether two words share a sense, whether an adjective only restates its noun. Cached per word: the
rules ask about the same few hundred fills again and again."""

from __future__ import annotations

import functools

#: adverbs that grade without an adjective behind them ("so often", "so far", "too long")
GRADABLE_ADVERBS = frozenset({"often", "far", "long", "well", "much", "little", "soon", "late", "early", "badly", "seldom", "rarely"})


@functools.cache
def gradable_adverb(word: str) -> bool:
    """An adverb a degree word can grade: one formed from an adjective ("-ly", or a WordNet
    pertainym), one that is also an adjective ("fast", "hard"), or one of ``GRADABLE_ADVERBS``;
    not a place or time adverb ("the story goes [so] nowhere", a blind read)."""
    from nltk.corpus import wordnet as wn

    if word in GRADABLE_ADVERBS or not word.isalpha() or word.endswith("ly") or has_adjective_sense(word):
        return True
    return any(lm.pertainyms() for s in wn.synsets(word, pos=wn.ADV) for lm in s.lemmas() if lm.name().lower() == word)


@functools.cache
def comparative_form(word: str) -> bool:
    """A comparative or superlative by its form, which the parser may tag JJ ("This one's [so]
    weaker than most"): lemminflect inflects its adjective lemma (one WordNet knows) to it."""
    from lemminflect import getInflection, getLemma
    from nltk.corpus import wordnet as wn

    if not word.endswith(("er", "est")):
        return False
    lemma = next(iter(getLemma(word, upos="ADJ")), word)
    return lemma != word and bool(wn.synsets(lemma, pos=wn.ADJ)) and word in getInflection(lemma, "JJR") + getInflection(lemma, "JJS")


@functools.cache
def same_sense(a: str, b: str) -> bool:
    """Two different words that name one WordNet synset ("merely"/"just", "movie"/"film")."""
    from nltk.corpus import wordnet as wn

    return a != b and bool(set(wn.synsets(a)) & set(wn.synsets(b)))


@functools.cache
def has_adjective_sense(word: str) -> bool:
    from nltk.corpus import wordnet as wn

    return bool(wn.synsets(word, pos=wn.ADJ))


@functools.cache
def mostly_noun(word: str) -> bool:
    """Whether SemCor, through WordNet's sense counts, meets the word as a noun more often than as
    an adjective: a tagger's JJ on "fun" in "pokes fun at" is then more likely a noun's. NLTK's
    ``ADJ`` already holds the satellite synsets, so asking for ``ADJ_SAT`` too counts those twice:
    a lean toward the adjective reading that keeps "becomes [so] hollow" and "[very] melancholy"
    (39 SST words would turn noun without it), so the rule refuses only clear nouns like "fun"."""
    from nltk.corpus import wordnet as wn

    def count(*pos: str) -> int:
        return sum(lemma.count() for p in pos for s in wn.synsets(word, pos=p) for lemma in s.lemmas() if lemma.name().lower() == word)

    return count(wn.NOUN) > count(wn.ADJ, wn.ADJ_SAT)


@functools.cache
def adjective_nouns(adjective: str) -> frozenset[str]:
    """The noun lemmas WordNet relates to an adjective: its pertainyms and derivationally related
    nouns, with their synsets' other names ("cinematic" → film, cinema, celluloid)."""
    from nltk.corpus import wordnet as wn

    out: set[str] = set()
    for synset in wn.synsets(adjective, pos=wn.ADJ):
        for lemma in synset.lemmas():
            if lemma.name().lower() != adjective:
                continue
            for related in lemma.pertainyms() + lemma.derivationally_related_forms():
                if related.synset().pos() == "n":
                    out.update(n.name().lower() for n in related.synset().lemmas())
    return frozenset(out)


@functools.cache
def noun_names(noun: str) -> frozenset[str]:
    """Every name of every sense of a noun ("movie" → film, picture, flick, ...)."""
    from nltk.corpus import wordnet as wn

    base = wn.morphy(noun, wn.NOUN) or noun
    return frozenset(lemma.name().lower() for synset in wn.synsets(base, pos=wn.NOUN) for lemma in synset.lemmas())


def pleonastic(adjective: str, noun: str) -> bool:
    """Whether the adjective only restates its noun ("cinematic film", "comic comedy"), also a
    compound one ("cinematic motion picture") or one whose name is made of it ("cinematic
    moviemaking": WordNet's "film_making")."""
    names = noun_names(noun)
    related = adjective_nouns(adjective)
    if related & (names | {part for name in names for part in name.split("_")}):
        return True
    # a closed compound WordNet lacks as one word ("filmmaking", read 46: "a [cinematic] filmmaking methodology")
    return not names and any(noun.startswith(r) and len(noun) > len(r) + 3 for r in related if "_" not in r)
