"""Block-cooperative CUDA device functions shared by the board walks (heads-up, three-handed).

Written once, called by every thread of a block together (each contains ``cuda.syncthreads``, so
every thread of the block must call it with the same arguments but its own ``tid``):

* :func:`rank_board` — the block's threads rank the board's combos into a shared array of keys
  ``strength << 11 | combo`` (dead and padding slots get :data:`DEAD`, above every real key), sort
  them with :func:`bitonic_sort` and return the number of live combos (they come first);
* :func:`bitonic_sort` — ascending bitonic sort in shared memory of every aligned segment of
  ``segment`` entries (a power of two) of a 1-D array; one thread per compare-exchange, a barrier
  per pass;
* :func:`count_below` — entries below a target in a sorted power-of-two run whose last entry is
  known to be at least the target (a branch-free binary search, ``log2(n)`` shared reads).
"""

import numpy as np
from numba import cuda

from kernels.evaluator import gpu as hand
from kernels.evaluator.core import KEY_BASE
from kernels.headsup.core import COMBO_BITS

#: Key of a dead or absent combo (and of sort padding): above every real key (strength < 2^13, combo < 2^11).
DEAD = np.int64(1 << 62)


@cuda.jit(device=True)
def bitonic_sort(values, segment, tid, n_threads):
    """Sort each aligned run of ``segment`` entries of ``values`` ascending (``len(values)``: a multiple of
    ``segment``, a power of two)."""
    half = values.shape[0] // 2
    size = 2
    while size <= segment:
        stride = size // 2
        while stride > 0:
            for j in range(tid, half, n_threads):  # pair j: (i, i + stride), i's bit `stride` clear
                i = 2 * j - (j & (stride - 1))
                partner = i + stride
                ascending = size == segment or (i & size) == 0
                a, b = values[i], values[partner]
                if (a > b) == ascending:
                    values[i], values[partner] = b, a
            cuda.syncthreads()
            stride //= 2
        size *= 2


@cuda.jit(device=True)
def count_below(values, base, n, target):
    """Number of entries of the sorted run ``values[base:base + n]`` below ``target``; ``n`` a power of two and
    ``values[base + n - 1] >= target`` (the run is padded with a sentinel)."""
    position = 0
    step = n // 2
    while step > 0:
        if values[base + position + step - 1] < target:
            position += step
        step //= 2
    return position


@cuda.jit(device=True)
def rank_board(board, combos, keys, tid, n_threads, card_key, card_mask, rank_offsets, rank_values, flush_values):
    """Fill the shared ``keys`` (a power of two ≥ ``len(combos)``) with the sorted keys of ``board``'s live
    combos, padded with :data:`DEAD`; returns how many are live. Ends with a barrier."""
    board_key = KEY_BASE
    board_mask = np.uint64(0)
    dead = np.uint64(0)
    for k in range(5):
        card = board[k]
        board_key += card_key[card]
        board_mask += card_mask[card]
        dead |= np.uint64(1) << np.uint64(card)
    for i in range(tid, keys.shape[0], n_threads):
        key = DEAD
        if i < combos.shape[0]:
            first, second = combos[i, 0], combos[i, 1]
            if not ((dead >> np.uint64(first)) & np.uint64(1) or (dead >> np.uint64(second)) & np.uint64(1)):
                strength = hand.strength_of_key(
                    board_key + card_key[first] + card_key[second], board_mask + card_mask[first] + card_mask[second],
                    rank_offsets, rank_values, flush_values,
                )
                key = (np.int64(strength) << COMBO_BITS) | np.int64(i)
        keys[i] = key
    cuda.syncthreads()
    bitonic_sort(keys, keys.shape[0], tid, n_threads)
    return count_below(keys, 0, keys.shape[0], DEAD)
