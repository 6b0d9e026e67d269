"""Stages on Dask distributed vs in this process, same work, same run, results checked identical.

Run: ``.venv/bin/python benchmarks/bench_cluster.py [multiway [blocks] | walks [board classes]]`` (repository root;
needs the ``cluster`` or ``test`` extra; no argument: both, the walks whole).

* ``multiway``: a Dask LocalCluster of 1 and 2 workers counts the same blocks of shard 0 (seed 1, stand-in percentile
  table) as this process, in deals per second.
* ``walks``: the heads-up and three-handed board walks (the first N board classes, default all 134,459) on a
  ``dask scheduler`` and 1 or 2 ``dask worker`` processes started as docs/cluster.md says (tests/dask_helpers.py;
  Numba's threads split between the workers), against the in-process walk: speed-up, tasks, bytes shipped per task
  each way, and per task the time worker threads spent not computing (dispatch, transfers, the client's merge, the
  last tasks' tail) and the median gap between one task's end and the next one's start on a worker (the scheduler's
  dispatch).

Timed after a warm-up (kernels compiled, tables loaded on every worker); cluster start-up is printed separately.
"""

import os
import pickle
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from dask_helpers import DaskProcesses  # noqa: E402
from generator.compute.cluster import connect  # noqa: E402
from generator.compute import board_walk  # noqa: E402
from generator.compute.stages import headsup, threehanded  # noqa: E402
from generator.compute.stages.multiway.checkpoint import MultiwayState  # noqa: E402
from generator.compute.stages.multiway.cluster import ClusterSimulator, simulate_blocks  # noqa: E402
from generator.compute.stages.multiway.runner import StopPolicy, sample  # noqa: E402
from generator.compute.stages.multiway.simulator import Simulator  # noqa: E402
from kernels.headsup import cpu as headsup_cpu  # noqa: E402
from kernels.multiway.layout import BLOCK_DEALS  # noqa: E402
from kernels.threehanded import cpu as threehanded_cpu  # noqa: E402

PERCENTILE = (np.arange(7463) * 1024 // 7463).astype(np.int32)


def timed(simulator, blocks: int) -> tuple[float, np.ndarray]:
    state = MultiwayState(seed=1)
    started = time.perf_counter()
    sample(state, simulator, 0, StopPolicy(1e9, 0.0, blocks * BLOCK_DEALS), lambda s: None,
           checkpoint_seconds=1e9, on_checkpoint=lambda: None)
    return blocks * BLOCK_DEALS / (time.perf_counter() - started), state.tally


def bench_multiway(blocks: int) -> None:
    local = Simulator("cpu", 1, 0, PERCENTILE)
    timed(local, 8)  # compile
    rate, reference = timed(local, blocks)
    rows = [("in-process (numba, all cores)", rate, "-", True)]
    for workers in (1, 2):
        started = time.perf_counter()
        with connect(f"local:{workers}") as client:
            startup = time.perf_counter() - started
            cluster = ClusterSimulator(client, "cpu", 1, 0, PERCENTILE)
            client.run(simulate_blocks, "cpu", 1, 0, PERCENTILE, 0, 1)  # warm-up on every worker
            rate, tally = timed(cluster, blocks)
        rows.append((f"LocalCluster local:{workers}", rate, f"{startup:.1f}", np.array_equal(tally, reference)))
    print(f"multiway: {blocks} blocks = {blocks * BLOCK_DEALS / 1e6:.1f} M deals; tasks of {cluster.task_blocks} blocks\n")
    print("| run | M deals/s | vs in-process | cluster start (s) | tally identical |")
    print("|---|---:|---:|---:|---|")
    for name, rate, startup, same in rows:
        print(f"| {name} | {rate / 1e6:.2f} | {rate / rows[0][1]:.2f} | {startup} | {same} |")


WALKS = (("heads-up", headsup, headsup_cpu), ("three-handed", threehanded, threehanded_cpu))


def _dispatch_gaps(tasks: list[dict]) -> list[float]:
    """Seconds between a task's end and the next task's start on the same worker thread."""
    gaps, by_worker = [], {}
    for task in tasks:
        compute = [s for s in task["startstops"] if s["action"] == "compute"]
        by_worker.setdefault(task["worker"], []).extend((s["start"], s["stop"]) for s in compute)
    for spans in by_worker.values():
        spans.sort()
        gaps += [start - previous_stop for (_, previous_stop), (start, _) in zip(spans, spans[1:])]
    return gaps


def bench_walks(first: int) -> None:
    from distributed import get_task_stream

    boards, weights = board_walk.board_classes()
    cores = os.cpu_count() or 1
    print(f"board walks of the first {first:,} board classes; {cores} cores\n")
    print("| walk | run | wall (s) | speed-up | tasks | bytes to a worker per task | bytes back per task | "
          "not computing per task (s) | median dispatch gap (ms) | cluster start (s) | tallies identical |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, stage, kernel in WALKS:
        board_walk.tally_slice(kernel.tally_boards, boards[:2], weights[:2])  # compile or load the kernel
        started = time.perf_counter()
        reference = board_walk.walk_board_orbits(kernel.tally_boards, name, False, None, stage.KERNELS, first=first)
        in_process = time.perf_counter() - started
        print(f"| {name} | in-process ({cores} Numba threads) | {in_process:.1f} | 1.00 | {board_walk.SLICES} | - | - | - | - | - | True |")
        for workers in (1, 2):
            started = time.perf_counter()
            processes = DaskProcesses(Path(tempfile.mkdtemp(prefix="bench-cluster-")), workers, max(1, cores // workers))
            try:
                startup = time.perf_counter() - started
                processes.client.run(board_walk.tally_slice, kernel.tally_boards, boards[:2], weights[:2])  # warm-up
                with get_task_stream(processes.client) as stream:
                    started = time.perf_counter()
                    tallies = board_walk.walk_board_orbits(kernel.tally_boards, name, False, processes.address,
                                                           stage.KERNELS, first=first)
                    wall = time.perf_counter() - started
            finally:
                processes.close()
            tasks = [task for task in stream.data if task["key"].startswith("generator.compute.board_walk")]
            computing = sum(s["stop"] - s["start"] for task in tasks for s in task["startstops"] if s["action"] == "compute")
            count = min(first, len(boards)) // len(tasks)
            sent = pickle.dumps((kernel.tally_boards, boards[:count], weights[:count]))
            back = np.mean([task["nbytes"] for task in tasks])
            gaps = _dispatch_gaps(tasks)
            same = all(np.array_equal(a, b) for a, b in zip(tallies, reference))
            print(f"| {name} | {workers} worker process{'es' if workers > 1 else ''} ({max(1, cores // workers)} Numba "
                  f"thread{'s' if cores // workers > 1 else ''} each) | {wall:.1f} | {in_process / wall:.2f} | {len(tasks)} | "
                  f"{len(sent):,} | {back:,.0f} | {(wall * workers - computing) / len(tasks):.3f} | "
                  f"{1000 * np.median(gaps) if gaps else float('nan'):.1f} | {startup:.1f} | {same} |")


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "both"
    size = int(sys.argv[2]) if len(sys.argv) > 2 else None
    if what not in ("multiway", "walks", "both"):
        sys.exit("usage: bench_cluster.py [multiway [blocks] | walks [board classes]]")
    if what in ("multiway", "both"):
        bench_multiway(size or 3072)
    if what in ("walks", "both"):
        bench_walks(size or len(board_walk.board_classes()[0]))


if __name__ == "__main__":
    main()
