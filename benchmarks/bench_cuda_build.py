"""CUDA kernels built for real GPUs without one: registers, stack, spills and theoretical occupancy.

Run: ``.venv/bin/python benchmarks/bench_cuda_build.py`` (from the repository root; needs the
``test`` extra). Compiles every kernel of ``kernels/`` to PTX (numba-cuda) and to sm_80 / sm_90
cubins (``ptxas -v`` from the nvidia-cuda-nvcc wheel) and prints ptxas's figures as a markdown table.
Theoretical occupancy = resident warps per SM / 64 at the launcher's threads per block, limited by
registers (allocated per warp in units of 256 of 65,536) and shared memory; not a measured figure.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.compute.cuda_build import KERNELS, TARGETS, build_kernel


def main() -> None:
    print("| kernel | arch | threads/block | registers | stack (B) | spill st/ld (B) | smem (B) | occupancy | build (s) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for spec in KERNELS:
        for cc in TARGETS:
            started = time.perf_counter()
            b = build_kernel(spec, cc)
            seconds = time.perf_counter() - started
            print(f"| {spec.name} | sm_{cc[0]}{cc[1]} | {b.threads_per_block} | {b.registers} | {b.stack_bytes} | "
                  f"{b.spill_store_bytes}/{b.spill_load_bytes} | {b.shared_bytes} | {b.occupancy:.0%} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
