"""CPU path of the exact heads-up tables: board orbits split into chunks, one ``prange`` task each; each board's
vs-random counts kept in a row of its own (no two chunks write the same row) for the flop table."""

import numpy as np
from numba import njit, prange

from kernels.evaluator import cpu as hand
from kernels.evaluator.core import KEY_BASE
from kernels.headsup.core import N_CLASSES, compile_board_functions
from kernels.headsup.flops import board_rows_to_tallies


@njit(inline="always")
def _add_to_matrix(matrix, i, j, value):
    matrix[i, j] += value


@njit(inline="always")
def _add_to_vector(vector, i, value):
    vector[i] += value


@njit(inline="always")
def _add_beaten_row(win, hero, weight, below, below_with_card, x, y):
    for j in range(N_CLASSES):
        win[hero, j] += weight * (below[j] - below_with_card[x, j] - below_with_card[y, j])


_BOARD = compile_board_functions(njit, hand, _add_to_matrix, _add_to_vector, _add_beaten_row)
accumulate_board = _BOARD.accumulate_board


@njit(parallel=True, cache=True)
def _tally_chunks(boards, weights, chunk_starts, combos, combo_class, card_key, card_mask, rank_offsets, rank_values, flush_values):
    """Class-pair tallies per chunk, and each board's own vs-random row (the flop table adds those to its flops)."""
    n_chunks = chunk_starts.size - 1
    win = np.zeros((n_chunks, N_CLASSES, N_CLASSES), dtype=np.int64)
    tie = np.zeros((n_chunks, N_CLASSES, N_CLASSES), dtype=np.int64)
    board_win = np.zeros((boards.shape[0], N_CLASSES), dtype=np.int64)
    board_tie = np.zeros((boards.shape[0], N_CLASSES), dtype=np.int64)
    for chunk in prange(n_chunks):
        keys = np.empty(1326, dtype=np.int64)
        below = np.empty(N_CLASSES, dtype=np.int64)
        below_with_card = np.empty((52, N_CLASSES), dtype=np.int64)
        below_total_with_card = np.empty(52, dtype=np.int64)
        for b in range(chunk_starts[chunk], chunk_starts[chunk + 1]):
            accumulate_board(
                boards[b], weights[b], combos, combo_class, keys, below, below_with_card, below_total_with_card,
                win[chunk], tie[chunk], board_win[b], board_tie[b],
                card_key, card_mask, rank_offsets, rank_values, flush_values,
            )
    return win.sum(axis=0), tie.sum(axis=0), board_win, board_tie


def tally_boards(boards, weights, combos, combo_class, tables, n_chunks: int = 64):
    """Weighted win/tie tallies over ``boards`` ``(M, 5)`` with ``weights`` ``(M,)``.

    Returns ``(win (169,169), tie (169,169), win_vs_random (169,), tie_vs_random (169,), flop_win (1755,169),
    flop_tie (1755,169))`` int64, hero class first; see :mod:`kernels.headsup.core` for what is counted and
    :mod:`kernels.flop.all_flops` for the flop tallies (each board's vs-random counts added to its ten flops).
    """
    chunk_starts = np.linspace(0, len(boards), min(n_chunks, len(boards)) + 1).astype(np.int64)
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    win, tie, board_win, board_tie = _tally_chunks(
        boards, np.asarray(weights, dtype=np.int64), chunk_starts,
        combos, combo_class, tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values,
        tables.flush_values,
    )
    return (win, tie) + board_rows_to_tallies(boards, board_win, board_tie)


@njit(cache=True)
def combo_matchup_counts(a, b, c, d, card_key, card_mask, rank_offsets, rank_values, flush_values):
    """(wins of {a,b}, ties, wins of {c,d}) over all C(48, 5) boards; a..d distinct card ids."""
    key_first = KEY_BASE + card_key[a] + card_key[b]
    key_second = KEY_BASE + card_key[c] + card_key[d]
    mask_first = card_mask[a] | card_mask[b]
    mask_second = card_mask[c] | card_mask[d]
    live = np.array([card for card in range(52) if card != a and card != b and card != c and card != d])
    counts = np.zeros(3, dtype=np.int64)
    n = live.size
    for i0 in range(n - 4):
        k0, m0 = card_key[live[i0]], card_mask[live[i0]]
        for i1 in range(i0 + 1, n - 3):
            k1, m1 = k0 + card_key[live[i1]], m0 | card_mask[live[i1]]
            for i2 in range(i1 + 1, n - 2):
                k2, m2 = k1 + card_key[live[i2]], m1 | card_mask[live[i2]]
                for i3 in range(i2 + 1, n - 1):
                    k3, m3 = k2 + card_key[live[i3]], m2 | card_mask[live[i3]]
                    for i4 in range(i3 + 1, n):
                        k4, m4 = k3 + card_key[live[i4]], m3 | card_mask[live[i4]]
                        s1 = hand.strength_of_key(key_first + k4, mask_first | m4, rank_offsets, rank_values, flush_values)
                        s2 = hand.strength_of_key(key_second + k4, mask_second | m4, rank_offsets, rank_values, flush_values)
                        if s1 > s2:
                            counts[0] += 1
                        elif s1 == s2:
                            counts[1] += 1
                        else:
                            counts[2] += 1
    return counts
