"""Multiway blocks on a Dask cluster (``--cluster local:N`` or ``--cluster tcp://scheduler:8786``; connecting:
:mod:`generator.compute.cluster`).

A task is ``(shard, first_block, n_blocks)``: a worker counts exactly the blocks the single-process run
would count for those numbers (the random stream is keyed by seed, shard, block and deal) into a
fresh integer tally and returns it; only that tally (and the task's few numbers) travel, never deals.
:class:`ClusterSimulator` keeps a window of tasks in flight and hands the runner the blocks in order:
a result that arrives early waits until every block before it is in, so the state always holds
blocks ``0 .. n - 1`` of the shard, as a single-process run does, and the counts are byte-identical.

A worker that dies loses only its running tasks, which the scheduler gives to another worker (the
result is the same wherever it is computed). A client killed with ``kill -9`` loses the tasks in
flight and what arrived since the last checkpoint; a rerun continues from the checkpoint.
"""

from __future__ import annotations

import os
import uuid
import zlib
from concurrent.futures import CancelledError
from typing import Iterator

import numpy as np

from generator.compute.cluster import undo_nanny_malloc_trim, worker_threads
from generator.core.backend import resolve_backend
from kernels.multiway.layout import BLOCK_DEALS, GROUPS, new_tally

from generator.compute.multiway_simulator import Simulator

#: Blocks per task: 512 blocks = 2.1 M deals, about a second on one core; its tally is 19 MB of int64.
TASK_BLOCKS = 4 * GROUPS
#: Tasks kept in flight per worker thread (one running, one queued: no worker waits for the client).
TASKS_PER_THREAD = 2
#: Times a run sends its percentile table again after tasks were cancelled for want of it (a worker died holding the
#: only replica), before it gives up with the error.
MAX_RESENDS = 8


#: A worker process's simulator, kept between its tasks (tables loaded and kernels compiled once).
_worker_simulator: dict[tuple, Simulator] = {}


def simulate_blocks(backend: str, seed: int, shard: int, percentile: np.ndarray, first_block: int, n_blocks: int) -> np.ndarray:
    """Runs on a worker: the tally of blocks ``first_block .. first_block + n_blocks - 1`` of the shard.

    ``backend`` is the client's ``--backend`` choice; ``auto`` lets each worker take its own GPU if it has one.
    """
    undo_nanny_malloc_trim()
    key = (backend, seed, shard, zlib.crc32(percentile.tobytes()))
    if key not in _worker_simulator:
        _worker_simulator.clear()
        _worker_simulator[key] = Simulator(resolve_backend(backend), seed, shard, percentile)
    tally = new_tally()
    _worker_simulator[key].run(tally, first_block, n_blocks, BLOCK_DEALS)
    return tally


class ClusterSimulator:
    """Blocks of one shard computed by Dask workers, handed to the runner in order (see the module notes)."""

    def __init__(self, client, backend: str, seed: int, shard: int, percentile: np.ndarray, resources: dict | None = None,
                 task_blocks: int = TASK_BLOCKS):
        self.client, self.resources = client, resources  # resources: a GPU's, for ``--backend gpu`` (cluster.gpu_task_resources)
        self.backend, self.seed, self.shard, self.task_blocks = backend, seed, shard, task_blocks
        self.table = np.ascontiguousarray(percentile)
        self.percentile = self._scatter()

    def _scatter(self):
        """The percentile table on every worker, under a key of its own (hash=False: another simulator of the same table
        releasing its copy must not take this one with it). The scheduler's memory manager may later keep a single
        replica of it; when the worker holding it dies, the tasks that need it are cancelled, and :meth:`passes`
        sends it again."""
        return self.client.scatter(self.table, broadcast=True, hash=False)

    def _submit(self, first_block: int, n_blocks: int):
        return self.client.submit(
            simulate_blocks, self.backend, self.seed, self.shard, self.percentile, first_block, n_blocks,
            pure=False, resources=self.resources, key=f"multiway-s{self.seed}-shard{self.shard}-blocks{first_block}+{n_blocks}-{os.getpid()}-{uuid.uuid4().hex[:8]}",
        )

    def _window(self) -> int:
        return max(TASKS_PER_THREAD, TASKS_PER_THREAD * worker_threads(self.client, self.resources))

    def passes(self, tally: np.ndarray, first_block: int, max_blocks: int | None) -> Iterator[int]:
        """Like :meth:`Simulator.passes`: adds blocks ``first_block, …`` to ``tally`` in order and yields
        how many were added; tasks run ahead on the workers. Closing it cancels the tasks in flight."""
        from distributed import as_completed

        submitted = done = first_block
        in_flight: dict[str, tuple[int, int, object]] = {}  # future key → (first block, blocks, future)
        arrived: dict[int, tuple[int, np.ndarray]] = {}  # first block → (blocks, tally): waiting for earlier blocks
        finished = as_completed()
        resent = 0
        future_inputs: dict[str, tuple] = {}  # future key → the key of the table it reads
        try:
            while True:
                window = self._window()
                while len(in_flight) < window and (max_blocks is None or submitted < max_blocks):
                    n_blocks = self.task_blocks if max_blocks is None else min(self.task_blocks, max_blocks - submitted)
                    future = self._submit(submitted, n_blocks)
                    future_inputs[future.key] = (self.percentile.key,)
                    in_flight[future.key] = (submitted, n_blocks, future)
                    finished.add(future)
                    submitted += n_blocks
                if not in_flight:
                    return
                future = next(finished)
                first, n_blocks, _ = in_flight.pop(future.key)
                inputs = future_inputs.pop(future.key, ())
                try:
                    part = future.result()
                except CancelledError:  # its input was lost with a dead worker: send the table again, redo the blocks
                    if self.percentile.key in inputs:  # once per loss, not once per cancelled task
                        resent += 1
                        if resent > MAX_RESENDS:
                            raise
                        self.percentile = self._scatter()
                    retry = self._submit(first, n_blocks)  # the same blocks: the counter-based streams give the same counts
                    future_inputs[retry.key] = (self.percentile.key,)
                    in_flight[retry.key] = (first, n_blocks, retry)
                    finished.add(retry)
                    continue
                arrived[first] = (n_blocks, part)
                added = 0
                while done in arrived:
                    n_blocks, part = arrived.pop(done)
                    tally += part
                    done += n_blocks
                    added += n_blocks
                if added:
                    yield added
        finally:
            self.client.cancel([future for _, _, future in in_flight.values()])
