"""The ``s2lct`` command line (typer). Every user error prints one line and exits non-zero."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from s2lct.cli_common import ConfigFile, EngineName, GpusPerWorker, NumWorkers, Quiet, RayAddress, ShowProgress, ThreadsPerWorker, progress_for, settings_for
from s2lct.trust import defaults as trust_defaults

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, help="Specification- and syntax-based linguistic capability tests for sentiment models.")

DataRoot = Annotated[Optional[Path], typer.Option("--data-root", help="Folder with sst/trees/ (env S2LCT_DATA_ROOT, config data_root).")]
CacheDir = Annotated[Optional[Path], typer.Option("--cache-dir", help="Cache folder (env S2LCT_CACHE_DIR, config cache_dir).")]
SpacyModel = Annotated[Optional[str], typer.Option("--spacy-model", help="spaCy pipeline (env S2LCT_SPACY_MODEL, config spacy_model).")]
Parser = Annotated[Optional[str], typer.Option("--parser", help="benepar model name or path (env S2LCT_PARSER, config parser).")]
Mlm = Annotated[Optional[str], typer.Option("--mlm", help="Fill-mask model name or path (env S2LCT_MLM, config mlm).")]
ModelsDir = Annotated[Optional[Path], typer.Option("--models-dir", help="Folder of offline models such as minilm-sst2 (env S2LCT_MODELS_DIR, config models_dir).")]


def _split_ids(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


@app.command()
def validate(paths: Annotated[list[Path], typer.Argument(help="Spec files or folders.")]) -> None:
    """Validate capability specs; print FILE:LINE: message per invalid spec (exit 2)."""
    from s2lct.spec.loader import check_specs

    specs, errors = check_specs(paths)
    for exc in errors:
        typer.echo(str(exc), err=True)
    if errors:
        raise typer.Exit(2)
    typer.echo(f"{len(specs)} spec(s) valid")


@app.command()
def doctor(
    data_root: DataRoot = None,
    cache_dir: CacheDir = None,
    spacy_model: SpacyModel = None,
    parser: Parser = None,
    mlm: Mlm = None,
    models_dir: ModelsDir = None,
    config: ConfigFile = None,
) -> None:
    """Check every configured resource and optional stage at once; print what is found, what is missing and the fix."""
    from rich.console import Console
    from rich.table import Table

    from s2lct.config import find_config_file
    from s2lct.doctor import check_engines, check_resources, check_stages

    flags = dict(data_root=data_root, cache_dir=cache_dir, spacy_model=spacy_model, parser=parser, mlm=mlm, models_dir=models_dir)
    settings = settings_for(config, **flags)
    checks = check_resources(settings, flags) + check_stages() + check_engines()
    file = find_config_file()
    from rich.markup import escape

    console = Console()
    console.print(f"configuration file: {escape(str(file or 'none found (flags, environment, defaults only)'))}", soft_wrap=True)
    table = Table(show_lines=False, caption="from: where the value came from (flag, env, the configuration file, default)", caption_justify="left")
    table.add_column("resource", overflow="fold")
    table.add_column("status", no_wrap=True)
    table.add_column("setting [from]", overflow="fold")
    table.add_column("found", overflow="fold")
    mark = {"ok": "[green]ok[/]", "missing": "[red bold]MISSING[/]", "not set": "[yellow]not set[/]"}
    for c in checks:
        table.add_row(escape(c.resource), mark[c.status], escape(f"{c.key} = {c.value} [{c.source}]"), escape(c.detail))
    console.print(table)
    for c in checks:
        if c.fix:
            console.print(f"[bold]fix {escape(c.resource)}:[/] {escape(c.fix)}", highlight=False, soft_wrap=True)  # never wrapped: the command must copy whole
    missing = [c for c in checks if not c.ok]
    typer.echo(f"{len(missing)} missing" if missing else "everything configured is there")
    if missing:
        raise typer.Exit(1)


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


@app.command("import-checklist")
def import_checklist(
    file: Annotated[Path, typer.Argument(help="CheckList suite exported as JSON (.json or .json.gz).")],
    out: Annotated[Path, typer.Option("--out", help="Suite folder to write (one capability per CheckList test).")],
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace a non-empty --out folder.")] = False,
) -> None:
    """Convert a CheckList suite (MFT, INV, DIR) into a suite folder that `s2lct run` and `pytest --model` run."""
    from s2lct.errors import S2LCTError
    from s2lct.interop.checklist import import_checklist as convert, summary_lines

    try:
        tests = convert(file, out, overwrite=overwrite)
    except S2LCTError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(exc.exit_code) from None
    for line in summary_lines(tests):
        typer.echo(line)
    typer.echo(f"wrote {out}: {len(tests)} tests, {sum(t.cases for t in tests)} cases", err=True)


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
    spacy_model: SpacyModel = None,
    parser: Parser = None,
    mlm: Mlm = None,
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
    corpus: Annotated[Optional[str], typer.Option("--corpus", help="Search seeds in this labelled corpus instead of SST: a CSV/TSV/JSONL/Parquet file, folder or glob of shards (env S2LCT_CORPUS).")] = None,
    text_column: Annotated[Optional[str], typer.Option("--text-column", help="The corpus's text column (default sentence; env S2LCT_CORPUS_TEXT_COLUMN).")] = None,
    label_column: Annotated[Optional[str], typer.Option("--label-column", help="The corpus's label column (default label; env S2LCT_CORPUS_LABEL_COLUMN).")] = None,
    engine: EngineName = "local",
    address: RayAddress = None,
    num_workers: NumWorkers = None,
    threads_per_worker: ThreadsPerWorker = None,
    gpus_per_worker: GpusPerWorker = None,
) -> None:
    """Search seeds, apply transforms (and expand), write one suite file per capability + manifest."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from s2lct.pipeline import generate as run_generate

    from s2lct.scale.engine import get_engine

    settings = settings_for(config, data_root=data_root, cache_dir=cache_dir, spacy_model=spacy_model, parser=parser, mlm=mlm,
                            corpus=corpus, corpus_text_column=text_column, corpus_label_column=label_column)
    with get_engine(engine, address=address, num_workers=num_workers, threads_per_worker=threads_per_worker, gpus_per_worker=gpus_per_worker) as runner, \
            progress_for(quiet, progress) as bars:
        report = run_generate(
            specs, out, settings, seed=seed, only=_split_ids(only), expand=not no_expand,
            compress=gzip, max_cases=max_cases, progress=bars, engine=runner,
        )
    table = Table(title=f"suite written to {out}", title_justify="left")
    # cases: template (seed) cases; with exp.: those with at least one expansion; expansions: expanded cases
    for col in ("id", "seeds", "cases", "with exp.", "expansions", "total"):
        table.add_column(col, justify="left" if col == "id" else "right", no_wrap=True)
    table.add_column("why none (top reasons)", overflow="fold", ratio=1)
    for cap, info in report.manifest["capabilities"].items():
        tally = report.expansion.get(cap)
        why = (tally.reason() or tally.top_reasons() if tally else "not regenerated in this run") or ""
        with_exp = f"{tally.expanded_cases}" if tally is not None and not tally.off else ""
        table.add_row(cap, str(info["seeds"]), str(info["seed_cases"]), with_exp, str(info["expansion_cases"]), str(info["cases"]), escape(why))
    Console(width=min(Console().width, 80)).print(table)


@app.command("docs-checklist", hidden=True)
def docs_checklist(
    specs: Annotated[Optional[list[Path]], typer.Option("--specs", help="Specs folders (repeatable; default: specs and specs/checklist).")] = None,
    export: Annotated[Optional[Path], typer.Option("--export", help="CheckList export (default: <data root>/checklist/sentiment_suite_export.json.gz).")] = None,
    doc: Annotated[Path, typer.Option("--doc", help="Markdown file whose mapping block is rewritten.")] = Path("docs/checklist.md"),
    config: ConfigFile = None,
) -> None:
    """Rewrite the CheckList-to-spec mapping table of docs/checklist.md from the specs."""
    from s2lct.atomic import write_text
    from s2lct.interop.checklist import MAPPING_BEGIN, MAPPING_END, mapping_markdown, read_export
    from s2lct.spec import load_specs

    settings = settings_for(config)
    folders = specs or [Path("specs"), Path("specs/checklist")]
    table = mapping_markdown(read_export(export or settings.data_root / "checklist" / "sentiment_suite_export.json.gz"), load_specs(folders))
    text = doc.read_text(encoding="utf-8")
    start, end = text.index(MAPPING_BEGIN), text.index(MAPPING_END) + len(MAPPING_END)
    write_text(doc, text[:start] + table + text[end:])


@app.command("docs-counts", hidden=True)
def docs_counts(
    suite: Annotated[Path, typer.Option("--suite", help="Suite folder to count.")] = Path("generated"),
    doc: Annotated[Path, typer.Option("--doc", help="Markdown file holding the suite-counts block.")] = Path("docs/specs.md"),
) -> None:
    """Maintenance: rewrite the suite-counts block of the docs from the suite files."""
    from s2lct.suite_counts import rewrite_doc

    typer.echo(f"{doc}: {'counts rewritten' if rewrite_doc(doc, suite) else 'counts already current'}")


@app.command()
def run(
    model: Annotated[list[str], typer.Option("--model", "-m", help="Model alias (vader, textblob, bert, roberta, distilbert, minilm-sst2), HF folder or hub name; repeatable or comma-separated.")],
    suite: Annotated[Path, typer.Option("--suite", help="Suite folder.")] = Path("generated"),
    only: Annotated[Optional[str], typer.Option("--only", help="Comma-separated capability ids to run, e.g. LC4,CMP1 (default: all).")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write the JSON report here.")] = None,
    report: Annotated[Optional[Path], typer.Option("--report", help="Write a report: .json, .md or .html by suffix.")] = None,
    max_cases_per_capability: Annotated[Optional[int], typer.Option("--max-cases-per-capability", min=1, help="Sample at most N cases per capability (fixed seed).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the per-capability sample.")] = 0,
    batch_size: Annotated[Optional[int], typer.Option("--batch-size", min=1, help="Inference batch size.")] = None,
    models_dir: ModelsDir = None,
    label_map: Annotated[Optional[str], typer.Option("--label-map", help="Map model classes to labels, e.g. 0=negative,1=positive.")] = None,
    neutral_band: Annotated[Optional[str], typer.Option("--neutral-band", help="LOW,HIGH neutral band (binary models: on p(positive); default 0.3333,0.6667).")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write the prediction cache.")] = False,
    cache_dir: CacheDir = None,
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
    no_task: Annotated[bool, typer.Option("--no-task-metrics", help="Do not measure accuracy and macro-F1 on the seeds' data set (SST test) beside the table.")] = False,
    min_pass_rate: Annotated[Optional[str], typer.Option("--min-pass-rate", help="CI gate: exit 3 when a capability's pass rate is below this (0.8, or LC4=0.9,0.8 per capability; default: the specs' min_pass_rate, $S2LCT_MIN_PASS_RATE).")] = None,
    engine: EngineName = "local",
    address: RayAddress = None,
    num_workers: NumWorkers = None,
    threads_per_worker: ThreadsPerWorker = None,
    gpus_per_worker: GpusPerWorker = None,
) -> None:
    """Run a suite against models: print failures per capability, optionally write reports."""
    from s2lct.run.runner import run_command
    from s2lct.scale.engine import get_engine

    settings = settings_for(config, models_dir=models_dir, cache_dir=cache_dir)
    models_dir = settings.models_dir
    with get_engine(engine, address=address, num_workers=num_workers, threads_per_worker=threads_per_worker, gpus_per_worker=gpus_per_worker) as runner:
        code = run_command(
            model, suite, json_path=json_out, report_path=report, max_cases_per_capability=max_cases_per_capability,
            seed=seed, batch_size=batch_size, models_dir=models_dir, label_map=label_map, neutral_band=neutral_band,
            use_cache=not no_cache, quiet=quiet, force_progress=progress, only=_split_ids(only), min_pass_rate=min_pass_rate,
            task=not no_task, engine=runner if engine != "local" else None,
        )
    if code:
        raise typer.Exit(code)


@app.command()
def explain(
    model: Annotated[str, typer.Option("--model", "-m", help="Model alias, HF folder or hub name.")],
    out: Annotated[Path, typer.Option("--out", help="Output folder (explanations.jsonl, summary.json, report.html); resumable.")],
    suite: Annotated[Path, typer.Option("--suite", help="Suite folder.")] = Path("generated"),
    only: Annotated[Optional[str], typer.Option("--only", help="Comma-separated capability ids, e.g. LC4,LC7.")] = None,
    explainers: Annotated[Optional[str], typer.Option("--explainers", help="Comma-separated explainer names (default: ig,occlusion1,limsse_ms_p where they apply).")] = None,
    max_failures_per_capability: Annotated[Optional[int], typer.Option("--max-failures-per-capability", min=1, help="Explain at most N failures per capability (fixed-seed sample).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the per-capability sample.")] = 0,
    models_dir: Annotated[Optional[Path], typer.Option("--models-dir", help="Folder of offline models (env S2LCT_MODELS_DIR).")] = None,
    batch_size: Annotated[Optional[int], typer.Option("--batch-size", min=1, help="Prediction batch size.")] = None,
    threads: Annotated[Optional[int], typer.Option("--threads", min=1, help="torch CPU threads.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Do not read or write the prediction cache.")] = False,
    cache_dir: CacheDir = None,
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
    show: Annotated[int, typer.Option("--show", min=0, help="Print the first N explained failures per capability.")] = 1,
) -> None:
    """Explain every failing case: word relevances per explainer and where the blame falls.

    When `s2lct trust` has made a card for this model, the default explainer is the card's
    best-ranked one and every explanation shows its trust score."""
    from s2lct.explain.command import explain_command
    from s2lct.trust.command import explain_defaults

    settings = settings_for(config, models_dir=models_dir, cache_dir=cache_dir)
    explainers, verdicts, note = explain_defaults(model, explainers, models_dir=models_dir, cache_dir=settings.cache_dir)
    if note:
        typer.echo(note, err=True)
    code = explain_command(model, suite, out, only=only, explainers=explainers, max_failures_per_capability=max_failures_per_capability,
                           seed=seed, models_dir=models_dir, batch_size=batch_size, use_cache=not no_cache, quiet=quiet, threads=threads,
                           verdicts=verdicts, show=show, force_progress=progress)
    if code:
        raise typer.Exit(code)


@app.command()
def trust(
    model: Annotated[str, typer.Option("--model", "-m", help="Model alias, HF folder or hub name.")],
    out: Annotated[Path, typer.Option("--out", help="Output folder (card.json, card.html).")],
    explainers: Annotated[Optional[str], typer.Option("--explainers", help="Comma-separated explainer names (default: every registered one that applies).")] = None,
    documents: Annotated[int, typer.Option("--documents", min=1, help="Hybrid documents to build (before discarding).")] = trust_defaults.DOCUMENTS,
    fragments: Annotated[int, typer.Option("--fragments", min=2, help="Sentences per hybrid document.")] = trust_defaults.FRAGMENTS,
    table: Annotated[Optional[Path], typer.Option("--table", help="Labelled CSV/TSV/JSONL table instead of SST test+dev.")] = None,
    agreement_items: Annotated[int, typer.Option("--agreement-items", min=0, help="Agreement prefixes to score (spread over the sources).")] = trust_defaults.AGREEMENT_ITEMS,
    probe_items: Annotated[int, typer.Option("--probe-items", min=10, help="PTB prefixes to train the number probe on.")] = trust_defaults.PROBE_ITEMS,
    suite: Annotated[Optional[Path], typer.Option("--suite", help="Suite folder whose failing cases give the suite-level pointing game.")] = Path("generated"),
    suite_cases: Annotated[int, typer.Option("--suite-cases", min=0, help="Failing cases to score (spread over capabilities).")] = trust_defaults.SUITE_CASES,
    faithfulness_texts: Annotated[int, typer.Option("--faithfulness-texts", min=0, help="SST sentences for input and model consistency (0: skip faithfulness).")] = trust_defaults.FAITHFULNESS_TEXTS,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every sample (documents, prefixes, cases, bootstrap).")] = 0,
    models_dir: Annotated[Optional[Path], typer.Option("--models-dir", help="Folder of offline models (env S2LCT_MODELS_DIR).")] = None,
    data_root: DataRoot = None,
    cache_dir: CacheDir = None,
    threads: Annotated[Optional[int], typer.Option("--threads", min=1, help="torch CPU threads (shared by the workers).")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", min=1, help="Processes explaining items (default: one per thread, at most 4, for a torch model on the CPU; else 1). The card does not depend on it.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Recompute the card (no cached card, no resume).")] = False,
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
) -> None:
    """Explainer report card: pointing game on hybrid documents, agreement on a probe, suite failures; ranked."""
    from s2lct.trust.card import CardOptions
    from s2lct.trust.command import trust_command

    opts = CardOptions(explainers=_split_ids(explainers), documents=documents, fragments=fragments,
                       table=str(table) if table else None, agreement_items=agreement_items, probe_items=probe_items,
                       suite=str(suite) if suite and suite_cases else None, composite_cases=suite_cases or None,
                       faithfulness_texts=faithfulness_texts, seed=seed)
    settings_for(config, data_root=data_root, cache_dir=cache_dir, models_dir=models_dir)
    code = trust_command(model, out, opts, models_dir=models_dir, data_root=data_root, cache_dir=cache_dir,
                         use_cache=not no_cache, quiet=quiet, threads=threads, workers=workers, force_progress=progress)
    if code:
        raise typer.Exit(code)


@app.command("build-task-model")
def build_task_model(
    name: Annotated[str, typer.Argument(help="Task model to train: cnn-sst2 or gru-sst2 (Poerner et al.'s CNN and bidirectional GRU), or gru-number (the GRU's agreement task).")],
    epochs: Annotated[int, typer.Option("--epochs", min=1, help="Epochs over SST-2 train; the best on SST-2 dev is kept.")] = 4,
    seed: Annotated[int, typer.Option("--seed", help="Seed of initialisation and shuffling.")] = 0,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write here instead of <cache dir>/task-models/NAME.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Retrain even when the model is already built.")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", min=1, help="torch CPU threads while training.")] = None,
    data_root: DataRoot = None,
    cache_dir: CacheDir = None,
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
) -> None:
    """Train one of the papers' task models on SST-2 into the cache (minutes on a laptop CPU); weights are never shipped."""
    from s2lct.models.task.build import build_task_model as build
    from s2lct.models.task.training import TrainingOptions

    settings = settings_for(config, data_root=data_root, cache_dir=cache_dir)
    with progress_for(quiet, progress) as bars:
        folder, info = build(name, opts=TrainingOptions(epochs=epochs, seed=seed, threads=threads), out=out, force=force,
                             cache_dir=settings.cache_dir, data_root=settings.data_root, progress=bars, log=bars.log)
    if not quiet:
        if info is None:
            typer.echo(f"{name}: already built in {folder} (--force retrains)")
        else:
            t = info["training"]
            what = "held-out accuracy" if name.strip().lower().endswith("-number") else "SST-2 dev accuracy"
            typer.echo(f"{name}: {what} {t['dev_accuracy']:.4f} (epoch {t['best_epoch']} of {t['epochs']}, "
                       f"{t['seconds']:.0f} s) -> {folder}")


# --- human-grounded task kit (Lertvittayakumjorn & Toni 2019, §3): export questions, score answers ---


@app.command("export-human-tasks")
def export_human_tasks(
    model: Annotated[str, typer.Option("--model", "-m", help="The well-trained model under test: alias, HF folder or hub name.")],
    explainer: Annotated[str, typer.Option("--explainer", "-e", help="Explainer to judge (comma-separated for several, on the same inputs).")],
    out: Annotated[Path, typer.Option("--out", help="Kit folder: one CSV per task, answers.csv, form.html; the answer key in key/.")],
    other_model: Annotated[Optional[str], typer.Option("--other-model", help="Task 1's worse model (default: vader; textblob when --model is vader).")] = None,
    questions: Annotated[int, typer.Option("--questions", "-n", min=1, help="Inputs per task (each explainer gets a question on each; half correctly classified, half not).")] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the inputs, the A/B sides and the question order: same inputs and seed give identical files.")] = 0,
    table: Annotated[Optional[Path], typer.Option("--table", help="Labelled CSV/TSV/JSONL table instead of SST test+dev.")] = None,
    models_dir: ModelsDir = None,
    data_root: DataRoot = None,
    cache_dir: CacheDir = None,
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
) -> None:
    """Human-grounded task kit: which model is more reasonable, guess the prediction, decide an uncertain case."""
    from s2lct.trust.human_tasks.command import export_command

    settings = settings_for(config, data_root=data_root, cache_dir=cache_dir, models_dir=models_dir)
    code = export_command(model, explainer, out, other_model=other_model, inputs=questions, seed=seed, models_dir=settings.models_dir,
                          data_root=settings.data_root, table=table, quiet=quiet, force_progress=progress)
    if code:
        raise typer.Exit(code)


@app.command("score-human-tasks")
def score_human_tasks(
    answers: Annotated[list[Path], typer.Argument(help="Answers CSV(s) with question_id, answer, confidence: one file per participant.")],
    key: Annotated[Optional[Path], typer.Option("--key", help="The kit folder or its key/answer_key.json (default: the kit folder the first answers file is in).")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Also write the scores as JSON here.")] = None,
) -> None:
    """Score answers to a human task kit per task and explainer (the paper's points, share right)."""
    from s2lct.trust.human_tasks.command import score_command

    code = score_command(answers, key, json_out)
    if code:
        raise typer.Exit(code)


# --- end of the human-grounded task kit ---


@app.command()
def compare(
    suite_a: Annotated[Path, typer.Argument(help="First suite folder (e.g. an imported CheckList suite).")],
    suite_b: Annotated[list[Path], typer.Argument(help="Second suite folder(s), counted as one suite (e.g. generated generated/checklist).")],
    model: Annotated[str, typer.Option("--model", "-m", help="Model alias, HF folder or hub name.")],
    max_cases_per_capability: Annotated[Optional[int], typer.Option("--max-cases-per-capability", min=1, help="Sample at most N cases per capability (fixed seed).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the per-capability sample.")] = 0,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Also write the rows as JSON.")] = None,
    models_dir: ModelsDir = None,
    cache_dir: CacheDir = None,
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
) -> None:
    """One model on two suites: failure rates side by side, matched through the CheckList tests each spec covers."""
    import json

    from rich.console import Console

    from s2lct.atomic import write_text
    from s2lct.errors import S2LCTError
    from s2lct.run.compare import compare_suites, render_comparison

    settings = settings_for(config, models_dir=models_dir, cache_dir=cache_dir)
    try:
        with progress_for(quiet, progress) as bars:
            rows, _, _ = compare_suites(model, suite_a, suite_b, max_cases_per_capability=max_cases_per_capability, seed=seed,
                                        models_dir=settings.models_dir, progress=bars)
    except S2LCTError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(exc.exit_code) from None
    console = Console(highlight=False)
    console.width = max(console.width, 120)  # the test names are long: fold them, not the numbers
    console.print(render_comparison(rows, model, suite_a.name, "+".join(p.name for p in suite_b)))
    if json_out is not None:
        write_text(json_out, json.dumps({"model": model, "a": str(suite_a), "b": [str(p) for p in suite_b], "rows": [r.to_json() for r in rows]},
                                        ensure_ascii=False, indent=2) + "\n")


@app.command()
def diversity(
    suite: Annotated[Path, typer.Option("--suite", help="Suite folder.")] = Path("generated"),
    only: Annotated[Optional[str], typer.Option("--only", help="Comma-separated capability ids.")] = None,
    sample: Annotated[int, typer.Option("--sample", min=2, help="Cases per column for Self-BLEU (both columns the same size, at most the seed cases).")] = 200,
    bootstrap: Annotated[int, typer.Option("--bootstrap", min=10, help="Bootstrap resamples for the Self-BLEU 95% interval.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Sampling seed.")] = 0,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Also write the figures as JSON (every number, unrounded, with the interval ends).")] = None,
    max_cases_per_capability: Annotated[Optional[int], typer.Option("--max-cases-per-capability", min=2, help="Sample each capability down to N cases first (seeded): large template suites without parsing every case.")] = None,
    parser: Parser = None,
    cache_dir: CacheDir = None,
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
) -> None:
    """Self-BLEU (lower = more diverse, equal-size samples, 95% bootstrap interval) and distinct
    grammar productions (every case, and an equal-size sample), seeds vs seeds+expansions."""
    import json

    from rich.console import Console

    from s2lct.atomic import write_text
    from s2lct.expand.diversity import diversity_report, diversity_table

    settings_for(config, parser=parser, cache_dir=cache_dir)
    with progress_for(quiet, progress) as bars:
        report = diversity_report(suite, only=_split_ids(only), sample=sample, bootstrap=bootstrap, seed=seed, progress=bars,
                                  max_cases=max_cases_per_capability)
    Console().print(diversity_table(report, f"diversity of {suite}"))
    if json_out:
        write_text(json_out, json.dumps(report, indent=2, sort_keys=True) + "\n")


@app.command()
def retrain(
    model: Annotated[str, typer.Option("--model", "-m", help="Hugging Face model to fine-tune: alias (bert, roberta, distilbert, minilm-sst2), folder or hub name.")],
    out: Annotated[Path, typer.Option("--out", help="Run folder: split, checkpoints, model/, accounting.json/.md, plots.")],
    capability: Annotated[Optional[str], typer.Option("--capability", "-c", help="Capabilities to retrain on, e.g. LC4,LC8 (--matrix: default all).")] = None,
    suite: Annotated[Path, typer.Option("--suite", help="Suite folder.")] = Path("generated"),
    method: Annotated[Optional[str], typer.Option("--method", help="Training recipe: finetune, mix, balanced, early-stop, lora, l2sp, mix-joint (default; docs/retraining.md). Options below override it.")] = None,
    epochs: Annotated[Optional[float], typer.Option("--epochs", help="Epochs per round (paper: 1).")] = None,
    batch_size: Annotated[Optional[int], typer.Option("--batch-size", help="Training batch size (paper: 16).")] = None,
    lr: Annotated[Optional[float], typer.Option("--lr", help="Learning rate (AdamW, linear decay; paper: 5e-5).")] = None,
    mix_original: Annotated[Optional[float], typer.Option("--mix-original", help="SST-2 train sentences added per training case (0 = none).")] = None,
    balance: Annotated[Optional[bool], typer.Option("--balance/--no-balance", help="Pair each one-sided case with an opposite-label SST-2 sentence in its batch.")] = None,
    l2sp: Annotated[Optional[float], typer.Option("--l2sp", help="Strength of the pull towards the starting weights (L2-SP; 0 = off).")] = None,
    lora_rank: Annotated[Optional[int], typer.Option("--lora-rank", help="Train LoRA adapters of this rank (peft), merged on save (0 = full fine-tuning).")] = None,
    select: Annotated[Optional[str], typer.Option("--select", help="Checkpoint kept: validation (best pass rate) or joint (pass rate and held-out SST-2 accuracy).")] = None,
    patience: Annotated[Optional[int], typer.Option("--patience", min=1, help="Stop after N evaluations without a better checkpoint.")] = None,
    protocol: Annotated[str, typer.Option("--protocol", help="seed: 8:1:1 split by seed; beluga: + unseen-template and unseen-function partitions.")] = "seed",
    groups: Annotated[Optional[str], typer.Option("--groups", help="beluga: capability groups, e.g. 'negation=LC4,LC5,LC6,LC7;contrast=LC3,LC8' (default: from spec markers).")] = None,
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
    config: ConfigFile = None,
    quiet: Quiet = False,
    progress: ShowProgress = False,
) -> None:
    """Fine-tune on generated cases (8:1:1 by seed) and account per capability for every case fixed and broken."""
    from s2lct.retrain.command import retrain_command

    settings_for(config, data_root=data_root, cache_dir=cache_dir, models_dir=models_dir)
    code = retrain_command(
        model, capability, out, quiet=quiet, force_progress=progress, suite=suite, method=method, epochs=epochs,
        batch_size=batch_size, lr=lr, mix_original=mix_original, balance=balance, l2sp=l2sp, lora_rank=lora_rank, select=select,
        patience=patience, protocol=protocol, groups=groups, seed=seed, rounds=rounds, replay=replay, max_length=max_length, matrix=matrix,
        max_eval_cases=max_eval_cases, resume=resume, overwrite=overwrite, models_dir=models_dir, data_root=data_root,
        cache_dir=cache_dir,
    )
    if code:
        raise typer.Exit(code)


def main(args: list[str] | None = None) -> None:
    from s2lct.cli_common import run_app

    sys.exit(run_app(app, args))


if __name__ == "__main__":
    main()
