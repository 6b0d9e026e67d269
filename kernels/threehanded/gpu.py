"""CUDA path of the exact three-handed counts: one thread block per board, every hero combo in parallel.

The same counting as :mod:`kernels.threehanded.core` (the CPU path: a sequential walk over the
strength groups), laid out for a GPU so that no hero waits for the walk to reach it:

* the block's 128 threads rank the board's live combos and bitonic-sort them in shared memory
  (2,048 int64 keys ``strength << 11 | combo``; :func:`kernels.block_ranking.rank_board`, shared with
  the heads-up kernel): a combo's sorted position says how strong it is, and the strength group of
  position ``p`` is the run of keys between ``strength << 11`` and ``(strength + 1) << 11``;
* two int16 card tables in shared memory: ``position[c, d]``, the sorted position of the combo
  ``{c, d}`` (:data:`NO_POSITION` if it is dead or absent from the combo list), and ``holding[c]``, the
  sorted positions of the combos holding card ``c`` (≤ 51, padded to 64 with :data:`NO_POSITION`, each
  row bitonic-sorted in place: one sort of 52 segments);
* one thread per hero combo (sorted position ``p``, cards ``x, y``, group ``[start, end)``): ``deg_B(c)``
  = entries of ``holding[c]`` below ``start`` less ``{c, x}``, ``{c, y}`` if weaker, ``deg_T(c)`` = entries
  in ``[start, end)`` less the same two if tied, by two 6-step binary searches per card; ``|B|``,
  ``|T|`` from the group bounds less the hero's own cards' counts. No loop carries state from one hero
  to the next;
* the counts go to per-block tallies in shared memory (3 × 169 int64, atomic adds), added to the
  global tallies once per block, after its last board: 507 global atomics per block in all.

Shared memory per block ≈ 32 KB (keys 16 KB, ``holding`` 52×64 int16 = 6.5 KB, ``position`` 52×52
int16 = 5.3 KB, tallies 4 KB). Global memory holds only the inputs, the evaluator tables (0.59 MB)
and the three (169,) int64 tallies: no per-thread scratch (the previous layout, one thread per
board, kept 1,326 + 1,327 + 2 × 52 int64 per thread in global memory: ≈ 22 KB a thread, 360 MB at
16,384 threads). Tested in Numba's CUDA simulator against the CPU counts and built for sm_80/sm_90
in the tests; never run on a real GPU.
"""

import numpy as np
from numba import cuda

from kernels.block_ranking import bitonic_sort, count_below, rank_board
from kernels.evaluator import gpu as hand
from kernels.headsup.core import COMBO_BITS, COMBO_FIELD
from kernels.threehanded.core import N_CLASSES, compile_pair_counts

THREADS_PER_BLOCK = 128  # 256 gives the same registers: 1 block (12%) instead of 3 (19%) on sm_80
#: Keys sorted per board: a power of two above 1,326 (every combo), padded with the sentinel.
SORT_SIZE = 2048
N_CARDS = 52
#: Entries of a card's row of sorted positions: a power of two above the 51 combos that hold a card.
ROW = 64
#: Position of a combo that is dead on the board or absent from the combo list: above every real one.
NO_POSITION = 32767
HOLDING_SIZE = N_CARDS * ROW  # a constant: shared arrays need a literal size


_pair_counts = compile_pair_counts(cuda.jit(device=True))


@cuda.jit
def _tally_kernel(
    boards, weights, combos, combo_class, win, tie2, tie3, card_key, card_mask, rank_offsets, rank_values, flush_values,
):
    keys = cuda.shared.array(SORT_SIZE, dtype=np.int64)
    position = cuda.shared.array((N_CARDS, N_CARDS), dtype=np.int16)
    holding = cuda.shared.array(HOLDING_SIZE, dtype=np.int16)  # row c: holding[c * ROW : (c + 1) * ROW]
    block_win = cuda.shared.array(N_CLASSES, dtype=np.int64)
    block_tie2 = cuda.shared.array(N_CLASSES, dtype=np.int64)
    block_tie3 = cuda.shared.array(N_CLASSES, dtype=np.int64)
    tid = cuda.threadIdx.x
    for j in range(tid, N_CLASSES, THREADS_PER_BLOCK):
        block_win[j] = 0
        block_tie2[j] = 0
        block_tie3[j] = 0
    board = cuda.blockIdx.x
    while board < boards.shape[0]:  # the same for every thread of the block: barriers are safe
        weight = weights[board]
        on_board = np.uint64(0)
        for k in range(5):
            on_board |= np.uint64(1) << np.uint64(boards[board, k])
        for i in range(tid, N_CARDS * N_CARDS, THREADS_PER_BLOCK):
            position[i // N_CARDS, i % N_CARDS] = NO_POSITION
        for i in range(tid, HOLDING_SIZE, THREADS_PER_BLOCK):
            holding[i] = NO_POSITION
        count = rank_board(  # the live combos ranked and sorted in `keys` (ends with a barrier)
            boards[board], combos, keys, tid, THREADS_PER_BLOCK, card_key, card_mask, rank_offsets, rank_values,
            flush_values,
        )
        for p in range(tid, count, THREADS_PER_BLOCK):  # each live combo's position, by card
            combo = keys[p] & COMBO_FIELD
            x, y = combos[combo, 0], combos[combo, 1]
            position[x, y] = p
            position[y, x] = p
            holding[x * ROW + y] = p  # slot y of row x: no other combo of row x writes it
            holding[y * ROW + x] = p
        cuda.syncthreads()
        bitonic_sort(holding, ROW, tid, THREADS_PER_BLOCK)  # each row ascending (ends with a barrier)

        for p in range(tid, count, THREADS_PER_BLOCK):  # one hero combo per thread
            key = keys[p]
            strength = key >> COMBO_BITS
            combo = key & COMBO_FIELD
            x, y = combos[combo, 0], combos[combo, 1]
            start = count_below(keys, 0, SORT_SIZE, strength << COMBO_BITS)  # its strength group: [start, end)
            end = count_below(keys, 0, SORT_SIZE, (strength + 1) << COMBO_BITS)
            x_below = count_below(holding, x * ROW, ROW, start)
            y_below = count_below(holding, y * ROW, ROW, start)
            beaten = start - x_below - y_below  # no weaker combo holds both x and y
            tied = (end - start) - (count_below(holding, x * ROW, ROW, end) - x_below)
            tied += 1 - (count_below(holding, y * ROW, ROW, end) - y_below)  # the hero was counted twice
            square_b = 0
            square_t = 0
            cross = 0
            for card in range(N_CARDS):
                if card == x or card == y or (on_board >> np.uint64(card)) & np.uint64(1):
                    continue
                with_x = position[card, x]
                with_y = position[card, y]
                card_below = count_below(holding, card * ROW, ROW, start)
                degree_b = card_below - (with_x < start) - (with_y < start)
                degree_t = count_below(holding, card * ROW, ROW, end) - card_below
                # one flag at a time: in the simulator they are NumPy bools, whose sum is a logical "or"
                degree_t = degree_t - (start <= with_x and with_x < end) - (start <= with_y and with_y < end)
                square_b += degree_b * degree_b
                square_t += degree_t * degree_t
                cross += degree_b * degree_t
            hero = combo_class[combo]
            wins, ties_of_two, ties_of_three = _pair_counts(beaten, tied, square_b, square_t, cross)
            if wins:
                cuda.atomic.add(block_win, hero, weight * wins)
            if ties_of_two:
                cuda.atomic.add(block_tie2, hero, weight * ties_of_two)
            if ties_of_three:
                cuda.atomic.add(block_tie3, hero, weight * ties_of_three)
        cuda.syncthreads()  # every thread is done with the shared tables before the next board
        board += cuda.gridDim.x
    for j in range(tid, N_CLASSES, THREADS_PER_BLOCK):  # once per block
        if block_win[j]:
            cuda.atomic.add(win, j, block_win[j])
        if block_tie2[j]:
            cuda.atomic.add(tie2, j, block_tie2[j])
        if block_tie3[j]:
            cuda.atomic.add(tie3, j, block_tie3[j])


def tally_boards(boards, weights, combos, combo_class, tables, blocks: int = 1024):
    """GPU twin of :func:`kernels.threehanded.cpu.tally_boards` (same inputs, same int64 outputs)."""
    if len(combos) >= SORT_SIZE:
        raise ValueError(f"fewer than {SORT_SIZE} combos per board, got {len(combos)}")
    device = hand.device_tables(tables)
    tallies = [cuda.to_device(np.zeros(N_CLASSES, dtype=np.int64)) for _ in range(3)]
    _tally_kernel[max(1, min(blocks, len(boards))), THREADS_PER_BLOCK](
        cuda.to_device(np.ascontiguousarray(boards, dtype=np.int64)),
        cuda.to_device(np.asarray(weights, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combos, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combo_class, dtype=np.int64)),
        *tallies,
        device.card_key, device.card_mask, device.rank_offsets, device.rank_values, device.flush_values,
    )
    return tuple(t.copy_to_host() for t in tallies)
