"""The body of ``s2lct retrain``: progress bars and log on stderr, the accounting on stdout."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ..errors import S2LCTError


def retrain_command(model: str, capability: str | None, out: Path, *, quiet: bool = False, force_progress: bool = False, **kwargs: Any) -> int:
    """Run :func:`s2lct.retrain.loop.retrain`; user errors print one line and return exit code 2."""
    from rich.console import Console

    from s2lct.progress import progress_for
    from .accounting import markdown_table
    from .loop import retrain
    from .matrix import matrix_markdown

    err = Console(stderr=True, highlight=False)
    try:
        with progress_for(quiet, force_progress) as progress:
            result = retrain(model, capability, out=out, progress=progress, log=progress.log, **kwargs)
    except S2LCTError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    if "matrix" in result:
        print(matrix_markdown(result["matrix"]))
        err.print(f"wrote {out / 'matrix.json'}, {out / 'matrix.md'}, {out / 'matrix_heatmap.png'} (.svg)", markup=False)
        return 0
    if len(result["curve"]) > 2:
        print("| round | validation failure % | SST-2 dev acc % | " + " | ".join(result["curve"][0]["failure_rate"]) + " |")
        print("|" + "---|" * (3 + len(result["curve"][0]["failure_rate"])))
        for p in result["curve"]:
            fr = " | ".join("-" if v is None else f"{100 * v:.1f}" for v in p["failure_rate"].values())
            vf = "-" if p["validation_failure_rate"] is None else f"{100 * p['validation_failure_rate']:.1f}"
            print(f"| {p['round']} | {vf} | {100 * p['sst2_accuracy']:.1f} | {fr} |")
        print()
    print(markdown_table(result["accounting"]))
    if result["model_dir"]:
        err.print(f"retrained model: {result['model_dir']} (run it with --model {result['model_dir']})", markup=False)
    err.print(f"wrote {out / 'accounting.json'}, {out / 'accounting.md'}", markup=False)
    return 0
