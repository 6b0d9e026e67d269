"""CPU path of the exact four-handed counts: :mod:`.core` compiled with ``numba.njit``, boards in parallel."""

import numpy as np
from numba import njit, prange

from kernels.cards import ALL_COMBOS, N_CLASSES
from kernels.evaluator import cpu as hand
from kernels.fourhanded.core import N_CARDS, compile_board_functions, compile_graph_functions
from kernels.headsup.core import compile_ranking

_jit = njit(inline="always")


@_jit
def _add_count(counts, combo, k, value):
    counts[combo, k] += value


graph = compile_graph_functions(_jit)
count_board = compile_board_functions(_jit, graph, _add_count).count_board
_sorted_live_combos = compile_ranking(_jit, hand).sorted_live_combos
COMBOS = np.ascontiguousarray(ALL_COMBOS, dtype=np.int64)


@njit(parallel=True, cache=True)
def _tally_chunks(boards, weights, chunk_starts, combos, combo_class, card_key, card_mask, rank_offsets, rank_values,
                  flush_values):
    n_chunks = chunk_starts.size - 1
    by_class = np.zeros((n_chunks, 4, N_CLASSES), dtype=np.int64)
    for chunk in prange(n_chunks):
        keys = np.empty(combos.shape[0], dtype=np.int64)
        masks = np.empty((3, N_CARDS), dtype=np.uint64)
        ints = np.empty((6, N_CARDS), dtype=np.int64)
        counts = np.zeros((combos.shape[0], 4), dtype=np.int64)
        for i in range(chunk_starts[chunk], chunk_starts[chunk + 1]):
            count = _sorted_live_combos(boards[i], combos, keys, card_key, card_mask, rank_offsets, rank_values, flush_values)
            count_board(keys, count, combos, weights[i], counts, masks, ints)
        for combo in range(combos.shape[0]):
            for k in range(4):
                by_class[chunk, k, combo_class[combo]] += counts[combo, k]
    return by_class.sum(axis=0)


def tally_boards(boards, weights, combos, combo_class, tables, n_chunks: int = 64) -> tuple:
    """``(win, tie_2, tie_3, tie_4)``, int64 ``(169,)`` each: per hero class against three random hands, Σ over
    ``boards`` ``(M, 5)`` of ``weights`` ``(M,)`` × the opponent triples it beats, or ties with 1, 2 or 3 of them
    (the rest weaker), over its combos (:mod:`kernels.fourhanded.core`); ``combos`` / ``combo_class`` as
    :data:`kernels.cards.ALL_COMBOS` / ``COMBO_CLASS``. The same call as the other board walks' ``tally_boards``."""
    chunk_starts = np.linspace(0, len(boards), min(n_chunks, len(boards)) + 1).astype(np.int64)
    counts = _tally_chunks(np.ascontiguousarray(boards, dtype=np.int64), np.asarray(weights, dtype=np.int64), chunk_starts,
                           np.ascontiguousarray(combos, dtype=np.int64), np.asarray(combo_class, dtype=np.int64),
                           tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values)
    return tuple(counts)


@njit(cache=True)
def count_subset(keys, combos):
    """(c0..c3) of the combos in sorted ``keys`` (``strength << 11 | combo``), the opponents drawn from them alone
    (the tests' small decks)."""
    counts = np.zeros((combos.shape[0], 4), dtype=np.int64)
    count_board(keys, keys.size, combos, 1, counts, np.empty((3, N_CARDS), dtype=np.uint64), np.empty((6, N_CARDS), dtype=np.int64))
    return counts
