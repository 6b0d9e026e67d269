"""From the walk's per-board vs-random rows to its vs-random and flop tallies: shared by the CPU and GPU walks."""

import numpy as np

from kernels.flop.all_flops import add_boards_to_flops, orbit_of_flop
from kernels.flop.flops import N_SUIT_DISTINCT_FLOPS


def board_rows_to_tallies(boards, board_win, board_tie) -> tuple:
    """``(win_vs_random (169,), tie_vs_random (169,), flop_win (1755, 169), flop_tie (1755, 169))`` int64 from
    each board's weighted vs-random counts ``board_win``, ``board_tie`` ``(M, 169)``."""
    n_classes = board_win.shape[1]
    flop_win = np.zeros((N_SUIT_DISTINCT_FLOPS, n_classes), dtype=np.int64)
    flop_tie = np.zeros((N_SUIT_DISTINCT_FLOPS, n_classes), dtype=np.int64)
    add_boards_to_flops(np.asarray(boards, dtype=np.int64), board_win, board_tie, orbit_of_flop(), flop_win, flop_tie)
    return board_win.sum(axis=0), board_tie.sum(axis=0), flop_win, flop_tie
