"""Multiway on a Dask LocalCluster vs in this process: deals per second for the same blocks, same run.

Run: ``.venv/bin/python benchmarks/bench_cluster.py [blocks]`` (repository root; needs the ``cluster``
or ``test`` extra). Each row counts the same blocks of shard 0 (seed 1, stand-in percentile table) and
checks the tally is byte-identical to the in-process one. Timed after a warm-up (kernels compiled,
tables loaded on every worker); cluster start-up is printed separately.
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.build.stages.multiway.checkpoint import MultiwayState
from generator.build.cluster import connect
from generator.build.stages.multiway.cluster import ClusterSimulator
from generator.build.stages.multiway.runner import StopPolicy, sample
from generator.build.stages.multiway.simulator import Simulator
from kernels.multiway.layout import BLOCK_DEALS

PERCENTILE = (np.arange(7463) * 1024 // 7463).astype(np.int32)


def timed(simulator, blocks: int) -> tuple[float, np.ndarray]:
    state = MultiwayState(seed=1)
    started = time.perf_counter()
    sample(state, simulator, 0, StopPolicy(1e9, 0.0, blocks * BLOCK_DEALS), lambda s: None,
           checkpoint_seconds=1e9, on_checkpoint=lambda: None)
    return blocks * BLOCK_DEALS / (time.perf_counter() - started), state.tally


def main() -> None:
    blocks = int(sys.argv[1]) if len(sys.argv) > 1 else 3072
    local = Simulator("cpu", 1, 0, PERCENTILE)
    timed(local, 8)  # compile
    rate, reference = timed(local, blocks)
    rows = [("in-process (numba, all cores)", rate, "-", True)]
    for workers in (1, 2):
        started = time.perf_counter()
        with connect(f"local:{workers}") as client:
            startup = time.perf_counter() - started
            cluster = ClusterSimulator(client, "cpu", 1, 0, PERCENTILE)
            client.run(lambda: __import__("generator.build.stages.multiway.cluster").stages.multiway.cluster.simulate_blocks(
                "cpu", 1, 0, PERCENTILE, 0, 1))  # warm-up on every worker
            rate, tally = timed(cluster, blocks)
        rows.append((f"LocalCluster local:{workers}", rate, f"{startup:.1f}", np.array_equal(tally, reference)))
    print(f"{blocks} blocks = {blocks * BLOCK_DEALS / 1e6:.1f} M deals; tasks of {cluster.task_blocks} blocks\n")
    print("| run | M deals/s | vs in-process | cluster start (s) | tally identical |")
    print("|---|---:|---:|---:|---|")
    for name, rate, startup, same in rows:
        print(f"| {name} | {rate / 1e6:.2f} | {rate / rows[0][1]:.2f} | {startup} | {same} |")


if __name__ == "__main__":
    main()
