"""Stages on Dask distributed vs in this process: the same stage published through the registry (as ``allin compute
<stage> [--cluster tcp://…]`` does), from an empty cache, its published files checked identical.

Run: ``.venv/bin/python benchmarks/bench_cluster.py [STAGE [SIZE]]`` (repository root; needs the ``cluster`` or
``test`` extra). STAGE: ``multiway [blocks]``, ``headsup``, ``threehanded``, ``fourhanded``, ``threeway [boards]``,
``pushfold-charts``; no argument: all of them (the walks whole).

Each stage runs three times, each from an empty cache (the evaluator tables and the percentile control linked into it;
the stages it takes as inputs loaded once from the main cache): in this process (Numba's threads on every core; for
push/fold the build's pool of spawned processes), then on a ``dask scheduler`` and 1 and 2 ``dask worker`` processes
started as docs/cluster.md says (tests/dask_helpers.py; Numba's threads split between the workers). Printed per run:
the wall time and speed-up, the tasks, the mean bytes a task sent back, per task the time worker threads spent not
computing (dispatch, transfers, the client's merge, the last tasks' tail), the median gap between one task's end and
the next one's start on a worker (the scheduler's dispatch), and whether the published files equal the in-process
run's (JSON without its meta's run time and date, other files byte for byte).

Before the clock starts, every process that computes (this one, or each worker) has loaded the evaluator tables and
imported the stage; its kernels come from Numba's cache at its first unit, inside the timed run. Cluster start-up
is printed separately.

* ``multiway``: shard 0 of seed 1 up to ``blocks`` blocks of 4,096 deals (default 3,072), also in M deals/s.
* ``headsup``, ``threehanded``, ``fourhanded``: the whole exact walks (the four-handed one takes its slices back in
  order and checkpoints after each).
* ``threeway``: the 3-way table's first ``boards`` boards of shard 0, seed 1 (default 1,024).
* ``pushfold-charts``: :data:`PUSHFOLD_GROUPS` (about 60 s of solving on one core), then their certificates.
"""

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from dask_helpers import DaskProcesses, published_files  # noqa: E402
from generator.compute import registry  # noqa: E402
from generator.compute.multiway_controls import percentile_control  # noqa: E402
from generator.compute.pushfold_records import Group  # noqa: E402
from generator.compute.run import default_run, resolve_run  # noqa: E402
from generator.core.cache import cache_dir  # noqa: E402
from generator.core.config import Config  # noqa: E402
from generator.core.evaluator_tables import evaluator_tables  # noqa: E402
from kernels.multiway.layout import BLOCK_DEALS  # noqa: E402

#: The push/fold benchmark's groups: 6 players chip EV without and with a 1 bb BB ante, 5 players without, 4–12 bb by
#: 0.5 (17 tables each, warm-started in order; about 60 s of solving on one core): the build's largest groups, cut.
_STACKS = tuple(float(s) for s in np.arange(8, 25) / 2)
PUSHFOLD_GROUPS = (Group(6, _STACKS), Group(6, _STACKS, 1.0, True), Group(5, _STACKS))

#: Per stage: the run's settings (SIZE fills in the ``None``) and its default size.
STAGES = {
    "multiway": (lambda blocks: {"multiway_seed": 1, "max_deals": blocks * BLOCK_DEALS, "budget_seconds": 1e9,
                                 "target_se": 1e-12}, 3072),
    "headsup": (lambda _: {}, None),
    "threehanded": (lambda _: {}, None),
    "fourhanded": (lambda _: {}, None),
    "threeway": (lambda boards: {"threeway_seed": 1, "threeway_boards": boards}, 1024),
    "pushfold-charts": (lambda _: {"pushfold_groups": PUSHFOLD_GROUPS}, None),
}


#: Fewest gaps between tasks whose median is printed: the workers' clocks are brought to the scheduler's within
#: ~0.1 s, so a median of a few gaps is that offset's noise, not the dispatch.
MIN_GAPS = 16


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


def _task_cells(tasks: list[dict], wall: float, workers: int) -> str:
    """The table cells of a cluster run's tasks: count, mean bytes back, seconds not computing per task, median gap."""
    computing = sum(s["stop"] - s["start"] for task in tasks for s in task["startstops"] if s["action"] == "compute")
    gaps = _dispatch_gaps(tasks)
    gap = f"{1000 * np.median(gaps):.1f}" if len(gaps) >= MIN_GAPS else "-"
    return (f"{len(tasks)} | {np.mean([task['nbytes'] for task in tasks]):,.0f} | {(wall * workers - computing) / len(tasks):.3f} | "
            f"{gap}")


def _fresh_cache(main: Path) -> Path:
    """An empty cache folder (made the cache: ``ALLIN_CACHE_DIR``) with the evaluator tables and the percentile control
    of ``main`` linked, not rebuilt."""
    folder = Path(tempfile.mkdtemp(prefix="bench-cluster-cache-"))
    for path in [*main.glob("evaluator-*.npz"), *main.glob("percentile-*.npz")]:
        os.link(path, folder / path.name)
    os.environ["ALLIN_CACHE_DIR"] = str(folder)
    return folder


def _warm_up(name: str) -> str:
    """What a process that computes does before the clock starts: the evaluator tables loaded, the stage imported
    (its name returned)."""
    evaluator_tables()
    return registry.stage(name).module.__name__


def _new_site() -> Path:
    """A site folder with the heads-up stage's files, from the main cache (the 3-way table's file is predicted from
    them; the build publishes them first)."""
    site = Path(tempfile.mkdtemp(prefix="bench-cluster-site-"))
    registry.publish("headsup", default_run(progress=False), site)
    return site


def _publish(name: str, settings: dict, inputs: dict, cluster: str | None, site: Path) -> tuple[float, dict]:
    """Seconds to publish stage ``name`` under ``site`` with ``settings`` (its input stages' results given), and
    the files published."""
    run = resolve_run(Config(), "cpu", cluster, progress=False, **settings)
    run.results.update(inputs)
    started = time.perf_counter()
    registry.publish(name, run, site)
    return time.perf_counter() - started, published_files(site / "data")


def bench_stage(name: str, size: int | None) -> None:
    from distributed import get_task_stream

    settings_of, default_size = STAGES[name]
    settings = settings_of(size or default_size)
    main = cache_dir().resolve()
    evaluator_tables(), percentile_control()  # in the main cache, linked into each run's empty one
    run = default_run(progress=False)
    inputs = {stage: registry.results(stage, run) for stage in registry.stage(name).inputs}
    cores = os.cpu_count() or 1
    caches, sites = [], [_new_site() for _ in range(3)]
    try:
        caches.append(_fresh_cache(main))
        _warm_up(name)
        in_process, reference = _publish(name, settings, inputs, None, sites[0])
        here = "this process's pool of spawned processes (the build's)" if name == "pushfold-charts" else f"in-process ({cores} Numba threads)"
        rows = [(here, in_process, "- | - | - | -", "-", True)]
        for workers in (1, 2):
            caches.append(_fresh_cache(main))  # the workers' too
            started = time.perf_counter()
            with DaskProcesses(Path(tempfile.mkdtemp(prefix="bench-cluster-")), workers, max(1, cores // workers)) as processes:
                startup = time.perf_counter() - started
                processes.client.run(_warm_up, name)
                with get_task_stream(processes.client) as stream:
                    wall, files = _publish(name, settings, inputs, processes.address, sites[workers])
            threads = max(1, cores // workers)
            rows.append((f"{workers} worker process{'es' if workers > 1 else ''} ({threads} Numba thread{'s' if threads > 1 else ''} "
                         f"each)", wall, _task_cells(stream.data, wall, workers), f"{startup:.1f}", files == reference))
    finally:
        os.environ["ALLIN_CACHE_DIR"] = str(main)
        for folder in caches + sites:
            shutil.rmtree(folder, ignore_errors=True)
    deals = settings.get("max_deals")
    shown = {k: (", ".join(g.id for g in v) if k == "pushfold_groups" else v) for k, v in settings.items()}
    print(f"{name}: {'; '.join(f'{k}={v}' for k, v in shown.items()) or 'the whole stage'}\n")
    print("| run | wall (s) | speed-up | " + ("M deals/s | " if deals else "") + "tasks | bytes back per task | "
          "not computing per task (s) | median dispatch gap (ms) | cluster start (s) | files identical |")
    print("|---|---:|---:|" + ("---:|" if deals else "") + "---:|---:|---:|---:|---:|---|")
    for label, wall, cells, startup, same in rows:
        rate = f"{deals / wall / 1e6:.2f} | " if deals else ""
        print(f"| {label} | {wall:.1f} | {in_process / wall:.2f} | {rate}{cells} | {startup} | {same} |")
    print()


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else None
    size = int(sys.argv[2]) if len(sys.argv) > 2 else None
    if name is not None and name not in STAGES:
        sys.exit(f"usage: bench_cluster.py [STAGE [SIZE]]; stages: {', '.join(STAGES)}")
    for stage in [name] if name else STAGES:
        bench_stage(stage, size)


if __name__ == "__main__":
    main()
