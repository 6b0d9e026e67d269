"""CUDA path: the same per-deal logic compiled as Numba CUDA device functions, one thread per deal.

Threads add to the tally with atomics, so the counts equal the CPU's exactly for the same seed
(integer sums do not depend on order). Runs on an NVIDIA GPU, or in Numba's CUDA simulator when
``NUMBA_ENABLE_CUDASIM=1`` is set before Numba is imported (how the tests run it).
"""

import numpy as np
from numba import cuda

from kernels.evaluator import gpu as hand
from kernels.sampling.dealing import compile_dealing
from kernels.multiway.layout import FIRST_SEAT_BASE, GROUPS, MAX_SEATS, Q_BASE, QQ_ENTRY
from kernels.sampling.rng import compile_rng
from kernels.multiway.tally import compile_deal_functions

THREADS_PER_BLOCK = 128
_device = cuda.jit(device=True)


@_device
def _add_seat(tally, group, hand_class, cell, q, first):
    cuda.atomic.add(tally, (group, hand_class, cell), 1)
    cuda.atomic.add(tally, (group, hand_class, Q_BASE + cell), q)
    cuda.atomic.add(tally, (group, hand_class, QQ_ENTRY), q * q)
    if first:
        cuda.atomic.add(tally, (group, hand_class, FIRST_SEAT_BASE + cell), 1)


_RNG = compile_rng(_device)
_child = _RNG.child
_simulate_deal = compile_deal_functions(_device, hand.strength_of_key, compile_dealing(_device, _RNG), _add_seat).simulate_deal


@cuda.jit
def _simulate_kernel(
    tally, shard_key, first_block, n_deals, block_deals, base_deck, deck_size, seats,
    card_key, card_mask, rank_offsets, rank_values, flush_values, percentile, pair_class,
):
    deck = cuda.local.array(52, dtype=np.uint8)
    strengths = cuda.local.array(MAX_SEATS, dtype=np.int32)
    index = cuda.grid(1)
    while index < n_deals:
        block = first_block + index // block_deals
        deal = index % block_deals
        key = _child(_child(shard_key, np.uint64(block)), np.uint64(deal))
        _simulate_deal(
            key, deck, base_deck, deck_size, seats, strengths, card_key, card_mask, rank_offsets,
            rank_values, flush_values, percentile, pair_class, tally, np.int64(block % GROUPS),
        )
        index += cuda.gridsize(1)


class DeviceInputs:
    """The read-only kernel inputs copied to the device once (evaluator tables, percentile, pair classes, deck)."""

    def __init__(self, tables, percentile, pair_class, base_deck):
        self.tables = [cuda.to_device(np.ascontiguousarray(a)) for a in tables[:5]]
        self.percentile = cuda.to_device(np.ascontiguousarray(percentile))
        self.pair_class = cuda.to_device(np.ascontiguousarray(pair_class))
        self.base_deck = cuda.to_device(np.ascontiguousarray(base_deck, dtype=np.uint8))
        self.deck_size = int(np.asarray(base_deck).size)


def simulate(tally, shard_key, first_block, n_blocks, block_deals, inputs: DeviceInputs, seats, max_grid: int = 4096) -> None:
    """GPU twin of :func:`kernels.multiway.cpu.simulate`: adds the blocks' counts to the host ``tally`` in place."""
    device_tally = cuda.to_device(np.zeros_like(tally))
    n_deals = n_blocks * block_deals
    grid = max(1, min(max_grid, (n_deals + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK))
    _simulate_kernel[grid, THREADS_PER_BLOCK](
        device_tally, np.uint64(shard_key), first_block, n_deals, block_deals, inputs.base_deck, inputs.deck_size,
        seats, *inputs.tables, inputs.percentile, inputs.pair_class,
    )
    tally += device_tally.copy_to_host()
