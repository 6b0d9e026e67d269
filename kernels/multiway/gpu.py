"""CUDA path: the same per-deal logic compiled as Numba CUDA device functions, thread blocks over RNG blocks.

Tallies are privatised per thread block. A thread block deals whole RNG blocks of one group (thread
``i`` takes deals ``i, i + THREADS_PER_BLOCK, …`` of each) and adds each seat to the block's shared
counters: one packed uint64 per (class, cell) for the cells with at most ``SHARED_TIES`` ties (98%
of the seats at ten seats), holding the seat count, the first-seat count and Σ q in three bit fields
(one shared atomic per seat), and Σ q² per class. The rarer cells with more ties go straight to the
global tally with atomics. At its end the thread block adds its counters to its group's row of the
global tally, one atomic per non-zero counter: a few thousand global atomics per thread block where
one global atomic per seat and entry went before (3.1 per seat, ≈ 100 times more; the L2 traffic
that bound the kernel, issue #39). The grid is one wave of resident thread blocks, a multiple of
``GROUPS`` (:func:`resident_grid`), each given as many RNG blocks as its bit fields hold
(:func:`blocks_per_thread_block`: 12 at ten seats).

All sums are of integers, so the counts equal the CPU's exactly for the same seed, whatever the
order. Runs on an NVIDIA GPU, or in Numba's CUDA simulator when ``NUMBA_ENABLE_CUDASIM=1`` is set
before Numba is imported (how the tests run it).
"""

import numpy as np
from numba import cuda

from kernels.cards import N_CLASSES
from kernels.evaluator import gpu as hand
from kernels.sampling.dealing import compile_dealing
from kernels.multiway.layout import CELL_TIED, FIRST_SEAT_BASE, GROUPS, MAX_SEATS, Q_BASE, QQ_ENTRY
from kernels.sampling.rng import compile_rng
from kernels.multiway.tally import compile_deal_functions

THREADS_PER_BLOCK = 256
#: Cells with at most this many ties are counted in shared memory; they are the first ``SHARED_CELLS`` of a row.
SHARED_TIES = 2
SHARED_CELLS = int(np.count_nonzero(CELL_TIED <= SHARED_TIES))
SHARED_COUNTERS = N_CLASSES * SHARED_CELLS
#: Bit fields of a shared counter: seats (low), first seats, Σ q (high).
COUNT_BITS, FIRST_BITS, Q_BITS = 19, 16, 29
_FIRST_SHIFT = np.uint64(COUNT_BITS)
_Q_SHIFT = np.uint64(COUNT_BITS + FIRST_BITS)
_COUNT_MASK = np.uint64((1 << COUNT_BITS) - 1)
_FIRST_MASK = np.uint64((1 << FIRST_BITS) - 1)
#: Resident thread blocks per multiprocessor at most: the registers' limit (44-46 a thread: 5 blocks of 256).
#: Shared memory allows 5 on an H100/H200 (228 KB), 4 on an A100 (164 KB); see :func:`resident_grid`.
BLOCKS_PER_SM = 5
#: Shared memory a thread block takes: its counters and the 1 KB the system reserves per block.
_BLOCK_SHARED_BYTES = (SHARED_COUNTERS + N_CLASSES) * 8 + 1024
_device = cuda.jit(device=True)


@_device
def _add_seat(counters, group, hand_class, cell, q, first):
    """Add a seat to the block's shared counters, or to the global tally for a cell with many ties."""
    cells, q_squares, tally = counters
    if cell < SHARED_CELLS:
        packed = np.uint64(1) + (np.uint64(first) << _FIRST_SHIFT) + (np.uint64(q) << _Q_SHIFT)
        cuda.atomic.add(cells, hand_class * SHARED_CELLS + cell, packed)
    else:
        cuda.atomic.add(tally, (group, hand_class, cell), 1)
        cuda.atomic.add(tally, (group, hand_class, Q_BASE + cell), q)
        if first:
            cuda.atomic.add(tally, (group, hand_class, FIRST_SEAT_BASE + cell), 1)
    cuda.atomic.add(q_squares, hand_class, np.uint64(q * q))


_RNG = compile_rng(_device)
_child = _RNG.child
_simulate_deal = compile_deal_functions(_device, hand.strength_of_key, compile_dealing(_device, _RNG), _add_seat).simulate_deal


@_device
def _flush(cells, q_squares, tally, group, tid):
    """Add the block's shared counters to ``tally[group]`` (every thread, after the block's last barrier)."""
    for i in range(tid, SHARED_COUNTERS, THREADS_PER_BLOCK):
        packed = cells[i]
        if packed:
            hand_class = i // SHARED_CELLS
            cell = i % SHARED_CELLS
            cuda.atomic.add(tally, (group, hand_class, cell), np.int64(packed & _COUNT_MASK))
            cuda.atomic.add(tally, (group, hand_class, Q_BASE + cell), np.int64(packed >> _Q_SHIFT))
            first = np.int64((packed >> _FIRST_SHIFT) & _FIRST_MASK)
            if first:
                cuda.atomic.add(tally, (group, hand_class, FIRST_SEAT_BASE + cell), first)
    for i in range(tid, N_CLASSES, THREADS_PER_BLOCK):
        if q_squares[i]:
            cuda.atomic.add(tally, (group, i, QQ_ENTRY), np.int64(q_squares[i]))


@cuda.jit
def _simulate_kernel(
    tally, shard_key, first_block, n_blocks, block_deals, base_deck, deck_size, seats,
    card_key, card_mask, rank_offsets, rank_values, flush_values, percentile, pair_class,
):
    cells = cuda.shared.array(SHARED_COUNTERS, dtype=np.uint64)
    q_squares = cuda.shared.array(N_CLASSES, dtype=np.uint64)
    deck = cuda.local.array(52, dtype=np.uint8)
    strengths = cuda.local.array(MAX_SEATS, dtype=np.int32)
    tid = cuda.threadIdx.x
    for i in range(tid, SHARED_COUNTERS, THREADS_PER_BLOCK):
        cells[i] = 0
    for i in range(tid, N_CLASSES, THREADS_PER_BLOCK):
        q_squares[i] = 0
    cuda.syncthreads()
    counters = (cells, q_squares, tally)
    r = cuda.blockIdx.x
    group = np.int64((first_block + r) % GROUPS)  # every RNG block of this thread block's (see simulate)
    while r < n_blocks:
        block_key = _child(shard_key, np.uint64(first_block + r))
        deal = tid
        while deal < block_deals:
            _simulate_deal(
                _child(block_key, np.uint64(deal)), deck, base_deck, deck_size, seats, strengths, card_key, card_mask,
                rank_offsets, rank_values, flush_values, percentile, pair_class, counters, group,
            )
            deal += THREADS_PER_BLOCK
        r += cuda.gridDim.x
    cuda.syncthreads()
    _flush(cells, q_squares, tally, group, tid)


@cuda.jit
def _clear_kernel(flat_tally):
    index = cuda.grid(1)
    while index < flat_tally.size:
        flat_tally[index] = 0
        index += cuda.gridsize(1)


def blocks_per_thread_block(block_deals: int, seats: int, max_q: int) -> int:
    """Most RNG blocks one thread block's shared counters hold before a bit field could overflow (≥ 1)."""
    seats_per_block = block_deals * seats
    limit = min(
        ((1 << COUNT_BITS) - 1) // seats_per_block,
        ((1 << FIRST_BITS) - 1) // block_deals,
        ((1 << Q_BITS) - 1) // max(1, seats_per_block * max_q),
    )
    if limit < 1:
        raise ValueError(f"{block_deals} deals of {seats} seats overflow a thread block's shared counters")
    return limit


def resident_grid() -> int:
    """Thread blocks of one launch: the device's resident blocks (one wave), rounded down to a multiple of GROUPS."""
    device = cuda.get_current_device()
    shared_per_sm = getattr(device, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR", BLOCKS_PER_SM * _BLOCK_SHARED_BYTES)
    per_sm = max(1, min(BLOCKS_PER_SM, shared_per_sm // _BLOCK_SHARED_BYTES))
    resident = getattr(device, "MULTIPROCESSOR_COUNT", 1) * per_sm
    return max(GROUPS, resident // GROUPS * GROUPS)


def launch_blocks(block_deals: int, seats: int, max_q: int, grid: int | None = None) -> int:
    """RNG blocks of one full launch: every thread block of the grid holding as many as its counters allow."""
    grid = resident_grid() if grid is None else grid
    return grid * blocks_per_thread_block(block_deals, seats, max_q) if grid % GROUPS == 0 else grid


class DeviceInputs:
    """The read-only kernel inputs copied to the device once (evaluator tables, percentile, pair classes, deck),
    and the device's tally, kept between calls."""

    def __init__(self, tables, percentile, pair_class, base_deck):
        self.tables = [cuda.to_device(np.ascontiguousarray(a)) for a in tables[:5]]
        self.percentile = cuda.to_device(np.ascontiguousarray(percentile))
        self.max_q = int(np.max(percentile))
        self.pair_class = cuda.to_device(np.ascontiguousarray(pair_class))
        self.base_deck = cuda.to_device(np.ascontiguousarray(base_deck, dtype=np.uint8))
        self.deck_size = int(np.asarray(base_deck).size)
        self.tally = self.host_tally = None  # the device's tally and a pinned host copy of it, made at first use


def simulate(tally, shard_key, first_block, n_blocks, block_deals, inputs: DeviceInputs, seats, grid: int | None = None) -> None:
    """GPU twin of :func:`kernels.multiway.cpu.simulate`: adds the blocks' counts to the host ``tally`` in place.

    grid: thread blocks per launch (default :func:`resident_grid`). A launch gives thread block ``i`` the RNG
    blocks ``i, i + grid, …`` of its range: one group each where ``grid`` is a multiple of GROUPS, else one RNG
    block each; so the work is cut into launches of :func:`launch_blocks` RNG blocks. The counts do not depend on it.
    """
    grid = resident_grid() if grid is None else grid
    per_launch = launch_blocks(block_deals, seats, inputs.max_q, grid)
    if inputs.tally is None or inputs.tally.shape != tally.shape:
        inputs.tally = cuda.device_array(tally.shape, dtype=np.int64)
        inputs.host_tally = cuda.pinned_array(tally.shape, dtype=np.int64)
    _clear_kernel[256, 256](inputs.tally.reshape(inputs.tally.size))
    for start in range(first_block, first_block + n_blocks, per_launch):
        blocks = min(per_launch, first_block + n_blocks - start)
        _simulate_kernel[min(grid, blocks), THREADS_PER_BLOCK](
            inputs.tally, np.uint64(shard_key), start, blocks, block_deals, inputs.base_deck, inputs.deck_size,
            seats, *inputs.tables, inputs.percentile, inputs.pair_class,
        )
    tally += inputs.tally.copy_to_host(inputs.host_tally)
