"""``s2lct doctor``: check every configured resource at once and say how to fix what is missing.

Resources are checked by looking at files (no model is loaded). Each optional stage is imported,
with every third-party module its source imports, because a stage reported ready must run: lazy
imports (scipy, captum, ...) would otherwise fail only minutes into a command. That takes seconds.
"""

from __future__ import annotations

import os
import sys
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

    from s2lct.corpus.spacy_pipeline import install_hint, is_available

    name = settings.spacy_model
    found = is_available(name)
    add("spaCy pipeline (PoS tags)", "spacy_model", name, found, "installed" if found else "not installed", install_hint(name))

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

    from s2lct.expand.checks.selector import BUILD_COMMAND, default_path

    selector = default_path()
    built = selector.is_file()
    stale = built and not _has_read_ranker(selector)  # built before the read ranker existed: generate would stop
    detail = ("built before the read ranker: `s2lct generate` needs it; rebuild it with" if stale
              else "built" if built else "not built: `s2lct generate` needs it; build it with")
    checks.append(Check(
        "fluency selector (expansion)", "selector", str(selector), "S2LCT_SELECTOR" if os.environ.get("S2LCT_SELECTOR") else "cache folder",
        "ok" if built and not stale else "not set",
        detail if built and not stale else f"{detail} `{BUILD_COMMAND} --out {selector}`",
        "" if built and not stale else f"run `{BUILD_COMMAND} --out {selector}` in a checkout of the repository",
    ))

    problem = _writable(Path(settings.cache_dir))
    add("cache folder", "cache_dir", settings.cache_dir, problem is None, "writable" if problem is None else f"not writable ({problem})",
        "choose a writable folder")
    return checks


# The optional stages doctor reports on: name → (package, what it needs at run time without importing it by name).
STAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "expansion": ("s2lct.expand", ()),
    "explain": ("s2lct.explain", ()),
    "trust": ("s2lct.trust", ()),
    "retrain": ("s2lct.retrain", ("accelerate",)),  # transformers' Trainer refuses to start without it
}
# Import names whose distribution is named otherwise (the rest differ at most in case and - _ .).
_DISTRIBUTIONS = {"ruamel": "ruamel.yaml", "yaml": "pyyaml", "_pytest": "pytest"}


def stage_imports(stage: str) -> tuple[list[str], list[str]]:
    """(s2lct modules, third-party modules) that running stage ``stage`` imports, lazy imports included."""
    import s2lct
    from s2lct.source_imports import import_graph, module_imports

    root = Path(s2lct.__file__).parent
    imports, graph = module_imports(root), import_graph(root)
    ours: set[str] = set()
    package, needs = STAGES[stage]
    todo = [m for m in graph if m == package or m.startswith(f"{package}.")]
    while todo:
        module = todo.pop()
        if module not in ours:
            ours.add(module)
            todo.extend(graph[module])
    theirs = {m for o in ours for m, _ in imports[o] if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] != "s2lct"}
    return sorted(ours), sorted(theirs | set(needs))


def pip_command(module: str) -> str:
    """The pip command that installs the distribution behind top-level ``module``, as s2lct requires it."""
    import importlib.metadata as metadata
    import re

    def norm(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    try:
        requires = metadata.requires("s2lct") or []
    except metadata.PackageNotFoundError:
        requires = []
    wanted = {norm(re.match(r"[A-Za-z0-9._-]+", r).group()): r.split(";")[0].strip() for r in requires}
    name = _DISTRIBUTIONS.get(module, module)
    requirement = wanted.get(norm(name), name)
    return f"pip install '{requirement}'" if any(c in requirement for c in "<>=!~[") else f"pip install {requirement}"


def check_stages(stages: tuple[str, ...] = tuple(STAGES)) -> list[Check]:
    """Each optional stage is ready only when its modules and every third-party module they import import here."""
    import importlib

    checks = []
    for stage in stages:
        ours, theirs = stage_imports(stage)
        problem = None
        for module in [*theirs, *ours]:
            try:
                importlib.import_module(module)
            except Exception as exc:  # noqa: BLE001 - any failure to import means the stage cannot run
                missing = getattr(exc, "name", None) if isinstance(exc, ImportError) else None
                problem = (f"cannot import {module} ({type(exc).__name__}: {' '.join(str(exc).split())})",
                           f"run `{pip_command((missing or module).split('.')[0])}`")
                break
        detail, fix = problem or ("imports " + ", ".join(sorted({m.split(".")[0] for m in theirs})), "")
        checks.append(Check(f"{stage} stage", "stage", STAGES[stage][0], f"{len(ours)} modules", "missing" if problem else "ok", detail, fix))
    return checks


def check_engines() -> list[Check]:
    """The optional Ray engine (``--engine ray``): "ok" when Ray Data imports, else "not set" with
    the extra that installs it (the local engine needs nothing, so this is never a failure)."""
    import importlib.util

    found = importlib.util.find_spec("ray") is not None
    detail, status = "not installed: --engine ray is unavailable", "not set"
    if found:
        try:
            import ray
            import ray.data  # noqa: F401

            detail, status = f"ray {ray.__version__}", "ok"
        except ImportError as exc:
            detail = f"cannot import ray.data ({exc.name or exc})"
    fix = "" if status == "ok" else "pip install 's2lct[ray]'"
    return [Check("ray engine", "engine", "ray", "optional", status, detail, fix)]


def _has_read_ranker(path: Path) -> bool:
    """Whether a built selector file holds the read ranker (``s2lct.expand.read_ranker``)."""
    import json

    try:
        return "reader" in json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
