"""The GLUE SST-2 files (``<data root>/sst2_glue/{train,dev}.tsv``): the task models train on
them, retraining measures the model on dev."""

from __future__ import annotations

from pathlib import Path

from s2lct.errors import MissingResourceError


def load_sst2(path: str | Path) -> list[tuple[str, int]]:
    """``sentence<TAB>label`` rows of a GLUE SST-2 file (header skipped)."""
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(path, "the GLUE SST-2 files are expected at <data root>/sst2_glue/{train,dev}.tsv; set S2LCT_DATA_ROOT or --data-root")
    rows = []
    with open(path, encoding="utf-8") as fh:
        next(fh, None)
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 2 and parts[-1].strip() in ("0", "1"):
                rows.append((parts[0].strip(), int(parts[-1])))
    return rows
