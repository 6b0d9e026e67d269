"""CUDA path of the exact heads-up tables: one thread per board representative, atomic accumulation.

Shares the per-board logic of :mod:`kernels.headsup.core` with the CPU path. Each thread gets its
own slice of global scratch memory. Written for correctness (tested in Numba's CUDA simulator
against the CPU counts); it has not been run or tuned on a real GPU.
"""

import numpy as np
from numba import cuda

from kernels.evaluator import gpu as hand
from kernels.headsup.core import N_CLASSES, compile_board_functions

THREADS_PER_BLOCK = 64


@cuda.jit(device=True)
def _add_to_matrix(matrix, i, j, value):
    cuda.atomic.add(matrix, (i, j), value)


@cuda.jit(device=True)
def _add_to_vector(vector, i, value):
    cuda.atomic.add(vector, i, value)


@cuda.jit(device=True)
def _add_beaten_row(win, hero, weight, below, below_with_card, x, y):
    for j in range(N_CLASSES):
        beaten = below[j] - below_with_card[x, j] - below_with_card[y, j]
        if beaten:
            cuda.atomic.add(win, (hero, j), weight * beaten)


_BOARD = compile_board_functions(cuda.jit(device=True), hand, _add_to_matrix, _add_to_vector, _add_beaten_row)
accumulate_board = _BOARD.accumulate_board


@cuda.jit
def _tally_kernel(
    boards, weights, combos, combo_class, keys, below, below_with_card, below_total_with_card,
    win, tie, win_vs_random, tie_vs_random, card_key, card_mask, rank_offsets, rank_values, flush_values,
):  # fmt: skip
    slot = cuda.grid(1)
    board = slot
    while board < boards.shape[0]:
        accumulate_board(
            boards[board], weights[board], combos, combo_class, keys[slot], below[slot], below_with_card[slot],
            below_total_with_card[slot], win, tie, win_vs_random, tie_vs_random,
            card_key, card_mask, rank_offsets, rank_values, flush_values,
        )  # fmt: skip
        board += cuda.gridsize(1)


def tally_boards(boards, weights, combos, combo_class, tables, blocks: int = 256):
    """GPU twin of :func:`kernels.headsup.cpu.tally_boards` (same inputs, same int64 outputs)."""
    n_threads = THREADS_PER_BLOCK * max(1, min(blocks, (len(boards) + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK))
    device = hand.device_tables(tables)
    win = cuda.to_device(np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64))
    tie = cuda.to_device(np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64))
    win_vs_random = cuda.to_device(np.zeros(N_CLASSES, dtype=np.int64))
    tie_vs_random = cuda.to_device(np.zeros(N_CLASSES, dtype=np.int64))
    _tally_kernel[n_threads // THREADS_PER_BLOCK, THREADS_PER_BLOCK](
        cuda.to_device(np.ascontiguousarray(boards, dtype=np.int64)),
        cuda.to_device(np.asarray(weights, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combos, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combo_class, dtype=np.int64)),
        cuda.device_array((n_threads, 1326), dtype=np.int64),
        cuda.device_array((n_threads, N_CLASSES), dtype=np.int64),
        cuda.device_array((n_threads, 52, N_CLASSES), dtype=np.int64),
        cuda.device_array((n_threads, 52), dtype=np.int64),
        win, tie, win_vs_random, tie_vs_random,
        device.card_key, device.card_mask, device.rank_offsets, device.rank_values, device.flush_values,
    )  # fmt: skip
    return win.copy_to_host(), tie.copy_to_host(), win_vs_random.copy_to_host(), tie_vs_random.copy_to_host()
