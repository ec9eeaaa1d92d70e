"""The ``s2lct`` command line (typer). Every user error prints one line and exits non-zero."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from s2lct.errors import S2LCTError, SpecError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, help="Specification- and syntax-based linguistic capability tests for sentiment models.")

DataRoot = Annotated[Optional[Path], typer.Option("--data-root", help="Folder with sst/trees/ (env S2LCT_DATA_ROOT).")]
CacheDir = Annotated[Optional[Path], typer.Option("--cache-dir", help="Cache folder (env S2LCT_CACHE_DIR).")]


def _settings(**overrides: object):
    from s2lct.config import get_settings

    return get_settings(**overrides)


def _split_ids(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


@app.command()
def validate(paths: Annotated[list[Path], typer.Argument(help="Spec files or folders.")]) -> None:
    """Validate capability specs; print FILE:LINE: message per invalid spec (exit 2)."""
    from s2lct.spec import load_spec, spec_files

    failed = 0
    files = spec_files(paths)
    if not files:
        typer.echo(f"{paths[0]}: no spec files (*.yaml) found", err=True)
        raise typer.Exit(2)
    for f in files:
        try:
            load_spec(f)
        except SpecError as exc:
            failed += 1
            typer.echo(str(exc), err=True)
    if failed:
        raise typer.Exit(2)
    typer.echo(f"{len(files)} spec(s) valid")


@app.command()
def schema(out: Annotated[Optional[Path], typer.Option("--out", help="Write here instead of stdout.")] = None) -> None:
    """Print the JSON Schema of capability specs (the published specs/schema.json)."""
    import json

    from s2lct.atomic import write_text
    from s2lct.spec import json_schema

    text = json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
    if out:
        write_text(out, text)
    else:
        typer.echo(text, nl=False)


@app.command()
def generate(
    specs: Annotated[Path, typer.Option("--specs", help="Spec folder or file.")] = Path("specs"),
    out: Annotated[Path, typer.Option("--out", help="Suite folder to write.")] = Path("generated"),
    only: Annotated[Optional[str], typer.Option("--only", help="Comma-separated capability ids, e.g. LC1,LC4.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: same inputs and seed give identical files.")] = 0,
    no_expand: Annotated[bool, typer.Option("--no-expand", help="Skip syntax-based expansion.")] = False,
    max_cases: Annotated[Optional[int], typer.Option("--max-cases", min=1, help="Override every spec's sampling.max_cases.")] = None,
    gzip: Annotated[bool, typer.Option("--gzip", help="Write .jsonl.gz instead of .jsonl.")] = False,
    data_root: DataRoot = None,
    cache_dir: CacheDir = None,
    spacy_model: Annotated[Optional[str], typer.Option("--spacy-model", help="spaCy pipeline (env S2LCT_SPACY_MODEL).")] = None,
    parser: Annotated[Optional[str], typer.Option("--parser", help="benepar model name or path (env S2LCT_PARSER).")] = None,
    mlm: Annotated[Optional[str], typer.Option("--mlm", help="Fill-mask model name or path (env S2LCT_MLM).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
) -> None:
    """Search seeds, apply transforms (and expand), write one suite file per capability + manifest."""
    from rich.console import Console
    from rich.table import Table

    from s2lct.pipeline import generate as run_generate
    from s2lct.progress import rich_progress

    settings = _settings(data_root=data_root, cache_dir=cache_dir, spacy_model=spacy_model, parser=parser, mlm=mlm)
    with rich_progress(enabled=not quiet) as progress:
        report = run_generate(
            specs, out, settings, seed=seed, only=_split_ids(only), expand=not no_expand,
            compress=gzip, max_cases=max_cases, progress=progress,
        )
    table = Table(title=f"suite written to {out}")
    for col in ("capability", "name", "seeds", "seed cases", "expansions", "cases"):
        table.add_column(col, justify="left" if col in ("capability", "name") else "right")
    for cap, info in report.manifest["capabilities"].items():
        table.add_row(cap, info["name"], str(info["seeds"]), str(info["seed_cases"]), str(info["expansion_cases"]), str(info["cases"]))
    Console().print(table)


@app.command()
def run(
    model: Annotated[list[str], typer.Option("--model", "-m", help="Model alias (vader, textblob, bert, roberta, distilbert, minilm-sst2), HF folder or hub name; repeatable or comma-separated.")],
    suite: Annotated[Path, typer.Option("--suite", help="Suite folder.")] = Path("generated"),
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write the JSON report here.")] = None,
    report: Annotated[Optional[Path], typer.Option("--report", help="Write a report: .json, .md or .html by suffix.")] = None,
    max_cases_per_capability: Annotated[Optional[int], typer.Option("--max-cases-per-capability", min=1, help="Sample at most N cases per capability (fixed seed).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the per-capability sample.")] = 0,
    batch_size: Annotated[Optional[int], typer.Option("--batch-size", min=1, help="Inference batch size.")] = None,
    models_dir: Annotated[Optional[Path], typer.Option("--models-dir", help="Folder of offline models such as minilm-sst2 (env S2LCT_MODELS_DIR).")] = None,
    label_map: Annotated[Optional[str], typer.Option("--label-map", help="Map model classes to labels, e.g. 0=negative,1=positive.")] = None,
    neutral_band: Annotated[Optional[str], typer.Option("--neutral-band", help="LOW,HIGH neutral band (binary models: on p(positive); default 0.3333,0.6667).")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write the prediction cache.")] = False,
) -> None:
    """Run a suite against models: print failures per capability, optionally write reports."""
    from s2lct.run.runner import run_command

    code = run_command(
        model, suite, json_path=json_out, report_path=report, max_cases_per_capability=max_cases_per_capability,
        seed=seed, batch_size=batch_size, models_dir=models_dir, label_map=label_map, neutral_band=neutral_band,
        use_cache=not no_cache,
    )
    if code:
        raise typer.Exit(code)


@app.command()
def diversity(
    suite: Annotated[Path, typer.Option("--suite", help="Suite folder.")] = Path("generated"),
    only: Annotated[Optional[str], typer.Option("--only", help="Comma-separated capability ids.")] = None,
    sample: Annotated[int, typer.Option("--sample", min=2, help="Cases sampled for Self-BLEU (fixed seed).")] = 200,
    max_cases: Annotated[int, typer.Option("--max-cases", min=1, help="Cases parsed per capability for production coverage.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Sampling seed.")] = 0,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Also write the figures as JSON.")] = None,
) -> None:
    """Self-BLEU (lower = more diverse) and distinct grammar productions, seeds vs seeds+expansions."""
    import json

    from rich.console import Console
    from rich.table import Table

    from s2lct.atomic import write_text
    from s2lct.expand.diversity import diversity_report
    from s2lct.suite import natural_key

    report = diversity_report(suite, only=_split_ids(only), sample=sample, max_cases=max_cases, seed=seed)
    table = Table(title=f"diversity of {suite} (Self-BLEU on {sample} sampled cases; productions on ≤ {max_cases} parsed cases)")
    for col in ("capability", "cases: seeds", "seeds+exp", "Self-BLEU: seeds", "seeds+exp", "productions: seeds", "seeds+exp"):
        table.add_column(col, justify="left" if col == "capability" else "right")
    fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
    for cap, row in sorted(report.items(), key=lambda kv: natural_key(kv[0])):
        a, b = row["seeds"], row["seeds+expansions"]
        table.add_row(cap, str(a["cases"]), str(b["cases"]), fmt(a["self_bleu"]), fmt(b["self_bleu"]), str(a["productions"]), str(b["productions"]))
    Console().print(table)
    if json_out:
        write_text(json_out, json.dumps(report, indent=2, sort_keys=True) + "\n")


@app.command()
def retrain(
    model: Annotated[str, typer.Option("--model", "-m", help="Hugging Face model to fine-tune: alias (bert, roberta, distilbert, minilm-sst2), folder or hub name.")],
    out: Annotated[Path, typer.Option("--out", help="Run folder: split, checkpoints, model/, accounting.json/.md, plots.")],
    capability: Annotated[Optional[str], typer.Option("--capability", "-c", help="Capabilities to retrain on, e.g. LC4,LC8 (--matrix: default all).")] = None,
    suite: Annotated[Path, typer.Option("--suite", help="Suite folder.")] = Path("generated"),
    epochs: Annotated[float, typer.Option("--epochs", help="Epochs per round (paper: 1).")] = 1.0,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Training batch size (paper: 16).")] = 16,
    lr: Annotated[float, typer.Option("--lr", help="Learning rate (AdamW, linear decay).")] = 5e-5,
    mix_original: Annotated[float, typer.Option("--mix-original", help="SST-2 train sentences added per training case (0 = none).")] = 0.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the split, sampling and training.")] = 0,
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds; later rounds train on still-failing cases + replay, early stop on validation.")] = 1,
    replay: Annotated[float, typer.Option("--replay", help="Rounds ≥ 2: passing training cases replayed per failing one.")] = 0.5,
    max_length: Annotated[Optional[int], typer.Option("--max-length", min=8, help="Token limit for training and evaluation (default: the model's).")] = None,
    matrix: Annotated[bool, typer.Option("--matrix", help="Retrain on each capability in turn and evaluate on all (table + heat map).")] = False,
    max_eval_cases: Annotated[Optional[int], typer.Option("--max-eval-cases", min=1, help="Score not-retrained capabilities on at most N sampled cases each.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the run recorded in --out with its recorded settings.")] = False,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace the run in --out.")] = False,
    models_dir: Annotated[Optional[Path], typer.Option("--models-dir", help="Folder of offline models (env S2LCT_MODELS_DIR).")] = None,
    data_root: DataRoot = None,
    cache_dir: CacheDir = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
) -> None:
    """Fine-tune on generated cases (8:1:1 by seed) and account per capability for every case fixed and broken."""
    from .retrain.command import retrain_command

    code = retrain_command(
        model, capability, out, quiet=quiet, suite=suite, epochs=epochs, batch_size=batch_size, lr=lr,
        mix_original=mix_original, seed=seed, rounds=rounds, replay=replay, max_length=max_length, matrix=matrix,
        max_eval_cases=max_eval_cases, resume=resume, overwrite=overwrite, models_dir=models_dir, data_root=data_root,
        cache_dir=cache_dir,
    )
    if code:
        raise typer.Exit(code)


def main() -> None:
    try:
        code = app(standalone_mode=False)
    except S2LCTError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        typer.echo("interrupted; finished work is kept, run the same command again to resume", err=True)
        sys.exit(130)
    except Exception as exc:  # click usage errors come through here in non-standalone mode
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        raise
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
