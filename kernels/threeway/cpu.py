"""CPU path of the class-triple Monte Carlo: boards evaluated in parallel, then triples in parallel.

A batch of boards is dealt and every combo evaluated on each (``prange`` over boards), then each
thread takes whole triples and walks the batch's boards (``prange`` over triples): a triple's counts
are written by one thread only, so no atomics and no per-thread copies.
"""

import numpy as np
from numba import njit, prange

from kernels.cards import ALL_COMBOS, N_CARDS
from kernels.evaluator import cpu as hand
from kernels.sampling.dealing import compile_dealing
from kernels.sampling.rng import compile_rng
from kernels.threeway.core import ORDER_CODE, combo_tables, compile_threeway

_jit = njit(_nrt=False, inline="always")
_RNG = compile_rng(_jit)
_THREEWAY = compile_threeway(_jit, hand.strength_of_key, _RNG, compile_dealing(_jit, _RNG))
_board_strengths, _sample_triple, _child = _THREEWAY.board_strengths, _THREEWAY.sample_triple, _RNG.child


@njit(parallel=True, cache=True)
def _board_pass(shard_key, first_board, board_keys, board_bits, strengths, combos, card_key, card_mask, rank_offsets,
                rank_values, flush_values):
    base_deck = np.arange(N_CARDS).astype(np.uint8)
    for b in prange(board_keys.size):
        deck = np.empty(N_CARDS, dtype=np.uint8)
        board_keys[b] = _child(shard_key, np.uint64(first_board + b))
        board_bits[b] = _board_strengths(board_keys[b], deck, base_deck, combos, strengths[b], card_key, card_mask,
                                         rank_offsets, rank_values, flush_values)


@njit(parallel=True, cache=True)
def _triple_pass(triples, classes, board_keys, board_bits, strengths, class_start, class_combo, combo_mask, order_code,
                 counts):
    for row in prange(triples.size):
        for b in range(board_keys.size):
            _sample_triple(triples[row], classes[row, 0], classes[row, 1], classes[row, 2], board_keys[b], board_bits[b],
                           strengths[b], class_start, class_combo, combo_mask, order_code, counts, row)


def simulate(counts, shard_key, first_board, n_boards, triples, classes, tables) -> None:
    """Add boards ``first_board .. first_board + n_boards - 1`` of a shard to ``counts`` (in place).

    counts: ``(T, 13)`` uint32 (int64 works too), one row per entry of ``triples`` ``(T,)`` int64 triple
    indices with ``classes`` ``(T, 3)`` their sorted classes; shard_key:
    :func:`kernels.sampling.rng.shard_key`; tables: evaluator tables. Memory: n_boards × 1326 int32.
    """
    class_start, class_combo, combo_mask = combo_tables()
    board_keys = np.empty(n_boards, dtype=np.uint64)
    board_bits = np.empty(n_boards, dtype=np.uint64)
    strengths = np.empty((n_boards, ALL_COMBOS.shape[0]), dtype=np.int32)
    _board_pass(np.uint64(shard_key), first_board, board_keys, board_bits, strengths, ALL_COMBOS, tables.card_key,
                tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values)
    _triple_pass(np.ascontiguousarray(triples, dtype=np.int64), np.ascontiguousarray(classes, dtype=np.int64), board_keys,
                 board_bits, strengths, class_start, class_combo, combo_mask, ORDER_CODE, counts)


@njit(parallel=True, cache=True)
def _compatible(classes, class_start, class_combo, combo_mask, out):
    for row in prange(classes.shape[0]):
        total = 0
        for x in range(class_start[classes[row, 0]], class_start[classes[row, 0] + 1]):
            ma = combo_mask[class_combo[x]]
            for y in range(class_start[classes[row, 1]], class_start[classes[row, 1] + 1]):
                mb = combo_mask[class_combo[y]]
                if ma & mb:
                    continue
                for z in range(class_start[classes[row, 2]], class_start[classes[row, 2] + 1]):
                    mc = combo_mask[class_combo[z]]
                    if not (mc & (ma | mb)):
                        total += 1
        out[row] = total


def compatible_combos(classes) -> np.ndarray:
    """``(T,)`` int64: for each row of ``classes`` ``(T, 3)``, the number of ordered combo triples
    (one combo per class, seats a, b, c) that share no card: 0 for card-impossible triples (AA AA AA)."""
    classes = np.ascontiguousarray(classes, dtype=np.int64)
    out = np.empty(classes.shape[0], dtype=np.int64)
    _compatible(classes, *combo_tables(), out)
    return out
