"""Connecting to Ray: a local cluster or an existing one, with this process's settings on every worker.

Ray is an optional extra (``pip install 's2lct[ray]'``); nothing outside ``s2lct.scale`` imports
it, and a run without ``--engine ray`` never does. Workers read their settings the way every
s2lct process does (``S2LCT_*`` variables, ``NLTK_DATA``, the offline switches of transformers),
so the driver ships exactly those variables in the job's runtime environment: a worker on another
machine then finds the same models, data and cache paths (which must exist there).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from s2lct.errors import S2LCTError

#: what ``--engine`` accepts; "local" is the default and never imports Ray
ENGINES = ("local", "ray")
EXTRA_HINT = "pip install 's2lct[ray]'"

#: environment variables every worker needs to see what the driver sees
_FORWARDED_PREFIXES = ("S2LCT_",)
_FORWARDED = ("NLTK_DATA", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HOME", "TOKENIZERS_PARALLELISM")


def import_ray() -> Any:
    """``ray`` with Ray Data, or a one-line error naming the extra that installs it."""
    try:
        import ray
        import ray.data  # noqa: F401  (needs pandas and pyarrow: the extra brings them)
    except ImportError as exc:
        raise S2LCTError(f"--engine ray needs Ray Data, which is not installed ({exc.name or exc}); install it with {EXTRA_HINT}") from None
    return ray


@dataclass(frozen=True)
class RayOptions:
    """Where and how wide to run: ``address`` None starts a local cluster of ``num_workers`` CPUs;
    "auto" or "ray://HOST:PORT" joins a running one. ``num_workers`` actors per stage (None: one
    per CPU the cluster has). ``fault_after`` is a fault-injection hook for tests and drills: the
    worker that starts chunk number ``fault_after`` kills its own process once (``fault_marker``
    remembers that it did), and Ray must retry the chunk on a new worker.

    ``threads_per_worker``: a matrix product's float sums depend on how many threads split it, so
    a masked-LM score can differ in its last kept digit between 1 and 2 threads. By default every
    actor computes with this process's torch thread count, so the suite is byte-identical to a
    local run here; fewer threads per actor (1, with one actor per core) is faster and may move a
    score's last digit."""

    address: str | None = None
    num_workers: int | None = None
    threads_per_worker: int | None = None  # torch threads of each actor; None: this process's count (see below)
    cpus_per_worker: float = 1.0
    gpus_per_worker: float = 0.0
    fault_after: int | None = None
    fault_marker: str | None = None
    fault_stage: str = "expand"

    def __post_init__(self) -> None:
        if self.threads_per_worker is not None and self.threads_per_worker < 1:
            raise S2LCTError(f"--threads-per-worker: {self.threads_per_worker} is not a thread count; give 1 or more")
        if self.num_workers is not None and self.num_workers < 1:
            raise S2LCTError(f"--num-workers: {self.num_workers} is not a worker count; give 1 or more")
        if self.address is not None and not (self.address == "auto" or self.address.startswith("ray://") or ":" in self.address):
            raise S2LCTError(f"--address: {self.address!r} is not a Ray address; give auto, ray://HOST:PORT or HOST:PORT")


def local_threads() -> int:
    """This process's torch thread count (1 without torch): what actors use by default."""
    try:
        import torch
    except ImportError:
        return 1
    return torch.get_num_threads()


def set_threads(n: int) -> None:
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(n)


def forwarded_environment() -> dict[str, str]:
    """The variables a worker must share with this process (see the module docstring)."""
    return {k: v for k, v in os.environ.items() if k.startswith(_FORWARDED_PREFIXES) or k in _FORWARDED}


def connect(options: RayOptions) -> Any:
    """Initialise Ray once for this process (a no-op when it already is); return the module."""
    ray = import_ray()
    if ray.is_initialized():
        return ray
    env = {"env_vars": forwarded_environment()}
    kwargs: dict[str, Any] = {"runtime_env": env, "include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if options.address is None:
        cpus = options.num_workers if options.num_workers is not None else os.cpu_count() or 1
        kwargs["num_cpus"] = max(1, int(cpus * options.cpus_per_worker + 0.999))
    else:
        kwargs["address"] = options.address
    try:
        ray.init(**kwargs)
    except ConnectionError as exc:
        raise S2LCTError(f"--address {options.address}: no Ray cluster answers there ({str(exc).splitlines()[0][:120]}); start one with `ray start --head`") from None
    quiet_ray_data()
    return ray


def quiet_ray_data() -> None:
    """Ray Data prints an execution plan and a progress table per dataset; s2lct shows its own bars."""
    import ray.data

    import logging

    for name in ("ray", "ray.data"):
        logging.getLogger(name).setLevel(logging.ERROR)
    ctx = ray.data.DataContext.get_current()
    for name in ("enable_progress_bars", "enable_operator_progress_bars", "print_on_execution_start"):
        if hasattr(ctx, name):
            setattr(ctx, name, False)


def worker_count(options: RayOptions) -> int:
    """Actors per stage: the option, or as many as the cluster's CPUs allow."""
    if options.num_workers is not None:
        return options.num_workers
    ray = import_ray()
    cpus = ray.cluster_resources().get("CPU", 1)
    return max(1, int(cpus // max(options.cpus_per_worker, 1e-9)))


def maybe_fault(options: RayOptions, index: int) -> None:
    """The fault-injection hook (see ``RayOptions``): kill this worker process, once."""
    if options.fault_after is None or index != options.fault_after or options.fault_marker is None:
        return
    try:
        fd = os.open(options.fault_marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return  # already done once: this is Ray's retry
    os.close(fd)
    os._exit(17)
