"""CUDA path of the exact heads-up tables: one thread block per board, the walk's counters in shared memory.

The same walk as :mod:`kernels.headsup.core` (the CPU path), laid out for a GPU:

* the block's threads rank the board's live combos together (``strength << 11 | combo``, dead and
  padding combos a sentinel) and sort them with a bitonic sort in shared memory (2,048 keys):
  :func:`kernels.block_ranking.rank_board`, shared with the three-handed kernel;
* the block walks the groups of equal strength in order, all threads together: for each combo of
  the group, thread ``j mod 128`` computes the wins against class ``j`` from the shared counters
  (``below``, ``below_with_card``) and adds them to the global table with an atomic add when not
  zero; tie pairs of the group are spread over the threads;
* after a group, each class's counters are raised by the one thread that owns that class (no two
  threads write the same counter; two barriers per group).

Shared memory per block ≈ 35 KB (keys 16 KB, ``below_with_card`` 52×169 int16 = 17.6 KB, the rest
under 1 KB); global memory holds only the inputs, the evaluator tables (0.59 MB), the two class-pair tallies
(2 × 228 KB) and each board's vs-random row (2 × 1.35 KB a board; the walk hands over ~3,400 boards at a
time), added to the vs-random and flop tallies on the host: no per-thread scratch (the previous layout, one thread per board,
needed 1,326 + 169 + 52×169 + 52 int64 per thread: 1.3 GB at 16,384 threads). Tested in Numba's CUDA
simulator against the CPU counts and built for sm_80/sm_90 in the tests; never run on a real GPU.
"""

import numpy as np
from numba import cuda

from kernels.block_ranking import rank_board
from kernels.evaluator import gpu as hand
from kernels.headsup.core import COMBO_FIELD, N_CLASSES, compile_ranking
from kernels.headsup.flops import board_rows_to_tallies

THREADS_PER_BLOCK = 128
#: Keys sorted per board: a power of two ≥ 1,326 (every combo), padded with the sentinel.
SORT_SIZE = 2048
N_CARDS = 52
_group_end = compile_ranking(cuda.jit(device=True), hand).group_end


@cuda.jit
def _tally_kernel(
    boards, weights, combos, combo_class, win, tie, board_win, board_tie,
    card_key, card_mask, rank_offsets, rank_values, flush_values,
):
    keys = cuda.shared.array(SORT_SIZE, dtype=np.int64)
    below = cuda.shared.array(N_CLASSES, dtype=np.int32)
    below_with_card = cuda.shared.array((N_CARDS, N_CLASSES), dtype=np.int16)  # ≤ 1,081: fits
    below_total_with_card = cuda.shared.array(N_CARDS, dtype=np.int32)
    tid = cuda.threadIdx.x
    board = cuda.blockIdx.x
    while board < boards.shape[0]:  # the same for every thread of the block: barriers are safe
        weight = weights[board]
        for j in range(tid, N_CLASSES, THREADS_PER_BLOCK):
            below[j] = 0
        for i in range(tid, N_CARDS * N_CLASSES, THREADS_PER_BLOCK):
            below_with_card[i // N_CLASSES, i % N_CLASSES] = 0
        for card in range(tid, N_CARDS, THREADS_PER_BLOCK):
            below_total_with_card[card] = 0
        count = rank_board(  # the live combos ranked and sorted in `keys` (ends with a barrier)
            boards[board], combos, keys, tid, THREADS_PER_BLOCK, card_key, card_mask, rank_offsets, rank_values,
            flush_values,
        )
        below_total = 0  # kept by thread 0, the only one that uses it
        start = 0
        while start < count:
            end = _group_end(keys, start, count)
            for t in range(start, end):  # wins against every strictly weaker combo; ties inside the group
                combo = keys[t] & COMBO_FIELD
                x, y, hero = combos[combo, 0], combos[combo, 1], combo_class[combo]
                for j in range(tid, N_CLASSES, THREADS_PER_BLOCK):
                    beaten = np.int64(below[j]) - below_with_card[x, j] - below_with_card[y, j]
                    if beaten:
                        cuda.atomic.add(win, (hero, j), weight * beaten)
                if tid == 0:
                    beaten_total = below_total - below_total_with_card[x] - below_total_with_card[y]
                    if beaten_total:
                        cuda.atomic.add(board_win, (board, hero), weight * beaten_total)
                for u in range(t + 1 + tid, end, THREADS_PER_BLOCK):
                    other = keys[u] & COMBO_FIELD
                    x2, y2 = combos[other, 0], combos[other, 1]
                    if x2 != x and x2 != y and y2 != x and y2 != y:
                        villain = combo_class[other]
                        cuda.atomic.add(tie, (hero, villain), weight)
                        cuda.atomic.add(tie, (villain, hero), weight)
                        cuda.atomic.add(board_tie, (board, hero), weight)
                        cuda.atomic.add(board_tie, (board, villain), weight)
            cuda.syncthreads()
            for t in range(start, end):  # the group joins the weaker ones: each class by its own thread
                combo = keys[t] & COMBO_FIELD
                x, y, hero = combos[combo, 0], combos[combo, 1], combo_class[combo]
                if hero % THREADS_PER_BLOCK == tid:
                    below[hero] += 1
                    below_with_card[x, hero] += 1
                    below_with_card[y, hero] += 1
                if tid == 0:
                    below_total += 1
                    below_total_with_card[x] += 1
                    below_total_with_card[y] += 1
            cuda.syncthreads()
            start = end
        cuda.syncthreads()  # every thread is done with `keys` (also when no combo is live)
        board += cuda.gridDim.x


def tally_boards(boards, weights, combos, combo_class, tables, blocks: int = 1024):
    """GPU twin of :func:`kernels.headsup.cpu.tally_boards` (same inputs, same int64 outputs; the boards' vs-random
    rows come back to the host, which adds them to the flop tallies as the CPU walk does)."""
    if len(combos) >= SORT_SIZE:
        raise ValueError(f"fewer than {SORT_SIZE} combos per board, got {len(combos)}")
    device = hand.device_tables(tables)
    win = cuda.to_device(np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64))
    tie = cuda.to_device(np.zeros((N_CLASSES, N_CLASSES), dtype=np.int64))
    board_win = cuda.to_device(np.zeros((len(boards), N_CLASSES), dtype=np.int64))
    board_tie = cuda.to_device(np.zeros((len(boards), N_CLASSES), dtype=np.int64))
    _tally_kernel[max(1, min(blocks, len(boards))), THREADS_PER_BLOCK](
        cuda.to_device(np.ascontiguousarray(boards, dtype=np.int64)),
        cuda.to_device(np.asarray(weights, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combos, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combo_class, dtype=np.int64)),
        win, tie, board_win, board_tie,
        device.card_key, device.card_mask, device.rank_offsets, device.rank_values, device.flush_values,
    )
    rows = board_rows_to_tallies(boards, board_win.copy_to_host(), board_tie.copy_to_host())
    return (win.copy_to_host(), tie.copy_to_host()) + rows
