"""Learning-curve and heat-map figures (matplotlib, Agg backend), written as PNG and SVG atomically."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..atomic import write_bytes
from ..suite import natural_key


def _save(fig: Any, stem: Path) -> list[Path]:
    out = []
    for fmt in ("png", "svg"):
        buf = io.BytesIO()
        # fixed metadata keeps the files identical between runs with the same figures
        meta = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(buf, format=fmt, dpi=120, bbox_inches="tight", metadata=meta)
        path = stem.with_suffix(f".{fmt}")
        write_bytes(path, buf.getvalue())
        out.append(path)
    return out


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "s2lct"
    return plt


def learning_curve(curve: Sequence[Mapping[str, Any]], stem: str | Path) -> list[Path]:
    """Failure rate per capability (left) and SST-2 dev accuracy (right) per round (0 = before)."""
    plt = _pyplot()
    rounds = [r["round"] for r in curve]
    caps = sorted(curve[0]["failure_rate"], key=natural_key)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    colours = plt.get_cmap("tab20").colors  # eleven capabilities: the default cycle of ten repeats
    for i, cap in enumerate(caps):
        style = "-o" if curve[0]["scope"].get(cap) == "test" else "--."
        ax1.plot(rounds, [100 * r["failure_rate"][cap] for r in curve], style, label=cap, color=colours[i % len(colours)])
    ax1.set_xlabel("round (0 = before retraining)")
    ax1.set_ylabel("failure rate (%)")
    ax1.set_title("failure rate per capability (solid: retrained, test split)")
    ax1.set_xticks(rounds)
    ax1.legend(fontsize=7, ncol=1, loc="center left", bbox_to_anchor=(1.0, 0.5))
    acc = [r.get("sst2_accuracy") for r in curve]
    ax2.plot(rounds, [100 * a if a is not None else float("nan") for a in acc], "-o", color="black")
    ax2.set_xlabel("round")
    ax2.set_ylabel("SST-2 dev accuracy (%)")
    ax2.set_title("SST-2 dev accuracy")
    ax2.set_xticks(rounds)
    fig.tight_layout()
    try:
        return _save(fig, Path(stem))
    finally:
        plt.close(fig)


def heat_map(rows: Sequence[str], cols: Sequence[str], values: Sequence[Sequence[float | None]], stem: str | Path, *,
             title: str, unit: str = "pp") -> list[Path]:
    """A diverging heat map of ``values`` (retrain × evaluate), annotated, centred on zero."""
    import numpy as np

    plt = _pyplot()
    data = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)
    lim = float(np.nanmax(np.abs(data))) if np.isfinite(data).any() else 1.0
    fig, ax = plt.subplots(figsize=(1.0 + 0.75 * len(cols), 1.2 + 0.6 * len(rows)))
    im = ax.imshow(data, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel("evaluated on")
    ax.set_ylabel("retrained on")
    for i in range(len(rows)):
        for j in range(len(cols)):
            if np.isfinite(data[i, j]):
                ax.text(j, i, f"{data[i, j]:+.1f}", ha="center", va="center", fontsize=7,
                        color="white" if abs(data[i, j]) > 0.6 * lim else "black")
    fig.colorbar(im, ax=ax, label=unit)
    ax.set_title(title)
    fig.tight_layout()
    try:
        return _save(fig, Path(stem))
    finally:
        plt.close(fig)
