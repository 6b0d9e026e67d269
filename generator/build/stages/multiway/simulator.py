"""Runs blocks of deals of one shard on the chosen backend, adding their counts to a tally."""

from __future__ import annotations

from typing import Iterator

import numpy as np

from generator.core.evaluator_tables import evaluator_tables
from kernels.multiway.layout import BLOCK_DEALS, FULL_DECK, GROUPS, MAX_SEATS, pair_class_table
from kernels.sampling.rng import shard_key

#: Deals per GPU launch (in blocks); the CPU runs GROUPS blocks per parallel pass.
GPU_PASS_BLOCKS = 1024


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
        self.pass_blocks = GPU_PASS_BLOCKS if backend == "gpu" else GROUPS

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
