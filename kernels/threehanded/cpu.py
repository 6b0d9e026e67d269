"""CPU path of the exact three-handed counts: board orbits split into chunks, one ``prange`` task each."""

import numpy as np
from numba import njit, prange

from kernels.evaluator import cpu as hand
from kernels.headsup.core import compile_ranking
from kernels.threehanded.core import N_CLASSES, combo_index_table, compile_board_functions


@njit(inline="always")
def _add_to_vector(vector, i, value):
    vector[i] += value


accumulate_board = compile_board_functions(njit, compile_ranking(njit, hand), _add_to_vector).accumulate_board


@njit(parallel=True, cache=True)
def _tally_chunks(boards, weights, chunk_starts, combos, combo_class, combo_index, card_key, card_mask, rank_offsets,
                  rank_values, flush_values):
    n_chunks = chunk_starts.size - 1
    win = np.zeros((n_chunks, N_CLASSES), dtype=np.int64)
    tie2 = np.zeros((n_chunks, N_CLASSES), dtype=np.int64)
    tie3 = np.zeros((n_chunks, N_CLASSES), dtype=np.int64)
    for chunk in prange(n_chunks):
        keys = np.empty(combos.shape[0], dtype=np.int64)
        strength_of = np.empty(combos.shape[0] + 1, dtype=np.int64)
        below_card = np.empty(52, dtype=np.int64)
        equal_card = np.empty(52, dtype=np.int64)
        for b in range(chunk_starts[chunk], chunk_starts[chunk + 1]):
            accumulate_board(
                boards[b], weights[b], combos, combo_class, combo_index, keys, strength_of, below_card, equal_card,
                win[chunk], tie2[chunk], tie3[chunk], card_key, card_mask, rank_offsets, rank_values, flush_values,
            )
    return win.sum(axis=0), tie2.sum(axis=0), tie3.sum(axis=0)


def tally_boards(boards, weights, combos, combo_class, tables, n_chunks: int = 64):
    """Weighted counts over ``boards`` ``(M, 5)`` with ``weights`` ``(M,)`` of the opponent pairs each
    hero class wins against, 2-way ties and 3-way ties: three ``(169,)`` int64 (see :mod:`.core`)."""
    chunk_starts = np.linspace(0, len(boards), min(n_chunks, len(boards)) + 1).astype(np.int64)
    return _tally_chunks(
        np.ascontiguousarray(boards, dtype=np.int64), np.asarray(weights, dtype=np.int64), chunk_starts,
        np.ascontiguousarray(combos, dtype=np.int64), np.ascontiguousarray(combo_class, dtype=np.int64),
        combo_index_table(combos), tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values,
        tables.flush_values,
    )
