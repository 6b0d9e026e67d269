"""Runs blocks of deals of one shard on the chosen backend, adding their counts to a tally."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from generator.core.evaluator_tables import evaluator_tables
from kernels.multiway.layout import BLOCK_DEALS, FULL_DECK, GROUPS, MAX_SEATS, pair_class_table
from kernels.sampling.rng import shard_key

#: Kernel launches per pass on a GPU; the CPU runs GROUPS blocks per parallel pass.
GPU_PASS_LAUNCHES = 4


class Simulator:
    """Blocks ``first .. first + n - 1`` of a shard's stream, counted into a tally (CPU or CUDA, same counts)."""

    def __init__(self, backend: str, seed: int, shard: int, percentile: np.ndarray):
        self.backend = backend
        self.key = shard_key(seed, shard)
        self.tables = evaluator_tables()
        self.percentile = percentile
        self.pair_class = pair_class_table()
        if backend == "gpu":
            from kernels.multiway import gpu

            self.inputs = gpu.DeviceInputs(self.tables, percentile, self.pair_class, FULL_DECK)
            # full launches (a wave of thread blocks, each holding what its counters allow: 7,680 blocks on 132 SMs),
            # enough of them that the tally's copy to the host (29 MB a pass) costs little: ~0.1 s on an H200
            self.pass_blocks = GPU_PASS_LAUNCHES * gpu.launch_blocks(BLOCK_DEALS, MAX_SEATS, self.inputs.max_q)
        else:
            self.pass_blocks = GROUPS  # one parallel pass of the CPU kernel

    def run(self, tally: np.ndarray, first_block: int, n_blocks: int, block_deals: int) -> None:
        if self.backend == "gpu":
            from kernels.multiway import gpu

            gpu.simulate(tally, self.key, first_block, n_blocks, block_deals, self.inputs, MAX_SEATS)
        else:
            from kernels.multiway import cpu

            cpu.simulate(tally, self.key, first_block, n_blocks, block_deals, FULL_DECK, MAX_SEATS, self.tables,
                         self.percentile, self.pair_class)

    def passes(self, tally: np.ndarray, first_block: int, max_blocks: int | None) -> Iterator[int]:
        """Count passes of blocks from ``first_block`` on into ``tally``, up to block ``max_blocks`` (None: no end);
        yields each pass's block count once it is in the tally. A pass is computed only when asked for."""
        block = first_block
        while max_blocks is None or block < max_blocks:
            n_blocks = self.pass_blocks if max_blocks is None else min(self.pass_blocks, max_blocks - block)
            self.run(tally, block, n_blocks, BLOCK_DEALS)
            block += n_blocks
            yield n_blocks
