"""Stages on Dask distributed vs in this process, same work, same run, results checked identical.

Run: ``.venv/bin/python benchmarks/bench_cluster.py [multiway [blocks] | walks [board classes] | threeway [boards] |
pushfold | fourhanded]`` (repository root; needs the ``cluster`` or ``test`` extra; no argument: all of them, the walks
whole).

* ``multiway``: a ``dask scheduler`` and 1 or 2 ``dask worker`` processes count the same blocks of shard 0 (seed 1,
  stand-in percentile table) as this process, in deals per second.
* ``walks``: the heads-up and three-handed board walks (the first N board classes, default all 134,459) on a
  ``dask scheduler`` and 1 or 2 ``dask worker`` processes started as docs/cluster.md says (tests/dask_helpers.py;
  Numba's threads split between the workers), against the in-process walk: speed-up, tasks, bytes shipped per task
  each way, and per task the time worker threads spent not computing (dispatch, transfers, the client's merge, the
  last tasks' tail) and the median gap between one task's end and the next one's start on a worker (the scheduler's
  dispatch).
* ``fourhanded``: the whole four-handed walk from no checkpoint, the same way (its slices taken back in order).
* ``threeway``: the 3-way table's first N boards (default 1,024) from an empty checkpoint, the same way.
* ``pushfold``: :data:`PUSHFOLD_GROUPS` solved from an empty table cache, then their certificates, in this process, in
  2 spawned processes (the build's default here) and on 1 or 2 ``dask worker`` processes; every record identical. The
  workers import the stage and load the evaluator tables before the clock starts (start-up), then build the solver's
  equities at their first group (counted: it is part of each worker's work, as of each spawned process's).

Timed after a warm-up (kernels compiled, tables loaded on every worker); cluster start-up is printed separately.
"""

import functools
import importlib
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
from generator.compute import registry  # noqa: E402
from generator.compute.run import default_run  # noqa: E402
from generator.compute.stages import fourhanded, headsup, pushfold_certificate, pushfold_charts, threehanded, threeway  # noqa: E402
from generator.compute.stages.multiway.checkpoint import MultiwayState  # noqa: E402
from generator.compute.stages.multiway.cluster import TASK_BLOCKS, ClusterSimulator, simulate_blocks  # noqa: E402
from generator.compute.stages.multiway.runner import StopPolicy, sample  # noqa: E402
from generator.compute.stages.multiway.simulator import Simulator  # noqa: E402
from generator.core.cache import cache_dir  # noqa: E402
from generator.core.evaluator_tables import evaluator_tables  # noqa: E402
from kernels.fourhanded import cpu as fourhanded_cpu  # noqa: E402
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
    print(f"multiway: {blocks} blocks = {blocks * BLOCK_DEALS / 1e6:.1f} M deals; tasks of {TASK_BLOCKS} blocks\n")
    print("| run | M deals/s | vs in-process | tasks | bytes back per task | not computing per task (s) | median dispatch gap (ms) "
          "| cluster start (s) | tally identical |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    print(f"| in-process (numba, all cores) | {rate / 1e6:.2f} | 1.00 | - | - | - | - | - | True |")

    def job(address: str) -> tuple[float, np.ndarray]:
        with connect(address) as client:
            return timed(ClusterSimulator(client, "cpu", 1, 0, PERCENTILE), blocks)

    for workers in (1, 2):
        startup, _, cells, (there, tally) = _on_workers(
            workers, job, "multiway-", warm_up=functools.partial(simulate_blocks, "cpu", 1, 0, PERCENTILE, 0, 1))
        print(f"| {workers} worker process{'es' if workers > 1 else ''} | {there / 1e6:.2f} | {there / rate:.2f} | {cells} | "
              f"{startup:.1f} | {np.array_equal(tally, reference)} |")


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
        count = min(first, len(boards)) // board_walk.SLICES
        sent = pickle.dumps((kernel.tally_boards, boards[:count], weights[:count]))
        for workers in (1, 2):
            startup, wall, cells, tallies = _on_workers(
                workers, lambda address: board_walk.walk_board_orbits(kernel.tally_boards, name, False, address,
                                                                      stage.KERNELS, first=first),
                "generator.compute.board_walk", warm_up=functools.partial(board_walk.tally_slice, kernel.tally_boards,
                                                                          boards[:2], weights[:2]))
            same = all(np.array_equal(a, b) for a, b in zip(tallies, reference))
            tasks, figures = cells.split(" | ", 1)  # the bytes to a worker go between them
            print(f"| {name} | {workers} worker process{'es' if workers > 1 else ''} ({max(1, cores // workers)} Numba "
                  f"thread{'s' if cores // workers > 1 else ''} each) | {wall:.1f} | {in_process / wall:.2f} | {tasks} | "
                  f"{len(sent):,} | {figures} | {startup:.1f} | {same} |")


def _task_figures(tasks: list[dict], wall: float, workers: int) -> str:
    """The table cells of a cluster run's tasks: count, mean bytes back, seconds not computing per task, median gap."""
    computing = sum(s["stop"] - s["start"] for task in tasks for s in task["startstops"] if s["action"] == "compute")
    gaps = _dispatch_gaps(tasks)
    return (f"{len(tasks)} | {np.mean([task['nbytes'] for task in tasks]):,.0f} | {(wall * workers - computing) / len(tasks):.3f} | "
            f"{1000 * np.median(gaps) if gaps else float('nan'):.1f}")


def _on_workers(workers: int, job, prefix: str, warm_up=None) -> tuple[float, float, str, object]:
    """``job(address)`` on a scheduler and ``workers`` worker processes (Numba's threads split between them), after
    ``warm_up`` ran on every worker: ``(start-up s, wall s, task cells, result)``, the tasks those whose key starts
    with ``prefix``."""
    from distributed import get_task_stream

    cores = os.cpu_count() or 1
    started = time.perf_counter()
    processes = DaskProcesses(Path(tempfile.mkdtemp(prefix="bench-cluster-")), workers, max(1, cores // workers))
    try:
        startup = time.perf_counter() - started
        if warm_up is not None:
            processes.client.run(warm_up)
        with get_task_stream(processes.client) as stream:
            started = time.perf_counter()
            result = job(processes.address)
            wall = time.perf_counter() - started
    finally:
        processes.close()
    tasks = [task for task in stream.data if str(task["key"]).startswith(prefix)]
    return startup, wall, _task_figures(tasks, wall, workers), result


def bench_threeway(boards: int) -> None:
    tables = evaluator_tables()
    folder = Path(tempfile.mkdtemp(prefix="bench-threeway-"))
    threeway.run_threeway(tables, threeway.BATCH_BOARDS, path=folder / "warm-up.npz")  # compile or load the kernel
    started = time.perf_counter()
    reference = threeway.run_threeway(tables, boards, path=folder / "here.npz")
    in_process = time.perf_counter() - started
    print(f"3-way table: the first {boards:,} boards of shard 0 from an empty checkpoint\n")
    print("| run | wall (s) | speed-up | tasks | bytes back per task | not computing per task (s) | "
          "median dispatch gap (ms) | cluster start (s) | counts identical |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    print(f"| in-process | {in_process:.1f} | 1.00 | - | - | - | - | - | True |")
    for workers in (1, 2):
        startup, wall, cells, there = _on_workers(
            workers, lambda address: threeway.run_threeway(tables, boards, path=folder / f"there-{workers}.npz", cluster=address),
            "generator.compute.stages.threeway.count_boards",
            warm_up=functools.partial(threeway.count_boards, "cpu", threeway.SEED, 0, 0, 1))  # kernel, tables, triples
        print(f"| {workers} worker process{'es' if workers > 1 else ''} | {wall:.1f} | {in_process / wall:.2f} | {cells} | "
              f"{startup:.1f} | {np.array_equal(there.counts, reference.counts)} |")


def bench_fourhanded() -> None:
    boards, weights = board_walk.board_classes()
    board_walk.tally_slice(fourhanded_cpu.tally_boards, boards[:2], weights[:2])  # compile or load the kernel
    evaluator_tables()  # in the main cache: each run's empty cache links it
    main = cache_dir()
    os.environ["ALLIN_CACHE_DIR"] = _fresh_cache(main)  # no partial walk to resume
    started = time.perf_counter()
    reference = fourhanded.compute_fourhanded_counts("cpu", False)
    in_process = time.perf_counter() - started
    print(f"four-handed walk: all {len(boards):,} board classes in slices of {fourhanded.SLICE_BOARDS['cpu']}, taken back "
          "in order and checkpointed after each\n")
    print("| run | wall (s) | speed-up | tasks | bytes back per task | not computing per task (s) | median dispatch gap (ms) "
          "| cluster start (s) | tallies identical |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    print(f"| in-process ({os.cpu_count()} Numba threads) | {in_process:.1f} | 1.00 | - | - | - | - | - | True |")
    for workers in (1, 2):
        os.environ["ALLIN_CACHE_DIR"] = _fresh_cache(main)
        startup, wall, cells, there = _on_workers(
            workers, lambda address: fourhanded.compute_fourhanded_counts("cpu", False, address),
            "generator.compute.board_walk.tally_slice",
            warm_up=functools.partial(board_walk.tally_slice, fourhanded_cpu.tally_boards, boards[:2], weights[:2]))
        print(f"| {workers} worker process{'es' if workers > 1 else ''} | {wall:.1f} | {in_process / wall:.2f} | {cells} | "
              f"{startup:.1f} | {all(np.array_equal(a, b) for a, b in zip(there, reference))} |")


#: The push/fold benchmark's groups: 6 players chip EV without and with a 1 bb BB ante, 5 players without, 4–12 bb by
#: 0.5 (17 tables each, warm-started in order; about 60 s of solving on one core): the build's largest groups, cut.
_STACKS = tuple(float(s) for s in np.arange(8, 25) / 2)
PUSHFOLD_GROUPS = (pushfold_charts.Group(6, _STACKS), pushfold_charts.Group(6, _STACKS, 1.0, True), pushfold_charts.Group(5, _STACKS))


def bench_pushfold() -> None:
    run = default_run(progress=False)
    (tables, headsup_meta), (table, summary) = registry.results("headsup", run), registry.results("threeway", run)
    base = pushfold_charts._base_key(headsup_meta, summary)
    keys = {group.id: pushfold_charts._table_keys(group, base) for group in PUSHFOLD_GROUPS}

    def solve(workers: int = 1, cluster: str | None = None) -> tuple[float, float, dict]:
        """Seconds solving, seconds certifying, the records (from an empty cache each time)."""
        started = time.perf_counter()
        results = pushfold_charts.solve_groups(PUSHFOLD_GROUPS, tables, table, base, workers, False, cluster)
        solved = time.perf_counter()
        pushfold_certificate.attach_certificates(PUSHFOLD_GROUPS, results, keys, False, cluster)
        return solved - started, time.perf_counter() - solved, results

    evaluator_tables()  # in the main cache: each run's empty cache links it (the certificates' tables)
    main = cache_dir()
    rows = []
    for name, workers in (("in-process (1 process)", 1), ("2 spawned processes (the build's default here)", 2)):
        os.environ["ALLIN_CACHE_DIR"] = _fresh_cache(main)
        rows.append((name, *solve(workers), "-", "-"))
    for workers in (1, 2):
        os.environ["ALLIN_CACHE_DIR"] = _fresh_cache(main)  # the workers' too
        startup, wall, cells, (solving, certifying, results) = _on_workers(
            workers, lambda address: solve(cluster=address), "generator.compute.stages.pushfold_charts.solve_group_unit",
            warm_up=_load_pushfold_modules)
        rows.append((f"{workers} worker process{'es' if workers > 1 else ''}", solving, certifying, results, cells, f"{startup:.1f}"))
    reference = _public(rows[0][3])
    tables_count = sum(len(g.tables()) for g in PUSHFOLD_GROUPS)
    print(f"push/fold: {len(PUSHFOLD_GROUPS)} groups, {tables_count} tables (5 and 6 players chip EV, 4-12 bb), "
          f"{len(PUSHFOLD_GROUPS)} certificates of {pushfold_certificate.DEALS:,} deals\n")
    print("| run | solve (s) | speed-up | certificates (s) | speed-up | solve tasks, bytes back, not computing per task (s), "
          "median gap (ms) | cluster start (s) | records identical |")
    print("|---|---:|---:|---:|---:|---|---:|---|")
    for name, solving, certifying, results, cells, startup in rows:
        print(f"| {name} | {solving:.1f} | {rows[0][1] / solving:.2f} | {certifying:.1f} | {rows[0][2] / certifying:.2f} | "
              f"{cells} | {startup} | {_public(results) == reference} |")


def _load_pushfold_modules() -> None:
    """A worker's start-up, before the timed runs: the stage's modules imported, the evaluator tables loaded."""
    importlib.import_module("generator.compute.stages.pushfold_charts")
    importlib.import_module("generator.compute.stages.pushfold_certificate")
    evaluator_tables()


def _fresh_cache(main: Path) -> str:
    """An empty table cache with the evaluator tables of ``main`` (linked, not rebuilt)."""
    folder = Path(tempfile.mkdtemp(prefix="bench-pushfold-"))
    for path in main.glob("evaluator-*.npz"):
        os.link(path, folder / path.name)
    return str(folder)


def _public(results: dict) -> dict:
    """The records without what differs from run to run (solve times)."""
    return {group: [{k: v for k, v in record.items() if k not in pushfold_charts.PRIVATE_KEYS} for record in records]
            for group, records in results.items()}


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "all"
    size = int(sys.argv[2]) if len(sys.argv) > 2 else None
    if what not in ("multiway", "walks", "fourhanded", "threeway", "pushfold", "all"):
        sys.exit("usage: bench_cluster.py [multiway [blocks] | walks [board classes] | fourhanded | threeway [boards] | pushfold]")
    if what in ("multiway", "all"):
        bench_multiway(size or 3072)
    if what in ("walks", "all"):
        bench_walks(size or len(board_walk.board_classes()[0]))
    if what in ("fourhanded", "all"):
        bench_fourhanded()
    if what in ("threeway", "all"):
        bench_threeway(size or 1024)
    if what in ("pushfold", "all"):
        bench_pushfold()


if __name__ == "__main__":
    main()
