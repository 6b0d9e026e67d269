"""The ``multiway`` stage: Monte Carlo equity of every class against 1..9 random opponents.

The flow, one module each:

* :mod:`.controls`: the control-variate inputs (exact heads-up probabilities, :mod:`.percentile` control);
* :mod:`.simulator`: blocks of deals of one shard counted into the integer tally (CPU or CUDA);
* :mod:`.runner`: the sampling loop, stopped by a :class:`~.runner.StopPolicy` or a request;
* :mod:`.checkpoint`: the state on disk (locked, rotated, resumable, mergeable);
* :mod:`.document`: estimates → ``site/data/multiway.json`` and ``.csv``.

:func:`run_multiway` ties them together for the CLI: it takes the checkpoint's lock, resumes it,
samples with a progress bar, saves every ``checkpoint_every`` (checkpoint and data files), and on
Ctrl-C / SIGTERM stops after the current pass and saves (:class:`~generator.core.interrupts.StoppedAndSaved`). A
different seed or sampling code (``CODE_VERSION``) names a different checkpoint, so such a run
starts afresh and never mixes samples; ``kill -9`` loses at most the work since the last save.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path

from tqdm import tqdm

from generator.core import interrupts
from generator.data.datafiles import write_live_status
from kernels.multiway.control_variates import Z_975
from kernels.multiway.layout import MAX_SEATS, PLAYER_COUNTS

from .checkpoint import CODE_VERSION, KERNELS, Checkpoint, CheckpointLock, MultiwayState, checkpoint_path, merge_checkpoints, stale_checkpoints_note
from generator.compute.multiway_controls import MultiwayControls, multiway_controls, percentile_control
from .document import estimate_table, multiway_document, worst_se, write_outputs
from .runner import Progress, StopPolicy, sample
from generator.compute.multiway_simulator import Simulator

__all__ = [
    "CODE_VERSION", "MultiwayControls", "MultiwayState", "StopPolicy", "checkpoint_path",
    "merge_checkpoints", "multiway_controls", "percentile_control", "run_multiway",
]


def eta_text(seconds: float | None) -> str:
    """An estimate of time left in words a progress line can hold: ``45s``, ``12m``, ``3.5h``, ``9d``, ``over a year``."""
    if seconds is None:
        return "?"
    for unit, size, digits in (("s", 1, 0), ("m", 60, 0), ("h", 3600, 1), ("d", 86400, 0)):
        if seconds < 60 * size or unit == "d" and seconds < 365 * 86400:
            return f"{seconds / size:.{digits}f}{unit}"
    return "over a year"


def _progress_text(progress: Progress) -> str:
    worst = "±?" if progress.worst_se is None else f"±{Z_975 * progress.worst_se:.1e}"
    target = f"ETA {eta_text(progress.eta_s)}"
    return (
        f"{progress.deals_per_s / 1e6:.2f}M deals/s, {progress.deals_per_s * MAX_SEATS * len(PLAYER_COUNTS) / 1e6:.0f}M samples/s, "
        f"worst {worst} (95% CI), target {target}"
    )


def run_multiway(run, site_dir: Path, controls: MultiwayControls) -> dict:
    """Resume the checkpoint and simulate until the run's budget passes, every cell's se ≤ its target se, or the
    shard holds its ``max_deals`` deals (rounded up to whole blocks); returns the ``multiway.json`` object. ``run``:
    the resolved settings (:class:`generator.compute.run.Run`: ``run.multiway``, the backends, ``run.cluster``).

    Saves the checkpoint and rewrites ``site_dir/data/multiway.{json,csv}`` every
    ``multiway.checkpoint_every`` of the configuration and at the end. Raises
    :class:`~generator.core.interrupts.StoppedAndSaved` after a Ctrl-C / SIGTERM, with everything up to the last
    finished pass saved, and :class:`~generator.core.errors.InputError` if another run holds the checkpoint.

    With ``run.cluster`` (``local:N`` or ``tcp://host:port``) the blocks are computed by Dask workers
    (:mod:`.cluster`), with the same counts; they receive ``--backend`` as given (``auto``: each worker takes its own
    GPU if it has one), and the published ``meta.backend`` is this machine's resolution of it.
    """
    settings, backend, cluster, progress = run.multiway, run.backend, run.cluster, run.progress
    seed, shard, budget_seconds, target_se = settings.seed, settings.shard, settings.budget_seconds, settings.target_se
    checkpoint_seconds = run.config.multiway.checkpoint_seconds
    path = checkpoint_path(seed)
    with CheckpointLock(path), ExitStack() as resources:
        checkpoint = Checkpoint(path, warn=lambda line: tqdm.write(line, file=sys.stderr))
        state = checkpoint.load(seed)
        note = stale_checkpoints_note(path) if state.deals == 0 else None
        if note and progress:
            tqdm.write(note, file=sys.stderr)
        if cluster:
            from generator.compute.cluster import check_code_version, connect, gpu_task_resources

            from .cluster import ClusterSimulator

            client = resources.enter_context(connect(cluster))
            check_code_version(client, KERNELS)
            simulator = ClusterSimulator(client, run.requested_backend, seed, shard, controls.percentile,
                                         gpu_task_resources(client) if run.requested_backend == "gpu" else None)
        else:
            simulator = Simulator(backend, seed, shard, controls.percentile)

        def save() -> dict:
            checkpoint.save(state)
            document = multiway_document(state, estimate_table(state, controls), backend)
            write_outputs(site_dir, document)
            write_live_status(site_dir, True, document["meta"]["generated"], checkpoint_seconds)
            return document

        bar = tqdm(total=round(budget_seconds), unit="s", desc="multiway", disable=not progress, mininterval=1.0,
                   bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f}s [{elapsed}<{remaining}{postfix}]")

        def show(snapshot: Progress) -> None:
            bar.set_postfix_str(_progress_text(snapshot), refresh=False)  # redrawn by update() at most once a second
            bar.update(min(snapshot.elapsed_s, budget_seconds) - bar.n)

        document = None
        write_live_status(site_dir, True, None, checkpoint_seconds)  # chart pages on localhost start polling
        try:
            with bar, interrupts.deferred():  # a stop request ends the loop after the current pass, never inside it
                reason = sample(
                    state, simulator, shard, StopPolicy(budget_seconds, target_se, settings.max_deals),
                    lambda s: worst_se(estimate_table(s, controls)),
                    checkpoint_seconds=checkpoint_seconds, on_checkpoint=save, on_progress=show,
                    should_stop=interrupts.requested,
                )
                document = save()
        finally:  # the run is over (finished, stopped or failed): pages stop polling
            write_live_status(site_dir, False, document["meta"]["generated"] if document else None)
    if reason == "requested":
        raise interrupts.StoppedAndSaved(f"{document['meta']['deals']:,} deals saved in {path}", document)
    return document


def results(run, inputs: dict) -> dict:
    """The registry's accessor (:mod:`generator.compute.registry`): the ``multiway.json`` object of the samples the run's
    seed has saved so far (none added)."""
    state = Checkpoint(checkpoint_path(run.multiway.seed), warn=lambda _: None).load(run.multiway.seed)
    return multiway_document(state, estimate_table(state, multiway_controls(inputs["headsup"][0])), run.backend)


def write(run, site_dir: Path, inputs: dict) -> dict:
    """Add samples to the checkpoint within the run's budget and targets, writing ``multiway.json`` as it goes (on Dask
    workers with ``--cluster``); raises :class:`~generator.core.interrupts.StoppedAndSaved` on Ctrl-C."""
    return run_multiway(run, site_dir, multiway_controls(inputs["headsup"][0]))


def merge(first: Path, second: Path, output: Path) -> str:
    """``allin merge``: two checkpoints of different shards added into ``output``; what it holds, in words."""
    merged = merge_checkpoints(first, second, output)
    return f"{merged.deals:,} deals from shards {sorted(merged.blocks)}"
