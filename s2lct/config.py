"""Where data, caches and models live.

Every location is configuration: an environment variable (prefix ``S2LCT_``) or a CLI flag that
overrides it. Defaults are the real public resources, so a user with internet gets benepar_en3,
bert-base-uncased and en_core_web_sm; this repo's tests and CI point them at ``../shared``.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "s2lct"


class Settings(BaseSettings):
    """Resolved configuration. Build with ``Settings()`` (environment) or ``Settings(field=...)``."""

    model_config = SettingsConfigDict(env_prefix="S2LCT_", extra="ignore")

    data_root: Path = Field(
        default=Path("data"),
        description="Folder holding sst/trees/{train,dev,test}.txt and, optionally, nltk_data/.",
    )
    cache_dir: Path = Field(default_factory=_default_cache_dir)
    spacy_model: str = "en_core_web_sm"
    parser: str = "benepar_en3"
    mlm: str = "bert-base-uncased"
    models_dir: Path | None = Field(
        default=None,
        description="Folder holding offline models such as minilm-sst2 (used by model aliases).",
    )

    def nltk_data_dirs(self) -> list[str]:
        """NLTK search path: ``$NLTK_DATA`` first, then ``<data_root>/nltk_data`` if present."""
        dirs = [d for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
        local = self.data_root / "nltk_data"
        if local.is_dir():
            dirs.append(str(local.resolve()))
        return dirs


def configure_nltk(settings: Settings) -> None:
    """Put the configured NLTK data folders first on NLTK's search path (idempotent)."""
    import nltk

    for d in reversed(settings.nltk_data_dirs()):
        if d not in nltk.data.path:
            nltk.data.path.insert(0, d)


def get_settings(**overrides: object) -> Settings:
    clean = {k: v for k, v in overrides.items() if v is not None}
    return Settings(**clean)  # type: ignore[arg-type]
