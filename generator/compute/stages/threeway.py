"""The ``threeway`` stage: class-triple showdown orderings by Monte Carlo, for 3-way push/fold pots.

For every unordered class triple (818,805, repeats included) the integer counts of the 13 weak
orderings of the three hands (``kernels.threeway``: one board shared by every triple, one uniform
combo per class, rejected unless all cards are distinct). The state is those counts plus the boards
done per shard, in ``<cache>/threeway-<key>.npz`` (key = code version + seed; checksummed, written
atomically): a rerun with a larger ``boards`` target resumes where the last one stopped, and
checkpoints of different shards add up (:func:`merge_checkpoints`). Card-impossible triples (no
compatible combo triple, e.g. AA AA AA) are never sampled.

:func:`threeway_table` turns counts into what the push/fold solver uses: ordering probabilities,
each seat's equity (win + ties shared) and its standard error, and :func:`quantised_equities`
packs equities into uint16 with a stated bound.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, NamedTuple

import click
import numpy as np

from generator.compute.units import unit_runner
from generator.core import interrupts
from generator.core.cache import cache_dir, cache_key, cached_arrays
from generator.core.config import ThreewaySettings
from generator.core.progress import progress_bar
from generator.core.provenance import code_version
from generator.core.storage import CorruptFileError, load_arrays, save_arrays
from generator.compute.threeway_bin import ThreewayTable, ordering_shares
from kernels.sampling.rng import shard_key
from kernels.threeway.core import N_ORDERINGS, N_TRIPLES, triple_classes

KERNELS = ("kernels.threeway.cpu", "kernels.threeway.gpu")
CODE_VERSION = code_version(*KERNELS)
SEED = ThreewaySettings.seed
#: Boards of the default build (``threeway.boards`` in the configuration): ≈ 1,640 accepted samples for the median triple, equity se ≈ 0.012
#: (median; 0.018 at the 99th percentile); 2,048 boards measured 0.0171 / 0.0259 and 47 s of CPU time.
BOARDS = ThreewaySettings.boards
#: Boards per kernel launch on the CPU (progress and interrupts are checked between batches).
BATCH_BOARDS = 32
#: Boards per launch on a GPU: every launch copies the triples, their classes and zeroed counts to the device and
#: the counts back (≈ 110 MB). Measured on an H200: 657 boards/s at 32 boards a launch, 9,195 boards/s at 1,024
#: (8,192 boards, the same counts).
GPU_BATCH_BOARDS = 1024
#: On a cluster, runs of boards per worker thread: each unit sends back a (possible triples, 13) uint32 count array
#: (42.6 MB), so few and long, yet enough to share the boards out when a worker is lost.
UNITS_PER_THREAD = 2
#: Seconds between two saves of the checkpoint while a run goes on (and one at its end, or when it stops).
SAVE_EVERY_S = 20.0
#: Quantised equities: round(equity · QUANT) in uint16, so the rounding error is at most 1 / (2 · QUANT).
QUANT = 65535
QUANT_BOUND = 1 / (2 * QUANT)


class Checkpoint(NamedTuple):
    """``counts`` (N_TRIPLES, 13) uint32; ``shards``/``boards`` (k,) int64: boards done per shard (0..boards−1 each)."""

    counts: np.ndarray
    shards: np.ndarray
    boards: np.ndarray

    @property
    def total_boards(self) -> int:
        return int(self.boards.sum())


def checkpoint_path(seed: int = SEED) -> Path:
    return cache_dir() / f"threeway-{cache_key(CODE_VERSION, seed)}.npz"


def empty_checkpoint() -> Checkpoint:
    """No boards of any shard."""
    return Checkpoint(np.zeros((N_TRIPLES, N_ORDERINGS), dtype=np.uint32), np.zeros(0, np.int64), np.zeros(0, np.int64))


def load_checkpoint(path: Path) -> Checkpoint:
    """The checkpoint at ``path``, or an empty one if there is none (a damaged file raises CorruptFileError)."""
    if not Path(path).exists():
        return empty_checkpoint()
    arrays = load_arrays(path)
    return Checkpoint(arrays["counts"], arrays["shards"], arrays["boards"])


def save_checkpoint(path: Path, checkpoint: Checkpoint) -> None:
    save_arrays(path, checkpoint._asdict())


def merge_checkpoints(first: Checkpoint, second: Checkpoint) -> Checkpoint:
    """Add two checkpoints of the same seed whose shards differ (a shared shard would count its boards twice)."""
    shared = set(first.shards.tolist()) & set(second.shards.tolist())
    if shared:
        raise ValueError(f"both checkpoints hold shard(s) {sorted(shared)}: their boards would be counted twice")
    return Checkpoint(first.counts + second.counts, np.concatenate([first.shards, second.shards]),
                      np.concatenate([first.boards, second.boards]))


def possible_triples() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, classes, compatible)``: indices and classes (T, 3) of the card-possible triples, and the
    number of compatible ordered combo triples of every triple ``(N_TRIPLES,)`` (cached)."""
    from kernels.threeway import cpu

    classes = triple_classes()
    compatible = cached_arrays("threeway-compatible", cache_key(CODE_VERSION),
                               lambda: {"compatible": cpu.compatible_combos(classes)})["compatible"]
    rows = np.flatnonzero(compatible > 0)
    return rows, classes[rows], compatible


def _engine(backend: str):
    if backend == "gpu":
        from kernels.threeway import gpu as engine
    else:
        from kernels.threeway import cpu as engine
    return engine


def _batch_boards(backend: str) -> int:
    """Boards per kernel call: on the CPU a batch's strengths (boards × 1,326 int32) stay in a core's cache while the
    triples walk them (a unit of 2,048 boards in one call ran at half the speed, measured)."""
    return GPU_BATCH_BOARDS if backend == "gpu" else BATCH_BOARDS


def count_boards(backend: str, seed: int, shard: int, first_board: int, n_boards: int) -> np.ndarray:
    """One unit of a run on Dask workers, wherever it runs: boards ``first_board`` to ``first_board + n_boards − 1`` of
    the shard's stream counted into ``(possible triples, 13)`` uint32 (the rows of :func:`possible_triples`), with
    this process's evaluator tables, on ``backend`` (the client's). The counter-based
    streams make a board's deal the same wherever and in whichever unit it is counted."""
    from generator.core.evaluator_tables import evaluator_tables

    rows, classes, _ = possible_triples()
    partial = np.zeros((rows.size, N_ORDERINGS), dtype=np.uint32)
    engine, key, tables, batch, end = _engine(backend), shard_key(seed, shard), evaluator_tables(), _batch_boards(backend), first_board + n_boards
    for start in range(first_board, end, batch):
        engine.simulate(partial, key, start, min(batch, end - start), rows, classes, tables)
    return partial


def run_threeway(
    tables,
    boards: int = BOARDS,
    seed: int = SEED,
    shard: int = 0,
    backend: str = "cpu",
    advance: Callable[[int], None] | None = None,
    path: Path | None = None,
    cluster: str | None = None,
) -> Checkpoint:
    """Bring shard ``shard`` of the checkpoint up to ``boards`` boards (nothing to do if it has them).

    ``advance(boards_done)`` is called after every batch; the checkpoint is saved after every batch
    that ends more than 20 s after the last save, and at the end (also when interrupted). With ``cluster``
    (``local:N``, ``tcp://host:port``) the boards are counted by Dask workers in runs of boards
    (:func:`count_boards`), taken back in board order, so the checkpoint always holds a prefix of the boards and the
    counts equal this process's.
    """
    engine = _engine(backend)
    path = path or checkpoint_path(seed)
    try:
        checkpoint = load_checkpoint(path)
    except CorruptFileError as exc:  # as every cache: one warning line, then counted again from nothing
        click.echo(f"warning: {exc}; rebuilding it", err=True)
        checkpoint = empty_checkpoint()
    shards, done_per_shard = list(checkpoint.shards), list(checkpoint.boards)
    if shard not in shards:
        shards.append(shard)
        done_per_shard.append(0)
    slot = shards.index(shard)
    done = int(done_per_shard[slot])
    if done >= boards:
        return checkpoint
    rows, classes, _ = possible_triples()
    counts = checkpoint.counts
    key = shard_key(seed, shard)
    partial = np.zeros((rows.size, N_ORDERINGS), dtype=np.uint32)
    last_save = time.monotonic()

    def save() -> Checkpoint:
        counts[rows] += partial
        partial[:] = 0
        done_per_shard[slot] = done
        saved = Checkpoint(counts, np.array(shards, np.int64), np.array(done_per_shard, np.int64))
        save_checkpoint(path, saved)
        return saved

    def saved_now() -> None:
        nonlocal last_save
        if time.monotonic() - last_save > SAVE_EVERY_S:
            save()
            last_save = time.monotonic()

    try:
        if cluster:
            with unit_runner(cluster, KERNELS, gpu=backend == "gpu") as runner:
                size = max(BATCH_BOARDS, -(-(boards - done) // (UNITS_PER_THREAD * runner.parallelism)))
                units = [(backend, seed, shard, start, min(size, boards - start)) for start in range(done, boards, size)]
                for index, unit_counts in runner(count_boards, units, ordered=True):
                    partial += unit_counts
                    done = units[index][3] + units[index][4]
                    if advance is not None:
                        advance(done)
                    saved_now()
        while done < boards:
            batch = min(_batch_boards(backend), boards - done)
            with interrupts.deferred():  # a stop lands after the batch is counted in `done`, never between the two
                engine.simulate(partial, key, done, batch, rows, classes, tables)
                done += batch
            interrupts.check()
            if advance is not None:
                advance(done)  # the progress bar's callback also honours Ctrl-C
            saved_now()
    finally:
        result = save()
    return result


def threeway_table(checkpoint: Checkpoint, compatible: np.ndarray) -> ThreewayTable:
    """Probabilities, equities and standard errors from the counts (se from the multinomial variance
    of a seat's pot share per sample; 0 samples → equity 0, se 0)."""
    counts = checkpoint.counts.astype(np.float64)
    samples = counts.sum(axis=1)
    safe = np.where(samples > 0, samples, 1.0)
    orderings = counts / safe[:, None]
    shares = ordering_shares()
    equity = orderings @ shares
    second_moment = orderings @ shares**2
    se = np.sqrt(np.maximum(second_moment - equity**2, 0.0) / safe[:, None]) * (samples > 0)[:, None]
    return ThreewayTable(orderings, equity, se, samples.astype(np.int64), compatible)


def quantised_equities(equity: np.ndarray) -> np.ndarray:
    """``(N, 3)`` uint16 ``round(equity · QUANT)``: off by at most :data:`QUANT_BOUND` (7.6e-6) per value."""
    return np.round(np.asarray(equity) * QUANT).astype(np.uint16)


def table_summary(table: ThreewayTable, boards: int) -> dict:
    """Figures for the meta block and the report: boards, triples sampled, samples and se percentiles."""
    possible = table.compatible > 0
    se = table.se[possible].max(axis=1)
    return {
        "boards": boards,
        "triples": int(N_TRIPLES),
        "possible_triples": int(possible.sum()),
        "samples_median": int(np.median(table.samples[possible])),
        "samples_min": int(table.samples[possible].min()),
        "se_median": float(np.median(se)),
        "se_p99": float(np.quantile(se, 0.99)),
        "se_max": float(se.max()),
        "quantisation_bound": QUANT_BOUND,
    }


def threeway_stage(backend: str = "cpu", boards: int = BOARDS, seed: int = SEED, shard: int = 0,
                   progress: bool = True, cluster: str | None = None) -> tuple[ThreewayTable, dict]:
    """Run (or resume) the stage up to ``boards`` boards for ``shard`` (on Dask workers with ``cluster``), with a
    progress bar; returns the table and its summary (:func:`table_summary`, plus wall time, seed, code version,
    backend)."""
    from generator.core.evaluator_tables import evaluator_tables

    started = time.perf_counter()
    with progress_bar("3-way class triples", boards, "board", enabled=progress) as advance:
        checkpoint = run_threeway(evaluator_tables(), boards, seed, shard, backend, advance=advance, cluster=cluster)
    table = threeway_table(checkpoint, possible_triples()[2])
    summary = table_summary(table, checkpoint.total_boards)
    summary.update(wall_time_s=round(time.perf_counter() - started, 1), seed=seed, code_version=CODE_VERSION, backend=backend)
    return table, summary


def results(run, inputs: dict) -> tuple[ThreewayTable, dict]:
    """The registry's accessor (:mod:`generator.compute.registry`): ``(table, summary)`` at the run's board count,
    seed and shard (the checkpoint resumed up to them)."""
    return threeway_stage(run.backend, run.threeway.boards, run.threeway.seed, run.threeway.shard, run.progress, run.cluster)


def cached(run) -> bool:
    """Whether the checkpoint of the run's seed holds the run's boards for its shard (then :func:`results` samples none)."""
    checkpoint = load_checkpoint(checkpoint_path(run.threeway.seed))
    return int(checkpoint.boards[checkpoint.shards == run.threeway.shard].sum()) >= run.threeway.boards


def write(run, site_dir: Path, inputs: dict) -> tuple[ThreewayTable, dict]:
    """``threeway.bin.gz`` for the browser, predicted from the ``matchups.bin`` the heads-up stage wrote beside it."""
    from generator.compute.threeway_bin import publish_threeway

    table, summary = results(run, inputs)
    publish_threeway(Path(site_dir) / "data", table, summary["boards"], summary["seed"])
    return table, summary

