"""The body of ``s2lct retrain``: progress bars and log on stderr, the accounting on stdout (tables
within 80 columns, see :mod:`s2lct.retrain.terminal`; accounting.md and the JSON files keep every figure)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ..errors import S2LCTError


def retrain_command(model: str, capability: str | None, out: Path, *, quiet: bool = False, force_progress: bool = False, **kwargs: Any) -> int:
    """Run :func:`s2lct.retrain.loop.retrain`; user errors print one line and return exit code 2."""
    from rich.console import Console

    from s2lct.progress import progress_for
    from .loop import retrain
    from .terminal import accounting_table, curve_table, matrix_tables, partition_table

    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    try:
        with progress_for(quiet, force_progress) as progress:
            result = retrain(model, capability, out=out, progress=progress, log=progress.log, **kwargs)
    except S2LCTError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    if "matrix" in result:
        console.print(matrix_tables(result["matrix"]))
        err.print(f"wrote {out / 'matrix.json'}, {out / 'matrix.md'}, {out / 'matrix_heatmap.png'} (.svg)", markup=False)
        return 0
    if len(result["curve"]) > 2:
        console.print(curve_table(result["curve"]))
    console.print(accounting_table(result["accounting"]))
    if result.get("partitions"):
        console.print(partition_table(result["partitions"], result["accounting"]["sst2_dev"]))
    if result["model_dir"]:
        err.print(f"retrained model: {result['model_dir']} (run it with --model {result['model_dir']})", markup=False)
    err.print(f"wrote {out / 'accounting.json'}, {out / 'accounting.md'}", markup=False)
    return 0
