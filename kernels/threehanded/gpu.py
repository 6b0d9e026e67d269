"""CUDA path of the exact three-handed counts: one thread per board representative, atomic accumulation.

Shares the per-board logic of :mod:`kernels.threehanded.core` and the combo ranking of
:func:`kernels.headsup.core.compile_ranking` with the CPU path. Each thread has a small private scratch slab in
global memory (1,326 keys and strengths, 2 × 52 card counters: ≈ 22 KB); the tallies are three
169-vectors updated with atomics. Tested in Numba's CUDA simulator against the CPU counts; not run
on a real GPU.
"""

import numpy as np
from numba import cuda

from kernels.evaluator import gpu as hand
from kernels.headsup.core import compile_ranking
from kernels.threehanded.core import N_CLASSES, combo_index_table, compile_board_functions

THREADS_PER_BLOCK = 64


@cuda.jit(device=True)
def _add_to_vector(vector, i, value):
    cuda.atomic.add(vector, i, value)


accumulate_board = compile_board_functions(
    cuda.jit(device=True), compile_ranking(cuda.jit(device=True), hand).sorted_live_combos, _add_to_vector
).accumulate_board


@cuda.jit
def _tally_kernel(
    boards, weights, combos, combo_class, combo_index, keys, strength_of, below_card, equal_card,
    win, tie2, tie3, card_key, card_mask, rank_offsets, rank_values, flush_values,
):  # fmt: skip
    slot = cuda.grid(1)
    board = slot
    while board < boards.shape[0]:
        accumulate_board(
            boards[board], weights[board], combos, combo_class, combo_index, keys[slot], strength_of[slot],
            below_card[slot], equal_card[slot], win, tie2, tie3, card_key, card_mask, rank_offsets, rank_values,
            flush_values,
        )  # fmt: skip
        board += cuda.gridsize(1)


def tally_boards(boards, weights, combos, combo_class, tables, blocks: int = 256):
    """GPU twin of :func:`kernels.threehanded.cpu.tally_boards` (same inputs, same int64 outputs)."""
    n_threads = THREADS_PER_BLOCK * max(1, min(blocks, (len(boards) + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK))
    device = hand.device_tables(tables)
    tallies = [cuda.to_device(np.zeros(N_CLASSES, dtype=np.int64)) for _ in range(3)]
    _tally_kernel[n_threads // THREADS_PER_BLOCK, THREADS_PER_BLOCK](
        cuda.to_device(np.ascontiguousarray(boards, dtype=np.int64)),
        cuda.to_device(np.asarray(weights, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combos, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combo_class, dtype=np.int64)),
        cuda.to_device(combo_index_table(combos)),
        cuda.device_array((n_threads, len(combos)), dtype=np.int64),
        cuda.device_array((n_threads, len(combos) + 1), dtype=np.int64),
        cuda.device_array((n_threads, 52), dtype=np.int64),
        cuda.device_array((n_threads, 52), dtype=np.int64),
        *tallies,
        device.card_key, device.card_mask, device.rank_offsets, device.rank_values, device.flush_values,
    )  # fmt: skip
    return tuple(t.copy_to_host() for t in tallies)
