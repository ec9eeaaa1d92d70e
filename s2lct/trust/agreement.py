"""Number-agreement prefixes (Poerner §2.2, Ding & Koehn §3.1 and Appendix A.1).

An item is the prefix of a sentence up to a present-tense verb (or is/are/was/were), the PoS of
every prefix token, the position of the verb's grammatical subject, and the verb's number
(Sg: VBZ, is, was; Pl: VBP, are, were). Nouns carry a number too: NN/NNP → Sg, NNS/NNPS → Pl
(Poerner names NN and NNS; proper nouns are nouns with a number all the same).

Sources:

* ``ptb`` — built here from the NLTK Penn Treebank sample. The subject is the head noun of the
  ``NP-SBJ`` of the lowest clause holding the verb (trace subjects, non-noun subjects and subjects
  whose number disagrees with the verb are dropped). Ding & Koehn's filters (A.1): (1) at least one
  attractor (a noun whose number differs from the verb's); (2) the verb does not immediately follow
  its subject; (3) not all attractors lie more than 10 words before the subject.
* ``marvin_linzen`` — Marvin & Linzen (2018) templates, the sections Ding & Koehn use (A.2); the
  verb's number is the first field of the condition, the subject is the first noun (the last noun
  for the "within" and sentential-complement templates); duplicate prefixes dropped.
* ``linzen`` — the Linzen et al. (2016) subset released by Gulordava et al. (2018): target index,
  correct and wrong form; the subject position is not given, so only ``hit_feat`` and
  plausibility apply (``hit_target`` is counted over items whose subject is known).
* ``gulordava`` — Gulordava et al. (2018) English agreement set (``generated.text`` + ``.gold``): the
  original treebank sentences (sent_id 0) and their nonce versions, every content word replaced by a
  random word of the same PoS and morphology ("colorless green" sentences). The gold lines give the
  target index, its number, the correct form and the *controller* index. For the ``L`` pattern
  (NOUN … VERB) the controller is the subject noun: it is the item's subject and counts as a noun of
  the verb's number even when the tagger misreads a nonce word. For the ``R`` pattern (VERB … CCONJ
  VERB, agreement across coordinated verbs) the controller is the first verb and the subject is not
  annotated, so those items count for ``hit_feat`` and plausibility only, as the Linzen subset.
  The target token of a nonce line is itself a nonce verb; the gold form is the one recorded.
* ``blimp`` — BLiMP's subject-verb agreement paradigms whose pairs differ in the verb; prefix up to
  the first differing word, subject = first noun.

Shared sets carry no PoS: they are tagged with NLTK's averaged-perceptron tagger (as Linzen's
corpus was tagged automatically). Written by hand: the tree walk and the filters are this
project's; NLTK reads the trees and tags.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..corpus.sst import unescape_token
from ..errors import MissingResourceError, S2LCTError
from ..explain.words import Words
from .metrics import AgreementView

SOURCES = ("ptb", "marvin_linzen", "linzen", "gulordava", "blimp")
SG, PL = "Sg", "Pl"
NUMBER_TAGS = {"NN": SG, "NNP": SG, "NNS": PL, "NNPS": PL, "VBZ": SG, "VBP": PL}
COPULA = {"is": SG, "was": SG, "are": PL, "were": PL}
AUX_FORMS = {"is": SG, "was": SG, "has": SG, "does": SG, "are": PL, "were": PL, "have": PL, "do": PL,
             "isn't": SG, "wasn't": SG, "doesn't": SG, "hasn't": SG, "aren't": PL, "weren't": PL, "don't": PL, "haven't": PL}
ATTRACTOR_WINDOW = 10
#: Marvin & Linzen templates Ding & Koehn use (Appendix A.2).
ML_TEMPLATES = ("sent_comp", "prep_anim", "prep_inanim", "subj_rel", "obj_rel_across_anim", "obj_rel_across_inanim",
                "obj_rel_no_comp_across_anim", "obj_rel_no_comp_across_inanim", "obj_rel_within_anim",
                "obj_rel_within_inanim", "obj_rel_no_comp_within_anim", "obj_rel_no_comp_within_inanim")
BLIMP_PARADIGMS = ("distractor_agreement_relational_noun", "distractor_agreement_relative_clause",
                   "regular_plural_subject_verb_agreement_1", "irregular_plural_subject_verb_agreement_1")


def noun_number(tag: str) -> str | None:
    return NUMBER_TAGS.get(tag) if tag.startswith("NN") else None


@dataclass(frozen=True, slots=True)
class AgreementItem:
    """A verb-number prediction problem: the prefix tokens, their tags, subject and gold number."""

    id: str
    source: str
    tokens: tuple[str, ...]
    tags: tuple[str, ...]
    subject: int | None  # token index of the subject head; None when unknown
    verb: str
    verb_number: str

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    def token_spans(self) -> list[tuple[int, int]]:
        spans, pos = [], 0
        for t in self.tokens:
            spans.append((pos, pos + len(t)))
            pos += len(t) + 1
        return spans

    def view(self, words: Words) -> AgreementView:
        """The item through ``words`` (the explainers' words of :attr:`text`): a word is what the
        token holding its first character is (a token split into several words counts for each)."""
        spans = self.token_spans()
        number: list[str | None] = []
        subject: set[int] = set()
        t = 0
        for w, (s, _e) in enumerate(words.spans):
            while t < len(spans) - 1 and s >= spans[t + 1][0]:
                t += 1
            number.append(noun_number(self.tags[t]))
            if t == self.subject:
                subject.add(w)
        return AgreementView(tuple(number), frozenset(subject), self.verb_number, self.subject is not None)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source, "text": self.text, "tags": list(self.tags),
                "subject": self.subject, "verb": self.verb, "verb_number": self.verb_number}


# ------------------------------------------------------------------------------------------- PTB
@dataclass(frozen=True, slots=True)
class Candidate:
    """A PTB verb occurrence before filtering; ``reject`` names the first failed check (None: kept)."""

    item: AgreementItem
    reject: str | None


def _category(label: str) -> str:
    return label if label.startswith("-") else label.split("-")[0].split("=")[0]


def _is_subject(label: str) -> bool:
    return not label.startswith("-") and "SBJ" in label.split("-")[1:]


def _head_leaf(tree: Any, pos: tuple[int, ...]) -> tuple[int, ...] | None:
    """Tree position of the head noun leaf of the NP at ``pos`` (None: no noun head, or a trace)."""
    from nltk import Tree

    node = tree[pos]
    while True:
        kids = [k for k in range(len(node)) if isinstance(node[k], Tree)]
        if not kids:
            return None
        first = node[kids[0]]
        if _category(first.label()) == "NP" and len(kids) > 1 and _category(node.label()) == "NP":
            pos, node = pos + (kids[0],), first  # NP → NP PP / NP SBAR / NP , NP: the head is in the first NP
            continue
        nouns = [k for k in kids if _category(node[k].label()).startswith("NN") and not isinstance(node[k][0], Tree)]
        if nouns:
            return pos + (nouns[-1], 0)
        if len(kids) == 1 and _category(first.label()) == "NP":
            pos, node = pos + (kids[0],), first
            continue
        return None


def ptb_candidates(tree: Any, tree_id: str) -> Iterator[Candidate]:
    """Every present-tense verb / copula of one PTB tree (with function tags) as a candidate."""
    from nltk import Tree

    leaf_pos = tree.treepositions("leaves")
    tokens: list[str] = []
    tags: list[str] = []
    index_of: dict[tuple[int, ...], int] = {}
    for lp in leaf_pos:
        tag = tree[lp[:-1]].label()
        if tag == "-NONE-":
            continue
        index_of[lp] = len(tokens)
        tokens.append(unescape_token(tree[lp]))
        tags.append(tag)
    for lp, vi in index_of.items():
        word, tag = tokens[vi], tags[vi]
        number = COPULA.get(word.lower()) if tag in ("VBZ", "VBP", "VBD") else None
        number = number or (NUMBER_TAGS.get(tag) if tag in ("VBZ", "VBP") else None)
        if number is None or vi == 0:
            continue
        subject = _subject_of(tree, lp)
        subj_i = index_of.get(subject) if subject is not None else None
        item = AgreementItem(f"ptb:{tree_id}:{vi}", "ptb", tuple(tokens[:vi]), tuple(tags[:vi]), subj_i, word, number)
        if subj_i is not None and (subj_i >= vi or noun_number(tags[subj_i]) != number):
            item = AgreementItem(item.id, "ptb", item.tokens, item.tags, None, word, number)
        yield Candidate(item, a1_reject(item))
    del Tree


def _subject_of(tree: Any, leaf: tuple[int, ...]) -> tuple[int, ...] | None:
    """Head-noun leaf of the NP-SBJ of the lowest clause whose predicate holds ``leaf``."""
    from nltk import Tree

    pos = leaf[:-1]
    while len(pos) > 0:
        parent = pos[:-1]
        node = tree[parent]
        if _category(node.label()).startswith("S") and _category(node.label()) != "SBAR":
            here = pos[-1]
            for k in range(len(node)):
                kid = node[k]
                if k != here and isinstance(kid, Tree) and _is_subject(kid.label()):
                    if _category(tree[pos].label()) not in ("VP",) and not _category(tree[pos].label()).startswith("VB"):
                        return None
                    return _head_leaf(tree, parent + (k,))
            return None
        pos = parent
    return None


def a1_reject(item: AgreementItem) -> str | None:
    """The first of Ding & Koehn's A.1 filters the item fails (None: it passes them all)."""
    if item.subject is None:
        return "subject_unknown"
    attractors = [i for i, t in enumerate(item.tags) if noun_number(t) not in (None, item.verb_number)]
    if not attractors:
        return "no_attractor"
    if item.subject == len(item.tokens) - 1:
        return "verb_follows_subject"
    if all(i < item.subject - ATTRACTOR_WINDOW for i in attractors):
        return "attractors_far"
    return None


_TREE_START = re.compile(r"\n(?=\()")


def ptb_file_trees(treebank: Any, fileid: str) -> list[Any]:
    """The trees of one treebank file: its text read whole and split where a line opens a bracket
    (how the corpus reader finds blocks), each read by ``Tree.fromstring`` without the empty top
    bracket. The same trees as ``treebank.parsed_sents(fileid)``, 2.5× faster: that reader pulls
    the file through NLTK's seekable stream block by block."""
    from nltk import Tree

    text = treebank.raw(fileid).strip()
    return [Tree.fromstring(b, remove_empty_top_bracketing=True) for b in _TREE_START.split(text) if b.strip()]


def ptb_trees() -> list[tuple[str, Any]]:
    """(id, tree) of the NLTK Penn Treebank sample, function tags kept."""
    from nltk.corpus import treebank

    try:
        fileids = treebank.fileids()
    except LookupError as exc:
        raise MissingResourceError("NLTK treebank corpus", "set NLTK_DATA to a folder with corpora/treebank.zip") from exc
    return [(f"{fid.split('.')[0]}:{k}", t) for fid in fileids for k, t in enumerate(ptb_file_trees(treebank, fid))]


# ----------------------------------------------------------------------------------- shared sets
def _tagger():  # type: ignore[no-untyped-def]
    from nltk.tag import PerceptronTagger

    try:
        return PerceptronTagger()
    except LookupError as exc:
        raise MissingResourceError("NLTK averaged_perceptron_tagger_eng", "set NLTK_DATA to a folder with taggers/averaged_perceptron_tagger_eng") from exc


def _tagged(tagger: Any, tokens: Sequence[str]) -> tuple[str, ...]:
    return tuple(t for _w, t in tagger.tag(list(tokens)))


def compound_head(tags: Sequence[str], first: int) -> int:
    """The last noun of the noun run starting at ``first`` ("television show" → "show")."""
    j = first
    while j + 1 < len(tags) and noun_number(tags[j + 1]):
        j += 1
    return j


def form_number(form: str) -> str:
    low = form.lower()
    return AUX_FORMS.get(low) or (SG if low.endswith("s") and not low.endswith("ss") else PL)


def _sample(rows: list[Any], limit: int | None, key: str) -> list[Any]:
    if limit is None or limit >= len(rows):
        return rows
    keep = set(random.Random(key).sample(range(len(rows)), limit))
    return [r for k, r in enumerate(rows) if k in keep]


def marvin_linzen(path: Path, tagger: Any, limit: int | None = None, seed: int = 0) -> list[AgreementItem]:
    """Distinct prefixes of the A.2 templates (a sample of ``limit``, seeded, tagged after sampling)."""
    raw: dict[tuple[str, ...], tuple[str, str, str]] = {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d["template"] not in ML_TEMPLATES:
                continue
            good, bad = d["grammatical"].split(), d["ungrammatical"].split()
            i = next((k for k, (a, b) in enumerate(zip(good, bad, strict=False)) if a != b), None)
            number = {"sing": SG, "plur": PL}.get(d["condition"].split("_")[0])
            if i and number and tuple(good[:i]) not in raw:
                raw[tuple(good[:i])] = (d["template"], good[i], number)
    out = []
    for k, (prefix, (template, verb, number)) in enumerate(_sample(list(raw.items()), limit, f"ml:{seed}")):
        tags = _tagged(tagger, prefix)
        nouns = [j for j, t in enumerate(tags) if noun_number(t)]
        if nouns:
            last = "within" in template or template == "sent_comp"
            out.append(AgreementItem(f"ml:{template}:{k}", "marvin_linzen", prefix, tags, nouns[-1] if last else compound_head(tags, nouns[0]), verb, number))
    return out


def linzen(folder: Path, tagger: Any, limit: int | None = None, seed: int = 0) -> list[AgreementItem]:
    text = (folder / "subj_agr_filtered.text").read_text(encoding="utf-8").split("\n")
    gold = (folder / "subj_agr_filtered.gold").read_text(encoding="utf-8").split("\n")
    rows = [(k, t, g) for k, (t, g) in enumerate(zip(text, gold, strict=False)) if t.strip() and g.strip()]
    if limit is not None and limit < len(rows):
        rows = _sample(rows, limit, f"linzen:{seed}")
    out = []
    for k, t, g in rows:
        idx, correct, _wrong, _n = g.split("\t")
        toks = t.split()
        i = int(idx)
        if i < 1 or i >= len(toks):
            continue
        prefix = tuple(toks[:i])
        out.append(AgreementItem(f"linzen:{k}", "linzen", prefix, _tagged(tagger, prefix), None, correct, form_number(correct)))
    return out


GULORDAVA_NUMBER = {"Sing": SG, "Plur": PL}


def gulordava(folder: Path, tagger: Any, limit: int | None = None, seed: int = 0) -> list[AgreementItem]:
    """Items of Gulordava et al.'s generated set (a sample of ``limit``, seeded, tagged after sampling)."""
    text_path, gold_path = folder / "generated.text", folder / "generated.gold"
    text = text_path.read_text(encoding="utf-8").split("\n")
    gold = gold_path.read_text(encoding="utf-8").split("\n")
    rows = [(k, t, g) for k, (t, g) in enumerate(zip(text, gold, strict=False)) if g.strip()]
    if len(text) < len(gold) and any(g.strip() for g in gold[len(text):]):
        raise S2LCTError(f"{gold_path}: {len(gold)} lines but {text_path.name} has {len(text)}; the two files must be line-aligned")
    out = []
    for k, t, g in _sample(rows, limit, f"gulordava:{seed}"):
        f = g.rstrip("\r").split("\t")
        where = f"{gold_path}:{k + 1}"
        if len(f) < 11:
            raise S2LCTError(f"{where}: {len(f)} tab-separated fields, expected 12 (pattern, constr_id, sent_id, target index, "
                             "target PoS, target morphology, correct form, wrong form, lemma, controller index, controller PoS, prefix)")
        pattern, constr, sent, target, _pos, morph, correct, _wrong, _lemma, controller, controller_pos = f[:11]
        feats = dict(x.split("=", 1) for x in morph.split("|") if "=" in x)
        number = GULORDAVA_NUMBER.get(feats.get("Number", ""))
        toks = t.split()
        if not (target.isdigit() and controller.isdigit()) or number is None:
            raise S2LCTError(f"{where}: target index {target!r}, controller index {controller!r}, morphology {morph!r}: "
                             "expected two token indices and a Number=Sing or Number=Plur feature")
        i, c = int(target), int(controller)
        if not 0 < i < len(toks):
            raise S2LCTError(f"{where}: target index {i} outside the {len(toks)} tokens of {text_path.name} line {k + 1}")
        prefix = tuple(toks[:i])
        tags = list(_tagged(tagger, prefix))
        subject = None
        if controller_pos == "NOUN" and c < i:
            subject = c
            if noun_number(tags[c]) != number:
                tags[c] = "NN" if number == SG else "NNS"
        kind = "_".join(pattern.split("!")[:2])
        out.append(AgreementItem(f"gulordava:{kind}:{constr}:{sent}", "gulordava", prefix, tuple(tags), subject, correct, number))
    return out


_BLIMP_TOKEN = re.compile(r"\w+(?:'\w+)?|[^\w\s]")


def blimp(zip_path: Path, tagger: Any, limit: int | None = None, seed: int = 0) -> list[AgreementItem]:
    """Prefixes of BLiMP's verb-agreement pairs (a sample of ``limit``, seeded, tagged after sampling)."""
    raw: list[tuple[str, tuple[str, ...], str]] = []
    with zipfile.ZipFile(zip_path) as zf:
        for name in BLIMP_PARADIGMS:
            member = f"data/{name}.jsonl"
            if member not in zf.namelist():
                continue
            with zf.open(member) as fh:
                for k, line in enumerate(io.TextIOWrapper(fh, encoding="utf-8")):
                    if not line.strip():
                        continue
                    d = json.loads(line)
                    good, bad = _BLIMP_TOKEN.findall(d["sentence_good"]), _BLIMP_TOKEN.findall(d["sentence_bad"])
                    i = next((j for j, (a, b) in enumerate(zip(good, bad, strict=False)) if a != b), None)
                    if not i:
                        continue
                    if re.match(r"^[a-z']+$", good[i].lower()):
                        raw.append((f"blimp:{name}:{k}", tuple(good[:i]), good[i]))
    out: list[AgreementItem] = []
    for item_id, prefix, verb in _sample(raw, limit, f"blimp:{seed}"):
        tags = _tagged(tagger, prefix)
        nouns = [j for j, t in enumerate(tags) if noun_number(t)]
        if nouns:
            out.append(AgreementItem(item_id, "blimp", prefix, tags, compound_head(tags, nouns[0]), verb, form_number(verb)))
    return out


# ------------------------------------------------------------------------------------- selection
@dataclass
class AgreementData:
    """Evaluation items (sampled per source) and the probe's training / held-out prefixes."""

    items: list[AgreementItem]
    probe_train: list[AgreementItem]
    probe_heldout: list[AgreementItem]
    counts: dict[str, Any]


def load_agreement(n_items: int, *, sources: Iterable[str] = SOURCES, seed: int = 0, data_root: str | Path | None = None,
                   probe_items: int = 3000) -> AgreementData:
    """``n_items`` evaluation items spread evenly over ``sources`` (seeded), plus probe data: PTB
    candidates from sentences that hold no evaluation item, 80 % to train, 20 % held out."""
    sources = list(dict.fromkeys(sources))
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        raise S2LCTError(f"unknown agreement source {unknown[0]!r}; available: {', '.join(SOURCES)}")
    from ..config import configure_nltk, get_settings

    settings = get_settings(data_root=data_root)
    configure_nltk(settings)
    root = Path(settings.data_root) / "agreement"
    rng = random.Random(f"s2lct-agreement:{seed}")
    per_source = {s: n_items // len(sources) + (1 if k < n_items % len(sources) else 0) for k, s in enumerate(sources)}
    tagger = _tagger() if any(s != "ptb" for s in sources) else None
    candidates = [c for tid, tree in ptb_trees() for c in ptb_candidates(tree, tid)]
    kept = [c.item for c in candidates if c.reject is None]
    rejects: dict[str, int] = {}
    for c in candidates:
        rejects[c.reject or "kept"] = rejects.get(c.reject or "kept", 0) + 1
    items: list[AgreementItem] = []
    pools: dict[str, list[AgreementItem]] = {}
    if "ptb" in sources:
        pools["ptb"] = kept
    if "marvin_linzen" in sources:
        path = root / "marvin_linzen2018" / "marvin_linzen_2018_EMNLP2018_templates.jsonl.gz"
        _need(path)
        pools["marvin_linzen"] = marvin_linzen(path, tagger, limit=per_source["marvin_linzen"] * 2 + 10, seed=seed)
    if "linzen" in sources:
        folder = root / "linzen2016_testset_gulordava2018"
        _need(folder / "subj_agr_filtered.text")
        pools["linzen"] = linzen(folder, tagger, limit=max(per_source["linzen"] * 3, 50), seed=seed)
    if "gulordava" in sources:
        folder = root / "gulordava2018_english_generated"
        _need(folder / "generated.gold")
        pools["gulordava"] = gulordava(folder, tagger, limit=per_source["gulordava"] * 2 + 10, seed=seed)
    if "blimp" in sources:
        path = root / "blimp" / "BLiMP.zip"
        _need(path)
        pools["blimp"] = blimp(path, tagger, limit=per_source["blimp"] * 2 + 10, seed=seed)
    for s in sources:
        pool = pools[s]
        take = min(per_source[s], len(pool))
        items.extend(sorted(rng.sample(pool, take), key=lambda it: it.id) if take < len(pool) else pool)
    used = {it.id.rsplit(":", 1)[0] for it in items if it.source == "ptb"}
    probe_pool = [c.item for c in candidates if c.item.id.rsplit(":", 1)[0] not in used]
    sentences = sorted({it.id.rsplit(":", 1)[0] for it in probe_pool})
    random.Random(f"s2lct-probe:{seed}").shuffle(sentences)
    heldout_sents = set(sentences[: len(sentences) // 5])
    train = [it for it in probe_pool if it.id.rsplit(":", 1)[0] not in heldout_sents]
    heldout = [it for it in probe_pool if it.id.rsplit(":", 1)[0] in heldout_sents]
    prng = random.Random(f"s2lct-probe-sample:{seed}")
    if len(train) > probe_items:
        train = prng.sample(train, probe_items)
    if len(heldout) > probe_items // 4:
        heldout = prng.sample(heldout, probe_items // 4)
    counts = {"ptb_candidates": len(candidates), "ptb_filter": rejects, "pools": {s: len(p) for s, p in pools.items()},
              "items": {s: sum(it.source == s for it in items) for s in sources}}
    return AgreementData(items, train, heldout, counts)


def _need(path: Path) -> None:
    if not path.exists():
        raise MissingResourceError(path, "point --data-root / S2LCT_DATA_ROOT at a folder with agreement/ (see shared/data/SOURCES.md)")
