"""Multiway deals per second on a GPU: the CUDA kernel against the CPU's exact counts, optionally against a baseline.

Run on a machine with an NVIDIA GPU (the ``gpu`` extra): ``python benchmarks/bench_multiway_gpu.py [--blocks N]
[--baseline FILE]``. Simulates the same ``N`` RNG blocks of 4,096 ten-seat deals (default 30,720: 126 M deals) with
this tree's ``kernels.multiway.gpu`` in calls of one full launch at a few grid sizes, and in calls of the build's
pass (``GPU_PASS_LAUNCHES`` launches), and checks every tally equal to the CPU kernel's (all cores). Each call
ends with the tally's copy to the host (29 MB), as in the build. ``--baseline`` takes another version of that module
as a file (e.g. ``git show f8242c2:kernels/multiway/gpu.py > /tmp/before.py``), timed in calls of 1,024 blocks as
its build made them, for a before/after in one run. Prints a markdown table; the best of three timed runs each,
after a compiling run. Without a GPU (as in ``make bench`` on the development machine) it says so and stops.
"""

import argparse
import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from numba import cuda

from generator.compute.multiway_controls import percentile_control
from generator.compute.multiway_simulator import GPU_PASS_LAUNCHES
from generator.core.evaluator_tables import evaluator_tables
from kernels.multiway import cpu, gpu
from kernels.multiway.layout import BLOCK_DEALS, FULL_DECK, GROUPS, MAX_SEATS, new_tally, pair_class_table
from kernels.sampling.rng import shard_key

#: RNG blocks per call of the kernel before issue #39 (its build's ``GPU_PASS_BLOCKS``).
BASELINE_CALL_BLOCKS = 1024


def timed_tally(simulate_call, n_blocks: int, call_blocks: int, repeats: int = 3):
    """Best seconds of ``repeats`` runs of blocks 0..n_blocks-1 in calls of ``call_blocks``, and the tally."""
    best, tally = float("inf"), None
    simulate_call(new_tally(), 0, min(call_blocks, n_blocks))  # compile
    cuda.synchronize()
    for _ in range(repeats):
        tally = new_tally()
        started = time.perf_counter()
        for first in range(0, n_blocks, call_blocks):
            simulate_call(tally, first, min(call_blocks, n_blocks - first))
        cuda.synchronize()
        best = min(best, time.perf_counter() - started)
    return best, tally


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--blocks", type=int, default=30_720)
    parser.add_argument("--baseline", type=Path)
    args = parser.parse_args()
    if not cuda.is_available():
        print("no CUDA GPU here (numba.cuda.is_available() is False): nothing to measure")
        return
    tables, percentile, pairs = evaluator_tables(), percentile_control()[0], pair_class_table()
    key = shard_key(20261127, 0)
    device = cuda.get_current_device()
    name = getattr(device, "name", b"Numba's CUDA simulator")
    print(f"device: {name.decode() if isinstance(name, bytes) else name}, "
          f"{getattr(device, 'MULTIPROCESSOR_COUNT', '?')} SMs; {args.blocks:,} blocks of {BLOCK_DEALS} ten-seat deals")

    started = time.perf_counter()
    on_cpu = new_tally()
    cpu.simulate(on_cpu, key, 0, args.blocks, BLOCK_DEALS, FULL_DECK, MAX_SEATS, tables, percentile, pairs)
    cpu_seconds = time.perf_counter() - started
    deals = args.blocks * BLOCK_DEALS
    print("| kernel | grid | blocks a call | seconds | M deals/s | equal to CPU |")
    print("|---|---:|---:|---:|---:|---|")
    print(f"| CPU (all cores, incl. compiling) | - | {GROUPS} | {cpu_seconds:.2f} | {deals / cpu_seconds / 1e6:.0f} | - |")

    if args.baseline is not None:
        spec = importlib.util.spec_from_file_location("baseline_multiway_gpu", args.baseline)
        before = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(before)
        inputs = before.DeviceInputs(tables, percentile, pairs, FULL_DECK)
        seconds, tally = timed_tally(
            lambda t, first, n: before.simulate(t, key, first, n, BLOCK_DEALS, inputs, MAX_SEATS),
            args.blocks, BASELINE_CALL_BLOCKS)
        print(f"| baseline ({args.baseline.name}) | 4096 | {BASELINE_CALL_BLOCKS} | {seconds:.3f} | "
              f"{deals / seconds / 1e6:.0f} | {np.array_equal(tally, on_cpu)} |")

    inputs = gpu.DeviceInputs(tables, percentile, pairs, FULL_DECK)
    resident = gpu.resident_grid()
    one_launch = {grid: gpu.launch_blocks(BLOCK_DEALS, MAX_SEATS, inputs.max_q, grid)
                  for grid in sorted({resident, GROUPS * 4, GROUPS * 6, 2 * resident})}
    runs = [(grid, blocks, "this tree, a launch a call") for grid, blocks in one_launch.items()]
    runs.append((resident, GPU_PASS_LAUNCHES * one_launch[resident], "this tree, the build's pass a call"))
    for grid, call_blocks, label in runs:
        seconds, tally = timed_tally(
            lambda t, first, n: gpu.simulate(t, key, first, n, BLOCK_DEALS, inputs, MAX_SEATS, grid=grid),
            args.blocks, call_blocks)
        print(f"| {label} | {grid} | {call_blocks} | {seconds:.3f} | {deals / seconds / 1e6:.0f} | "
              f"{np.array_equal(tally, on_cpu)} |")
    for kernel in getattr(gpu._simulate_kernel, "overloads", {}).values():  # as built for this device by its driver
        print(f"built: {kernel.regs_per_thread} registers, {kernel.shared_mem_per_block} B shared, "
              f"{kernel.local_mem_per_thread} B local per thread")


if __name__ == "__main__":
    main()
