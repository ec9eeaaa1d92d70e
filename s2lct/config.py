"""Where data, caches and models live: one configuration for the CLI, the pytest plugin and the API.

Every location is a setting read, highest priority first, from: a CLI flag (or keyword argument),
an environment variable (prefix ``S2LCT_``), a configuration file, the default. The file is
``s2lct.toml`` (top-level keys) or the ``[tool.s2lct]`` table of ``pyproject.toml``, the first one
found from the working folder upward (or ``$S2LCT_CONFIG`` / ``--config``); relative paths in it are
relative to the file, so a project can say ``data_root = "../shared/data"``. Defaults are the real
public resources (benepar_en3, bert-base-uncased, en_core_web_sm).

pydantic-settings reads TOML, but neither resolves paths relative to the file nor searches for
``s2lct.toml`` and ``pyproject.toml`` together, so the file source below is written by hand.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from s2lct.errors import S2LCTError

CONFIG_ENV = "S2LCT_CONFIG"
CONFIG_NAME = "s2lct.toml"
#: Settings that are paths when given (model settings may also be names, kept as written unless they
#: look like a relative path: ``./x``, ``../x`` or containing a slash).
PATH_KEYS = {"data_root", "cache_dir", "models_dir", "nltk_data"}
NAME_OR_PATH_KEYS = {"spacy_model", "parser", "mlm"}


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "s2lct"


def find_config_file(start: Path | None = None) -> Path | None:
    """``$S2LCT_CONFIG``, else the nearest ``s2lct.toml`` or ``pyproject.toml`` with ``[tool.s2lct]``."""
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise S2LCTError(f"configuration file {path} not found (from {CONFIG_ENV} or --config)")
        return path.resolve()
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / CONFIG_NAME).is_file():
            return folder / CONFIG_NAME
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and "s2lct" in _read_toml(pyproject).get("tool", {}):
            return pyproject
    return None


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise S2LCTError(f"{path}: cannot read the configuration file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise S2LCTError(f"{path}: invalid TOML ({exc})") from None


def read_config_file(path: Path) -> dict[str, Any]:
    """The file's settings with relative paths made absolute against the file's folder."""
    import difflib

    doc = _read_toml(path)
    table = doc.get("tool", {}).get("s2lct", {}) if path.name == "pyproject.toml" else doc
    where = "[tool.s2lct]" if path.name == "pyproject.toml" else "top level"
    valid = sorted(Settings.model_fields)
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key not in Settings.model_fields:
            close = difflib.get_close_matches(key, valid, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"valid keys: {', '.join(valid)}"
            raise S2LCTError(f"{path}: unknown key {key!r} ({where}) — {hint}")
        if isinstance(value, str) and (key in PATH_KEYS or (key in NAME_OR_PATH_KEYS and _looks_like_path(value))):
            p = Path(value).expanduser()
            value = str(p if p.is_absolute() else (path.parent / p).resolve())
        out[key] = value
    return out


def _looks_like_path(value: str) -> bool:
    return value.startswith((".", "/", "~")) or "/" in value


class _ConfigFileSource(PydanticBaseSettingsSource):
    """Settings from the configuration file (lower priority than flags and environment)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:  # pragma: no cover - unused
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        path = find_config_file()
        return read_config_file(path) if path else {}


class Settings(BaseSettings):
    """Resolved configuration. Build with ``Settings()`` (environment + file) or ``Settings(field=...)``."""

    model_config = SettingsConfigDict(env_prefix="S2LCT_", extra="ignore")

    data_root: Path = Field(
        default=Path("data"),
        description="Folder holding sst/trees/{train,dev,test}.txt and, optionally, nltk_data/.",
    )
    nltk_data: Path | None = Field(default=None, description="NLTK data folder (wordnet, sentiwordnet, treebank, punkt_tab).")
    cache_dir: Path = Field(default_factory=_default_cache_dir)
    spacy_model: str = "en_core_web_sm"
    parser: str = "benepar_en3"
    mlm: str = "bert-base-uncased"
    models_dir: Path | None = Field(
        default=None,
        description="Folder holding offline models such as minilm-sst2 (used by model aliases).",
    )
    corpus: str | None = Field(
        default=None,
        description="Labelled corpus to search for seeds instead of SST: a CSV/TSV/JSONL/Parquet file, a folder or a glob of shards.",
    )
    corpus_text_column: str = Field(default="sentence", description="The corpus tables' text column.")
    corpus_label_column: str = Field(default="label", description="The corpus tables' label column (0/1, neg/pos, negative/neutral/positive).")
    min_pass_rate: str | float | None = Field(
        default=None,
        description="CI gate: minimum pass rate, for every capability (0.8) or per capability (LC4=0.9,0.8); see s2lct.run.gate.",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings, env_settings, _ConfigFileSource(settings_cls))

    def nltk_data_dirs(self) -> list[str]:
        """NLTK search path: ``nltk_data`` setting, ``$NLTK_DATA``, then ``<data_root>/nltk_data`` if present."""
        dirs = [str(self.nltk_data)] if self.nltk_data else []
        dirs += [d for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
        local = self.data_root / "nltk_data"
        if local.is_dir():
            dirs.append(str(local.resolve()))
        return dirs


#: How a user sets each setting: flag, environment variable, configuration key.
FLAGS = {
    "data_root": "--data-root", "nltk_data": None, "cache_dir": "--cache-dir", "spacy_model": "--spacy-model",
    "parser": "--parser", "mlm": "--mlm", "models_dir": "--models-dir", "min_pass_rate": "--min-pass-rate",
    "corpus": "--corpus", "corpus_text_column": "--text-column", "corpus_label_column": "--label-column",
}


def how_to_set(key: str) -> str:
    """'--data-root, S2LCT_DATA_ROOT or data_root = ... in s2lct.toml' for error messages and doctor."""
    flag = FLAGS.get(key)
    env = f"S2LCT_{key.upper()}" + (" (or NLTK_DATA)" if key == "nltk_data" else "")
    return f"{flag + ', ' if flag else ''}{env} or {key} = ... in s2lct.toml"


def setting_source(key: str, flags: dict[str, object] | None = None) -> str:
    """Where a setting's value comes from: flag, env, the file's path, or default."""
    if flags and flags.get(key) is not None:
        return "flag"
    if os.environ.get(f"S2LCT_{key.upper()}"):
        return "env"
    path = find_config_file()
    if path and key in read_config_file(path):
        return path.name
    return "default"


def configure_nltk(settings: Settings) -> None:
    """Put the configured NLTK data folders first on NLTK's search path (idempotent)."""
    import nltk

    for d in reversed(settings.nltk_data_dirs()):
        if d not in nltk.data.path:
            nltk.data.path.insert(0, d)


def get_settings(config_file: str | os.PathLike[str] | None = None, **overrides: object) -> Settings:
    """Flags (``overrides`` that are not None) > environment > configuration file > defaults.

    ``config_file`` (the CLI's ``--config``) is exported as ``$S2LCT_CONFIG`` so that library code
    deeper down, which calls ``get_settings()`` itself, reads the same file.
    """
    if config_file is not None:
        os.environ[CONFIG_ENV] = str(Path(config_file).expanduser().resolve())
    clean = {k: v for k, v in overrides.items() if v is not None}
    return Settings(**clean)  # type: ignore[arg-type]
